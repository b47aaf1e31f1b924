//! The half-done puzzle's panel under the board: how the handwritten entries stand against
//! the printed givens (how many right, each wrong one with its reason — the selected one
//! first), and the switch between going on from the user's progress and the full path from
//! the start. The check itself is `sudoku::check`, run on the solver thread.

use egui::RichText;

use crate::session::Board;
use crate::sudoku::{Cell, Check, Verdict};

use super::board_view::{UNCERTAIN_COLOR, WRONG_ENTRY_COLOR};
use super::command::Command;

/// The wrong entries and why, row-major (empty without a check).
pub fn wrong_entries(check: Option<&Check>) -> Vec<(Cell, String)> {
    check.map_or_else(Vec::new, |c| {
        c.wrong().iter().map(|e| (e.cell, e.text())).collect()
    })
}

/// The tally of a check in words, e.g. `Your entries: 11 right, 1 wrong.`
pub fn tally(check: &Check) -> String {
    let Check::Checked { unique, .. } = check else {
        return String::new();
    };
    let (right, wrong, unsure, unknown) = check.tally();
    let mut out = format!("Your entries: {right} right, {wrong} wrong");
    if unsure > 0 {
        out.push_str(&format!(", {unsure} read unsure (please look)"));
    }
    if unknown > 0 || !unique {
        out.push_str(&format!(
            ", {unknown} not known yet (the printed digits allow several solutions)"
        ));
    }
    out.push('.');
    out
}

/// Draws the entries panel; nothing for a board without handwritten entries.
pub fn entries_ui(
    ui: &mut egui::Ui,
    board: &Board,
    check: Option<&Check>,
    full_path: bool,
    selected: Option<Cell>,
    cmds: &mut Vec<Command>,
) {
    if !board.has_entries() {
        return;
    }
    match check {
        Some(check @ Check::Checked { .. }) => {
            ui.label(tally(check));
            let mut wrong = wrong_entries(Some(check));
            // The selected cell's reason first (a click on a red cell shows why).
            wrong.sort_by_key(|(c, _)| Some(*c) != selected);
            for (_, why) in wrong.iter().take(4) {
                ui.add(egui::Label::new(RichText::new(why).color(WRONG_ENTRY_COLOR)).wrap());
            }
            if wrong.len() > 4 {
                ui.label(format!("… and {} more wrong entries", wrong.len() - 4));
            }
            if let Check::Checked { entries, .. } = check {
                for e in entries
                    .iter()
                    .filter(|e| matches!(e.verdict, Verdict::Unsure { .. }))
                    .take(4)
                {
                    ui.add(egui::Label::new(RichText::new(e.text()).color(UNCERTAIN_COLOR)).wrap());
                }
            }
        }
        _ => {
            ui.label("Checking your entries against the printed digits…");
        }
    }
    let mut full = full_path;
    if ui
        .checkbox(&mut full, "Full path from the start")
        .on_hover_text(
            "Off: the steps go on from the printed digits plus your right entries. On: every \
             step from the printed digits alone.",
        )
        .changed()
    {
        cmds.push(Command::SetFullPath(full));
    }
}
