//! New ink on a locked board: the user writes an answer (or rubs one out) while the camera
//! watches. Right after the page was touched (the grid hidden by the hand that writes and
//! found again, or a picture held still that then changed), a read that differs from the
//! locked board only in cells the print leaves free, each read surely, starts a renewal: the
//! following reads are voted on their own while the trusted board stays shown, and the
//! renewed vote replaces it once it earns trust by the same rules as a first lock and differs
//! from it only in such cells. Voted into the old window instead, one read of the new ink
//! would be outweighed by ten of the old page, and a still camera gives no more.
//!
//! Only a touched page renews: on a camera that keeps moving, a rubbed-out pencil digit left
//! on the page reads as a digit on some frames and as empty on others, and a fresh vote of a
//! few reads could take it in; there the board's own window of reads outweighs it.
//!
//! Owns the renewal's votes and the rules that start and bound one; when to read, when the
//! page was touched and what earns trust are `reader`'s and `trust`'s.

use super::puzzle::{Puzzle, Seen, earn_trust};
use super::trust::trustworthy;
use super::vote::Votes;
use super::{LiveConfig, Overlay};
use crate::digits::CellReading;

/// Most printed givens a read that starts a renewal may read doubtfully otherwise than the
/// trusted board (a blurred stroke, a shadow).
const RENEW_MAX_DOUBTFUL_DIFFERENCES: usize = 3;

/// Reads after the page was touched during which a renewal may start: the first read after
/// the hand went may be of a frame still blurred by its motion.
pub(super) const RENEW_READS_AFTER_TOUCH: u32 = 3;

/// The reads since new ink was seen on a trusted board, voted apart from the board's own.
#[derive(Clone, Debug)]
pub(super) struct Renewal {
    pub(super) votes: Votes,
    /// The previous read's vote of the renewal, for the stability rule.
    pub(super) last_voted: Option<[u8; 81]>,
    /// Cells (as the puzzle reads) that some read of the renewal showed as new ink
    /// ([`new_ink`]): the only cells the renewed board may change.
    renewed: [bool; 81],
}

impl Renewal {
    /// A renewal over `window` reads, starting with none.
    pub(super) fn new(window: usize) -> Renewal {
        Renewal {
            votes: Votes::new(window),
            last_voted: None,
            renewed: [false; 81],
        }
    }

    /// Votes one read, which showed the cells `new` as new ink.
    pub(super) fn push(&mut self, readings: &[CellReading], new: &[bool; 81]) {
        self.votes.push(readings);
        for (renewed, &n) in self.renewed.iter_mut().zip(new) {
            *renewed |= n;
        }
    }

    /// Whether `voted` differs from `trusted` only in cells shown as new ink.
    pub(super) fn changes_only_new_ink(&self, voted: &[u8; 81], trusted: &[u8; 81]) -> bool {
        (0..81).all(|i| voted[i] == trusted[i] || self.renewed[i])
    }
}

/// The cells where `readings` (81, as the puzzle reads) show new ink on `trusted`, or `None`
/// when the read is not of that board: some printed given reads surely otherwise (another
/// page, or a misread, left to the board's own vote), or more than
/// [`RENEW_MAX_DOUBTFUL_DIFFERENCES`] read doubtfully otherwise.
///
/// New ink is a cell the print leaves free that reads surely otherwise than the board: a
/// digit where the board has none or another one, read with at most `max_empty_weight`
/// probability of being empty or pencil marks (handwriting in a webcam frame reads doubtfully
/// as to which digit, but surely as ink), or a cell read surely empty where the board has an
/// entry (rubbed out).
///
/// A board whose print was not told from its handwriting counts every digit as printed, so
/// only writing in an empty cell renews it.
pub(super) fn new_ink(
    readings: &[CellReading],
    trusted: &Overlay,
    max_empty_weight: f32,
) -> Option<[bool; 81]> {
    if readings.len() != 81 {
        return None;
    }
    let printed = |i: usize| {
        trusted.givens[i] != 0 && (trusted.written.givens[i] != 0 || !trusted.written.kinds_known)
    };
    let mut new = [false; 81];
    let mut doubtful_print = 0;
    for (i, r) in readings.iter().enumerate() {
        let value = r.class.value();
        if value == trusted.givens[i] {
            continue;
        }
        if printed(i) {
            if !r.is_uncertain() {
                return None;
            }
            doubtful_print += 1;
        } else if value != 0 {
            new[i] = r.empty_probability() <= max_empty_weight;
        } else {
            new[i] = !r.is_uncertain();
        }
    }
    (doubtful_print <= RENEW_MAX_DOUBTFUL_DIFFERENCES).then_some(new)
}

/// Whether [`new_ink`] finds any.
pub(super) fn shows_new_ink(
    readings: &[CellReading],
    trusted: &Overlay,
    max_empty_weight: f32,
) -> bool {
    new_ink(readings, trusted, max_empty_weight).is_some_and(|new| new.contains(&true))
}

/// Votes the read `seen` into the renewal of `puzzle`'s locked board, starting one when it
/// shows new ink right after the page was touched, and adopts the renewed vote once it earns
/// trust. False when the read is for the board's own vote (not locked, or nothing new).
pub(super) fn renew(puzzle: &mut Puzzle, seen: Seen<'_>, config: &LiveConfig) -> bool {
    let readings = seen.readings;
    let Some(trusted) = puzzle.trusted.clone().filter(|_| puzzle.confirmed) else {
        puzzle.renewal = None;
        return false;
    };
    let new =
        new_ink(readings, &trusted, config.trust_max_empty_weight_in_digit).unwrap_or([false; 81]);
    if puzzle.renewal.is_none() {
        // Only right after the page was touched (see the module docs).
        let touched = puzzle.renew_reads_left > 0;
        puzzle.renew_reads_left = puzzle.renew_reads_left.saturating_sub(1);
        if !(touched && new.contains(&true)) {
            return false;
        }
        tracing::debug!(puzzle = puzzle.id, "new ink on the trusted board");
        puzzle.renewal = Some(Renewal::new(config.vote_window));
    }
    let Some(renewal) = puzzle.renewal.as_mut() else {
        return false;
    };
    renewal.push(readings, &new);
    let Some(voted) = renewal.votes.voted() else {
        return true;
    };
    if voted.values == trusted.givens {
        // The ink is gone (a finger, a shadow) or was misread once: the board stands.
        puzzle.renewal = None;
        return true;
    }
    let stable = renewal.last_voted.replace(voted.values) == Some(voted.values);
    if stable
        && renewal.changes_only_new_ink(&voted.values, &trusted.givens)
        && trustworthy(&voted, &renewal.votes, config)
    {
        let (overlay, _) = earn_trust(
            &mut puzzle.cache,
            puzzle.id,
            &voted,
            &renewal.votes,
            seen,
            config,
        );
        if let Some(overlay) = overlay
            && let Some(renewal) = puzzle.renewal.take()
        {
            tracing::debug!(
                puzzle = puzzle.id,
                board = %super::digits_text(&voted.values),
                "the new ink is trusted"
            );
            puzzle.votes = renewal.votes;
            puzzle.last_voted = Some(voted.values);
            puzzle.mistake_waits = false;
            puzzle.trusted = Some(overlay);
            return true;
        }
    }
    if puzzle
        .renewal
        .as_ref()
        .is_some_and(|r| r.votes.len() >= config.vote_window)
    {
        // A full window that earns no trust: the board stands, until the page is touched
        // again and a read shows the ink.
        puzzle.renewal = None;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::NUM_CLASSES;
    use crate::live::vote::tests::read;
    use crate::scan::Written;

    fn overlay(printed: [u8; 81], entries: [u8; 81], kinds_known: bool) -> Overlay {
        let givens = std::array::from_fn(|i| printed[i] + entries[i]);
        let mut o = Overlay::unsplit(1, givens, [0; 81]);
        o.written = Written {
            givens: printed,
            entries,
            pencil: [false; 81],
            kinds_known,
        };
        o
    }

    /// A reading of `digit` at `p`, with `empty` probability of being empty and the rest
    /// spread over the other classes.
    fn reading(digit: u8, p: f32, empty: f32) -> CellReading {
        let mut probs = [(1.0 - p - empty) / 9.0; NUM_CLASSES];
        probs[digit as usize] = p;
        probs[0] = empty;
        CellReading::from_probabilities(probs)
    }

    #[test]
    fn sure_ink_off_the_print_renews_but_a_changed_given_does_not() {
        let mut printed = [0u8; 81];
        printed[..4].copy_from_slice(&[5, 3, 8, 1]);
        printed[10] = 3;
        let mut entries = [0u8; 81];
        entries[20] = 7;
        let board = overlay(printed, entries, true);
        let same: [u8; 81] = std::array::from_fn(|i| printed[i] + entries[i]);
        let w = 0.25;
        assert!(!shows_new_ink(&read(&same, 0.99), &board, w), "nothing new");

        let mut written = same;
        written[40] = 4;
        assert!(
            shows_new_ink(&read(&written, 0.99), &board, w),
            "an answer written"
        );
        let new = new_ink(&read(&written, 0.99), &board, w).expect("the same board");
        assert_eq!(new.iter().filter(|&&n| n).count(), 1);
        assert!(new[40]);
        // Handwriting read doubtfully as to its digit, but surely as ink: new ink.
        let mut doubtful_digit = read(&same, 0.99);
        doubtful_digit[40] = reading(4, 0.7, 0.05);
        assert!(shows_new_ink(&doubtful_digit, &board, w));
        // A faint mark, about half empty: no evidence.
        let mut faint = read(&same, 0.99);
        faint[40] = reading(4, 0.55, 0.4);
        assert!(!shows_new_ink(&faint, &board, w));
        let mut rubbed = same;
        rubbed[20] = 0;
        assert!(
            shows_new_ink(&read(&rubbed, 0.99), &board, w),
            "an entry rubbed out"
        );

        let mut other_page = written;
        other_page[10] = 8;
        assert!(new_ink(&read(&other_page, 0.99), &board, w).is_none());
        // The same writing on a board whose print was not told from its handwriting: the
        // entry counts as print, the empty cell does not.
        let unsplit = overlay(same, [0; 81], false);
        assert!(shows_new_ink(&read(&written, 0.99), &unsplit, w));
        assert!(!shows_new_ink(&read(&rubbed, 0.99), &unsplit, w));

        // New ink while four printed givens read doubtfully otherwise: a smeared read, not
        // evidence; three are tolerated.
        let mut smeared = read(&written, 0.99);
        for cell in smeared.iter_mut().take(4) {
            *cell = reading(9, 0.5, 0.1);
        }
        assert!(!shows_new_ink(&smeared, &board, w));
        smeared[3] = read(&written, 0.99)[3].clone();
        assert!(shows_new_ink(&smeared, &board, w));
        assert!(!shows_new_ink(&read(&written, 0.99)[..80], &board, w));
    }

    #[test]
    fn a_renewal_changes_only_cells_shown_as_new_ink() {
        let mut renewal = Renewal::new(4);
        let mut trusted = [0u8; 81];
        trusted[1] = 5;
        let mut voted = trusted;
        voted[0] = 7;
        renewal.push(&read(&voted, 0.99), &[false; 81]);
        assert!(!renewal.changes_only_new_ink(&voted, &trusted));
        let mut new = [false; 81];
        new[0] = true;
        renewal.push(&read(&voted, 0.99), &new);
        assert!(renewal.changes_only_new_ink(&voted, &trusted));
        assert!(renewal.changes_only_new_ink(&trusted, &trusted));
        assert_eq!(renewal.votes.len(), 2);
    }
}
