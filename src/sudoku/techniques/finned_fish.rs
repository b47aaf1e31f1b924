//! Finned and Sashimi Fish (X-Wing, Swordfish, Jellyfish): a basic fish whose base lines also
//! hold a few extra candidates, the fins, all in one box. Either a fin is true, or the fish
//! without its fins is a real fish; a cover-line candidate outside the base lines that sees every
//! fin is false in both cases, so it goes. The eliminations therefore lie in the fin box.
//!
//! A fish is *sashimi* when some base line keeps only one candidate once its fins are removed
//! (without the fins it would be degenerate); otherwise it is *finned*. Each finder reports only
//! its own kind.

use super::super::grid::{Candidate, Grid};
use super::super::notation::{cell_words, house_words, join_words};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, CellSet, Digit};
use super::basic_fish::{Orientation, SubsetSearch, bits, house_group, k_subsets};
use super::{Flow, GO_ON, Instances};
use std::cell::RefCell;

thread_local! {
    /// Per size (2 to 4), kind (finned, sashimi) and digit: the digit's candidate cells the
    /// last time a search of that kind over them reported nothing.
    static FISH_FREE: RefCell<[[[Option<CellSet>; 9]; 2]; 3]> =
        const { RefCell::new([[[None; 9]; 2]; 3]) };
}

/// The candidate cells of `d` a search for this size and kind last found nothing in.
fn fish_free(size: usize, sashimi: bool, d: Digit) -> Option<CellSet> {
    FISH_FREE.with(|f| {
        f.borrow()
            .get(size.wrapping_sub(2))
            .and_then(|k| k[usize::from(sashimi)][d.index()])
    })
}

/// Records that a search for this size and kind found nothing in the candidate cells `cells`
/// of `d`.
fn remember_fish_free(size: usize, sashimi: bool, d: Digit, cells: CellSet) {
    FISH_FREE.with(|f| {
        if let Some(k) = f.borrow_mut().get_mut(size.wrapping_sub(2)) {
            k[usize::from(sashimi)][d.index()] = Some(cells);
        }
    });
}

/// The technique for a finned (`sashimi == false`) or sashimi fish of `size` base lines.
fn technique(size: usize, sashimi: bool) -> Option<Technique> {
    use Technique::*;
    match (size, sashimi) {
        (2, false) => Some(FinnedXWing),
        (2, true) => Some(SashimiXWing),
        (3, false) => Some(FinnedSwordfish),
        (3, true) => Some(SashimiSwordfish),
        (4, false) => Some(FinnedJellyfish),
        (4, true) => Some(SashimiJellyfish),
        _ => None,
    }
}

/// The first finned (or, with `sashimi`, sashimi) fish of `size` (2, 3 or 4) that removes a
/// candidate: digits in order, rows as base before columns.
///
/// The search runs on 9-bit line masks: for each set of base lines and each box they pass
/// through, the cover is forced to hold the cover lines of the candidates outside that box, and
/// completed with lines through the box; candidates left outside the cover are the fins.
pub(crate) fn search(grid: &Grid, size: usize, sashimi: bool, out: &mut Instances) -> Flow {
    let Some(technique) = technique(size, sashimi) else {
        return GO_ON;
    };
    for d in Digit::ALL {
        // A digit's fish depend on its candidate cells alone: a digit whose cells are those
        // its last search here found nothing in is skipped.
        let cells = grid.digit_cells(d);
        if fish_free(size, sashimi, d) == Some(cells) {
            continue;
        }
        for o in Orientation::BOTH {
            let masks = o.line_masks(grid, d);
            // A base line holds at most `size` body candidates plus fins in one box (3 cells).
            let mut eligible = 0u16;
            for (i, m) in masks.iter().enumerate() {
                if (1..=size as u32 + 3).contains(&m.count_ones()) {
                    eligible |= 1 << i;
                }
            }
            let search = SubsetSearch {
                items: &masks,
                allowed: eligible,
                max_union: size as u32 + 3,
            };
            let found = search.first(size, &mut |base, union| {
                // Fins lie in one box, so outside some group of three cover lines the base
                // lines may use only `size` cover lines.
                let fits =
                    (0..3).any(|g| (union & !(0b111 << (3 * g))).count_ones() as usize <= size);
                if union.count_ones() as usize <= size || !fits {
                    return None;
                }
                let fish = Fish {
                    grid,
                    technique,
                    d,
                    o,
                    masks: &masks,
                    base,
                    sashimi,
                };
                fish.with_fin_box(out).break_value()
            });
            if found.is_some() {
                return Flow::Break(());
            }
        }
        // Asked for one, the search stops at the first instance it reports: so none here.
        if !out.wants_all() {
            remember_fish_free(size, sashimi, d, cells);
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid, size: usize, sashimi: bool) -> Option<Step> {
    super::first(|out| search(grid, size, sashimi, out))
}

/// One set of base lines of a digit being tried as a finned fish.
struct Fish<'a> {
    grid: &'a Grid,
    technique: Technique,
    d: Digit,
    o: Orientation,
    /// Per base-kind line, the cover lines holding the digit.
    masks: &'a [u16; 9],
    /// The base lines.
    base: u16,
    sashimi: bool,
}

impl Fish<'_> {
    /// Tries every box the base lines pass through as the fin box. A box is the crossing of a
    /// group of three base-kind lines and a group of three cover-kind lines.
    fn with_fin_box(&self, out: &mut Instances) -> Flow {
        let size = self.base.count_ones() as usize;
        // The cover lines used by the base lines of each group of three.
        let mut group_union = [0u16; 3];
        for i in bits(self.base) {
            group_union[i / 3] |= self.masks[i];
        }
        for (base_group, &in_group) in group_union.iter().enumerate() {
            if in_group == 0 {
                continue;
            }
            let group_lines = 0b111u16 << (3 * base_group);
            let others = union_except(&group_union, base_group);
            for cross_group in 0..3 {
                let box_cross = 0b111u16 << (3 * cross_group);
                // Cover lines the candidates outside the box need, and the box's own ones.
                let cover_out = others | (in_group & !box_cross);
                let in_box = in_group & box_cross;
                let n_out = cover_out.count_ones() as usize;
                if in_box == 0 || n_out > size {
                    continue;
                }
                // Lines only the box's candidates use; `size - n_out` of them join the cover.
                let extra = in_box & !cover_out;
                for pick in k_subsets(extra, size - n_out) {
                    let cover = cover_out | pick;
                    // Fins: box candidates off the cover. Targets: the digit in the box, on the
                    // cover, off the base lines (checked on masks first, cheaply).
                    if in_box & !cover == 0 {
                        continue;
                    }
                    let targets_exist = bits(group_lines & !self.base)
                        .any(|i| self.masks[i] & cover & box_cross != 0);
                    if !targets_exist {
                        continue;
                    }
                    if let Some(step) = self.build(cover) {
                        out.add(step)?;
                    }
                }
            }
        }
        GO_ON
    }

    /// The fish with cover lines `cover`, if its fins are right for the requested kind and it
    /// removes something.
    fn build(&self, cover: u16) -> Option<Step> {
        let (grid, d, o, base) = (self.grid, self.d, self.o, self.base);
        let cells_d = grid.digit_cells(d);
        let base_lines = o.lines_cells(base, true);
        let base_cells = base_lines & cells_d;
        let cover_cells = o.lines_cells(cover, false);
        let fins = base_cells & !cover_cells;
        if fins.is_empty() {
            return None;
        }
        // Body per base line: at least one candidate each; sashimi when one has only one.
        let min_body = bits(base)
            .map(|i| (self.masks[i] & cover).count_ones())
            .min()
            .unwrap_or(0);
        if min_body == 0 || (min_body == 1) != self.sashimi {
            return None;
        }
        let targets = cover_cells & !base_lines & cells_d & fins.common_peers();
        if targets.is_empty() {
            return None;
        }
        let mut step = Step::new(self.technique);
        step.digits = Candidates::single(d);
        for i in bits(base) {
            step.houses.push((o.base_house(i), Role::Base));
        }
        for i in bits(cover) {
            step.houses.push((o.cover_house(i), Role::Cover));
        }
        for c in (base_cells & cover_cells).iter() {
            step.mark(c, d, Role::Base);
        }
        for c in fins.iter() {
            step.mark(c, d, Role::Fin);
        }
        for c in targets.iter() {
            step.eliminations.push(Candidate::new(c, d));
        }
        Some(step)
    }
}

/// The union of the three group masks except group `skip`.
fn union_except(groups: &[u16; 3], skip: usize) -> u16 {
    groups
        .iter()
        .enumerate()
        .filter(|&(g, _)| g != skip)
        .fold(0, |acc, (_, &m)| acc | m)
}

/// `Finned X-Wing: 4 r15 c27 fr5c3 => r6c2<>4` (digit, base lines, cover lines, each fin).
pub(crate) fn text(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::plain_text(step);
    };
    let fins: Vec<String> = step
        .marked(Role::Fin)
        .map(|c| format!("f{}", c.cell))
        .collect();
    format!(
        "{}: {} {} {} {} => {}",
        step.technique.name(),
        d,
        house_group(step.houses_with(Role::Base)),
        house_group(step.houses_with(Role::Cover)),
        fins.join(" "),
        step.effect_text()
    )
}

/// "The 4 of rows 1 and 5 would only go in columns 2 and 7 but for the fin r5c9; whether or not
/// the fin holds it, r6c7 cannot be 4."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let words = |role| -> String {
        let hs: Vec<String> = step.houses_with(role).map(house_words).collect();
        join_words(&hs, "and")
    };
    let fins = step.marked_cells(Role::Fin);
    format!(
        "The {d} of {} would only go in {} but for the fin {}; whether or not the fin holds it, \
         {}.",
        words(Role::Base),
        words(Role::Cover),
        cell_words(fins.iter()),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::basic_fish::tests::{
        assert_single_digit_sound, assert_solver_sound, digit_grid,
    };
    use crate::sudoku::techniques::test_util::grid;

    /// Cells that keep every other row and column at three or more 4s: no basic fish forms.
    const NOISE_4: &str = "r2c1 r2c8 r2c6 r3c3 r3c4 r4c4 r4c8 r6c3 r7c1 r7c6 r8c2 r8c5 r9c5 r9c9";

    /// `cells` plus [`NOISE_4`].
    fn with_noise(cells: &str) -> String {
        format!("{cells} {NOISE_4}")
    }

    #[test]
    fn finned_x_wing() {
        // 4: a full placement (r1c2 r2c5 r3c9 r4c6 r5c7 r6c1 r7c3 r8c8 r9c4), rows 1 and 5 on
        // columns 2 and 7 (r1c7, r5c2), the fin r5c9 and the target r6c7.
        let g = digit_grid(
            4,
            &with_noise("r1c2 r2c5 r3c9 r4c6 r5c7 r6c1 r7c3 r8c8 r9c4 r1c7 r5c2 r5c9 r6c7"),
        );
        assert!(crate::sudoku::techniques::basic_fish::find(&g, 2).is_none());
        // Rows 1 and 6 also make a sashimi X-Wing: r6 keeps only c7 on the cover, with the fins
        // r6c1 and r6c3 in box 4, whose column-2 cell r5c2 loses 4.
        let sashimi = find(&g, 2, true).unwrap();
        assert_eq!(
            sashimi.text(),
            "Sashimi X-Wing: 4 r16 c27 fr6c1 fr6c3 => r5c2<>4"
        );
        assert_single_digit_sound(&g, &sashimi);
        let s = find(&g, 2, false).unwrap();
        assert_eq!(s.text(), "Finned X-Wing: 4 r15 c27 fr5c9 => r6c7<>4");
        assert_eq!(s.marked_cells(Role::Fin).len(), 1);
        assert_eq!(s.marked_cells(Role::Base).len(), 4);
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn sashimi_x_wing() {
        // As above without r5c7: row 5 keeps c2 and the fins r5c8, r5c9 in box 6. The full
        // placement becomes r1c2 r2c5 r3c9 r4c6 r5c8 r6c1 r7c3 r8c7 r9c4.
        let g = digit_grid(
            4,
            &with_noise("r1c2 r2c5 r3c9 r4c6 r5c8 r6c1 r7c3 r8c7 r9c4 r1c7 r5c2 r5c9 r6c7"),
        );
        assert_eq!(find(&g, 2, false).map(|s| s.text()), None);
        let s = find(&g, 2, true).unwrap();
        assert_eq!(s.text(), "Sashimi X-Wing: 4 r15 c27 fr5c8 fr5c9 => r6c7<>4");
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn finned_swordfish_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 057420008000006000100900002000042030039000240010590000700009005000800000800075690
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "..3.....9....5..........7.....4......2.......1..........3.....9.....6..........8.\
             .234....9.2.4...89.234.......3...7....3.5..8......6...1.34..7.91...5.7....34.....\
             1...........4.6.8...34.6...........9..3.5..8.......78...34..7......5.7...2.......\
             .....6.........7.........8.1...........4......2...........5......3..............9\
             ....5......3..............9.....67.......6.8.......78..2..........4.....1........\
             .2.4.....1.........2.4.........5............9..3............78.......78......6...\
             ......7...2.4.6....234.6....23..6...1.3..6...........91..4...8.12.....8.....5....\
             .23.....9.2...6..9....5...........8.1.3..6......4.....1.3......12.............7..\
             .......8..2.4.....1.........23............7......5.........6...........9..34.....",
        );
        let s = super::find(&g, 3, false).unwrap();
        assert_eq!(s.text(), "Finned Swordfish: 3 r138 c157 fr3c3 => r2c1<>3");
        assert_solver_sound(&g, &s);
    }

    #[test]
    fn sashimi_swordfish_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 010806040500000001009050300701000905000000000030090070170080034000040000490203057
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            ".23......1..............7.........8..23...........6.......5.......4.............9\
             ....5.....2.....8..23....8....4......23..............9......7.......6...1........\
             .....6......4.............9......7......5....1..........3.......2.....8..2.....8.\
             ......7...2.....8.1..........3...........6......4.............9.2.....8.....5....\
             ........9.....6......4.........5..........7...2.....8..2.....8.1..........3......\
             .2.....8...3..........5....1................9.2.....8....4...........7.......6...\
             1..............7...2...6...........9.......8.....5.....2...6.....3.........4.....\
             .23....8.....5.....23....8......6......4...........7..1................9.2.....8.\
             ...4.............9.....6.8..2.......1..........3...........6.8.....5..........7..",
        );
        let s = super::find(&g, 3, true).unwrap();
        assert_eq!(s.text(), "Sashimi Swordfish: 2 r567 c167 fr7c3 => r8c1<>2");
        assert_solver_sound(&g, &s);
    }

    #[test]
    fn finned_jellyfish_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 800000000201000700605007098100009000007308600000700001320400109009000802000000007
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            ".......8.......7....34......2..56..9.2..56..9..3456....2345....1..........3.56...\
             .2...............91............56.8....456.8...3456.........7....345......3456...\
             .....6.....34.........5....1.........2.4...........7...234.............9.......8.\
             1...............8..2...6....2..56....2.456...........9..345..........7....345....\
             ........9...45..........7....3......1...............8......6....2..........45....\
             ...45......3..6....23..6.........7...2...6......45............9.......8.1........\
             ..3.......2..............8....4...........7......56...1............56...........9\
             ......7.....456...........9....56.....3......1...............8....4.6....2.......\
             ...45....1...........4.6..........89.......89.2.........345......3456.........7..",
        );
        let s = super::find(&g, 4, false).unwrap();
        assert_eq!(s.text(), "Finned Jellyfish: 4 c1368 r1269 fr8c8 => r9c7<>4");
        assert_solver_sound(&g, &s);
    }

    #[test]
    fn sashimi_x_wing_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 005040100100605003020000050200803004000050000057000930800000009000108000090070020
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "..3...7.9..3..6.......5.....23...7.9...4...........7.91...............8..2...67..\
             1...........4..78....4...8......6....2.....8.....5.....2.4..7..........9..3......\
             ..34..7.9.2.........34.6.8...3...7.9..3....8.1...........4.6.......5.........67..\
             .2.......1................9.......8......6.....3..........5..........7.....4.....\
             ..34.......34...8...34...8.......7.9....5..........7.9.2...6...1....6...12...6...\
             .....6.......5..........7...2.4.....1.........2.4.............9..3.............8.\
             .......8...34.67..1.34.6.......5.....23.......2.4.6.....3..67..1..4.6...........9\
             ....5.7....34.6....2.......1................9.......8...3..6......4.6.......5.7..\
             ..345............91.34.6.....34...........7.....4.6..........8..2.......1...56...",
        );
        let s = super::find(&g, 2, true).unwrap();
        assert_eq!(s.text(), "Sashimi X-Wing: 6 r18 c29 fr8c7 fr8c8 => r9c9<>6");
        assert_solver_sound(&g, &s);
    }
}
