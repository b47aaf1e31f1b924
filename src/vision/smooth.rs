//! Smoothness prior for refined lattices: a robust bicubic fit of the 100 intersections.
//!
//! Local refinement moves each intersection onto the ink lines near it, which follows bent
//! paper but sometimes locks onto the wrong ink (a parallel rule beside the border, a digit
//! stroke, the page edge) or finds nothing where the grid leaves the photo. A real grid, even
//! a curved one, is a smooth map from (row, column) to the image; a bicubic polynomial in both
//! indices captures perspective and gentle bending. [`repair_outliers`] fits one while
//! ignoring the worst points and puts back on the surface the points that stray from it.
//! A smooth surface also follows a fold (points near a corner locked onto the next line, each
//! part of the way): [`folded_lattice_unfolded`] finds one against the homography of the rest,
//! which a flat grid's lattice fits closely ([`fits_one_homography`]).
//! Pure numerics on [`Lattice`]; it knows nothing of images.

// Small dense linear algebra over lattice indices reads clearest with index loops.
#![allow(clippy::needless_range_loop)]

use super::geometry::{Homography, solve_linear};
use super::{Lattice, Point};

/// Number of monomials `u^i v^j`, `i, j ≤ 3`.
const TERMS: usize = 16;

fn basis(r: usize, c: usize) -> [f64; TERMS] {
    let (u, v) = (c as f64 / 4.5 - 1.0, r as f64 / 4.5 - 1.0);
    let us = [1.0, u, u * u, u * u * u];
    let vs = [1.0, v, v * v, v * v * v];
    let mut out = [0.0; TERMS];
    for (i, ui) in us.iter().enumerate() {
        for (j, vj) in vs.iter().enumerate() {
            out[4 * i + j] = ui * vj;
        }
    }
    out
}

/// Weighted least-squares bicubic surface through the lattice; `None` when too few points
/// carry weight.
fn fit(lattice: &Lattice, used: &[[bool; 10]; 10]) -> Option<([f64; TERMS], [f64; TERMS])> {
    let mut ata = [[0.0; TERMS]; TERMS];
    let (mut atx, mut aty) = ([0.0; TERMS], [0.0; TERMS]);
    let mut count = 0;
    for r in 0..10 {
        for c in 0..10 {
            if !used[r][c] {
                continue;
            }
            count += 1;
            let p = lattice.points_in_image[r][c];
            let phi = basis(r, c);
            for i in 0..TERMS {
                for j in 0..TERMS {
                    ata[i][j] += phi[i] * phi[j];
                }
                atx[i] += phi[i] * p.x as f64;
                aty[i] += phi[i] * p.y as f64;
            }
        }
    }
    if count < 2 * TERMS {
        return None;
    }
    Some((solve_linear(ata, atx)?, solve_linear(ata, aty)?))
}

fn eval(coef: &([f64; TERMS], [f64; TERMS]), r: usize, c: usize) -> Point {
    let phi = basis(r, c);
    let dot = |w: &[f64; TERMS]| phi.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
    Point::new(dot(&coef.0) as f32, dot(&coef.1) as f32)
}

/// Puts the intersections that stray from the smooth grid surface back onto it.
///
/// The surface is refitted three times without the points farther than three times the
/// median residual (and at least 0.06 cell side); points farther than 0.12 cell side (and
/// three median residuals) from the final fit are replaced by their fitted position. Returns
/// the repaired lattice and how many points were replaced; the lattice is returned unchanged
/// when the fit is degenerate.
pub(crate) fn repair_outliers(lattice: &Lattice) -> (Lattice, usize) {
    let cell = (lattice.mean_side() / 9.0).max(1.0);
    let mut used = [[true; 10]; 10];
    let mut coef = None;
    for _ in 0..3 {
        let Some(c) = fit(lattice, &used) else {
            break;
        };
        let mut residuals = Vec::with_capacity(100);
        for r in 0..10 {
            for col in 0..10 {
                let d = eval(&c, r, col).distance(lattice.points_in_image[r][col]);
                residuals.push(d);
            }
        }
        let mut sorted = residuals.clone();
        sorted.sort_by(f32::total_cmp);
        let limit = (3.0 * sorted[50]).max(0.06 * cell);
        for (i, d) in residuals.iter().enumerate() {
            used[i / 10][i % 10] = *d <= limit;
        }
        coef = Some((c, 3.0 * sorted[50]));
    }
    let Some((c, three_median)) = coef else {
        return (*lattice, 0);
    };
    let mut out = *lattice;
    let mut replaced = 0;
    let limit = three_median.max(0.12 * cell);
    for r in 0..10 {
        for col in 0..10 {
            let fitted = eval(&c, r, col);
            if fitted.is_finite() && fitted.distance(lattice.points_in_image[r][col]) > limit {
                out.points_in_image[r][col] = fitted;
                replaced += 1;
            }
        }
    }
    (out, replaced)
}

/// Least-squares quadratic `a + b·t + c·t²` through `(t, v)` pairs with weight flags.
fn quadratic(ts: &[f64], vs: &[f64], used: &[bool]) -> Option<[f64; 3]> {
    let mut m = [[0.0f64; 3]; 3];
    let mut rhs = [0.0f64; 3];
    let mut n = 0;
    for ((&t, &v), &u) in ts.iter().zip(vs).zip(used) {
        if !u {
            continue;
        }
        n += 1;
        let phi = [1.0, t, t * t];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += phi[i] * phi[j];
            }
            rhs[i] += phi[i] * v;
        }
    }
    if n < 5 {
        return None;
    }
    solve_linear(m, rhs)
}

/// Robust quadratic fit of ten points along one grid line (by index): fitted, then refitted
/// twice without the two points farthest from the previous fit. Returns the fitted points.
fn fit_line_points(points: [Point; 10]) -> Option<[Point; 10]> {
    let ts: Vec<f64> = (0..10).map(|i| i as f64 / 4.5 - 1.0).collect();
    let xs: Vec<f64> = points.iter().map(|p| p.x as f64).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.y as f64).collect();
    let mut used = [true; 10];
    let mut fitted = [Point::default(); 10];
    for round in 0..3 {
        let cx = quadratic(&ts, &xs, &used)?;
        let cy = quadratic(&ts, &ys, &used)?;
        for (i, f) in fitted.iter_mut().enumerate() {
            let t = ts[i];
            *f = Point::new(
                (cx[0] + cx[1] * t + cx[2] * t * t) as f32,
                (cy[0] + cy[1] * t + cy[2] * t * t) as f32,
            );
        }
        if round == 2 {
            break;
        }
        let mut order: Vec<usize> = (0..10).collect();
        order.sort_by(|&a, &b| {
            fitted[b]
                .distance(points[b])
                .total_cmp(&fitted[a].distance(points[a]))
        });
        used = [true; 10];
        for &i in order.iter().take(2 * (round + 1)) {
            used[i] = false;
        }
    }
    Some(fitted)
}

/// Puts back the intersections that stray from both their row line and their column line,
/// each modelled as a robust quadratic through its ten points (one bad point cannot bend it).
/// A point more than 0.1 cell side from both fits is replaced by their mean. Returns the
/// repaired lattice and how many points were replaced.
pub(crate) fn repair_along_lines(lattice: &Lattice) -> (Lattice, usize) {
    let cell = (lattice.mean_side() / 9.0).max(1.0);
    let p = &lattice.points_in_image;
    let mut rows = [[Point::default(); 10]; 10];
    let mut cols = [[Point::default(); 10]; 10];
    for i in 0..10 {
        let Some(r) = fit_line_points(p[i]) else {
            return (*lattice, 0);
        };
        let Some(c) = fit_line_points(std::array::from_fn(|k| p[k][i])) else {
            return (*lattice, 0);
        };
        rows[i] = r;
        for k in 0..10 {
            cols[k][i] = c[k];
        }
    }
    let mut out = *lattice;
    let mut replaced = 0;
    for r in 0..10 {
        for c in 0..10 {
            let (a, b) = (rows[r][c], cols[r][c]);
            let here = p[r][c];
            if here.distance(a) > 0.1 * cell
                && here.distance(b) > 0.1 * cell
                && a.is_finite()
                && b.is_finite()
            {
                out.points_in_image[r][c] = a.lerp(b, 0.5);
                replaced += 1;
            }
        }
    }
    (out, replaced)
}

/// Puts back outer corners that stray from where the border lines meet. Corners are the
/// least constrained points of the lattice (a faint or shadowed border corner leaves
/// refinement nothing to hold on to) and the ones every corner measure depends on. Each
/// border line is modelled by a straight line through its points two to five cells from the
/// corner (skipping the corner's neighbour, which often shares its error); a corner more than
/// 0.15 cell side from the two lines' intersection is moved onto it. Returns the lattice and
/// how many corners moved.
pub(crate) fn repair_corners(lattice: &Lattice) -> (Lattice, usize) {
    use super::Line;
    let cell = (lattice.mean_side() / 9.0).max(1.0);
    let p = &lattice.points_in_image;
    let mut out = *lattice;
    let mut moved = 0;
    for (r, c) in [(0usize, 0usize), (0, 9), (9, 9), (9, 0)] {
        let step = |i: usize| -> usize { if r == 0 { i } else { 9 - i } };
        let step_c = |i: usize| -> usize { if c == 0 { i } else { 9 - i } };
        let along_row: Vec<Point> = (2..=5).map(|i| p[r][step_c(i)]).collect();
        let along_col: Vec<Point> = (2..=5).map(|i| p[step(i)][c]).collect();
        let (Some(row), Some(col)) = (Line::fit(&along_row), Line::fit(&along_col)) else {
            continue;
        };
        let Some(meet) = row.intersect(&col) else {
            continue;
        };
        if meet.is_finite() && meet.distance(p[r][c]) > 0.15 * cell {
            out.points_in_image[r][c] = meet;
            moved += 1;
        }
    }
    (out, moved)
}

/// The homography through most of `lattice`, fitted three times, each without the points
/// farther than two median residuals (and 0.08 cell side) from the last fit: its lattice and
/// each point's distance from it in cell sides (row-major). `None` when the fit is degenerate.
fn homography_of_most(lattice: &Lattice) -> Option<(Lattice, [f32; 100])> {
    let cell = (lattice.mean_side() / 9.0).max(1.0);
    let index: [Point; 100] = std::array::from_fn(|k| Point::new((k % 10) as f32, (k / 10) as f32));
    let image: [Point; 100] = std::array::from_fn(|k| lattice.points_in_image[k / 10][k % 10]);
    let mut used = image.map(|p| p.is_finite());
    let mut residuals = [0.0f32; 100];
    let mut fitted = None;
    for _ in 0..3 {
        let (src, dst): (Vec<Point>, Vec<Point>) = index
            .iter()
            .zip(&image)
            .zip(&used)
            .filter(|(_, u)| **u)
            .map(|((s, d), _)| (*s, *d))
            .unzip();
        let h = Homography::fit(&src, &dst)?;
        for (k, r) in residuals.iter_mut().enumerate() {
            let d = h.apply(index[k]).distance(image[k]) / cell;
            *r = if d.is_finite() { d } else { f32::INFINITY };
        }
        let mut sorted = residuals;
        sorted.sort_by(f32::total_cmp);
        let limit = (2.0 * sorted[50]).max(0.08);
        for (u, r) in used.iter_mut().zip(&residuals) {
            *u = *r <= limit;
        }
        fitted = Some(h);
    }
    let h = fitted?;
    let mut out = *lattice;
    for (k, p) in index.iter().enumerate() {
        let q = h.apply(*p);
        if !q.is_finite() {
            return None;
        }
        out.points_in_image[k / 10][k % 10] = q;
    }
    Some((out, residuals))
}

/// The lattice of one homography through most of `lattice`, when some of its points sit well
/// off it while most fit it closely: a lattice folded near a corner. A candidate quad a row or
/// column off at one corner (a faint border corner the outline cut across) predicts points
/// there up to a cell off, and refinement locks each onto the nearest line, some onto the
/// next one; the bicubic repairs bend along with such a fold, since it is smooth.
///
/// Returns the homography's lattice when a point lies more than [`FOLD_LEAST_OFF`] from it
/// and at least [`FOLD_LEAST_NEAR`] points within a fifth of a cell side; `None` otherwise
/// (or when the fit is degenerate). Whether the lattice refined from it is better is the
/// caller's to judge ([`fits_one_homography`]): a bent page is off one homography too.
pub(crate) fn folded_lattice_unfolded(lattice: &Lattice) -> Option<Lattice> {
    let (unfolded, residuals) = homography_of_most(lattice)?;
    let worst = residuals.iter().copied().fold(0.0f32, f32::max);
    let near = residuals.iter().filter(|&&d| d <= 0.2).count();
    (worst > FOLD_LEAST_OFF && near >= FOLD_LEAST_NEAR).then_some(unfolded)
}

/// Whether every point of `lattice` lies within [`FLAT_MOST_OFF`] of one homography: a flat
/// grid's refined lattice does (its points sit on its lines, and a flat page's lines are
/// one homography's), a folded one does not.
pub(crate) fn fits_one_homography(lattice: &Lattice) -> bool {
    homography_of_most(lattice)
        .is_some_and(|(_, residuals)| residuals.iter().all(|&d| d <= FLAT_MOST_OFF))
}

/// How far (cell sides) a point of a folded lattice lies off the homography of the rest at
/// least: a bend on a flat-enough page stays under it, a point locked onto the next line
/// does not (the homography of the rest leans towards the fold, so such points measured
/// 0.6–1.3 on the development frames looked at).
const FOLD_LEAST_OFF: f32 = 0.4;

/// Points within a fifth of a cell of the homography of the rest that a fold needs: a lattice
/// mostly off one homography is bent or no grid, not folded.
const FOLD_LEAST_NEAR: usize = 70;

/// The most (cell sides) a point of a flat grid's refined lattice lies off its homography:
/// lattices refined from the homography of the rest of a fold measured under 0.1.
const FLAT_MOST_OFF: f32 = 0.15;

#[cfg(test)]
mod tests {
    use super::*;

    fn tilted() -> Lattice {
        Lattice::from_corners([
            Point::new(40.0, 30.0),
            Point::new(400.0, 50.0),
            Point::new(390.0, 420.0),
            Point::new(20.0, 400.0),
        ])
    }

    #[test]
    fn moves_strays_back_and_leaves_the_rest() {
        let truth = tilted();
        let mut broken = truth;
        broken.points_in_image[9][0].y += 25.0;
        broken.points_in_image[9][6].y += 20.0;
        broken.points_in_image[0][3].x -= 15.0;
        let (fixed, replaced) = repair_outliers(&broken);
        assert_eq!(replaced, 3);
        assert!(
            fixed.max_distance(&truth) < 1.0,
            "{}",
            fixed.max_distance(&truth)
        );
    }

    #[test]
    fn keeps_a_gently_curved_grid() {
        let mut bent = tilted();
        for r in 0..10 {
            for c in 0..10 {
                let u = c as f32 / 9.0;
                bent.points_in_image[r][c].y += 6.0 * u * (1.0 - u);
            }
        }
        let (fixed, replaced) = repair_outliers(&bent);
        assert_eq!(replaced, 0);
        assert_eq!(fixed, bent);
        assert_eq!(repair_along_lines(&bent), (bent, 0));
    }

    #[test]
    fn a_fold_near_a_corner_is_unfolded_and_a_bend_is_not() {
        let truth = tilted();
        let cell = truth.mean_side() / 9.0;
        assert!(fits_one_homography(&truth));
        assert_eq!(folded_lattice_unfolded(&truth), None);
        // The top-left points locked onto the next row's line: the corner and its
        // neighbours a row down, the ones beside them part of the way.
        let mut folded = truth;
        for (r, c, rows) in [
            (0, 0, 1.0),
            (0, 1, 1.0),
            (0, 2, 0.6),
            (1, 0, 0.5),
            (1, 1, 0.4),
        ] {
            folded.points_in_image[r][c] =
                truth.points_in_image[r][c].lerp(truth.points_in_image[r + 1][c], rows);
        }
        assert!(!fits_one_homography(&folded));
        let unfolded = folded_lattice_unfolded(&folded).expect("a fold");
        assert!(
            unfolded.max_distance(&truth) < 0.05 * cell,
            "{}",
            unfolded.max_distance(&truth)
        );
        // A page bent by a fifth of a cell is no fold.
        let mut bent = truth;
        for r in 0..10 {
            for c in 0..10 {
                let u = c as f32 / 9.0;
                bent.points_in_image[r][c].y += 0.8 * cell * u * (1.0 - u);
            }
        }
        assert_eq!(folded_lattice_unfolded(&bent), None);
    }

    #[test]
    fn corner_repair_uses_the_border_lines() {
        let truth = tilted();
        let mut broken = truth;
        // Corner and its neighbour pulled up together onto a shadow edge.
        broken.points_in_image[0][0].y -= 12.0;
        broken.points_in_image[0][1].y -= 5.0;
        let (fixed, moved) = repair_corners(&broken);
        assert_eq!(moved, 1);
        assert!(fixed.points_in_image[0][0].distance(truth.points_in_image[0][0]) < 1.0);
        assert_eq!(repair_corners(&truth), (truth, 0));
    }

    #[test]
    fn line_repair_fixes_a_stray_corner() {
        let truth = tilted();
        let mut broken = truth;
        broken.points_in_image[9][9].x -= 20.0;
        broken.points_in_image[9][9].y -= 30.0;
        let (fixed, replaced) = repair_along_lines(&broken);
        assert_eq!(replaced, 1);
        assert!(
            fixed.max_distance(&truth) < 1.5,
            "{}",
            fixed.max_distance(&truth)
        );
    }
}
