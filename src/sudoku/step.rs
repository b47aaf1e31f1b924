//! A solving step as data: which [`Technique`], what it places and eliminates, and the
//! justification (candidates in their roles, houses, links, and for forcing chains and nets the
//! branches they follow). The notation and the plain sentence are generated from that data by
//! the technique's own module (see [`Step::text`] and [`Step::explanation`]), and so is the
//! step's rating ([`Step::rating`]).
//!
//! This module owns the step vocabulary; it does not find steps.

use std::fmt;

use std::ops::Range;

use super::grid::{Candidate, Grid};
use super::notation::compact_cells;
pub use super::technique::Technique;
use super::types::{Candidates, Cell, CellSet, Digit, House};

/// What part a highlighted candidate or house plays in a pattern; the app styles by role.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Defining candidates/houses of the pattern (fish base sets, subset cells, wing arms).
    Base,
    /// Cover houses of a fish, the line a locked candidate points along.
    Cover,
    /// Fin cells of a finned/sashimi fish.
    Fin,
    /// Pivot cell of a wing.
    Pivot,
    /// Pincer cells of a wing.
    Pincer,
    /// A candidate in a chain or a linking pair (skyscraper roof, kite box).
    Link,
    /// First coloring class (chains: the "on" end of a strong link).
    ColorA,
    /// Second coloring class.
    ColorB,
    /// First ALS (or the unique-rectangle corners).
    SetA,
    /// Second ALS (or the extra cells of a UR).
    SetB,
    /// The restricted common / linking digit.
    Common,
}

/// A candidate highlighted with its role.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mark {
    /// The candidate.
    pub candidate: Candidate,
    /// Its role.
    pub role: Role,
}

/// A chain node: `digit` in one cell, or in a group of cells of one house (grouped node).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Node {
    /// The cells (one, or up to three in one house for a group).
    pub cells: CellSet,
    /// The digit.
    pub digit: Digit,
}

impl Node {
    /// A single-cell node.
    pub fn cell(cell: Cell, digit: Digit) -> Node {
        Node {
            cells: CellSet::single(cell),
            digit,
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.digit, compact_cells(self.cells.iter()))
    }
}

/// Strong (at least one of the two is true), weak (at most one is true), or, inside a forcing
/// net, a basic pattern's elimination.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// At least one end is true.
    Strong,
    /// Not both ends are true.
    Weak,
    /// In a forcing net: `from` is false and, with the other false candidates linked to `to`
    /// by the same pattern, leaves the pattern (locked candidates, a hidden or naked pair, an
    /// X-Wing: the technique named) in place, which makes `to` false.
    Pattern(Technique),
}

impl LinkKind {
    /// Whether the link's `from` end is the true fact it reasons from (a weak link), rather
    /// than a false one (a strong link or a pattern's).
    pub fn from_is_true(self) -> bool {
        self == LinkKind::Weak
    }

    /// Whether the link makes its `to` end true (a strong link) rather than false.
    pub fn to_is_true(self) -> bool {
        self == LinkKind::Strong
    }
}

/// A link between two chain nodes, in chain order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Link {
    /// Where the link starts.
    pub from: Node,
    /// Where it ends.
    pub to: Node,
    /// Strong or weak.
    pub kind: LinkKind,
}

/// One side of a forcing chain or net: "if `premise` were true (or false) …".
#[derive(Clone, PartialEq, Debug)]
pub struct Branch {
    /// The assumed candidate.
    pub premise: Candidate,
    /// Whether the branch assumes it true (placed) or false (removed).
    pub premise_true: bool,
    /// The branch's inferences, in the order they were made, as a range of [`Step::links`]:
    /// a strong link `from → to` reads "from is false, so to is true", a weak one "from is
    /// true, so to is false", a pattern's "from is false, so (with the pattern's other false
    /// candidates) to is false". A net's inference with several reasons has one link from each.
    pub links: Range<usize>,
    /// Where the branch ends.
    pub outcome: Outcome,
}

/// Where a branch of a forcing chain or net ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The candidate is true at the end of the branch (verity: every branch agrees).
    True(Candidate),
    /// The candidate is false at the end of the branch.
    False(Candidate),
    /// A cell is left with no candidate.
    NoCandidate(Cell),
    /// A digit has no place left in a house.
    NoPlace(House, Digit),
    /// A candidate is found both true and false.
    Both(Candidate),
}

/// One deduction: the technique, its effect, and the data that justifies it.
#[derive(Clone, PartialEq, Debug)]
pub struct Step {
    /// Which technique found it.
    pub technique: Technique,
    /// Digits it places.
    pub placements: Vec<Candidate>,
    /// Candidates it removes.
    pub eliminations: Vec<Candidate>,
    /// The digit(s) the pattern is about (a fish's digit, a pair's digits, a wing's x/y/z).
    pub digits: Candidates,
    /// Houses in roles: fish base/cover sets, a locked candidate's box and line, a subset's house.
    pub houses: Vec<(House, Role)>,
    /// Pattern candidates in roles.
    pub marks: Vec<Mark>,
    /// Chain links, in order (empty for non-chain techniques).
    pub links: Vec<Link>,
    /// For forcing chains and nets: the branches (one per case considered), each naming its
    /// assumption, its inferences as a range of [`Step::links`] and what it ends in. Empty for
    /// every other technique.
    pub branches: Vec<Branch>,
}

impl Step {
    /// A step of `technique` with no effect or justification yet.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            digits: Candidates::NONE,
            houses: Vec::new(),
            marks: Vec::new(),
            links: Vec::new(),
            branches: Vec::new(),
        }
    }

    /// Adds a placement.
    pub fn place(mut self, cell: Cell, digit: Digit) -> Step {
        self.placements.push(Candidate::new(cell, digit));
        self
    }

    /// Adds a mark.
    pub fn mark(&mut self, cell: Cell, digit: Digit, role: Role) {
        self.marks.push(Mark {
            candidate: Candidate::new(cell, digit),
            role,
        });
    }

    /// Candidates marked with `role`.
    pub fn marked(&self, role: Role) -> impl Iterator<Item = Candidate> + '_ {
        self.marks
            .iter()
            .filter(move |m| m.role == role)
            .map(|m| m.candidate)
    }

    /// Cells marked with `role`, as a set.
    pub fn marked_cells(&self, role: Role) -> CellSet {
        self.marked(role).map(|c| c.cell).collect()
    }

    /// Houses with `role`, in order.
    pub fn houses_with(&self, role: Role) -> impl Iterator<Item = House> + '_ {
        self.houses
            .iter()
            .filter(move |(_, r)| *r == role)
            .map(|(h, _)| *h)
    }

    /// Whether the step changes anything in `grid` (places a digit in an empty cell or removes
    /// an existing candidate).
    pub fn makes_progress(&self, grid: &Grid) -> bool {
        self.placements.iter().any(|p| grid.value(p.cell).is_none())
            || self
                .eliminations
                .iter()
                .any(|e| grid.has_candidate(e.cell, e.digit))
    }

    /// Applies the step to `grid`: placements first, then eliminations.
    pub fn apply(&self, grid: &mut Grid) {
        for p in &self.placements {
            if grid.value(p.cell).is_none() {
                grid.place(p.cell, p.digit);
            }
        }
        for e in &self.eliminations {
            grid.eliminate(e.cell, e.digit);
        }
    }

    /// The step in the usual notation, e.g. `Hidden Single: r9c3=7` or
    /// `Skyscraper: 4 in r5c4,r6c7 (connected by r3c47) => r5c9,r6c6<>4`. Generated from the
    /// step's data by the technique's module.
    pub fn text(&self) -> String {
        super::techniques::describe(self)
    }

    /// One plain sentence saying what the step does and why, built from the step's data, e.g.
    /// "In box 7, the 1 can only go in row 7, so no other cell of row 7 can be 1."
    pub fn explanation(&self) -> String {
        super::techniques::explain(self)
    }

    /// The step's difficulty on the Sudoku Explainer scale: its technique's base rating, plus
    /// Sudoku Explainer's length bonus for chains, loops and forcing chains/nets.
    pub fn rating(&self) -> f32 {
        super::rating::step_rating(self)
    }

    /// The effect part of the text: `r9c3=7` for placements and `r5c9,r6c6<>4, r1c3<>5` for
    /// eliminations (grouped by digit, compact cells).
    pub fn effect_text(&self) -> String {
        let mut parts: Vec<String> = self
            .placements
            .iter()
            .map(|p| format!("{}={}", p.cell, p.digit))
            .collect();
        let mut digits: Vec<Digit> = self.eliminations.iter().map(|e| e.digit).collect();
        digits.sort();
        digits.dedup();
        for d in digits {
            let cells = self
                .eliminations
                .iter()
                .filter(|e| e.digit == d)
                .map(|e| e.cell);
            parts.push(format!("{}<>{}", compact_cells(cells), d));
        }
        parts.join(", ")
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Adds to `step` an elimination of `digit` from every cell of `cells` where `grid` still has it;
/// returns how many were added.
pub fn eliminate_where_possible(
    step: &mut Step,
    grid: &Grid,
    cells: CellSet,
    digit: Digit,
) -> usize {
    let targets = cells & grid.digit_cells(digit);
    for c in targets.iter() {
        step.eliminations.push(Candidate::new(c, digit));
    }
    targets.len()
}
