//! Sukaku Explainer's additions to Sudoku Explainer's scale: the techniques it places below
//! Sudoku Explainer's chains, and what they make of the steps of ours that they also find. The
//! reference ratings (`../shared/puzzles/se-rated`, the Sudoku Exchange bank) were made with
//! its default techniques, which between the wings and the chains add:
//!
//! - the turbot family with a grouped end (an empty rectangle, a finned or sashimi X-Wing read
//!   as two strong links, one of them to a box∩line group): 4.3;
//! - "strong-linked fishes", single-digit chains of 3 or 4 strong links: 5.4 and 5.8, +0.1
//!   when their links are not all on parallel lines, +0.2 when they use a box and both line
//!   kinds, +0.3 when a node is a group (its 5- and 6-link ones are off by default);
//! - wings of n cells holding n digits, all but one restricted (our ALS-XZ of a two-digit cell
//!   and a set of n − 1 cells): 4 cells 5.5–5.6, 5 cells 6.2–6.4 (the middle of the largest
//!   cell's size rates highest), 6 cells 6.6, 7 cells 7.5;
//! - unique loops, rated as unique rectangles (4.5) plus 0.1, 0.2 or 0.5 for 6, 8 or 10 cells;
//! - unique rectangle type 3 rated by its naked set: +0.1 per digit beyond two.
//!
//! Only the rating: the techniques themselves are ours. What this module does not own: the
//! length bonus and the chain ratings of Sudoku Explainer itself (the parent module).

use super::super::step::{LinkKind, Node, Role, Step, Technique};
use super::super::types::{CellSet, HouseKind};

/// The rating Sukaku Explainer gives `step`, when one of its additions (module docs) finds the
/// same deduction; `None` when it rates the step as Sudoku Explainer does.
pub(super) fn rating(step: &Step) -> Option<f32> {
    use Technique::*;
    match step.technique {
        EmptyRectangle | FinnedXWing | SashimiXWing => Some(GROUPED_TURBOT),
        XChain | Aic => strong_linked_fish(step),
        UniqueRectangle3 => {
            let set_cells = step.marked_cells(Role::Base).len();
            (set_cells > 0).then_some(4.5 + 0.1 * set_cells as f32)
        }
        AlsXz => wing(step),
        UniqueRectangle1 | UniqueRectangle2 | UniqueRectangle4 => {
            // A unique loop (found for rating): +0.1 for 6 cells, +0.2 for 8, +0.5 for 10.
            match step.marked_cells(Role::SetA).len() {
                0..=4 => None,
                6 => Some(4.6),
                8 => Some(4.7),
                _ => Some(5.0),
            }
        }
        _ => None,
    }
}

/// The lowest rating Sukaku Explainer's additions give a step of `technique`, if it has one
/// below Sudoku Explainer's.
pub(super) fn lowest(technique: Technique) -> Option<f32> {
    use Technique::*;
    match technique {
        EmptyRectangle => Some(GROUPED_TURBOT),
        XChain => Some(FISH_BASE[0]),
        UniqueRectangle3 => Some(4.6),
        _ => None,
    }
}

/// Two strong links of one digit, one of them to a group.
const GROUPED_TURBOT: f32 = 4.3;

/// Base rating of a single-digit chain of 2, 3 and 4 strong links.
const FISH_BASE: [f32; 3] = [4.0, 5.4, 5.8];

/// A chain of one digit, not a loop, with 2–4 strong links: Sukaku Explainer's strong-linked
/// fish rating (module docs); `None` for any other chain.
fn strong_linked_fish(step: &Step) -> Option<f32> {
    let first = step.links.first()?;
    let last = step.links.last()?;
    if last.to == first.from {
        return None;
    }
    let digit = first.from.digit;
    let mut strong = 0usize;
    let (mut boxes, mut rows, mut cols, mut grouped) = (false, false, false, false);
    for link in &step.links {
        if link.from.digit != digit || link.to.digit != digit {
            return None;
        }
        grouped |= link.from.cells.len() > 1 || link.to.cells.len() > 1;
        if link.kind != LinkKind::Strong {
            continue;
        }
        strong += 1;
        match strong_link_house(link.from, link.to) {
            Some(HouseKind::Row) => rows = true,
            Some(HouseKind::Col) => cols = true,
            Some(HouseKind::Box) => boxes = true,
            None => return None,
        }
    }
    let base = *FISH_BASE.get(strong.checked_sub(2)?)?;
    // Two strong links are the turbot family, where any box rates +0.2: 4.0 (parallel lines),
    // 4.1 (a row and a column), 4.2 (a box), 4.3 grouped.
    let bonus = if grouped {
        0.3
    } else if boxes && (strong == 2 || (rows && cols)) {
        0.2
    } else if boxes || (rows && cols) {
        0.1
    } else {
        0.0
    };
    Some(base + bonus)
}

/// The kind of house a strong link of one digit lies in: a line when its cells share one
/// (Sukaku Explainer reads a pair that shares a line and a box on the line), else the box.
fn strong_link_house(from: Node, to: Node) -> Option<HouseKind> {
    let cells: CellSet = from.cells.iter().chain(to.cells.iter()).collect();
    let house = if cells.rows_mask().count_ones() == 1 {
        HouseKind::Row
    } else if cells.cols_mask().count_ones() == 1 {
        HouseKind::Col
    } else if cells.boxes_mask().count_ones() == 1 {
        HouseKind::Box
    } else {
        return None;
    };
    Some(house)
}

/// An ALS-XZ of n cells in all holding n digits, as Sukaku Explainer's n-cell wing (module
/// docs); `None` for larger sets or more digits.
fn wing(step: &Step) -> Option<f32> {
    let cells = step.marked_cells(Role::SetA) | step.marked_cells(Role::SetB);
    let digits: super::super::types::Candidates = step
        .marked(Role::SetA)
        .chain(step.marked(Role::SetB))
        .map(|c| c.digit)
        .collect();
    let n = cells.len();
    let single = |role| step.marked_cells(role).len() == 1;
    if digits.len() != n || !(single(Role::SetA) || single(Role::SetB)) {
        return None;
    }
    let largest = step
        .marked(Role::SetA)
        .chain(step.marked(Role::SetB))
        .fold([0usize; 81], |mut counts, c| {
            counts[c.cell.index()] += 1;
            counts
        })
        .into_iter()
        .max()
        .unwrap_or(0) as f32;
    // The middle of the possible sizes of the largest cell (2 to n) rates highest.
    let middle = |n: f32, base: f32| {
        let mid = ((n + 2.0) / 2.0).floor();
        base + ((n - mid) - (mid - largest).abs()) * 0.1
    };
    match n {
        4 => Some(middle(4.0, 5.5)),
        5 => Some(middle(5.0, 6.2)),
        6 => Some(6.6),
        7 => Some(7.5),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::step::Link;
    use super::super::super::types::{Cell, Digit};
    use super::*;
    use crate::sudoku::Technique;

    /// Puzzles from the Sudoku Exchange bank (public domain) with their Sukaku Explainer rating.
    fn rated(puzzle: &str) -> crate::sudoku::Explained {
        let grid = crate::sudoku::parse::parse_puzzle(puzzle).expect("test puzzle parses");
        crate::sudoku::solve_explained(&grid).expect("test puzzle solves")
    }

    /// An X-Chain of digit 5 through `nodes` (cell index lists; two cells make a group), strong
    /// and weak links alternating from a strong one.
    fn x_chain(nodes: &[&[usize]]) -> Step {
        let digit = Digit::new(5).expect("digit");
        let node = |cells: &[usize]| Node {
            cells: cells.iter().map(|&i| Cell::from_index(i)).collect(),
            digit,
        };
        let mut step = Step::new(Technique::XChain);
        for (i, pair) in nodes.windows(2).enumerate() {
            step.links.push(Link {
                from: node(pair[0]),
                to: node(pair[1]),
                kind: if i % 2 == 0 {
                    LinkKind::Strong
                } else {
                    LinkKind::Weak
                },
            });
        }
        step
    }

    fn assert_close(got: Option<f32>, want: f32) {
        let got = got.expect("a Sukaku Explainer rating");
        assert!((got - want).abs() < 1e-5, "{got} vs {want}");
    }

    #[test]
    fn strong_linked_fish_rate_by_links_and_houses() {
        // r1c1=r1c5 - r3c5=r3c8 - r7c8=r7c2: three strong links on rows.
        assert_close(
            rating(&x_chain(&[&[0], &[4], &[22], &[25], &[61], &[55]])),
            5.4,
        );
        // The last one on column 8 instead (r3c8 - r9c8 weak, r9c8=r5c8 strong).
        assert_close(
            rating(&x_chain(&[&[0], &[4], &[22], &[25], &[79], &[43]])),
            5.5,
        );
        // A row, a column and a box: r1c1=r1c5 - r4c5=r8c5 - r8c6=r9c4 (box 8).
        assert_close(
            rating(&x_chain(&[&[0], &[4], &[31], &[67], &[68], &[75]])),
            5.6,
        );
        // The row-only chain with a grouped node (r3c8/r3c9): +0.3.
        assert_close(
            rating(&x_chain(&[&[0], &[4], &[22], &[25, 26], &[61], &[55]])),
            5.7,
        );
        // Four strong links on rows: 5.8; five are not one of its fish.
        let four: &[&[usize]] = &[&[0], &[4], &[22], &[25], &[61], &[55], &[73], &[80]];
        assert_close(rating(&x_chain(four)), 5.8);
        let five: &[&[usize]] = &[
            &[0],
            &[4],
            &[22],
            &[25],
            &[61],
            &[55],
            &[73],
            &[80],
            &[44],
            &[36],
        ];
        assert_eq!(rating(&x_chain(five)), None);
    }

    #[test]
    fn wings_unique_loops_and_grouped_turbots_set_the_rating() {
        for (puzzle, se, before) in [
            // A finned X-Wing (6.6 as a forcing chain) is a grouped two-link turbot: 4.3.
            (
                "008000017000020800700100420004005060010604090030800200091007006007060000480000900",
                4.3,
                Technique::FinnedXWing,
            ),
            // An XY-Chain (6.9) where a six-cell unique loop is available: 4.6.
            (
                "007908013109000670000010900006700000780000045000001700003080000065000801820509400",
                4.6,
                Technique::XYChain,
            ),
            // Simple colors (6.6) where a chain of three strong links on rows does it: 5.4.
            (
                "300000006080305070004906500030000040051060790006080100010000020900050007000807000",
                5.4,
                Technique::SimpleColorsWrap,
            ),
            // An XY-Chain (7.0) where a chain of one digit, three strong links and a group,
            // does it: 5.7.
            (
                "000523000050000010007000900000608000080309020100000009400237001021000780790080032",
                5.7,
                Technique::XYChain,
            ),
            // An XY-Chain (6.8) where a two-digit cell and a three-cell set make a wing: 5.5.
            (
                "045100000001000056900020030806004009000060000300700602010090003780000900000002180",
                5.5,
                Technique::XYChain,
            ),
        ] {
            let e = rated(puzzle);
            assert_eq!(e.rating.hardest, Some(before), "{puzzle}");
            assert!(
                (e.rating.score - se).abs() < 1e-5,
                "{puzzle}: {}",
                e.rating.score
            );
            assert_eq!(e.guesses, 0);
        }
    }

    #[test]
    fn unique_rectangle_type_3_rates_by_its_set() {
        let mut step = Step::new(Technique::UniqueRectangle3);
        assert_eq!(rating(&step), None);
        let d = Digit::new(1).expect("digit");
        step.mark(Cell::from_index(3), d, Role::Base);
        assert_close(rating(&step), 4.6);
        step.mark(Cell::from_index(5), d, Role::Base);
        assert_close(rating(&step), 4.7);
    }
}
