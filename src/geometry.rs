//! Board geometry shared by every variant: rectangular boards up to 16x16 with holes, and the
//! one square codec used on the wire (`a1` … `p16`, multi-digit ranks everywhere).

use std::fmt;

use nom::IResult;
use nom::Parser;
use nom::character::complete::{digit1, satisfy};
use nom::combinator::map;

/// Largest number of files or ranks a board may have.
pub(crate) const MAX_SIDE: u8 = 16;

/// A knight's (horseman's) eight leaps, as (file, rank) steps: every variant's leap tables
/// are built from this one list.
pub(crate) const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A square as written on the wire: a file letter `a`..`z` and a decimal rank.
///
/// Squares are syntax: a parsed square may lie off every board (`z9`, `a0`); a [`Geometry`]
/// decides whether it exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// File index, `a` = 0 … `z` = 25.
    pub(crate) file: u8,
    /// Rank as written (1-based; 0 and very large ranks parse but lie off every board).
    pub(crate) rank: u16,
}

impl Square {
    /// Makes a square from a 0-based file and a 1-based rank.
    pub const fn new(file: u8, rank: u16) -> Square {
        Square { file, rank }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

/// Parses a square: one letter `a`..`z`, then decimal digits. A rank too large for `u16`, or
/// written with a leading zero (`a02` names no square), becomes `u16::MAX`, which keeps it off
/// every board.
pub(crate) fn square(input: &str) -> IResult<&str, Square> {
    map(
        (satisfy(|c| c.is_ascii_lowercase()), digit1),
        |(file, digits): (char, &str)| Square {
            file: file as u8 - b'a',
            rank: if digits.len() > 1 && digits.starts_with('0') {
                u16::MAX
            } else {
                digits.parse::<u16>().unwrap_or(u16::MAX)
            },
        },
    )
    .parse(input)
}

/// A rectangular board of `files` x `ranks` squares, some of which may be holes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    /// Bit `index` is set for every hole.
    holes: [u64; 4],
}

impl Geometry {
    /// Makes a board without holes.
    ///
    /// # Panics
    /// Panics when a side is 0 or larger than [`MAX_SIDE`] (a programming error: geometries
    /// are constants of the variants).
    pub(crate) const fn new(files: u8, ranks: u8) -> Geometry {
        assert!(files >= 1 && files <= MAX_SIDE && ranks >= 1 && ranks <= MAX_SIDE);
        Geometry {
            files,
            ranks,
            holes: [0; 4],
        }
    }

    /// Returns this geometry with the given squares made holes.
    pub(crate) fn with_holes(mut self, holes: &[Square]) -> Geometry {
        for &sq in holes {
            if let Some(i) = self.index(sq) {
                self.holes[i / 64] |= 1 << (i % 64);
            }
        }
        self
    }

    /// Number of files.
    pub(crate) const fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks.
    pub(crate) const fn ranks(&self) -> u8 {
        self.ranks
    }

    /// Index of a square inside the rectangle (`rank-1` * files + file), holes included;
    /// `None` off the rectangle.
    pub(crate) fn index(&self, sq: Square) -> Option<usize> {
        if sq.file < self.files && sq.rank >= 1 && sq.rank <= u16::from(self.ranks) {
            Some(usize::from(sq.rank - 1) * usize::from(self.files) + usize::from(sq.file))
        } else {
            None
        }
    }

    /// The square at a rectangle index.
    pub fn square(&self, index: usize) -> Square {
        let files = usize::from(self.files);
        Square::new((index % files) as u8, (index / files) as u16 + 1)
    }

    /// Whether the square exists: inside the rectangle and not a hole.
    pub(crate) fn contains(&self, sq: Square) -> bool {
        self.index(sq).is_some_and(|i| !self.is_hole_index(i))
    }

    /// Whether the rectangle index is a hole.
    pub fn is_hole_index(&self, index: usize) -> bool {
        self.holes[index / 64] >> (index % 64) & 1 == 1
    }

    /// Number of squares of the rectangle, holes included.
    pub fn size(&self) -> usize {
        usize::from(self.files) * usize::from(self.ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_codec_reads_multi_digit_ranks() {
        assert_eq!(square("a11x"), Ok(("x", Square::new(0, 11))));
        assert_eq!(square("p16"), Ok(("", Square::new(15, 16))));
        assert_eq!(Square::new(6, 10).to_string(), "g10");
        assert!(square("A1").is_err());
        assert!(square("a").is_err());
        assert_eq!(square("a99999999").unwrap().1.rank, u16::MAX);
        assert_eq!(square("a02").unwrap().1.rank, u16::MAX);
        assert_eq!(square("a0").unwrap().1.rank, 0);
    }

    #[test]
    fn geometry_knows_holes_and_edges() {
        let g = Geometry::new(7, 11).with_holes(&[Square::new(0, 1)]);
        assert!(!g.contains(Square::new(0, 1)));
        assert!(g.contains(Square::new(1, 1)));
        assert!(g.contains(Square::new(6, 11)));
        assert!(!g.contains(Square::new(7, 1)));
        assert!(!g.contains(Square::new(0, 12)));
        assert!(!g.contains(Square::new(0, 0)));
        assert_eq!(g.index(Square::new(6, 11)), Some(76));
        assert_eq!(g.square(76), Square::new(6, 11));
    }
}
