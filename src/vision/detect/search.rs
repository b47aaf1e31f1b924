//! The candidate search of one detection try: the stages that propose quads ([`Stage`]),
//! each quad refined and judged on the ink mask ([`Search::try_quad`]), the best grid kept
//! ([`Chosen`]), the lattice with box lines fitted as wholes kept apart as the last resort
//! ([`Search::offer_fitted`]), and the chosen grid's last refinement in gray-level valleys.
//! Owns which lattice of a candidate is judged and which candidate wins; how a lattice is
//! refined, fitted or judged is `refine`'s, `fit`'s and `validate`'s business, and the order
//! of the stages over the tries is `detect_one_polarity`'s.

use image::GrayImage;
use imageproc::contours::Contour;

use super::DetectTrace;
use super::candidates::{Outline, contour_points, order_corners};
use super::fit::fit_box_lines;
use super::refine::{refine_lattice, refine_lattice_counted};
use super::validate::{
    Checks, Rejection, judge, judge_by_box_lines, judge_fitted, judge_predicted, placement_penalty,
};
use crate::vision::cells::{self, Holes};
use crate::vision::geometry::polygon_area;
use crate::vision::{Lattice, Point, outline, smooth};

/// The stages that propose candidate quads, in the order [`detect_with`](super::detect_with)
/// runs them; each candidate is tagged with the stage it came from. After them, the chosen grid
/// may still be refined once more in gray-level valleys ([`refine_in_gray_valleys`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// The hull quads of the largest ink outlines, largest first.
    Outlines,
    /// Quads rebuilt from the sides traced near each corner of an outline that failed (it
    /// merged with other ink at a corner), tried before the next outline while no grid is
    /// found.
    TracedSides,
    /// The lattices of the cell holes: of an outline whose grid fits less than well, or of
    /// every contour when no outline gave a grid.
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

/// An outline's grid validated with a score above this fits so well that the lattice of the
/// outline's cell holes is not tried against it. Grids merged with a box or shadow printed
/// behind them scored 0.86–0.91 in the book photos looked at (a lattice bent to the union, or
/// shifted a row into the box). Clean grids score on both sides of it: of 60 pictures of each
/// dev set (webcam frames, phone photos, printed pages), 20 to 32 scored between 0.85 and 0.95
/// and pay one more try (at or below 0.85 the cell holes were always tried).
const WELL_FITTED_SCORE: f32 = 0.95;

/// The best candidate so far.
pub(super) struct Chosen {
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
pub(super) struct Search<'a> {
    /// The ink mask (working pixels).
    pub(super) mask: &'a GrayImage,
    /// The gray working image (for the `faint` re-check).
    pub(super) work: &'a GrayImage,
    /// Smallest grid side and the working image's long side, working pixels (bounds of the
    /// cell-hole lattices).
    pub(super) min_grid_side_px: f32,
    pub(super) long_side_px: f32,
    pub(super) trace: Option<&'a mut DetectTrace>,
    pub(super) best: Option<Chosen>,
    /// The best lattice with box lines fitted as wholes ([`Search::offer_fitted`]): used
    /// when no stage found a grid.
    pub(super) fitted: Option<Chosen>,
    /// The corners of every fitted lattice judged so far.
    pub(super) fitted_judged: Vec<[Point; 4]>,
    /// Why the last rejected candidate was rejected.
    pub(super) last_rejection: Option<Rejection>,
    /// Whether failed outlines are rebuilt from their traced sides
    /// (`DetectOptions::traced_sides`).
    pub(super) traced_sides: bool,
    /// Whether a fitted lattice may stand on one way's thin lines and centred digits
    /// (`DetectOptions::digits_for_hidden_lines`).
    pub(super) digits_for_hidden_lines: bool,
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
        let mut initial = Lattice::from_corners(quad);
        let (mut lattice, mut missed) = refine_lattice_counted(self.mask, None, &initial);
        let mut verdict = judge(self.mask, self.work, &lattice, stage.checks());
        // A quad a row or column off at one corner folds the refined lattice there, and the
        // fold can still validate. Only a valid lattice is looked at: a rejected one has its
        // own fallbacks below (the quad's own lattice, box lines fitted as wholes), which
        // found better grids than a re-refined lattice that merely validates.
        if let Ok(first_score) = verdict
            && let Some((again, missed_again, score)) =
                self.refined_again_if_folded(&lattice, first_score, stage)
        {
            // The gray-level refinement of the chosen grid starts from its initial lattice:
            // the unfolded one's is the lattice itself, on its lines already (from the
            // homography of the rest, a bent page's corner may be half a cell off, and gray
            // levels offer more to lock onto there than the mask).
            (initial, lattice, missed, verdict) = (again, again, missed_again, Ok(score));
        }
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

    /// `lattice` (valid, with `first_score`) refined again from the homography of the rest
    /// when it is folded near a corner (`smooth::folded_lattice_unfolded`: points locked onto
    /// the next line there), when that validates better and is a flat grid's lattice: the
    /// lattice, whether a line search missed, its score. `None` when it is no fold or the
    /// fold stands.
    fn refined_again_if_folded(
        &self,
        lattice: &Lattice,
        first_score: f32,
        stage: Stage,
    ) -> Option<(Lattice, bool, f32)> {
        let unfolded = smooth::folded_lattice_unfolded(lattice)?;
        let (again, missed) = refine_lattice_counted(self.mask, None, &unfolded);
        let verdict = judge(self.mask, self.work, &again, stage.checks());
        tracing::debug!(
            ?stage,
            first_score,
            ?verdict,
            "folded lattice refined again"
        );
        // Only a flat grid's: refined from a homography fitted through a bent page, a lattice
        // may lock onto other lines elsewhere and still score higher.
        let score = verdict.ok()?;
        (score > first_score && smooth::fits_one_homography(&again))
            .then_some((again, missed, score))
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
        // the same box lines, so each fitted lattice is judged once; one that hardly moved
        // is the quad's own lattice, judged already.
        let corners = fitted.corners();
        let seen = |c: &[Point; 4]| c.iter().zip(&corners).all(|(a, b)| a.distance(*b) < 1.5);
        if seen(&initial.corners()) || self.fitted_judged.iter().any(seen) {
            return;
        }
        self.fitted_judged.push(corners);
        let Ok(score) = judge_fitted(
            self.mask,
            self.work,
            &fitted,
            stage.checks(),
            self.digits_for_hidden_lines,
        ) else {
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

    /// Makes `tried` (valid with `score`) the best candidate when it scores better than the
    /// best so far.
    fn keep_if_better(&mut self, tried: &Tried, score: f32, stage: Stage) {
        if self.best.as_ref().is_none_or(|b| score > b.score) {
            self.choose(tried, score, stage);
        }
    }

    /// Tries `quad` and keeps it when it validates with a better score than the best so far.
    fn offer(&mut self, quad: [Point; 4], stage: Stage) -> Offer {
        let Some(tried) = self.try_quad(quad, stage) else {
            return Offer::Skipped;
        };
        let Ok(score) = tried.verdict else {
            return Offer::Rejected;
        };
        self.keep_if_better(&tried, score, stage);
        if score > ENOUGH_SCORE {
            Offer::Enough
        } else {
            Offer::Valid
        }
    }

    /// Offers `quads` in turn until one is good enough.
    pub(super) fn try_in_turn(
        &mut self,
        stage: Stage,
        quads: impl IntoIterator<Item = [Point; 4]>,
    ) {
        for quad in quads {
            if self.offer(quad, stage) == Offer::Enough {
                return;
            }
        }
    }

    /// Tries every one of `quads` and offers the best: the ways of placing one set of indexed
    /// holes in the grid when a row or column of them was not found. A placement one row off
    /// can validate about as well (the missing row laid over a ruled margin or the page's
    /// edge); the right one has lines across every row, so placements are ranked by their
    /// score less [`placement_penalty`], and the one chosen is then kept if its own score
    /// beats the best so far.
    pub(super) fn try_each(&mut self, stage: Stage, quads: impl IntoIterator<Item = [Point; 4]>) {
        let mut chosen: Option<(f32, f32, Tried)> = None;
        for quad in quads {
            let Some(tried) = self.try_quad(quad, stage) else {
                continue;
            };
            let Ok(score) = tried.verdict else { continue };
            let ranked = score - placement_penalty(self.mask, &tried.lattice);
            if chosen.as_ref().is_none_or(|(r, ..)| ranked > *r) {
                chosen = Some((ranked, score, tried));
            }
        }
        if let Some((_, score, tried)) = chosen {
            self.keep_if_better(&tried, score, stage);
        }
    }

    /// [`Stage::Outlines`]: the outlines' grid-shaped quads in turn, largest first. While no
    /// grid is found, an outline that fails may have merged with other ink at a corner: the
    /// quads rebuilt from its sides traced near each corner ([`Stage::TracedSides`]) are tried
    /// before the next outline.
    pub(super) fn outlines(&mut self, outlines: &[Outline], contours: &[Contour<i32>]) {
        for o in outlines {
            let Some(quad) = o.quad else { continue };
            let offered = match self.offer(quad, Stage::Outlines) {
                Offer::Rejected if self.best.is_none() && self.traced_sides => {
                    let contour = contour_points(&contours[o.contour]);
                    let mut offered = Offer::Rejected;
                    for q in outline::traced_quads(quad, &contour) {
                        match self.offer(order_corners(q), Stage::TracedSides) {
                            Offer::Enough => {
                                offered = Offer::Enough;
                                break;
                            }
                            Offer::Valid => offered = Offer::Valid,
                            Offer::Rejected | Offer::Skipped => {}
                        }
                    }
                    offered
                }
                other => other,
            };
            if !matches!(offered, Offer::Valid | Offer::Enough) {
                continue;
            }
            // A grid that validates but not well may be merged along whole sides with a
            // shadow or a box printed behind it: the quad is the union's (or rebuilt from its
            // sides) and the lattice bent to fit, or shifted a row into the box. The cells are
            // still holes of that outline; their lattice replaces it when it fits better.
            if self
                .best
                .as_ref()
                .is_some_and(|b| b.score > WELL_FITTED_SCORE)
            {
                return;
            }
            let holes = contours.iter().filter(|c| c.parent == Some(o.contour));
            let quads = cells::quads_from_holes(
                holes,
                Holes::Cells,
                self.min_grid_side_px,
                self.long_side_px,
            );
            self.try_each(Stage::CellHoles, quads.into_iter().map(order_corners));
            // An `Enough` offer left the best above this too.
            if self.best.as_ref().is_some_and(|b| b.score > ENOUGH_SCORE) {
                return;
            }
        }
    }

    /// [`Stage::LargerGrid`]: a small grid found beside a much larger outline that gave none
    /// is likely a puzzle merged with a fold or a shadow, next to yesterday's printed
    /// solution. The puzzle is the larger grid; its cells are holes of that outline. The
    /// first valid lattice of at least twice the found grid's area replaces it.
    pub(super) fn larger_grid(
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
pub(super) fn refine_in_gray_valleys(
    mask: &GrayImage,
    work: &GrayImage,
    chosen: Chosen,
) -> (Lattice, f32) {
    if !chosen.missed {
        return (chosen.lattice, chosen.score);
    }
    let regray = refine_lattice(mask, Some(work), &chosen.initial);
    match judge(mask, work, &regray, chosen.stage.checks()) {
        Ok(score) => (regray, score),
        Err(_) => (chosen.lattice, chosen.score),
    }
}
