//! The `hopkit-uf2` binary end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hopkit-uf2-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn uf2(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hopkit-uf2"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A minimal ELF32 LE ARM executable with one PT_LOAD segment of `len` bytes at `paddr`.
fn elf(paddr: u32, len: u32) -> Vec<u8> {
    let mut e = Vec::new();
    e.extend_from_slice(b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0");
    for h in [2u16, 40] {
        e.extend_from_slice(&h.to_le_bytes());
    }
    for w in [1u32, paddr | 1, 52, 0, 0] {
        e.extend_from_slice(&w.to_le_bytes());
    }
    for h in [52u16, 32, 1, 40, 0, 0] {
        e.extend_from_slice(&h.to_le_bytes());
    }
    for w in [1u32, 84, paddr, paddr, len, len, 5, 4] {
        e.extend_from_slice(&w.to_le_bytes());
    }
    e.extend((0..len).map(|i| (i % 253) as u8 | 0x10));
    e
}

fn stderr_line(out: &Output) -> String {
    let s = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(s.lines().count(), 1, "one line: {s:?}");
    assert!(s.starts_with("error: "), "{s:?}");
    s
}

#[test]
fn converts_to_the_default_and_the_given_output() {
    let d = scratch("ok");
    std::fs::write(d.join("demo.elf"), elf(0x1000_0000, 700)).unwrap();
    let out = uf2(&d, &["demo.elf"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "wrote demo.elf.uf2: 3 blocks, 768 bytes of flash at 0x10000000..0x10000300\n"
    );
    assert!(out.stderr.is_empty());
    let bytes = std::fs::read(d.join("demo.elf.uf2")).unwrap();
    assert_eq!(bytes.len(), 3 * 512);
    let img = hopkit_uf2::uf2_to_flash(&bytes).unwrap();
    assert_eq!(img.family, Some(hopkit_uf2::RP2040_FAMILY_ID));
    assert_eq!(img.image[..700], elf(0x1000_0000, 700)[84..]);

    let out = uf2(&d, &["demo.elf", "-o", "other.uf2"]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("wrote other.uf2: 3 blocks"));
    assert_eq!(std::fs::read(d.join("other.uf2")).unwrap(), bytes);
    assert_eq!(files(&d), ["demo.elf", "demo.elf.uf2", "other.uf2"]);

    let help = uf2(&d, &["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8(help.stdout)
        .unwrap()
        .contains("usage: hopkit-uf2 ELF [-o OUT.uf2]"));
}

#[test]
fn bad_input_exits_2_with_one_line_and_leaves_no_file() {
    let d = scratch("bad");
    std::fs::write(d.join("ram.elf"), elf(0x2000_0000, 64)).unwrap();
    std::fs::write(d.join("text.elf"), "not an ELF\n").unwrap();
    let mut short = elf(0x1000_0000, 64);
    short.truncate(100);
    std::fs::write(d.join("short.elf"), short).unwrap();
    // Keep an old output: a failed run must leave it as it was.
    std::fs::write(d.join("keep.uf2"), b"old").unwrap();
    let before = files(&d);
    for (args, needle) in [
        (&["ram.elf", "-o", "keep.uf2"][..], "outside flash"),
        (&["text.elf"], "not an ELF"),
        (&["short.elf"], "outside the file"),
        (&["missing.elf"], "cannot read missing.elf"),
        (&[], "no ELF file given"),
        (&["a.elf", "b.elf"], "more than one"),
        (&["ram.elf", "--bogus"], "unknown option --bogus"),
        (&["ram.elf", "-o"], "needs a file name"),
        (&["text.elf", "-o", "nope/x.uf2"], "not an ELF"),
    ] {
        let out = uf2(&d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let line = stderr_line(&out);
        assert!(line.contains(needle), "{args:?}: {line}");
        assert!(out.stdout.is_empty());
        assert_eq!(files(&d), before, "{args:?} left files");
    }
    assert_eq!(std::fs::read(d.join("keep.uf2")).unwrap(), b"old");

    // Output problems found before writing.
    std::fs::write(d.join("ok.elf"), elf(0x1000_0000, 8)).unwrap();
    std::fs::create_dir(d.join("dir.uf2")).unwrap();
    let before = files(&d);
    for (out_path, needle) in [("nope/x.uf2", "does not exist"), ("dir.uf2", "folder")] {
        let out = uf2(&d, &["ok.elf", "-o", out_path]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(stderr_line(&out).contains(needle));
        assert_eq!(files(&d), before);
    }
    #[cfg(unix)]
    {
        // A device is not replaced by a file.
        let out = uf2(&d, &["ok.elf", "-o", "/dev/null"]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(stderr_line(&out).contains("not a regular file"));
    }
}

#[test]
fn oversized_input_is_refused_without_reading_it_all() {
    let d = scratch("big");
    // A sparse file of 16 MiB + 1 byte: refused; exactly 16 MiB is read (and is no ELF).
    let f = std::fs::File::create(d.join("big.elf")).unwrap();
    f.set_len(16 * 1024 * 1024 + 1).unwrap();
    let out = uf2(&d, &["big.elf"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr_line(&out).contains("larger than 16777216 bytes"));
    f.set_len(16 * 1024 * 1024).unwrap();
    let out = uf2(&d, &["big.elf"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr_line(&out).contains("not an ELF"));
    assert_eq!(files(&d), ["big.elf"]);
}
