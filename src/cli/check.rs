//! `sudoku-lens check PHOTO [--json]`: reads a half-done puzzle, solves it from its printed
//! givens and judges every handwritten entry (library: `Scan::check`, `sudoku::check`).
//! Prints one line per wrong or unknown entry and a tally, or with `--json` one object.
//!
//! Exit codes: 0 no entry wrong (every one right, or only read unsure or not known yet — each
//! of those is listed), 1 some entry wrong, 2 anything else —
//! usage, a photo or model that does not load, no grid, a model that cannot tell print from
//! handwriting, givens that are not a puzzle — so 1 always means "you made a mistake".

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::model::ModelArgs;
use sudoku_lens::scan::{Scanner, Written};
use sudoku_lens::sudoku::format::{boxed_board, values_line};
use sudoku_lens::sudoku::{Cell, Check, Verdict};
use sudoku_lens::vision;

/// Exit code when some entry is wrong.
const EXIT_WRONG: u8 = 1;
/// Exit code for every failure of `check` (never 1, which means a wrong entry).
const EXIT_FAILED: u8 = 2;

/// Arguments of `check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The photo of a half-done puzzle.
    pub image: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The digit model (`--model` must have the `kind` output that tells print from
    /// handwriting).
    #[command(flatten)]
    pub model: ModelArgs,
}

/// Runs `check`; failures are reported here (exit 2), never passed to `main` (exit 1).
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    match check(&args) {
        Ok((report, code)) => {
            print!("{report}");
            Ok(code)
        }
        Err(e) => Ok(super::fail(args.json, EXIT_FAILED, format!("{e:#}"))),
    }
}

fn check(args: &CheckArgs) -> anyhow::Result<(String, ExitCode)> {
    let classifier = args.model.load()?;
    let image = vision::load_image(&args.image)?;
    let scan = Scanner::new(classifier)
        .scan(&image)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.image.display()))?;
    let written = scan.written();
    let check = scan.check()?;
    match &check {
        Check::GivensConflict(conflicts) => {
            let c = &conflicts[0];
            anyhow::bail!(
                "the printed givens as read repeat {} in {} and {}: check the photo (or a \
                 handwritten digit was taken for print)",
                c.digit,
                c.first,
                c.second
            )
        }
        Check::GivensUnsolvable => anyhow::bail!(
            "the printed givens as read have no solution: a given is probably misread (or a \
             handwritten digit was taken for print)"
        ),
        Check::Checked { .. } => {}
    }
    let code = if check.wrong().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_WRONG)
    };
    let report = if args.json {
        format!("{}\n", report_json(&written, &check))
    } else {
        report_text(&written, &check)
    };
    Ok((report, code))
}

/// The text report: the board (entries marked `+`), one line per wrong or unknown entry, the
/// tally.
pub fn report_text(written: &Written, check: &Check) -> String {
    let Check::Checked {
        entries, unique, ..
    } = check
    else {
        return String::new();
    };
    let mut out = String::from("read (printed givens; `+` marks your entries):\n");
    let mut board = written.givens;
    for (b, e) in board.iter_mut().zip(written.entries) {
        if e != 0 {
            *b = e;
        }
    }
    out.push_str(&boxed_board(&board, |c| {
        (written.entries[c.index()] != 0).then_some('+')
    }));
    if !unique {
        out.push_str("the printed givens allow several solutions\n");
    }
    for e in entries.iter().filter(|e| e.verdict != Verdict::Right) {
        out.push_str(&e.text());
        out.push('\n');
    }
    let (right, wrong, unsure, unknown) = check.tally();
    out.push_str(&match (entries.len(), right) {
        (0, _) => "no handwritten entries found\n".to_string(),
        (n, r) if r == n => format!("all {n} of your entries are right\n"),
        _ => format!(
            "{right} right, {wrong} wrong, {unsure} read unsure (please look), {unknown} not \
             known yet\n"
        ),
    });
    out
}

/// The JSON report: `givens`, `entries`, `pencil` (81 chars each), `unique`, `entries_checked`
/// (`[{"cell","written","verdict","must_be","proof","text"}]`, `proof` with `step_index`,
/// `technique`, `houses`, `step_text`, `after_guess`), `wrong` (cell names), `all_right`.
pub fn report_json(written: &Written, check: &Check) -> serde_json::Value {
    let Check::Checked {
        entries, unique, ..
    } = check
    else {
        return serde_json::json!({ "error": "the printed givens are not a puzzle" });
    };
    let checked: Vec<serde_json::Value> = entries
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(e).unwrap_or_default();
            v["text"] = serde_json::Value::String(e.text());
            v
        })
        .collect();
    let wrong: Vec<String> = check.wrong_cells().iter().map(Cell::to_string).collect();
    serde_json::json!({
        "givens": values_line(&written.givens, '.'),
        "entries": values_line(&written.entries, '.'),
        "pencil": pencil_line(&written.pencil),
        "unique": unique,
        "entries_checked": checked,
        "all_right": wrong.is_empty(),
        "wrong": wrong,
    })
}

/// 81 chars: `p` where a cell holds pencil marks, `.` elsewhere.
pub fn pencil_line(pencil: &[bool; 81]) -> String {
    pencil.iter().map(|&p| if p { 'p' } else { '.' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_lens::sudoku::check_entries;
    use sudoku_lens::sudoku::parse_values;
    use sudoku_lens::sudoku::solver::solve_values;

    #[test]
    fn reports_name_the_wrong_entry_and_its_reason() {
        let givens = parse_values(
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
        )
        .unwrap();
        let solution = solve_values(&givens, 1).first.unwrap();
        let mut entries = [0u8; 81];
        entries[0] = solution[0]; // r1c1 right
        entries[1] = solution[1] % 9 + 1; // r1c2 wrong
        let mut pencil = [false; 81];
        pencil[3] = true;
        let written = Written {
            givens,
            entries,
            pencil,
            kinds_known: true,
        };
        let check = check_entries(&givens, &entries);
        let text = report_text(&written, &check);
        assert!(
            text.contains(&format!(
                "r1c2: you wrote {}, but r1c2 must be {}",
                entries[1], solution[1]
            )),
            "{text}"
        );
        assert!(text.contains("1 right, 1 wrong, 0 read unsure"), "{text}");
        assert!(text.contains("+4"), "{text}");
        let json = report_json(&written, &check);
        assert_eq!(json["wrong"], serde_json::json!(["r1c2"]));
        assert_eq!(json["all_right"], false);
        assert_eq!(json["pencil"].as_str().unwrap().find('p'), Some(3));
        assert_eq!(json["entries_checked"][1]["verdict"], "wrong");
        assert_eq!(json["entries_checked"][1]["must_be"], solution[1]);
        assert!(json["entries_checked"][1]["proof"]["technique"].is_string());
    }
}
