//! The JSON form of a clip's truth: [`ClipTruth::read`] and [`ClipTruth::parse`] (with errors
//! naming the file, the line and the problem), [`ClipTruth::to_json`] and
//! [`ClipTruth::write`], through the raw shape `truth.json` has on disk.
//!
//! What makes a truth consistent is [`ClipTruth::validate`]'s, in the module root; this file
//! only translates and runs those checks on what it reads and writes.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{ClipError, ClipKind, ClipTruth, Segment};
use crate::vision::Point;

/// `truth.json` as written, before checking.
#[derive(Serialize, Deserialize)]
struct RawTruth {
    kind: String,
    fps: serde_json::Number,
    num_frames: usize,
    labels: Option<Vec<Vec<i64>>>,
    segments: Option<Vec<RawSegment>>,
    steady_from_frame: usize,
    corners_per_frame: Vec<Option<Vec<f64>>>,
    occluded_frames: Vec<usize>,
}

#[derive(Serialize, Deserialize)]
struct RawSegment {
    from_frame: usize,
    to_frame: usize,
    labels: Vec<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    steady_from_frame: Option<usize>,
}

impl ClipTruth {
    /// Reads and checks `path` (a `truth.json`).
    pub fn read(path: &Path) -> Result<ClipTruth, ClipError> {
        let text = std::fs::read_to_string(path).map_err(|source| ClipError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ClipTruth::parse(&text, path)
    }

    /// Parses and checks the text of a `truth.json`; `path` labels errors.
    pub fn parse(text: &str, path: &Path) -> Result<ClipTruth, ClipError> {
        let raw: RawTruth = serde_json::from_str(text).map_err(|e| ClipError::Json {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: strip_position(&e.to_string()),
        })?;
        let invalid = |message: String| ClipError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let kind = match raw.kind.as_str() {
            "single" => ClipKind::Single,
            "swap" => ClipKind::Swap,
            "nopuzzle" => ClipKind::Nopuzzle,
            other => {
                return Err(invalid(format!(
                    "unknown kind `{other}` (expected single, swap or nopuzzle)"
                )));
            }
        };
        let fps = raw.fps.as_f64().unwrap_or(f64::NAN);
        let labels = raw
            .labels
            .as_ref()
            .map(|l| labels_from_rows(l).map_err(|m| invalid(format!("labels: {m}"))))
            .transpose()?;
        let segments = raw
            .segments
            .map(|segs| {
                segs.into_iter()
                    .enumerate()
                    .map(|(i, s)| {
                        Ok(Segment {
                            from_frame: s.from_frame,
                            to_frame: s.to_frame,
                            labels: labels_from_rows(&s.labels)
                                .map_err(|m| invalid(format!("segment {i}: labels: {m}")))?,
                            steady_from_frame: s.steady_from_frame,
                        })
                    })
                    .collect::<Result<Vec<_>, ClipError>>()
            })
            .transpose()?;
        let corners_per_frame = raw
            .corners_per_frame
            .iter()
            .enumerate()
            .map(|(k, c)| {
                c.as_ref()
                    .map(|v| {
                        if v.len() != 8 || v.iter().any(|x| !x.is_finite()) {
                            return Err(invalid(format!(
                                "corners_per_frame[{k}]: expected 8 finite numbers \
                                 (tl_x, tl_y, tr_x, tr_y, br_x, br_y, bl_x, bl_y), got {}",
                                v.len()
                            )));
                        }
                        Ok(std::array::from_fn(|i| {
                            Point::new(v[2 * i] as f32, v[2 * i + 1] as f32)
                        }))
                    })
                    .transpose()
            })
            .collect::<Result<Vec<_>, ClipError>>()?;
        let truth = ClipTruth {
            kind,
            fps,
            num_frames: raw.num_frames,
            labels,
            segments,
            steady_from_frame: raw.steady_from_frame,
            corners_per_frame,
            occluded_frames: raw.occluded_frames,
        };
        truth.validate().map_err(invalid)?;
        Ok(truth)
    }

    /// The JSON text (one line; corners rounded to 0.01 px).
    pub fn to_json(&self) -> String {
        let rows = |l: &[u8; 81]| -> Vec<Vec<i64>> {
            l.chunks(9)
                .map(|r| r.iter().map(|&v| i64::from(v)).collect())
                .collect()
        };
        let fps = if self.fps.fract() == 0.0 && self.fps.abs() < 1e9 {
            serde_json::Number::from(self.fps as i64)
        } else {
            serde_json::Number::from_f64(self.fps).unwrap_or_else(|| 30.into())
        };
        let raw = RawTruth {
            kind: self.kind.name().into(),
            fps,
            num_frames: self.num_frames,
            labels: self.labels.as_ref().map(rows),
            segments: self.segments.as_ref().map(|segs| {
                segs.iter()
                    .map(|s| RawSegment {
                        from_frame: s.from_frame,
                        to_frame: s.to_frame,
                        labels: rows(&s.labels),
                        steady_from_frame: s.steady_from_frame,
                    })
                    .collect()
            }),
            steady_from_frame: self.steady_from_frame,
            corners_per_frame: self
                .corners_per_frame
                .iter()
                .map(|c| c.map(|q| q.iter().flat_map(|p| [round2(p.x), round2(p.y)]).collect()))
                .collect(),
            occluded_frames: self.occluded_frames.clone(),
        };
        // Serializing plain numbers, strings and arrays cannot fail.
        serde_json::to_string(&raw).unwrap_or_default() + "\n"
    }

    /// Checks the truth and writes it to `path`.
    pub fn write(&self, path: &Path) -> Result<(), ClipError> {
        self.validate().map_err(|message| ClipError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
        std::fs::write(path, self.to_json()).map_err(|source| ClipError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

/// serde_json's message without its trailing " at line L column C".
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

fn labels_from_rows(rows: &[Vec<i64>]) -> Result<[u8; 81], String> {
    if rows.len() != 9 {
        return Err(format!("expected 9 rows, got {}", rows.len()));
    }
    let mut out = [0u8; 81];
    for (r, row) in rows.iter().enumerate() {
        if row.len() != 9 {
            return Err(format!(
                "row {} has {} values, expected 9",
                r + 1,
                row.len()
            ));
        }
        for (c, &v) in row.iter().enumerate() {
            if !(0..=10).contains(&v) {
                return Err(format!(
                    "value {v} at row {} column {} is outside 0..=10",
                    r + 1,
                    c + 1
                ));
            }
            out[r * 9 + c] = v as u8;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_json(v: i64) -> String {
        let row = format!("[{}]", vec![v.to_string(); 9].join(","));
        format!("[{}]", vec![row; 9].join(","))
    }

    fn single(extra: &str) -> String {
        format!(
            r#"{{"kind":"single","fps":30,"num_frames":3,"labels":{},"segments":null,
            "steady_from_frame":1,"corners_per_frame":[null,[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8.5]],
            "occluded_frames":[2]{extra}}}"#,
            grid_json(5)
        )
    }

    fn parse(text: &str) -> Result<ClipTruth, ClipError> {
        ClipTruth::parse(text, Path::new("clip/truth.json"))
    }

    fn err(text: &str) -> String {
        parse(text).expect_err("should be rejected").to_string()
    }

    #[test]
    fn reads_a_single_clip_and_round_trips() {
        let t = parse(&single("")).expect("valid");
        assert_eq!(t.kind, ClipKind::Single);
        assert_eq!(t.fps, 30.0);
        assert_eq!(t.labels, Some([5; 81]));
        assert_eq!(t.corners_at(0), None);
        assert_eq!(t.corners_at(2).map(|c| c[3]), Some(Point::new(7.0, 8.5)));
        assert_eq!(t.labels_at(0), Some([5; 81]));
        assert_eq!(t.labels_at(3), None);
        let again = parse(&t.to_json()).expect("written truth reads back");
        assert_eq!(again, t);
        assert!(t.to_json().contains(r#""fps":30,"#), "{}", t.to_json());
    }

    #[test]
    fn reads_swap_segments_with_and_without_their_steady_frame() {
        let text = format!(
            r#"{{"kind":"swap","fps":29.97,"num_frames":10,"labels":null,"segments":[
                {{"from_frame":0,"to_frame":3,"labels":{},"steady_from_frame":2}},
                {{"from_frame":6,"to_frame":9,"labels":{}}}],
              "steady_from_frame":2,"corners_per_frame":[null,null,null,null,null,null,null,null,null,null],
              "occluded_frames":[]}}"#,
            grid_json(1),
            grid_json(10)
        );
        let t = parse(&text).expect("valid swap");
        assert_eq!(t.labels_at(3), Some([1; 81]));
        assert_eq!(t.labels_at(4), None);
        assert_eq!(t.labels_at(6), Some([10; 81]));
        assert_eq!(t.steady_from_at(7), None);
        assert_eq!(t.steady_from_at(1), Some(2));
        assert_eq!(parse(&t.to_json()).expect("round trip"), t);
        let overlapping = text.replace(r#""from_frame":6"#, r#""from_frame":3"#);
        assert!(err(&overlapping).contains("overlaps"));
        let past_end = text.replace(r#""to_frame":9"#, r#""to_frame":10"#);
        assert!(err(&past_end).contains("segment 1"));
        let no_segments = text.replace(r#""segments":["#, r#""segments":null,"x":["#);
        assert!(err(&no_segments).contains("needs segments"));
    }

    #[test]
    fn nopuzzle_needs_no_labels() {
        let text = r#"{"kind":"nopuzzle","fps":30,"num_frames":2,"labels":null,"segments":null,
            "steady_from_frame":0,"corners_per_frame":[null,null],"occluded_frames":[]}"#;
        let t = parse(text).expect("valid");
        assert_eq!(t.labels_at(0), None);
        let with_corners = text.replace("[null,null]", "[null,[0,0,1,0,1,1,0,1]]");
        assert!(err(&with_corners).contains("frame 1"));
    }

    #[test]
    fn rejects_bad_input_naming_file_and_problem() {
        let e = err("{\"kind\": \"single\",\n \"fps\": }");
        assert!(e.starts_with("clip/truth.json:2:"), "{e}");
        assert!(e.contains("bad JSON"), "{e}");
        assert!(err(&single("").replace("\"single\"", "\"double\"")).contains("unknown kind"));
        assert!(
            err(&single("").replace("\"num_frames\":3", "\"num_frames\":4"))
                .contains("corners_per_frame has 3")
        );
        let e = err(&single("").replace(&grid_json(5), &grid_json(11)));
        assert!(e.contains("outside 0..=10") && e.contains("labels"), "{e}");
        let eight_rows = format!("[{}]", ["[0,0,0,0,0,0,0,0,0]"; 8].join(","));
        assert!(err(&single("").replace(&grid_json(5), &eight_rows)).contains("9 rows"));
        let e = err(&single("").replace(&grid_json(5), "null"));
        assert!(e.contains("needs labels"), "{e}");
        assert!(err(&single("").replace("[1,2,3,4,5,6,7,8]", "[1,2]")).contains("8 finite"));
        assert!(err(&single("").replace("[2]}", "[3]}")).contains("occluded frame 3"));
        assert!(
            err(&single("").replace("\"steady_from_frame\":1", "\"steady_from_frame\":9"))
                .contains("steady_from_frame 9")
        );
        assert!(err(&single("").replace("\"fps\":30", "\"fps\":0")).contains("fps"));
        let e = err(&single("").replace("\"occluded_frames\"", "\"occluded\""));
        assert!(e.contains("occluded_frames"), "{e}");
    }
}
