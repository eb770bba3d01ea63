//! Follower ticks per second: hopkit's follower and party against a straightforward std/glam port of
//! the seed (`Queue<Vector3>` → `VecDeque<Vec3>`, `f32` std maths, glam quaternions).
//!
//! Run briefly: `cargo bench -p hopkit-benches --bench follower -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hopkit::follower::{self, party, FollowerParams, FollowerState, Party, PartyParams};
use hopkit::ground::FlatGround;
use hopkit::math::Vec3;

const TICKS: usize = 1000;
const DT: f32 = 0.02;

/// The leader: 6 units/s along a wave with a pause, repeated; precomputed.
fn leader_path() -> Vec<Vec3> {
    (0..TICKS)
        .map(|i| {
            let t = i as f32 * DT;
            let s = 6.0 * if t < 12.0 { t } else { 12.0 };
            Vec3::new(8.0 * (s / 10.0).sin(), 0.0, -s)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Baseline: the seed's C#, ported the obvious way with std + glam.
// ---------------------------------------------------------------------------------------------

mod baseline {
    use glam::{Quat, Vec3};
    use std::collections::VecDeque;

    pub struct Seed {
        pub pos: Vec3,
        pub vel: Vec3,
        pub rot: Quat,
        target_rot: Quat,
        target: Vec3,
        prev_player: Vec3,
        move_forward: Vec3,
        factor: f32,
        neck: f32,
        pub falling: bool,
        history: VecDeque<Vec3>,
    }

    impl Seed {
        pub fn new(pos: Vec3, player: Vec3) -> Self {
            let mut history = VecDeque::with_capacity(16);
            history.push_back(player);
            Seed {
                pos,
                vel: Vec3::ZERO,
                rot: Quat::IDENTITY,
                target_rot: Quat::IDENTITY,
                target: pos,
                prev_player: player,
                move_forward: Vec3::ZERO,
                factor: 0.0,
                neck: 0.0,
                falling: false,
                history,
            }
        }

        fn update_factor(&mut self, t: f32) {
            if self.factor < t {
                self.factor += 0.02;
            } else if self.factor > t {
                self.factor -= 0.02;
            }
            self.factor = self.factor.clamp(0.0, 2.0);
        }

        fn reduce_speed(&mut self) {
            self.vel.x *= 0.9;
            self.vel.z *= 0.9;
            if self.factor > 0.3 {
                self.factor = 0.3;
            }
            self.update_factor(0.0);
        }

        fn do_move(&mut self, player: Vec3) {
            if self.pos.distance(player) < 3.5 {
                self.reduce_speed();
                return;
            }
            if self.pos.distance(self.target) < 2.0 {
                if self.history.len() <= 3 {
                    self.reduce_speed();
                    return;
                }
                self.target = self.history.pop_front().unwrap_or(self.target);
            }
            let n = self.history.len();
            let mut t = if n >= 5 { 1.6 } else { 1.0 };
            if n <= 2 {
                t = 0.5;
            }
            self.update_factor(t);
            let dir = (self.target - self.pos).normalize_or_zero();
            self.move_forward = self.move_forward.lerp(dir, 0.15);
            let speed = 400.0 * self.factor * 0.02;
            self.vel = Vec3::new(
                self.move_forward.x * speed,
                self.vel.y,
                self.move_forward.z * speed,
            );
            let flat = Vec3::new(self.move_forward.x, 0.0, self.move_forward.z);
            if flat.length_squared() > 1e-12 {
                self.target_rot = Quat::from_rotation_y((-flat.x).atan2(-flat.z));
            }
        }

        pub fn tick(&mut self, player: Vec3, ground_y: f32, dt: f32) {
            // UpdateTargetPos
            if player.distance(self.prev_player) > 1.5 {
                self.prev_player = player;
                if self.history.len() >= 16 {
                    if let Some(t) = self.history.pop_front() {
                        self.target = t;
                        self.pos = t;
                    }
                }
                self.history.push_back(player);
            }
            // ShortCutTargetPos
            if self.pos.distance(player) < 7.0 && self.history.len() >= 4 {
                while self.history.len() > 4 {
                    self.history.pop_front();
                }
                self.target = *self.history.front().unwrap_or(&self.target);
            }
            self.do_move(player);
            // Rigidbody: gravity + flat ground.
            self.vel.y -= 9.81 * dt;
            self.pos += self.vel * dt;
            if self.pos.y <= ground_y {
                self.pos.y = ground_y;
                self.vel.y = self.vel.y.max(0.0);
            }
            // FallAnimation
            self.falling = self.vel.y < -4.0 || (self.pos.y - ground_y > 1.0 && self.vel.y < -0.5);
            // Turn
            self.rot = self
                .rot
                .rotate_towards(self.target_rot, 500f32.to_radians() * dt);
            // TurnNeck
            let target = if self.factor > 0.3 {
                0.0
            } else {
                let fwd = self.rot * Vec3::NEG_Z;
                let d = player - self.pos;
                let a = fwd.angle_between(d).to_degrees();
                let a = if fwd.cross(d).y < 0.0 { -a } else { a };
                a.clamp(-50.0, 50.0)
            };
            self.neck += (target - self.neck) * 3.0 * dt;
        }
    }
}

fn bench_single(c: &mut Criterion) {
    let path = leader_path();
    let glam_path: Vec<glam::Vec3> = path
        .iter()
        .map(|p| glam::Vec3::new(p.x, p.y, p.z))
        .collect();
    let mut g = c.benchmark_group("follower_1000_ticks");
    g.throughput(Throughput::Elements(TICKS as u64));

    for (name, p) in [
        ("hopkit_default", FollowerParams::seed()),
        ("hopkit_seed_exact", FollowerParams::seed_exact()),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s: FollowerState =
                    FollowerState::new(Vec3::new(0.0, 0.0, 3.0), path[0], 0.0);
                for &l in &path {
                    black_box(follower::step(
                        &mut s,
                        black_box(&p),
                        l,
                        &FlatGround::new(0.0),
                        DT,
                    ));
                }
                black_box(s)
            })
        });
    }

    g.bench_function("baseline_std_glam_vecdeque", |b| {
        b.iter(|| {
            let mut s = baseline::Seed::new(glam::Vec3::new(0.0, 0.0, 3.0), glam_path[0]);
            for &l in &glam_path {
                s.tick(black_box(l), 0.0, DT);
            }
            black_box(s.pos)
        })
    });
    g.finish();
}

fn bench_party(c: &mut Criterion) {
    let path = leader_path();
    let glam_path: Vec<glam::Vec3> = path
        .iter()
        .map(|p| glam::Vec3::new(p.x, p.y, p.z))
        .collect();
    let mut g = c.benchmark_group("party4_1000_ticks");
    // Elements = member ticks.
    g.throughput(Throughput::Elements(4 * TICKS as u64));
    let pp = PartyParams::seed();
    g.bench_function("hopkit_party_4x32", |b| {
        b.iter(|| {
            let mut party: Party<4, 32> = Party::new(path[0]);
            for k in 0..4 {
                let _ = party.add_member(Vec3::new(0.0, 0.0, 2.5 * (k + 1) as f32), 0.0);
            }
            for &l in &path {
                black_box(party::step(
                    &mut party,
                    black_box(&pp),
                    l,
                    &FlatGround::new(0.0),
                    DT,
                ));
            }
            black_box(party)
        })
    });
    // Baseline party: four seed followers, each following the one ahead (RPG Maker style).
    g.bench_function("baseline_chain_of_4_seed_followers", |b| {
        b.iter(|| {
            let mut chain: Vec<baseline::Seed> = (0..4)
                .map(|k| {
                    let ahead = glam::Vec3::new(0.0, 0.0, 2.5 * k as f32);
                    baseline::Seed::new(glam::Vec3::new(0.0, 0.0, 2.5 * (k + 1) as f32), ahead)
                })
                .collect();
            for &l in &glam_path {
                let mut ahead = black_box(l);
                for s in chain.iter_mut() {
                    s.tick(ahead, 0.0, DT);
                    ahead = s.pos;
                }
            }
            black_box(chain.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench_single, bench_party);
criterion_main!(benches);
