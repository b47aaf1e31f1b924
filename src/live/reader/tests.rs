//! Unit tests of the reader: the restored board and reads of a replaced puzzle.

use super::*;
use crate::digits::NUM_CLASSES;
use crate::live::trust::tests::{board, repeated, sure};
use crate::live::vote::tests::read;
use crate::vision::Point;

/// A puzzle (the first of ../shared/puzzles/17-clue.txt) and its solution.
const PUZZLE: &str =
    "000000000000000001000002030000003020001040000005000060030000004070080009620007000";
const SOLUTION: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

/// A blank frame and a lattice over all of it: the picture a read came from, for the votes
/// (its pixels are not looked at by these tests).
fn picture() -> (RgbImage, Lattice) {
    let lattice = Lattice::from_corners([
        Point::new(0.0, 0.0),
        Point::new(89.0, 0.0),
        Point::new(89.0, 89.0),
        Point::new(0.0, 89.0),
    ]);
    (RgbImage::new(90, 90), lattice)
}

/// The read that brings a replaced board back may leave a cell doubtful (`agrees` lets a
/// few through). The board comes back with the reads it was voted from, so that read
/// does not stand as a vote of its own that moved away from the board (stop 52: a dev
/// clip of a printed page lost its overlay for 5 frames after a finger).
#[test]
fn a_replaced_board_comes_back_with_its_reads_and_stays() {
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let (givens, solution) = (board(PUZZLE), board(SOLUTION));
    assert_eq!(
        crate::sudoku::solver::solve_values(&givens, 2).first,
        Some(solution)
    );
    let window = reader.config.vote_window;
    reader.replaced = Some(Replaced {
        board: Arc::new(Overlay::unsplit(7, givens, solution)),
        votes: repeated(window, |i| sure(givens[i])),
        quarter_turns: Some(0),
    });
    reader.puzzle = Puzzle::new(8, window);
    reader.puzzle.quarter_turns = Some(0);
    // An empty cell (r1c1, a 9 in the solution) read doubtfully as a 5 (a smudge, a
    // rubbed-out pencil digit): an agreeing read, as `agrees` goes.
    let doubtful = 0;
    assert_eq!(givens[doubtful], 0);
    let mut readings = read(&givens, 0.99);
    let mut p = [0.02f32; NUM_CLASSES];
    p[5] = 0.5;
    p[0] = 0.32;
    readings[doubtful] = CellReading::from_probabilities(p);
    assert!(readings[doubtful].is_uncertain() && readings[doubtful].class.value() == 5);
    assert!(agrees(&readings, &givens));

    let (frame, lattice) = picture();
    for k in 0..3 {
        reader.take_read(Seen {
            frame: &frame,
            lattice: &lattice,
            readings: &readings,
        });
        assert_eq!(reader.puzzle.id, 7, "read {k}: the replaced puzzle is back");
        let trusted = reader.puzzle.trusted.as_ref().map(|b| b.givens);
        assert_eq!(trusted, Some(givens), "read {k}: its board is shown");
    }
}

/// A finger over a page still being read changes its ink twice: the tracker replaces the
/// page's puzzle by the picture under the finger, and that one, before any read, by the
/// page again. The page's reads wait through both, and the next agreeing read takes them
/// back (stop 53: a dev clip read 5 of its 6 reads before the finger, restarted from one
/// after it, and was shown 0.23 s later).
#[test]
fn reads_held_before_a_finger_come_back_after_it() {
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let givens = board(PUZZLE);
    let (frame, lattice) = picture();
    let readings = read(&givens, 0.8);
    let take = |reader: &mut LiveReader| {
        reader.take_read(Seen {
            frame: &frame,
            lattice: &lattice,
            readings: &readings,
        })
    };
    for _ in 0..5 {
        take(&mut reader);
    }
    assert_eq!(reader.puzzle.votes.len(), 5);
    let page = reader.puzzle.id;
    // The finger comes (no read of it), then goes.
    let window = reader.config.vote_window;
    for id in [page + 1, page + 2] {
        replace_puzzle(
            &mut reader.puzzle,
            Puzzle::new(id, window),
            &mut reader.replaced,
            &mut reader.replaced_votes,
        );
    }
    assert!(reader.puzzle.votes.is_empty());
    take(&mut reader);
    assert_eq!(
        reader.puzzle.votes.len(),
        6,
        "the five reads before the finger, and this one"
    );
}
