//! Plane geometry for the vision pipeline: points, lines and 3×3 homographies.
//!
//! Owns the small numeric helpers (4-point homography solve, line fits and intersections) used by
//! detection, refinement and rectification. It knows nothing of images.

use serde::{Deserialize, Serialize};

/// A point in some 2-D pixel space (the space is named by the field or variable holding it).
///
/// Pixel centres sit at integer coordinates: the pixel `(3, 5)` is centred on `x = 3.0, y = 5.0`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Horizontal coordinate, growing to the right.
    pub x: f32,
    /// Vertical coordinate, growing downwards.
    pub y: f32,
}

impl Point {
    /// Makes a point.
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    /// Euclidean distance to `other`.
    pub fn distance(self, other: Point) -> f32 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }

    /// `self + (other - self) * t`.
    pub fn lerp(self, other: Point, t: f32) -> Point {
        Point::new(
            self.x + (other.x - self.x) * t,
            self.y + (other.y - self.y) * t,
        )
    }

    /// This point with both coordinates multiplied by `factor` (changes pixel scale).
    pub fn scaled(self, factor: f32) -> Point {
        Point::new(self.x * factor, self.y * factor)
    }

    /// True when both coordinates are finite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// Length of this point taken as a vector from the origin.
    pub fn length(self) -> f32 {
        self.x.hypot(self.y)
    }

    /// The z component of the cross product of the two vectors (positive when `other` turns
    /// clockwise from `self` in image space, where y grows downwards).
    pub fn cross(self, other: Point) -> f32 {
        self.x * other.y - self.y * other.x
    }

    /// This vector scaled to length 1; `(1, 0)` for a (nearly) zero vector.
    pub fn unit(self) -> Point {
        let len = (self.x * self.x + self.y * self.y).sqrt();
        if len < 1e-6 {
            Point::new(1.0, 0.0)
        } else {
            Point::new(self.x / len, self.y / len)
        }
    }
}

impl std::ops::Add for Point {
    type Output = Point;
    fn add(self, other: Point) -> Point {
        Point::new(self.x + other.x, self.y + other.y)
    }
}

impl std::ops::Sub for Point {
    type Output = Point;
    fn sub(self, other: Point) -> Point {
        Point::new(self.x - other.x, self.y - other.y)
    }
}

/// The bounding box `[x0, y0, x1, y1]` of `points`, in their space (all `MAX`/`MIN` when empty).
pub(crate) fn bounding_box(points: &[Point]) -> [f32; 4] {
    points.iter().fold(
        [f32::MAX, f32::MAX, f32::MIN, f32::MIN],
        |[x0, y0, x1, y1], p| [x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y)],
    )
}

/// Absolute area of a simple polygon (shoelace formula).
pub(crate) fn polygon_area(points: &[Point]) -> f32 {
    let n = points.len();
    let mut twice = 0.0f32;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        twice += a.x * b.y - b.x * a.y;
    }
    twice.abs() / 2.0
}

/// A projective transform of the plane, `dst ~ H · src` in homogeneous coordinates
/// (row-major 3×3, computed in `f64`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Homography {
    m: [f64; 9],
}

impl Homography {
    /// The identity transform.
    pub const IDENTITY: Homography = Homography {
        m: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
    };

    /// The homography mapping each `src[i]` to `dst[i]`, or `None` when the points are
    /// degenerate (three collinear, or not finite).
    pub fn from_points(src: [Point; 4], dst: [Point; 4]) -> Option<Homography> {
        // Unknowns h0..h7 (h8 = 1); two equations per correspondence.
        let mut a = [[0.0f64; 8]; 8];
        let mut b = [0.0f64; 8];
        for i in 0..4 {
            let (x, y) = (src[i].x as f64, src[i].y as f64);
            let (u, v) = (dst[i].x as f64, dst[i].y as f64);
            a[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y];
            a[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y];
            (b[2 * i], b[2 * i + 1]) = (u, v);
        }
        let h = solve_linear(a, b)?;
        let out = Homography {
            m: [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0],
        };
        out.m.iter().all(|v| v.is_finite()).then_some(out)
    }

    /// The homography mapping the unit square `(0,0),(1,0),(1,1),(0,1)` onto `quad`
    /// (given in the same TL, TR, BR, BL order).
    pub fn from_unit_square(quad: [Point; 4]) -> Option<Homography> {
        Homography::from_points(
            [
                Point::new(0.0, 0.0),
                Point::new(1.0, 0.0),
                Point::new(1.0, 1.0),
                Point::new(0.0, 1.0),
            ],
            quad,
        )
    }

    /// Maps `p`; returns a non-finite point when `p` lies on the line sent to infinity.
    pub fn apply(&self, p: Point) -> Point {
        let (x, y) = (p.x as f64, p.y as f64);
        let m = &self.m;
        let w = m[6] * x + m[7] * y + m[8];
        let u = (m[0] * x + m[1] * y + m[2]) / w;
        let v = (m[3] * x + m[4] * y + m[5]) / w;
        Point::new(u as f32, v as f32)
    }

    /// Maps every point `(u, v)` of a raster, row by row (`v` over `vs`, then `u` over `us`),
    /// handing each image point to `visit` in that order: the same points as
    /// [`Homography::apply`] gives (the same products, each computed once per row or column
    /// rather than once per point).
    pub fn map_raster(&self, us: &[f32], vs: &[f32], mut visit: impl FnMut(Point)) {
        self.map_raster_rows(us, vs, |xs, ys| {
            for (&x, &y) in xs.iter().zip(ys) {
                visit(Point::new(x, y));
            }
        });
    }

    /// [`Homography::map_raster`] a row at a time: for each `v` of `vs`, `visit_row` gets the
    /// row's image points as their x and y coordinates (`us.len()` of each), the same values
    /// bit for bit.
    // Why: the per-point closure of `map_raster` keeps the compiler from running the row's
    // divisions side by side in vector registers; a whole row in two plain arrays lets it,
    // and lets the samplers walk the row without a closure call per point.
    pub fn map_raster_rows(
        &self,
        us: &[f32],
        vs: &[f32],
        mut visit_row: impl FnMut(&[f32], &[f32]),
    ) {
        let m = &self.m;
        let n = us.len();
        let mut per_u = vec![0.0f64; 3 * n];
        let (ux, rest) = per_u.split_at_mut(n);
        let (vx, wx) = rest.split_at_mut(n);
        for (k, &u) in us.iter().enumerate() {
            let x = u as f64;
            ux[k] = m[0] * x;
            vx[k] = m[3] * x;
            wx[k] = m[6] * x;
        }
        let mut xs = vec![0.0f32; n];
        let mut ys = vec![0.0f32; n];
        for &v in vs {
            let y = v as f64;
            let (a, b, c) = (m[1] * y, m[4] * y, m[7] * y);
            let rows = xs.iter_mut().zip(ys.iter_mut());
            for ((((x_out, y_out), &ux), &vx), &wx) in rows.zip(&*ux).zip(&*vx).zip(&*wx) {
                let w = wx + c + m[8];
                *x_out = ((ux + a + m[2]) / w) as f32;
                *y_out = ((vx + b + m[5]) / w) as f32;
            }
            visit_row(&xs, &ys);
        }
    }

    /// The least-squares homography mapping each `src[i]` to `dst[i]` (algebraic error, with
    /// `h8 = 1`), for four or more correspondences; `None` when degenerate. Coordinates should
    /// be of moderate size (unit square to a few thousand pixels) for good conditioning.
    pub fn fit(src: &[Point], dst: &[Point]) -> Option<Homography> {
        if src.len() < 4 || src.len() != dst.len() {
            return None;
        }
        // Normal equations of the 2n×8 system.
        let mut n = [[0.0f64; 8]; 8];
        let mut rhs_n = [0.0f64; 8];
        for (s, d) in src.iter().zip(dst) {
            let (x, y) = (s.x as f64, s.y as f64);
            let (u, v) = (d.x as f64, d.y as f64);
            for (row, rhs) in [
                ([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y], u),
                ([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y], v),
            ] {
                for i in 0..8 {
                    for j in 0..8 {
                        n[i][j] += row[i] * row[j];
                    }
                    rhs_n[i] += row[i] * rhs;
                }
            }
        }
        let h = solve_linear(n, rhs_n)?;
        let out = Homography {
            m: [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0],
        };
        out.m.iter().all(|v| v.is_finite()).then_some(out)
    }

    /// The inverse transform, or `None` when singular.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.m;
        let c00 = m[4] * m[8] - m[5] * m[7];
        let c01 = m[5] * m[6] - m[3] * m[8];
        let c02 = m[3] * m[7] - m[4] * m[6];
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02;
        if det.abs() < 1e-12 || !det.is_finite() {
            return None;
        }
        let inv = [
            c00,
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            c01,
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            c02,
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        Some(Homography {
            m: inv.map(|v| v / det),
        })
    }
}

/// Solves `a · x = b` (N×N) by Gaussian elimination with partial pivoting; `None` when `a` is
/// singular or the solution is not finite. Shared by the homography fits and the smoothness
/// fits of `smooth`.
#[allow(clippy::needless_range_loop)] // Gaussian elimination reads clearest with indices
pub(crate) fn solve_linear<const N: usize>(
    mut a: [[f64; N]; N],
    mut b: [f64; N],
) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..N {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                for k in col..N {
                    a[row][k] -= f * a[col][k];
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let mut s = b[row];
        for k in row + 1..N {
            s -= a[row][k] * x[k];
        }
        x[row] = s / a[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// A straight line `a·x + b·y = c` with `(a, b)` a unit normal.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Line {
    /// Unit normal, x component.
    pub a: f32,
    /// Unit normal, y component.
    pub b: f32,
    /// Signed distance of the line from the origin along the normal.
    pub c: f32,
}

impl Line {
    /// The line through two distinct points, or `None` when they coincide.
    pub fn through(p: Point, q: Point) -> Option<Line> {
        let (dx, dy) = (q.x - p.x, q.y - p.y);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-6 {
            return None;
        }
        let (a, b) = (-dy / len, dx / len);
        Some(Line {
            a,
            b,
            c: a * p.x + b * p.y,
        })
    }

    /// Total-least-squares fit through `points`, or `None` for fewer than two distinct points.
    pub fn fit(points: &[Point]) -> Option<Line> {
        if points.len() < 2 {
            return None;
        }
        let n = points.len() as f64;
        let (mut sx, mut sy) = (0.0f64, 0.0f64);
        for p in points {
            sx += p.x as f64;
            sy += p.y as f64;
        }
        let (mx, my) = (sx / n, sy / n);
        let (mut sxx, mut syy, mut sxy) = (0.0f64, 0.0f64, 0.0f64);
        for p in points {
            let (dx, dy) = (p.x as f64 - mx, p.y as f64 - my);
            sxx += dx * dx;
            syy += dy * dy;
            sxy += dx * dy;
        }
        if sxx + syy < 1e-9 {
            return None;
        }
        // Direction of largest spread; the normal is perpendicular to it.
        let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
        let (dx, dy) = (theta.cos(), theta.sin());
        let (a, b) = (-dy, dx);
        Some(Line {
            a: a as f32,
            b: b as f32,
            c: (a * mx + b * my) as f32,
        })
    }

    /// Signed distance from `p` to the line.
    pub fn signed_distance(&self, p: Point) -> f32 {
        self.a * p.x + self.b * p.y - self.c
    }

    /// Intersection with `other`, or `None` when (nearly) parallel.
    pub fn intersect(&self, other: &Line) -> Option<Point> {
        let det = self.a * other.b - self.b * other.a;
        if det.abs() < 1e-6 {
            return None;
        }
        let x = (self.c * other.b - self.b * other.c) / det;
        let y = (self.a * other.c - self.c * other.a) / det;
        Some(Point::new(x, y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_linear_needs_pivoting_and_refuses_singular_systems() {
        // A zero on the first diagonal: only row swaps solve it.
        let x = solve_linear(
            [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [2.0, 0.0, 3.0]],
            [7.0, 3.0, 11.0],
        )
        .expect("regular");
        for (got, want) in x.iter().zip([1.0, 2.0, 3.0]) {
            assert!((got - want).abs() < 1e-12, "{x:?}");
        }
        assert!(solve_linear([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0]).is_none());
    }

    #[test]
    fn homography_maps_corners_and_inverts() {
        let quad = [
            Point::new(10.0, 20.0),
            Point::new(110.0, 25.0),
            Point::new(120.0, 130.0),
            Point::new(5.0, 118.0),
        ];
        let h = Homography::from_unit_square(quad).unwrap();
        let unit = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        for (q, (x, y)) in quad.iter().zip(unit) {
            let p = h.apply(Point::new(x, y));
            assert!(p.distance(*q) < 1e-3, "{p:?} vs {q:?}");
        }
        let inv = h.inverse().unwrap();
        let back = inv.apply(h.apply(Point::new(0.3, 0.7)));
        assert!(back.distance(Point::new(0.3, 0.7)) < 1e-4);
    }

    #[test]
    fn a_raster_maps_to_exactly_the_points_apply_gives() {
        let quad = [
            Point::new(103.5, 47.25),
            Point::new(391.0, 61.0),
            Point::new(402.75, 350.5),
            Point::new(88.0, 333.0),
        ];
        let h = Homography::from_unit_square(quad).unwrap();
        let us = [0.07f32, 0.3, 0.5, 0.93, 1.0];
        let vs = [0.0f32, 0.11, 0.77];
        let mut mapped = Vec::new();
        h.map_raster(&us, &vs, |p| mapped.push(p));
        let applied: Vec<Point> = vs
            .iter()
            .flat_map(|&v| us.iter().map(move |&u| h.apply(Point::new(u, v))))
            .collect();
        assert_eq!(mapped, applied, "bit for bit, row by row");
    }

    #[test]
    fn degenerate_quad_has_no_homography() {
        let p = Point::new(1.0, 1.0);
        assert!(Homography::from_unit_square([p, p, p, p]).is_none());
    }

    #[test]
    fn line_fit_and_intersection() {
        let pts: Vec<Point> = (0..10)
            .map(|i| Point::new(i as f32, 2.0 * i as f32 + 1.0))
            .collect();
        let l = Line::fit(&pts).unwrap();
        assert!(l.signed_distance(Point::new(5.0, 11.0)).abs() < 1e-4);
        let h = Line::through(Point::new(0.0, 5.0), Point::new(10.0, 5.0)).unwrap();
        let x = l.intersect(&h).unwrap();
        assert!(x.distance(Point::new(2.0, 5.0)) < 1e-4);
    }
}
