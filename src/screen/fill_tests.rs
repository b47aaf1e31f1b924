//! Unit tests of the fill's plan and stops, with input and checks replaced by recorders.

use super::*;
use crate::annotate::projection::square_lattice;

/// The first puzzle of top1465 (../shared/puzzles/top1465.txt).
const PUZZLE: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn values(text: &str) -> [u8; 81] {
    let mut v = [0u8; 81];
    for (i, c) in text.chars().enumerate() {
        v[i] = c.to_digit(10).unwrap_or(0) as u8;
    }
    v
}

fn puzzle() -> LockedPuzzle {
    let givens = values(PUZZLE);
    let solution = crate::sudoku::solver::solve(&Grid::from_values(&givens)).expect("solvable");
    LockedPuzzle {
        target: ScreenTarget::Whole,
        target_rect: ScreenRect {
            x: 0,
            y: 0,
            width: 1000,
            height: 1000,
        },
        origin: (100, 50),
        lattice: square_lattice(10.0, 20.0, 360.0),
        givens,
        solution,
        frames: 1,
        elapsed: Duration::ZERO,
    }
}

#[derive(Default)]
struct Recorder {
    events: Vec<String>,
    interrupt_after_clicks: Option<usize>,
    clicks: usize,
}

impl Hands for Recorder {
    fn click(&mut self, at: (i32, i32)) -> Result<(), FillError> {
        self.clicks += 1;
        self.events.push(format!("click {},{}", at.0, at.1));
        Ok(())
    }
    fn type_digit(&mut self, digit: u8) -> Result<(), FillError> {
        self.events.push(format!("key {digit}"));
        Ok(())
    }
    fn interrupted(&mut self, _: (i32, i32)) -> Result<Option<String>, FillError> {
        Ok((Some(self.clicks) == self.interrupt_after_clicks).then(|| "Esc pressed".into()))
    }
    fn pointer(&mut self) -> Result<(i32, i32), FillError> {
        Ok((0, 0))
    }
}

#[derive(Default)]
struct Checks {
    checked: Vec<usize>,
    moved_at: Option<usize>,
    fail_check: bool,
}

impl Checker for Checks {
    fn still_in_place(&mut self, typed: usize) -> Result<(), FillError> {
        match self.moved_at {
            Some(at) if typed >= at => Err(FillError::Moved {
                from: ScreenRect {
                    x: 0,
                    y: 0,
                    width: 1,
                    height: 1,
                },
                to: ScreenRect {
                    x: 5,
                    y: 0,
                    width: 1,
                    height: 1,
                },
                typed,
            }),
            _ => Ok(()),
        }
    }
    fn shows_typed(&mut self, recent: &[FillAction], typed: usize) -> Result<(), FillError> {
        self.checked.push(recent.len());
        if self.fail_check {
            return Err(FillError::NotShown {
                cells: "r1c2".into(),
                typed,
            });
        }
        Ok(())
    }
}

fn quick() -> FillPacing {
    FillPacing {
        countdown: Duration::ZERO,
        settle: Duration::ZERO,
    }
}

#[test]
fn plan_clicks_every_empty_cell_centre_with_its_solution_digit() {
    let p = puzzle();
    let actions = plan(&p, FillScope::All);
    assert_eq!(actions.len(), p.givens.iter().filter(|&&v| v == 0).count());
    let first = actions[0];
    // r1c2: lattice cell 40 px, centre (10 + 60, 20 + 20) + origin (100, 50).
    assert_eq!(first.index, 1);
    assert_eq!(first.at_screen, (170, 90));
    assert_eq!(PUZZLE.chars().filter(|&c| c != '.').count(), 18);
    assert_eq!(first.digit, p.solution[1]);
    assert!(actions.iter().all(|a| p.givens[a.index] == 0));
}

#[test]
fn next_step_plans_only_the_next_placement() {
    let p = puzzle();
    let actions = plan(&p, FillScope::NextStep);
    assert!(!actions.is_empty() && actions.len() <= 3, "{actions:?}");
    for a in &actions {
        assert_eq!(a.digit, p.solution[a.index]);
    }
}

#[test]
fn fill_clicks_then_types_and_checks_every_nine_cells() {
    let actions = plan(&puzzle(), FillScope::All);
    let (mut hands, mut checks) = (Recorder::default(), Checks::default());
    let mut typed_reports = 0;
    let n = run_fill(&actions, quick(), &mut hands, &mut checks, &mut |p| {
        if matches!(p, FillProgress::Typed { .. }) {
            typed_reports += 1;
        }
    })
    .expect("fill");
    // 18 givens, 63 empty cells.
    assert_eq!(n, 63);
    assert_eq!(typed_reports, 63);
    assert_eq!(hands.events.len(), 126);
    assert!(hands.events[0].starts_with("click") && hands.events[1].starts_with("key"));
    // 63 = 7 × 9: seven checks of nine cells each.
    assert_eq!(checks.checked, vec![9; 7]);
    // A plan that does not end on a multiple of nine checks its last cells too.
    let (mut hands, mut checks) = (Recorder::default(), Checks::default());
    let n = run_fill(
        &actions[..13],
        quick(),
        &mut hands,
        &mut checks,
        &mut |_| {},
    )
    .expect("fill");
    assert_eq!(n, 13);
    assert_eq!(checks.checked, vec![9, 4]);
}

#[test]
fn esc_stops_at_once() {
    let actions = plan(&puzzle(), FillScope::All);
    let mut hands = Recorder {
        interrupt_after_clicks: Some(5),
        ..Recorder::default()
    };
    let err = run_fill(
        &actions,
        quick(),
        &mut hands,
        &mut Checks::default(),
        &mut |_| {},
    )
    .expect_err("stopped");
    // Interrupted between the fifth click and its key: four cells typed, no fifth key.
    assert!(matches!(err, FillError::Aborted { typed: 4, .. }), "{err}");
    assert_eq!(
        hands.events.iter().filter(|e| e.starts_with("key")).count(),
        4
    );
}

#[test]
fn a_moved_window_or_missing_digits_stop_the_fill() {
    let actions = plan(&puzzle(), FillScope::All);
    let mut hands = Recorder::default();
    let mut checks = Checks {
        moved_at: Some(12),
        ..Checks::default()
    };
    let err = run_fill(&actions, quick(), &mut hands, &mut checks, &mut |_| {}).expect_err("moved");
    assert!(matches!(err, FillError::Moved { typed: 12, .. }), "{err}");
    assert_eq!(hands.clicks, 12);

    let mut hands = Recorder::default();
    let mut checks = Checks {
        fail_check: true,
        ..Checks::default()
    };
    let err = run_fill(&actions, quick(), &mut hands, &mut checks, &mut |_| {}).expect_err("check");
    assert!(matches!(err, FillError::NotShown { typed: 9, .. }), "{err}");
    assert_eq!(hands.clicks, 9);
}
