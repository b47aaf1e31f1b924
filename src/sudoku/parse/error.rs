//! [`ParseError`], the one error type of the text formats (a child module of `parse`, whose
//! functions return it): what went wrong and where, by line, column and character. It reads no
//! text itself.

use crate::sudoku::types::{Cell, Digit, House};

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
    /// An empty cell with no candidate left in a position.
    #[error("{cell} is empty and has no candidate left")]
    NoCandidates {
        /// The cell.
        cell: Cell,
    },
    /// Nine characters of a pencil-mark string that use the solved-cell marker `*` but are not
    /// one digit in its own slot with `*` in the eight others.
    #[error(
        "line {line}, column {column}: {cell} is marked solved ('*') but is not its digit in its own slot and '*' in the eight others"
    )]
    SolvedCell {
        /// One-based line.
        line: usize,
        /// One-based column of the first character at fault.
        column: usize,
        /// The cell.
        cell: Cell,
    },
    /// A HoDoKu library line that does not follow the layout.
    #[error("line {line}, column {column} of the library line: {problem}")]
    Library {
        /// One-based line.
        line: usize,
        /// One-based column (in characters).
        column: usize,
        /// What is wrong there.
        problem: String,
    },
    /// Text longer than [`MAX_PUZZLE_TEXT`](super::MAX_PUZZLE_TEXT), refused unread.
    #[error(
        "the puzzle text is {bytes} bytes, over the limit of 1 MiB (a puzzle is 81 or 729 characters)"
    )]
    TooLong {
        /// Its length in bytes.
        bytes: usize,
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

impl ParseError {
    /// The same error, placed on line `line` when it is about a library line.
    pub(super) fn on_line(self, line: usize) -> ParseError {
        match self {
            ParseError::Library {
                column, problem, ..
            } => ParseError::Library {
                line,
                column,
                problem,
            },
            e => e,
        }
    }
}
