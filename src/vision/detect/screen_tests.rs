//! Tests of the screen stage on drawn grids.

use image::Luma;

use super::*;

/// A light-on-dark grid of `cell` px cells at `(x0, y0)`: 1 px thin lines, 3 px box lines.
fn dark_grid(cell: u32, x0: u32, y0: u32) -> GrayImage {
    let mut img = GrayImage::from_pixel(x0 * 2 + cell * 9, y0 * 2 + cell * 9, Luma([25]));
    for k in 0..10 {
        let t = if k % 3 == 0 { 3 } else { 1 };
        let at = k * cell;
        for d in 0..t {
            let off = (at + d).saturating_sub(t / 2).min(cell * 9);
            for u in 0..=cell * 9 {
                img.put_pixel(x0 + u, y0 + off, Luma([200]));
                img.put_pixel(x0 + off, y0 + u, Luma([200]));
            }
        }
    }
    img
}

#[test]
fn finds_a_light_on_dark_grid_exactly() {
    let img = dark_grid(40, 50, 70);
    let g = find(&img, None, MAX_NOISE_SIGMA).expect("grid");
    let p = g.lattice.points_in_image;
    for k in 0..10 {
        assert!(
            (p[0][k].x - (50.0 + 40.0 * k as f32)).abs() <= 1.0,
            "{:?}",
            p[0]
        );
        assert!(
            (p[k][0].y - (70.0 + 40.0 * k as f32)).abs() <= 1.0,
            "{:?}",
            p[k][0]
        );
    }
}

#[test]
fn a_noisy_picture_is_left_to_the_other_stages() {
    // The same grid with camera-like noise (σ about 2 levels): not a rendered screen.
    let mut img = dark_grid(40, 50, 70);
    let mut state = 0x9e37_79b9_u32;
    for p in img.pixels_mut() {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let noise = (state >> 28) as i32 - 8; // -8..=7
        p.0[0] = (p.0[0] as i32 + noise / 2).clamp(0, 255) as u8;
    }
    assert!(find(&img, None, MAX_NOISE_SIGMA).is_none());
}

/// `cells`×`cells` equal 1 px dark lines `cell` px apart from `(at, at)` on a light page.
fn equal_lattice(cells: u32, cell: u32, at: u32) -> GrayImage {
    let mut img = GrayImage::from_pixel(500, 500, Luma([240]));
    for k in 0..=cells {
        for u in at..=at + cells * cell {
            img.put_pixel(u, at + k * cell, Luma([60]));
            img.put_pixel(at + k * cell, u, Luma([60]));
        }
    }
    img
}

#[test]
fn a_finer_grid_is_no_sudoku() {
    // An 18×18 lattice: every pair of ten lines has lines half-way between.
    assert!(find(&equal_lattice(18, 20, 40), None, MAX_NOISE_SIGMA).is_none());
}

#[test]
fn a_block_of_a_larger_lattice_is_no_sudoku() {
    // 12×12 cells of equal lines: any ten lines have an eleventh a step outside.
    assert!(find(&equal_lattice(12, 30, 20), None, MAX_NOISE_SIGMA).is_none());
}

/// Cell `k`'s lattice line, `at + cell * k`, within `tol` px of `found`'s (rows and columns).
fn assert_lattice(found: &ScreenGrid, at: (f32, f32), cell: f32, tol: f32) {
    let p = found.lattice.points_in_image;
    for k in 0..10 {
        let want = (at.0 + cell * k as f32, at.1 + cell * k as f32);
        assert!((p[0][k].x - want.0).abs() <= tol, "columns {:?}", p[0]);
        assert!(
            (p[k][0].y - want.1).abs() <= tol,
            "rows {:?}",
            p.map(|r| r[0].y)
        );
    }
}

/// Dark lines on a light page: 1 px thin lines and 3 px box lines `cell` px apart from
/// `(at, at)`, each centred on its lattice line.
fn light_grid(width: u32, height: u32, cell: u32, at: u32) -> GrayImage {
    let mut img = GrayImage::from_pixel(width, height, Luma([240]));
    for k in 0..10 {
        let t = if k % 3 == 0 { 3 } else { 1 };
        for d in 0..t {
            let off = at + k * cell + d - t / 2;
            for u in at - 1..=at + 9 * cell + 1 {
                img.put_pixel(u, off, Luma([40]));
                img.put_pixel(off, u, Luma([40]));
            }
        }
    }
    img
}

#[test]
fn tiles_at_the_page_gray_are_found_by_their_hue() {
    // Dark-theme tiles, 2 px apart (6 px between boxes), of another hue than the page but
    // the same gray level (both 71 in Rec. 709 luma): no gray edge anywhere.
    let (page, tile) = (image::Rgb([67, 70, 86]), image::Rgb([54, 73, 101]));
    let (cell, at) = (40u32, 30u32);
    let rgb = RgbImage::from_fn(at * 2 + cell * 9, at * 2 + cell * 9 + 60, |x, y| {
        let inside = |v: u32| {
            let Some(u) = v.checked_sub(at).filter(|&u| u < 9 * cell) else {
                return false;
            };
            let (k, r) = (u / cell, u % cell);
            let gap = if k % 3 == 0 && k > 0 { 3 } else { 1 };
            let gap_after = if k % 3 == 2 && k < 8 { 3 } else { 1 };
            r >= gap && r < cell - gap_after
        };
        if inside(x) && inside(y) { tile } else { page }
    });
    let gray = crate::vision::rgb_to_gray(&rgb);
    assert!(gray.pixels().all(|p| p.0[0] == 71), "one gray level");
    assert!(
        find(&gray, None, MAX_NOISE_SIGMA).is_none(),
        "gray alone shows no edge"
    );
    let found = find(&gray, Some(&rgb), MAX_NOISE_SIGMA).expect("grid by hue");
    // The outer lines are the tiles' outer edges, a pixel inside the lattice.
    assert_lattice(&found, (at as f32, at as f32), cell as f32, 1.5);
    // A colour picture of another size is not this picture's colour.
    let other = RgbImage::new(10, 10);
    assert!(find(&gray, Some(&other), MAX_NOISE_SIGMA).is_none());
}

#[test]
fn a_keypad_a_cell_below_the_grid_is_no_larger_lattice() {
    // The keypad's top edge lies one step below the grid's last line but is shorter than
    // the grid's lines: an edge of something else, not an eleventh line.
    let (cell, at) = (30u32, 40u32);
    let mut img = light_grid(400, 520, cell, at);
    let (top, bottom) = (at + 10 * cell, at + 13 * cell);
    let (left, right) = (at + 2 * cell, at + 7 * cell);
    for x in left..=right {
        img.put_pixel(x, top, Luma([150]));
        img.put_pixel(x, bottom, Luma([150]));
    }
    for y in top..=bottom {
        img.put_pixel(left, y, Luma([150]));
        img.put_pixel(right, y, Luma([150]));
    }
    let found = find(&img, None, MAX_NOISE_SIGMA).expect("grid above its keypad");
    assert_lattice(&found, (at as f32, at as f32), cell as f32, 1.0);
}

#[test]
fn a_heavy_border_beside_a_window_edge_is_placed_on_its_centre() {
    // A 6 px outer border whose bottom edge has a window's edge 7 px below it: the three
    // edges are one group whose midpoint is 3 px off; the border is its first two edges.
    let (cell, at) = (36u32, 30u32);
    let size = at * 2 + cell * 9;
    let mut img = light_grid(size + 40, size + 30, cell, at);
    let bottom = at + 9 * cell;
    for (x, y, p) in img.enumerate_pixels_mut() {
        let on_border = |v: u32| v + 3 >= at && v < at + 3 || v + 3 >= bottom && v < bottom + 3;
        let spans = |v: u32| v + 3 >= at && v < bottom + 3;
        if (on_border(x) && spans(y)) || (on_border(y) && spans(x)) {
            p.0[0] = 40;
        } else if y >= bottom + 10 {
            p.0[0] = 200;
        }
    }
    let found = find(&img, None, MAX_NOISE_SIGMA).expect("grid with a heavy border");
    assert_lattice(&found, (at as f32, at as f32), cell as f32, 1.0);
}
