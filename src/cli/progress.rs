//! Progress bars of the long batch commands (`eval`, `dataset`, `synth`, `simulate`, `replay`,
//! `rate`), drawn with `indicatif` on standard error. A bar is shown only when standard error
//! is a terminal and `--quiet` was not given, so piped or logged output never holds one; the
//! commands' own report lines go above the bar (or straight to stderr when it is hidden).

use std::borrow::Cow;
use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The `--quiet` switch the batch commands share.
#[derive(Args, Debug, Default, Clone, Copy)]
pub struct ProgressArgs {
    /// Draw no progress bar (none is drawn either when standard error is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

impl ProgressArgs {
    /// Whether a bar is drawn: a terminal on standard error and no `--quiet`.
    pub fn shows(self) -> bool {
        !self.quiet && std::io::stderr().is_terminal()
    }
}

/// A progress bar over a known number of items, or a counter when the number is unknown.
pub struct Progress {
    bar: ProgressBar,
    shown: bool,
}

impl Progress {
    /// A bar over `len` items (`None`: a spinner counting them), each called `unit`
    /// ("photos", "clips"); hidden unless `args` shows one.
    pub fn new(args: ProgressArgs, len: Option<u64>, unit: &'static str) -> Progress {
        let shown = args.shows();
        if !shown {
            return Progress {
                bar: ProgressBar::hidden(),
                shown,
            };
        }
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
        // The templates are checked by the tests; a bad one would fall back to the default
        // style rather than fail the command.
        if let Ok(style) = ProgressStyle::with_template(&template(len.is_some(), unit)) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar, shown }
    }

    /// One more item done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Items done so far.
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// What is being worked on (shown after the counts).
    pub fn set_message(&self, msg: impl Into<Cow<'static, str>>) {
        self.bar.set_message(msg);
    }

    /// A report line on standard error, above the bar when one is drawn.
    pub fn println(&self, line: impl AsRef<str>) {
        if self.shown {
            self.bar.println(line);
        } else {
            eprintln!("{}", line.as_ref());
        }
    }

    /// Runs `f` (which prints to standard output) with the bar cleared, then redraws it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar (the report lines stay).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The bar's layout: counts, elapsed time and what is left (or the rate, for a counter).
fn template(len_known: bool, unit: &str) -> String {
    if len_known {
        format!("{{bar:30}} {{pos}}/{{len}} {unit} [{{elapsed}}, {{eta}} left] {{msg}}")
    } else {
        format!("{{spinner}} {{pos}} {unit} [{{elapsed}}, {{per_sec}}] {{msg}}")
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An early return (an error) must not leave a half-drawn bar under the message.
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_or_no_terminal_draws_nothing() {
        let quiet = ProgressArgs { quiet: true };
        assert!(!quiet.shows());
        let p = Progress::new(quiet, Some(3), "photos");
        assert!(!p.shown && p.bar.is_hidden());
        p.inc();
        assert_eq!(p.bar.position(), 1, "a hidden bar still counts");
        // Under `cargo test` standard error is captured or piped, not a terminal.
        if !std::io::stderr().is_terminal() {
            assert!(!ProgressArgs::default().shows());
        }
    }

    #[test]
    fn both_templates_parse() {
        for known in [true, false] {
            let t = template(known, "photos");
            assert!(ProgressStyle::with_template(&t).is_ok(), "{t}");
            assert!(t.contains("photos"));
        }
    }
}
