//! [`Technique`]: every deduction pattern the step solver knows, in the order it tries them
//! (easiest first), with its display name, command-line id, plain-language title and base
//! rating on the Sudoku Explainer scale.
//!
//! The table is the one home of those facts; how a step of a technique is found, written and
//! explained lives in its file under `techniques/`, its glossary entry in `glossary`.

use std::fmt;

/// Defines the enum and its tables from one list, so a technique's facts stay on one line.
macro_rules! techniques {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $id:literal, $rating:literal, $title:literal; )*) => {
        /// Every technique the step solver knows, in the order it tries them (easiest and
        /// cheapest first; the forcing chains and nets last, a guess only after them). The
        /// Franken and Mutant fish come after the forcing chains, before the nets: Sudoku
        /// Explainer has none, and proving that none exists costs more than the chains on most
        /// positions where they are reached (issue 15: top1465 median explained solve 10.3 →
        /// 4.8 ms, Spearman with SE 0.948 → 0.950).
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub enum Technique {
            $( $(#[$doc])* $variant, )*
        }

        const COUNT: usize = [$($id),*].len();

        impl Technique {
            /// Every technique in solving order.
            pub const ALL: [Technique; COUNT] = [$(Technique::$variant),*];

            /// The display name used in step texts, e.g. `Locked Candidates Type 1 (Pointing)`.
            pub const fn name(self) -> &'static str {
                match self { $(Technique::$variant => $name,)* }
            }

            /// The identifier accepted on the command line (`--technique`), e.g.
            /// `locked-candidates-1`.
            pub const fn id(self) -> &'static str {
                match self { $(Technique::$variant => $id,)* }
            }

            /// A short title in plain words for a casual solver, e.g. "Only place for a digit".
            pub const fn title(self) -> &'static str {
                match self { $(Technique::$variant => $title,)* }
            }

            /// Base difficulty on the Sudoku Explainer scale (1.0 … ~11), as Sudoku Explainer
            /// and its Sukaku Explainer extension rate the technique; techniques they lack are
            /// placed where they rate the chain that finds the same deduction. A step's own
            /// rating ([`crate::sudoku::Step::rating`]) adds to this for long chains.
            pub const fn se_rating(self) -> f32 {
                match self { $(Technique::$variant => $rating,)* }
            }
        }
    };
}

techniques! {
    /// Last empty cell of a house.
    FullHouse => "Full House", "full-house", 1.0, "Last empty cell of a house";
    /// Hidden single (a digit has one place in a house).
    HiddenSingle => "Hidden Single", "hidden-single", 1.5, "Only place for a digit";
    /// Naked single (a cell has one candidate).
    NakedSingle => "Naked Single", "naked-single", 2.3, "Only digit left for a cell";
    /// Locked candidates type 1: a box's candidates confined to one line.
    LockedCandidatesPointing => "Locked Candidates Type 1 (Pointing)", "locked-candidates-1", 2.6,
        "A box points along a line";
    /// Locked candidates type 2: a line's candidates confined to one box.
    LockedCandidatesClaiming => "Locked Candidates Type 2 (Claiming)", "locked-candidates-2", 2.8,
        "A line claims a box";
    /// Two cells, two digits.
    NakedPair => "Naked Pair", "naked-pair", 3.0, "Two cells sharing two digits";
    /// Basic fish of size 2.
    XWing => "X-Wing", "x-wing", 3.2, "A digit boxed in by two rows and two columns";
    /// Two digits confined to two cells.
    HiddenPair => "Hidden Pair", "hidden-pair", 3.4, "Two digits hiding in two cells";
    /// Three cells, three digits.
    NakedTriple => "Naked Triple", "naked-triple", 3.6, "Three cells sharing three digits";
    /// Basic fish of size 3.
    Swordfish => "Swordfish", "swordfish", 3.8, "A digit boxed in by three rows and columns";
    /// Three digits confined to three cells.
    HiddenTriple => "Hidden Triple", "hidden-triple", 4.0, "Three digits hiding in three cells";
    /// Two conjugate pairs on parallel lines joined at one end.
    Skyscraper => "Skyscraper", "skyscraper", 4.0, "Two towers of one digit";
    /// A row and a column conjugate pair joined in a box.
    TwoStringKite => "2-String Kite", "2-string-kite", 4.1, "A row and a column tied in a box";
    /// Generic length-4 X-chain (conjugate – weak – conjugate).
    TurbotFish => "Turbot Fish", "turbot-fish", 4.2, "Two strong links of one digit";
    /// Box candidates on one row and one column plus a conjugate pair.
    EmptyRectangle => "Empty Rectangle", "empty-rectangle", 4.2, "A box's digit on a cross";
    /// XY-Wing (Y-Wing).
    XYWing => "XY-Wing", "xy-wing", 4.2, "A pivot cell and two pincers";
    /// XYZ-Wing.
    XYZWing => "XYZ-Wing", "xyz-wing", 4.4, "A three-digit pivot and two pincers";
    /// W-Wing: two identical bivalue cells linked by a strong link.
    WWing => "W-Wing", "w-wing", 4.4, "Two twin cells joined by a digit";
    /// Unique rectangle type 1.
    UniqueRectangle1 => "Unique Rectangle Type 1", "unique-rectangle-1", 4.5,
        "Avoiding a second solution (one odd corner)";
    /// Unique rectangle type 2.
    UniqueRectangle2 => "Unique Rectangle Type 2", "unique-rectangle-2", 4.5,
        "Avoiding a second solution (shared extra digit)";
    /// Unique rectangle type 3.
    UniqueRectangle3 => "Unique Rectangle Type 3", "unique-rectangle-3", 4.5,
        "Avoiding a second solution (extra digits form a set)";
    /// Unique rectangle type 4.
    UniqueRectangle4 => "Unique Rectangle Type 4", "unique-rectangle-4", 4.5,
        "Avoiding a second solution (a locked digit)";
    /// Unique rectangle type 5: one extra digit in two or three corners.
    UniqueRectangle5 => "Unique Rectangle Type 5", "unique-rectangle-5", 4.6,
        "Avoiding a second solution (extra digit in several corners)";
    /// Unique rectangle type 6: a rectangle digit forms an X-Wing on the rectangle.
    UniqueRectangle6 => "Unique Rectangle Type 6", "unique-rectangle-6", 4.6,
        "Avoiding a second solution (an X-Wing on the corners)";
    /// Hidden rectangle: strong links on the lines through one corner.
    HiddenRectangle => "Hidden Rectangle", "hidden-rectangle", 4.6,
        "Avoiding a second solution (hidden rectangle)";
    /// Avoidable rectangle type 1: three corners already solved.
    AvoidableRectangle1 => "Avoidable Rectangle Type 1", "avoidable-rectangle-1", 4.5,
        "Avoiding a second solution with solved cells";
    /// Avoidable rectangle type 2: two solved corners, a shared extra digit.
    AvoidableRectangle2 => "Avoidable Rectangle Type 2", "avoidable-rectangle-2", 4.5,
        "Avoiding a second solution with solved cells (shared extra digit)";
    /// Four cells, four digits.
    NakedQuad => "Naked Quadruple", "naked-quad", 5.0, "Four cells sharing four digits";
    /// Basic fish of size 4.
    Jellyfish => "Jellyfish", "jellyfish", 5.2, "A digit boxed in by four rows and columns";
    /// Four digits confined to four cells.
    HiddenQuad => "Hidden Quadruple", "hidden-quad", 5.4, "Four digits hiding in four cells";
    /// Bivalue universal grave + 1.
    BugPlusOne => "Bivalue Universal Grave + 1", "bug-plus-1", 5.6,
        "Avoiding a grid of pairs (one extra cell)";
    /// Bivalue universal grave + n: the extra candidates of several cells.
    BugPlusN => "Bivalue Universal Grave + n", "bug-plus-n", 5.7,
        "Avoiding a grid of pairs (several extra candidates)";
    /// Aligned pair exclusion.
    AlignedPairExclusion => "Aligned Pair Exclusion", "aligned-pair-exclusion", 6.2,
        "Two cells that cannot take some pairs";
    /// Finned X-Wing.
    FinnedXWing => "Finned X-Wing", "finned-x-wing", 6.6, "An X-Wing with a fin";
    /// Sashimi X-Wing.
    SashimiXWing => "Sashimi X-Wing", "sashimi-x-wing", 6.6, "An X-Wing missing a corner";
    /// Simple colors: a cell sees both colors (trap).
    SimpleColorsTrap => "Simple Colors Trap", "simple-colors-trap", 6.6,
        "Coloring one digit: a cell sees both colors";
    /// Simple colors: one color sees itself twice (wrap).
    SimpleColorsWrap => "Simple Colors Wrap", "simple-colors-wrap", 6.6,
        "Coloring one digit: a color contradicts itself";
    /// Multi-colors type 1: two clusters of one digit, linked.
    MultiColors1 => "Multi-Colors Type 1", "multi-colors-1", 6.7,
        "Coloring two clusters of one digit";
    /// Multi-colors type 2: a color sees both colors of another cluster.
    MultiColors2 => "Multi-Colors Type 2", "multi-colors-2", 6.7,
        "Coloring two clusters: a color that cannot be true";
    /// Remote pair chain.
    RemotePair => "Remote Pair", "remote-pair", 6.6, "A chain of identical pairs";
    /// Single-digit alternating chain.
    XChain => "X-Chain", "x-chain", 6.6, "A chain of one digit";
    /// Finned Swordfish.
    FinnedSwordfish => "Finned Swordfish", "finned-swordfish", 6.8, "A Swordfish with a fin";
    /// Sashimi Swordfish.
    SashimiSwordfish => "Sashimi Swordfish", "sashimi-swordfish", 6.8,
        "A Swordfish missing a corner";
    /// Chain of bivalue cells.
    XYChain => "XY-Chain", "xy-chain", 6.6, "A chain of two-digit cells";
    /// Finned Jellyfish.
    FinnedJellyfish => "Finned Jellyfish", "finned-jellyfish", 7.0, "A Jellyfish with a fin";
    /// Sashimi Jellyfish.
    SashimiJellyfish => "Sashimi Jellyfish", "sashimi-jellyfish", 7.0,
        "A Jellyfish missing a corner";
    /// Sue de Coq: a box/line intersection split between the box and the line.
    SueDeCoq => "Sue de Coq", "sue-de-coq", 7.0, "A box and a line sharing their digits";
    /// Alternating inference chain / nice loop.
    Aic => "AIC", "aic", 7.0, "A chain of strong and weak links";
    /// Almost locked sets, XZ rule.
    AlsXz => "ALS-XZ", "als-xz", 7.0, "Two almost-full groups of cells";
    /// Almost locked sets, XY-Wing rule.
    AlsXyWing => "ALS-XY-Wing", "als-xy-wing", 7.1, "Three almost-full groups of cells";
    /// AIC with almost locked sets as nodes.
    AlsChain => "ALS Chain", "als-chain", 7.1, "A chain through almost-full groups";
    /// Death blossom: a stem cell and one almost locked set per candidate.
    DeathBlossom => "Death Blossom", "death-blossom", 7.2,
        "A cell whose every digit empties a group";
    /// Aligned triple exclusion.
    AlignedTripleExclusion => "Aligned Triple Exclusion", "aligned-triple-exclusion", 7.5,
        "Three cells that cannot take some triples";
    /// An assumption leads through chains to a contradiction.
    ForcingChainContradiction => "Forcing Chain Contradiction", "forcing-chain-contradiction", 7.5,
        "What-if: an assumption that breaks the grid";
    /// Every case of a cell, a house or a candidate leads through chains to one conclusion.
    ForcingChainVerity => "Forcing Chain Verity", "forcing-chain-verity", 8.0,
        "What-if: every case leads to the same result";
    // The Franken and Mutant fish: after the forcing chains (see the enum's doc).
    /// Franken fish: boxes among the base or cover houses.
    FrankenFish => "Franken Fish", "franken-fish", 6.8, "A fish using boxes";
    /// Finned Franken fish.
    FinnedFrankenFish => "Finned Franken Fish", "finned-franken-fish", 6.9,
        "A fish using boxes, with fins";
    /// Mutant fish: rows and columns mixed in the base or cover houses.
    MutantFish => "Mutant Fish", "mutant-fish", 7.0, "A fish mixing rows and columns";
    /// Finned mutant fish.
    FinnedMutantFish => "Finned Mutant Fish", "finned-mutant-fish", 7.1,
        "A fish mixing rows and columns, with fins";
    /// An assumption leads through a net of singles to a contradiction.
    ForcingNetContradiction => "Forcing Net Contradiction", "forcing-net-contradiction", 8.5,
        "Deep what-if: an assumption that breaks the grid";
    /// Every case leads through nets of singles to one conclusion.
    ForcingNetVerity => "Forcing Net Verity", "forcing-net-verity", 8.5,
        "Deep what-if: every case leads to the same result";
    /// An assumption leads through a net of singles, locked candidates, pairs and X-Wings to
    /// a contradiction (Sudoku Explainer's Dynamic Forcing Chains (+)).
    ForcingNetPlusContradiction => "Forcing Net Plus Contradiction",
        "forcing-net-plus-contradiction", 9.0,
        "Deeper what-if: an assumption that breaks the grid, patterns included";
    /// Every case leads through nets of singles, locked candidates, pairs and X-Wings to one
    /// conclusion (Sudoku Explainer's Dynamic Forcing Chains (+)).
    ForcingNetPlusVerity => "Forcing Net Plus Verity", "forcing-net-plus-verity", 9.0,
        "Deeper what-if: every case leads to the same result, patterns included";
    /// No logic found: the exact solver's digit is placed.
    Guess => "Guess", "guess", 11.0, "No logic left: a guess";
}

impl Technique {
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

    /// What the pattern is and why it works, in plain words for a casual solver.
    pub fn glossary(self) -> &'static str {
        super::glossary::entry(self)
    }

    /// Whether the technique relies on the puzzle having exactly one solution.
    pub const fn needs_unique(self) -> bool {
        use Technique::*;
        matches!(
            self,
            UniqueRectangle1
                | UniqueRectangle2
                | UniqueRectangle3
                | UniqueRectangle4
                | UniqueRectangle5
                | UniqueRectangle6
                | HiddenRectangle
                | AvoidableRectangle1
                | AvoidableRectangle2
                | BugPlusOne
                | BugPlusN
        )
    }
}

/// A technique is written as its command-line id (e.g. `locked-candidates-1`).
impl serde::Serialize for Technique {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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
    fn order_matches_all_and_names_are_distinct() {
        let mut sorted = Technique::ALL;
        sorted.sort();
        assert_eq!(sorted, Technique::ALL);
        let mut ids: Vec<&str> = Technique::ALL.iter().map(|t| t.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Technique::ALL.len());
    }
}
