//! Grid detection: photo → located 9×9 grid with a refined 10×10 lattice of line intersections.
//!
//! Pipeline (all at a working scale of about [`DetectOptions::work_long_side_px`]):
//! grayscale → area downscale → adaptive threshold (ink = foreground) → contours → candidate
//! outlines, tried in turn until one validates:
//! 1. the largest ink outlines, each reduced to the largest quadrilateral inscribed in its
//!    convex hull (raw contour points, never polygon-simplified);
//! 2. when an outline fails (it merged with a shadow or other print at a corner), quads rebuilt
//!    from the sides traced near each corner (`outline`);
//! 3. when every outline fails, the lattice of the cell holes (`cells`);
//! 4. last, Hough lines grouped into two perpendicular families of ten evenly spaced lines
//!    (whose lattice must also end at its border, or it may be a block of a larger grid);
//! 5. once a grid is found, the cell holes of a much larger outline that gave none (a puzzle
//!    merged with a fold or shadow, beside a small printed solution): the larger grid wins.
//!
//! The design put Hough lines first. Contours come first here because they cost a few
//! milliseconds where a Hough transform costs tens (its edge or line voting alone), and they
//! found every grid of the shared photo sets. Hough lines remain for grids whose lines do not
//! join up into one outline or closed cells.
//!
//! Each candidate's lattice (from its homography) is refined point by point onto the two grid
//! lines through each intersection, so bent paper and lens distortion are followed rather than
//! one homography; strays are put back by smoothness fits (`smooth`) and a second round locks
//! them on. Validation (ink on every lattice edge, little on the half-way lines, even spacing)
//! rejects 8×8, 10×10, crossword and other non-Sudoku grids; when too many edges lack ink but
//! nothing else is wrong, the gray levels along every lattice line decide (`faint`: thin lines
//! printed too light for the threshold). The chosen grid, when some line search failed, is
//! refined once more letting gray-level valleys stand in for lines the mask lost, and that
//! lattice is kept when it still validates. It does not read digits or track across frames.

use std::borrow::Cow;

use image::{DynamicImage, GrayImage, Luma};

use super::geometry::{Line, polygon_area};
use super::{GridDetection, Lattice, NoGrid, Point, cells, faint, outline, smooth};

/// Tuning knobs of [`detect_with`]. `Default` is what [`detect`] uses.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectOptions {
    /// Long side of the working image in pixels; larger photos are area-downscaled to it.
    pub work_long_side_px: u32,
    /// How many of the largest ink outlines are tried as grid candidates.
    pub max_candidates: usize,
    /// Smallest grid side at working scale, in pixels (smaller outlines are ignored).
    pub min_grid_side_px: f32,
}

impl Default for DetectOptions {
    fn default() -> Self {
        Self {
            work_long_side_px: 640,
            max_candidates: 6,
            min_grid_side_px: 90.0,
        }
    }
}

/// Intermediate products of one detection, for debugging drawings (`scan --debug`).
/// All geometry is in working-image pixels; `work_to_image` maps it back.
#[derive(Clone, Debug, Default)]
pub struct DetectTrace {
    /// The downscaled grayscale working image.
    pub work: GrayImage,
    /// The thresholded ink mask (255 = ink).
    pub ink_mask: GrayImage,
    /// Candidate outline quads tried, with their refined lattice and validation score
    /// (0 when rejected).
    pub candidates: Vec<([Point; 4], Lattice, f32)>,
    /// The lattice predicted from the chosen outline before refinement.
    pub initial_lattice: Option<Lattice>,
    /// Working → image scale factor (image = (work + 0.5) · factor − 0.5).
    pub work_to_image: f32,
    /// The Hough lines of the ink mask (two endpoints each, working pixels). Recorded for
    /// debugging even when the Hough fallback did not run.
    pub hough_lines: Vec<(Point, Point)>,
    /// Whether the Hough fallback ran (every other candidate had failed).
    pub hough_ran: bool,
}

/// Finds the Sudoku grid in a photo of any pixel type (converted to 8-bit gray).
pub fn detect(image: &DynamicImage) -> Result<GridDetection, NoGrid> {
    let gray: Cow<'_, GrayImage> = match image {
        DynamicImage::ImageLuma8(g) => Cow::Borrowed(g),
        other => Cow::Owned(super::load::to_gray(other)),
    };
    detect_gray(&gray)
}

/// Finds the Sudoku grid in an 8-bit grayscale image with default options.
pub fn detect_gray(image: &GrayImage) -> Result<GridDetection, NoGrid> {
    detect_with(image, &DetectOptions::default(), None)
}

/// Finds the Sudoku grid with explicit options, optionally recording intermediate stages.
pub fn detect_with(
    image: &GrayImage,
    options: &DetectOptions,
    mut trace: Option<&mut DetectTrace>,
) -> Result<GridDetection, NoGrid> {
    let (width, height) = image.dimensions();
    if width.min(height) < 32 {
        return Err(NoGrid::TooSmall { width, height });
    }
    let long = width.max(height);
    let target = options.work_long_side_px.max(64);
    let (work, factor) = if long > target {
        let scale = target as f32 / long as f32;
        let small = area_downscale(image, scale);
        let f = width as f32 / small.width() as f32;
        (Cow::Owned(small), f)
    } else {
        (Cow::Borrowed(image), 1.0)
    };
    let radius = (work.width().max(work.height()) / 40).clamp(4, 24);
    let mask = ink_mask(&work, radius, 8);
    if let Some(t) = trace.as_deref_mut() {
        t.work = work.clone().into_owned();
        t.ink_mask = mask.clone();
        t.work_to_image = factor;
    }

    let contours = imageproc::contours::find_contours::<i32>(&mask);
    let outlines = candidate_outlines(&contours, options);
    let mut tried_holes = false;
    let mut tried_hough = false;
    let mut tried_larger = false;
    let mut best: Option<Chosen> = None;
    let mut last_reason = String::from("no candidate outline");
    let mut tried = 0usize;
    // Thin lines printed too light for the ink mask: when they were a lattice's only fault,
    // the gray levels along every lattice line decide.
    let judge = |lattice: &Lattice, hough: bool| -> Result<f32, String> {
        validate(&mask, lattice, hough).or_else(|rejection| match rejection.faint_score {
            Some(score) if faint::lines_present(&work, lattice) => Ok(score),
            _ => Err(rejection.reason),
        })
    };
    let mut queue: Vec<([Point; 4], Source)> = outlines
        .iter()
        .rev()
        .filter_map(|o| Some((o.quad?, Source::Outline(o.contour))))
        .collect();
    loop {
        let Some((quad, source)) = queue.pop() else {
            // No outline gave a grid (each merged with other ink beyond repair): the cells
            // inside the grid are still holes of one size on a lattice.
            if best.is_none() && !tried_holes {
                tried_holes = true;
                let long = mask.width().max(mask.height()) as f32;
                let quads = cells::quads_from_holes(&contours, options.min_grid_side_px, long);
                queue.extend(
                    quads
                        .into_iter()
                        .rev()
                        .map(|q| (order_corners(q), Source::Rebuilt)),
                );
                if !queue.is_empty() {
                    continue;
                }
            }
            // Contours gave nothing usable (broken outer border, grid merged with other
            // print): fall back to a Hough-line lattice fit once.
            if best.is_none() && !tried_hough {
                tried_hough = true;
                let (quads, lines) = hough_quad(&mask, options);
                if let Some(t) = trace.as_deref_mut() {
                    t.hough_lines = lines;
                    t.hough_ran = true;
                }
                if !quads.is_empty() {
                    queue.extend(quads.into_iter().rev().map(|q| (q, Source::Hough)));
                    continue;
                }
            }
            // A small grid was found beside a much larger outline that gave none: a puzzle
            // merged with a fold or a shadow, next to yesterday's printed solution. The
            // puzzle is the larger grid; its cells are holes of that outline.
            if !tried_larger && let Some(found) = &best {
                tried_larger = true;
                let found_area = polygon_area(&found.lattice.corners());
                let long = mask.width().max(mask.height()) as f32;
                for o in outlines
                    .iter()
                    .filter(|o| o.bbox_area > 3.0 * found_area)
                    .take(2)
                {
                    let holes = contours.iter().filter(|c| c.parent == Some(o.contour));
                    let quads = cells::quads_from_holes(holes, options.min_grid_side_px, long);
                    queue.extend(
                        quads
                            .into_iter()
                            .rev()
                            .map(|q| (order_corners(q), Source::Larger(2.0 * found_area))),
                    );
                }
                if !queue.is_empty() {
                    continue;
                }
            }
            break;
        };
        // Rebuilt or Hough quads can reach far outside the photo; a grid mostly outside it
        // cannot be read, and its huge cells would make refinement slow.
        let (w, h) = (mask.width() as f32, mask.height() as f32);
        if quad
            .iter()
            .any(|p| p.x < -0.25 * w || p.y < -0.25 * h || p.x > 1.25 * w || p.y > 1.25 * h)
        {
            continue;
        }
        tried += 1;
        let initial = Lattice::from_corners(quad);
        let (refined, missed) = refine_lattice_counted(&mask, None, &initial);
        let hough = matches!(source, Source::Hough);
        let verdict = judge(&refined, hough);
        let chosen = |score| Chosen {
            lattice: refined,
            score,
            initial,
            hough,
            missed,
        };
        if let Some(t) = trace.as_deref_mut() {
            t.candidates
                .push((quad, refined, verdict.as_ref().copied().unwrap_or(0.0)));
        }
        match (verdict, source) {
            (Ok(score), Source::Larger(min_area)) => {
                if polygon_area(&refined.corners()) >= min_area {
                    if let Some(t) = trace.as_deref_mut() {
                        t.initial_lattice = Some(initial);
                    }
                    best = Some(chosen(score));
                    break;
                }
            }
            (Ok(score), _) => {
                if best.as_ref().is_none_or(|b| score > b.score) {
                    if let Some(t) = trace.as_deref_mut() {
                        t.initial_lattice = Some(initial);
                    }
                    best = Some(chosen(score));
                }
                if score > 0.85 {
                    // Good enough: only a much larger grid could still replace it.
                    queue.clear();
                }
            }
            (Err(reason), source) => {
                last_reason = reason;
                // The outline may have merged with other ink at a corner: try the quads
                // rebuilt from the sides traced near each corner, before the next outline.
                if best.is_none()
                    && let Source::Outline(k) = source
                {
                    let contour = contour_points(&contours[k]);
                    for q in outline::traced_quads(quad, &contour).into_iter().rev() {
                        queue.push((order_corners(q), Source::Rebuilt));
                    }
                }
            }
        }
    }
    if let Some(t) = trace
        && !tried_hough
    {
        // Only for the debug drawing: the lines the fallback would have seen.
        t.hough_lines = hough_quad(&mask, options).1;
    }
    let Some(Chosen {
        lattice: lattice_in_work,
        score,
        initial,
        hough,
        missed,
    }) = best
    else {
        if tried == 0 {
            return Err(NoGrid::NoOutline);
        }
        return Err(NoGrid::NoLattice(last_reason));
    };
    // A line the ink mask lost (in a shadow, the box mean is dark too) can still be a dark
    // valley in the gray levels. Searching for those costs more than the mask, so only the
    // chosen grid is refined again with them, and the result is kept when it still holds.
    let (lattice_in_work, score) = match missed {
        false => (lattice_in_work, score),
        true => {
            let regray = refine_lattice(&mask, Some(&work), &initial);
            match judge(&regray, hough) {
                Ok(s) => (regray, s),
                Err(_) => (lattice_in_work, score),
            }
        }
    };
    let to_image = |p: Point| Point::new((p.x + 0.5) * factor - 0.5, (p.y + 0.5) * factor - 0.5);
    let lattice = lattice_in_work.map(to_image);
    // Corners at the border line's centre, like the lattice: kubiesa's ground truth uses
    // that convention (wichtounet's sits ~1 % further out).
    Ok(GridDetection {
        corners_in_image: lattice.corners(),
        lattice_in_image: lattice.points_in_image,
        score,
    })
}

/// Area-averaging downscale by `scale` (< 1) in one pass over the source pixels.
pub(crate) fn area_downscale(image: &GrayImage, scale: f32) -> GrayImage {
    let (w, h) = image.dimensions();
    let nw = ((w as f32 * scale).round() as u32).clamp(1, w);
    let nh = ((h as f32 * scale).round() as u32).clamp(1, h);
    let x_edges: Vec<u32> = (0..=nw)
        .map(|x| (x as u64 * w as u64 / nw as u64) as u32)
        .collect();
    let y_edges: Vec<u32> = (0..=nh)
        .map(|y| (y as u64 * h as u64 / nh as u64) as u32)
        .collect();
    let src = image.as_raw();
    let mut out = Vec::with_capacity((nw * nh) as usize);
    let mut acc = vec![0u32; nw as usize];
    for oy in 0..nh as usize {
        acc.iter_mut().for_each(|a| *a = 0);
        let (y0, y1) = (y_edges[oy], y_edges[oy + 1].max(y_edges[oy] + 1).min(h));
        for y in y0..y1 {
            let row = &src[(y * w) as usize..((y + 1) * w) as usize];
            for ox in 0..nw as usize {
                let (x0, x1) = (x_edges[ox] as usize, x_edges[ox + 1] as usize);
                acc[ox] += row[x0..x1.max(x0 + 1).min(w as usize)]
                    .iter()
                    .map(|&v| v as u32)
                    .sum::<u32>();
            }
        }
        for ox in 0..nw as usize {
            let bw = (x_edges[ox + 1] - x_edges[ox]).max(1);
            let bh = y1 - y0;
            out.push((acc[ox] / (bw * bh).max(1)) as u8);
        }
    }
    GrayImage::from_raw(nw, nh, out).unwrap_or_else(|| GrayImage::new(1, 1))
}

/// Adaptive threshold: a pixel is ink (255) when it is darker than the mean of the
/// `(2·radius+1)²` box around it by more than `delta` levels.
pub(crate) fn ink_mask(image: &GrayImage, radius: u32, delta: u32) -> GrayImage {
    let (w, h) = image.dimensions();
    let (wu, hu) = (w as usize, h as usize);
    let stride = wu + 1;
    let mut integral = vec![0u32; stride * (hu + 1)];
    let src = image.as_raw();
    for y in 0..hu {
        let mut row_sum = 0u32;
        for x in 0..wu {
            row_sum = row_sum.wrapping_add(src[y * wu + x] as u32);
            // Wrapping: only differences of box corners are used, and a box sum fits in u32.
            integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1].wrapping_add(row_sum);
        }
    }
    let r = radius as usize;
    let mut out = vec![0u8; wu * hu];
    for y in 0..hu {
        let y0 = y.saturating_sub(r);
        let y1 = (y + r + 1).min(hu);
        for x in 0..wu {
            let x0 = x.saturating_sub(r);
            let x1 = (x + r + 1).min(wu);
            let area = ((y1 - y0) * (x1 - x0)) as u32;
            let sum = integral[y1 * stride + x1]
                .wrapping_add(integral[y0 * stride + x0])
                .wrapping_sub(integral[y0 * stride + x1])
                .wrapping_sub(integral[y1 * stride + x0]);
            let v = src[y * wu + x] as u32;
            if (v + delta) * area < sum {
                out[y * wu + x] = 255;
            }
        }
    }
    GrayImage::from_raw(w, h, out).unwrap_or_else(|| GrayImage::new(w, h))
}

/// The best candidate so far.
struct Chosen {
    /// Its refined lattice, working pixels.
    lattice: Lattice,
    /// Its validation score.
    score: f32,
    /// The lattice it was refined from (its quad's homography).
    initial: Lattice,
    /// Whether it came from Hough lines (validated with the border check).
    hough: bool,
    /// Whether some line search failed while refining it (gray levels may add something).
    missed: bool,
}

/// Where a candidate quad came from.
#[derive(Clone, Copy)]
enum Source {
    /// The hull of outline contour `k`; its traced sides can rebuild it.
    Outline(usize),
    /// Rebuilt from traced sides or cell holes.
    Rebuilt,
    /// Two outer lines of each Hough family.
    Hough,
    /// Cell holes of a large outline, searched after a grid was found: replaces that grid
    /// when valid and at least this large (working pixels²).
    Larger(f32),
}

/// One of the largest ink outlines (an outer contour of the ink mask).
struct Outline {
    /// Index of its contour.
    contour: usize,
    /// Area of its bounding box, working pixels².
    bbox_area: f32,
    /// The largest quadrilateral inscribed in its convex hull, TL first, when that quad is
    /// grid-shaped (nearly the whole hull, sides not too unequal).
    quad: Option<[Point; 4]>,
}

/// The `options.max_candidates` largest ink outlines at least a grid's minimum side across,
/// largest first.
fn candidate_outlines(
    contours: &[imageproc::contours::Contour<i32>],
    options: &DetectOptions,
) -> Vec<Outline> {
    let mut outlines: Vec<(f32, usize)> = Vec::new();
    for (k, c) in contours.iter().enumerate() {
        if c.border_type != imageproc::contours::BorderType::Outer || c.points.len() < 40 {
            continue;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for p in &c.points {
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
        }
        let (bw, bh) = ((x1 - x0) as f32, (y1 - y0) as f32);
        // A grid rotated by 45° has a bounding box √2 its side.
        if bw.max(bh) < options.min_grid_side_px {
            continue;
        }
        outlines.push((bw * bh, k));
    }
    outlines.sort_by(|a, b| b.0.total_cmp(&a.0));
    outlines
        .into_iter()
        .take(options.max_candidates)
        .map(|(bbox_area, k)| Outline {
            contour: k,
            bbox_area,
            quad: grid_shaped_quad(&contours[k].points, options),
        })
        .collect()
}

/// The largest quadrilateral inscribed in the convex hull of `points`, ordered TL, TR, BR,
/// BL, when it is grid-shaped.
fn grid_shaped_quad(
    points: &[imageproc::point::Point<i32>],
    options: &DetectOptions,
) -> Option<[Point; 4]> {
    let hull = imageproc::geometry::convex_hull(points.to_vec());
    let hull: Vec<Point> = hull
        .iter()
        .map(|p| Point::new(p.x as f32, p.y as f32))
        .collect();
    let quad = max_area_quad(&hull)?;
    // A grid outline is nearly its own hull's quad; blobs of text or photos are not.
    if polygon_area(&quad) < 0.85 * polygon_area(&hull) {
        return None;
    }
    let sides: Vec<f32> = (0..4)
        .map(|i| quad[i].distance(quad[(i + 1) % 4]))
        .collect();
    let (lo, hi) = sides
        .iter()
        .fold((f32::MAX, 0.0f32), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    if lo < options.min_grid_side_px * 0.7 || lo < 0.35 * hi {
        return None;
    }
    Some(order_corners(quad))
}

fn contour_points(contour: &imageproc::contours::Contour<i32>) -> Vec<Point> {
    contour
        .points
        .iter()
        .map(|p| Point::new(p.x as f32, p.y as f32))
        .collect()
}

/// Ink pixels of `mask` on `line` (one sample per pixel along it).
fn ink_along(mask: &GrayImage, line: &Line) -> u32 {
    let d = Point::new(-line.b, line.a);
    let foot = Point::new(line.a * line.c, line.b * line.c);
    let far = (mask.width() + mask.height()) as i32;
    (-far..=far)
        .filter(|&t| ink_at(mask, foot + d.scaled(t as f32)))
        .count() as u32
}

/// Hough fallback: lines of the ink mask (at half working scale) grouped into two direction
/// families; in each, the pair of outer lines whose 9 equal divisions are best matched by
/// detected lines gives two sides of the grid. Returns one quad (TL, TR, BR, BL, working
/// pixels) per pair of roughly perpendicular direction peaks that both fit, and the detected
/// lines for debugging.
fn hough_quad(mask: &GrayImage, options: &DetectOptions) -> (Vec<[Point; 4]>, Vec<(Point, Point)>) {
    use imageproc::hough::{LineDetectionOptions, detect_lines};
    // Half-scale OR-downsample: keeps thin lines, quarters the voting cost.
    let (w, h) = mask.dimensions();
    let (hw, hh) = (w / 2, h / 2);
    if hw < 16 || hh < 16 {
        return (Vec::new(), Vec::new());
    }
    let src = mask.as_raw();
    let mut half = GrayImage::new(hw, hh);
    for y in 0..hh {
        for x in 0..hw {
            let i = (2 * y * w + 2 * x) as usize;
            let any = src[i] | src[i + 1] | src[i + w as usize] | src[i + w as usize + 1];
            half.put_pixel(x, y, Luma([any]));
        }
    }
    let min_side = options.min_grid_side_px / 2.0;
    let detected = detect_lines(
        &half,
        LineDetectionOptions {
            vote_threshold: (min_side * 0.8) as u32,
            suppression_radius: 2,
        },
    );
    let centre = Point::new(hw as f32 / 2.0, hh as f32 / 2.0);
    let as_line = |l: &imageproc::hough::PolarLine| {
        let th = (l.angle_in_degrees as f32).to_radians();
        Line {
            a: th.cos(),
            b: th.sin(),
            c: l.r,
        }
    };
    // Dense print (or a grid whose lines are broken at every crossing) passes the vote
    // threshold along many slanting lines too. A grid line is among the ~20 best-supported
    // lines, so lines with less than half the ink of the 20th best are dropped, and the
    // direction histogram counts ink, not lines.
    let support: Vec<u32> = detected
        .iter()
        .map(|l| ink_along(&half, &as_line(l)))
        .collect();
    let mut ranked = support.clone();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    let floor = ranked.get(19).or(ranked.last()).copied().unwrap_or(0) / 2;
    let (lines, support): (Vec<_>, Vec<u32>) = detected
        .into_iter()
        .zip(support)
        .filter(|(_, s)| *s >= floor)
        .unzip();
    let endpoints = |l: &Line| {
        let d = Point::new(-l.b, l.a);
        let foot = Point::new(l.a * l.c, l.b * l.c);
        let far = (hw + hh) as f32;
        (
            Point::new(2.0 * (foot.x - far * d.x), 2.0 * (foot.y - far * d.y)),
            Point::new(2.0 * (foot.x + far * d.x), 2.0 * (foot.y + far * d.y)),
        )
    };
    let drawn: Vec<(Point, Point)> = lines
        .iter()
        .take(200)
        .map(|l| endpoints(&as_line(l)))
        .collect();
    // Dominant direction, then the family roughly perpendicular to it.
    let mut hist = [0u32; 180];
    for (l, s) in lines.iter().zip(&support) {
        hist[l.angle_in_degrees as usize % 180] += s;
    }
    let smooth = |a: i32| -> u32 {
        (-4..=4)
            .map(|d| hist[(a + d).rem_euclid(180) as usize])
            .sum()
    };
    // Candidate directions: the strongest peaks of the direction histogram. The grid's two
    // line families are usually the top two, but diagonals through the lattice's
    // intersections can outnumber them; every roughly perpendicular pair is tried and
    // validation decides.
    let mut peaks: Vec<i32> = (0..180)
        .filter(|&a| smooth(a) > 0 && smooth(a) >= smooth(a - 1) && smooth(a) > smooth(a + 1))
        .collect();
    peaks.sort_by_key(|&a| std::cmp::Reverse(smooth(a)));
    peaks.truncate(4);
    let family = |axis: i32| -> Vec<Line> {
        lines
            .iter()
            .filter(|l| {
                let d = (l.angle_in_degrees as i32 - axis).rem_euclid(180);
                d <= 12 || d >= 168
            })
            .map(as_line)
            .collect()
    };
    let pick = |fam: Vec<Line>, axis: i32| -> Option<(Line, Line)> {
        let th = (axis as f32).to_radians();
        let n = Point::new(th.cos(), th.sin());
        // Position of each line along the axis normal through the image centre.
        let mut pos: Vec<(f32, Line)> = fam
            .into_iter()
            .filter_map(|l| {
                let dot = n.x * l.a + n.y * l.b;
                (dot.abs() > 0.5).then(|| ((l.c - (centre.x * l.a + centre.y * l.b)) / dot, l))
            })
            .collect();
        pos.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Best pair: most of the 8 inner divisions matched by a detected line, then the
        // inner lines' directions closest to those interpolated between the two outer lines
        // (a line slanting across the lattice can sit at the right place at the centre
        // only), then the wider span.
        let mut best: Option<(usize, f32, f32, usize, usize)> = None;
        for i in 0..pos.len() {
            for j in i + 1..pos.len() {
                let span = pos[j].0 - pos[i].0;
                if span < min_side {
                    continue;
                }
                let step = span / 9.0;
                let (ni, mut nj) = (
                    Point::new(pos[i].1.a, pos[i].1.b),
                    Point::new(pos[j].1.a, pos[j].1.b),
                );
                if ni.x * nj.x + ni.y * nj.y < 0.0 {
                    nj = nj.scaled(-1.0);
                }
                let (mut matched, mut slant) = (0usize, 0.0f32);
                for k in 1..9 {
                    let want = pos[i].0 + k as f32 * step;
                    let expected = ni.lerp(nj, k as f32 / 9.0).unit();
                    let nearest = pos
                        .iter()
                        .filter(|(p, _)| (p - want).abs() < 0.2 * step)
                        .map(|(_, l)| expected.cross(Point::new(l.a, l.b)).abs())
                        .min_by(f32::total_cmp);
                    if let Some(s) = nearest {
                        matched += 1;
                        slant += s;
                    }
                }
                let slant = slant / matched.max(1) as f32;
                let better = best.is_none_or(|(m, sl, sp, _, _)| {
                    matched > m
                        || (matched == m
                            && (slant < sl - 0.01 || (slant <= sl + 0.01 && span > sp)))
                });
                if better {
                    best = Some((matched, slant, span, i, j));
                }
            }
        }
        let (matched, _, _, i, j) = best?;
        (matched >= 6).then(|| (pos[i].1, pos[j].1))
    };
    let mut quads = Vec::new();
    for (k, &a1) in peaks.iter().enumerate() {
        for &a2 in &peaks[k + 1..] {
            if !(60..=120).contains(&(a2 - a1).rem_euclid(180)) {
                continue;
            }
            let (Some((a_lo, a_hi)), Some((b_lo, b_hi))) =
                (pick(family(a1), a1), pick(family(a2), a2))
            else {
                continue;
            };
            let corners = [
                a_lo.intersect(&b_lo),
                a_lo.intersect(&b_hi),
                a_hi.intersect(&b_hi),
                a_hi.intersect(&b_lo),
            ];
            let [Some(p0), Some(p1), Some(p2), Some(p3)] = corners else {
                continue;
            };
            // Back to working scale (half-scale pixel centres: work = 2·half + 0.5).
            let quad = [p0, p1, p2, p3].map(|p| Point::new(2.0 * p.x + 0.5, 2.0 * p.y + 0.5));
            if quad.iter().all(|p| p.is_finite()) {
                quads.push(order_corners(quad));
            }
        }
    }
    (quads, drawn)
}

fn triangle_area(a: Point, b: Point, c: Point) -> f32 {
    ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)).abs() / 2.0
}

/// The largest-area quadrilateral with vertices on the convex polygon `hull` (in hull order),
/// found by coordinate ascent from the diagonal and axis extremes.
fn max_area_quad(hull: &[Point]) -> Option<[Point; 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let arg = |f: &dyn Fn(Point) -> f32| -> usize {
        (0..n)
            .max_by(|&i, &j| f(hull[i]).total_cmp(&f(hull[j])))
            .unwrap_or(0)
    };
    let starts = [
        [
            arg(&|p| -p.x - p.y),
            arg(&|p| p.x - p.y),
            arg(&|p| p.x + p.y),
            arg(&|p| -p.x + p.y),
        ],
        [arg(&|p| -p.y), arg(&|p| p.x), arg(&|p| p.y), arg(&|p| -p.x)],
    ];
    let mut best: Option<([usize; 4], f32)> = None;
    for start in starts {
        let mut idx = start;
        idx.sort_unstable();
        if idx.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        for _ in 0..8 {
            let mut changed = false;
            for k in 0..4 {
                let prev = idx[(k + 3) % 4];
                let next = idx[(k + 1) % 4];
                let (a, c) = (hull[prev], hull[next]);
                let mut best_i = idx[k];
                let mut best_a = triangle_area(a, hull[best_i], c);
                let mut i = (prev + 1) % n;
                while i != next {
                    let area = triangle_area(a, hull[i], c);
                    if area > best_a {
                        best_a = area;
                        best_i = i;
                    }
                    i = (i + 1) % n;
                }
                if best_i != idx[k] {
                    idx[k] = best_i;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let quad = idx.map(|i| hull[i]);
        let area = polygon_area(&quad);
        if best.as_ref().is_none_or(|(_, a)| area > *a) {
            best = Some((idx, area));
        }
    }
    best.map(|(idx, _)| idx.map(|i| hull[i]))
}

/// Orders four points TL, TR, BR, BL: clockwise on screen, starting from the one nearest the
/// top-left direction (so rotations up to ±45° keep the puzzle's reading order).
pub(crate) fn order_corners(quad: [Point; 4]) -> [Point; 4] {
    let cx = quad.iter().map(|p| p.x).sum::<f32>() / 4.0;
    let cy = quad.iter().map(|p| p.y).sum::<f32>() / 4.0;
    let mut q = quad;
    q.sort_by(|a, b| {
        (a.y - cy)
            .atan2(a.x - cx)
            .total_cmp(&(b.y - cy).atan2(b.x - cx))
    });
    let first = (0..4)
        .min_by(|&i, &j| (q[i].x + q[i].y).total_cmp(&(q[j].x + q[j].y)))
        .unwrap_or(0);
    [
        q[first],
        q[(first + 1) % 4],
        q[(first + 2) % 4],
        q[(first + 3) % 4],
    ]
}

/// Ink at the nearest pixel of `p` (outside the image counts as no ink).
#[inline]
fn ink_at(mask: &GrayImage, p: Point) -> bool {
    // `as` truncates towards zero, which is rounding for x + 0.5 ≥ 0; `f32::round` is a libm
    // call on baseline x86-64 and was the hottest function of detection.
    let (x, y) = (p.x + 0.5, p.y + 0.5);
    if !(x >= 0.0 && y >= 0.0) {
        return false;
    }
    let (x, y) = (x as u32, y as u32);
    if x >= mask.width() || y >= mask.height() {
        return false;
    }
    mask.as_raw()[(y * mask.width() + x) as usize] != 0
}

/// Searches for a grid line through (near) `p` running along `dir`: tries offsets
/// `t ∈ [-reach, reach]` along the normal, scoring the share of ink on the segment
/// `p + t·n + s·dir, s ∈ [s0, s1]`. Returns the offset (centre of the best plateau) and the
/// best share.
fn search_line(mask: &GrayImage, p: Point, dir: Point, s0: f32, s1: f32, reach: f32) -> (f32, f32) {
    let n = Point::new(-dir.y, dir.x);
    // Bounded whatever the lattice: a degenerate candidate must not cost seconds.
    let steps = reach.ceil().clamp(1.0, 64.0) as i32;
    let samples = ((s1 - s0).abs().ceil() as i32).clamp(2, 256);
    // The same sample offsets along the line at every normal offset: computed once.
    let along: Vec<(f32, f32)> = (0..=samples)
        .map(|i| {
            let s = s0 + (s1 - s0) * i as f32 / samples as f32;
            (s * dir.x, s * dir.y)
        })
        .collect();
    let mut scores = Vec::with_capacity((2 * steps + 1) as usize);
    for k in -steps..=steps {
        let t = k as f32;
        let base = Point::new(p.x + t * n.x, p.y + t * n.y);
        let hits = along
            .iter()
            .filter(|(dx, dy)| ink_at(mask, Point::new(base.x + dx, base.y + dy)))
            .count();
        scores.push(hits as f32 / (samples + 1) as f32);
    }
    let Some(&top) = scores.iter().max_by(|a, b| a.total_cmp(b)) else {
        return (0.0, 0.0);
    };
    // The line nearest the prediction, not the strongest ink in reach: a hatched band or a
    // parallel rule beside the border often has more ink than a thin border line.
    let strong = (0.6 * top).max(LINE_FOUND);
    let centre = steps as usize;
    let best_k = (0..scores.len())
        .filter(|&k| {
            scores[k] >= strong
                && (k == 0 || scores[k] >= scores[k - 1])
                && (k + 1 == scores.len() || scores[k] >= scores[k + 1])
        })
        .min_by_key(|&k| k.abs_diff(centre))
        .unwrap_or_else(|| {
            (0..scores.len())
                .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
                .unwrap_or(centre)
        });
    let best = scores[best_k];
    // Centre of the plateau around the peak: thick lines give their middle.
    let floor = best * 0.75;
    let (mut lo, mut hi) = (best_k, best_k);
    while lo > 0 && scores[lo - 1] >= floor {
        lo -= 1;
    }
    while hi + 1 < scores.len() && scores[hi + 1] >= floor {
        hi += 1;
    }
    let (mut wsum, mut tsum) = (0.0f32, 0.0f32);
    for (k, &s) in scores.iter().enumerate().take(hi + 1).skip(lo) {
        wsum += s;
        tsum += s * (k as f32 - steps as f32);
    }
    let offset = if wsum > 0.0 { tsum / wsum } else { 0.0 };
    (offset, best)
}

/// Share of ink needed on a search segment to accept a line there.
const LINE_FOUND: f32 = 0.45;

/// One refinement pass: moves every intersection onto the two grid lines found near it.
/// `reach_cells` bounds the move, in cell sides. Returns the new lattice and, per point,
/// whether both lines were found.
fn refine_pass(
    mask: &GrayImage,
    gray: Option<&GrayImage>,
    lattice: &Lattice,
    reach_cells: f32,
) -> (Lattice, [[bool; 10]; 10]) {
    let p = &lattice.points_in_image;
    let mut out = *lattice;
    let mut found = [[false; 10]; 10];
    for r in 0..10 {
        for c in 0..10 {
            let here = p[r][c];
            let (cl, cr) = (c.saturating_sub(1), (c + 1).min(9));
            let (ru, rd) = (r.saturating_sub(1), (r + 1).min(9));
            let along_row = Point::new(p[r][cr].x - p[r][cl].x, p[r][cr].y - p[r][cl].y);
            let along_col = Point::new(p[rd][c].x - p[ru][c].x, p[rd][c].y - p[ru][c].y);
            let cell_row = (along_row.x.hypot(along_row.y) / (cr - cl) as f32).max(1.0);
            let cell_col = (along_col.x.hypot(along_col.y) / (rd - ru) as f32).max(1.0);
            let (dr, dc) = (along_row.unit(), along_col.unit());
            // Segments reach 0.45 cell along the line, only inwards at the outer lines.
            let span = |idx: usize, len: f32| -> (f32, f32) {
                let l = 0.45 * len;
                match idx {
                    0 => (0.0, l),
                    9 => (-l, 0.0),
                    _ => (-l, l),
                }
            };
            // A line the ink mask lost (in a shadow's edge, the box mean is dark too) can
            // still be a dark valley in the gray levels.
            let search = |dir: Point, (s0, s1): (f32, f32), reach: f32| {
                let (off, score) = search_line(mask, here, dir, s0, s1, reach);
                match gray.filter(|_| score < LINE_FOUND) {
                    Some(g) => faint::valley(g, here, dir, s0, s1, reach)
                        .map_or((off, score), |o| (o, LINE_FOUND)),
                    None => (off, score),
                }
            };
            let (h_off, h_score) = search(dr, span(c, cell_row), reach_cells * cell_col);
            let (v_off, v_score) = search(dc, span(r, cell_col), reach_cells * cell_row);
            let nh = Point::new(-dr.y, dr.x);
            let nv = Point::new(-dc.y, dc.x);
            let h_line = Line::through(
                Point::new(here.x + h_off * nh.x, here.y + h_off * nh.y),
                Point::new(here.x + h_off * nh.x + dr.x, here.y + h_off * nh.y + dr.y),
            );
            let v_line = Line::through(
                Point::new(here.x + v_off * nv.x, here.y + v_off * nv.y),
                Point::new(here.x + v_off * nv.x + dc.x, here.y + v_off * nv.y + dc.y),
            );
            let ok_h = h_score >= LINE_FOUND;
            let ok_v = v_score >= LINE_FOUND;
            found[r][c] = ok_h && ok_v;
            let moved = match (h_line, v_line) {
                (Some(a), Some(b)) if ok_h && ok_v => a.intersect(&b),
                _ => None,
            };
            if let Some(m) = moved {
                out.points_in_image[r][c] = m;
            } else {
                // Move only along the line that was found.
                let mut q = here;
                if ok_h {
                    q = Point::new(q.x + h_off * nh.x, q.y + h_off * nh.y);
                }
                if ok_v {
                    q = Point::new(q.x + v_off * nv.x, q.y + v_off * nv.y);
                }
                out.points_in_image[r][c] = q;
            }
        }
    }
    (out, found)
}

/// Replaces points whose lines were not found by the prediction from their neighbours.
fn fill_unfound(lattice: &mut Lattice, found: &[[bool; 10]; 10]) {
    let p = lattice.points_in_image;
    for r in 0..10 {
        for c in 0..10 {
            if found[r][c] {
                continue;
            }
            let mut preds = Vec::new();
            // Linear extrapolation along rows and columns from found neighbours.
            let pairs: [(isize, isize); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
            for (dr, dc) in pairs {
                let (r1, c1) = (r as isize + dr, c as isize + dc);
                let (r2, c2) = (r as isize + 2 * dr, c as isize + 2 * dc);
                if (0..10).contains(&r2) && (0..10).contains(&c2) {
                    let (r1, c1, r2, c2) = (r1 as usize, c1 as usize, r2 as usize, c2 as usize);
                    if found[r1][c1] && found[r2][c2] {
                        let (a, b) = (p[r1][c1], p[r2][c2]);
                        preds.push(Point::new(2.0 * a.x - b.x, 2.0 * a.y - b.y));
                    }
                }
            }
            if !preds.is_empty() {
                let n = preds.len() as f32;
                lattice.points_in_image[r][c] = Point::new(
                    preds.iter().map(|q| q.x).sum::<f32>() / n,
                    preds.iter().map(|q| q.y).sum::<f32>() / n,
                );
            }
        }
    }
}

/// Refines every intersection of `initial` onto the ink lines near it (two passes: wide, then
/// narrow with local directions from the first pass).
fn refine_lattice(mask: &GrayImage, gray: Option<&GrayImage>, initial: &Lattice) -> Lattice {
    refine_lattice_counted(mask, gray, initial).0
}

/// [`refine_lattice`], also saying whether some line search failed on the way (with the
/// mask alone: whether the gray levels could add anything).
fn refine_lattice_counted(
    mask: &GrayImage,
    gray: Option<&GrayImage>,
    initial: &Lattice,
) -> (Lattice, bool) {
    let mut lattice = *initial;
    let mut missed = false;
    // Two rounds: points that found no line, or strayed, are predicted from the rest by the
    // smoothness repairs, and the second round can then lock them onto their lines.
    for (wide, narrow) in [(0.3, 0.15), (0.2, 0.1)] {
        let (mut next, found) = refine_pass(mask, gray, &lattice, wide);
        missed |= found.iter().flatten().any(|f| !f);
        fill_unfound(&mut next, &found);
        let (mut next, found) = refine_pass(mask, gray, &next, narrow);
        fill_unfound(&mut next, &found);
        let unfound = found.iter().flatten().filter(|f| !**f).count();
        missed |= unfound > 0;
        let (next, moved_lines) = smooth::repair_along_lines(&next);
        let (next, moved_surface) = smooth::repair_outliers(&next);
        lattice = next;
        if unfound + moved_lines + moved_surface == 0 {
            // Every point sits on its lines and nothing strayed: a second round would not
            // move anything.
            break;
        }
    }
    let (repaired, _) = smooth::repair_corners(&lattice);
    (keep_inked_corners(mask, &lattice, repaired), missed)
}

/// The corners of `repaired` (moved to where their border lines meet), except where the
/// corner of `refined` is clearly the inked one. A corner far from where its two border
/// lines meet is either a stray (locked onto print beside the grid) or the real corner of a
/// curled page. It stays only when ink runs the whole way along both its border edges and
/// not along one of those from the meeting point (print beside the grid often inks both).
fn keep_inked_corners(mask: &GrayImage, refined: &Lattice, mut repaired: Lattice) -> Lattice {
    let p = &refined.points_in_image;
    for (r, c, rn, cn) in [(0, 0, 1, 1), (0, 9, 1, 8), (9, 9, 8, 8), (9, 0, 8, 1)] {
        let weakest =
            |q: Point| edge_coverage(mask, q, p[r][cn]).min(edge_coverage(mask, q, p[rn][c]));
        if weakest(p[r][c]) >= 0.9 && weakest(repaired.points_in_image[r][c]) < 0.6 {
            repaired.points_in_image[r][c] = p[r][c];
        }
    }
    repaired
}

/// Share of ink along the segment `a → b` (inner 80 %), accepting ink within one pixel of it.
fn edge_coverage(mask: &GrayImage, a: Point, b: Point) -> f32 {
    let len = a.distance(b);
    let n_samples = (len * 0.8).ceil().max(4.0) as usize;
    let d = (b - a).unit();
    let n = Point::new(-d.y, d.x);
    let mut hits = 0;
    for i in 0..n_samples {
        let t = 0.1 + 0.8 * (i as f32 + 0.5) / n_samples as f32;
        let q = a.lerp(b, t);
        if (-1..=1).any(|o| ink_at(mask, Point::new(q.x + o as f32 * n.x, q.y + o as f32 * n.y))) {
            hits += 1;
        }
    }
    hits as f32 / n_samples as f32
}

/// Why [`validate`] rejected a lattice.
struct Rejection {
    reason: String,
    /// The score the lattice would have if its thin lines are really there: set when the
    /// only fault was edges without ink, and those were not too many.
    faint_score: Option<f32>,
}

impl From<String> for Rejection {
    fn from(reason: String) -> Self {
        Rejection {
            reason,
            faint_score: None,
        }
    }
}

/// How many of the 40 lattice lines crossing the border run on past it, half a cell out.
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn lines_running_on(mask: &GrayImage, lattice: &Lattice) -> usize {
    let p = &lattice.points_in_image;
    let mut runs_on = 0;
    for k in 0..10 {
        for (inner, border) in [
            (p[1][k], p[0][k]),
            (p[8][k], p[9][k]),
            (p[k][1], p[k][0]),
            (p[k][8], p[k][9]),
        ] {
            let out = border - inner;
            if edge_coverage(mask, border + out.scaled(0.25), border + out.scaled(0.75)) >= 0.5 {
                runs_on += 1;
            }
        }
    }
    runs_on
}

/// Checks that `lattice` sits on a real 9×9 grid; returns its score or why not. With
/// `must_end_at_border`, a lattice whose lines run on past its border (a 9×9 block of a
/// larger grid) is rejected too: needed where nothing else says where the grid ends (Hough
/// lines), but not for outlines, whose border is the end of a connected grid — a photo may
/// show the next puzzle's grid just below.
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn validate(
    mask: &GrayImage,
    lattice: &Lattice,
    must_end_at_border: bool,
) -> Result<f32, Rejection> {
    let p = &lattice.points_in_image;
    if p.iter().flatten().any(|q| !q.is_finite()) {
        return Err(String::from("lattice left the image plane").into());
    }
    // Ink along each of the 180 lattice edges.
    let mut edges = Vec::with_capacity(180);
    for i in 0..10 {
        for j in 0..9 {
            edges.push(edge_coverage(mask, p[i][j], p[i][j + 1]));
            edges.push(edge_coverage(mask, p[j][i], p[j + 1][i]));
        }
    }
    let mean_edge = edges.iter().sum::<f32>() / edges.len() as f32;
    let weak = edges.iter().filter(|&&e| e < 0.35).count();
    // Ink along the half-way lines between grid lines (crossing cell interiors).
    let mut halves = Vec::with_capacity(162);
    for i in 0..9 {
        for j in 0..9 {
            let a = p[i][j].lerp(p[i + 1][j], 0.5);
            let b = p[i][j + 1].lerp(p[i + 1][j + 1], 0.5);
            halves.push(edge_coverage(mask, a, b));
            let a = p[i][j].lerp(p[i][j + 1], 0.5);
            let b = p[i + 1][j].lerp(p[i + 1][j + 1], 0.5);
            halves.push(edge_coverage(mask, a, b));
        }
    }
    let mean_half = halves.iter().sum::<f32>() / halves.len() as f32;
    // Evenness: second differences along every line, in cell sides.
    let cell = lattice.mean_side() / 9.0;
    let mut bends = Vec::with_capacity(160);
    for i in 0..10 {
        for j in 1..9 {
            for (a, b, c) in [
                (p[i][j - 1], p[i][j], p[i][j + 1]),
                (p[j - 1][i], p[j][i], p[j + 1][i]),
            ] {
                let dx = a.x - 2.0 * b.x + c.x;
                let dy = a.y - 2.0 * b.y + c.y;
                bends.push(dx.hypot(dy) / cell.max(1.0));
            }
        }
    }
    bends.sort_by(f32::total_cmp);
    let bend_median = bends[bends.len() / 2];
    let bend_p90 = bends[bends.len() * 9 / 10];
    tracing::trace!(
        mean_edge,
        weak,
        mean_half,
        bend_median,
        bend_p90,
        "lattice validation"
    );
    // Handwriting and pencil marks put ink between the lines too; a finer grid (18×18)
    // puts nearly as much there as on the lines.
    if mean_half > 0.65 || mean_half > mean_edge - 0.3 {
        return Err(format!("ink between grid lines ({mean_half:.2}): not a 9×9 grid").into());
    }
    if bend_median > 0.08 || bend_p90 > 0.45 {
        return Err(format!("uneven line spacing (median {bend_median:.2} cell)").into());
    }
    if must_end_at_border {
        let runs_on = lines_running_on(mask, lattice);
        tracing::trace!(runs_on, "lines running on past the border");
        if runs_on >= 8 {
            return Err(format!(
                "{runs_on} of 40 lines run on past the border: part of a larger grid"
            )
            .into());
        }
    }
    let score = (mean_edge - 0.5 * mean_half - bend_median).clamp(0.0, 1.0);
    if mean_edge < 0.6 || weak > 25 {
        let reason =
            format!("grid lines missing (mean edge ink {mean_edge:.2}, {weak} weak edges)");
        // Up to a third of the edges may be lost by a faint print of the thin lines; more
        // is not one grid.
        let faint = mean_edge >= 0.5 && weak <= 60 && mean_half <= 0.3;
        return Err(Rejection {
            reason,
            faint_score: faint.then_some(score),
        });
    }
    Ok(score)
}

/// Bilinear-free nearest lookup used by tests.
#[cfg(test)]
fn put_line(img: &mut GrayImage, a: Point, b: Point, thick: f32, v: u8) {
    let len = a.distance(b).ceil() as usize * 2 + 1;
    for i in 0..=len {
        let q = a.lerp(b, i as f32 / len as f32);
        let t = thick / 2.0;
        let mut yy = (q.y - t).floor();
        while yy <= q.y + t {
            let mut xx = (q.x - t).floor();
            while xx <= q.x + t {
                if xx >= 0.0 && yy >= 0.0 && (xx as u32) < img.width() && (yy as u32) < img.height()
                {
                    img.put_pixel(xx as u32, yy as u32, Luma([v]));
                }
                xx += 1.0;
            }
            yy += 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn synthetic_grid(corners: [Point; 4]) -> GrayImage {
        let mut img = GrayImage::from_pixel(640, 480, Luma([210]));
        draw_grid(&mut img, corners, 4.0);
        img
    }

    /// Draws a 9×9 grid with corners `corners`: box lines `box_px` thick, thin lines 1.5 px.
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn draw_grid(img: &mut GrayImage, corners: [Point; 4], box_px: f32) {
        let p = Lattice::from_corners(corners).points_in_image;
        for i in 0..10 {
            let thick = if i % 3 == 0 { box_px } else { 1.5 };
            put_line(img, p[i][0], p[i][9], thick, 30);
            put_line(img, p[0][i], p[9][i], thick, 30);
        }
    }

    #[test]
    fn finds_a_synthetic_rotated_grid() {
        let c = Point::new(320.0, 240.0);
        let angle = 0.5f32;
        let half = 170.0;
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| {
            let (s, co) = angle.sin_cos();
            Point::new(c.x + half * (x * co - y * s), c.y + half * (x * s + y * co))
        });
        let img = synthetic_grid(corners);
        let det = detect_gray(&img).expect("grid");
        for (a, b) in det.corners_in_image.iter().zip(corners) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
        }
    }

    /// Where [`faint_grid`] draws its grid (TL, TR, BR, BL).
    const FAINT_CORNERS: [Point; 4] = [
        Point::new(150.0, 60.0),
        Point::new(510.0, 70.0),
        Point::new(500.0, 430.0),
        Point::new(140.0, 420.0),
    ];

    /// A grid whose box lines are black and whose thin lines are black on two edges in three
    /// and only 6 gray levels darker than the paper on the third (too light for the ink
    /// mask); thin line `skip` is not printed at all.
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn faint_grid(skip: Option<usize>) -> GrayImage {
        let mut img = GrayImage::from_pixel(640, 480, Luma([200]));
        let lat = Lattice::from_corners(FAINT_CORNERS);
        let p = lat.points_in_image;
        for i in 0..10 {
            if i % 3 == 0 {
                put_line(&mut img, p[i][0], p[i][9], 4.0, 30);
                put_line(&mut img, p[0][i], p[9][i], 4.0, 30);
                continue;
            }
            if skip == Some(i) {
                continue;
            }
            for j in 0..9 {
                let ink = if j % 3 == 1 { 194 } else { 30 };
                put_line(&mut img, p[i][j], p[i][j + 1], 1.5, ink);
                put_line(&mut img, p[j][i], p[j + 1][i], 1.5, ink);
            }
        }
        img
    }

    #[test]
    fn finds_a_grid_whose_thin_lines_are_partly_too_faint_for_the_ink_mask() {
        let img = faint_grid(None);
        let options = DetectOptions::default();
        // The ink mask alone rejects it…
        let mask = ink_mask(&img, (640 / 40).clamp(4, 24), 8);
        let lattice = refine_lattice(&mask, None, &Lattice::from_corners(FAINT_CORNERS));
        let rejection = validate(&mask, &lattice, false).expect_err("thin lines lost by the mask");
        assert!(rejection.faint_score.is_some(), "{}", rejection.reason);
        // …the gray levels confirm it.
        let det = detect_with(&img, &options, None).expect("faint grid");
        assert!(det.corners_in_image[0].distance(FAINT_CORNERS[0]) < 4.0);
        assert!(det.corners_in_image[2].distance(FAINT_CORNERS[2]) < 4.0);
    }

    #[test]
    fn a_faint_grid_missing_a_whole_line_is_no_grid() {
        let img = faint_grid(Some(4));
        assert!(detect_gray(&img).is_err());
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn prefers_the_puzzle_merged_with_a_fold_over_a_small_printed_solution() {
        // The puzzle's border touches a fold line that runs to a rule down the page margin,
        // so its outline is no quad; a small solution grid sits clean in the corner.
        let mut img = GrayImage::from_pixel(640, 480, Luma([210]));
        let puzzle = [
            Point::new(100.0, 40.0),
            Point::new(400.0, 40.0),
            Point::new(400.0, 340.0),
            Point::new(100.0, 340.0),
        ];
        for corners in [
            puzzle,
            [
                Point::new(470.0, 320.0),
                Point::new(620.0, 320.0),
                Point::new(620.0, 470.0),
                Point::new(470.0, 470.0),
            ],
        ] {
            draw_grid(&mut img, corners, 3.0);
        }
        put_line(
            &mut img,
            Point::new(20.0, 0.0),
            Point::new(20.0, 479.0),
            3.0,
            30,
        );
        put_line(
            &mut img,
            Point::new(20.0, 205.0),
            Point::new(635.0, 220.0),
            3.0,
            60,
        );
        let det = detect_gray(&img).expect("grid");
        for (a, b) in det.corners_in_image.iter().zip(puzzle) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
    fn finds_a_grid_whose_lines_never_touch_by_hough_lines() {
        // Every edge stops short of the intersections: no outline encloses the grid and no
        // cell is a closed hole, so only the Hough families can find it.
        let corners = [
            Point::new(170.0, 80.0),
            Point::new(480.0, 95.0),
            Point::new(470.0, 405.0),
            Point::new(160.0, 395.0),
        ];
        let mut img = GrayImage::from_pixel(640, 480, Luma([205]));
        let p = Lattice::from_corners(corners).points_in_image;
        for i in 0..10 {
            let thick = if i % 3 == 0 { 3.0 } else { 1.5 };
            for j in 0..9 {
                for (a, b) in [(p[i][j], p[i][j + 1]), (p[j][i], p[j + 1][i])] {
                    put_line(&mut img, a.lerp(b, 0.15), a.lerp(b, 0.85), thick, 30);
                }
            }
        }
        let mut trace = DetectTrace::default();
        let det = detect_with(&img, &DetectOptions::default(), Some(&mut trace)).expect("grid");
        assert!(trace.hough_ran, "the Hough fallback ran");
        assert!(!trace.hough_lines.is_empty());
        for (a, b) in det.corners_in_image.iter().zip(corners) {
            assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn keeps_an_inked_curled_corner_and_drops_a_stray_one() {
        // The page curls up at the bottom-right: the bottom border's last cell bends up to
        // (500, 395), a third of a cell above where the straight border lines meet.
        let straight = Lattice::from_corners([
            Point::new(150.0, 60.0),
            Point::new(500.0, 60.0),
            Point::new(500.0, 410.0),
            Point::new(150.0, 410.0),
        ]);
        let mut curled = straight;
        curled.points_in_image[9][9] = Point::new(500.0, 395.0);
        let meet = straight; // the straight lines meet at (500, 410)
        let p = curled.points_in_image;
        let mut img = GrayImage::new(640, 480);
        put_line(&mut img, p[9][8], p[9][9], 2.0, 255);
        put_line(&mut img, p[8][9], p[9][9], 2.0, 255);
        let kept = keep_inked_corners(&img, &curled, meet);
        assert_eq!(kept.points_in_image[9][9], p[9][9]);
        // Print beside the grid inks the edges from where the lines meet as well: the
        // meeting point wins.
        put_line(&mut img, p[9][8], meet.points_in_image[9][9], 2.0, 255);
        put_line(&mut img, p[8][9], meet.points_in_image[9][9], 2.0, 255);
        let moved = keep_inked_corners(&img, &curled, meet);
        assert_eq!(moved.points_in_image[9][9], meet.points_in_image[9][9]);
        // The other corners were not in doubt.
        assert_eq!(moved.points_in_image[0][0], meet.points_in_image[0][0]);
    }

    #[test]
    fn order_corners_starts_top_left_clockwise() {
        let q = [
            Point::new(100.0, 110.0),
            Point::new(10.0, 100.0),
            Point::new(5.0, 5.0),
            Point::new(90.0, 0.0),
        ];
        let o = order_corners(q);
        assert_eq!(o, [q[2], q[3], q[0], q[1]]);
    }
}
