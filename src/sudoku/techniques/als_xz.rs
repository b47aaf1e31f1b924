//! ALS-XZ. An almost locked set (ALS) is N cells of one house holding N+1 digits between them:
//! at most one of those digits can be missing from its cells. Two disjoint ALS A and B share a
//! restricted common digit X when every X of A sees every X of B, so X is in at most one of
//! them and the other one holds all its remaining digits. Then for another common digit Z one
//! of the two sets holds Z, and every cell that sees all Z of both loses Z.
//!
//! Doubly linked (two restricted common digits X1, X2): each set misses exactly one of them,
//! so all its other digits are locked in it (cells seeing all of such a digit in the set lose
//! it), and each X is in one of the sets (cells seeing all its X in both lose it).
//!
//! The finder returns the pair with the fewest cells (sets of up to five cells) that makes
//! progress.

/// Largest ALS searched, in cells.
const MAX_CELLS: usize = 5;

use super::super::grid::Grid;
use super::super::notation::compact_cells;
use super::super::notation::{cell_words, digit_words, join_words};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Digit};
use super::als::{Als, collect};
use super::chains::Elims;
use super::{Flow, GO_ON, Instances};

/// Reports the ALS-XZ (singly or doubly linked) that eliminate a candidate; one: the one with
/// the fewest cells.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    search_pairs(grid, out, false)
}

/// The ALS-XZ with the fewest cells whose one set is a single (two-digit) cell and whose cells
/// hold as many digits as there are cells: Sukaku Explainer's XY-, WXYZ-, VWXYZ- and
/// UVWXYZ-Wings, for rating (see `rating`).
pub(crate) fn find_bivalue_wing(grid: &Grid) -> Option<Step> {
    super::first(|out| search_pairs(grid, out, true))
}

/// Reports the ALS-XZ that eliminate a candidate (one: the one with the fewest cells); with
/// `bivalue_wing`, only those of a two-digit cell and a set holding its two digits.
fn search_pairs(grid: &Grid, out: &mut Instances, bivalue_wing: bool) -> Flow {
    let sets = collect(grid, MAX_CELLS);
    let all = out.wants_all();
    let mut best: Option<(usize, usize, usize, Candidates, Elims)> = None;
    for (i, a) in sets.iter().enumerate() {
        for (j, b) in sets.iter().enumerate().skip(i + 1) {
            let size = a.cells.len() + b.cells.len();
            if !all && best.as_ref().is_some_and(|x| x.0 <= size) {
                // Sets are sorted by size: later b are no smaller.
                break;
            }
            if !(a.cells & b.cells).is_empty() {
                continue;
            }
            if bivalue_wing
                && (a.cells.len().min(b.cells.len()) != 1 || (a.digits | b.digits).len() != size)
            {
                continue;
            }
            let common = a.digits & b.digits;
            if common.len() < 2 {
                continue;
            }
            let restricted: Candidates = common
                .iter()
                .filter(|x| a.places[x.index()].is_subset(b.seen_by_all[x.index()]))
                .collect();
            if restricted.is_empty() {
                continue;
            }
            let elims = eliminations(grid, a, b, common, restricted);
            if elims.is_empty() {
                continue;
            }
            if all {
                out.add(step(grid, a, b, restricted, &elims))?;
            } else {
                best = Some((size, i, j, restricted, elims));
            }
        }
    }
    match best {
        Some((_, i, j, restricted, elims)) => {
            out.add(step(grid, &sets[i], &sets[j], restricted, &elims))
        }
        None => GO_ON,
    }
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// The step of ALS `a` and `b` linked by `restricted`, removing `elims`.
fn step(grid: &Grid, a: &Als, b: &Als, restricted: Candidates, elims: &Elims) -> Step {
    let mut step = Step::new(Technique::AlsXz);
    step.eliminations = elims.candidates();
    step.digits = restricted;
    for e in &step.eliminations {
        step.digits.insert(e.digit);
    }
    step.houses.push((a.house, Role::SetA));
    step.houses.push((b.house, Role::SetB));
    for (set, role) in [(a, Role::SetA), (b, Role::SetB)] {
        for c in set.cells.iter() {
            for d in grid.candidates(c).iter() {
                step.mark(c, d, role);
            }
        }
    }
    for x in restricted.iter() {
        for c in (a.places[x.index()] | b.places[x.index()]).iter() {
            step.mark(c, x, Role::Common);
        }
    }
    step
}

/// The eliminations of ALS `a` and `b` with common digits `common`, of which `restricted` are
/// restricted common.
fn eliminations(
    grid: &Grid,
    a: &Als,
    b: &Als,
    common: Candidates,
    restricted: Candidates,
) -> Elims {
    let mut elims = Elims::default();
    let both = |d: Digit| a.seen_by_all[d.index()] & b.seen_by_all[d.index()];
    if restricted.len() == 1 {
        for z in (common & !restricted).iter() {
            elims.add(grid, z, both(z));
        }
        return elims;
    }
    // Doubly linked: each set's non-restricted digits are locked in it; each restricted digit
    // is in one of the two sets.
    for x in restricted.iter() {
        elims.add(grid, x, both(x));
    }
    for set in [a, b] {
        for d in (set.digits & !restricted).iter() {
            elims.add(grid, d, set.seen_by_all[d.index()]);
        }
    }
    elims
}

/// `ALS-XZ: A=r1c12 {159}, B=r5c2 {59}, X=9, Z=5 => r4c1<>5`; doubly linked sets print both
/// restricted digits, `X=5,9`.
pub(crate) fn text(step: &Step) -> String {
    let set = |role: Role| -> String {
        let cells = step.marked_cells(role);
        let digits: Candidates = step.marked(role).map(|c| c.digit).collect();
        format!("{} {{{}}}", compact_cells(cells.iter()), digits)
    };
    let x: Candidates = step.marked(Role::Common).map(|c| c.digit).collect();
    if x.is_empty() {
        return super::plain_text(step);
    }
    let z = step.digits & !x;
    let list = |c: Candidates| {
        c.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = format!(
        "{}: A={}, B={}, X={}",
        step.technique.name(),
        set(Role::SetA),
        set(Role::SetB),
        list(x)
    );
    if !z.is_empty() {
        out.push_str(&format!(", Z={}", list(z)));
    }
    format!("{} => {}", out, step.effect_text())
}

/// "The groups r1c1 (1, 2) and r1c2 + r5c2 (1, 2, 3) each hold one digit more than cells and
/// cannot both hold 2, so one of them holds 1, and r2c2 … cannot be 1."
pub(crate) fn sentence(step: &Step) -> String {
    let group = |role: Role| -> String {
        let digits: Candidates = step.marked(role).map(|c| c.digit).collect();
        format!(
            "{} ({})",
            cell_words(step.marked_cells(role).iter()),
            digit_words(digits, "and")
        )
    };
    let x: Candidates = step.marked(Role::Common).map(|c| c.digit).collect();
    let z = step.digits & !x;
    let link = if x.len() > 1 {
        format!(
            "each can lack only one of {}, and they cannot both hold either",
            digit_words(x, "and")
        )
    } else {
        format!("they cannot both hold {}", digit_words(x, "or"))
    };
    let shared = if z.is_empty() {
        String::new()
    } else {
        format!(", so one of them holds {}", digit_words(z, "and"))
    };
    format!(
        "The groups {} each hold one digit more than cells and {link}{shared}; {}.",
        join_words(&[group(Role::SetA), group(Role::SetB)], "and"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use crate::sudoku::grid::Grid;
    use crate::sudoku::solver::solve;
    use crate::sudoku::step::{Role, Step};
    use crate::sudoku::types::{Candidates, Cell, Digit};

    fn digits(ds: &[u8]) -> Candidates {
        ds.iter().copied().filter_map(Digit::new).collect()
    }

    fn assert_sound(g: &Grid, s: &Step) {
        let solution = solve(g).unwrap();
        for e in &s.eliminations {
            assert_ne!(solution[e.cell.index()], e.digit.get(), "{}", e.cell);
        }
    }

    /// A = r1c1 {12}, B = r1c2 {23} + r5c2 {13} (an ALS in c2). X = 2 is restricted (r1c1 and
    /// r1c2 share row 1); so one set holds its 1, and cells seeing r1c1 and r5c2 lose 1.
    #[test]
    fn singly_linked() {
        let mut g = Grid::empty();
        g.set_candidates(Cell::at(0, 0), digits(&[1, 2]));
        g.set_candidates(Cell::at(0, 1), digits(&[2, 3]));
        g.set_candidates(Cell::at(4, 1), digits(&[1, 3]));
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "ALS-XZ: A=r1c1 {12}, B=r15c2 {123}, X=2, Z=1 => r23c2,r456c1<>1"
        );
        assert_eq!(s.marked(Role::Common).count(), 2);
        assert_sound(&g, &s);
    }

    /// A = r1c1 {12}, B = r2c2 {23} + r3c1 {13} (box 1): both 1 and 2 are restricted, so B's 3
    /// is locked in B and 1 is in r1c1 or r3c1 (so the rest of c1 loses it too).
    #[test]
    fn doubly_linked() {
        let mut g = Grid::empty();
        g.set_candidates(Cell::at(0, 0), digits(&[1, 2]));
        g.set_candidates(Cell::at(1, 1), digits(&[2, 3]));
        g.set_candidates(Cell::at(2, 0), digits(&[1, 3]));
        let s = super::find(&g).unwrap();
        assert!(
            s.text()
                .starts_with("ALS-XZ: A=r1c1 {12}, B=r2c2,r3c1 {123}, X=1,2, Z=3 => "),
            "{}",
            s.text()
        );
        // 1 leaves all of c1 outside the sets, 3 the rest of box 1.
        let one = Digit::new(1).unwrap();
        let three = Digit::new(3).unwrap();
        assert!(
            s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(8, 0) && e.digit == one)
        );
        assert!(
            s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(0, 2) && e.digit == three)
        );
        assert!(
            !s.eliminations
                .iter()
                .any(|e| e.cell.box_index() != 0 && e.digit == three)
        );
        assert_sound(&g, &s);
    }
}
