//! TEMPORARY stub (not committed): replaced by the simulator branch's clip module.
use std::path::{Path, PathBuf};
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClipKind {
    Single,
    Swap,
    #[serde(rename = "nopuzzle")]
    NoPuzzle,
}
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Segment {
    pub from_frame: usize,
    pub to_frame: usize,
    pub labels: [[u8; 9]; 9],
    pub steady_from_frame: Option<usize>,
}
#[derive(Clone, Debug, serde::Deserialize)]
pub struct ClipTruth {
    pub kind: ClipKind,
    pub fps: f32,
    pub num_frames: usize,
    pub labels: Option<[[u8; 9]; 9]>,
    pub segments: Option<Vec<Segment>>,
    pub steady_from_frame: usize,
}
#[derive(Debug, thiserror::Error)]
pub enum ClipError {
    #[error("{0}")]
    Io(String),
}
fn flat(l: &[[u8; 9]; 9]) -> [u8; 81] {
    let mut o = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            o[r * 9 + c] = l[r][c];
        }
    }
    o
}
impl ClipTruth {
    pub fn read(path: &Path) -> Result<ClipTruth, ClipError> {
        let t = std::fs::read_to_string(path).map_err(|e| ClipError::Io(e.to_string()))?;
        serde_json::from_str(&t).map_err(|e| ClipError::Io(e.to_string()))
    }
    pub fn labels_at(&self, frame: usize) -> Option<[u8; 81]> {
        match self.kind {
            ClipKind::Single => self.labels.as_ref().map(flat),
            ClipKind::Swap => self
                .segments
                .as_ref()?
                .iter()
                .find(|s| s.from_frame <= frame && frame <= s.to_frame)
                .map(|s| flat(&s.labels)),
            ClipKind::NoPuzzle => None,
        }
    }
}
pub fn clip_frames(dir: &Path) -> Result<Vec<PathBuf>, ClipError> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ClipError::Io(e.to_string()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jpg" || e == "png"))
        .collect();
    v.sort();
    Ok(v)
}
pub fn clip_dirs(dir: &Path) -> Result<Vec<PathBuf>, ClipError> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ClipError::Io(e.to_string()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    Ok(v)
}
