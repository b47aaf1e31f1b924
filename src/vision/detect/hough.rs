//! The Hough-line fallback: grid candidates from the lines of the ink mask, for grids whose
//! lines do not join up into one outline or closed cells.
//!
//! Owns line voting, direction families and the choice of each family's two outer lines; it
//! proposes quads and does not refine or validate them (a Hough quad must also pass the
//! border check of `validate`, or it may be a block of a larger grid).

use image::{GrayImage, Luma};

use super::DetectOptions;
use super::candidates::order_corners;
use super::threshold::ink_at;
use crate::vision::{Line, Point};

/// Ink pixels of `mask` on `line` (one sample per pixel along it).
fn ink_along(mask: &GrayImage, line: &Line) -> u32 {
    let d = Point::new(-line.b, line.a);
    let foot = Point::new(line.a * line.c, line.b * line.c);
    let far = (mask.width() + mask.height()) as i32;
    (-far..=far)
        .filter(|&t| ink_at(mask, foot + d.scaled(t as f32)))
        .count() as u32
}

/// Hough fallback: lines of the ink mask (at half working scale) grouped into two direction
/// families; in each, the pair of outer lines whose 9 equal divisions are best matched by
/// detected lines gives two sides of the grid. Returns one quad (TL, TR, BR, BL, working
/// pixels) per pair of roughly perpendicular direction peaks that both fit, and the detected
/// lines for debugging.
pub(super) fn hough_quads(
    mask: &GrayImage,
    options: &DetectOptions,
) -> (Vec<[Point; 4]>, Vec<(Point, Point)>) {
    use imageproc::hough::{LineDetectionOptions, detect_lines};
    // Half-scale OR-downsample: keeps thin lines, quarters the voting cost.
    let (w, h) = mask.dimensions();
    let (hw, hh) = (w / 2, h / 2);
    if hw < 16 || hh < 16 {
        return (Vec::new(), Vec::new());
    }
    let src = mask.as_raw();
    let mut half = GrayImage::new(hw, hh);
    for y in 0..hh {
        for x in 0..hw {
            let i = (2 * y * w + 2 * x) as usize;
            let any = src[i] | src[i + 1] | src[i + w as usize] | src[i + w as usize + 1];
            half.put_pixel(x, y, Luma([any]));
        }
    }
    let min_side = options.min_grid_side_px / 2.0;
    let detected = detect_lines(
        &half,
        LineDetectionOptions {
            vote_threshold: (min_side * 0.8) as u32,
            suppression_radius: 2,
        },
    );
    let centre = Point::new(hw as f32 / 2.0, hh as f32 / 2.0);
    let as_line = |l: &imageproc::hough::PolarLine| {
        let th = (l.angle_in_degrees as f32).to_radians();
        Line {
            a: th.cos(),
            b: th.sin(),
            c: l.r,
        }
    };
    // Dense print (or a grid whose lines are broken at every crossing) passes the vote
    // threshold along many slanting lines too. A grid line is among the ~20 best-supported
    // lines, so lines with less than half the ink of the 20th best are dropped, and the
    // direction histogram counts ink, not lines.
    let support: Vec<u32> = detected
        .iter()
        .map(|l| ink_along(&half, &as_line(l)))
        .collect();
    let mut ranked = support.clone();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    let floor = ranked.get(19).or(ranked.last()).copied().unwrap_or(0) / 2;
    let (lines, support): (Vec<_>, Vec<u32>) = detected
        .into_iter()
        .zip(support)
        .filter(|(_, s)| *s >= floor)
        .unzip();
    let endpoints = |l: &Line| {
        let d = Point::new(-l.b, l.a);
        let foot = Point::new(l.a * l.c, l.b * l.c);
        let far = (hw + hh) as f32;
        (
            Point::new(2.0 * (foot.x - far * d.x), 2.0 * (foot.y - far * d.y)),
            Point::new(2.0 * (foot.x + far * d.x), 2.0 * (foot.y + far * d.y)),
        )
    };
    let drawn: Vec<(Point, Point)> = lines
        .iter()
        .take(200)
        .map(|l| endpoints(&as_line(l)))
        .collect();
    // Dominant direction, then the family roughly perpendicular to it.
    let mut hist = [0u32; 180];
    for (l, s) in lines.iter().zip(&support) {
        hist[l.angle_in_degrees as usize % 180] += s;
    }
    let smooth = |a: i32| -> u32 {
        (-4..=4)
            .map(|d| hist[(a + d).rem_euclid(180) as usize])
            .sum()
    };
    // Candidate directions: the strongest peaks of the direction histogram. The grid's two
    // line families are usually the top two, but diagonals through the lattice's
    // intersections can outnumber them; every roughly perpendicular pair is tried and
    // validation decides.
    let mut peaks: Vec<i32> = (0..180)
        .filter(|&a| smooth(a) > 0 && smooth(a) >= smooth(a - 1) && smooth(a) > smooth(a + 1))
        .collect();
    peaks.sort_by_key(|&a| std::cmp::Reverse(smooth(a)));
    peaks.truncate(4);
    let family = |axis: i32| -> Vec<Line> {
        lines
            .iter()
            .filter(|l| {
                let d = (l.angle_in_degrees as i32 - axis).rem_euclid(180);
                d <= 12 || d >= 168
            })
            .map(as_line)
            .collect()
    };
    let pick = |fam: Vec<Line>, axis: i32| -> Option<(Line, Line)> {
        let th = (axis as f32).to_radians();
        let n = Point::new(th.cos(), th.sin());
        // Position of each line along the axis normal through the image centre.
        let mut pos: Vec<(f32, Line)> = fam
            .into_iter()
            .filter_map(|l| {
                let dot = n.x * l.a + n.y * l.b;
                (dot.abs() > 0.5).then(|| ((l.c - (centre.x * l.a + centre.y * l.b)) / dot, l))
            })
            .collect();
        pos.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Best pair: most of the 8 inner divisions matched by a detected line, then the
        // inner lines' directions closest to those interpolated between the two outer lines
        // (a line slanting across the lattice can sit at the right place at the centre
        // only), then the wider span.
        let mut best: Option<(usize, f32, f32, usize, usize)> = None;
        for i in 0..pos.len() {
            for j in i + 1..pos.len() {
                let span = pos[j].0 - pos[i].0;
                if span < min_side {
                    continue;
                }
                let step = span / 9.0;
                let (ni, mut nj) = (
                    Point::new(pos[i].1.a, pos[i].1.b),
                    Point::new(pos[j].1.a, pos[j].1.b),
                );
                if ni.x * nj.x + ni.y * nj.y < 0.0 {
                    nj = nj.scaled(-1.0);
                }
                let (mut matched, mut slant) = (0usize, 0.0f32);
                for k in 1..9 {
                    let want = pos[i].0 + k as f32 * step;
                    let expected = ni.lerp(nj, k as f32 / 9.0).unit();
                    // `pos` is sorted: only the lines near `want` (a slack of a pixel around
                    // the window, the window itself tested exactly as before) are looked at,
                    // instead of every line for every division of every pair (dense print
                    // gives hundreds).
                    let from = pos.partition_point(|(p, _)| *p < want - 0.2 * step - 1.0);
                    let to = pos.partition_point(|(p, _)| *p <= want + 0.2 * step + 1.0);
                    let nearest = pos[from..to.max(from)]
                        .iter()
                        .filter(|(p, _)| (p - want).abs() < 0.2 * step)
                        .map(|(_, l)| expected.cross(Point::new(l.a, l.b)).abs())
                        .min_by(f32::total_cmp);
                    if let Some(s) = nearest {
                        matched += 1;
                        slant += s;
                    }
                }
                let slant = slant / matched.max(1) as f32;
                let better = best.is_none_or(|(m, sl, sp, _, _)| {
                    matched > m
                        || (matched == m
                            && (slant < sl - 0.01 || (slant <= sl + 0.01 && span > sp)))
                });
                if better {
                    best = Some((matched, slant, span, i, j));
                }
            }
        }
        let (matched, _, _, i, j) = best?;
        (matched >= 6).then(|| (pos[i].1, pos[j].1))
    };
    let mut quads = Vec::new();
    for (k, &a1) in peaks.iter().enumerate() {
        for &a2 in &peaks[k + 1..] {
            if !(60..=120).contains(&(a2 - a1).rem_euclid(180)) {
                continue;
            }
            let (Some((a_lo, a_hi)), Some((b_lo, b_hi))) =
                (pick(family(a1), a1), pick(family(a2), a2))
            else {
                continue;
            };
            let corners = [
                a_lo.intersect(&b_lo),
                a_lo.intersect(&b_hi),
                a_hi.intersect(&b_hi),
                a_hi.intersect(&b_lo),
            ];
            let [Some(p0), Some(p1), Some(p2), Some(p3)] = corners else {
                continue;
            };
            // Back to working scale (half-scale pixel centres: work = 2·half + 0.5).
            let quad = [p0, p1, p2, p3].map(|p| Point::new(2.0 * p.x + 0.5, 2.0 * p.y + 0.5));
            if quad.iter().all(|p| p.is_finite()) {
                quads.push(order_corners(quad));
            }
        }
    }
    (quads, drawn)
}

#[cfg(test)]
mod tests {
    use super::super::{DetectTrace, detect_with, put_line};
    use super::*;
    use crate::vision::Lattice;

    #[test]
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn finds_a_grid_whose_lines_never_touch_by_hough_lines() {
        // Every edge stops short of the intersections: no outline encloses the grid and no
        // cell is a closed hole, so only the Hough families can find it.
        let corners = [
            Point::new(170.0, 80.0),
            Point::new(480.0, 95.0),
            Point::new(470.0, 405.0),
            Point::new(160.0, 395.0),
        ];
        let mut img = GrayImage::from_pixel(640, 480, Luma([205]));
        let p = Lattice::from_corners(corners).points_in_image;
        for i in 0..10 {
            let thick = if i % 3 == 0 { 3.0 } else { 1.5 };
            for j in 0..9 {
                for (a, b) in [(p[i][j], p[i][j + 1]), (p[j][i], p[j + 1][i])] {
                    put_line(&mut img, a.lerp(b, 0.15), a.lerp(b, 0.85), thick, 30);
                }
            }
        }
        let mut trace = DetectTrace::default();
        let det = detect_with(&img, &DetectOptions::default(), Some(&mut trace)).expect("grid");
        assert!(trace.hough_ran, "the Hough fallback ran");
        assert!(!trace.hough_lines.is_empty());
        for (a, b) in det.corners_in_image.iter().zip(corners) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
        }
    }
}
