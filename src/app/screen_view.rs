//! The screen controls: the toolbar's "Screen" source menu — the whole screen, one monitor or
//! one window picked from the lists (the app's own window left out; listed on a worker
//! thread), or a rectangle dragged on a frozen screenshot — its capture rate, and the "Fill in
//! the game" buttons, enabled only while a screen puzzle is locked with one solution and no
//! fill runs; and the frozen screenshot with the rectangle being dragged, shown in the main
//! view. Emits commands; `apply` carries them out.

use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use super::SudokuLensApp;
use super::command::Command;
use super::geometry::ScreenFromImage;
use crate::screen::ScreenTarget;
use crate::vision::Point;

/// How long the monitor and window lists are taken as current.
const SCREENS_FRESH_FOR: std::time::Duration = std::time::Duration::from_secs(3);

/// The capture rates offered, frames per second.
const FPS_CHOICES: [f32; 6] = [0.5, 1.0, 2.0, 5.0, 10.0, 15.0];

impl SudokuLensApp {
    pub(super) fn screen_controls(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let selected = match &self.source.screen {
            Some(ScreenTarget::Window(name)) => name.clone(),
            Some(ScreenTarget::Whole) => "whole screen".into(),
            Some(other) => other.to_string(),
            None => "off".into(),
        };
        let menu = egui::ComboBox::from_label("Screen")
            .selected_text(selected)
            .width(180.0)
            // Room for every monitor and window without scrolling, on most desktops.
            .height(560.0)
            .show_ui(ui, |ui| self.screen_menu_ui(ui, cmds));
        // The lists are fetched before the menu opens (at start, and again when the pointer
        // comes to the closed menu): a menu that grows while open keeps the clickable area it
        // opened with.
        if menu.inner.is_none() && menu.response.hovered() && self.screens_stale() {
            cmds.push(Command::RefreshScreens);
        }
        menu.response.on_hover_text(
            "Read a Sudoku shown on the screen: the whole screen, a monitor, a window or a rectangle",
        );
        let fps = self.settings.screen_fps;
        egui::ComboBox::from_label("captures/s")
            .selected_text(format!("{fps}"))
            .show_ui(ui, |ui| {
                for choice in FPS_CHOICES {
                    if ui
                        .selectable_label(choice == fps, format!("{choice}"))
                        .clicked()
                    {
                        cmds.push(Command::SetScreenFps(choice));
                    }
                }
            })
            .response
            .on_hover_text("Screen captures per second while nothing on it changes");
        let can_fill = self.can_fill();
        let why = "Click each empty cell of the game and type its digit, after a 3 s countdown. \
                   Esc or moving the mouse stops it. Needs a locked screen puzzle with one solution.";
        if ui
            .add_enabled(can_fill, egui::Button::new("Fill in the game"))
            .on_hover_text(why)
            .on_disabled_hover_text(why)
            .clicked()
        {
            cmds.push(Command::FillGame { next_step: false });
        }
        if ui
            .add_enabled(can_fill, egui::Button::new("Do this step"))
            .on_hover_text("Type only the next step's digit into the game")
            .clicked()
        {
            cmds.push(Command::FillGame { next_step: true });
        }
    }

    /// Whether the monitor and window lists are worth fetching again (none, or a few seconds
    /// old, and no listing runs).
    fn screens_stale(&self) -> bool {
        !self.source.screens_pending
            && self
                .source
                .screens_listed_at
                .is_none_or(|t| t.elapsed() > SCREENS_FRESH_FOR)
    }

    /// The open "Screen" menu: the choices, and the lists (asked for on first opening).
    fn screen_menu_ui(&self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let current = self.source.screen.as_ref();
        let pick =
            |ui: &mut egui::Ui, cmds: &mut Vec<Command>, target: ScreenTarget, text: String| {
                if ui
                    .selectable_label(current == Some(&target), text)
                    .clicked()
                {
                    cmds.push(Command::StartScreen(target));
                }
            };
        let whole = ScreenTarget::Whole;
        if ui
            .selectable_label(current == Some(&whole), "Whole screen")
            .on_hover_text("Every monitor, each in its place (pick one monitor below)")
            .clicked()
        {
            cmds.push(Command::StartScreen(whole));
        }
        let rectangle = ui
            .add_enabled(
                !self.source.freezing,
                egui::Button::new("Rectangle on a screenshot…"),
            )
            .on_hover_text("Freeze the screen, drag a rectangle around the puzzle, capture it");
        if rectangle.clicked() {
            cmds.push(Command::FreezeScreen);
        }
        let Some(lists) = &self.source.screens else {
            if !self.source.screens_pending {
                cmds.push(Command::RefreshScreens);
            }
            ui.label("listing monitors and windows…");
            return;
        };
        ui.separator();
        ui.strong("Monitors");
        match &lists.monitors {
            Ok(list) if !list.is_empty() => {
                for m in list {
                    pick(ui, cmds, ScreenTarget::Monitor(m.index), m.to_string());
                }
            }
            Ok(_) => {
                ui.label("No monitor found");
            }
            Err(e) => {
                ui.label(e.to_string());
            }
        }
        ui.separator();
        ui.strong("Windows");
        match &lists.windows {
            Ok(list) if !list.is_empty() => {
                for w in list {
                    pick(
                        ui,
                        cmds,
                        ScreenTarget::Window(w.title.clone()),
                        w.title.clone(),
                    );
                }
            }
            Ok(_) => {
                ui.label("No other window found");
            }
            Err(e) => {
                ui.label(e.to_string());
            }
        }
        ui.separator();
        if ui
            .add_enabled(
                !self.source.screens_pending,
                egui::Button::new("List again"),
            )
            .on_hover_text("List the monitors and windows again")
            .clicked()
        {
            cmds.push(Command::RefreshScreens);
        }
    }

    /// The frozen screenshot filling the main view: drag a rectangle on it, then capture it.
    pub(super) fn region_pick_ui(&self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let Some(pick) = &self.ui.region_pick else {
            return;
        };
        ui.horizontal(|ui| {
            let text = match pick.rect {
                Some(r) => format!(
                    "Rectangle {}×{} at {},{} on the screen",
                    r.width, r.height, r.x, r.y
                ),
                None => "Drag a rectangle around the puzzle".into(),
            };
            ui.label(text);
            if ui
                .add_enabled(
                    pick.rect.is_some(),
                    egui::Button::new("Capture this rectangle"),
                )
                .clicked()
            {
                cmds.push(Command::CaptureRegion);
            }
            if ui.button("Cancel").on_hover_text("Esc").clicked() {
                cmds.push(Command::CancelRegion);
            }
        });
        let image = &pick.capture.image;
        let size_px = Vec2::new(image.width() as f32, image.height() as f32);
        let available = ui.available_rect_before_wrap();
        let (screen_from_image, shown) = ScreenFromImage::fit(size_px, available);
        let response = ui.allocate_rect(shown, Sense::drag());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Image, true, "frozen screenshot")
        });
        let painter = ui.painter_at(available);
        painter.image(
            pick.texture.id(),
            shown,
            Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
            Color32::WHITE,
        );
        if response.dragged() || response.drag_stopped() {
            let from = ui.input(|i| i.pointer.press_origin());
            if let (Some(from), Some(to)) = (from, response.interact_pointer_pos()) {
                let (a, b) = (
                    screen_from_image.inverse(from),
                    screen_from_image.inverse(to),
                );
                cmds.push(Command::DragRegion {
                    from_px: (a.x, a.y),
                    to_px: (b.x, b.y),
                });
            }
        }
        if let Some((x, y, w, h)) = pick.rect.and_then(|r| pick.capture.rect_in_capture(r)) {
            let corner = |x: u32, y: u32| screen_from_image.apply(Point::new(x as f32, y as f32));
            let rect = Rect::from_min_max(corner(x, y), corner(x + w, y + h));
            painter.rect_stroke(
                rect,
                0.0,
                Stroke::new(2.0, Color32::from_rgb(255, 140, 0)),
                StrokeKind::Outside,
            );
        }
    }
}
