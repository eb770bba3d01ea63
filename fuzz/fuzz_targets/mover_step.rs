//! The character step with every probe query of issue 26 answered by the fuzzer: a moving surface
//! (velocity, yaw rate, pivot), a ceiling, a ladder, water (a surface height per query), the
//! ground height and normal, then params, state and a few inputs and `dt`s — all raw `f32` bits,
//! so NaN, ±inf, subnormals and `f32::MAX` come as often as the fuzzer likes. Checked: no panic,
//! and after every step that ran a tick a finite state, velocity within `max_velocity` per axis
//! when that is a finite non-negative number, a water jump timer ≥ 0 and a finite carried yaw;
//! a rejected `dt` changes nothing.
#![no_main]
use core::cell::Cell;
use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, FrictionMath, MoveInput, MoveParams, MoverState};
use libfuzzer_sys::fuzz_target;

/// Reads `f32`s (4 bytes each) and bytes from the input; zeros once it runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn f32(&mut self) -> f32 {
        f32::from_bits(u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()]))
    }
    fn v3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }
}

/// A probe whose answers come from the input. `water` answers a different height per call (the
/// water jump asks ahead of the feet too), cycling through three.
struct Fuzzed {
    ground: Option<GroundHit>,
    motion: SurfaceMotion,
    clearance: f32,
    ladder: Option<Vec3>,
    water: [Option<f32>; 3],
    calls: Cell<usize>,
}

impl GroundProbe for Fuzzed {
    fn probe(&self, _p: Vec3) -> Option<GroundHit> {
        self.ground
    }
    fn surface_motion(&self, _p: Vec3) -> SurfaceMotion {
        self.motion
    }
    fn clearance(&self, _feet: Vec3) -> f32 {
        self.clearance
    }
    fn ladder(&self, _feet: Vec3) -> Option<Vec3> {
        self.ladder
    }
    fn water(&self, _feet: Vec3) -> Option<f32> {
        let i = self.calls.get();
        self.calls.set(i.wrapping_add(1));
        self.water[i % 3]
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let flags = b.u8();
    let mut p = match flags % 6 {
        0 => MoveParams::seed(),
        1 => MoveParams::quakeworld(),
        2 => MoveParams::quake3(),
        3 => MoveParams::source(),
        4 => MoveParams::cpma(),
        _ => MoveParams::seed(),
    };
    // A few params poisoned (the rest keep their preset), chosen by the next byte's bits.
    let which = b.u8();
    let fields: [&mut f32; 8] = [
        &mut p.max_velocity,
        &mut p.stand_height,
        &mut p.crouch_height,
        &mut p.ladder_climb_speed,
        &mut p.water_jump_time,
        &mut p.swim_speed_scale,
        &mut p.gravity,
        &mut p.max_speed,
    ];
    for (i, f) in fields.into_iter().enumerate() {
        if which & (1 << i) != 0 {
            *f = b.f32();
        }
    }
    p.crouch_jump = flags & 0x40 != 0;
    if flags & 0x10 != 0 {
        p.friction_math = FrictionMath::SqrtDivide;
    }
    let mut s = MoverState::new(b.v3());
    s.velocity = b.v3();
    s.grounded = flags & 0x80 != 0;
    s.crouched = flags & 0x20 != 0;
    s.water_jump_timer = b.f32();
    let q = b.u8();
    let probe = Fuzzed {
        ground: (q & 1 != 0).then(|| GroundHit {
            height: 0.0,
            normal: Vec3::UP,
        }),
        motion: SurfaceMotion {
            velocity: b.v3(),
            yaw_rate: b.f32(),
            pivot: b.v3(),
        },
        clearance: b.f32(),
        ladder: (q & 2 != 0).then(|| b.v3()),
        water: [
            (q & 4 != 0).then(|| b.f32()),
            (q & 8 != 0).then(|| b.f32()),
            (q & 16 != 0).then(|| b.f32()),
        ],
        calls: Cell::new(0),
    };
    let probe = Fuzzed {
        ground: probe.ground.map(|g| GroundHit {
            height: if q & 32 != 0 { b.f32() } else { g.height },
            normal: if q & 64 != 0 { b.v3() } else { g.normal },
        }),
        ..probe
    };
    for _ in 0..4 {
        let keys = b.u8();
        let input = MoveInput {
            wish: Vec2::new(b.f32(), b.f32()),
            jump: keys & 1 != 0,
            crouch: keys & 2 != 0,
            facing: Vec2::new(b.f32(), b.f32()),
            look_up: b.f32(),
        };
        let dt = if keys & 4 != 0 { b.f32() } else { 1.0 / 60.0 };
        let before = s.state_hash();
        let ev = step(&mut s, &p, &input, &probe, dt);
        if ev.rejected && ev.substeps == 0 && !(dt > 0.0) {
            assert_eq!(s.state_hash(), before, "a rejected dt changed the state");
            continue;
        }
        if ev.substeps == 0 {
            continue;
        }
        assert!(s.is_finite(), "{s:?}");
        assert!(s.water_jump_timer >= 0.0, "{s:?}");
        assert!(ev.carried_yaw.is_finite(), "{ev:?}");
        let m = p.max_velocity;
        if m.is_finite() && m >= 0.0 {
            let v = s.velocity;
            assert!(
                v.x.abs() <= m && v.y.abs() <= m && v.z.abs() <= m,
                "{v:?} over {m}"
            );
        }
    }
});
