//! Text formats out of the engine: the 81-character line, the boxed 9-line board and the
//! 729-character pencil-mark form with its solved-cell marker. The one home of these layouts:
//! [`Grid`]'s text methods, the CLI, the scan report and the app's saved state all write
//! through here, and `parse` reads every one of them back.
//!
//! Owns no parsing (see `parse`) and no solving.

use super::grid::Grid;
use super::types::{Candidates, Cell, Digit};

/// The character that fills the eight other slots of a solved cell in the 729-character
/// pencil-mark form: a solved 5 is `****5****`, while `....5....` is an empty cell whose only
/// candidate is 5.
pub const SOLVED_MARK: char = '*';

/// 81 values (row-major, 0 empty) as one line: `1`–`9`, and `empty` for an empty cell (values
/// above 9 are written as empty too).
pub fn values_line(values: &[u8; 81], empty: char) -> String {
    values
        .iter()
        .map(|&v| match v {
            1..=9 => char::from(b'0' + v),
            _ => empty,
        })
        .collect()
}

/// 81 values as a 9-line board with box separators, `.` for empty cells. Every cell is two
/// characters: the mark `mark(cell)` returns (a space when `None`) and the digit; rows of
/// boxes are separated by `------+-------+------`, so a board without marks reads
///
/// ```text
///  4 . . | . . . | 8 . 5
///  . 3 . | . . . | . . .
/// ```
pub fn boxed_board(values: &[u8; 81], mark: impl Fn(Cell) -> Option<char>) -> String {
    let mut out = String::with_capacity(11 * 23);
    for row in 0..9 {
        if row == 3 || row == 6 {
            out.push_str(" ------+-------+------\n");
        }
        for col in 0..9 {
            if col == 3 || col == 6 {
                out.push_str(" |");
            }
            let cell = Cell::at(row, col);
            out.push(mark(cell).unwrap_or(' '));
            out.push(match values[cell.index()] {
                v @ 1..=9 => char::from(b'0' + v),
                _ => '.',
            });
        }
        out.push('\n');
    }
    out
}

/// The 729-character pencil-mark form of `grid`: nine characters per cell, row-major; slot
/// `k` of an empty cell holds digit `k` when it is a candidate and `.` otherwise; a filled cell
/// (given or placed) holds its digit in its slot and [`SOLVED_MARK`] in the eight others.
pub fn pencil_marks(grid: &Grid) -> String {
    let mut s = String::with_capacity(729);
    for c in Cell::all() {
        match grid.value(c) {
            Some(v) => {
                for d in Digit::ALL {
                    s.push(if d == v { d.to_char() } else { SOLVED_MARK });
                }
            }
            None => {
                let cands: Candidates = grid.candidates(c);
                for d in Digit::ALL {
                    s.push(if cands.contains(d) { d.to_char() } else { '.' });
                }
            }
        }
    }
    s
}

/// Whether `grid` is a plain puzzle: every filled cell is a given and every empty cell has
/// exactly the candidates its peers' digits leave. Such a grid is fully described by its 81
/// givens; any other position needs the pencil-mark form.
pub fn is_plain_puzzle(grid: &Grid) -> bool {
    grid.givens().len() == grid.filled_count()
        && Cell::all().all(|c| {
            grid.value(c).is_some()
                || Digit::ALL.into_iter().all(|d| {
                    let free = !c.peers().iter().any(|p| grid.value(p) == Some(d));
                    free == grid.has_candidate(c, d)
                })
        })
}

/// The position as text that `parse::parse_puzzle` reads back to the same grid: the 81-char
/// givens line (`.` empty) for a plain puzzle (see [`is_plain_puzzle`]), else the 729-char
/// pencil-mark form.
pub fn position_text(grid: &Grid) -> String {
    if is_plain_puzzle(grid) {
        values_line(&grid.values(), '.')
    } else {
        pencil_marks(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_board_layouts() {
        let mut v = [0u8; 81];
        v[0] = 4;
        v[80] = 9;
        v[40] = 12; // out of range: empty
        let line = values_line(&v, '.');
        assert_eq!(line.len(), 81);
        assert!(line.starts_with("4........") && line.ends_with('9'));
        assert_eq!(values_line(&v, '0').matches('0').count(), 79);
        let board = boxed_board(&v, |c| (c.index() == 80).then_some('?'));
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], " 4 . . | . . . | . . .");
        assert_eq!(lines[3], " ------+-------+------");
        assert_eq!(lines[10], " . . . | . . . | . .?9");
        // Separators line up with the bars.
        assert_eq!(lines[0].find('|'), lines[3].find('+'));
    }

    #[test]
    fn pencil_marks_mark_solved_cells() {
        let mut v = [0u8; 81];
        v[0] = 5;
        let g = Grid::from_values(&v);
        let s = pencil_marks(&g);
        assert_eq!(s.len(), 729);
        assert_eq!(&s[..9], "****5****");
        // r1c2 lost the 5 to r1c1.
        assert_eq!(&s[9..18], "1234.6789");
        assert!(is_plain_puzzle(&g));
        assert_eq!(position_text(&g), values_line(&v, '.'));
        let mut g2 = g.clone();
        g2.eliminate(Cell::at(8, 8), Digit::ALL[0]);
        assert!(!is_plain_puzzle(&g2));
        assert_eq!(position_text(&g2), pencil_marks(&g2));
    }
}
