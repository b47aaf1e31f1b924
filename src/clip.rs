//! The camera-clip layout: a folder of frames (`frame_0000.jpg`, `frame_0001.jpg`, … — any
//! image names, played in name order) plus `truth.json`, what is in view frame by frame:
//!
//! ```text
//! {"kind": "single"|"swap"|"nopuzzle", "fps": 30, "num_frames": N,
//!  "labels": 9×9 ints or null (0 empty, 1–9, 10 pencil marks),
//!  "segments": [{"from_frame", "to_frame", "labels", "steady_from_frame"}] or null,
//!  "steady_from_frame": k,
//!  "corners_per_frame": [[tl_x, tl_y, tr_x, tr_y, br_x, br_y, bl_x, bl_y] or null, …],
//!  "occluded_frames": [ … ]}
//! ```
//!
//! `labels` is set for a single puzzle, `segments` for a swap (one puzzle after another;
//! `to_frame` inclusive, a segment's own `steady_from_frame` optional). A frame's corners are
//! null when the whole grid is not inside it.
//!
//! Owns reading (with checks and errors naming the file and the problem), writing and the
//! frame listing shared by the simulator (`synthetic::clip`) and the clip replay. It does not
//! decode images.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::vision::Point;

/// The name of the truth file in a clip folder.
pub const TRUTH_FILE: &str = "truth.json";

/// File extensions of frames (lower case).
pub const FRAME_EXTENSIONS: [&str; 5] = ["jpg", "jpeg", "png", "bmp", "webp"];

/// Why a clip or its truth could not be read or written. Every variant names the path.
#[derive(Debug, thiserror::Error)]
pub enum ClipError {
    /// A file or folder could not be read or written.
    #[error("cannot access {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// `truth.json` is not valid JSON of the expected shape.
    #[error("{path}:{line}:{column}: bad JSON: {message}")]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// `truth.json` parses but contradicts itself.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A clip folder holds no frames.
    #[error("no frames (jpg, jpeg, png, bmp, webp) in {0}")]
    NoFrames(PathBuf),
    /// A folder of clips holds no clip.
    #[error("no clip folders (subfolders holding frames) in {0}")]
    NoClips(PathBuf),
}

/// What a clip shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClipKind {
    /// One puzzle enters and is held.
    Single,
    /// One puzzle, then another.
    Swap,
    /// A printed page with no Sudoku.
    Nopuzzle,
}

impl ClipKind {
    /// Every kind.
    pub const ALL: [ClipKind; 3] = [ClipKind::Single, ClipKind::Swap, ClipKind::Nopuzzle];

    /// The name used in `truth.json` and folder names.
    pub fn name(self) -> &'static str {
        match self {
            ClipKind::Single => "single",
            ClipKind::Swap => "swap",
            ClipKind::Nopuzzle => "nopuzzle",
        }
    }
}

/// One puzzle's stretch of a swap clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// First frame where any of the puzzle is in view.
    pub from_frame: usize,
    /// Last frame where any of it is in view (inclusive).
    pub to_frame: usize,
    /// Its cell labels, row-major.
    pub labels: [u8; 81],
    /// The first frame after its motion stops, when known.
    pub steady_from_frame: Option<usize>,
}

/// The contents of `truth.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipTruth {
    /// What the clip shows.
    pub kind: ClipKind,
    /// Frames per second.
    pub fps: f64,
    /// Number of frames.
    pub num_frames: usize,
    /// Labels of the puzzle of a `single` clip.
    pub labels: Option<[u8; 81]>,
    /// The puzzles of a `swap` clip in order.
    pub segments: Option<Vec<Segment>>,
    /// The first frame after the (first) puzzle's motion stops.
    pub steady_from_frame: usize,
    /// Outer grid corners (TL, TR, BR, BL) per frame; `None` when the grid is not wholly in
    /// view (always for `nopuzzle`).
    pub corners_per_frame: Vec<Option<[Point; 4]>>,
    /// Frames where something (a finger) covers part of the grid.
    pub occluded_frames: Vec<usize>,
}

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

    /// Checks the truth against itself: frame counts, label values, segment order, frame
    /// numbers in range, labels present where the kind needs them.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return Err(format!("fps must be a positive number, got {}", self.fps));
        }
        if self.num_frames == 0 {
            return Err("num_frames is 0".into());
        }
        if self.corners_per_frame.len() != self.num_frames {
            return Err(format!(
                "num_frames is {} but corners_per_frame has {} entries",
                self.num_frames,
                self.corners_per_frame.len()
            ));
        }
        if self.steady_from_frame >= self.num_frames {
            return Err(format!(
                "steady_from_frame {} is not a frame of the clip (0..{})",
                self.steady_from_frame, self.num_frames
            ));
        }
        if let Some(&k) = self.occluded_frames.iter().find(|&&k| k >= self.num_frames) {
            return Err(format!(
                "occluded frame {k} is not a frame of the clip (0..{})",
                self.num_frames
            ));
        }
        let check_labels = |what: &str, l: &[u8; 81]| match l.iter().position(|&v| v > 10) {
            Some(i) => Err(format!(
                "{what}: value {} at row {} column {} is outside 0..=10",
                l[i],
                i / 9 + 1,
                i % 9 + 1
            )),
            None => Ok(()),
        };
        if let Some(l) = &self.labels {
            check_labels("labels", l)?;
        }
        match self.kind {
            ClipKind::Single => {
                if self.labels.is_none() {
                    return Err("a single clip needs labels".into());
                }
                if self.segments.is_some() {
                    return Err("segments must be null for a single clip".into());
                }
            }
            ClipKind::Nopuzzle => {
                if self.labels.is_some() || self.segments.is_some() {
                    return Err("labels and segments must be null for a nopuzzle clip".into());
                }
                if let Some(k) = self.corners_per_frame.iter().position(Option::is_some) {
                    return Err(format!("a nopuzzle clip has corners at frame {k}"));
                }
            }
            ClipKind::Swap => {
                if self.labels.is_some() {
                    return Err(
                        "labels must be null for a swap clip (each segment has its own)".into(),
                    );
                }
                let segs = match &self.segments {
                    Some(s) if !s.is_empty() => s,
                    _ => return Err("a swap clip needs segments".into()),
                };
                for (i, s) in segs.iter().enumerate() {
                    check_labels(&format!("segment {i}: labels"), &s.labels)?;
                    if s.from_frame > s.to_frame || s.to_frame >= self.num_frames {
                        return Err(format!(
                            "segment {i}: frames {}..={} are not a range of the clip (0..{})",
                            s.from_frame, s.to_frame, self.num_frames
                        ));
                    }
                    if let Some(k) = s.steady_from_frame
                        && !(s.from_frame..=s.to_frame).contains(&k)
                    {
                        return Err(format!(
                            "segment {i}: steady_from_frame {k} is outside its frames {}..={}",
                            s.from_frame, s.to_frame
                        ));
                    }
                    if i > 0 && s.from_frame <= segs[i - 1].to_frame {
                        return Err(format!(
                            "segment {i} (from frame {}) overlaps or precedes segment {} \
                             (to frame {})",
                            s.from_frame,
                            i - 1,
                            segs[i - 1].to_frame
                        ));
                    }
                }
            }
        }
        Ok(())
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

    /// The labels of the puzzle in view at `frame`: `labels` for a single clip, the covering
    /// segment's for a swap; `None` for nopuzzle, frames outside every segment and frames past
    /// the end.
    pub fn labels_at(&self, frame: usize) -> Option<[u8; 81]> {
        if frame >= self.num_frames {
            return None;
        }
        match self.kind {
            ClipKind::Single => self.labels,
            ClipKind::Nopuzzle => None,
            ClipKind::Swap => self.segment_at(frame).map(|s| s.labels),
        }
    }

    /// The grid's corners at `frame` (`None` when not wholly in view or past the end).
    pub fn corners_at(&self, frame: usize) -> Option<[Point; 4]> {
        self.corners_per_frame.get(frame).copied().flatten()
    }

    /// The frame from which the puzzle in view at `frame` is held still (`None` when no
    /// puzzle is in view or it is unknown).
    pub fn steady_from_at(&self, frame: usize) -> Option<usize> {
        match self.kind {
            ClipKind::Single => (frame < self.num_frames).then_some(self.steady_from_frame),
            ClipKind::Nopuzzle => None,
            ClipKind::Swap => self.segment_at(frame).and_then(|s| s.steady_from_frame),
        }
    }

    /// The segment of a swap clip that covers `frame`.
    fn segment_at(&self, frame: usize) -> Option<&Segment> {
        self.segments
            .as_ref()?
            .iter()
            .find(|s| (s.from_frame..=s.to_frame).contains(&frame))
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

/// The frames of a clip folder: its image files (jpg, jpeg, png, bmp, webp, any case),
/// sorted by name; `truth.json` and other files are ignored. An error when there are none.
pub fn clip_frames(dir: &Path) -> Result<Vec<PathBuf>, ClipError> {
    let mut frames = Vec::new();
    let io = |source| ClipError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if is_frame(&path) {
            frames.push(path);
        }
    }
    if frames.is_empty() {
        return Err(ClipError::NoFrames(dir.to_path_buf()));
    }
    frames.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(frames)
}

/// The clips of a folder of clips: its subfolders that hold at least one frame, sorted by
/// name. An error when there are none.
pub fn clip_dirs(dir: &Path) -> Result<Vec<PathBuf>, ClipError> {
    let io = |source| ClipError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir()
            && std::fs::read_dir(&path)
                .map(|it| it.flatten().any(|e| is_frame(&e.path())))
                .unwrap_or(false)
        {
            out.push(path);
        }
    }
    if out.is_empty() {
        return Err(ClipError::NoClips(dir.to_path_buf()));
    }
    out.sort();
    Ok(out)
}

fn is_frame(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .is_some_and(|e| FRAME_EXTENSIONS.contains(&e.as_str()))
}

/// The name of frame `k` as the simulator writes it (`frame_0007.jpg`).
pub fn frame_name(k: usize) -> String {
    format!("frame_{k:04}.jpg")
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

    #[test]
    fn lists_frames_and_clip_folders_in_name_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let clip = dir.path().join("b_clip");
        std::fs::create_dir(&clip).expect("mkdir");
        for name in ["f10.png", "f02.JPG", "truth.json", "notes.txt", "f03.webp"] {
            std::fs::write(clip.join(name), b"x").expect("write");
        }
        std::fs::create_dir(dir.path().join("a_empty")).expect("mkdir");
        let frames = clip_frames(&clip).expect("frames");
        let names: Vec<_> = frames
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["f02.JPG", "f03.webp", "f10.png"]);
        assert_eq!(clip_dirs(dir.path()).expect("clips"), vec![clip]);
        let e = clip_frames(&dir.path().join("a_empty")).unwrap_err();
        assert!(matches!(e, ClipError::NoFrames(_)), "{e}");
        assert!(matches!(
            clip_dirs(&dir.path().join("a_empty")),
            Err(ClipError::NoClips(_))
        ));
        assert!(matches!(
            clip_frames(&dir.path().join("missing")),
            Err(ClipError::Io { .. })
        ));
    }
}
