//! A tiny Sudoku game for the screen-source tests: one puzzle from a collection file, drawn
//! like a phone app in one of five themes, taking a click on a cell and a digit key (or the
//! number pad below the board), and writing its grid (81 digits, 0 empty) to a file on every
//! change. `tests/screen_fill.rs` starts it under Xvfb, reads it with `scan --screen` and fills
//! it with `fill`.
//!
//! ```sh
//! cargo run --example test_game -- --puzzle ../shared/puzzles/top1465.txt --line 3 \
//!     --theme dark --state /tmp/game.txt
//! ```
//!
//! Themes: `light`, `dark`, `boxes` (coloured 3×3 boxes), `highlight` (the selected cell's
//! row, column and box shaded), `pencil` (every empty cell shows its candidates).
//! `--move-after N --move-by DX,DY` moves the window after the Nth digit typed (the test of a
//! game that moves mid-fill).

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::{Parser, ValueEnum};
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2};

/// Colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Theme {
    Light,
    Dark,
    Boxes,
    Highlight,
    Pencil,
}

#[derive(Parser, Debug)]
struct Args {
    /// Puzzle collection: one puzzle a line (81 digits or dots; `id puzzle rating` lines too).
    #[arg(long)]
    puzzle: PathBuf,
    /// Which puzzle of the file (0-based, comment lines skipped).
    #[arg(long, default_value = "0")]
    line: usize,
    #[arg(long, value_enum, default_value = "light")]
    theme: Theme,
    /// Write the grid here (81 digits, 0 empty, then a newline) at start and on every change.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Window title.
    #[arg(long, default_value = "Test Sudoku")]
    title: String,
    /// Window position on the screen, X,Y.
    #[arg(long, default_value = "40,30", value_parser = pair)]
    pos: (f32, f32),
    /// After this many digits typed, move the window by `--move-by`.
    #[arg(long)]
    move_after: Option<usize>,
    /// How far `--move-after` moves the window, DX,DY.
    #[arg(long, default_value = "120,60", value_parser = pair)]
    move_by: (f32, f32),
}

fn pair(s: &str) -> Result<(f32, f32), String> {
    let (a, b) = s.split_once(',').ok_or("write X,Y")?;
    Ok((
        a.trim().parse().map_err(|_| "bad X")?,
        b.trim().parse().map_err(|_| "bad Y")?,
    ))
}

/// Reads puzzle `index` of a collection file.
fn read_puzzle(path: &PathBuf, index: usize) -> anyhow::Result<[u8; 81]> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let line = text
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .find(|t| t.len() == 81 && t.chars().all(|c| c.is_ascii_digit() || c == '.'))
        })
        .nth(index)
        .with_context(|| format!("{} has no puzzle {index}", path.display()))?;
    let mut grid = [0u8; 81];
    for (cell, c) in grid.iter_mut().zip(line.chars()) {
        *cell = c.to_digit(10).unwrap_or(0) as u8;
    }
    Ok(grid)
}

struct Game {
    givens: [u8; 81],
    grid: [u8; 81],
    selected: usize,
    theme: Theme,
    state: Option<PathBuf>,
    typed: usize,
    move_after: Option<usize>,
    move_by: (f32, f32),
    pos: (f32, f32),
}

struct Palette {
    background: Color32,
    paper: Color32,
    thin: Color32,
    thick: Color32,
    given: Color32,
    entered: Color32,
    pencil: Color32,
    shade: Color32,
    selected: Color32,
    box_tint: Option<Color32>,
}

impl Theme {
    fn palette(self) -> Palette {
        let light = Palette {
            background: Color32::from_rgb(242, 244, 248),
            paper: Color32::WHITE,
            thin: Color32::from_rgb(190, 196, 206),
            thick: Color32::from_rgb(52, 72, 97),
            given: Color32::from_rgb(20, 28, 40),
            entered: Color32::from_rgb(50, 90, 200),
            pencil: Color32::from_rgb(110, 118, 130),
            shade: Color32::from_rgb(226, 235, 243),
            selected: Color32::from_rgb(187, 222, 251),
            box_tint: None,
        };
        match self {
            Theme::Light | Theme::Pencil => light,
            Theme::Highlight => light,
            Theme::Boxes => Palette {
                paper: Color32::from_rgb(255, 250, 235),
                box_tint: Some(Color32::from_rgb(214, 236, 222)),
                thin: Color32::from_rgb(170, 170, 160),
                thick: Color32::from_rgb(90, 90, 80),
                ..light
            },
            Theme::Dark => Palette {
                background: Color32::from_rgb(18, 18, 20),
                paper: Color32::from_rgb(34, 36, 40),
                thin: Color32::from_rgb(70, 74, 82),
                thick: Color32::from_rgb(150, 156, 168),
                given: Color32::from_rgb(226, 230, 236),
                entered: Color32::from_rgb(120, 170, 255),
                pencil: Color32::from_rgb(140, 146, 156),
                shade: Color32::from_rgb(44, 48, 56),
                selected: Color32::from_rgb(40, 70, 110),
                box_tint: None,
            },
        }
    }
}

impl Game {
    fn write_state(&self) {
        let Some(path) = &self.state else { return };
        let text: String = self.grid.iter().map(|d| char::from(b'0' + d)).collect();
        // Written whole then renamed, so a reader never sees half a grid.
        let tmp = path.with_extension("tmp");
        let result =
            std::fs::write(&tmp, format!("{text}\n")).and_then(|()| std::fs::rename(&tmp, path));
        if let Err(e) = result {
            eprintln!("test_game: cannot write {}: {e}", path.display());
        }
    }

    fn enter(&mut self, digit: u8, ctx: &egui::Context) {
        if self.givens[self.selected] != 0 || self.grid[self.selected] == digit {
            return;
        }
        self.grid[self.selected] = digit;
        self.write_state();
        if digit != 0 {
            self.typed += 1;
            if Some(self.typed) == self.move_after {
                self.pos = (self.pos.0 + self.move_by.0, self.pos.1 + self.move_by.1);
                ctx.send_viewport_cmd(egui::ViewportCommand::OuterPosition(Pos2::new(
                    self.pos.0, self.pos.1,
                )));
            }
        }
    }

    fn candidates(&self, index: usize) -> Vec<u8> {
        let (r, c) = (index / 9, index % 9);
        (1..=9u8)
            .filter(|&d| {
                (0..9).all(|k| {
                    let (br, bc) = (r / 3 * 3 + k / 3, c / 3 * 3 + k % 3);
                    self.grid[r * 9 + k] != d
                        && self.grid[k * 9 + c] != d
                        && self.grid[br * 9 + bc] != d
                })
            })
            .collect()
    }

    fn draw(&mut self, ui: &mut egui::Ui) {
        let pal = self.theme.palette();
        let ctx = ui.ctx().clone();
        let full = ui.max_rect();
        let painter = ui.painter().clone();
        painter.rect_filled(full, 0.0, pal.background);
        painter.text(
            Pos2::new(full.center().x, full.top() + 26.0),
            Align2::CENTER_CENTER,
            "Sudoku · Medium",
            FontId::proportional(20.0),
            pal.thick,
        );
        let side = 450.0;
        let board = Rect::from_min_size(
            Pos2::new(full.center().x - side / 2.0, full.top() + 56.0),
            Vec2::splat(side),
        );
        let cell = side / 9.0;
        // Clicks on the board and typed digits are taken one event at a time, in the order
        // they came, as a game that handles each event does: a slow frame that gathers
        // several clicks and keys still puts each digit in the cell clicked before it.
        let events: Vec<egui::Event> = ui.input(|i| i.events.clone());
        for event in events {
            match event {
                egui::Event::PointerButton {
                    pos,
                    button: egui::PointerButton::Primary,
                    pressed: false,
                    ..
                } if board.contains(pos) => {
                    let c = ((pos.x - board.left()) / cell).clamp(0.0, 8.0) as usize;
                    let r = ((pos.y - board.top()) / cell).clamp(0.0, 8.0) as usize;
                    self.selected = r * 9 + c;
                }
                egui::Event::Text(t) => {
                    for d in t.chars().filter_map(|c| c.to_digit(10)).filter(|&d| d > 0) {
                        self.enter(d as u8, &ctx);
                    }
                }
                egui::Event::Key {
                    key: egui::Key::Backspace | egui::Key::Delete,
                    pressed: true,
                    ..
                } => self.enter(0, &ctx),
                _ => {}
            }
        }
        painter.rect_filled(board, 0.0, pal.paper);
        let (sr, sc) = (self.selected / 9, self.selected % 9);
        for i in 0..81 {
            let (r, c) = (i / 9, i % 9);
            let rect = Rect::from_min_size(
                board.min + Vec2::new(c as f32 * cell, r as f32 * cell),
                Vec2::splat(cell),
            );
            if let Some(tint) = pal.box_tint
                && (r / 3 + c / 3) % 2 == 0
            {
                painter.rect_filled(rect, 0.0, tint);
            }
            if self.theme == Theme::Highlight
                && (r == sr || c == sc || (r / 3 == sr / 3 && c / 3 == sc / 3))
            {
                painter.rect_filled(rect, 0.0, pal.shade);
            }
            if i == self.selected && self.theme != Theme::Light {
                painter.rect_filled(rect, 0.0, pal.selected);
            }
            let d = self.grid[i];
            if d != 0 {
                let colour = if self.givens[i] != 0 {
                    pal.given
                } else {
                    pal.entered
                };
                painter.text(
                    rect.center(),
                    Align2::CENTER_CENTER,
                    d.to_string(),
                    FontId::proportional(cell * 0.62),
                    colour,
                );
            } else if self.theme == Theme::Pencil {
                for cand in self.candidates(i) {
                    let k = (cand - 1) as f32;
                    let at = rect.min
                        + Vec2::new(
                            (k % 3.0 + 0.5) * cell / 3.0,
                            ((k / 3.0).floor() + 0.5) * cell / 3.0,
                        );
                    painter.text(
                        at,
                        Align2::CENTER_CENTER,
                        cand.to_string(),
                        FontId::proportional(cell * 0.24),
                        pal.pencil,
                    );
                }
            }
        }
        for k in 0..=9 {
            let (w, colour) = if k % 3 == 0 {
                (3.0, pal.thick)
            } else {
                (1.0, pal.thin)
            };
            let t = k as f32 * cell;
            painter.line_segment(
                [
                    board.min + Vec2::new(t, 0.0),
                    board.min + Vec2::new(t, side),
                ],
                Stroke::new(w, colour),
            );
            painter.line_segment(
                [
                    board.min + Vec2::new(0.0, t),
                    board.min + Vec2::new(side, t),
                ],
                Stroke::new(w, colour),
            );
        }
        // The number pad, as phone apps have.
        let pad_top = board.bottom() + 18.0;
        for d in 1..=9u8 {
            let rect = Rect::from_min_size(
                Pos2::new(board.left() + (d - 1) as f32 * cell + 4.0, pad_top),
                Vec2::new(cell - 8.0, cell),
            );
            painter.rect_filled(rect, 8.0, pal.shade);
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                d.to_string(),
                FontId::proportional(cell * 0.5),
                pal.entered,
            );
            if ui
                .interact(rect, egui::Id::unique(("test-game-pad", d)), Sense::click())
                .clicked()
            {
                self.enter(d, &ctx);
            }
        }
    }
}

impl eframe::App for Game {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.draw(ui);
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let givens = read_puzzle(&args.puzzle, args.line)?;
    if givens.iter().all(|&d| d == 0) {
        bail!("puzzle {} is empty", args.line);
    }
    let game = Game {
        givens,
        grid: givens,
        selected: 40,
        theme: args.theme,
        state: args.state,
        typed: 0,
        move_after: args.move_after,
        move_by: args.move_by,
        pos: args.pos,
    };
    game.write_state();
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(&args.title)
            .with_inner_size([500.0, 600.0])
            .with_position(Pos2::new(args.pos.0, args.pos.1))
            .with_resizable(false),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(&args.title, native, Box::new(move |_| Ok(Box::new(game))))
        .map_err(|e| anyhow::anyhow!("test_game: {e}"))
}
