//! The arena as one player sees it, as a [`DemoView`] the shared renderer draws: the handheld in a
//! link match, and the `hopkit-sim netplay --window` peer.

use crate::arena::{ArenaPlayer, ArenaWorld};
use crate::scene::{CRITTER_RING, RING};
use crate::view::{heading_and_speed, BodyView, CritterView, DemoView, GhostView};
use crate::DemoParams;
use hopkit::math::Vec2;

/// A player's body as the view draws it.
pub fn body(p: &ArenaPlayer) -> BodyView {
    BodyView {
        position: p.mover.position,
        heading: p.facing,
        speed: p.mover.planar_speed(),
    }
}

/// What player `seat` (0-based) sees of the arena: itself as the demo's player (the camera on
/// it), the companion and its crumbs, the critters and their targets, the level. The other
/// players are not in the view (a [`DemoView`] has one player): see [`with_others_as_ghosts`].
pub fn arena_view(world: &ArenaWorld, params: &DemoParams, seat: usize) -> DemoView {
    let n = world.player_count();
    let p = &world.player[seat.min(n - 1)];
    let c = &world.companion.body;
    let mut view = DemoView {
        tick: world.tick,
        arena_half_extent: Vec2::new(
            crate::level::ARENA_HALF_EXTENT,
            crate::level::ARENA_HALF_EXTENT,
        ),
        camera: p.mover.position.planar(),
        player: body(p),
        player_grounded: p.mover.grounded,
        player_tilt_deg: p.tilt.tilt_angle() * (180.0 / core::f32::consts::PI),
        ground_max_speed: params.movement.max_speed,
        companion: BodyView {
            position: c.position,
            heading: c.forward().planar(),
            speed: heading_and_speed(c.velocity.planar()).1,
        },
        companion_head_yaw: c.neck_yaw,
        ramps: crate::level::ramp_views(),
        #[cfg(feature = "level-features")]
        features: Some(crate::level::feature_view(world.tick)),
        ..DemoView::default()
    };
    for crumb in world.companion.trail.iter() {
        let _ = view.crumbs.push(crumb.planar());
    }
    for (i, (cr, o)) in world.critters.iter().zip(RING.iter()).enumerate() {
        let around = world.player[i % n].mover.position;
        let (heading, speed) = heading_and_speed(cr.agent.velocity.planar());
        let _ = view.critters.push(CritterView {
            body: BodyView {
                position: cr.agent.position,
                heading,
                speed,
            },
            target: Vec2::new(around.x + o.x * CRITTER_RING, around.z + o.y * CRITTER_RING),
            arrived: cr.arrived,
        });
    }
    view
}

/// [`arena_view`] with every other player drawn as one of the view's ghosts (the handheld's
/// 128×64 picture: a ghost is the demo's marker for another flyer).
pub fn with_others_as_ghosts(world: &ArenaWorld, params: &DemoParams, seat: usize) -> DemoView {
    let mut view = arena_view(world, params, seat);
    for (i, p) in world.player.iter().enumerate().take(world.player_count()) {
        if i != seat {
            let _ = view.ghosts.push(GhostView {
                body: body(p),
                firing: p.firing,
            });
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::scripted_input;

    #[test]
    fn the_view_follows_the_seat_and_shows_the_other_player() {
        let params = DemoParams::default();
        let mut w = ArenaWorld::new(2);
        for t in 0..200 {
            w.step(&params, &[scripted_input(t, 0), scripted_input(t, 1)]);
        }
        let v0 = with_others_as_ghosts(&w, &params, 0);
        let v1 = with_others_as_ghosts(&w, &params, 1);
        assert_eq!(v0.player.position, w.player[0].mover.position);
        assert_eq!(v1.player.position, w.player[1].mover.position);
        assert_eq!(v0.ghosts.len(), 1);
        assert_eq!(v0.ghosts[0].body.position, w.player[1].mover.position);
        assert_eq!(v1.ghosts[0].body.position, w.player[0].mover.position);
        assert_eq!(v0.critters.len(), crate::scene::CRITTERS);
        // Critter i arrives around player i % 2, on the arena's own ring.
        for (i, t) in v1.critters.iter().enumerate() {
            let p = w.player[i % 2].mover.position;
            assert_eq!(
                t.target,
                Vec2::new(
                    p.x + RING[i].x * CRITTER_RING,
                    p.z + RING[i].y * CRITTER_RING
                )
            );
        }
    }
}
