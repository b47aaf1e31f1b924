//! Faint grids: a second look, in gray levels, at a lattice whose thin lines the ink mask lost.
//!
//! Some newspapers print the thin inner lines in a light gray; in a dim or blurred photo the
//! adaptive threshold keeps only the thick box lines, so `detect`'s validation finds too
//! many edges without ink. Averaged along a whole edge, such a line is still a few gray
//! levels darker than the paper beside it, while a lattice line laid over empty paper (a 9×9
//! lattice fitted to an 8×8 or 10×10 grid) is not darker at all. [`lines_present`] measures
//! that contrast for every lattice line. [`valley`] finds such a line near a predicted
//! intersection when the mask has none there (also a border lost in a shadow, where the
//! threshold's local mean is dark too). Working-image pixels; knows nothing of contours or
//! of how the lattice was found.

use image::GrayImage;

use super::rectify::interpolate;
use super::{Lattice, Point};

/// Gray level at `p`, bilinear; `None` outside the image.
fn gray_at(gray: &GrayImage, p: Point) -> Option<f32> {
    inside(gray, p).then(|| interpolate(gray, p.x, p.y))
}

/// Whether [`gray_at`] has a gray level at `p`.
fn inside(gray: &GrayImage, p: Point) -> bool {
    let (w, h) = gray.dimensions();
    p.x >= 0.0 && p.y >= 0.0 && p.x <= (w - 1) as f32 && p.y <= (h - 1) as f32
}

/// How many gray levels the edge `a → b` is darker than the paper `paper_px` to each side:
/// the cross-section averaged over the inner 70 % of the edge, its darkest point within two
/// pixels of the edge (the lattice may be a pixel or two off a faint line) against the mean
/// of the two sides. `None` when the edge leaves the image.
fn edge_contrast(gray: &GrayImage, a: Point, b: Point, paper_px: f32) -> Option<f32> {
    const NEAR: [f32; 5] = [-2.0, -1.0, 0.0, 1.0, 2.0];
    let d = (b - a).unit();
    let n = Point::new(-d.y, d.x);
    let samples = (a.distance(b) * 0.7).ceil().max(4.0) as usize;
    let mut near = [0.0f32; 5];
    let mut sides = 0.0f32;
    for i in 0..samples {
        let q = a.lerp(b, 0.15 + 0.7 * (i as f32 + 0.5) / samples as f32);
        for (acc, t) in near.iter_mut().zip(NEAR) {
            *acc += gray_at(gray, q + n.scaled(t))?;
        }
        sides += gray_at(gray, q + n.scaled(paper_px))? + gray_at(gray, q - n.scaled(paper_px))?;
    }
    let line = near.iter().copied().fold(f32::MAX, f32::min);
    Some((sides / 2.0 - line) / samples as f32)
}

/// Gray-level contrast of each lattice line: for each of the 10 row lines and then the 10
/// column lines, the median contrast of its 9 edges. `None` when part of the lattice lies
/// outside `gray`.
fn line_contrasts(gray: &GrayImage, lattice: &Lattice) -> Option<[f32; 20]> {
    let p = &lattice.points_in_image;
    let paper_px = (0.22 * lattice.mean_side() / 9.0).max(3.0);
    let mut out = [0.0f32; 20];
    for i in 0..10 {
        let mut rows = [0.0f32; 9];
        let mut cols = [0.0f32; 9];
        for j in 0..9 {
            rows[j] = edge_contrast(gray, p[i][j], p[i][j + 1], paper_px)?;
            cols[j] = edge_contrast(gray, p[j][i], p[j + 1][i], paper_px)?;
        }
        rows.sort_by(f32::total_cmp);
        cols.sort_by(f32::total_cmp);
        out[i] = rows[4];
        out[10 + i] = cols[4];
    }
    Some(out)
}

/// Cross-section of a whole lattice line (`points`, its 10 intersections) in gray levels: for
/// each offset `t ∈ [-reach, reach]` px along the edges' normals, the `quantile` of the gray
/// levels over the inner 80 % of its 9 edges. The median (0.5), not the mean, so that digits
/// touching the line here and there (a finished grid of small cells) do not darken the paper
/// beside it; a higher quantile sees how dark the line is where it is lightest. Samples
/// outside the image are left out (a webcam frame may cut the grid's last row at its edge);
/// `None` when more than a third of an offset's samples are outside. Offsets for which
/// `wanted` is false are only checked for that and get `NaN` (the caller never looks there).
fn line_profile(
    gray: &GrayImage,
    points: &[Point; 10],
    reach: i32,
    quantile: f32,
    wanted: impl Fn(i32) -> bool,
) -> Option<Vec<f32>> {
    // Each edge's sample points and normal, the same for every offset.
    let edges: Vec<(Point, Vec<Point>)> = points
        .windows(2)
        .map(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let d = (b - a).unit();
            let samples = (a.distance(b) * 0.8).ceil().max(4.0) as usize;
            let along = (0..samples)
                .map(|s| a.lerp(b, 0.1 + 0.8 * (s as f32 + 0.5) / samples as f32))
                .collect();
            (Point::new(-d.y, d.x), along)
        })
        .collect();
    let total: usize = edges.iter().map(|(_, along)| along.len()).sum();
    let mut values = Vec::with_capacity(total);
    (-reach..=reach)
        .map(|k| {
            if !wanted(k) {
                // Only whether enough of the offset's samples are inside (the same count the
                // values would have), not the gray levels.
                let in_image: usize = edges
                    .iter()
                    .map(|(normal, along)| {
                        let shift = normal.scaled(k as f32);
                        along.iter().filter(|&&q| inside(gray, q + shift)).count()
                    })
                    .sum();
                return (in_image > 0 && 3 * in_image >= 2 * total).then_some(f32::NAN);
            }
            values.clear();
            for (normal, along) in &edges {
                let shift = normal.scaled(k as f32);
                values.extend(along.iter().filter_map(|&q| gray_at(gray, q + shift)));
            }
            if values.is_empty() || 3 * values.len() < 2 * total {
                return None;
            }
            let at =
                (((values.len() - 1) as f32 * quantile).round() as usize).min(values.len() - 1);
            // The order statistic alone (the same value a full sort puts there): this runs
            // for every offset of every line of every candidate a frame without a grid has.
            let (_, value, _) = values.select_nth_unstable_by(at, f32::total_cmp);
            Some(*value)
        })
        .collect()
}

/// How many gray levels a whole lattice line is darker than the paper beside it, from its
/// [`line_profile`] over half a cell to each side: the darkest point within two pixels of
/// the line against the brightest point a quarter to a half cell away on each side. A line
/// blurred over several pixels (a webcam frame, motion blur across the line) keeps its
/// contrast here, where a fixed paper distance of a fifth of a cell would still sit in the
/// blur. An inner line takes the darker side (a step from a shaded box to white paper is no
/// line); the border takes the brighter one (outside it lies whatever the grid is on).
fn profile_contrast(
    gray: &GrayImage,
    points: &[Point; 10],
    cell_px: f32,
    border: bool,
    quantile: f32,
) -> Option<f32> {
    let reach = (0.5 * cell_px).round().max(4.0) as i32;
    let far = ((0.25 * cell_px).ceil() as i32).clamp(3, reach);
    // The offsets between the line's two pixels and the paper's quarter cell are not used.
    let used = |k: i32| k.abs() <= 2 || k.abs() >= far;
    let profile = line_profile(gray, points, reach, quantile, used)?;
    let at = |k: i32| profile[(k + reach) as usize];
    let line = (-2..=2).map(at).fold(f32::MAX, f32::min);
    let before = (-reach..=-far).map(at).fold(f32::MIN, f32::max);
    let after = (far..=reach).map(at).fold(f32::MIN, f32::max);
    let paper = if border {
        before.max(after)
    } else {
        before.min(after)
    };
    Some(paper - line)
}

/// [`profile_contrast`] of the 10 row lines and then the 10 column lines, at `quantile` along
/// the lines. `None` when part of the lattice lies outside `gray`.
/// `None` too as soon as one line's contrast is below `floor` (the caller's verdict is then
/// known; `f32::NEG_INFINITY` measures every line).
fn profile_contrasts(
    gray: &GrayImage,
    lattice: &Lattice,
    quantile: f32,
    floor: f32,
) -> Option<[f32; 20]> {
    let p = &lattice.points_in_image;
    let cell_px = lattice.mean_side() / 9.0;
    let mut out = [0.0f32; 20];
    for i in 0..10 {
        let row = p[i];
        let col: [Point; 10] = std::array::from_fn(|j| p[j][i]);
        let border = i == 0 || i == 9;
        out[i] = profile_contrast(gray, &row, cell_px, border, quantile).filter(|&c| c >= floor)?;
        out[10 + i] =
            profile_contrast(gray, &col, cell_px, border, quantile).filter(|&c| c >= floor)?;
    }
    Some(out)
}

/// [`profile_contrast`] of the 18 half-way lines between the lattice lines (9 between the row
/// lines, then 9 between the column lines), each through the midpoints of its two lines'
/// intersections, at `quantile` along the lines. `None` when part of the lattice lies outside
/// `gray`.
fn half_way_contrasts(gray: &GrayImage, lattice: &Lattice, quantile: f32) -> Option<[f32; 18]> {
    let p = &lattice.points_in_image;
    let cell_px = lattice.mean_side() / 9.0;
    let mut out = [0.0f32; 18];
    for i in 0..9 {
        let row: [Point; 10] = std::array::from_fn(|j| p[i][j].lerp(p[i + 1][j], 0.5));
        let col: [Point; 10] = std::array::from_fn(|j| p[j][i].lerp(p[j][i + 1], 0.5));
        out[i] = profile_contrast(gray, &row, cell_px, false, quantile)?;
        out[9 + i] = profile_contrast(gray, &col, cell_px, false, quantile)?;
    }
    Some(out)
}

/// Whether the half-way lines between the lattice lines are clear of printed lines in `gray`:
/// fewer than 5 of the 18 are a valley half as deep as the median lattice line, both measured
/// where the line is lightest (the cross-section's 80th percentile along the line). A finer
/// grid (18×18), or a lattice half a cell off, has a line all along most of them; digits, even
/// a finished grid of large blurred ones, leave a half-way line light near every cell edge. The
/// gray-level counterpart of the ink mask's half-way test, for lattices whose thin lines the
/// mask lost (it then sees the digits' blobs as much as the lines). `false` when part of the
/// lattice lies outside `gray`.
///
/// Half-way lines dark one way only, with that way's thin lattice lines printed lines in gray
/// (each at least [`FAINTEST_LINE`] and a fifth of their median darker than the paper beside
/// it, edge by edge), are clear too: the tall digits of a finished grid of small, blurred
/// cells darken the vertical half-way lines through their middles along most of their
/// length, while a finer grid darkens them both ways.
pub(crate) fn half_way_lines_clear(gray: &GrayImage, lattice: &Lattice) -> bool {
    const LIGHTEST: f32 = 0.8;
    let (Some(mut lines), Some(halves)) = (
        profile_contrasts(gray, lattice, LIGHTEST, f32::NEG_INFINITY),
        half_way_contrasts(gray, lattice, LIGHTEST),
    ) else {
        return false;
    };
    lines.sort_by(f32::total_cmp);
    let line_median = lines[10];
    let dark = |range: std::ops::Range<usize>| {
        halves[range]
            .iter()
            .filter(|&&c| c >= 3.0_f32.max(0.5 * line_median))
            .count()
    };
    // Half-way lines 0–8 run along the rows (between row lines), 9–17 along the columns.
    let (along_rows, along_columns) = (dark(0..9), dark(9..18));
    let inked = along_rows + along_columns;
    tracing::trace!(?halves, line_median, inked, "half-way line contrasts");
    if inked < 5 {
        return true;
    }
    let one_way = if along_rows <= 1 {
        LINE_KINDS[2]
    } else if along_columns <= 1 {
        LINE_KINDS[1]
    } else {
        return false;
    };
    line_contrasts(gray, lattice).is_some_and(|c| lines_of_kind_dark(&c, one_way, "half-way"))
}

/// Whether the lattice lines `kind` (indices into [`line_contrasts`]' 20) are all
/// printed lines: the faintest at least [`FAINTEST_LINE`] gray levels darker than the paper,
/// and at least a fifth of the kind's median.
fn lines_of_kind_dark(contrasts: &[f32; 20], kind: &[usize], what: &str) -> bool {
    let mut of_kind: Vec<f32> = kind.iter().map(|&i| contrasts[i]).collect();
    of_kind.sort_by(f32::total_cmp);
    let (faintest, median) = (of_kind[0], of_kind[of_kind.len() / 2]);
    tracing::trace!(faintest, median, what, "faint line contrast");
    faintest >= FAINTEST_LINE.max(0.2 * median)
}

/// The contrast every line needs at least (gray levels): [`all_lines_dark`]'s first test.
const FAINTEST_LINE: f32 = 3.0;

/// The indices of [`all_lines_dark`]'s contrasts by kind: the eight box lines (lines 0, 3, 6
/// and 9 each way), the six thin row lines, the six thin column lines.
const LINE_KINDS: [&[usize]; 3] = [
    &[0, 3, 6, 9, 10, 13, 16, 19],
    &[1, 2, 4, 5, 7, 8],
    &[11, 12, 14, 15, 17, 18],
];

/// Whether all 20 contrasts (10 row lines, then 10 column lines) say printed lines: the
/// faintest at least [`FAINTEST_LINE`] gray levels darker than the paper, and each at least a
/// fifth of the median of its kind. The kinds are the eight box lines (the border and the
/// four lines inside), the six thin row lines and the six thin column lines: many newspapers
/// print heavy box lines and thin lines in a light gray, and a frame blurred along one
/// direction softens the lines across it only, so a thin line is only compared with thin lines
/// that run its way.
fn all_lines_dark(contrasts: [f32; 20], what: &str) -> bool {
    tracing::trace!(?contrasts, what, "line contrasts");
    LINE_KINDS
        .iter()
        .all(|kind| lines_of_kind_dark(&contrasts, kind, what))
}

/// Whether every one of the 20 lattice lines is a printed line in `gray`: each at least
/// 3 gray levels, and at least a fifth of the median contrast of its kind, darker than the paper
/// beside it — measured edge by edge near the line, or else over the whole line's
/// cross-section (a line blurred wide, digits touching it; see [`profile_contrast`]). A
/// lattice line over blank paper or the middle of a key (a 3×3 keypad, a lattice fitted to
/// an 8×8 or 10×10 grid) has no valley in either.
pub(crate) fn lines_present(gray: &GrayImage, lattice: &Lattice) -> bool {
    line_contrasts(gray, lattice).is_some_and(|c| all_lines_dark(c, "edges"))
        || profile_contrasts(gray, lattice, 0.5, FAINTEST_LINE)
            .is_some_and(|c| all_lines_dark(c, "profile"))
}

/// [`lines_present`], or else the box lines and the thin lines of one way (rows or columns)
/// printed lines in `gray` by its measures, and digits centred in the cells
/// ([`marks_centred_in_cells`]): the evidence a full grid of tall digits in small, soft
/// cells leaves when the digits' tops and bottoms, close to faint thin row lines, hide them.
/// A lattice fitted to an 8×8 or 10×10 grid has no thin line at its places either way, and a
/// 3×3 keypad, whose keys' marks may pass for one way's lines, has one mark a key.
pub(crate) fn lines_present_or_hidden_by_digits(gray: &GrayImage, lattice: &Lattice) -> bool {
    // `lines_present`'s two tests, on contrasts measured once for both questions (the whole
    // cross-section without `lines_present`'s early stop: a line below its floor fails
    // `all_lines_dark` either way).
    let edges = line_contrasts(gray, lattice);
    if edges.is_some_and(|c| all_lines_dark(c, "edges")) {
        return true;
    }
    let profile = profile_contrasts(gray, lattice, 0.5, f32::NEG_INFINITY);
    if profile.is_some_and(|c| all_lines_dark(c, "profile")) {
        return true;
    }
    (edges.is_some_and(|c| one_way_dark(&c, "edges, one way"))
        || profile.is_some_and(|c| one_way_dark(&c, "profile, one way")))
        && marks_centred_in_cells(gray, lattice)
}

/// Whether `contrasts` ([`line_contrasts`] or [`profile_contrasts`]) say the box lines and
/// the thin lines of one way (rows or columns) are printed lines.
fn one_way_dark(contrasts: &[f32; 20], what: &str) -> bool {
    lines_of_kind_dark(contrasts, LINE_KINDS[0], what)
        && (lines_of_kind_dark(contrasts, LINE_KINDS[1], what)
            || lines_of_kind_dark(contrasts, LINE_KINDS[2], what))
}

/// Samples a cell's side for [`marks_centred_in_cells`].
const CELL_SAMPLES: usize = 8;

/// How many cells of a lattice must hold a centred mark for [`marks_centred_in_cells`]: the
/// fewest givens a proper Sudoku has.
const MARKED_CELLS: usize = 17;

/// Whether the 81 cells of `lattice` hold marks centred in them, laid out as a Sudoku's
/// digits: at least [`MARKED_CELLS`] cells, in 7 or more rows and 7 or more columns, are
/// darker in their middle (mean of the middle 40 % square at least 8 gray levels below the
/// paper) than 2.5 times their left and right fifths. The evidence of the lattice's thin lines
/// when a small or blurred frame lost them even in gray levels (a webcam frame of newsprint
/// whose thin lines are light gray): the box lines alone fit a 3×3 keypad too, but a keypad
/// has one key, and one mark, where a Sudoku box has nine cells. Digits sit in the middle of
/// their cells and leave the cell's sides clear, text or a picture does not. `false` when
/// part of the lattice lies outside `gray`.
pub(crate) fn marks_centred_in_cells(gray: &GrayImage, lattice: &Lattice) -> bool {
    const N: usize = CELL_SAMPLES;
    let p = &lattice.points_in_image;
    let mut values = Vec::with_capacity(81 * N * N);
    for i in 0..9 {
        for j in 0..9 {
            let (tl, tr, br, bl) = (p[i][j], p[i][j + 1], p[i + 1][j + 1], p[i + 1][j]);
            for sy in 0..N {
                let v = (sy as f32 + 0.5) / N as f32;
                let (left, right) = (tl.lerp(bl, v), tr.lerp(br, v));
                for sx in 0..N {
                    let u = (sx as f32 + 0.5) / N as f32;
                    let Some(g) = gray_at(gray, left.lerp(right, u)) else {
                        return false;
                    };
                    values.push(g);
                }
            }
        }
    }
    // The paper: most of a grid's area is paper, even a finished one's.
    let mut sorted = values.clone();
    let at = sorted.len() * 3 / 4;
    let (_, &mut paper, _) = sorted.select_nth_unstable_by(at, f32::total_cmp);
    let (mut marked, mut rows, mut cols) = (0, [false; 9], [false; 9]);
    for (cell, samples) in values.chunks(N * N).enumerate() {
        let dark = |sx: usize, sy: usize| (paper - samples[sy * N + sx]).max(0.0);
        let middle = (2..N - 2)
            .flat_map(|sy| (2..N - 2).map(move |sx| (sx, sy)))
            .map(|(sx, sy)| dark(sx, sy))
            .sum::<f32>()
            / ((N - 4) * (N - 4)) as f32;
        let sides = (1..N - 1)
            .flat_map(|sy| [(1, sy), (N - 2, sy)])
            .map(|(sx, sy)| dark(sx, sy))
            .sum::<f32>()
            / (2 * (N - 2)) as f32;
        if middle >= 8.0 && middle >= 2.5 * sides {
            marked += 1;
            rows[cell / 9] = true;
            cols[cell % 9] = true;
        }
    }
    let spread = |lines: [bool; 9]| lines.iter().filter(|&&m| m).count() >= 7;
    tracing::trace!(marked, paper, "marks centred in cells");
    marked >= MARKED_CELLS && spread(rows) && spread(cols)
}

/// Searches the gray levels for a line through (near) `p` running along `dir`, where the ink
/// mask found none: the mean gray of the segment `p + t·n + s·dir, s ∈ [s0, s1]` for offsets
/// `t ∈ [-reach, reach]` along the normal `n`, and the valley nearest `t = 0` that is at least
/// 8 gray levels darker than the profile 3 px to either side. Returns its offset.
pub(crate) fn valley(
    gray: &GrayImage,
    p: Point,
    dir: Point,
    s0: f32,
    s1: f32,
    reach: f32,
) -> Option<f32> {
    let n = Point::new(-dir.y, dir.x);
    let steps = reach.ceil().clamp(1.0, 64.0) as i32 + 3;
    let samples = ((s1 - s0).abs().ceil() as i32).clamp(2, 256);
    // The same steps along the line at every offset: computed once.
    let along: Vec<Point> = (0..=samples)
        .map(|i| dir.scaled(s0 + (s1 - s0) * i as f32 / samples as f32))
        .collect();
    let profile: Vec<Option<f32>> = (-steps..=steps)
        .map(|k| {
            let base = p + n.scaled(k as f32);
            let mut sum = 0.0;
            for &step in &along {
                sum += gray_at(gray, base + step)?;
            }
            Some(sum / (samples + 1) as f32)
        })
        .collect();
    let centre = steps as usize;
    (3..profile.len() - 3)
        .filter(|&k| {
            let (Some(here), Some(left), Some(right)) =
                (profile[k], profile[k - 3], profile[k + 3])
            else {
                return false;
            };
            let local_min = profile[k - 1].is_some_and(|v| here <= v)
                && profile[k + 1].is_some_and(|v| here <= v);
            local_min && left.min(right) - here >= 8.0
        })
        .min_by_key(|&k| k.abs_diff(centre))
        .map(|k| k as f32 - steps as f32)
        .filter(|t| t.abs() <= reach)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// Paper at 180 with a horizontal line `depth` levels darker, 2 px thick, at `y`.
    fn paper_with_line(y: u32, depth: u8) -> GrayImage {
        GrayImage::from_fn(80, 80, |_, yy| {
            Luma([if yy == y || yy == y + 1 {
                180 - depth
            } else {
                180
            }])
        })
    }

    /// Side of a cell of [`small_grid`] and [`keypad`], px (a webcam frame's small cells).
    const CELL: f32 = 18.0;
    /// Where their grid's top-left corner lies, px.
    const ORIGIN: f32 = 40.0;

    /// The 9×9 lattice of [`small_grid`].
    fn small_lattice() -> Lattice {
        let side = 9.0 * CELL;
        let (a, b) = (ORIGIN, ORIGIN + side);
        Lattice::from_corners([
            Point::new(a, a),
            Point::new(b, a),
            Point::new(b, b),
            Point::new(a, b),
        ])
    }

    /// Distance from `v` (px) to the nearest lattice line `k·CELL` (k in `lines`) and that
    /// line's index.
    fn nearest(v: f32, lines: std::ops::RangeInclusive<i32>) -> (f32, i32) {
        lines
            .map(|k| ((v - ORIGIN - k as f32 * CELL).abs(), k))
            .fold((f32::MAX, 0), |best, c| if c.0 < best.0 { c } else { best })
    }

    /// A Sudoku of 18-px cells on paper at 190: black box lines, sharp thin column lines,
    /// thin row lines blurred across (a Gaussian valley, σ 3 px, 16 levels deep: motion blur
    /// along one axis) or, with `row_lines` false, not printed; and in every cell a "0" whose
    /// top and bottom strokes run 4 px from the row lines (digits close to the lines).
    fn small_grid(row_lines: bool) -> GrayImage {
        small_grid_with_row_lines(if row_lines { 16.0 } else { 0.0 })
    }

    /// [`small_grid`] with its blurred thin row lines `row_line_depth` gray levels deep (0:
    /// not printed).
    fn small_grid_with_row_lines(row_line_depth: f32) -> GrayImage {
        GrayImage::from_fn(250, 250, |x, y| {
            let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
            let side = 9.0 * CELL;
            let inside = |v: f32| (ORIGIN - 2.0..=ORIGIN + side + 2.0).contains(&v);
            let mut v: f32 = 190.0;
            if inside(x) && inside(y) {
                let (dx, kx) = nearest(x, 0..=9);
                let (dy, ky) = nearest(y, 0..=9);
                if (dx < 1.5 && kx % 3 == 0) || (dy < 1.5 && ky % 3 == 0) {
                    v = 40.0;
                } else if dx < 0.75 {
                    v = 110.0;
                } else if ky % 3 != 0 {
                    v -= row_line_depth * (-dy * dy / 18.0).exp();
                }
                // The "0": a ring 6 px wide, 10 px tall, strokes 2 px, centred in its cell.
                let cx = (x - ORIGIN).rem_euclid(CELL) - CELL / 2.0;
                let cy = (y - ORIGIN).rem_euclid(CELL) - CELL / 2.0;
                let in_ring = cx.abs() < 3.0 && cy.abs() < 5.0;
                if in_ring && (cx.abs() >= 1.0 || cy.abs() >= 3.0) && x - ORIGIN < side {
                    v = v.min(60.0);
                }
            }
            Luma([v.round() as u8])
        })
    }

    /// A 3×3 keypad the size of [`small_grid`]: keys of 3 cells with black borders and a
    /// large digit-like blob in each key's centre, no lines inside a key.
    fn keypad() -> GrayImage {
        GrayImage::from_fn(250, 250, |x, y| {
            let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
            let key = 3.0 * CELL;
            let inside = |v: f32| (ORIGIN - 2.0..=ORIGIN + 3.0 * key + 2.0).contains(&v);
            let mut v = 190u8;
            if inside(x) && inside(y) {
                let kx = (x - ORIGIN).rem_euclid(key);
                let ky = (y - ORIGIN).rem_euclid(key);
                let border = |k: f32| k < 1.5 || k > key - 1.5;
                let blob = (kx - key / 2.0).abs() < 8.0 && (ky - key / 2.0).abs() < 12.0;
                if border(kx) || border(ky) {
                    v = 40;
                } else if blob && ((kx - key / 2.0).abs() >= 5.0 || (ky - key / 2.0).abs() >= 9.0) {
                    v = 50;
                } else {
                    v = 205;
                }
            }
            Luma([v])
        })
    }

    #[test]
    fn thin_lines_blurred_across_with_digits_close_by_are_present() {
        let lattice = small_lattice();
        let img = small_grid(true);
        // Measured edge by edge, the digits 4 px off the blurred row lines darken the
        // "paper" beside them as much as the lines themselves…
        let edges = line_contrasts(&img, &lattice).expect("inside");
        assert!(!all_lines_dark(edges, "edges"), "{edges:?}");
        // …the whole line's cross-section still shows every line.
        let profile = profile_contrasts(&img, &lattice, 0.5, f32::NEG_INFINITY).expect("inside");
        assert!(all_lines_dark(profile, "profile"), "{profile:?}");
        assert!(lines_present(&img, &lattice));
    }

    #[test]
    fn light_thin_lines_blurred_away_across_are_measured_against_their_own_kind() {
        let lattice = small_lattice();
        // Row lines only 7 levels deep, beside column lines 80 and box lines 150 deep: a
        // light gray thin line that motion blur softened across. Measured against all 20
        // lines (median: a column line) they looked missing; against the thin row lines
        // they are lines like the others.
        let img = small_grid_with_row_lines(7.0);
        let profile = profile_contrasts(&img, &lattice, 0.5, f32::NEG_INFINITY).expect("inside");
        let mut sorted = profile;
        sorted.sort_by(f32::total_cmp);
        let thin_rows = [1, 2, 4, 5, 7, 8].map(|i| profile[i]);
        assert!(
            thin_rows
                .iter()
                .all(|&c| c >= FAINTEST_LINE && c < 0.2 * sorted[10]),
            "{profile:?}"
        );
        assert!(lines_present(&img, &lattice));
        // Not printed at all, they are still missing.
        assert!(!lines_present(&small_grid_with_row_lines(0.0), &lattice));
    }

    #[test]
    fn missing_thin_lines_and_a_keypad_are_no_lines() {
        let lattice = small_lattice();
        assert!(!lines_present(&small_grid(false), &lattice));
        assert!(!lines_present(&keypad(), &lattice));
    }

    #[test]
    fn thin_lines_of_one_way_stand_in_for_both_only_beside_centred_digits() {
        let lattice = small_lattice();
        // Thin row lines not printed; thin column lines, box lines and a digit in every cell.
        // One way's lines, edge by edge or over the whole cross-section.
        let one_way = |img: &GrayImage| {
            line_contrasts(img, &lattice).is_some_and(|c| one_way_dark(&c, "edges"))
                || profile_contrasts(img, &lattice, 0.5, f32::NEG_INFINITY)
                    .is_some_and(|c| one_way_dark(&c, "profile"))
        };
        let rows_lost = small_grid(false);
        assert!(!lines_present(&rows_lost, &lattice));
        assert!(one_way(&rows_lost));
        assert!(lines_present_or_hidden_by_digits(&rows_lost, &lattice));
        // A keypad's marks may pass for one way's thin lines, but a key holds one mark.
        assert!(!lines_present_or_hidden_by_digits(&keypad(), &lattice));
        // A 10×10 grid of even lines: the 9×9 lattice's inner box lines fall between them.
        let ten = GrayImage::from_fn(250, 250, |x, y| {
            let on_line = |v: u32| {
                let t = (v as f32 + 0.5 - ORIGIN) / (9.0 * CELL / 10.0);
                (-0.05..=10.05).contains(&t) && (t - t.round()).abs() * 9.0 * CELL / 10.0 < 1.0
            };
            Luma([if on_line(x) || on_line(y) { 40 } else { 190 }])
        });
        assert!(!one_way(&ten));
    }

    #[test]
    fn digits_in_the_cells_are_centred_marks_and_a_keypads_keys_are_too_few() {
        let lattice = small_lattice();
        // A "0" in every cell, the row lines not printed (and the column lines drawn).
        assert!(marks_centred_in_cells(&small_grid(false), &lattice));
        // One blob per key: nine marks.
        assert!(!marks_centred_in_cells(&keypad(), &lattice));
        // Blank paper in a frame of box lines: no marks.
        let blank = GrayImage::from_fn(250, 250, |x, y| {
            let on_box_line = |v: u32| (0..=3).any(|k| v.abs_diff(40 + 54 * k) <= 1);
            Luma([if on_box_line(x) || on_box_line(y) {
                40
            } else {
                190
            }])
        });
        assert!(!marks_centred_in_cells(&blank, &lattice));
        // The lattice half a cell off the digits: each cell's middle is between two of them.
        let off = lattice.map(|q| Point::new(q.x + CELL / 2.0, q.y + CELL / 2.0));
        assert!(!marks_centred_in_cells(&small_grid(false), &off));
    }

    /// A Sudoku of 18-px cells on paper at 190 with black box lines, thin lines 40 levels
    /// deep at the lattice's column positions offset by `column_shift` cells (0: on the
    /// lattice, 0.5: half a cell off) and, with `finer`, a thin line on every half-way line
    /// too, both ways; and with `tall_digits`, a "1" in every cell: a bar 2 px wide and 13 px
    /// tall through the cell's middle (a finished grid's tall digits in small cells).
    fn half_way_grid(column_shift: f32, finer: bool, tall_digits: bool) -> GrayImage {
        GrayImage::from_fn(250, 250, |x, y| {
            let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
            let side = 9.0 * CELL;
            let inside = |v: f32| (ORIGIN - 2.0..=ORIGIN + side + 2.0).contains(&v);
            if !(inside(x) && inside(y)) {
                return Luma([190]);
            }
            let (dx, kx) = nearest(x, 0..=9);
            let (dy, ky) = nearest(y, 0..=9);
            let near_half = |v: f32| (((v - ORIGIN) / CELL).fract() - 0.5).abs() * CELL < 0.75;
            let column_line = ((x - ORIGIN) / CELL - column_shift).rem_euclid(1.0) * CELL;
            let mut v = 190u8;
            if (dx < 1.5 && kx % 3 == 0) || (dy < 1.5 && ky % 3 == 0) {
                v = 40;
            } else if dy < 0.75
                || !(0.75..=CELL - 0.75).contains(&column_line)
                || (finer && (near_half(x) || near_half(y)))
            {
                v = 150;
            }
            let cx = (x - ORIGIN).rem_euclid(CELL) - CELL / 2.0;
            let cy = (y - ORIGIN).rem_euclid(CELL) - CELL / 2.0;
            if tall_digits && cx.abs() < 1.0 && cy.abs() < 6.5 {
                v = v.min(60);
            }
            Luma([v])
        })
    }

    #[test]
    fn tall_digits_darken_half_way_lines_one_way_and_a_finer_grid_both_ways() {
        let lattice = small_lattice();
        // Tall digits: the half-way lines along the columns run through them along most of
        // their length, and are as dark as lines where they are lightest…
        let tall = half_way_grid(0.0, false, true);
        let halves = half_way_contrasts(&tall, &lattice, 0.8).expect("inside");
        assert!(halves[9..].iter().all(|&c| c >= 20.0), "{halves:?}");
        assert!(halves[..9].iter().all(|&c| c < 3.0), "{halves:?}");
        // …but only one way, with that way's thin lattice lines printed: digits, not lines.
        assert!(half_way_lines_clear(&tall, &lattice));
        // A finer grid has lines on the half-way lines both ways.
        assert!(!half_way_lines_clear(
            &half_way_grid(0.0, true, false),
            &lattice
        ));
        assert!(!half_way_lines_clear(
            &half_way_grid(0.0, true, true),
            &lattice
        ));
        // Column lines half a cell off the lattice: its half-way lines along the columns are
        // lines, and its own thin column lines are not.
        assert!(!half_way_lines_clear(
            &half_way_grid(0.5, false, false),
            &lattice
        ));
    }

    #[test]
    fn valley_finds_a_line_too_faint_for_the_mask_and_nothing_on_blank_paper() {
        let p = Point::new(40.0, 35.0);
        let along = Point::new(1.0, 0.0);
        // The normal of `along` points down (y increasing): the line at y = 40..41 is 5 to
        // 6 px below.
        let t = valley(&paper_with_line(40, 9), p, along, -15.0, 15.0, 8.0).expect("line");
        assert!((5.0..=6.0).contains(&t), "{t}");
        assert_eq!(
            valley(&paper_with_line(40, 3), p, along, -15.0, 15.0, 8.0),
            None
        );
        assert_eq!(
            valley(&paper_with_line(60, 9), p, along, -15.0, 15.0, 8.0),
            None
        );
    }
}
