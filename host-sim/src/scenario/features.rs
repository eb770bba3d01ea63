//! Scenarios for the movement features of issue 26 (CPM air control, …): each runs the feature
//! against a character without it, so the CSV and the plot show the difference.

use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{facing_from_yaw, step, MoveInput, MoveParams, MoverState};

use super::config::ScenarioFile;
use crate::readout::num;
use crate::trace::{extras, flag, time_after, Path2, Sample, Trace};

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
    let mut trace = Trace {
        tick_hz: file.tick_hz,
        actor: "CPM".into(),
        extra_columns: vec![
            "grounded".into(),
            "phase".into(),
            "yaw_deg".into(),
            "q3_speed".into(),
            "heading_gap_deg".into(),
        ],
        ..Trace::default()
    };
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
        trace.samples.push(Sample {
            tick: t,
            time: time_after(t, file.tick_hz),
            position: cpm.position,
            velocity: cpm.velocity,
            speed: cpm.planar_speed(),
            extra: extras(&[
                flag(cpm.grounded),
                f32::from(phase),
                yaw.to_degrees(),
                q3.planar_speed(),
                gap,
            ]),
        });
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
    let top = trace.max_speed();
    let q3_top = trace.samples.iter().map(|s| s.extra[3]).fold(0.0, f32::max);
    out.push(format!(
        "top horizontal speed: CPM {}, Quake III {} world units/s",
        num(top, 1),
        num(q3_top, 1)
    ));
    out
}
