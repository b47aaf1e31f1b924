//! `solve`, `hint` and `techniques`: the explained solver on the command line.

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::sudoku::explain::all_of;
use sudoku_lens::sudoku::format::{position_text, values_line};
use sudoku_lens::sudoku::{Explained, Grid, Step, Technique, parse_puzzle, solve_explained};

use super::input::read_puzzle_arg;
use super::{EXIT_INVALID, fail};

/// Arguments of `solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// An 81-char puzzle (`.`/`0` empty), a 729-char pencil-mark string, a file holding one, or
    /// `-` for standard input.
    pub puzzle: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print each step's plain sentence under its notation.
    #[arg(long)]
    pub explain: bool,
}

/// Arguments of `hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    /// The puzzle, as for `solve`.
    pub puzzle: String,
    /// Only a step of this technique (see `sudoku-lens techniques`).
    #[arg(long, short)]
    pub technique: Option<String>,
    /// Every instance of the technique (or of the easiest one that applies), one per line, or
    /// a JSON array with `--json`.
    #[arg(long)]
    pub all: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print each step's plain sentence under its notation.
    #[arg(long)]
    pub explain: bool,
}

/// Arguments of `techniques`.
#[derive(Args, Debug)]
pub struct TechniquesArgs {
    /// Print a JSON array of `{"name","id","title","rating","glossary"}` instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A candidate in JSON: `{"cell":"r1c2","digit":3}`.
#[derive(Serialize)]
pub struct JsonCandidate {
    cell: String,
    digit: u8,
}

/// A step in JSON.
#[derive(Serialize)]
pub struct JsonStep {
    technique: &'static str,
    text: String,
    /// The step's plain sentence, generated from its data.
    explanation: String,
    placements: Vec<JsonCandidate>,
    eliminations: Vec<JsonCandidate>,
}

impl From<&Step> for JsonStep {
    fn from(s: &Step) -> Self {
        let conv = |v: &[sudoku_lens::sudoku::Candidate]| {
            v.iter()
                .map(|c| JsonCandidate {
                    cell: c.cell.to_string(),
                    digit: c.digit.get(),
                })
                .collect()
        };
        JsonStep {
            technique: s.technique.name(),
            text: s.text(),
            explanation: s.explanation(),
            placements: conv(&s.placements),
            eliminations: conv(&s.eliminations),
        }
    }
}

#[derive(Serialize)]
struct JsonSolve {
    puzzle: String,
    solution: String,
    unique: bool,
    rating: f32,
    level: String,
    guesses: usize,
    steps: Vec<JsonStep>,
}

/// Parses the puzzle argument, printing a located error and returning `Err(exit code)` on
/// failure.
fn load(arg: &str, json: bool) -> anyhow::Result<Result<Grid, ExitCode>> {
    let (text, origin) = read_puzzle_arg(arg)?;
    match parse_puzzle(&text) {
        Ok(g) => Ok(Ok(g)),
        Err(e) => Ok(Err(fail(
            json,
            EXIT_INVALID,
            format!("invalid puzzle in {origin}: {e}"),
        ))),
    }
}

fn explain_or_report(g: &Grid, json: bool) -> Result<Explained, ExitCode> {
    solve_explained(g).map_err(|e| fail(json, EXIT_INVALID, e))
}

/// `solve PUZZLE [--json]`.
pub fn run_solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let g = match load(&args.puzzle, args.json)? {
        Ok(g) => g,
        Err(code) => return Ok(code),
    };
    let e = match explain_or_report(&g, args.json) {
        Ok(e) => e,
        Err(code) => return Ok(code),
    };
    if args.json {
        let out = JsonSolve {
            puzzle: position_text(&g),
            solution: values_line(&e.solution, '.'),
            unique: e.unique,
            rating: e.rating.score,
            level: e.rating.level.to_string(),
            guesses: e.guesses,
            steps: e.steps.iter().map(JsonStep::from).collect(),
        };
        println!("{}", serde_json::to_string(&out).context("encoding JSON")?);
        return Ok(ExitCode::SUCCESS);
    }
    for (i, s) in e.steps.iter().enumerate() {
        let marker = if s.technique == Technique::Guess {
            "  <-- logic ran out here: guess"
        } else {
            ""
        };
        println!("{:>3}. {}{}", i + 1, s.text(), marker);
        if args.explain {
            println!("     {}", s.explanation());
        }
    }
    println!();
    print!("{}", Grid::from_values(&e.solution).to_pretty());
    println!();
    println!(
        "rating {:.1} ({}), {} steps, {} guesses, {}",
        e.rating.score,
        e.rating.level,
        e.steps.len(),
        e.guesses,
        if e.unique {
            "unique solution"
        } else {
            "SEVERAL solutions: this is one of them"
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// The most instances `hint --all` lists.
const ALL_LIMIT: usize = 1000;

/// `hint PUZZLE [--technique NAME] [--all] [--json]`.
pub fn run_hint(args: HintArgs) -> anyhow::Result<ExitCode> {
    let technique = match &args.technique {
        None => None,
        Some(name) => match Technique::from_name(name) {
            Some(t) => Some(t),
            None => {
                return Ok(fail(
                    args.json,
                    2,
                    format!("unknown technique {name:?}; `sudoku-lens techniques` lists the names"),
                ));
            }
        },
    };
    let g = match load(&args.puzzle, args.json)? {
        Ok(g) => g,
        Err(code) => return Ok(code),
    };
    if let Some(c) = g.conflicts().first() {
        return Ok(fail(
            args.json,
            EXIT_INVALID,
            format!(
                "duplicate {} in {}: {} and {}",
                c.digit, c.house, c.first, c.second
            ),
        ));
    }
    let limit = if args.all { ALL_LIMIT } else { 1 };
    let steps = match all_of(&g, technique, limit) {
        Ok(steps) if !steps.is_empty() => steps,
        Ok(_) => {
            let why = match technique {
                Some(t) if !g.is_complete() => format!("no {} in this position", t.name()),
                _ => "the puzzle is already complete".to_string(),
            };
            return Ok(fail(args.json, EXIT_INVALID, why));
        }
        Err(e) => return Ok(fail(args.json, EXIT_INVALID, e)),
    };
    if steps.len() >= ALL_LIMIT {
        eprintln!("(listing stopped at {ALL_LIMIT} instances)");
    }
    if args.json {
        let json = if args.all {
            let all: Vec<JsonStep> = steps.iter().map(JsonStep::from).collect();
            serde_json::to_string(&all)
        } else {
            serde_json::to_string(&JsonStep::from(&steps[0]))
        };
        println!("{}", json.context("encoding JSON")?);
    } else {
        for step in &steps {
            println!("{}", step.text());
            if args.explain {
                println!("  {}", step.explanation());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A technique in JSON: what `techniques --json` prints for each.
#[derive(Serialize)]
struct JsonTechnique {
    name: &'static str,
    id: &'static str,
    title: &'static str,
    rating: f32,
    glossary: &'static str,
}

/// `techniques [--json]`: every technique in solving order: id, name, SE rating and title as
/// text lines, or with its glossary entry as JSON.
pub fn run_techniques(args: TechniquesArgs) -> anyhow::Result<ExitCode> {
    if args.json {
        let all: Vec<JsonTechnique> = Technique::ALL
            .iter()
            .map(|&t| JsonTechnique {
                name: t.name(),
                id: t.id(),
                title: t.title(),
                rating: t.se_rating(),
                glossary: t.glossary(),
            })
            .collect();
        println!("{}", serde_json::to_string(&all).context("encoding JSON")?);
        return Ok(ExitCode::SUCCESS);
    }
    for t in Technique::ALL {
        println!(
            "{:<30} {:<38} {:>4.1}  {}",
            t.id(),
            t.name(),
            t.se_rating(),
            t.title()
        );
    }
    Ok(ExitCode::SUCCESS)
}
