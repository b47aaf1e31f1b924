//! Simulated webcam clips of real photos, written in the clip layout of [`crate::clip`]
//! (`frame_NNNN.jpg` + `truth.json`), so that a live pipeline can be scored on camera-like
//! input with exact corner truth: `single` (a puzzle enters, decelerates, is held with hand
//! tremor while the autofocus settles, and in about half the clips a finger briefly covers
//! part of it), `swap` (one puzzle leaves and another arrives) and `nopuzzle` (a printed
//! page with no Sudoku, often with a crossword, a table or a bordered grid).
//!
//! Owns choosing what clip `k` of a seed shows (kind, photos, frame size, page margins,
//! where the grid rests), turning the timeline into truth (corners per frame, segments,
//! occlusions) and writing the frames in parallel. The motion lives in `timeline`, the
//! drawing in `scene` (through `optics`), rendered pages in `paper`. Clip `k` depends only
//! on the seed, `k`, the photos and the options: same inputs, same bytes.

pub(super) mod paper;
pub(super) mod scene;
mod timeline;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use image::RgbImage;

pub use paper::HardNegative;
pub use timeline::FPS;

use self::scene::{Page, PreparedPage, Scene, Shadow};
use self::timeline::{VisitSpec, plan};
use super::layout::OutputFormat;
use super::rng::stable_hash;
use super::webcam::target_quad;
use super::write::{WriteError, encode};
use super::{FontBank, FrameSize, Rng};
use crate::clip::{ClipError, ClipKind, ClipTruth, Segment, TRUTH_FILE, frame_name};
use crate::vision::{LoadError, Point, load_image};

/// A photo a puzzle clip can be made from.
#[derive(Clone, Debug)]
pub struct PuzzleSource {
    /// The photo's name (for reports).
    pub name: String,
    /// The image file.
    pub image_path: PathBuf,
    /// Outer grid corners (TL, TR, BR, BL) in stored pixels.
    pub corners: [Point; 4],
    /// Cell labels, row-major.
    pub labels: [u8; 81],
}

/// Which kinds of clip to make.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KindChoice {
    /// Always this kind.
    Only(ClipKind),
    /// About 70 % single, 15 % swap, 15 % nopuzzle, drawn per clip.
    Mix,
}

/// How clips are made.
#[derive(Clone, Debug)]
pub struct ClipOptions {
    /// Frame size (per clip for `Mixed`).
    pub size: FrameSize,
    /// Frames a puzzle is held still: at least the first, at most the second (inclusive;
    /// `None` for the kind's default maximum, or the minimum when that is larger). `None`
    /// for the defaults, 40–60 (single, nopuzzle) and 30–40 per puzzle (swap).
    pub steady_frames: Option<(usize, Option<usize>)>,
    /// Worker threads drawing frames.
    pub threads: usize,
}

impl Default for ClipOptions {
    fn default() -> Self {
        ClipOptions {
            size: FrameSize::Mixed,
            steady_frames: None,
            threads: 1,
        }
    }
}

/// What one written clip holds.
#[derive(Clone, Debug)]
pub struct ClipReport {
    /// The clip's folder.
    pub dir: PathBuf,
    /// Its kind.
    pub kind: ClipKind,
    /// Number of frames.
    pub frames: usize,
    /// Frame size.
    pub size: (u32, u32),
    /// The photos shown (empty for nopuzzle).
    pub photos: Vec<String>,
    /// The hard negative on a nopuzzle page.
    pub hard_negative: Option<HardNegative>,
    /// Bytes of frames written.
    pub bytes: u64,
}

/// Why a clip could not be made. Every variant that concerns a file names it.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// No photo with corners and labels was given.
    #[error("no puzzle photos (with a corners row and labels) to make clips from")]
    NoPuzzles,
    /// A swap needs two photos with different labels.
    #[error("a swap clip needs two photos with different labels; all usable photos show `{0}`'s")]
    NoSecondPuzzle(String),
    /// A nopuzzle page needs fonts with Latin letters.
    #[error("a nopuzzle clip needs fonts with Latin letters (none given or none usable)")]
    NoFonts,
    /// A photo could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A photo's corners are degenerate.
    #[error("the grid corners of `{0}` are degenerate")]
    Degenerate(String),
    /// A file or folder could not be written, or a frame not encoded.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The truth file could not be written.
    #[error(transparent)]
    Truth(#[from] ClipError),
}

/// The seed of clip `k` of a run seeded with `seed`.
pub fn clip_seed(seed: u64, k: usize) -> u64 {
    let mut bytes = b"sudoku-lens clip".to_vec();
    bytes.extend_from_slice(&seed.to_le_bytes());
    bytes.extend_from_slice(&(k as u64).to_le_bytes());
    stable_hash(&bytes)
}

/// The folder name of clip `k` (`clip_0003_swap`).
pub fn clip_dir_name(k: usize, kind: ClipKind) -> String {
    format!("clip_{k:04}_{}", kind.name())
}

/// Pixels kept between the resting grid and the frame edge (room for tremor and jolts).
const REST_MARGIN_PX: f32 = 12.0;

/// Makes clip `k` of `seed` under `out` (in `out/clip_KKKK_KIND/`, replacing frames left there
/// by an earlier run) from `puzzles` (and, for nopuzzle pages, `fonts`).
pub fn write_clip(
    out: &Path,
    seed: u64,
    k: usize,
    kinds: KindChoice,
    puzzles: &[PuzzleSource],
    fonts: Option<&FontBank>,
    options: &ClipOptions,
) -> Result<ClipReport, SimError> {
    let mut rng = Rng::new(clip_seed(seed, k));
    let kind = match kinds {
        KindChoice::Only(kind) => kind,
        KindChoice::Mix => match rng.unit() {
            u if u < 0.70 => ClipKind::Single,
            u if u < 0.85 => ClipKind::Swap,
            _ => ClipKind::Nopuzzle,
        },
    };
    let size = options.size.pick(&mut rng);
    let frame = (size.0 as f32, size.1 as f32);

    // The pages, in the order they are shown.
    let mut pages = Vec::new();
    let mut photos = Vec::new();
    let mut hard_negative = None;
    if kind == ClipKind::Nopuzzle {
        let (page, negative) = paper::render_page(&mut rng, fonts.ok_or(SimError::NoFonts)?)
            .ok_or(SimError::NoFonts)?;
        pages.push((page, None));
        hard_negative = Some(negative);
    } else {
        if puzzles.is_empty() {
            return Err(SimError::NoPuzzles);
        }
        let first = &puzzles[rng.below(puzzles.len())];
        let mut chosen = vec![first];
        if kind == ClipKind::Swap {
            let others: Vec<&PuzzleSource> = puzzles
                .iter()
                .filter(|p| p.labels != first.labels)
                .collect();
            let second = rng
                .choose(&others)
                .ok_or_else(|| SimError::NoSecondPuzzle(first.name.clone()))?;
            chosen.push(second);
        }
        for source in chosen {
            let image = load_image(&source.image_path)?.to_rgb8();
            let margins = [(); 4].map(|_| rng.range(0.06, 0.6));
            pages.push((
                Page {
                    image,
                    grid: source.corners,
                    margins,
                },
                Some(source.labels),
            ));
            photos.push(source.name.clone());
        }
    }

    let default = match kind {
        ClipKind::Swap => (30, 40),
        _ => (40, 60),
    };
    let (lo, hi) = match options.steady_frames {
        None => default,
        Some((lo, Some(hi))) => (lo, hi),
        Some((lo, None)) => (lo, default.1.max(lo)),
    };
    let mut specs = Vec::new();
    for (i, (page, _)) in pages.iter().enumerate() {
        let name = photos
            .get(i)
            .cloned()
            .unwrap_or_else(|| "rendered page".into());
        let rest = target_quad(page.grid, &mut rng, frame, REST_MARGIN_PX)
            .ok_or_else(|| SimError::Degenerate(name.clone()))?;
        let page_box = page
            .box_in_frame(rest)
            .ok_or_else(|| SimError::Degenerate(name.clone()))?;
        let leaves = kind == ClipKind::Swap && i + 1 < pages.len();
        specs.push(VisitSpec {
            page: i,
            rest,
            page_box,
            steady_frames: rng.between(lo.max(1), hi.max(lo).max(1)),
            leaves,
            gap_after: if leaves { rng.between(0, 6) } else { 0 },
        });
    }
    let finger = kind == ClipKind::Single && rng.chance(0.5);
    let timeline = plan(&mut rng, size, &specs, finger);

    let frame_px = (size.0 as usize, size.1 as usize);
    let desk = scene::desk(&mut rng, frame_px);
    let shadow = Shadow {
        offset: Point::new(rng.range(-4.0, 4.0), rng.range(1.0, 6.0)),
        soft_px: rng.range(4.0, 14.0),
        strength: rng.range(0.15, 0.35),
    };
    let quality = rng.between(60, 80) as u8;
    let noise_seed = rng.next_u64();
    let mut prepared = Vec::new();
    for v in &timeline.visits {
        let name = photos
            .get(v.page)
            .cloned()
            .unwrap_or_else(|| "rendered page".into());
        prepared
            .push(PreparedPage::new(&pages[v.page].0, v.rest).ok_or(SimError::Degenerate(name))?);
    }
    let scene = Scene {
        size: frame_px,
        desk,
        pages: prepared,
        shadow,
    };
    let labels: Vec<Option<[u8; 81]>> = pages.iter().map(|(_, l)| *l).collect();
    let truth = truth_of(kind, &timeline, &labels, size);

    let dir = out.join(clip_dir_name(k, kind));
    prepare_dir(&dir)?;
    let next = AtomicUsize::new(0);
    let bytes = AtomicUsize::new(0);
    let failure: Mutex<Option<SimError>> = Mutex::new(None);
    let n = timeline.frames.len();
    std::thread::scope(|s| {
        for _ in 0..options.threads.clamp(1, 64) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    let mut noise = Rng::for_item(noise_seed, i as u64);
                    let image = scene.render(&timeline, i, &mut noise);
                    match write_frame(&dir.join(frame_name(i)), &image, quality) {
                        Ok(b) => {
                            bytes.fetch_add(b, Ordering::Relaxed);
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    truth.write(&dir.join(TRUTH_FILE))?;
    Ok(ClipReport {
        dir,
        kind,
        frames: n,
        size,
        photos,
        hard_negative,
        bytes: bytes.into_inner() as u64,
    })
}

/// Creates `dir` and removes frames and truth an earlier run left in it.
fn prepare_dir(dir: &Path) -> Result<(), SimError> {
    let io = |source| WriteError::Io {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if name.is_some_and(|n| n == TRUTH_FILE || (n.starts_with("frame_") && n.ends_with(".jpg")))
        {
            std::fs::remove_file(&path).map_err(|source| WriteError::Io { path, source })?;
        }
    }
    Ok(())
}

fn write_frame(path: &Path, image: &RgbImage, quality: u8) -> Result<usize, SimError> {
    let bytes =
        encode(image, OutputFormat::Jpeg(quality)).map_err(|source| WriteError::Encode {
            path: path.to_path_buf(),
            source,
        })?;
    std::fs::write(path, &bytes).map_err(|source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(bytes.len())
}

/// The truth of a planned clip: corners when the whole grid is in the frame, segments of a
/// swap from the frames where any of each grid shows.
fn truth_of(
    kind: ClipKind,
    timeline: &timeline::Timeline,
    labels: &[Option<[u8; 81]>],
    (w, h): (u32, u32),
) -> ClipTruth {
    let (fw, fh) = (w as f32 - 1.0, h as f32 - 1.0);
    let n = timeline.frames.len();
    let quad_at = |k: usize| {
        timeline.frames[k].visit.and_then(|(vi, pose)| {
            let v = &timeline.visits[vi];
            labels[v.page].map(|_| (vi, pose.quad(v.rest)))
        })
    };
    let corners_per_frame = (0..n)
        .map(|k| {
            quad_at(k).and_then(|(_, q)| {
                q.iter()
                    .all(|p| (0.0..=fw).contains(&p.x) && (0.0..=fh).contains(&p.y))
                    .then_some(q)
            })
        })
        .collect();
    let segments = (kind == ClipKind::Swap).then(|| {
        let count = timeline.visits.len();
        timeline
            .visits
            .iter()
            .enumerate()
            .filter_map(|(vi, v)| {
                let seen: Vec<usize> = (v.first_frame..v.first_frame + v.poses.len())
                    .filter(|&k| {
                        quad_at(k).is_some_and(|(i, q)| i == vi && visible_area(q, fw, fh) > 0.0)
                    })
                    .collect();
                let from = if vi == 0 { 0 } else { *seen.first()? };
                let to = if vi + 1 == count {
                    n - 1
                } else {
                    seen.last().copied().unwrap_or(from)
                };
                Some(Segment {
                    from_frame: from,
                    to_frame: to,
                    labels: labels[v.page]?,
                    steady_from_frame: Some(v.steady_from),
                })
            })
            .collect()
    });
    ClipTruth {
        kind,
        fps: f64::from(FPS),
        num_frames: n,
        labels: if kind == ClipKind::Single {
            labels.first().copied().flatten()
        } else {
            None
        },
        segments,
        steady_from_frame: timeline.visits.first().map_or(0, |v| v.steady_from),
        corners_per_frame,
        occluded_frames: timeline.occluded.clone(),
    }
}

/// Area of the part of the convex quad `q` inside `[0, fw] × [0, fh]`
/// (Sutherland–Hodgman clipping, then the shoelace formula).
fn visible_area(q: [Point; 4], fw: f32, fh: f32) -> f32 {
    let mut poly: Vec<Point> = q.to_vec();
    let planes: [(Point, f32); 4] = [
        (Point::new(1.0, 0.0), 0.0),
        (Point::new(-1.0, 0.0), fw),
        (Point::new(0.0, 1.0), 0.0),
        (Point::new(0.0, -1.0), fh),
    ];
    for (n, c) in planes {
        let inside = |p: Point| n.x * p.x + n.y * p.y + c;
        let mut next = Vec::new();
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            let (da, db) = (inside(a), inside(b));
            if da >= 0.0 {
                next.push(a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                next.push(a.lerp(b, da / (da - db)));
            }
        }
        poly = next;
        if poly.is_empty() {
            return 0.0;
        }
    }
    let twice: f32 = (0..poly.len())
        .map(|i| poly[i].cross(poly[(i + 1) % poly.len()]))
        .sum();
    twice.abs() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_seeds_depend_on_seed_and_index_only() {
        assert_eq!(clip_seed(5, 3), clip_seed(5, 3));
        assert_ne!(clip_seed(5, 3), clip_seed(5, 4));
        assert_ne!(clip_seed(5, 3), clip_seed(6, 3));
        assert_eq!(clip_dir_name(7, ClipKind::Swap), "clip_0007_swap");
    }

    #[test]
    fn visible_area_clips_to_the_frame() {
        let sq = |x: f32, y: f32| {
            [
                Point::new(x, y),
                Point::new(x + 10.0, y),
                Point::new(x + 10.0, y + 10.0),
                Point::new(x, y + 10.0),
            ]
        };
        assert!((visible_area(sq(5.0, 5.0), 100.0, 100.0) - 100.0).abs() < 1e-3);
        assert!((visible_area(sq(-5.0, 5.0), 100.0, 100.0) - 50.0).abs() < 1e-3);
        assert_eq!(visible_area(sq(-20.0, 5.0), 100.0, 100.0), 0.0);
    }
}
