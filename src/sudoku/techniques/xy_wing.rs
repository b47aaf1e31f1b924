//! XY-Wing (Y-Wing): a bivalue pivot `{x,y}` sees two bivalue pincers `{x,z}` and `{y,z}`.
//! Whichever digit the pivot takes, one pincer is forced to `z`, so every cell that sees both
//! pincers loses `z`.
//!
//! In the step, the pivot's candidates carry [`Role::Pivot`] and the pincers' [`Role::Pincer`];
//! `digits` holds x, y and z. The text lists the pivot first, then the pincer holding the smaller
//! pivot digit.

use super::super::grid::Grid;
use super::super::notation::slash_digits;
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, Digit};
use super::super::notation::{cell_words, digit_words};
use super::{Flow, GO_ON, Instances};

/// Reports the XY-Wings (pivots in reading order) that eliminate something.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let mut bivalue = CellSet::EMPTY;
    for c in grid.empty_cells().iter() {
        if grid.candidates(c).len() == 2 {
            bivalue.insert(c);
        }
    }
    for pivot in bivalue.iter() {
        let pc = grid.candidates(pivot);
        let mut digits = pc.iter();
        let (Some(x), Some(y)) = (digits.next(), digits.next()) else {
            continue;
        };
        let arms = bivalue & pivot.peers();
        // Pincers {x,z}: hold x, not y.
        for a in (arms & grid.digit_cells(x) & !grid.digit_cells(y)).iter() {
            let Some(z) = (grid.candidates(a) & !Candidates::single(x)).first() else {
                continue;
            };
            let want_b = Candidates::single(y) | Candidates::single(z);
            let targets = grid.digit_cells(z) & a.peers();
            if targets.is_empty() {
                continue;
            }
            for b in (arms & grid.digit_cells(y) & grid.digit_cells(z)).iter() {
                if grid.candidates(b) != want_b || (targets & b.peers()).is_empty() {
                    continue;
                }
                if let Some(step) = build(grid, pivot, a, b) {
                    out.add(step)?;
                }
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// The XY-Wing with `pivot` `{x,y}`, pincer `a` `{x,z}` and pincer `b` `{y,z}`, if it
/// eliminates something.
fn build(grid: &Grid, pivot: Cell, a: Cell, b: Cell) -> Option<Step> {
    let z = (grid.candidates(a) & grid.candidates(b)).single_digit()?;
    let mut step = Step::new(Technique::XYWing);
    let targets = a.peers() & b.peers() & !CellSet::single(pivot);
    if eliminate_where_possible(&mut step, grid, targets, z) == 0 {
        return None;
    }
    step.digits = grid.candidates(pivot) | Candidates::single(z);
    for d in grid.candidates(pivot).iter() {
        step.mark(pivot, d, Role::Pivot);
    }
    for cell in [a, b] {
        for d in grid.candidates(cell).iter() {
            step.mark(cell, d, Role::Pincer);
        }
    }
    Some(step)
}

/// Reads `(pivot, pincer with x, pincer with y, [x, y, z])` back from a wing step's marks (shared
/// with XYZ-Wing, whose pivot also holds z). `x < y` are the pivot digits other than z.
pub(crate) fn wing_parts(step: &Step) -> Option<(Cell, Cell, Cell, [Digit; 3])> {
    let pivot = step.marked_cells(Role::Pivot).first()?;
    let pincers = step.marked_cells(Role::Pincer);
    let mut it = pincers.iter();
    let (p1, p2) = (it.next()?, it.next()?);
    let cands = |cell: Cell| -> Candidates {
        step.marks
            .iter()
            .filter(|m| m.candidate.cell == cell)
            .map(|m| m.candidate.digit)
            .collect()
    };
    let (c1, c2) = (cands(p1), cands(p2));
    let z = (c1 & c2).single_digit()?;
    let x = (c1 & !Candidates::single(z)).single_digit()?;
    let y = (c2 & !Candidates::single(z)).single_digit()?;
    Some(if x < y {
        (pivot, p1, p2, [x, y, z])
    } else {
        (pivot, p2, p1, [y, x, z])
    })
}

/// `XY-Wing: 1/2/3 in r1c1,r1c5,r3c2 => r3c4<>3`
pub(crate) fn text(step: &Step) -> String {
    match wing_parts(step) {
        Some((pivot, a, b, digits)) => format!(
            "{}: {} in {},{},{} => {}",
            step.technique.name(),
            slash_digits(digits),
            pivot,
            a,
            b,
            step.effect_text()
        ),
        None => super::plain_text(step),
    }
}

/// "The pivot r2c2 is 3 or 6; either way one of the pincers r3c1 and r9c2 is 1, so r7c1 cannot
/// be 1."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(pivot) = step.marked_cells(Role::Pivot).first() else {
        return super::generic_sentence(step);
    };
    let pivot_digits: Candidates = step.marked(Role::Pivot).map(|c| c.digit).collect();
    let z = step.digits & !pivot_digits;
    let z = if z.is_empty() {
        step.eliminations.first().map(|e| Candidates::single(e.digit)).unwrap_or(z)
    } else {
        z
    };
    format!(
        "The pivot {pivot} is {}; either way one of the pincers {} is {}, so {}.",
        digit_words(pivot_digits, "or"),
        cell_words(step.marked_cells(Role::Pincer).iter()),
        digit_words(z, "or"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    fn d(n: u8) -> Digit {
        Digit::new(n).unwrap()
    }

    fn cands(ds: &[u8]) -> Candidates {
        ds.iter().map(|&n| d(n)).collect()
    }

    #[test]
    fn textbook_wing_on_open_grid() {
        // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r3c2 {2,3}: r3c4..6 and r1c2,r1c3 see both
        // pincers and lose 3.
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands(&[1, 2]));
        g.set_candidates(Cell::at(0, 4), cands(&[1, 3]));
        g.set_candidates(Cell::at(2, 1), cands(&[2, 3]));
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "XY-Wing: 1/2/3 in r1c1,r1c5,r3c2 => r1c23,r3c456<>3"
        );
        assert_eq!(s.marked_cells(Role::Pivot), CellSet::single(Cell::at(0, 0)));
        assert_eq!(s.marked_cells(Role::Pincer).len(), 2);
        assert_eq!(s.digits, cands(&[1, 2, 3]));
    }

    #[test]
    fn pincers_that_share_no_cell_with_z_give_nothing() {
        // Same wing, but every common peer of the pincers already lacks 3.
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands(&[1, 2]));
        g.set_candidates(Cell::at(0, 4), cands(&[1, 3]));
        g.set_candidates(Cell::at(2, 1), cands(&[2, 3]));
        for c in [
            Cell::at(0, 1),
            Cell::at(0, 2),
            Cell::at(2, 3),
            Cell::at(2, 4),
            Cell::at(2, 5),
        ] {
            g.set_candidates(c, cands(&[4, 5, 6]));
        }
        assert!(find(&g).is_none());
    }

    #[test]
    fn sound_on_bank_positions() {
        // Every position of the explained solves of real bank puzzles; each step checked against
        // the solution, and the finder must fire.
        crate::sudoku::techniques::xy_wing::rated::assert_sound_and_fires("XY-Wing", 560, find);
    }

    /// A position reached while solving a bank puzzle: pivot r2c2 {3,6}, pincers r3c1 {1,3} and r9c2 {1,6}.
    const XY_POSITION: &str = "
        .2..............8.......7..........9..3...........6......4.........5....1........
        ........9..3..6.......5..........7..1...........4............8...3..6....2.......
        1.3.........4.....1....6..........8..2...........5..........7....3..6...........9
        ..3..6...........9.2...........5..........7.........8...3..6...1...........4.....
        .......8...3.5.......4..........6...........91..........3.5.....2.............7..
        ......7..1...56...1....6.....3.........4......2...............9.......8.....56...
        1....6....2.........3.........4.........5..........7..1....6...........9.......8.
        ....5..........7.........8.1.............6...........9.2..........4.......3......
        ...4.....1....6...........9.2..............8...3......1...5..........7......56...";

    #[test]
    fn real_position() {
        use crate::sudoku::techniques::xy_wing::rated;
        let g = rated::position(XY_POSITION);
        let s = (find)(&g).unwrap();
        assert_eq!(s.text(), "XY-Wing: 3/6/1 in r2c2,r3c1,r9c2 => r7c1<>1");
        rated::assert_agrees_with_solver(&g, &s);
    }
}

/// Real positions for the technique tests: every position reached while solving puzzles of the
/// Sudoku Exchange bank step by step, with the puzzle's solution.
#[cfg(test)]
pub(crate) mod rated {
    use crate::sudoku::explain::{contradicts, solve_explained};
    use crate::sudoku::grid::Grid;
    use crate::sudoku::parse::parse_puzzle;
    use crate::sudoku::step::Step;

    /// The first `per_file` puzzles of `se-rated/{rating}.txt` for each rating.
    pub(crate) fn puzzles(ratings: &[&str], per_file: usize) -> Vec<Grid> {
        let dir = crate::test_data::shared_puzzle_path("se-rated");
        let mut out = Vec::new();
        for r in ratings {
            let path = dir.join(format!("{r}.txt"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            out.extend(
                crate::sudoku::collection_puzzles(&text)
                    .take(per_file)
                    .map(|(_, p)| parse_puzzle(p).expect("bank puzzle parses")),
            );
        }
        out
    }

    /// Bank files whose hardest step is one of the wing, coloring, uniqueness or remote pair
    /// techniques (SE 4.2 XY-Wing … 7.0), and a few around them.
    pub(crate) const RATINGS: [&str; 10] = [
        "4.2", "4.4", "4.5", "4.6", "5.6", "5.7", "6.2", "6.6", "6.7", "7.0",
    ];

    /// The positions of [`positions`] for the first 5 puzzles of each of [`RATINGS`], computed
    /// once per test run.
    pub(crate) fn bank_positions() -> &'static [(Grid, [u8; 81])] {
        static POSITIONS: std::sync::OnceLock<Vec<(Grid, [u8; 81])>> = std::sync::OnceLock::new();
        POSITIONS.get_or_init(|| positions(&puzzles(&RATINGS, 5)))
    }

    /// Every position (before each step) of the explained solves of `puzzles`, with the solution.
    /// Asserts that no technique's step was rejected for contradicting the solution.
    pub(crate) fn positions(puzzles: &[Grid]) -> Vec<(Grid, [u8; 81])> {
        let mut out = Vec::new();
        for p in puzzles {
            let e = solve_explained(p).expect("bank puzzle solves");
            assert!(e.unique);
            assert!(
                e.rejected.is_empty(),
                "{}: rejected {:?}",
                p.to_line(),
                e.rejected.iter().map(Step::text).collect::<Vec<_>>()
            );
            let mut g = p.clone();
            for s in &e.steps {
                out.push((g.clone(), e.solution));
                s.apply(&mut g);
            }
        }
        out
    }

    /// A position from its pencil-mark string (a solved cell written as its single digit, as
    /// [`Grid::to_sukaku`] prints it), with the single-candidate cells filled in.
    pub(crate) fn position(text: &str) -> Grid {
        let mut g = parse_puzzle(text).expect("test position parses");
        for c in crate::sudoku::types::Cell::all() {
            if let Some(d) = g.candidates(c).single_digit() {
                g.place(c, d);
            }
        }
        g
    }

    /// Asserts that `position` has a unique solution that `step` agrees with.
    pub(crate) fn assert_agrees_with_solver(position: &Grid, step: &Step) {
        let sols = crate::sudoku::solver::solve_up_to(position, 2);
        assert!(sols.is_unique());
        let solution = sols.first.expect("unique solution");
        assert!(!contradicts(step, &solution), "WRONG: {}", step.text());
    }

    /// Runs `finder` on every position; asserts each step it returns makes progress and agrees
    /// with the solution, and that its text names the technique. Returns the steps found.
    pub(crate) fn check_finder(
        positions: &[(Grid, [u8; 81])],
        finder: impl Fn(&Grid) -> Option<Step>,
    ) -> Vec<(Grid, Step)> {
        let mut found = Vec::new();
        for (g, solution) in positions {
            if let Some(s) = finder(g) {
                assert!(s.makes_progress(g), "{} in {}", s.text(), g.to_sukaku());
                assert!(
                    !contradicts(&s, solution),
                    "WRONG: {} in {}",
                    s.text(),
                    g.to_sukaku()
                );
                assert!(s.text().starts_with(s.technique.name()));
                found.push((g.clone(), s));
            }
        }
        found
    }

    /// [`check_finder`] on [`bank_positions`], asserting that `finder` fires in at least
    /// `at_least` of them: a finder that never fires must not pass as sound. The floors sit a
    /// little below today's counts (regression guards, not targets).
    pub(crate) fn assert_sound_and_fires(
        what: &str,
        at_least: usize,
        finder: impl Fn(&Grid) -> Option<Step>,
    ) {
        let found = check_finder(bank_positions(), finder);
        eprintln!("{what}: found in {} positions", found.len());
        assert!(
            found.len() >= at_least,
            "{what}: found in {} bank positions, expected at least {at_least}",
            found.len()
        );
    }
}
