//! The steps panel: rating and level, first/previous/next/last, the current step (revealed
//! gradually in hint mode: technique → where → full step), and the list of steps with guesses
//! standing out. Emits [`Command`]s only.

use egui::{Color32, RichText};

use crate::sudoku::Technique;
use crate::sudoku::notation::compact_cells;

use super::command::Command;
use crate::session::{HintLevel, SolveState, Walkthrough};

/// Colour of guess steps.
pub const GUESS_COLOR: Color32 = Color32::from_rgb(220, 60, 40);

/// Draws the panel for `solve`.
pub fn steps_ui(ui: &mut egui::Ui, solve: &SolveState, hint_mode: bool, cmds: &mut Vec<Command>) {
    match solve {
        SolveState::Idle => {
            ui.label("No puzzle yet.");
        }
        SolveState::Solving => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Solving…");
            });
        }
        SolveState::Unsolvable(msg) => {
            ui.colored_label(GUESS_COLOR, format!("Cannot solve: {msg}"));
        }
        SolveState::Solved(walk) => solved_ui(ui, walk, hint_mode, cmds),
    }
}

fn solved_ui(ui: &mut egui::Ui, walk: &Walkthrough, hint_mode: bool, cmds: &mut Vec<Command>) {
    let e = walk.explained();
    let hardest = e.rating.hardest.map_or("—", Technique::name);
    ui.label(
        RichText::new(format!(
            "Rating {:.1} · {} · hardest: {hardest}",
            e.rating.score, e.rating.level
        ))
        .strong(),
    );
    if !e.unique {
        ui.colored_label(GUESS_COLOR, "This puzzle has more than one solution.");
    }
    if e.guesses > 0 {
        ui.colored_label(
            GUESS_COLOR,
            format!("Logic ran out: {} guess step(s) needed.", e.guesses),
        );
    }

    let n = walk.len();
    let pos = walk.pos();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(pos > 0, egui::Button::new("First"))
            .clicked()
        {
            cmds.push(Command::FirstStep);
        }
        if ui
            .add_enabled(pos > 0, egui::Button::new("Previous"))
            .clicked()
        {
            cmds.push(Command::PreviousStep);
        }
        if ui.add_enabled(pos < n, egui::Button::new("Next")).clicked() {
            cmds.push(Command::NextStep);
        }
        if ui.add_enabled(pos < n, egui::Button::new("Last")).clicked() {
            cmds.push(Command::LastStep);
        }
    });
    let mut hint = hint_mode;
    if ui.checkbox(&mut hint, "Hint mode").changed() {
        cmds.push(Command::SetHintMode(hint));
    }
    ui.label(if pos < n {
        format!("Step {} of {n}", pos + 1)
    } else {
        format!("Solved — {n} steps")
    });

    if let Some(step) = walk.current() {
        let guess = step.technique == Technique::Guess;
        let color = if guess {
            GUESS_COLOR
        } else {
            ui.visuals().strong_text_color()
        };
        egui::Frame::group(ui.style()).show(ui, |ui| {
            let level = if hint_mode {
                walk.hint
            } else {
                HintLevel::Full
            };
            match level {
                HintLevel::Technique => {
                    ui.label(
                        RichText::new(format!("Try: {}", step.technique))
                            .color(color)
                            .strong(),
                    );
                }
                HintLevel::Where => {
                    ui.label(
                        RichText::new(format!("Try: {}", step.technique))
                            .color(color)
                            .strong(),
                    );
                    ui.label(format!("Look at: {}", where_text(step)));
                }
                HintLevel::Full => {
                    if guess {
                        ui.label(
                            RichText::new("Guess — no logical step found")
                                .color(GUESS_COLOR)
                                .strong(),
                        );
                    }
                    ui.label(RichText::new(walk.text(pos)).color(color).strong());
                }
            }
            if hint_mode && level != HintLevel::Full {
                let label = if level == HintLevel::Technique {
                    "Show where"
                } else {
                    "Show step"
                };
                if ui.button(label).clicked() {
                    cmds.push(Command::RevealHint);
                }
            }
        });
    }

    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("steps-list")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // In hint mode the future stays hidden.
            let shown = if hint_mode { pos.min(n) } else { n };
            for i in 0..shown {
                let mut text = RichText::new(format!("{}. {}", i + 1, walk.text(i)));
                if walk.is_guess(i) {
                    text = text.color(GUESS_COLOR).strong();
                }
                let r = ui.selectable_label(i == pos, text);
                if r.clicked() {
                    cmds.push(Command::GoToStep(i));
                }
                if i == pos && r.rect.is_positive() && walk.pos() != 0 {
                    // Keep the current step in view while stepping with the keyboard.
                    r.scroll_to_me(None);
                }
            }
        });
}

/// The "where" hint: the houses and cells of the pattern, without the conclusion.
pub fn where_text(step: &crate::sudoku::Step) -> String {
    let mut parts = Vec::new();
    if !step.houses.is_empty() {
        let houses: Vec<String> = step.houses.iter().map(|(h, _)| h.to_string()).collect();
        parts.push(houses.join(", "));
    }
    let mut cells: Vec<_> = step.marks.iter().map(|m| m.candidate.cell).collect();
    cells.sort();
    cells.dedup();
    if !cells.is_empty() {
        parts.push(format!("cells {}", compact_cells(cells)));
    }
    if !step.digits.is_empty() {
        let digits: Vec<String> = step.digits.iter().map(|d| d.to_string()).collect();
        parts.push(format!("digit(s) {}", digits.join("/")));
    }
    if parts.is_empty() {
        "the whole grid".into()
    } else {
        parts.join("; ")
    }
}
