//! The lines of puzzle collection files (a child module of `parse`): which token of a line is
//! the puzzle and which its reference rating, blank and `#` comment lines skipped. It finds the
//! puzzle text; [`parse_puzzle`] reads it.
//!
//! [`parse_puzzle`]: super::parse_puzzle

/// One puzzle line of a collection file, as [`collection_entry`] reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry<'a> {
    /// The puzzle text, for [`parse_puzzle`](super::parse_puzzle).
    pub puzzle: &'a str,
    /// The reference rating written after the puzzle (`id puzzle rating`), when there is one.
    pub rating: Option<f32>,
}

/// Reads one line of a collection file: `None` for a blank line or a `#` comment; a line
/// starting with `:` is a HoDoKu library line, taken whole; otherwise the first
/// whitespace-separated token of 81 or 729 characters is the puzzle and a number right after
/// it the reference rating (so `puzzle`, `puzzle rating` and `id puzzle rating` lines all
/// work), and a line without such a token is given whole, so that [`parse_puzzle`] reports
/// what is wrong with it.
///
/// [`parse_puzzle`]: super::parse_puzzle
pub fn collection_entry(line: &str) -> Option<Entry<'_>> {
    let line = line.trim_start_matches('\u{feff}').trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    if line.starts_with(':') {
        return Some(Entry {
            puzzle: line,
            rating: None,
        });
    }
    let mut tokens = line.split_whitespace();
    while let Some(t) = tokens.next() {
        if matches!(t.chars().count(), 81 | 729) {
            let rating = tokens
                .next()
                .and_then(|r| r.parse::<f32>().ok())
                .filter(|r| r.is_finite());
            return Some(Entry { puzzle: t, rating });
        }
    }
    Some(Entry {
        puzzle: line,
        rating: None,
    })
}

/// The puzzles of a collection text, one per line, as [`collection_entry`] reads them, with
/// the one-based line number.
pub fn collection_puzzles(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| collection_entry(line).map(|e| (i + 1, e.puzzle)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collection_lines_give_their_puzzle_token() {
        let p = "1".repeat(81);
        let text = format!("# header\n\n{p}\n  id7 {p} 4.2\nnot a puzzle\n");
        let got: Vec<(usize, &str)> = collection_puzzles(&text).collect();
        assert_eq!(got, [(3, p.as_str()), (4, p.as_str()), (5, "not a puzzle")]);
    }
}
