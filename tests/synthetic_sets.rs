//! The screenshot generator writes data sets that `Dataset::open` reads back unchanged:
//! one screenshot per theme family, labels and corners round-trip, images decode at the
//! rendered size, and the same seed writes the same bytes.

use std::path::{Path, PathBuf};

use sudoku_lens::dataset::Dataset;
use sudoku_lens::synthetic::{
    DatasetWriter, FontBank, Rng, ScreenSpec, ThemeFamily, render_screen,
};
use sudoku_lens::vision::{Point, load_image};

/// What was written for one screenshot: name, labels, corners, image size.
type Written = (String, [u8; 81], [Point; 4], (u32, u32));

/// Writes one screenshot per theme family into `dir`.
fn write_set(dir: &Path, fonts: &FontBank) -> Vec<Written> {
    let mut writer = DatasetWriter::create(dir).expect("create the data set");
    let mut written = Vec::new();
    for (i, family) in ThemeFamily::ALL.iter().enumerate() {
        let mut rng = Rng::for_item(2024, i as u64);
        let spec = ScreenSpec::random_in_family(&mut rng, fonts, *family);
        let screen = render_screen(&spec, fonts);
        let name = format!("theme_{i}");
        writer
            .write(
                &name,
                &screen.image,
                screen.format,
                Some(&screen.labels),
                screen.corners_in_image,
            )
            .expect("write a screenshot");
        written.push((
            name,
            screen.labels,
            screen.corners_in_image,
            screen.image.dimensions(),
        ));
    }
    assert_eq!(
        writer.finish().expect("write corners.csv"),
        ThemeFamily::ALL.len()
    );
    written
}

fn files_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["images", "labels"] {
        for e in std::fs::read_dir(dir.join(sub)).expect("list") {
            let p = e.expect("entry").path();
            let bytes = std::fs::read(&p).expect("read");
            out.push((p.strip_prefix(dir).expect("prefix").to_path_buf(), bytes));
        }
    }
    out.push((
        PathBuf::from("corners.csv"),
        std::fs::read(dir.join("corners.csv")).expect("corners.csv"),
    ));
    out.sort();
    out
}

#[test]
fn screenshots_round_trip_through_the_dataset_reader() {
    let fonts = FontBank::from_dirs(&[PathBuf::from("/usr/share/fonts")])
        .expect("this test needs fonts under /usr/share/fonts");
    let dir = tempfile::tempdir().expect("temp dir");
    let written = write_set(dir.path(), &fonts);

    let ds = Dataset::open(dir.path()).expect("the written set opens");
    assert_eq!(ds.photos.len(), written.len());
    for (name, labels, corners, size) in &written {
        let photo = ds
            .photos
            .iter()
            .find(|p| &p.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(
            ds.labels(photo).expect("labels parse").as_ref(),
            Some(labels)
        );
        let read = photo.corners_in_image.expect("corners row");
        for (a, b) in read.iter().zip(corners) {
            assert!(a.distance(*b) < 0.01, "{name}: {a:?} vs {b:?}");
        }
        let img = load_image(&photo.image_path).expect("image decodes");
        assert_eq!((img.width(), img.height()), *size, "{name}");
        // Real content: at least the 20 givens are digits.
        let digits = labels.iter().filter(|l| (1..=9).contains(*l)).count();
        assert!(digits >= 20, "{name}: {digits} digits");
    }

    let again = tempfile::tempdir().expect("temp dir");
    write_set(again.path(), &fonts);
    assert!(
        files_of(dir.path()) == files_of(again.path()),
        "same seed, same bytes"
    );
}
