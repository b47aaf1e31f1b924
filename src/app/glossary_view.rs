//! The glossary window: for the current step's technique, its plain title, what the pattern is
//! and why it works (from `sudoku::glossary`), this step's sentence, and a small diagram drawn
//! from the step's roles (pattern cells coloured by role, placed digits, struck candidates).
//! Opened by clicking the technique's name in the steps panel or with F1; emits [`Command`]s
//! only.

use egui::{Color32, RichText, Stroke, Vec2};

use crate::sudoku::{Step, Technique, glossary};

use super::board_view::role_color;
use super::command::Command;

/// Side of the diagram, points.
const DIAGRAM_PX: f32 = 180.0;

/// Shows the glossary window for `technique`; `step` (the current step, when it is of that
/// technique) gives the example sentence and the diagram. Pushes
/// [`Command::CloseGlossary`] when the window is closed.
pub fn glossary_ui(
    ctx: &egui::Context,
    technique: Technique,
    step: Option<&Step>,
    cmds: &mut Vec<Command>,
) {
    let mut open = true;
    egui::Window::new(format!("Glossary — {technique}"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(360.0)
        .anchor(egui::Align2::CENTER_CENTER, Vec2::ZERO)
        .show(ctx, |ui| {
            ui.label(RichText::new(technique.title()).strong());
            ui.add(egui::Label::new(glossary::entry(technique)).wrap());
            if let Some(step) = step.filter(|s| s.technique == technique) {
                ui.separator();
                ui.label(RichText::new("In this step").strong());
                ui.add(egui::Label::new(step.explanation()).wrap());
                diagram(ui, step);
            }
        });
    if !open {
        cmds.push(Command::CloseGlossary);
    }
}

/// A 9×9 sketch of `step`: cells of its pattern filled with their role's colour, placements
/// as green digits, eliminated candidates as struck red digits.
fn diagram(ui: &mut egui::Ui, step: &Step) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(DIAGRAM_PX), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let cell_px = DIAGRAM_PX / 9.0;
    let cell_rect = |row: usize, col: usize| {
        egui::Rect::from_min_size(
            rect.min + Vec2::new(col as f32 * cell_px, row as f32 * cell_px),
            Vec2::splat(cell_px),
        )
    };
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    for m in &step.marks {
        let c = m.candidate.cell;
        painter.rect_filled(
            cell_rect(c.row(), c.col()).shrink(1.0),
            0.0,
            role_color(m.role).gamma_multiply(0.6),
        );
    }
    let font = egui::FontId::proportional(cell_px * 0.7);
    for p in &step.placements {
        painter.text(
            cell_rect(p.cell.row(), p.cell.col()).center(),
            egui::Align2::CENTER_CENTER,
            p.digit.to_string(),
            font.clone(),
            Color32::from_rgb(20, 140, 40),
        );
    }
    let red = Color32::from_rgb(200, 30, 30);
    for e in &step.eliminations {
        let r = cell_rect(e.cell.row(), e.cell.col());
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            e.digit.to_string(),
            font.clone(),
            red,
        );
        painter.line_segment(
            [
                r.left_bottom() + Vec2::new(3.0, -3.0),
                r.right_top() + Vec2::new(-3.0, 3.0),
            ],
            Stroke::new(1.5, red),
        );
    }
    for i in 0..=9 {
        let width = if i % 3 == 0 { 1.5 } else { 0.5 };
        let stroke = Stroke::new(width, Color32::from_gray(60));
        let d = i as f32 * cell_px;
        painter.line_segment(
            [
                rect.min + Vec2::new(d, 0.0),
                rect.min + Vec2::new(d, DIAGRAM_PX),
            ],
            stroke,
        );
        painter.line_segment(
            [
                rect.min + Vec2::new(0.0, d),
                rect.min + Vec2::new(DIAGRAM_PX, d),
            ],
            stroke,
        );
    }
}
