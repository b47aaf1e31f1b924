//! Writes generated images into the shared photo data-set layout that `dataset::Dataset`
//! reads: `images/NAME.png|jpg`, `labels/NAME.txt` (9 rows of 9 space-separated labels) and
//! `corners.csv` (`name,tl_x,…,bl_y`, names without extension, rows sorted by name).
//!
//! Owns file naming, encoding (PNG, JPEG at a given quality) and the CSV text; the same
//! inputs give the same bytes. It does not generate anything.

use std::fs;
use std::path::{Path, PathBuf};

use image::RgbImage;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;

use super::layout::OutputFormat;
use crate::vision::Point;

/// Why writing a data set failed. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The file or folder could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The image could not be encoded.
    #[error("cannot encode {path}: {source}")]
    Encode {
        /// The file being written.
        path: PathBuf,
        /// The encoder's error.
        source: image::ImageError,
    },
    /// A name that would not survive the CSV or the file system.
    #[error("bad sample name `{0}` (use letters, digits, `_` and `-`)")]
    BadName(String),
    /// A label outside 0–10.
    #[error("label {label} of `{name}` at cell {cell} is outside 0-10")]
    BadLabel {
        /// The sample.
        name: String,
        /// Row-major cell index.
        cell: usize,
        /// The value.
        label: u8,
    },
}

/// Writes samples into a data-set folder; [`DatasetWriter::finish`] writes `corners.csv`.
pub struct DatasetWriter {
    root: PathBuf,
    rows: Vec<(String, [Point; 4])>,
}

impl DatasetWriter {
    /// Creates `root/images` and `root/labels` (and `root` itself) if missing.
    pub fn create(root: &Path) -> Result<DatasetWriter, WriteError> {
        for dir in [root.join("images"), root.join("labels")] {
            fs::create_dir_all(&dir).map_err(|source| WriteError::Io { path: dir, source })?;
        }
        Ok(DatasetWriter {
            root: root.to_path_buf(),
            rows: Vec::new(),
        })
    }

    /// Writes one sample: the image as `images/NAME.png` or `.jpg`, its labels (when known),
    /// and keeps its corners for `corners.csv`. `name` may hold ASCII letters, digits, `_`
    /// and `-` (see [`sample_name`]). Returns the image path.
    pub fn write(
        &mut self,
        name: &str,
        image: &RgbImage,
        format: OutputFormat,
        labels: Option<&[u8; 81]>,
        corners_in_image: [Point; 4],
    ) -> Result<PathBuf, WriteError> {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(WriteError::BadName(name.to_string()));
        }
        if let Some((cell, &label)) = labels
            .into_iter()
            .flatten()
            .enumerate()
            .find(|(_, l)| **l > 10)
        {
            return Err(WriteError::BadLabel {
                name: name.to_string(),
                cell,
                label,
            });
        }
        let ext = match format {
            OutputFormat::Png => "png",
            OutputFormat::Jpeg(_) => "jpg",
        };
        let image_path = self.root.join("images").join(format!("{name}.{ext}"));
        let bytes = encode(image, format).map_err(|source| WriteError::Encode {
            path: image_path.clone(),
            source,
        })?;
        fs::write(&image_path, bytes).map_err(|source| WriteError::Io {
            path: image_path.clone(),
            source,
        })?;
        if let Some(labels) = labels {
            let label_path = self.root.join("labels").join(format!("{name}.txt"));
            fs::write(&label_path, labels_text(labels)).map_err(|source| WriteError::Io {
                path: label_path,
                source,
            })?;
        }
        self.rows.push((name.to_string(), corners_in_image));
        Ok(image_path)
    }

    /// Writes `corners.csv` for every sample written; returns how many rows it has.
    pub fn finish(mut self) -> Result<usize, WriteError> {
        self.rows.sort_by(|a, b| a.0.cmp(&b.0));
        let path = self.root.join("corners.csv");
        fs::write(&path, corners_csv(&self.rows))
            .map_err(|source| WriteError::Io { path, source })?;
        Ok(self.rows.len())
    }
}

/// `raw` with every character a sample name may not hold replaced by `_`.
pub fn sample_name(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The encoded file bytes of `image` in `format`.
pub fn encode(image: &RgbImage, format: OutputFormat) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Vec::new();
    match format {
        OutputFormat::Png => image.write_with_encoder(PngEncoder::new(&mut bytes))?,
        OutputFormat::Jpeg(q) => {
            image.write_with_encoder(JpegEncoder::new_with_quality(&mut bytes, q.clamp(1, 100)))?
        }
    }
    Ok(bytes)
}

/// A label file: 9 lines of 9 space-separated values.
pub fn labels_text(labels: &[u8; 81]) -> String {
    let mut out = String::with_capacity(81 * 3);
    for row in labels.chunks(9) {
        let line: Vec<String> = row.iter().map(u8::to_string).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

/// The text of `corners.csv` for `rows` (in the given order), two decimals per coordinate.
pub fn corners_csv(rows: &[(String, [Point; 4])]) -> String {
    let mut out = String::from("name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\n");
    for (name, c) in rows {
        out.push_str(name);
        for p in c {
            out.push_str(&format!(",{:.2},{:.2}", p.x, p.y));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::parse_corners;
    use crate::sudoku::parse::parse_labels;

    #[test]
    fn labels_and_corners_round_trip_through_the_readers() {
        let mut labels = [0u8; 81];
        for (i, l) in labels.iter_mut().enumerate() {
            *l = (i % 11) as u8;
        }
        assert_eq!(parse_labels(&labels_text(&labels)).unwrap(), labels);
        let corners = [
            Point::new(1.25, 2.5),
            Point::new(100.0, 3.0),
            Point::new(99.5, 101.75),
            Point::new(0.0, 100.0),
        ];
        let csv = corners_csv(&[("s_0001".into(), corners)]);
        let parsed = parse_corners(&csv, Path::new("corners.csv")).unwrap();
        assert_eq!(parsed["s_0001"].1, corners);
    }

    #[test]
    fn rejects_bad_names_and_labels() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::create(dir.path()).unwrap();
        let img = RgbImage::new(4, 4);
        let c = [Point::default(); 4];
        let e = w
            .write("a,b", &img, OutputFormat::Png, Some(&[0; 81]), c)
            .unwrap_err();
        assert!(e.to_string().contains("`a,b`"), "{e}");
        let mut bad = [0u8; 81];
        bad[7] = 11;
        let e = w
            .write("ok", &img, OutputFormat::Png, Some(&bad), c)
            .unwrap_err();
        assert!(e.to_string().contains("cell 7"), "{e}");
        assert_eq!(sample_name("a b,c-1"), "a_b_c-1");
    }
}
