//! Colour themes of the synthetic Sudoku screens: the families real apps ship (light, dark
//! grey, black OLED, navy, pastel, sepia, high contrast) with random variation inside each.
//!
//! Owns colours only; where things go is `screens`' business.

use super::Rng;
use super::draw::{Colour, hsv, luma, mix};

/// A family of colour themes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThemeFamily {
    /// White or near-white paper, dark lines.
    Light,
    /// Dark grey background, light digits.
    DarkGrey,
    /// Pure black (OLED) background.
    OledBlack,
    /// Dark blue background.
    Navy,
    /// Light background with pastel-shaded boxes.
    Pastel,
    /// Warm paper tones.
    Sepia,
    /// Pure black on white (or white on black), heavy lines.
    HighContrast,
}

impl ThemeFamily {
    /// Every family, in a fixed order.
    pub const ALL: [ThemeFamily; 7] = [
        ThemeFamily::Light,
        ThemeFamily::DarkGrey,
        ThemeFamily::OledBlack,
        ThemeFamily::Navy,
        ThemeFamily::Pastel,
        ThemeFamily::Sepia,
        ThemeFamily::HighContrast,
    ];

    /// Whether the family draws light ink on a dark ground.
    pub fn is_dark(self) -> bool {
        matches!(
            self,
            ThemeFamily::DarkGrey | ThemeFamily::OledBlack | ThemeFamily::Navy
        )
    }
}

/// The colours of one screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    /// The family it was drawn from.
    pub family: ThemeFamily,
    /// The app background around the grid.
    pub page: Colour,
    /// Fill of each 3×3 box, row-major (all the same when boxes are not shaded).
    pub box_fill: [Colour; 9],
    /// Lines between cells.
    pub line_thin: Colour,
    /// Lines between boxes and the outer border.
    pub line_thick: Colour,
    /// Digits of the puzzle.
    pub given: Colour,
    /// Digits the player entered.
    pub player: Colour,
    /// A wrong digit.
    pub error: Colour,
    /// Background behind a wrong digit (sometimes the same as the cell).
    pub error_fill: Option<Colour>,
    /// Pencil marks.
    pub pencil: Colour,
    /// Row, column and box of the selected cell.
    pub highlight: Colour,
    /// The selected cell.
    pub selected: Colour,
    /// Cells holding the same digit as the selected one.
    pub same_digit: Colour,
    /// Interface text (titles, labels).
    pub ui_text: Colour,
    /// Secondary interface text (timer, difficulty).
    pub ui_muted: Colour,
    /// Buttons and keypad keys.
    pub button: Colour,
    /// Button text and icons, the selected tab, the number pad digits.
    pub accent: Colour,
}

/// A colour `t` of the way from `c` toward white (`t` < 0: toward black).
fn tint(c: Colour, t: f32) -> Colour {
    if t >= 0.0 {
        mix(c, [255, 255, 255], t)
    } else {
        mix(c, [0, 0, 0], -t)
    }
}

/// A random saturated "player" blue/teal/purple/green suited to the background brightness.
fn player_colour(rng: &mut Rng, dark: bool) -> Colour {
    let hue = *rng
        .choose(&[215.0, 205.0, 225.0, 190.0, 265.0, 140.0])
        .unwrap_or(&215.0);
    let hue = hue + rng.range(-8.0, 8.0);
    if dark {
        hsv(hue, rng.range(0.35, 0.6), rng.range(0.85, 1.0))
    } else {
        hsv(hue, rng.range(0.6, 0.9), rng.range(0.55, 0.85))
    }
}

impl Theme {
    /// A random theme of `family`.
    pub fn random(family: ThemeFamily, rng: &mut Rng) -> Theme {
        let dark = family.is_dark() || (family == ThemeFamily::HighContrast && rng.chance(0.35));
        let grey = |v: f32| -> Colour {
            let v = v.clamp(0.0, 255.0).round() as u8;
            [v, v, v]
        };
        let (page, cell, line_thin, line_thick, given) = match family {
            ThemeFamily::Light => {
                let cell = grey(rng.range(246.0, 256.0));
                let page = if rng.chance(0.5) {
                    cell
                } else {
                    grey(rng.range(225.0, 248.0))
                };
                let thick = grey(rng.range(0.0, 70.0));
                let thin = mix(thick, cell, rng.range(0.35, 0.75));
                (page, cell, thin, thick, grey(rng.range(0.0, 50.0)))
            }
            ThemeFamily::DarkGrey => {
                let cell = grey(rng.range(28.0, 58.0));
                let page = tint(cell, rng.range(-0.3, 0.05));
                let thick = grey(rng.range(110.0, 190.0));
                let thin = mix(thick, cell, rng.range(0.35, 0.7));
                (page, cell, thin, thick, grey(rng.range(215.0, 256.0)))
            }
            ThemeFamily::OledBlack => {
                let cell = grey(rng.range(0.0, 12.0));
                let thick = grey(rng.range(90.0, 200.0));
                let thin = mix(thick, cell, rng.range(0.35, 0.7));
                (cell, cell, thin, thick, grey(rng.range(200.0, 256.0)))
            }
            ThemeFamily::Navy => {
                let cell = hsv(
                    rng.range(210.0, 232.0),
                    rng.range(0.45, 0.75),
                    rng.range(0.18, 0.34),
                );
                let page = tint(cell, rng.range(-0.35, 0.0));
                let thick = hsv(
                    rng.range(200.0, 230.0),
                    rng.range(0.1, 0.35),
                    rng.range(0.6, 0.85),
                );
                let thin = mix(thick, cell, rng.range(0.4, 0.7));
                (page, cell, thin, thick, grey(rng.range(225.0, 256.0)))
            }
            ThemeFamily::Pastel => {
                let hue = rng.range(0.0, 360.0);
                let cell = hsv(hue, rng.range(0.0, 0.06), rng.range(0.97, 1.0));
                let page = hsv(hue, rng.range(0.05, 0.18), rng.range(0.92, 1.0));
                let thick = hsv(
                    hue + rng.range(-30.0, 30.0),
                    rng.range(0.2, 0.5),
                    rng.range(0.35, 0.6),
                );
                let thin = mix(thick, cell, rng.range(0.4, 0.7));
                let given = hsv(hue, rng.range(0.2, 0.5), rng.range(0.15, 0.35));
                (page, cell, thin, thick, given)
            }
            ThemeFamily::Sepia => {
                let cell = hsv(
                    rng.range(32.0, 45.0),
                    rng.range(0.1, 0.25),
                    rng.range(0.9, 0.98),
                );
                let page = tint(cell, rng.range(-0.12, 0.0));
                let thick = hsv(
                    rng.range(20.0, 35.0),
                    rng.range(0.4, 0.7),
                    rng.range(0.2, 0.4),
                );
                let thin = mix(thick, cell, rng.range(0.35, 0.65));
                let given = hsv(
                    rng.range(20.0, 30.0),
                    rng.range(0.5, 0.8),
                    rng.range(0.12, 0.28),
                );
                (page, cell, thin, thick, given)
            }
            ThemeFamily::HighContrast => {
                let (ink, paper) = if dark {
                    ([255, 255, 255], [0, 0, 0])
                } else {
                    ([0, 0, 0], [255, 255, 255])
                };
                let thin = if rng.chance(0.5) {
                    ink
                } else {
                    mix(ink, paper, 0.3)
                };
                (paper, paper, thin, ink, ink)
            }
        };
        // Box shading: none, alternating (checkerboard of boxes), or one pastel per box.
        let mut box_fill = [cell; 9];
        let shading = match family {
            ThemeFamily::Pastel => 1 + rng.below(2),
            ThemeFamily::HighContrast => 0,
            _ => {
                if rng.chance(0.3) {
                    1
                } else {
                    0
                }
            }
        };
        if shading == 1 {
            let shade = if dark {
                tint(cell, rng.range(0.05, 0.12))
            } else if family == ThemeFamily::Pastel || rng.chance(0.4) {
                hsv(
                    rng.range(0.0, 360.0),
                    rng.range(0.08, 0.25),
                    rng.range(0.9, 0.98),
                )
            } else {
                tint(cell, -rng.range(0.04, 0.1))
            };
            for (b, f) in box_fill.iter_mut().enumerate() {
                if (b / 3 + b % 3) % 2 == 1 {
                    *f = shade;
                }
            }
        } else if shading == 2 {
            let hue0 = rng.range(0.0, 360.0);
            for (b, f) in box_fill.iter_mut().enumerate() {
                *f = hsv(
                    hue0 + 40.0 * b as f32,
                    rng.range(0.1, 0.22),
                    rng.range(0.93, 1.0),
                );
            }
        }
        let player = player_colour(rng, dark);
        let error = if dark {
            hsv(rng.range(355.0, 365.0), rng.range(0.45, 0.65), 1.0)
        } else {
            hsv(
                rng.range(355.0, 365.0),
                rng.range(0.75, 0.95),
                rng.range(0.75, 0.95),
            )
        };
        let error_fill = rng
            .chance(0.4)
            .then(|| mix(cell, error, if dark { 0.25 } else { 0.15 }));
        let pencil = mix(given, cell, rng.range(0.2, 0.45));
        let accent_hue = rng.range(0.0, 360.0);
        let accent = if rng.chance(0.5) {
            player
        } else if dark {
            hsv(accent_hue, rng.range(0.3, 0.6), rng.range(0.8, 1.0))
        } else {
            hsv(accent_hue, rng.range(0.5, 0.85), rng.range(0.5, 0.8))
        };
        let highlight = if family == ThemeFamily::HighContrast {
            mix(cell, [128, 128, 128], 0.25)
        } else {
            mix(cell, player, rng.range(0.08, 0.2))
        };
        let selected = mix(cell, player, rng.range(0.25, 0.45));
        let same_digit = mix(cell, player, rng.range(0.18, 0.35));
        let button = if dark {
            tint(page, rng.range(0.06, 0.16))
        } else {
            tint(page, -rng.range(0.03, 0.1))
        };
        let ui_text = if luma(page) > 128.0 {
            mix(given, [0, 0, 0], 0.3)
        } else {
            mix(given, [255, 255, 255], 0.2)
        };
        let ui_muted = mix(ui_text, page, 0.45);
        Theme {
            family,
            page,
            box_fill,
            line_thin,
            line_thick,
            given,
            player,
            error,
            error_fill,
            pencil,
            highlight,
            selected,
            same_digit,
            ui_text,
            ui_muted,
            button,
            accent,
        }
    }
}
