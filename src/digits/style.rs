//! Printed or handwritten, decided per photo from how each digit's ink looks
//! (`vision::ink`), for a model without a `kind` output (the bundled one).
//!
//! A puzzle's printed givens share one font, one glyph height, one stroke and one ink — the
//! grid's; handwriting varies. So the print of a photo is found first, as the largest set
//! of digit cells that look alike (`print_cluster`: glyph height, ink darkness and colour,
//! stroke, close to one another; seeded, where the photo allows, by cells whose ink has the
//! grid lines' colour, and weighing a member steeply more the more exactly its glyph
//! repeats another of its digit, as a font's do and a hand's do not, so a hand that wrote
//! more cells than the print does not outweigh it). Every digit cell is then described by
//! how far it lies from the print of its neighbourhood (the nearest cells of that set), in
//! units of the print's own spread in the photo ([`cell_features`]), and a small fixed
//! network (`style_weights.rs`, fitted by `models/train/fit_style.py` on training photos
//! only) turns that into a probability of handwriting. The calls are then settled per
//! photo: by the pen's colour where it differs clearly from the print's
//! (`digits::pen_colour`), by the half-turn symmetry most published givens have
//! (`digits::symmetry`), and finally by the puzzle itself (`digits::puzzle_settle`):
//! printed givens alone have exactly one solution, so when the split's givens do not, the
//! least sure calls are flipped until they do (if a few flips can do it); and on a page far
//! along, whose split calls more givens than a published puzzle has, by how exactly each
//! glyph repeats the print's (`digits::font`). Pure arithmetic over measurements and
//! readings; it does not sample images (see `vision::ink`).

use super::CellReading;
use super::font::settle_by_font;
use super::pen_colour::settle_by_colour;
use super::puzzle_settle::settle_by_puzzle;
use super::style_weights::{B1, B2, HIDDEN, INPUTS, W1, W2};
use super::symmetry::settle_by_symmetry;
use crate::vision::ink::{CellInk, GridInk, LineInk, luma};

/// Number of inputs per cell of the network (see [`cell_features`]).
pub const FEATURES: usize = 13;

/// How near two cells' measurements must be to count as the same print (glyph height in
/// cell units, darkness as ink/paper luma, colour as contrast-relative chroma, stroke width
/// in cell units).
const SAME_PRINT: Measures = Measures {
    height: 0.03,
    darkness: 0.12,
    blue: 0.08,
    green: 0.08,
    stroke: 0.012,
    centre_x: f32::INFINITY,
    centre_y: f32::INFINITY,
};

/// The least spread assumed for the print of a photo (a measurement's resolution), so one
/// sample's difference on a perfectly uniform print is not taken as far.
const LEAST_SPREAD: Measures = Measures {
    height: 0.012,
    darkness: 0.03,
    blue: 0.03,
    green: 0.03,
    stroke: 0.006,
    centre_x: 0.012,
    centre_y: 0.012,
};

/// How far from the grid lines' colour a cell's ink may be and still seed the print.
const LINE_COLOUR_NEAR: f32 = 0.2;

/// Seeds needed before the print is sought among line-coloured cells only.
const MIN_SEEDS: usize = 10;

/// [`repeat_weight`]: the power the likeness is raised to, and the weight of any member.
const REPEAT_POWER: i32 = 8;
const REPEAT_FLOOR: f32 = 0.05;

/// Print cells of the neighbourhood a cell is compared with.
const NEIGHBOURS: usize = 6;

/// The measurements of one digit's ink that are compared across cells.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Measures {
    height: f32,
    darkness: f32,
    blue: f32,
    green: f32,
    stroke: f32,
    centre_x: f32,
    centre_y: f32,
}

impl Measures {
    fn to_array(self) -> [f32; 7] {
        [
            self.height,
            self.darkness,
            self.blue,
            self.green,
            self.stroke,
            self.centre_x,
            self.centre_y,
        ]
    }
}

/// Chroma of `ink` against `paper`, beyond what a neutral ink of that darkness shows, per unit
/// of contrast: (blue − red, green − magenta).
fn chroma(ink: [f32; 3], paper: [f32; 3]) -> (f32, f32) {
    let t = luma(ink) / luma(paper).max(1.0);
    let contrast = (luma(paper) - luma(ink)).max(1.0);
    let br = |c: [f32; 3]| c[2] - c[0];
    let gm = |c: [f32; 3]| c[1] - (c[0] + c[2]) / 2.0;
    (
        (br(ink) - t * br(paper)) / contrast,
        (gm(ink) - t * gm(paper)) / contrast,
    )
}

fn measures(c: &CellInk) -> Measures {
    let (blue, green) = chroma(c.ink, c.paper);
    Measures {
        height: c.bbox[3] - c.bbox[1],
        darkness: luma(c.ink) / luma(c.paper).max(1.0),
        blue,
        green,
        stroke: c.stroke,
        centre_x: (c.bbox[0] + c.bbox[2]) / 2.0 - 0.5,
        centre_y: (c.bbox[1] + c.bbox[3]) / 2.0 - 0.5,
    }
}

/// The grid lines' darkness and chroma, as [`measures`] reads a cell's.
fn line_measures(l: &LineInk) -> (f32, f32, f32) {
    let (blue, green) = chroma(l.ink, l.paper);
    (luma(l.ink) / luma(l.paper).max(1.0), blue, green)
}

fn median(mut v: Vec<f32>) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// Normalized cross-correlation of two glyph shapes (0 when either is flat).
fn correlation(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len()).max(1) as f32;
    let (ma, mb) = (a.iter().sum::<f32>() / n, b.iter().sum::<f32>() / n);
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        ab += (x - ma) * (y - mb);
        aa += (x - ma) * (x - ma);
        bb += (y - mb) * (y - mb);
    }
    if aa <= 1e-6 || bb <= 1e-6 {
        0.0
    } else {
        ab / (aa * bb).sqrt()
    }
}

/// For each cell, how alike its glyph is to the most alike other cell read as the same digit
/// (normalized cross-correlation of the shapes; `None` without another such cell): a font
/// repeats itself, a hand less so.
fn likeness(shapes: &[&CellInk], digits: &[u8]) -> Vec<Option<f32>> {
    (0..shapes.len())
        .map(|c| most_alike(shapes, digits, c, 0..shapes.len()))
        .collect()
}

/// How alike the glyph of cell `c` is to the most alike of the cells `among` (other than
/// `c`) read as the same digit: their best normalized cross-correlation of shapes, `None`
/// without such a cell.
fn most_alike(
    shapes: &[&CellInk],
    digits: &[u8],
    c: usize,
    among: impl IntoIterator<Item = usize>,
) -> Option<f32> {
    among
        .into_iter()
        .filter(|&o| o != c && digits[o] == digits[c])
        .map(|o| correlation(&shapes[c].shape, &shapes[o].shape))
        .max_by(f32::total_cmp)
}

/// How much one member weighs in [`print_cluster`] by its glyph's `likeness`: a font
/// repeats almost exactly (correlation ~0.98 between two prints of one digit) and a hand does
/// not (~0.7), so the weight rises steeply towards an exact repeat; a little weight stays
/// with any member, so between two prints the larger set still wins. With a gentler weight
/// a hand that wrote more cells than the print (a page far along) outweighed it.
fn repeat_weight(likeness: Option<f32>) -> f32 {
    REPEAT_FLOOR + likeness.unwrap_or(0.0).max(0.0).powi(REPEAT_POWER)
}

/// The print of a photo: the indices (into `cells`) of the set of cells that measure alike
/// around one of them (see the module doc) and weighs most, a cell weighing more the more
/// its glyph repeats (`likeness`). `seeds` marks the cells that may be the centre.
fn print_cluster(cells: &[Measures], likeness: &[Option<f32>], seeds: &[bool]) -> Vec<usize> {
    let near = SAME_PRINT.to_array();
    let mut best: Vec<usize> = Vec::new();
    let mut best_weight = 0.0f32;
    let mut best_spread = f32::INFINITY;
    for (c, centre) in cells.iter().enumerate() {
        if !seeds[c] {
            continue;
        }
        let a = centre.to_array();
        let members: Vec<usize> = (0..cells.len())
            .filter(|&j| {
                let b = cells[j].to_array();
                (0..7).all(|k| (a[k] - b[k]).abs() <= near[k])
            })
            .collect();
        let heights: Vec<f32> = members.iter().map(|&j| cells[j].height).collect();
        let mean = heights.iter().sum::<f32>() / heights.len().max(1) as f32;
        let spread = heights.iter().map(|h| (h - mean).powi(2)).sum::<f32>();
        let weight: f32 = members.iter().map(|&j| repeat_weight(likeness[j])).sum();
        if weight > best_weight || (weight == best_weight && spread < best_spread) {
            best_weight = weight;
            best_spread = spread;
            best = members;
        }
    }
    best
}

/// The network's inputs for every digit cell (`digit[i]`) of a photo whose ink was measured
/// (`None` elsewhere, and for every cell when the lines could not be measured): per measure
/// the signed `ln(1 + |z|)` of its distance from the print of the cell's neighbourhood in
/// units of the print's spread in the photo, then the ink's chroma and darkness against the
/// grid lines' and `ln(1 − confidence)` of the digit reading, then how alike the glyph is to
/// the most alike other glyph of the same digit (0 without one) and whether there is one.
pub fn cell_features(ink: &GridInk, readings: &[CellReading]) -> Vec<Option<[f32; FEATURES]>> {
    analyse(ink, readings).features
}

/// What [`analyse`] finds on one photo, per cell (row-major, `None` where not measured).
struct Analysis {
    /// The network's inputs ([`cell_features`]).
    features: Vec<Option<[f32; FEATURES]>>,
    /// How alike each digit's glyph is to the most alike glyph of the same digit in the
    /// print (itself left out): see `digits::font`.
    font_match: Vec<Option<f32>>,
}

/// Finds the print of a photo and describes every digit cell against it.
fn analyse(ink: &GridInk, readings: &[CellReading]) -> Analysis {
    let mut out = vec![None; ink.cells.len()];
    let mut font_match = vec![None; ink.cells.len()];
    let Some(lines) = &ink.lines else {
        return Analysis {
            features: out,
            font_match,
        };
    };
    let (line_dark, line_blue, line_green) = line_measures(lines);
    // Digit cells with a measured glyph.
    let index: Vec<usize> = (0..ink.cells.len().min(readings.len()))
        .filter(|&i| readings[i].class.digit().is_some() && ink.cells[i].is_some())
        .collect();
    let glyphs: Vec<&CellInk> = index
        .iter()
        .filter_map(|&i| ink.cells[i].as_ref())
        .collect();
    let cells: Vec<Measures> = glyphs.iter().map(|g| measures(g)).collect();
    let digits: Vec<u8> = index.iter().map(|&i| readings[i].class.value()).collect();
    let alike = likeness(&glyphs, &digits);
    let line_coloured: Vec<bool> = cells
        .iter()
        .map(|m| {
            (m.blue - line_blue).abs() < LINE_COLOUR_NEAR
                && (m.green - line_green).abs() < LINE_COLOUR_NEAR
        })
        .collect();
    let seeds = if line_coloured.iter().filter(|&&s| s).count() >= MIN_SEEDS {
        line_coloured
    } else {
        vec![true; cells.len()]
    };
    let print = print_cluster(&cells, &alike, &seeds);
    if print.is_empty() {
        return Analysis {
            features: out,
            font_match,
        };
    }
    let column = |k: usize, of: &[usize]| -> Vec<f32> {
        of.iter().map(|&j| cells[j].to_array()[k]).collect()
    };
    let reference: [f32; 7] = std::array::from_fn(|k| median(column(k, &print)));
    let least = LEAST_SPREAD.to_array();
    let spread: [f32; 7] = std::array::from_fn(|k| {
        let dev = column(k, &print)
            .iter()
            .map(|v| (v - reference[k]).abs())
            .collect();
        (1.4826 * median(dev)).max(least[k])
    });
    for (c, m) in cells.iter().enumerate() {
        let i = index[c];
        let (row, col) = ((i / 9) as i32, (i % 9) as i32);
        let mut near: Vec<usize> = print.iter().copied().filter(|&j| j != c).collect();
        near.sort_by_key(|&j| {
            let (r, q) = ((index[j] / 9) as i32, (index[j] % 9) as i32);
            ((r - row).pow(2) + (q - col).pow(2), index[j])
        });
        near.truncate(NEIGHBOURS);
        let local: [f32; 7] = if near.len() >= 3 {
            std::array::from_fn(|k| median(column(k, &near)))
        } else {
            reference
        };
        let a = m.to_array();
        let mut f = [0.0f32; FEATURES];
        for k in 0..7 {
            let z = (a[k] - local[k]) / spread[k];
            f[k] = z.signum() * z.abs().ln_1p();
        }
        f[7] = m.blue - line_blue;
        f[8] = m.green - line_green;
        f[9] = m.darkness - line_dark;
        f[10] = (1.0001 - readings[i].confidence).max(1e-6).ln();
        f[11] = alike[c].unwrap_or(0.0);
        f[12] = if alike[c].is_some() { 1.0 } else { 0.0 };
        out[i] = Some(f);
        font_match[i] = most_alike(&glyphs, &digits, c, print.iter().copied());
    }
    Analysis {
        features: out,
        font_match,
    }
}

/// The network's logit of handwriting for one cell's features (positive: handwritten).
pub fn handwriting_logit(features: &[f32; FEATURES]) -> f32 {
    let mut out = B2;
    for h in 0..HIDDEN {
        let s: f32 = B1[h] + W1[h].iter().zip(features).map(|(w, f)| w * f).sum::<f32>();
        out += W2[h] * s.tanh();
    }
    out
}

// The fitted weights must be for these features (re-run fit_style.py after changing them).
const _: () = assert!(INPUTS == FEATURES);

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The logit of handwriting of every digit cell of a photo (`None` for other cells). A digit
/// whose ink could not be measured gets the logit of all-zero features: a print-like call.
pub fn handwriting_logits(ink: &GridInk, readings: &[CellReading]) -> Vec<Option<f32>> {
    logits_of(&cell_features(ink, readings), readings)
}

/// [`handwriting_logits`] from the cells' features.
fn logits_of(features: &[Option<[f32; FEATURES]>], readings: &[CellReading]) -> Vec<Option<f32>> {
    if features.iter().all(Option::is_none) {
        return vec![None; readings.len()];
    }
    readings
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.class.digit()?;
            let f = features
                .get(i)
                .copied()
                .flatten()
                .unwrap_or([0.0; FEATURES]);
            Some(handwriting_logit(&f))
        })
        .collect()
}

/// Fills the probability of handwriting of every digit reading that has none, from the ink
/// measured on the photo (see the module doc). Readings that have one (a model with a `kind`
/// output) are left alone, as are all readings when the ink could not be measured.
pub fn fill_handwriting(readings: &mut [CellReading], ink: &GridInk) {
    if readings.iter().any(|r| r.handwritten.is_some()) {
        return;
    }
    let values = super::read_values(readings);
    let Analysis {
        features,
        font_match,
    } = analyse(ink, readings);
    let by_ink = settle_by_colour(&features, &logits_of(&features, readings));
    let logits = settle_by_puzzle(&values, &settle_by_symmetry(&values, &by_ink));
    let logits = settle_by_font(&values, &logits, &font_match);
    for (r, l) in readings.iter_mut().zip(logits) {
        if let Some(l) = l {
            r.handwritten = Some(logistic(l));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::NUM_CLASSES;

    fn digit(d: u8) -> CellReading {
        let mut p = [0.0f32; NUM_CLASSES];
        p[d as usize] = 1.0;
        CellReading::from_probabilities(p)
    }

    fn glyph(height: f32, ink: [f32; 3], stroke: f32) -> CellInk {
        let top = 0.5 - height / 2.0;
        CellInk {
            paper: [230.0, 228.0, 220.0],
            ink,
            bbox: [0.35, top, 0.65, top + height],
            ink_share: 0.1,
            stroke,
            shape: [0.0; crate::vision::ink::SHAPE_COLS * crate::vision::ink::SHAPE_ROWS],
        }
    }

    /// A photo whose printed digits are one black font and whose entries are larger, in
    /// blue-black pen, slightly off centre: the split follows the writing, whichever kind
    /// there is more of.
    #[test]
    fn splits_a_constructed_photo_by_its_print() {
        let puzzle =
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
        let givens = crate::sudoku::parse_values(puzzle).unwrap();
        let solution = crate::sudoku::solver::solve_values(&givens, 1)
            .first
            .unwrap();
        for entries_wanted in [10usize, 45] {
            let mut cells = vec![None; 81];
            let mut readings: Vec<CellReading> = (0..81)
                .map(|_| {
                    CellReading::from_probabilities({
                        let mut p = [0.0; NUM_CLASSES];
                        p[0] = 1.0;
                        p
                    })
                })
                .collect();
            let mut entries = Vec::new();
            for i in 0..81 {
                let wobble = ((i * 37 % 11) as f32 - 5.0) / 5.0; // −1..1, deterministic
                if givens[i] != 0 {
                    cells[i] = Some(glyph(0.56 + 0.004 * wobble, [25.0, 25.0, 28.0], 0.07));
                    readings[i] = digit(givens[i]);
                } else if entries.len() < entries_wanted {
                    entries.push(i);
                    let mut c = glyph(0.72 + 0.08 * wobble, [60.0, 62.0, 110.0], 0.06);
                    c.bbox[0] += 0.05 * wobble;
                    c.bbox[2] += 0.05 * wobble;
                    cells[i] = Some(c);
                    readings[i] = digit(solution[i]);
                }
            }
            let ink = GridInk {
                lines: Some(LineInk {
                    ink: [60.0, 60.0, 62.0],
                    paper: [225.0, 224.0, 216.0],
                }),
                cells,
            };
            fill_handwriting(&mut readings, &ink);
            for i in 0..81 {
                let want = if givens[i] != 0 {
                    Some(super::super::Writing::Printed)
                } else if entries.contains(&i) {
                    Some(super::super::Writing::Handwritten)
                } else {
                    None
                };
                assert_eq!(
                    readings[i].writing(),
                    want,
                    "cell {i}, {entries_wanted} entries"
                );
            }
        }
    }
}
