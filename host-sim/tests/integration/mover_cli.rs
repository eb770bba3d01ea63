//! `hopkit-sim scenario mover` end to end (issue 34 §3): a body among moving solids — carried
//! along a wall without being dragged by it, stopped by a lintel the platform passes under, lifted
//! and lowered by an elevator, crushed against a wall (the pusher blocked) — with finite CSV
//! values, never inside a solid, and the same rows on every run.

use hopkit_sim::scenario::mover::{CRUSH_WALL_X, LINTEL_X, RUNS, STOP, WALL_Z};

use super::cli::{assert_png, col, read_csv, sim};

#[test]
fn mover_carries_lifts_lowers_and_blocks_and_never_leaves_the_body_inside() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png) = (dir.path().join("m.csv"), dir.path().join("m.png"));
    let out = sim()
        .args(["scenario", "mover", "-q", "--csv"])
        .arg(&csv)
        .arg("--plot")
        .arg(&png)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("inside a solid after any tick: no"),
        "{stdout}"
    );
    assert_png(&png);
    // Finite, f32 shortest form, complete rows (read_csv checks it).
    let (header, rows) = read_csv(&csv);
    let [run, x, y, z, grounded, in_solid, blocked, error] = [
        "run",
        "x",
        "y",
        "z",
        "grounded",
        "in_solid",
        "blocked",
        "carry_error",
    ]
    .map(|c| col(&header, c));
    assert_eq!(rows.len(), RUNS.len() * 120, "four runs of 2 s at 60 Hz");
    assert!(rows.iter().all(|r| r[in_solid] == 0.0));
    let of = |k: usize| rows.iter().filter(move |r| r[run] == k as f64);
    // 0: along the wall, carried at the platform's speed, its side a skin from the wall.
    for r in of(0) {
        assert!(r[error] < 0.01, "{r:?}");
        assert!((r[z] - f64::from(WALL_Z - STOP)).abs() < 1e-3, "{r:?}");
        assert_eq!(r[grounded], 1.0);
    }
    assert!(of(0).next_back().unwrap()[x] > 399.0, "carried 2 s at 200");
    // 1: stopped by the lintel, never past it; on the floor at the end.
    assert!(of(1).all(|r| r[x] <= f64::from(LINTEL_X - STOP) + 1e-3));
    assert!(
        of(1)
            .filter(|r| (r[x] - f64::from(LINTEL_X - STOP)).abs() < 1e-3)
            .count()
            > 20
    );
    let last = of(1).next_back().unwrap();
    assert!(last[grounded] == 1.0 && last[y] < 0.2, "{last:?}");
    // 2: the elevator: grounded every tick, on its spot of the platform, up 150 and back.
    for r in of(2) {
        assert_eq!(r[grounded], 1.0, "{r:?}");
        assert!(r[error] < 0.01, "{r:?}");
    }
    let top = of(2).map(|r| r[y]).fold(0.0, f64::max);
    assert!((top - (16.125 + 150.0)).abs() < 0.05, "{top}");
    assert!((of(2).next_back().unwrap()[y] - 16.125).abs() < 0.01);
    // 3: pushed, then the pusher blocked: the body never through the wall.
    assert!(of(3).filter(|r| r[blocked] == 1.0).count() > 20);
    assert!(of(3).all(|r| r[x] <= f64::from(CRUSH_WALL_X - STOP) + 1e-3));
    assert!(of(3).any(|r| r[x] > 100.0), "pushed");
    // Deterministic: a second run writes the same file.
    let again = dir.path().join("again.csv");
    let out = sim()
        .args(["scenario", "mover", "-q", "--csv"])
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read(&csv).unwrap(), std::fs::read(&again).unwrap());
}
