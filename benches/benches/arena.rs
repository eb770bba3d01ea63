//! Rollback costs of the netplay arena (`hopkit_demo::arena`) on the host: a save as the GGRS
//! glue does it (copy the world into a ring of saved states + its state hash, GGRS's checksum),
//! a load (copy back), the hash alone, one tick, and one 8-frame rollback (load + 8 ticks) of the
//! 2-player world. The world's size is printed first.
//!
//! Run briefly: `cargo bench -p hopkit-benches --bench arena -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hopkit::hash::StateHash;
use hopkit_demo::arena::{scripted_input, ArenaInput, ArenaWorld};
use hopkit_demo::DemoParams;

/// A mid-game world: 2 players 600 ticks into the script (running, strafe-hopping).
fn mid_game() -> ArenaWorld {
    let params = DemoParams::default();
    let mut w = ArenaWorld::new(2);
    for t in 0..600 {
        w.step(&params, &[scripted_input(t, 0), scripted_input(t, 1)]);
    }
    w
}

fn arena(c: &mut Criterion) {
    println!(
        "arena world: {} bytes (2–4 players, companion, 4 critters)",
        std::mem::size_of::<ArenaWorld>()
    );
    let params = DemoParams::default();
    let world = mid_game();
    // GGRS keeps max-prediction + 1 saved states.
    let mut ring = [world; 9];
    let mut g = c.benchmark_group("arena");
    let mut slot = 0usize;
    g.bench_function("save (copy + state hash)", |b| {
        b.iter(|| {
            slot = (slot + 1) % ring.len();
            ring[slot] = *black_box(&world);
            black_box(ring[slot].state_hash())
        })
    });
    g.bench_function("load (copy)", |b| {
        b.iter(|| {
            slot = (slot + 1) % ring.len();
            black_box(*black_box(&ring[slot]))
        })
    });
    g.bench_function("state hash", |b| b.iter(|| black_box(&world).state_hash()));
    let inputs: Vec<[ArenaInput; 2]> = (600..608)
        .map(|t| [scripted_input(t, 0), scripted_input(t, 1)])
        .collect();
    g.bench_function("tick (2 players)", |b| {
        b.iter(|| {
            let mut w = *black_box(&world);
            w.step(&params, black_box(&inputs[0]));
            w
        })
    });
    g.bench_function("rollback 8 frames (load + 8 ticks, 2 players)", |b| {
        b.iter(|| {
            let mut w = *black_box(&ring[3]);
            for i in inputs.iter() {
                w.step(&params, black_box(i));
            }
            w
        })
    });
    g.finish();
}

criterion_group!(benches, arena);
criterion_main!(benches);
