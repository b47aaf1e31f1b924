//! The engine's command line: `solve`, `hint`, `techniques`, `rate` — outputs, JSON shape and
//! exit codes (0 ok, 1 invalid/unsolvable, 2 usage).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");
/// A 17-clue puzzle from ../shared/puzzles/17-clue.txt.
const P17: &str =
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000";

/// A solved grid (the Wikipedia example).
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("binary runs")
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // The command may stop reading early (input over the size limit): a failed write is its
    // answer, not the test's failure.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("wait")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn solve_json_has_the_documented_shape() {
    let o = run(&["solve", P17, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    for key in [
        "puzzle", "solution", "unique", "rating", "level", "guesses", "steps",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["unique"], true);
    let sol = v["solution"].as_str().unwrap();
    assert_eq!(sol.len(), 81);
    // The solution keeps every given.
    for (p, s) in P17.chars().zip(sol.chars()) {
        if p != '0' {
            assert_eq!(p, s);
        }
    }
    let steps = v["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    let first = &steps[0];
    assert!(first["text"].as_str().unwrap().contains(':'));
    let pl = &first["placements"][0];
    assert!(pl["cell"].as_str().unwrap().starts_with('r'));
    assert!(pl["digit"].as_u64().unwrap() >= 1);
}

#[test]
fn solve_text_from_stdin_ends_with_grid() {
    let o = run_stdin(&["solve", "-"], &format!("# a comment\n{P17}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1. "));
    assert!(out.contains("------+-------+------"));
    assert!(out.contains("unique solution"));
}

#[test]
fn bad_character_is_located_and_exits_1() {
    let mut bad = P17.to_string();
    bad.replace_range(40..41, "x");
    let o = run(&["solve", &bad]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("line 1, column 41"), "{err}");
    assert!(err.contains("'x'"), "{err}");
}

#[test]
fn duplicate_given_names_both_cells() {
    let dup = format!("11{}", &P17[2..]);
    let o = run(&["solve", &dup]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("duplicate given 1 in r1: r1c1 and r1c2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unsolvable_exits_1() {
    // Valid givens, but r1c1 has no candidate left.
    let p = ".23456789\n1........\n.........\n.........\n.........\n.........\n.........\n.........\n........1";
    let o = run(&["solve", p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no solution"), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["solve"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    let o = run(&["hint", P17, "--technique", "no-such-thing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("techniques"));
}

#[test]
fn hint_gives_the_easiest_step_and_named_ones() {
    let o = run(&["hint", P17]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("Full House")
            || text.starts_with("Hidden Single")
            || text.starts_with("Naked Single"),
        "{text}"
    );
    let o = run(&["hint", P17, "--technique", "hidden-single", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["technique"], "Hidden Single");
    // With one empty cell no Jellyfish can exist: exit 1 with a message.
    let almost = format!(".{}", &SOLVED[1..]);
    let o = run(&["hint", &almost, "--technique", "jellyfish"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no Jellyfish"), "{}", stderr(&o));
}

#[test]
fn techniques_lists_every_id() {
    let o = run(&["techniques"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for id in [
        "full-house",
        "x-wing",
        "skyscraper",
        "aic",
        "als-xz",
        "unique-rectangle-4",
    ] {
        assert!(out.contains(id), "{id} missing");
    }
}

#[test]
fn rate_reports_bad_lines_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    std::fs::write(
        &path,
        format!("# comment\nabc {P17} 2.5\n{}\n{P17}\n", &P17[..70]),
    )
    .unwrap();
    let o = run(&["rate", path.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a bad line makes the batch exit 1"
    );
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[0]["se_rating"], 2.5);
    assert_eq!(lines[1]["line"], 4);
    for key in [
        "line", "puzzle", "solved", "unique", "guesses", "steps", "hardest", "rating", "micros",
    ] {
        assert!(lines[1].get(key).is_some(), "missing {key}");
    }
    let err = stderr(&o);
    assert!(err.contains("p.txt:3: invalid puzzle"), "{err}");
    assert!(err.contains("puzzles: 2"), "{err}");
}

#[test]
fn pencil_mark_input_is_accepted() {
    // Convert the 17-clue puzzle to the 729-char form: givens as single marks, others all nine.
    let mut s = String::new();
    for ch in P17.chars() {
        for d in 1..=9u8 {
            let c = char::from(b'0' + d);
            if ch == '0' || ch == c {
                s.push(c);
            } else {
                s.push('.');
            }
        }
    }
    let o = run(&["solve", &s, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["puzzle"].as_str().unwrap().len(), 729);
    assert_eq!(v["unique"], true);
}

/// `SOLVED` as a 729-char position: every cell solved (`****5****`), except r1c9 (an empty
/// cell whose only candidate is its digit, 2) — and the same cells written the old way, as
/// one-candidate empty cells.
fn solved_position(marked: bool) -> String {
    let mut s = String::new();
    for (i, ch) in SOLVED.chars().enumerate() {
        for d in '1'..='9' {
            s.push(if d == ch {
                d
            } else if marked && i != 8 {
                '*'
            } else {
                '.'
            });
        }
    }
    s
}

#[test]
fn solved_cells_in_pencil_marks_are_not_singles() {
    // Marked: one empty cell, the last of row 1: a Full House, and the only naked single.
    let o = run(&["hint", &solved_position(true)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "Full House: r1c9=2");
    let o = run(&[
        "hint",
        &solved_position(true),
        "--technique",
        "naked-single",
        "--all",
    ]);
    assert_eq!(stdout(&o).trim(), "Naked Single: r1c9=2");
    // Unmarked, all 81 cells are empty with one candidate: 81 naked singles, no Full House.
    let o = run(&[
        "hint",
        &solved_position(false),
        "--technique",
        "naked-single",
        "--all",
    ]);
    assert_eq!(stdout(&o).lines().count(), 81, "{}", stdout(&o));
    // solve --json gives the position back with its solved cells marked.
    let o = run(&["solve", &solved_position(true), "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["puzzle"], solved_position(true));
    assert_eq!(v["steps"][0]["text"], "Full House: r1c9=2");
}

/// A BUG+1 position from a real solve (every empty cell bivalue but r6c2 {1,5,6}), solved cells
/// written as their single digit.
const BUG_POSITION: &str = "\
.2..............8.......7..........9..3...........6......4.........5....1........\
........9..3..6.......5..........7..1...........4............8...3..6....2.......\
1.3.........4.....1....6..........8..2...........5..........7....3..6...........9\
..3..6...........9.2...........5..........7.........8...3..6...1...........4.....\
.......8...3.5.......4..........6...........91..........3.5.....2.............7..\
......7..1...56...1....6.....3.........4......2...............9.......8.....56...\
1....6....2.........3.........4.........5..........7..1....6...........9.......8.\
....5..........7.........8.1.............6...........9.2..........4.......3......\
...4.....1....6...........9.2..............8...3......1...5..........7......56...";

/// `BUG_POSITION` with each one-candidate cell marked solved.
fn bug_position_marked() -> String {
    let chars: Vec<char> = BUG_POSITION.chars().collect();
    let mut s = String::new();
    for cell in chars.chunks(9) {
        let digits = cell.iter().filter(|c| c.is_ascii_digit()).count();
        for &c in cell {
            s.push(if digits == 1 && c == '.' { '*' } else { c });
        }
    }
    s
}

#[test]
fn bug_plus_one_needs_solved_cells_marked() {
    let o = run(&["hint", &bug_position_marked(), "-t", "bug-plus-1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "Bivalue Universal Grave + 1 => r6c2=6");
    // Read the old way, the solved cells are one-candidate cells and there is no BUG.
    let o = run(&["hint", BUG_POSITION, "-t", "bug-plus-1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no Bivalue Universal Grave"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn hodoku_library_lines_are_positions() {
    // Row 1 placed ('+') but r1c9, every other cell given: a Full House, with r1c9's 2 among
    // the deleted candidates of no cell (it is the only candidate left).
    let mut cells = String::new();
    for (i, ch) in SOLVED.chars().enumerate() {
        match i {
            8 => cells.push('.'),
            0..=7 => {
                cells.push('+');
                cells.push(ch);
            }
            _ => cells.push(ch),
        }
    }
    let line = format!(":0000:x:{cells}::r1c9=2::");
    let o = run(&["hint", &line, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["text"], "Full House: r1c9=2");
    // A deleted candidate in the 4th field: take 2 from r1c9 and nothing is left there.
    let dead = format!(":0000:x:{cells}:219:");
    let o = run(&["solve", &dead]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("r1c9 is empty and has no candidate left"),
        "{}",
        stderr(&o)
    );
    // A real start: P17 with its solution's 6 placed in r1c1 and two deleted candidates.
    let start = format!(":0100:1:+6{}:913 914:", &P17[1..]);
    let o = run(&["solve", &start, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let puzzle = v["puzzle"].as_str().unwrap();
    assert_eq!(&puzzle[..9], "*****6***", "r1c1 is solved, not given");
    // r1c3 keeps 3, 5, 7 and 9 after the givens and the placed 6; the 4th field takes 9.
    assert_eq!(&puzzle[18..27], "..3.5.7..", "9 deleted from r1c3");
    // rate reads library lines from a file, whole (they hold spaces).
    let dir = std::env::temp_dir().join(format!("sudoku-lens-lib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lib.txt");
    std::fs::write(&file, format!("{start}\n")).unwrap();
    let o = run(&["rate", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["puzzle"], start.as_str());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hint_all_lists_every_instance() {
    let o = run(&["hint", P17, "--all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert!(lines.len() > 1, "{lines:?}");
    let technique = lines[0].split(':').next().unwrap().to_string();
    assert!(lines.iter().all(|l| l.starts_with(&technique)), "{lines:?}");
    let mut distinct = lines.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), lines.len(), "each instance once");
    let o = run(&["hint", P17, "--all", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let arr = v.as_array().expect("a JSON array");
    assert_eq!(arr.len(), lines.len());
    assert_eq!(arr[0]["text"], lines[0].as_str());
    // Named: every hidden single of the start.
    let o = run(&["hint", P17, "-t", "hidden-single", "--all"]);
    let n = stdout(&o).lines().count();
    let o1 = run(&["hint", P17, "-t", "hidden-single"]);
    assert!(n >= 1);
    assert_eq!(stdout(&o).lines().next(), stdout(&o1).lines().next());
}

/// A scratch folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-lens-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn count_prints_solutions_and_speed() {
    let dir = scratch("count");
    let file = dir.join("set.txt");
    let multi = ".".repeat(81);
    std::fs::write(&file, format!("# set\n{P17}\n\n{multi}\nnot a puzzle\n")).unwrap();
    let o = run(&["count", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "a bad line makes the exit 1");
    assert_eq!(stdout(&o), format!("1 {P17}\n2 {multi}\n"));
    let err = stderr(&o);
    assert!(err.contains(":5: invalid puzzle"), "{err}");
    assert!(err.contains("puzzles: 2 (1 bad lines)"), "{err}");
    assert!(err.contains("puzzles/s on one thread"), "{err}");
    let o = run_stdin(
        &["count", "-", "--limit", "5", "--json"],
        &format!("{multi}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["solutions"], 5, "the empty grid, counted up to the limit");
    assert_eq!(v["line"], 1);
    assert_eq!(run(&["count", "-", "--limit", "0"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rate_reports_missing_and_empty_files_and_reads_stdin() {
    let dir = scratch("rate");
    let good = dir.join("good.txt");
    let empty = dir.join("empty.txt");
    std::fs::write(&good, format!("{P17}\n")).unwrap();
    std::fs::write(&empty, "# only a comment\n\n").unwrap();
    let missing = dir.join("missing.txt");
    let o = run(&[
        "rate",
        good.to_str().unwrap(),
        missing.to_str().unwrap(),
        empty.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "both good files rated");
    let err = stderr(&o);
    assert!(err.contains("missing.txt: no such file"), "{err}");
    assert!(err.contains("empty.txt: no puzzles found"), "{err}");
    assert!(err.contains("puzzles: 2"), "summary printed: {err}");
    let o = run(&["rate", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "an empty file is an error");
    let o = run_stdin(&["rate", "-"], &format!("{P17}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"file\":\"standard input\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzle_arguments_are_bounded_and_paths_named() {
    let o = run(&["solve", "puzzles/no-such-file.txt"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("no such file: puzzles/no-such-file.txt"),
        "{err}"
    );
    assert!(!err.contains("unexpected character"), "{err}");
    // Over 1 MiB on stdin is refused without reading it all.
    let big = "0".repeat(3 << 20);
    let o = run_stdin(&["solve", "-"], &big);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("more than 1 MiB"), "{}", stderr(&o));
}
