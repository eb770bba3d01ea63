//! The collision world and its box trace (issue 34 §2) from raw bytes: a skin, up to 24 brushes
//! (boxes, ramps, or up to 8 planes for `Brush::from_planes`, every coordinate raw `f32` bits, so
//! NaN, ±inf, subnormals, huge values and zero normals come as often as the fuzzer likes) pushed
//! into a `World<16>` (so it fills up), then traces and contents queries with raw inputs.
//! Checked: no panic; every brush built has a finite box and finite unit-or-zero planes; a push
//! either returns the next index or fails on a full world without changing it; every trace has
//! `0 ≤ fraction ≤ 1`, a finite end and plane, a solid index inside the world, an all-solid
//! trace has fraction 0 and ends at its cleaned start, and the same query gives the same answer.
//! Then a character is stepped through the world with raw params, state and input (the slide
//! move, issue 34 §4): never a non-finite state or event.
#![no_main]
use hopkit::collide::{Brush, Plane, Solid, Toward, Tracer, World};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
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
        f32::from_bits(u32::from_le_bytes([
            self.u8(),
            self.u8(),
            self.u8(),
            self.u8(),
        ]))
    }
    fn v3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let mut world = World::<16>::new().with_skin(b.f32());
    assert!(world.skin().is_finite() && world.skin() >= 0.0);
    let brushes = b.u8() % 25;
    for _ in 0..brushes {
        let kind = b.u8();
        let made = match kind % 3 {
            0 => Brush::aabb(b.v3(), b.v3()),
            1 => {
                let toward = [Toward::PlusX, Toward::MinusX, Toward::PlusZ, Toward::MinusZ]
                    [usize::from(kind >> 2) % 4];
                Brush::ramp(b.v3(), b.v3(), toward)
            }
            _ => {
                let mut planes = [Plane::NONE; 8];
                let n = usize::from(kind >> 2) % 9;
                for p in planes.iter_mut().take(n) {
                    *p = Plane {
                        normal: b.v3(),
                        dist: b.f32(),
                    };
                }
                Brush::from_planes(&planes[..n])
            }
        };
        let Ok(brush) = made else { continue };
        assert!(
            brush.mins().is_finite() && brush.maxs().is_finite(),
            "{brush:?}"
        );
        for p in brush.sides() {
            assert!(p.normal.is_finite() && p.dist.is_finite(), "{brush:?}");
        }
        let before = world.len();
        match world.push(brush) {
            Ok(i) => assert_eq!(usize::from(i), before),
            Err(_) => assert!(world.is_full() && world.len() == before),
        }
    }
    for _ in 0..4 {
        let (start, end, mins, maxs) = (b.v3(), b.v3(), b.v3(), b.v3());
        let t = world.trace(start, end, mins, maxs);
        assert!((0.0..=1.0).contains(&t.fraction), "{t:?}");
        assert!(
            t.end.is_finite() && t.plane.normal.is_finite() && t.plane.dist.is_finite(),
            "{t:?}"
        );
        assert!(
            t.solid.is_none_or(|s| usize::from(s) < world.len()),
            "{t:?}"
        );
        if t.all_solid {
            assert!(
                t.start_solid && t.fraction == 0.0 && t.solid.is_some(),
                "{t:?}"
            );
        }
        let again = world.trace(start, end, mins, maxs);
        assert_eq!(format!("{t:?}"), format!("{again:?}"));
        let c = world.contents(start, mins, maxs);
        assert!(
            c.solid.is_none_or(|s| usize::from(s) < world.len()),
            "{c:?}"
        );
    }
    // A character stepped through the world (`collide::Solid`: the slide move): a preset with
    // raw body, step and snap sizes, a raw start state and raw input. Never a non-finite state or
    // event.
    let mut params = [
        MoveParams::quake3(),
        MoveParams::source(),
        MoveParams::seed(),
    ][usize::from(b.u8()) % 3];
    params.body_radius = b.f32();
    params.step_up = b.f32();
    params.step_down = b.f32();
    params.ground_snap = b.f32();
    params.surf = b.u8() & 1 == 1;
    let mut s = MoverState::new(b.v3());
    s.velocity = b.v3();
    s.grounded = b.u8() & 1 == 1;
    s.crouched = b.u8() & 1 == 1;
    let solid = Solid(&world);
    for _ in 0..16 {
        let input = MoveInput::new(
            Vec2::new(b.f32(), b.f32()),
            b.u8() & 1 == 1,
            Vec2::new(b.f32(), b.f32()),
        )
        .with_crouch(b.u8() & 1 == 1);
        let ev = step(&mut s, &params, &input, &solid, 1.0 / 60.0);
        assert!(s.is_finite(), "{s:?}");
        assert!(
            ev.impact_speed.is_finite() && ev.carried_yaw.is_finite(),
            "{ev:?}"
        );
    }
});
