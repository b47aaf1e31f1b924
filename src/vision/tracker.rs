//! Video tracking of the grid lattice (work in progress).

/// Tracker settings.
#[derive(Clone, Debug, Default)]
pub struct TrackerConfig {}
/// Tracker state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackerState {
    /// No grid.
    Searching,
}
/// Tracker event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackerEvent {
    /// Nothing.
    None,
}
/// Tracker.
#[derive(Clone, Debug, Default)]
pub struct LatticeTracker {}
