//! Mutation fuzzing on the stable toolchain (cargo-fuzz needs nightly): each target takes a
//! seed corpus of valid inputs, mutates it at random (bit flips, byte edits, inserted tokens,
//! cut and spliced ranges, truncation) for a time budget and feeds every mutant to one entry
//! point, which must return — a value or an error — and never panic or hang; where the input
//! parses, a round-trip property is checked too.
//!
//! Targets: puzzle text (81-char and 9-line boards, 729-char pencil marks with solved cells,
//! HoDoKu library lines), collection files, label files, `corners.csv`, photo-name lists, and
//! image bytes through loading and grid detection. `FUZZ_SECONDS` sets the budget per target
//! (default 8: about a minute in all, as `.ci/run` runs it); `FUZZ_SEED` the seed (default
//! fixed, so CI is reproducible). A long run:
//! `FUZZ_SECONDS=600 FUZZ_SEED=$RANDOM cargo test --release --test fuzz -- --nocapture`.
//! A failure prints the seed and the input (escaped) that broke it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

use sudoku_lens::dataset::{NameList, parse_corners};
use sudoku_lens::sudoku::parse::parse_labels;
use sudoku_lens::sudoku::{collection_puzzles, parse_puzzle};
use sudoku_lens::synthetic::Rng;
use sudoku_lens::vision::jpeg::{check_jpeg, is_jpeg};
use sudoku_lens::vision::{detect_gray, load_image_from_memory, to_gray};

fn budget() -> Duration {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(8.0);
    Duration::from_secs_f64(secs)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_F022)
}

/// Tokens worth inserting into text inputs: separators, digits, comment and line marks,
/// numbers of odd sizes, multi-byte characters.
const TEXT_TOKENS: [&str; 26] = [
    ".",
    "0",
    "9",
    "\n",
    "\r\n",
    "#",
    "|",
    "-",
    "+",
    " ",
    "\t",
    ",",
    "10",
    "11",
    "-1",
    "1e38",
    "NaN",
    "\u{feff}",
    "é",
    "\u{0}",
    "９",
    "..........",
    // The solved-cell marker of pencil marks and the HoDoKu library line's separators.
    "*",
    ":",
    "+5",
    " 436",
];

/// One random mutation of `input` (bytes), using `corpus` for splices and `tokens` for
/// inserts.
fn mutate(rng: &mut Rng, input: &mut Vec<u8>, corpus: &[Vec<u8>], tokens: &[&[u8]]) {
    let len = input.len();
    match rng.below(9) {
        0 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            input[i] = rng.below(256) as u8;
        }
        2 => {
            let at = rng.below(len + 1);
            let token = tokens[rng.below(tokens.len())];
            input.splice(at..at, token.iter().copied());
        }
        3 if len > 0 => {
            let a = rng.below(len);
            let b = (a + 1 + rng.below(16)).min(len);
            input.drain(a..b);
        }
        4 if len > 0 => {
            // Duplicate a range somewhere else.
            let a = rng.below(len);
            let b = (a + 1 + rng.below(64)).min(len);
            let piece: Vec<u8> = input[a..b].to_vec();
            let at = rng.below(input.len() + 1);
            input.splice(at..at, piece);
        }
        5 => input.truncate(rng.below(len + 1)),
        6 if !corpus.is_empty() => {
            // Splice: head of this input, tail of another.
            let other = &corpus[rng.below(corpus.len())];
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            input.truncate(cut);
            input.extend_from_slice(&other[from..]);
        }
        7 if len > 0 => {
            // A byte run of a random value (long lines, runs of 0xFF in images).
            let at = rng.below(len);
            let run = rng.between(1, 300);
            let v = rng.below(256) as u8;
            input.splice(at..at, std::iter::repeat_n(v, run));
        }
        _ => {
            let at = rng.below(len + 1);
            input.insert(at, rng.below(128) as u8);
        }
    }
}

/// Runs `target` on mutants of `corpus` until the budget is spent; panics with the seed and
/// input when the target panics or one input takes longer than `slow`.
fn fuzz(
    name: &str,
    corpus: Vec<Vec<u8>>,
    tokens: &[&[u8]],
    slow: Duration,
    target: impl Fn(&[u8]),
) {
    assert!(!corpus.is_empty(), "{name}: empty corpus");
    let seed = seed();
    let mut rng = Rng::new(seed ^ sudoku_lens::synthetic::rng::stable_hash(name.as_bytes()));
    let deadline = Instant::now() + budget();
    let mut runs = 0usize;
    // The corpus itself first, then mutants (1–8 mutations each).
    let mut queue: Vec<Vec<u8>> = corpus.clone();
    loop {
        let input = match queue.pop() {
            Some(i) => i,
            None => {
                if Instant::now() >= deadline {
                    break;
                }
                let mut m = corpus[rng.below(corpus.len())].clone();
                for _ in 0..rng.between(1, 8) {
                    mutate(&mut rng, &mut m, &corpus, tokens);
                }
                m
            }
        };
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| target(&input)));
        let took = start.elapsed();
        runs += 1;
        let shown = || {
            let text = String::from_utf8_lossy(&input[..input.len().min(2000)]);
            format!("seed {seed}, input of {} bytes: {text:?}", input.len())
        };
        assert!(outcome.is_ok(), "{name}: panicked on {}", shown());
        assert!(took <= slow, "{name}: {took:?} on one input ({})", shown());
    }
    eprintln!("{name}: {runs} inputs in {:?}, no panic", budget());
}

fn text_tokens() -> Vec<&'static [u8]> {
    TEXT_TOKENS.iter().map(|t| t.as_bytes()).collect()
}

const PUZZLE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// The 81-char rendering of a parsed puzzle, its 9-line board and its 729-char pencil
/// marks: what the parser must read back to the same grid.
#[test]
fn puzzle_text() {
    let grid = parse_puzzle(PUZZLE).unwrap();
    let corpus = vec![
        PUZZLE.as_bytes().to_vec(),
        grid.to_pretty().into_bytes(),
        grid.to_sukaku().into_bytes(),
        format!("# a comment\n{PUZZLE}\n").into_bytes(),
        // A HoDoKu library line: a placed digit (`+`) and two deleted candidates.
        format!(":0100:9:{}+9{}:412 517::", &PUZZLE[..3], &PUZZLE[4..]).into_bytes(),
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .to_vec(),
    ];
    fuzz(
        "puzzle_text",
        corpus,
        &text_tokens(),
        Duration::from_secs(2),
        |bytes| {
            let text = String::from_utf8_lossy(bytes);
            if let Ok(grid) = parse_puzzle(&text) {
                // What parsed renders and parses back to the same grid.
                let marks = grid.to_sukaku();
                let again = parse_puzzle(&marks);
                if marks.as_bytes().chunks(9).any(|cell| cell == b".........") {
                    // An 81-char puzzle may leave a cell no candidate (it cannot be solved); its
                    // pencil marks say so, and the 729-char parser refuses that cell by name.
                    assert!(again.is_err());
                } else {
                    assert_eq!(
                        again.expect("its own pencil marks parse").to_sukaku(),
                        marks
                    );
                }
                let line = parse_puzzle(&grid.to_line()).expect("its own line parses");
                assert_eq!(line.values(), grid.values());
            }
        },
    );
}

/// Collection files (`puzzle`, `puzzle rating`, `id puzzle rating` lines): every line the
/// splitter yields is one of the file's lines, and parsing it never panics.
#[test]
fn collection_files() {
    let corpus = vec![
        format!("{PUZZLE}\n{PUZZLE} 2.3\n# c\n\nid7 {PUZZLE} 9.1\n").into_bytes(),
        format!("{PUZZLE}\r\n{PUZZLE}").into_bytes(),
    ];
    fuzz(
        "collection_files",
        corpus,
        &text_tokens(),
        Duration::from_secs(2),
        |bytes| {
            let text = String::from_utf8_lossy(bytes);
            let lines = text.lines().count();
            for (line, puzzle) in collection_puzzles(&text) {
                assert!(line >= 1 && line <= lines);
                let _ = parse_puzzle(puzzle);
            }
        },
    );
}

/// Label files: 9 rows of 9 values 0–10.
#[test]
fn label_files() {
    let row = "0 3 0 0 10 0 9 0 1\n";
    let corpus = vec![
        row.repeat(9).into_bytes(),
        row.replace(' ', "\t").repeat(9).into_bytes(),
    ];
    fuzz(
        "label_files",
        corpus,
        &text_tokens(),
        Duration::from_secs(1),
        |bytes| {
            let text = String::from_utf8_lossy(bytes);
            if let Ok(labels) = parse_labels(&text) {
                assert!(labels.iter().all(|&v| v <= 10));
            }
        },
    );
}

/// `corners.csv` and photo-name lists.
#[test]
fn corners_and_name_lists() {
    let csv = "name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\na,1,2,3,4,5,6,7,8\nb.jpg,10.5,2,30,4e1,5,6,7,8\n";
    let corpus = vec![
        csv.as_bytes().to_vec(),
        b"# held back\nimage1.jpg\nimage2 # x\n".to_vec(),
    ];
    let path = Path::new("corners.csv");
    fuzz(
        "corners_and_name_lists",
        corpus,
        &text_tokens(),
        Duration::from_secs(1),
        |bytes| {
            let text = String::from_utf8_lossy(bytes);
            if let Ok(rows) = parse_corners(&text, path) {
                for (_, corners) in rows.values() {
                    assert!(corners.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
                }
            }
            let list = NameList::parse(&text, Path::new("list.txt"));
            assert!(
                list.names
                    .iter()
                    .all(|(line, name)| *line >= 1 && !name.is_empty())
            );
        },
    );
}

/// A small Sudoku picture encoded in every format the loader reads.
fn image_corpus() -> Vec<Vec<u8>> {
    let mut img = image::GrayImage::from_pixel(150, 120, image::Luma([210]));
    for i in 0..=9u32 {
        let t = if i % 3 == 0 { 2 } else { 1 };
        for a in 0..=90u32 {
            for d in 0..t {
                img.put_pixel(30 + i * 10 + d, 15 + a, image::Luma([30]));
                img.put_pixel(30 + a, 15 + i * 10 + d, image::Luma([30]));
            }
        }
    }
    let rgb = image::DynamicImage::ImageLuma8(img.clone()).to_rgb8();
    let mut out = Vec::new();
    for format in [
        image::ImageFormat::Jpeg,
        image::ImageFormat::Png,
        image::ImageFormat::Bmp,
        image::ImageFormat::Gif,
        image::ImageFormat::Tiff,
        image::ImageFormat::WebP,
        image::ImageFormat::Pnm,
    ] {
        let mut bytes = std::io::Cursor::new(Vec::new());
        let rgb_only = [
            image::ImageFormat::Jpeg,
            image::ImageFormat::WebP,
            image::ImageFormat::Gif,
        ];
        let written = if rgb_only.contains(&format) {
            rgb.write_to(&mut bytes, format)
        } else {
            img.write_to(&mut bytes, format)
        };
        written.unwrap_or_else(|e| panic!("{format:?}: {e}"));
        out.push(bytes.into_inner());
    }
    out
}

/// Image bytes through loading and detection: an error (damaged, unsupported, no grid) or a
/// grid, never a panic, and a damaged JPEG is never decoded.
#[test]
fn image_loading_and_detection() {
    let tokens: Vec<&[u8]> = vec![
        &[0xFF, 0xD9],
        &[0xFF, 0xD8],
        &[0xFF, 0xDA, 0x00, 0x08],
        &[0xFF, 0x00],
        &[0xFF, 0xD0],
        &[0x00; 16],
        &[0xFF; 16],
        b"IDAT",
        b"IEND",
        &[0x7F, 0xFF, 0xFF, 0xFF],
    ];
    fuzz(
        "image_loading_and_detection",
        image_corpus(),
        &tokens,
        Duration::from_secs(10),
        |bytes| {
            let loaded = load_image_from_memory(bytes, "fuzz");
            if is_jpeg(bytes) && check_jpeg(bytes).is_err() {
                assert!(loaded.is_err(), "a damaged JPEG was decoded");
            }
            if let Ok(image) = loaded {
                let _ = detect_gray(&to_gray(&image));
            }
        },
    );
}
