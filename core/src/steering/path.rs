//! Path following over a fixed-capacity list of waypoints.
//!
//! [`Path<N>`] stores at most `N` waypoints in a `heapless::Vec`. When it is full,
//! [`Path::push`] returns [`PathError::Full`] and the stored waypoints are kept unchanged; a
//! non-finite waypoint is refused with [`PathError::NonFinite`].
//!
//! [`follow_path`] seeks the current waypoint and moves on to the next one once within
//! [`PathParams::waypoint_radius`]. A looping path wraps around forever; an open path arrives at its
//! last waypoint (hopkit's [`super::arrive`], no overshoot) and sets
//! [`PathFollowState::finished`].

use super::{arrive, dir_len, finite3, seek, Agent, ArrivalParams, Steering, SteeringParams};
use crate::hash::{StateHash, StateHasher};
use crate::math::Vec3;

/// Why a waypoint was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PathError {
    /// The path already holds `N` waypoints; nothing was changed.
    Full,
    /// The waypoint has a NaN or infinite component; nothing was changed.
    NonFinite,
}

/// Up to `N` waypoints, in order.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Path<const N: usize> {
    points: heapless::Vec<Vec3, N>,
    /// After the last waypoint go back to the first (true) or stop at the last (false, default).
    pub looping: bool,
}

impl<const N: usize> Default for Path<N> {
    fn default() -> Self {
        Path::new(false)
    }
}

impl<const N: usize> Path<N> {
    /// Empty path.
    pub const fn new(looping: bool) -> Self {
        Path {
            points: heapless::Vec::new(),
            looping,
        }
    }

    /// Append a waypoint. Full → `Err(PathError::Full)`, non-finite → `Err(PathError::NonFinite)`;
    /// on error the path is unchanged.
    pub fn push(&mut self, point: Vec3) -> Result<(), PathError> {
        if !finite3(point) {
            return Err(PathError::NonFinite);
        }
        self.points.push(point).map_err(|_| PathError::Full)
    }

    /// Build from a slice; stops at the first error and returns it (waypoints before it are kept).
    pub fn from_points(points: &[Vec3], looping: bool) -> Result<Self, (Self, PathError)> {
        let mut path = Path::new(looping);
        for &p in points {
            if let Err(e) = path.push(p) {
                return Err((path, e));
            }
        }
        Ok(path)
    }

    /// The waypoints.
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// Number of waypoints.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True if there are no waypoints.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Maximum number of waypoints (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Remove every waypoint.
    pub fn clear(&mut self) {
        self.points.clear();
    }
}

/// Tunables of [`follow_path`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PathParams {
    /// A waypoint counts as reached within this distance, units (NaN/inf/negative → 0). Default 0.5.
    pub waypoint_radius: f32,
    /// How an open path arrives at its last waypoint. Default [`ArrivalParams::default`].
    pub arrival: ArrivalParams,
}

impl Default for PathParams {
    fn default() -> Self {
        PathParams {
            waypoint_radius: 0.5,
            arrival: ArrivalParams::default(),
        }
    }
}

/// Progress along a path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PathFollowState {
    /// Index of the waypoint being steered to. Default 0.
    pub index: u32,
    /// Laps completed on a looping path (wrapping). Default 0.
    pub laps: u32,
    /// Open path: within the arrival tolerance of the last waypoint. Default false.
    pub finished: bool,
}

impl StateHash for PathFollowState {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.index);
        h.write_u32(self.laps);
        h.write_bool(self.finished);
    }
}

/// One path-following tick (see the module docs). Advances `state.index` past every waypoint
/// already within `waypoint_radius` (at most one lap per call), then seeks the current waypoint or,
/// for the last waypoint of an open path, arrives at it.
///
/// Empty path → zero steering and `finished = true`. An index beyond the end (the path was
/// shortened) is clamped to the last waypoint. Non-finite agent → zero steering, state unchanged.
pub fn follow_path<const N: usize>(
    agent: &Agent,
    path: &Path<N>,
    state: &mut PathFollowState,
    params: &SteeringParams,
    path_params: &PathParams,
    dt: f32,
) -> Steering {
    let points = path.points();
    let Some(last) = points.len().checked_sub(1) else {
        state.finished = true;
        return Steering::ZERO;
    };
    if !finite3(agent.position) {
        return Steering::ZERO;
    }
    let radius = super::non_negative(path_params.waypoint_radius);
    let mut index = (state.index as usize).min(last);
    for _ in 0..points.len() {
        let is_end = !path.looping && index == last;
        let Some(&wp) = points.get(index) else { break };
        if is_end || !within(agent.position, wp, radius) {
            break;
        }
        if index == last {
            index = 0;
            state.laps = state.laps.wrapping_add(1);
        } else {
            index += 1;
        }
    }
    state.index = index as u32;
    let Some(&wp) = points.get(index) else {
        return Steering::ZERO;
    };
    if !path.looping && index == last {
        let tolerance = super::arrival::effective_tolerance(path_params.arrival.tolerance, wp);
        state.finished = within(agent.position, wp, tolerance);
        arrive(agent, wp, params, &path_params.arrival, dt)
    } else {
        state.finished = false;
        seek(agent, wp, params, dt)
    }
}

/// `|a − b| ≤ r` (true for coincident points).
#[inline]
fn within(a: Vec3, b: Vec3, r: f32) -> bool {
    match dir_len(a - b, 0.0) {
        Some((_, d)) => d <= r,
        None => a == b,
    }
}
