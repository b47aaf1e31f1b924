//! The steps panel: rating and level, first/previous/next/last, the current step (revealed
//! gradually in hint mode: technique → the houses to look at → full step; the technique's name
//! opens its glossary, the full step shows its notation and its plain sentence), and the list
//! of steps with guesses standing out. Emits [`Command`]s only.

use egui::{Color32, RichText};

use crate::sudoku::{House, Technique};

use super::command::Command;
use crate::session::{HintLevel, SolveState, Walkthrough};

/// Colour of guess steps.
pub const GUESS_COLOR: Color32 = Color32::from_rgb(220, 60, 40);

/// Draws the panel for `solve`; `scroll` brings the current step into the list's view (the
/// list's offset is never restored from a past session: it follows the current step).
pub fn steps_ui(
    ui: &mut egui::Ui,
    solve: &SolveState,
    hint_mode: bool,
    scroll: bool,
    cmds: &mut Vec<Command>,
) {
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
        SolveState::Solved(walk) => solved_ui(ui, walk, hint_mode, scroll, cmds),
    }
}

fn solved_ui(
    ui: &mut egui::Ui,
    walk: &Walkthrough,
    hint_mode: bool,
    scroll: bool,
    cmds: &mut Vec<Command>,
) {
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
            // The technique's name opens its glossary entry (as F1 does).
            let mut technique_link = |ui: &mut egui::Ui, text: String| {
                let r = ui
                    .link(RichText::new(text).color(color).strong())
                    .on_hover_text("What is this? (F1)");
                if r.clicked() {
                    cmds.push(Command::ToggleGlossary(step.technique));
                }
            };
            match level {
                HintLevel::Technique => {
                    technique_link(ui, format!("Try: {}", step.technique));
                }
                HintLevel::Where => {
                    technique_link(ui, format!("Try: {}", step.technique));
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
                    technique_link(ui, step.technique.to_string());
                    ui.label(RichText::new(walk.text(pos)).color(color));
                    // The plain sentence, for a solver who does not read the notation.
                    ui.add(egui::Label::new(step.explanation()).wrap());
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
        .max_height(ui.available_height().max(160.0))
        .auto_shrink([false, true])
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
                // Keep the current step in view (at the end: the last one, at the start: the
                // top), when it moved or the panel first shows.
                let target = pos.min(shown.saturating_sub(1));
                if scroll && i == target {
                    r.scroll_to_me(Some(if pos == 0 {
                        egui::Align::TOP
                    } else {
                        egui::Align::Center
                    }));
                }
            }
        });
}

/// The "where" hint: the houses to look at, never the cells or digits (that would give the
/// step away): the step's houses, else the boxes of its pattern cells, else of its
/// placements.
pub fn where_text(step: &crate::sudoku::Step) -> String {
    let houses = where_houses(step);
    if houses.is_empty() {
        "the whole grid".into()
    } else {
        houses
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The houses the "where" hint names (see [`where_text`]).
pub fn where_houses(step: &crate::sudoku::Step) -> Vec<House> {
    let mut houses: Vec<House> = step.houses.iter().map(|(h, _)| *h).collect();
    if houses.is_empty() {
        let cells = step
            .marks
            .iter()
            .map(|m| m.candidate.cell)
            .chain(step.placements.iter().map(|p| p.cell));
        houses = cells.map(|c| House::boxed(c.box_index())).collect();
    }
    houses.sort();
    houses.dedup();
    houses
}
