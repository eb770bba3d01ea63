//! Ghost pilots (seed 002): a recording in a caller-owned byte buffer, replayed as enemy AI by
//! flyers turned with torques. C view of `hopkit::ghost`.
//!
//! The recording bytes are never copied: [`hk_recording_open`] validates them once (length, CRC,
//! header) and keeps a pointer, so the buffer must stay alive and unchanged while the
//! `HkRecording` is used.

use crate::ground::{Ground, HkGround};
use crate::ptr::{self, assert_fits, finite, out, put};
use crate::status::{
    status, HkStatus, HK_ERR_BAD_LENGTH, HK_ERR_BAD_RECORDING, HK_ERR_DESYNC, HK_ERR_INVALID_ARG,
};
use crate::types::{HkQuat, HkVec3};
use hopkit::ghost::{
    DecodeError, FlyerParams, FlyerState, Frame, Ghost, GhostTick, HeaderField, Recording, Replay,
    ReplayStep,
};
use hopkit::hash::StateHash;
use hopkit::math::Vec3;

/// Tuning of a ghost flyer (every field as in the core's `FlyerParams`; units and defaults there).
/// All fields must be finite and ≥ 0, `fire_cos` in [−1, 1], `max_dt` > 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkFlyerParams {
    /// Steady pitch rate at full command, rad/s. Default 1.8.
    pub max_pitch_rate: f32,
    /// Steady yaw rate at full command, rad/s. Default 1.8.
    pub max_yaw_rate: f32,
    /// Angular damping, 1/s. Default 5.
    pub angular_damping: f32,
    /// Cap on angular speed, rad/s. Default 4.
    pub max_angular_speed: f32,
    /// Cruise speed, units/s. Default 14.
    pub cruise_speed: f32,
    /// Speed response towards cruise, 1/s. Default 2.
    pub speed_response: f32,
    /// Toward torque at 90° off the target, rad/s². Default 9.
    pub toward_torque: f32,
    /// Away torque, rad/s². Default 9.
    pub away_torque: f32,
    /// Roll-levelling torque, rad/s². Default 6.
    pub level_torque: f32,
    /// Terrain look-ahead, seconds of flight. Default 0.8.
    pub terrain_look_ahead: f32,
    /// Wanted height above the ground, units. Default 4.
    pub terrain_clearance: f32,
    /// Nose-up torque at zero clearance, rad/s². Default 30.
    pub terrain_torque: f32,
    /// Collision radius around each target, units. Default 4.
    pub avoid_radius: f32,
    /// Target look-ahead, seconds of flight. Default 1.
    pub avoid_look_ahead: f32,
    /// Avoidance torque for a dead-centre collision course, rad/s². Default 40.
    pub avoid_torque: f32,
    /// Fire gate cosine (fire when `forward · to_target ≥ fire_cos`). Default 0.95.
    pub fire_cos: f32,
    /// Fire gate range, units. Default 60.
    pub fire_range: f32,
    /// Longest accepted step, seconds. Default 0.1.
    pub max_dt: f32,
}

impl From<FlyerParams> for HkFlyerParams {
    fn from(p: FlyerParams) -> Self {
        HkFlyerParams {
            max_pitch_rate: p.max_pitch_rate,
            max_yaw_rate: p.max_yaw_rate,
            angular_damping: p.angular_damping,
            max_angular_speed: p.max_angular_speed,
            cruise_speed: p.cruise_speed,
            speed_response: p.speed_response,
            toward_torque: p.toward_torque,
            away_torque: p.away_torque,
            level_torque: p.level_torque,
            terrain_look_ahead: p.terrain_look_ahead,
            terrain_clearance: p.terrain_clearance,
            terrain_torque: p.terrain_torque,
            avoid_radius: p.avoid_radius,
            avoid_look_ahead: p.avoid_look_ahead,
            avoid_torque: p.avoid_torque,
            fire_cos: p.fire_cos,
            fire_range: p.fire_range,
            max_dt: p.max_dt,
        }
    }
}

impl HkFlyerParams {
    fn to_core(self) -> Result<FlyerParams, HkStatus> {
        let p = FlyerParams {
            max_pitch_rate: self.max_pitch_rate,
            max_yaw_rate: self.max_yaw_rate,
            angular_damping: self.angular_damping,
            max_angular_speed: self.max_angular_speed,
            cruise_speed: self.cruise_speed,
            speed_response: self.speed_response,
            toward_torque: self.toward_torque,
            away_torque: self.away_torque,
            level_torque: self.level_torque,
            terrain_look_ahead: self.terrain_look_ahead,
            terrain_clearance: self.terrain_clearance,
            terrain_torque: self.terrain_torque,
            avoid_radius: self.avoid_radius,
            avoid_look_ahead: self.avoid_look_ahead,
            avoid_torque: self.avoid_torque,
            fire_cos: self.fire_cos,
            fire_range: self.fire_range,
            max_dt: self.max_dt,
        };
        let non_negative = [
            p.max_pitch_rate,
            p.max_yaw_rate,
            p.angular_damping,
            p.max_angular_speed,
            p.cruise_speed,
            p.speed_response,
            p.toward_torque,
            p.away_torque,
            p.level_torque,
            p.terrain_look_ahead,
            p.terrain_clearance,
            p.terrain_torque,
            p.avoid_radius,
            p.avoid_look_ahead,
            p.avoid_torque,
            p.fire_range,
        ];
        for v in non_negative {
            if finite(v)? < 0.0 {
                return Err(HK_ERR_INVALID_ARG);
            }
        }
        if !(-1.0..=1.0).contains(&finite(p.fire_cos)?) || finite(p.max_dt)? <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        Ok(p)
    }
}

/// # Safety
/// `p` NULL or readable.
unsafe fn flyer_params(p: *const HkFlyerParams) -> Result<FlyerParams, HkStatus> {
    unsafe { ptr::read_or(p, FlyerParams::default().into())? }.to_core()
}

/// Fill `out_params` with the default flyer tuning (the demo arena's).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_flyer_params_default(out_params: *mut HkFlyerParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, FlyerParams::default().into()) };
        Ok(())
    })())
}

/// Fill `out_params` with the agile preset (faster turns, snappier damping).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_flyer_params_agile(out_params: *mut HkFlyerParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, FlyerParams::agile().into()) };
        Ok(())
    })())
}

/// Fill `out_params` with the default tuning for a world `scale` times larger (speeds and
/// distances scale). `scale` must be finite and > 0.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_flyer_params_scaled(
    scale: f32,
    out_params: *mut HkFlyerParams,
) -> HkStatus {
    status((|| {
        if finite(scale)? <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let o = out(out_params)?;
        unsafe { put(o, FlyerParams::scaled(scale).into()) };
        Ok(())
    })())
}

/// State of a flyer: position, orientation (body looks along local −Z), body-axis angular velocity
/// (`x` pitch up, `y` yaw left, `z` roll), forward speed.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkFlyerState {
    /// World position, units.
    pub position: HkVec3,
    /// Body-to-world rotation (renormalised by hopkit).
    pub orientation: HkQuat,
    /// Angular velocity in body axes, rad/s.
    pub angular_velocity: HkVec3,
    /// Forward speed, units/s.
    pub speed: f32,
}

impl From<FlyerState> for HkFlyerState {
    fn from(s: FlyerState) -> Self {
        HkFlyerState {
            position: s.position.into(),
            orientation: s.orientation.into(),
            angular_velocity: s.angular_velocity.into(),
            speed: s.speed,
        }
    }
}

impl HkFlyerState {
    fn to_core(self) -> Result<FlyerState, HkStatus> {
        let mut s = FlyerState::new(
            self.position.finite()?,
            self.orientation.finite()?,
            finite(self.speed)?,
        );
        s.angular_velocity = self.angular_velocity.finite()?;
        Ok(s)
    }
}

/// [`HkRecordingError::kind`]: no error.
pub const HK_REC_OK: u32 = 0;
/// [`HkRecordingError::kind`]: the first 4 bytes are not "HKGH".
pub const HK_REC_BAD_MAGIC: u32 = 1;
/// [`HkRecordingError::kind`]: unsupported format version (`found` = version).
pub const HK_REC_UNSUPPORTED_VERSION: u32 = 2;
/// [`HkRecordingError::kind`]: fewer bytes than the header says (`expected`, `found`).
pub const HK_REC_TRUNCATED: u32 = 3;
/// [`HkRecordingError::kind`]: more bytes than the header says (`expected`, `found`).
pub const HK_REC_TRAILING_BYTES: u32 = 4;
/// [`HkRecordingError::kind`]: CRC-32 mismatch (`expected` = stored, `found` = computed).
pub const HK_REC_CRC_MISMATCH: u32 = 5;
/// [`HkRecordingError::kind`]: a header field is invalid (`found`: 0 tick rate, 1 flags,
/// 2 checksum interval, 3 condition unit).
pub const HK_REC_INVALID_HEADER: u32 = 6;

/// Why [`hk_recording_open`] rejected the bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkRecordingError {
    /// One of `HK_REC_*`.
    pub kind: u32,
    /// Expected value (length, stored CRC), or 0.
    pub expected: u64,
    /// Found value (length, computed CRC, version, header field), or 0.
    pub found: u64,
}

fn decode_error(e: DecodeError) -> HkRecordingError {
    let (kind, expected, found) = match e {
        DecodeError::BadMagic => (HK_REC_BAD_MAGIC, 0, 0),
        DecodeError::UnsupportedVersion { version } => {
            (HK_REC_UNSUPPORTED_VERSION, 1, version as u64)
        }
        DecodeError::Truncated { expected, found } => (HK_REC_TRUNCATED, expected, found as u64),
        DecodeError::TrailingBytes { expected, found } => {
            (HK_REC_TRAILING_BYTES, expected, found as u64)
        }
        DecodeError::CrcMismatch { stored, computed } => {
            (HK_REC_CRC_MISMATCH, stored as u64, computed as u64)
        }
        DecodeError::InvalidHeader { field } => (
            HK_REC_INVALID_HEADER,
            0,
            match field {
                HeaderField::TickRate => 0,
                HeaderField::Flags => 1,
                HeaderField::ChecksumInterval => 2,
                HeaderField::ConditionUnit => 3,
            },
        ),
        // Only `decode_into` reports capacity; `parse` never does.
        DecodeError::CapacityExceeded { frames, capacity } => {
            (HK_REC_TRUNCATED, capacity as u64, frames as u64)
        }
    };
    HkRecordingError {
        kind,
        expected,
        found,
    }
}

/// Size in bytes of [`HkRecording`] storage.
pub const HK_RECORDING_SIZE: usize = 64;
const RECORDING_TAG: u64 = u64::from_le_bytes(*b"hkGhRec1");
const _: () = assert_fits::<Recording<'static>>(HK_RECORDING_SIZE);

/// Opaque handle to a validated recording: a pointer to the caller's bytes plus the parsed header.
/// The bytes must outlive it and must not change.
#[repr(C, align(8))]
pub struct HkRecording {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_RECORDING_SIZE],
}

/// Validate `len` bytes at `bytes` as a ghost recording (magic, version, exact length, CRC-32,
/// header) and initialise `rec` to view them. On `HK_ERR_BAD_RECORDING`, `detail` (if not NULL)
/// says why and `rec` is untouched. Runs the CRC over the whole buffer once.
///
/// # Safety
/// `rec` NULL or writable `HkRecording` storage; `bytes` NULL or `len` readable bytes that stay
/// alive and unchanged while `rec` is used; `detail` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_recording_open(
    rec: *mut HkRecording,
    bytes: *const u8,
    len: usize,
    detail: *mut HkRecordingError,
) -> HkStatus {
    status((|| {
        let d = if detail.is_null() {
            None
        } else {
            Some(out(detail)?)
        };
        if bytes.is_null() {
            return Err(crate::status::HK_ERR_NULL);
        }
        out(rec)?;
        let b: &'static [u8] = unsafe { ptr::slice(bytes, len)? };
        match Recording::parse(b) {
            Ok(r) => {
                if let Some(d) = d {
                    unsafe { put(d, HkRecordingError::default()) };
                }
                unsafe { ptr::init(rec, RECORDING_TAG, r) }
            }
            Err(e) => {
                if let Some(d) = d {
                    unsafe { put(d, decode_error(e)) };
                }
                Err(HK_ERR_BAD_RECORDING)
            }
        }
    })())
}

/// Header facts of an open recording.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkRecordingInfo {
    /// Simulation ticks per second the recording was made at.
    pub tick_hz: u32,
    /// Number of frames (ticks).
    pub frame_count: u32,
    /// Ticks between stored state checksums (0 = none).
    pub checksum_interval: u32,
    /// Number of stored state checksums.
    pub checksum_count: u32,
    /// World units per Condition step.
    pub condition_unit: f32,
    /// Length of the recording in bytes.
    pub byte_len: u64,
}

/// Read the header facts of `rec`.
///
/// # Safety
/// `rec` NULL or an `HkRecording`; `out_info` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_recording_info(
    rec: *const HkRecording,
    out_info: *mut HkRecordingInfo,
) -> HkStatus {
    status((|| {
        let o = out(out_info)?;
        let r: &Recording<'static> = unsafe { ptr::get(rec, RECORDING_TAG)? };
        let info = HkRecordingInfo {
            tick_hz: r.tick_hz() as u32,
            frame_count: r.frame_count(),
            checksum_interval: r.checksum_interval() as u32,
            checksum_count: r.checksum_count(),
            condition_unit: r.condition_unit(),
            byte_len: r.as_bytes().len() as u64,
        };
        unsafe { put(o, info) };
        Ok(())
    })())
}

/// One recorded tick in game symbols.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkFrame {
    /// Pitch command, steps of 1/31 of the max rate, −32..=31 (positive = nose up).
    pub pitch: i8,
    /// Yaw command, −32..=31 (positive = left).
    pub yaw: i8,
    /// Gun held (1/0).
    pub fire: u8,
    /// Missile pressed this tick (1/0).
    pub missile: u8,
    /// Toward held (1/0).
    pub toward: u8,
    /// Away held (1/0).
    pub away: u8,
    /// Recorded distance to the nearest target in condition units (0 = none).
    pub condition: u8,
}

impl From<Frame> for HkFrame {
    fn from(f: Frame) -> Self {
        HkFrame {
            pitch: f.pitch,
            yaw: f.yaw,
            fire: f.fire as u8,
            missile: f.missile as u8,
            toward: f.toward as u8,
            away: f.away as u8,
            condition: f.condition,
        }
    }
}

/// Frame `index` of an open recording (`HK_ERR_BAD_LENGTH` if `index ≥ frame_count`).
///
/// # Safety
/// `rec` NULL or an `HkRecording`; `out_frame` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_recording_frame(
    rec: *const HkRecording,
    index: u32,
    out_frame: *mut HkFrame,
) -> HkStatus {
    status((|| {
        let o = out(out_frame)?;
        let r: &Recording<'static> = unsafe { ptr::get(rec, RECORDING_TAG)? };
        let f = r.frame(index).ok_or(HK_ERR_BAD_LENGTH)?;
        unsafe { put(o, f.into()) };
        Ok(())
    })())
}

/// Where an exact replay first disagreed with a stored checksum.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkDesync {
    /// Tick whose stored checksum did not match.
    pub tick: u32,
    /// Stored checksum.
    pub expected: u32,
    /// Checksum of the replayed state.
    pub found: u32,
}

/// Targets slices are read whole; all positions must be finite.
unsafe fn targets<'a>(p: *const HkVec3, n: usize) -> Result<&'a [Vec3], HkStatus> {
    let t: &[HkVec3] = unsafe { ptr::slice(p, n)? };
    for v in t {
        v.finite()?;
    }
    // SAFETY: HkVec3 and Vec3 are both #[repr(C)] {x, y, z: f32} (asserted below).
    Ok(unsafe { core::slice::from_raw_parts(t.as_ptr().cast::<Vec3>(), t.len()) })
}
const _: () = assert!(
    core::mem::size_of::<HkVec3>() == core::mem::size_of::<Vec3>()
        && core::mem::align_of::<HkVec3>() == core::mem::align_of::<Vec3>()
);

/// Replay `rec` exactly from `start` (as recorded, no AI) and check every stored state checksum.
/// `HK_OK` with `*out_checks` = checksums verified, or `HK_ERR_DESYNC` with `*out_desync` (if not
/// NULL) naming the first bad tick. Needs the same params, targets and ground as the recording.
///
/// # Safety
/// `rec` an `HkRecording` or NULL; `params` NULL (defaults) or readable; `start` readable or NULL;
/// `targets` `target_count` readable vectors (NULL if 0); `ground` NULL (none) or readable;
/// `out_checks`, `out_desync` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_recording_verify(
    rec: *const HkRecording,
    params: *const HkFlyerParams,
    start: *const HkFlyerState,
    targets_ptr: *const HkVec3,
    target_count: usize,
    ground: *const HkGround,
    out_checks: *mut u32,
    out_desync: *mut HkDesync,
) -> HkStatus {
    status((|| {
        // A copy of the view (a slice + header): no reference into the storage while the ground
        // callback runs.
        let r: &Recording<'static> =
            &unsafe { *ptr::get::<_, Recording<'static>>(rec, RECORDING_TAG)? };
        let p = unsafe { flyer_params(params)? };
        let s = unsafe { ptr::read(start)? }.to_core()?;
        let t = unsafe { targets(targets_ptr, target_count)? };
        let g = unsafe { Ground::from_c(ground)? };
        let oc = out(out_checks)?;
        let od = if out_desync.is_null() {
            None
        } else {
            Some(out(out_desync)?)
        };
        let mut replay = Replay::new(s);
        loop {
            match replay.step(r, &p, t, &g) {
                Ok(ReplayStep::Played(_)) => {}
                Ok(ReplayStep::Finished) => break,
                Err(d) => {
                    if let Some(od) = od {
                        let v = HkDesync {
                            tick: d.tick,
                            expected: d.expected,
                            found: d.found,
                        };
                        unsafe { put(od, v) };
                    }
                    return Err(HK_ERR_DESYNC);
                }
            }
        }
        unsafe { put(oc, r.checksum_count()) };
        Ok(())
    })())
}

/// Size in bytes of [`HkGhost`] storage.
pub const HK_GHOST_SIZE: usize = 128;
const GHOST_TAG: u64 = u64::from_le_bytes(*b"hkGhost1");
const _: () = assert_fits::<Ghost>(HK_GHOST_SIZE);

/// Opaque storage for one ghost: a flyer playing a recording as AI (Condition skips, fire
/// gating, wrap-around). Initialise with [`hk_ghost_init`].
#[repr(C, align(8))]
pub struct HkGhost {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_GHOST_SIZE],
}

/// Start a ghost at `start` (validated: finite, non-zero orientation) playing from frame
/// `start_frame` (taken modulo the recording's frame count when stepping).
///
/// # Safety
/// `ghost` NULL or writable `HkGhost` storage; `start` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn hk_ghost_init(
    ghost: *mut HkGhost,
    start: *const HkFlyerState,
    start_frame: u32,
) -> HkStatus {
    status((|| {
        let s = unsafe { ptr::read(start)? }.to_core()?;
        unsafe { ptr::init(ghost, GHOST_TAG, Ghost::new(s, start_frame)) }
    })())
}

/// What a ghost did in one tick.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkGhostTick {
    /// Frame index played.
    pub frame_index: u32,
    /// The frame played.
    pub frame: HkFrame,
    /// 1 if a Condition skip jumped to the end of a Toward segment.
    pub skipped: u8,
    /// 1 if the gun fired (held and facing the target).
    pub firing: u8,
    /// 1 if a missile was launched.
    pub missile: u8,
    /// 1 if there was a (finite) target; then `nearest_*` are valid.
    pub has_target: u8,
    /// Index of the nearest target.
    pub nearest_index: u32,
    /// Distance to the nearest target, units.
    pub nearest_distance: f32,
}

impl From<GhostTick> for HkGhostTick {
    fn from(t: GhostTick) -> Self {
        let (has, idx, dist) = match t.nearest {
            Some(n) => (1, n.index, n.distance),
            None => (0, 0, 0.0),
        };
        HkGhostTick {
            frame_index: t.frame_index,
            frame: t.frame.into(),
            skipped: t.skipped as u8,
            firing: t.firing as u8,
            missile: t.missile as u8,
            has_target: has,
            nearest_index: idx,
            nearest_distance: dist,
        }
    }
}

/// Advance a ghost one tick of `1 / tick_hz` of the recording: Toward/Away the nearest of the
/// `target_count` targets, terrain and collision avoidance over `ground`, fire gating.
/// `out_tick` may be NULL. An empty recording plays neutral frames.
///
/// # Safety
/// `ghost` an `HkGhost` or NULL; `rec` an `HkRecording` or NULL; `params` NULL (defaults) or
/// readable; `targets` `target_count` readable vectors (NULL if 0); `ground` NULL (none) or
/// readable; `out_tick` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_ghost_step(
    ghost: *mut HkGhost,
    rec: *const HkRecording,
    params: *const HkFlyerParams,
    targets_ptr: *const HkVec3,
    target_count: usize,
    ground: *const HkGround,
    out_tick: *mut HkGhostTick,
) -> HkStatus {
    status((|| {
        // A copy of the view (a slice + header): no reference into the storage while the ground
        // callback runs.
        let r: &Recording<'static> =
            &unsafe { *ptr::get::<_, Recording<'static>>(rec, RECORDING_TAG)? };
        let p = unsafe { flyer_params(params)? };
        let t = unsafe { targets(targets_ptr, target_count)? };
        let g = unsafe { Ground::from_c(ground)? };
        let ot = if out_tick.is_null() {
            None
        } else {
            Some(out(out_tick)?)
        };
        // The ground callback may call back into hk_* on this ghost: HK_ERR_BUSY (ptr.rs).
        let tick =
            unsafe { ptr::with_value(ghost, GHOST_TAG, |gh: &mut Ghost| gh.step(r, &p, t, &g))? };
        if let Some(ot) = ot {
            unsafe { put(ot, tick.into()) };
        }
        Ok(())
    })())
}

/// Readable state of a ghost.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkGhostView {
    /// The flyer.
    pub flyer: HkFlyerState,
    /// World forward direction (unit).
    pub forward: HkVec3,
    /// Next frame to play.
    pub cursor: u32,
    /// Frame played last tick.
    pub last_index: u32,
    /// 1 if the gun fired last tick.
    pub firing: u8,
    /// 1 if a missile was launched last tick.
    pub missile: u8,
    /// Missiles launched so far.
    pub missiles_fired: u32,
    /// Ticks the gun fired so far.
    pub fire_ticks: u32,
    /// Condition skips taken so far.
    pub skips: u32,
}

/// Read a ghost's state.
///
/// # Safety
/// `ghost` an `HkGhost` or NULL; `out_view` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_ghost_view(
    ghost: *const HkGhost,
    out_view: *mut HkGhostView,
) -> HkStatus {
    status((|| {
        let o = out(out_view)?;
        let g: &Ghost = unsafe { ptr::get(ghost, GHOST_TAG)? };
        let v = HkGhostView {
            flyer: g.flyer.into(),
            forward: g.flyer.forward().into(),
            cursor: g.cursor,
            last_index: g.last_index,
            firing: g.firing as u8,
            missile: g.missile as u8,
            missiles_fired: g.missiles_fired,
            fire_ticks: g.fire_ticks,
            skips: g.skips,
        };
        unsafe { put(o, v) };
        Ok(())
    })())
}

/// 64-bit state hash of a ghost (flyer, cursor, counters), for replay checks.
///
/// # Safety
/// `ghost` an `HkGhost` or NULL; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_ghost_state_hash(
    ghost: *const HkGhost,
    out_hash: *mut u64,
) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        let g: &Ghost = unsafe { ptr::get(ghost, GHOST_TAG)? };
        unsafe { put(o, g.state_hash()) };
        Ok(())
    })())
}

/// The bundled demo recording (`hopkit_demo::DEMO_RECORDING`, 30 s at 60 Hz, 5544 bytes): a
/// pointer to static bytes and their length. Open it with [`hk_recording_open`].
///
/// # Safety
/// `out_ptr`, `out_len` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_recording(
    out_ptr: *mut *const u8,
    out_len: *mut usize,
) -> HkStatus {
    status((|| {
        let op = out(out_ptr)?;
        let ol = out(out_len)?;
        let b = hopkit_demo::DEMO_RECORDING;
        unsafe {
            put(op, b.as_ptr());
            put(ol, b.len());
        }
        Ok(())
    })())
}

/// Targets the demo recording was flown against (`hopkit_demo::pilot::TARGETS`).
static DEMO_TARGETS: [HkVec3; 3] = {
    let t = hopkit_demo::pilot::TARGETS;
    [
        HkVec3 {
            x: t[0].x,
            y: t[0].y,
            z: t[0].z,
        },
        HkVec3 {
            x: t[1].x,
            y: t[1].y,
            z: t[1].z,
        },
        HkVec3 {
            x: t[2].x,
            y: t[2].y,
            z: t[2].z,
        },
    ]
};

/// The demo recording's pilot start state and targets, to replay it exactly with
/// [`hk_recording_verify`] (ground `HK_GROUND_DEMO`, default flyer params).
///
/// # Safety
/// `out_start`, `out_targets`, `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_recording_setup(
    out_start: *mut HkFlyerState,
    out_targets: *mut *const HkVec3,
    out_count: *mut usize,
) -> HkStatus {
    status((|| {
        let os = out(out_start)?;
        let ot = out(out_targets)?;
        let oc = out(out_count)?;
        unsafe {
            put(os, hopkit_demo::pilot::start_state().into());
            put(ot, DEMO_TARGETS.as_ptr());
            put(oc, DEMO_TARGETS.len());
        }
        Ok(())
    })())
}
