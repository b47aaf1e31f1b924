//! Lattice refinement: moves each intersection of a candidate's predicted lattice onto the two
//! grid lines found through it (line search on the ink mask, optionally gray-level valleys),
//! predicts unfound points from their neighbours, lets `smooth` put strays back, and keeps a
//! curled page's inked corner over where its border lines meet.
//!
//! Owns how a lattice follows the printed lines; whether the result is a Sudoku grid is
//! `validate`'s business.

use image::GrayImage;

use super::threshold::ink_at;
use super::validate::edge_coverage;
use crate::vision::{Lattice, Line, Point, faint, smooth};

/// Searches for a grid line through (near) `p` running along `dir`: tries offsets
/// `t ∈ [-reach, reach]` along the normal, scoring the share of ink on the segment
/// `p + t·n + s·dir, s ∈ [s0, s1]`. Returns the offset (centre of the best plateau) and the
/// best share.
fn search_line(mask: &GrayImage, p: Point, dir: Point, s0: f32, s1: f32, reach: f32) -> (f32, f32) {
    let n = Point::new(-dir.y, dir.x);
    // Bounded whatever the lattice: a degenerate candidate must not cost seconds.
    let steps = reach.ceil().clamp(1.0, 64.0) as i32;
    let samples = ((s1 - s0).abs().ceil() as i32).clamp(2, 256);
    // The same sample offsets along the line at every normal offset: computed once.
    let along: Vec<(f32, f32)> = (0..=samples)
        .map(|i| {
            let s = s0 + (s1 - s0) * i as f32 / samples as f32;
            (s * dir.x, s * dir.y)
        })
        .collect();
    let mut scores = Vec::with_capacity((2 * steps + 1) as usize);
    for k in -steps..=steps {
        let t = k as f32;
        let base = Point::new(p.x + t * n.x, p.y + t * n.y);
        let hits = along
            .iter()
            .filter(|(dx, dy)| ink_at(mask, Point::new(base.x + dx, base.y + dy)))
            .count();
        scores.push(hits as f32 / (samples + 1) as f32);
    }
    let Some(&top) = scores.iter().max_by(|a, b| a.total_cmp(b)) else {
        return (0.0, 0.0);
    };
    // The line nearest the prediction, not the strongest ink in reach: a hatched band or a
    // parallel rule beside the border often has more ink than a thin border line.
    let strong = (0.6 * top).max(LINE_FOUND);
    let centre = steps as usize;
    let best_k = (0..scores.len())
        .filter(|&k| {
            scores[k] >= strong
                && (k == 0 || scores[k] >= scores[k - 1])
                && (k + 1 == scores.len() || scores[k] >= scores[k + 1])
        })
        .min_by_key(|&k| k.abs_diff(centre))
        .unwrap_or_else(|| {
            (0..scores.len())
                .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
                .unwrap_or(centre)
        });
    let best = scores[best_k];
    // Centre of the plateau around the peak: thick lines give their middle.
    let floor = best * 0.75;
    let (mut lo, mut hi) = (best_k, best_k);
    while lo > 0 && scores[lo - 1] >= floor {
        lo -= 1;
    }
    while hi + 1 < scores.len() && scores[hi + 1] >= floor {
        hi += 1;
    }
    let (mut wsum, mut tsum) = (0.0f32, 0.0f32);
    for (k, &s) in scores.iter().enumerate().take(hi + 1).skip(lo) {
        wsum += s;
        tsum += s * (k as f32 - steps as f32);
    }
    let offset = if wsum > 0.0 { tsum / wsum } else { 0.0 };
    (offset, best)
}

/// Share of ink needed on a search segment to accept a line there.
const LINE_FOUND: f32 = 0.45;

/// One refinement pass: moves every intersection onto the two grid lines found near it.
/// `reach_cells` bounds the move, in cell sides. Returns the new lattice and, per point,
/// whether both lines were found.
fn refine_pass(
    mask: &GrayImage,
    gray: Option<&GrayImage>,
    lattice: &Lattice,
    reach_cells: f32,
) -> (Lattice, [[bool; 10]; 10]) {
    let p = &lattice.points_in_image;
    let mut out = *lattice;
    let mut found = [[false; 10]; 10];
    for r in 0..10 {
        for c in 0..10 {
            let here = p[r][c];
            let (cl, cr) = (c.saturating_sub(1), (c + 1).min(9));
            let (ru, rd) = (r.saturating_sub(1), (r + 1).min(9));
            let along_row = Point::new(p[r][cr].x - p[r][cl].x, p[r][cr].y - p[r][cl].y);
            let along_col = Point::new(p[rd][c].x - p[ru][c].x, p[rd][c].y - p[ru][c].y);
            let cell_row = (along_row.x.hypot(along_row.y) / (cr - cl) as f32).max(1.0);
            let cell_col = (along_col.x.hypot(along_col.y) / (rd - ru) as f32).max(1.0);
            let (dr, dc) = (along_row.unit(), along_col.unit());
            // Segments reach 0.45 cell along the line, only inwards at the outer lines.
            let span = |idx: usize, len: f32| -> (f32, f32) {
                let l = 0.45 * len;
                match idx {
                    0 => (0.0, l),
                    9 => (-l, 0.0),
                    _ => (-l, l),
                }
            };
            // A line the ink mask lost (in a shadow's edge, the box mean is dark too) can
            // still be a dark valley in the gray levels.
            let search = |dir: Point, (s0, s1): (f32, f32), reach: f32| {
                let (off, score) = search_line(mask, here, dir, s0, s1, reach);
                match gray.filter(|_| score < LINE_FOUND) {
                    Some(g) => faint::valley(g, here, dir, s0, s1, reach)
                        .map_or((off, score), |o| (o, LINE_FOUND)),
                    None => (off, score),
                }
            };
            let (h_off, h_score) = search(dr, span(c, cell_row), reach_cells * cell_col);
            let (v_off, v_score) = search(dc, span(r, cell_col), reach_cells * cell_row);
            let nh = Point::new(-dr.y, dr.x);
            let nv = Point::new(-dc.y, dc.x);
            let h_line = Line::through(
                Point::new(here.x + h_off * nh.x, here.y + h_off * nh.y),
                Point::new(here.x + h_off * nh.x + dr.x, here.y + h_off * nh.y + dr.y),
            );
            let v_line = Line::through(
                Point::new(here.x + v_off * nv.x, here.y + v_off * nv.y),
                Point::new(here.x + v_off * nv.x + dc.x, here.y + v_off * nv.y + dc.y),
            );
            let ok_h = h_score >= LINE_FOUND;
            let ok_v = v_score >= LINE_FOUND;
            found[r][c] = ok_h && ok_v;
            let moved = match (h_line, v_line) {
                (Some(a), Some(b)) if ok_h && ok_v => a.intersect(&b),
                _ => None,
            };
            if let Some(m) = moved {
                out.points_in_image[r][c] = m;
            } else {
                // Move only along the line that was found.
                let mut q = here;
                if ok_h {
                    q = Point::new(q.x + h_off * nh.x, q.y + h_off * nh.y);
                }
                if ok_v {
                    q = Point::new(q.x + v_off * nv.x, q.y + v_off * nv.y);
                }
                out.points_in_image[r][c] = q;
            }
        }
    }
    (out, found)
}

/// Replaces points whose lines were not found by the prediction from their neighbours.
fn fill_unfound(lattice: &mut Lattice, found: &[[bool; 10]; 10]) {
    let p = lattice.points_in_image;
    for r in 0..10 {
        for c in 0..10 {
            if found[r][c] {
                continue;
            }
            let mut preds = Vec::new();
            // Linear extrapolation along rows and columns from found neighbours.
            let pairs: [(isize, isize); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
            for (dr, dc) in pairs {
                let (r1, c1) = (r as isize + dr, c as isize + dc);
                let (r2, c2) = (r as isize + 2 * dr, c as isize + 2 * dc);
                if (0..10).contains(&r2) && (0..10).contains(&c2) {
                    let (r1, c1, r2, c2) = (r1 as usize, c1 as usize, r2 as usize, c2 as usize);
                    if found[r1][c1] && found[r2][c2] {
                        let (a, b) = (p[r1][c1], p[r2][c2]);
                        preds.push(Point::new(2.0 * a.x - b.x, 2.0 * a.y - b.y));
                    }
                }
            }
            if !preds.is_empty() {
                let n = preds.len() as f32;
                lattice.points_in_image[r][c] = Point::new(
                    preds.iter().map(|q| q.x).sum::<f32>() / n,
                    preds.iter().map(|q| q.y).sum::<f32>() / n,
                );
            }
        }
    }
}

/// Refines every intersection of `initial` onto the ink lines near it (two passes: wide, then
/// narrow with local directions from the first pass).
pub(super) fn refine_lattice(
    mask: &GrayImage,
    gray: Option<&GrayImage>,
    initial: &Lattice,
) -> Lattice {
    refine_lattice_counted(mask, gray, initial).0
}

/// [`refine_lattice`], also saying whether some line search failed on the way (with the
/// mask alone: whether the gray levels could add anything).
pub(super) fn refine_lattice_counted(
    mask: &GrayImage,
    gray: Option<&GrayImage>,
    initial: &Lattice,
) -> (Lattice, bool) {
    let mut lattice = *initial;
    let mut missed = false;
    // Two rounds: points that found no line, or strayed, are predicted from the rest by the
    // smoothness repairs, and the second round can then lock them onto their lines.
    for (wide, narrow) in [(0.3, 0.15), (0.2, 0.1)] {
        let (mut next, found) = refine_pass(mask, gray, &lattice, wide);
        missed |= found.iter().flatten().any(|f| !f);
        fill_unfound(&mut next, &found);
        let (mut next, found) = refine_pass(mask, gray, &next, narrow);
        fill_unfound(&mut next, &found);
        let unfound = found.iter().flatten().filter(|f| !**f).count();
        missed |= unfound > 0;
        let (next, moved_lines) = smooth::repair_along_lines(&next);
        let (next, moved_surface) = smooth::repair_outliers(&next);
        lattice = next;
        if unfound + moved_lines + moved_surface == 0 {
            // Every point sits on its lines and nothing strayed: a second round would not
            // move anything.
            break;
        }
    }
    let (repaired, _) = smooth::repair_corners(&lattice);
    (keep_inked_corners(mask, &lattice, repaired), missed)
}

/// The corners of `repaired` (moved to where their border lines meet), except where the
/// corner of `refined` is clearly the inked one. A corner far from where its two border
/// lines meet is either a stray (locked onto print beside the grid) or the real corner of a
/// curled page. It stays only when ink runs the whole way along both its border edges and
/// not along one of those from the meeting point (print beside the grid often inks both).
fn keep_inked_corners(mask: &GrayImage, refined: &Lattice, mut repaired: Lattice) -> Lattice {
    let p = &refined.points_in_image;
    for (r, c, rn, cn) in [(0, 0, 1, 1), (0, 9, 1, 8), (9, 9, 8, 8), (9, 0, 8, 1)] {
        let weakest =
            |q: Point| edge_coverage(mask, q, p[r][cn]).min(edge_coverage(mask, q, p[rn][c]));
        if weakest(p[r][c]) >= 0.9 && weakest(repaired.points_in_image[r][c]) < 0.6 {
            repaired.points_in_image[r][c] = p[r][c];
        }
    }
    repaired
}

#[cfg(test)]
mod tests {
    use super::super::put_line;
    use super::*;

    #[test]
    fn keeps_an_inked_curled_corner_and_drops_a_stray_one() {
        // The page curls up at the bottom-right: the bottom border's last cell bends up to
        // (500, 395), a third of a cell above where the straight border lines meet.
        let straight = Lattice::from_corners([
            Point::new(150.0, 60.0),
            Point::new(500.0, 60.0),
            Point::new(500.0, 410.0),
            Point::new(150.0, 410.0),
        ]);
        let mut curled = straight;
        curled.points_in_image[9][9] = Point::new(500.0, 395.0);
        let meet = straight; // the straight lines meet at (500, 410)
        let p = curled.points_in_image;
        let mut img = GrayImage::new(640, 480);
        put_line(&mut img, p[9][8], p[9][9], 2.0, 255);
        put_line(&mut img, p[8][9], p[9][9], 2.0, 255);
        let kept = keep_inked_corners(&img, &curled, meet);
        assert_eq!(kept.points_in_image[9][9], p[9][9]);
        // Print beside the grid inks the edges from where the lines meet as well: the
        // meeting point wins.
        put_line(&mut img, p[9][8], meet.points_in_image[9][9], 2.0, 255);
        put_line(&mut img, p[8][9], meet.points_in_image[9][9], 2.0, 255);
        let moved = keep_inked_corners(&img, &curled, meet);
        assert_eq!(moved.points_in_image[9][9], meet.points_in_image[9][9]);
        // The other corners were not in doubt.
        assert_eq!(moved.points_in_image[0][0], meet.points_in_image[0][0]);
    }
}
