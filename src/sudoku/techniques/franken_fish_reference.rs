//! A guard for the pruned Franken/Mutant fish search: a naive reference that enumerates every
//! base set and every cover set of a digit, size and family with no pruning and no memo, and a
//! property test that the pruned search agrees with it on positions along real solve paths.
//!
//! What agreeing means. The pruned search reports, per digit, size and family, the first fish
//! it meets: base sets in ascending (lexicographic) order of house indexes, and on the first
//! base set that has one, the first cover set its depth-first cover search reaches. That cover
//! search only reaches cover sets whose covers each take in a base cell when chosen, so a
//! cover adding no base cell beyond the others ("degenerate") may or may not be reached,
//! depending on the order. A cover set where each cover holds a base cell no other cover holds
//! ("private") is always reached, as long as pruning drops nothing it should not. So:
//!
//! * the pruned step must be one of the reference's fish on its base set (same bases, covers,
//!   fins, base cells and eliminations). It may have more than [`MAX_FINS`] fins: the cover
//!   search sets aside at most that many, but base cells still uncovered when the covers run
//!   out are fins too (so it was before the pruning);
//! * no base set before it may hold a fish with at most [`MAX_FINS`] fins whose covers all
//!   have a private base cell, and when the pruned search finds nothing, no base set may;
//! * without fins a degenerate fish means the grid has no solution, so along a solve path the
//!   first base set with any fish is the pruned one;
//! * through the memo, [`search`] reports the same steps as the direct searches.
//!
//! The fish itself (kinds of house, fins, eliminations) is built by [`Search::check`] in both;
//! this guards the pruning of the search (cover counts, target narrowing, the four-fins rule,
//! house-kind reachability, the fin rule) and the memo, not the definition.

use super::super::super::grid::Grid;
use super::super::super::step::{Role, Step, Technique};
use super::super::super::types::{CellSet, Digit, House};
use super::super::Instances;
use super::{MAX_FINS, Search, families, kind_index, search};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The (mutant, finned) switches of each technique.
const TECHNIQUES: [(Technique, bool, bool); 4] = [
    (Technique::FrankenFish, false, false),
    (Technique::FinnedFrankenFish, false, true),
    (Technique::MutantFish, true, false),
    (Technique::FinnedMutantFish, true, true),
];

/// Every `n`-combination of `items`, ascending, in lexicographic order.
fn combinations(items: &[usize], n: usize) -> Vec<Vec<usize>> {
    fn go(items: &[usize], n: usize, from: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == n {
            out.push(cur.clone());
            return;
        }
        for i in from..items.len() {
            cur.push(items[i]);
            go(items, n, i + 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(items, n, 0, &mut Vec::with_capacity(n), &mut out);
    out
}

/// One fish of the reference: its cover set (ascending), the step and whether it has at most
/// [`MAX_FINS`] fins and every cover a base cell of its own (so the pruned search must reach it).
struct Fish {
    covers: Vec<usize>,
    step: Step,
    private: bool,
}

/// Every fish on the base set `base` (ascending, disjoint): every set of `size` cover houses
/// of the family's kinds, off the bases, each holding a base cell, with any number of fins.
fn fish_on(s: &Search, base: &[usize], cover_kinds: &[bool; 3]) -> Vec<Fish> {
    let all_base = base.iter().fold(CellSet::EMPTY, |a, &h| a | s.cells[h]);
    let candidates: Vec<usize> = (0..27)
        .filter(|&h| {
            cover_kinds[kind_index(House::from_index(h))]
                && !base.contains(&h)
                && !(s.cells[h] & all_base).is_empty()
        })
        .collect();
    let mut out = Vec::new();
    for covers in combinations(&candidates, s.size) {
        let covered = covers.iter().fold(CellSet::EMPTY, |a, &h| a | s.cells[h]);
        let Some(step) = s.check(base, &covers, covered) else {
            continue;
        };
        let private = (all_base & !covered).len() <= MAX_FINS
            && covers.iter().all(|&h| {
                let others = covers
                    .iter()
                    .filter(|&&o| o != h)
                    .fold(CellSet::EMPTY, |a, &o| a | s.cells[o]);
                !(s.cells[h] & all_base & !others).is_empty()
            });
        out.push(Fish {
            covers,
            step,
            private,
        });
    }
    out
}

/// Every base set of the family in the pruned search's order: `size` houses of the base kinds,
/// each with two or more cells of the digit, pairwise disjoint.
fn base_sets(s: &Search, base_kinds: &[bool; 3]) -> Vec<Vec<usize>> {
    let houses: Vec<usize> = (0..27)
        .filter(|&h| base_kinds[kind_index(House::from_index(h))] && s.cells[h].len() >= 2)
        .collect();
    combinations(&houses, s.size)
        .into_iter()
        .filter(|b| {
            let mut seen = CellSet::EMPTY;
            b.iter().all(|&h| {
                let disjoint = (seen & s.cells[h]).is_empty();
                seen |= s.cells[h];
                disjoint
            })
        })
        .collect()
}

/// The house indexes of `step` in `role`, ascending.
fn house_ids(step: &Step, role: Role) -> Vec<usize> {
    let mut ids: Vec<usize> = step.houses_with(role).map(|h| h.index()).collect();
    ids.sort_unstable();
    ids
}

/// What a fish step shows, independent of the order its covers were chosen in.
fn shape(step: &Step) -> impl PartialEq + std::fmt::Debug {
    let mut eliminations = step.eliminations.clone();
    eliminations.sort_unstable();
    (
        step.technique,
        step.digits,
        house_ids(step, Role::Base),
        house_ids(step, Role::Cover),
        step.marked_cells(Role::Base),
        step.marked_cells(Role::Fin),
        eliminations,
    )
}

/// The search of digit `d` and `size` on `grid`, as [`search`] sets it up.
fn setup(grid: &Grid, d: Digit, size: usize, mutant: bool, finned: bool) -> Search<'_> {
    Search::new(grid, d, size, mutant, finned)
}

/// The pruned search of one digit, size and family, straight (no memo).
fn pruned(s: &Search, base_kinds: &[bool; 3], cover_kinds: &[bool; 3]) -> Option<Step> {
    s.first(base_kinds, cover_kinds)
}

/// Checks the pruned search against the reference for every technique, digit, family and the
/// sizes `sizes` on `grid`; `Err` says where they part. Returns how many fish the pruned search
/// found.
fn agree(grid: &Grid, sizes: std::ops::RangeInclusive<usize>) -> Result<usize, String> {
    let mut found = 0;
    let at = grid.to_sukaku();
    for (technique, mutant, finned) in TECHNIQUES {
        for size in sizes.clone() {
            for d in Digit::ALL {
                let s = setup(grid, d, size, mutant, finned);
                for (base_kinds, cover_kinds) in families(mutant) {
                    let got = pruned(&s, &base_kinds, &cover_kinds);
                    let where_ = format!("{technique:?} size {size} digit {d} in {at}");
                    let mut first_any: Option<Vec<usize>> = None;
                    let mut matched = got.is_none();
                    for base in base_sets(&s, &base_kinds) {
                        let fish = fish_on(&s, &base, &cover_kinds);
                        if fish.is_empty() {
                            continue;
                        }
                        first_any.get_or_insert_with(|| base.clone());
                        if let Some(step) = &got
                            && house_ids(step, Role::Base) == base
                        {
                            let covers = house_ids(step, Role::Cover);
                            let Some(f) = fish.iter().find(|f| f.covers == covers) else {
                                return Err(format!(
                                    "{where_}: pruned {} is no reference fish",
                                    step.text()
                                ));
                            };
                            if shape(&f.step) != shape(step) {
                                return Err(format!(
                                    "{where_}: pruned {} but reference {}",
                                    step.text(),
                                    f.step.text()
                                ));
                            }
                            matched = true;
                            break;
                        }
                        if let Some(f) = fish.iter().find(|f| f.private) {
                            return Err(format!(
                                "{where_}: reference {} comes first; pruned {:?}",
                                f.step.text(),
                                got.as_ref().map(Step::text)
                            ));
                        }
                    }
                    if got.is_none() && !finned && first_any.is_some() {
                        return Err(format!(
                            "{where_}: pruned none but {first_any:?} has a fish"
                        ));
                    }
                    if !matched {
                        let step = got.as_ref().map(Step::text);
                        return Err(format!(
                            "{where_}: pruned {step:?} on no reference base set"
                        ));
                    }
                    if let Some(step) = &got {
                        found += 1;
                        if !finned && first_any.as_ref() != Some(&house_ids(step, Role::Base)) {
                            return Err(format!(
                                "{where_}: pruned {} but a base set {first_any:?} comes first",
                                step.text()
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(found)
}

/// Whether the walk for every kind ([`Search::first_all`]) finds what each technique's own
/// search finds for each family.
fn walk_agrees(grid: &Grid) -> Result<(), String> {
    for size in 2..=4 {
        for d in Digit::ALL {
            let all = setup(grid, d, size, false, false).first_all(None);
            for (category, got) in all.iter().enumerate() {
                let (technique, family) = super::CATEGORIES[category];
                let (mutant, finned) = match technique {
                    Technique::FrankenFish => (false, false),
                    Technique::FinnedFrankenFish => (false, true),
                    Technique::MutantFish => (true, false),
                    _ => (true, true),
                };
                let (base_kinds, cover_kinds) = families(mutant)[family];
                let want = pruned(
                    &setup(grid, d, size, mutant, finned),
                    &base_kinds,
                    &cover_kinds,
                );
                if *got != want {
                    return Err(format!(
                        "{technique:?} family {family} size {size} digit {d} in {}: the walk \
                         found {:?}, the search {:?}",
                        grid.to_sukaku(),
                        got.as_ref().map(Step::text),
                        want.as_ref().map(Step::text)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether, for every digit and size whose walk over `earlier` finds no fish, the walk over
/// `later` (the same candidates less some) finds the same with and without keeping to base
/// sets through the houses of the removed cells; how many fish it found so.
fn restricted_agrees(earlier: &Grid, later: &Grid) -> Result<usize, String> {
    let mut found = 0;
    for size in 2..=4 {
        for d in Digit::ALL {
            let before = setup(earlier, d, size, false, false).first_all(None);
            if before.iter().any(Option::is_some) {
                continue;
            }
            let touched = super::memo::touched(earlier.digit_cells(d), later.digit_cells(d))
                .ok_or("the later grid has a candidate the earlier lacks")?;
            let s = setup(later, d, size, false, false);
            let (all, restricted) = (s.first_all(None), s.first_all(Some(touched)));
            if all != restricted {
                return Err(format!(
                    "size {size} digit {d} in {} after {}: restricted walk differs",
                    later.to_sukaku(),
                    earlier.to_sukaku()
                ));
            }
            found += all.iter().flatten().count();
        }
    }
    Ok(found)
}

/// Whether [`search`], through the memo, reports what the direct searches find, in order.
fn memo_agrees(grid: &Grid) -> Result<(), String> {
    for (technique, mutant, finned) in TECHNIQUES {
        let mut direct = Instances::up_to(10_000);
        for size in 2..=4 {
            for d in Digit::ALL {
                let s = setup(grid, d, size, mutant, finned);
                for (base_kinds, cover_kinds) in families(mutant) {
                    if let Some(step) = pruned(&s, &base_kinds, &cover_kinds) {
                        let _ = direct.add(step);
                    }
                }
            }
        }
        let want = direct.into_steps();
        // Twice: the second answers from the memo.
        for _ in 0..2 {
            let mut out = Instances::up_to(10_000);
            let _ = search(grid, technique, &mut out);
            if out.into_steps() != want {
                return Err(format!(
                    "{technique:?} in {}: memoized search differs from the direct one",
                    grid.to_sukaku()
                ));
            }
        }
    }
    Ok(())
}

/// The puzzles: the SE-rated 8.x and 9.x files (a missing file fails the test).
fn hard_puzzles() -> Vec<String> {
    let dir = crate::test_data::shared_puzzle_path("se-rated");
    let mut out = Vec::new();
    for rating in ["8.0", "8.3", "8.5", "8.8", "9.0", "9.2"] {
        let path = dir.join(format!("{rating}.txt"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.extend(
            crate::sudoku::collection_puzzles(&text)
                .take(20)
                .map(|(_, p)| p.to_string()),
        );
    }
    assert!(out.len() >= 60, "only {} hard puzzles", out.len());
    out
}

/// `puzzle` after `steps` steps of the step solver (fewer when it is solved sooner).
fn advanced(puzzle: &str, steps: usize) -> Grid {
    let mut g = crate::sudoku::parse::parse_puzzle(puzzle).expect("puzzle parses");
    for _ in 0..steps {
        match crate::sudoku::explain::next_hint(&g).expect("puzzle solves") {
            Some(step) => step.apply(&mut g),
            None => break,
        }
    }
    g
}

#[test]
fn restricted_walk_finds_the_fish_that_appear() {
    // Along real solves, fish appear after fish-free positions: the walk kept to the houses
    // of the removed cells finds each of them (and finds some: the check is not vacuous).
    let puzzles = hard_puzzles();
    let mut found = 0;
    for puzzle in puzzles.iter().step_by(10) {
        for steps in (0..40).step_by(8) {
            let (earlier, later) = (advanced(puzzle, steps), advanced(puzzle, steps + 8));
            found += restricted_agrees(&earlier, &later).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert!(found > 0, "no fish appeared after a fish-free position");
}

#[test]
fn reference_finds_the_unit_test_fish() {
    // The reference is not vacuous: it agrees on a position with a known Franken X-Wing.
    let g = crate::sudoku::techniques::test_util::digit_only_in(
        4,
        &[(1, 2), (1, 7), (5, 2), (5, 7), (3, 2), (9, 7)],
    );
    let found = agree(&g, 2..=2);
    assert!(matches!(found, Ok(n) if n >= 1), "{found:?}");
}

proptest! {
    #![proptest_config(Config {
        cases: 12,
        rng_seed: RngSeed::Fixed(20_261_125),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn pruned_search_matches_the_reference(index in 0usize..1000, steps in 0usize..24) {
        let puzzles = hard_puzzles();
        let g = advanced(&puzzles[index % puzzles.len()], steps);
        let later = advanced(&puzzles[index % puzzles.len()], steps + 3);
        prop_assert!(restricted_agrees(&g, &later).is_ok(), "{:?}", restricted_agrees(&g, &later));
        prop_assert_eq!(agree(&g, 2..=4).map(|_| ()), Ok(()));
        prop_assert_eq!(walk_agrees(&g), Ok(()));
        prop_assert_eq!(memo_agrees(&g), Ok(()));
    }
}
