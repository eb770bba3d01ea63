//! The solid level's blocks seen from above ([`crate::solid_level::BLOCKS`], constants), drawn
//! from display points only (`to_point`: the renderer's world → display map), so both renderers
//! draw them with this one function and the same pixels (tested):
//! - walls and crates: filled;
//! - the tower: an outline with a second one 2 px inside (a raised block), as on the full level;
//! - the ladder: a small box on the tower's face;
//! - the stairs: an outline with a line across every other step;
//! - the surf ramp: an outline with lines along it every 3 px (towards its ridge);
//!
//! (The view is not rotated, so those lines are rows and columns of pixels: each is one
//! `fill_solid`, byte-wise in the frame buffer, not a line drawn pixel by pixel.)
//! - the corridor: its walls filled, its roof dotted;
//! - the pool: an outline filled with dotted waves.
//!
//! The floor slabs are the background; the walkable ramps are [`crate::DemoView::ramps`], drawn
//! by their own routine. A block wholly outside `seen` ([`Seen`]) is skipped.

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use hopkit::math::{order_key, Vec2};

use super::fixed::Known;
use super::shapes::{rect_between, stroke_rect};
use crate::level::{Zone, POOL};
use crate::solid_level::{BlockKind, BLOCKS, STAIR_RUN, STAIR_STEPS};

/// A zone's `[min.x, max.x, min.y, max.y]` as [`order_key`]s: the in-view test compares these,
/// not the floats, whose compares are library calls on the Cortex-M0+ (the same answers: bounds
/// are never NaN).
const fn zone_keys(z: &Zone) -> [i32; 4] {
    [
        order_key(z.min.x),
        order_key(z.max.x),
        order_key(z.min.y),
        order_key(z.max.y),
    ]
}

/// [`zone_keys`] of every block of [`BLOCKS`], then of the pool, at compile time.
static KEYS: [[i32; 4]; BLOCKS.len() + 1] = {
    let mut k = [[0; 4]; BLOCKS.len() + 1];
    let mut i = 0;
    while i < BLOCKS.len() {
        k[i] = zone_keys(&BLOCKS[i].zone());
        i += 1;
    }
    k[BLOCKS.len()] = zone_keys(&POOL);
    k
};

/// The corners `[min, max]` of every block of [`BLOCKS`], then of the pool, with their
/// fixed-point coordinates, at compile time ([`Known`]: the fixed-point renderer maps them without
/// converting them from `f32` every frame).
static CORNERS: [[Known; 2]; BLOCKS.len() + 1] = {
    let mut c = [[Known::new(Vec2::ZERO); 2]; BLOCKS.len() + 1];
    let mut i = 0;
    while i < BLOCKS.len() {
        let z = BLOCKS[i].zone();
        c[i] = [Known::new(z.min), Known::new(z.max)];
        i += 1;
    }
    c[BLOCKS.len()] = [Known::new(POOL.min), Known::new(POOL.max)];
    c
};

/// The index in [`BLOCKS`] of the stairs (there is one: checked at compile time).
const STAIRS_BLOCK: usize = {
    let mut found = None;
    let mut i = 0;
    while i < BLOCKS.len() {
        if matches!(BLOCKS[i].kind, BlockKind::Stairs) {
            assert!(found.is_none(), "one staircase");
            found = Some(i);
        }
        i += 1;
    }
    match found {
        Some(i) => i,
        None => panic!("one staircase"),
    }
};

/// The lines across the stairs, one every other step: step `i`'s near end `(min.x, min.z +
/// STAIR_RUN·i)` for `i` in `2, 4, …` below [`STAIR_STEPS`] (compile-time `f32`, the same
/// arithmetic as at run time: no FMA).
static STAIR_LINES: [Known; (STAIR_STEPS as usize - 1) / 2] = {
    let b = &BLOCKS[STAIRS_BLOCK];
    let mut l = [Known::new(Vec2::ZERO); (STAIR_STEPS as usize - 1) / 2];
    let mut k = 0;
    while k < l.len() {
        let step = 2 * (k as u16 + 1);
        l[k] = Known::new(Vec2::new(b.min.x, b.min.z + STAIR_RUN * step as f32));
        k += 1;
    }
    l
};

/// What the playfield shows, for the in-view test of the blocks: a superset is fine (a block
/// outside what the display shows draws no pixel of it; clipped), a subset is not.
pub(crate) enum Seen {
    /// [`crate::render::Viewport::seen`]: tested on the [`order_key`]s of the bounds.
    Zone(Zone),
    /// `[min.x, max.x, min.z, max.z]` as Q16.16 world coordinates (a superset of the `Zone`
    /// form's, [`super::fixed::Known`]'s coordinates compared: integer compares, and no `f32`
    /// division to find it).
    Q16([i32; 4]),
}

/// Draw the solid level's blocks (see the module docs). `to_point` maps a point of
/// [`CORNERS`] or [`STAIR_LINES`] to the display (`Known::p`, its world `(x, z)`); it must map
/// each axis on its own (`to_point((x, z))` is `Some((px(x), py(z)))` when both are `Some`), as
/// both renderers' do: a stair line's far end is taken from a corner already mapped.
pub(crate) fn draw_solids<D: DrawTarget<Color = BinaryColor>>(
    seen: &Seen,
    to_point: impl Fn(&Known) -> Option<Point>,
    target: &mut D,
) -> Result<(), D::Error> {
    // Wholly outside `seen`: on the [`order_key`]s, the same answers as the float compares, as
    // neither side is a NaN (the blocks are constants, `Viewport::seen` is finite); or on the
    // corners' Q16 values (a corner without them is never apart).
    let (keys, [sx0, sx1, sz0, sz1]) = match seen {
        Seen::Zone(z) => (true, zone_keys(z)),
        Seen::Q16(q) => (false, *q),
    };
    let apart = |i: usize| {
        let [x0, x1, z0, z1] = if keys {
            KEYS[i]
        } else {
            let [a, b] = &CORNERS[i];
            match (a.q(), b.q()) {
                (Some((x0, z0)), Some((x1, z1))) => [x0, x1, z0, z1],
                _ => return false,
            }
        };
        !(x1 >= sx0 && x0 <= sx1 && z1 >= sz0 && z0 <= sz1)
    };
    let corners = |i: usize| {
        let [a, b] = &CORNERS[i];
        Some((to_point(a)?, to_point(b)?))
    };
    let dot = |p: Point, target: &mut D| {
        target.fill_solid(&Rectangle::new(p, Size::new(1, 1)), BinaryColor::On)
    };
    // The pool's outline and waves, as field.rs draws the demo level's pool. Written twice on
    // purpose: one shared function (tried) stops the frame draw being inlined in the RP2040 image,
    // whose worst frame on the plain level then measured 353,757 cycles, over its 350,000 limit.
    if let Some((a, b)) = (!apart(BLOCKS.len()))
        .then(|| corners(BLOCKS.len()))
        .flatten()
    {
        let r = rect_between(a, b);
        stroke_rect(r, target)?;
        let (tl, br) = (r.top_left, a.component_max(b));
        let mut y = tl.y + 2;
        let mut shift = 0;
        while y < br.y - 1 {
            let mut x = tl.x + 2 + shift;
            while x < br.x - 1 {
                target.fill_solid(
                    &Rectangle::new(Point::new(x, y), Size::new(2, 1)),
                    BinaryColor::On,
                )?;
                x += 5;
            }
            y += 3;
            shift = 2 - shift;
        }
    }
    for (i, block) in BLOCKS.iter().enumerate() {
        // Floors and ramps draw nothing here: skipped before their corners are mapped (two
        // `to_point`s each, seven of the twenty blocks).
        if matches!(block.kind, BlockKind::Floor | BlockKind::Ramp(_)) {
            continue;
        }
        if apart(i) {
            continue;
        }
        let Some((a, b)) = corners(i) else {
            continue;
        };
        let r = rect_between(a, b);
        let (tl, br) = (r.top_left, a.component_max(b));
        match block.kind {
            BlockKind::Floor | BlockKind::Ramp(_) => {}
            BlockKind::Wall | BlockKind::CorridorWall => {
                target.fill_solid(&r, BinaryColor::On)?;
            }
            BlockKind::Tower => {
                stroke_rect(r, target)?;
                if br.x - tl.x > 5 && br.y - tl.y > 5 {
                    stroke_rect(
                        rect_between(tl + Point::new(2, 2), br - Point::new(2, 2)),
                        target,
                    )?;
                }
            }
            BlockKind::Ladder => {
                stroke_rect(rect_between(tl - Point::new(1, 0), br), target)?;
            }
            BlockKind::Stairs => {
                stroke_rect(r, target)?;
                // A line across every other step (the steps run along +Z): this is
                // `BLOCKS[STAIRS_BLOCK]`, the one staircase.
                for line in STAIR_LINES.iter() {
                    let Some(p) = to_point(line) else {
                        continue;
                    };
                    // The far end, `to_point((max.x, z))`: the corner `b`'s column (the same
                    // `max.x`) on `p`'s row (the same z), as `to_point` maps each axis alone.
                    let q = Point::new(b.x, p.y);
                    // The same z on both ends: a row of pixels, one byte-wise fill.
                    target.fill_solid(&rect_between(p, q), BinaryColor::On)?;
                }
            }
            BlockKind::Surf => {
                stroke_rect(r, target)?;
                // Lines along the ramp (Z), every 3 px from its foot towards its ridge.
                let mut x = tl.x + 2;
                while x < br.x {
                    let line = rect_between(Point::new(x, tl.y), Point::new(x, br.y));
                    target.fill_solid(&line, BinaryColor::On)?;
                    x += 3;
                }
            }
            BlockKind::Roof => {
                // Dotted: every 3rd pixel of every 3rd row.
                let mut y = tl.y;
                while y <= br.y {
                    let mut x = tl.x + (y - tl.y) % 2;
                    while x <= br.x {
                        dot(Point::new(x, y), target)?;
                        x += 3;
                    }
                    y += 3;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::DemoScene;
    use hopkit::math::Vec3;
    use hopkit::movement::MoverState;

    /// [`order_key`] orders like the floats (the in-view test's compares), `−0.0` and `+0.0` alike.
    #[test]
    fn keys_order_like_the_floats() {
        let mut v = std::vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE
        ];
        v.extend(
            BLOCKS
                .iter()
                .flat_map(|b| [b.min.x, b.max.x, b.min.z, b.max.z]),
        );
        v.extend((-400..=400).map(|i| i as f32 * 0.173));
        for &a in &v {
            for &b in &v {
                assert_eq!(order_key(a) <= order_key(b), a <= b, "{a} <= {b}");
                assert_eq!(order_key(a) >= order_key(b), a >= b, "{a} >= {b}");
            }
        }
    }

    /// Every corner and stair line is mapped in integers by the fixed-point renderer, and the
    /// stair lines are the points the stairs' steps give at run time.
    #[test]
    fn the_tables_are_the_level() {
        for (i, [a, b]) in CORNERS.iter().enumerate() {
            let z = BLOCKS.get(i).map_or(POOL, |b| b.zone());
            assert!(a.p == z.min && b.p == z.max, "{i}");
            assert!(a.is_near() && b.is_near(), "{i}");
        }
        let stairs = &BLOCKS[STAIRS_BLOCK];
        assert_eq!(stairs.kind, BlockKind::Stairs);
        let lines: std::vec::Vec<Vec2> = (2..STAIR_STEPS)
            .step_by(2)
            .map(|i| Vec2::new(stairs.min.x, stairs.min.z + STAIR_RUN * f32::from(i)))
            .collect();
        assert_eq!(lines.len(), STAIR_LINES.len());
        for (l, p) in STAIR_LINES.iter().zip(lines) {
            assert!(l.p == p && l.is_near(), "{p:?}");
        }
    }

    /// The frame both renderers draw with the camera on each block of the solid level: the same
    /// pixels, and some of them are the solids'.
    #[test]
    fn solids_are_drawn_and_match_the_f32_reference() {
        use crate::framebuffer::FrameBuffer;
        let mut on_screen = 0;
        let world =
            std::boxed::Box::leak(std::boxed::Box::new(crate::solid_level::SolidWorld::new()));
        crate::solid_level::build(world);
        let world: &'static crate::solid_level::SolidWorld = world;
        for block in BLOCKS.iter() {
            let c = (block.min + block.max) * 0.5;
            let mut s = DemoScene::new(None);
            s.level = Level::Solid;
            s.solids = Some(world);
            s.player.mover = MoverState::new(Vec3::new(c.x, 0.0, c.z + 3.0));
            let mut view = s.view();
            assert!(view.solids);
            let mut fixed = FrameBuffer::new();
            super::super::draw_frame(&view, &mut fixed).unwrap();
            let mut reference = FrameBuffer::new();
            super::super::reference::draw_frame(&view, &mut reference).unwrap();
            assert!(fixed == reference, "{:?} at {c:?}", block.kind);
            view.solids = false;
            let mut without = FrameBuffer::new();
            super::super::draw_frame(&view, &mut without).unwrap();
            on_screen += u32::from(fixed != without);
        }
        assert!(on_screen >= 12, "the solids changed {on_screen} frames");
    }
}
