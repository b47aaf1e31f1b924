//! Renders a [`ScreenSpec`] into a synthetic Sudoku app screenshot with its data-set labels
//! and the grid's outer corners.
//!
//! Owns drawing the grid (boxes, highlights, lines or tiles, digits, pencil marks); the app
//! around it (status bar, header, tool buttons, number pad, desktop window) is `chrome`'s.
//! Every choice was made in `layout`; this file only draws. Corners follow the detector's
//! convention: the centre line of the outer border (the tiles' outer edge for tiled grids).

use ab_glyph::FontVec;
use image::RgbImage;
use image::imageops::FilterType;

use super::chrome;
use super::draw::{Canvas, Colour, Rect};
use super::fonts::FontBank;
use super::layout::{OutputFormat, ScreenSpec};
use super::puzzle::CellContent;
use crate::vision::Point;

/// A rendered screenshot.
#[derive(Clone, Debug)]
pub struct RenderedScreen {
    /// The image at the spec's output size.
    pub image: RgbImage,
    /// Labels 0–10, row-major.
    pub labels: [u8; 81],
    /// Outer grid corners TL, TR, BR, BL in output image pixels.
    pub corners_in_image: [Point; 4],
    /// How the image should be written.
    pub format: OutputFormat,
}

/// Renders `spec` with faces from `fonts` (the indices in `spec` must come from the same bank;
/// an index out of range falls back to the first face).
pub fn render_screen(spec: &ScreenSpec, fonts: &FontBank) -> RenderedScreen {
    let all = fonts.fonts();
    let face = |i: usize| all.get(i).or_else(|| all.first()).map(|f| f.face());
    let (w, h) = spec.render_size_px;
    let theme = &spec.theme;
    let mut canvas = Canvas::new(w, h, theme.page);
    let ui = face(spec.ui_font);
    let digits = face(spec.digit_font);

    if let Some((win, title_h)) = spec.window {
        chrome::draw_desktop(&mut canvas, spec, win, title_h, ui);
    }
    if let Some(ui) = ui {
        chrome::draw_chrome(&mut canvas, spec, ui);
    }
    draw_grid(&mut canvas, spec, digits);

    let g = spec.grid_in_render;
    let mut corners = [
        Point::new(g.x0, g.y0),
        Point::new(g.x1, g.y0),
        Point::new(g.x1, g.y1),
        Point::new(g.x0, g.y1),
    ];
    let mut image = canvas.image;
    if spec.output_size_px != spec.render_size_px {
        let (ow, oh) = spec.output_size_px;
        image = image::imageops::resize(&image, ow, oh, FilterType::Triangle);
        let (sx, sy) = (ow as f32 / w as f32, oh as f32 / h as f32);
        // Pixel centres: render pixel x covers [x - 0.5, x + 0.5].
        for c in &mut corners {
            *c = Point::new((c.x + 0.5) * sx - 0.5, (c.y + 0.5) * sy - 0.5);
        }
    }
    RenderedScreen {
        image,
        labels: spec.board.labels(),
        corners_in_image: corners,
        format: spec.format,
    }
}

/// The extent `[a, b]` of row or column `i` of cells, leaving the tile gaps of a tiled grid.
fn cell_span(spec: &ScreenSpec, axis: usize, i: usize) -> (f32, f32) {
    let p = spec.lattice_in_render()[axis];
    let s = &spec.style;
    let gap = |k: usize| -> f32 {
        // The gap at lattice line k (0 and 9 are the outer edges: none).
        if k == 0 || k == 9 {
            0.0
        } else if k.is_multiple_of(3) {
            s.box_gap_px
        } else {
            s.cell_gap_px
        }
    };
    (p[i] + gap(i) / 2.0, p[i + 1] - gap(i + 1) / 2.0)
}

fn cell_rect(spec: &ScreenSpec, cell: usize) -> Rect {
    let (x0, x1) = cell_span(spec, 0, cell % 9);
    let (y0, y1) = cell_span(spec, 1, cell / 9);
    Rect { x0, y0, x1, y1 }
}

/// The background fill of `cell`: its box's colour, or a highlight.
fn cell_fill(spec: &ScreenSpec, cell: usize) -> Colour {
    let theme = &spec.theme;
    let (r, c) = (cell / 9, cell % 9);
    let mut fill = theme.box_fill[r / 3 * 3 + c / 3];
    let content = spec.board.cells[cell];
    if let Some(sel) = spec.selected {
        let (sr, sc) = (sel / 9, sel % 9);
        let same_house = r == sr || c == sc || (r / 3 == sr / 3 && c / 3 == sc / 3);
        if spec.highlight_houses && same_house {
            fill = theme.highlight;
        }
        let sel_digit = spec.board.cells[sel].digit();
        if spec.highlight_same_digit && sel_digit.is_some() && content.digit() == sel_digit {
            fill = theme.same_digit;
        }
        if sel == cell {
            fill = theme.selected;
        }
    }
    if let (CellContent::Error(_), Some(e)) = (content, theme.error_fill) {
        fill = e;
    }
    fill
}

fn draw_grid(canvas: &mut Canvas, spec: &ScreenSpec, digits: Option<&FontVec>) {
    let theme = &spec.theme;
    let s = &spec.style;
    let g = spec.grid_in_render;
    let p = spec.lattice_in_render();
    if s.tiled() {
        for b in 0..9 {
            let (bx, by) = (b % 3 * 3, b / 3 * 3);
            let tile = Rect {
                x0: cell_span(spec, 0, bx).0,
                y0: cell_span(spec, 1, by).0,
                x1: cell_span(spec, 0, bx + 2).1,
                y1: cell_span(spec, 1, by + 2).1,
            };
            if s.cell_gap_px > 0.0 {
                continue;
            }
            // Inner thin lines sit on the tile; the tile colour shows between cells.
            canvas.fill_rect(tile, theme.line_thin, 1.0);
        }
        for cell in 0..81 {
            let r = cell_rect(spec, cell);
            if s.cell_gap_px > 0.0 {
                canvas.fill_rounded_rect(r, s.tile_radius_px * 0.5, cell_fill(spec, cell), 1.0);
            } else {
                // Cells leave a thin line of tile colour on their inner sides.
                let (row, col) = (cell / 9, cell % 9);
                let half = s.thin_px / 2.0;
                let inner = Rect {
                    x0: r.x0 + if col % 3 == 0 { 0.0 } else { half },
                    y0: r.y0 + if row % 3 == 0 { 0.0 } else { half },
                    x1: r.x1 - if col % 3 == 2 { 0.0 } else { half },
                    y1: r.y1 - if row % 3 == 2 { 0.0 } else { half },
                };
                canvas.fill_rect(inner, cell_fill(spec, cell), 1.0);
            }
        }
        if s.cell_gap_px <= 0.0 && s.tile_radius_px > 0.3 {
            for b in 0..9 {
                let (bx, by) = (b % 3 * 3, b / 3 * 3);
                let tile = Rect {
                    x0: cell_span(spec, 0, bx).0,
                    y0: cell_span(spec, 1, by).0,
                    x1: cell_span(spec, 0, bx + 2).1,
                    y1: cell_span(spec, 1, by + 2).1,
                };
                round_corners(canvas, tile, s.tile_radius_px, theme.page);
            }
        }
    } else {
        for cell in 0..81 {
            canvas.fill_rect(cell_rect(spec, cell), cell_fill(spec, cell), 1.0);
        }
        for (i, (&x, &y)) in p[0].iter().zip(&p[1]).enumerate().take(9).skip(1) {
            let (wpx, colour) = if i.is_multiple_of(3) {
                (s.thick_px, theme.line_thick)
            } else {
                (s.thin_px, theme.line_thin)
            };
            canvas.fill_rect(
                Rect {
                    x0: x - wpx / 2.0,
                    y0: g.y0,
                    x1: x + wpx / 2.0,
                    y1: g.y1,
                },
                colour,
                1.0,
            );
            canvas.fill_rect(
                Rect {
                    x0: g.x0,
                    y0: y - wpx / 2.0,
                    x1: g.x1,
                    y1: y + wpx / 2.0,
                },
                colour,
                1.0,
            );
        }
        draw_outer_border(canvas, spec);
    }
    if let Some(font) = digits {
        draw_digits(canvas, spec, font);
    }
}

/// Paints `page` over the four corners of `shape` outside its rounding of `radius` px.
fn round_corners(canvas: &mut Canvas, shape: Rect, radius: f32, page: Colour) {
    let r = radius.min(shape.w() / 2.0).min(shape.h() / 2.0);
    for (cx, cy, dx, dy) in [
        (shape.x0, shape.y0, r, r),
        (shape.x1, shape.y0, -r, r),
        (shape.x1, shape.y1, -r, -r),
        (shape.x0, shape.y1, r, -r),
    ] {
        let square = Rect {
            x0: cx.min(cx + dx),
            y0: cy.min(cy + dy),
            x1: cx.max(cx + dx),
            y1: cy.max(cy + dy),
        };
        canvas.fill_outside_rounded(square, shape, r, page);
    }
}

/// The outer border centred on `grid_in_render`, square or rounded; outside a rounded
/// border the page colour is restored.
fn draw_outer_border(canvas: &mut Canvas, spec: &ScreenSpec) {
    let s = &spec.style;
    let g = spec.grid_in_render;
    let colour = spec.theme.line_thick;
    if s.outer_radius_px > 0.3 {
        // Give the cells round corners by painting the page outside the rounded outline.
        let r = s.outer_radius_px;
        round_corners(canvas, g, r, spec.theme.page);
        canvas.stroke_rounded_rect(g, r, s.outer_px, colour);
    } else {
        let half = s.outer_px / 2.0;
        let outer = g.inflate(half);
        let inner = g.inflate(-half);
        for band in [
            Rect {
                y1: inner.y0,
                ..outer
            },
            Rect {
                y0: inner.y1,
                ..outer
            },
            Rect {
                x1: inner.x0,
                y0: inner.y0,
                y1: inner.y1,
                ..outer
            },
            Rect {
                x0: inner.x1,
                y0: inner.y0,
                y1: inner.y1,
                ..outer
            },
        ] {
            canvas.fill_rect(band, colour, 1.0);
        }
    }
}

fn draw_digits(canvas: &mut Canvas, spec: &ScreenSpec, font: &FontVec) {
    let theme = &spec.theme;
    let cell_px = spec.grid_in_render.w() / 9.0;
    let p = spec.lattice_in_render();
    for (cell, content) in spec.board.cells.iter().enumerate() {
        let (row, col) = (cell / 9, cell % 9);
        let centre = Point::new(
            (p[0][col] + p[0][col + 1]) / 2.0,
            (p[1][row] + p[1][row + 1]) / 2.0,
        );
        let (digit, colour) = match *content {
            CellContent::Given(d) => (d, theme.given),
            CellContent::Player(d) => (d, theme.player),
            CellContent::Error(d) => (d, theme.error),
            CellContent::Pencil(marks) => {
                for d in 1..=9u8 {
                    if marks & (1 << (d - 1)) == 0 {
                        continue;
                    }
                    let k = (d - 1) as f32;
                    let at = Point::new(
                        centre.x + ((k % 3.0) - 1.0) * cell_px * 0.29,
                        centre.y + ((k / 3.0).floor() - 1.0) * cell_px * 0.29,
                    );
                    canvas.glyph_centred(
                        font,
                        char::from(b'0' + d),
                        spec.pencil_height * cell_px,
                        at,
                        theme.pencil,
                    );
                }
                continue;
            }
            CellContent::Empty => continue,
        };
        canvas.glyph_centred(
            font,
            char::from(b'0' + digit),
            spec.digit_height * cell_px,
            centre,
            colour,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::Rng;
    use crate::synthetic::theme::ThemeFamily;
    use crate::synthetic::write::encode;

    fn colour_at(img: &RgbImage, p: Point) -> Colour {
        img.get_pixel(p.x.round() as u32, p.y.round() as u32).0
    }

    #[test]
    fn same_seed_same_bytes() {
        let fonts = FontBank::system_for_tests();
        let bytes = |seed: u64| {
            let spec = ScreenSpec::random(&mut Rng::for_item(seed, 4), &fonts);
            let s = render_screen(&spec, &fonts);
            (
                encode(&s.image, OutputFormat::Png).unwrap(),
                s.labels,
                s.corners_in_image,
            )
        };
        let a = bytes(21);
        assert_eq!(a, bytes(21));
        assert_ne!(a.0, bytes(22).0);
    }

    #[test]
    fn corners_sit_on_the_outer_border() {
        let fonts = FontBank::system_for_tests();
        let (mut lined, mut tiled) = (0, 0);
        for i in 0..42u64 {
            let mut rng = Rng::for_item(5, i);
            let family = ThemeFamily::ALL[i as usize % 7];
            let mut spec = ScreenSpec::random_in_family(&mut rng, &fonts, family);
            // Check at render resolution, where line colours are exact.
            spec.output_size_px = spec.render_size_px;
            let s = render_screen(&spec, &fonts);
            let (w, h) = s.image.dimensions();
            assert_eq!(s.labels, spec.board.labels());
            for c in s.corners_in_image {
                assert!(c.x >= 1.0 && c.y >= 1.0 && c.x < w as f32 - 1.0 && c.y < h as f32 - 1.0);
            }
            let c = s.corners_in_image;
            let side = c[1].x - c[0].x;
            let short = w.min(h) as f32;
            assert!(
                (0.3..=0.9).contains(&(side / short)),
                "side {side} of {short}"
            );
            let centre = c[0].lerp(c[2], 0.5);
            let half_cell = side / 18.0;
            let reach = spec.style.outer_px / 2.0 + 1.5;
            // On both sides leaving each corner, half a cell out (clear of rounded corners):
            // the border centre line is line-coloured, the page lies just outside it and the
            // cell just inside it. Shifting any corner by 2 px breaks one of these.
            for k in 0..4 {
                for other in [c[(k + 1) % 4], c[(k + 3) % 4]] {
                    let along = (other - c[k]).unit();
                    let p = c[k] + along.scaled(half_cell);
                    let mut normal = Point::new(-along.y, along.x);
                    if (p.x - centre.x) * normal.x + (p.y - centre.y) * normal.y < 0.0 {
                        normal = normal.scaled(-1.0);
                    }
                    let outside = colour_at(&s.image, p + normal.scaled(reach));
                    assert_eq!(outside, spec.theme.page, "screen {i} corner {k}");
                    let inside = colour_at(&s.image, p - normal.scaled(reach));
                    if spec.style.tiled() {
                        tiled += 1;
                        assert_ne!(inside, spec.theme.page, "screen {i} corner {k}");
                    } else {
                        lined += 1;
                        let on = colour_at(&s.image, p);
                        assert_eq!(on, spec.theme.line_thick, "screen {i} corner {k}");
                        assert_ne!(inside, spec.theme.line_thick, "screen {i} corner {k}");
                        if spec.style.outer_radius_px == 0.0 {
                            let at = colour_at(&s.image, c[k]);
                            assert_eq!(at, spec.theme.line_thick, "screen {i} corner {k}");
                        }
                    }
                }
            }
        }
        assert!(lined > 0 && tiled > 0, "lined {lined} tiled {tiled}");
    }

    #[test]
    fn downscaled_corners_follow_the_image() {
        let fonts = FontBank::system_for_tests();
        let mut checked = 0;
        for i in 0..40u64 {
            let mut spec = ScreenSpec::random(&mut Rng::for_item(8, i), &fonts);
            if spec.output_size_px == spec.render_size_px || spec.style.tiled() {
                continue;
            }
            // The same screen at full size and downscaled: the border stays line-coloured.
            spec.style.outer_px = spec.style.outer_px.max(6.0);
            let s = render_screen(&spec, &fonts);
            let [tl, tr, _, _] = s.corners_in_image;
            let p = tl.lerp(tr, 0.5 / 9.0);
            let line = spec.theme.line_thick;
            let got = colour_at(&s.image, p);
            let dist = |a: Colour, b: Colour| {
                (0..3)
                    .map(|k| (a[k] as i32 - b[k] as i32).abs())
                    .max()
                    .unwrap_or(0)
            };
            assert!(
                dist(got, line) <= 12,
                "screen {i}: {got:?} vs line {line:?}"
            );
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} downscaled screens");
    }
}
