//! Scenarios for the movement features of issue 26 (CPM air control, moving platforms,
//! crouching): each runs the feature
//! against a character without it, so the CSV and the plot show the difference.

use hopkit::ground::{FlatGround, GroundHit, GroundProbe, SurfaceMotion};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{facing_from_yaw, step, MoveInput, MoveParams, MoverState};

use super::config::ScenarioFile;
use crate::plot::{Label, PlotSpec, Series};
use crate::readout::num;
use crate::trace::{flag, Path2, Sample, Trace};

/// When the `cpma` script switches from W-only turning to strafe-only, seconds.
pub const CPMA_STRAFE_FROM: f32 = 3.0;
/// When the `cpma` script switches from strafe-only to S-only, seconds.
pub const CPMA_BRAKE_FROM: f32 = 5.5;

/// The `cpma` scenario's key phase at `time`: 0 run-up (W on the ground), 1 W only (view
/// turning), 2 strafe only, 3 S only.
fn cpma_phase(time: f32, run_up: f32) -> u8 {
    if time < run_up {
        0
    } else if time < CPMA_STRAFE_FROM {
        1
    } else if time < CPMA_BRAKE_FROM {
        2
    } else {
        3
    }
}

/// `kind = "cpma"`: the CPM player is the main actor; the Quake III player's path is the other.
/// Extra columns: `grounded`, `phase` (0 run-up, 1 W-only, 2 strafe-only, 3 S-only), `yaw_deg`
/// (the view), `q3_speed` (the Quake III player's horizontal speed), `heading_gap_deg` (angle
/// between the view and the CPM player's velocity).
pub fn cpma(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let c = file.cpma.clone().unwrap_or_default();
    let dt = 1.0 / file.tick_hz as f32;
    let (mut pc, mut pq) = (MoveParams::cpma(), MoveParams::quake3());
    // The pilot holds jump throughout.
    pc.auto_hop = true;
    pq.auto_hop = true;
    let ground = FlatGround::new(0.0);
    let (mut cpm, mut q3) = (MoverState::new(Vec3::ZERO), MoverState::new(Vec3::ZERO));
    let mut yaw = 0.0f32;
    let mut side = 1.0f32;
    let mut q3_path = vec![];
    let mut trace = Trace::new(
        file.tick_hz,
        "CPM",
        &[
            "grounded",
            "phase",
            "yaw_deg",
            "q3_speed",
            "heading_gap_deg",
        ],
    );
    for t in 0..ticks {
        let time = t as f32 * dt;
        let phase = cpma_phase(time, c.run_up);
        let (wish, jump, facing) = match phase {
            0 => (Vec2::new(1.0, 0.0), false, facing_from_yaw(yaw)),
            1 => {
                yaw += c.turn_rate_deg.to_radians() * dt;
                (Vec2::new(1.0, 0.0), true, facing_from_yaw(yaw))
            }
            2 => {
                // The view along the CPM player's velocity: the strafe wish is at 90° to it.
                let v = cpm.velocity.planar();
                if let Some(d) = v.try_normalize() {
                    yaw = (-d.x).atan2(-d.y);
                }
                (Vec2::new(0.0, side), true, facing_from_yaw(yaw))
            }
            _ => (Vec2::new(-1.0, 0.0), true, facing_from_yaw(yaw)),
        };
        let input = MoveInput::new(wish, jump, facing);
        let ev = step(&mut cpm, &pc, &input, &ground, dt);
        step(&mut q3, &pq, &input, &ground, dt);
        if ev.jumped && phase == 2 {
            side = -side;
        }
        let v = cpm.velocity.planar();
        let gap = if v.length() > 1.0 {
            let f = facing_from_yaw(yaw);
            (f.x * v.y - f.y * v.x).atan2(f.dot(v)).to_degrees()
        } else {
            0.0
        };
        q3_path.push((f64::from(q3.position.x), f64::from(q3.position.z)));
        trace.push_mover(
            t,
            &cpm,
            &[
                flag(cpm.grounded),
                f32::from(phase),
                yaw.to_degrees(),
                q3.planar_speed(),
                gap,
            ],
        );
        progress();
    }
    trace.others.push(Path2 {
        label: "Quake III (same keys and view)".into(),
        points: q3_path,
    });
    trace
}

/// Findings of a `cpma` run: how closely each player's velocity followed the turning view in
/// the W-only phase, and the top speeds.
pub fn cpma_findings(trace: &Trace) -> Vec<String> {
    let w_only: Vec<&Sample> = trace.samples.iter().filter(|s| s.extra[1] == 1.0).collect();
    let mut out = vec![];
    if let Some(last) = w_only.last() {
        out.push(format!(
            "end of the W-only turn: CPM velocity {} degrees off the view (view turned {} degrees)",
            num(last.extra[4].abs(), 1),
            num(last.extra[2], 1)
        ));
    }
    // Where each player is fastest, and why the faster one is.
    let peak = |speed: &dyn Fn(&Sample) -> f32| {
        trace.samples.iter().fold((0.0f32, 0u8), |(best, ph), s| {
            if speed(s) > best {
                (speed(s), s.extra[1] as u8)
            } else {
                (best, ph)
            }
        })
    };
    let (top, cpm_phase) = peak(&|s| s.speed);
    let (q3_top, q3_phase) = peak(&|s| s.extra[3]);
    let phase = |p: u8| match p {
        0 => "the run-up",
        1 => "the W-only turn",
        2 => "the strafe-only part",
        _ => "the S-only part",
    };
    out.push(format!(
        "top horizontal speed: CPM {} (in {}), Quake III {} (in {}) world units/s",
        num(top, 1),
        phase(cpm_phase),
        num(q3_top, 1),
        phase(q3_phase)
    ));
    if q3_top > top && q3_phase == 1 {
        out.push(
            "why Quake III is faster there: with W held its velocity lags the turning view, so \
             every air tick accelerates at an angle to the velocity and adds speed (strafe-jumping \
             by turning the view); CPM's air control turns the velocity with the view instead and \
             keeps its speed"
                .to_string(),
        );
    } else if top > q3_top && cpm_phase == 2 {
        out.push(
            "why CPM is faster there: with strafe keys only, CPM's strafe acceleration adds more \
             speed each air tick than Quake III's air acceleration"
                .to_string(),
        );
    }
    out
}

/// The `platform` scenario's turntable: radius 6 at height 0.5 about the origin.
struct Turntable {
    yaw_rate: f32,
}

/// Radius of the `platform` scenario's turntable, world units.
pub const TURNTABLE_RADIUS: f32 = 6.0;
/// Height of its top, world units.
pub const TURNTABLE_TOP: f32 = 0.5;

impl Turntable {
    fn on(p: Vec3) -> bool {
        p.x * p.x + p.z * p.z <= TURNTABLE_RADIUS * TURNTABLE_RADIUS
    }
}

impl GroundProbe for Turntable {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if Turntable::on(p) { TURNTABLE_TOP } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn surface_motion(&self, p: Vec3) -> SurfaceMotion {
        if Turntable::on(p) {
            SurfaceMotion::rotating(Vec3::ZERO, self.yaw_rate)
        } else {
            SurfaceMotion::STILL
        }
    }
}

/// `kind = "platform"`. Extra columns: `grounded`, `on_table` (feet over the turntable),
/// `carried_yaw_deg` (the view turned by the table so far), `spot_error` (distance from the spot
/// of the table the character started on, while it has not jumped; 0 after), `jumped`.
pub fn platform(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let c = file.platform.clone().unwrap_or_default();
    let dt = 1.0 / file.tick_hz as f32;
    let rate = c.yaw_rate_deg.to_radians();
    let table = Turntable { yaw_rate: rate };
    let params = MoveParams::seed();
    let r = c.radius.min(TURNTABLE_RADIUS);
    let mut s = MoverState::new(Vec3::new(r, TURNTABLE_TOP, 0.0));
    s.grounded = true; // standing on it at rest
    let mut yaw = 0.0f32;
    let mut jumped = false;
    let mut table_path = vec![];
    let mut trace = Trace::new(
        file.tick_hz,
        "character",
        &[
            "grounded",
            "on_table",
            "carried_yaw_deg",
            "spot_error",
            "jumped",
        ],
    );
    for t in 0..ticks {
        let time = t as f32 * dt;
        let jump = !jumped && time >= c.jump_at;
        let input = MoveInput::new(Vec2::ZERO, jump, facing_from_yaw(yaw));
        let ev = step(&mut s, &params, &input, &table, dt);
        yaw += ev.carried_yaw;
        jumped |= ev.jumped;
        // The spot the character started on, turned with the table (f64 for the reference).
        let a = f64::from(rate) * f64::from(t + 1) * f64::from(dt);
        let spot = (f64::from(r) * a.cos(), -f64::from(r) * a.sin());
        table_path.push((spot.0 as f32 as f64, spot.1 as f32 as f64));
        let spot_error = if jumped {
            0.0
        } else {
            let (dx, dz) = (
                f64::from(s.position.x) - spot.0,
                f64::from(s.position.z) - spot.1,
            );
            (dx * dx + dz * dz).sqrt() as f32
        };
        trace.push_mover(
            t,
            &s,
            &[
                flag(s.grounded),
                flag(Turntable::on(s.position)),
                yaw.to_degrees(),
                spot_error,
                flag(ev.jumped),
            ],
        );
        progress();
    }
    trace.others.push(Path2 {
        label: "the starting spot on the table".into(),
        points: table_path,
    });
    trace.others.push(Path2 {
        label: "table edge".into(),
        points: (0..=64)
            .map(|i| {
                let a = f64::from(i) / 64.0 * std::f64::consts::TAU;
                (
                    f64::from(TURNTABLE_RADIUS) * a.cos(),
                    f64::from(TURNTABLE_RADIUS) * a.sin(),
                )
            })
            .collect(),
    });
    trace
}

/// Findings of a `platform` run: how far the character drifted from its spot on the table, how
/// far the view turned with it, and where it landed.
pub fn platform_findings(trace: &Trace) -> Vec<String> {
    let drift = trace.samples.iter().map(|s| s.extra[3]).fold(0.0, f32::max);
    let mut out = vec![format!(
        "largest distance from the spot on the table while standing: {} world units",
        num(drift, 6)
    )];
    if let Some(j) = trace.samples.iter().position(|s| s.flag(4)) {
        let s = &trace.samples[j];
        out.push(format!(
            "jumped at {} s with the table's velocity {} world units/s; view turned {} degrees",
            num(s.time, 2),
            num(s.speed, 3),
            num(s.extra[2], 1)
        ));
    }
    out
}

/// The `crouch` scenario's course (Source units, along +X): a tunnel `TUNNEL` (from, to) whose
/// ceiling is [`TUNNEL_CEILING`] above the floor, then a ledge [`LEDGE_HEIGHT`] high from
/// [`LEDGE_X`] on.
pub const TUNNEL: (f32, f32) = (150.0, 350.0);
/// Height of the tunnel's ceiling, world units (between Source's crouched 36 and standing 72).
pub const TUNNEL_CEILING: f32 = 50.0;
/// Where the ledge starts, world units.
pub const LEDGE_X: f32 = 640.0;
/// Height of the ledge, world units: more than a plain jump reaches (apex 45 + step-up 18), less
/// than a crouch-jump (45 + 36).
pub const LEDGE_HEIGHT: f32 = 70.0;

/// The `crouch` course as a probe.
struct Course;

impl GroundProbe for Course {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x >= LEDGE_X { LEDGE_HEIGHT } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn clearance(&self, feet: Vec3) -> f32 {
        if feet.x >= TUNNEL.0 && feet.x < TUNNEL.1 {
            TUNNEL_CEILING - feet.y
        } else {
            f32::INFINITY
        }
    }
}

/// `kind = "crouch"`: a Source character (`MoveParams::source()`) runs along +X; it crouches
/// before the tunnel and lets go of the key just inside it (it stays crouched, slow, until it is
/// out), then runs on and jumps at `jump_x`, crouching two ticks later (`crouch_jump = true`) or
/// not, at the ledge. Extra columns: `grounded`, `crouched`, `head_y` (feet + body height),
/// `crouch_key`, `ceiling_y` (the tunnel's ceiling above the character, 0 elsewhere).
pub fn crouch(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let c = file.crouch.clone().unwrap_or_default();
    let dt = 1.0 / file.tick_hz as f32;
    let params = MoveParams::source();
    let mut s = MoverState::new(Vec3::ZERO);
    let mut jumped_at = None;
    let mut trace = Trace::new(
        file.tick_hz,
        "character",
        &["grounded", "crouched", "head_y", "crouch_key", "ceiling_y"],
    );
    for t in 0..ticks {
        let x = s.position.x;
        let jump = jumped_at.is_none() && x >= c.jump_x && s.grounded;
        if jump {
            jumped_at = Some(t);
        }
        let key = (x >= TUNNEL.0 - 60.0 && x < TUNNEL.0 + 20.0)
            || (c.crouch_jump && jumped_at.is_some_and(|j| t >= j + 2));
        let input = MoveInput::new(Vec2::new(1.0, 0.0), jump, Vec2::new(1.0, 0.0)).with_crouch(key);
        step(&mut s, &params, &input, &Course, dt);
        let ceiling = if s.position.x >= TUNNEL.0 && s.position.x < TUNNEL.1 {
            TUNNEL_CEILING
        } else {
            0.0
        };
        trace.push_mover(
            t,
            &s,
            &[
                flag(s.grounded),
                flag(s.crouched),
                s.position.y + hopkit::movement::crouch::height(&s, &params),
                flag(key),
                ceiling,
            ],
        );
        progress();
    }
    trace
}

/// Findings of a `crouch` run: where it stood up after the tunnel, and whether it got onto the
/// ledge.
pub fn crouch_findings(trace: &Trace) -> Vec<String> {
    let mut out = vec![];
    let released_under = trace
        .samples
        .iter()
        .filter(|s| !s.flag(3) && s.flag(1) && s.extra[4] > 0.0)
        .count();
    if let Some(s) = trace
        .samples
        .windows(2)
        .find(|w| w[0].flag(1) && !w[1].flag(1))
        .map(|w| &w[1])
    {
        out.push(format!(
            "stood up at x = {} (tunnel ends at {}), after {released_under} ticks crouched under the ceiling with the key up",
            num(s.position.x, 1),
            num(TUNNEL.1, 1)
        ));
    }
    let on_ledge = trace
        .samples
        .last()
        .is_some_and(|s| s.grounded_on(LEDGE_HEIGHT));
    out.push(format!(
        "on the {}-unit ledge at the end: {}",
        num(LEDGE_HEIGHT, 0),
        if on_ledge { "yes" } else { "no" }
    ));
    out
}

trait GroundedOn {
    fn grounded_on(&self, height: f32) -> bool;
}

impl GroundedOn for Sample {
    fn grounded_on(&self, height: f32) -> bool {
        self.flag(0) && self.position.y == height
    }
}

/// The `crouch` plot: a side view (x against height) of the feet and the head, with the tunnel's
/// ceiling and the ledge.
pub fn crouch_plot(title: &str, trace: &Trace) -> PlotSpec {
    let pts = |f: &dyn Fn(&Sample) -> f32| -> Vec<(f64, f64)> {
        trace
            .samples
            .iter()
            .map(|s| (f64::from(s.position.x), f64::from(f(s))))
            .collect()
    };
    let end = trace
        .samples
        .iter()
        .map(|s| f64::from(s.position.x))
        .fold(f64::from(LEDGE_X) + 50.0, f64::max);
    let (t0, t1) = (f64::from(TUNNEL.0), f64::from(TUNNEL.1));
    let ceil = f64::from(TUNNEL_CEILING);
    let (lx, lh) = (f64::from(LEDGE_X), f64::from(LEDGE_HEIGHT));
    PlotSpec {
        title: format!("{title} (side view)"),
        x_label: "x (world units)".into(),
        y_label: "height (world units)".into(),
        series: vec![
            Series::line(
                "ground",
                vec![(0.0, 0.0), (lx, 0.0), (lx, lh), (end, lh)],
                (90, 90, 100),
            ),
            Series::line(
                "tunnel ceiling",
                vec![(t0, 90.0), (t0, ceil), (t1, ceil), (t1, 90.0)],
                (40, 90, 210),
            ),
            Series::line("head", pts(&|s| s.extra[2]), (40, 160, 90)),
            Series::line("feet", pts(&|s| s.position.y), (215, 60, 40)),
        ],
        y_from_zero: true,
        ..PlotSpec::default()
    }
}

/// Height of the `ladder` scenario's wall (and of the ledge on top of it), world units.
pub const LADDER_TOP: f32 = 160.0;

/// The `ladder` course: floor at 0 for x < 0, a wall at x = 0 with a ladder on its −X face (felt
/// within 16 units of it, below the top), a ledge at [`LADDER_TOP`] for x ≥ 0.
struct LadderWall;

impl GroundProbe for LadderWall {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x >= 0.0 { LADDER_TOP } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        (feet.x < 0.0 && feet.x > -16.0 && feet.y < LADDER_TOP).then_some(Vec3::new(-1.0, 0.0, 0.0))
    }
}

/// `kind = "ladder"`: a QuakeWorld character (`MoveParams::quakeworld()`, ladder climb 200,
/// push-off 270) starts 100 units from the wall facing it: W to the ladder and up it for
/// `climb_first` seconds, jump off (pushed away, falls), then W again: back to the ladder, up it
/// and over the top onto the ledge. Extra columns: `grounded`, `on_ladder`, `jumped`, `w_key`.
pub fn ladder(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let c = file.ladder.clone().unwrap_or_default();
    let dt = 1.0 / file.tick_hz as f32;
    let params = MoveParams::quakeworld();
    let mut s = MoverState::new(Vec3::new(-100.0, 0.0, 0.0));
    let mut climbed = 0.0f32;
    let mut pushed_off_at = None;
    let mut trace = Trace::new(
        file.tick_hz,
        "character",
        &["grounded", "on_ladder", "jumped", "w_key"],
    );
    for t in 0..ticks {
        let on = LadderWall.ladder(s.position).is_some() && !s.grounded;
        if on && pushed_off_at.is_none() {
            climbed += dt;
        }
        let jump = pushed_off_at.is_none() && climbed >= c.climb_first;
        // After the push-off, let go of W for half a second, then walk back in.
        let w = pushed_off_at.is_none_or(|p| t >= p + file.tick_hz / 2);
        let input = MoveInput::new(
            Vec2::new(if w { 1.0 } else { 0.0 }, 0.0),
            jump,
            Vec2::new(1.0, 0.0),
        );
        let ev = step(&mut s, &params, &input, &LadderWall, dt);
        if ev.jumped && pushed_off_at.is_none() {
            pushed_off_at = Some(t);
        }
        trace.push_mover(
            t,
            &s,
            &[
                flag(s.grounded),
                flag(LadderWall.ladder(s.position).is_some() && !s.grounded),
                flag(ev.jumped),
                flag(w),
            ],
        );
        progress();
    }
    trace
}

/// Findings of a `ladder` run: the push-off, and whether it ended on the ledge.
pub fn ladder_findings(trace: &Trace) -> Vec<String> {
    let mut out = vec![];
    if let Some(s) = trace.samples.iter().find(|s| s.flag(2)) {
        out.push(format!(
            "pushed off the ladder at height {} with {} world units/s",
            num(s.position.y, 1),
            num(s.speed, 1)
        ));
    }
    let top = trace
        .samples
        .last()
        .is_some_and(|s| s.flag(0) && s.position.y == LADDER_TOP);
    out.push(format!(
        "on the {}-unit ledge at the end: {}",
        num(LADDER_TOP, 0),
        if top { "yes" } else { "no" }
    ));
    out
}

/// The `ladder` plot, over time (a side view would draw the climb, the fall and the re-climb on
/// top of each other): the feet's height in three colours, one per act — 1 the climb, 2 the
/// push-off and the fall, 3 the walk back, the re-climb and over the top — numbered where each
/// starts, with the distance from the wall (dashed) and the ledge's height.
pub fn ladder_plot(title: &str, trace: &Trace) -> PlotSpec {
    let s = &trace.samples;
    let push = s.iter().position(|x| x.flag(2)).unwrap_or(s.len());
    let landed = s
        .iter()
        .skip(push + 1)
        .position(|x| x.flag(0))
        .map_or(s.len(), |i| push + 1 + i);
    // Each act starts where the previous one ended, so the line is unbroken.
    let act = |from: usize, to: usize| -> Vec<(f64, f64)> {
        s.get(from.saturating_sub(1)..to.min(s.len()))
            .unwrap_or(&[])
            .iter()
            .map(|x| (f64::from(x.time), f64::from(x.position.y)))
            .collect()
    };
    let acts = [
        ("1 climb", act(0, push + 1), (215, 60, 40)),
        ("2 push-off and fall", act(push + 1, landed), (40, 110, 200)),
        (
            "3 walk back, climb, over the top",
            act(landed, s.len()),
            (40, 160, 90),
        ),
    ];
    let end = s.last().map_or(1.0, |x| f64::from(x.time));
    let top = f64::from(LADDER_TOP);
    let mut series = vec![
        Series::dashed(
            &format!("ledge ({})", num(LADDER_TOP, 0)),
            vec![(0.0, top), (end, top)],
            (90, 90, 100),
        ),
        Series::dashed(
            "distance from the wall",
            s.iter()
                .map(|x| (f64::from(x.time), f64::from(-x.position.x).max(0.0)))
                .collect(),
            (200, 140, 30),
        ),
    ];
    let mut labels = vec![];
    for (label, points, color) in acts {
        if let Some(&first) = points.get(usize::from(!label.starts_with('1'))) {
            labels.push(Label {
                at: first,
                text: label[..1].to_string(),
            });
        }
        series.push(Series::line(&format!("feet: {label}"), points, color));
    }
    PlotSpec {
        title: format!("{title} (height over time)"),
        x_label: "time (s)".into(),
        y_label: "world units".into(),
        series,
        labels,
        y_from_zero: true,
        ..PlotSpec::default()
    }
}

/// The `water` scenario's water surface height, world units.
pub const POOL_SURFACE: f32 = -16.0;
/// The `water` scenario's pool floor height, world units.
pub const POOL_FLOOR: f32 = -80.0;
/// Where the `water` scenario's pool ends (the edge wall up to the ledge at 0), world units.
pub const POOL_EDGE: f32 = 520.0;

/// The `water` course (Quake units): dry floor at 0 for x < 0, a ramp down to the pool floor at
/// [`POOL_FLOOR`] over x 0..160, the floor to [`POOL_EDGE`], then the edge: a wall up to a ledge
/// at 0. Water up to [`POOL_SURFACE`] over the pool (0 < x < the edge).
struct Pool;

/// The `water` course's floor height at `x`.
fn pool_floor(x: f32) -> f32 {
    if !(0.0..POOL_EDGE).contains(&x) {
        0.0
    } else if x < 160.0 {
        -x * 0.5
    } else {
        POOL_FLOOR
    }
}

impl GroundProbe for Pool {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let ramp = (0.0..160.0).contains(&p.x);
        // The ramp falls 1 unit per 2 along +X: its normal leans towards +X.
        let normal = if ramp {
            Vec3::new(0.447_213_6, 0.894_427_2, 0.0)
        } else {
            Vec3::UP
        };
        Some(GroundHit {
            height: pool_floor(p.x),
            normal,
        })
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        (feet.x > 0.0 && feet.x < POOL_EDGE).then_some(POOL_SURFACE)
    }
}

/// `kind = "water"`: a QuakeWorld character (`MoveParams::quakeworld()`: water accelerate 10,
/// friction 4, swimming at 0.7 × 320) faces the pool (+X). Phases: 0 W with a level view: walks
/// down the ramp into the water and swims on at its depth until x ≥ `stop_x`; 1 no keys for
/// `sink_for` seconds: sinks to the floor; 2 the jump key for `swim_up_for` seconds: swims up at
/// 100; 3 W with the view `pitch_deg` up: swims up and ahead to the surface and the edge, where
/// the water jump takes it out onto the ledge. Extra columns: `grounded`, `water_level` (0–3),
/// `water_jump` (its timer runs), `jumped`, `phase`.
pub fn water(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let c = file.water.clone().unwrap_or_default();
    let dt = 1.0 / file.tick_hz as f32;
    let params = MoveParams::quakeworld();
    let mut s = MoverState::new(Vec3::new(-60.0, 0.0, 0.0));
    let east = facing_from_yaw(-core::f32::consts::FRAC_PI_2);
    let (mut phase, mut since) = (0u8, 0.0f32);
    let mut trace = Trace::new(
        file.tick_hz,
        "character",
        &["grounded", "water_level", "water_jump", "jumped", "phase"],
    );
    for t in 0..ticks {
        let next = match phase {
            0 if s.position.x >= c.stop_x => 1,
            1 if since >= c.sink_for => 2,
            2 if since >= c.swim_up_for => 3,
            p => p,
        };
        if next != phase {
            (phase, since) = (next, 0.0);
        }
        since += dt;
        let (front, jump, pitch) = match phase {
            0 => (1.0, false, 0.0),
            1 => (0.0, false, 0.0),
            2 => (0.0, true, 0.0),
            _ => (1.0, false, c.pitch_deg.to_radians()),
        };
        let input = MoveInput::new(Vec2::new(front, 0.0), jump, east).with_pitch(pitch);
        let ev = step(&mut s, &params, &input, &Pool, dt);
        trace.push_mover(
            t,
            &s,
            &[
                flag(s.grounded),
                f32::from(hopkit::movement::water::level(&Pool, s.position, &params)),
                flag(s.water_jump_timer > 0.0),
                flag(ev.jumped),
                f32::from(phase),
            ],
        );
        progress();
    }
    trace
}

/// Findings of a `water` run: how deep it went, the slowest sinking, the water jump, the end.
pub fn water_findings(trace: &Trace) -> Vec<String> {
    let mut out = vec![];
    if let Some(deep) = trace
        .samples
        .iter()
        .min_by(|a, b| a.position.y.total_cmp(&b.position.y))
    {
        out.push(format!(
            "deepest feet at height {} (floor {}, surface {})",
            num(deep.position.y, 1),
            num(POOL_FLOOR, 0),
            num(POOL_SURFACE, 0)
        ));
    }
    let sinking = trace
        .samples
        .iter()
        .filter(|s| s.extra[4] == 1.0 && !s.flag(0))
        .map(|s| s.velocity.y)
        .fold(0.0f32, f32::min);
    out.push(format!(
        "fastest sinking with no keys: {} world units/s (no gravity in water)",
        num(-sinking, 1)
    ));
    if let Some(s) = trace.samples.iter().find(|s| s.flag(3) && s.flag(2)) {
        out.push(format!(
            "water jump at x {} with {} world units/s up",
            num(s.position.x, 1),
            num(s.velocity.y, 1)
        ));
    }
    let out_on_ledge = trace
        .samples
        .last()
        .is_some_and(|s| s.flag(0) && s.position.x >= POOL_EDGE && s.position.y == 0.0);
    out.push(format!(
        "out of the pool on the ledge at the end: {}",
        if out_on_ledge { "yes" } else { "no" }
    ));
    out
}

/// The `water` plot: the feet's height against time, with the floor under them and the water
/// surface (the sinking, swimming up and the water jump read off as slopes).
pub fn water_plot(title: &str, trace: &Trace) -> PlotSpec {
    let over_time = |f: &dyn Fn(&Sample) -> f32| -> Vec<(f64, f64)> {
        trace
            .samples
            .iter()
            .map(|s| (f64::from(s.time), f64::from(f(s))))
            .collect()
    };
    let end = trace.samples.last().map_or(1.0, |s| f64::from(s.time));
    let surface = f64::from(POOL_SURFACE);
    PlotSpec {
        title: format!("{title} (height over time)"),
        x_label: "time (s)".into(),
        y_label: "height (world units)".into(),
        series: vec![
            Series::line(
                "floor under the feet",
                over_time(&|s| pool_floor(s.position.x)),
                (90, 90, 100),
            ),
            Series::dashed(
                "water surface",
                vec![(0.0, surface), (end, surface)],
                (40, 110, 220),
            ),
            Series::line("feet", over_time(&|s| s.position.y), (215, 60, 40)),
        ],
        ..PlotSpec::default()
    }
}
