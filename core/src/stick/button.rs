//! Button debouncing with press/release edges, singly ([`Button`]) or as an 8-bit mask
//! ([`Buttons`]).
//!
//! The debouncer is an **eager lock-out counter**: the first change of the raw level is accepted
//! at once (zero added latency — a jump pressed on tick *k* jumps on tick *k*, which matters for
//! bunny-hop timing), then the next [`DebounceParams::lockout_ticks`] samples are ignored while
//! the contacts bounce. An integrator debouncer would reject single-sample noise spikes too, but
//! delays every press and release by its threshold; mechanical buttons with pull-ups bounce rather
//! than glitch, so latency wins.
//!
//! Bounce that ends within the lock-out gives exactly one edge. Consequence of the lock-out: a
//! full press–release cycle takes at least `2·(lockout_ticks + 1)` ticks (4 ticks = 67 ms at the
//! default 1 tick and 60 Hz: mashing up to 15 presses/s still registers).

use crate::hash::{StateHash, StateHasher};

/// Number of buttons in a [`Buttons`] bundle (one bit each of a `u8`).
pub const MAX_BUTTONS: usize = 8;

/// Debounce parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DebounceParams {
    /// Samples ignored after each accepted change, in ticks of whatever calls `update` (the
    /// simulation tick for [`super::StickPipeline`]). Default `1` =
    /// [`DebounceParams::for_tick_rate`]`(60, 10)`: one 16.7 ms tick outlasts the ≤ 10 ms bounce
    /// of typical tactile switches. 0 disables debouncing (every raw change is an edge).
    pub lockout_ticks: u8,
}

impl Default for DebounceParams {
    fn default() -> Self {
        DebounceParams { lockout_ticks: 1 }
    }
}

impl DebounceParams {
    /// Bounce time assumed by [`Default`], in milliseconds.
    pub const DEFAULT_SETTLE_MS: u32 = 10;

    /// No debouncing, for sources that are already clean (keyboard events, WASM-4, scripts).
    pub const fn none() -> Self {
        DebounceParams { lockout_ticks: 0 }
    }

    /// Lock-out covering `settle_ms` milliseconds of bounce at `tick_hz` samples per second:
    /// `ceil(settle_ms · tick_hz / 1000)` ticks, saturating at 255 (e.g. 60 Hz, 10 ms → 1;
    /// 1 kHz, 10 ms → 10). Integer maths, never panics.
    pub fn for_tick_rate(tick_hz: u32, settle_ms: u32) -> Self {
        let ticks = (settle_ms as u64 * tick_hz as u64).div_ceil(1000);
        DebounceParams {
            lockout_ticks: if ticks > 255 { 255 } else { ticks as u8 },
        }
    }
}

impl StateHash for DebounceParams {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u8(self.lockout_ticks);
    }
}

/// Debounced level and edges of one button for one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct ButtonEdges {
    /// Debounced level: the button is down.
    pub held: bool,
    /// The button went down this tick (debounced).
    pub just_pressed: bool,
    /// The button went up this tick (debounced).
    pub just_released: bool,
}

/// State of one debounced button.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Button {
    /// Debounced level. Default `false` (up).
    pub held: bool,
    /// Samples still to ignore before the next change is accepted. Default 0.
    pub lockout: u8,
}

impl Button {
    /// An idle (up, not locked out) button.
    pub const RELEASED: Button = Button {
        held: false,
        lockout: 0,
    };

    /// Feed one raw sample (`true` = contact closed) and get this tick's debounced edges.
    pub fn update(&mut self, raw_pressed: bool, params: &DebounceParams) -> ButtonEdges {
        if self.lockout > 0 {
            self.lockout -= 1;
            return self.steady();
        }
        if raw_pressed == self.held {
            return self.steady();
        }
        self.held = raw_pressed;
        self.lockout = params.lockout_ticks;
        ButtonEdges {
            held: raw_pressed,
            just_pressed: raw_pressed,
            just_released: !raw_pressed,
        }
    }

    fn steady(&self) -> ButtonEdges {
        ButtonEdges {
            held: self.held,
            just_pressed: false,
            just_released: false,
        }
    }
}

impl StateHash for Button {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_bool(self.held);
        h.write_u8(self.lockout);
    }
}

/// Debounced levels and edges of up to 8 buttons, one bit per button (bit `i` = button `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct ButtonMask {
    /// Buttons down (debounced).
    pub held: u8,
    /// Buttons that went down this tick.
    pub just_pressed: u8,
    /// Buttons that went up this tick.
    pub just_released: u8,
}

impl ButtonMask {
    /// Edges of button `index` (0–7); any other index reads as an idle button.
    pub fn edges(&self, index: u8) -> ButtonEdges {
        let bit = 1u8.checked_shl(index as u32).unwrap_or(0);
        ButtonEdges {
            held: self.held & bit != 0,
            just_pressed: self.just_pressed & bit != 0,
            just_released: self.just_released & bit != 0,
        }
    }

    /// Button `index` is held (false for index ≥ 8).
    pub fn is_held(&self, index: u8) -> bool {
        self.edges(index).held
    }

    /// Button `index` went down this tick (false for index ≥ 8).
    pub fn just_pressed(&self, index: u8) -> bool {
        self.edges(index).just_pressed
    }

    /// Button `index` went up this tick (false for index ≥ 8).
    pub fn just_released(&self, index: u8) -> bool {
        self.edges(index).just_released
    }
}

/// Eight debounced buttons fed from one raw bitmask (bit `i` set = button `i` closed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Buttons {
    /// Per-button state, index = bit number.
    pub buttons: [Button; MAX_BUTTONS],
}

impl Buttons {
    /// All buttons up.
    pub const RELEASED: Buttons = Buttons {
        buttons: [Button::RELEASED; MAX_BUTTONS],
    };

    /// Feed one raw bitmask and get this tick's debounced levels and edges.
    pub fn update(&mut self, raw: u8, params: &DebounceParams) -> ButtonMask {
        let mut out = ButtonMask::default();
        for (i, b) in self.buttons.iter_mut().enumerate() {
            let bit = 1u8 << (i as u32 & 7);
            let e = b.update(raw & bit != 0, params);
            if e.held {
                out.held |= bit;
            }
            if e.just_pressed {
                out.just_pressed |= bit;
            }
            if e.just_released {
                out.just_released |= bit;
            }
        }
        out
    }

    /// Debounced levels as a bitmask.
    pub fn held(&self) -> u8 {
        let mut m = 0u8;
        for (i, b) in self.buttons.iter().enumerate() {
            if b.held {
                m |= 1u8 << (i as u32 & 7);
            }
        }
        m
    }
}

impl StateHash for Buttons {
    fn hash_state(&self, h: &mut StateHasher) {
        for b in &self.buttons {
            b.hash_state(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(raw: &[bool], p: DebounceParams) -> (u32, u32, Button) {
        let mut b = Button::RELEASED;
        let (mut presses, mut releases) = (0, 0);
        for &r in raw {
            let e = b.update(r, &p);
            presses += e.just_pressed as u32;
            releases += e.just_released as u32;
            assert_eq!(e.held, b.held);
            assert!(!(e.just_pressed && e.just_released));
        }
        (presses, releases, b)
    }

    #[test]
    fn bouncy_press_gives_one_edge() {
        // 1 kHz polling, 10 ms lock-out; contacts bounce for 6 ms on press and on release.
        let p = DebounceParams::for_tick_rate(1000, 10);
        assert_eq!(p.lockout_ticks, 10);
        let t = true;
        let f = false;
        let mut raw = vec![f, f, t, f, t, t, f, t, f, t];
        raw.extend([t; 30]);
        raw.extend([f, t, f, f, t, f, f, t]);
        raw.extend([f; 30]);
        let (presses, releases, b) = run(&raw, p);
        assert_eq!((presses, releases), (1, 1));
        assert!(!b.held);
    }

    #[test]
    fn press_is_reported_without_latency() {
        let p = DebounceParams::default();
        let mut b = Button::RELEASED;
        assert_eq!(b.update(false, &p), ButtonEdges::default());
        let e = b.update(true, &p);
        assert!(e.just_pressed && e.held);
        // Bounce on the next sample is ignored (lock-out 1).
        let e = b.update(false, &p);
        assert!(e.held && !e.just_released);
        let e = b.update(false, &p);
        assert!(e.just_released && !e.held);
    }

    #[test]
    fn no_debounce_reports_every_change() {
        let raw = [true, false, true, false];
        assert_eq!(run(&raw, DebounceParams::none()).0, 2);
        assert_eq!(run(&raw, DebounceParams::none()).1, 2);
    }

    #[test]
    fn tick_rate_helper_saturates() {
        assert_eq!(DebounceParams::for_tick_rate(60, 10).lockout_ticks, 1);
        assert_eq!(DebounceParams::for_tick_rate(60, 0).lockout_ticks, 0);
        assert_eq!(
            DebounceParams::for_tick_rate(u32::MAX, u32::MAX).lockout_ticks,
            255
        );
    }

    #[test]
    fn mask_bundle_tracks_each_bit() {
        let p = DebounceParams::none();
        let mut bs = Buttons::RELEASED;
        let m = bs.update(0b1000_0101, &p);
        assert_eq!(m.held, 0b1000_0101);
        assert_eq!(m.just_pressed, 0b1000_0101);
        assert!(m.just_pressed(7) && m.is_held(2) && !m.is_held(1));
        let m = bs.update(0b0000_0100, &p);
        assert_eq!(m.just_released, 0b1000_0001);
        assert_eq!(m.just_pressed, 0);
        assert_eq!(bs.held(), 0b0000_0100);
        assert!(m.just_released(0));
        assert_eq!(m.edges(8), ButtonEdges::default());
        assert_eq!(m.edges(255), ButtonEdges::default());
    }
}
