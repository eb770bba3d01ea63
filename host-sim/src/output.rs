//! Output files and folders: checked before any work, written so that a failed run leaves nothing
//! half-written behind.
//!
//! - [`OutFile::check`] runs before the simulation: the folder must exist, the path must not be a
//!   folder, and a file must be creatable there (a probe file is created and removed). Problems are
//!   [`UserError`]s (exit code 2, nothing was run).
//! - [`OutFile::write`] writes into a temporary file in the same folder and renames it over the
//!   target only when everything was written, so the target is either the old file or the complete
//!   new one. Special files (`/dev/stdout`, a named pipe) are written in place.
//! - [`FrameDir`] is a headless run's frame folder: frames go to a hidden staging folder inside it;
//!   [`FrameDir::commit`] replaces the previous run's `frame-*.png` and `summary.txt` with them
//!   (other files in the folder are left alone). A failed run removes the staging folder (and the
//!   frame folder itself if the run created it).

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::UserError;

/// Prefix of the staging folders [`FrameDir`] creates inside the frame folder.
pub const STAGING_PREFIX: &str = ".hopkit-sim-run-";

/// The folder holding `path` (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Check that `folder` (the folder of `what`'s path `shown`) exists and is a folder.
fn check_folder(what: &str, shown: &Path, folder: &Path) -> Result<(), UserError> {
    match fs::metadata(folder) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(UserError(format!(
            "{what} {}: {} is not a folder",
            shown.display(),
            folder.display()
        ))),
        Err(_) => Err(UserError(format!(
            "{what} {}: the folder {} does not exist",
            shown.display(),
            folder.display()
        ))),
    }
}

/// A temporary-file builder for files that end up as ordinary outputs (mode 0666 minus umask,
/// not tempfile's 0600).
fn builder<'a>(prefix: &'a str, suffix: &'a str) -> tempfile::Builder<'a, 'a> {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix).suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(fs::Permissions::from_mode(0o666));
    }
    b
}

/// An output file that passed [`OutFile::check`].
#[derive(Clone, Debug)]
pub struct OutFile {
    path: PathBuf,
    /// An existing non-regular file (device, pipe): written in place.
    special: bool,
}

impl OutFile {
    /// Check that `path`, given as option `what` (e.g. `--csv`), can be written, before any work.
    pub fn check(what: &str, path: &Path) -> Result<OutFile, UserError> {
        if path.as_os_str().is_empty() {
            return Err(UserError(format!("{what}: the file name is empty")));
        }
        if let Ok(m) = fs::metadata(path) {
            if m.is_dir() {
                return Err(UserError(format!(
                    "{what} {}: is a folder, not a file",
                    path.display()
                )));
            }
            if !m.is_file() {
                return Ok(OutFile {
                    path: path.to_path_buf(),
                    special: true,
                });
            }
        }
        let folder = folder_of(path);
        check_folder(what, path, &folder)?;
        builder(".hopkit-sim-check-", "")
            .tempfile_in(&folder)
            .map_err(|e| {
                UserError(format!(
                    "{what} {}: cannot write in {}: {e}",
                    path.display(),
                    folder.display()
                ))
            })?;
        Ok(OutFile {
            path: path.to_path_buf(),
            special: false,
        })
    }

    /// The target path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Write the file through `fill`: into a temporary file next to it, renamed over the target
    /// when `fill` and the flush succeeded (the temporary file is removed otherwise).
    pub fn write(&self, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
        let shown = self.path.display();
        if self.special {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&self.path)
                .with_context(|| format!("opening {shown}"))?;
            let mut w = BufWriter::new(file);
            fill(&mut w).with_context(|| format!("writing {shown}"))?;
            return w.flush().with_context(|| format!("writing {shown}"));
        }
        let name = self
            .path
            .file_name()
            .map(|n| format!(".{}.", n.to_string_lossy()))
            .unwrap_or_else(|| ".hopkit-sim-out.".into());
        let folder = folder_of(&self.path);
        let mut tmp = builder(&name, ".tmp")
            .tempfile_in(&folder)
            .with_context(|| format!("creating a temporary file in {}", folder.display()))?;
        {
            let mut w = BufWriter::new(tmp.as_file_mut());
            fill(&mut w).with_context(|| format!("writing {shown}"))?;
            w.flush().with_context(|| format!("writing {shown}"))?;
        }
        tmp.persist(&self.path)
            .map_err(|e| e.error)
            .with_context(|| format!("writing {shown}"))?;
        Ok(())
    }

    /// Write `bytes`.
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<()> {
        self.write(|w| Ok(w.write_all(bytes)?))
    }
}

/// Is `name` one of the files a headless run writes (`frame-<digits>.png`, `summary.txt`)?
pub fn is_run_file(name: &str) -> bool {
    if name == "summary.txt" {
        return true;
    }
    name.strip_prefix("frame-")
        .and_then(|r| r.strip_suffix(".png"))
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// A headless run's frame folder (see the module docs).
#[derive(Debug)]
pub struct FrameDir {
    dir: PathBuf,
    staging: Option<tempfile::TempDir>,
    created: bool,
    committed: bool,
}

impl FrameDir {
    /// Check (and create if missing) the frame folder `dir`, given as option `what`, and open a
    /// staging folder in it. Its parent must exist.
    pub fn check(what: &str, dir: &Path) -> Result<FrameDir, UserError> {
        let mut created = false;
        match fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(UserError(format!(
                    "{what} {}: is a file, not a folder",
                    dir.display()
                )))
            }
            Err(_) => {
                check_folder(what, dir, &folder_of(dir))?;
                fs::create_dir(dir).map_err(|e| {
                    UserError(format!("{what} {}: cannot create it: {e}", dir.display()))
                })?;
                created = true;
            }
        }
        // Staging folders of runs that were killed (Ctrl-C) before they could clean up.
        if let Ok(entries) = fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(STAGING_PREFIX) {
                    let _ = fs::remove_dir_all(e.path());
                }
            }
        }
        let staging = match tempfile::Builder::new()
            .prefix(STAGING_PREFIX)
            .tempdir_in(dir)
        {
            Ok(s) => s,
            Err(e) => {
                if created {
                    let _ = fs::remove_dir(dir);
                }
                return Err(UserError(format!(
                    "{what} {}: cannot write in it: {e}",
                    dir.display()
                )));
            }
        };
        Ok(FrameDir {
            dir: dir.to_path_buf(),
            staging: Some(staging),
            created,
            committed: false,
        })
    }

    /// Where files of this run are written while it runs.
    pub fn staging(&self) -> &Path {
        self.staging.as_ref().map_or(&self.dir, |s| s.path())
    }

    /// Where a file of this run named `name` ends up after [`FrameDir::commit`].
    pub fn final_path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The frame folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run succeeded: remove the previous run's files from the folder and move this run's in.
    pub fn commit(mut self) -> Result<()> {
        let shown = self.dir.display().to_string();
        for e in fs::read_dir(&self.dir).with_context(|| format!("reading {shown}"))? {
            let e = e.with_context(|| format!("reading {shown}"))?;
            if is_run_file(&e.file_name().to_string_lossy()) && e.path().is_file() {
                fs::remove_file(e.path())
                    .with_context(|| format!("removing the old {}", e.path().display()))?;
            }
        }
        if let Some(staging) = self.staging.take() {
            let from = staging.path().to_path_buf();
            for e in fs::read_dir(&from).with_context(|| format!("reading {}", from.display()))? {
                let e = e.with_context(|| format!("reading {}", from.display()))?;
                let to = self.dir.join(e.file_name());
                fs::rename(e.path(), &to)
                    .with_context(|| format!("moving the new {} in place", to.display()))?;
            }
            staging
                .close()
                .with_context(|| format!("removing {}", from.display()))?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for FrameDir {
    fn drop(&mut self) {
        if let Some(s) = self.staging.take() {
            let _ = s.close();
        }
        if self.created && !self.committed {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_file_checks_before_work_and_writes_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope").join("a.csv");
        let e = OutFile::check("--csv", &missing).unwrap_err();
        assert!(e.0.contains("does not exist"), "{e}");
        let e = OutFile::check("--csv", dir.path()).unwrap_err();
        assert!(e.0.contains("is a folder"), "{e}");

        let target = dir.path().join("a.csv");
        let out = OutFile::check("--csv", &target).unwrap();
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            0,
            "probe removed"
        );
        out.write(|w| Ok(w.write_all(b"old")?)).unwrap();
        // A failing writer leaves the old file and no temporary file.
        let err = out.write(|w| {
            w.write_all(b"half")?;
            anyhow::bail!("simulated failure")
        });
        assert!(err.is_err());
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        out.write_bytes(b"new").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The same mode as a file created the ordinary way (umask applies), not tempfile's 0600.
            let plain = dir.path().join("plain");
            fs::write(&plain, b"").unwrap();
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&target), mode(&plain));
        }
    }

    #[test]
    fn frame_dir_replaces_old_run_files_only_on_success() {
        let dir = tempfile::tempdir().unwrap();
        let frames = dir.path().join("frames");
        // A failed first run leaves no folder behind.
        {
            let fd = FrameDir::check("--out-dir", &frames).unwrap();
            fs::write(fd.staging().join("frame-00030.png"), b"x").unwrap();
        }
        assert!(!frames.exists());
        let fd = FrameDir::check("--out-dir", &frames).unwrap();
        for n in ["frame-00030.png", "frame-00060.png", "summary.txt"] {
            fs::write(fd.staging().join(n), b"run 1").unwrap();
        }
        fd.commit().unwrap();
        fs::write(frames.join("notes.md"), b"mine").unwrap();
        // Second, shorter run: frame-00060.png must go, notes.md must stay.
        let fd = FrameDir::check("--out-dir", &frames).unwrap();
        fs::write(fd.staging().join("frame-00030.png"), b"run 2").unwrap();
        fs::write(fd.staging().join("summary.txt"), b"run 2").unwrap();
        // Before the commit the old files are untouched.
        assert_eq!(fs::read(frames.join("frame-00060.png")).unwrap(), b"run 1");
        fd.commit().unwrap();
        let mut names: Vec<String> = fs::read_dir(&frames)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["frame-00030.png", "notes.md", "summary.txt"]);
        assert_eq!(fs::read(frames.join("summary.txt")).unwrap(), b"run 2");

        let file = dir.path().join("f");
        fs::write(&file, b"").unwrap();
        assert!(FrameDir::check("--out-dir", &file).is_err());
        assert!(FrameDir::check("--out-dir", &dir.path().join("a/b")).is_err());
    }

    #[test]
    fn run_file_names() {
        assert!(is_run_file("frame-00030.png"));
        assert!(is_run_file("frame-123456.png"));
        assert!(is_run_file("summary.txt"));
        assert!(!is_run_file("frame-.png"));
        assert!(!is_run_file("frame-12a.png"));
        assert!(!is_run_file("notes.txt"));
    }
}
