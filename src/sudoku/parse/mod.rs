//! Text formats into [`Grid`]: 81-char puzzle lines (also laid out over 9 lines with
//! separators), 729-char pencil-mark ("Sukaku") strings with solved cells, HoDoKu library
//! lines (through `hodoku`), the lines of puzzle collection files, and the 9-row label files of
//! the photo data sets. Every error names the line, column and character at fault. Every entry
//! point is a plain function over `&str` that never panics.
//!
//! Owns no solving logic and no output (see `format`); conflicts between givens are reported
//! here because a puzzle with duplicate givens is not a puzzle.
//!
//! Laid out along those formats: this module reads puzzle text (the 81-cell and pencil-mark
//! forms, handing library lines to `hodoku`), `collection` the lines of collection files,
//! `labels` the data sets' label files, and `error` holds the [`ParseError`] they all return.
//! Callers use them through the re-exports here.

mod collection;
mod error;
mod labels;

pub use collection::{Entry, collection_entry, collection_puzzles};
pub use error::ParseError;
pub use labels::{grid_from_labels, parse_labels};

use super::format::SOLVED_MARK;
use super::grid::Grid;
use super::types::{Candidates, Cell, Digit};

/// The longest puzzle text [`parse_puzzle`] reads: 1 MiB. A puzzle is 81 or 729 characters,
/// a library line a few hundred; anything longer is refused before it is looked at, so no
/// input can make parsing slow or large.
pub const MAX_PUZZLE_TEXT: usize = 1 << 20;

/// A significant character with its one-based position.
#[derive(Clone, Copy)]
struct Sig {
    ch: char,
    line: usize,
    column: usize,
}

/// The significant characters of a puzzle text: the first 730 (enough to tell every accepted
/// length from a longer one) and how many there are in all.
struct SigChars {
    first: Vec<Sig>,
    count: usize,
}

/// At most this many significant characters are kept (one more than the longest form).
const SIG_KEPT: usize = 730;

fn significant_chars(text: &str) -> Result<SigChars, ParseError> {
    let mut out = SigChars {
        first: Vec::with_capacity(81),
        count: 0,
    };
    for (li, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for (ci, ch) in line.chars().enumerate() {
            match ch {
                '1'..='9' | '.' | '0' | SOLVED_MARK => {
                    if out.first.len() < SIG_KEPT {
                        out.first.push(Sig {
                            ch,
                            line: li + 1,
                            column: ci + 1,
                        });
                    }
                    out.count += 1;
                }
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

/// Parses a puzzle or a position:
///
/// * 81 cells (`1`-`9` given, `.` or `0` empty), spread over any number of lines; spaces, tabs,
///   `|`, `-`, `+` and `#` comment lines are ignored, so a boxed 9-line board reads too;
/// * 729 pencil-mark characters (nine per cell: the candidate digit in its slot or `.`; a
///   solved cell is its digit in its slot and [`SOLVED_MARK`] in the eight others, see
///   [`super::format::pencil_marks`]);
/// * one line of HoDoKu's library layout (a line starting with `:`; see
///   [`super::hodoku::parse_library_line`]).
///
/// Rejects text over [`MAX_PUZZLE_TEXT`] bytes and repeated digits in a house. Never panics,
/// whatever the text.
pub fn parse_puzzle(text: &str) -> Result<Grid, ParseError> {
    if text.len() > MAX_PUZZLE_TEXT {
        return Err(ParseError::TooLong { bytes: text.len() });
    }
    if let Some((line_no, line)) = library_line(text)? {
        return super::hodoku::parse_library_line(line).map_err(|e| e.on_line(line_no));
    }
    let sig = significant_chars(text)?;
    let grid = match sig.count {
        0 => return Err(ParseError::Empty),
        81 => Grid::from_values(&values_of(&sig.first)?),
        729 => parse_pencil_marks(&sig.first)?,
        n => {
            let detail = if n < 81 {
                format!("the text ends {} cells short", 81 - n)
            } else if n < 729 {
                let extra = &sig.first[81];
                format!(
                    "cell 82 starts at line {}, column {}",
                    extra.line, extra.column
                )
            } else {
                let extra = &sig.first[729];
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

/// Reads the 81 values of a puzzle text in the 81-cell form (as [`parse_puzzle`] does, same
/// errors), without judging them: repeated digits are allowed, for boards being edited.
pub fn parse_values(text: &str) -> Result<[u8; 81], ParseError> {
    if text.len() > MAX_PUZZLE_TEXT {
        return Err(ParseError::TooLong { bytes: text.len() });
    }
    let sig = significant_chars(text)?;
    match sig.count {
        0 => Err(ParseError::Empty),
        81 => values_of(&sig.first),
        n => Err(ParseError::WrongLength {
            found: n,
            detail: if n < 81 {
                format!("the text ends {} cells short", 81 - n)
            } else {
                let extra = &sig.first[81];
                format!(
                    "cell 82 starts at line {}, column {}",
                    extra.line, extra.column
                )
            },
        }),
    }
}

/// The values of exactly 81 characters `1`-`9`, `.` and `0`, or `None` for any other text: the
/// common case of a collection line, read without the general parser so that reading costs
/// little next to solving (the exact solver's batch paths). Anything this rejects still goes
/// to [`parse_puzzle`], which says what is wrong.
pub fn plain_values(text: &str) -> Option<[u8; 81]> {
    let bytes: &[u8; 81] = text.as_bytes().try_into().ok()?;
    let mut values = [0u8; 81];
    for (v, &b) in values.iter_mut().zip(bytes) {
        *v = match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' => 0,
            _ => return None,
        };
    }
    Some(values)
}

/// The values of 81 significant characters; the solved-cell marker has no place here.
fn values_of(sig: &[Sig]) -> Result<[u8; 81], ParseError> {
    let mut values = [0u8; 81];
    for (v, s) in values.iter_mut().zip(sig) {
        *v = match s.ch {
            '1'..='9' => s.ch as u8 - b'0',
            '.' | '0' => 0,
            ch => {
                return Err(ParseError::BadChar {
                    line: s.line,
                    column: s.column,
                    ch,
                });
            }
        };
    }
    Ok(values)
}

/// The first line that is neither blank nor a `#` comment, when it starts with `:` (a HoDoKu
/// library line), with its one-based number; an error when another such line follows it.
fn library_line(text: &str) -> Result<Option<(usize, &str)>, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_start_matches('\u{feff}').trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((line_no, first)) = lines.next() else {
        return Ok(None);
    };
    if !first.starts_with(':') {
        return Ok(None);
    }
    if let Some((extra, _)) = lines.next() {
        return Err(ParseError::Library {
            line: extra,
            column: 1,
            problem: "a second line after the library line; give one position".into(),
        });
    }
    Ok(Some((line_no, first)))
}

fn parse_pencil_marks(sig: &[Sig]) -> Result<Grid, ParseError> {
    let mut cands = [Candidates::NONE; 81];
    let mut solved: Vec<(Cell, Digit)> = Vec::new();
    for (i, chunk) in sig.chunks(9).enumerate().take(81) {
        let cell = Cell::from_index(i);
        if chunk.iter().any(|s| s.ch == SOLVED_MARK) {
            solved.push((cell, solved_digit(cell, chunk)?));
            continue;
        }
        for (k, s) in chunk.iter().enumerate() {
            let slot = Digit::from_index(k);
            match s.ch {
                '.' | '0' => {}
                ch if ch == slot.to_char() => cands[i].insert(slot),
                ch => {
                    return Err(ParseError::MisplacedMark {
                        line: s.line,
                        column: s.column,
                        ch,
                        slot,
                        cell,
                    });
                }
            }
        }
        if cands[i].is_empty() {
            return Err(ParseError::NoCandidates { cell });
        }
    }
    let mut grid = Grid::from_candidates(&cands);
    // Placing a solved digit takes it from its peers' candidates, as solving would have.
    for &(cell, digit) in &solved {
        grid.place(cell, digit);
    }
    if let Some(cell) =
        Cell::all().find(|&c| grid.value(c).is_none() && grid.candidates(c).is_empty())
    {
        return Err(ParseError::NoCandidates { cell });
    }
    Ok(grid)
}

/// The digit of a solved cell's nine characters: its digit in its slot, the marker elsewhere.
fn solved_digit(cell: Cell, chunk: &[Sig]) -> Result<Digit, ParseError> {
    let mut digit = None;
    for (k, s) in chunk.iter().enumerate() {
        let slot = Digit::from_index(k);
        let ok = match s.ch {
            SOLVED_MARK => true,
            ch if ch == slot.to_char() && digit.is_none() => {
                digit = Some(slot);
                true
            }
            _ => false,
        };
        if !ok {
            return Err(ParseError::SolvedCell {
                line: s.line,
                column: s.column,
                cell,
            });
        }
    }
    digit.ok_or_else(|| ParseError::SolvedCell {
        line: chunk[0].line,
        column: chunk[0].column,
        cell,
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

impl std::str::FromStr for Grid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        parse_puzzle(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // Filled cells come back filled (the solved-cell marker), not as empty cells with one
        // candidate, and every empty cell keeps its candidates.
        assert_eq!(g2.value(Cell::at(0, 0)), Digit::new(4));
        assert_eq!(g2.values(), g.values());
        for c in Cell::all().filter(|&c| g.value(c).is_none()) {
            assert_eq!(g2.candidates(c), g.candidates(c), "{c}");
        }
        // A digit in another digit's slot of an empty cell.
        let empty = Cell::all().position(|c| g.value(c).is_none()).unwrap();
        let mut bad = s.clone();
        bad.replace_range(9 * empty..9 * empty + 1, "2");
        let e = parse_puzzle(&bad).unwrap_err();
        assert!(
            matches!(e, ParseError::MisplacedMark { column, .. } if column == 9 * empty + 1),
            "{e}"
        );
        // A solved cell whose marker is broken.
        let mut bad = s.clone();
        bad.replace_range(0..1, ".");
        let e = parse_puzzle(&bad).unwrap_err();
        assert!(matches!(e, ParseError::SolvedCell { column: 1, .. }), "{e}");
    }
}
