//! When the live path may show a voted board as the puzzle: enough reads, confident enough
//! cells, few doubtful cells the rest of the board does not pin, no digit cell much read as
//! empty, and doubtful empty cells ruled out against the solution. Owns these rules only;
//! voting is `vote`'s, and when to read, solve and show is `reader`'s.

use super::LiveConfig;
use super::clues::needed_clue;
use super::vote::{VotedBoard, Votes};
use crate::scan::Written;
use crate::sudoku::solver::solve_values;
use crate::sudoku::{Cell, MIN_CLUES, conflicts_of};

/// Whether a vote may be shown as the puzzle: enough reads, every digit cell's value holding
/// a good share of its probability over them, few doubtful cells, enough clues (stability
/// over two reads, uniqueness and doubtful empty cells are checked by the caller). One
/// solution is the strong guard: a misread digit almost always leaves none or several.
///
/// The cap on doubtful cells counts only cells the rest of the board does not pin: a digit
/// cell whose 20 peers already hold the 8 other digits, and whose reads give "empty" next to
/// no weight, can only be misread together with one of those peers (read right, they would
/// leave its true digit no room). So a finished or nearly finished grid in handwriting,
/// doubtful on many cells one by one, is still checked cell by cell by its own digits. When
/// more than the cap remain, digits the rest of the puzzle pins ([`pinned_by_puzzle`]) do not
/// count either: a printed page read right from a blurred frame, doubtful on 16 clues.
///
/// Doubtful empty cells count for the reads needed but not against the cap: each must still
/// give the solution's digit next to no weight (`doubtful_empties_ruled_out`), a check made
/// cell by cell that a cap would only repeat. A page whose print shows through, or a shaded
/// box, leaves many empty cells a little doubtful on a board read right.
pub(super) fn trustworthy(voted: &VotedBoard, votes: &Votes, config: &LiveConfig) -> bool {
    let doubtful = unpinned_doubtful(voted, votes, config);
    let mut doubtful_digits: Vec<usize> = doubtful
        .iter()
        .copied()
        .filter(|&i| voted.values[i] != 0)
        .collect();
    if doubtful_digits.len() > config.trust_max_doubtful_cells {
        // The solver's look at each, only when the cap would refuse the board.
        doubtful_digits.retain(|&i| !pinned_by_puzzle(voted, votes, i, config));
    }
    voted.reads >= reads_for(doubtful.len(), config)
        && voted.min_confidence() >= config.trust_min_confidence
        && doubtful_digits.len() <= config.trust_max_doubtful_cells
        && voted.clue_count() >= MIN_CLUES
        && digits_have_ink(voted, votes, config)
}

/// Whether every cell voted a digit is read as empty (or pencil marks) with at most
/// `trust_max_empty_weight_in_digit` mean probability, or is a clue the puzzle needs
/// (`clues::needed_clue`): whether there is a digit at all is not in doubt. A faint mark voted
/// about half a digit, half empty, can be the digit the solution puts there (an erased pencil
/// digit), so neither uniqueness nor the solution refuses it; shown, it claims ink the page
/// does not have.
fn digits_have_ink(voted: &VotedBoard, votes: &Votes, config: &LiveConfig) -> bool {
    let faint: Vec<usize> = (0..81)
        .filter(|&i| voted.values[i] != 0 && !read_as_ink(votes, i, config))
        .collect();
    // The solver's look only for the few faint digits, and only when there are few: a board
    // with many is not settled whatever the puzzle needs.
    faint.len() <= MAX_FAINT_NEEDED_CLUES && faint.iter().all(|&i| needed_clue(voted, i))
}

/// Faint digits (read partly empty) [`digits_have_ink`] may let [`needed_clue`] settle.
const MAX_FAINT_NEEDED_CLUES: usize = 2;

/// Whether the reads give `cell` being empty (or pencil marks) at most
/// `trust_max_empty_weight_in_digit`.
fn read_as_ink(votes: &Votes, cell: usize, config: &LiveConfig) -> bool {
    votes.mean_probability(cell, 0) <= config.trust_max_empty_weight_in_digit
}

/// Whether the rest of the voted board alone gives `cell` the digit voted there (the board
/// without that clue has one solution, with that digit in `cell`), and the reads give the
/// cell being empty at most `trust_max_empty_weight_in_digit`. A misread clue the rest pins
/// is impossible on its own: the true digit would leave the page's puzzle without a solution,
/// so only a second misread could hide it. [`pinned_by_peers`] is the case the cell's own
/// houses settle.
fn pinned_by_puzzle(voted: &VotedBoard, votes: &Votes, cell: usize, config: &LiveConfig) -> bool {
    let value = voted.values[cell];
    if value == 0 || !read_as_ink(votes, cell, config) {
        return false;
    }
    let mut rest = voted.values;
    rest[cell] = 0;
    let found = solve_values(&rest, 2);
    found.is_unique() && found.first.is_some_and(|solution| solution[cell] == value)
}

/// Doubtful cells (voted confidence below `digits::UNCERTAIN_BELOW`) the rest of the board
/// does not pin.
fn unpinned_doubtful(voted: &VotedBoard, votes: &Votes, config: &LiveConfig) -> Vec<usize> {
    let uncertain = voted.uncertain();
    (0..81)
        .filter(|&i| uncertain[i] && !pinned_by_peers(voted, votes, i, config))
        .collect()
}

/// Whether the digit voted in `cell` is the only one its peers' voted digits leave it, and
/// the reads give the cell being empty (or pencil marks) at most
/// `trust_max_empty_weight_in_digit` (a smudge or pencil marks read as the forced digit stays
/// doubtful).
fn pinned_by_peers(voted: &VotedBoard, votes: &Votes, cell: usize, config: &LiveConfig) -> bool {
    let value = voted.values[cell];
    if value == 0 || !read_as_ink(votes, cell, config) {
        return false;
    }
    let seen = Cell::from_index(cell)
        .peers()
        .iter()
        .map(|peer| voted.values[peer.index()])
        .filter(|&v| v != 0)
        .fold(0u16, |seen, v| seen | 1 << v);
    // Every digit but the cell's own among its peers, and not its own (that is a clash the
    // solver refuses anyway).
    seen == 0b11_1111_1110 & !(1 << value)
}

/// Reads a vote needs before it may be trusted: more while some cell is doubtful and not
/// pinned by its peers.
pub(super) fn reads_needed(voted: &VotedBoard, votes: &Votes, config: &LiveConfig) -> u32 {
    reads_for(unpinned_doubtful(voted, votes, config).len(), config)
}

/// [`reads_needed`] for a vote with `doubtful` unpinned doubtful cells.
fn reads_for(doubtful: usize, config: &LiveConfig) -> u32 {
    if doubtful > 0 {
        config.reads_to_trust_doubtful
    } else {
        config.reads_to_trust
    }
}

/// Whether every cell voted empty is safe to leave empty. A faint digit read as empty can
/// leave a board that still has one solution (a nearly full grid, a puzzle with more givens
/// than it needs) — and then the digit on the page is the one that solution puts there. So
/// an empty cell is trusted when it is sure (`trust_min_empty_confidence`), or when the reads
/// give the solution's digit for it almost no weight: whatever ink made the cell doubtful
/// (a smudge, pencil marks, a stray stroke) is not the digit the puzzle would need there.
pub(super) fn doubtful_empties_ruled_out(
    voted: &VotedBoard,
    votes: &Votes,
    solution: &[u8; 81],
    config: &LiveConfig,
) -> bool {
    (0..81).all(|i| {
        voted.values[i] != 0
            || voted.confidence[i] >= config.trust_min_empty_confidence
            || votes.mean_probability(i, solution[i]) <= config.trust_max_solution_weight_in_empty
    })
}

/// Whether every digit cell that disagrees with `solution` is read surely. A board solved
/// from its printed givens shows each entry that disagrees as the user's mistake; a doubtful
/// read of a right entry (a handwritten 2 read as a 9 at 0.7) must not be shown as one, so
/// the board waits for reads that settle it.
pub(super) fn no_doubtful_digit_disagrees(voted: &VotedBoard, solution: &[u8; 81]) -> bool {
    let uncertain = voted.uncertain();
    (0..81).all(|i| voted.values[i] == 0 || voted.values[i] == solution[i] || !uncertain[i])
}

/// Whether a board that would show an entry as the user's mistake (a handwritten entry that
/// disagrees with `solution`) has the reads a doubtful board needs
/// (`LiveConfig::reads_to_trust_doubtful`). Drawing a mistake on the paper is a strong claim,
/// and a misread can hold for the first three reads of a page still settling: a cell of
/// pencil marks read as a handwritten 4 at 0.91 three times, then as empty, was shown as a
/// wrong entry for 32 frames.
pub(super) fn shown_mistakes_have_the_reads(
    voted: &VotedBoard,
    written: &Written,
    solution: &[u8; 81],
    config: &LiveConfig,
) -> bool {
    voted.reads >= config.reads_to_trust_doubtful
        || written
            .entries
            .iter()
            .zip(solution)
            .all(|(&entry, &digit)| entry == 0 || entry == digit)
}

/// Whether no handwritten entry repeats a printed given's digit in one of its houses. A live
/// read that makes an entry clash with the print beside it is far more often a misread (a
/// handwritten 1 read as a confident 2 next to a printed 2) than what the solver wrote; shown,
/// it would tell the user of a mistake on the paper that is not there. Such a board is not
/// shown until the reads change (a photo's check still reports a real clash).
pub(super) fn entries_clear_of_givens(written: &Written) -> bool {
    let is_entry = |cell: Cell| written.entries[cell.index()] != 0;
    let digits: [u8; 81] = std::array::from_fn(|i| written.givens[i] + written.entries[i]);
    conflicts_of(&digits)
        .iter()
        .all(|c| is_entry(c.first) == is_entry(c.second))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::digits::{CellReading, NUM_CLASSES};

    /// A finished grid (a valid solution).
    const FINISHED: &str =
        "416972835723685941598314762674891523182563479935247618249738156851426397367159284";

    pub(in crate::live) fn board(text: &str) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (o, c) in out.iter_mut().zip(text.bytes()) {
            *o = c.saturating_sub(b'0');
        }
        out
    }

    /// Votes of `reads` identical reads of `values`: a cell listed in `doubtful` reads its
    /// value at 0.7 and empty at `empty_weight`, the others their value at 0.99.
    fn votes_of(values: &[u8; 81], doubtful: &[usize], empty_weight: f32, reads: usize) -> Votes {
        repeated(reads, |i| {
            if doubtful.contains(&i) {
                let mut p = [0.0f32; NUM_CLASSES];
                p[values[i] as usize] = 0.7;
                p[0] += empty_weight;
                p[if values[i] == 1 { 2 } else { 1 }] += 0.3 - empty_weight;
                p
            } else {
                sure(values[i])
            }
        })
    }

    /// Class probabilities of a sure read of `value`: 0.99, and 0.01 on another digit.
    pub(in crate::live) fn sure(value: u8) -> [f32; NUM_CLASSES] {
        let mut p = [0.0f32; NUM_CLASSES];
        p[value as usize] = 0.99;
        p[if value == 1 { 2 } else { 1 }] += 0.01;
        p
    }

    /// Votes of `reads` identical reads, cell `i` read with `probabilities(i)`.
    pub(in crate::live) fn repeated(
        reads: usize,
        probabilities: impl Fn(usize) -> [f32; NUM_CLASSES],
    ) -> Votes {
        let readings: Vec<CellReading> = (0..81)
            .map(|i| CellReading::from_probabilities(probabilities(i)))
            .collect();
        let mut votes = Votes::new(10);
        for _ in 0..reads {
            votes.push(&readings);
        }
        votes
    }

    #[test]
    fn a_digit_read_about_as_often_empty_is_not_trusted() {
        let config = LiveConfig::default();
        let values = board(FINISHED);
        // One cell read 0.5 its digit and 0.45 empty (an erased pencil digit), the rest sure:
        // the board solves, and that digit is the solution's, but it is not shown.
        let faint = 40;
        let votes_with = |empty: f32| {
            repeated(8, |i| {
                if i == faint {
                    let mut p = [0.0f32; NUM_CLASSES];
                    p[values[i] as usize] = 0.95 - empty;
                    p[0] = empty;
                    p[if values[i] == 1 { 2 } else { 1 }] += 0.05;
                    p
                } else {
                    sure(values[i])
                }
            })
        };
        let votes = votes_with(0.45);
        let voted = votes.voted().expect("votes");
        assert_eq!(voted.values, values, "the digit still wins the vote");
        assert!(!trustworthy(&voted, &votes, &config));
        // Blurred handwriting, read empty a tenth of the time, is.
        let votes = votes_with(0.1);
        assert!(trustworthy(&votes.voted().expect("votes"), &votes, &config));
    }

    #[test]
    fn a_faint_given_the_puzzle_needs_is_trusted_and_an_unneeded_one_is_not() {
        let config = LiveConfig::default();
        // A 17-clue puzzle: every clue is needed (without any one, several solutions).
        let puzzle = board(crate::sudoku::SEVENTEEN_CLUES);
        let faint_votes = |values: &[u8; 81], faint: &[usize]| {
            repeated(8, |i| {
                if faint.contains(&i) {
                    let mut p = [0.0f32; NUM_CLASSES];
                    p[values[i] as usize] = 0.55;
                    p[0] = 0.4;
                    p[if values[i] == 1 { 2 } else { 1 }] += 0.05;
                    p
                } else {
                    sure(values[i])
                }
            })
        };
        // A given printed light, read 0.55 its digit and 0.4 empty: the puzzle needs it.
        let votes = faint_votes(&puzzle, &[17]);
        let voted = votes.voted().expect("votes");
        assert_eq!(voted.values, puzzle);
        assert!(trustworthy(&voted, &votes, &config));
        // The same read of a digit the rest of the page already pins (a rubbed-out digit on a
        // finished grid): not trusted.
        let finished = board(FINISHED);
        let votes = faint_votes(&finished, &[40]);
        assert!(!trustworthy(
            &votes.voted().expect("votes"),
            &votes,
            &config
        ));
        // More faint digits than the solver is asked about: not trusted, needed or not.
        let votes = faint_votes(&puzzle, &[17, 23, 25]);
        assert!(!trustworthy(
            &votes.voted().expect("votes"),
            &votes,
            &config
        ));
    }

    #[test]
    fn a_finished_grid_doubtful_on_many_cells_is_pinned_by_its_own_digits() {
        let config = LiveConfig::default();
        let values = board(FINISHED);
        let doubtful: Vec<usize> = (0..81).step_by(4).collect();
        assert!(doubtful.len() > config.trust_max_doubtful_cells);
        let votes = votes_of(&values, &doubtful, 0.1, 6);
        let voted = votes.voted().expect("votes");
        assert_eq!(voted.values, values);
        assert!(trustworthy(&voted, &votes, &config));
        // Pinned cells need no extra reads; fewer than a sure board needs are not enough.
        let three = votes_of(&values, &doubtful, 0.1, config.reads_to_trust as usize);
        let voted = three.voted().expect("votes");
        assert_eq!(reads_needed(&voted, &three, &config), config.reads_to_trust);
        assert!(trustworthy(&voted, &three, &config));
        let early = votes_of(&values, &doubtful, 0.1, 2);
        assert!(!trustworthy(
            &early.voted().expect("votes"),
            &early,
            &config
        ));
        // Reads that give those cells a fair chance of being empty (pencil marks, a smudge
        // read as the forced digit): still doubtful, too many of them.
        let smudged = votes_of(&values, &doubtful, 0.28, 6);
        assert!(!trustworthy(
            &smudged.voted().expect("votes"),
            &smudged,
            &config
        ));
    }

    #[test]
    fn doubtful_cells_with_room_for_another_digit_count_against_the_cap() {
        let config = LiveConfig::default();
        // The finished grid's cells with an even row + column (41 clues): only r5c5 and
        // r9c7 see all 8 other digits among their peers.
        let mut values = board(FINISHED);
        for (i, v) in values.iter_mut().enumerate() {
            if (i / 9 + i % 9) % 2 == 1 {
                *v = 0;
            }
        }
        let (pinned, free) = ([40, 78], [0, 2, 4, 6, 8, 10, 12, 14, 16]);
        assert_eq!(config.trust_max_doubtful_cells, 8);
        // Nine doubtful cells with room for another digit: too many.
        let votes = votes_of(&values, &free, 0.1, 6);
        assert!(!trustworthy(
            &votes.voted().expect("votes"),
            &votes,
            &config
        ));
        // Nine doubtful cells, two of them pinned: seven count, within the cap.
        let doubtful: Vec<usize> = pinned.iter().chain(&free[..7]).copied().collect();
        let votes = votes_of(&values, &doubtful, 0.1, 6);
        assert!(trustworthy(&votes.voted().expect("votes"), &votes, &config));
    }

    #[test]
    fn doubtful_empty_cells_are_ruled_out_one_by_one_not_capped() {
        let config = LiveConfig::default();
        let solution = board(FINISHED);
        // 41 clues; twelve empty cells are doubtful (show-through print): 0.8 empty, the rest
        // on a digit that is not the solution's.
        let mut values = solution;
        for (i, v) in values.iter_mut().enumerate() {
            if (i / 9 + i % 9) % 2 == 1 {
                *v = 0;
            }
        }
        let empties: Vec<usize> = (0..81).filter(|&i| values[i] == 0).take(12).collect();
        assert!(empties.len() > config.trust_max_doubtful_cells);
        let read = |weight_on_solution: f32| -> Votes {
            repeated(config.reads_to_trust_doubtful as usize, |i| {
                if empties.contains(&i) {
                    let mut p = [0.0f32; NUM_CLASSES];
                    p[0] = 0.8;
                    p[solution[i] as usize] = weight_on_solution;
                    p[if solution[i] == 1 { 2 } else { 1 }] += 0.2 - weight_on_solution;
                    p
                } else {
                    sure(values[i])
                }
            })
        };
        // Ink that is not the solution's digit: trusted, whatever the number of such cells.
        let votes = read(0.02);
        let voted = votes.voted().expect("votes");
        assert_eq!(voted.values, values);
        assert!(voted.uncertain().iter().filter(|&&u| u).count() >= empties.len());
        assert!(trustworthy(&voted, &votes, &config));
        assert!(doubtful_empties_ruled_out(
            &voted, &votes, &solution, &config
        ));
        // Doubtful empties still need the doubtful board's reads.
        assert_eq!(
            reads_needed(&voted, &votes, &config),
            config.reads_to_trust_doubtful
        );
        // Ink that may be the solution's digit (a faint digit missed): not ruled out.
        let votes = read(0.15);
        let voted = votes.voted().expect("votes");
        assert!(!doubtful_empties_ruled_out(
            &voted, &votes, &solution, &config
        ));
    }

    #[test]
    fn doubtful_clues_the_rest_of_the_puzzle_pins_do_not_count_against_the_cap() {
        let config = LiveConfig::default();
        // 34 clues of the finished grid (chosen at random): of the 34, 19 the rest of the
        // puzzle pins and 15 it needs.
        let values = board(
            "406900800720000941000000060074000500082560400930000010240700050800420007307150080",
        );
        let sure_votes = votes_of(&values, &[], 0.0, 6);
        let sure_board = sure_votes.voted().expect("votes");
        assert_eq!(solve_values(&values, 2).count, 1, "a proper puzzle");
        let without = |i: usize| {
            let mut rest = values;
            rest[i] = 0;
            solve_values(&rest, 2).count
        };
        // Clues their peers do not pin: some the rest of the puzzle pins (it keeps one
        // solution without them), some it needs.
        let unpinned_by_peers: Vec<usize> = (0..81)
            .filter(|&i| values[i] != 0)
            .filter(|&i| !pinned_by_peers(&sure_board, &sure_votes, i, &config))
            .collect();
        let pinned: Vec<usize> = unpinned_by_peers
            .iter()
            .copied()
            .filter(|&i| without(i) == 1)
            .collect();
        let needed: Vec<usize> = unpinned_by_peers
            .iter()
            .copied()
            .filter(|&i| without(i) > 1)
            .collect();
        let over = config.trust_max_doubtful_cells + 1;
        assert!(pinned.len() >= over && needed.len() >= over);
        // Too many doubtful clues, each pinned by the rest: trusted.
        let votes = votes_of(&values, &pinned[..over], 0.1, 6);
        let voted = votes.voted().expect("votes");
        assert_eq!(voted.values, values);
        assert!(trustworthy(&voted, &votes, &config));
        // As many doubtful clues the puzzle needs: too many.
        let votes = votes_of(&values, &needed[..over], 0.1, 6);
        assert!(!trustworthy(
            &votes.voted().expect("votes"),
            &votes,
            &config
        ));
        // Pinned clues whose reads leave a fair chance of an empty cell (a smudge read as
        // the digit the rest forces): they count.
        let votes = votes_of(&values, &pinned[..over], 0.28, 6);
        assert!(!trustworthy(
            &votes.voted().expect("votes"),
            &votes,
            &config
        ));
    }

    #[test]
    fn a_doubtful_digit_is_never_shown_as_a_mistake() {
        let solution = board(FINISHED);
        let mut values = solution;
        // r1c7 holds a handwritten 2, read as a 9.
        values[6] = 9;
        let sure = votes_of(&values, &[], 0.0, 6).voted().expect("votes");
        let doubtful = votes_of(&values, &[6], 0.0, 6).voted().expect("votes");
        assert!(no_doubtful_digit_disagrees(&sure, &solution));
        assert!(!no_doubtful_digit_disagrees(&doubtful, &solution));
        // Read right, a doubtful cell is no mistake to show.
        let right = votes_of(&solution, &[6], 0.0, 6).voted().expect("votes");
        assert!(no_doubtful_digit_disagrees(&right, &solution));
    }

    #[test]
    fn a_mistake_is_shown_only_after_the_reads_of_a_doubtful_board() {
        let config = LiveConfig::default();
        let solution = board(FINISHED);
        let mut written = Written {
            givens: solution,
            entries: [0; 81],
            pencil: [false; 81],
            kinds_known: true,
        };
        // r1c1 (a 4) is an entry, written right.
        written.givens[0] = 0;
        written.entries[0] = 4;
        let few = votes_of(&solution, &[], 0.0, config.reads_to_trust as usize);
        let few = few.voted().expect("votes");
        assert!(shown_mistakes_have_the_reads(
            &few, &written, &solution, &config
        ));
        // Written (or read) wrong: a mistake to show, not on the first three reads.
        written.entries[0] = 7;
        let mut values = solution;
        values[0] = 7;
        let few = votes_of(&values, &[], 0.0, config.reads_to_trust as usize);
        assert!(!shown_mistakes_have_the_reads(
            &few.voted().expect("votes"),
            &written,
            &solution,
            &config
        ));
        let enough = votes_of(&values, &[], 0.0, config.reads_to_trust_doubtful as usize);
        assert!(shown_mistakes_have_the_reads(
            &enough.voted().expect("votes"),
            &written,
            &solution,
            &config
        ));
    }

    #[test]
    fn an_entry_repeating_a_given_of_its_house_is_no_board_to_show() {
        let mut written = Written {
            givens: board(FINISHED),
            entries: [0; 81],
            pencil: [false; 81],
            kinds_known: true,
        };
        // r1c1 (a 4 in FINISHED) as an entry, and its given removed.
        written.givens[0] = 0;
        written.entries[0] = 4;
        assert!(entries_clear_of_givens(&written));
        // Read as a 1 instead: r1c2's printed 1 is in its row.
        written.entries[0] = 1;
        assert!(!entries_clear_of_givens(&written));
        // Wrong but clashing with no given (its box, row and column lost their 8).
        written.entries[0] = 8;
        for peer in Cell::from_index(0).peers().iter() {
            if written.givens[peer.index()] == 8 {
                written.givens[peer.index()] = 0;
            }
        }
        assert!(entries_clear_of_givens(&written));
    }
}
