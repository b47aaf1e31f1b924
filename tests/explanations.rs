//! Every technique has a plain sentence and a glossary entry (issue 14): the sentence generator
//! of each technique is walked on a minimal step of it, and on every step of the explained
//! solve of real rated puzzles the sentence is a sentence naming the digits the step changes.

mod common;

use sudoku_lens::sudoku::{
    Candidate, Cell, Digit, Role, Step, Technique, collection_puzzles, parse_puzzle,
    solve_explained,
};

/// A minimal step of `t`: it removes 5 from r1c1 (a Guess places 5 there), with r1c1 marked.
fn minimal_step(t: Technique) -> Step {
    let five = Digit::new(5).expect("5 is a digit");
    let cell = Cell::at(0, 0);
    let mut step = Step::new(t);
    if t == Technique::Guess {
        step.placements.push(Candidate::new(cell, five));
    } else {
        step.eliminations.push(Candidate::new(cell, five));
    }
    step.mark(cell, five, Role::Base);
    step
}

#[test]
fn every_technique_has_a_sentence_and_a_glossary_entry() {
    let mut missing = Vec::new();
    for t in Technique::ALL {
        let step = minimal_step(t);
        let sentence = step.explanation();
        let text = step.text();
        if sentence.trim().is_empty() || !sentence.ends_with('.') || !sentence.contains("r1c1") {
            missing.push(format!("{t}: sentence {sentence:?}"));
        }
        if text.trim().is_empty() {
            missing.push(format!("{t}: notation empty"));
        }
        if t.glossary().trim().len() < 40 || t.title().trim().is_empty() {
            missing.push(format!("{t}: glossary or title missing"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn sentences_on_real_solve_paths_name_what_changes() {
    let dir = common::shared_puzzle_path("se-rated");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() > 40, "expected the se-rated files");
    let mut seen = std::collections::BTreeSet::new();
    let mut steps = 0;
    let mut by_house = 0;
    // Every sixth rating file's first puzzle: the whole range of techniques at little cost.
    for f in files.iter().step_by(6) {
        let text = std::fs::read_to_string(f).expect("readable");
        let (_, p) = collection_puzzles(&text).next().expect("a puzzle");
        let e = solve_explained(&parse_puzzle(p).expect("parses")).expect("solves");
        for s in &e.steps {
            let sentence = s.explanation();
            assert!(sentence.ends_with('.'), "{}: {sentence:?}", s.text());
            for c in s.placements.iter().chain(&s.eliminations) {
                assert!(
                    sentence.contains(&c.digit.to_string()),
                    "{}: {sentence:?} does not name digit {}",
                    s.text(),
                    c.digit
                );
                if !sentence.contains(&c.cell.to_string()) {
                    // Some sentences name the house the cells are cleared from instead
                    // ("no other cell of box 6"); they are counted, not failed.
                    by_house += 1;
                }
            }
            seen.insert(s.technique);
            steps += 1;
        }
    }
    eprintln!(
        "{steps} steps ({by_house} changed cells named by their house), techniques: {seen:?}"
    );
    assert!(
        seen.len() >= 10,
        "too few techniques on the paths: {seen:?}"
    );
}
