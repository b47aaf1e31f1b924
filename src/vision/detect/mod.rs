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
//! 3. the lattice of the cell holes (`cells`): of an outline that gave a grid that fits poorly
//!    (score ≤ 0.85: merged along whole sides with a box printed behind it, its lattice bent
//!    to fit the union), kept when it fits better; of every contour when no outline gave one;
//!    then, when no cells line up either, the 3×3 lattice of the box holes (a blurred or small
//!    grid whose thin lines the mask lost, merged with a header or the page edge);
//! 4. last, Hough lines grouped into two perpendicular families of ten evenly spaced lines
//!    (`hough`; whose lattice must also end at its border, or it may be a block of a larger
//!    grid);
//! 5. once a grid is found, the cell holes of a much larger outline that gave none (a puzzle
//!    merged with a fold or shadow, beside a small printed solution): the larger grid wins.
//!
//! The design put Hough lines first. Contours come first here because they cost a few
//! milliseconds where a Hough transform costs tens (its edge or line voting alone), and they
//! found every grid of the shared photo sets. Hough lines remain for grids whose lines do not
//! join up into one outline or closed cells.
//!
//! Each candidate's lattice (from its homography) is refined point by point onto the two grid
//! lines through each intersection (`refine`), so bent paper and lens distortion are followed
//! rather than one homography; strays are put back by smoothness fits (`smooth`) and a second
//! round locks them on. Validation (`validate`: ink on every lattice edge, little on the
//! half-way lines, even spacing) rejects 8×8, 10×10, crossword and other non-Sudoku grids with
//! a typed [`Rejection`]; when too many edges lack ink but nothing else is wrong, the gray
//! levels along every lattice line decide (`faint`: thin lines printed too light for the
//! threshold). The chosen grid, when some line search failed, is refined once more letting
//! gray-level valleys stand in for lines the mask lost, and that lattice is kept when it still
//! validates. This module orchestrates those stages; it does not read digits or track across
//! frames.

mod candidates;
mod fit;
mod hough;
mod refine;
mod screen;
mod threshold;
pub mod track;
mod validate;

use std::borrow::Cow;

use image::{DynamicImage, GrayImage, RgbImage};
use imageproc::contours::Contour;

use super::cells::Holes;
use super::geometry::polygon_area;
use super::{GridDetection, Lattice, NoGrid, Point, cells, outline};
use candidates::{Outline, candidate_outlines, contour_points, order_corners};
use fit::fit_box_lines;
use refine::{refine_lattice, refine_lattice_counted};
use validate::{Checks, judge, judge_by_box_lines, judge_fitted, judge_predicted};

pub use validate::Rejection;

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
    /// Which searches run: every fallback for a still picture, or one part of them for a
    /// video frame (see [`Effort`]).
    pub effort: Effort,
    /// Which ink polarity to try first: `Some(true)` light lines on a dark ground (the picture
    /// inverted), `Some(false)` dark ink; `None` lets [`prefers_inverted`] decide.
    pub invert: Option<bool>,
}

/// How much of the search [`detect_with`] runs on a picture.
///
/// A video frame that gives no grid is followed by another a few tens of milliseconds later,
/// so the live path asks for one part of the search per frame and spreads the parts over the
/// frames (`live::tries`); a still picture gets all of them at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// Every try: the first polarity, the other one, the finer ink step, each with its
    /// contour stages and, when they find nothing, the Hough line stage.
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
            effort: Effort::Exhaustive,
            invert: None,
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
    if let Some(grid) = screen::find(image, colour) {
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
    let all_tries = [
        (dark_first, options),
        (!dark_first, options),
        (dark_first, &faint),
    ];
    let tries = &all_tries[..if options.effort == Effort::Exhaustive {
        3
    } else {
        1
    }];
    let inverted = std::cell::OnceCell::new();
    let mut first_error = None;
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
                if let Some(fitted) = unfound.last_resort
                    && last_resort.as_ref().is_none_or(|l| fitted.score > l.score)
                {
                    last_resort = Some(fitted);
                }
            }
        }
    }
    // No try found a grid: a lattice with box lines fitted as wholes is the last resort.
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
    let working = threshold::working_images(image, options.work_long_side_px, options.ink_delta);
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
    let working = threshold::working_images(image, options.work_long_side_px, options.ink_delta);
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

    if let Some(t) = trace
        && !hough_ran
    {
        // Only for the debug drawing: the lines the fallback would have seen.
        t.hough_lines = hough::hough_quads(mask, options).1;
    }
    let finish = |chosen: Chosen| {
        let (lattice_in_work, score) = refine_in_gray_valleys(mask, work, chosen);
        let factor = working.work_to_image;
        let to_image =
            |p: Point| Point::new((p.x + 0.5) * factor - 0.5, (p.y + 0.5) * factor - 0.5);
        let lattice = lattice_in_work.map(to_image);
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
}

/// The stages that propose candidate quads, in the order [`detect_with`] runs them; each
/// candidate is tagged with the stage it came from. After them, the chosen grid may still be
/// refined once more in gray-level valleys ([`refine_in_gray_valleys`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The hull quads of the largest ink outlines, largest first.
    Outlines,
    /// Quads rebuilt from the sides traced near each corner of an outline that failed (it
    /// merged with other ink at a corner), tried before the next outline while no grid is
    /// found.
    TracedSides,
    /// The lattices of the cell holes: of an outline whose grid fits poorly, or of every
    /// contour when no outline gave a grid.
    CellHoles,
    /// The lattices of the box holes of every contour, when neither outlines nor cell holes
    /// gave a grid (thin lines lost by the mask).
    BoxHoles,
    /// Two outer lines of each of two Hough line families, when contours gave no grid.
    Hough,
    /// Cell holes of an outline much larger than the grid found: they replace it.
    LargerGrid,
}

impl Stage {
    /// Whether the stage's lattices must also end at their border: nothing else says where a
    /// Hough lattice ends, while an outline's border is the end of a connected grid (a photo
    /// may show the next puzzle's grid just below).
    fn checks(self) -> Checks {
        if self == Stage::Hough {
            Checks::CandidateEndingAtBorder
        } else {
            Checks::Candidate
        }
    }
}

/// A grid validated with a score above this fits well enough that only a much larger grid may
/// still replace it: its stage ends.
const ENOUGH_SCORE: f32 = 0.85;

/// The best candidate so far.
struct Chosen {
    /// Its refined lattice, working pixels.
    lattice: Lattice,
    /// Its validation score.
    score: f32,
    /// The lattice it was refined from (its quad's homography).
    initial: Lattice,
    /// The stage that proposed it.
    stage: Stage,
    /// Whether some line search failed while refining it (gray levels may add something).
    missed: bool,
}

/// A candidate quad after refinement and validation.
struct Tried {
    /// Its refined lattice, working pixels.
    lattice: Lattice,
    /// The lattice predicted from the quad.
    initial: Lattice,
    /// Whether some line search failed while refining it.
    missed: bool,
    /// Its score, or why it is no grid.
    verdict: Result<f32, Rejection>,
}

/// What became of a quad offered to [`Search::offer`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Offer {
    /// It reaches far outside the image: not tried.
    Skipped,
    /// It is no grid.
    Rejected,
    /// It is a grid (kept when better than the best so far).
    Valid,
    /// It is a grid good enough that only a much larger grid could still replace it: the
    /// stage ends.
    Enough,
}

/// The candidate search over the stages: refines and judges quads on the ink mask, keeps the
/// best one and records what the trace wants.
struct Search<'a> {
    /// The ink mask (working pixels).
    mask: &'a GrayImage,
    /// The gray working image (for the `faint` re-check).
    work: &'a GrayImage,
    /// Smallest grid side and the working image's long side, working pixels (bounds of the
    /// cell-hole lattices).
    min_grid_side_px: f32,
    long_side_px: f32,
    trace: Option<&'a mut DetectTrace>,
    best: Option<Chosen>,
    /// The best lattice with box lines fitted as wholes ([`Search::offer_fitted`]): used
    /// when no stage found a grid.
    fitted: Option<Chosen>,
    /// The corners of every fitted lattice judged so far.
    fitted_judged: Vec<[Point; 4]>,
    /// Why the last rejected candidate was rejected.
    last_rejection: Option<Rejection>,
}

impl Search<'_> {
    /// Refines and judges `quad`; `None` when it reaches far outside the image (rebuilt or
    /// Hough quads can: a grid mostly outside the photo cannot be read, and its huge cells
    /// would make refinement slow).
    fn try_quad(&mut self, quad: [Point; 4], stage: Stage) -> Option<Tried> {
        let (w, h) = (self.mask.width() as f32, self.mask.height() as f32);
        if quad
            .iter()
            .any(|p| p.x < -0.25 * w || p.y < -0.25 * h || p.x > 1.25 * w || p.y > 1.25 * h)
        {
            return None;
        }
        let initial = Lattice::from_corners(quad);
        let (mut lattice, missed) = refine_lattice_counted(self.mask, None, &initial);
        let mut verdict = judge(self.mask, self.work, &lattice, stage.checks());
        // Refinement can pull a few points onto digits that touch thin lines (a finished
        // grid, light lines on a screen) and the lattice then looks uneven, or inked between
        // its lines; a flat grid's outline alone predicts every line. The quad's own lattice
        // is judged by the same rules (inked edges, clear half-way lines, even spacing; thin
        // lines lost by the mask, and the half-way lines then, are looked at in gray levels
        // when the box lines are inked), so a wrong outline still fails.
        //
        // A lattice from the box holes has, by how it was found, lost its thin lines in the
        // mask: its own box lines (and the thin lines in gray levels) decide, as for a
        // predicted lattice.
        if stage == Stage::BoxHoles
            && let Err(rejection @ Rejection::LinesMissing { .. }) = &verdict
            && let Ok(score) = judge_by_box_lines(self.mask, self.work, &lattice, rejection.clone())
        {
            verdict = Ok(score);
        }
        let predicted_may_do = match &verdict {
            Err(Rejection::UnevenSpacing { .. } | Rejection::InkBetweenLines { .. }) => true,
            Err(Rejection::LinesMissing { .. }) => stage == Stage::BoxHoles,
            _ => false,
        };
        if predicted_may_do
            && let Ok(score) = judge_predicted(self.mask, self.work, &initial, stage.checks())
        {
            lattice = initial;
            verdict = Ok(score);
        } else if predicted_may_do {
            self.offer_fitted(&initial, stage);
        }
        if let Some(t) = self.trace.as_deref_mut() {
            t.candidates
                .push((quad, lattice, verdict.as_ref().copied().unwrap_or(0.0)));
        }
        tracing::debug!(?stage, ?quad, ?verdict, "candidate tried");
        if let Err(rejection) = &verdict {
            self.last_rejection = Some(rejection.clone());
        }
        Some(Tried {
            lattice,
            initial,
            missed,
            verdict,
        })
    }

    /// Keeps the lattice of `initial` with its box lines fitted as wholes
    /// ([`fit_box_lines`]) as the last resort when it validates better than the last resort
    /// so far. The quad's corners a little off its box lines (a heavy border's outer edge,
    /// perspective) put its own lattice off, and refinement, pulled by blobs, makes it
    /// uneven; lines fitted as wholes carry it. It is weaker evidence than a lattice that
    /// validates as found: fitted lines find the nearest printed lines, so a quad a cell off
    /// the grid (the page's edge taken for its border) may fit the thin lines beside the box
    /// lines too: it is judged more strictly ([`judge_fitted`]), and used only when no try
    /// found a grid.
    fn offer_fitted(&mut self, initial: &Lattice, stage: Stage) {
        let Some(fitted) = fit_box_lines(self.mask, initial) else {
            return;
        };
        // The quads of one outline (its hull, the sides traced at each corner) mostly fit
        // the same box lines: each lattice is judged once.
        // A fit that hardly moved the lattice is the quad's own lattice, judged already.
        let corners = fitted.corners();
        let seen = |c: &[Point; 4]| c.iter().zip(&corners).all(|(a, b)| a.distance(*b) < 1.5);
        if seen(&initial.corners()) || self.fitted_judged.iter().any(seen) {
            return;
        }
        self.fitted_judged.push(corners);
        let Ok(score) = judge_fitted(self.mask, self.work, &fitted, stage.checks()) else {
            return;
        };
        tracing::debug!(?stage, score, "box lines fitted as wholes: a last resort");
        if self.fitted.as_ref().is_none_or(|f| score > f.score) {
            self.fitted = Some(Chosen {
                lattice: fitted,
                score,
                initial: *initial,
                stage,
                missed: false,
            });
        }
    }

    /// Makes `tried` (valid with `score`) the best candidate.
    fn choose(&mut self, tried: &Tried, score: f32, stage: Stage) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.initial_lattice = Some(tried.initial);
        }
        self.best = Some(Chosen {
            lattice: tried.lattice,
            score,
            initial: tried.initial,
            stage,
            missed: tried.missed,
        });
    }

    /// Tries `quad` and keeps it when it validates with a better score than the best so far.
    fn offer(&mut self, quad: [Point; 4], stage: Stage) -> Offer {
        let Some(tried) = self.try_quad(quad, stage) else {
            return Offer::Skipped;
        };
        let Ok(score) = tried.verdict else {
            return Offer::Rejected;
        };
        if self.best.as_ref().is_none_or(|b| score > b.score) {
            self.choose(&tried, score, stage);
        }
        if score > ENOUGH_SCORE {
            Offer::Enough
        } else {
            Offer::Valid
        }
    }

    /// Offers `quads` in turn until one is good enough.
    fn try_in_turn(&mut self, stage: Stage, quads: impl IntoIterator<Item = [Point; 4]>) {
        for quad in quads {
            if self.offer(quad, stage) == Offer::Enough {
                return;
            }
        }
    }

    /// Offers every one of `quads`, keeping the best: the ways of placing one set of indexed
    /// holes in the grid when a row or column of them was not found. A placement one row off
    /// can validate well too (the missing row laid over a ruled margin or the page's edge);
    /// the right one validates better.
    fn try_each(&mut self, stage: Stage, quads: impl IntoIterator<Item = [Point; 4]>) {
        for quad in quads {
            self.offer(quad, stage);
        }
    }

    /// [`Stage::Outlines`]: the outlines' grid-shaped quads in turn, largest first. While no
    /// grid is found, an outline that fails may have merged with other ink at a corner: the
    /// quads rebuilt from its sides traced near each corner ([`Stage::TracedSides`]) are tried
    /// before the next outline.
    fn outlines(&mut self, outlines: &[Outline], contours: &[Contour<i32>]) {
        for o in outlines {
            let Some(quad) = o.quad else { continue };
            let valid = match self.offer(quad, Stage::Outlines) {
                Offer::Enough => return,
                Offer::Rejected if self.best.is_none() => {
                    let contour = contour_points(&contours[o.contour]);
                    let mut valid = false;
                    for q in outline::traced_quads(quad, &contour) {
                        match self.offer(order_corners(q), Stage::TracedSides) {
                            Offer::Enough => return,
                            Offer::Valid => valid = true,
                            Offer::Rejected | Offer::Skipped => {}
                        }
                    }
                    valid
                }
                Offer::Valid => true,
                Offer::Rejected | Offer::Skipped => false,
            };
            if valid {
                // A grid that validates but fits poorly may be merged along whole sides with
                // a shadow or a box behind it: the quad is the union's (or rebuilt from its
                // sides) and the lattice bent to fit. The cells are still holes of that
                // outline; their lattice replaces it when it fits better.
                let holes = contours.iter().filter(|c| c.parent == Some(o.contour));
                let quads = cells::quads_from_holes(
                    holes,
                    Holes::Cells,
                    self.min_grid_side_px,
                    self.long_side_px,
                );
                self.try_each(Stage::CellHoles, quads.into_iter().map(order_corners));
                if self.best.as_ref().is_some_and(|b| b.score > ENOUGH_SCORE) {
                    return;
                }
            }
        }
    }

    /// [`Stage::LargerGrid`]: a small grid found beside a much larger outline that gave none
    /// is likely a puzzle merged with a fold or a shadow, next to yesterday's printed
    /// solution. The puzzle is the larger grid; its cells are holes of that outline. The
    /// first valid lattice of at least twice the found grid's area replaces it.
    fn larger_grid(
        &mut self,
        outlines: &[Outline],
        contours: &[Contour<i32>],
        min_grid_side_px: f32,
        long_side_px: f32,
    ) {
        let Some(found) = &self.best else { return };
        let found_area = polygon_area(&found.lattice.corners());
        let per_outline: Vec<Vec<[Point; 4]>> = outlines
            .iter()
            .filter(|o| o.bbox_area > 3.0 * found_area)
            .take(2)
            .map(|o| {
                let holes = contours.iter().filter(|c| c.parent == Some(o.contour));
                cells::quads_from_holes(holes, Holes::Cells, min_grid_side_px, long_side_px)
            })
            .collect();
        // The second outline's holes before the first's: the order detection has always used
        // (and was measured with).
        for quad in per_outline.into_iter().rev().flatten() {
            let Some(tried) = self.try_quad(order_corners(quad), Stage::LargerGrid) else {
                continue;
            };
            if let Ok(score) = tried.verdict
                && polygon_area(&tried.lattice.corners()) >= 2.0 * found_area
            {
                self.choose(&tried, score, Stage::LargerGrid);
                return;
            }
        }
    }
}

/// The chosen grid's lattice and score after one more refinement in which gray-level valleys
/// stand in for lines the ink mask lost (in a shadow, the box mean is dark too). Searching for
/// those costs more than the mask, so only the chosen grid, and only when some line search
/// failed, is refined again; the result is kept when it still validates.
fn refine_in_gray_valleys(mask: &GrayImage, work: &GrayImage, chosen: Chosen) -> (Lattice, f32) {
    if !chosen.missed {
        return (chosen.lattice, chosen.score);
    }
    let regray = refine_lattice(mask, Some(work), &chosen.initial);
    match judge(mask, work, &regray, chosen.stage.checks()) {
        Ok(score) => (regray, score),
        Err(_) => (chosen.lattice, chosen.score),
    }
}

/// Draws a straight line `thick` px wide in gray level `v` (nearest pixels), for tests.
#[cfg(test)]
fn put_line(img: &mut GrayImage, a: Point, b: Point, thick: f32, v: u8) {
    let len = a.distance(b).ceil() as usize * 2 + 1;
    for i in 0..=len {
        let q = a.lerp(b, i as f32 / len as f32);
        let t = thick / 2.0;
        let mut yy = (q.y - t).floor();
        while yy <= q.y + t {
            let mut xx = (q.x - t).floor();
            while xx <= q.x + t {
                if xx >= 0.0 && yy >= 0.0 && (xx as u32) < img.width() && (yy as u32) < img.height()
                {
                    img.put_pixel(xx as u32, yy as u32, image::Luma([v]));
                }
                xx += 1.0;
            }
            yy += 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use image::Luma;

    use super::*;

    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn synthetic_grid(corners: [Point; 4]) -> GrayImage {
        let mut img = GrayImage::from_pixel(640, 480, Luma([210]));
        draw_grid(&mut img, corners, 4.0);
        img
    }

    /// Draws a 9×9 grid with corners `corners`: box lines `box_px` thick, thin lines 1.5 px.
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn draw_grid(img: &mut GrayImage, corners: [Point; 4], box_px: f32) {
        let p = Lattice::from_corners(corners).points_in_image;
        for i in 0..10 {
            let thick = if i % 3 == 0 { box_px } else { 1.5 };
            put_line(img, p[i][0], p[i][9], thick, 30);
            put_line(img, p[0][i], p[9][i], thick, 30);
        }
    }

    /// A grid of 20-px cells whose box lines are black and whose thin lines are only 6 gray
    /// levels darker than the paper (lost by the ink mask, as in a soft webcam frame), a
    /// "digit" (a dark ring) in every cell, and a header bar joined to its top border, so
    /// that neither its outline nor its cells are of use; `thin_lines` false leaves the
    /// thin lines out (a 3×3 keypad of the same size).
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    /// A soft 180-px grid under a black header: box lines, thin lines only when `thin_lines`,
    /// and a small "0" in every cell, or with `keypad` only in each box's middle cell (a 3×3
    /// keypad: nine keys, one label each).
    fn soft_full_grid(thin_lines: bool, keypad: bool) -> (GrayImage, [Point; 4]) {
        let mut img = GrayImage::from_pixel(640, 480, Luma([200]));
        let corners = [
            Point::new(220.0, 140.0),
            Point::new(400.0, 140.0),
            Point::new(400.0, 320.0),
            Point::new(220.0, 320.0),
        ];
        let p = Lattice::from_corners(corners).points_in_image;
        for i in 0..10 {
            let (thick, v) = if i % 3 == 0 { (3.0, 30) } else { (1.5, 194) };
            if i % 3 != 0 && !thin_lines {
                continue;
            }
            put_line(&mut img, p[i][0], p[i][9], thick, v);
            put_line(&mut img, p[0][i], p[9][i], thick, v);
        }
        for i in 0..9 {
            for j in 0..9 {
                if keypad && (i % 3 != 1 || j % 3 != 1) {
                    continue;
                }
                let c = p[i][j].lerp(p[i + 1][j + 1], 0.5);
                for (dx, dy) in [(-3.0, -5.0), (3.0, -5.0), (3.0, 5.0), (-3.0, 5.0)] {
                    let (a, b) = (
                        Point::new(c.x - 3.0, c.y + dy),
                        Point::new(c.x + 3.0, c.y + dy),
                    );
                    put_line(&mut img, a, b, 1.5, 40);
                    let (a, b) = (
                        Point::new(c.x + dx, c.y - 5.0),
                        Point::new(c.x + dx, c.y + 5.0),
                    );
                    put_line(&mut img, a, b, 1.5, 40);
                }
            }
        }
        // The header: a black bar across the top border and beyond both sides.
        for y in 120..141 {
            put_line(
                &mut img,
                Point::new(160.0, y as f32),
                Point::new(460.0, y as f32),
                1.0,
                40,
            );
        }
        (img, corners)
    }

    #[test]
    fn a_soft_full_grid_under_a_header_is_found_and_a_keypad_is_no_grid() {
        // As the live path asks: no finer ink step, no Hough lines.
        let options = DetectOptions {
            effort: Effort::Contours,
            ..DetectOptions::default()
        };
        // With its thin lines, and with thin lines too light for a small soft frame to show
        // at all: the digits centred in every cell place them.
        for thin_lines in [true, false] {
            let (img, corners) = soft_full_grid(thin_lines, false);
            let det = detect_with(&img, &options, None).expect("grid from its box holes");
            for (a, b) in det.corners_in_image.iter().zip(corners) {
                assert!(
                    a.distance(b) < 4.0,
                    "thin lines {thin_lines}: {a:?} vs {b:?}"
                );
            }
        }
        // A 3×3 keypad is no Sudoku: its nine keys are box holes on a 3×3 lattice, but the
        // gray levels show no thin lines and it has one label a key, not nine digits a box.
        let (keypad, _) = soft_full_grid(false, true);
        assert!(detect_with(&keypad, &options, None).is_err());
        assert!(detect_gray(&keypad).is_err());
    }

    #[test]
    fn finds_a_synthetic_rotated_grid() {
        let c = Point::new(320.0, 240.0);
        let angle = 0.5f32;
        let half = 170.0;
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| {
            let (s, co) = angle.sin_cos();
            Point::new(c.x + half * (x * co - y * s), c.y + half * (x * s + y * co))
        });
        let img = synthetic_grid(corners);
        let det = detect_gray(&img).expect("grid");
        for (a, b) in det.corners_in_image.iter().zip(corners) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn prefers_the_puzzle_merged_with_a_fold_over_a_small_printed_solution() {
        // The puzzle's border touches a fold line that runs to a rule down the page margin,
        // so its outline is no quad; a small solution grid sits clean in the corner.
        let mut img = GrayImage::from_pixel(640, 480, Luma([210]));
        let puzzle = [
            Point::new(100.0, 40.0),
            Point::new(400.0, 40.0),
            Point::new(400.0, 340.0),
            Point::new(100.0, 340.0),
        ];
        for corners in [
            puzzle,
            [
                Point::new(470.0, 320.0),
                Point::new(620.0, 320.0),
                Point::new(620.0, 470.0),
                Point::new(470.0, 470.0),
            ],
        ] {
            draw_grid(&mut img, corners, 3.0);
        }
        put_line(
            &mut img,
            Point::new(20.0, 0.0),
            Point::new(20.0, 479.0),
            3.0,
            30,
        );
        put_line(
            &mut img,
            Point::new(20.0, 205.0),
            Point::new(635.0, 220.0),
            3.0,
            60,
        );
        let det = detect_gray(&img).expect("grid");
        for (a, b) in det.corners_in_image.iter().zip(puzzle) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
        }
    }
}
