//! Grid outlines from ink contours: the quadrilateral a contour suggests, and alternatives
//! rebuilt from the sides traced near each corner.
//!
//! A newspaper grid's outer border is one long ink contour, but in real photos that contour
//! often merges with a shadow edge, the page edge or other print at one corner; its convex
//! hull then has one corner far off. The sides near the three good corners are still right,
//! so [`traced_quads`] fits a line to the contour just beyond each corner and rebuilds the
//! quad with each corner in turn taken from its neighbours' sides. Working-image pixels
//! throughout; it knows nothing of lattices or validation (see `detect`).

use super::{Line, Point};

/// Total-least-squares line through `points`, refitted twice without the points more than
/// 1.5 px (or twice the median residual) from it, so digits or specks touching the border do
/// not tilt it.
pub(crate) fn robust_line(points: &[Point]) -> Option<Line> {
    let mut line = Line::fit(points)?;
    for _ in 0..2 {
        let mut residuals: Vec<f32> = points
            .iter()
            .map(|p| line.signed_distance(*p).abs())
            .collect();
        residuals.sort_by(f32::total_cmp);
        let limit = (2.0 * residuals[residuals.len() / 2]).max(1.5);
        let kept: Vec<Point> = points
            .iter()
            .copied()
            .filter(|p| line.signed_distance(*p).abs() <= limit)
            .collect();
        if kept.len() < points.len() / 3 {
            break;
        }
        line = Line::fit(&kept)?;
    }
    Some(line)
}

fn mean(points: &[Point]) -> Point {
    let n = points.len().max(1) as f32;
    Point::new(
        points.iter().map(|p| p.x).sum::<f32>() / n,
        points.iter().map(|p| p.y).sum::<f32>() / n,
    )
}

/// Alternative outline quads (TL, TR, BR, BL) for the contour `contour` whose hull gave
/// `quad`: first every corner as the intersection of the two sides traced from it, then, for
/// each corner in turn, that corner rebuilt from the sides traced from its two neighbours
/// (the case of an outline merged with other ink at one corner), then each pair of
/// neighbouring corners rebuilt from the other two. Quads that are not convex are left out.
pub(crate) fn traced_quads(quad: [Point; 4], contour: &[Point]) -> Vec<[Point; 4]> {
    let n = contour.len();
    if n < 40 {
        return Vec::new();
    }
    let side = super::mean_side(quad);
    // Long enough for a precise direction, short enough to stay on the side when the far
    // corner is wrong. The first few points round the corner and are skipped.
    let window = ((0.3 * side) as usize).clamp(8, n / 8);
    let skip = ((0.03 * side) as usize).clamp(1, 6);
    let index_of = |q: Point| -> usize {
        (0..n)
            .min_by(|&i, &j| contour[i].distance(q).total_cmp(&contour[j].distance(q)))
            .unwrap_or(0)
    };
    // Per corner: (line towards the next corner, line towards the previous corner), and the
    // unit directions of those runs away from the corner.
    let mut sides: [(Option<Line>, Option<Line>); 4] = [(None, None); 4];
    let mut runs = [(Point::default(), Point::default()); 4];
    for k in 0..4 {
        let at = index_of(quad[k]);
        let forward: Vec<Point> = (skip..skip + window)
            .map(|i| contour[(at + i) % n])
            .collect();
        let backward: Vec<Point> = (skip..skip + window)
            .map(|i| contour[(at + n - i % n) % n])
            .collect();
        let (lf, lb) = (robust_line(&forward), robust_line(&backward));
        // The quad is convex and ordered, so the turn from "towards next" to "towards
        // previous" has one sign at every corner; the traced runs turn the same way.
        let to_next = quad[(k + 1) % 4] - quad[k];
        let to_prev = quad[(k + 3) % 4] - quad[k];
        let run_f = mean(&forward) - quad[k];
        let run_b = mean(&backward) - quad[k];
        (sides[k], runs[k]) = if to_next.cross(to_prev).signum() == run_f.cross(run_b).signum() {
            ((lf, lb), (run_f.unit(), run_b.unit()))
        } else {
            ((lb, lf), (run_b.unit(), run_f.unit()))
        };
    }
    let meet = |a: Option<Line>, b: Option<Line>| -> Option<Point> { a?.intersect(&b?) };
    let own = |k: usize| meet(sides[k].0, sides[k].1);
    let mut out = Vec::new();
    let mut push = |q: [Option<Point>; 4]| {
        let [Some(a), Some(b), Some(c), Some(d)] = q else {
            return;
        };
        let q = [a, b, c, d];
        if q.iter().all(|p| p.is_finite()) && is_convex(q) {
            out.push(q);
        }
    };
    push([own(0), own(1), own(2), own(3)]);
    for wrong in 0..4 {
        let mut q = [own(0), own(1), own(2), own(3)];
        // Side (wrong-1, wrong) traced from wrong-1, side (wrong, wrong+1) from wrong+1.
        q[wrong] = meet(sides[(wrong + 3) % 4].0, sides[(wrong + 1) % 4].1);
        push(q);
    }
    // Two neighbouring corners lost (the outline swallowed a whole side): keep the side
    // between the two good corners, run the two traced sides out from them for the same
    // length (a square seen with moderate perspective); refinement corrects the rest.
    for first in 0..4 {
        let (a, b) = (first, (first + 1) % 4);
        let (c, d) = ((first + 2) % 4, (first + 3) % 4);
        let (Some(qc), Some(qd)) = (own(c), own(d)) else {
            continue;
        };
        let side = qc.distance(qd);
        let mut q = [None; 4];
        q[c] = Some(qc);
        q[d] = Some(qd);
        // From c the run towards its previous corner (b); from d towards its next (a).
        q[b] = Some(qc + runs[c].1.scaled(side));
        q[a] = Some(qd + runs[d].0.scaled(side));
        push(q);
    }
    out
}

/// True when the quad (in order) turns the same way at all four corners.
fn is_convex(q: [Point; 4]) -> bool {
    let turns: Vec<f32> = (0..4)
        .map(|i| (q[(i + 1) % 4] - q[i]).cross(q[(i + 2) % 4] - q[(i + 1) % 4]))
        .collect();
    turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outline of a square of side 100 at (50, 50), merged at its bottom-right corner
    /// with a blob that runs off to (260, 300), as a contour (clockwise in image space).
    fn merged_outline() -> (Vec<Point>, [Point; 4]) {
        let mut c = Vec::new();
        let mut run = |a: Point, b: Point| {
            let steps = a.distance(b).ceil() as usize;
            for i in 0..steps {
                c.push(a.lerp(b, i as f32 / steps as f32));
            }
        };
        let (tl, tr, bl) = (
            Point::new(50.0, 50.0),
            Point::new(150.0, 50.0),
            Point::new(50.0, 150.0),
        );
        run(tl, tr);
        run(tr, Point::new(150.0, 110.0));
        run(Point::new(150.0, 110.0), Point::new(260.0, 300.0));
        run(Point::new(260.0, 300.0), Point::new(110.0, 150.0));
        run(Point::new(110.0, 150.0), bl);
        run(bl, tl);
        (c, [tl, tr, Point::new(260.0, 300.0), bl])
    }

    #[test]
    fn rebuilds_a_corner_lost_in_a_merged_blob() {
        let (contour, hull_quad) = merged_outline();
        let quads = traced_quads(hull_quad, &contour);
        let truth = Point::new(150.0, 150.0);
        assert!(
            quads.iter().any(|q| q[2].distance(truth) < 2.0),
            "no quad puts BR near {truth:?}: {quads:?}"
        );
    }

    #[test]
    fn rebuilds_two_corners_lost_along_one_side() {
        // Square (50,50)-(150,150) whose left side merged into a band running from
        // (20,10) down to (10,260): the hull's TL and BL are both off.
        let mut c = Vec::new();
        let mut run = |a: Point, b: Point| {
            let steps = a.distance(b).ceil() as usize;
            for i in 0..steps {
                c.push(a.lerp(b, i as f32 / steps as f32));
            }
        };
        let (tr, br) = (Point::new(150.0, 50.0), Point::new(150.0, 150.0));
        run(Point::new(20.0, 10.0), Point::new(40.0, 50.0));
        run(Point::new(40.0, 50.0), tr);
        run(tr, br);
        run(br, Point::new(40.0, 150.0));
        run(Point::new(40.0, 150.0), Point::new(10.0, 260.0));
        run(Point::new(10.0, 260.0), Point::new(20.0, 10.0));
        let hull_quad = [Point::new(20.0, 10.0), tr, br, Point::new(10.0, 260.0)];
        let quads = traced_quads(hull_quad, &c);
        let (tl, bl) = (Point::new(50.0, 50.0), Point::new(50.0, 150.0));
        assert!(
            quads
                .iter()
                .any(|q| q[0].distance(tl) < 3.0 && q[3].distance(bl) < 3.0),
            "{quads:?}"
        );
    }

    #[test]
    fn robust_line_ignores_a_bump() {
        let mut pts: Vec<Point> = (0..60).map(|i| Point::new(i as f32, 10.0)).collect();
        pts.extend((20..30).map(|i| Point::new(i as f32, 18.0)));
        let l = robust_line(&pts).unwrap();
        assert!(l.signed_distance(Point::new(100.0, 10.0)).abs() < 0.3);
    }
}
