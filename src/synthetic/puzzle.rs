//! Real Sudoku content for synthetic screens: a random valid solution, givens cut from it,
//! and what a player has added (correct digits, a wrong one, pencil marks).
//!
//! Owns the cell contents and their data-set labels (0 empty, 1–9 a digit of any colour,
//! 10 pencil marks). It knows nothing of images, themes or layout.

use super::Rng;

/// What one cell shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellContent {
    /// Nothing.
    Empty,
    /// A digit of the puzzle (1–9).
    Given(u8),
    /// A correct digit the player entered (1–9), drawn in the player colour.
    Player(u8),
    /// A wrong digit the player entered (1–9), drawn in the error colour.
    Error(u8),
    /// Pencil-mark candidates: bit `d - 1` set for each digit `d` shown (never 0).
    Pencil(u16),
}

impl CellContent {
    /// The data-set label: 0 empty, 1–9 the digit shown, 10 pencil marks.
    pub fn label(self) -> u8 {
        match self {
            CellContent::Empty => 0,
            CellContent::Given(d) | CellContent::Player(d) | CellContent::Error(d) => d,
            CellContent::Pencil(_) => 10,
        }
    }

    /// The digit shown, if the cell shows one.
    pub fn digit(self) -> Option<u8> {
        match self {
            CellContent::Given(d) | CellContent::Player(d) | CellContent::Error(d) => Some(d),
            _ => None,
        }
    }
}

/// A puzzle as a player sees it mid-game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The full solution, row-major, digits 1–9.
    pub solution: [u8; 81],
    /// What each cell shows, row-major.
    pub cells: [CellContent; 81],
}

impl Board {
    /// The puzzle's givens alone, row-major (0 where the cell shows anything else).
    pub fn givens(&self) -> [u8; 81] {
        self.cells.map(|c| match c {
            CellContent::Given(d) => d,
            _ => 0,
        })
    }

    /// The 81 data-set labels, row-major.
    pub fn labels(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (o, c) in out.iter_mut().zip(self.cells.iter()) {
            *o = c.label();
        }
        out
    }

    /// A random board: a solution, 20–45 givens (half the time 180°-symmetric), and with
    /// some chance player digits (sometimes up to a full grid), one wrong digit and
    /// pencil marks in some of the remaining empty cells.
    pub fn random(rng: &mut Rng) -> Board {
        let solution = random_solution(rng);
        let givens = rng.between(20, 45);
        let mut is_given = [false; 81];
        let mut order: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut order);
        let symmetric = rng.chance(0.5);
        let mut count = 0;
        for &i in &order {
            if count >= givens {
                break;
            }
            if is_given[i] {
                continue;
            }
            is_given[i] = true;
            count += 1;
            if symmetric && count < givens && !is_given[80 - i] {
                is_given[80 - i] = true;
                count += 1;
            }
        }
        let mut cells = [CellContent::Empty; 81];
        for i in 0..81 {
            if is_given[i] {
                cells[i] = CellContent::Given(solution[i]);
            }
        }
        // Player progress: none, some, or (rarely) a completely filled grid.
        let filled = rng.chance(0.08);
        let player_share = if filled {
            1.0
        } else if rng.chance(0.6) {
            rng.range(0.05, 0.6)
        } else {
            0.0
        };
        for i in 0..81 {
            if cells[i] == CellContent::Empty && rng.chance(player_share) {
                cells[i] = CellContent::Player(solution[i]);
            }
        }
        if !filled && rng.chance(0.3) {
            let empties: Vec<usize> = (0..81)
                .filter(|&i| cells[i] == CellContent::Empty)
                .collect();
            if let Some(&i) = rng.choose(&empties) {
                let wrong = 1 + ((solution[i] as usize + rng.below(8)) % 9) as u8;
                cells[i] = CellContent::Error(wrong);
            }
        }
        let pencil_share = if !filled && rng.chance(0.45) {
            rng.range(0.1, 0.8)
        } else {
            0.0
        };
        if pencil_share > 0.0 {
            let full_candidates = rng.chance(0.5);
            for i in 0..81 {
                if cells[i] != CellContent::Empty || !rng.chance(pencil_share) {
                    continue;
                }
                let mut marks = candidates(&cells, i);
                if !full_candidates {
                    // A player's partial notes: drop some, keep the solution digit.
                    for d in 1..=9u8 {
                        if d != solution[i] && rng.chance(0.4) {
                            marks &= !(1 << (d - 1));
                        }
                    }
                }
                marks |= 1 << (solution[i] - 1);
                cells[i] = CellContent::Pencil(marks);
            }
        }
        Board { solution, cells }
    }

    /// Makes the givens a proper puzzle, as a real app's are: while they have more than one
    /// solution, cells (in a fixed spread-out order, with their half-turn partners) that some
    /// other solution fills differently become givens of the solution's digit, whatever they
    /// showed. Draws no randomness. `Board::random` leaves the givens as cut (the screenshot
    /// training data was made so); photos of screens use this.
    pub fn make_givens_unique(&mut self) {
        let mut givens = self.givens();
        // 29 is prime to 81: the order visits every cell, spread over the grid.
        let order: Vec<usize> = (0..81).map(|k| k * 29 % 81).collect();
        make_unique(&mut givens, &self.solution, &order);
        for (c, &g) in self.cells.iter_mut().zip(givens.iter()) {
            if g != 0 {
                *c = CellContent::Given(g);
            }
        }
    }
}

/// Adds `solution`'s digits to `givens` in symmetric pairs, in `order`, at cells that another
/// solution fills differently, until `givens` has exactly one solution. No randomness is
/// drawn, so the rest of a seeded page stays the same.
pub(super) fn make_unique(givens: &mut [u8; 81], solution: &[u8; 81], order: &[usize]) {
    use crate::sudoku::solver::{count_values, solve_candidates};
    for &i in order {
        if count_values(givens, 2) == 1 {
            return;
        }
        if givens[i] != 0 {
            continue;
        }
        // Could cell i hold another digit in some solution?
        let mut masks = [0x1FFu16; 81];
        for (m, &g) in masks.iter_mut().zip(givens.iter()) {
            if g != 0 {
                *m = 1 << (g - 1);
            }
        }
        masks[i] &= !(1 << (solution[i] - 1));
        if solve_candidates(&masks, 1).count > 0 {
            givens[i] = solution[i];
            givens[80 - i] = solution[80 - i];
        }
    }
}

/// Digits not yet shown in the row, column and box of `cell`, as a bit set.
fn candidates(cells: &[CellContent; 81], cell: usize) -> u16 {
    let (r, c) = (cell / 9, cell % 9);
    let mut seen = 0u16;
    for k in 0..9 {
        let box_cell = (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3;
        for j in [r * 9 + k, k * 9 + c, box_cell] {
            if let Some(d) = cells[j].digit() {
                seen |= 1 << (d - 1);
            }
        }
    }
    !seen & 0x1FF
}

/// A random valid solution: a base pattern under random digit relabelling, row and column
/// swaps inside bands and stacks, band and stack swaps, and transposition.
pub fn random_solution(rng: &mut Rng) -> [u8; 81] {
    let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    let rows = shuffled_lines(rng);
    let cols = shuffled_lines(rng);
    let transpose = rng.chance(0.5);
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (br, bc) = (rows[r], cols[c]);
            let (br, bc) = if transpose { (bc, br) } else { (br, bc) };
            // The base pattern: row r is 1..9 shifted by 3·(r mod 3) + r/3.
            let base = (br * 3 + br / 3 + bc) % 9;
            out[r * 9 + c] = digits[base];
        }
    }
    out
}

/// An order of the nine rows (or columns) that keeps each band (stack) together.
fn shuffled_lines(rng: &mut Rng) -> [usize; 9] {
    let mut bands = [0usize, 1, 2];
    rng.shuffle(&mut bands);
    let mut out = [0usize; 9];
    for (i, &b) in bands.iter().enumerate() {
        let mut inner = [0usize, 1, 2];
        rng.shuffle(&mut inner);
        for (j, &k) in inner.iter().enumerate() {
            out[i * 3 + j] = b * 3 + k;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::solver;

    fn is_valid_solution(s: &[u8; 81]) -> bool {
        (0..9).all(|u| {
            let mut row = 0u16;
            let mut col = 0u16;
            let mut bx = 0u16;
            for k in 0..9 {
                row |= 1 << s[u * 9 + k];
                col |= 1 << s[k * 9 + u];
                bx |= 1 << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            row == 0x3FE && col == 0x3FE && bx == 0x3FE
        })
    }

    #[test]
    fn boards_made_unique_have_one_solution_and_keep_what_was_given() {
        let mut rng = Rng::new(11);
        for _ in 0..30 {
            let board = Board::random(&mut rng);
            let mut proper = board.clone();
            proper.make_givens_unique();
            assert_eq!(crate::sudoku::solver::count_values(&proper.givens(), 2), 1);
            for i in 0..81 {
                if let CellContent::Given(d) = board.cells[i] {
                    assert_eq!(proper.cells[i], CellContent::Given(d));
                } else if proper.cells[i] != board.cells[i] {
                    assert_eq!(proper.cells[i], CellContent::Given(board.solution[i]));
                }
            }
        }
    }

    #[test]
    fn solutions_are_valid_and_varied() {
        let mut rng = Rng::new(1);
        let a = random_solution(&mut rng);
        let b = random_solution(&mut rng);
        assert!(is_valid_solution(&a) && is_valid_solution(&b));
        assert_ne!(a, b);
    }

    #[test]
    fn boards_label_what_they_show() {
        let mut rng = Rng::new(9);
        let mut saw = [false; 4];
        for _ in 0..200 {
            let board = Board::random(&mut rng);
            assert!(is_valid_solution(&board.solution));
            let givens = board
                .cells
                .iter()
                .filter(|c| matches!(c, CellContent::Given(_)))
                .count();
            assert!((20..=45).contains(&givens), "{givens} givens");
            let labels = board.labels();
            for (i, cell) in board.cells.iter().enumerate() {
                match *cell {
                    CellContent::Given(d) | CellContent::Player(d) => {
                        assert_eq!(d, board.solution[i]);
                        assert_eq!(labels[i], d);
                        saw[0] |= matches!(cell, CellContent::Player(_));
                    }
                    CellContent::Error(d) => {
                        assert_ne!(d, board.solution[i]);
                        assert!((1..=9).contains(&d));
                        assert_eq!(labels[i], d);
                        saw[1] = true;
                    }
                    CellContent::Pencil(m) => {
                        assert!(m != 0 && m < 0x200);
                        assert_ne!(m & (1 << (board.solution[i] - 1)), 0);
                        assert_eq!(labels[i], 10);
                        saw[2] = true;
                    }
                    CellContent::Empty => assert_eq!(labels[i], 0),
                }
            }
            saw[3] |= labels.iter().all(|&l| (1..=9).contains(&l));
            // The givens alone are consistent with (at least) the solution.
            assert!(solver::count_values(&board.givens(), 1) >= 1);
        }
        assert_eq!(
            saw, [true; 4],
            "player, error, pencil and filled boards all occur"
        );
    }
}
