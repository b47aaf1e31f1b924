//! Zoom: a second search of a picture that gave no grid, in a crop around its largest
//! grid-shaped outline seen at a finer scale than the whole picture's working image. A small
//! grid in a large photo or an HD webcam frame (a newspaper page photographed whole, a grid a
//! third of a 1280×720 frame's height) shrinks at the working scale until its thin lines and
//! cells are a pixel or two; cropped, the same pixels are searched nearer their own
//! resolution. A picture no larger than the working image (a 640×480 webcam frame) is
//! searched at its own pixels already; there the crop is enlarged (at most
//! [`ZOOM_MAX_ENLARGE`] times), so that a grid of 17-px cells is searched at the scale the
//! detector's steps expect of a grid filling the frame.
//!
//! Owns where to look again and the mapping back to the picture; the search itself is
//! [`super::detect_with_colour`]'s, which never zooms twice.

use image::{GrayImage, RgbImage};

use super::candidates::Outline;
use super::{DetectOptions, detect_with_colour};
use crate::vision::geometry::bounding_box;
use crate::vision::{GridDetection, Point};

/// Least gain in scale (working pixels per image pixel, crop against whole picture) for
/// which [`detect_zoomed`] searches a crop.
const ZOOM_MIN_GAIN: f32 = 1.4;

/// How many times a crop of a picture no larger than the working image is enlarged at most.
/// Chosen on webcam frames of printed pages (our generator) and of training photos: a grid
/// a third of a 640×480 frame's height, searched at twice its size, is found in 5 more of
/// 250 frames of printed pages, 2 more of 160 of kubiesa-train and 9 more of 237 of filled
/// pages; no grid in 650 frames without a puzzle.
pub const ZOOM_MAX_ENLARGE: f32 = 2.0;

/// [`detect_with_colour`] in the crop `region` of `image` (image pixels: x0, y0, x1, y1) when
/// the crop is seen at least [`ZOOM_MIN_GAIN`] times finer than the whole picture, with the
/// result in `image`'s pixels. The crop of a picture no larger than the working image is
/// enlarged to be seen finer ([`ZOOM_MAX_ENLARGE`]).
pub(super) fn detect_zoomed(
    image: &GrayImage,
    colour: Option<&RgbImage>,
    options: &DetectOptions,
    region: [f32; 4],
) -> Option<GridDetection> {
    let (width, height) = image.dimensions();
    let x0 = region[0].max(0.0) as u32;
    let y0 = region[1].max(0.0) as u32;
    let x1 = (region[2].max(0.0) as u32).min(width);
    let y1 = (region[3].max(0.0) as u32).min(height);
    let (w, h) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let work = options.work_long_side_px.max(64) as f32;
    let scale_of = |long: u32| (work / long as f32).min(1.0);
    // A large picture's crop is searched nearer its own pixels; a small picture's is enlarged.
    // Crops of large pictures keep their pixels as they are: enlarging them was not measured.
    let enlarge = if width.max(height) as f32 <= work && w.max(h) > 0 {
        (work / w.max(h) as f32).clamp(1.0, ZOOM_MAX_ENLARGE)
    } else {
        1.0
    };
    let gain = scale_of(w.max(h)) * enlarge / scale_of(width.max(height));
    if w.min(h) < 32 || gain < ZOOM_MIN_GAIN {
        return None;
    }
    let mut crop = image::imageops::crop_imm(image, x0, y0, w, h).to_image();
    let mut colour_crop = colour
        .filter(|c| c.dimensions() == (width, height))
        .map(|c| image::imageops::crop_imm(c, x0, y0, w, h).to_image());
    if enlarge > 1.0 {
        let (ew, eh) = ((w as f32 * enlarge) as u32, (h as f32 * enlarge) as u32);
        let filter = image::imageops::FilterType::Triangle;
        crop = image::imageops::resize(&crop, ew, eh, filter);
        colour_crop = colour_crop.map(|c| image::imageops::resize(&c, ew, eh, filter));
    }
    let inner = DetectOptions {
        zoom: false,
        ..options.clone()
    };
    let found = detect_with_colour(&crop, colour_crop.as_ref(), &inner, None).ok()?;
    tracing::debug!(x0, y0, w, h, "grid found in a zoomed crop");
    // Pixel centres: the enlarged crop's pixel `i` covers the crop's `[i, i + 1) / enlarge`.
    let shift = |p: Point| {
        Point::new(
            (p.x + 0.5) / enlarge - 0.5 + x0 as f32,
            (p.y + 0.5) / enlarge - 0.5 + y0 as f32,
        )
    };
    Some(GridDetection {
        corners_in_image: found.corners_in_image.map(shift),
        lattice_in_image: found.lattice_in_image.map(|row| row.map(shift)),
        score: found.score,
    })
}

/// Where a picture that gave no grid is looked at again, finer ([`detect_zoomed`]): the
/// bounding box of its largest grid-shaped outline no more than
/// [`ZOOM_MAX_SHARE`] of the working image's long side across (the largest is often the
/// page), widened by [`ZOOM_MARGIN`] of its size on each side; working pixels.
pub(super) fn zoom_region(outlines: &[Outline], long_side_px: f32) -> Option<[f32; 4]> {
    outlines.iter().filter_map(|o| o.quad).find_map(|quad| {
        let [x0, y0, x1, y1] = bounding_box(&quad);
        let (w, h) = (x1 - x0, y1 - y0);
        (w.max(h) <= ZOOM_MAX_SHARE * long_side_px).then(|| {
            let (mx, my) = (ZOOM_MARGIN * w, ZOOM_MARGIN * h);
            [x0 - mx, y0 - my, x1 + mx, y1 + my]
        })
    })
}

/// Largest outline [`zoom_region`] zooms on, as a share of the working image's long side.
const ZOOM_MAX_SHARE: f32 = 0.6;
/// Margin [`zoom_region`] adds on each side, as a share of the outline's size.
const ZOOM_MARGIN: f32 = 0.15;

#[cfg(test)]
mod tests {
    use image::Luma;

    use super::super::{DetectOptions, detect_with, draw_grid, put_line};
    use crate::vision::{Lattice, Point};

    /// A 2560×1920 photo of a newspaper page whose puzzle is printed in a box, a Sudoku grid
    /// of 200 px inside it: at the working scale (a quarter) the grid is 50 px across, its
    /// cells under 6 px, and only the box around it is a candidate outline.
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn small_grid_in_a_box() -> (image::GrayImage, [Point; 4]) {
        let mut img = image::GrayImage::from_pixel(2560, 1920, Luma([215]));
        // Turned a little about the grid's middle, as a photo is (and as no screenshot is).
        let turn = |(x, y): (f32, f32)| {
            let (s, c) = 0.08f32.sin_cos();
            let (dx, dy) = (x - 1840.0, y - 1040.0);
            Point::new(1840.0 + dx * c - dy * s, 1040.0 + dx * s + dy * c)
        };
        let frame = [
            (1600.0, 800.0),
            (2080.0, 800.0),
            (2080.0, 1280.0),
            (1600.0, 1280.0),
        ]
        .map(turn);
        for k in 0..4 {
            put_line(&mut img, frame[k], frame[(k + 1) % 4], 4.0, 40);
        }
        let corners = [
            (1740.0, 940.0),
            (1940.0, 940.0),
            (1940.0, 1140.0),
            (1740.0, 1140.0),
        ]
        .map(turn);
        let p = Lattice::from_corners(corners).points_in_image;
        for i in 0..10 {
            let (thick, v) = if i % 3 == 0 { (4.0, 30) } else { (1.5, 120) };
            put_line(&mut img, p[i][0], p[i][9], thick, v);
            put_line(&mut img, p[0][i], p[9][i], thick, v);
        }
        (img, corners)
    }

    #[test]
    fn a_small_grid_in_a_large_photo_is_found_in_a_zoomed_crop() {
        let (img, corners) = small_grid_in_a_box();
        let no_zoom = DetectOptions {
            zoom: false,
            ..DetectOptions::default()
        };
        assert!(
            detect_with(&img, &no_zoom, None).is_err(),
            "too small at the working scale"
        );
        let found = detect_with(&img, &DetectOptions::default(), None).expect("grid, zoomed");
        for (a, b) in found.corners_in_image.iter().zip(corners) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?} (image pixels)");
        }
    }

    #[test]
    fn a_crop_not_seen_finer_enough_is_not_searched() {
        // The same scene at the working size: a crop of most of it, enlarged, would be seen
        // under ZOOM_MIN_GAIN times finer.
        let (img, _) = small_grid_in_a_box();
        let small = image::imageops::resize(&img, 640, 480, image::imageops::FilterType::Triangle);
        let region = [100.0, 20.0, 600.0, 470.0];
        assert!(super::detect_zoomed(&small, None, &DetectOptions::default(), region).is_none());
    }

    #[test]
    fn an_enlarged_crop_maps_back_to_the_pictures_pixels() {
        // A clean grid of 20-px cells in a 640×480 picture, searched in a crop enlarged twice:
        // the corners come back where they are in the picture.
        let mut img = image::GrayImage::from_pixel(640, 480, Luma([220]));
        let corners = [
            (300.0, 150.0),
            (480.0, 150.0),
            (480.0, 330.0),
            (300.0, 330.0),
        ]
        .map(|(x, y)| Point::new(x, y));
        draw_grid(&mut img, corners, 3.0);
        let region = [270.0, 120.0, 510.0, 360.0];
        let found = super::detect_zoomed(&img, None, &DetectOptions::default(), region)
            .expect("the grid, in the enlarged crop");
        for (a, b) in found.corners_in_image.iter().zip(corners) {
            assert!(a.distance(b) < 2.0, "{a:?} vs {b:?} (picture pixels)");
        }
    }
}
