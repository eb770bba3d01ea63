//! Savestates: the whole simulation as [`STATE_SIZE`] bytes, always that many, pointer-free and
//! portable (little-endian fields, floats by their bits), so that a restored state continues bit
//! for bit.
//!
//! Layout: a 48-byte [`Header`] then the payload, zero-padded to [`STATE_SIZE`]:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `HKRETRO\0` |
//! | 8..12 | [`FORMAT_VERSION`] (u32) |
//! | 12..16 | payload length (u32) = [`PAYLOAD_SIZE`] |
//! | 16..32 | the core's version, `CARGO_PKG_VERSION` zero-padded |
//! | 32..40 | identity of the ghost recording played ([`recording_id`]) |
//! | 40..48 | checksum of bytes 0..40 and of the payload ([`hopkit::hash::StateHasher`]) |
//!
//! The payload is every field of the simulation that changes while it runs, in one fixed order
//! ([`visit`]): the stick pipeline's button state, the tick count, the player (movement, yaw,
//! facing, tilt), the companion (body, breadcrumb trail oldest first, padded to its capacity),
//! the critters, the ghost formation (each ghost, padded to the formation's capacity; the targets;
//! its tick) and the fire flag. What stays constant in a run — every tuning parameter, the level,
//! the recording's frames — is not stored: the version and recording identity stand for it, and a
//! state whose version or recording differs is refused. The memo caches some steps keep (the
//! ghosts' axes, per-tick constants) are not state: they are keyed by their inputs and recompute
//! on a miss, so a restored run computes exactly what the uninterrupted run computed (tested).
//!
//! Reading checks everything before changing anything: magic, version, length, checksum,
//! recording identity, then every field (booleans 0 or 1, counts within capacity, floats
//! finite) into a copy of the rig; only a fully valid state replaces the running one.
//! Writing and reading are the same function ([`visit`]) over a writer or a reader, so the two
//! cannot disagree about the order.

use hopkit::follower::{FollowerBody, FollowerState, Trail, DEFAULT_TRAIL_CAPACITY};
use hopkit::ghost::{FlyerState, Ghost, Recording, MAX_TARGETS};
use hopkit::hash::StateHasher;
use hopkit::math::{Quat, Vec2, Vec3};
use hopkit::movement::MoverState;
use hopkit::slope::SlopeState;
use hopkit::steering::{Agent, ArrivalState};
use hopkit::stick::{Button, MAX_BUTTONS};
use hopkit_demo::scene::GHOSTS;
use hopkit_demo::{DemoRig, Player};

/// Version of the layout above; a state with another is refused.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 48;
const MAGIC: [u8; 8] = *b"HKRETRO\0";
const CORE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Bytes a payload takes at most (trail and formation full): the visit of a rig with every
/// container at capacity, counted by [`Counter`] (a test checks the sum against a full rig).
pub const PAYLOAD_SIZE: usize = payload_size();
/// Bytes of every savestate (`retro_serialize_size`): header + payload.
pub const STATE_SIZE: usize = HEADER_SIZE + PAYLOAD_SIZE;

const fn payload_size() -> usize {
    const F: usize = 4; // f32
    const V3: usize = 3 * F;
    const Q: usize = 4 * F;
    let buttons = MAX_BUTTONS * 2;
    let mover = 3 * V3 + 3 * F + 5;
    let player = mover + F + 2 * F + V3 + Q;
    let body = V3 + V3 + 2 * F + 4 * F + 2;
    let companion = body + 4 + DEFAULT_TRAIL_CAPACITY * V3 + 3 * V3;
    let critters = hopkit_demo::scene::CRITTERS * (2 * V3 + F + 1);
    let flyer = V3 + Q + V3 + F;
    let ghost = flyer + 4 + 4 + 2 + 2 + V3 + 2 + 3 * 4;
    let formation = 4 + GHOSTS * ghost + 4 + MAX_TARGETS * V3 + 4;
    buttons + 4 + player + companion + critters + formation + 1
}

/// Why a savestate was refused (logged by the core, never a crash).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Not [`STATE_SIZE`] bytes.
    Size {
        /// Bytes given.
        got: usize,
    },
    /// The magic is not `HKRETRO\0`: not a hopkit savestate.
    Magic,
    /// Another layout version.
    Version {
        /// The state's version.
        found: u32,
    },
    /// Made by another version of the core (its simulation may differ).
    CoreVersion,
    /// The payload length field is not [`PAYLOAD_SIZE`].
    PayloadLength {
        /// The field's value.
        found: u32,
    },
    /// The checksum does not match: the bytes were changed.
    Checksum,
    /// Made while another ghost recording was playing.
    Recording,
    /// A field's value is impossible (a boolean not 0 or 1, a count over its capacity, a float
    /// not finite); names the field.
    Field(&'static str),
}

impl core::fmt::Display for LoadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LoadError::Size { got } => write!(f, "{got} bytes, expected {STATE_SIZE}"),
            LoadError::Magic => f.write_str("not a hopkit savestate (bad magic)"),
            LoadError::Version { found } => write!(
                f,
                "savestate format version {found}, this core reads version {FORMAT_VERSION}"
            ),
            LoadError::CoreVersion => write!(
                f,
                "made by another version of hopkit-libretro (this is {CORE_VERSION})"
            ),
            LoadError::PayloadLength { found } => {
                write!(f, "payload length {found}, expected {PAYLOAD_SIZE}")
            }
            LoadError::Checksum => f.write_str("checksum mismatch (corrupt savestate)"),
            LoadError::Recording => {
                f.write_str("made with another ghost recording than the one loaded")
            }
            LoadError::Field(name) => write!(f, "impossible value in field {name}"),
        }
    }
}

/// Identity of the recording the formation flies (`None`: no ghosts): a hash of its bytes and
/// frame count.
pub fn recording_id(recording: Option<&Recording<'_>>) -> u64 {
    let mut h = StateHasher::new();
    match recording {
        None => h.write_u8(0),
        Some(r) => {
            h.write_u8(1);
            h.write_u32(r.frame_count());
            h.write_bytes(r.as_bytes());
        }
    }
    h.finish()
}

/// Write the state of `rig` into `out` (exactly [`STATE_SIZE`] bytes; false, and nothing
/// written, otherwise). `recording` is [`recording_id`] of the rig's recording.
pub fn save(rig: &DemoRig, recording: u64, out: &mut [u8]) -> bool {
    let Some(out) = out.get_mut(..STATE_SIZE) else {
        return false;
    };
    if out.len() != STATE_SIZE {
        return false;
    }
    out.fill(0);
    let (head, payload) = out.split_at_mut(HEADER_SIZE);
    let mut w = Writer {
        out: payload,
        at: 0,
    };
    // The visit needs `&mut` (the reader writes through it); the writer only reads, so it runs
    // on a copy (on the stack: no allocation).
    let mut copy = rig.clone();
    if visit(&mut w, &mut copy).is_err() {
        return false;
    }
    write_header(head, recording);
    let sum = checksum(head, payload);
    put(head, 40, &sum.to_le_bytes());
    true
}

/// Check `bytes` and, if it is a valid savestate for `recording`, put its state into `rig`.
/// On an error `rig` is unchanged.
pub fn load(rig: &mut DemoRig, recording: u64, bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() != STATE_SIZE {
        return Err(LoadError::Size { got: bytes.len() });
    }
    let (head, payload) = bytes.split_at(HEADER_SIZE);
    if head.get(0..8) != Some(&MAGIC[..]) {
        return Err(LoadError::Magic);
    }
    let version = u32_at(head, 8);
    if version != FORMAT_VERSION {
        return Err(LoadError::Version { found: version });
    }
    let length = u32_at(head, 12);
    if length as usize != PAYLOAD_SIZE {
        return Err(LoadError::PayloadLength { found: length });
    }
    if head.get(16..32) != Some(&version_field()[..]) {
        return Err(LoadError::CoreVersion);
    }
    if u64_at(head, 40) != checksum(head, payload) {
        return Err(LoadError::Checksum);
    }
    if u64_at(head, 32) != recording {
        return Err(LoadError::Recording);
    }
    let mut copy = rig.clone();
    let mut r = Reader {
        bytes: payload,
        at: 0,
    };
    visit(&mut r, &mut copy)?;
    *rig = copy;
    Ok(())
}

fn version_field() -> [u8; 16] {
    let mut v = [0u8; 16];
    for (d, s) in v.iter_mut().zip(CORE_VERSION.bytes()) {
        *d = s;
    }
    v
}

fn write_header(head: &mut [u8], recording: u64) {
    put(head, 0, &MAGIC);
    put(head, 8, &FORMAT_VERSION.to_le_bytes());
    put(head, 12, &(PAYLOAD_SIZE as u32).to_le_bytes());
    put(head, 16, &version_field());
    put(head, 32, &recording.to_le_bytes());
}

/// The checksum over the header's first 40 bytes and the whole payload (padding included).
fn checksum(head: &[u8], payload: &[u8]) -> u64 {
    let mut h = StateHasher::new();
    h.write_bytes(head.get(..40).unwrap_or(&[]));
    h.write_bytes(payload);
    h.finish()
}

fn put(buf: &mut [u8], at: usize, v: &[u8]) {
    if let Some(d) = buf.get_mut(at..at + v.len()) {
        d.copy_from_slice(v);
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut v = [0u8; 4];
    if let Some(s) = b.get(at..at + 4) {
        v.copy_from_slice(s);
    }
    u32::from_le_bytes(v)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut v = [0u8; 8];
    if let Some(s) = b.get(at..at + 8) {
        v.copy_from_slice(s);
    }
    u64::from_le_bytes(v)
}

/// One side of [`visit`]: a [`Writer`] stores each value, a [`Reader`] replaces it with the
/// stored one (checking it).
trait Io {
    /// True for the reader (rebuild containers after visiting their slots).
    const READS: bool;
    fn bytes<const N: usize>(
        &mut self,
        v: &mut [u8; N],
        field: &'static str,
    ) -> Result<(), LoadError>;

    fn u8(&mut self, v: &mut u8, field: &'static str) -> Result<(), LoadError> {
        let mut b = [*v];
        self.bytes(&mut b, field)?;
        *v = b[0];
        Ok(())
    }
    fn u16(&mut self, v: &mut u16, field: &'static str) -> Result<(), LoadError> {
        let mut b = v.to_le_bytes();
        self.bytes(&mut b, field)?;
        *v = u16::from_le_bytes(b);
        Ok(())
    }
    fn u32(&mut self, v: &mut u32, field: &'static str) -> Result<(), LoadError> {
        let mut b = v.to_le_bytes();
        self.bytes(&mut b, field)?;
        *v = u32::from_le_bytes(b);
        Ok(())
    }
    fn bool(&mut self, v: &mut bool, field: &'static str) -> Result<(), LoadError> {
        let mut b = *v as u8;
        self.u8(&mut b, field)?;
        *v = match b {
            0 => false,
            1 => true,
            _ => return Err(LoadError::Field(field)),
        };
        Ok(())
    }
    fn f32(&mut self, v: &mut f32, field: &'static str) -> Result<(), LoadError> {
        let mut b = v.to_bits();
        self.u32(&mut b, field)?;
        let f = f32::from_bits(b);
        if !f.is_finite() {
            return Err(LoadError::Field(field));
        }
        *v = f;
        Ok(())
    }
    fn vec2(&mut self, v: &mut Vec2, field: &'static str) -> Result<(), LoadError> {
        self.f32(&mut v.x, field)?;
        self.f32(&mut v.y, field)
    }
    fn vec3(&mut self, v: &mut Vec3, field: &'static str) -> Result<(), LoadError> {
        self.f32(&mut v.x, field)?;
        self.f32(&mut v.y, field)?;
        self.f32(&mut v.z, field)
    }
    fn quat(&mut self, q: &mut Quat, field: &'static str) -> Result<(), LoadError> {
        self.f32(&mut q.x, field)?;
        self.f32(&mut q.y, field)?;
        self.f32(&mut q.z, field)?;
        self.f32(&mut q.w, field)
    }
    /// A count of `cap` slots (refused above `cap`).
    fn count(&mut self, n: &mut usize, cap: usize, field: &'static str) -> Result<(), LoadError> {
        let mut v = *n as u32;
        self.u32(&mut v, field)?;
        if v as usize > cap {
            return Err(LoadError::Field(field));
        }
        *n = v as usize;
        Ok(())
    }
}

struct Writer<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl Io for Writer<'_> {
    const READS: bool = false;
    fn bytes<const N: usize>(
        &mut self,
        v: &mut [u8; N],
        field: &'static str,
    ) -> Result<(), LoadError> {
        let d = self
            .out
            .get_mut(self.at..self.at + N)
            .ok_or(LoadError::Field(field))?;
        d.copy_from_slice(v);
        self.at += N;
        Ok(())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Io for Reader<'_> {
    const READS: bool = true;
    fn bytes<const N: usize>(
        &mut self,
        v: &mut [u8; N],
        field: &'static str,
    ) -> Result<(), LoadError> {
        let s = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or(LoadError::Field(field))?;
        v.copy_from_slice(s);
        self.at += N;
        Ok(())
    }
}

/// Counts the bytes a visit takes (for the size test).
#[cfg(test)]
struct Counter(usize);

#[cfg(test)]
impl Io for Counter {
    const READS: bool = false;
    fn bytes<const N: usize>(&mut self, _: &mut [u8; N], _: &'static str) -> Result<(), LoadError> {
        self.0 += N;
        Ok(())
    }
}

/// Every changing field of the rig, in the savestate's order. Structs of the core are
/// destructured without `..`, so a field added to one of them stops this from compiling until it
/// is stored here too.
fn visit<I: Io>(io: &mut I, rig: &mut DemoRig) -> Result<(), LoadError> {
    for b in rig.pipeline.buttons.buttons.iter_mut() {
        let Button { held, lockout } = b;
        io.bool(held, "pipeline.button.held")?;
        io.u8(lockout, "pipeline.button.lockout")?;
    }
    let scene = &mut rig.scene;
    io.u32(&mut scene.tick, "tick")?;
    visit_player(io, &mut scene.player)?;
    visit_companion(io, &mut scene.companion)?;
    for c in scene.critters.iter_mut() {
        let ArrivalState { agent, arrived } = c;
        let Agent {
            position,
            velocity,
            yaw,
        } = agent;
        io.vec3(position, "critter.position")?;
        io.vec3(velocity, "critter.velocity")?;
        io.f32(yaw, "critter.yaw")?;
        io.bool(arrived, "critter.arrived")?;
    }
    visit_formation(io, &mut scene.ghosts)?;
    io.bool(&mut scene.player_firing, "player_firing")
}

fn visit_player<I: Io>(io: &mut I, p: &mut Player) -> Result<(), LoadError> {
    let Player {
        mover,
        yaw,
        facing,
        tilt,
    } = p;
    let MoverState {
        position,
        velocity,
        grounded,
        ground_normal,
        coyote_timer,
        jump_buffer_timer,
        jump_held,
        jump_latched,
        jump_rising,
        crouched,
        water_jump_timer,
    } = mover;
    io.vec3(position, "player.position")?;
    io.vec3(velocity, "player.velocity")?;
    io.vec3(ground_normal, "player.ground_normal")?;
    io.f32(coyote_timer, "player.coyote_timer")?;
    io.f32(jump_buffer_timer, "player.jump_buffer_timer")?;
    io.f32(water_jump_timer, "player.water_jump_timer")?;
    io.bool(grounded, "player.grounded")?;
    io.bool(jump_held, "player.jump_held")?;
    io.bool(jump_latched, "player.jump_latched")?;
    io.bool(jump_rising, "player.jump_rising")?;
    io.bool(crouched, "player.crouched")?;
    io.f32(yaw, "player.yaw")?;
    io.vec2(facing, "player.facing")?;
    let SlopeState {
        accepted_normal,
        tilt,
    } = tilt;
    io.vec3(accepted_normal, "player.tilt.accepted_normal")?;
    io.quat(tilt, "player.tilt")
}

fn visit_companion<I: Io>(
    io: &mut I,
    c: &mut FollowerState<DEFAULT_TRAIL_CAPACITY>,
) -> Result<(), LoadError> {
    let FollowerState {
        body,
        trail,
        target,
        last_crumb,
        leader,
    } = c;
    let FollowerBody {
        position,
        velocity,
        move_dir,
        speed_factor,
        yaw,
        target_yaw,
        neck_yaw,
        grounded,
        falling,
    } = body;
    io.vec3(position, "companion.position")?;
    io.vec3(velocity, "companion.velocity")?;
    io.vec2(move_dir, "companion.move_dir")?;
    io.f32(speed_factor, "companion.speed_factor")?;
    io.f32(yaw, "companion.yaw")?;
    io.f32(target_yaw, "companion.target_yaw")?;
    io.f32(neck_yaw, "companion.neck_yaw")?;
    io.bool(grounded, "companion.grounded")?;
    io.bool(falling, "companion.falling")?;
    visit_trail(io, trail)?;
    io.vec3(target, "companion.target")?;
    io.vec3(last_crumb, "companion.last_crumb")?;
    io.vec3(leader, "companion.leader")
}

/// The trail oldest → newest, padded to its capacity (its ring layout is not state: a rebuilt
/// trail holds the same crumbs in the same order, which is all its users and its hash see).
fn visit_trail<I: Io, const N: usize>(io: &mut I, trail: &mut Trail<N>) -> Result<(), LoadError> {
    let mut n = trail.len();
    io.count(&mut n, N, "companion.trail.len")?;
    let mut crumbs = [Vec3::ZERO; N];
    for (d, c) in crumbs.iter_mut().zip(trail.iter()) {
        *d = c;
    }
    for c in crumbs.iter_mut() {
        io.vec3(c, "companion.trail")?;
    }
    if I::READS {
        trail.clear();
        for &c in crumbs.iter().take(n) {
            trail
                .push_newest(c)
                .map_err(|_| LoadError::Field("companion.trail"))?;
        }
    }
    Ok(())
}

fn visit_formation<I: Io, const N: usize>(
    io: &mut I,
    g: &mut hopkit::ghost::GhostScene<N>,
) -> Result<(), LoadError> {
    let mut n = g.ghosts.len();
    io.count(&mut n, N, "ghosts.len")?;
    // The formation's size is fixed by the recording (checked by its identity): a state with
    // another size is impossible.
    if n != g.ghosts.len() {
        return Err(LoadError::Field("ghosts.len"));
    }
    for i in 0..N {
        let mut spare = Ghost::new(FlyerState::default(), 0);
        let ghost = match g.ghosts.get_mut(i) {
            Some(gh) => gh,
            None => &mut spare,
        };
        visit_ghost(io, ghost)?;
    }
    let mut t = g.targets.len();
    io.count(&mut t, MAX_TARGETS, "ghosts.targets.len")?;
    let mut targets = [Vec3::ZERO; MAX_TARGETS];
    for (d, s) in targets.iter_mut().zip(g.targets.iter()) {
        *d = *s;
    }
    for v in targets.iter_mut() {
        io.vec3(v, "ghosts.targets")?;
    }
    if I::READS {
        g.targets.clear();
        for &v in targets.iter().take(t) {
            g.targets
                .push(v)
                .map_err(|_| LoadError::Field("ghosts.targets"))?;
        }
    }
    io.u32(&mut g.tick, "ghosts.tick")
}

fn visit_ghost<I: Io>(io: &mut I, gh: &mut Ghost) -> Result<(), LoadError> {
    let Ghost {
        flyer,
        cursor,
        last_index,
        leader,
        lag,
        slot,
        firing,
        missile,
        missiles_fired,
        fire_ticks,
        skips,
    } = gh;
    let FlyerState {
        position,
        orientation,
        angular_velocity,
        speed,
    } = flyer;
    io.vec3(position, "ghost.position")?;
    io.quat(orientation, "ghost.orientation")?;
    io.vec3(angular_velocity, "ghost.angular_velocity")?;
    io.f32(speed, "ghost.speed")?;
    io.u32(cursor, "ghost.cursor")?;
    io.u32(last_index, "ghost.last_index")?;
    io.u16(leader, "ghost.leader")?;
    io.u16(lag, "ghost.lag")?;
    io.vec3(slot, "ghost.slot")?;
    io.bool(firing, "ghost.firing")?;
    io.bool(missile, "ghost.missile")?;
    io.u32(missiles_fired, "ghost.missiles_fired")?;
    io.u32(fire_ticks, "ghost.fire_ticks")?;
    io.u32(skips, "ghost.skips")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit_demo::scripted_raw;

    fn id() -> u64 {
        recording_id(hopkit_demo::demo_recording().ok().as_ref())
    }

    #[test]
    fn the_size_is_the_fields_counted() {
        let mut rig = DemoRig::new();
        // Fill the trail and the targets to capacity: the payload's fixed size covers them.
        for i in 0..DEFAULT_TRAIL_CAPACITY + 3 {
            let p = Vec3::new(i as f32, 0.0, 0.0);
            if rig.scene.companion.trail.push_newest(p).is_err() {
                break;
            }
        }
        assert!(rig.scene.companion.trail.is_full());
        let full = [Vec3::ZERO; MAX_TARGETS];
        rig.scene.ghosts.set_targets(&full);
        assert_eq!(rig.scene.ghosts.ghosts.len(), GHOSTS);
        let mut c = Counter(0);
        visit(&mut c, &mut rig).unwrap();
        assert_eq!(c.0, PAYLOAD_SIZE);
        // And the same for an empty rig (everything is padded).
        let mut c = Counter(0);
        visit(&mut c, &mut DemoRig::with_recording(None)).unwrap();
        assert_eq!(c.0, PAYLOAD_SIZE);
    }

    #[test]
    fn a_restored_state_continues_bit_for_bit() {
        let id = id();
        let mut a = DemoRig::new();
        let mut buf = [0u8; STATE_SIZE];
        // Save at several points of the scripted run (rest, running, strafe-hops both ways,
        // diagonal walk with fire), restore into a fresh rig, run on: the same hash every tick.
        for t in 0..3600u32 {
            if t % 450 == 7 {
                assert!(save(&a, id, &mut buf));
                let mut b = DemoRig::new();
                load(&mut b, id, &buf).unwrap();
                assert_eq!(b.state_hash(), a.state_hash(), "tick {t}");
                assert_eq!(
                    format!("{:?}", b.scene.player),
                    format!("{:?}", a.scene.player)
                );
                assert_eq!(
                    format!("{:?}", b.scene.ghosts),
                    format!("{:?}", a.scene.ghosts)
                );
                let mut a2 = a.clone();
                for u in t..t + 400 {
                    a2.tick(&scripted_raw(u));
                    b.tick(&scripted_raw(u));
                    assert_eq!(b.state_hash(), a2.state_hash(), "saved at {t}, tick {u}");
                }
                // The state saved again after the same ticks is the same bytes.
                let mut again = [0u8; STATE_SIZE];
                let mut after = [0u8; STATE_SIZE];
                assert!(save(&a2, id, &mut again));
                assert!(save(&b, id, &mut after));
                assert!(again == after);
            }
            a.tick(&scripted_raw(t));
        }
    }

    #[test]
    fn a_corrupt_or_foreign_state_is_refused_and_changes_nothing() {
        let id = id();
        let mut a = DemoRig::new();
        for t in 0..500 {
            a.tick(&scripted_raw(t));
        }
        let mut good = [0u8; STATE_SIZE];
        assert!(save(&a, id, &mut good));
        let mut b = DemoRig::new();
        let before = b.state_hash();
        let refused = |b: &mut DemoRig, bytes: &[u8]| load(b, id, bytes).unwrap_err();
        // Every single flipped bit is caught (by the checksum, or the header checks first).
        for i in (0..STATE_SIZE).step_by(7) {
            let mut bad = good;
            bad[i] ^= 1 << (i % 8);
            let e = refused(&mut b, &bad);
            assert!(i < 40 || e == LoadError::Checksum, "byte {i}: {e:?}");
            assert_eq!(b.state_hash(), before);
        }
        assert_eq!(refused(&mut b, &good[..100]), LoadError::Size { got: 100 });
        assert_eq!(refused(&mut b, &[]), LoadError::Size { got: 0 });
        let mut v = good;
        v[8] = 2;
        assert_eq!(refused(&mut b, &v), LoadError::Version { found: 2 });
        let mut m = good;
        m[0] = b'X';
        assert_eq!(refused(&mut b, &m), LoadError::Magic);
        let mut cv = good;
        cv[16] ^= 1;
        assert_eq!(refused(&mut b, &cv), LoadError::CoreVersion);
        assert_eq!(
            load(&mut b, id ^ 1, &good).unwrap_err(),
            LoadError::Recording
        );
        // A state with a valid checksum but an impossible field (crafted): refused by name.
        let mut craft = good;
        let at = HEADER_SIZE + 2 * MAX_BUTTONS + 4 + 12 + 12 + 12 + 12; // player.grounded
        craft[at] = 7;
        let sum = checksum(&craft[..HEADER_SIZE], &craft[HEADER_SIZE..]);
        craft[40..48].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(refused(&mut b, &craft), LoadError::Field("player.grounded"));
        let mut nan = good;
        let at = HEADER_SIZE + 2 * MAX_BUTTONS + 4; // player.position.x
        nan[at..at + 4].copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
        let sum = checksum(&nan[..HEADER_SIZE], &nan[HEADER_SIZE..]);
        nan[40..48].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(refused(&mut b, &nan), LoadError::Field("player.position"));
        assert_eq!(b.state_hash(), before);
        // The good one loads.
        load(&mut b, id, &good).unwrap();
        assert_eq!(b.state_hash(), a.state_hash());
        // Messages are one line each.
        for e in [LoadError::Checksum, LoadError::Version { found: 9 }] {
            assert!(!e.to_string().contains('\n'));
        }
    }
}
