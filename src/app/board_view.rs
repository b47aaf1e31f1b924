//! The editable 9×9 board: recognized digits, user edits, uncertain (amber) and conflicting
//! (red) cells, and — while stepping — the candidates with the current step drawn on them
//! (pattern cells by role, struck eliminations, placements, chain links as arrows: strong solid,
//! weak dashed). Emits [`Command`]s; never changes state itself.

use egui::{Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Vec2};

use crate::sudoku::{Candidate, Cell, CellSet, Check, Role, Step};

use super::command::Command;
use super::steps_view::where_houses;
use crate::session::{Board, HintLevel, Walkthrough};

/// Amber of an uncertain cell (its outline on the board, its words in the panels).
pub const UNCERTAIN_COLOR: Color32 = Color32::from_rgb(255, 176, 30);
/// Red background of a conflicting cell.
pub const CONFLICT_FILL: Color32 = Color32::from_rgb(240, 90, 90);
/// Background of the selected cell.
pub const SELECTED_FILL: Color32 = Color32::from_rgb(150, 200, 255);
/// Placement highlight.
pub const PLACEMENT_FILL: Color32 = Color32::from_rgb(120, 220, 130);
/// Eliminated candidates.
pub const ELIMINATION_COLOR: Color32 = Color32::from_rgb(220, 30, 30);

/// Fill colour of a pattern role.
pub fn role_color(role: Role) -> Color32 {
    match role {
        Role::Base => Color32::from_rgb(110, 160, 255),
        Role::Cover => Color32::from_rgb(255, 205, 90),
        Role::Fin => Color32::from_rgb(255, 125, 205),
        Role::Pivot => Color32::from_rgb(255, 160, 40),
        Role::Pincer => Color32::from_rgb(120, 210, 255),
        Role::Link => Color32::from_rgb(150, 225, 150),
        Role::ColorA => Color32::from_rgb(70, 200, 120),
        Role::ColorB => Color32::from_rgb(235, 120, 90),
        Role::SetA => Color32::from_rgb(175, 145, 255),
        Role::SetB => Color32::from_rgb(255, 175, 120),
        Role::Common => Color32::from_rgb(255, 235, 80),
    }
}

/// Everything the board shows.
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// Digits and flags.
    pub board: &'a Board,
    /// The handwritten entries' check (entries in pen colour, wrong ones red with the
    /// reason on hover).
    pub check: Option<&'a Check>,
    /// The solution walk, when solved.
    pub walk: Option<&'a Walkthrough>,
    /// The selected cell.
    pub selected: Option<Cell>,
    /// Show candidates while stepping.
    pub show_candidates: bool,
    /// Hint mode: how much of the current step to show (`None`: hint mode off, show all).
    pub hint: Option<HintLevel>,
    /// Cells whose solution digit is shown (revealed one by one, or all).
    pub revealed: &'a [bool; 81],
    /// The largest side the board may take, points (the layout keeps room for the steps).
    pub max_side: f32,
}

/// The part of `step` to draw at `hint` level: `None` hides it, `Some(false)` shows only the
/// houses to look at, `Some(true)` everything.
pub fn step_visibility(hint: Option<HintLevel>) -> Option<bool> {
    match hint {
        None | Some(HintLevel::Full) => Some(true),
        Some(HintLevel::Where) => Some(false),
        Some(HintLevel::Technique) => None,
    }
}

/// The cells highlighted for `step`: when `full`, the pattern cells, placements and
/// elimination cells; otherwise (the "where" hint) the cells of the houses to look at.
pub fn step_cells(step: &Step, full: bool) -> CellSet {
    if !full {
        return where_houses(step).iter().flat_map(|h| h.cells()).collect();
    }
    let mut cells: CellSet = step.marks.iter().map(|m| m.candidate.cell).collect();
    for c in step.placements.iter().chain(&step.eliminations) {
        cells.insert(c.cell);
    }
    cells
}

/// Where candidate `digit` sits inside a cell, in cell units.
pub fn candidate_offset(digit: u8) -> Vec2 {
    let k = usize::from(digit.clamp(1, 9) - 1);
    Vec2::new(
        (k % 3) as f32 / 3.0 + 1.0 / 6.0,
        (k / 3) as f32 / 3.0 + 1.0 / 6.0,
    )
}

/// Accessible label of a cell, e.g. `r1c4 7` or `r2c2 empty`.
pub fn cell_label(cell: Cell, value: u8) -> String {
    if value == 0 {
        format!("{cell} empty")
    } else {
        format!("{cell} {value}")
    }
}

/// Smallest board side, points.
pub const MIN_SIDE: f32 = 150.0;
/// Largest board side, points.
pub const MAX_SIDE: f32 = 460.0;
/// Outline of the selected cell (the keyboard focus).
pub const FOCUS_STROKE: Color32 = Color32::from_rgb(20, 90, 230);
/// Revealed solution digits.
pub const REVEALED_COLOR: Color32 = Color32::from_rgb(20, 140, 70);
/// The user's handwritten entries on a half-done puzzle: a pen's ink.
pub const PEN_COLOR: Color32 = Color32::from_rgb(70, 40, 170);
/// A wrong handwritten entry's digit (and its outline on the photo).
pub const WRONG_ENTRY_COLOR: Color32 = Color32::from_rgb(215, 20, 20);
/// A wrong handwritten entry's cell.
pub const WRONG_ENTRY_FILL: Color32 = Color32::from_rgb(255, 200, 200);

/// Draws the board and handles clicks and digit keys.
pub fn board_ui(ui: &mut egui::Ui, view: BoardView<'_>, cmds: &mut Vec<Command>) -> Rect {
    let side = ui
        .available_width()
        .min(view.max_side)
        .clamp(MIN_SIDE, MAX_SIDE);
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let cell_size = side / 9.0;
    let cell_rect = |c: Cell| {
        Rect::from_min_size(
            rect.min + Vec2::new(c.col() as f32, c.row() as f32) * cell_size,
            Vec2::splat(cell_size),
        )
    };
    let conflicts = view.board.conflicts();
    let mut wrong: [Option<String>; 81] = std::array::from_fn(|_| None);
    for (cell, why) in super::entries_view::wrong_entries(view.check) {
        wrong[cell.index()] = Some(why);
    }
    let grid = view.walk.map(|w| w.grid());
    let visible = step_visibility(view.hint);
    let step: Option<&Step> = view
        .walk
        .and_then(|w| w.current())
        .filter(|_| visible.is_some());
    let full = visible == Some(true);
    let id = egui::Id::unique("sudoku-lens-board");

    // Interaction first (so the painting below reflects this frame's clicks next frame).
    for c in Cell::all() {
        let value = shown_value(view, c);
        let mut response = ui.interact(cell_rect(c), id.with(c.index()), Sense::click());
        let mut label = cell_label(c, value);
        if view.board.is_entry(c) {
            label.push_str(if wrong[c.index()].is_some() {
                ", your entry, wrong"
            } else {
                ", your entry"
            });
        }
        if let Some(why) = &wrong[c.index()] {
            response = response.on_hover_text(why.as_str());
        }
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        if response.clicked() {
            cmds.push(Command::SelectCell(Some(c)));
        }
        let edited = view.board.is_edited(c);
        let can_reveal = view.board.values[c.index()] == 0 && !view.revealed[c.index()];
        if edited || can_reveal {
            response.context_menu(|ui| {
                if can_reveal && ui.button("Reveal this cell").clicked() {
                    cmds.push(Command::RevealCell(c));
                }
                if edited && ui.button("Revert to what was read").clicked() {
                    cmds.push(Command::RevertCell(c));
                }
            });
        }
    }
    if let Some(sel) = view.selected {
        ui.input(|i| {
            for (n, key) in DIGIT_KEYS.iter().enumerate() {
                if i.key_pressed(*key) {
                    cmds.push(Command::SetCell {
                        cell: sel,
                        value: n as u8,
                    });
                }
            }
            if i.key_pressed(egui::Key::Delete) || i.key_pressed(egui::Key::Backspace) {
                cmds.push(Command::DeleteCell(sel));
            }
            if i.key_pressed(egui::Key::Escape) {
                cmds.push(Command::SelectCell(None));
            }
        });
    }

    let painter = ui.painter_at(rect.expand(2.0));
    painter.rect_filled(rect, 2.0, Color32::WHITE);

    // Backgrounds: step houses, pattern cells, placements, then selection and warnings on top.
    if let Some(step) = step.filter(|_| !full) {
        // The "where" hint: only the houses to look at.
        for house in where_houses(step) {
            for c in house.cells() {
                painter.rect_filled(
                    cell_rect(c),
                    0.0,
                    role_color(Role::Base).gamma_multiply(0.3),
                );
            }
        }
    }
    if let Some(step) = step.filter(|_| full) {
        for (house, role) in &step.houses {
            let fill = role_color(*role).gamma_multiply(0.18);
            for c in house.cells() {
                painter.rect_filled(cell_rect(c), 0.0, fill);
            }
        }
        for m in &step.marks {
            painter.rect_filled(
                cell_rect(m.candidate.cell).shrink(1.0),
                0.0,
                role_color(m.role).gamma_multiply(0.35),
            );
        }
        for p in &step.placements {
            painter.rect_filled(cell_rect(p.cell).shrink(1.0), 0.0, PLACEMENT_FILL);
        }
    }
    for c in Cell::all() {
        let i = c.index();
        let fill = if wrong[i].is_some() {
            Some(WRONG_ENTRY_FILL)
        } else if conflicts[i] {
            Some(CONFLICT_FILL)
        } else if view.selected == Some(c) {
            Some(SELECTED_FILL)
        } else {
            None
        };
        if let Some(fill) = fill {
            painter.rect_filled(cell_rect(c).shrink(1.0), 0.0, fill);
        }
    }

    // Grid lines.
    for k in 0..=9 {
        let w = if k % 3 == 0 { 2.0 } else { 0.5 };
        let t = k as f32 * cell_size;
        let stroke = Stroke::new(w, Color32::from_gray(40));
        painter.line_segment(
            [rect.min + Vec2::new(t, 0.0), rect.min + Vec2::new(t, side)],
            stroke,
        );
        painter.line_segment(
            [rect.min + Vec2::new(0.0, t), rect.min + Vec2::new(side, t)],
            stroke,
        );
    }

    // Digits and candidates.
    let digit_font = FontId::proportional(cell_size * 0.62);
    let cand_font = FontId::proportional(cell_size * 0.26);
    for c in Cell::all() {
        let i = c.index();
        let r = cell_rect(c);
        let board_value = view.board.values[i];
        if board_value != 0 {
            let color = if wrong[i].is_some() {
                WRONG_ENTRY_COLOR
            } else if view.board.is_entry(c) {
                PEN_COLOR
            } else if view.board.is_edited(c) {
                Color32::from_rgb(20, 70, 200)
            } else {
                Color32::BLACK
            };
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                board_value.to_string(),
                digit_font.clone(),
                color,
            );
            continue;
        }
        let Some(grid) = grid else { continue };
        if view.revealed[i]
            && let Some(d) = view.walk.map(|w| w.explained().solution[i])
        {
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                d.to_string(),
                digit_font.clone(),
                REVEALED_COLOR,
            );
            continue;
        }
        if let Some(d) = grid.value(c) {
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                d.to_string(),
                digit_font.clone(),
                Color32::from_gray(90),
            );
            continue;
        }
        for d in grid.candidates(c).iter() {
            let pos = r.min + candidate_offset(d.get()) * cell_size;
            let cand = Candidate::new(c, d);
            // With candidates hidden, the step's own candidates are still drawn.
            let in_step = full
                && step.is_some_and(|s| {
                    s.marks.iter().any(|m| m.candidate == cand)
                        || s.eliminations.contains(&cand)
                        || s.placements.contains(&cand)
                });
            if !view.show_candidates && !in_step {
                continue;
            }
            if let Some(step) = step.filter(|_| full) {
                if let Some(m) = step.marks.iter().find(|m| m.candidate == cand) {
                    painter.circle_filled(pos, cell_size * 0.15, role_color(m.role));
                }
                if step.placements.contains(&cand) {
                    painter.circle_filled(pos, cell_size * 0.15, PLACEMENT_FILL);
                }
            }
            let eliminated = full && step.is_some_and(|s| s.eliminations.contains(&cand));
            let color = if eliminated {
                ELIMINATION_COLOR
            } else {
                Color32::from_gray(70)
            };
            painter.text(
                pos,
                egui::Align2::CENTER_CENTER,
                d.to_string(),
                cand_font.clone(),
                color,
            );
            if eliminated {
                let h = cell_size * 0.13;
                painter.line_segment(
                    [pos + Vec2::new(-h, h), pos + Vec2::new(h, -h)],
                    Stroke::new(2.0, ELIMINATION_COLOR),
                );
            }
        }
    }

    // Uncertain readings get an amber outline, not a fill: the step's highlight (a placement,
    // a pattern cell — whose Cover colour is amber-like too) stays visible under it.
    for c in Cell::all() {
        let i = c.index();
        if view.board.uncertain[i] && wrong[i].is_none() && !conflicts[i] {
            painter.rect_stroke(
                cell_rect(c).shrink(1.0),
                0.0,
                Stroke::new((cell_size * 0.08).max(2.0), UNCERTAIN_COLOR),
                egui::StrokeKind::Inside,
            );
        }
    }

    // The selected cell's outline: visible over any fill.
    if let Some(sel) = view.selected {
        painter.rect_stroke(
            cell_rect(sel).shrink(1.5),
            2.0,
            Stroke::new(3.0, FOCUS_STROKE),
            egui::StrokeKind::Inside,
        );
    }

    // Chain links.
    if let (Some(step), true) = (step, full) {
        let point =
            |cell: Cell, digit: u8| cell_rect(cell).min + candidate_offset(digit) * cell_size;
        for link in &step.links {
            let (Some(a), Some(b)) = (link.from.cells.first(), link.to.cells.first()) else {
                continue;
            };
            let from = point(a, link.from.digit.get());
            let to = point(b, link.to.digit.get());
            draw_link(
                &painter,
                from,
                to,
                link.kind == crate::sudoku::LinkKind::Strong,
                cell_size * 0.15,
            );
        }
    }
    rect
}

/// Keys typed into a selected cell: `Num0` clears, `Num1`–`Num9` set the digit.
const DIGIT_KEYS: [egui::Key; 10] = [
    egui::Key::Num0,
    egui::Key::Num1,
    egui::Key::Num2,
    egui::Key::Num3,
    egui::Key::Num4,
    egui::Key::Num5,
    egui::Key::Num6,
    egui::Key::Num7,
    egui::Key::Num8,
    egui::Key::Num9,
];

/// The value drawn in `c`: the board's, else the one placed by the steps so far.
fn shown_value(view: BoardView<'_>, c: Cell) -> u8 {
    let v = view.board.values[c.index()];
    if v != 0 {
        return v;
    }
    view.walk
        .and_then(|w| w.grid().value(c))
        .map_or(0, |d| d.get())
}

/// An arrow between two candidate positions, stopping `gap` short of each; strong links solid,
/// weak links dashed.
pub fn draw_link(painter: &egui::Painter, from: Pos2, to: Pos2, strong: bool, gap: f32) {
    let d = to - from;
    let len = d.length();
    if len <= 2.0 * gap {
        return;
    }
    let dir = d / len;
    let (a, b) = (from + dir * gap, to - dir * gap);
    let color = Color32::from_rgb(200, 40, 160);
    let stroke = Stroke::new(2.0, color);
    if strong {
        painter.line_segment([a, b], stroke);
    } else {
        painter.extend(Shape::dashed_line(&[a, b], stroke, 5.0, 4.0));
    }
    let head = gap.max(4.0);
    let normal = Vec2::new(-dir.y, dir.x);
    painter.add(Shape::convex_polygon(
        vec![
            b,
            b - dir * head + normal * head * 0.5,
            b - dir * head - normal * head * 0.5,
        ],
        color,
        Stroke::NONE,
    ));
}
