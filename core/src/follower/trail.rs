//! [`Trail`]: a fixed-capacity ring of breadcrumbs (the leader's recorded positions).
//!
//! The seed keeps a `Queue<Vector3>`; this is the same FIFO without allocation: crumbs are pushed at
//! the *newest* end and taken from the *oldest* end. Capacity is the const generic `N` (at least 1,
//! checked at compile time). A push into a full trail is **refused** and hands the crumb back
//! (`Err(crumb)`), so nothing stored is ever lost silently; the follower and the party decide what a
//! full trail means (see [`crate::follower`]).

use crate::hash::{StateHash, StateHasher};
use crate::math::Vec3;

/// Default trail capacity of a single follower: the seed's `PosHistorySize = 16`.
pub const DEFAULT_TRAIL_CAPACITY: usize = 16;

/// A FIFO of at most `N` positions, oldest first. Plain data, `Copy`, never allocates or panics.
///
/// Equality compares the stored crumbs in order (not the ring's internal layout).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Trail<const N: usize> {
    /// Ring storage; only `len` slots starting at `head` (wrapping) are meaningful.
    crumbs: [Vec3; N],
    /// Index of the oldest crumb, always `< N`.
    head: usize,
    /// Number of stored crumbs, `≤ N`.
    len: usize,
}

impl<const N: usize> Default for Trail<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> PartialEq for Trail<N> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<const N: usize> Trail<N> {
    /// An empty trail. Fails to compile for `N == 0`.
    pub const fn new() -> Self {
        const { assert!(N >= 1, "a Trail needs a capacity of at least 1") };
        Trail {
            crumbs: [Vec3::ZERO; N],
            head: 0,
            len: 0,
        }
    }

    /// A trail holding the single crumb `p` (the seed's initial state: the leader's start position).
    pub fn with_crumb(p: Vec3) -> Self {
        let mut t = Self::new();
        // Cannot fail: N ≥ 1 and the trail is empty.
        let _ = t.push_newest(p);
        t
    }

    /// Capacity `N`.
    #[inline]
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Number of stored crumbs.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// True if no crumb is stored.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True if `len() == N`: the next [`Trail::push_newest`] would be refused.
    #[inline]
    pub const fn is_full(&self) -> bool {
        self.len >= N
    }

    /// Forget every crumb.
    #[inline]
    pub fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }

    /// Ring index of logical position `i` (0 = oldest). Only meaningful for `i < N`.
    #[inline]
    fn slot(&self, i: usize) -> usize {
        // head < N and i < N, so no overflow; wrapping keeps the arithmetic panic-free for the
        // link-time panic check with overflow checks on.
        let j = self.head.wrapping_add(i);
        if j >= N {
            j.wrapping_sub(N)
        } else {
            j
        }
    }

    /// The `i`-th crumb, 0 = oldest, `len() − 1` = newest; `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Vec3> {
        if i < self.len {
            self.crumbs.get(self.slot(i)).copied()
        } else {
            None
        }
    }

    /// The oldest crumb (the seed's `Peek()`).
    #[inline]
    pub fn oldest(&self) -> Option<Vec3> {
        self.get(0)
    }

    /// The most recently pushed crumb.
    #[inline]
    pub fn newest(&self) -> Option<Vec3> {
        match self.len {
            0 => None,
            n => self.get(n - 1),
        }
    }

    /// Append `p` as the newest crumb. A full trail refuses it and returns `Err(p)` unchanged.
    pub fn push_newest(&mut self, p: Vec3) -> Result<(), Vec3> {
        if self.is_full() {
            return Err(p);
        }
        let i = self.slot(self.len);
        match self.crumbs.get_mut(i) {
            Some(c) => {
                *c = p;
                self.len = self.len.saturating_add(1);
                Ok(())
            }
            None => Err(p),
        }
    }

    /// Remove and return the oldest crumb (the seed's `Dequeue()`); `None` if empty.
    pub fn pop_oldest(&mut self) -> Option<Vec3> {
        let c = self.oldest()?;
        self.head = self.slot(1);
        self.len -= 1;
        if self.len == 0 {
            self.head = 0;
        }
        Some(c)
    }

    /// Drop the oldest crumbs until at most `keep` remain; returns how many were dropped.
    pub fn retain_newest(&mut self, keep: usize) -> usize {
        let mut dropped = 0usize;
        while self.len > keep {
            if self.pop_oldest().is_none() {
                break;
            }
            dropped = dropped.saturating_add(1);
        }
        dropped
    }

    /// Iterate oldest → newest (`.rev()` for newest → oldest).
    pub fn iter(&self) -> TrailIter<'_, N> {
        TrailIter {
            trail: self,
            front: 0,
            back: self.len,
        }
    }
}

/// Iterator over a [`Trail`], oldest → newest; double-ended.
#[derive(Clone, Debug)]
pub struct TrailIter<'a, const N: usize> {
    trail: &'a Trail<N>,
    front: usize,
    back: usize,
}

impl<const N: usize> Iterator for TrailIter<'_, N> {
    type Item = Vec3;
    fn next(&mut self) -> Option<Vec3> {
        if self.front >= self.back {
            return None;
        }
        let v = self.trail.get(self.front);
        self.front += 1;
        v
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back.saturating_sub(self.front);
        (n, Some(n))
    }
}

impl<const N: usize> DoubleEndedIterator for TrailIter<'_, N> {
    fn next_back(&mut self) -> Option<Vec3> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.trail.get(self.back)
    }
}

impl<const N: usize> ExactSizeIterator for TrailIter<'_, N> {}

impl<const N: usize> StateHash for Trail<N> {
    /// Hashes `len` (u32) then the crumbs oldest → newest (the ring layout is not hashed).
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.len as u32);
        for c in self.iter() {
            h.write_vec3(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32) -> Vec3 {
        Vec3::new(x, 0.0, 0.0)
    }

    #[test]
    fn fifo_order_and_wrap() {
        let mut t: Trail<3> = Trail::new();
        assert!(t.push_newest(v(1.0)).is_ok());
        assert!(t.push_newest(v(2.0)).is_ok());
        assert!(t.push_newest(v(3.0)).is_ok());
        assert!(t.is_full());
        assert_eq!(t.push_newest(v(4.0)), Err(v(4.0)));
        assert_eq!(t.pop_oldest(), Some(v(1.0)));
        assert!(t.push_newest(v(4.0)).is_ok());
        let xs: Vec<f32> = t.iter().map(|c| c.x).collect();
        assert_eq!(xs, [2.0, 3.0, 4.0]);
        let rev: Vec<f32> = t.iter().rev().map(|c| c.x).collect();
        assert_eq!(rev, [4.0, 3.0, 2.0]);
        assert_eq!(t.newest(), Some(v(4.0)));
        assert_eq!(t.retain_newest(1), 2);
        assert_eq!(t.oldest(), Some(v(4.0)));
        assert_eq!(t.pop_oldest(), Some(v(4.0)));
        assert_eq!(t.pop_oldest(), None);
        assert!(t.is_empty());
    }

    #[test]
    fn equality_and_hash_ignore_ring_layout() {
        let mut a: Trail<3> = Trail::new();
        let mut b: Trail<3> = Trail::new();
        for x in [0.0, 1.0, 2.0] {
            a.push_newest(v(x)).unwrap();
        }
        a.pop_oldest();
        b.push_newest(v(1.0)).unwrap();
        b.push_newest(v(2.0)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.state_hash(), b.state_hash());
    }
}
