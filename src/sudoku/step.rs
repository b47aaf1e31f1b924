//! A solving step as data: which [`Technique`], what it places and eliminates, and the
//! justification (candidates in their roles, houses, links). The human-readable text is
//! generated from that data by the technique's own module (see [`Step::text`]).
//!
//! This module owns the step vocabulary; it does not find steps.

use std::fmt;

use super::grid::{Candidate, Grid};
use super::notation::compact_cells;
use super::types::{Candidates, Cell, CellSet, Digit, House};

/// Every technique the step solver knows, easiest first (the order the solver tries them in).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Technique {
    /// Last empty cell of a house.
    FullHouse,
    /// Hidden single (digit has one place in a house).
    HiddenSingle,
    /// Naked single (cell has one candidate).
    NakedSingle,
    /// Locked candidates type 1: a box's candidates confined to one line.
    LockedCandidatesPointing,
    /// Locked candidates type 2: a line's candidates confined to one box.
    LockedCandidatesClaiming,
    /// Two cells, two digits.
    NakedPair,
    /// Two digits confined to two cells.
    HiddenPair,
    /// Three cells, three digits.
    NakedTriple,
    /// Three digits confined to three cells.
    HiddenTriple,
    /// Basic fish of size 2.
    XWing,
    /// Basic fish of size 3.
    Swordfish,
    /// Basic fish of size 4.
    Jellyfish,
    /// Four cells, four digits.
    NakedQuad,
    /// Four digits confined to four cells.
    HiddenQuad,
    /// Two conjugate pairs on parallel lines joined at one end.
    Skyscraper,
    /// A row and a column conjugate pair joined in a box.
    TwoStringKite,
    /// Generic length-4 X-chain (conjugate – weak – conjugate).
    TurbotFish,
    /// Box candidates on one row and one column plus a conjugate pair.
    EmptyRectangle,
    /// XY-Wing (Y-Wing).
    XYWing,
    /// XYZ-Wing.
    XYZWing,
    /// W-Wing: two identical bivalue cells linked by a strong link.
    WWing,
    /// Finned X-Wing.
    FinnedXWing,
    /// Sashimi X-Wing.
    SashimiXWing,
    /// Finned Swordfish.
    FinnedSwordfish,
    /// Sashimi Swordfish.
    SashimiSwordfish,
    /// Finned Jellyfish.
    FinnedJellyfish,
    /// Sashimi Jellyfish.
    SashimiJellyfish,
    /// Simple colors: one color sees itself twice (wrap).
    SimpleColorsWrap,
    /// Simple colors: a cell sees both colors (trap).
    SimpleColorsTrap,
    /// Unique rectangle type 1.
    UniqueRectangle1,
    /// Unique rectangle type 2.
    UniqueRectangle2,
    /// Unique rectangle type 3.
    UniqueRectangle3,
    /// Unique rectangle type 4.
    UniqueRectangle4,
    /// Bivalue universal grave + 1.
    BugPlusOne,
    /// Remote pair chain.
    RemotePair,
    /// Single-digit alternating chain.
    XChain,
    /// Chain of bivalue cells.
    XYChain,
    /// Alternating inference chain / nice loop.
    Aic,
    /// Almost locked sets, XZ rule.
    AlsXz,
    /// No logic found: the exact solver's digit is placed.
    Guess,
}

impl Technique {
    /// Every technique in solving order.
    pub const ALL: [Technique; 40] = [
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::LockedCandidatesPointing,
        Technique::LockedCandidatesClaiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
        Technique::Jellyfish,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::WWing,
        Technique::FinnedXWing,
        Technique::SashimiXWing,
        Technique::FinnedSwordfish,
        Technique::SashimiSwordfish,
        Technique::FinnedJellyfish,
        Technique::SashimiJellyfish,
        Technique::SimpleColorsWrap,
        Technique::SimpleColorsTrap,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::BugPlusOne,
        Technique::RemotePair,
        Technique::XChain,
        Technique::XYChain,
        Technique::Aic,
        Technique::AlsXz,
        Technique::Guess,
    ];

    /// The display name used in step texts, e.g. `Locked Candidates Type 1 (Pointing)`.
    pub const fn name(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "Full House",
            HiddenSingle => "Hidden Single",
            NakedSingle => "Naked Single",
            LockedCandidatesPointing => "Locked Candidates Type 1 (Pointing)",
            LockedCandidatesClaiming => "Locked Candidates Type 2 (Claiming)",
            NakedPair => "Naked Pair",
            HiddenPair => "Hidden Pair",
            NakedTriple => "Naked Triple",
            HiddenTriple => "Hidden Triple",
            XWing => "X-Wing",
            Swordfish => "Swordfish",
            Jellyfish => "Jellyfish",
            NakedQuad => "Naked Quadruple",
            HiddenQuad => "Hidden Quadruple",
            Skyscraper => "Skyscraper",
            TwoStringKite => "2-String Kite",
            TurbotFish => "Turbot Fish",
            EmptyRectangle => "Empty Rectangle",
            XYWing => "XY-Wing",
            XYZWing => "XYZ-Wing",
            WWing => "W-Wing",
            FinnedXWing => "Finned X-Wing",
            SashimiXWing => "Sashimi X-Wing",
            FinnedSwordfish => "Finned Swordfish",
            SashimiSwordfish => "Sashimi Swordfish",
            FinnedJellyfish => "Finned Jellyfish",
            SashimiJellyfish => "Sashimi Jellyfish",
            SimpleColorsWrap => "Simple Colors Wrap",
            SimpleColorsTrap => "Simple Colors Trap",
            UniqueRectangle1 => "Unique Rectangle Type 1",
            UniqueRectangle2 => "Unique Rectangle Type 2",
            UniqueRectangle3 => "Unique Rectangle Type 3",
            UniqueRectangle4 => "Unique Rectangle Type 4",
            BugPlusOne => "Bivalue Universal Grave + 1",
            RemotePair => "Remote Pair",
            XChain => "X-Chain",
            XYChain => "XY-Chain",
            Aic => "AIC",
            AlsXz => "ALS-XZ",
            Guess => "Guess",
        }
    }

    /// The identifier accepted on the command line (`--technique`), e.g. `locked-candidates-1`.
    pub const fn id(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "full-house",
            HiddenSingle => "hidden-single",
            NakedSingle => "naked-single",
            LockedCandidatesPointing => "locked-candidates-1",
            LockedCandidatesClaiming => "locked-candidates-2",
            NakedPair => "naked-pair",
            HiddenPair => "hidden-pair",
            NakedTriple => "naked-triple",
            HiddenTriple => "hidden-triple",
            XWing => "x-wing",
            Swordfish => "swordfish",
            Jellyfish => "jellyfish",
            NakedQuad => "naked-quad",
            HiddenQuad => "hidden-quad",
            Skyscraper => "skyscraper",
            TwoStringKite => "2-string-kite",
            TurbotFish => "turbot-fish",
            EmptyRectangle => "empty-rectangle",
            XYWing => "xy-wing",
            XYZWing => "xyz-wing",
            WWing => "w-wing",
            FinnedXWing => "finned-x-wing",
            SashimiXWing => "sashimi-x-wing",
            FinnedSwordfish => "finned-swordfish",
            SashimiSwordfish => "sashimi-swordfish",
            FinnedJellyfish => "finned-jellyfish",
            SashimiJellyfish => "sashimi-jellyfish",
            SimpleColorsWrap => "simple-colors-wrap",
            SimpleColorsTrap => "simple-colors-trap",
            UniqueRectangle1 => "unique-rectangle-1",
            UniqueRectangle2 => "unique-rectangle-2",
            UniqueRectangle3 => "unique-rectangle-3",
            UniqueRectangle4 => "unique-rectangle-4",
            BugPlusOne => "bug-plus-1",
            RemotePair => "remote-pair",
            XChain => "x-chain",
            XYChain => "xy-chain",
            Aic => "aic",
            AlsXz => "als-xz",
            Guess => "guess",
        }
    }

    /// Looks a technique up by [`Technique::id`] or display name, ignoring case, spaces,
    /// underscores and hyphens (`"X-Wing"`, `"xwing"`, `"x_wing"` all match).
    pub fn from_name(s: &str) -> Option<Technique> {
        let norm = |x: &str| -> String {
            x.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let want = norm(s);
        Technique::ALL
            .into_iter()
            .find(|t| norm(t.id()) == want || norm(t.name()) == want)
    }

    /// Difficulty on the Sudoku Explainer scale (1.0 … ~11). Techniques SE does not have are
    /// placed where SE rates the chains that would find the same deduction.
    pub const fn se_rating(self) -> f32 {
        use Technique::*;
        match self {
            FullHouse => 1.0,
            HiddenSingle => 1.5,
            NakedSingle => 2.3,
            LockedCandidatesPointing => 2.6,
            LockedCandidatesClaiming => 2.8,
            NakedPair => 3.0,
            XWing => 3.2,
            HiddenPair => 3.4,
            NakedTriple => 3.6,
            Swordfish => 3.8,
            HiddenTriple => 4.0,
            XYWing => 4.2,
            XYZWing => 4.4,
            UniqueRectangle1 => 4.5,
            UniqueRectangle2 | UniqueRectangle3 | UniqueRectangle4 => 4.6,
            NakedQuad => 5.0,
            Jellyfish => 5.2,
            HiddenQuad => 5.4,
            BugPlusOne => 5.6,
            Skyscraper | TwoStringKite | TurbotFish | EmptyRectangle => 6.6,
            WWing => 6.6,
            SimpleColorsTrap | SimpleColorsWrap => 6.6,
            FinnedXWing | SashimiXWing => 6.6,
            RemotePair => 6.6,
            FinnedSwordfish | SashimiSwordfish => 6.8,
            FinnedJellyfish | SashimiJellyfish => 7.0,
            XChain => 7.0,
            XYChain => 7.2,
            AlsXz => 7.5,
            Aic => 7.6,
            Guess => 10.0,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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

/// Strong (at least one of the two is true) or weak (at most one is true).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// At least one end is true.
    Strong,
    /// Not both ends are true.
    Weak,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in Technique::ALL {
            assert_eq!(Technique::from_name(t.id()), Some(t));
            assert_eq!(Technique::from_name(t.name()), Some(t));
        }
        assert_eq!(Technique::from_name("xwing"), Some(Technique::XWing));
        assert_eq!(Technique::from_name("nope"), None);
    }

    #[test]
    fn order_matches_all() {
        let mut sorted = Technique::ALL;
        sorted.sort();
        assert_eq!(sorted, Technique::ALL);
    }
}
