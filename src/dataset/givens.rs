//! Printed-givens masks (`givens/NAME.txt`): finding a photo's mask file, shared by every
//! photo of a puzzle through its name prefix ([`givens_file`]), and reading and checking one
//! ([`read_givens`], [`parse_givens`]) with errors that name the file and line.
//!
//! It owns the mask files only; which photo uses which folder of masks is
//! [`super::Dataset`]'s, and scoring the printed/handwritten calls against a mask is
//! `digits::writing`'s.

use std::path::{Path, PathBuf};

use super::DatasetError;

/// The printed-givens mask of the photo `name` in the folder `dir`: `dir/NAME.txt`, else the
/// longest `dir/PREFIX.txt` where `NAME` is `PREFIX_…` (cut at an underscore), so one mask
/// serves every photo of a puzzle (`01_27.txt` for `01_27_iphone_14_0` and for its webcam
/// frames `01_27_iphone_14_0_cam0`). `None` when there is no such file.
pub fn givens_file(dir: &Path, name: &str) -> Option<PathBuf> {
    let mut prefix = name;
    loop {
        let candidate = dir.join(format!("{prefix}.txt"));
        if candidate.is_file() {
            return Some(candidate);
        }
        prefix = &prefix[..prefix.rfind('_')?];
    }
}

/// Reads a printed-givens mask file (see [`parse_givens`]).
pub fn read_givens(path: &Path) -> Result<[bool; 81], DatasetError> {
    let text = std::fs::read_to_string(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_givens(&text, path)
}

/// Parses a printed-givens mask: 9 non-blank rows of 9 values `0` or `1` (space-separated or
/// not), 1 where the cell holds a printed digit (a given of the puzzle), 0 for handwriting,
/// pencil marks and empty cells. `path` labels errors, which name the line.
pub fn parse_givens(text: &str, path: &Path) -> Result<[bool; 81], DatasetError> {
    let err = |line: usize, message: String| DatasetError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut mask = [false; 81];
    let mut row = 0;
    for (i, raw) in text.lines().enumerate() {
        let values: Vec<char> = raw.chars().filter(|c| !c.is_whitespace()).collect();
        if values.is_empty() {
            continue;
        }
        if row == 9 {
            return Err(err(i + 1, "more than 9 rows".into()));
        }
        if values.len() != 9 {
            return Err(err(i + 1, format!("{} values, expected 9", values.len())));
        }
        for (col, &c) in values.iter().enumerate() {
            mask[row * 9 + col] = match c {
                '0' => false,
                '1' => true,
                other => return Err(err(i + 1, format!("`{other}` is not 0 or 1"))),
            };
        }
        row += 1;
    }
    if row != 9 {
        return Err(err(0, format!("{row} rows, expected 9")));
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn givens_masks_parse_and_errors_name_the_line() {
        let p = Path::new("m.txt");
        let mut text = String::from("1 0 0 0 0 0 0 0 1\n");
        text.push_str(&"000000000\n".repeat(8));
        let mask = parse_givens(&text, p).unwrap();
        assert!(mask[0] && mask[8] && !mask[1]);
        assert_eq!(mask.iter().filter(|&&g| g).count(), 2);
        let bad = text.replacen("000000000", "000020000", 1);
        let e = parse_givens(&bad, p).unwrap_err().to_string();
        assert!(e.contains("m.txt:2") && e.contains("`2`"), "{e}");
        let short = text.replacen("000000000\n", "", 1);
        assert!(
            parse_givens(&short, p)
                .unwrap_err()
                .to_string()
                .contains("8 rows")
        );
        let wide = text.replacen("000000000", "0000000000", 1);
        assert!(
            parse_givens(&wide, p)
                .unwrap_err()
                .to_string()
                .contains("10 values")
        );
    }

    #[test]
    fn givens_file_is_found_by_the_longest_underscore_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("01_27.txt"), "").unwrap();
        std::fs::write(d.join("01_27_iphone_14_0.txt"), "").unwrap();
        assert_eq!(
            givens_file(d, "01_27_iphone_14_0_cam3"),
            Some(d.join("01_27_iphone_14_0.txt"))
        );
        assert_eq!(
            givens_file(d, "01_27_honor_view_10_1"),
            Some(d.join("01_27.txt"))
        );
        assert_eq!(givens_file(d, "01_28_honor_view_10_1"), None);
        assert_eq!(givens_file(d, "image1"), None);
    }
}
