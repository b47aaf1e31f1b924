//! The main view: the camera frame or photo, with the overlays projected onto it through the
//! lattice — the lattice itself (yellow while searching, orange while following or reading,
//! green when locked), the solution written into the empty cells, and the current step
//! (pattern cells, placements, eliminated candidates as struck digits in their candidate
//! positions, chain links), and a half-done puzzle's wrong handwritten entries outlined in red
//! on the paper with the reason on hover. Whether the solution and the
//! step may be drawn on this picture is the caller's decision.

use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Vec2};

use crate::sudoku::{Cell, LinkKind, Role, Step};
use crate::vision::Lattice;

use crate::annotate::projection::image_from_grid;
use crate::annotate::strokes::digit_strokes;

use super::board_view::{
    ELIMINATION_COLOR, PLACEMENT_FILL, WRONG_ENTRY_COLOR, candidate_offset, draw_link, role_color,
};
use super::geometry::ScreenFromImage;
use crate::live::LiveState;

/// What to draw over the image.
#[derive(Clone, Copy, Debug)]
pub struct Overlay<'a> {
    /// The lattice in image pixels.
    pub lattice: Option<&'a Lattice>,
    /// The live state (photos count as locked): the lattice's colour.
    pub state: LiveState,
    /// Board values (cells to leave alone) and the solution to write into the others.
    pub solution: Option<(&'a [u8; 81], &'a [u8; 81])>,
    /// The current step, and whether to show it fully (`false`: pattern only).
    pub step: Option<(&'a Step, bool)>,
    /// Wrong handwritten entries and why (outlined in red, the reason on hover).
    pub wrong: &'a [(Cell, String)],
}

/// Draws the image filling the available space, then the overlay; returns the image's
/// rectangle on screen.
pub fn image_ui(
    ui: &mut egui::Ui,
    texture: &egui::TextureHandle,
    image_size_px: Vec2,
    overlay: Overlay<'_>,
) -> Rect {
    let available = ui.available_rect_before_wrap();
    let (screen_from_image, rect) = ScreenFromImage::fit(image_size_px, available);
    let response = ui.allocate_rect(available, Sense::hover());
    response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "camera or photo view"));
    let painter = ui.painter_at(available);
    painter.image(
        texture.id(),
        rect,
        Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        Color32::WHITE,
    );
    let Some(lattice) = overlay.lattice else {
        return rect;
    };
    let to_screen = |x: f32, y: f32| screen_from_image.apply(image_from_grid(lattice, x, y));
    let cell_px = lattice.mean_side() / 9.0 * screen_from_image.points_per_px;

    // Lattice lines.
    let (color, width) = match overlay.state {
        LiveState::Locked => (Color32::from_rgb(40, 220, 90), 2.0),
        LiveState::Following | LiveState::Reading => (Color32::from_rgb(255, 150, 30), 1.5),
        LiveState::Searching | LiveState::Lost => (Color32::from_rgb(255, 230, 40), 1.0),
    };
    for k in 0..=9 {
        let t = k as f32;
        let w = if k % 3 == 0 { width * 1.5 } else { width * 0.6 };
        let row: Vec<Pos2> = (0..=9).map(|j| to_screen(j as f32, t)).collect();
        let col: Vec<Pos2> = (0..=9).map(|j| to_screen(t, j as f32)).collect();
        painter.add(Shape::line(row, Stroke::new(w, color)));
        painter.add(Shape::line(col, Stroke::new(w, color)));
    }
    // The current step, projected.
    if let Some((step, false)) = overlay.step {
        for house in super::steps_view::where_houses(step) {
            for c in house.cells() {
                fill_cell(
                    &painter,
                    &to_screen,
                    c,
                    role_color(Role::Base).gamma_multiply(0.3),
                );
            }
        }
    }
    if let Some((step, true)) = overlay.step {
        for m in &step.marks {
            fill_cell(
                &painter,
                &to_screen,
                m.candidate.cell,
                role_color(m.role).gamma_multiply(0.45),
            );
        }
        {
            for p in &step.placements {
                fill_cell(
                    &painter,
                    &to_screen,
                    p.cell,
                    PLACEMENT_FILL.gamma_multiply(0.6),
                );
                draw_digit(
                    &painter,
                    &to_screen,
                    p.cell,
                    p.digit.get(),
                    Color32::from_rgb(0, 120, 30),
                    cell_px,
                );
            }
            // An eliminated candidate: its digit, small, in its candidate position, struck.
            let font = egui::FontId::proportional((cell_px * 0.3).max(7.0));
            for e in &step.eliminations {
                let o = candidate_offset(e.digit.get());
                let (x, y) = (e.cell.col() as f32 + o.x, e.cell.row() as f32 + o.y);
                let at = to_screen(x, y);
                painter.circle_filled(at, cell_px * 0.16, Color32::from_white_alpha(200));
                painter.text(
                    at,
                    egui::Align2::CENTER_CENTER,
                    e.digit.to_string(),
                    font.clone(),
                    ELIMINATION_COLOR,
                );
                let h = 0.11;
                painter.line_segment(
                    [to_screen(x - h, y + h), to_screen(x + h, y - h)],
                    Stroke::new(2.0, ELIMINATION_COLOR),
                );
            }
            for link in &step.links {
                let (Some(a), Some(b)) = (link.from.cells.first(), link.to.cells.first()) else {
                    continue;
                };
                let pa = candidate_offset(link.from.digit.get());
                let pb = candidate_offset(link.to.digit.get());
                draw_link(
                    &painter,
                    to_screen(a.col() as f32 + pa.x, a.row() as f32 + pa.y),
                    to_screen(b.col() as f32 + pb.x, b.row() as f32 + pb.y),
                    link.kind == LinkKind::Strong,
                    cell_px * 0.12,
                );
            }
        }
    }

    // Wrong entries: outlined in red on the paper; hovering one says why.
    for (cell, why) in overlay.wrong {
        let (x, y) = (cell.col() as f32, cell.row() as f32);
        let corners = [
            to_screen(x, y),
            to_screen(x + 1.0, y),
            to_screen(x + 1.0, y + 1.0),
            to_screen(x, y + 1.0),
        ];
        painter.add(Shape::closed_line(
            corners.to_vec(),
            Stroke::new((cell_px * 0.08).clamp(2.0, 5.0), WRONG_ENTRY_COLOR),
        ));
        let area = Rect::from_points(&corners);
        let id = egui::Id::unique("sudoku-lens-wrong-entry").with(cell.index());
        let label = format!("{cell} wrong on the photo");
        ui.interact(area, id, Sense::hover())
            .on_hover_text(why.as_str())
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
    }

    // The solution, written on the paper.
    if let Some((values, solution)) = overlay.solution {
        for c in Cell::all() {
            let i = c.index();
            if values[i] == 0 && solution[i] != 0 {
                draw_digit(
                    &painter,
                    &to_screen,
                    c,
                    solution[i],
                    Color32::from_rgb(20, 90, 230),
                    cell_px,
                );
            }
        }
    }
    rect
}

fn fill_cell(
    painter: &egui::Painter,
    to_screen: &impl Fn(f32, f32) -> Pos2,
    cell: Cell,
    fill: Color32,
) {
    let (x, y) = (cell.col() as f32, cell.row() as f32);
    painter.add(Shape::convex_polygon(
        vec![
            to_screen(x, y),
            to_screen(x + 1.0, y),
            to_screen(x + 1.0, y + 1.0),
            to_screen(x, y + 1.0),
        ],
        fill,
        Stroke::NONE,
    ));
}

/// Writes `digit` in `cell` with the stroke font, every point projected through the lattice.
fn draw_digit(
    painter: &egui::Painter,
    to_screen: &impl Fn(f32, f32) -> Pos2,
    cell: Cell,
    digit: u8,
    color: Color32,
    cell_px: f32,
) {
    let (x, y) = (cell.col() as f32, cell.row() as f32);
    let width = (cell_px * 0.08).clamp(1.0, 5.0);
    for line in digit_strokes(digit) {
        let pts: Vec<Pos2> = line.iter().map(|&(u, v)| to_screen(x + u, y + v)).collect();
        painter.add(Shape::line(pts, Stroke::new(width, color)));
    }
}

/// Placeholder shown when there is no image yet.
pub fn empty_view_ui(ui: &mut egui::Ui, hovering_files: bool) {
    ui.centered_and_justified(|ui| {
        let text = if hovering_files {
            "Drop the photo to scan it"
        } else {
            "Open a photo (Ctrl+O), drop one here, paste one (Ctrl+V), or start the camera."
        };
        ui.label(egui::RichText::new(text).size(18.0));
    });
}
