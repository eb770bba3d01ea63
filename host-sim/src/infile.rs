//! Reading the files the CLI is given — recordings (`hash`, `play`, a `ghosts` scenario's
//! `recording`), `hash --gamepad` files and scenario files — with one rule: never more than the
//! largest legal file of that kind plus one byte.
//!
//! A regular file's size is known before reading, so a file that is too large is refused without
//! reading any of it. Anything else (`/dev/zero`, `/dev/urandom`, a pipe) is read through a
//! [`Read::take`] of `limit + 1` bytes: one byte more than the limit is enough to know it is too
//! large. A file kind with a fixed start (a recording's `HKGH`) can be checked on its first bytes
//! before the rest is read ([`read_limited`]'s `check_head`).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// Opening or reading failed.
    Io(io::Error),
    /// The file has more than `limit` bytes; `size` if it is known (a regular file).
    TooLarge {
        /// The limit, bytes.
        limit: u64,
        /// The file's size, when known.
        size: Option<u64>,
    },
    /// `check_head` refused the first bytes.
    Head(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge {
                limit,
                size: Some(size),
            } => write!(f, "it has {size} bytes, more than the {limit} allowed"),
            ReadError::TooLarge { limit, size: None } => {
                write!(f, "it has more than the {limit} bytes allowed")
            }
            ReadError::Head(why) => f.write_str(why),
        }
    }
}

/// Read `r` until `buf` is full or the end; returns the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Read all of `path` if it has at most `limit` bytes. When it has at least `head` bytes, the
/// first `head` bytes are given to `check_head` before anything more is read.
pub fn read_limited(
    path: &Path,
    limit: u64,
    head: usize,
    check_head: impl FnOnce(&[u8]) -> Result<(), String>,
) -> Result<Vec<u8>, ReadError> {
    let file = File::open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a folder, not a file",
        )));
    }
    let mut bytes = vec![];
    if meta.is_file() {
        if meta.len() > limit {
            // Still check the start first: "not a recording" says more than "too large".
            let mut start = vec![0u8; head];
            let mut f = &file;
            if read_full(&mut f, &mut start).map_err(ReadError::Io)? == head {
                check_head(&start).map_err(ReadError::Head)?;
            }
            return Err(ReadError::TooLarge {
                limit,
                size: Some(meta.len()),
            });
        }
        bytes.reserve_exact(meta.len() as usize);
    }
    let mut r = file.take(limit.saturating_add(1));
    let mut start = vec![0u8; head];
    let n = read_full(&mut r, &mut start).map_err(ReadError::Io)?;
    if n == head {
        check_head(&start).map_err(ReadError::Head)?;
    }
    bytes.extend_from_slice(&start[..n]);
    r.read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit, size: None });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_apply_to_files_and_streams() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"HKGH1234").unwrap();
        let ok = |_: &[u8]| Ok(());
        assert_eq!(read_limited(&p, 8, 0, ok).unwrap(), b"HKGH1234");
        assert!(matches!(
            read_limited(&p, 7, 0, ok),
            Err(ReadError::TooLarge {
                limit: 7,
                size: Some(8)
            })
        ));
        let magic = |h: &[u8]| {
            if h == b"HKGH" {
                Ok(())
            } else {
                Err("bad magic".to_string())
            }
        };
        assert_eq!(read_limited(&p, 8, 4, magic).unwrap(), b"HKGH1234");
        std::fs::write(&p, b"HKG").unwrap();
        assert_eq!(
            read_limited(&p, 8, 4, magic).unwrap(),
            b"HKG",
            "short: no check"
        );
        std::fs::write(&p, b"XXXX-too-long").unwrap();
        assert!(matches!(
            read_limited(&p, 8, 4, magic),
            Err(ReadError::Head(_))
        ));
        #[cfg(unix)]
        {
            let e = read_limited(Path::new("/dev/zero"), 1000, 0, ok).unwrap_err();
            assert!(matches!(e, ReadError::TooLarge { size: None, .. }), "{e}");
            let e = read_limited(Path::new("/dev/zero"), 1000, 4, magic).unwrap_err();
            assert!(matches!(e, ReadError::Head(_)), "{e}");
        }
        assert!(matches!(
            read_limited(dir.path(), 8, 0, ok),
            Err(ReadError::Io(_))
        ));
    }
}
