//! Unit tests of the Franken and Mutant fish finder on hand-built positions (a child module
//! of `franken_fish`, kept apart to hold that file under ~600 lines).

use super::*;
use crate::sudoku::techniques::test_util::*;

#[test]
fn box_base_beside_a_row() {
    // 4s in r1c2, r3c2 (box 1's only ones, both in column 2), r5c2, r5c7, r1c7, r9c7. Base
    // row 5 and box 1 (disjoint) are covered by columns 2 and 7; box 1's 4 is in column 2,
    // so row 5's is r5c7 and the rest of column 7 loses 4.
    let g = digit_only_in(4, &[(1, 2), (1, 7), (5, 2), (5, 7), (3, 2), (9, 7)]);
    let s = find(&g, Technique::FrankenFish).expect("franken fish");
    assert!(
        s.houses.iter().any(|(h, _)| h.kind() == HouseKind::Box),
        "{}",
        s.text()
    );
    let mut elims: Vec<String> = s.eliminations.iter().map(|e| e.cell.to_string()).collect();
    elims.sort();
    assert_eq!(elims, ["r1c7", "r9c7"], "{}", s.text());
}

#[test]
fn size_names() {
    assert_eq!(size_name(3), "Swordfish");
}
