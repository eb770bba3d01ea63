//! Ghost benchmarks: ghost ticks per second (1 and 256 ghosts) and decoder throughput.
//!
//! Short runs: `cargo bench -p hopkit-benches --bench ghost -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hopkit::ghost::{decode, FrameVec, Recording};
use hopkit_demo::level::DemoGround;
use hopkit_demo::DEMO_RECORDING;
use std::hint::black_box;

fn ghost_ticks(c: &mut Criterion) {
    let rec = Recording::parse(DEMO_RECORDING).expect("demo recording");
    let mut group = c.benchmark_group("ghost_tick");

    group.throughput(Throughput::Elements(1));
    let mut one = hopkit_demo::pilot::formation::<1>(&rec);
    group.bench_function("1_ghost", |b| {
        b.iter(|| black_box(one.step(black_box(&rec), &DemoGround)))
    });

    group.throughput(Throughput::Elements(4));
    let mut four = hopkit_demo::pilot::formation::<4>(&rec);
    group.bench_function("4_ghost_formation", |b| {
        b.iter(|| black_box(four.step(black_box(&rec), &DemoGround)))
    });

    group.throughput(Throughput::Elements(256));
    let mut many = Box::new(hopkit_demo::pilot::fleet::<256>(&rec, 7));
    group.bench_function("256_ghosts", |b| {
        b.iter(|| black_box(many.step(black_box(&rec), &DemoGround)))
    });
    group.finish();
}

fn decoder(c: &mut Criterion) {
    let mut group = c.benchmark_group("ghost_decode");
    group.throughput(Throughput::Bytes(DEMO_RECORDING.len() as u64));
    group.bench_function("parse_validate_crc", |b| {
        b.iter(|| black_box(Recording::parse(black_box(DEMO_RECORDING)).is_ok()))
    });
    let mut out = Box::new(FrameVec::<2048>::new());
    group.bench_function("decode_all_frames", |b| {
        b.iter(|| black_box(decode(black_box(DEMO_RECORDING), &mut out).is_ok()))
    });
    group.finish();
}

criterion_group!(benches, ghost_ticks, decoder);
criterion_main!(benches);
