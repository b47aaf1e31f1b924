//! [`Elims`]: the candidates a step rules out, one cell set per digit, with the rule that
//! collects those seen by both ends of a chain (or by two nodes of which one must be true).
//!
//! It does not say which nodes to pair: the chain finders pair a chain's two ends, and the
//! ALS finders (ALS-XZ, ALS-XY-Wing, Death Blossom) the places of their restricted digits.

use super::graph::{Graph, NodeId};
use crate::sudoku::grid::{Candidate, Grid};
use crate::sudoku::types::{CellSet, Digit};

/// Candidates to eliminate, one cell set per digit.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct Elims([CellSet; 9]);

impl Elims {
    /// Whether nothing is eliminated.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|s| s.is_empty())
    }

    /// Adds `cells` for `digit`, keeping only cells where `grid` still has the candidate.
    pub(crate) fn add(&mut self, grid: &Grid, digit: Digit, cells: CellSet) {
        self.0[digit.index()] |= cells & grid.digit_cells(digit);
    }

    /// Adds every candidate of `grid` that conflicts with both nodes `p` and `q` of `g` (so is
    /// false when at least one of them is true).
    pub(crate) fn add_seeing_both(&mut self, g: &Graph, grid: &Grid, p: NodeId, q: NodeId) {
        let (np, nq) = (g.node(p), g.node(q));
        if np.digit == nq.digit {
            self.add(grid, np.digit, g.sees(p) & g.sees(q));
            return;
        }
        let (sp, sq) = (np.cells.len() == 1, nq.cells.len() == 1);
        if sp && sq && np.cells == nq.cells {
            if let Some(c) = np.cells.first() {
                for d in grid.candidates(c).iter() {
                    if d != np.digit && d != nq.digit {
                        self.add(grid, d, np.cells);
                    }
                }
            }
            return;
        }
        if sp {
            self.add(grid, nq.digit, np.cells & g.sees(q));
        }
        if sq {
            self.add(grid, np.digit, nq.cells & g.sees(p));
        }
    }

    /// Whether every elimination of `other` is also one of `self`.
    pub(crate) fn contains(&self, other: &Elims) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| b.is_subset(*a))
    }

    /// The eliminations in cell order, digit by digit.
    pub(crate) fn candidates(&self) -> Vec<Candidate> {
        let mut out = Vec::new();
        for d in Digit::ALL {
            for c in self.0[d.index()].iter() {
                out.push(Candidate::new(c, d));
            }
        }
        out
    }
}
