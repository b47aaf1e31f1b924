//! `corners.csv`, the optional ground truth of a set's grid corners
//! (`name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y`, outer corners in stored pixels): reading
//! and checking it ([`read_corners`], [`parse_corners`]) with errors that name the file and
//! line.
//!
//! It owns the file's format only; matching its rows to the set's photos is
//! [`super::Dataset::open`]'s, and measuring detections against them is `eval`'s.

use std::collections::HashMap;
use std::path::Path;

use super::DatasetError;
use crate::vision::Point;

/// Largest corner coordinate `corners.csv` may give, in pixels (beyond any photo this
/// program decodes, see `vision::MAX_IMAGE_PIXELS`, yet far from `f32` overflow).
pub const MAX_CORNER_COORD: f32 = 1e7;

/// Parses `corners.csv`: a header line starting with `name`, then one row per photo.
/// Returns name → (line number, corners).
pub fn read_corners(path: &Path) -> Result<HashMap<String, (usize, [Point; 4])>, DatasetError> {
    let text = std::fs::read_to_string(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_corners(&text, path)
}

/// Parses the text of a `corners.csv`; `path` labels errors.
pub fn parse_corners(
    text: &str,
    path: &Path,
) -> Result<HashMap<String, (usize, [Point; 4])>, DatasetError> {
    let err = |line: usize, message: String| DatasetError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut out = HashMap::new();
    let mut saw_header = false;
    // Spreadsheet programs save CSV with a UTF-8 byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !saw_header {
            saw_header = true;
            if line.starts_with("name,") {
                continue;
            }
            return Err(err(
                line_no,
                "expected the header `name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y`".into(),
            ));
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 9 {
            return Err(err(
                line_no,
                format!("expected 9 fields, found {}", fields.len()),
            ));
        }
        let mut v = [0.0f32; 8];
        for (k, f) in fields[1..].iter().enumerate() {
            let x = f
                .parse::<f32>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| err(line_no, format!("field {} `{f}` is not a number", k + 2)))?;
            if x.abs() > MAX_CORNER_COORD {
                return Err(err(
                    line_no,
                    format!(
                        "field {} `{f}` is not a pixel coordinate (at most {MAX_CORNER_COORD:e} in size)",
                        k + 2
                    ),
                ));
            }
            v[k] = x;
        }
        let name = fields[0].to_string();
        if name.is_empty() {
            return Err(err(line_no, "empty name".into()));
        }
        let corners = [
            Point::new(v[0], v[1]),
            Point::new(v[2], v[3]),
            Point::new(v[4], v[5]),
            Point::new(v[6], v[7]),
        ];
        if out.insert(name.clone(), (line_no, corners)).is_some() {
            return Err(err(line_no, format!("second row for `{name}`")));
        }
    }
    if !saw_header {
        return Err(err(0, "file is empty (no header)".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rows_and_reports_bad_lines() {
        let p = Path::new("corners.csv");
        let ok = "name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\na,1,2,3,4,5,6,7,8\n";
        let m = parse_corners(ok, p).unwrap();
        assert_eq!(m["a"].1[2], Point::new(5.0, 6.0));
        let bad =
            "name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\na,1,2,3,4,5,6,7,8\nb,1,2,x,4,5,6,7,8\n";
        let e = parse_corners(bad, p).unwrap_err().to_string();
        assert!(e.contains("corners.csv:3") && e.contains("`x`"), "{e}");
        let short = "name,x\nb,1,2\n";
        assert!(
            parse_corners(short, p)
                .unwrap_err()
                .to_string()
                .contains(":2:")
        );
        assert!(parse_corners("", p).is_err());
        let bom = format!("\u{feff}{ok}");
        assert_eq!(parse_corners(&bom, p).unwrap()["a"].1, m["a"].1);
        let huge = "name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\na,1,2,3,1e38,5,6,7,8\n";
        let e = parse_corners(huge, p).unwrap_err().to_string();
        assert!(e.contains(":2:") && e.contains("field 5"), "{e}");
        assert!(
            parse_corners("a,1,2,3,4,5,6,7,8\n", p)
                .unwrap_err()
                .to_string()
                .contains(":1:")
        );
    }
}
