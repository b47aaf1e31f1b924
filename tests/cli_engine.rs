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
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
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
