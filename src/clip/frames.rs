//! The frames of a clip folder and the clips of a folder of clips, in name order, and the
//! frame names the simulator writes.
//!
//! It only lists files: it neither decodes images nor reads `truth.json`.

use std::path::{Path, PathBuf};

use super::ClipError;

/// File extensions of frames (lower case).
pub const FRAME_EXTENSIONS: [&str; 5] = ["jpg", "jpeg", "png", "bmp", "webp"];

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
