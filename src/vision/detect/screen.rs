//! The screen stage: a grid whose lines run exactly along the pixel rows and columns (a
//! screenshot, a scan), found from where the brightness changes rather than from an ink mask.
//!
//! A screenshot is pixel-exact and axis-aligned, which a photo is not, and its grids are
//! drawn in ways an ink mask handles badly: light lines on a dark ground, cells drawn as
//! separate tiles (the "lines" are gaps of the page colour), pastel boxes whose thin lines are
//! barely darker than the fill, a finished grid full of digits that touch the lines. All of
//! them change the brightness, in either direction, along whole rows and columns of pixels:
//! the absolute difference between neighbouring rows (columns) is large along most of every
//! grid line, and along no more than short strokes of a digit. So this stage
//! 1. marks, for every boundary between two pixel rows (columns), where the two differ by a
//!    few gray levels or more (in a colour picture: or in any one channel, for tiles of
//!    another hue at the page's gray level), and keeps the long straight runs of such marks
//!    (short gaps, as between tiles, bridged);
//! 2. takes each long run's extent as the width of a possible grid, whose cells are then about
//!    a ninth of it (grids are square), and groups the rows marked along most of that width
//!    into lines (the two edges of a thick line or of a gap between tiles are one line, its
//!    position their midpoint);
//! 3. looks among those lines for ten equally spaced ones (within a pixel or two) spanning
//!    that width, no line a step before the first or after the last (a block of a larger
//!    grid), no lines half-way between them (a finer grid), at most two thin lines missing;
//! 4. does the same for the columns across the rows found, and checks that both families
//!    agree (the columns span the rows' width and the other way round).
//!
//! The lines are measured, not refined, so digits that touch them cannot pull them; nothing
//! here is a particular colour or theme. Only a rendered picture is searched: one whose flat areas
//! are exactly flat (no camera noise). A photo's grid, even a nearly level one, is tilted
//! and foreshortened by a pixel or more, which the other stages follow and this one would
//! not, so a photo costs one noise estimate here and nothing more. It knows nothing of the
//! ink mask or the other stages.

use image::{GrayImage, RgbImage};

use super::threshold::area_downscale;
use crate::vision::{Lattice, Point};

/// Gray levels two neighbouring pixel rows (columns) must differ by to mark a boundary:
/// pastel tiles on a page of about their brightness differ by 4 levels or less, and a
/// rendered picture has no noise to mistake for an edge.
const EDGE_STEP: u8 = 3;
/// The most noise (σ, gray levels; `threshold::noise_sigma`) of a still picture this stage
/// looks at (the default of `DetectOptions::screen_max_noise_sigma`; live frames ask for
/// less). A rendered screen is flat between its edges (σ under 0.11 on every rendered
/// screenshot measured, JPEG ones included); a camera's picture is not (0.36 and up on the
/// shared photo sets), and its lines are neither exactly level nor exactly evenly spaced, so
/// the other stages, which follow bent and tilted lines, place them better.
pub(super) const MAX_NOISE_SIGMA: f32 = 0.25;
/// Pictures larger than this (long side, pixels) are searched at an integer area downscale.
const MAX_LONG_SIDE_PX: u32 = 1600;
/// Smallest cell side, in searched pixels.
const MIN_CELL_PX: f32 = 8.0;
/// Share of a grid's width along which a row boundary must be marked to count as a line.
const MIN_LINE_COVER: f32 = 0.45;
/// How far (cells) the median line may wander across the grid (see [`straight`]).
const MAX_DRIFT_CELLS: f32 = 0.05;
/// Share of the lattice lines' mean cover a line one step outside them must reach to make them
/// a block of a larger lattice (whose lines are all as long).
const OUTSIDE_COVER: f32 = 0.9;
/// Hypotheses (distinct long-run extents) tried per orientation, longest first.
const MAX_EXTENTS: usize = 40;

/// A grid found by the screen stage, in the picture's pixels.
#[derive(Clone, Debug)]
pub(super) struct ScreenGrid {
    /// Its lattice (the measured row and column lines).
    pub lattice: Lattice,
    /// The mean share of the grid's width (height) along which its 20 lines are marked.
    pub cover: f32,
}

/// Finds an axis-aligned 9×9 grid in `image`, or `None`. `colour`, the same picture in
/// colour where there is one, also marks the edges that only a hue shows (tiles whose gray
/// level is the page's; see [`Planes`]). A picture noisier than `max_noise_sigma` is not
/// searched.
pub(super) fn find(
    image: &GrayImage,
    colour: Option<&RgbImage>,
    max_noise_sigma: f32,
) -> Option<ScreenGrid> {
    let long = image.width().max(image.height());
    let factor = long.div_ceil(MAX_LONG_SIDE_PX).max(1);
    let small;
    let picture = if factor > 1 {
        small = area_downscale(image, 1.0 / factor as f32);
        &small
    } else {
        image
    };
    let (w, h) = picture.dimensions();
    if w < 32 || h < 32 {
        return None;
    }
    let sigma = super::threshold::noise_sigma(picture);
    if sigma > max_noise_sigma {
        tracing::trace!(sigma, "too noisy for the screen stage");
        return None;
    }
    let (w, h) = (w as usize, h as usize);
    let search_in = |planes: &Planes| {
        // Rows: boundaries between pixel rows, marked along x. Columns: the transpose.
        let rows = Marks::new(w, h, |x, b| planes.differ(x, b, x, b + 1));
        let cols = Marks::new(h, w, |y, b| planes.differ(b, y, b + 1, y));
        search(&rows, &cols).or_else(|| {
            let (xs, ys, cover) = search(&cols, &rows)?;
            Some((ys, xs, cover))
        })
    };
    // Gray edges first: a JPEG keeps its colour at half resolution and blurs it into blocks,
    // which widens and shifts a line's colour edges; the hue is for grids gray does not show.
    let (ys, xs, cover) = search_in(&Planes::gray(picture)).or_else(|| {
        let colour = colour.filter(|c| c.dimensions() == image.dimensions())?;
        search_in(&Planes::with_colour(picture, colour, factor))
    })?;
    let to_image = |v: f32| (v + 0.5) * factor as f32 - 0.5;
    let mut points_in_image = [[Point::default(); 10]; 10];
    for (r, row) in points_in_image.iter_mut().enumerate() {
        for (c, p) in row.iter_mut().enumerate() {
            *p = Point::new(to_image(xs[c]), to_image(ys[r]));
        }
    }
    Some(ScreenGrid {
        lattice: Lattice { points_in_image },
        cover,
    })
}

/// The picture searched, at the searched scale: its gray levels and, when searched in colour,
/// its three channels.
struct Planes<'a> {
    gray: &'a GrayImage,
    /// Red, green and blue; empty when searched in gray only.
    channels: Vec<GrayImage>,
}

impl<'a> Planes<'a> {
    /// `gray` alone.
    fn gray(gray: &'a GrayImage) -> Planes<'a> {
        Planes {
            gray,
            channels: Vec::new(),
        }
    }

    /// `gray` (at the searched scale) and the channels of `colour` (at the picture's scale,
    /// reduced by `factor` as `gray` was).
    fn with_colour(gray: &'a GrayImage, colour: &RgbImage, factor: u32) -> Planes<'a> {
        let raw = colour.as_raw();
        let mut channels: Vec<GrayImage> = (0..3)
            .map(|c| {
                let plane: Vec<u8> = raw.iter().skip(c).step_by(3).copied().collect();
                let plane =
                    GrayImage::from_raw(colour.width(), colour.height(), plane).unwrap_or_default();
                if factor > 1 {
                    area_downscale(&plane, 1.0 / factor as f32)
                } else {
                    plane
                }
            })
            .collect();
        // A downscale that rounds otherwise would leave planes of another size: gray alone.
        if channels.iter().any(|p| p.dimensions() != gray.dimensions()) {
            channels.clear();
        }
        Planes { gray, channels }
    }

    /// Whether the pixels `(x0, y0)` and `(x1, y1)` differ by [`EDGE_STEP`] or more in gray
    /// level or in any colour channel. (Tiles of another hue on a page of their gray level,
    /// as dark themes draw them, differ by a dozen levels in one channel.)
    fn differ(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> bool {
        let w = self.gray.width() as usize;
        let (i, j) = (y0 * w + x0, y1 * w + x1);
        std::iter::once(self.gray)
            .chain(&self.channels)
            .any(|p| p.as_raw()[i].abs_diff(p.as_raw()[j]) >= EDGE_STEP)
    }
}

/// The marked boundaries of one orientation: boundary `b` lies between pixel rows `b` and
/// `b + 1` (of the picture or its transpose), marked at `x` when the two differ by
/// [`EDGE_STEP`] or more.
struct Marks {
    /// Per boundary, the prefix counts of marks along it (`len + 1` entries).
    prefix: Vec<Vec<u32>>,
    /// The long runs of marks: `(boundary, start, end)`, longest first.
    runs: Vec<(usize, usize, usize)>,
}

impl Marks {
    /// Marks the boundaries of a `len` × `count` picture: `edge(x, b)` tells whether the
    /// pixels at `x` on either side of boundary `b` differ.
    fn new(len: usize, count: usize, edge: impl Fn(usize, usize) -> bool) -> Marks {
        let min_run = (len.min(count) as f32 * 0.1).max(9.0 * MIN_CELL_PX) as usize;
        let mut prefix = Vec::with_capacity(count.saturating_sub(1));
        let mut runs = Vec::new();
        let mut marked = vec![false; len];
        for b in 0..count.saturating_sub(1) {
            let mut p = Vec::with_capacity(len + 1);
            p.push(0u32);
            let mut n = 0;
            for (x, m) in marked.iter_mut().enumerate() {
                *m = edge(x, b);
                n += u32::from(*m);
                p.push(n);
            }
            collect_runs(&marked, &p, min_run, |s, e| runs.push((b, s, e)));
            prefix.push(p);
        }
        runs.sort_by_key(|&(_, s, e)| std::cmp::Reverse(e - s));
        Marks { prefix, runs }
    }

    /// Distinct extents of the long runs, longest first (ends within 3 px are one extent).
    fn extents(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for &(_, s, e) in &self.runs {
            if out.len() >= MAX_EXTENTS {
                break;
            }
            if !out
                .iter()
                .any(|&(s2, e2)| s.abs_diff(s2) <= 3 && e.abs_diff(e2) <= 3)
            {
                out.push((s, e));
            }
        }
        out
    }

    /// The lines across `[start, end)`: boundaries marked along at least [`MIN_LINE_COVER`]
    /// of it (a small margin at each end left out), those closer than `merge_px` grouped; a
    /// group with gaps also gives each of its parts.
    /// Each line is its position (the midpoint of its group's first and last boundary, in
    /// pixel-centre coordinates) and its best cover.
    fn lines(&self, start: f32, end: f32, merge_px: f32) -> Vec<Line> {
        let margin = (end - start) * 0.02;
        let len = self.prefix.first().map_or(0, |p| p.len() - 1);
        let a = ((start + margin).round().max(0.0) as usize).min(len);
        let b = ((end - margin).round().max(0.0) as usize).min(len);
        if b <= a + 2 {
            return Vec::new();
        }
        let span = (b - a) as f32;
        let strong: Vec<(usize, f32)> = self
            .prefix
            .iter()
            .enumerate()
            .map(|(k, p)| (k, (p[b] - p[a]) as f32 / span))
            .filter(|&(_, cover)| cover >= MIN_LINE_COVER)
            .collect();
        let mut lines = Vec::new();
        for group in strong.chunk_by(|x, y| (y.0 - x.0) as f32 <= merge_px) {
            lines.push(line_of(group));
            // A group with gaps may be a line beside an edge that is none of the grid's (a
            // card, a shadow, the picture's border): its parts are candidates too, and so is
            // each pair of neighbouring parts (the two edges of a heavy border, beside a
            // window's edge).
            let parts: Vec<&[(usize, f32)]> = group.chunk_by(|x, y| y.0 - x.0 <= 2).collect();
            if parts.len() > 1 {
                lines.extend(parts.iter().copied().map(line_of));
            }
            if parts.len() > 2 {
                let mut start = 0;
                for pair in parts.windows(2) {
                    let len = pair[0].len() + pair[1].len();
                    lines.push(line_of(&group[start..start + len]));
                    start += pair[0].len();
                }
            }
        }
        lines.sort_by(|x, y| x.pos.total_cmp(&y.pos));
        lines
    }
}

impl Marks {
    /// Share of `[start, end)` marked along boundary `b` (0 outside the picture).
    fn cover(&self, b: usize, start: f32, end: f32) -> f32 {
        let Some(p) = self.prefix.get(b) else {
            return 0.0;
        };
        let len = p.len() - 1;
        let a = (start.round().max(0.0) as usize).min(len);
        let z = (end.round().max(0.0) as usize).min(len);
        if z <= a {
            return 0.0;
        }
        (p[z] - p[a]) as f32 / (z - a) as f32
    }

    /// Whether `line` runs on past `[start, end)` on either side (by half a ninth of it)
    /// along any of its boundaries: a page, window or card edge rather than a line of a
    /// lattice that ends there.
    fn runs_on(&self, line: &Line, start: f32, end: f32) -> bool {
        let flank = (end - start) / 18.0;
        (line.first..=line.last).any(|b| {
            self.cover(b, start - flank, start) >= 0.5 || self.cover(b, end, end + flank) >= 0.5
        })
    }
}

impl Marks {
    /// How far the line at `pos` wanders across `[start, end)`: the spread (pixels) of its
    /// positions in the four quarters of that range, each the mean of the boundaries within
    /// `reach` of `pos` weighted by their cover there (infinite when fewer than three
    /// quarters show it). A line drawn along a pixel row stays on it; a bent one does not.
    fn drift(&self, pos: f32, start: f32, end: f32, reach: f32) -> f32 {
        let lo = (pos - 0.5 - reach).ceil().max(0.0) as usize;
        let hi = (pos - 0.5 + reach).floor().max(0.0) as usize;
        let quarter = (end - start) / 4.0;
        let mut at = Vec::with_capacity(4);
        for q in 0..4 {
            let (a, z) = (start + quarter * q as f32, start + quarter * (q + 1) as f32);
            let (mut sum, mut weight) = (0.0f32, 0.0f32);
            for b in lo..=hi {
                let c = self.cover(b, a, z);
                if c >= 0.25 {
                    sum += c * b as f32;
                    weight += c;
                }
            }
            if weight > 0.0 {
                at.push(sum / weight);
            }
        }
        if at.len() < 3 {
            return f32::INFINITY;
        }
        let max = at.iter().copied().fold(f32::MIN, f32::max);
        let min = at.iter().copied().fold(f32::MAX, f32::min);
        max - min
    }
}

/// Whether the ten lines at `pos` (of `marks`, across `[start, end)`) are straight: the
/// median line wanders by at most [`MAX_DRIFT_CELLS`] of a cell. (One line may wander more
/// where the two edges of a gap between tiles are unequally strong from box to box.)
fn straight(marks: &Marks, pos: &[f32; 10], start: f32, end: f32) -> bool {
    let step = (pos[9] - pos[0]) / 9.0;
    let reach = (0.12 * step).max(2.0);
    let mut drifts: Vec<f32> = pos
        .iter()
        .map(|&p| marks.drift(p, start, end, reach))
        .collect();
    drifts.sort_by(f32::total_cmp);
    tracing::trace!(?drifts, step, "screen line drift");
    drifts[5] <= MAX_DRIFT_CELLS * step
}

/// A line: a group of marked boundaries close together (the two edges of a thick line or
/// of a gap between tiles, or one edge).
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Its position: the midpoint of its first and last boundary, in pixel-centre
    /// coordinates (boundary `b` lies at `b + 0.5`).
    pos: f32,
    /// The best cover of its boundaries.
    cover: f32,
    /// Its first and last boundary.
    first: usize,
    last: usize,
}

/// The [`Line`] of a group of strong boundaries `(boundary, cover)`, in order.
fn line_of(group: &[(usize, f32)]) -> Line {
    let (first, last) = (group[0].0, group[group.len() - 1].0);
    Line {
        pos: (first + last) as f32 / 2.0 + 0.5,
        cover: group.iter().map(|g| g.1).fold(0.0, f32::max),
        first,
        last,
    }
}

/// Calls `found(start, end)` for every run of marks at least `min_run` long in which gaps
/// are shorter than half the run so far (at most 64 px: the gap between box tiles) and at
/// least 60 % is marked.
fn collect_runs(
    marked: &[bool],
    prefix: &[u32],
    min_run: usize,
    mut found: impl FnMut(usize, usize),
) {
    let mut run: Option<(usize, usize)> = None; // (start, last marked)
    let mut close = |(s, last): (usize, usize)| {
        let end = last + 1;
        if end - s >= min_run && (prefix[end] - prefix[s]) as f32 >= 0.6 * (end - s) as f32 {
            found(s, end);
        }
    };
    for (x, &m) in marked.iter().enumerate() {
        if !m {
            continue;
        }
        run = match run {
            Some((s, last)) if x - last - 1 <= ((last + 1 - s) / 2).clamp(2, 64) => Some((s, x)),
            Some(done) => {
                close(done);
                Some((x, x))
            }
            None => Some((x, x)),
        };
    }
    if let Some(done) = run {
        close(done);
    }
}

/// Ten equally spaced lines among `lines` spanning between `span.0` and `span.1`: the first and
/// last of them found, at most two of the eight between missing (their place interpolated),
/// none a step outside that ends with them (`runs_on` tells a page or window edge, which
/// may lie anywhere), at most two of the inner ones running on past the ends, at most two
/// half-way between. Returns the ten positions and the mean
/// cover of the lines found.
fn ten_lines(
    lines: &[Line],
    span: (f32, f32),
    runs_on: impl Fn(&Line) -> bool,
) -> Option<([f32; 10], f32)> {
    // (positions, score, lines found, mean cover); the score is the mean cover less the mean
    // distance (cells) of the lines found from even spacing.
    let mut best: Option<([f32; 10], f32, usize, f32)> = None;
    for (i, first) in lines.iter().enumerate() {
        let first = first.pos;
        for last in &lines[i + 1..] {
            let last = last.pos;
            let step = (last - first) / 9.0;
            if step < MIN_CELL_PX || last - first < span.0 || last - first > span.1 {
                continue;
            }
            let tol = (0.06 * step).max(1.5);
            let near = |at: f32| {
                lines
                    .iter()
                    .filter(|l| (l.pos - at).abs() <= tol)
                    .min_by(|a, b| (a.pos - at).abs().total_cmp(&(b.pos - at).abs()))
            };
            let mut found = [None; 10];
            for (k, f) in found.iter_mut().enumerate() {
                *f = near(first + step * k as f32);
            }
            let count = found.iter().flatten().count();
            if count < 8 {
                continue;
            }
            // Inner lines that run on past the ends: a block of a larger lattice (a crossword
            // whose black squares gave a run of nine cells).
            if found[1..9].iter().flatten().filter(|l| runs_on(l)).count() > 2 {
                continue;
            }
            let cover = found.iter().flatten().map(|l| l.cover).sum::<f32>() / count as f32;
            // A line one step outside, as long as these: a 9×9 block of a larger lattice. (A
            // shorter one is an edge of something else, such as the keypad below a grid.)
            let outside = |at: f32| {
                lines.iter().any(|l| {
                    (l.pos - at).abs() <= tol && l.cover >= OUTSIDE_COVER * cover && !runs_on(l)
                })
            };
            if outside(first - step) || outside(last + step) {
                continue;
            }
            // Lines half-way as strong as these: a finer grid. (The stems of digits centred
            // in every cell of a full grid line up too, along about half its length.)
            let halves = (0..9)
                .filter(|&k| {
                    near(first + step * (k as f32 + 0.5)).is_some_and(|l| l.cover >= 0.8 * cover)
                })
                .count();
            if halves > 2 {
                continue;
            }
            let mut pos = [0.0f32; 10];
            let mut off_cells = 0.0;
            for (k, p) in pos.iter_mut().enumerate() {
                let at = first + step * k as f32;
                *p = found[k].map_or(at, |l| l.pos);
                off_cells += (*p - at).abs() / step / count as f32;
            }
            // Of equally many lines, the better covered and more evenly spaced: the edges of
            // a thick line, candidates too, are as well covered as the line.
            let score = cover - off_cells;
            if best.as_ref().is_none_or(|b| (count, score) > (b.2, b.1)) {
                best = Some((pos, score, count, cover));
            }
        }
    }
    best.map(|(pos, _, _, cover)| (pos, cover))
}

/// The grid whose `first`-orientation lines are found first (over the extents of that
/// orientation's long runs), then the `second`'s across them, then the first's again across
/// the second's extent: positions of the first family, of the second, and the mean cover.
fn search(first: &Marks, second: &Marks) -> Option<([f32; 10], [f32; 10], f32)> {
    let mut best: Option<([f32; 10], [f32; 10], f32)> = None;
    for (s, e) in first.extents() {
        let width = (e - s) as f32;
        let merge = |span: f32| (0.2 * span / 9.0).max(2.0);
        let first_lines = first.lines(s as f32, e as f32, merge(width));
        tracing::trace!(s, e, lines = ?first_lines, "screen extent");
        // The run may go on past the grid (into a keypad or panel beside it).
        let Some((a, _)) = ten_lines(&first_lines, (0.75 * width, 1.12 * width), |p| {
            first.runs_on(p, s as f32, e as f32)
        }) else {
            continue;
        };
        let height = a[9] - a[0];
        let second_lines = second.lines(a[0], a[9], merge(height));
        tracing::trace!(?a, lines = ?second_lines, "screen first family");
        let square = |side: f32| (0.88 * side, 1.12 * side);
        let Some((b, _)) = ten_lines(&second_lines, square(height), |p| {
            second.runs_on(p, a[0], a[9])
        }) else {
            continue;
        };
        // The second family must lie within the run it came from (a card around the grid may
        // be a little wider), and the first, measured again across it, must be the same lines.
        let step = (b[9] - b[0]) / 9.0;
        tracing::trace!(?b, "screen second family");
        if b[0] < s as f32 - 0.5 * step || b[9] > e as f32 + 0.5 * step {
            continue;
        }
        let first_lines = first.lines(b[0], b[9], merge(b[9] - b[0]));
        let Some((a2, cover_a)) = ten_lines(&first_lines, square(b[9] - b[0]), |p| {
            first.runs_on(p, b[0], b[9])
        }) else {
            continue;
        };
        tracing::trace!(?a2, "screen first family again");
        if a2
            .iter()
            .zip(&a)
            .any(|(p, q)| (p - q).abs() > (0.06 * step).max(1.5))
        {
            continue;
        }
        let second_lines = second.lines(a2[0], a2[9], merge(height));
        let Some((b2, cover_b)) = ten_lines(&second_lines, square(height), |p| {
            second.runs_on(p, a2[0], a2[9])
        }) else {
            continue;
        };
        // A rendered grid on bent paper is no screen: the refined stages follow its lines.
        if !straight(first, &a2, b2[0], b2[9]) || !straight(second, &b2, a2[0], a2[9]) {
            continue;
        }
        let cover = (cover_a + cover_b) / 2.0;
        if best.as_ref().is_none_or(|x| cover > x.2) {
            best = Some((a2, b2, cover));
        }
    }
    best
}

#[cfg(test)]
#[path = "screen_tests.rs"]
mod tests;
