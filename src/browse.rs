//! Choosing files without the desktop's help: whether the system file chooser can open at
//! all ([`system_chooser`]: rfd needs the XDG desktop portal or `zenity`, and fails silently
//! without them), and the folder listing the app's own file picker shows ([`list_folder`]).
//!
//! Plain std: no egui (the picker's widgets are the app's), no dialogs.

use std::path::{Path, PathBuf};

/// Image file extensions the app opens (lower case).
pub const IMAGE_EXTENSIONS: [&str; 9] = [
    "jpg", "jpeg", "png", "bmp", "webp", "tif", "tiff", "gif", "pnm",
];

/// Whether the system file chooser can open here; `Err` says why not, in plain words.
/// On Linux it needs a D-Bus session with the XDG desktop portal installed, or `zenity` on
/// the `PATH`; elsewhere the platform's own dialogs are always there.
pub fn system_chooser() -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let on_path = |name: &str| {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
    };
    if on_path("zenity") {
        return Ok(());
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some();
    let portal = [
        "/usr/libexec/xdg-desktop-portal",
        "/usr/lib/xdg-desktop-portal",
        "/usr/lib/xdg-desktop-portal/xdg-desktop-portal",
    ]
    .iter()
    .any(|p| Path::new(p).is_file());
    if bus && portal {
        Ok(())
    } else {
        Err("this desktop has no file chooser service (the XDG desktop portal or zenity)".into())
    }
}

/// What a folder holds that the picker shows: its sub-folders and the files with one of the
/// wanted extensions, each sorted by name; hidden entries left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The folder listed.
    pub dir: PathBuf,
    /// Sub-folders (names).
    pub folders: Vec<String>,
    /// Matching files (names).
    pub files: Vec<String>,
}

/// Lists `dir` for the picker, keeping files whose extension is in `extensions` (any case).
pub fn list_folder(dir: &Path, extensions: &[&str]) -> std::io::Result<Listing> {
    let mut listing = Listing {
        dir: dir.to_path_buf(),
        ..Listing::default()
    };
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            listing.folders.push(name);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
        {
            listing.files.push(name);
        }
    }
    listing.folders.sort();
    listing.files.sort();
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_folders_and_matching_files_sorted_without_hidden_ones() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["b.JPG", "a.png", "notes.txt", ".hidden.png"] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let l = list_folder(dir.path(), &IMAGE_EXTENSIONS).unwrap();
        assert_eq!(l.folders, vec!["sub".to_string()]);
        assert_eq!(l.files, vec!["a.png".to_string(), "b.JPG".to_string()]);
        assert!(list_folder(&dir.path().join("missing"), &IMAGE_EXTENSIONS).is_err());
    }
}
