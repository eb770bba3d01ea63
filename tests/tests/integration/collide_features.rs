//! Ladders among solids (issue 34 §3: "a ladder is a brush with a ladder flag"): a character
//! facing a `SolidFlags::LADDER` brush climbs it, over the top onto the ledge, pushes off it with
//! the jump key, and a ceiling over it stops the climb — Quake II's ladder test
//! (`PM_CheckSpecialMovement`: the box swept a unit along the view finds `CONTENTS_LADDER`) with
//! the climbing rules of the height-probe world (`movement::ladder`).

use hopkit::collide::{Brush, Solid, SolidFlags, Tracer, World};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};

/// A floor, a tower 128 high at x = 64..128 and a ladder on its west face (x = 60..64).
fn tower(ceiling: bool) -> World<8> {
    let mut w = World::<8>::new();
    let b = |a: (f32, f32, f32), c: (f32, f32, f32)| {
        Brush::aabb(Vec3::new(a.0, a.1, a.2), Vec3::new(c.0, c.1, c.2)).unwrap()
    };
    w.push(b((-512.0, -16.0, -512.0), (512.0, 0.0, 512.0)))
        .unwrap();
    w.push(b((64.0, 0.0, -64.0), (128.0, 128.0, 64.0))).unwrap();
    w.push(b((60.0, 0.0, -16.0), (64.0, 128.0, 16.0)).with_flags(SolidFlags::LADDER))
        .unwrap();
    if ceiling {
        // A slab over the ladder's foot, 100 up.
        w.push(b((0.0, 100.0, -64.0), (60.0, 108.0, 64.0))).unwrap();
    }
    w
}

const EAST: Vec2 = Vec2::new(1.0, 0.0);

fn run(
    world: &World<8>,
    ticks: u32,
    input: impl Fn(u32, &MoverState) -> MoveInput,
) -> Vec<MoverState> {
    let p = MoveParams::quakeworld();
    let solid = Solid(world);
    let mut s = MoverState::new(Vec3::new(0.0, 0.125, 0.0));
    let mut out = Vec::new();
    for t in 0..ticks {
        let i = input(t, &s);
        step(&mut s, &p, &i, &solid, 1.0 / 60.0);
        assert!(s.is_finite(), "tick {t}: {s:?}");
        out.push(s);
    }
    out
}

fn free(world: &World<8>, s: &MoverState) -> bool {
    let (mins, maxs) = (Vec3::new(-15.0, 0.0, -15.0), Vec3::new(15.0, 56.0, 15.0));
    !world.trace(s.position, s.position, mins, maxs).start_solid
}

#[test]
fn a_ladder_brush_is_climbed_over_the_top_onto_the_ledge() {
    let w = tower(false);
    let all = run(&w, 240, |_, _| {
        MoveInput::new(Vec2::new(1.0, 0.0), false, EAST)
    });
    // At the ladder: 1/8 unit in front of it, climbing at `ladder_climb_speed`.
    let climbing = all.iter().find(|s| s.velocity.y == 200.0).expect("climbs");
    assert_eq!(climbing.position.x, 60.0 - 15.0 - 0.125, "{climbing:?}");
    // Over the edge: standing on the tower's top (before walking off its far side).
    let on_top = all
        .iter()
        .any(|s| s.grounded && s.position.y == 128.125 && s.position.x > 64.0);
    assert!(on_top, "never stood on the tower");
    assert!(all.iter().all(|s| free(&w, s)));
}

#[test]
fn facing_away_from_the_ladder_is_no_ladder() {
    let w = tower(false);
    // Backing into it (S held, the view away from it): no climbing, stopped by it.
    let all = run(&w, 120, |_, _| {
        MoveInput::new(Vec2::new(-1.0, 0.0), false, Vec2::new(-1.0, 0.0))
    });
    assert!(all.iter().all(|s| s.position.y == 0.125 && s.grounded));
    assert_eq!(all.last().unwrap().position.x, 60.0 - 15.0 - 0.125);
}

#[test]
fn the_jump_pushes_off_a_ladder_brush() {
    let w = tower(false);
    let all = run(&w, 150, |t, _| {
        // Climb for 0.4 s, then jump once, letting go of W.
        if t < 24 {
            MoveInput::new(Vec2::new(1.0, 0.0), false, EAST)
        } else {
            MoveInput::new(Vec2::ZERO, t < 26, EAST)
        }
    });
    let pushed = &all[24];
    assert!(
        all[23].velocity.y == 200.0 && pushed.position.y > 30.0,
        "{:?}",
        all[23]
    );
    assert_eq!(
        pushed.velocity.x, -270.0,
        "pushed off along the ladder's normal: {pushed:?}"
    );
    let last = all.last().unwrap();
    assert!(
        last.grounded && last.position.y == 0.125 && last.position.x < 0.0,
        "{last:?}"
    );
    assert!(all.iter().all(|s| free(&w, s)));
}

#[test]
fn a_ceiling_over_a_ladder_stops_the_climb() {
    let w = tower(true);
    let all = run(&w, 180, |_, _| {
        MoveInput::new(Vec2::new(1.0, 0.0), false, EAST)
    });
    let top = all.iter().map(|s| s.position.y).fold(f32::MIN, f32::max);
    assert!(
        (top - (100.0 - 56.0 - 0.125)).abs() < 0.01,
        "head at the ceiling: {top}"
    );
    assert!(all.iter().all(|s| free(&w, s)));
}
