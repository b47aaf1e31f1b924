//! What the live path knows of the puzzle in view: its votes, its quarter turn (settled by the
//! first read sure of a puzzle's worth of digits), the trusted board, and the caches of its
//! solve and of its split into print and handwriting; and the last gate a stable, trustworthy
//! vote passes to become the trusted board (`earn_trust`: solved, split, and the rules of
//! `trust` that need the solution), for the board's own vote and for a renewal's alike.
//! `reader` decides when to read, vote and trust; this file owns the puzzle's state, the reads
//! that settle its turn, and that gate.

use std::sync::Arc;

use image::{GrayImage, RgbImage};

use super::renew::Renewal;
use super::trust::{
    doubtful_empties_ruled_out, entries_clear_of_givens, no_doubtful_digit_disagrees,
    shown_mistakes_have_the_reads,
};
use super::vote::{VotedBoard, Votes};
use super::{LiveConfig, Overlay};
use crate::digits::orientation::lattice_as_read;
use crate::digits::{self, CellReading};
use crate::scan::{ScanError, Scanner, Written};
use crate::sudoku::MIN_CLUES;
use crate::sudoku::solver::solve_values;
use crate::vision::Lattice;

/// What the reader knows of the puzzle in view.
#[derive(Debug)]
pub(super) struct Puzzle {
    pub(super) id: u64,
    /// How the grid is turned in the frame, once a read sure of enough digits decided it
    /// (until then reads are taken upright).
    pub(super) quarter_turns: Option<u8>,
    pub(super) votes: Votes,
    /// The trusted board, if any.
    pub(super) trusted: Option<Arc<Overlay>>,
    /// Whether a read since the grid was last (re)acquired agrees with `trusted`.
    pub(super) confirmed: bool,
    /// Reads left during which new ink may start a renewal (`renew`): set when the page was
    /// touched (the grid found again after a hand hid it, or a still picture that changed).
    pub(super) renew_reads_left: u32,
    /// The last solve and split, reused while the voted board does not change.
    pub(super) cache: BoardCache,
    /// New ink on the trusted board being voted on its own (`renew`), while the trusted
    /// board is still shown.
    pub(super) renewal: Option<Renewal>,
    /// The previous read's vote, for the stability rule.
    pub(super) last_voted: Option<[u8; 81]>,
    pub(super) frames_since_read: u32,
    /// Reads in a row that [`read`] refused to vote (weak reads that rank a quarter turn
    /// first). Along a lattice a cell off, every cell straddles a line and reads empty, and
    /// such reads are all refused: no vote ever says the board is garbled, so this count
    /// does (`reader::redetection_due`).
    pub(super) reads_refused: u32,
    /// Whether the last vote would show an entry as the user's mistake and waits for the
    /// reads of a doubtful board (`trust::shown_mistakes_have_the_reads`); the lock progress
    /// asks for them.
    pub(super) mistake_waits: bool,
}

impl Puzzle {
    pub(super) fn new(id: u64, window: usize) -> Puzzle {
        Puzzle {
            id,
            quarter_turns: None,
            votes: Votes::new(window),
            trusted: None,
            confirmed: false,
            renew_reads_left: 0,
            cache: BoardCache::default(),
            renewal: None,
            last_voted: None,
            frames_since_read: 0,
            reads_refused: 0,
            mistake_waits: false,
        }
    }

    /// Drops the reads voted so far and the vote the stability rule compares with (they were
    /// of other cells than the next reads).
    pub(super) fn forget_reads(&mut self) {
        self.votes.clear();
        self.last_voted = None;
        self.mistake_waits = false;
        self.renewal = None;
    }
}

/// The last solve and print/handwriting split of a puzzle's voted boards: a board read again
/// and again is solved and measured once.
#[derive(Debug, Default)]
pub(super) struct BoardCache {
    /// The last givens sent to the solver and its unique solution, if any.
    pub(super) solved: Option<([u8; 81], Option<[u8; 81]>)>,
    /// The last voted board split by how it was written, and that board (measured once per
    /// board that is ready to be trusted).
    written: Option<([u8; 81], Written)>,
}

impl BoardCache {
    /// `voted` (the vote of `votes`) split by how it was written (see
    /// `writing::split_voted`), measured on `frame` only when the board differs from the last
    /// one split.
    pub(super) fn written_for(
        &mut self,
        voted: &VotedBoard,
        votes: &Votes,
        frame: &RgbImage,
        lattice: &Lattice,
        last: &[CellReading],
    ) -> Written {
        if let Some((values, w)) = &self.written
            && *values == voted.values
        {
            return w.clone();
        }
        let w = super::writing::split_voted(frame, lattice, voted, votes, last);
        self.written = Some((voted.values, w.clone()));
        w
    }

    /// The unique solution of `givens` (cached for the last givens asked).
    pub(super) fn solution(&mut self, givens: &[u8; 81]) -> Option<[u8; 81]> {
        if let Some((g, s)) = &self.solved
            && g == givens
        {
            return *s;
        }
        let found = solve_values(givens, 2);
        let s = found.is_unique().then_some(found.first).flatten();
        self.solved = Some((*givens, s));
        s
    }
}

/// Reads the 81 cells under `lattice` (image order): the first read of a puzzle chooses its
/// quarter turn, later ones read in it. Readings are as the puzzle reads.
pub(super) fn read(
    scanner: &mut Scanner,
    puzzle: &mut Puzzle,
    gray: &GrayImage,
    lattice: &Lattice,
) -> Result<Option<Vec<CellReading>>, ScanError> {
    let read = read_settling_turn(scanner, puzzle, gray, lattice)?;
    puzzle.reads_refused = match read {
        Some(_) => 0,
        None => puzzle.reads_refused.saturating_add(1),
    };
    Ok(read)
}

/// [`read`] without counting refused reads.
fn read_settling_turn(
    scanner: &mut Scanner,
    puzzle: &mut Puzzle,
    gray: &GrayImage,
    lattice: &Lattice,
) -> Result<Option<Vec<CellReading>>, ScanError> {
    if let Some(k) = puzzle.quarter_turns {
        let as_read = Lattice {
            points_in_image: lattice_as_read(&lattice.points_in_image, k),
        };
        return scanner.read_cells(gray, &as_read).map(Some);
    }
    // The turn is settled by a read sure of a puzzle's worth of digits. The first read of a
    // page is often of a frame still settling (autofocus, motion blur) that reads two or three
    // digits, and any turn can rank first on those; settled there, every later read would be
    // of the page turned, and no vote could ever be trusted.
    let oriented = scanner.read_oriented(gray, lattice)?;
    let sure_digits = oriented
        .readings
        .iter()
        .filter(|r| r.class.digit().is_some() && !digits::is_uncertain(r.confidence))
        .count();
    if sure_digits >= MIN_CLUES {
        if oriented.quarter_turns != 0 {
            // The reads voted so far were taken upright.
            puzzle.forget_reads();
        }
        puzzle.quarter_turns = Some(oriented.quarter_turns);
        Ok(Some(oriented.readings))
    } else if oriented.quarter_turns == 0 {
        // Upright until a sure read says otherwise: most pages are held upright.
        Ok(Some(oriented.readings))
    } else {
        // A weak read that ranks a turn first is no evidence either way.
        Ok(None)
    }
}

/// The picture a vote's last read came from: the colour frame, the grid in it as the puzzle
/// reads, and the read.
#[derive(Clone, Copy)]
pub(super) struct Seen<'a> {
    pub(super) frame: &'a RgbImage,
    pub(super) lattice: &'a Lattice,
    pub(super) readings: &'a [CellReading],
}

/// The overlay a stable, trustworthy vote earns (none: solved neither from its printed givens
/// nor as a whole, or a doubtful cell stands in the way), and whether it waits for the reads
/// that showing a mistake needs (`trust::shown_mistakes_have_the_reads`).
pub(super) fn earn_trust(
    cache: &mut BoardCache,
    puzzle_id: u64,
    voted: &VotedBoard,
    votes: &Votes,
    seen: Seen<'_>,
    config: &LiveConfig,
) -> (Option<Arc<Overlay>>, bool) {
    // A half-done puzzle is solved from its printed givens (its entries may be wrong); a
    // board whose print could not be told from its handwriting, or whose printed digits are
    // no proper puzzle (a split gone wrong), as a whole, as before.
    let written = cache.written_for(voted, votes, seen.frame, seen.lattice, seen.readings);
    let (written, solution) = match written
        .kinds_known
        .then(|| cache.solution(&written.givens))
        .flatten()
    {
        Some(solution) => (written, Some(solution)),
        None => (all_givens(&written), cache.solution(&voted.values)),
    };
    let Some(solution) = solution else {
        return (None, false);
    };
    if !shown_mistakes_have_the_reads(voted, &written, &solution, config) {
        return (None, true);
    }
    let trusted = entries_clear_of_givens(&written)
        && doubtful_empties_ruled_out(voted, votes, &solution, config)
        && no_doubtful_digit_disagrees(voted, &solution);
    let overlay = trusted.then(|| {
        Arc::new(Overlay {
            puzzle_id,
            givens: voted.values,
            solution,
            written,
            unsure: voted.uncertain(),
        })
    });
    (overlay, false)
}

/// `written` with every digit counted as a given (print not told from handwriting).
pub(super) fn all_givens(written: &Written) -> Written {
    Written {
        givens: std::array::from_fn(|i| written.givens[i] + written.entries[i]),
        entries: [0; 81],
        pencil: written.pencil,
        kinds_known: false,
    }
}
