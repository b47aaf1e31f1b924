//! Death Blossom: a stem cell with candidates `d1 … dk` and, for each `di`, an almost locked
//! set (a petal, see `als`) whose every `di` sees the stem. Whatever the stem holds, the petal
//! of that digit loses it and is locked. So a digit `Z` in every petal (and not in the stem) is
//! in one of the petals, and every cell that sees all `Z` of all petals loses it.
//!
//! The stem's candidates are marked [`Role::Pivot`], the petals alternately [`Role::SetA`] and
//! [`Role::SetB`], each petal's linking digit [`Role::Common`]; each petal is also a weak link
//! from the stem's digit to the petal (all its cells, that digit): "if the stem is 1, the
//! petal has no 1".

use super::super::grid::Grid;
use super::super::notation::{cell_words, compact_cells, join_words};
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit};
use super::als::{Als, collect};
use super::chains::Elims;

/// Largest petal, in cells.
const MAX_CELLS: usize = 4;
/// Most candidates of a stem.
const MAX_STEM: usize = 3;

/// The first death blossom (stems in reading order) that eliminates a candidate.
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    let sets = collect(grid, MAX_CELLS);
    for stem in grid.empty_cells().iter() {
        let digits: Vec<Digit> = grid.candidates(stem).iter().collect();
        if !(2..=MAX_STEM).contains(&digits.len()) {
            continue;
        }
        // Candidate petals per stem digit.
        let petals: Vec<Vec<usize>> = digits
            .iter()
            .map(|&d| {
                sets.iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        !s.cells.contains(stem)
                            && s.digits.contains(d)
                            && s.places[d.index()].is_subset(stem.peers())
                    })
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        if petals.iter().any(|p| p.is_empty()) {
            continue;
        }
        let stem_digits = grid.candidates(stem);
        let mut chosen: Vec<usize> = Vec::with_capacity(digits.len());
        if let Some(step) = search(grid, stem, &sets, &petals, stem_digits, &mut chosen) {
            return Some(step);
        }
    }
    None
}

/// Chooses one petal per stem digit (disjoint sets) while some digit outside the stem stays
/// common to all of them and could still eliminate something.
fn search(
    grid: &Grid,
    stem: Cell,
    sets: &[Als],
    petals: &[Vec<usize>],
    stem_digits: Candidates,
    chosen: &mut Vec<usize>,
) -> Option<Step> {
    let k = chosen.len();
    let used: CellSet = chosen.iter().fold(CellSet::EMPTY, |acc, &i| acc | sets[i].cells);
    let common = chosen
        .iter()
        .fold(!stem_digits, |acc, &i| acc & sets[i].digits);
    // Cells that could still lose a common digit: those seeing all its places so far.
    let targets = |z: Digit| -> CellSet {
        chosen
            .iter()
            .fold(grid.digit_cells(z) & !used, |acc, &i| acc & sets[i].seen_by_all[z.index()])
    };
    if common.is_empty() || common.iter().all(|z| targets(z).is_empty()) {
        return None;
    }
    if k == petals.len() {
        let mut elims = Elims::default();
        for z in common.iter() {
            elims.add(grid, z, targets(z) & !CellSet::single(stem));
        }
        if elims.is_empty() {
            return None;
        }
        return Some(build(grid, stem, sets, chosen, elims));
    }
    for &i in &petals[k] {
        if !(sets[i].cells & used).is_empty() {
            continue;
        }
        chosen.push(i);
        let found = search(grid, stem, sets, petals, stem_digits, chosen);
        chosen.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

fn build(grid: &Grid, stem: Cell, sets: &[Als], chosen: &[usize], elims: Elims) -> Step {
    let mut step = Step::new(Technique::DeathBlossom);
    step.eliminations = elims.candidates();
    let stem_digits: Vec<Digit> = grid.candidates(stem).iter().collect();
    for &d in &stem_digits {
        step.mark(stem, d, Role::Pivot);
        step.digits.insert(d);
    }
    for (k, &i) in chosen.iter().enumerate() {
        let role = if k % 2 == 0 { Role::SetA } else { Role::SetB };
        step.houses.push((sets[i].house, role));
        step.links.push(Link {
            from: Node::cell(stem, stem_digits[k]),
            to: Node {
                cells: sets[i].cells,
                digit: stem_digits[k],
            },
            kind: LinkKind::Weak,
        });
        for c in sets[i].cells.iter() {
            for d in grid.candidates(c).iter() {
                let common = d == stem_digits[k];
                step.mark(c, d, if common { Role::Common } else { role });
                step.digits.insert(d);
            }
        }
    }
    step
}

/// The petals of a step in order, each with the stem digit it answers.
fn petals(step: &Step) -> Vec<(Digit, CellSet)> {
    step.links.iter().map(|l| (l.to.digit, l.to.cells)).collect()
}

/// `Death Blossom: stem r5c5 {19}, 1: r1c5,r3c5 {125}, 9: r5c1 {59} => r1c1<>5`
pub(crate) fn text(step: &Step) -> String {
    let Some(stem) = step.marked_cells(Role::Pivot).first() else {
        return super::plain_text(step);
    };
    let stem_digits: Candidates = step.marked(Role::Pivot).map(|c| c.digit).collect();
    let parts: Vec<String> = petals(step)
        .into_iter()
        .map(|(d, cells)| {
            let digits: Candidates = step
                .marks
                .iter()
                .filter(|m| cells.contains(m.candidate.cell) && m.role != Role::Pivot)
                .map(|m| m.candidate.digit)
                .collect();
            format!("{d}: {} {{{digits}}}", compact_cells(cells.iter()))
        })
        .collect();
    format!(
        "{}: stem {stem} {{{stem_digits}}}, {} => {}",
        step.technique.name(),
        parts.join(", "),
        step.effect_text()
    )
}

/// "Whatever r5c5 holds (1 or 9), the group of that digit (r1c5 and r3c5 for 1, r5c1 for 9)
/// loses it and is locked, so 5 is in one of the groups and r1c1 cannot be 5."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(stem) = step.marked_cells(Role::Pivot).first() else {
        return super::generic_sentence(step);
    };
    let stem_digits: Candidates = step.marked(Role::Pivot).map(|c| c.digit).collect();
    let groups: Vec<String> = petals(step)
        .into_iter()
        .map(|(d, cells)| format!("{} for {d}", cell_words(cells.iter())))
        .collect();
    format!(
        "Whatever {stem} holds ({}), the group of that digit ({}) loses it and is locked, so a \
         digit all groups share is in one of them and {}.",
        super::super::notation::digit_words(stem_digits, "or"),
        join_words(&groups, "and"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    /// Stem r5c5 {1,9}; petal for 1: r1c5 {1,5} (column 5), petal for 9: r5c1 {5,9} (row 5).
    /// Either petal is 5, so r1c1 loses 5.
    #[test]
    fn two_petals() {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(4, 4), cands("19"));
        g.set_candidates(Cell::at(0, 4), cands("15"));
        g.set_candidates(Cell::at(4, 0), cands("59"));
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "Death Blossom: stem r5c5 {19}, 1: r1c5 {15}, 9: r5c1 {59} => r1c1<>5"
        );
        assert!(s.explanation().contains("r1c1 cannot be 5"), "{}", s.explanation());
    }

    #[test]
    fn petals_without_a_shared_digit_give_nothing() {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(4, 4), cands("19"));
        g.set_candidates(Cell::at(0, 4), cands("15"));
        g.set_candidates(Cell::at(4, 0), cands("69"));
        assert!(find(&g).is_none());
    }
}
