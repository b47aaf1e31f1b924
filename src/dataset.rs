//! The shared photo data set layout: `images/NAME.jpg`, `labels/NAME.txt` (9 rows of 9
//! integers, 0 empty, 1–9 digit, 10 pencil marks) and `corners.csv`
//! (`name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y`, outer grid corners in stored pixels).
//!
//! Owns reading and checking that layout, with errors that name the file and line. It does not
//! decode images (see `vision::load_image`) nor compute metrics (see `cli::eval`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::sudoku::parse::parse_labels;
use crate::vision::Point;

/// Why a data set could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A file or folder could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A line of a file is malformed.
    #[error("{path}:{line}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// 1-based line number (0 for the file as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// One photo of a data set.
#[derive(Clone, Debug, PartialEq)]
pub struct Photo {
    /// File stem shared by image and label (`image12`).
    pub name: String,
    /// Path of the image file.
    pub image_path: PathBuf,
    /// Path of the label file, when present.
    pub label_path: Option<PathBuf>,
    /// Outer corners (TL, TR, BR, BL) in stored image pixels, when `corners.csv` lists the photo.
    pub corners_in_image: Option<[Point; 4]>,
}

/// A data set folder read in the shared layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// The folder.
    pub root: PathBuf,
    /// Photos sorted by name.
    pub photos: Vec<Photo>,
}

const IMAGE_EXTENSIONS: [&str; 6] = ["jpg", "jpeg", "png", "bmp", "tif", "webp"];

impl Dataset {
    /// Reads the folder: lists `images/`, parses `corners.csv` (required) and notes which
    /// labels exist. Corner rows for photos that are missing are an error; photos with no
    /// corner row are kept with `corners_in_image: None`.
    pub fn open(root: impl AsRef<Path>) -> Result<Dataset, DatasetError> {
        let root = root.as_ref().to_path_buf();
        let images_dir = root.join("images");
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| DatasetError::Io { path, source }
        };
        let mut photos = Vec::new();
        for entry in std::fs::read_dir(&images_dir).map_err(io(&images_dir))? {
            let entry = entry.map_err(io(&images_dir))?;
            let path = entry.path();
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            if !IMAGE_EXTENSIONS.contains(&ext.as_str()) {
                continue;
            }
            let Some(name) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                continue;
            };
            let label = root.join("labels").join(format!("{name}.txt"));
            photos.push(Photo {
                name,
                image_path: path,
                label_path: label.is_file().then_some(label),
                corners_in_image: None,
            });
        }
        photos.sort_by(|a, b| a.name.cmp(&b.name));
        let corners_path = root.join("corners.csv");
        let corners = read_corners(&corners_path)?;
        for (name, (line, _)) in &corners {
            if !photos.iter().any(|p| &p.name == name) {
                return Err(DatasetError::Format {
                    path: corners_path.clone(),
                    line: *line,
                    message: format!("corners for `{name}`, which has no image in images/"),
                });
            }
        }
        for p in &mut photos {
            p.corners_in_image = corners.get(&p.name).map(|(_, c)| *c);
        }
        Ok(Dataset { root, photos })
    }

    /// Reads the labels of `photo` (81 values 0–10, row-major).
    pub fn labels(&self, photo: &Photo) -> Result<Option<[u8; 81]>, DatasetError> {
        let Some(path) = &photo.label_path else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path).map_err(|source| DatasetError::Io {
            path: path.clone(),
            source,
        })?;
        parse_labels(&text)
            .map(Some)
            .map_err(|e| DatasetError::Format {
                path: path.clone(),
                line: 0,
                message: e.to_string(),
            })
    }
}

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
            v[k] = f
                .parse::<f32>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| err(line_no, format!("field {} `{f}` is not a number", k + 2)))?;
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

/// Reads a list of photo names: one per line, `#` starts a comment, blank lines ignored; a
/// name may carry its image extension (`image12.jpg` is `image12`). Held-back splits
/// (models/train/holdout/*.txt) are such lists.
pub fn read_name_list(path: &Path) -> Result<Vec<String>, DatasetError> {
    let text = std::fs::read_to_string(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(parse_name_list(&text))
}

/// The names of a name list's text (see [`read_name_list`]).
pub fn parse_name_list(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|name| !name.is_empty())
        .map(|name| {
            let p = Path::new(name);
            match p.extension().and_then(|e| e.to_str()) {
                Some(ext) if IMAGE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) => p
                    .file_stem()
                    .map_or(name.to_string(), |s| s.to_string_lossy().into_owned()),
                _ => name.to_string(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_lists_drop_comments_blanks_and_image_extensions() {
        let names =
            parse_name_list("# held back\nimage12.jpg\n\n  rozet_0001  # note\nshot.PNG\nx.y\n");
        assert_eq!(names, ["image12", "rozet_0001", "shot", "x.y"]);
    }

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
        assert!(
            parse_corners("a,1,2,3,4,5,6,7,8\n", p)
                .unwrap_err()
                .to_string()
                .contains(":1:")
        );
    }

    #[test]
    fn reads_the_shared_wichtounet_set() {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/wichtounet-v2-train");
        let ds = Dataset::open(&dir).unwrap();
        assert_eq!(ds.photos.len(), 160);
        let missing: Vec<&str> = ds
            .photos
            .iter()
            .filter(|p| p.corners_in_image.is_none())
            .map(|p| p.name.as_str())
            .collect();
        // The README names image1083; the stored corners.csv also lacks image103.
        assert!(
            missing.contains(&"image1083") && missing.len() <= 2,
            "{missing:?}"
        );
        assert!(ds.labels(&ds.photos[0]).unwrap().is_some());
    }
}
