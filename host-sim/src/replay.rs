//! Ghost recordings (`hopkit::ghost`): reading and checking recording files, and the scenes
//! `record`, `play` and `hash FILE` run (their commands are in `crate::app`).
//!
//! - **record**: a live fighter is flown through [`hopkit::ghost::record_and_fly`] — the frame is
//!   quantized, stored, and *that* frame is flown (Doom's trick), so the file replays exactly. The
//!   pilot is the keyboard/gamepad in a window, or the core's scripted demo pilot
//!   ([`hopkit_demo::pilot::input_at`]) headless.
//! - **play** / **hash**: the recording drives the demo formation of ghosts
//!   ([`hopkit_demo::pilot::formation`], [`GHOSTS`] fighters) over the demo level around the demo pilot's
//!   targets, at the recording's tick rate.

use std::path::Path;

use anyhow::Result;
use hopkit::ghost::format::DecodeError;
use hopkit::ghost::{
    record_and_fly, FlyerParams, FlyerState, GhostScene, PilotInput, Recorder, Recording,
};
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit_demo::level::{ramp_views, DemoGround, ARENA_HALF_EXTENT};
use hopkit_demo::pilot as demo_pilot;
use hopkit_demo::view::{BodyView, CritterView, DemoView, GhostView};

use crate::cli::MAX_SECONDS;
use crate::infile::{self, ReadError};
use crate::input::{mouse_look_deflection, HostInput};
use crate::readout::{num, FighterReadout, Readout, RunStats};
use crate::ticks::max_ticks;
use crate::window::Driver;
use crate::UserError;

/// Ghosts in the replay scene (the demo formation: a leader and three wingmen).
pub const GHOSTS: usize = 4;
/// Longest recording `record` can make: [`MAX_SECONDS`] (600 s) at the demo pilot's 60 Hz.
pub const MAX_FRAMES: usize = MAX_SECONDS as usize * demo_pilot::INFO.tick_hz as usize;
/// Recorder capacity in bytes for [`MAX_FRAMES`] at the demo's settings.
pub const RECORDER_BYTES: usize =
    hopkit::ghost::recording_size(MAX_FRAMES, demo_pilot::INFO.checksum_interval);
/// Largest recording file any command reads, 42,000,024 bytes: the longest recording a run can
/// replay in full — [`MAX_SECONDS`] at the format's highest tick rate
/// ([`hopkit::ghost::format::MAX_TICK_HZ`], 10000 Hz) with a state checksum before every frame
/// (the format's densest layout, 7 bytes a frame). Larger files are refused before they are read.
pub const MAX_RECORDING_BYTES: usize = hopkit::ghost::recording_size(
    MAX_SECONDS as usize * hopkit::ghost::format::MAX_TICK_HZ as usize,
    1,
);

/// Why a recording is unusable, in words: the core's one-line `Display` (CRCs in hex), shared
/// with every front end.
pub fn decode_error_message(e: &DecodeError) -> String {
    e.to_string()
}

/// Read a recording file's bytes: at most [`MAX_RECORDING_BYTES`], and its first four bytes
/// must be the magic `HKGH` (checked before the rest is read). Problems are [`UserError`]s.
pub fn read_recording(path: &Path) -> Result<Vec<u8>, UserError> {
    let shown = path.display();
    let magic = |head: &[u8]| {
        if head == hopkit::ghost::format::MAGIC {
            Ok(())
        } else {
            Err(decode_error_message(&DecodeError::BadMagic))
        }
    };
    let limit = MAX_RECORDING_BYTES as u64;
    infile::read_limited(path, limit, hopkit::ghost::format::MAGIC.len(), magic).map_err(
        |e| match e {
            ReadError::Io(e) => UserError(format!("cannot read recording {shown}: {e}")),
            ReadError::Head(why) => UserError(format!("recording {shown} is unusable: {why}")),
            ReadError::TooLarge { .. } => UserError(format!(
                "recording {shown} is too large: {e} (the longest recording a run can use, \
                 {MAX_SECONDS} s at {} Hz)",
                hopkit::ghost::format::MAX_TICK_HZ
            )),
        },
    )
}

/// A recording file's bytes in version 1 (a version 2 file decoded: [`hopkit::ghost::to_v1`]),
/// validated. The decoded image is at most [`MAX_RECORDING_BYTES`], like a version 1 file.
pub fn as_v1(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, UserError> {
    let unusable = |e: &DecodeError| {
        UserError(format!(
            "recording {} is unusable: {}",
            path.display(),
            decode_error_message(e)
        ))
    };
    let header = hopkit::ghost::format::peek_header(&bytes).map_err(|e| unusable(&e))?;
    if header.version == hopkit::ghost::format::FORMAT_VERSION {
        Recording::parse(&bytes).map_err(|e| unusable(&e))?;
        return Ok(bytes);
    }
    // The CRC and the header's fields first (a damaged file is "damaged", whatever length its
    // header claims): `load` checks them before it looks at the scratch buffer, so an empty one
    // stops it right after, with `CapacityExceeded`.
    match hopkit::ghost::load(&bytes, &mut []) {
        Err(DecodeError::CapacityExceeded { .. }) => {}
        Err(e) => return Err(unusable(&e)),
        Ok(_) => {}
    }
    let k = if header.flags & hopkit::ghost::format::FLAG_CHECKSUMS != 0 {
        header.checksum_interval
    } else {
        0
    };
    let size = hopkit::ghost::format::checksum_count(header.frame_count as u64, k)
        .saturating_mul(4)
        .saturating_add(header.frame_count as u64 * 3 + 24);
    if size > MAX_RECORDING_BYTES as u64 {
        return Err(UserError(format!(
            "recording {} is too long: {} frames decode to {size} bytes, more than the \
             {MAX_RECORDING_BYTES} bytes of the longest recording a run can use",
            path.display(),
            header.frame_count
        )));
    }
    let mut out = vec![0u8; size as usize];
    let len = hopkit::ghost::to_v1(&bytes, &mut out).map_err(|e| unusable(&e))?;
    out.truncate(len);
    Ok(out)
}

/// Read and validate a recording file (version 1, or version 2 decoded to version 1); problems
/// are the user's ([`UserError`], exit 2).
pub fn load(path: &Path) -> Result<&'static [u8]> {
    let bytes = as_v1(path, read_recording(path)?)?;
    // One recording per process run: leaking it gives the scene a `'static` borrow.
    Ok(Box::leak(bytes.into_boxed_slice()))
}

/// The demo formation replaying one recording.
pub struct GhostDriver {
    recording: Recording<'static>,
    scene: GhostScene<GHOSTS>,
}

impl GhostDriver {
    /// A fresh scene for validated recording bytes.
    pub fn new(bytes: &'static [u8]) -> Result<Self> {
        let recording = Recording::parse(bytes).map_err(|e| {
            UserError(format!(
                "the recording is unusable: {}",
                decode_error_message(&e)
            ))
        })?;
        Ok(GhostDriver {
            scene: hopkit_demo::pilot::formation(&recording),
            recording,
        })
    }

    /// Frames in the recording.
    pub fn frame_count(&self) -> u32 {
        self.recording.frame_count()
    }
}

/// A demo view of flyers and targets: the camera follows `focus`; the player is not drawn (its
/// position is NaN, which the renderer skips — it never reaches a summary: the drivers report
/// through [`Readout::Fighters`]). The HUD's speed is the followed flyer's.
fn flyers_view(
    tick: u32,
    flyers: &[(FlyerState, bool)],
    targets: &[Vec3],
    focus: Vec3,
) -> DemoView {
    let mut v = DemoView {
        tick,
        arena_half_extent: Vec2::new(ARENA_HALF_EXTENT, ARENA_HALF_EXTENT),
        camera: focus.planar(),
        ramps: ramp_views(),
        ..DemoView::default()
    };
    v.player.position = Vec3::new(f32::NAN, 0.0, f32::NAN);
    v.companion.position = Vec3::new(f32::NAN, 0.0, f32::NAN);
    if let Some((lead, _)) = flyers.first() {
        v.player.speed = lead.speed;
    }
    for (f, firing) in flyers {
        let _ = v.ghosts.push(GhostView {
            body: BodyView {
                position: f.position,
                heading: f.forward().planar().normalize_or_zero(),
                speed: f.speed,
            },
            firing: *firing,
        });
    }
    for t in targets {
        let _ = v.critters.push(CritterView {
            body: BodyView {
                position: *t,
                heading: Vec2::ZERO,
                speed: 0.0,
            },
            target: t.planar(),
            arrived: true,
        });
    }
    v
}

impl Driver for GhostDriver {
    fn tick(&mut self, _input: &HostInput) {
        self.scene.step(&self.recording, &DemoGround);
    }
    fn view(&self) -> DemoView {
        let flyers: Vec<(FlyerState, bool)> = self
            .scene
            .ghosts
            .iter()
            .map(|g| (g.flyer, g.firing))
            .collect();
        let focus = flyers.first().map_or(Vec3::ZERO, |f| f.0.position);
        flyers_view(self.scene.tick, &flyers, &self.scene.targets, focus)
    }
    fn reset(&mut self) {
        self.scene = hopkit_demo::pilot::formation(&self.recording);
    }
    fn tick_hz(&self) -> u32 {
        u32::from(self.recording.tick_hz())
    }
    fn state_hash(&self) -> u64 {
        self.scene.state_hash()
    }
    fn readout(&self) -> Readout {
        let lead = self.scene.ghosts.first();
        Readout::Fighters(FighterReadout {
            who: "lead ghost",
            count: self.scene.ghosts.len(),
            speed: lead.map_or(0.0, |g| g.flyer.speed),
            position: lead.map_or(Vec3::ZERO, |g| g.flyer.position),
            firing: lead.is_some_and(|g| g.firing),
            tick: self.scene.tick,
            frames: self.frame_count(),
        })
    }
}

/// The recording's length in ticks, or a [`UserError`] when it is longer than the [`MAX_SECONDS`]
/// every run is limited to.
pub fn check_length(path: &Path, d: &GhostDriver) -> Result<u32> {
    let (frames, hz) = (d.frame_count(), d.tick_hz());
    if frames > max_ticks(hz) {
        return Err(UserError(format!(
            "recording {} is {} s long ({frames} frames at {hz} Hz), more than the {MAX_SECONDS} s \
             a run may last",
            path.display(),
            num(f64::from(frames) / f64::from(hz.max(1)), 1)
        ))
        .into());
    }
    Ok(frames)
}

/// Where a pilot comes from while recording.
enum PilotSource {
    /// The scripted demo pilot.
    Scripted,
    /// Keyboard/mouse/gamepad.
    Live,
}

/// The fighter being recorded.
pub struct RecordDriver {
    recorder: Box<Recorder<RECORDER_BYTES>>,
    flyer: FlyerState,
    params: FlyerParams,
    tick: u32,
    limit: u32,
    source: PilotSource,
    firing: bool,
    stats: RunStats,
}

impl RecordDriver {
    /// What the panel and summary say: the fighter being recorded.
    fn fighter_readout(&self) -> Readout {
        Readout::Fighters(FighterReadout {
            who: "fighter",
            count: 1,
            speed: self.flyer.speed,
            position: self.flyer.position,
            firing: self.firing,
            tick: self.tick,
            frames: self.limit,
        })
    }
}

impl RecordDriver {
    /// A recorder flown by desktop input (keyboard, mouse, gamepad: [`host_to_pilot`]) for at
    /// most `limit` ticks, as `record` runs it in a window.
    pub fn live(limit: u32) -> Result<Self> {
        Self::new(limit, PilotSource::Live)
    }

    /// A recorder flown by the scripted demo pilot ([`hopkit_demo::pilot::input_at`]) for at most
    /// `limit` ticks, as `record` runs it headless.
    pub fn scripted(limit: u32) -> Result<Self> {
        Self::new(limit, PilotSource::Scripted)
    }

    /// The run's statistics so far (what the summary says).
    pub fn stats(&self) -> &RunStats {
        &self.stats
    }

    fn new(limit: u32, source: PilotSource) -> Result<Self> {
        let recorder = Recorder::new(demo_pilot::INFO)
            .map_err(|e| anyhow::anyhow!("recorder settings rejected: {}", e))?;
        Ok(RecordDriver {
            recorder: Box::new(recorder),
            flyer: demo_pilot::start_state(),
            params: FlyerParams::default(),
            tick: 0,
            limit: limit.min(MAX_FRAMES as u32),
            source,
            firing: false,
            stats: RunStats::default(),
        })
    }

    /// The recording so far (complete file bytes).
    pub fn finish(&mut self) -> Vec<u8> {
        self.recorder.finish().to_vec()
    }

    /// Frames recorded.
    pub fn frames(&self) -> u32 {
        self.recorder.frames()
    }
}

/// Desktop input → pilot input: W/S or the left stick's y pitch (push = nose down), A/D, the
/// mouse or the left stick's x yaw (right = turn right), F/fire gun, M/right click missile,
/// T Toward, G Away.
pub fn host_to_pilot(input: &HostInput) -> PilotInput {
    let k = input.keys;
    let axis = |pos: bool, neg: bool| f32::from(u8::from(pos)) - f32::from(u8::from(neg));
    let mut pitch = axis(k.back, k.forward);
    let mut yaw = axis(k.left || k.turn_left, k.right || k.turn_right)
        - mouse_look_deflection(input.mouse_dx);
    if let Some(p) = input.pad {
        pitch -= p.left_y;
        yaw -= p.left_x + p.right_x;
    }
    PilotInput {
        pitch: pitch.clamp(-1.0, 1.0),
        yaw: yaw.clamp(-1.0, 1.0),
        fire: input.fire,
        missile: input.missile || input.jump,
        toward: input.toward,
        away: input.away,
    }
}

impl Driver for RecordDriver {
    fn tick(&mut self, input: &HostInput) {
        if self.tick >= self.limit {
            return;
        }
        let pilot = match self.source {
            PilotSource::Scripted => {
                demo_pilot::input_at(self.tick, &self.flyer, &demo_pilot::TARGETS)
            }
            PilotSource::Live => host_to_pilot(input),
        };
        // A full recorder is impossible here (capacity covers `limit`); the frame is flown anyway.
        let frame = record_and_fly(
            &mut self.recorder,
            &mut self.flyer,
            &self.params,
            &pilot,
            &demo_pilot::TARGETS,
            &DemoGround,
        );
        self.firing = frame.map(|f| f.fire).unwrap_or(false);
        self.tick += 1;
        let r = self.fighter_readout();
        self.stats.record(&r);
    }
    fn view(&self) -> DemoView {
        flyers_view(
            self.tick,
            &[(self.flyer, self.firing)],
            &demo_pilot::TARGETS,
            self.flyer.position,
        )
    }
    fn reset(&mut self) {
        self.recorder.reset();
        self.flyer = demo_pilot::start_state();
        self.tick = 0;
        self.firing = false;
        self.stats = RunStats::default();
    }
    fn tick_hz(&self) -> u32 {
        u32::from(demo_pilot::INFO.tick_hz)
    }
    fn state_hash(&self) -> u64 {
        self.flyer.state_hash()
    }
    fn finished(&self) -> bool {
        self.tick >= self.limit
    }
    fn readout(&self) -> Readout {
        self.fighter_readout()
    }
}

/// A version 1 recording rewritten in format version 2 (range-coded:
/// [`hopkit::ghost::encode_v2`]); the same frames and checksums.
pub fn to_v2(v1: &[u8]) -> Result<Vec<u8>> {
    let rec =
        Recording::parse(v1).map_err(|e| anyhow::anyhow!("the recording made is unusable: {e}"))?;
    let frames: Vec<hopkit::ghost::Frame> = rec.frames().collect();
    let checks: Vec<u32> = rec.checksums().collect();
    // Version 2 is rarely larger than version 1; `BufferTooSmall` says exactly how large.
    let mut out = vec![0u8; v1.len() + 64];
    let n = match hopkit::ghost::encode_v2(&rec.info(), &frames, &checks, &mut out) {
        Err(hopkit::ghost::format::EncodeError::BufferTooSmall { needed, .. }) => {
            out = vec![0u8; needed];
            hopkit::ghost::encode_v2(&rec.info(), &frames, &checks, &mut out)
        }
        r => r,
    }
    .map_err(|e| anyhow::anyhow!("encoding the recording as version 2: {e}"))?;
    out.truncate(n);
    Ok(out)
}

/// `DIR/player-P.ghost`: where `netplay --log DIR` and `link play --log DIR` write player `P`'s
/// inputs (`hash --arena` replays them).
pub fn log_path(dir: &Path, player: usize) -> std::path::PathBuf {
    dir.join(format!("player-{player}.ghost"))
}

/// One player's arena frames as a recording file (60 Hz, no state checksums: the arena's hash is
/// not a flyer's).
pub fn encode_recording(frames: &[hopkit::ghost::Frame]) -> Result<Vec<u8>> {
    let info = hopkit::ghost::RecordingInfo {
        tick_hz: hopkit_demo::TICK_HZ as u16,
        checksum_interval: 0,
        ..hopkit::ghost::RecordingInfo::default()
    };
    let mut out = vec![0u8; hopkit::ghost::recording_size(frames.len(), 0)];
    let n = hopkit::ghost::encode(&info, frames, &[], &mut out)
        .map_err(|e| anyhow::anyhow!("encoding: {e:?}"))?;
    out.truncate(n);
    Ok(out)
}
