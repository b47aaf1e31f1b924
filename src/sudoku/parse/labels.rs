//! The 9-row label files of the photo data sets (a child module of `parse`): raw labels (0
//! empty, 1–9 a digit, 10 pencil marks) and the puzzle they describe. Nothing of puzzle text.

use super::{ParseError, check_conflicts};
use crate::sudoku::grid::Grid;

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

#[cfg(test)]
mod tests {
    use super::*;

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
