//! Franken and Mutant fish (sizes 2 to 4, plain and finned): a fish whose base or cover houses
//! include boxes (Franken: rows and boxes against columns and boxes, or the transpose) or mix
//! rows and columns (Mutant). `n` base houses hold the digit in disjoint cells; `n` other cover
//! houses hold every one of those cells except a few fins. Each base house needs the digit
//! once, so `n` of the base cells are true, each in a different cover house (a cell seen by
//! two covers would be a candidate in both, but then two base truths would share a cover —
//! impossible, so the `n` truths fill the `n` covers). Unless a fin is true, the covers' other
//! cells lose the digit; with fins, only those that also see every fin.
//!
//! One walk per digit and size answers all four techniques and both Franken families at once
//! ([`Walk`]); the answers wait in a per-thread memo for the step solver's next question.
//!
//! Plain rows/columns fish are left to the basic and finned fish. The base houses are
//! recorded as [`Role::Base`], the cover houses as [`Role::Cover`]; base candidates are marked
//! [`Role::Base`], fins [`Role::Fin`].
//!
//! The search over base and cover sets, and the walk, are in `walk` (`franken_fish_walk.rs`);
//! the covering bound in `apart`, the memo in `memo`. This file asks the questions and words
//! the answers.
//!
//! [`Walk`]: walk

use super::super::grid::Grid;
use super::super::notation::{cell_words, house_words, join_words};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Digit, House, HouseKind};
use super::{Flow, GO_ON, Instances};
use memo::{MemoKey, fish_free, memoized, remember, touched_since_fish_free};
use walk::{CATEGORIES, Search};

/// Most fins the cover search sets aside itself. Base cells that no cover holds when the last
/// cover is chosen are fins too, so a reported fish may show more (each elimination still sees
/// every fin).
const MAX_FINS: usize = 3;

/// The first fish of `technique` (Franken or Mutant, plain or finned) of each digit, size and
/// family of houses, reported to `out`: digits ascending, smallest first.
pub(crate) fn search(grid: &Grid, technique: Technique, out: &mut Instances) -> Flow {
    let (mutant, finned) = match technique {
        Technique::FrankenFish => (false, false),
        Technique::FinnedFrankenFish => (false, true),
        Technique::MutantFish => (true, false),
        Technique::FinnedMutantFish => (true, true),
        _ => return GO_ON,
    };
    for size in 2..=4 {
        for d in Digit::ALL {
            let search = Search::new(grid, d, size, mutant, finned);
            let digit_cells = grid.digit_cells(d);
            for family in 0..families(mutant).len() {
                let key = MemoKey {
                    technique,
                    size,
                    d,
                    family,
                    cells: digit_cells,
                };
                let found = memoized(key, || {
                    // One walk answers every technique and family of this digit and size
                    // (see [`Walk`]); the others go to the memo for when they are asked.
                    let all = search.first_all(touched_since_fish_free(size, d, digit_cells));
                    if all.iter().all(Option::is_none) {
                        fish_free(size, d, digit_cells);
                    }
                    for (category, found) in all.iter().enumerate() {
                        let (technique, family) = CATEGORIES[category];
                        remember(
                            MemoKey {
                                technique,
                                family,
                                ..key
                            },
                            found.clone(),
                        );
                    }
                    let asked = CATEGORIES
                        .iter()
                        .position(|&c| c == (technique, family))
                        .and_then(|c| all.get(c));
                    asked.cloned().flatten()
                });
                if let Some(step) = found {
                    out.add(step)?;
                }
            }
        }
    }
    GO_ON
}

/// The first instance, for the tests.
#[cfg(test)]
fn find(grid: &Grid, technique: Technique) -> Option<Step> {
    super::first(|out| search(grid, technique, out))
}

/// The (base kinds, cover kinds) families searched.
fn families(mutant: bool) -> Vec<([bool; 3], [bool; 3])> {
    // [rows, columns, boxes]
    if mutant {
        vec![([true, true, true], [true, true, true])]
    } else {
        vec![
            ([true, false, true], [false, true, true]),
            ([false, true, true], [true, false, true]),
        ]
    }
}

fn kind_index(h: House) -> usize {
    match h.kind() {
        HouseKind::Row => 0,
        HouseKind::Col => 1,
        HouseKind::Box => 2,
    }
}

/// The fish's size name: X-Wing, Swordfish, Jellyfish.
fn size_name(n: usize) -> &'static str {
    match n {
        2 => "X-Wing",
        3 => "Swordfish",
        _ => "Jellyfish",
    }
}

/// `Finned Franken Swordfish: 4 r25b7 c138 fr8c2 => r9c3<>4`
pub(crate) fn text(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::plain_text(step);
    };
    let group = |role: Role| -> String {
        step.houses_with(role)
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join("")
    };
    let n = step.houses_with(Role::Base).count();
    let name = step.technique.name().replace("Fish", size_name(n));
    let fins: Vec<String> = step
        .marked(Role::Fin)
        .map(|c| format!("f{}", c.cell))
        .collect();
    let fins = if fins.is_empty() {
        String::new()
    } else {
        format!(" {}", fins.join(" "))
    };
    format!(
        "{name}: {d} {} {}{fins} => {}",
        group(Role::Base),
        group(Role::Cover),
        step.effect_text()
    )
}

/// "The 4 of row 2, row 5 and box 7 can only go in column 1, column 3 and column 8 (or the fin
/// r8c2), so those get their 4 from there; r9c3, seeing the fin, cannot be 4 either way."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let words = |role| -> String {
        let hs: Vec<String> = step.houses_with(role).map(house_words).collect();
        join_words(&hs, "and")
    };
    let fins = step.marked_cells(Role::Fin);
    if fins.is_empty() {
        return format!(
            "The {d} of {} can only go in {}, one in each, so those get their {d} from there and \
             {}.",
            words(Role::Base),
            words(Role::Cover),
            super::effect_words(step)
        );
    }
    format!(
        "The {d} of {} would only go in {} but for the fin {}; whether or not a fin holds it, {}.",
        words(Role::Base),
        words(Role::Cover),
        cell_words(fins.iter()),
        super::effect_words(step)
    )
}

#[path = "franken_fish_apart.rs"]
mod apart;

#[path = "franken_fish_memo.rs"]
mod memo;

#[path = "franken_fish_walk.rs"]
mod walk;

#[cfg(test)]
#[path = "franken_fish_reference.rs"]
mod reference;

#[cfg(test)]
#[path = "franken_fish_tests.rs"]
mod tests;
