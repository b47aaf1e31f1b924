//! Per-cell voting over frames: the classifier's probabilities of every read of one puzzle are
//! accumulated, so a cell misread on a blurred frame is outvoted by the sharp ones, and a cell
//! that reads differently from frame to frame keeps a low voted confidence instead of
//! flickering.
//!
//! Owns the sliding window of reads (a much sharper read retires the blurred ones held) and
//! the voted board; it does not decide when to read or whether the board is trusted
//! (`reader`).

use std::collections::VecDeque;

use crate::digits::{CLASS_PENCIL, CellReading, NUM_CLASSES};

/// Most cells a fresh read may disagree on (each of them unsure) and still confirm a trusted
/// board after the grid was lost and found again.
const CONFIRM_MAX_DISAGREEING: usize = 3;

/// The digits voted over the reads of one puzzle so far.
#[derive(Clone, Debug, PartialEq)]
pub struct VotedBoard {
    /// Voted value per cell, as the puzzle reads (0 empty, pencil marks count as empty).
    pub values: [u8; 81],
    /// Mean probability of the voted value over the reads, `0.0..=1.0`.
    pub confidence: [f32; 81],
    /// How many reads the vote is over.
    pub reads: u32,
}

impl VotedBoard {
    /// Cells whose voted confidence is below `digits::UNCERTAIN_BELOW` (drawn amber).
    pub fn uncertain(&self) -> [bool; 81] {
        self.confidence.map(crate::digits::is_uncertain)
    }

    /// The least confident cell's confidence.
    pub fn min_confidence(&self) -> f32 {
        self.confidence.iter().copied().fold(1.0, f32::min)
    }

    /// Number of cells whose voted confidence is below `confidence`.
    pub fn cells_below(&self, confidence: f32) -> usize {
        self.confidence.iter().filter(|&&c| c < confidence).count()
    }

    /// Number of digit cells.
    pub fn clue_count(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }
}

/// A held read is forgotten when a new read arrives that is much sharper: the held one has
/// more than `STALE_UNSURE_FACTOR` × the new read's unsure cells plus `STALE_UNSURE_MARGIN`.
/// The first reads of a page that has just come to rest are often blurred (the camera still
/// focusing; 19–25 of 81 cells unsure where the sharp reads after them have 1–5, on clips of
/// wichtounet-v2 photos); averaged in, they kept the vote doubtful until they slid out of the
/// window, 10 reads later, though every sharp read agreed. A steadily blurred picture keeps
/// all its reads: only a read much sharper than a held one retires it.
const STALE_UNSURE_FACTOR: usize = 2;
/// See [`STALE_UNSURE_FACTOR`].
const STALE_UNSURE_MARGIN: usize = 5;

/// One read: its probabilities per cell and value, and how many of its cells were unsure.
#[derive(Clone, Debug)]
struct Read {
    probabilities: Box<[[f32; 10]; 81]>,
    unsure: usize,
}

/// The probabilities of the last `window` reads of one puzzle, summed per cell and value.
#[derive(Clone, Debug)]
pub struct Votes {
    window: usize,
    reads: VecDeque<Read>,
}

/// A read's probabilities per solving value (0 = empty or pencil marks, 1–9).
fn value_probabilities(readings: &[CellReading]) -> Box<[[f32; 10]; 81]> {
    let mut out = Box::new([[0f32; 10]; 81]);
    for (cell, r) in out.iter_mut().zip(readings) {
        for (class, &p) in r.probabilities.iter().enumerate().take(NUM_CLASSES) {
            let value = if class == CLASS_PENCIL as usize {
                0
            } else {
                class
            };
            // Non-finite probabilities cannot come from `CellReading::from_logits`, but a
            // hand-made reading must not poison the sum.
            if p.is_finite() {
                cell[value] += p;
            }
        }
    }
    out
}

impl Votes {
    /// Votes over the last `window` reads (at least 1).
    pub fn new(window: usize) -> Votes {
        Votes {
            window: window.max(1),
            reads: VecDeque::new(),
        }
    }

    /// Adds one read (81 readings as the puzzle reads; anything else is ignored), forgetting
    /// held reads much blurrier than it (more than twice its unsure cells plus 5) and the
    /// oldest beyond the window.
    pub fn push(&mut self, readings: &[CellReading]) {
        if readings.len() != 81 {
            return;
        }
        let unsure = readings.iter().filter(|r| r.is_uncertain()).count();
        self.reads
            .retain(|held| held.unsure <= STALE_UNSURE_FACTOR * unsure + STALE_UNSURE_MARGIN);
        if self.reads.len() == self.window {
            self.reads.pop_front();
        }
        self.reads.push_back(Read {
            probabilities: value_probabilities(readings),
            unsure,
        });
    }

    /// Forgets every read.
    pub fn clear(&mut self) {
        self.reads.clear();
    }

    /// Reads held.
    pub fn len(&self) -> usize {
        self.reads.len()
    }

    /// Whether no read is held.
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty()
    }

    /// Mean probability over the reads held that `cell` (as the puzzle reads) holds `value`
    /// (0 empty or pencil marks, 1–9); 0 when no read is held or out of range.
    pub fn mean_probability(&self, cell: usize, value: u8) -> f32 {
        let n = self.reads.len();
        if n == 0 || cell >= 81 || value > 9 {
            return 0.0;
        }
        let sum: f32 = self
            .reads
            .iter()
            .map(|r| r.probabilities[cell][value as usize])
            .sum();
        (sum / n as f32).clamp(0.0, 1.0)
    }

    /// Whether one read `agrees` with the vote so far (none held: no).
    pub fn agree_with(&self, readings: &[CellReading]) -> bool {
        self.voted().is_some_and(|v| agrees(readings, &v.values))
    }

    /// The vote: per cell the value of the largest summed probability (ties to the smaller
    /// value, so empty first: a doubtful digit is safer left out) and its mean probability.
    pub fn voted(&self) -> Option<VotedBoard> {
        let n = self.reads.len();
        if n == 0 {
            return None;
        }
        let mut values = [0u8; 81];
        let mut confidence = [0f32; 81];
        for i in 0..81 {
            let mut sums = [0f32; 10];
            for read in &self.reads {
                for (s, p) in sums.iter_mut().zip(read.probabilities[i]) {
                    *s += p;
                }
            }
            let mut best = 0usize;
            for (v, &s) in sums.iter().enumerate() {
                if s > sums[best] {
                    best = v;
                }
            }
            values[i] = best as u8;
            confidence[i] = (sums[best] / n as f32).clamp(0.0, 1.0);
        }
        Some(VotedBoard {
            values,
            confidence,
            reads: n as u32,
        })
    }
}

/// Whether one read agrees with `givens`: every cell reads the same value or is unsure, and
/// only a few are unsure-and-different.
pub(super) fn agrees(readings: &[CellReading], givens: &[u8; 81]) -> bool {
    let mut differing = 0;
    for (r, &g) in readings.iter().zip(givens) {
        if r.class.value() != g {
            if !r.is_uncertain() {
                return false;
            }
            differing += 1;
        }
    }
    readings.len() == 81 && differing <= CONFIRM_MAX_DISAGREEING
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A read of `values`, each cell at probability `p` and the rest spread evenly (also used
    /// by the tests of `renew`).
    pub(in crate::live) fn read(values: &[u8; 81], p: f32) -> Vec<CellReading> {
        values
            .iter()
            .map(|&v| {
                let mut probs = [(1.0 - p) / 10.0; NUM_CLASSES];
                probs[v as usize] = p;
                CellReading::from_probabilities(probs)
            })
            .collect()
    }

    #[test]
    fn sharp_reads_outvote_a_confident_misread_and_pencil_counts_as_empty() {
        let mut truth = [0u8; 81];
        truth[0] = 5;
        truth[40] = 8;
        let mut misread = truth;
        misread[40] = 3;
        let mut votes = Votes::new(4);
        assert!(votes.voted().is_none());
        votes.push(&read(&misread, 0.99));
        assert_eq!(votes.voted().unwrap().values[40], 3);
        votes.push(&read(&truth, 0.9));
        votes.push(&read(&truth, 0.9));
        let voted = votes.voted().unwrap();
        assert_eq!(voted.values, truth);
        assert_eq!(voted.reads, 3);
        // Two of three reads say 8 at 0.9: the mean is well below a unanimous cell's.
        assert!(voted.confidence[40] < 0.65 && voted.uncertain()[40]);
        assert!(voted.confidence[0] > 0.9);
        // Pencil marks (class 10) vote for empty.
        let mut pencil = truth;
        pencil[1] = CLASS_PENCIL;
        let mut votes = Votes::new(2);
        votes.push(&read(&pencil, 0.95));
        assert_eq!(votes.voted().unwrap().values[1], 0);
        // The window slides: old reads are forgotten.
        let mut votes = Votes::new(2);
        votes.push(&read(&misread, 0.99));
        votes.push(&read(&truth, 0.99));
        votes.push(&read(&truth, 0.99));
        assert_eq!(votes.voted().unwrap().values, truth);
        assert!(votes.voted().unwrap().min_confidence() > 0.98);
        assert!(votes.mean_probability(40, 8) > 0.98);
        assert!(votes.mean_probability(40, 3) < 0.01);
        assert_eq!(votes.mean_probability(81, 3), 0.0);
        votes.clear();
        assert!(votes.is_empty());
        assert!(!votes.agree_with(&read(&truth, 0.99)));
        assert_eq!(votes.mean_probability(40, 8), 0.0);
    }

    /// Three blurred reads (19–25 cells unsure, two of them misread) and then sharp ones: the
    /// sharp read retires the blurred ones, so the vote is at once as sure as the sharp reads.
    #[test]
    fn a_much_sharper_read_retires_the_blurred_ones() {
        let mut truth = [0u8; 81];
        truth[..9].copy_from_slice(&[9, 0, 3, 0, 0, 0, 0, 0, 2]);
        let mut misread = truth;
        misread[2] = 8;
        let blurred = |values: &[u8; 81], unsure_cells: usize| {
            let mut r = read(values, 0.97);
            for cell in r.iter_mut().skip(20).take(unsure_cells) {
                let mut probs = [0.05f32; NUM_CLASSES];
                probs[0] = 0.55;
                *cell = CellReading::from_probabilities(probs);
            }
            r
        };
        let mut votes = Votes::new(10);
        votes.push(&blurred(&misread, 25));
        votes.push(&blurred(&misread, 22));
        votes.push(&blurred(&truth, 19));
        assert_eq!(votes.len(), 3);
        // A sharp read (2 unsure cells): the three blurred ones go.
        votes.push(&blurred(&truth, 2));
        assert_eq!(votes.len(), 1);
        assert_eq!(votes.voted().unwrap().values, truth);
        assert!(votes.mean_probability(2, 3) > 0.95);
        // Reads about as sharp as those held are all kept.
        votes.push(&blurred(&truth, 4));
        votes.push(&blurred(&truth, 1));
        assert_eq!(votes.len(), 3);
        // A steadily blurred picture keeps its reads.
        let mut votes = Votes::new(10);
        for unsure_cells in [25, 19, 22, 24] {
            votes.push(&blurred(&truth, unsure_cells));
        }
        assert_eq!(votes.len(), 4);
    }

    #[test]
    fn a_read_agrees_with_the_vote_of_its_own_board_only() {
        let mut a = [0u8; 81];
        a[0] = 5;
        a[40] = 8;
        a[80] = 2;
        let mut votes = Votes::new(4);
        votes.push(&read(&a, 0.95));
        votes.push(&read(&a, 0.95));
        // The same board read again, one cell unsure and different: agrees.
        let mut again = read(&a, 0.97);
        let mut unsure = [0.05f32; NUM_CLASSES];
        unsure[3] = 0.5;
        again[40] = CellReading::from_probabilities(unsure);
        assert!(votes.agree_with(&again));
        // A sure difference (another board): no.
        let mut b = a;
        b[10] = 7;
        assert!(!votes.agree_with(&read(&b, 0.97)));
        // Too many unsure differences: no.
        let mut smeared = read(&a, 0.97);
        for cell in [0, 40, 80, 20] {
            smeared[cell] = CellReading::from_probabilities(unsure);
        }
        assert!(!votes.agree_with(&smeared));
        assert!(!votes.agree_with(&read(&a, 0.97)[..80]));
    }
}
