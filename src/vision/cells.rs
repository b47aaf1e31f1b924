//! Grid outlines from the cell holes: the 81 white squares enclosed by the grid lines.
//!
//! When the grid's outer contour merges with a shadow, the page edge or other print, its
//! outline says little about the grid; the cells inside are still separate holes of the ink
//! mask, of one size and laid out on a lattice. [`quads_from_holes`] keeps the holes of the
//! commonest size, walks from one to its neighbours one cell away to give each a (row,
//! column) index, and fits a homography from those indices to the hole centres; the grid's
//! outline is that homography applied to the unit square. A walk that strays a few holes
//! into other print beside the grid is cut to the 9×9 window holding most of them.
//! Working-image pixels; knows nothing of refinement or validation (see `detect`).

use std::collections::{HashMap, VecDeque};

use imageproc::contours::{BorderType, Contour};

use super::geometry::polygon_area;
use super::{Homography, Point};

/// One hole of the ink mask that could be a cell.
#[derive(Clone, Copy, Debug)]
struct Hole {
    centre: Point,
    /// Square root of the enclosed area, pixels.
    side: f32,
}

fn hole_of(contour: &Contour<i32>, min_cell_px: f32, max_cell_px: f32) -> Option<Hole> {
    if contour.border_type != BorderType::Hole || contour.points.len() < 8 {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    let (mut sx, mut sy) = (0.0f32, 0.0f32);
    for p in &contour.points {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
        sx += p.x as f32;
        sy += p.y as f32;
    }
    let (w, h) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    if w.min(h) < min_cell_px || w.max(h) > 1.5 * max_cell_px || w > 2.5 * h || h > 2.5 * w {
        return None;
    }
    let outline: Vec<Point> = contour
        .points
        .iter()
        .map(|p| Point::new(p.x as f32, p.y as f32))
        .collect();
    let area = polygon_area(&outline);
    // A square cell fills its box (half of it when turned by 45°); letters and blobs don't.
    if area < 0.3 * w * h {
        return None;
    }
    let n = outline.len() as f32;
    Some(Hole {
        centre: Point::new(sx / n, sy / n),
        side: area.sqrt(),
    })
}

/// Which holes of the grid [`quads_from_holes`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Holes {
    /// The 81 cells (9 a side), at least 20 of them lined up.
    Cells,
    /// The 9 boxes (3 a side), at least 6 of them lined up: a blurred or small grid whose
    /// thin lines the ink mask lost still has its heavy box lines, and the boxes are then its
    /// holes.
    Boxes,
}

impl Holes {
    /// Holes along one side of the grid.
    fn per_side(self) -> i32 {
        match self {
            Holes::Cells => 9,
            Holes::Boxes => 3,
        }
    }

    /// How many seeds [`quads_from_holes`] walks from before it gives up: a walk that indexes
    /// more rows or columns than the grid has (holes of a larger lattice, two grids touching:
    /// not one Sudoku), or too few holes, is not kept. Twenty cells lining up is strong
    /// evidence however the walk began; six box-sized holes are not (blobs of a grid whose
    /// lines are all one weight line up too), so boxes get one seed.
    fn seeds(self) -> usize {
        match self {
            Holes::Cells => 4,
            Holes::Boxes => 1,
        }
    }

    /// Fewest holes that must line up.
    fn least(self) -> usize {
        match self {
            Holes::Cells => 20,
            Holes::Boxes => 6,
        }
    }
}

/// Candidate grid outlines (corners in contour order, not yet TL-first) from the cell (or box)
/// holes among `contours` (other contours are ignored); one per way of placing the indexed
/// holes inside the grid when fewer rows or columns of holes than the grid has were found.
/// Empty when too few holes line up ([`Holes::least`]).
pub(crate) fn quads_from_holes<'a>(
    contours: impl IntoIterator<Item = &'a Contour<i32>>,
    kind: Holes,
    min_grid_side_px: f32,
    max_grid_side_px: f32,
) -> Vec<[Point; 4]> {
    let n = kind.per_side();
    let holes: Vec<Hole> = contours
        .into_iter()
        .filter_map(|c| {
            hole_of(
                c,
                0.7 * min_grid_side_px / n as f32,
                max_grid_side_px / n as f32,
            )
        })
        .collect();
    if holes.len() < kind.least() {
        return Vec::new();
    }
    // The commonest cell size: the hole with most others within ±25 % of its side.
    let Some(mode) = holes
        .iter()
        .map(|h| {
            let similar = holes
                .iter()
                .filter(|o| (o.side / h.side - 1.0).abs() < 0.25)
                .count();
            (similar, h.side)
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .map(|(_, side)| side)
    else {
        return Vec::new();
    };
    let cells: Vec<Hole> = holes
        .into_iter()
        .filter(|h| (h.side / mode - 1.0).abs() < 0.45)
        .collect();
    if cells.len() < kind.least() {
        tracing::trace!(holes = cells.len(), mode, ?kind, "too few holes");
        return Vec::new();
    }
    let mean = Point::new(
        cells.iter().map(|h| h.centre.x).sum::<f32>() / cells.len() as f32,
        cells.iter().map(|h| h.centre.y).sum::<f32>() / cells.len() as f32,
    );
    // The walk starts from a hole of the commonest size near the middle. A seed whose axes
    // come out wrong (two cells merged by a digit touching the line between them lie half a
    // cell off the lattice) indexes every other row; the next seed then starts afresh.
    let mut seeds: Vec<usize> = (0..cells.len())
        .filter(|&k| (cells[k].side / mode - 1.0).abs() < 0.2)
        .collect();
    seeds.sort_by(|&a, &b| {
        cells[a]
            .centre
            .distance(mean)
            .total_cmp(&cells[b].centre.distance(mean))
    });
    let Some(index) = seeds
        .into_iter()
        .take(kind.seeds())
        .filter_map(|seed| {
            let (u, v) = axes_at(&cells, seed)?;
            let walked = walk(&cells, seed, u, v, n);
            tracing::trace!(holes = cells.len(), indexed = walked.len(), ?kind, "holes");
            let index = match kind {
                Holes::Cells => within_one_grid(walked, n)?,
                Holes::Boxes => walked,
            };
            let (i0, i1, j0, j1) = bounds(&index);
            (index.len() >= kind.least() && i1 - i0 < n && j1 - j0 < n).then_some(index)
        })
        .next()
    else {
        return Vec::new();
    };
    let (i0, i1, j0, j1) = bounds(&index);
    if kind == Holes::Boxes && (i1 - i0 < n - 1 || j1 - j0 < n - 1) {
        // Boxes must span the grid: two rows or columns of box-sized holes are everywhere
        // (table cells, keys, windows), and each way of placing them would be one more
        // candidate to refine in every frame that holds no grid.
        return Vec::new();
    }
    let mut quads = Vec::new();
    for top in (i1 - (n - 1))..=i0 {
        for left in (j1 - (n - 1))..=j0 {
            let (src, dst): (Vec<Point>, Vec<Point>) = index
                .iter()
                .map(|(&(i, j), &k)| {
                    (
                        Point::new(
                            ((j - left) as f32 + 0.5) / n as f32,
                            ((i - top) as f32 + 0.5) / n as f32,
                        ),
                        cells[k].centre,
                    )
                })
                .unzip();
            let Some(h) = Homography::fit(&src, &dst) else {
                continue;
            };
            let quad = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
                .map(|(x, y)| h.apply(Point::new(x, y)));
            if quad.iter().all(|p| p.is_finite()) {
                quads.push(quad);
            }
        }
    }
    quads
}

/// Most holes a walk may index beyond the `n`×`n` window that holds most of them, per ten
/// inside it, for the window to be taken as the grid.
const STRAY_HOLES_PER_TEN: usize = 1;

/// `index` cut to one grid: as it is when it spans at most `n` rows and columns; else the
/// `n`×`n` window holding most of its holes, when at most [`STRAY_HOLES_PER_TEN`] per ten
/// lie outside (a few cell-sized holes of other print reached by the walk: a small printed
/// solution or a table's cells under the grid); `None` when more do (the holes of a larger
/// lattice, a crossword, or two grids side by side: not one Sudoku).
fn within_one_grid(
    index: HashMap<(i32, i32), usize>,
    n: i32,
) -> Option<HashMap<(i32, i32), usize>> {
    let (i0, i1, j0, j1) = bounds(&index);
    if i1 - i0 < n && j1 - j0 < n {
        return Some(index);
    }
    let holes_in = |top: i32, left: i32| {
        index
            .keys()
            .filter(|&&(i, j)| (top..top + n).contains(&i) && (left..left + n).contains(&j))
            .count()
    };
    let (mut best, mut at) = (0, (i0, j0));
    for top in i0..=(i1 - (n - 1)).max(i0) {
        for left in j0..=(j1 - (n - 1)).max(j0) {
            let count = holes_in(top, left);
            if count > best {
                (best, at) = (count, (top, left));
            }
        }
    }
    let strays = index.len() - best;
    if strays * 10 > STRAY_HOLES_PER_TEN * best {
        return None;
    }
    let (top, left) = at;
    Some(
        index
            .into_iter()
            .filter(|&((i, j), _)| (top..top + n).contains(&i) && (left..left + n).contains(&j))
            .collect(),
    )
}

/// The least and greatest row and column of an indexing: `(i0, i1, j0, j1)`.
fn bounds(index: &HashMap<(i32, i32), usize>) -> (i32, i32, i32, i32) {
    let (mut i0, mut i1, mut j0, mut j1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for &(i, j) in index.keys() {
        i0 = i0.min(i);
        i1 = i1.max(i);
        j0 = j0.min(j);
        j1 = j1.max(j);
    }
    (i0, i1, j0, j1)
}

/// The two lattice steps at `seed`: the displacement to its nearest cell-sized neighbour, and
/// to the nearest one roughly perpendicular to that.
fn axes_at(cells: &[Hole], seed: usize) -> Option<(Point, Point)> {
    let here = cells[seed].centre;
    let side = cells[seed].side;
    // Only holes of the seed's size: a merged pair of cells is centred half a cell off.
    let mut near: Vec<Point> = cells
        .iter()
        .filter(|h| (h.side / side - 1.0).abs() < 0.2)
        .map(|h| h.centre - here)
        .filter(|d| (0.6 * side..1.8 * side).contains(&d.length()))
        .collect();
    near.sort_by(|a, b| a.length().total_cmp(&b.length()));
    let u = *near.first()?;
    let v = near
        .iter()
        .copied()
        .find(|d| ((d.x * u.x + d.y * u.y) / (d.length() * u.length())).abs() < 0.5)?;
    Some((u, v))
}

/// Breadth-first walk from `seed` to neighbours one step `±u` or `±v` away (each step
/// re-estimated from the last cell, so perspective is followed), at most `n` steps from it.
/// Returns (row, col) → cell.
fn walk(cells: &[Hole], seed: usize, u: Point, v: Point, n: i32) -> HashMap<(i32, i32), usize> {
    let mut index: HashMap<(i32, i32), usize> = HashMap::new();
    let mut taken = vec![false; cells.len()];
    let mut queue = VecDeque::new();
    index.insert((0, 0), seed);
    taken[seed] = true;
    queue.push_back((seed, 0i32, 0i32, u, v));
    while let Some((k, i, j, u, v)) = queue.pop_front() {
        let here = cells[k].centre;
        // One step along either axis, or two (over a cell whose hole a digit touching the
        // lines broke), or diagonally.
        let steps = [
            (0, 1, u),
            (0, -1, u.scaled(-1.0)),
            (1, 0, v),
            (-1, 0, v.scaled(-1.0)),
            (0, 2, u.scaled(2.0)),
            (0, -2, u.scaled(-2.0)),
            (2, 0, v.scaled(2.0)),
            (-2, 0, v.scaled(-2.0)),
            (1, 1, u + v),
            (1, -1, v - u),
            (-1, 1, u - v),
            (-1, -1, (u + v).scaled(-1.0)),
        ];
        for (di, dj, step) in steps {
            let key = (i + di, j + dj);
            if index.contains_key(&key) || key.0.abs() > n || key.1.abs() > n {
                continue;
            }
            let want = here + step;
            let Some(next) = (0..cells.len())
                .filter(|&o| !taken[o])
                .min_by(|&a, &b| {
                    cells[a]
                        .centre
                        .distance(want)
                        .total_cmp(&cells[b].centre.distance(want))
                })
                .filter(|&o| cells[o].centre.distance(want) < 0.3 * u.length().min(v.length()))
            else {
                continue;
            };
            taken[next] = true;
            index.insert(key, next);
            let moved = cells[next].centre - here;
            // Re-estimate the axis stepped along (straight steps only).
            let (nu, nv) = match (di, dj) {
                (0, k) => (moved.scaled(1.0 / k as f32), v),
                (k, 0) => (u, moved.scaled(1.0 / k as f32)),
                _ => (u, v),
            };
            queue.push_back((next, key.0, key.1, nu, nv));
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hole(x: f32, y: f32, side: f32) -> Hole {
        Hole {
            centre: Point::new(x, y),
            side,
        }
    }

    /// A walk over a grid's cells that reached a few holes of a small printed solution under
    /// it is cut to the grid; a larger lattice of holes is not taken for one grid.
    #[test]
    fn a_few_stray_holes_beside_the_grid_are_cut_off_but_a_larger_lattice_is_none() {
        let n = 9;
        let grid = |rows: std::ops::Range<i32>, cols: std::ops::Range<i32>| {
            let mut index = HashMap::new();
            for i in rows {
                for j in cols.clone() {
                    index.insert((i, j), index.len());
                }
            }
            index
        };
        // 81 cells from (-4, -4), and five cell-sized holes of a small printed solution
        // reached below the grid's bottom-left.
        let mut index = grid(-4..5, -4..5);
        for (k, key) in [(5, -4), (5, -3), (6, -4), (6, -3), (7, -4)]
            .into_iter()
            .enumerate()
        {
            index.insert(key, 100 + k);
        }
        let cut = within_one_grid(index, n).expect("the grid");
        assert_eq!(cut.len(), 81);
        assert_eq!(bounds(&cut), (-4, 4, -4, 4));
        // A 9×9 walk is kept as it is; 12×12 holes (a crossword) and two grids side by side
        // are not one Sudoku.
        assert_eq!(
            within_one_grid(grid(0..9, 0..9), n).map(|c| c.len()),
            Some(81)
        );
        assert!(within_one_grid(grid(0..12, 0..12), n).is_none());
        assert!(within_one_grid(grid(0..9, 0..19), n).is_none());
        // Eight strays per 81 are allowed; a tenth row of nine cells is a larger lattice.
        let mut strays = grid(0..9, 0..9);
        for j in 0..8 {
            strays.insert((9, j), 200 + j as usize);
        }
        assert!(within_one_grid(strays.clone(), n).is_some());
        strays.insert((9, 8), 300);
        assert!(within_one_grid(strays, n).is_none());
    }

    /// A webcam frame of a printed page (seen on `synth print --camera webcam`): two cells
    /// above-left of the seed merged into one hole by a digit touching the line between them.
    /// Its centre lies half a cell off the lattice, nearer than the seed's true upper
    /// neighbour under this perspective; taken as an axis it made the walk index every other
    /// row, and the grid went unfound.
    #[test]
    fn a_merged_pair_of_cells_is_no_lattice_step() {
        let cells = [
            hole(226.0, 226.0, 31.3),
            hole(194.0, 231.3, 30.2), // left
            hole(205.5, 197.7, 42.7), // two merged cells, half a cell off
            hole(220.0, 190.5, 30.5), // up, under perspective
            hole(258.4, 220.8, 30.8), // right
            hole(232.0, 261.5, 30.6), // down
        ];
        let (u, v) = axes_at(&cells, 0).expect("axes");
        assert!((u - Point::new(-32.0, 5.3)).length() < 0.5, "u = {u:?}");
        assert!((v - Point::new(-6.0, -35.5)).length() < 0.5, "v = {v:?}");
    }
}
