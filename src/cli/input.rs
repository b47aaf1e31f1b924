//! Reading puzzle text for the engine commands: one puzzle argument (the text itself, a file,
//! or `-` for standard input) refused over [`MAX_PUZZLE_TEXT`], and collection files streamed
//! line by line in constant memory (`rate`, `count`), where a missing or empty file is
//! reported and the batch goes on.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use sudoku_lens::sudoku::{Entry, MAX_PUZZLE_TEXT, collection_entry};

/// Reads a puzzle argument: `-` for standard input, an existing file, or the puzzle text
/// itself. Returns the text and a label for messages. Text over [`MAX_PUZZLE_TEXT`] is refused
/// before it is read whole; an argument that names no file but looks like a path (a `/` or
/// `\`, or a file extension) is reported as a missing file, not parsed as a puzzle.
pub fn read_puzzle_arg(arg: &str) -> anyhow::Result<(String, String)> {
    if arg == "-" {
        let text = read_bounded(std::io::stdin().lock(), "standard input")?;
        return Ok((text, "standard input".into()));
    }
    let path = Path::new(arg);
    if path.is_file() {
        let label = path.display().to_string();
        let file = File::open(path).with_context(|| format!("cannot open {label}"))?;
        let text = read_bounded(file, &label)?;
        return Ok((text, label));
    }
    if path.is_dir() {
        bail!("{arg} is a folder, not a puzzle or a puzzle file");
    }
    if looks_like_path(arg) {
        bail!(
            "no such file: {arg} (a puzzle is given as its text, a file, or - for standard input)"
        );
    }
    if arg.len() > MAX_PUZZLE_TEXT {
        bail!(
            "the puzzle argument is {} bytes, over the limit of 1 MiB",
            arg.len()
        );
    }
    Ok((arg.to_string(), "the puzzle argument".into()))
}

/// Whether a single-line argument that is not a file was most likely meant as one: it holds a
/// path separator or ends in a file extension (`.txt`, `.sdk`). Puzzle text has neither.
fn looks_like_path(arg: &str) -> bool {
    if arg.contains('\n') {
        return false;
    }
    if arg.contains('/') || arg.contains('\\') {
        return true;
    }
    match arg.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=8).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// Reads all of `reader` as UTF-8 text, refusing more than [`MAX_PUZZLE_TEXT`] bytes without
/// reading further.
fn read_bounded(reader: impl Read, label: &str) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_PUZZLE_TEXT as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {label}"))?;
    if bytes.len() > MAX_PUZZLE_TEXT {
        bail!(
            "{label} holds more than 1 MiB: a puzzle is 81 or 729 characters (use `rate` or `count` for a collection)"
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{label} is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Why one line of a collection could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineProblem {
    /// Longer than [`MAX_PUZZLE_TEXT`]: skipped unread.
    TooLong,
    /// Not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LineProblem::TooLong => "line longer than 1 MiB, skipped",
            LineProblem::NotUtf8 => "line is not UTF-8 text",
        })
    }
}

/// The lines of a reader, one at a time into one buffer, each capped at [`MAX_PUZZLE_TEXT`]
/// bytes (the rest of a longer line is skipped unread into memory): constant memory whatever
/// the input.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line_no: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            buf: Vec::with_capacity(256),
            line_no: 0,
        }
    }

    /// The next line (without its line break) and its one-based number; `Ok(None)` at the end.
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, Result<&str, LineProblem>)>> {
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            if !too_long {
                if self.buf.len() + chunk.len() > MAX_PUZZLE_TEXT {
                    too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            self.reader.consume(used);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        if too_long {
            return Ok(Some((self.line_no, Err(LineProblem::TooLong))));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some((
            self.line_no,
            std::str::from_utf8(&self.buf).map_err(|_| LineProblem::NotUtf8),
        )))
    }
}

/// What a pass over collection files met besides puzzles.
#[derive(Debug, Default, Clone, Copy)]
pub struct BatchReport {
    /// Files that could not be opened or read to the end.
    pub unreadable: usize,
    /// Files (or standard input) without a single puzzle line.
    pub empty: usize,
    /// Lines skipped because they are too long or not text.
    pub bad_lines: usize,
}

impl BatchReport {
    /// Whether anything went wrong with the inputs themselves.
    pub fn failed(&self) -> bool {
        self.unreadable + self.empty + self.bad_lines > 0
    }

    /// A one-line account for the summary, empty when nothing went wrong.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.unreadable > 0 {
            parts.push(format!("{} unreadable file(s)", self.unreadable));
        }
        if self.empty > 0 {
            parts.push(format!("{} file(s) without puzzles", self.empty));
        }
        if self.bad_lines > 0 {
            parts.push(format!("{} unreadable line(s)", self.bad_lines));
        }
        parts.join(", ")
    }
}

/// Streams the puzzle lines of every input (`-` is standard input) to `each(file, line,
/// entry)`, reporting on stderr — and counting — a file that cannot be read, a file without
/// puzzles and a line that is too long or not text, and going on with the rest. `each` may
/// stop the whole pass by returning an error (a failed write to stdout).
pub fn for_each_entry(
    inputs: &[PathBuf],
    mut each: impl FnMut(&str, usize, Entry<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<BatchReport> {
    let mut report = BatchReport::default();
    for input in inputs {
        let (label, reader): (String, Box<dyn BufRead>) = if input.as_os_str() == "-" {
            ("standard input".into(), Box::new(std::io::stdin().lock()))
        } else {
            let label = input.display().to_string();
            match File::open(input) {
                Ok(f) if f.metadata().is_ok_and(|m| m.is_dir()) => {
                    eprintln!("{label}: is a folder, not a puzzle file");
                    report.unreadable += 1;
                    continue;
                }
                Ok(f) => (label, Box::new(BufReader::with_capacity(1 << 16, f))),
                Err(e) => {
                    eprintln!("{label}: {}", open_error(&e));
                    report.unreadable += 1;
                    continue;
                }
            }
        };
        let mut lines = Lines::new(reader);
        let mut puzzles = 0usize;
        loop {
            let (line_no, line) = match lines.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(e) => {
                    eprintln!("{label}: cannot read further: {e}");
                    report.unreadable += 1;
                    break;
                }
            };
            match line {
                Ok(text) => {
                    if let Some(entry) = collection_entry(text) {
                        puzzles += 1;
                        each(&label, line_no, entry)?;
                    }
                }
                Err(problem) => {
                    eprintln!("{label}:{line_no}: {problem}");
                    report.bad_lines += 1;
                }
            }
        }
        if puzzles == 0 {
            eprintln!("{label}: no puzzles found (one puzzle a line; blank and # lines skipped)");
            report.empty += 1;
        }
    }
    Ok(report)
}

/// "no such file" rather than the OS's wording for the common case.
fn open_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        _ => format!("cannot open: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(bytes: &[u8]) -> Vec<(usize, Result<String, LineProblem>)> {
        let mut lines = Lines::new(std::io::BufReader::with_capacity(7, bytes));
        let mut out = Vec::new();
        while let Some((n, l)) = lines.next_line().unwrap() {
            out.push((n, l.map(str::to_string)));
        }
        out
    }

    #[test]
    fn lines_split_on_newlines_across_buffer_refills() {
        let got = all_lines(b"first line\r\n\nsecond, longer than the buffer\nlast");
        assert_eq!(
            got,
            vec![
                (1, Ok("first line".to_string())),
                (2, Ok(String::new())),
                (3, Ok("second, longer than the buffer".to_string())),
                (4, Ok("last".to_string())),
            ]
        );
        assert!(all_lines(b"").is_empty());
        assert_eq!(all_lines(b"\xff\n")[0].1, Err(LineProblem::NotUtf8));
    }

    #[test]
    fn an_overlong_line_is_skipped_and_the_next_one_read() {
        let mut text = vec![b'1'; MAX_PUZZLE_TEXT + 10];
        text.extend_from_slice(b"\nnext\n");
        let got = all_lines(&text);
        assert_eq!(got[0], (1, Err(LineProblem::TooLong)));
        assert_eq!(got[1], (2, Ok("next".to_string())));
    }

    #[test]
    fn paths_are_told_from_puzzle_text() {
        assert!(looks_like_path("puzzles/missing.txt"));
        assert!(looks_like_path("missing.txt"));
        assert!(looks_like_path("C:\\puzzles"));
        assert!(!looks_like_path(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        ));
        assert!(!looks_like_path(":0100:1:1+2.3:411:"));
        assert!(!looks_like_path("12x4"));
    }
}
