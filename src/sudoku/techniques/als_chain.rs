//! ALS Chain: an alternating inference chain (see `aic`) whose nodes may also be almost locked
//! sets (see `als`): "digit x somewhere in the set's cells". Entering a set by a weak link on
//! x (x cannot be in it) locks its other digits in, so any other digit y of the set is true
//! there: inside a set every two digits are strongly linked. Chains without sets are found
//! first by AIC; this finder adds the sets of two to three cells.

use super::super::grid::Grid;
use super::super::step::Technique;
use super::{Flow, Instances};

/// Largest ALS used as a chain node, in cells.
const MAX_CELLS: usize = 3;

/// The shortest chain or loop with ALS nodes that makes progress.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    super::aic::search_with(grid, Technique::AlsChain, MAX_CELLS, out)
}
