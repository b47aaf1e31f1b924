//! Forcing Chains and Forcing Nets: what-if reasoning over the propagation of `implication`.
//!
//! - *Contradiction*: assuming a candidate true (or false) leads to an impossible grid, so it is
//!   false (or true).
//! - *Verity*: every case of a cell (each of its candidates), of a house (each place of a
//!   digit) or of one candidate (true and false) leads to the same literal, so it holds.
//!
//! Chains ([`Technique::ForcingChainContradiction`], [`Technique::ForcingChainVerity`]) use only
//! single-reason inferences along the grid's strong links, or one digit's hidden singles
//! (Sudoku Explainer's Nishio); nets ([`Technique::ForcingNetContradiction`],
//! [`Technique::ForcingNetVerity`]) propagate naked and hidden singles on the grid as the
//! assumption changes it; the nets plus ([`Technique::ForcingNetPlusContradiction`],
//! [`Technique::ForcingNetPlusVerity`], Sudoku Explainer's Dynamic Forcing Chains (+)), tried
//! only where those find nothing, also let locked candidates, hidden and naked pairs and
//! X-Wings remove candidates inside the net. Every case is tried and the deduction resting on the fewest facts is
//! kept (the one Sudoku Explainer would rate lowest). The step keeps each branch and its links
//! (see [`Branch`]), so the whole net can be drawn.

use super::super::grid::{Candidate, Grid};
use super::super::notation::{cell_words, house_words, join_words};
use super::super::step::{Branch, LinkKind, Node, Outcome, Role, Step, Technique};
use super::super::types::{Cell, Digit, House};
use super::forcing_cache::{Run, Runs, with_runs};
use super::implication::{Lit, Mode, Propagator, candidate, is_on, lit, lit_text};
use super::{Flow, GO_ON, Instances};

/// Every contradiction of the first of the technique's modes that has one, those resting on
/// the fewest facts first (so asked for one, the one Sudoku Explainer would rate lowest).
pub(crate) fn search_contradiction(grid: &Grid, technique: Technique, out: &mut Instances) -> Flow {
    for mode in modes(technique) {
        let premises = premises(grid, mode);
        let broken = with_runs(grid, mode, |runs| {
            // Candidates assumed true first (eliminations); false only when none breaks the
            // grid.
            for assume_true in [true, false] {
                let mut broken: Vec<(usize, Lit)> = premises
                    .iter()
                    .filter(|&&l| is_on(l) == assume_true)
                    .filter_map(|&l| match runs.get(l) {
                        Run::Broken { cost } => Some((*cost, l)),
                        Run::Holds(_) => None,
                    })
                    .collect();
                if !broken.is_empty() {
                    broken.sort_by_key(|b| b.0);
                    return broken;
                }
            }
            Vec::new()
        });
        if broken.is_empty() {
            continue;
        }
        let mut p = Propagator::new(grid, mode);
        for (_, premise) in broken {
            let Some(outcome) = p.run(premise) else {
                continue;
            };
            let mut step = Step::new(technique);
            p.add_branch(&mut step, outcome);
            let c = candidate(premise);
            if is_on(premise) {
                step.eliminations.push(c);
            } else {
                step.placements.push(c);
            }
            finish(&mut step, grid);
            out.add(step)?;
        }
        return GO_ON;
    }
    GO_ON
}

/// The verity (cell, house or candidate) resting on the fewest facts.
pub(crate) fn find_verity(grid: &Grid, technique: Technique) -> Option<Step> {
    let mode = modes(technique).into_iter().next()?;
    let (_, premises, target) = with_runs(grid, mode, |runs| best_verity(grid, runs))?;
    let mut p = Propagator::new(grid, mode);
    let mut step = Step::new(technique);
    let outcome = if is_on(target) {
        Outcome::True(candidate(target))
    } else {
        Outcome::False(candidate(target))
    };
    for &premise in &premises {
        p.run(premise);
        p.add_branch(&mut step, outcome);
    }
    let t = candidate(target);
    if is_on(target) {
        step.placements.push(t);
    } else {
        step.eliminations.push(t);
    }
    if let Some(h) = premise_house(&step.branches) {
        step.houses.push((h, Role::Base));
    }
    finish(&mut step, grid);
    Some(step)
}

/// A verity: its cost (the sum of the target's ranks in the cases), its premises (the cases)
/// and the literal they all lead to.
type Verity = (usize, Vec<Lit>, Lit);

/// The case sets a verity is looked for in: each cell's candidates, each house's places of a
/// digit, and each candidate (true and false) of a cell with three or more. False in a
/// two-candidate cell is the other candidate true, which the cell verity covers.
fn verity_cases(grid: &Grid) -> Vec<Vec<Lit>> {
    let mut sets: Vec<Vec<Lit>> = Vec::new();
    for c in grid.empty_cells().iter() {
        let ps: Vec<Lit> = grid.candidates(c).iter().map(|d| lit(c, d, true)).collect();
        if ps.len() >= 2 {
            sets.push(ps);
        }
    }
    for h in House::all() {
        for d in Digit::ALL {
            let places = grid.house_digit_cells(h, d);
            // Places inside one box∩line give the same cases in both houses: try them once.
            if places.len() >= 2 && places.common_house().is_none_or(|x| x == h) {
                sets.push(places.iter().map(|c| lit(c, d, true)).collect());
            }
        }
    }
    for c in grid.empty_cells().iter() {
        if grid.candidates(c).len() >= 3 {
            for d in grid.candidates(c).iter() {
                sets.push(vec![lit(c, d, true), lit(c, d, false)]);
            }
        }
    }
    sets
}

/// The cheapest verity of the grid: the literal every case of a set leads to, with the
/// smallest sum of ranks (the first such on ties).
fn best_verity(grid: &Grid, runs: &mut Runs) -> Option<Verity> {
    let mut best: Option<Verity> = None;
    let mut rank = vec![0usize; 1458];
    for premises in verity_cases(grid) {
        // Every case must hold; what they all derive (premises aside) may be the verity.
        // common[0]: false literals, common[1]: true literals, one cell set per digit.
        let mut common = [[u128::MAX; 9]; 2];
        for &l in &premises {
            let Run::Holds(case) = runs.get(l) else {
                common = [[0; 9]; 2];
                break;
            };
            for (side, derived) in common.iter_mut().zip([&case.off, &case.on]) {
                for (acc, cells) in side.iter_mut().zip(derived) {
                    *acc &= cells;
                }
            }
        }
        for &l in &premises {
            let k = usize::from(l / 2);
            for side in &mut common {
                side[k % 9] &= !(1u128 << (k / 9));
            }
        }
        if common.iter().flatten().all(|&m| m == 0) {
            continue;
        }
        let in_common = |l: Lit| {
            let k = usize::from(l / 2);
            common[usize::from(is_on(l))][k % 9] & (1u128 << (k / 9)) != 0
        };
        for &l in &premises {
            if let Run::Holds(case) = runs.get(l) {
                for (i, &x) in case.order.iter().enumerate() {
                    if in_common(x) {
                        rank[usize::from(x)] += i;
                    }
                }
            }
        }
        // True literals first, then false ones (placements before eliminations on ties).
        for side in [1, 0] {
            for (d, &cells) in common[side].iter().enumerate() {
                let mut m = cells;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let target = lit(Cell::from_index(c), Digit::from_index(d), side == 1);
                    let cost = std::mem::take(&mut rank[usize::from(target)]);
                    if best.as_ref().is_none_or(|x| cost < x.0) {
                        best = Some((cost, premises.clone(), target));
                    }
                }
            }
        }
    }
    best
}

/// The propagation modes of a forcing technique, in the order they are tried.
fn modes(technique: Technique) -> Vec<Mode> {
    match technique {
        Technique::ForcingChainContradiction => Digit::ALL
            .iter()
            .map(|&d| Mode::Digit(d))
            .chain(std::iter::once(Mode::Chains))
            .collect(),
        Technique::ForcingChainVerity => vec![Mode::Chains],
        Technique::ForcingNetPlusContradiction | Technique::ForcingNetPlusVerity => {
            vec![Mode::NetPlus]
        }
        _ => vec![Mode::Net],
    }
}

/// The assumptions a contradiction search tries: every candidate true, and false where that
/// is not just another candidate of a two-candidate cell being true.
fn premises(grid: &Grid, mode: Mode) -> Vec<Lit> {
    let mut out = Vec::new();
    for c in grid.empty_cells().iter() {
        let cands = grid.candidates(c);
        for d in cands.iter() {
            if let Mode::Digit(x) = mode
                && x != d
            {
                continue;
            }
            out.push(lit(c, d, true));
            if cands.len() > 2 || matches!(mode, Mode::Digit(_)) {
                out.push(lit(c, d, false));
            }
        }
    }
    out
}

/// The house all branches of a house verity assume the digit in.
fn premise_house(branches: &[Branch]) -> Option<House> {
    let first = branches.first()?;
    if branches.len() < 2
        || !branches
            .iter()
            .all(|b| b.premise_true && b.premise.digit == first.premise.digit)
        || branches
            .iter()
            .all(|b| b.premise.cell == first.premise.cell)
    {
        return None;
    }
    let cells: super::super::types::CellSet = branches.iter().map(|b| b.premise.cell).collect();
    cells.common_house()
}

/// Marks the premises [`Role::Base`], then every other candidate of the links: true facts
/// [`Role::ColorA`], false facts [`Role::ColorB`]; sets the digits.
fn finish(step: &mut Step, grid: &Grid) {
    let _ = grid;
    let premises: Vec<Candidate> = step.branches.iter().map(|b| b.premise).collect();
    for p in &premises {
        if !step.marks.iter().any(|m| m.candidate == *p) {
            step.mark(p.cell, p.digit, Role::Base);
        }
    }
    let links = step.links.clone();
    for l in &links {
        for (n, truth) in [(l.from, l.kind.from_is_true()), (l.to, l.kind.to_is_true())] {
            if let Some(cell) = n.cells.first()
                && !step
                    .marks
                    .iter()
                    .any(|m| m.candidate == Candidate::new(cell, n.digit))
            {
                step.mark(
                    cell,
                    n.digit,
                    if truth { Role::ColorA } else { Role::ColorB },
                );
            }
        }
    }
    for m in &step.marks {
        step.digits.insert(m.candidate.digit);
    }
}

/// A fact of a branch: a node and whether it is true.
type Fact = (Node, bool);

/// The facts of a branch in the order they were derived, each with its reasons.
fn branch_facts(step: &Step, b: &Branch) -> Vec<(Fact, Vec<Fact>)> {
    let mut out: Vec<(Fact, Vec<Fact>)> = vec![(
        (Node::cell(b.premise.cell, b.premise.digit), b.premise_true),
        Vec::new(),
    )];
    for l in step.links.get(b.links.clone()).unwrap_or(&[]) {
        let from = (l.from, l.kind.from_is_true());
        let to = (l.to, l.kind.to_is_true());
        match out.iter_mut().find(|(f, _)| *f == to) {
            Some((_, reasons)) => reasons.push(from),
            None => out.push((to, vec![from])),
        }
    }
    out
}

/// The basic pattern that derived each fact of a branch, where one did (a net plus).
fn pattern_of(step: &Step, b: &Branch, fact: Fact) -> Option<Technique> {
    step.links
        .get(b.links.clone())
        .unwrap_or(&[])
        .iter()
        .find_map(|l| match l.kind {
            LinkKind::Pattern(t) if (l.to, false) == fact => Some(t),
            _ => None,
        })
}

/// The shortest path of reasons from a branch's premise to `target`.
fn spine(facts: &[(Fact, Vec<Fact>)], target: Fact) -> Vec<Fact> {
    let rank = |f: &Fact| facts.iter().position(|(x, _)| x == f);
    let mut out = vec![target];
    let mut at = target;
    while let Some(reasons) = facts.iter().find(|(f, _)| *f == at).map(|(_, r)| r) {
        let Some(next) = reasons.iter().copied().min_by_key(|r| rank(r)) else {
            break;
        };
        if out.contains(&next) {
            break;
        }
        out.push(next);
        at = next;
    }
    out.reverse();
    out
}

fn fact_text(f: &Fact) -> String {
    let (n, truth) = f;
    match n.cells.first() {
        Some(c) => lit_text(lit(c, n.digit, *truth)),
        None => String::new(),
    }
}

/// A fact of a branch's spine, with the basic pattern that derived it, if any:
/// `r2c7<>4 (Locked Candidates Type 1 (Pointing))`.
fn spine_fact_text(step: &Step, b: &Branch, f: &Fact) -> String {
    match pattern_of(step, b, *f) {
        Some(t) => format!("{} ({})", fact_text(f), t.name()),
        None => fact_text(f),
    }
}

/// The facts an outcome is made of (its spines end there).
fn outcome_facts(o: Outcome, facts: &[(Fact, Vec<Fact>)]) -> Vec<Fact> {
    let fact = |c: Candidate, t: bool| (Node::cell(c.cell, c.digit), t);
    match o {
        Outcome::True(c) => vec![fact(c, true)],
        Outcome::False(c) => vec![fact(c, false)],
        Outcome::Both(c) => vec![fact(c, true), fact(c, false)],
        Outcome::NoCandidate(cell) => facts
            .iter()
            .filter(|((n, t), _)| !*t && n.cells.first() == Some(cell))
            .map(|(f, _)| *f)
            .collect(),
        Outcome::NoPlace(h, d) => facts
            .iter()
            .filter(|((n, t), _)| {
                !*t && n.digit == d && n.cells.first().is_some_and(|c| h.cell_set().contains(c))
            })
            .map(|(f, _)| *f)
            .collect(),
    }
}

fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::True(c) => format!("{}={}", c.cell, c.digit),
        Outcome::False(c) => format!("{}<>{}", c.cell, c.digit),
        Outcome::Both(c) => format!("{} both {} and not {}", c.cell, c.digit, c.digit),
        Outcome::NoCandidate(cell) => format!("{cell} has no candidate"),
        Outcome::NoPlace(h, d) => format!("no {d} in {h}"),
    }
}

/// `Forcing Net Contradiction: r4c5=7 -> r4c4<>7 -> r4c4=3; … => r1c4 has no candidate =>
/// r4c5<>7`, or for a verity `Forcing Chain Verity (cell r4c5): r4c5=1 -> … -> r1c2<>7 |
/// r4c5=6 -> … -> r1c2<>7 => r1c2<>7`: each branch as the shortest paths of reasons to its
/// outcome.
pub(crate) fn text(step: &Step) -> String {
    if step.branches.is_empty() {
        return super::plain_text(step);
    }
    let branches: Vec<String> = step
        .branches
        .iter()
        .map(|b| {
            let facts = branch_facts(step, b);
            let spines: Vec<String> = outcome_facts(b.outcome, &facts)
                .into_iter()
                .map(|t| {
                    spine(&facts, t)
                        .iter()
                        .map(|f| spine_fact_text(step, b, f))
                        .collect::<Vec<_>>()
                        .join(" -> ")
                })
                .collect();
            match b.outcome {
                Outcome::True(_) | Outcome::False(_) => spines.join("; "),
                o => format!("{} => {}", spines.join("; "), outcome_text(o)),
            }
        })
        .collect();
    let kind = match verity_kind(step) {
        Some(k) => format!(" ({k})"),
        None => String::new(),
    };
    format!(
        "{}{}: {} => {}",
        step.technique.name(),
        kind,
        branches.join(" | "),
        step.effect_text()
    )
}

/// For a verity: "cell r4c5", "house r4" or "candidate r4c5=7".
fn verity_kind(step: &Step) -> Option<String> {
    let first = step.branches.first()?;
    if !matches!(first.outcome, Outcome::True(_) | Outcome::False(_)) {
        return None;
    }
    if let Some((h, _)) = step.houses.first() {
        return Some(format!("house {h}"));
    }
    if step.branches.len() == 2 && step.branches[0].premise == step.branches[1].premise {
        return Some(format!(
            "candidate {}={}",
            first.premise.cell, first.premise.digit
        ));
    }
    Some(format!("cell {}", first.premise.cell))
}

/// ", through a Naked Pair and an X-Wing": the basic patterns a net plus used, in the order
/// first used (empty for every other forcing step).
fn patterns_used(step: &Step) -> String {
    let mut names: Vec<String> = Vec::new();
    for l in &step.links {
        if let LinkKind::Pattern(t) = l.kind {
            let name = match t {
                Technique::LockedCandidatesPointing | Technique::LockedCandidatesClaiming => {
                    "locked candidates"
                }
                Technique::HiddenPair => "a hidden pair",
                Technique::NakedPair => "a naked pair",
                Technique::XWing => "an X-Wing",
                other => other.name(),
            };
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    if names.is_empty() {
        String::new()
    } else {
        format!(", through {}", join_words(&names, "and"))
    }
}

/// "Suppose r4c5 were 7: following what that forces (9 facts), r1c4 would have no candidate
/// left, which is impossible, so r4c5 cannot be 7." / "Whichever digit r4c5 takes (1 or 6), …"
pub(crate) fn sentence(step: &Step) -> String {
    let Some(first) = step.branches.first() else {
        return super::generic_sentence(step);
    };
    let conclusion = match (step.placements.first(), step.eliminations.first()) {
        (Some(p), _) => format!("{} must be {}", p.cell, p.digit),
        (None, Some(e)) => format!("{} cannot be {}", e.cell, e.digit),
        _ => String::from("nothing changes"),
    };
    let how = match step.technique {
        Technique::ForcingNetContradiction
        | Technique::ForcingNetVerity
        | Technique::ForcingNetPlusContradiction
        | Technique::ForcingNetPlusVerity => "what that forces",
        _ => "the chain of what that forces",
    };
    let patterns = patterns_used(step);
    let facts = |b: &Branch| branch_facts(step, b).len();
    if step.branches.len() == 1 {
        let p = first.premise;
        let supposed = if first.premise_true {
            format!("Suppose {} were {}", p.cell, p.digit)
        } else {
            format!("Suppose {} were not {}", p.cell, p.digit)
        };
        let broken = match first.outcome {
            Outcome::NoCandidate(c) => format!("{c} would have no digit left"),
            Outcome::NoPlace(h, d) => format!("{} would have no place for {d}", house_words(h)),
            Outcome::Both(c) => format!(
                "{} would have to be {} and not {} at once",
                c.cell, c.digit, c.digit
            ),
            o => outcome_text(o),
        };
        return format!(
            "{supposed}: following {how} ({} facts{patterns}), {broken}, which is impossible, \
             so {conclusion}.",
            facts(first)
        );
    }
    let counts: Vec<String> = step.branches.iter().map(|b| facts(b).to_string()).collect();
    let cases = if let Some((h, _)) = step.houses.first() {
        let cells: Vec<Cell> = step.branches.iter().map(|b| b.premise.cell).collect();
        format!(
            "Wherever the {} goes in {} ({})",
            first.premise.digit,
            house_words(*h),
            join_words(
                &cells.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                "or"
            )
        )
    } else if step.branches.len() == 2 && step.branches[0].premise == step.branches[1].premise {
        format!(
            "Whether {} is {} or not",
            first.premise.cell, first.premise.digit
        )
    } else {
        let digits: Vec<String> = step
            .branches
            .iter()
            .map(|b| b.premise.digit.to_string())
            .collect();
        format!(
            "Whichever digit {} takes ({})",
            cell_words([first.premise.cell]),
            join_words(&digits, "or")
        )
    };
    let fact = match (step.placements.first(), step.eliminations.first()) {
        (Some(p), _) => format!("{} being {}", p.cell, p.digit),
        (None, Some(e)) => format!("{} not being {}", e.cell, e.digit),
        _ => String::from("the same result"),
    };
    format!(
        "{cases}, following {how} ({} facts{patterns}) leads every time to {fact}, so \
         {conclusion}.",
        join_words(&counts, "and")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::solver::solve_up_to;
    use crate::sudoku::techniques::test_util::grid;
    use crate::sudoku::techniques::{Context, find};

    /// top1465 line 4 (public collection), solved by the step solver up to its first Forcing
    /// Net Plus step: no forcing chain or net of singles applies here.
    const PUZZLE: &str =
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
    const POSITION: &str = "
        ******7**12...6...*******8*...45...9...456..9...456..9**3******1..456...12..5....
        ...4....9..3..6.....34.6..9*2*******..3456...1********...4.67.....45.78.....5.78.
        ****5****123..6...1234.6.........78...34.6.........78..2...6..91..4.6...12......9
        1......89***4*****1...5.7.9..3.5.7.9....5...9..3.5.7.91.....78.*2************6***
        **3******12...67..12...6..9...4..7.9*******8*.2.4.6..91..4..7..1..45.7..1...5.7..
        .2...6.8.....5.78..2..567..1********.2.456....2.4.67.....4..78.********9**3******
        12.....8.********91.3.5.7..*****6***12..5.....23.5..8.12....7..1.3...78.***4*****
        12.4.6.8.123..6.8.1234.6.....34...89******7**.234...89****5****1.3..6.8.12.....89
        12.4.6.8...3.5.78.1234567....345..8912.4....9.2345..89.2...67.91.3..678.12....789";

    #[test]
    fn net_plus_goes_on_where_the_nets_stop() {
        let g = grid(POSITION);
        let ctx = Context { unique: true };
        for t in [
            Technique::ForcingChainContradiction,
            Technique::ForcingChainVerity,
            Technique::ForcingNetContradiction,
            Technique::ForcingNetVerity,
        ] {
            let s = find(t, &g, &ctx);
            assert!(s.is_none(), "{t}: {:?}", s.map(|s| s.text()));
        }
        let s = find(Technique::ForcingNetPlusContradiction, &g, &ctx)
            .expect("a net plus contradiction");
        let solution = solve_up_to(&grid(PUZZLE), 2)
            .first
            .expect("the puzzle solves");
        assert!(!s.eliminations.is_empty() || !s.placements.is_empty());
        for e in &s.eliminations {
            assert_ne!(solution[e.cell.index()], e.digit.get(), "{}", s.text());
        }
        for p in &s.placements {
            assert_eq!(solution[p.cell.index()], p.digit.get(), "{}", s.text());
        }
        // The net needs a basic pattern, and the step says which.
        assert!(
            s.links
                .iter()
                .any(|l| matches!(l.kind, LinkKind::Pattern(_))),
            "{}",
            s.text()
        );
        assert!(
            s.explanation().contains(", through "),
            "{}",
            s.explanation()
        );
        assert!(s.text().starts_with("Forcing Net Plus Contradiction: "));
        assert!(s.rating() >= 9.0, "{}", s.rating());
    }
}
