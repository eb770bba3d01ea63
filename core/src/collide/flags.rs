//! [`SolidFlags`]: what a solid is besides solid (a ladder, game-defined kinds).

/// Per-solid flags, carried through traces ([`TraceResult::flags`](super::TraceResult::flags)) and
/// contents queries untouched. Every solid blocks a trace whatever its flags.
///
/// Bit layout (a `u32`):
/// - bit 0, [`SolidFlags::LADDER`]: the solid is climbable (a ladder brush, issue 34 §3).
/// - bits 1–15, [`SolidFlags::RESERVED`]: hopkit's own kinds. Bit 1 is [`SolidFlags::MOVING`]:
///   the solid moves ([`World::move_solid`](super::World::move_solid) sets it; a brush pushed
///   with it is tested as a mover from the start). The others are for hopkit's future kinds
///   (e.g. a player-only clip, a surface that cannot be surfed); leave them zero.
/// - bits 16–31, [`SolidFlags::GAME`]: free for the game (materials, sounds, damage …).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolidFlags(pub u32);

impl SolidFlags {
    /// No flags: a plain solid.
    pub const NONE: SolidFlags = SolidFlags(0);
    /// A climbable solid (a ladder).
    pub const LADDER: SolidFlags = SolidFlags(1);
    /// A moving solid (a platform, a door, an elevator): the world's grid tests it in every query
    /// instead of listing it in cells, so it can move without a rebuild
    /// ([`World::move_solid`](super::World::move_solid)).
    pub const MOVING: SolidFlags = SolidFlags(2);
    /// Bits reserved for hopkit's own flags (1–15; bit 1 is [`SolidFlags::MOVING`]).
    pub const RESERVED: u32 = 0x0000_fffe;
    /// Bits free for the game (16–31).
    pub const GAME: u32 = 0xffff_0000;

    /// True when every bit of `other` is set in `self`.
    #[inline]
    pub const fn contains(self, other: SolidFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The bits of both.
    #[inline]
    pub const fn union(self, other: SolidFlags) -> SolidFlags {
        SolidFlags(self.0 | other.0)
    }

    /// True when no bit is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_disjoint_and_cover_everything() {
        assert_eq!(SolidFlags::LADDER.0 & SolidFlags::RESERVED, 0);
        assert_eq!(SolidFlags::LADDER.0 & SolidFlags::GAME, 0);
        // MOVING is one of hopkit's own (reserved) bits.
        assert_eq!(
            SolidFlags::MOVING.0 & SolidFlags::RESERVED,
            SolidFlags::MOVING.0
        );
        assert_eq!(
            SolidFlags::MOVING.0 & (SolidFlags::LADDER.0 | SolidFlags::GAME),
            0
        );
        assert_eq!(SolidFlags::RESERVED & SolidFlags::GAME, 0);
        assert_eq!(
            SolidFlags::LADDER.0 | SolidFlags::RESERVED | SolidFlags::GAME,
            u32::MAX
        );
        let f = SolidFlags::LADDER.union(SolidFlags(1 << 16));
        assert!(f.contains(SolidFlags::LADDER) && !f.is_empty());
        assert!(!SolidFlags::NONE.contains(SolidFlags::LADDER));
    }
}
