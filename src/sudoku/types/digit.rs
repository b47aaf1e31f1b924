//! [`Digit`], a Sudoku digit 1 to 9: its constructors, its printing and its serde form (the
//! number).
//!
//! It owns no set of digits (that is [`super::Candidates`]) and knows nothing of cells or houses.

use std::fmt;

/// A Sudoku digit, 1 to 9.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// All nine digits in order.
    pub const ALL: [Digit; 9] = [
        Digit(1),
        Digit(2),
        Digit(3),
        Digit(4),
        Digit(5),
        Digit(6),
        Digit(7),
        Digit(8),
        Digit(9),
    ];

    /// The digit `n` if `1 <= n <= 9`.
    pub const fn new(n: u8) -> Option<Digit> {
        if n >= 1 && n <= 9 {
            Some(Digit(n))
        } else {
            None
        }
    }

    /// The digit with zero-based index `i` (0 → 1 … 8 → 9). Panics if `i > 8` (a programming
    /// error, never user input).
    pub const fn from_index(i: usize) -> Digit {
        assert!(i < 9, "digit index out of range");
        Digit(i as u8 + 1)
    }

    /// The digit's value, 1 to 9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Zero-based index, 0 to 8.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The digit as its character `'1'..='9'`.
    pub const fn to_char(self) -> char {
        (b'0' + self.0) as char
    }
}

impl fmt::Debug for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Serialized as its number 1–9.
impl serde::Serialize for Digit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Digit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Digit, D::Error> {
        let n = u8::deserialize(d)?;
        Digit::new(n).ok_or_else(|| serde::de::Error::custom(format!("{n} is not a digit 1-9")))
    }
}
