//! The screen-target options shared by `scan --screen` and `fill` (`--window`, `--monitor`,
//! `--region`), turned into a [`ScreenTarget`]. Parsing only; capture is `screen`'s.

use clap::Args;

use sudoku_lens::screen::{ScreenRect, ScreenTarget};

/// Which part of the screen to capture.
#[derive(Args, Debug, Default, Clone)]
pub struct ScreenArgs {
    /// Capture the window whose title is NAME (or the one window whose title contains it).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["monitor", "region"])]
    pub window: Option<String>,
    /// Capture monitor N only (0-based; default: the whole screen, every monitor).
    #[arg(long, value_name = "N", conflicts_with = "region")]
    pub monitor: Option<usize>,
    /// Capture a rectangle of the screen, WIDTHxHEIGHT+X+Y.
    #[arg(long, value_name = "RECT", value_parser = parse_rect)]
    pub region: Option<ScreenRect>,
}

fn parse_rect(s: &str) -> Result<ScreenRect, String> {
    s.parse()
}

impl ScreenArgs {
    /// Whether any of the options was given.
    pub fn any(&self) -> bool {
        self.window.is_some() || self.monitor.is_some() || self.region.is_some()
    }

    /// The target these options name (the whole screen when none is given).
    pub fn target(&self) -> ScreenTarget {
        if let Some(name) = &self.window {
            ScreenTarget::Window(name.clone())
        } else if let Some(i) = self.monitor {
            ScreenTarget::Monitor(i)
        } else if let Some(r) = self.region {
            ScreenTarget::Region(r)
        } else {
            ScreenTarget::Whole
        }
    }
}
