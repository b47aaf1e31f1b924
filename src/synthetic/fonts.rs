//! The fonts synthetic data is drawn with: every system face that has the digits 1–9, and the
//! deterministic train / held-out split of those faces by family.
//!
//! Owns collecting and loading font files and deciding which family a face belongs to and
//! whether that family is held out. It does not lay out or rasterize text (see `draw`).

use std::path::{Path, PathBuf};

use ab_glyph::{Font, FontVec};

use super::rng::stable_hash;

/// Why fonts could not be collected.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    /// No usable font was found.
    #[error("no font with the digits 1-9 found under {0}")]
    NoFonts(String),
    /// Fonts were found, but none in the requested split.
    #[error("none of the {found} fonts found under {dirs} is in the {split:?} split")]
    EmptySplit {
        /// The folders searched.
        dirs: String,
        /// How many usable fonts there were in all.
        found: usize,
        /// The split asked for.
        split: FontSplit,
    },
}

/// Which faces a generator may use. The split is by family (`DejaVuSans-Bold` and
/// `DejaVuSans-Oblique` fall on the same side), decided by a fixed hash of the family name,
/// so that held-out faces are designs the model never saw in training.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FontSplit {
    /// Families not held out (about 4 in 5).
    Train,
    /// Held-out families (about 1 in 5): never used for training data.
    Heldout,
    /// Every face.
    All,
}

impl FontSplit {
    /// The split (`Train` or `Heldout`) a font file belongs to, from its file name alone.
    pub fn of_file_name(file_name: &str) -> FontSplit {
        if stable_hash(font_family(file_name).as_bytes()) % 5 == HELD_OUT_RESIDUE {
            FontSplit::Heldout
        } else {
            FontSplit::Train
        }
    }

    /// Whether a font file of this name may be used under `self`.
    pub fn admits(self, file_name: &str) -> bool {
        self == FontSplit::All || FontSplit::of_file_name(file_name) == self
    }
}

/// The hash residue (mod 5) of held-out families. Fixed forever: changing it would move
/// faces between training and evaluation data.
const HELD_OUT_RESIDUE: u64 = 0;

/// Style words stripped from the end of the part before the first `-` (faces named without a
/// dash, like `FreeSerifBoldItalic`, carry their style there).
const STYLE_SUFFIXES: [&str; 6] = ["Regular", "Bold", "Italic", "Oblique", "Light", "Medium"];

/// The family of a font file: its stem up to the first `-`, with trailing style words removed
/// (`DejaVuSans-Bold.ttf` → `DejaVuSans`, `FreeSansBoldOblique.ttf` → `FreeSans`).
pub fn font_family(file_name: &str) -> String {
    let stem = file_name.rsplit_once('.').map_or(file_name, |(s, _)| s);
    let mut family = stem.split('-').next().unwrap_or(stem);
    loop {
        let before = family.len();
        for suffix in STYLE_SUFFIXES {
            if family.len() > suffix.len()
                && let Some(rest) = family.strip_suffix(suffix)
            {
                family = rest;
            }
        }
        if family.len() == before {
            break;
        }
    }
    family.to_string()
}

/// A loaded font that has all nine digit glyphs.
pub struct DigitFont {
    /// File the font came from.
    pub path: PathBuf,
    font: FontVec,
    /// Whether the face looks like handwriting (script / italic / oblique).
    pub slanted: bool,
}

impl DigitFont {
    /// The parsed face, for rasterizing glyphs.
    pub fn face(&self) -> &FontVec {
        &self.font
    }

    /// The font's file name (`DejaVuSans-Bold.ttf`).
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The fonts digits and interface text are rendered from.
pub struct FontBank {
    fonts: Vec<DigitFont>,
    /// The folders searched, for messages.
    dirs: String,
}

/// Font files never used: symbol and math faces whose digits are not ordinary; hollow
/// `Outline` faces (each digit two thin contours: no app draws its digits so and no training
/// face is drawn so); and `RobotoCondensed`, the narrow cut of `Roboto` (a training family):
/// its name hashes into the held-out split, where it would measure a design the model was
/// trained on.
const SKIPPED_FONT_NAMES: [&str; 6] = [
    "Symbol",
    "D050000L",
    "Math",
    "Dingbat",
    "Outline",
    "RobotoCondensed",
];

impl FontBank {
    /// This machine's fonts (`/usr/share/fonts`; `.ci/setup-system.sh` installs the packages),
    /// for tests: without them a test fails, it is never skipped.
    #[cfg(test)]
    pub(crate) fn system_for_tests() -> FontBank {
        FontBank::from_dirs(&[PathBuf::from("/usr/share/fonts")])
            .expect("tests need fonts under /usr/share/fonts (.ci/setup-system.sh installs them)")
    }

    /// Collects every `.ttf` / `.otf` under `dirs` (recursively) that has glyphs for 1–9,
    /// sorted by path. Noto fonts are limited to the Latin Sans/Serif/Mono families (the
    /// script-specific ones repeat the same digits many times over).
    pub fn from_dirs(dirs: &[PathBuf]) -> Result<FontBank, FontError> {
        let mut files = Vec::new();
        for d in dirs {
            collect_font_files(d, &mut files);
        }
        files.sort();
        let mut fonts = Vec::new();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if SKIPPED_FONT_NAMES.iter().any(|s| name.contains(s)) {
                continue;
            }
            if name.starts_with("Noto") && !is_latin_noto(&name) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let Ok(font) = FontVec::try_from_vec(bytes) else {
                continue;
            };
            if ('1'..='9').any(|ch| font.glyph_id(ch).0 == 0) {
                continue;
            }
            let lower = name.to_lowercase();
            let slanted = ["italic", "oblique", "z003", "ita."]
                .iter()
                .any(|s| lower.contains(s));
            fonts.push(DigitFont {
                path,
                font,
                slanted,
            });
        }
        let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        let dirs = shown.join(", ");
        if fonts.is_empty() {
            return Err(FontError::NoFonts(dirs));
        }
        Ok(FontBank { fonts, dirs })
    }

    /// Collects the fonts under `dirs` (as [`FontBank::from_dirs`]) that `split` admits.
    pub fn from_dirs_split(dirs: &[PathBuf], split: FontSplit) -> Result<FontBank, FontError> {
        FontBank::from_dirs(dirs)?.select(split)
    }

    /// Keeps only the faces `split` admits; an error when none is left.
    pub fn select(self, split: FontSplit) -> Result<FontBank, FontError> {
        let found = self.fonts.len();
        let fonts: Vec<DigitFont> = self
            .fonts
            .into_iter()
            .filter(|f| split.admits(&f.file_name()))
            .collect();
        if fonts.is_empty() {
            return Err(FontError::EmptySplit {
                dirs: self.dirs,
                found,
                split,
            });
        }
        Ok(FontBank {
            fonts,
            dirs: self.dirs,
        })
    }

    /// Number of fonts.
    pub fn len(&self) -> usize {
        self.fonts.len()
    }

    /// Whether there are no fonts (never true for a bank built by [`FontBank::from_dirs`]).
    pub fn is_empty(&self) -> bool {
        self.fonts.is_empty()
    }

    /// The fonts.
    pub fn fonts(&self) -> &[DigitFont] {
        &self.fonts
    }
}

fn is_latin_noto(name: &str) -> bool {
    let family = name.split('-').next().unwrap_or("");
    matches!(
        family,
        "NotoSans" | "NotoSerif" | "NotoSansMono" | "NotoSerifDisplay" | "NotoSansDisplay"
    )
}

fn collect_font_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_font_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("ttf") || x.eq_ignore_ascii_case("otf"))
        {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_strip_styles() {
        assert_eq!(font_family("DejaVuSans-Bold.ttf"), "DejaVuSans");
        assert_eq!(font_family("FreeSerifBoldItalic.ttf"), "FreeSerif");
        assert_eq!(font_family("FreeSansBoldOblique.ttf"), "FreeSans");
        assert_eq!(font_family("C059-BdIta.otf"), "C059");
        assert_eq!(font_family("NimbusRoman-Bold.otf"), "NimbusRoman");
        assert_eq!(
            font_family("LiberationSansNarrow-Italic.ttf"),
            "LiberationSansNarrow"
        );
        assert_eq!(font_family("Bold.ttf"), "Bold");
    }

    #[test]
    fn split_is_stable_and_by_family() {
        // Pinned: these must never change, or training and held-out data would mix.
        let pinned = [
            ("C059-Roman.otf", FontSplit::Heldout),
            ("URWGothic-Book.otf", FontSplit::Heldout),
            ("NotoSansDisplay-Bold.ttf", FontSplit::Heldout),
            ("DejaVuSans-Bold.ttf", FontSplit::Train),
            ("FreeSerifBoldItalic.ttf", FontSplit::Train),
            ("LiberationSans-Regular.ttf", FontSplit::Train),
            ("NimbusRoman-Italic.otf", FontSplit::Train),
        ];
        for (name, expected) in pinned {
            assert_eq!(FontSplit::of_file_name(name), expected, "{name}");
            assert!(FontSplit::All.admits(name));
            assert!(expected.admits(name));
        }
        assert_eq!(
            FontSplit::of_file_name("DejaVuSans-Oblique.ttf"),
            FontSplit::of_file_name("DejaVuSans.ttf")
        );
        assert!(FontSplit::All.admits("anything.ttf"));
    }

    #[test]
    fn system_fonts_split_disjointly_about_one_in_five_families() {
        let dirs = [PathBuf::from("/usr/share/fonts")];
        let all = FontBank::from_dirs(&dirs).expect("fonts under /usr/share/fonts");
        let names: Vec<String> = all.fonts().iter().map(DigitFont::file_name).collect();
        let train = FontBank::from_dirs_split(&dirs, FontSplit::Train).expect("train fonts");
        let held = FontBank::from_dirs_split(&dirs, FontSplit::Heldout).expect("held-out fonts");
        let train_names: Vec<String> = train.fonts().iter().map(DigitFont::file_name).collect();
        let held_names: Vec<String> = held.fonts().iter().map(DigitFont::file_name).collect();
        assert!(train_names.iter().all(|n| !held_names.contains(n)));
        assert_eq!(train_names.len() + held_names.len(), names.len());
        let mut families: Vec<String> = names.iter().map(|n| font_family(n)).collect();
        families.sort();
        families.dedup();
        let mut held_families: Vec<String> = held_names.iter().map(|n| font_family(n)).collect();
        held_families.sort();
        held_families.dedup();
        let share = held_families.len() as f32 / families.len() as f32;
        assert!(
            (0.08..=0.4).contains(&share),
            "{held_families:?} of {families:?}"
        );
        // No family straddles the split.
        let train_families: Vec<String> = train_names.iter().map(|n| font_family(n)).collect();
        assert!(train_families.iter().all(|f| !held_families.contains(f)));
    }
}
