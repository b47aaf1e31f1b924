//! Lattice validation: whether a refined lattice sits on a real 9×9 grid (ink on every lattice
//! edge, little on the half-way lines, even spacing, lines across every row and column of
//! cells, and for Hough candidates lines that end at the border), with a typed reason when it
//! does not; and the gray-level second opinion (`faint`) for a lattice whose only fault was
//! thin lines too light for the ink mask.
//!
//! Owns the accept/reject decision and the score; it never moves a lattice point.

use image::GrayImage;

use super::threshold::ink_at;
use crate::vision::{Lattice, Point, faint};

/// Why a candidate lattice is not a 9×9 Sudoku grid. The text names the measurement that
/// failed (shares of sampled pixels that are ink; spacing in cell sides).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Rejection {
    /// Some intersection is not a finite point (a degenerate candidate).
    #[error("lattice left the image plane")]
    LeftImagePlane,
    /// The half-way lines between grid lines carry too much ink near the cell edges: a finer
    /// grid (18×18), a lattice half a cell off, or no grid at all.
    #[error("ink between grid lines ({mean_half:.2}): not a 9×9 grid")]
    InkBetweenLines {
        /// Mean ink share along the half-way lines near the cell edges.
        mean_half: f32,
        /// How many of the 18 half-way lines are inked near most of their cell ends, like a
        /// grid line.
        half_lines: usize,
    },
    /// The lines bend or their spacing is uneven (8×8, 10×10 or irregular grids).
    #[error("uneven line spacing (median {bend_median:.2} cell)")]
    UnevenSpacing {
        /// Median second difference along the lines, in cell sides.
        bend_median: f32,
    },
    /// Many lines run on past the border: a 9×9 block of a larger grid.
    #[error("{runs_on} of 40 lines run on past the border: part of a larger grid")]
    PartOfLargerGrid {
        /// How many of the 40 lines crossing the border run on past it.
        runs_on: usize,
    },
    /// The lines crossing one row or column of cells are missing where the rest of the
    /// lattice has them: the lattice runs past the grid there (over a title, a margin or the
    /// background), a cell off the grid's own rows or columns.
    #[error(
        "{band} has no grid lines across it ({ink:.2} ink, {typical:.2} elsewhere): the lattice runs past the grid"
    )]
    BandWithoutLines {
        /// The row or column of cells, as the lattice numbers them.
        band: Band,
        /// Mean ink share of the 8 inner lattice edges crossing it.
        ink: f32,
        /// The same, median over the 18 rows and columns.
        typical: f32,
    },
    /// Too many lattice edges lack ink.
    #[error("grid lines missing (mean edge ink {mean_edge:.2}, {weak} weak edges)")]
    LinesMissing {
        /// Mean ink share along the 180 lattice edges.
        mean_edge: f32,
        /// Edges with less than 35 % ink.
        weak: usize,
    },
}

/// A row or a column of cells of a lattice (0-based), named 1-based in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// The cells between row lines `i` and `i + 1`.
    Row(usize),
    /// The cells between column lines `j` and `j + 1`.
    Column(usize),
}

impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Band::Row(i) => write!(f, "row {} of the lattice", i + 1),
            Band::Column(j) => write!(f, "column {} of the lattice", j + 1),
        }
    }
}

/// Most ink a row or column of cells may have across it, on its 8 inner crossing edges, when
/// the median row or column has [`BAND_TYPICAL_INK`] or more, for the lattice to be a grid.
const BAND_LEAST_INK: f32 = 0.2;

/// Median ink across the rows and columns from which one without lines across it says the
/// lattice runs past the grid ([`BandInk::typical_is_inked`]).
const BAND_TYPICAL_INK: f32 = 0.7;

/// The ink across each row and column of cells: the mean of [`edge_coverages`]' `edges` over
/// the 8 inner lattice lines crossing it, rows then columns.
fn band_crossings(edges: &[f32]) -> [f32; 18] {
    let mut bands = [0.0f32; 18];
    for j in 0..9 {
        // Line i's edges come 18 to a line: the row line's edge in column band j at 2j, the
        // column line's edge in row band j at 2j + 1.
        bands[9 + j] = (1..9).map(|i| edges[i * 18 + 2 * j]).sum::<f32>() / 8.0;
        bands[j] = (1..9).map(|i| edges[i * 18 + 2 * j + 1]).sum::<f32>() / 8.0;
    }
    bands
}

/// The ink across a lattice's rows and columns of cells ([`band_crossings`]): the emptiest
/// one and the median.
struct BandInk {
    emptiest: Band,
    ink: f32,
    typical: f32,
}

impl BandInk {
    /// Measured on [`edge_coverages`]' `edges`.
    fn of(edges: &[f32]) -> BandInk {
        let bands = band_crossings(edges);
        let mut sorted = bands;
        sorted.sort_by(f32::total_cmp);
        let (k, ink) = bands
            .iter()
            .copied()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((0, 1.0));
        let emptiest = if k < 9 {
            Band::Row(k)
        } else {
            Band::Column(k - 9)
        };
        let typical = 0.5 * (sorted[8] + sorted[9]);
        tracing::trace!(ink, typical, "emptiest row or column of the lattice");
        BandInk {
            emptiest,
            ink,
            typical,
        }
    }

    /// Whether the median row or column is inked well enough ([`BAND_TYPICAL_INK`]) for one
    /// short of ink to stand out; below it (thin lines too light for the ink mask, a faint or
    /// blurred grid) every band is short of ink and the gray levels judge.
    fn typical_is_inked(&self) -> bool {
        self.typical >= BAND_TYPICAL_INK
    }
}

/// `Err(BandWithoutLines)` when one row or column of cells of the lattice has next to no ink
/// across it while the median one is well inked ([`BAND_LEAST_INK`], [`BAND_TYPICAL_INK`]):
/// a printed grid has every line across every row and column, so the lattice took in a title
/// band, a margin or the background beside the grid, and left out a row or column of it. A
/// shade over a box or handwriting does not take a whole row's lines away; a finger may, but
/// only while it is there.
fn every_band_crossed(edges: &[f32]) -> Result<(), Rejection> {
    let bands = BandInk::of(edges);
    if bands.typical_is_inked() && bands.ink <= BAND_LEAST_INK {
        return Err(Rejection::BandWithoutLines {
            band: bands.emptiest,
            ink: bands.ink,
            typical: bands.typical,
        });
    }
    Ok(())
}

/// Shortfall of a lattice's emptiest row or column of cells against its typical one that
/// costs a placement nothing ([`placement_penalty`]): rows and columns of a grid differ that
/// much with glare, shading or thin lines the mask half lost.
const BAND_SHORTFALL_FREE: f32 = 0.3;

/// What a placement of a grid's holes loses per unit of its emptiest row's or column's
/// shortfall beyond [`BAND_SHORTFALL_FREE`].
const BAND_SHORTFALL_COST: f32 = 0.25;

/// How much worse than its score a valid `lattice` is as a placement of the holes it was
/// built from, by its emptiest row or column of cells: a placement one row off, its missing
/// row laid over the page's edge or a ruled margin, has some ink across that row and can
/// validate as well as the right one, which has lines across every row. Zero when the
/// typical row is not inked well enough to say ([`BAND_TYPICAL_INK`]).
pub(super) fn placement_penalty(mask: &GrayImage, lattice: &Lattice) -> f32 {
    let bands = BandInk::of(&edge_coverages(mask, lattice));
    if !bands.typical_is_inked() {
        return 0.0;
    }
    BAND_SHORTFALL_COST * (bands.typical - bands.ink - BAND_SHORTFALL_FREE).max(0.0)
}

/// What [`validate`] says about a rejected lattice.
pub(super) struct Rejected {
    /// Why it was rejected.
    pub rejection: Rejection,
    /// The score the lattice would have if its thin lines are really there: set when the
    /// only fault was edges without ink, and those were not too many.
    pub faint_score: Option<f32>,
}

impl From<Rejection> for Rejected {
    fn from(rejection: Rejection) -> Self {
        Rejected {
            rejection,
            faint_score: None,
        }
    }
}

/// What a lattice must show besides inked edges and even spacing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Checks {
    /// A fresh candidate: little ink just beyond the lines on the half-way lines (a finer
    /// grid, or a lattice half a cell off, has lines there).
    Candidate,
    /// A fresh candidate that nothing else bounds (Hough lines): also lines that end at its
    /// border.
    CandidateEndingAtBorder,
    /// A validated grid followed into the next video frame: refinement moved it a fraction
    /// of a cell at most, so neither a finer grid nor a half-cell offset is in question, and
    /// handwriting or pencil marks crossing the half-way lines of a blurred frame must not
    /// lose it. Inked edges and even spacing still decide.
    Tracked,
}

/// [`validate`] on the ink mask, with the gray levels of `gray` (the working image) deciding
/// when thin lines printed too light for the mask were the lattice's only fault.
pub(super) fn judge(
    mask: &GrayImage,
    gray: &GrayImage,
    lattice: &Lattice,
    checks: Checks,
) -> Result<f32, Rejection> {
    validate(mask, lattice, checks).or_else(|rejected| match rejected.faint_score {
        Some(score) if faint::lines_present(gray, lattice) => Ok(score),
        _ => Err(rejected.rejection),
    })
}

/// [`judge`] for the lattice an outline's homography predicts, unrefined: when the only
/// fault was thin lines the mask lost, its box lines carry it. The outer border and the four
/// box lines inside are inked along nine tenths of their length or more (light thin lines of
/// a screen, inverted, or of a blurred frame are what the mask loses first, not the heavy
/// box lines), and then the gray levels along every lattice line decide as for a faint grid.
///
/// A blurred frame of a grid full of digits (a finished puzzle, handwriting in every cell)
/// loses its thin lines to the mask while the digits' blurred strokes stay: the mask's
/// half-way test then sees more ink between the lines than on them. With the box lines inked
/// and every thin line present in gray, the half-way lines are judged in gray too
/// ([`faint::half_way_lines_clear`]: a finer grid or a lattice half a cell off has lines
/// there, digits do not), unless the mask's half-way lines already show a finer grid.
pub(super) fn judge_predicted(
    mask: &GrayImage,
    gray: &GrayImage,
    lattice: &Lattice,
    checks: Checks,
) -> Result<f32, Rejection> {
    in_image_plane(lattice)?;
    let edges = edge_coverages(mask, lattice);
    validate_with(mask, lattice, &edges, checks).or_else(|rejected| {
        let rejection = rejected.rejection;
        let Some(half_way_in_gray) = half_way_in_gray(mask, lattice, &rejection) else {
            return Err(rejection);
        };
        box_lines_verdict(gray, lattice, &edges, half_way_in_gray, rejection)
    })
}

/// The part of [`judge_predicted`] after the mask's validation rejected `lattice` for
/// `rejection`: for a lattice already judged on the mask (a box-hole lattice, whose
/// [`judge`] found lines missing), without validating it again.
pub(super) fn judge_by_box_lines(
    mask: &GrayImage,
    gray: &GrayImage,
    lattice: &Lattice,
    rejection: Rejection,
) -> Result<f32, Rejection> {
    // The cheap tests on the mask first: most candidates of a frame without a grid fail them.
    let Some(half_way_in_gray) = half_way_in_gray(mask, lattice, &rejection) else {
        return Err(rejection);
    };
    let edges = edge_coverages(mask, lattice);
    box_lines_verdict(gray, lattice, &edges, half_way_in_gray, rejection)
}

/// [`judge_by_box_lines`] once the mask's tests are done, on the lattice's edge coverages
/// `edges` ([`edge_coverages`]).
fn box_lines_verdict(
    gray: &GrayImage,
    lattice: &Lattice,
    edges: &[f32],
    half_way_in_gray: bool,
    rejection: Rejection,
) -> Result<f32, Rejection> {
    let mean_edge = mean_coverage(edges);
    // Thin lines a small, soft frame lost even in gray levels (light gray newsprint lines):
    // the cells' digits, centred between them, show where they are.
    if box_lines_inked(edges)
        && (faint::lines_present(gray, lattice) || faint::marks_centred_in_cells(gray, lattice))
        && (!half_way_in_gray || faint::half_way_lines_clear(gray, lattice))
    {
        Ok(score_in_gray(mean_edge))
    } else {
        Err(rejection)
    }
}

/// After the mask rejected `lattice` for `rejection`, whether gray levels may overturn it
/// and must then judge the half-way lines too: `Some(false)` for lines missing (thin lines
/// too light for the mask), `Some(true)` for ink between the lines (a blurred full grid's
/// digits) unless the mask shows a finer grid, `None` for anything else.
///
/// A finer grid's half-way lines are lines in the mask both ways: inked along most of their
/// length ([`finer_grid_in_mask`]) and just beyond the lattice lines at most cell ends
/// (`half_lines`, [`half_lines_inked`]). Either alone is not enough: the tall digits of a
/// full grid of small, blurred cells cover the vertical half-way lines through their middles
/// along three quarters of their length, but leave their cell ends clear.
fn half_way_in_gray(mask: &GrayImage, lattice: &Lattice, rejection: &Rejection) -> Option<bool> {
    match rejection {
        Rejection::LinesMissing { .. } => Some(false),
        Rejection::InkBetweenLines { half_lines, .. }
            if *half_lines < FINER_GRID_LINES || !finer_grid_in_mask(mask, lattice) =>
        {
            Some(true)
        }
        _ => None,
    }
}

/// How many of the 18 half-way lines inked like grid lines make a finer grid (or a lattice
/// half a cell off).
const FINER_GRID_LINES: usize = 5;

/// Whether the outer border and the four box lines inside are inked along nine tenths of
/// their length or more, with at most two weak edges, in `edges` ([`edge_coverages`]' order).
fn box_lines_inked(edges: &[f32]) -> bool {
    // Lines 0, 3, 6 and 9 each way: 18 edges a line in `edge_coverages`' order.
    let box_edges: Vec<f32> = edges.chunks(18).step_by(3).flatten().copied().collect();
    let box_mean = box_edges.iter().sum::<f32>() / box_edges.len() as f32;
    let box_weak = box_edges.iter().filter(|&&e| e < 0.5).count();
    tracing::trace!(box_mean, box_weak, "box lines of a predicted lattice");
    box_mean >= 0.9 && box_weak <= 2
}

/// The stricter judgement of a lattice whose box lines were fitted to the ink as wholes
/// (`fit`): fitted lines find the nearest printed lines, so besides [`judge_predicted`]'s
/// rules its box lines must be inked and every lattice line must be a printed line in gray
/// levels (centred marks alone do not stand in for them here; with
/// `digits_for_hidden_lines` they stand in for one way's thin lines,
/// [`faint::lines_present_or_hidden_by_digits`]), and no side's lines may run on past its
/// border (a quad a cell off a grid fits its thin lines as well as its box lines).
pub(super) fn judge_fitted(
    mask: &GrayImage,
    gray: &GrayImage,
    lattice: &Lattice,
    checks: Checks,
    digits_for_hidden_lines: bool,
) -> Result<f32, Rejection> {
    in_image_plane(lattice)?;
    // The cheap tests on the mask first: most fitted lattices of a frame without a grid fail.
    let edges = edge_coverages(mask, lattice);
    let mean_edge = mean_coverage(&edges);
    let weak = edges.iter().filter(|&&e| e < 0.35).count();
    if !box_lines_inked(&edges) {
        return Err(Rejection::LinesMissing { mean_edge, weak });
    }
    let runs_on = lines_running_on(mask, lattice);
    if runs_on >= RUNNING_ON_PAST_BORDER {
        return Err(Rejection::PartOfLargerGrid { runs_on });
    }
    // Then `judge_predicted`'s rules, with every line's gray levels looked at once.
    let score = match validate_with(mask, lattice, &edges, checks) {
        Ok(score) => score,
        Err(Rejected { rejection, .. }) => {
            let Some(half_way_in_gray) = half_way_in_gray(mask, lattice, &rejection) else {
                return Err(rejection);
            };
            if half_way_in_gray && !faint::half_way_lines_clear(gray, lattice) {
                return Err(rejection);
            }
            score_in_gray(mean_edge)
        }
    };
    let lines = if digits_for_hidden_lines {
        faint::lines_present_or_hidden_by_digits(gray, lattice)
    } else {
        faint::lines_present(gray, lattice)
    };
    if !lines {
        return Err(Rejection::LinesMissing { mean_edge, weak });
    }
    Ok(score)
}

/// The mean of `edges` ([`edge_coverages`]): how much of the lattice's lines the mask inks.
fn mean_coverage(edges: &[f32]) -> f32 {
    edges.iter().sum::<f32>() / edges.len() as f32
}

/// The score of a lattice the gray levels validated after the mask rejected it: its mean
/// edge coverage on the mask less a tenth, at least 0.05.
fn score_in_gray(mean_edge: f32) -> f32 {
    (mean_edge - 0.1).clamp(0.05, 1.0)
}

/// Ink share along each of the 180 lattice edges (row edge then column edge, line by line).
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn edge_coverages(mask: &GrayImage, lattice: &Lattice) -> Vec<f32> {
    let p = &lattice.points_in_image;
    let mut edges = Vec::with_capacity(180);
    for i in 0..10 {
        for j in 0..9 {
            edges.push(edge_coverage(mask, p[i][j], p[i][j + 1]));
            edges.push(edge_coverage(mask, p[j][i], p[j + 1][i]));
        }
    }
    edges
}

/// The 162 half-way segments, one across each cell each way: for row band `i` and cell `j`,
/// the horizontal segment through the cell's middle, then the vertical one of row `i`,
/// column band `j`.
fn half_way_segments(lattice: &Lattice) -> Vec<(Point, Point)> {
    let p = &lattice.points_in_image;
    let mut halves = Vec::with_capacity(162);
    for i in 0..9 {
        for j in 0..9 {
            halves.push((
                p[i][j].lerp(p[i + 1][j], 0.5),
                p[i][j + 1].lerp(p[i + 1][j + 1], 0.5),
            ));
            halves.push((
                p[i][j].lerp(p[i][j + 1], 0.5),
                p[i + 1][j].lerp(p[i + 1][j + 1], 0.5),
            ));
        }
    }
    halves
}

/// Whether the mask's half-way lines show a finer grid: 5 or more of the 18 inked along most
/// of their length (whole lines, not the ends that digits reach).
fn finer_grid_in_mask(mask: &GrayImage, lattice: &Lattice) -> bool {
    // Row band i's nine horizontal segments make half-way line i; column band j's nine
    // vertical ones make line 9 + j.
    let mut cover = [0.0f32; 18];
    for (k, (a, b)) in half_way_segments(lattice).into_iter().enumerate() {
        let (cell, vertical) = (k / 2, k % 2 == 1);
        let line = if vertical { 9 + cell % 9 } else { cell / 9 };
        cover[line] += edge_coverage(mask, a, b);
    }
    cover.iter().filter(|&&c| c / 9.0 >= 0.7).count() >= FINER_GRID_LINES
}

/// How far ink runs from `a` towards `b` without a gap, as a share of `a → b` (one-pixel
/// steps; at most a half).
fn ink_run(mask: &GrayImage, a: Point, b: Point) -> f32 {
    let len = a.distance(b);
    if len < 1.0 {
        return 0.0;
    }
    let steps = (len / 2.0).ceil() as usize;
    let mut run = 0;
    while run < steps && ink_at(mask, a.lerp(b, run as f32 / len)) {
        run += 1;
    }
    run as f32 / len
}

/// Share of ink along the segment `a → b` (inner 80 %), accepting ink within one pixel of it.
pub(super) fn edge_coverage(mask: &GrayImage, a: Point, b: Point) -> f32 {
    let len = a.distance(b);
    let n_samples = (len * 0.8).ceil().max(4.0) as usize;
    let d = (b - a).unit();
    let n = Point::new(-d.y, d.x);
    let mut hits = 0;
    for i in 0..n_samples {
        let t = 0.1 + 0.8 * (i as f32 + 0.5) / n_samples as f32;
        let q = a.lerp(b, t);
        if (-1..=1).any(|o| ink_at(mask, Point::new(q.x + o as f32 * n.x, q.y + o as f32 * n.y))) {
            hits += 1;
        }
    }
    hits as f32 / n_samples as f32
}

/// How many of the 18 half-way lines (9 between the row lines, then 9 between the column
/// lines) are inked like a grid line: ink just beyond the crossing lines at three quarters of
/// their 18 cell ends or more. `half_ends` holds the ink share at both ends of each cell's
/// half-way segment, in the order [`validate`] builds them (row band `i`, cell `j`: the
/// horizontal segment, then the vertical one of row `i`, column band `j`).
fn half_lines_inked(half_ends: &[f32]) -> usize {
    let mut inked = [0usize; 18];
    for i in 0..9 {
        for j in 0..9 {
            let k = 4 * (i * 9 + j);
            inked[i] += half_ends[k..k + 2].iter().filter(|&&e| e >= 0.5).count();
            inked[9 + j] += half_ends[k + 2..k + 4]
                .iter()
                .filter(|&&e| e >= 0.5)
                .count();
        }
    }
    inked.iter().filter(|&&n| n >= 14).count()
}

/// How many lattice lines running on past the border say it is part of a larger grid.
const RUNNING_ON_PAST_BORDER: usize = 8;

/// How many of the 40 lattice lines crossing the border run on past it, half a cell out.
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn lines_running_on(mask: &GrayImage, lattice: &Lattice) -> usize {
    let p = &lattice.points_in_image;
    let mut runs_on = 0;
    for k in 0..10 {
        for (inner, border) in [
            (p[1][k], p[0][k]),
            (p[8][k], p[9][k]),
            (p[k][1], p[k][0]),
            (p[k][8], p[k][9]),
        ] {
            let out = border - inner;
            if edge_coverage(mask, border + out.scaled(0.25), border + out.scaled(0.75)) >= 0.5 {
                runs_on += 1;
            }
        }
    }
    runs_on
}

/// Checks that `lattice` sits on a real 9×9 grid; returns its score or why not. With
/// [`Checks::CandidateEndingAtBorder`], a lattice whose lines run on past its border (a 9×9
/// block of a larger grid) is rejected too: needed where nothing else says where the grid
/// ends (Hough lines), but not for outlines, whose border is the end of a connected grid — a
/// photo may show the next puzzle's grid just below.
fn validate(mask: &GrayImage, lattice: &Lattice, checks: Checks) -> Result<f32, Rejected> {
    in_image_plane(lattice)?;
    validate_with(mask, lattice, &edge_coverages(mask, lattice), checks)
}

/// `Err(LeftImagePlane)` when a point of `lattice` is not finite (a quad's homography sent it
/// to infinity): nothing can be measured along its edges, so callers check this before
/// [`edge_coverages`] (a segment of infinite length would be sampled without end).
fn in_image_plane(lattice: &Lattice) -> Result<(), Rejection> {
    if lattice
        .points_in_image
        .iter()
        .flatten()
        .any(|q| !q.is_finite())
    {
        return Err(Rejection::LeftImagePlane);
    }
    Ok(())
}

/// [`validate`] with the ink along each of the 180 lattice edges already measured
/// (`edges`, [`edge_coverages`]) on a lattice [`in_image_plane`], for callers that look at
/// them again.
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn validate_with(
    mask: &GrayImage,
    lattice: &Lattice,
    edges: &[f32],
    checks: Checks,
) -> Result<f32, Rejected> {
    let p = &lattice.points_in_image;
    let mean_edge = mean_coverage(edges);
    let weak = edges.iter().filter(|&&e| e < 0.35).count();
    // Ink along the half-way lines between grid lines, just beyond the lattice lines' own ink:
    // a finer grid's lines, or the real lines under a lattice half a cell off, run on there;
    // digits sit in the middle of their cells, so a grid full of them (a finished puzzle,
    // handwriting in every cell) passes. The lines' ink width is measured, not assumed: blur
    // and small cells (a webcam frame) widen it to a fifth of a cell.
    let halves = half_way_segments(lattice);
    let mut runs: Vec<f32> = halves
        .iter()
        .flat_map(|&(a, b)| [ink_run(mask, a, b), ink_run(mask, b, a)])
        .collect();
    runs.sort_by(f32::total_cmp);
    let line_ink = runs[runs.len() / 2].min(0.3);
    let (near, far) = (line_ink + 0.04, line_ink + 0.16);
    let mut half_ends = Vec::with_capacity(324);
    for &(a, b) in &halves {
        half_ends.push(edge_coverage(mask, a.lerp(b, near), a.lerp(b, far)));
        half_ends.push(edge_coverage(mask, b.lerp(a, near), b.lerp(a, far)));
    }
    let mean_half = half_ends.iter().sum::<f32>() / half_ends.len() as f32;
    let half_lines = half_lines_inked(&half_ends);
    // Evenness: second differences along every line, in cell sides.
    let cell = lattice.mean_side() / 9.0;
    let mut bends = Vec::with_capacity(160);
    for i in 0..10 {
        for j in 1..9 {
            for (a, b, c) in [
                (p[i][j - 1], p[i][j], p[i][j + 1]),
                (p[j - 1][i], p[j][i], p[j + 1][i]),
            ] {
                let dx = a.x - 2.0 * b.x + c.x;
                let dy = a.y - 2.0 * b.y + c.y;
                bends.push(dx.hypot(dy) / cell.max(1.0));
            }
        }
    }
    bends.sort_by(f32::total_cmp);
    let bend_median = bends[bends.len() / 2];
    let bend_p90 = bends[bends.len() * 9 / 10];
    tracing::trace!(
        mean_edge,
        weak,
        mean_half,
        half_lines,
        bend_median,
        bend_p90,
        "lattice validation"
    );
    let halves_matter = checks != Checks::Tracked;
    // A finer grid, or a lattice half a cell off, has lines all along most half-way lines;
    // digits, handwriting and pencil marks reach the cell edges here and there, not along a
    // whole row. Ink everywhere (a texture, not lines) has as much ink between the lattice
    // lines as on them.
    if halves_matter && (half_lines >= FINER_GRID_LINES || mean_half > mean_edge - 0.15) {
        return Err(Rejection::InkBetweenLines {
            mean_half,
            half_lines,
        }
        .into());
    }
    if bend_median > 0.08 || bend_p90 > 0.45 {
        return Err(Rejection::UnevenSpacing { bend_median }.into());
    }
    if halves_matter {
        every_band_crossed(edges)?;
    }
    if checks == Checks::CandidateEndingAtBorder {
        let runs_on = lines_running_on(mask, lattice);
        tracing::trace!(runs_on, "lines running on past the border");
        if runs_on >= RUNNING_ON_PAST_BORDER {
            return Err(Rejection::PartOfLargerGrid { runs_on }.into());
        }
    }
    let score = (mean_edge - 0.5 * mean_half - bend_median).clamp(0.0, 1.0);
    // A tracked grid was validated a frame ago and can only have moved a fraction of a cell:
    // it keeps while most of its edges are inked (glare or blur may wash out a third of the
    // thin lines of a webcam frame).
    let (least_mean_edge, most_weak) = if halves_matter { (0.6, 25) } else { (0.55, 60) };
    if mean_edge < least_mean_edge || weak > most_weak {
        // Up to a third of the edges may be lost by a faint print of the thin lines; more
        // is not one grid.
        // A tracked grid is known to be one: however many thin lines the mask lost, the gray
        // levels along its lines decide.
        let faint = if halves_matter {
            mean_edge >= 0.5 && weak <= 60 && mean_half <= 0.3
        } else {
            mean_edge >= 0.4
        };
        return Err(Rejected {
            rejection: Rejection::LinesMissing { mean_edge, weak },
            faint_score: faint.then_some(score),
        });
    }
    Ok(score)
}

#[cfg(test)]
mod tests {
    use image::Luma;

    use super::super::refine::refine_lattice;
    use super::super::threshold::ink_mask;
    use super::super::{DetectOptions, detect_gray, detect_with, put_line};
    use super::*;

    /// Where [`faint_grid`] draws its grid (TL, TR, BR, BL).
    const FAINT_CORNERS: [Point; 4] = [
        Point::new(150.0, 60.0),
        Point::new(510.0, 70.0),
        Point::new(500.0, 430.0),
        Point::new(140.0, 420.0),
    ];

    /// A grid whose box lines are black and whose thin lines are black on two edges in three
    /// and only 6 gray levels darker than the paper on the third (too light for the ink
    /// mask); thin line `skip` is not printed at all.
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn faint_grid(skip: Option<usize>) -> GrayImage {
        let mut img = GrayImage::from_pixel(640, 480, Luma([200]));
        let lat = Lattice::from_corners(FAINT_CORNERS);
        let p = lat.points_in_image;
        for i in 0..10 {
            if i % 3 == 0 {
                put_line(&mut img, p[i][0], p[i][9], 4.0, 30);
                put_line(&mut img, p[0][i], p[9][i], 4.0, 30);
                continue;
            }
            if skip == Some(i) {
                continue;
            }
            for j in 0..9 {
                let ink = if j % 3 == 1 { 194 } else { 30 };
                put_line(&mut img, p[i][j], p[i][j + 1], 1.5, ink);
                put_line(&mut img, p[j][i], p[j + 1][i], 1.5, ink);
            }
        }
        img
    }

    #[test]
    fn finds_a_grid_whose_thin_lines_are_partly_too_faint_for_the_ink_mask() {
        let img = faint_grid(None);
        let options = DetectOptions::default();
        // The ink mask alone rejects it…
        let mask = ink_mask(&img, (640 / 40).clamp(4, 24), 8);
        let lattice = refine_lattice(&mask, None, &Lattice::from_corners(FAINT_CORNERS));
        let rejection =
            validate(&mask, &lattice, Checks::Candidate).expect_err("thin lines lost by the mask");
        assert!(rejection.faint_score.is_some(), "{}", rejection.rejection);
        // …the gray levels confirm it.
        let det = detect_with(&img, &options, None).expect("faint grid");
        assert!(det.corners_in_image[0].distance(FAINT_CORNERS[0]) < 4.0);
        assert!(det.corners_in_image[2].distance(FAINT_CORNERS[2]) < 4.0);
    }

    #[test]
    fn a_faint_grid_missing_a_whole_line_is_no_grid() {
        let img = faint_grid(Some(4));
        assert!(detect_gray(&img).is_err());
    }

    #[test]
    fn a_lattice_with_a_point_at_infinity_is_rejected_before_anything_is_measured() {
        // A point sent to infinity would make its edges endless to sample: each judge says
        // the lattice left the image plane, and says it at once.
        let img = faint_grid(None);
        let mut lattice = Lattice::from_corners(FAINT_CORNERS);
        lattice.points_in_image[4][4] = Point::new(f32::INFINITY, 200.0);
        for verdict in [
            validate(&img, &lattice, Checks::Candidate).map_err(|r| r.rejection),
            judge_predicted(&img, &img, &lattice, Checks::Candidate),
            judge_fitted(&img, &img, &lattice, Checks::Candidate, true),
        ] {
            assert!(
                matches!(verdict, Err(Rejection::LeftImagePlane)),
                "{verdict:?}"
            );
        }
    }

    /// A newspaper's puzzle box: a frame around a title band and, below it, a 9×9 grid of
    /// 40 px cells from (140, 80) to (500, 440) whose top line closes the title band.
    fn grid_under_a_title() -> GrayImage {
        let mut img = GrayImage::from_pixel(640, 480, Luma([215]));
        let (left, top, cell) = (140.0, 80.0, 40.0);
        for k in 0..10 {
            let (width, ink) = if k % 3 == 0 { (4.0, 20) } else { (1.5, 40) };
            let x = left + cell * k as f32;
            let y = top + cell * k as f32;
            put_line(
                &mut img,
                Point::new(left, y),
                Point::new(left + 9.0 * cell, y),
                width,
                ink,
            );
            put_line(
                &mut img,
                Point::new(x, top),
                Point::new(x, top + 9.0 * cell),
                width,
                ink,
            );
        }
        // The frame runs on up around the title band, and the title is a line of text.
        put_line(
            &mut img,
            Point::new(left, 40.0),
            Point::new(left, top),
            4.0,
            20,
        );
        put_line(
            &mut img,
            Point::new(500.0, 40.0),
            Point::new(500.0, top),
            4.0,
            20,
        );
        put_line(
            &mut img,
            Point::new(left, 40.0),
            Point::new(500.0, 40.0),
            4.0,
            20,
        );
        for word in 0..4 {
            let x = 160.0 + 45.0 * word as f32;
            put_line(
                &mut img,
                Point::new(x, 60.0),
                Point::new(x + 35.0, 60.0),
                9.0,
                30,
            );
        }
        img
    }

    /// The lattice of [`grid_under_a_title`]'s columns whose top line is at `top` (80: the
    /// grid's; 40: the frame's, a row up).
    fn square_from(top: f32) -> Lattice {
        Lattice::from_corners([
            Point::new(140.0, top),
            Point::new(500.0, top),
            Point::new(500.0, top + 360.0),
            Point::new(140.0, top + 360.0),
        ])
    }

    #[test]
    fn a_lattice_taking_in_a_title_band_runs_past_the_grid() {
        let img = grid_under_a_title();
        let mask = ink_mask(&img, (640 / 40).clamp(4, 24), 8);
        // The frame's lattice, a row up: its first row has no line across it.
        let verdict =
            validate(&mask, &square_from(40.0), Checks::Candidate).map_err(|r| r.rejection);
        match verdict {
            Err(Rejection::BandWithoutLines { band, ink, typical }) => {
                assert_eq!(band, Band::Row(0));
                assert!(ink <= BAND_LEAST_INK && typical >= BAND_TYPICAL_INK);
            }
            other => panic!("expected the title band named, got {other:?}"),
        }
        // The grid's own lattice is a grid, and the detector finds it, not the frame.
        assert!(validate(&mask, &square_from(80.0), Checks::Candidate).is_ok());
        let det = detect_gray(&img).expect("the grid under the title");
        for (found, truth) in det.corners_in_image.iter().zip(square_from(80.0).corners()) {
            assert!(found.distance(truth) < 4.0, "{found:?} vs {truth:?}");
        }
    }

    #[test]
    fn a_placement_a_row_off_ranks_below_the_grid() {
        // A row up, over the title band: a few words cross it, no lines. The grid's own
        // placement loses nothing.
        let img = grid_under_a_title();
        let mask = ink_mask(&img, (640 / 40).clamp(4, 24), 8);
        assert_eq!(placement_penalty(&mask, &square_from(80.0)), 0.0);
        assert!(placement_penalty(&mask, &square_from(40.0)) > 0.1);
    }

    #[test]
    fn a_faint_grid_is_not_judged_by_its_rows_and_columns() {
        // Every row and column short of ink alike (thin lines lost by the mask): the band
        // rule stays out, and the gray levels decide.
        let img = faint_grid(None);
        let mask = ink_mask(&img, (640 / 40).clamp(4, 24), 8);
        let lattice = refine_lattice(&mask, None, &Lattice::from_corners(FAINT_CORNERS));
        let edges = edge_coverages(&mask, &lattice);
        assert!(every_band_crossed(&edges).is_ok());
    }

    #[test]
    fn rejections_say_which_measurement_failed() {
        let cases = [
            (Rejection::LeftImagePlane, "lattice left the image plane"),
            (
                Rejection::InkBetweenLines {
                    mean_half: 0.714,
                    half_lines: 6,
                },
                "ink between grid lines (0.71): not a 9×9 grid",
            ),
            (
                Rejection::UnevenSpacing { bend_median: 0.125 },
                "uneven line spacing (median 0.12 cell)",
            ),
            (
                Rejection::PartOfLargerGrid { runs_on: 12 },
                "12 of 40 lines run on past the border: part of a larger grid",
            ),
            (
                Rejection::BandWithoutLines {
                    band: Band::Column(8),
                    ink: 0.04,
                    typical: 0.91,
                },
                "column 9 of the lattice has no grid lines across it (0.04 ink, 0.91 elsewhere): \
                 the lattice runs past the grid",
            ),
            (
                Rejection::LinesMissing {
                    mean_edge: 0.5,
                    weak: 31,
                },
                "grid lines missing (mean edge ink 0.50, 31 weak edges)",
            ),
        ];
        for (rejection, text) in cases {
            assert_eq!(rejection.to_string(), text);
        }
    }
}
