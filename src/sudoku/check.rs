//! Checking a half-done puzzle: the printed givens define the puzzle, the solver's own
//! entries (handwritten digits) are judged against it. Each entry is right, wrong (with the
//! digit the cell must hold and the step of the explained solution from the givens that
//! places it), unsure (it disagrees with the solution but its reading was doubtful: the user
//! is asked to look rather than told they erred), or not known yet (the givens allow several
//! solutions and some keep the entry).
//!
//! Pure: givens and entries come in as values; telling print from handwriting is the
//! reader's (`digits`, `scan`), wording for the user is the caller's beyond [`Proof::text`].

use serde::Serialize;

use super::explain::solve_explained;
use super::grid::{Conflict, Grid, conflicts_of};
use super::solver::solve_values;
use super::step::Role;
use super::technique::Technique;
use super::types::{Cell, Digit};

/// Why a wrong entry is wrong: the step of the explained solution (from the givens) that
/// places the right digit in its cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proof {
    /// Index of the step in the explained solution (0-based).
    pub step_index: usize,
    /// The step's technique name, e.g. `Hidden Single`.
    pub technique: &'static str,
    /// The houses the step is about (base houses), e.g. `["b2"]`.
    pub houses: Vec<String>,
    /// The step in the usual notation, e.g. `Hidden Single: r3c5=2`.
    pub step_text: String,
    /// Whether a guess came before this step on the path (logic alone did not reach it).
    pub after_guess: bool,
}

impl Proof {
    /// Short reason: `Hidden Single in b2` (step 14 of the solution from the givens).
    pub fn text(&self) -> String {
        let mut out = self.technique.to_string();
        if !self.houses.is_empty() {
            out.push_str(" in ");
            out.push_str(&self.houses.join(", "));
        }
        out.push_str(&format!(
            " (step {} of the solution from the printed givens{})",
            self.step_index + 1,
            if self.after_guess {
                ", after a guess"
            } else {
                ""
            }
        ));
        out
    }
}

/// The verdict on one entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The entry is the digit of the unique solution.
    Right,
    /// The entry cannot stand: `must_be` is the cell's digit in the unique solution (`None`
    /// when the givens allow several solutions but none of them has this entry).
    Wrong {
        /// The digit the cell must hold, when the givens fix it.
        must_be: Option<u8>,
        /// The step that places `must_be` (none when there is no unique solution).
        proof: Option<Proof>,
    },
    /// The entry as read disagrees with the unique solution, but its reading was doubtful:
    /// probably misread rather than wrong.
    Unsure {
        /// The digit the cell must hold.
        must_be: u8,
        /// The step that places `must_be`.
        proof: Option<Proof>,
    },
    /// The givens allow several solutions and some keep this entry: not known yet.
    Unknown,
}

/// One entry and its verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntryCheck {
    /// The cell.
    #[serde(serialize_with = "cell_name")]
    pub cell: Cell,
    /// The digit written there.
    pub written: u8,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
}

fn cell_name<S: serde::Serializer>(cell: &Cell, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&cell.to_string())
}

impl EntryCheck {
    /// Whether the entry is known to be wrong.
    pub fn is_wrong(&self) -> bool {
        matches!(self.verdict, Verdict::Wrong { .. })
    }

    /// One line for the user: `r3c5: you wrote 7, but r3c5 must be 2 — Hidden Single in b2
    /// (…)`, `r1c1: 4 is right`, or `r1c1: 4 can't be known yet (…)`.
    pub fn text(&self) -> String {
        let c = self.cell;
        let w = self.written;
        match &self.verdict {
            Verdict::Right => format!("{c}: {w} is right"),
            Verdict::Unknown => {
                format!("{c}: {w} can't be known yet (the printed givens allow several solutions)")
            }
            Verdict::Wrong {
                must_be: Some(d),
                proof,
            } => {
                let why = proof
                    .as_ref()
                    .map_or(String::new(), |p| format!(" — {}", p.text()));
                format!("{c}: you wrote {w}, but {c} must be {d}{why}")
            }
            Verdict::Wrong { must_be: None, .. } => {
                format!("{c}: you wrote {w}, but no solution of the printed givens has {w} there")
            }
            Verdict::Unsure { must_be, proof } => {
                let why = proof
                    .as_ref()
                    .map_or(String::new(), |p| format!(" ({})", p.text()));
                format!(
                    "{c}: read as {w}, but the reading is unsure — please look: {c} must be \
                     {must_be}{why}"
                )
            }
        }
    }
}

/// What checking found.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// The givens were solved (uniquely or not) and every entry judged.
    Checked {
        /// Every entry, row-major.
        entries: Vec<EntryCheck>,
        /// Whether the givens have exactly one solution.
        unique: bool,
        /// The solution of the givens (the unique one, or the first found).
        solution: [u8; 81],
    },
    /// The givens repeat a digit in a house: not a puzzle (probably misread).
    GivensConflict(Vec<Conflict>),
    /// The givens have no solution (probably misread).
    GivensUnsolvable,
}

impl Check {
    /// The entries judged wrong (empty unless [`Check::Checked`]).
    pub fn wrong(&self) -> Vec<&EntryCheck> {
        match self {
            Check::Checked { entries, .. } => entries.iter().filter(|e| e.is_wrong()).collect(),
            _ => Vec::new(),
        }
    }

    /// How many entries have each verdict: (right, wrong, unsure, unknown).
    pub fn tally(&self) -> (usize, usize, usize, usize) {
        let mut t = (0, 0, 0, 0);
        if let Check::Checked { entries, .. } = self {
            for e in entries {
                match e.verdict {
                    Verdict::Right => t.0 += 1,
                    Verdict::Wrong { .. } => t.1 += 1,
                    Verdict::Unsure { .. } => t.2 += 1,
                    Verdict::Unknown => t.3 += 1,
                }
            }
        }
        t
    }

    /// The cells of the wrong entries, row-major.
    pub fn wrong_cells(&self) -> Vec<Cell> {
        self.wrong().iter().map(|e| e.cell).collect()
    }

    /// The position to go on from: the givens (as givens) plus every entry judged right,
    /// placed. `None` when the givens are not a puzzle.
    pub fn position(&self, givens: &[u8; 81]) -> Option<Grid> {
        let Check::Checked { entries, .. } = self else {
            return None;
        };
        let mut grid = Grid::from_values(givens);
        for e in entries.iter().filter(|e| e.verdict == Verdict::Right) {
            if let Some(d) = Digit::new(e.written) {
                grid.place(e.cell, d);
            }
        }
        Some(grid)
    }
}

/// Checks `entries` (the solver's digits, 0 elsewhere) against the puzzle of `givens` (0
/// elsewhere). A cell holding both counts as a given. The explained solve (for proofs) runs
/// only when some entry is wrong.
pub fn check_entries(givens: &[u8; 81], entries: &[u8; 81]) -> Check {
    check_entries_read(givens, entries, &[false; 81])
}

/// [`check_entries_read`] for entries some of which the recognizer decided otherwise than its
/// model read them (by the puzzle or its solution): where `model_read` holds a digit (0
/// elsewhere) for an entry, that digit is judged instead, as unsure, so the check never calls
/// right what only the puzzle made right.
pub fn check_entries_as_model_read(
    givens: &[u8; 81],
    entries: &[u8; 81],
    unsure: &[bool; 81],
    model_read: &[u8; 81],
) -> Check {
    let mut entries = *entries;
    let mut unsure = *unsure;
    for i in 0..81 {
        if model_read[i] != 0 && entries[i] != 0 {
            entries[i] = model_read[i];
            unsure[i] = true;
        }
    }
    check_entries_read(givens, &entries, &unsure)
}

/// [`check_entries`] for entries read from a picture: an entry that disagrees with the
/// unique solution where `unsure` marks its reading doubtful is [`Verdict::Unsure`], not
/// wrong.
pub fn check_entries_read(givens: &[u8; 81], entries: &[u8; 81], unsure: &[bool; 81]) -> Check {
    let givens = givens.map(|v| if v <= 9 { v } else { 0 });
    let conflicts = conflicts_of(&givens);
    if !conflicts.is_empty() {
        return Check::GivensConflict(conflicts);
    }
    let sols = solve_values(&givens, 2);
    let Some(solution) = sols.first else {
        return Check::GivensUnsolvable;
    };
    let unique = sols.count == 1;
    let written: Vec<(Cell, u8)> = Cell::all()
        .filter(|c| givens[c.index()] == 0 && (1..=9).contains(&entries[c.index()]))
        .map(|c| (c, entries[c.index()]))
        .collect();
    let proofs = if unique && written.iter().any(|&(c, w)| solution[c.index()] != w) {
        proofs_of(&givens)
    } else {
        None
    };
    let entries = written
        .into_iter()
        .map(|(cell, w)| {
            let verdict = if unique {
                if solution[cell.index()] == w {
                    Verdict::Right
                } else if unsure[cell.index()] {
                    Verdict::Unsure {
                        must_be: solution[cell.index()],
                        proof: proofs.as_ref().and_then(|p| p[cell.index()].clone()),
                    }
                } else {
                    Verdict::Wrong {
                        must_be: Some(solution[cell.index()]),
                        proof: proofs.as_ref().and_then(|p| p[cell.index()].clone()),
                    }
                }
            } else {
                let mut with = givens;
                with[cell.index()] = w;
                if solve_values(&with, 1).count == 0 {
                    Verdict::Wrong {
                        must_be: None,
                        proof: None,
                    }
                } else {
                    Verdict::Unknown
                }
            };
            EntryCheck {
                cell,
                written: w,
                verdict,
            }
        })
        .collect();
    Check::Checked {
        entries,
        unique,
        solution,
    }
}

/// For every cell, the step of the explained solution from `givens` that places its digit.
fn proofs_of(givens: &[u8; 81]) -> Option<Vec<Option<Proof>>> {
    let explained = solve_explained(&Grid::from_values(givens)).ok()?;
    let mut proofs = vec![None; 81];
    let mut guessed = false;
    for (i, step) in explained.steps.iter().enumerate() {
        guessed |= step.technique == Technique::Guess;
        for p in &step.placements {
            proofs[p.cell.index()].get_or_insert_with(|| Proof {
                step_index: i,
                technique: step.technique.name(),
                houses: step
                    .houses_with(Role::Base)
                    .map(|h| h.to_string())
                    .collect(),
                step_text: step.text(),
                after_guess: guessed && step.technique != Technique::Guess,
            });
        }
    }
    Some(proofs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse_values;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    fn easy() -> ([u8; 81], [u8; 81]) {
        let givens = parse_values(EASY).unwrap();
        let solution = solve_values(&givens, 1).first.unwrap();
        (givens, solution)
    }

    #[test]
    fn right_and_wrong_entries_with_the_step_that_proves_it() {
        let (givens, solution) = easy();
        let mut entries = [0u8; 81];
        // Three right entries and one wrong one.
        let empty: Vec<usize> = (0..81).filter(|&i| givens[i] == 0).collect();
        for &i in &empty[..3] {
            entries[i] = solution[i];
        }
        let bad = empty[10];
        entries[bad] = solution[bad] % 9 + 1;
        let check = check_entries(&givens, &entries);
        assert_eq!(check.wrong_cells(), vec![Cell::from_index(bad)]);
        let wrong = check.wrong()[0].clone();
        let Verdict::Wrong {
            must_be: Some(d),
            proof: Some(p),
        } = &wrong.verdict
        else {
            panic!("{wrong:?}");
        };
        assert_eq!(*d, solution[bad]);
        assert!(
            p.step_text
                .contains(&format!("{}={}", Cell::from_index(bad), d))
        );
        let text = wrong.text();
        assert!(
            text.starts_with(&format!(
                "{}: you wrote {}, but {} must be {d} — {}",
                Cell::from_index(bad),
                entries[bad],
                Cell::from_index(bad),
                p.technique
            )),
            "{text}"
        );
        // The position to go on from: givens plus the three right entries.
        let pos = check.position(&givens).unwrap();
        assert_eq!(pos.filled_count(), 81 - empty.len() + 3);
        assert!(!pos.is_given(Cell::from_index(empty[0])));
        // The same wrong entry, read unsure: not called wrong, the user is asked to look.
        let mut unsure = [false; 81];
        unsure[bad] = true;
        let read = check_entries_read(&givens, &entries, &unsure);
        assert!(read.wrong().is_empty());
        let Check::Checked { entries: e, .. } = &read else {
            panic!()
        };
        let u = e.iter().find(|e| e.cell.index() == bad).unwrap();
        assert!(matches!(u.verdict, Verdict::Unsure { must_be, .. } if must_be == solution[bad]));
        assert!(u.text().contains("unsure"), "{}", u.text());
        // An entry on a given cell counts as the given.
        let mut over = [0u8; 81];
        over[2] = 9;
        assert!(
            matches!(check_entries(&givens, &over), Check::Checked { entries, .. } if entries.is_empty())
        );
    }

    #[test]
    fn several_solutions_leave_entries_unknown_unless_impossible() {
        let (mut givens, solution) = easy();
        // Drop givens until the puzzle has several solutions.
        let mut i = 0;
        while solve_values(&givens, 2).count == 1 {
            givens[i] = 0;
            i += 1;
        }
        // An empty cell whose row still holds a given.
        let empty = (0..81)
            .find(|&k| givens[k] == 0 && (0..9).any(|c| givens[k / 9 * 9 + c] != 0))
            .unwrap();
        let mut entries = [0u8; 81];
        entries[empty] = solution[empty];
        let check = check_entries(&givens, &entries);
        let Check::Checked {
            entries: e, unique, ..
        } = &check
        else {
            panic!()
        };
        assert!(!unique);
        assert_eq!(e[0].verdict, Verdict::Unknown);
        // A digit already in the cell's row can be in no solution.
        let row_digit = (0..9)
            .map(|c| givens[empty / 9 * 9 + c])
            .find(|&v| v != 0)
            .unwrap();
        entries[empty] = row_digit;
        let check = check_entries(&givens, &entries);
        assert!(check.wrong()[0].text().contains("no solution"));
    }

    #[test]
    fn bad_givens_are_named() {
        let (mut givens, _) = easy();
        givens[0] = 3; // r1c3 is 3
        assert!(matches!(
            check_entries(&givens, &[0; 81]),
            Check::GivensConflict(_)
        ));
        assert!(check_entries(&[0; 81], &[0; 81]).wrong().is_empty());
    }
}
