//! HoDoKu's library layout for a position part-way through a solve, as HoDoKu writes its
//! technique library (`reglib`) lines:
//!
//! ```text
//! :<code>:<digits>:<cells>:<deleted candidates>:<eliminations>:<placements>:…
//! ```
//!
//! `<cells>` is 81 cells, `1`–`9` for a given, `+` then `1`–`9` for a placed digit, `.` or `0`
//! for an empty cell; `<deleted candidates>` lists candidates removed from the empty cells
//! beyond what the digits remove, as digit-row-column triples separated by spaces (`436 257`
//! is r3c6<>4, r5c7<>2). `<code>` (the technique) and `<digits>` are not checked, and the
//! fields after the deleted candidates (what HoDoKu expects the technique to find) are ignored.
//!
//! Owns only this layout; `parse::parse_puzzle` sends library lines here.

use super::grid::Grid;
use super::parse::{ParseError, check_conflicts};
use super::types::{Cell, Digit};

/// What one cell of the `<cells>` field holds.
#[derive(Clone, Copy)]
enum Entry {
    Empty,
    Given(Digit),
    Placed(Digit),
}

/// Parses one library line (leading and trailing whitespace allowed). Errors are
/// [`ParseError::Library`] on line 1 with the column at fault, [`ParseError::NoCandidates`]
/// when the deletions leave an empty cell without candidates, and
/// [`ParseError::DuplicateGiven`] when a house repeats a digit. Never panics.
pub fn parse_library_line(line: &str) -> Result<Grid, ParseError> {
    let lead = line.len() - line.trim_start().len();
    let line = line.trim();
    let fail = |byte: usize, problem: String| ParseError::Library {
        line: 1,
        column: line[..byte.min(line.len())].chars().count() + 1 + lead,
        problem,
    };
    let Some(rest) = line.strip_prefix(':') else {
        return Err(fail(0, "a library line starts with ':'".into()));
    };
    // Byte offsets of the fields after the leading colon.
    let mut fields = Vec::with_capacity(5);
    let mut start = 1;
    for part in rest.split(':').take(4) {
        fields.push((start, part));
        start += part.len() + 1;
    }
    if fields.len() < 3 {
        return Err(fail(
            line.len(),
            format!(
                "expected ':code:digits:cells:deleted candidates:', found {} field{}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let (cells_at, cells_text) = fields[2];
    let cells = read_cells(cells_text).map_err(|(at, p)| fail(cells_at + at, p))?;
    let mut grid = Grid::empty();
    for (i, entry) in cells.iter().enumerate() {
        let cell = Cell::from_index(i);
        match *entry {
            Entry::Empty => {}
            Entry::Given(d) => {
                grid.place(cell, d);
                grid.mark_given(cell);
            }
            Entry::Placed(d) => grid.place(cell, d),
        }
    }
    check_conflicts(&grid)?;
    if let Some(&(deleted_at, deleted)) = fields.get(3) {
        for (at, triple) in read_deletions(deleted).map_err(|(at, p)| fail(deleted_at + at, p))? {
            let (digit, cell) = triple;
            if grid.value(cell).is_some() {
                // HoDoKu lists deletions of empty cells only: say where the line is wrong
                // rather than guess what was meant.
                return Err(fail(
                    deleted_at + at,
                    format!("deletes {digit} from {cell}, which is already filled"),
                ));
            }
            grid.eliminate(cell, digit);
        }
    }
    if let Some(cell) =
        Cell::all().find(|&c| grid.value(c).is_none() && grid.candidates(c).is_empty())
    {
        return Err(ParseError::NoCandidates { cell });
    }
    Ok(grid)
}

/// The 81 cells of the `<cells>` field, or the byte offset in it and the problem.
fn read_cells(text: &str) -> Result<Vec<Entry>, (usize, String)> {
    let mut out = Vec::with_capacity(81);
    let mut chars = text.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        let entry = match ch {
            '.' | '0' => Entry::Empty,
            '1'..='9' => Entry::Given(digit_of(ch)),
            '+' => match chars.next() {
                Some((_, d @ '1'..='9')) => Entry::Placed(digit_of(d)),
                _ => return Err((at, "'+' must stand before a placed digit 1-9".into())),
            },
            ch => {
                return Err((
                    at,
                    format!(
                        "unexpected character {ch:?} in the cells (expected 1-9, '+digit', '.' or '0')"
                    ),
                ));
            }
        };
        if out.len() == 81 {
            return Err((at, "more than 81 cells".into()));
        }
        out.push(entry);
    }
    if out.len() != 81 {
        return Err((
            text.len(),
            format!("found {} cells, expected 81", out.len()),
        ));
    }
    Ok(out)
}

/// A deleted candidate with the byte offset of its triple.
type Deletion = (usize, (Digit, Cell));

/// The deleted candidates, or the offset and the problem.
fn read_deletions(text: &str) -> Result<Vec<Deletion>, (usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    for token in text.split(' ') {
        let here = at;
        at += token.len() + 1;
        let token_trimmed = token.trim();
        if token_trimmed.is_empty() {
            continue;
        }
        let b = token_trimmed.as_bytes();
        let valid = b.len() == 3 && b.iter().all(|c| (b'1'..=b'9').contains(c));
        if !valid {
            return Err((
                here + (token.len() - token.trim_start().len()),
                format!(
                    "deleted candidate {token_trimmed:?} is not a digit-row-column triple such as 436"
                ),
            ));
        }
        let n = |i: usize| usize::from(b[i] - b'0');
        out.push((
            here,
            (Digit::from_index(n(0) - 1), Cell::at(n(1) - 1, n(2) - 1)),
        ));
    }
    Ok(out)
}

fn digit_of(ch: char) -> Digit {
    Digit::from_index((ch as u8 - b'1') as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse::parse_puzzle;

    /// r1c1 given 1, r1c2 placed 2; 3 deleted from r1c3 and 4 from r9c9.
    fn line(cells: &str, deleted: &str) -> String {
        format!(":0100:1:{cells}:{deleted}:511:: extra fields ignored")
    }

    fn cells() -> String {
        format!("1+2{}", ".".repeat(79))
    }

    #[test]
    fn givens_placed_and_deletions() {
        let g = parse_library_line(&line(&cells(), "313 499")).unwrap();
        let (r1c1, r1c2, r1c3) = (Cell::at(0, 0), Cell::at(0, 1), Cell::at(0, 2));
        assert_eq!(g.value(r1c1), Digit::new(1));
        assert!(g.is_given(r1c1));
        assert_eq!(g.value(r1c2), Digit::new(2));
        assert!(!g.is_given(r1c2), "a '+' digit is placed, not given");
        assert_eq!(g.candidates(r1c3).to_string(), "456789");
        assert_eq!(g.candidates(Cell::at(8, 8)).to_string(), "12356789");
        // The same through the general parser, with a comment line and padding.
        let g2 = parse_puzzle(&format!(
            "# from HoDoKu\n  {}  \n",
            line(&cells(), "313 499")
        ))
        .unwrap();
        assert_eq!(g2, g);
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse_library_line(&line(&cells().replacen('.', "x", 1), "")).unwrap_err();
        // ":0100:1:" is 8 characters, "1+2" 3 more: the x is column 12.
        assert!(matches!(e, ParseError::Library { column: 12, .. }), "{e}");
        let e = parse_library_line(&line(&cells(), "313 49")).unwrap_err();
        assert!(e.to_string().contains("\"49\""), "{e}");
        let e = parse_library_line(&line(&cells()[..80], "")).unwrap_err();
        assert!(e.to_string().contains("found 79 cells"), "{e}");
        let e = parse_library_line(":0100:1").unwrap_err();
        assert!(e.to_string().contains("found 2 fields"), "{e}");
        let e = parse_library_line(&line(&format!("1+{}", ".".repeat(80)), "")).unwrap_err();
        assert!(e.to_string().contains("'+'"), "{e}");
        let e = parse_library_line(&line(&cells(), "511")).unwrap_err();
        assert!(e.to_string().contains("already filled"), "{e}");
        // A second line after a library line is refused by the general parser, located.
        let e = parse_puzzle(&format!("{}\n\n{}", line(&cells(), ""), cells())).unwrap_err();
        assert!(matches!(e, ParseError::Library { line: 3, .. }), "{e}");
    }

    #[test]
    fn conflicts_and_dead_cells() {
        let e = parse_library_line(&line(&format!("1+1{}", ".".repeat(79)), "")).unwrap_err();
        assert!(matches!(e, ParseError::DuplicateGiven { .. }), "{e}");
        // r9c9 loses all nine candidates.
        let all: Vec<String> = (1..=9).map(|d| format!("{d}99")).collect();
        let e = parse_library_line(&line(&cells(), &all.join(" "))).unwrap_err();
        assert_eq!(
            e,
            ParseError::NoCandidates {
                cell: Cell::at(8, 8)
            }
        );
    }
}
