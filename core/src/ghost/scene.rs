//! A self-contained ghost scene: ghosts, targets and a tick counter, stepped in fixed ticks and
//! hashed for golden tests and cross-platform checks.

use super::fleet::{self, FormationParams, SpawnArea};
use super::flyer::{BasisMemo, FlyerParams, FlyerState, TickConstsMemo};
use super::format::Recording;
use super::playback::{Ghost, Lead};
use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::Vec3;
use crate::rng::Pcg32;

/// Most targets a scene holds.
pub const MAX_TARGETS: usize = 8;

/// What happened in a scene tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SceneTick {
    /// Ghosts whose gun fired.
    pub firing: u32,
    /// Missiles launched.
    pub missiles: u32,
    /// Condition skips taken.
    pub skips: u32,
}

/// Up to `N` ghosts playing one recording against up to [`MAX_TARGETS`] targets.
///
/// Targets are plain positions the caller may move between ticks (the player, critters…); ghosts
/// turn Toward/Away the nearest one and avoid all of them. Ghosts do not avoid each other.
#[derive(Clone, Debug, PartialEq)]
pub struct GhostScene<const N: usize> {
    /// Tuning shared by every ghost.
    pub params: FlyerParams,
    /// Station keeping of wingmen (ghosts with a leader).
    pub formation: FormationParams,
    /// The ghosts.
    pub ghosts: heapless::Vec<Ghost, N>,
    /// Target positions.
    pub targets: heapless::Vec<Vec3, MAX_TARGETS>,
    /// Ticks stepped.
    pub tick: u32,
    /// Each ghost's body axes, computed once per tick (by its flight step) and reused by its next
    /// tick and its wingmen; keyed by the orientation bits, so edits to `ghosts` are safe.
    bases: [BasisMemo; N],
    /// The flight step's constants, keyed by the parameters and `dt` they come from, so edits to
    /// `params` are safe.
    consts: TickConstsMemo,
}

impl<const N: usize> GhostScene<N> {
    /// An empty scene.
    pub fn new(params: FlyerParams) -> Self {
        GhostScene {
            params,
            formation: FormationParams::default(),
            ghosts: heapless::Vec::new(),
            targets: heapless::Vec::new(),
            tick: 0,
            bases: [BasisMemo::new(); N],
            consts: TickConstsMemo::new(),
        }
    }

    /// Replace the targets (extra ones beyond [`MAX_TARGETS`] are ignored; returns how many were
    /// kept).
    pub fn set_targets(&mut self, targets: &[Vec3]) -> usize {
        self.targets.clear();
        for &t in targets.iter().take(MAX_TARGETS) {
            let _ = self.targets.push(t);
        }
        self.targets.len()
    }

    /// Advance every ghost one fixed tick of `1 / recording.tick_hz()` seconds.
    pub fn step(&mut self, recording: &Recording<'_>, ground: &impl GroundProbe) -> SceneTick {
        let mut out = SceneTick::default();
        let k = self.consts.get(&self.params, recording.tick_dt());
        for i in 0..self.ghosts.len() {
            // Ghosts (and their memos) before `i` have stepped this tick; a leader is followed
            // only from there.
            let Some((done, rest)) = self.ghosts.split_at_mut_checked(i) else {
                break;
            };
            let Some((done_axes, rest_axes)) = self.bases.split_at_mut_checked(i) else {
                break;
            };
            let (Some(g), Some(memo)) = (rest.first_mut(), rest_axes.first_mut()) else {
                break;
            };
            let leader = g.leader as usize;
            let axes = memo.axes_of(g.flyer.orientation);
            let t = match (done.get(leader), done_axes.get(leader)) {
                (Some(l), Some(lm)) => {
                    let lead = Lead {
                        flyer: &l.flyer,
                        // Stepped this tick: its memo holds the axes of its new orientation.
                        basis: lm.current(),
                        index: l.last_index,
                    };
                    g.follow_axes(
                        recording,
                        &self.params,
                        &self.formation,
                        &self.targets,
                        ground,
                        &lead,
                        axes,
                        &k,
                        true,
                    )
                }
                _ => g.step_axes(
                    recording,
                    &self.params,
                    &self.targets,
                    ground,
                    axes,
                    &k,
                    true,
                ),
            };
            memo.rekey(g.flyer.orientation);
            out.firing = out.firing.saturating_add(t.firing as u32);
            out.missiles = out.missiles.saturating_add(t.missile as u32);
            out.skips = out.skips.saturating_add(t.skipped as u32);
        }
        self.tick = self.tick.wrapping_add(1);
        out
    }

    /// A formation: `leader` and `N − 1` wingmen placed by `formation` (see
    /// [`fleet::spawn_formation`]), flying `recording` at `targets` (at most [`MAX_TARGETS`] are
    /// kept). The leader starts at a frame drawn from `Pcg32::seeded(seed)`; the wingmen's frames
    /// follow from the same generator.
    pub fn formation(
        params: FlyerParams,
        recording: &Recording<'_>,
        targets: &[Vec3],
        leader: FlyerState,
        formation: &FormationParams,
        seed: u64,
    ) -> Self {
        let mut scene = Self::new(params);
        scene.set_targets(targets);
        scene.formation = *formation;
        let mut rng = Pcg32::seeded(seed);
        let leader_cursor = rng.below(recording.frame_count());
        fleet::spawn_formation(
            &mut scene.ghosts,
            &mut rng,
            leader,
            leader_cursor,
            N.saturating_sub(1),
            formation,
            recording.frame_count(),
            recording.tick_hz(),
        );
        scene
    }

    /// A fleet of `N` ghosts spread over `area` with random headings and start frames from
    /// `Pcg32::seeded(seed)` (see [`fleet::spawn_fleet`]), flying `recording` at `targets` (at most
    /// [`MAX_TARGETS`] are kept) at the params' cruise speed.
    pub fn fleet(
        params: FlyerParams,
        recording: &Recording<'_>,
        targets: &[Vec3],
        area: &SpawnArea,
        seed: u64,
    ) -> Self {
        let mut scene = Self::new(params);
        scene.set_targets(targets);
        let mut rng = Pcg32::seeded(seed);
        fleet::spawn_fleet(
            &mut scene.ghosts,
            &mut rng,
            N,
            area,
            recording.frame_count(),
            params.cruise_speed,
        );
        scene
    }
}

impl<const N: usize> StateHash for GhostScene<N> {
    /// Feeds `tick`, the target count and positions, the ghost count and every ghost (params are
    /// configuration, not state, and are not hashed).
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.tick);
        h.write_u32(self.targets.len() as u32);
        for &t in self.targets.iter() {
            h.write_vec3(t);
        }
        h.write_u32(self.ghosts.len() as u32);
        for g in self.ghosts.iter() {
            g.hash_state(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ghost::fleet::SpawnArea;
    use crate::ground::FlatGround;

    const FLAT: FlatGround = FlatGround::new(0.0);

    /// The scene (axes memos, the nearest target looked for only when a frame needs it) against
    /// the public per-ghost steps (fresh axes, the nearest target every tick), bit for bit, for a
    /// formation and a fleet, with targets that move.
    #[test]
    fn scene_is_the_public_steps_bit_for_bit() {
        let bytes = crate::ghost::test_recording_bytes();
        let rec = Recording::parse(&bytes).unwrap();
        let params = FlyerParams::default();
        let leader = FlyerState::level(Vec3::new(-30.0, 14.0, 36.0), 0.0, params.cruise_speed);
        let area = SpawnArea {
            center: Vec3::new(0.0, 14.0, 0.0),
            half_extent: Vec3::new(40.0, 6.0, 40.0),
        };
        let targets = [Vec3::new(-20.0, 3.0, -20.0)];
        let mut scenes = [
            GhostScene::<4>::formation(
                params,
                &rec,
                &targets,
                leader,
                &FormationParams::default(),
                2,
            ),
            GhostScene::<4>::fleet(params, &rec, &targets, &area, 9),
        ];
        for scene in scenes.iter_mut() {
            let mut ghosts = scene.ghosts.clone();
            for t in 0..1800u32 {
                let f = t as f32 * 0.01;
                let targets = [
                    Vec3::new(20.0 * crate::math::scalar::sin(f), 2.0, -10.0),
                    Vec3::new(-15.0, 8.0, 30.0 * crate::math::scalar::cos(f)),
                ];
                let kept = if t % 300 < 150 { 1 } else { 2 };
                scene.set_targets(&targets[..kept]);
                let out = scene.step(&rec, &FLAT);
                let (mut firing, mut missiles, mut skips) = (0, 0, 0);
                for i in 0..ghosts.len() {
                    let (done, rest) = ghosts.split_at_mut(i);
                    let g = &mut rest[0];
                    let leader = g.leader as usize;
                    let tick = match done.get(leader) {
                        Some(l) => g.step_following(
                            &rec,
                            &scene.params,
                            &scene.formation,
                            &targets[..kept],
                            &FLAT,
                            &l.flyer,
                            l.last_index,
                        ),
                        None => g.step(&rec, &scene.params, &targets[..kept], &FLAT),
                    };
                    firing += tick.firing as u32;
                    missiles += tick.missile as u32;
                    skips += tick.skipped as u32;
                }
                assert_eq!(
                    (out.firing, out.missiles, out.skips),
                    (firing, missiles, skips)
                );
                for (a, b) in scene.ghosts.iter().zip(ghosts.iter()) {
                    let (mut ha, mut hb) = (StateHasher::new(), StateHasher::new());
                    a.hash_state(&mut ha);
                    b.hash_state(&mut hb);
                    assert_eq!(ha.finish(), hb.finish(), "tick {t}");
                }
            }
        }
    }
}
