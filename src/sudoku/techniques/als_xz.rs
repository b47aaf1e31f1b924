//! (stub — not yet implemented: finds nothing)
#![allow(unused)]

use super::super::grid::Grid;
use super::super::step::Step;

pub(crate) fn find(grid: &Grid) -> Option<Step> {
    None
}

pub(crate) fn text(step: &Step) -> String {
    super::plain_text(step)
}
