//! Image pixels → egui points for the main view ([`ScreenFromImage`]). Grid units → image
//! pixels is [`crate::annotate::projection`]'s job, shared with the annotated PNG.

use egui::{Pos2, Rect, Vec2};

use crate::vision::Point;

/// Image pixels → screen points for an image drawn (uniformly scaled) into a rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenFromImage {
    /// Screen position of image pixel (0, 0)'s top-left corner.
    pub origin_on_screen: Pos2,
    /// Screen points per image pixel.
    pub points_per_px: f32,
}

impl ScreenFromImage {
    /// The transform that fits an image of `image_size_px` into `available` (centred, aspect
    /// kept), and the rectangle the image occupies.
    pub fn fit(image_size_px: Vec2, available: Rect) -> (ScreenFromImage, Rect) {
        let scale = if image_size_px.x > 0.0 && image_size_px.y > 0.0 {
            (available.width() / image_size_px.x).min(available.height() / image_size_px.y)
        } else {
            1.0
        };
        let size = image_size_px * scale;
        let rect = Rect::from_center_size(available.center(), size);
        (
            ScreenFromImage {
                origin_on_screen: rect.min,
                points_per_px: scale,
            },
            rect,
        )
    }

    /// Maps an image point to the screen.
    pub fn apply(&self, p: Point) -> Pos2 {
        self.origin_on_screen + Vec2::new(p.x, p.y) * self.points_per_px
    }

    /// Maps a screen point back to image pixels.
    pub fn inverse(&self, p: Pos2) -> Point {
        let d = (p - self.origin_on_screen) / self.points_per_px.max(f32::EPSILON);
        Point::new(d.x, d.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_transform_round_trips_and_keeps_aspect() {
        let (t, rect) = ScreenFromImage::fit(
            Vec2::new(640.0, 480.0),
            Rect::from_min_size(Pos2::new(0.0, 0.0), Vec2::new(320.0, 480.0)),
        );
        assert!((rect.width() - 320.0).abs() < 1e-3 && (rect.height() - 240.0).abs() < 1e-3);
        let p = Point::new(123.0, 456.0);
        let back = t.inverse(t.apply(p));
        assert!(back.distance(p) < 1e-3);
    }
}
