//! Candidate outlines: the largest outer contours of the ink mask, each reduced to the largest
//! quadrilateral inscribed in its convex hull (raw contour points, never polygon-simplified)
//! and kept as a grid candidate when that quad is grid-shaped; plus the corner ordering every
//! candidate quad goes through.
//!
//! Owns the contour → quad geometry; refining, validating and choosing candidates is not its
//! business.

use imageproc::contours::{BorderType, Contour};

use super::DetectOptions;
use crate::vision::Point;
use crate::vision::geometry::polygon_area;

/// One of the largest ink outlines (an outer contour of the ink mask).
pub(super) struct Outline {
    /// Index of its contour.
    pub contour: usize,
    /// Area of its bounding box, working pixels².
    pub bbox_area: f32,
    /// The largest quadrilateral inscribed in its convex hull, TL first, when that quad is
    /// grid-shaped (nearly the whole hull, sides not too unequal).
    pub quad: Option<[Point; 4]>,
}

/// The `options.max_candidates` largest ink outlines at least a grid's minimum side across,
/// largest first.
pub(super) fn candidate_outlines(
    contours: &[Contour<i32>],
    options: &DetectOptions,
) -> Vec<Outline> {
    let mut outlines: Vec<(f32, usize)> = Vec::new();
    for (k, c) in contours.iter().enumerate() {
        if c.border_type != BorderType::Outer || c.points.len() < 40 {
            continue;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for p in &c.points {
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
        }
        let (bw, bh) = ((x1 - x0) as f32, (y1 - y0) as f32);
        // A grid rotated by 45° has a bounding box √2 its side.
        if bw.max(bh) < options.min_grid_side_px {
            continue;
        }
        outlines.push((bw * bh, k));
    }
    outlines.sort_by(|a, b| b.0.total_cmp(&a.0));
    outlines
        .into_iter()
        .take(options.max_candidates)
        .map(|(bbox_area, k)| Outline {
            contour: k,
            bbox_area,
            quad: grid_shaped_quad(&contours[k].points, options),
        })
        .collect()
}

/// The largest quadrilateral inscribed in the convex hull of `points`, ordered TL, TR, BR,
/// BL, when it is grid-shaped.
fn grid_shaped_quad(
    points: &[imageproc::point::Point<i32>],
    options: &DetectOptions,
) -> Option<[Point; 4]> {
    let hull = imageproc::geometry::convex_hull(points.to_vec());
    let hull: Vec<Point> = hull
        .iter()
        .map(|p| Point::new(p.x as f32, p.y as f32))
        .collect();
    let quad = max_area_quad(&hull)?;
    // A grid outline is nearly its own hull's quad; blobs of text or photos are not.
    if polygon_area(&quad) < 0.85 * polygon_area(&hull) {
        return None;
    }
    let sides: Vec<f32> = (0..4)
        .map(|i| quad[i].distance(quad[(i + 1) % 4]))
        .collect();
    let (lo, hi) = sides
        .iter()
        .fold((f32::MAX, 0.0f32), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    if lo < options.min_grid_side_px * 0.7 || lo < 0.35 * hi {
        return None;
    }
    Some(order_corners(quad))
}

/// The points of `contour` as working-pixel [`Point`]s.
pub(super) fn contour_points(contour: &Contour<i32>) -> Vec<Point> {
    contour
        .points
        .iter()
        .map(|p| Point::new(p.x as f32, p.y as f32))
        .collect()
}

fn triangle_area(a: Point, b: Point, c: Point) -> f32 {
    ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)).abs() / 2.0
}

/// The largest-area quadrilateral with vertices on the convex polygon `hull` (in hull order),
/// found by coordinate ascent from the diagonal and axis extremes.
fn max_area_quad(hull: &[Point]) -> Option<[Point; 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let arg = |f: &dyn Fn(Point) -> f32| -> usize {
        (0..n)
            .max_by(|&i, &j| f(hull[i]).total_cmp(&f(hull[j])))
            .unwrap_or(0)
    };
    let starts = [
        [
            arg(&|p| -p.x - p.y),
            arg(&|p| p.x - p.y),
            arg(&|p| p.x + p.y),
            arg(&|p| -p.x + p.y),
        ],
        [arg(&|p| -p.y), arg(&|p| p.x), arg(&|p| p.y), arg(&|p| -p.x)],
    ];
    let mut best: Option<([usize; 4], f32)> = None;
    for start in starts {
        let mut idx = start;
        idx.sort_unstable();
        if idx.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        for _ in 0..8 {
            let mut changed = false;
            for k in 0..4 {
                let prev = idx[(k + 3) % 4];
                let next = idx[(k + 1) % 4];
                let (a, c) = (hull[prev], hull[next]);
                let mut best_i = idx[k];
                let mut best_a = triangle_area(a, hull[best_i], c);
                let mut i = (prev + 1) % n;
                while i != next {
                    let area = triangle_area(a, hull[i], c);
                    if area > best_a {
                        best_a = area;
                        best_i = i;
                    }
                    i = (i + 1) % n;
                }
                if best_i != idx[k] {
                    idx[k] = best_i;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let quad = idx.map(|i| hull[i]);
        let area = polygon_area(&quad);
        if best.as_ref().is_none_or(|(_, a)| area > *a) {
            best = Some((idx, area));
        }
    }
    best.map(|(idx, _)| idx.map(|i| hull[i]))
}

/// Orders four points TL, TR, BR, BL: clockwise on screen, starting from the one nearest the
/// top-left direction (so rotations up to ±45° keep the puzzle's reading order).
pub(super) fn order_corners(quad: [Point; 4]) -> [Point; 4] {
    let cx = quad.iter().map(|p| p.x).sum::<f32>() / 4.0;
    let cy = quad.iter().map(|p| p.y).sum::<f32>() / 4.0;
    let mut q = quad;
    q.sort_by(|a, b| {
        (a.y - cy)
            .atan2(a.x - cx)
            .total_cmp(&(b.y - cy).atan2(b.x - cx))
    });
    let first = (0..4)
        .min_by(|&i, &j| (q[i].x + q[i].y).total_cmp(&(q[j].x + q[j].y)))
        .unwrap_or(0);
    [
        q[first],
        q[(first + 1) % 4],
        q[(first + 2) % 4],
        q[(first + 3) % 4],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_corners_starts_top_left_clockwise() {
        let q = [
            Point::new(100.0, 110.0),
            Point::new(10.0, 100.0),
            Point::new(5.0, 5.0),
            Point::new(90.0, 0.0),
        ];
        let o = order_corners(q);
        assert_eq!(o, [q[2], q[3], q[0], q[1]]);
    }
}
