//! [`Candidates`], a set of digits for one cell as a 9-bit mask: membership, iteration, the
//! set operators and printing (`159`).
//!
//! It owns no per-cell state: which candidates each cell of a puzzle has is
//! [`crate::sudoku::Grid`]'s.

use std::fmt;

use super::Digit;

/// A set of candidate digits for one cell: bit `d-1` set means digit `d` is possible.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Candidates(u16);

impl Candidates {
    /// No digits.
    pub const NONE: Candidates = Candidates(0);
    /// All nine digits.
    pub const ALL: Candidates = Candidates(0x1ff);

    /// From a raw 9-bit mask (bit 0 = digit 1); higher bits are dropped.
    pub const fn from_bits(bits: u16) -> Candidates {
        Candidates(bits & 0x1ff)
    }

    /// The single digit `d`.
    pub const fn single(d: Digit) -> Candidates {
        Candidates(1 << d.index())
    }

    /// The raw 9-bit mask.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Number of digits in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `d` is in the set.
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    /// Adds `d`.
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << d.index();
    }

    /// Removes `d`; returns whether it was present.
    pub fn remove(&mut self, d: Digit) -> bool {
        let had = self.contains(d);
        self.0 &= !(1 << d.index());
        had
    }

    /// The only digit if the set has exactly one.
    pub fn single_digit(self) -> Option<Digit> {
        if self.len() == 1 {
            Some(Digit::from_index(self.0.trailing_zeros() as usize))
        } else {
            None
        }
    }

    /// The smallest digit in the set.
    pub fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// Digits in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Digit> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Digit::from_index(i))
            }
        })
    }
}

impl std::ops::BitOr for Candidates {
    type Output = Candidates;
    fn bitor(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 | rhs.0)
    }
}
impl std::ops::BitAnd for Candidates {
    type Output = Candidates;
    fn bitand(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 & rhs.0)
    }
}
impl std::ops::Not for Candidates {
    type Output = Candidates;
    fn not(self) -> Candidates {
        Candidates(!self.0 & 0x1ff)
    }
}
impl std::ops::BitOrAssign for Candidates {
    fn bitor_assign(&mut self, rhs: Candidates) {
        self.0 |= rhs.0;
    }
}
impl std::ops::BitAndAssign for Candidates {
    fn bitand_assign(&mut self, rhs: Candidates) {
        self.0 &= rhs.0;
    }
}
impl FromIterator<Digit> for Candidates {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Candidates {
        let mut c = Candidates::NONE;
        for d in iter {
            c.insert(d);
        }
        c
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Printed as the digits run together, e.g. `{1,5,9}` prints `159`.
impl fmt::Display for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.iter() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_ops() {
        let c: Candidates = [Digit::ALL[0], Digit::ALL[4], Digit::ALL[8]]
            .into_iter()
            .collect();
        assert_eq!(c.to_string(), "159");
        assert_eq!(c.len(), 3);
        assert!(c.contains(Digit::ALL[4]));
        assert_eq!((!c).len(), 6);
    }
}
