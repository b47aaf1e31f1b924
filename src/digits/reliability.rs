//! How far the classifier's confidences can be trusted: a reliability table (read cells binned
//! by the confidence of their reading, with the share read right in each bin) and how the
//! uncertainty flag ([`UNCERTAIN_BELOW`](super::UNCERTAIN_BELOW)) splits right from wrong
//! readings. Pure arithmetic over (confidence, right, flagged) outcomes; whoever scores
//! readings against labels (`eval`) supplies them.

use serde::Serialize;

/// Lower edges of the default confidence bins; the last bin is closed at 1. Fine near 1,
/// where almost all readings fall and where the uncertainty threshold is chosen.
pub const BIN_LOWER_EDGES: [f32; 7] = [0.0, 0.5, 0.7, 0.9, 0.97, 0.99, 0.999];

/// One read cell, scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellOutcome {
    /// Probability of the reading's class.
    pub confidence: f32,
    /// Whether the reading's solving value equals the truth.
    pub correct: bool,
    /// Whether the reading is flagged uncertain ([`super::CellReading::is_uncertain`]).
    pub flagged: bool,
}

/// One confidence bin: `lo ≤ confidence < hi` (the last bin includes `hi` = 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ReliabilityBin {
    /// Lower edge (inclusive).
    pub lo: f32,
    /// Upper edge (exclusive, except 1 for the last bin).
    pub hi: f32,
    /// Cells whose confidence falls in the bin.
    pub cells: usize,
    /// … of which read right.
    pub correct: usize,
    /// `correct / cells`; `None` for an empty bin.
    pub accuracy: Option<f64>,
}

/// The reliability of a set of readings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reliability {
    /// One bin per lower edge, in order.
    pub bins: Vec<ReliabilityBin>,
    /// Share of right readings that are flagged uncertain (needless looks); `None` without
    /// right readings.
    pub flagged_correct_share: Option<f64>,
    /// Share of wrong readings that are flagged uncertain (caught misreads); `None` without
    /// wrong readings.
    pub flagged_wrong_share: Option<f64>,
}

/// Bins `outcomes` at `lower_edges` (ascending, the first one 0): a confidence goes to the
/// last bin whose lower edge it reaches (below the first edge: the first bin).
pub fn reliability(outcomes: &[CellOutcome], lower_edges: &[f32]) -> Reliability {
    let mut bins: Vec<ReliabilityBin> = lower_edges
        .iter()
        .enumerate()
        .map(|(i, &lo)| ReliabilityBin {
            lo,
            hi: lower_edges.get(i + 1).copied().unwrap_or(1.0),
            cells: 0,
            correct: 0,
            accuracy: None,
        })
        .collect();
    for o in outcomes {
        let slot = lower_edges
            .iter()
            .rposition(|&lo| o.confidence >= lo)
            .unwrap_or(0);
        if let Some(bin) = bins.get_mut(slot) {
            bin.cells += 1;
            bin.correct += usize::from(o.correct);
        }
    }
    for bin in &mut bins {
        bin.accuracy = share(bin.correct, bin.cells);
    }
    let count = |correct: bool, flagged_only: bool| {
        outcomes
            .iter()
            .filter(|o| o.correct == correct && (o.flagged || !flagged_only))
            .count()
    };
    Reliability {
        bins,
        flagged_correct_share: share(count(true, true), count(true, false)),
        flagged_wrong_share: share(count(false, true), count(false, false)),
    }
}

fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(confidence: f32, correct: bool) -> CellOutcome {
        CellOutcome {
            confidence,
            correct,
            flagged: confidence < crate::digits::UNCERTAIN_BELOW,
        }
    }

    #[test]
    fn bins_cells_and_counts_the_flagged_shares() {
        let outcomes = [
            outcome(0.3, false),
            outcome(0.6, true),
            outcome(0.95, true),
            outcome(0.9995, true),
            outcome(1.0, true),
            outcome(0.999, false),
        ];
        let r = reliability(&outcomes, &BIN_LOWER_EDGES);
        let cells: Vec<usize> = r.bins.iter().map(|b| b.cells).collect();
        assert_eq!(cells, [1, 1, 0, 1, 0, 0, 3]);
        assert_eq!(r.bins[6].hi, 1.0);
        assert_eq!(r.bins[6].correct, 2);
        assert_eq!(r.bins[2].accuracy, None);
        assert!((r.bins[6].accuracy.unwrap() - 2.0 / 3.0).abs() < 1e-12);
        // One of four right readings is flagged (0.6); one of two misreads (0.3).
        assert_eq!(r.flagged_correct_share, Some(0.25));
        assert_eq!(r.flagged_wrong_share, Some(0.5));
        let none = reliability(&[], &BIN_LOWER_EDGES);
        assert_eq!(none.flagged_wrong_share, None);
        assert!(none.bins.iter().all(|b| b.cells == 0));
    }
}
