//! The live path tells a half-done puzzle's printed givens from the solver's handwriting: a
//! still photo fed to `LiveReader` as the app feeds one (again while its output changes)
//! locks with its voted board split by the photo's ink, and the split agrees with the
//! committed givens mask (`models/train/givens`, drawn by hand; the ink rule was fitted on
//! kubiesa-train only) on kubiesa-val photos taken by position, not by how they read. A
//! printed newspaper photo (the held-back wichtounet image1001) locks with no entries.

mod common;

use std::path::Path;

use sudoku_lens::dataset::Dataset;
use sudoku_lens::live::{LiveOutput, LiveReader, LiveState};

/// Feeds `frame` while the output changes (at most 40 times), as the app feeds a still.
fn feed_still(reader: &mut LiveReader, frame: &image::RgbImage) -> LiveOutput {
    reader.reset();
    let mut last = reader.push_frame(frame, 0);
    for _ in 0..40 {
        if !last.changed {
            break;
        }
        last = reader.push_frame(frame, 0);
    }
    last
}

#[test]
fn a_half_done_still_locks_with_print_told_from_handwriting() {
    let set = Dataset::open(common::shared_dataset("kubiesa-val"))
        .expect("kubiesa-val opens")
        .with_givens_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/train/givens"))
        .expect("givens masks");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let (mut agree, mut digits, mut entries_seen, mut locked) = (0, 0, 0, 0);
    let photos: Vec<_> = set.photos.iter().step_by(16).take(3).collect();
    for photo in &photos {
        let labels = set.labels(photo).expect("labels").expect("labelled");
        let mask = set
            .givens(photo)
            .expect("mask")
            .expect("every puzzle has one");
        let frame = sudoku_lens::vision::load_image(&photo.image_path)
            .expect("photo loads")
            .to_rgb8();
        let out = feed_still(&mut reader, &frame);
        let Some(overlay) = out.overlay.filter(|_| out.state == LiveState::Locked) else {
            eprintln!("{}: not locked ({:?})", photo.name, out.progress);
            continue;
        };
        locked += 1;
        let w = &overlay.written;
        assert!(w.kinds_known, "{}: print not told apart", photo.name);
        let mut here = 0;
        for i in (0..81).filter(|&i| (1..=9).contains(&labels[i])) {
            digits += 1;
            let called_printed = w.givens[i] != 0;
            let called_entry = w.entries[i] != 0;
            if (mask[i] && called_printed) || (!mask[i] && called_entry) {
                here += 1;
            }
        }
        agree += here;
        entries_seen += w.entries.iter().filter(|&&v| v != 0).count();
        // Solved from its printed givens: the solution keeps every printed digit read.
        for i in 0..81 {
            if w.givens[i] != 0 {
                assert_eq!(
                    w.givens[i],
                    overlay.solution[i],
                    "{}: r{}c{}",
                    photo.name,
                    i / 9 + 1,
                    i % 9 + 1
                );
            }
        }
        eprintln!(
            "{}: split agrees with the mask on {here} digit cells",
            photo.name
        );
    }
    eprintln!(
        "{locked} of {} stills locked; split agrees with the masks on {agree} of {digits} digit cells, {entries_seen} entries",
        photos.len()
    );
    assert!(
        locked >= 2,
        "only {locked} of {} half-done stills locked",
        photos.len()
    );
    assert!(entries_seen > 0, "no handwritten entry was told from print");
    assert!(
        agree as f64 >= 0.9 * digits as f64,
        "the split agrees with the masks on only {agree} of {digits} digit cells"
    );
}

#[test]
fn a_printed_newspaper_still_locks_with_no_entries() {
    let set = Dataset::open(common::shared_dataset("wichtounet-v2-train")).expect("set opens");
    let photo = set
        .photos
        .iter()
        .find(|p| p.name == "image1001")
        .expect("image1001 is in the set");
    let frame = sudoku_lens::vision::load_image(&photo.image_path)
        .expect("photo loads")
        .to_rgb8();
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let out = feed_still(&mut reader, &frame);
    assert_eq!(out.state, LiveState::Locked, "{:?}", out.progress);
    let overlay = out.overlay.expect("overlay when locked");
    assert!(overlay.written.kinds_known, "print not told apart");
    let entries: Vec<usize> = (0..81)
        .filter(|&i| overlay.written.entries[i] != 0)
        .collect();
    assert!(
        entries.is_empty(),
        "printed digits called handwritten: {entries:?}"
    );
    assert_eq!(overlay.written.givens, overlay.givens);
}
