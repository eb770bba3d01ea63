//! Picks the linker memory map for bare-metal builds of the binaries:
//! `board` → STM32F411CEU6, `rp2040` → RP2040 (boot2 + 2 MiB flash), `qemu` on thumbv7em → QEMU
//! mps2-an386, `qemu` on thumbv6m → QEMU microbit.
//! Host builds (the library and its tests) need nothing from here.
use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=memory");
    println!("cargo::rustc-check-cfg=cfg(hopkit_armv6m)");
    println!("cargo::rustc-check-cfg=cfg(hopkit_armv8m)");
    println!("cargo::rustc-check-cfg=cfg(hopkit_riscv_f)");
    println!("cargo::rustc-check-cfg=cfg(hopkit_panic_report)");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return;
    }
    let target = env::var("TARGET").unwrap_or_default();
    if target.starts_with("thumbv6m-") {
        println!("cargo:rustc-cfg=hopkit_armv6m");
    }
    if target.starts_with("thumbv8m.main-") {
        println!("cargo:rustc-cfg=hopkit_armv8m");
    }
    // The RISC-V / AArch64 QEMU image (feature `cpus`): its own memory map, no Cortex-M runtime.
    if env::var_os("CARGO_FEATURE_CPUS").is_some() {
        let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
        let dir =
            PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("manifest dir")).join("memory");
        let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
        match arch.as_str() {
            "riscv32" => {
                if env::var("TARGET")
                    .unwrap_or_default()
                    .starts_with("riscv32imafc")
                {
                    println!("cargo:rustc-cfg=hopkit_riscv_f");
                }
                fs::copy(dir.join("riscv-virt.x"), out.join("memory.x")).expect("copy memory.x");
                println!("cargo:rustc-link-search={}", out.display());
                println!("cargo:rustc-link-arg-bin=cpu-demo=-Tmemory.x");
                println!("cargo:rustc-link-arg-bin=cpu-demo=-Tlink.x");
            }
            "aarch64" => {
                println!(
                    "cargo:rustc-link-arg-bin=cpu-demo=-T{}",
                    dir.join("aarch64-virt.ld").display()
                );
            }
            _ => {}
        }
        return;
    }
    let board = env::var_os("CARGO_FEATURE_BOARD").is_some();
    let rp2040 = env::var_os("CARGO_FEATURE_RP2040").is_some();
    let qemu = env::var_os("CARGO_FEATURE_QEMU").is_some();
    if usize::from(board) + usize::from(rp2040) + usize::from(qemu) > 1 {
        panic!("features `board`, `rp2040` and `qemu` select different memory maps: enable one")
    }
    if rp2040 && !target.starts_with("thumbv6m-") {
        panic!(
            "the `rp2040` binary is for the RP2040 (Cortex-M0+): build it for thumbv6m-none-eabi"
        );
    }
    let memory = if rp2040 {
        "rp2040.x"
    } else if board {
        if !target.starts_with("thumbv7em-") {
            panic!("the `board` binary is for the STM32F411: build it for thumbv7em-none-eabihf");
        }
        "stm32f411ceu6.x"
    } else if qemu {
        const MAPS: [(&str, &str); 3] = [
            ("thumbv7em-", "mps2-an386.x"),
            ("thumbv6m-", "microbit.x"),
            ("thumbv8m.main-", "mps2-an505.x"),
        ];
        match MAPS.iter().find(|(prefix, _)| target.starts_with(prefix)) {
            Some((_, map)) => map,
            None => panic!("QEMU images exist for thumbv7em, thumbv6m and thumbv8m.main targets"),
        }
    } else {
        return; // the library alone links nothing
    };
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let src = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("manifest dir"))
        .join("memory")
        .join(memory);
    fs::copy(&src, out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=--nmagic");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    if board {
        println!("cargo:rustc-link-arg-bin=blackpill=-Tdefmt.x");
    }
    track_linker_choice();
}

/// The board images link through `scripts/flip-link-or-lld.sh` (`.cargo/config.toml`), which picks
/// flip-link when it is on `PATH` and rust-lld otherwise. Cargo does not see that choice, so an
/// image linked before flip-link was installed would stay "fresh" with the wrong memory layout.
/// This makes the choice part of the build's fingerprint: the build script reruns (and the images
/// relink) when `PATH` changes, when the flip-link it found changes or disappears, and — while none
/// is found — when a program is added to any `PATH` directory (e.g. `cargo install flip-link`).
fn track_linker_choice() {
    println!("cargo:rerun-if-env-changed=PATH");
    let path = env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = env::split_paths(&path).filter(|d| d.is_dir()).collect();
    match dirs
        .iter()
        .map(|d| d.join("flip-link"))
        .find(|f| f.is_file())
    {
        Some(flip_link) => {
            println!("cargo:rerun-if-changed={}", flip_link.display());
            println!("cargo:rustc-env=HOPKIT_BOARD_LINKER=flip-link");
        }
        None => {
            for d in &dirs {
                println!("cargo:rerun-if-changed={}", d.display());
            }
            println!("cargo:rustc-env=HOPKIT_BOARD_LINKER=rust-lld");
        }
    }
}
