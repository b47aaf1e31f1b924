//! The printed/handwritten split of a photo settled by the colour of the pen.
//!
//! When a solver writes in a coloured pen (blue, red, green), a photo's digits fall into two
//! clearly separate colour groups: the print, in the grid lines' ink, and the pen.
//! [`settle_by_colour`] looks for that split within one photo (two-means on each digit's ink
//! chroma relative to the grid lines', `digits::style::cell_features` inputs 7 and 8) and,
//! only when the two groups are far apart with a gap between them, turns the unsure calls
//! of `digits::style` that disagree with their group. A photo in one ink (a printed
//! newspaper, a black pen) shows no such gap and keeps its calls. Pure arithmetic over
//! features and logits.

use super::style::FEATURES;

/// The least distance between the two groups' mean chroma (chroma per unit of contrast).
const MIN_SEPARATION: f32 = 0.3;

/// The least empty gap between the groups along the line joining their means.
const MIN_GAP: f32 = 0.15;

/// The fewest digits each group must hold.
const MIN_GROUP: usize = 3;

/// Calls surer than this |logit| of handwriting are kept whatever their colour.
const FLIP_BELOW_LOGIT: f32 = 2.0;

/// A digit's ink chroma relative to the grid lines' (features 7 and 8).
fn chroma(f: &[f32; FEATURES]) -> [f32; 2] {
    [f[7], f[8]]
}

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn mean(points: &[[f32; 2]], of: impl Fn(usize) -> bool) -> Option<[f32; 2]> {
    let (mut s, mut n) = ([0.0f32; 2], 0usize);
    for (i, p) in points.iter().enumerate() {
        if of(i) {
            s[0] += p[0];
            s[1] += p[1];
            n += 1;
        }
    }
    (n > 0).then(|| [s[0] / n as f32, s[1] / n as f32])
}

/// Which of `points` lie in the group of the grid lines' colour (`true`) rather than the
/// other, by two-means started from the point nearest the lines' colour and the point
/// farthest from it; `None` when the two groups are not clearly apart (see the module doc).
fn line_coloured(points: &[[f32; 2]]) -> Option<Vec<bool>> {
    let origin = [0.0f32; 2];
    let mut c0 = *points
        .iter()
        .min_by(|a, b| distance(**a, origin).total_cmp(&distance(**b, origin)))?;
    let mut c1 = *points
        .iter()
        .max_by(|a, b| distance(**a, c0).total_cmp(&distance(**b, c0)))?;
    let mut near: Vec<bool> = Vec::new();
    for _ in 0..20 {
        near = points
            .iter()
            .map(|p| distance(*p, c0) <= distance(*p, c1))
            .collect();
        let (Some(m0), Some(m1)) = (mean(points, |i| near[i]), mean(points, |i| !near[i])) else {
            return None;
        };
        (c0, c1) = (m0, m1);
    }
    let inside = near.iter().filter(|&&n| n).count();
    if inside < MIN_GROUP || points.len() - inside < MIN_GROUP {
        return None;
    }
    let separation = distance(c0, c1);
    if separation <= MIN_SEPARATION {
        return None;
    }
    let along = |p: &[f32; 2]| {
        ((p[0] - c0[0]) * (c1[0] - c0[0]) + (p[1] - c0[1]) * (c1[1] - c0[1])) / separation
    };
    let farthest_near = points
        .iter()
        .zip(&near)
        .filter(|(_, n)| **n)
        .map(|(p, _)| along(p))
        .fold(f32::NEG_INFINITY, f32::max);
    let nearest_far = points
        .iter()
        .zip(&near)
        .filter(|(_, n)| !**n)
        .map(|(p, _)| along(p))
        .fold(f32::INFINITY, f32::min);
    (nearest_far - farthest_near > MIN_GAP).then_some(near)
}

/// The `logits` of handwriting (`None`: not a digit; positive: handwritten) with the unsure
/// calls (|logit| below `FLIP_BELOW_LOGIT`) that disagree with their colour group negated,
/// when the photo's digits (those with `features`) split clearly into the grid lines'
/// colour and a pen's; otherwise unchanged.
pub fn settle_by_colour(
    features: &[Option<[f32; FEATURES]>],
    logits: &[Option<f32>],
) -> Vec<Option<f32>> {
    let cells: Vec<usize> = (0..logits.len())
        .filter(|&i| logits[i].is_some() && features.get(i).copied().flatten().is_some())
        .collect();
    let points: Vec<[f32; 2]> = cells
        .iter()
        .filter_map(|&i| features[i].as_ref().map(chroma))
        .collect();
    let Some(printed) = line_coloured(&points) else {
        return logits.to_vec();
    };
    let mut out = logits.to_vec();
    for (&i, &printed) in cells.iter().zip(&printed) {
        if let Some(l) = out[i]
            && l.abs() < FLIP_BELOW_LOGIT
            && (l > 0.0) == printed
        {
            out[i] = Some(-l);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(blue: f32, green: f32) -> Option<[f32; FEATURES]> {
        let mut f = [0.0; FEATURES];
        f[7] = blue;
        f[8] = green;
        Some(f)
    }

    /// Twenty digits in the lines' ink and twelve in blue pen, with a little spread.
    fn blue_pen_photo() -> (Vec<Option<[f32; FEATURES]>>, Vec<Option<f32>>) {
        let mut features = vec![None; 81];
        let mut logits = vec![None; 81];
        for i in 0..32 {
            let wobble = ((i * 37 % 11) as f32 - 5.0) / 100.0; // −0.05..0.05
            features[i] = if i < 20 {
                cell(wobble, -wobble / 2.0)
            } else {
                cell(0.45 + wobble, -0.2)
            };
            logits[i] = Some(if i < 20 { -4.0 } else { 4.0 });
        }
        (features, logits)
    }

    #[test]
    fn unsure_calls_follow_the_pen_colour() {
        let (features, mut logits) = blue_pen_photo();
        logits[3] = Some(0.7); // print taken for handwriting, unsurely
        logits[25] = Some(-1.2); // pen taken for print, unsurely
        logits[5] = Some(3.0); // print taken for handwriting, surely: kept
        let settled = settle_by_colour(&features, &logits);
        assert_eq!(settled[3], Some(-0.7));
        assert_eq!(settled[25], Some(1.2));
        assert_eq!(settled[5], Some(3.0));
        let changed = (0..81).filter(|&i| settled[i] != logits[i]).count();
        assert_eq!(changed, 2);
    }

    #[test]
    fn one_ink_keeps_its_calls() {
        // A printed newspaper (or a black pen): chroma all near the lines', some unsure
        // calls either way; no colour split is made.
        let mut features = vec![None; 81];
        let mut logits = vec![None; 81];
        for i in 0..40 {
            let wobble = ((i * 37 % 11) as f32 - 5.0) / 80.0;
            features[i] = cell(wobble, wobble / 3.0);
            logits[i] = Some(if i % 3 == 0 { 1.0 } else { -1.0 });
        }
        assert_eq!(settle_by_colour(&features, &logits), logits);
        // Two groups that run into each other (no gap) are not a split either.
        for (i, f) in features.iter_mut().take(40).enumerate() {
            *f = cell(0.6 * i as f32 / 40.0, 0.0);
        }
        assert_eq!(settle_by_colour(&features, &logits), logits);
        // Nor is a pen group of fewer than three digits.
        let (features, mut logits) = blue_pen_photo();
        let mut features = features;
        for f in features.iter_mut().skip(22) {
            *f = None;
        }
        logits[3] = Some(0.7);
        assert_eq!(settle_by_colour(&features, &logits), logits);
    }
}
