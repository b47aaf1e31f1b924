//! The glyph of a cell's patch: which ink samples belong to the digit, as opposed to grid-line
//! remnants, a neighbour's ink, corner marks or specks. Pure arithmetic over a boolean
//! `n`×`n` mask (row-major); the sampling and the measures are `ink`'s.

/// Clears the rows and columns of the patch's outer fifth that are mostly ink: a grid line
/// the lattice put inside the cell (a glyph touching it would otherwise grow by the line).
pub(super) fn clear_line_remnants(on: &mut [bool], n: usize) {
    let band = n / 5;
    let full = n * 6 / 10;
    let outer = |k: usize| k < band || k >= n - band;
    for k in (0..n).filter(|&k| outer(k)) {
        if (0..n).filter(|&x| on[k * n + x]).count() >= full {
            (0..n).for_each(|x| on[k * n + x] = false);
        }
        if (0..n).filter(|&y| on[y * n + k]).count() >= full {
            (0..n).for_each(|y| on[y * n + k] = false);
        }
    }
}

/// The glyph among the ink samples `on` of an `n`×`n` patch: the 8-connected components
/// that are not grid-line remnants (long thin runs along the patch border) nor specks,
/// keeping those that reach the patch's middle half, or are large without touching the patch
/// border. A component that touches the border and misses the middle is a neighbour's ink or
/// what a slanted or bent grid line leaves in a corner of the cell (a curled page's edge
/// cells); kept, it stretched the glyph's box and spoiled its shape.
pub(super) fn glyph_mask(on: &[bool], n: usize) -> Vec<bool> {
    // The components are found as runs of ink along each row, joined by union-find where two
    // runs of neighbouring rows touch (diagonals included): a few dozen runs per patch rather
    // than a flood over every ink sample and its eight neighbours.
    let runs = ink_runs(on, n);
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    let mut row = 0;
    for (b, run) in runs.iter().enumerate() {
        // Runs are in row order: skip to the first run of the row above this one.
        while runs[row].y + 1 < run.y {
            row += 1;
        }
        for (a, above) in runs.iter().enumerate().take(b).skip(row) {
            if above.y + 1 == run.y && above.x0 <= run.x1 + 1 && run.x0 <= above.x1 + 1 {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    // Per component (indexed by its root run): size, box, and whether it reaches the middle.
    let quarter = n / 4;
    let mut parts: Vec<Option<Part>> = vec![None; runs.len()];
    let roots: Vec<usize> = (0..runs.len()).map(|i| root(&mut parent, i)).collect();
    for (run, &r) in runs.iter().zip(&roots) {
        let central =
            run.y >= quarter && run.y < n - quarter && run.x0 < n - quarter && run.x1 >= quarter;
        let part = parts[r].get_or_insert(Part {
            size: 0,
            x0: run.x0,
            x1: run.x1,
            y0: run.y,
            y1: run.y,
            central: false,
        });
        part.size += run.x1 + 1 - run.x0;
        part.x0 = part.x0.min(run.x0);
        part.x1 = part.x1.max(run.x1);
        part.y0 = part.y0.min(run.y);
        part.y1 = part.y1.max(run.y);
        part.central |= central;
    }
    let kept: Vec<bool> = parts
        .iter()
        .map(|part| {
            let Some(p) = part else { return false };
            let (w, h) = (p.x1 + 1 - p.x0, p.y1 + 1 - p.y0);
            let touches = p.x0 == 0 || p.y0 == 0 || p.x1 + 1 == n || p.y1 + 1 == n;
            let line_like = touches && (w.max(h) >= n * 6 / 10) && (w.min(h) <= n / 8);
            let speck = p.size < n * n / 400;
            !line_like && !speck && (p.central || (p.size >= n * n / 60 && !touches))
        })
        .collect();
    let mut keep = vec![false; n * n];
    for (run, &r) in runs.iter().zip(&roots) {
        if kept[r] {
            keep[run.y * n + run.x0..=run.y * n + run.x1].fill(true);
        }
    }
    keep
}

/// A run of ink samples along a patch row: columns `x0..=x1` of row `y`.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: usize,
    x0: usize,
    x1: usize,
}

/// An ink component's size (samples), box (inclusive) and whether it reaches the middle half.
#[derive(Clone, Copy, Debug)]
struct Part {
    size: usize,
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
    central: bool,
}

/// The runs of `on` (an `n`×`n` patch), row by row, left to right.
fn ink_runs(on: &[bool], n: usize) -> Vec<Run> {
    let mut runs = Vec::new();
    for (y, row) in on.chunks_exact(n).enumerate() {
        let mut x = 0;
        while x < n {
            if row[x] {
                let x0 = x;
                while x + 1 < n && row[x + 1] {
                    x += 1;
                }
                runs.push(Run { y, x0, x1: x });
            }
            x += 1;
        }
    }
    runs
}

/// The root of `i` in a union-find forest (paths halved on the way).
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::ink::PATCH_SAMPLES;

    #[test]
    fn a_line_remnant_in_a_corner_is_not_the_glyph() {
        // A glyph in the middle of a 64×64 patch, and in the top-left corner what a slanted
        // grid line leaves: a stub down the left side with a spur along the top. It touches
        // the border, misses the middle, and is too wide to look like a thin line.
        let n = PATCH_SAMPLES;
        let mut on = vec![false; n * n];
        for y in 18..46 {
            for x in 28..36 {
                on[y * n + x] = true;
            }
        }
        for y in 0..14 {
            for x in 8..11 {
                on[y * n + x] = true;
            }
        }
        for x in 8..24 {
            for y in 0..3 {
                on[y * n + x] = true;
            }
        }
        let glyph = glyph_mask(&on, n);
        assert!(glyph[30 * n + 30], "the glyph is kept");
        assert!(
            !glyph[5 * n + 9] && !glyph[n + 20],
            "the remnant is dropped"
        );
        // A large blob in the same corner that keeps off the border (a glyph the lattice put
        // off-centre) is kept.
        let mut inner = vec![false; n * n];
        for y in 2..14 {
            for x in 2..14 {
                inner[y * n + x] = true;
            }
        }
        assert!(glyph_mask(&inner, n)[8 * n + 8]);
    }

    /// The glyph rule by the plain definition: an 8-connected flood from every ink sample.
    fn glyph_mask_by_flood(on: &[bool], n: usize) -> Vec<bool> {
        let mut label = vec![0u32; n * n];
        let mut keep = vec![false; n * n];
        let mut next = 0u32;
        for start in 0..n * n {
            if !on[start] || label[start] != 0 {
                continue;
            }
            next += 1;
            let mut members = Vec::new();
            let mut stack = vec![start];
            label[start] = next;
            while let Some(i) = stack.pop() {
                members.push(i);
                let (x, y) = ((i % n) as isize, (i / n) as isize);
                for (dx, dy) in (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (dx, dy))) {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= n as isize || ny >= n as isize {
                        continue;
                    }
                    let j = ny as usize * n + nx as usize;
                    if on[j] && label[j] == 0 {
                        label[j] = next;
                        stack.push(j);
                    }
                }
            }
            let xs = members.iter().map(|i| i % n);
            let ys = members.iter().map(|i| i / n);
            let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
            let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
            let (w, h) = (x1 + 1 - x0, y1 + 1 - y0);
            let touches = x0 == 0 || y0 == 0 || x1 + 1 == n || y1 + 1 == n;
            let line_like = touches && (w.max(h) >= n * 6 / 10) && (w.min(h) <= n / 8);
            let speck = members.len() < n * n / 400;
            let q = n / 4;
            let central = members.iter().any(|&i| {
                let (x, y) = (i % n, i / n);
                x >= q && x < n - q && y >= q && y < n - q
            });
            if !line_like && !speck && (central || (members.len() >= n * n / 60 && !touches)) {
                for &i in &members {
                    keep[i] = true;
                }
            }
        }
        keep
    }

    proptest::proptest! {
        /// Joined runs keep exactly the samples the flood-fill definition keeps, on random
        /// blobs, strokes and specks of ink (diagonal contacts included).
        #[test]
        fn glyph_runs_keep_what_the_flood_keeps(
            n in proptest::sample::select(vec![32usize, 40, 48, 64]),
            density in 0.02f64..0.6,
            seed in proptest::prelude::any::<u64>(),
        ) {
            let mut state = seed | 1;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 53) as f64
            };
            let on: Vec<bool> = (0..n * n).map(|_| next() < density).collect();
            proptest::prop_assert_eq!(glyph_mask(&on, n), glyph_mask_by_flood(&on, n));
        }
    }
}
