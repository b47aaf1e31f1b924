//! A tiny stroke font for the digits 1–9: polylines in cell units (`0..1`, y down). Drawing
//! digits as strokes lets the overlay and the annotated PNG push every point through the same
//! perspective transform, so the solution is written *on the paper*, foreshortened like the
//! printed clues, with no font rasterizer.

/// The strokes of `digit` (1–9) as polylines in cell units; empty for anything else.
pub fn digit_strokes(digit: u8) -> &'static [&'static [(f32, f32)]] {
    match digit {
        1 => &[
            &[(0.40, 0.28), (0.55, 0.18), (0.55, 0.82)],
            &[(0.40, 0.82), (0.70, 0.82)],
        ],
        2 => &[&[
            (0.32, 0.32),
            (0.38, 0.21),
            (0.50, 0.17),
            (0.63, 0.21),
            (0.68, 0.32),
            (0.65, 0.44),
            (0.32, 0.82),
            (0.70, 0.82),
        ]],
        3 => &[
            &[
                (0.32, 0.22),
                (0.45, 0.17),
                (0.60, 0.19),
                (0.67, 0.30),
                (0.62, 0.43),
                (0.48, 0.48),
            ],
            &[
                (0.48, 0.48),
                (0.63, 0.53),
                (0.69, 0.66),
                (0.62, 0.79),
                (0.47, 0.83),
                (0.32, 0.78),
            ],
        ],
        4 => &[&[(0.60, 0.82), (0.60, 0.18), (0.28, 0.64), (0.74, 0.64)]],
        5 => &[&[
            (0.67, 0.18),
            (0.36, 0.18),
            (0.33, 0.47),
            (0.48, 0.42),
            (0.62, 0.46),
            (0.69, 0.60),
            (0.66, 0.75),
            (0.52, 0.83),
            (0.34, 0.78),
        ]],
        6 => &[&[
            (0.64, 0.20),
            (0.50, 0.17),
            (0.38, 0.24),
            (0.32, 0.40),
            (0.32, 0.65),
            (0.38, 0.79),
            (0.50, 0.83),
            (0.62, 0.79),
            (0.68, 0.67),
            (0.64, 0.54),
            (0.51, 0.48),
            (0.39, 0.52),
            (0.32, 0.62),
        ]],
        7 => &[&[(0.30, 0.18), (0.70, 0.18), (0.46, 0.82)]],
        8 => &[&[
            (0.50, 0.48),
            (0.36, 0.42),
            (0.33, 0.30),
            (0.39, 0.20),
            (0.50, 0.17),
            (0.61, 0.20),
            (0.67, 0.30),
            (0.64, 0.42),
            (0.50, 0.48),
            (0.35, 0.55),
            (0.31, 0.68),
            (0.37, 0.79),
            (0.50, 0.83),
            (0.63, 0.79),
            (0.69, 0.68),
            (0.65, 0.55),
            (0.50, 0.48),
        ]],
        9 => &[&[
            (0.68, 0.38),
            (0.62, 0.48),
            (0.50, 0.52),
            (0.38, 0.48),
            (0.32, 0.35),
            (0.38, 0.22),
            (0.50, 0.17),
            (0.62, 0.21),
            (0.68, 0.33),
            (0.68, 0.60),
            (0.62, 0.76),
            (0.50, 0.83),
            (0.36, 0.80),
        ]],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_digit_has_strokes_inside_the_cell_and_they_differ() {
        let mut seen = Vec::new();
        for d in 1..=9 {
            let strokes = digit_strokes(d);
            assert!(!strokes.is_empty(), "digit {d}");
            for s in strokes {
                assert!(s.len() >= 2);
                for &(x, y) in *s {
                    assert!((0.1..=0.9).contains(&x) && (0.1..=0.9).contains(&y));
                }
            }
            assert!(!seen.contains(&strokes), "digit {d} duplicates another");
            seen.push(strokes);
        }
        assert!(digit_strokes(0).is_empty() && digit_strokes(10).is_empty());
    }
}
