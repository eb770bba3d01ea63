//! `hopkit-uf2 ELF [-o OUT.uf2]`: convert the RP2040 board image to UF2 (see the library docs).
//!
//! - OUT defaults to the ELF path with `.uf2` appended.
//! - On success prints one line: `wrote OUT: N blocks, B bytes of flash at 0xLO..0xHI` (B = N ×
//!   256, the pages written; `LO..HI` from the lowest page to the end of the highest).
//! - On failure prints one line `error: …` on stderr. Exit code 2: bad input or usage (a missing,
//!   unreadable or oversized input file, an ELF that cannot be converted, a bad argument);
//!   exit code 1: writing the output failed.
//! - The input is read up to [`MAX_INPUT`] bytes (16 MiB); a larger file is refused without being
//!   read whole.
//! - The output is written to a temporary file in the output's folder, then renamed over OUT: a
//!   failed run leaves no partial file (and an existing OUT untouched).

#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hopkit_uf2::{elf_to_uf2, uf2_to_flash, PAYLOAD_SIZE, RP2040_FAMILY_ID, RP2040_FLASH};

/// Largest ELF file taken, bytes.
const MAX_INPUT: u64 = 16 * 1024 * 1024;

const USAGE: &str = "usage: hopkit-uf2 ELF [-o OUT.uf2]";

const HELP: &str = "hopkit-uf2: convert an RP2040 ELF executable to UF2 (family 0xe48bff56).

usage: hopkit-uf2 ELF [-o OUT.uf2]

Loads every PT_LOAD segment with file bytes at its physical address (p_paddr), which must lie in
flash 0x10000000..0x11000000, and writes one 512-byte UF2 block per 256-byte flash page
(uncovered bytes of a page are 0x00). OUT defaults to ELF with .uf2 appended; it is written
atomically. Input files over 16 MiB are refused.

Exit codes: 0 done; 1 writing the output failed; 2 bad input or usage.";

/// A failure and its exit code.
struct Fail {
    code: u8,
    msg: String,
}

fn bad(msg: impl Into<String>) -> Fail {
    Fail {
        code: 2,
        msg: msg.into(),
    }
}

fn io_fail(msg: impl Into<String>) -> Fail {
    Fail {
        code: 1,
        msg: msg.into(),
    }
}

/// What to do.
enum Action {
    Help,
    Convert { elf: PathBuf, out: PathBuf },
}

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Action, Fail> {
    let mut elf: Option<PathBuf> = None;
    let mut out: Option<PathBuf> = None;
    let mut args = args.into_iter();
    let mut only_paths = false;
    while let Some(a) = args.next() {
        let s = a.to_string_lossy();
        if !only_paths && (s == "-h" || s == "--help") {
            return Ok(Action::Help);
        }
        if !only_paths && (s == "-o" || s == "--out") {
            let v = args
                .next()
                .ok_or_else(|| bad(format!("{s} needs a file name; {USAGE}")))?;
            if out.replace(PathBuf::from(v)).is_some() {
                return Err(bad(format!("-o given twice; {USAGE}")));
            }
        } else if !only_paths && s == "--" {
            only_paths = true;
        } else if !only_paths && s.starts_with('-') && s.len() > 1 {
            return Err(bad(format!("unknown option {s}; {USAGE}")));
        } else if elf.replace(PathBuf::from(&a)).is_some() {
            return Err(bad(format!("more than one ELF file given; {USAGE}")));
        }
    }
    let elf = elf.ok_or_else(|| bad(format!("no ELF file given; {USAGE}")))?;
    if out.as_ref().is_some_and(|o| o.as_os_str().is_empty()) {
        return Err(bad("-o: the file name is empty"));
    }
    let out = out.unwrap_or_else(|| {
        let mut s = elf.clone().into_os_string();
        s.push(".uf2");
        PathBuf::from(s)
    });
    Ok(Action::Convert { elf, out })
}

/// Read at most `MAX_INPUT` bytes of `path`; a longer file is an error.
fn read_bounded(path: &Path) -> Result<Vec<u8>, Fail> {
    let shown = path.display();
    let file = fs::File::open(path).map_err(|e| bad(format!("cannot read {shown}: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("cannot read {shown}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(bad(format!(
            "{shown} is larger than {MAX_INPUT} bytes (16 MiB), not a board image"
        )));
    }
    Ok(bytes)
}

/// Write `bytes` to `path` through a temporary file in the same folder, renamed over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Fail> {
    let shown = path.display();
    if let Ok(m) = fs::symlink_metadata(path) {
        if m.is_dir() {
            return Err(bad(format!("{shown} is a folder, not a file")));
        }
        if !m.is_file() {
            return Err(bad(format!(
                "{shown} exists and is not a regular file (it would be replaced)"
            )));
        }
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        return Err(bad(format!(
            "{shown}: the folder {} does not exist",
            folder.display()
        )));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out.uf2".into());
    let mut tmp = None;
    for attempt in 0..100u32 {
        let candidate = folder.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => {
                tmp = Some((candidate, f));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(io_fail(format!(
                    "cannot write in {}: {e}",
                    folder.display()
                )))
            }
        }
    }
    let (tmp_path, mut file) =
        tmp.ok_or_else(|| io_fail(format!("cannot create a temporary file for {shown}")))?;
    let result = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp_path, path)
        });
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp_path);
        return Err(io_fail(format!("writing {shown}: {e}")));
    }
    Ok(())
}

fn run(args: impl IntoIterator<Item = OsString>) -> Result<(), Fail> {
    let (elf_path, out) = match parse_args(args)? {
        Action::Help => {
            println!("{HELP}");
            return Ok(());
        }
        Action::Convert { elf, out } => (elf, out),
    };
    let elf = read_bounded(&elf_path)?;
    let uf2 = elf_to_uf2(&elf, RP2040_FAMILY_ID, RP2040_FLASH)
        .map_err(|e| bad(format!("{}: {e}", elf_path.display())))?;
    // Read back what is about to be written: a converter bug must not produce a file.
    let check = uf2_to_flash(&uf2).map_err(|e| io_fail(format!("internal check failed: {e}")))?;
    write_atomically(&out, &uf2)?;
    let lo = check.base;
    let hi = check.end();
    println!(
        "wrote {}: {} blocks, {} bytes of flash at {lo:#010x}..{hi:#010x}",
        out.display(),
        check.blocks,
        u64::from(check.blocks) * u64::from(PAYLOAD_SIZE),
    );
    Ok(())
}

fn main() -> ExitCode {
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.msg.replace('\n', " "));
            ExitCode::from(f.code)
        }
    }
}
