//! Golden state hashes of the scripted demo for the scalar backend this build uses. The `libm`
//! build's are the cross-platform reference (tests/tests/integration/demo_golden.rs holds them too); the
//! `micromath` build computes different bits but must compute the *same* bits everywhere:
//! scripts/ci-cpus.sh compares these values on x86_64 (this test, `cargo test -p hopkit-demo
//! --features micromath --test backend_golden`), Cortex-M4F and Cortex-M0
//! under QEMU and wasm32 under wasmi.

/// (ticks, libm hash, micromath hash).
pub const GOLDEN: [(u32, u64, u64); 3] = [
    (0, 0xd6728fb7d36c3b1c, 0xd6728fb7d36c3b1c),
    (600, 0xd625d6ddacdc8e4f, MICROMATH_600),
    (3600, 0xcdc5694b9a4a426f, MICROMATH_3600),
];
const MICROMATH_600: u64 = 0x7414_80ac_d822_6187;
const MICROMATH_3600: u64 = 0x13fe_e089_4699_510f;

#[test]
fn scripted_demo_matches_the_backends_golden_hashes() {
    for (ticks, libm, micromath) in GOLDEN {
        let got = hopkit_demo::scripted_hash(ticks);
        let want = if cfg!(feature = "micromath") {
            micromath
        } else {
            libm
        };
        println!("{} ticks: 0x{got:016x}", ticks);
        assert_eq!(got, want, "{ticks} ticks: got {got:#018x}");
    }
}

/// One character in both friction forms (`hopkit_demo::forms`, the form the demo does not use
/// included): (libm hash, micromath hash). The QEMU images print the same `friction-forms-hash`
/// line, compared with the host's by scripts/ci-cross.sh.
pub const FRICTION_FORMS: (u64, u64) = (0xcdfd_038e_43cf_48d0, MICROMATH_FORMS);
const MICROMATH_FORMS: u64 = 0x0216_ebbf_fa87_c342;

#[test]
fn friction_forms_match_the_backends_golden_hash() {
    let got = hopkit_demo::forms::friction_forms_hash();
    let want = if cfg!(feature = "micromath") {
        FRICTION_FORMS.1
    } else {
        FRICTION_FORMS.0
    };
    println!("friction forms: 0x{got:016x}");
    assert_eq!(got, want, "got {got:#018x}");
}

/// Every collision scenario, every tick (`hopkit_demo::collision::collision_hash`, issue 34 §4):
/// (libm hash, micromath hash). The libm value is the golden of
/// `tests/tests/integration/collide_scenarios.rs`; the QEMU images print the same
/// `collision-hash` line, compared with the host's by scripts/ci-cross.sh and, for both
/// backends, scripts/ci-cpus.sh.
pub const COLLISION: (u64, u64) = (0x55ea_cb9d_392b_3cb5, MICROMATH_COLLISION);
const MICROMATH_COLLISION: u64 = 0xa29b_de0e_6956_f7eb;

#[test]
fn collision_scenarios_match_the_backends_golden_hash() {
    let got = hopkit_demo::collision::collision_hash();
    let want = if cfg!(feature = "micromath") {
        COLLISION.1
    } else {
        COLLISION.0
    };
    println!("collision: 0x{got:016x}");
    assert_eq!(got, want, "got {got:#018x}");
}

/// The solid level's scripted run (`hopkit_demo::solid_level::tour_hash`, issue 34 §6: up the
/// stairs, surfing, into the tower's wall, through the low corridor crouched, into the pool and
/// out with a water jump, up the ladder; every tick hashed): (libm hash, micromath hash). Changed
/// when the water tick among solids became Quake III's slide move (the pool legs are swept).
#[cfg(feature = "level-solids")]
pub const SOLID_TOUR: (u64, u64) = (0xcfcf_e8d0_bdfe_db9a, MICROMATH_SOLID_TOUR);
#[cfg(feature = "level-solids")]
const MICROMATH_SOLID_TOUR: u64 = 0xe1ac_79b1_146b_9836;

#[test]
#[cfg(feature = "level-solids")]
fn solid_level_tour_matches_the_backends_golden_hash() {
    let world = Box::leak(Box::new(hopkit_demo::solid_level::SolidWorld::new()));
    hopkit_demo::solid_level::build(world);
    let got = hopkit_demo::solid_level::tour_hash(world);
    let want = if cfg!(feature = "micromath") {
        SOLID_TOUR.1
    } else {
        SOLID_TOUR.0
    };
    println!("solid tour: 0x{got:016x}");
    assert_eq!(got, want, "got {got:#018x}");
}
