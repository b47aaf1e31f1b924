//! Text formats in and out of [`Grid`]: 81-char puzzle lines (also laid out over 9 lines with
//! separators), 729-char pencil-mark ("Sukaku") strings, and the 9-row label files of the photo
//! data sets. Every error names the line, column and character at fault.
//!
//! Owns no solving logic; conflicts between givens are reported here because a puzzle with
//! duplicate givens is not a puzzle.

use super::grid::Grid;
use super::types::{Candidates, Cell, Digit, House};

/// Why a puzzle text could not be read.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but whitespace, separators or comments.
    #[error("empty puzzle: no cells found")]
    Empty,
    /// A character that is not a digit, `.`, or an ignored separator.
    #[error("line {line}, column {column}: unexpected character {ch:?} (expected 1-9, '.' or '0')")]
    BadChar {
        /// One-based line.
        line: usize,
        /// One-based column (in characters).
        column: usize,
        /// The character found.
        ch: char,
    },
    /// Neither 81 cells nor 729 pencil-mark characters.
    #[error(
        "found {found} cell characters, expected 81 (a puzzle) or 729 (pencil marks); {detail}"
    )]
    WrongLength {
        /// How many significant characters there were.
        found: usize,
        /// Where the text stopped or overflowed.
        detail: String,
    },
    /// In a 729-char string, a digit out of its place (position `k` of a cell may only hold
    /// digit `k` or `.`).
    #[error(
        "line {line}, column {column}: pencil mark {ch:?} in the slot of digit {slot} of {cell}"
    )]
    MisplacedMark {
        /// One-based line.
        line: usize,
        /// One-based column.
        column: usize,
        /// The character found.
        ch: char,
        /// The digit whose slot it is in.
        slot: Digit,
        /// The cell.
        cell: Cell,
    },
    /// A cell with no candidate left in a pencil-mark string.
    #[error("{cell} has no candidates in the pencil-mark string")]
    NoCandidates {
        /// The cell.
        cell: Cell,
    },
    /// The same digit twice in one house.
    #[error("duplicate given {digit} in {house}: {first} and {second}")]
    DuplicateGiven {
        /// The digit.
        digit: Digit,
        /// The first cell (reading order).
        first: Cell,
        /// The second cell.
        second: Cell,
        /// A house holding both.
        house: House,
    },
    /// A label file row with the wrong number of entries.
    #[error("line {line}: expected 9 numbers, found {found}")]
    LabelRowLength {
        /// One-based line.
        line: usize,
        /// Numbers found.
        found: usize,
    },
    /// A label entry that is not an integer 0–10.
    #[error(
        "line {line}, entry {entry}: {text:?} is not a label (0 empty, 1-9 digit, 10 pencil marks)"
    )]
    BadLabel {
        /// One-based line.
        line: usize,
        /// One-based entry within the row.
        entry: usize,
        /// The token.
        text: String,
    },
    /// A label file without exactly 9 rows.
    #[error("expected 9 rows of labels, found {found}")]
    LabelRows {
        /// Rows found.
        found: usize,
    },
}

/// A significant character with its one-based position.
struct Sig {
    ch: char,
    line: usize,
    column: usize,
}

fn significant_chars(text: &str) -> Result<Vec<Sig>, ParseError> {
    let mut out = Vec::with_capacity(81);
    for (li, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for (ci, ch) in line.chars().enumerate() {
            match ch {
                '1'..='9' | '.' | '0' => out.push(Sig {
                    ch,
                    line: li + 1,
                    column: ci + 1,
                }),
                ' ' | '\t' | '\r' | '|' | '-' | '+' | '\u{feff}' => {}
                _ => {
                    return Err(ParseError::BadChar {
                        line: li + 1,
                        column: ci + 1,
                        ch,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Parses a puzzle: 81 cells (`1`-`9` given, `.` or `0` empty) or 729 pencil-mark characters,
/// spread over any number of lines; spaces, tabs, `|`, `-`, `+` and `#` comment lines are
/// ignored. Rejects duplicate givens.
pub fn parse_puzzle(text: &str) -> Result<Grid, ParseError> {
    let sig = significant_chars(text)?;
    let grid = match sig.len() {
        0 => return Err(ParseError::Empty),
        81 => {
            let mut values = [0u8; 81];
            for (i, s) in sig.iter().enumerate() {
                values[i] = s.ch.to_digit(10).unwrap_or(0) as u8;
            }
            Grid::from_values(&values)
        }
        729 => parse_sukaku_chars(&sig)?,
        n => {
            let detail = if n < 81 {
                format!("the text ends {} cells short", 81 - n)
            } else if n < 729 {
                let extra = &sig[81];
                format!(
                    "cell 82 starts at line {}, column {}",
                    extra.line, extra.column
                )
            } else {
                let extra = &sig[729];
                format!(
                    "character 730 is at line {}, column {}",
                    extra.line, extra.column
                )
            };
            return Err(ParseError::WrongLength { found: n, detail });
        }
    };
    check_conflicts(&grid)?;
    Ok(grid)
}

fn parse_sukaku_chars(sig: &[Sig]) -> Result<Grid, ParseError> {
    let mut cands = [Candidates::NONE; 81];
    for (i, s) in sig.iter().enumerate() {
        let cell = Cell::from_index(i / 9);
        let slot = Digit::from_index(i % 9);
        match s.ch {
            '.' | '0' => {}
            ch => {
                if ch != slot.to_char() {
                    return Err(ParseError::MisplacedMark {
                        line: s.line,
                        column: s.column,
                        ch,
                        slot,
                        cell,
                    });
                }
                cands[cell.index()].insert(slot);
            }
        }
    }
    if let Some(i) = cands.iter().position(|c| c.is_empty()) {
        return Err(ParseError::NoCandidates {
            cell: Cell::from_index(i),
        });
    }
    Ok(Grid::from_candidates(&cands))
}

/// The puzzles of a collection file, one per line: blank lines and `#` comments are skipped,
/// and each other line gives its first 81-character whitespace-separated token (so `puzzle`,
/// `puzzle rating` and `id puzzle rating` lines all work) or, when it has none, the whole
/// trimmed line, so that [`parse_puzzle`] reports what is wrong with it. Yields the one-based
/// line number with the text.
pub fn collection_puzzles(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let puzzle = line
            .split_whitespace()
            .find(|t| t.chars().count() == 81)
            .unwrap_or(line);
        Some((i + 1, puzzle))
    })
}

/// Checks that no house repeats a filled digit.
pub fn check_conflicts(grid: &Grid) -> Result<(), ParseError> {
    match grid.conflicts().first() {
        Some(c) => Err(ParseError::DuplicateGiven {
            digit: c.digit,
            first: c.first,
            second: c.second,
            house: c.house,
        }),
        None => Ok(()),
    }
}

/// Parses a data-set label file: 9 rows of 9 whitespace-separated integers (0 empty, 1–9 digit,
/// 10 pencil marks). Returns the raw labels, row-major. Blank lines are skipped.
pub fn parse_labels(text: &str) -> Result<[u8; 81], ParseError> {
    let mut out = [0u8; 81];
    let mut rows = 0;
    for (li, line) in text.lines().enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        if tokens.len() != 9 {
            return Err(ParseError::LabelRowLength {
                line: li + 1,
                found: tokens.len(),
            });
        }
        if rows == 9 {
            return Err(ParseError::LabelRows { found: rows + 1 });
        }
        for (ei, t) in tokens.iter().enumerate() {
            match t.parse::<u8>() {
                Ok(v) if v <= 10 => out[rows * 9 + ei] = v,
                _ => {
                    return Err(ParseError::BadLabel {
                        line: li + 1,
                        entry: ei + 1,
                        text: (*t).to_string(),
                    });
                }
            }
        }
        rows += 1;
    }
    if rows != 9 {
        return Err(ParseError::LabelRows { found: rows });
    }
    Ok(out)
}

/// The puzzle a label file describes: digits 1–9 become givens, 0 and 10 (pencil marks) empty.
/// Conflicting labels are an error.
pub fn grid_from_labels(labels: &[u8; 81]) -> Result<Grid, ParseError> {
    let mut v = *labels;
    for x in v.iter_mut() {
        if *x > 9 {
            *x = 0;
        }
    }
    let g = Grid::from_values(&v);
    check_conflicts(&g)?;
    Ok(g)
}

impl std::str::FromStr for Grid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        parse_puzzle(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collection_lines_give_their_puzzle_token() {
        let p = "1".repeat(81);
        let text = format!("# header\n\n{p}\n  id7 {p} 4.2\nnot a puzzle\n");
        let got: Vec<(usize, &str)> = collection_puzzles(&text).collect();
        assert_eq!(got, [(3, p.as_str()), (4, p.as_str()), (5, "not a puzzle")]);
    }

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn parses_line_and_pretty_forms() {
        let g = parse_puzzle(P).unwrap();
        assert_eq!(g.filled_count(), 17);
        assert!(g.is_given(Cell::at(0, 0)));
        let pretty = g.to_pretty();
        let g2 = parse_puzzle(&pretty).unwrap();
        assert_eq!(g2.to_line(), g.to_line());
        let zeros = P.replace('.', "0");
        assert_eq!(parse_puzzle(&zeros).unwrap().to_line(), g.to_line());
    }

    #[test]
    fn bad_char_names_position() {
        let mut s = P.to_string();
        s.replace_range(10..11, "x");
        let e = parse_puzzle(&format!("# comment\n{s}")).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                line: 2,
                column: 11,
                ch: 'x'
            }
        );
        assert!(e.to_string().contains("line 2, column 11"));
    }

    #[test]
    fn wrong_length_reported() {
        let e = parse_puzzle(&P[..80]).unwrap_err();
        assert!(matches!(e, ParseError::WrongLength { found: 80, .. }));
        assert!(e.to_string().contains("1 cells short"));
    }

    #[test]
    fn duplicate_given_names_both_cells() {
        let s = format!("44{}", &P[2..]);
        let e = parse_puzzle(&s).unwrap_err();
        assert_eq!(e.to_string(), "duplicate given 4 in r1: r1c1 and r1c2");
    }

    #[test]
    fn sukaku_roundtrip() {
        let g = parse_puzzle(P).unwrap();
        let s = g.to_sukaku();
        assert_eq!(s.len(), 729);
        let g2 = parse_puzzle(&s).unwrap();
        // Filled cells come back as single-candidate empty cells.
        assert_eq!(g2.candidates(Cell::at(0, 0)).single_digit(), Digit::new(4));
        let mut bad = s.clone();
        bad.replace_range(0..1, "2");
        assert!(matches!(
            parse_puzzle(&bad).unwrap_err(),
            ParseError::MisplacedMark { column: 1, .. }
        ));
    }

    #[test]
    fn labels() {
        let text = "0 0 3 0 0 0 0 0 10\n".repeat(9);
        let e = parse_labels(&text);
        assert!(e.is_ok());
        assert!(matches!(
            grid_from_labels(&e.unwrap()),
            Err(ParseError::DuplicateGiven { .. })
        ));
        let e = parse_labels("1 2 3\n").unwrap_err();
        assert_eq!(e, ParseError::LabelRowLength { line: 1, found: 3 });
        let e = parse_labels(&"0 0 0 0 0 0 0 0 11\n".repeat(9)).unwrap_err();
        assert!(matches!(e, ParseError::BadLabel { entry: 9, .. }));
    }
}
