//! Grid detection: photo → located 9×9 grid with a refined 10×10 lattice of line intersections.
//!
//! First, a rendered picture (a screenshot: no noise, lines along the pixel rows and columns)
//! is searched by the screen stage (`screen`), which measures the ten row and ten column
//! lines from brightness edges in either direction and returns them unrefined; photos, and
//! screenshots it finds nothing in, go on to the ink-mask stages.
//!
//! Pipeline (all at a working scale of about [`DetectOptions::work_long_side_px`]):
//! grayscale → area downscale → adaptive threshold (ink = foreground; `threshold`) → contours
//! → candidate quads, proposed by the stages of `Stage` in turn until one validates:
//! 1. the largest ink outlines, each reduced to the largest quadrilateral inscribed in its
//!    convex hull (raw contour points, never polygon-simplified; `candidates`);
//! 2. when an outline fails (it merged with a shadow or other print at a corner), quads rebuilt
//!    from the sides traced near each corner (`outline`), tried before the next outline;
//! 3. the lattice of the cell holes (`cells`): of an outline that gave a grid that fits less
//!    than well (score ≤ 0.95: maybe merged along whole sides with a box printed behind it,
//!    its lattice bent to fit the union or shifted a row into the box), kept when it fits
//!    better; of every contour when no outline gave one;
//!    then, when no cells line up either, the 3×3 lattice of the box holes (a blurred or small
//!    grid whose thin lines the mask lost, merged with a header or the page edge);
//! 4. last, Hough lines grouped into two perpendicular families of ten evenly spaced lines
//!    (`hough`; whose lattice must also end at its border, or it may be a block of a larger
//!    grid);
//! 5. once a grid is found, the cell holes of a much larger outline that gave none (a puzzle
//!    merged with a fold or shadow, beside a small printed solution): the larger grid wins;
//! 6. when no try finds a grid, the picture's largest grid-shaped outline (often the page)
//!    is cropped and searched again at a finer scale (`zoom`: a small grid in a large photo
//!    or an HD frame; in a picture no larger than the working image, a webcam frame, the crop
//!    is enlarged);
//! 7. when no try finds a grid at all, the best quad lattice whose eight box lines were fitted
//!    to the mask as whole lines (`fit`), judged more strictly, is the last resort.
//!
//! The search over one try's candidates (which lattice of a quad is judged, which candidate
//! wins) is `search`'s; this module runs the tries and the stages in order.
//!
//! The design put Hough lines first. Contours come first here because they cost a few
//! milliseconds where a Hough transform costs tens (its edge or line voting alone), and they
//! found every grid of the shared photo sets. Hough lines remain for grids whose lines do not
//! join up into one outline or closed cells.
//!
//! Each candidate's lattice (from its homography) is refined point by point onto the two grid
//! lines through each intersection (`refine`), so bent paper and lens distortion are followed
//! rather than one homography; strays are put back by smoothness fits (`smooth`) and a second
//! round locks them on. A valid lattice folded near a corner (its quad a row or column off
//! there, points locked onto the next line) is refined again from the homography of the rest
//! (`search`). Validation (`validate`: ink on every lattice edge, little on the
//! half-way lines, even spacing) rejects 8×8, 10×10, crossword and other non-Sudoku grids with
//! a typed [`Rejection`]; when too many edges lack ink but nothing else is wrong, the gray
//! levels along every lattice line decide (`faint`: thin lines printed too light for the
//! threshold, or, lost even in gray, placed by the digits centred in the cells). The chosen grid, when some line search failed, is refined once more letting
//! gray-level valleys stand in for lines the mask lost, and that lattice is kept when it still
//! validates. This module orchestrates those stages; it does not read digits or track across
//! frames.

mod background;
mod candidates;
mod fit;
mod hough;
mod refine;
mod screen;
mod search;
mod threshold;
pub mod track;
mod validate;
mod zoom;

use std::borrow::Cow;

use image::{DynamicImage, GrayImage, RgbImage};

use super::cells::Holes;
use super::{GridDetection, Lattice, NoGrid, Point, cells};
use candidates::{candidate_outlines, order_corners};
use search::{Chosen, Search, Stage, refine_in_gray_valleys};

pub use validate::{Band, Rejection};

/// Tuning knobs of [`detect_with`]. `Default` is what [`detect`] uses.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectOptions {
    /// Long side of the working image in pixels; larger photos are area-downscaled to it.
    pub work_long_side_px: u32,
    /// How many of the largest ink outlines are tried as grid candidates.
    pub max_candidates: usize,
    /// Smallest grid side at working scale, in pixels (smaller outlines are ignored).
    pub min_grid_side_px: f32,
    /// How many gray levels darker than its surroundings a pixel must be to count as ink;
    /// `None` picks it from the picture's noise (at least 8).
    pub ink_delta: Option<u32>,
    /// Whether the ink mask keeps only ink darker than the paper's own level around it too
    /// (its grey closing, `background`): the box-mean threshold marks a band beside a hard
    /// shadow's edge, or beside the page's edge on a dark desk, as ink, which breaks the
    /// grid's outline and fills its half-way lines. The last try of a still picture.
    pub ink_below_background: bool,
    /// Which searches run: every fallback for a still picture, or one part of them for a
    /// video frame (see [`Effort`]).
    pub effort: Effort,
    /// Which ink polarity to try first: `Some(true)` light lines on a dark ground (the picture
    /// inverted), `Some(false)` dark ink; `None` lets [`prefers_inverted`] decide.
    pub invert: Option<bool>,
    /// Whether an outline that fails while no grid is found is rebuilt from the sides traced
    /// near its corners (`Stage::TracedSides`: up to nine more quads per outline, each
    /// refined, most of the cost of a detection that finds nothing on a page of print).
    /// Stills always; a video frame on some of the frames that find nothing (`live::tries`).
    pub traced_sides: bool,
    /// Whether a picture that gave no grid is searched once more in a crop around its
    /// largest grid-shaped outline, at a finer scale (a small grid in a large photo or an HD
    /// frame, whose cells the working scale shrinks below what the thin lines survive; in a
    /// picture no larger than the working image, the crop enlarged). The crop's own search
    /// never zooms again.
    pub zoom: bool,
    /// Whether a lattice whose box lines were fitted as wholes (the last resort) may stand on
    /// one way's thin lines and the digits centred in its cells when the other way's thin
    /// lines are hidden in gray levels (`faint::lines_present_or_hidden_by_digits`: a
    /// finished grid of tall digits in a small, soft frame). Stills always; not video frames
    /// (`live::tries` says why).
    pub digits_for_hidden_lines: bool,
    /// The most noise (σ in gray levels, `threshold::noise_sigma`) a picture may have for the
    /// screen stage to search it: a rendered picture is flat between its edges. Stills take
    /// any picture under 0.25; a camera's defocused frame can be that flat too, and costs the
    /// stage's whole search (`live::tries` asks for less).
    pub screen_max_noise_sigma: f32,
}

/// How much of the search [`detect_with`] runs on a picture.
///
/// A video frame that gives no grid is followed by another a few tens of milliseconds later,
/// so the live path asks for one part of the search per frame and spreads the parts over the
/// frames (`live::tries`); a still picture gets all of them at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// Every try: the first polarity, the other one, the finer ink step, then ink below the
    /// paper's own level (`DetectOptions::ink_below_background`), each with its contour stages
    /// and, when they find nothing, the Hough line stage.
    Exhaustive,
    /// The contour stages (outlines, traced sides, cell and box holes) in the first try only.
    Contours,
    /// The Hough line stage alone in the first try: the contour stages are skipped (a frame
    /// before gave them their turn).
    Lines,
}

/// Whether a picture's marks are mostly light on a darker ground, so that its grid is more
/// likely light on dark (a dark-mode screen): the polarity [`detect_with`] tries first unless
/// told otherwise.
pub fn prefers_inverted(image: &GrayImage) -> bool {
    threshold::marks_are_light(image)
}

impl Default for DetectOptions {
    fn default() -> Self {
        Self {
            work_long_side_px: 640,
            max_candidates: 6,
            min_grid_side_px: 90.0,
            ink_delta: None,
            ink_below_background: false,
            effort: Effort::Exhaustive,
            invert: None,
            traced_sides: true,
            zoom: true,
            digits_for_hidden_lines: true,
            screen_max_noise_sigma: screen::MAX_NOISE_SIGMA,
        }
    }
}

/// Intermediate products of one detection, for debugging drawings (`scan --debug`).
/// All geometry is in working-image pixels; `work_to_image` maps it back.
#[derive(Clone, Debug, Default)]
pub struct DetectTrace {
    /// The downscaled grayscale working image.
    pub work: GrayImage,
    /// The thresholded ink mask (255 = ink).
    pub ink_mask: GrayImage,
    /// Candidate outline quads tried, with their refined lattice and validation score
    /// (0 when rejected).
    pub candidates: Vec<([Point; 4], Lattice, f32)>,
    /// The lattice predicted from the chosen outline before refinement.
    pub initial_lattice: Option<Lattice>,
    /// Working → image scale factor (image = (work + 0.5) · factor − 0.5).
    pub work_to_image: f32,
    /// The Hough lines of the ink mask (two endpoints each, working pixels). Recorded for
    /// debugging even when the Hough fallback did not run.
    pub hough_lines: Vec<(Point, Point)>,
    /// Whether the Hough fallback ran (every other candidate had failed).
    pub hough_ran: bool,
}

/// Finds the Sudoku grid in a photo of any pixel type (converted to 8-bit gray, its colour
/// kept for the screen stage).
pub fn detect(image: &DynamicImage) -> Result<GridDetection, NoGrid> {
    let gray: Cow<'_, GrayImage> = match image {
        DynamicImage::ImageLuma8(g) => Cow::Borrowed(g),
        other => Cow::Owned(super::load::to_gray(other)),
    };
    let colour = super::load::colour_of(image);
    detect_with_colour(&gray, colour.as_deref(), &DetectOptions::default(), None)
}

/// Finds the Sudoku grid in an 8-bit grayscale image with default options.
pub fn detect_gray(image: &GrayImage) -> Result<GridDetection, NoGrid> {
    detect_with(image, &DetectOptions::default(), None)
}

/// Finds the Sudoku grid with explicit options, optionally recording intermediate stages.
pub fn detect_with(
    image: &GrayImage,
    options: &DetectOptions,
    trace: Option<&mut DetectTrace>,
) -> Result<GridDetection, NoGrid> {
    detect_with_colour(image, None, options, trace)
}

/// [`detect_with`] on a picture whose colour is at hand too: `colour` (the same picture as
/// `image`, in colour; ignored when its size differs) lets the screen stage see edges that
/// only a hue shows. The ink-mask stages work on `image` alone.
pub fn detect_with_colour(
    image: &GrayImage,
    colour: Option<&RgbImage>,
    options: &DetectOptions,
    mut trace: Option<&mut DetectTrace>,
) -> Result<GridDetection, NoGrid> {
    let (width, height) = image.dimensions();
    if width.min(height) < 32 {
        return Err(NoGrid::TooSmall { width, height });
    }
    // A grid drawn along the pixel rows and columns (a screenshot) is measured from its
    // brightness edges, in either polarity, before any ink mask is made.
    if let Some(grid) = screen::find(image, colour, options.screen_max_noise_sigma) {
        tracing::debug!(cover = grid.cover, "grid found by the screen stage");
        if let Some(t) = trace {
            screen_trace(t, image, options, &grid);
        }
        let lattice = grid.lattice;
        return Ok(GridDetection {
            corners_in_image: lattice.corners(),
            lattice_in_image: lattice.points_in_image,
            score: grid.cover.clamp(0.0, 1.0),
        });
    }
    // The ink mask looks for dark ink: light lines on a dark ground (dark-mode screens) are
    // dark in the inverted picture. A picture whose marks are mostly light is tried that way
    // first (`threshold::marks_are_light`: not its overall brightness, which a page on a dark
    // desk shares with a dark-mode screen); either
    // polarity is tried when the other finds nothing. Last, thin lines printed light and then
    // softened (a small webcam frame of a newspaper) can sit below the mask's 8-level step
    // everywhere: once more, in the first polarity, with a finer step. Only pictures that
    // gave no grid pay for the later tries, and validation still guards each.
    let dark_first = options
        .invert
        .unwrap_or_else(|| threshold::marks_are_light(image));
    let faint = DetectOptions {
        ink_delta: Some(FAINT_INK_DELTA),
        ..options.clone()
    };
    // And once more in the first polarity with ink only where it is darker than the paper
    // around it: a hard shadow across the page (a phone or a hand under the lamp) makes its
    // edge a band of "ink" that joins the grid's outline and crosses its cells.
    let below_background = DetectOptions {
        ink_below_background: true,
        ..options.clone()
    };
    let all_tries = [
        (dark_first, options),
        (!dark_first, options),
        (dark_first, &faint),
        (dark_first, &below_background),
    ];
    let tries = &all_tries[..if options.effort == Effort::Exhaustive {
        all_tries.len()
    } else {
        1
    }];
    let inverted = std::cell::OnceCell::new();
    let mut first_error = None;
    let mut zoom_region = None;
    let mut last_resort: Option<Box<GridDetection>> = None;
    for (k, &(invert, try_options)) in tries.iter().enumerate() {
        let picture = if invert {
            inverted.get_or_init(|| {
                let mut inv = image.clone();
                image::imageops::invert(&mut inv);
                inv
            })
        } else {
            image
        };
        // The debug trace shows the try that found the grid, else the first one.
        let mut own_trace = (k > 0 && trace.is_some()).then(DetectTrace::default);
        let try_trace = if k == 0 {
            trace.as_deref_mut()
        } else {
            own_trace.as_mut()
        };
        tracing::debug!(try_index = k, invert, ink_delta = ?try_options.ink_delta, "polarity try");
        match detect_one_polarity(picture, try_options, try_trace) {
            Ok(found) => {
                if let (Some(t), Some(own)) = (trace, own_trace) {
                    *t = own;
                }
                return Ok(found);
            }
            // The first try's reason is the one a user of a normal picture needs.
            Err(unfound) => {
                first_error.get_or_insert(unfound.why);
                if zoom_region.is_none() {
                    zoom_region = unfound.zoom_region;
                }
                if let Some(fitted) = unfound.last_resort
                    && last_resort.as_ref().is_none_or(|l| fitted.score > l.score)
                {
                    last_resort = Some(fitted);
                }
            }
        }
    }
    // No try found a grid: a finer look where the grid may be, then a lattice with box lines
    // fitted as wholes as the last resort.
    if options.zoom
        && let Some(region) = zoom_region
        && let Some(found) = zoom::detect_zoomed(image, colour, options, region)
    {
        return Ok(found);
    }
    last_resort
        .map(|found| *found)
        .ok_or(first_error.unwrap_or(NoGrid::NoOutline))
}

/// Fills the debug trace for a grid found by the screen stage: the working images of the
/// first polarity and the grid's lattice as the one (chosen) candidate, in working pixels.
fn screen_trace(
    trace: &mut DetectTrace,
    image: &GrayImage,
    options: &DetectOptions,
    grid: &screen::ScreenGrid,
) {
    let working = threshold::working_images(
        image,
        options.work_long_side_px,
        options.ink_delta,
        options.ink_below_background,
    );
    let f = working.work_to_image;
    let lattice = grid
        .lattice
        .map(|p| Point::new((p.x + 0.5) / f - 0.5, (p.y + 0.5) / f - 0.5));
    trace.work = working.gray.into_owned();
    trace.ink_mask = working.mask;
    trace.work_to_image = f;
    trace.candidates = vec![(lattice.corners(), lattice, grid.cover)];
    trace.initial_lattice = Some(lattice);
}

/// The ink mask's step (gray levels) of the last try on a picture where nothing was found.
pub const FAINT_INK_DELTA: u32 = 4;

/// [`detect_with`] for dark ink on a lighter ground only.
fn detect_one_polarity(
    image: &GrayImage,
    options: &DetectOptions,
    mut trace: Option<&mut DetectTrace>,
) -> Result<GridDetection, Unfound> {
    let working = threshold::working_images(
        image,
        options.work_long_side_px,
        options.ink_delta,
        options.ink_below_background,
    );
    let (work, mask) = (working.gray.as_ref(), &working.mask);
    if let Some(t) = trace.as_deref_mut() {
        t.work = work.clone();
        t.ink_mask = mask.clone();
        t.work_to_image = working.work_to_image;
    }
    let contours = imageproc::contours::find_contours::<i32>(mask);
    let outlines = candidate_outlines(&contours, options);
    let long_side_px = mask.width().max(mask.height()) as f32;

    let mut search = Search {
        traced_sides: options.traced_sides,
        digits_for_hidden_lines: options.digits_for_hidden_lines,
        mask,
        work,
        min_grid_side_px: options.min_grid_side_px,
        long_side_px,
        trace: trace.as_deref_mut(),
        best: None,
        fitted: None,
        fitted_judged: Vec::new(),
        last_rejection: None,
    };
    let contour_stages = options.effort != Effort::Lines;
    // Stage::Outlines, with Stage::TracedSides after each outline that fails.
    if contour_stages {
        search.outlines(&outlines, &contours);
    }
    // No outline gave a grid (each merged with other ink beyond repair): the cells inside the
    // grid are still holes of one size on a lattice.
    // Then, with no cells either: a blurred or small grid (a webcam frame) whose thin lines
    // the mask lost, merged with the page edge or a header, still has its heavy box lines,
    // and the nine boxes are holes on a 3×3 lattice.
    for (holes, stage) in [
        (Holes::Cells, Stage::CellHoles),
        (Holes::Boxes, Stage::BoxHoles),
    ] {
        if contour_stages && search.best.is_none() {
            let quads =
                cells::quads_from_holes(&contours, holes, options.min_grid_side_px, long_side_px);
            search.try_each(stage, quads.into_iter().map(order_corners));
        }
    }
    // Contours gave nothing usable (broken outer border, grid merged with other print): a
    // Hough-line lattice fit.
    let hough_ran = search.best.is_none() && options.effort != Effort::Contours;
    if hough_ran {
        let (quads, lines) = hough::hough_quads(mask, options);
        if let Some(t) = search.trace.as_deref_mut() {
            t.hough_lines = lines;
            t.hough_ran = true;
        }
        search.try_in_turn(Stage::Hough, quads);
    }
    // A small grid may have been found beside a much larger outline that gave none.
    search.larger_grid(&outlines, &contours, options.min_grid_side_px, long_side_px);
    let Search {
        best,
        fitted,
        last_rejection,
        ..
    } = search;
    // A working-image coordinate in image pixels.
    let factor = working.work_to_image;
    let to_image = |v: f32| (v + 0.5) * factor - 0.5;

    if let Some(t) = trace
        && !hough_ran
    {
        // Only for the debug drawing: the lines the fallback would have seen.
        t.hough_lines = hough::hough_quads(mask, options).1;
    }
    let finish = |chosen: Chosen| {
        let (lattice_in_work, score) = refine_in_gray_valleys(mask, work, chosen);
        let lattice = lattice_in_work.map(|p| Point::new(to_image(p.x), to_image(p.y)));
        // Corners at the border line's centre, like the lattice: kubiesa's ground truth uses
        // that convention (wichtounet's sits ~1 % further out).
        GridDetection {
            corners_in_image: lattice.corners(),
            lattice_in_image: lattice.points_in_image,
            score,
        }
    };
    match best {
        Some(best) => Ok(finish(best)),
        // Every candidate tried was rejected, or none was tried at all.
        None => Err(Unfound {
            why: match last_rejection {
                Some(rejection) => NoGrid::NoLattice(rejection),
                None => NoGrid::NoOutline,
            },
            last_resort: fitted.map(|f| Box::new(finish(f))),
            // Only where the caller may zoom, and only once no grid was found.
            zoom_region: options
                .zoom
                .then(|| zoom::zoom_region(&outlines, long_side_px))
                .flatten()
                .map(|r| r.map(to_image)),
        }),
    }
}

/// What [`detect_one_polarity`] says when no stage found a grid.
struct Unfound {
    /// Why not.
    why: NoGrid,
    /// The best lattice with box lines fitted as wholes ([`Search::offer_fitted`]), for
    /// when no try at all finds a grid (boxed: the error stays small).
    last_resort: Option<Box<GridDetection>>,
    /// Where the picture may be looked at again, finer ([`zoom::zoom_region`]), image pixels.
    zoom_region: Option<[f32; 4]>,
}

#[cfg(test)]
mod tests;
// The drawing helpers live with the tests; the stages' own tests reach them here.
#[cfg(test)]
use tests::{draw_grid, put_line};
