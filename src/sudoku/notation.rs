//! Compact cell notation used in step texts (`r123c3`, `r3c47`, `r5c4,r6c7`), and the plain
//! words the step sentences are made of ("row 3", "r1c2 and r5c2", "1, 4 or 7").
//!
//! Pure formatting; owns no puzzle logic.

use super::types::{Candidates, Cell, House, HouseKind};

/// Formats cells in the usual compact notation: cells sharing a row are written `r3c47`, rows
/// with the same columns merge to `r12c47`, and the column-major grouping is used instead when it
/// is shorter (`r123c3`). Groups are comma-separated. Empty input gives an empty string.
pub fn compact_cells(cells: impl IntoIterator<Item = Cell>) -> String {
    let mut mask = [0u16; 9]; // per row, which columns
    for c in cells {
        mask[c.row()] |= 1 << c.col();
    }
    let by_rows = group(&mask, 'r', 'c');
    let mut transposed = [0u16; 9];
    for (r, m) in mask.iter().enumerate() {
        for (c, t) in transposed.iter_mut().enumerate() {
            if m & (1 << c) != 0 {
                *t |= 1 << r;
            }
        }
    }
    let by_cols = group(&transposed, 'c', 'r');
    // group() with swapped letters prints "c3r123"; rewrite to the conventional row-first order.
    let by_cols: Vec<String> = by_cols
        .into_iter()
        .map(|g| {
            let split = g.find('r').unwrap_or(g.len());
            format!("{}{}", &g[split..], &g[..split])
        })
        .collect();
    if by_cols.len() < by_rows.len() {
        by_cols.join(",")
    } else {
        by_rows.join(",")
    }
}

/// Groups lines (rows or columns) with identical masks: returns strings like `r12c47`.
fn group(mask: &[u16; 9], outer: char, inner: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut done = 0u16;
    for i in 0..9 {
        if mask[i] == 0 || done & (1 << i) != 0 {
            continue;
        }
        let mut lines = String::new();
        for j in i..9 {
            if mask[j] == mask[i] {
                done |= 1 << j;
                lines.push(char::from(b'1' + j as u8));
            }
        }
        let mut s = String::new();
        s.push(outer);
        s.push_str(&lines);
        s.push(inner);
        for k in 0..9 {
            if mask[i] & (1 << k) != 0 {
                s.push(char::from(b'1' + k as u8));
            }
        }
        out.push(s);
    }
    out
}

/// Formats a list of digits as `1/2/3`.
pub fn slash_digits(digits: impl IntoIterator<Item = super::types::Digit>) -> String {
    digits
        .into_iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// A house in words: "row 3", "column 7", "box 5".
pub fn house_words(h: House) -> String {
    let kind = match h.kind() {
        HouseKind::Row => "row",
        HouseKind::Col => "column",
        HouseKind::Box => "box",
    };
    format!("{kind} {}", h.number() + 1)
}

/// Items joined as in a sentence: "a", "a and b", "a, b and c" (`conj` is "and" or "or").
pub fn join_words<S: AsRef<str>>(items: &[S], conj: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let head: Vec<&str> = init.iter().map(|s| s.as_ref()).collect();
            format!("{} {conj} {}", head.join(", "), last.as_ref())
        }
    }
}

/// Cells in a sentence: "r1c2", "r1c2 and r5c2", "r1c2, r3c4 and r5c6".
pub fn cell_words(cells: impl IntoIterator<Item = Cell>) -> String {
    let names: Vec<String> = cells.into_iter().map(|c| c.to_string()).collect();
    join_words(&names, "and")
}

/// Digits in a sentence joined by `conj`: "4", "4 or 7", "1, 4 or 7".
pub fn digit_words(digits: Candidates, conj: &str) -> String {
    let names: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    join_words(&names, conj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_forms() {
        let c = |r: usize, c: usize| Cell::at(r - 1, c - 1);
        assert_eq!(compact_cells([c(1, 3), c(2, 3), c(3, 3)]), "r123c3");
        assert_eq!(compact_cells([c(3, 4), c(3, 7)]), "r3c47");
        assert_eq!(compact_cells([c(5, 4), c(6, 7)]), "r5c4,r6c7");
        assert_eq!(
            compact_cells([c(1, 4), c(1, 7), c(2, 4), c(2, 7)]),
            "r12c47"
        );
        assert_eq!(compact_cells([c(5, 9), c(6, 6)]), "r5c9,r6c6");
        assert_eq!(compact_cells([]), "");
    }

    #[test]
    fn words() {
        assert_eq!(house_words(House::col(6)), "column 7");
        assert_eq!(join_words(&["a", "b", "c"], "or"), "a, b or c");
        assert_eq!(cell_words([Cell::at(0, 1), Cell::at(4, 1)]), "r1c2 and r5c2");
        let ds: Candidates = [1u8, 4, 7]
            .into_iter()
            .filter_map(crate::sudoku::Digit::new)
            .collect();
        assert_eq!(digit_words(ds, "or"), "1, 4 or 7");
    }
}
