//! The human-style step solver: repeatedly applies the easiest technique that makes progress,
//! recording each [`Step`]; when no technique applies it makes a clearly marked
//! [`Technique::Guess`] (the exact solver's digit for a cell with the fewest candidates) and
//! resumes logic.
//!
//! Owns the solving loop and its safety net; the techniques themselves live in `techniques`.

use super::grid::{Candidate, Grid};
use super::rating::Rating;
use super::solver::solve_up_to;
use super::step::{Role, Step, Technique};
use super::techniques::{self, Context};
use super::types::{Candidates, Digit};

/// Why a puzzle cannot be solved at all.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// Givens repeat a digit in a house.
    #[error("duplicate {digit} in {house}: {first} and {second}")]
    Conflict {
        /// The digit.
        digit: Digit,
        /// First cell.
        first: super::types::Cell,
        /// Second cell.
        second: super::types::Cell,
        /// Shared house.
        house: super::types::House,
    },
    /// The exact solver found no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
}

/// The result of an explained solve.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The starting position.
    pub puzzle: Grid,
    /// The steps in order.
    pub steps: Vec<Step>,
    /// The solution followed (the unique one, or the first found when there are several).
    pub solution: [u8; 81],
    /// Whether the puzzle has exactly one solution.
    pub unique: bool,
    /// Number of guess steps.
    pub guesses: usize,
    /// Rating of the path.
    pub rating: Rating,
    /// Steps a technique proposed that contradicted the solution and were discarded. Always
    /// empty unless a technique has a bug; tests assert it.
    pub rejected: Vec<Step>,
}

impl Explained {
    /// Index of the first guess step, i.e. where logic ran out.
    pub fn first_guess(&self) -> Option<usize> {
        self.steps
            .iter()
            .position(|s| s.technique == Technique::Guess)
    }
}

/// Options for the step solver.
#[derive(Clone, Copy, Debug)]
pub struct ExplainOptions {
    /// Safety cap on the number of steps (a solve needs at most a few hundred).
    pub max_steps: usize,
}

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions { max_steps: 2000 }
    }
}

/// Solves `puzzle` step by step with default options.
pub fn solve_explained(puzzle: &Grid) -> Result<Explained, SolveError> {
    solve_explained_with(puzzle, ExplainOptions::default())
}

/// Solves `puzzle` step by step.
pub fn solve_explained_with(puzzle: &Grid, opts: ExplainOptions) -> Result<Explained, SolveError> {
    if let Some(c) = puzzle.conflicts().first() {
        return Err(SolveError::Conflict {
            digit: c.digit,
            first: c.first,
            second: c.second,
            house: c.house,
        });
    }
    let sols = solve_up_to(puzzle, 2);
    let solution = sols.first.ok_or(SolveError::NoSolution)?;
    let unique = sols.count == 1;
    let ctx = Context { unique };
    let mut grid = puzzle.clone();
    let mut steps = Vec::new();
    let mut rejected = Vec::new();
    let mut guesses = 0;
    while !grid.is_complete() && steps.len() < opts.max_steps {
        match next_step(&grid, &ctx, &solution, &mut rejected) {
            Some(step) => {
                step.apply(&mut grid);
                steps.push(step);
            }
            None => {
                let step = guess(&grid, &solution);
                guesses += 1;
                step.apply(&mut grid);
                steps.push(step);
            }
        }
    }
    let rating = rate_path(puzzle, &steps, &ctx);
    Ok(Explained {
        puzzle: puzzle.clone(),
        steps,
        solution,
        unique,
        guesses,
        rating,
        rejected,
    })
}

/// Rates the path as Sudoku Explainer would rate the positions it passes through: Sudoku
/// Explainer takes the easiest-rated step available at each point, while this solver takes the
/// first technique in its order. So each step is rated the easiest of itself and the steps of
/// later techniques (in solving order) that could rate lower in that position (including the
/// direct variants of locked candidates and hidden pairs and triples, which can rate below
/// earlier techniques). Only techniques Sudoku Explainer has can stand in (it cannot take a
/// hidden rectangle instead), and forcing chains and nets are never searched for this. The
/// path stays the solver's own.
fn rate_path(puzzle: &Grid, steps: &[Step], ctx: &Context) -> Rating {
    use super::rating::rating_in_position;
    // The path's rating is its hardest step's, and a stand-in only lowers a step's own rating:
    // so the steps are rated hardest own rating first, and once the hardest rating found is
    // above every own rating left, the rest cannot reach it (nor tie with it, which would
    // change which step is the hardest) and are not searched for stand-ins at all.
    let mut grid = puzzle.clone();
    let mut positions = Vec::with_capacity(steps.len());
    let mut own = Vec::with_capacity(steps.len());
    for step in steps {
        own.push(rating_in_position(step, &grid));
        positions.push(grid.clone());
        step.apply(&mut grid);
    }
    let mut order: Vec<usize> = (0..steps.len()).collect();
    order.sort_by(|&a, &b| own[b].total_cmp(&own[a]));
    let stand_ins = stand_ins();
    let mut easiest: Vec<Option<f32>> = vec![None; steps.len()];
    let mut hardest = f32::NEG_INFINITY;
    for i in order {
        if own[i] < hardest {
            break;
        }
        let r = easiest_rating(&steps[i], own[i], &positions[i], ctx, &stand_ins);
        hardest = hardest.max(r);
        easiest[i] = Some(r);
    }
    // In path order, so that of equally hard steps the same one is the hardest.
    Rating::of_ratings(
        steps
            .iter()
            .zip(easiest)
            .filter_map(|(step, r)| Some((r?, step.technique))),
    )
}

/// The lowest rating of a wing of four cells or more (see `rating`'s Sukaku Explainer notes);
/// smaller ones are our XY- and XYZ-Wings.
const WING_LOWEST: f32 = 5.5;

/// A finder searched for rating only (`techniques::unique_loop` and the like).
type RatingFinder = fn(&Grid) -> Option<Step>;

/// The lowest rating of a grouped chain of three strong links; grouped ones of two are our
/// empty rectangles and finned X-Wings.
const GROUPED_FISH_LOWEST: f32 = 5.7;

/// The lowest rating of a unique loop (six cells).
const LOOP_LOWEST: f32 = 4.6;

/// How many instances of a technique with a direct variant are examined for one.
const DIRECT_SEARCH_LIMIT: usize = 64;

/// The techniques that may stand in for a step (those Sudoku Explainer has, short of the
/// forcing chains and nets; also short of the Franken and Mutant fish, which Sudoku Explainer
/// lacks and which are tried only after the forcing chains: searching them as stand-ins at every
/// forcing position would spend again the time their late place saves), easiest first: so that once a stand-in is found the techniques
/// that cannot beat it are not searched at all (the minimum does not depend on the order).
fn stand_ins() -> Vec<Technique> {
    use super::rating::lowest_rating;
    let mut candidates: Vec<Technique> = Technique::ALL
        .into_iter()
        .filter(|&t| t < Technique::AlignedTripleExclusion && super::rating::in_sudoku_explainer(t))
        .collect();
    candidates.sort_by(|a, b| lowest_rating(*a).total_cmp(&lowest_rating(*b)));
    candidates
}

/// The rating of `step` taken in `grid` (`own`, its [`rating_in_position`]), or of an
/// easier-rated step available there instead from `stand_ins` ([`stand_ins`]: those later in
/// solving order than the step's own).
///
/// [`rating_in_position`]: super::rating::rating_in_position
fn easiest_rating(
    step: &Step,
    own: f32,
    grid: &Grid,
    ctx: &Context,
    stand_ins: &[Technique],
) -> f32 {
    use super::rating::{lowest_rating, rating_in_position};
    let mut best = own;
    if step.technique == Technique::Guess {
        return best;
    }
    for &t in stand_ins.iter().filter(|&&t| t >= step.technique) {
        if lowest_rating(t) >= best {
            break;
        }
        let has_direct = lowest_rating(t) < t.se_rating();
        if t == step.technique && !has_direct {
            continue;
        }
        let limit = if has_direct { DIRECT_SEARCH_LIMIT } else { 1 };
        for s in techniques::find_all(t, grid, ctx, limit) {
            if !s.makes_progress(grid) {
                continue;
            }
            let r = rating_in_position(&s, grid);
            if r < best && (t == step.technique || reaches(step, &s, r, grid, ctx)) {
                best = r;
            }
        }
    }
    // Sukaku Explainer's additions below its chains (see `rating`), easiest first so that
    // one found spares the searches that cannot beat it: unique loops (4.6 and up, with its
    // unique rectangles); wings of a two-digit cell and an almost locked set (5.5 and up,
    // cases of our ALS-XZ: none past the position where our solver found no ALS-XZ);
    // strong-linked fish with a grouped node (5.7 and up; our X-Chain finder takes single
    // candidates, our AIC finder, which would have found them, comes later).
    let extras: [(f32, bool, RatingFinder); 3] = [
        (LOOP_LOWEST, ctx.unique, techniques::unique_loop),
        (
            WING_LOWEST,
            step.technique <= Technique::AlsXz,
            techniques::bivalue_wing,
        ),
        (
            GROUPED_FISH_LOWEST,
            step.technique <= Technique::Aic,
            techniques::grouped_x_chain,
        ),
    ];
    for (lowest, possible, find) in extras {
        if !possible || best <= lowest {
            continue;
        }
        if let Some(s) = find(grid).filter(|s| s.makes_progress(grid)) {
            let r = rating_in_position(&s, grid);
            if r < best && reaches(step, &s, r, grid, ctx) {
                best = r;
            }
        }
    }
    // The AIC finder returns the shortest chain, which may be grouped (rated as the forcing
    // chain Sudoku Explainer needs for it); Sudoku Explainer takes the longer chain of single
    // candidates instead when there is one, as one of its forcing chains (7.0 and up).
    if step.technique == Technique::Aic
        && best > Technique::Aic.se_rating()
        && let Some(s) = techniques::ungrouped_chain(grid)
        && s.makes_progress(grid)
    {
        best = best.min(rating_in_position(&s, grid));
    }
    best
}

/// Most steps taken after a stand-in to reach its step's deduction.
const REACH_STEPS: usize = 40;

/// Whether taking `stand_in` (rated `r`) in `grid` instead of `step` gets past `step`: after
/// it, steps rated `r` or less of techniques Sudoku Explainer has (the first instance of each,
/// in solving order) make every placement and elimination of `step`. A stand-in that only
/// delays `step`'s deduction, which Sudoku Explainer then needs anyway, does not lower the
/// position's rating.
fn reaches(step: &Step, stand_in: &Step, r: f32, grid: &Grid, ctx: &Context) -> bool {
    use super::rating::{in_sudoku_explainer, lowest_rating, rating_in_position};
    let mut g = grid.clone();
    stand_in.apply(&mut g);
    for _ in 0..REACH_STEPS {
        if !step.makes_progress(&g) {
            return true;
        }
        let easy = |s: &Step| s.makes_progress(&g) && rating_in_position(s, &g) <= r;
        let next = Technique::ALL
            .into_iter()
            .filter(|&t| {
                // Not the AIC and what follows it: their searches cost as much as the
                // rest together, and a stand-in rated that high is rare.
                t < Technique::Aic && in_sudoku_explainer(t) && lowest_rating(t) <= r
            })
            .find_map(|t| techniques::find(t, &g, ctx).filter(easy))
            .or_else(|| {
                (r >= WING_LOWEST)
                    .then(|| techniques::bivalue_wing(&g))
                    .flatten()
                    .filter(easy)
            });
        match next {
            Some(s) => s.apply(&mut g),
            None => return false,
        }
    }
    !step.makes_progress(&g)
}

/// The easiest step that makes progress and agrees with `solution`; contradicting steps are
/// pushed to `rejected` and skipped.
fn next_step(
    grid: &Grid,
    ctx: &Context,
    solution: &[u8; 81],
    rejected: &mut Vec<Step>,
) -> Option<Step> {
    for t in Technique::ALL {
        if let Some(step) = techniques::find(t, grid, ctx) {
            if !step.makes_progress(grid) {
                continue;
            }
            if contradicts(&step, solution) {
                tracing::error!(step = %step.text(), "technique contradicted the solution");
                rejected.push(step);
                continue;
            }
            return Some(step);
        }
    }
    None
}

/// Whether `step` places a digit other than the solution's or removes a solution digit.
pub fn contradicts(step: &Step, solution: &[u8; 81]) -> bool {
    step.placements
        .iter()
        .any(|p| solution[p.cell.index()] != p.digit.get())
        || step
            .eliminations
            .iter()
            .any(|e| solution[e.cell.index()] == e.digit.get())
}

/// The next step only (the easiest one), for hints. `None` when the grid is complete.
pub fn next_hint(grid: &Grid) -> Result<Option<Step>, SolveError> {
    first_of(grid, None)
}

/// The first step of `technique` in this position (or the easiest step when `None`); falls back
/// to a guess only when no technique is requested. `Ok(None)` when the technique does not apply
/// or the grid is complete.
pub fn first_of(grid: &Grid, technique: Option<Technique>) -> Result<Option<Step>, SolveError> {
    Ok(all_of(grid, technique, 1)?.into_iter().next())
}

/// Every instance (up to `limit` distinct deductions) of `technique` in this position, or
/// with `None` of the easiest technique that has one (a guess when none has); only steps that
/// make progress and agree with the solution. Empty when the technique does not apply or the
/// grid is complete.
pub fn all_of(
    grid: &Grid,
    technique: Option<Technique>,
    limit: usize,
) -> Result<Vec<Step>, SolveError> {
    if grid.is_complete() {
        return Ok(Vec::new());
    }
    let sols = solve_up_to(grid, 2);
    let solution = sols.first.ok_or(SolveError::NoSolution)?;
    let ctx = Context {
        unique: sols.count == 1,
    };
    let valid = |t: Technique| -> Vec<Step> {
        techniques::find_all(t, grid, &ctx, limit)
            .into_iter()
            .filter(|s| s.makes_progress(grid) && !contradicts(s, &solution))
            .collect()
    };
    Ok(match technique {
        Some(Technique::Guess) => vec![guess(grid, &solution)],
        Some(t) => valid(t),
        None => Technique::ALL
            .into_iter()
            .map(valid)
            .find(|steps| !steps.is_empty())
            .unwrap_or_else(|| vec![guess(grid, &solution)]),
    })
}

/// A guess: the solution's digit in the empty cell with the fewest candidates (first in reading
/// order on ties).
fn guess(grid: &Grid, solution: &[u8; 81]) -> Step {
    let cell = grid
        .empty_cells()
        .iter()
        .min_by_key(|&c| grid.candidates(c).len())
        .unwrap_or_else(|| super::types::Cell::from_index(0));
    let digit = Digit::new(solution[cell.index()]).unwrap_or(Digit::ALL[0]);
    let mut step = Step::new(Technique::Guess);
    step.placements.push(Candidate::new(cell, digit));
    step.digits = Candidates::single(digit);
    for d in grid.candidates(cell).iter() {
        step.mark(cell, d, Role::Base);
    }
    step
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse::parse_puzzle;

    #[test]
    fn easy_puzzle_solves_with_singles() {
        let g = parse_puzzle(
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
        )
        .unwrap();
        let e = solve_explained(&g).unwrap();
        assert!(e.unique);
        assert_eq!(e.guesses, 0);
        assert!(e.rejected.is_empty());
        let mut end = g.clone();
        for s in &e.steps {
            s.apply(&mut end);
        }
        assert!(end.is_solved());
        assert_eq!(end.values(), e.solution);
    }

    #[test]
    fn unsolvable_is_error() {
        // Two 1s forced into r1 by columns: r1c1 cannot be anything.
        let g = parse_puzzle(
            ".23456789\
             1........\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........\
             ........1",
        )
        .unwrap();
        assert_eq!(solve_explained(&g).unwrap_err(), SolveError::NoSolution);
    }
}
