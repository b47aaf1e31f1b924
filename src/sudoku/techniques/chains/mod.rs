//! Shared machinery of the chain techniques (X-Chain, XY-Chain, AIC): a graph of strong and weak
//! links between chain nodes (a digit in one cell, or a digit grouped in the two or three cells
//! of one box∩line), built once per call from bitsets, and a breadth-first search for the
//! shortest alternating inference chain whose ends make progress; plus the conversion of a chain
//! into [`Step`] data (links in order, marked candidates) and its Eureka / Hodoku texts.
//!
//! It decides nothing by itself: each finder says which links it may use and what a chain's
//! ends give. Chains are sound by construction: a strong link `A = B` means "if A is false then
//! B is true", a weak link `A - B` means "A and B are not both true", and a chain starts false
//! at its first node and alternates strong and weak links up to a true last node, so at least
//! one of its two ends is true.
//!
//! Laid out along those parts: `graph` (the nodes and links), `search` (the walk and the
//! searches on it), `elims` (the candidates a chain's ends rule out) and `presentation` (a
//! chain as step data and text). The finders use them through the re-exports here.
//!
//! [`Step`]: crate::sudoku::step::Step

mod elims;
mod graph;
mod presentation;
mod search;

pub(crate) use elims::Elims;
pub(crate) use graph::{Graph, LinkSet, NodeId};
pub(crate) use presentation::{chain_step, eureka, link_nodes};
pub(crate) use search::{Found, each, report, shortest_two};

/// Explained solves of real puzzle sets: the chain techniques must never contradict the
/// solution, and the ignored `chain_stats` prints the no-guess share per SE rating and the
/// median solve time on top1465.
#[cfg(test)]
mod real_puzzles {
    use std::path::PathBuf;
    use std::time::Instant;

    use crate::sudoku::explain::solve_explained;
    use crate::sudoku::grid::Grid;
    use crate::sudoku::parse::parse_puzzle;
    use crate::sudoku::step::Technique;

    fn puzzle_dir() -> PathBuf {
        crate::test_data::shared_puzzles()
    }

    /// Up to `limit` puzzles of a set file (`puzzle` or `id puzzle rating` lines).
    fn load(name: &str, limit: usize) -> Vec<Grid> {
        let path = puzzle_dir().join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        crate::sudoku::collection_puzzles(&text)
            .take(limit)
            .map(|(_, p)| parse_puzzle(p).expect("set puzzle parses"))
            .collect()
    }

    fn se_files(from: f32, to: f32) -> Vec<String> {
        let mut out: Vec<(f32, String)> = std::fs::read_dir(puzzle_dir().join("se-rated"))
            .expect("se-rated directory")
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                let r: f32 = name.trim_end_matches(".txt").parse().ok()?;
                (r >= from - 1e-3 && r <= to + 1e-3).then_some((r, name))
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.into_iter()
            .map(|(_, n)| format!("se-rated/{n}"))
            .collect()
    }

    #[test]
    fn chains_never_contradict_the_solution() {
        let mut sets: Vec<(String, usize)> =
            se_files(6.6, 9.3).into_iter().map(|f| (f, 3)).collect();
        sets.push(("top1465.txt".to_string(), 30));
        let mut chain_steps = 0;
        for (name, n) in sets {
            for (i, g) in load(&name, n).iter().enumerate() {
                let e = solve_explained(g).expect("set puzzle solves");
                let bad: Vec<String> = e.rejected.iter().map(|s| s.text()).collect();
                assert!(bad.is_empty(), "{name} #{i}: {bad:?}");
                chain_steps += e
                    .steps
                    .iter()
                    .filter(|s| {
                        matches!(
                            s.technique,
                            Technique::XChain
                                | Technique::XYChain
                                | Technique::Aic
                                | Technique::AlsXz
                        )
                    })
                    .count();
            }
        }
        assert!(chain_steps > 0, "no chain step was used at all");
    }

    /// `cargo test --lib chain_stats -- --ignored --nocapture`; `CHAIN_STATS_N` puzzles per
    /// file (default 40).
    #[test]
    #[ignore]
    fn chain_stats() {
        let n: usize = std::env::var("CHAIN_STATS_N")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(40);
        let mut counts = std::collections::BTreeMap::<Technique, usize>::new();
        for name in se_files(0.0, 20.0) {
            let grids = load(&name, n);
            let mut no_guess = 0;
            for g in &grids {
                let e = solve_explained(g).expect("set puzzle solves");
                assert!(e.rejected.is_empty(), "{name}: {:?}", e.rejected[0].text());
                if e.guesses == 0 {
                    no_guess += 1;
                }
                for s in &e.steps {
                    *counts.entry(s.technique).or_default() += 1;
                }
            }
            println!(
                "{name}: {no_guess}/{} without guesses ({:.0} %)",
                grids.len(),
                100.0 * no_guess as f64 / grids.len().max(1) as f64
            );
        }
        let grids = load("top1465.txt", n.max(100));
        let mut ms = Vec::new();
        let mut no_guess = 0;
        for g in &grids {
            let t = Instant::now();
            let e = solve_explained(g).expect("top1465 puzzle solves");
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(e.rejected.is_empty(), "top1465: {:?}", e.rejected[0].text());
            if e.guesses == 0 {
                no_guess += 1;
            }
            for s in &e.steps {
                *counts.entry(s.technique).or_default() += 1;
            }
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "top1465: {no_guess}/{} without guesses; explained solve median {:.2} ms, max {:.1} ms",
            grids.len(),
            ms[ms.len() / 2],
            ms[ms.len() - 1]
        );
        println!("steps by technique: {counts:?}");
    }
}
