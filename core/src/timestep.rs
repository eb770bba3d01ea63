//! Fixed simulation ticks from render frames of any length.
//!
//! # Example
//!
//! ```
//! use hopkit::timestep::FixedStep;
//!
//! let mut at_30 = FixedStep::new(60);
//! let mut at_144 = FixedStep::new(60);
//! // One second of render frames at 30 fps and at 144 fps (whole nanoseconds, as a clock gives).
//! let ticks_30: u32 = (0..30).map(|_| at_30.advance_nanos(33_333_333).ticks).sum();
//! let ticks_144: u32 = (0..144).map(|_| at_144.advance_nanos(6_944_444).ticks).sum();
//! assert_eq!((ticks_30, ticks_144), (59, 59)); // 10 and 64 ns short of a second: same ticks
//! assert_eq!(at_30.advance_nanos(10).ticks + at_144.advance_nanos(64).ticks, 2);
//! // A 2 s hitch is clamped to 0.25 s (15 ticks) and the rest reported as dropped.
//! let a = at_30.advance_nanos(2_000_000_000);
//! assert_eq!((a.ticks, a.dropped_ns), (15, 1_750_000_000));
//! assert!(at_30.advance(f32::NAN).rejected);
//! ```
//!
//! hopkit simulates in **fixed ticks** so that the same inputs give the same state at any render
//! frame rate. [`FixedStep`] turns each render frame's duration into a whole number of ticks plus an
//! interpolation factor `alpha` for drawing between the last two states.
//!
//! Time is accumulated in exact integer units (nanoseconds × tick rate), so no rounding drift builds
//! up: 60 render frames of 1/60 s at a 60 Hz tick give exactly 60 ticks, and 30 fps or 144 fps give
//! exactly the same tick count over the same wall time.
//!
//! Bad frame times have documented results:
//! - `dt ≤ 0`, NaN: no ticks, accumulator unchanged ([`Advance::rejected`] is true).
//! - `+inf` or longer than [`FixedStep::max_frame_ns`] (default 0.25 s, like most engines' "spiral of
//!   death" guard and Quake III's 200 ms msec clamp): clamped; the dropped time is reported in
//!   [`Advance::dropped_ns`] so the game can tell it ran slow.
//!
//! For callers that really want a variable step, [`SubSteps`] splits one long `dt` into equal
//! sub-steps no longer than a maximum.

/// Nanoseconds per second.
pub const NANOS_PER_SECOND: u64 = 1_000_000_000;
/// Highest accepted tick rate (Hz). Higher requests are clamped.
pub const MAX_TICK_HZ: u32 = 10_000;
/// Default longest frame accepted by [`FixedStep`], in nanoseconds (0.25 s).
pub const DEFAULT_MAX_FRAME_NS: u64 = 250_000_000;
/// Largest long-frame clamp [`FixedStep::with_max_frame_ns`] accepts, nanoseconds (one hour).
/// It keeps the accumulator (nanoseconds × tick rate, at most 3.6·10¹⁶ at [`MAX_TICK_HZ`]) far
/// from `u64::MAX` and one frame's ticks (at most 3.6·10⁷) within `u32`.
pub const MAX_FRAME_NS_LIMIT: u64 = 3_600 * NANOS_PER_SECOND;
/// Most sub-steps [`SubSteps::split`] ever produces, whatever `max_count` asks for: bounded work
/// per call (e.g. `movement::step` with a hostile `max_substeps`). 64 × the default 0.05 s
/// `max_tick_dt` is 3.2 s of simulated time per call.
pub const MAX_SUBSTEPS: u32 = 64;
/// The largest `f32` below 1: [`FixedStep::alpha`] never reaches 1.
const ALPHA_MAX: f32 = 1.0 - f32::EPSILON / 2.0;

/// The result of feeding one render frame to [`FixedStep`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Advance {
    /// How many fixed ticks to simulate now.
    pub ticks: u32,
    /// Interpolation factor in `[0, 1)`: how far render time is past the last simulated tick,
    /// as a fraction of one tick. Draw `lerp(previous_state, current_state, alpha)`.
    pub alpha: f32,
    /// Frame time thrown away by the long-frame clamp, in nanoseconds (0 normally).
    pub dropped_ns: u64,
    /// True if the frame time was NaN or ≤ 0 and was ignored.
    pub rejected: bool,
}

/// Fixed-tick accumulator. Plain data; `Copy` so it can live in any state struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FixedStep {
    tick_hz: u32,
    /// Accumulated time in units of nanoseconds × `tick_hz`; one tick is `NANOS_PER_SECOND` units.
    acc: u64,
    /// Longest accepted frame, nanoseconds.
    max_frame_ns: u64,
    /// Total ticks produced so far.
    ticks_total: u64,
}

impl FixedStep {
    /// A stepper at `tick_hz` ticks per second (clamped to `1..=MAX_TICK_HZ`).
    pub const fn new(tick_hz: u32) -> Self {
        let hz = if tick_hz == 0 {
            1
        } else if tick_hz > MAX_TICK_HZ {
            MAX_TICK_HZ
        } else {
            tick_hz
        };
        FixedStep {
            tick_hz: hz,
            acc: 0,
            max_frame_ns: DEFAULT_MAX_FRAME_NS,
            ticks_total: 0,
        }
    }

    /// Same stepper with a different long-frame clamp in nanoseconds, clamped to at least one
    /// tick and at most [`MAX_FRAME_NS_LIMIT`] (one hour), so the accumulator cannot overflow.
    pub const fn with_max_frame_ns(mut self, max_frame_ns: u64) -> Self {
        // `tick_hz` ≥ 1 by construction; the guard keeps the divide panic-free on any bits.
        let hz = if self.tick_hz == 0 { 1 } else { self.tick_hz };
        let one_tick = NANOS_PER_SECOND / hz as u64;
        self.max_frame_ns = if max_frame_ns < one_tick {
            one_tick
        } else if max_frame_ns > MAX_FRAME_NS_LIMIT {
            MAX_FRAME_NS_LIMIT
        } else {
            max_frame_ns
        };
        self
    }

    /// Tick rate in Hz.
    pub const fn tick_hz(&self) -> u32 {
        self.tick_hz
    }

    /// Length of one tick in seconds, the `dt` every simulation step receives.
    pub fn tick_dt(&self) -> f32 {
        1.0 / self.tick_hz as f32
    }

    /// Longest accepted frame in nanoseconds.
    pub const fn max_frame_ns(&self) -> u64 {
        self.max_frame_ns
    }

    /// Total ticks produced since creation.
    pub const fn ticks_total(&self) -> u64 {
        self.ticks_total
    }

    /// Nanoseconds of further frame time until the next tick is due (`1..=` one tick, rounded
    /// up): after [`FixedStep::advance_nanos`] with at least this many nanoseconds, at least one
    /// tick runs. A board that sleeps between ticks sets its wake-up timer this far ahead.
    pub const fn until_next_tick_ns(&self) -> u64 {
        // acc < NANOS_PER_SECOND after every advance and tick_hz ≥ 1: no underflow, no zero divide
        // (the saturating form and the guard only cover fields a host overwrote).
        let hz = if self.tick_hz == 0 {
            1
        } else {
            self.tick_hz as u64
        };
        NANOS_PER_SECOND.saturating_sub(self.acc).div_ceil(hz)
    }

    /// Feed a render frame of `frame_ns` nanoseconds.
    pub fn advance_nanos(&mut self, frame_ns: u64) -> Advance {
        let (ns, dropped_ns) = if frame_ns > self.max_frame_ns {
            (self.max_frame_ns, frame_ns - self.max_frame_ns)
        } else {
            (frame_ns, 0)
        };
        // ns ≤ MAX_FRAME_NS_LIMIT and tick_hz ≤ MAX_TICK_HZ: no overflow, ticks fit u32 (the
        // saturating forms only guard a `FixedStep` whose fields a host overwrote).
        self.acc = self
            .acc
            .saturating_add(ns.saturating_mul(self.tick_hz as u64));
        let ticks = self.acc / NANOS_PER_SECOND;
        self.acc %= NANOS_PER_SECOND;
        self.ticks_total = self.ticks_total.wrapping_add(ticks);
        Advance {
            ticks: if ticks > u32::MAX as u64 {
                u32::MAX
            } else {
                ticks as u32
            },
            alpha: self.alpha(),
            dropped_ns,
            rejected: false,
        }
    }

    /// Feed a render frame of `frame_dt` seconds (converted to whole nanoseconds, rounded to
    /// nearest). NaN or ≤ 0 is rejected (no ticks); `+inf` and over-long frames are clamped.
    pub fn advance(&mut self, frame_dt: f32) -> Advance {
        if frame_dt.is_nan() || frame_dt <= 0.0 {
            return Advance {
                ticks: 0,
                alpha: self.alpha(),
                dropped_ns: 0,
                rejected: true,
            };
        }
        // f32 → u64 casts saturate, so +inf becomes u64::MAX and is clamped below.
        let ns = (frame_dt as f64 * NANOS_PER_SECOND as f64 + 0.5) as u64;
        self.advance_nanos(ns)
    }

    /// Interpolation factor in `[0, 1)` for the current accumulator (an accumulator one
    /// nanosecond short of a tick rounds to the largest `f32` below 1, never to 1).
    pub fn alpha(&self) -> f32 {
        let a = (self.acc as f64 / NANOS_PER_SECOND as f64) as f32;
        if a < ALPHA_MAX {
            a
        } else {
            ALPHA_MAX
        }
    }
}

impl crate::hash::StateHash for FixedStep {
    fn hash_state(&self, h: &mut crate::hash::StateHasher) {
        h.write_u32(self.tick_hz);
        h.write_u64(self.acc);
        h.write_u64(self.max_frame_ns);
        h.write_u64(self.ticks_total);
    }
}

/// Splits one variable `dt` into `count` equal sub-steps of at most `max_step` seconds.
///
/// `dt` NaN or ≤ 0 gives zero sub-steps; `dt` above `max_step · max_count` is clamped to that
/// (the excess is dropped, reported in [`SubSteps::dropped`]); `count` never exceeds
/// [`MAX_SUBSTEPS`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SubSteps {
    /// Number of sub-steps to run.
    pub count: u32,
    /// Length of each sub-step in seconds.
    pub step: f32,
    /// Seconds dropped by the clamp.
    pub dropped: f32,
}

impl SubSteps {
    /// Split `dt` (seconds) into sub-steps no longer than `max_step` (seconds, > 0), at most
    /// `max_count` of them (clamped to `1..=MAX_SUBSTEPS`). Non-finite or non-positive `max_step`
    /// gives zero sub-steps; `dt = +inf` is clamped like any long `dt` (`dropped` is `+inf`).
    pub fn split(dt: f32, max_step: f32, max_count: u32) -> SubSteps {
        let none = SubSteps {
            count: 0,
            step: 0.0,
            dropped: 0.0,
        };
        if dt.is_nan() || dt <= 0.0 || max_step.is_nan() || max_step <= 0.0 || !max_step.is_finite()
        {
            return none;
        }
        let max_count = max_count.clamp(1, MAX_SUBSTEPS);
        // Finite even when `max_step` is near f32::MAX.
        let limit = (max_step * max_count as f32).min(f32::MAX);
        let (dt, dropped) = if dt > limit {
            (
                limit,
                if dt.is_finite() {
                    dt - limit
                } else {
                    f32::INFINITY
                },
            )
        } else {
            (dt, 0.0)
        };
        // ceil(dt / max_step) without std.
        let q = dt / max_step;
        let mut count = q as u32;
        if (count as f32) < q {
            count = count.saturating_add(1);
        }
        let count = count.clamp(1, max_count);
        SubSteps {
            count,
            step: dt / count as f32,
            dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn until_next_tick_is_exactly_enough_time_for_one_tick() {
        // (Rates whose tick is longer than the 0.25 s long-frame clamp never tick from one frame.)
        for hz in [7, 60, 144, MAX_TICK_HZ] {
            let mut fs = FixedStep::new(hz);
            // Walk through awkward frame lengths; at every point the promised wait is exact:
            // one nanosecond less runs no tick, the promised wait runs one.
            for frame in [0u64, 1, 999, 16_666_666, 16_666_667, 123_456_789, 3] {
                fs.advance_nanos(frame);
                let wait = fs.until_next_tick_ns();
                assert!(wait >= 1 && wait <= NANOS_PER_SECOND.div_ceil(hz as u64));
                let mut short = fs;
                assert_eq!(short.advance_nanos(wait - 1).ticks, 0, "hz {hz}");
                let mut enough = fs;
                assert_eq!(enough.advance_nanos(wait).ticks, 1, "hz {hz}");
            }
        }
        assert_eq!(FixedStep::new(60).until_next_tick_ns(), 16_666_667);
    }

    #[test]
    fn extremes_saturate_instead_of_overflowing() {
        // Regression (issue 13): a raised clamp overflowed `acc += ns · tick_hz` (debug panic,
        // release wrapped to ≈ 1.27 billion ticks).
        let mut s = FixedStep::new(MAX_TICK_HZ).with_max_frame_ns(u64::MAX);
        assert_eq!(s.max_frame_ns(), MAX_FRAME_NS_LIMIT);
        let a = s.advance_nanos(u64::MAX);
        assert_eq!(a.ticks, 3_600 * MAX_TICK_HZ);
        assert_eq!(a.dropped_ns, u64::MAX - MAX_FRAME_NS_LIMIT);
        let a = s.advance(f32::INFINITY);
        assert_eq!(a.ticks, 3_600 * MAX_TICK_HZ);
        assert!(a.alpha >= 0.0 && a.alpha < 1.0);
        // Default clamp: +inf is 15 ticks at 60 Hz.
        let mut d = FixedStep::new(60);
        assert_eq!(d.advance(f32::INFINITY).ticks, 15);
        assert_eq!(d.advance_nanos(u64::MAX).ticks, 15);
    }

    #[test]
    fn alpha_stays_below_one() {
        // One nanosecond short of a tick at 1 Hz: 0.999999999 rounds to 1.0 in f32.
        let mut s = FixedStep::new(1).with_max_frame_ns(2 * NANOS_PER_SECOND);
        let a = s.advance_nanos(NANOS_PER_SECOND - 1);
        assert_eq!(a.ticks, 0);
        assert!(a.alpha < 1.0, "{}", a.alpha);
        assert_eq!(a.alpha, 1.0 - f32::EPSILON / 2.0);
    }

    #[test]
    fn substeps_are_bounded_and_never_overflow() {
        // Regression (issue 13): split(+inf, f32::MAX, 2) overflowed `count += 1`.
        let s = SubSteps::split(f32::INFINITY, f32::MAX, 2);
        assert!(s.count >= 1 && s.count <= 2);
        assert!(s.step.is_finite() && s.dropped == f32::INFINITY);
        let s = SubSteps::split(1.0e30, 1.0e-30, u32::MAX);
        assert_eq!(s.count, MAX_SUBSTEPS);
        assert!(s.step.is_finite() && s.dropped.is_finite() && s.dropped > 0.0);
        let s = SubSteps::split(1.0, 0.05, u32::MAX);
        assert_eq!(s.count, 20);
        assert_eq!(SubSteps::split(f32::MAX, f32::MAX, 0).count, 1);
    }

    fn run_fps(fps: u32, seconds: u32) -> u64 {
        let mut s = FixedStep::new(60);
        let frame_ns = NANOS_PER_SECOND / fps as u64;
        let rem = NANOS_PER_SECOND % fps as u64;
        let mut total = 0u64;
        for _ in 0..seconds {
            // Distribute the remainder so each wall second is exact.
            for f in 0..fps as u64 {
                let extra = if f < rem { 1 } else { 0 };
                total += s.advance_nanos(frame_ns + extra).ticks as u64;
            }
        }
        total
    }

    #[test]
    fn tick_count_is_independent_of_render_rate() {
        for fps in [30, 60, 144, 240, 59] {
            assert_eq!(run_fps(fps, 10), 600, "fps {fps}");
        }
    }

    #[test]
    fn alpha_is_fraction_of_tick() {
        let mut s = FixedStep::new(60);
        let a = s.advance(1.5 / 60.0);
        assert_eq!(a.ticks, 1);
        assert!((a.alpha - 0.5).abs() < 1e-3);
    }

    #[test]
    fn bad_frame_times() {
        let mut s = FixedStep::new(60);
        for bad in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
            let a = s.advance(bad);
            assert!(a.rejected);
            assert_eq!(a.ticks, 0);
        }
        let a = s.advance(f32::INFINITY);
        assert_eq!(a.ticks, 15); // clamped to 0.25 s
        assert!(a.dropped_ns > 0);
        let a = s.advance(10.0);
        assert_eq!(a.ticks, 15);
        assert_eq!(a.dropped_ns, 9_750_000_000);
    }

    #[test]
    fn hz_is_clamped() {
        assert_eq!(FixedStep::new(0).tick_hz(), 1);
        assert_eq!(FixedStep::new(u32::MAX).tick_hz(), MAX_TICK_HZ);
    }

    #[test]
    fn substeps_split() {
        let s = SubSteps::split(0.05, 1.0 / 60.0, 8);
        assert_eq!(s.count, 3);
        assert!((s.step * 3.0 - 0.05).abs() < 1e-6);
        assert_eq!(SubSteps::split(f32::NAN, 0.01, 4).count, 0);
        assert_eq!(SubSteps::split(-1.0, 0.01, 4).count, 0);
        let s = SubSteps::split(f32::INFINITY, 0.01, 4);
        assert_eq!(s.count, 4);
        assert!(s.dropped.is_infinite());
        assert_eq!(SubSteps::split(1.0, 0.0, 4).count, 0);
    }
}
