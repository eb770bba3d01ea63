//! What the summaries and the desktop panel say about a scene: the handheld demo's player, or ghost
//! fighters (`play`, `record`). Each scene reports only quantities that apply to it — a replay has
//! no player, so it reports the lead ghost — and every number goes through [`Num`], which prints
//! `n/a` for a non-finite value: no `NaN` or `inf` ever reaches a user.

use std::fmt;

use hopkit::math::Vec3;
use hopkit_demo::DemoView;

/// A number for people: `decimals` fixed decimals, `n/a` when not finite, and no `-0.000`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64, pub usize);

/// [`Num`] of any `f32`/`f64`/integer.
pub fn num(v: impl Into<f64>, decimals: usize) -> Num {
    Num(v.into(), decimals)
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Num(v, d) = *self;
        if !v.is_finite() {
            return f.pad("n/a");
        }
        let s = format!("{v:.d$}");
        // "-0.000" → "0.000": a value that rounds to zero has no sign worth showing.
        let s = match s.strip_prefix('-') {
            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
            _ => s,
        };
        f.pad(&s)
    }
}

/// A position `(x, y, z)` with 3 decimals, each coordinate through [`Num`].
pub fn position(p: Vec3) -> String {
    format!("({}, {}, {})", num(p.x, 3), num(p.y, 3), num(p.z, 3))
}

/// `part` of `whole` as a whole percentage (0 when `whole` is 0).
fn percent(part: u32, whole: u32) -> Num {
    if whole == 0 {
        num(0.0, 0)
    } else {
        num(100.0 * f64::from(part) / f64::from(whole), 0)
    }
}

/// The handheld demo's player.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerReadout {
    /// Horizontal speed, world units/s.
    pub speed: f32,
    /// The movement preset's ground max speed, world units/s.
    pub ground_max: f32,
    /// Tilt from vertical (slope alignment), degrees.
    pub tilt_deg: f32,
    /// Standing on the ground.
    pub grounded: bool,
    /// World position.
    pub position: Vec3,
}

/// Ghost fighters: the one the camera follows (the lead ghost of a replay, or the fighter being
/// recorded).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FighterReadout {
    /// What the followed fighter is called in messages: "lead ghost", "fighter".
    pub who: &'static str,
    /// Fighters in the scene.
    pub count: usize,
    /// The followed fighter's speed, world units/s.
    pub speed: f32,
    /// Its position (y is the altitude), world units.
    pub position: Vec3,
    /// Its gun fires this tick.
    pub firing: bool,
    /// Ticks run so far.
    pub tick: u32,
    /// Length of the recording being replayed, or the most that can be recorded.
    pub frames: u32,
}

/// What a scene reports about itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Readout {
    /// The handheld demo.
    Player(PlayerReadout),
    /// Ghost fighters.
    Fighters(FighterReadout),
}

impl Default for Readout {
    fn default() -> Self {
        Readout::Player(PlayerReadout::default())
    }
}

impl Readout {
    /// The player's readout from a demo view.
    pub fn from_player_view(view: &DemoView) -> Readout {
        Readout::Player(PlayerReadout {
            speed: view.player.speed,
            ground_max: view.ground_max_speed,
            tilt_deg: view.player_tilt_deg,
            grounded: view.player_grounded,
            position: view.player.position,
        })
    }

    /// The speed this scene is about (player, or followed fighter), world units/s; 0 when not
    /// finite.
    pub fn speed(&self) -> f32 {
        let v = match self {
            Readout::Player(p) => p.speed,
            Readout::Fighters(f) => f.speed,
        };
        if v.is_finite() {
            v
        } else {
            0.0
        }
    }
}

/// The strafe HUD's numbers for one tick (desktop panel): how the player's wish direction sits
/// against its horizontal velocity before the tick's acceleration (the angle the player chose),
/// and which angles gain speed in the air at that velocity. Computed from the scene after the
/// tick and the velocity before it ([`crate::rig::strafe_readout`]); reading it changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StrafeReadout {
    /// On the solid level while surfing (in the air on a ramp too steep to stand on): the
    /// horizontal speed after the tick, world units/s; `None` otherwise.
    pub surf_speed: Option<f32>,
    /// On the ground before and after the tick (friction; the air angles do not apply). The
    /// ticks that land or jump are air ticks.
    pub grounded: bool,
    /// Horizontal speed before the tick, world units/s.
    pub speed: f32,
    /// Angle between the tick's wish direction (movement keys or stick, turned by the view) and
    /// the horizontal velocity before the tick's acceleration, degrees in `[0, 180]`; `None`
    /// without a wish or while standing still.
    pub angle_deg: Option<f32>,
    /// The angle that gains the most speed per air tick, degrees: `acos` of the core's
    /// `hopkit::movement::optimal_strafe_cos` for this speed and the preset's air cap and budget.
    pub optimal_deg: f32,
    /// Angles (degrees) between which an air tick gains speed at this speed, found with the core's
    /// own air acceleration (`hopkit::movement::planar_velocity_tick`); `None` when no angle does.
    pub gain_window_deg: Option<(f32, f32)>,
    /// Speed change per second an air tick at the current angle gives (what this tick's air
    /// acceleration added, when airborne), world units/s².
    pub gain_per_s: f32,
}

/// Statistics of a run, fed with [`RunStats::record`] every tick.
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    ticks: u32,
    top_speed: f32,
    airborne: u32,
    firing: u32,
    last: Option<Readout>,
}

impl RunStats {
    /// Count one tick.
    pub fn record(&mut self, r: &Readout) {
        self.ticks += 1;
        self.top_speed = self.top_speed.max(r.speed());
        match r {
            Readout::Player(p) => self.airborne += u32::from(!p.grounded),
            Readout::Fighters(f) => self.firing += u32::from(f.firing),
        }
        self.last = Some(*r);
    }

    /// Highest speed seen, world units/s.
    pub fn top_speed(&self) -> f32 {
        self.top_speed
    }

    /// The summary lines about the scene (no trailing newlines).
    pub fn lines(&self) -> Vec<String> {
        let top = num(self.top_speed, 3);
        match self.last {
            None => vec!["nothing ran".into()],
            Some(Readout::Player(p)) => {
                let ratio = if p.ground_max > 0.0 {
                    format!(", x{}", num(self.top_speed / p.ground_max, 2))
                } else {
                    String::new()
                };
                vec![
                    format!(
                        "top speed: {top} world units/s (ground max {}{ratio})",
                        num(p.ground_max, 3)
                    ),
                    format!("final speed: {} world units/s", num(p.speed, 3)),
                    format!("airborne: {}% of ticks", percent(self.airborne, self.ticks)),
                    format!("final position: {}", position(p.position)),
                ]
            }
            Some(Readout::Fighters(f)) => {
                let scene = if f.count == 1 {
                    "1 fighter".to_string()
                } else {
                    format!("{} ghosts, the camera follows the {}", f.count, f.who)
                };
                vec![
                    format!("scene: {scene}"),
                    format!(
                        "{} top speed: {top} world units/s, final speed {}",
                        f.who,
                        num(f.speed, 3)
                    ),
                    format!(
                        "{} final position: {} (y = altitude)",
                        f.who,
                        position(f.position)
                    ),
                    format!(
                        "{} gun fired on {} of {} ticks ({}%)",
                        f.who,
                        self.firing,
                        self.ticks,
                        percent(self.firing, self.ticks)
                    ),
                ]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn num_never_prints_nan_or_minus_zero() {
        assert_eq!(num(f32::NAN, 3).to_string(), "n/a");
        assert_eq!(num(f64::INFINITY, 1).to_string(), "n/a");
        assert_eq!(num(f32::NEG_INFINITY, 0).to_string(), "n/a");
        assert_eq!(num(-0.0004f64, 3).to_string(), "0.000");
        assert_eq!(num(-1.5f64, 1).to_string(), "-1.5");
        assert_eq!(num(2.0f32 / 3.0, 2).to_string(), "0.67");
        assert_eq!(format!("{:>6}", num(1.0f32, 1)), "   1.0");
        assert_eq!(
            position(Vec3::new(f32::NAN, 0.0, f32::NAN)),
            "(n/a, 0.000, n/a)"
        );
    }

    /// Whatever a scene reports — NaN, infinities, zero ticks — no summary line shows NaN/inf.
    #[test]
    fn no_summary_line_prints_nan() {
        let bad = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1.0e30,
        ];
        let mut all = vec![RunStats::default().lines()];
        for &v in &bad {
            let p = Vec3::new(v, v, v);
            let player = Readout::Player(PlayerReadout {
                speed: v,
                ground_max: v,
                tilt_deg: v,
                grounded: false,
                position: p,
            });
            let fighters = Readout::Fighters(FighterReadout {
                who: "lead ghost",
                count: 4,
                speed: v,
                position: p,
                firing: true,
                tick: 0,
                frames: 0,
            });
            for r in [player, fighters] {
                let mut s = RunStats::default();
                s.record(&r);
                all.push(s.lines());
                s.record(&r);
                all.push(s.lines());
            }
        }
        for line in all.iter().flatten() {
            let lower = line.to_lowercase();
            assert!(
                !lower.contains("nan") && !lower.contains("inf"),
                "summary line shows a non-number: {line:?}"
            );
        }
    }

    #[test]
    fn replays_report_the_lead_ghost_not_a_player() {
        let mut s = RunStats::default();
        let r = Readout::Fighters(FighterReadout {
            who: "lead ghost",
            count: 4,
            speed: 14.0,
            position: Vec3::new(1.0, 20.0, -3.0),
            firing: true,
            tick: 1,
            frames: 180,
        });
        s.record(&r);
        let text = s.lines().join("\n");
        assert!(text.contains("4 ghosts"), "{text}");
        assert!(text.contains("lead ghost top speed: 14.000"), "{text}");
        assert!(
            text.contains("(1.000, 20.000, -3.000) (y = altitude)"),
            "{text}"
        );
        assert!(text.contains("fired on 1 of 1 ticks (100%)"), "{text}");
        assert!(
            !text.contains("ground max") && !text.contains("airborne"),
            "{text}"
        );
    }
}
