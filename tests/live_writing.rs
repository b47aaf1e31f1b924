//! The live path tells a half-done puzzle's printed givens from the solver's handwriting: a
//! still photo fed to `LiveReader` as the app feeds one (again while its output changes)
//! locks with its voted board split by the photo's ink, and the split agrees with the
//! committed givens mask (`models/train/givens`, drawn by hand; the ink rule was fitted on
//! kubiesa-train only) on kubiesa-val photos taken by position, not by how they read. A
//! printed newspaper photo (the held-back wichtounet image1001) locks with no entries. Answers
//! written on a locked page are taken in and the board stays: after a hand passed over the
//! grid (webcam frames), and under a camera held still with no hand in view (full-size photos).

mod common;

use std::path::Path;
use std::sync::Arc;

use sudoku_lens::dataset::{Dataset, Photo};
use sudoku_lens::live::{FrameWork, LiveOutput, LiveReader, LiveState, Overlay};
use sudoku_lens::synthetic::{FilledPhoto, Rng, fill_photo};
use sudoku_lens::vision::Point;

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

/// `frame` with a hand-coloured oval over the lower right of the grid whose corners (TL, TR,
/// BR, BL) are `corners`, moved on by `step`: the hand that writes an answer.
fn hand_over(frame: &image::RgbImage, corners: [Point; 4], step: u32) -> image::RgbImage {
    let mut out = frame.clone();
    let (tl, br) = (corners[0], corners[2]);
    let (w, h) = ((br.x - tl.x).abs(), (br.y - tl.y).abs());
    let cx = br.x - w * (0.15 + 0.03 * step as f32);
    let cy = br.y - h * (0.10 + 0.02 * step as f32);
    let (rx, ry) = (w * 0.22, h * 0.35);
    for (x, y, px) in out.enumerate_pixels_mut() {
        let d = ((x as f32 - cx) / rx).powi(2) + ((y as f32 - cy) / ry).powi(2);
        if d <= 1.0 {
            let shade = 1.0 - 0.25 * d;
            *px = image::Rgb([220.0 * shade, 170.0 * shade, 145.0 * shade].map(|v| v as u8));
        }
    }
    out
}

/// A kubiesa-val page and the same photo with `synth fill`'s writers answering `share` of its
/// empty cells (seed `seed`, item `k`): its labels, corners, photo and answered photo; `None`
/// when no cell was answered.
fn answered_page(
    set: &Dataset,
    photo: &Photo,
    share: f32,
    seed: u64,
    k: usize,
) -> Option<([u8; 81], [Point; 4], image::RgbImage, FilledPhoto)> {
    let labels = set.labels(photo).expect("labels").expect("labelled");
    let corners = photo.corners_in_image.expect("kubiesa-val has corners");
    let source = sudoku_lens::vision::load_image(&photo.image_path)
        .expect("photo loads")
        .to_rgb8();
    let filled = fill_photo(
        &source,
        corners,
        &labels,
        share,
        &mut Rng::for_item(seed, k as u64),
    )
    .expect("the labels solve");
    (filled.written > 0).then_some((labels, corners, source, filled))
}

/// The board `reader` locks on after 40 frames of `frame` (from a reset), if it locks.
fn locked_board(
    reader: &mut LiveReader,
    frame: &image::RgbImage,
    t: &mut u64,
) -> Option<Arc<Overlay>> {
    reader.reset();
    let mut out = None;
    for _ in 0..40 {
        *t += 33;
        out = Some(reader.push_frame(frame, *t));
    }
    out.and_then(|o| o.overlay)
}

/// What a locked page showed while its answered picture was fed.
struct Watched {
    /// Frames without an overlay.
    without: usize,
    /// Answers the last overlay shows.
    shown_answers: usize,
    /// Whether the new writing was ever said to be read (`LockProgress::new_writing`).
    said: bool,
    /// What the first frame of the answered picture cost.
    first_work: FrameWork,
}

/// Feeds `frame` (the page `name` with its answers written: its labels `answered`, the page's
/// own `labels`) for 80 frames after `board` was locked, asserting that no overlay shows a
/// digit that is on neither page nor on `board`.
fn watch_answers(
    reader: &mut LiveReader,
    frame: &image::RgbImage,
    t: &mut u64,
    board: &Overlay,
    labels: &[u8; 81],
    answered: &[u8; 81],
    name: &str,
) -> Watched {
    let mut watched = Watched {
        without: 0,
        shown_answers: 0,
        said: false,
        first_work: FrameWork::Unchanged,
    };
    for n in 0..80 {
        *t += 33;
        let out = reader.push_frame(frame, *t);
        if n == 0 {
            watched.first_work = out.work;
        }
        watched.said |= out.progress.new_writing;
        let Some(overlay) = out.overlay else {
            watched.without += 1;
            continue;
        };
        let cells = overlay.givens.iter().zip(&board.givens).zip(answered);
        for (i, ((&d, &before), &after)) in cells.enumerate() {
            assert!(
                d == 0 || d == before || d == after,
                "{name}: r{}c{} shows {d}, on neither page",
                i / 9 + 1,
                i % 9 + 1
            );
        }
        watched.shown_answers = (0..81)
            .filter(|&i| labels[i] != answered[i] && overlay.givens[i] == answered[i])
            .count();
    }
    watched
}

/// Pages of an answers test: how many were fed, locked before their answers, and show their
/// answers at the end, and those that lost the board after the answers came.
#[derive(Default)]
struct Tally {
    pages: usize,
    locked: usize,
    answered: usize,
    dropped: Vec<String>,
}

impl Tally {
    /// Counts the page `name` and, when `reader` locks on it ([`locked_board`]), its lock.
    fn lock(
        &mut self,
        reader: &mut LiveReader,
        frame: &image::RgbImage,
        t: &mut u64,
        name: &str,
    ) -> Option<Arc<Overlay>> {
        self.pages += 1;
        let Some(board) = locked_board(reader, frame, t) else {
            eprintln!("{name}: not locked before the answers");
            return None;
        };
        self.locked += 1;
        Some(board)
    }

    /// Counts a locked page whose answered picture (`written` answers) was `watched`: it lost
    /// the board with more than 2 frames without an overlay.
    fn record(&mut self, name: &str, written: usize, watched: &Watched) {
        let Watched {
            without,
            shown_answers,
            ..
        } = *watched;
        eprintln!(
            "{name}: {written} answers written, {shown_answers} shown at the end; {without} frames without an overlay"
        );
        if without > 2 {
            self.dropped.push(format!("{name} ({without} frames)"));
        }
        if shown_answers > 0 {
            self.answered += 1;
        }
    }

    /// Asserts that no page lost the board after `what` and that at least 4 pages locked.
    fn assert_boards_kept(&self, what: &str) {
        let Tally {
            pages,
            locked,
            answered,
            dropped,
        } = self;
        eprintln!(
            "{pages} pages, {locked} locked before the answers, {answered} show them, {} lose the board",
            dropped.len()
        );
        assert!(
            dropped.is_empty(),
            "the board went after {what}: {dropped:?}"
        );
        assert!(*locked >= 4, "only {locked} of {pages} pages locked");
    }
}

/// Answers written on a locked page under a camera held still (`live/renew.rs`). Each page
/// (kubiesa-val, every fifth, those given answers) is a 640×480 webcam frame; `synth fill`'s
/// writers then answer a quarter of its empty cells in the same frame. The page is fed until
/// locked; a hand passes over the grid for 12 frames; the answered page is then fed for 80
/// frames. Once the hand has gone:
/// - the overlay comes back at once (at most 2 frames without one) on every page, rather than
///   waiting for the answered page to earn trust from scratch;
/// - it never shows a digit that is on neither page;
/// - it takes the answers in on at least a third of the pages.
#[test]
fn answers_written_on_a_locked_page_are_taken_in_and_the_board_stays() {
    use sudoku_lens::synthetic::{Degradation, webcam_frame};
    let set = Dataset::open(common::shared_dataset("kubiesa-val")).expect("kubiesa-val opens");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let mut tally = Tally::default();
    for (k, photo) in set.photos.iter().step_by(5).enumerate() {
        let Some((labels, corners, source, filled)) = answered_page(&set, photo, 0.25, 4701, k)
        else {
            continue;
        };
        // The same camera, geometry and noise for both: only the ink differs.
        let frame_of = |image: &image::RgbImage| {
            let f = webcam_frame(
                image,
                corners,
                &mut Rng::for_item(4702, k as u64),
                (640, 480),
                Degradation::Slight,
            )
            .expect("a frame");
            (
                common::through_jpeg(&f.image, f.jpeg_quality).to_rgb8(),
                f.corners_in_image,
            )
        };
        let (before, corners_in_frame) = frame_of(&source);
        let (after, _) = frame_of(&filled.image);
        let mut t = 0;
        let Some(board) = tally.lock(&mut reader, &before, &mut t, &photo.name) else {
            continue;
        };
        for step in 0..12 {
            t += 33;
            reader.push_frame(&hand_over(&after, corners_in_frame, step % 6), t);
        }
        let watched = watch_answers(
            &mut reader,
            &after,
            &mut t,
            &board,
            &labels,
            &filled.labels,
            &photo.name,
        );
        tally.record(&photo.name, filled.written, &watched);
        if watched.shown_answers > 0 {
            assert!(
                watched.said,
                "{}: the new writing was never said to be read",
                photo.name
            );
        }
    }
    tally.assert_boards_kept("the hand");
    // Stop 47: 3 of 7 (before renewals, 2 of 7, and 6 of 7 lost the board). The rest are
    // answers the reader cannot read surely in a webcam frame (faint pencil, a doubtful
    // digit that would show as a mistake), and the board stays as it was.
    assert!(
        3 * tally.answered >= tally.locked,
        "answers shown on only {} of {} pages",
        tally.answered,
        tally.locked
    );
}

/// Answers written on a locked page under a camera that holds perfectly still, with no hand
/// in view (`live/change.rs`, `Thumbnail::marked_within`): each page (kubiesa-val, every fifth,
/// those given answers) is the full-size photo; `synth fill`'s writers then answer a fifth
/// of its empty cells. The page is fed until locked, then the answered page for 80 frames.
/// Writing in a few cells moves too few of a large photo's blocks to count as a change of the
/// frame, but makes marks local to the grid, so it is read:
/// - the answered page is worked on, not taken for the picture already read;
/// - no page loses its board (at most 2 frames without an overlay);
/// - no digit that is on neither page, nor on the board first locked, is ever shown;
/// - the answers are taken in on at least half of the locked pages.
#[test]
fn answers_written_under_a_still_camera_are_taken_in() {
    let set = Dataset::open(common::shared_dataset("kubiesa-val")).expect("kubiesa-val opens");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let mut tally = Tally::default();
    for (k, photo) in set.photos.iter().step_by(5).enumerate() {
        let Some((labels, _, source, filled)) = answered_page(&set, photo, 0.2, 4801, k) else {
            continue;
        };
        let before = common::through_jpeg(&source, 92).to_rgb8();
        let after = common::through_jpeg(&filled.image, 92).to_rgb8();
        let mut t = 0;
        let Some(board) = tally.lock(&mut reader, &before, &mut t, &photo.name) else {
            continue;
        };
        let watched = watch_answers(
            &mut reader,
            &after,
            &mut t,
            &board,
            &labels,
            &filled.labels,
            &photo.name,
        );
        assert_ne!(
            watched.first_work,
            FrameWork::Unchanged,
            "{}: the answered page taken for the same picture",
            photo.name
        );
        tally.record(&photo.name, filled.written, &watched);
    }
    tally.assert_boards_kept("the answers");
    // Bound set before the first run (stop 48): 5 of 6 then; 3 of 6 without marks local to
    // the grid. On stop 46's 18 kubiesa-train pages (dev): 6 of 18 without, 14 with.
    assert!(
        2 * tally.answered >= tally.locked,
        "answers shown on only {} of {} pages",
        tally.answered,
        tally.locked
    );
}
