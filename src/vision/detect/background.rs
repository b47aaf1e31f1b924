//! The paper's own level under the ink, and the ink mask cut down to marks darker than it.
//!
//! The box-mean threshold (`threshold::ink_mask`) marks a pixel as ink when it is darker than
//! the mean of the box around it. Beside a hard shadow's edge (a phone or a hand between the
//! lamp and the page), or beside the page's edge on a dark desk, the box takes in the lit side
//! too, so a band of the dark side as wide as the box's half becomes "ink": it crosses the
//! grid, joins its outline to the shadow's, and fills the half-way lines the validation
//! looks at. The paper's level itself is a grey *closing* of the picture (the largest level
//! within a small window, then the smallest within it again): strokes and lines thinner than
//! the window vanish into the paper around them, while a shadow's edge, wider than any
//! window, stays where it is. Ink is then what is darker than that level as well.
//!
//! Owns the closing and the cut; which detection tries use it is the orchestrator's
//! (`detect::mod`) and the live schedule's (`live::tries`).

use image::GrayImage;

/// The picture's grey closing over a square window of side `2·half + 1` pixels: every
/// pixel the least, over the windows holding it, of each window's largest level. Marks
/// narrower than the window take the level of the paper around them; edges of regions wider
/// than it (shadows, the page against the desk) are kept. Windows are clipped at the
/// picture's border. Linear in the pixels whatever the window (van Herk / Gil–Werman).
pub(super) fn closing(image: &GrayImage, half: u32) -> GrayImage {
    let (w, h) = image.dimensions();
    let half = half as usize;
    let (wu, hu) = (w as usize, h as usize);
    // Rows first, then columns through a transpose, so every pass runs along memory.
    let mut rows_max = image.as_raw().clone();
    run_rows(&mut rows_max, wu, half, Extremum::Max);
    let mut cols = transpose(&rows_max, wu, hu);
    run_rows(&mut cols, hu, half, Extremum::Max);
    run_rows(&mut cols, hu, half, Extremum::Min);
    let mut out = transpose(&cols, hu, wu);
    run_rows(&mut out, wu, half, Extremum::Min);
    GrayImage::from_raw(w, h, out).unwrap_or_else(|| GrayImage::new(w, h))
}

/// `mask` (255 = ink, the box-mean threshold of `gray`) without the ink that is not at least
/// `delta` levels darker than the paper's level ([`closing`] over a window of side
/// `2·half + 1`): the bands the box mean marks beside a shadow's edge or the page's edge.
pub(super) fn keep_ink_below_background(
    mask: &mut GrayImage,
    gray: &GrayImage,
    half: u32,
    delta: u32,
) {
    if mask.dimensions() != gray.dimensions() {
        return;
    }
    let background = closing(gray, half);
    for ((m, &v), &b) in mask.iter_mut().zip(gray.as_raw()).zip(background.as_raw()) {
        if u32::from(v) + delta >= u32::from(b) {
            *m = 0;
        }
    }
}

#[derive(Clone, Copy)]
enum Extremum {
    Max,
    Min,
}

impl Extremum {
    fn of(self, a: u8, b: u8) -> u8 {
        match self {
            Extremum::Max => a.max(b),
            Extremum::Min => a.min(b),
        }
    }

    /// The level that never wins (padding beyond the picture's border).
    fn neutral(self) -> u8 {
        match self {
            Extremum::Max => 0,
            Extremum::Min => u8::MAX,
        }
    }
}

/// Replaces every row of `data` (rows of `width`) by its running extremum over windows of
/// `2·half + 1` centred on each pixel (clipped at the row's ends).
fn run_rows(data: &mut [u8], width: usize, half: usize, op: Extremum) {
    if width == 0 || half == 0 {
        return;
    }
    let window = 2 * half + 1;
    let padded = width + 2 * half;
    let mut line = vec![op.neutral(); padded];
    let mut prefix = vec![0u8; padded];
    let mut suffix = vec![0u8; padded];
    for row in data.chunks_exact_mut(width) {
        line[half..half + width].copy_from_slice(row);
        for (i, &v) in line.iter().enumerate() {
            prefix[i] = if i % window == 0 {
                v
            } else {
                op.of(prefix[i - 1], v)
            };
        }
        for i in (0..padded).rev() {
            let v = line[i];
            suffix[i] = if i % window == window - 1 || i + 1 == padded {
                v
            } else {
                op.of(suffix[i + 1], v)
            };
        }
        // The window of pixel x covers padded indices x ..= x + 2·half: the suffix of its
        // first block and the prefix of its last.
        for (x, out) in row.iter_mut().enumerate() {
            *out = op.of(suffix[x], prefix[x + window - 1]);
        }
    }
}

/// The transpose of a `width` × `height` row-major buffer.
fn transpose(data: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; data.len()];
    for (y, row) in data.chunks_exact(width).enumerate().take(height) {
        for (x, &v) in row.iter().enumerate() {
            out[x * height + y] = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The closing by brute force: min over windows holding p of the window's max.
    fn closing_brute(image: &GrayImage, half: u32) -> GrayImage {
        let (w, h) = image.dimensions();
        let half = half as i64;
        let window_max = |cx: i64, cy: i64| {
            let mut m = 0u8;
            for y in (cy - half).max(0)..=(cy + half).min(h as i64 - 1) {
                for x in (cx - half).max(0)..=(cx + half).min(w as i64 - 1) {
                    m = m.max(image.get_pixel(x as u32, y as u32).0[0]);
                }
            }
            m
        };
        let dilated =
            GrayImage::from_fn(w, h, |x, y| image::Luma([window_max(x as i64, y as i64)]));
        GrayImage::from_fn(w, h, |x, y| {
            let (cx, cy) = (x as i64, y as i64);
            let mut m = u8::MAX;
            for y in (cy - half).max(0)..=(cy + half).min(h as i64 - 1) {
                for x in (cx - half).max(0)..=(cx + half).min(w as i64 - 1) {
                    m = m.min(dilated.get_pixel(x as u32, y as u32).0[0]);
                }
            }
            image::Luma([m])
        })
    }

    proptest! {
        #[test]
        fn closing_is_the_brute_force_closing(
            w in 1u32..24,
            h in 1u32..24,
            half in 0u32..6,
            seed in any::<u64>(),
        ) {
            let mut state = seed | 1;
            let image = GrayImage::from_fn(w, h, |_, _| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                image::Luma([(state % 256) as u8])
            });
            prop_assert_eq!(closing(&image, half), closing_brute(&image, half));
        }
    }

    /// A lit page (200) with a shadow (90) over its right half, a thin dark line (40 in the
    /// light, 20 in the shadow) across both, and the box-mean mask made of it.
    fn shadowed_page() -> (GrayImage, GrayImage) {
        let gray = GrayImage::from_fn(120, 80, |x, y| {
            let line = (38..41).contains(&y);
            let level = match (x < 60, line) {
                (true, false) => 200,
                (true, true) => 40,
                (false, false) => 90,
                (false, true) => 20,
            };
            image::Luma([level])
        });
        let mask = super::super::threshold::ink_mask(&gray, 8, 8);
        (gray, mask)
    }

    #[test]
    fn a_shadows_edge_is_no_ink_but_a_line_through_the_shadow_is() {
        let (gray, mut mask) = shadowed_page();
        // The box mean marks the shadow's side of its edge (away from the line) as ink.
        assert_eq!(mask.get_pixel(62, 10).0[0], 255);
        keep_ink_below_background(&mut mask, &gray, 4, 8);
        assert_eq!(mask.get_pixel(62, 10).0[0], 0, "the shadow's edge");
        for x in [10, 59, 61, 110] {
            assert_eq!(mask.get_pixel(x, 39).0[0], 255, "the line at x = {x}");
        }
        let ink = mask.pixels().filter(|p| p.0[0] == 255).count();
        assert!(ink <= 3 * 120, "only the line is left: {ink} ink pixels");
    }
}
