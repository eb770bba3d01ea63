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
//!
//! ## Interruption (Ctrl-C, SIGTERM, SIGHUP)
//! Every temporary path a run creates — an output's temporary file, a staging folder, a frame
//! folder the run created — is entered in one registry ([`Owned`]) *before* it is created, under
//! the registry's lock, and leaves it when it is renamed into place or removed.
//! [`install_interrupt_handler`] makes the signals run [`interrupted`] on ctrlc's handler thread:
//! it takes the lock (so no path is being created or renamed into place at that moment, and none
//! will be afterwards), removes every registered path, newest first, prints
//! `error: interrupted; …` and exits with [`crate::EXIT_INTERRUPTED`] (130). A target is therefore
//! either untouched (old file or none) or complete, never partial.
//!
//! A run killed outright (SIGKILL, power loss) cannot clean up. Its leftovers are found by name:
//! an output's temporary file is always `.NAME.hopkit-tmp` next to `NAME`
//! ([`temp_path_for`]), so the next run writing `NAME` (even one that only passes
//! [`OutFile::check`], whose probe uses the same name) replaces and removes it; staging folders
//! (`.hopkit-sim-run-*`) are removed by the next headless run into the same frame folder. (So two
//! runs writing the same file at the same time are not supported: they share the temporary file.)

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use anyhow::{Context, Result};

use crate::UserError;

/// Prefix of the staging folders [`FrameDir`] creates inside the frame folder.
pub const STAGING_PREFIX: &str = ".hopkit-sim-run-";

/// Suffix of an output's temporary file, `.NAME.hopkit-tmp` next to `NAME`.
pub const TEMP_SUFFIX: &str = ".hopkit-tmp";

/// A path the running process created and removes unless the run completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owned {
    /// A temporary file.
    File(PathBuf),
    /// A staging folder and everything in it.
    Tree(PathBuf),
    /// A folder the run created: removed if empty (after what was created in it).
    EmptyDir(PathBuf),
}

impl Owned {
    /// Remove it; true if something was removed.
    fn remove(&self) -> bool {
        match self {
            Owned::File(p) => fs::remove_file(p).is_ok(),
            Owned::Tree(p) => {
                // A file may be appearing in it while it is removed: try again.
                (0..3).any(|_| fs::remove_dir_all(p).is_ok()) && !p.exists()
            }
            Owned::EmptyDir(p) => fs::remove_dir(p).is_ok(),
        }
    }
}

/// The registry of [`Owned`] paths (see the module docs).
#[derive(Debug, Default)]
pub struct Registry {
    next: u64,
    entries: Vec<(u64, Owned)>,
    /// The process is exiting normally: an interruption no longer removes anything.
    done: bool,
    /// An interruption is removing the entries and exiting: nothing may be created any more.
    interrupted: bool,
    /// Targets this run renamed into place (complete files, or a frame folder's new run).
    written: Vec<PathBuf>,
}

impl Registry {
    fn add(&mut self, what: Owned) -> u64 {
        self.next += 1;
        self.entries.push((self.next, what));
        self.next
    }

    fn forget(&mut self, id: u64) {
        self.entries.retain(|(i, _)| *i != id);
    }

    /// Remove every registered path, newest first (a staging folder before the folder the run
    /// created for it); returns how many were there to remove.
    pub fn remove_all(&mut self) -> usize {
        let mut removed = 0;
        while let Some((_, what)) = self.entries.pop() {
            removed += usize::from(what.remove());
        }
        removed
    }
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next: 0,
    entries: Vec::new(),
    done: false,
    interrupted: false,
    written: Vec::new(),
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A registered [`Owned`] path. Dropping it removes the path (if it is still there) and
/// unregisters it; [`Claim::keep`] unregisters it without removing it.
#[derive(Debug)]
pub struct Claim {
    id: u64,
    what: Owned,
    armed: bool,
}

/// Register `what`, then run `create` (which creates it), both under the registry's lock: an
/// interruption sees either nothing or the registered path. If `create` fails the entry is
/// dropped again (and whatever `create` left of `what` removed).
pub fn own<T>(
    what: Owned,
    create: impl FnOnce() -> std::io::Result<T>,
) -> std::io::Result<(T, Claim)> {
    let mut r = registry();
    if r.interrupted {
        return Err(std::io::Error::other("interrupted"));
    }
    let id = r.add(what.clone());
    match create() {
        Ok(v) => Ok((
            v,
            Claim {
                id,
                what,
                armed: true,
            },
        )),
        Err(e) => {
            r.forget(id);
            if !matches!(what, Owned::EmptyDir(_)) {
                what.remove();
            }
            Err(e)
        }
    }
}

impl Claim {
    /// The path.
    pub fn path(&self) -> &Path {
        match &self.what {
            Owned::File(p) | Owned::Tree(p) | Owned::EmptyDir(p) => p,
        }
    }

    /// Run `finish` (e.g. the rename into place) under the registry's lock, then unregister the
    /// path without removing it if `finish` succeeded. An interruption waits for `finish`.
    pub fn keep_after<T, E>(self, finish: impl FnOnce(&Path) -> Result<T, E>) -> Result<T, E> {
        self.keep_after_writing(None, finish)
    }

    /// [`Claim::keep_after`], noting `target` (when given) as written if `finish` succeeded.
    fn keep_after_writing<T, E>(
        mut self,
        target: Option<&Path>,
        finish: impl FnOnce(&Path) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut r = registry();
        match finish(self.path()) {
            Ok(v) => {
                r.forget(self.id);
                r.written.extend(target.map(Path::to_path_buf));
                self.armed = false;
                Ok(v)
            }
            Err(e) => {
                // Dropping `self` removes the path; it needs the lock.
                drop(r);
                Err(e)
            }
        }
    }

    /// Unregister the path and leave it where it is.
    pub fn keep(self) {
        let _ = self.keep_after(|_| Ok::<(), std::convert::Infallible>(()));
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        if self.armed {
            let mut r = registry();
            r.forget(self.id);
            self.what.remove();
        }
    }
}

/// The process is about to exit normally: a signal arriving from now on changes nothing (the
/// outputs are complete). Call this last in `main`.
pub fn finish() {
    registry().done = true;
}

/// A window session is running: the first signal only asks it to close ([`DeferInterrupts`]).
static DEFER: AtomicBool = AtomicBool::new(false);
/// A signal arrived while [`DEFER`] was set.
static PENDING: AtomicBool = AtomicBool::new(false);

/// While this guard lives, the first Ctrl-C / SIGTERM / SIGHUP does not exit: it sets
/// [`interrupt_requested`], which the window loop polls to end the session like Esc (summary line
/// included), and then calls [`interrupted`] itself. A second signal exits at once.
#[derive(Debug)]
pub struct DeferInterrupts(());

impl DeferInterrupts {
    /// Start deferring.
    pub fn new() -> Self {
        DEFER.store(true, Ordering::SeqCst);
        DeferInterrupts(())
    }
}

impl Default for DeferInterrupts {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for DeferInterrupts {
    fn drop(&mut self) {
        DEFER.store(false, Ordering::SeqCst);
    }
}

/// Did a signal ask the running window session to close?
pub fn interrupt_requested() -> bool {
    PENDING.load(Ordering::SeqCst)
}

/// The line an interruption prints (without `error: `): what was removed, and which targets this
/// run had already written (complete) before the signal came.
pub fn interrupted_message(removed: usize, written: &[PathBuf]) -> String {
    let what = match removed {
        0 if written.is_empty() => "nothing was written".to_string(),
        0 => String::new(),
        1 => "removed 1 unfinished output".to_string(),
        n => format!("removed {n} unfinished outputs"),
    };
    if written.is_empty() {
        return format!("interrupted; {what}, existing files are unchanged");
    }
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    let sep = if what.is_empty() { "" } else { "; " };
    format!(
        "interrupted; {what}{sep}already written and complete: {}; other existing files are unchanged",
        names.join(", ")
    )
}

/// What an interruption does (on ctrlc's handler thread): unless the process is already exiting
/// normally, remove every registered path, say so (naming the targets already written), and exit
/// with [`crate::EXIT_INTERRUPTED`]. The registry's lock is held until the exit, so nothing new is
/// created or renamed into place. During a window session the first signal only sets
/// [`interrupt_requested`] ([`DeferInterrupts`]).
pub fn interrupted() {
    if DEFER.load(Ordering::SeqCst) && !PENDING.swap(true, Ordering::SeqCst) {
        return;
    }
    let mut r = registry();
    if r.done {
        return;
    }
    r.interrupted = true;
    let removed = r.remove_all();
    let clear = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        "\r\x1b[2K" // over a progress bar
    } else {
        ""
    };
    let line = interrupted_message(removed, &r.written);
    eprintln!("{clear}error: {line}");
    std::process::exit(i32::from(crate::EXIT_INTERRUPTED));
}

/// Make Ctrl-C (SIGINT), SIGTERM and SIGHUP run [`interrupted`]. Without a handler (if one cannot
/// be installed) the signals kill the process as usual and the next run cleans up by name.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(interrupted);
}

/// The temporary file of output `path`: `.NAME.hopkit-tmp` in the same folder.
pub fn temp_path_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| format!(".{}{TEMP_SUFFIX}", n.to_string_lossy()))
        .unwrap_or_else(|| format!(".hopkit-sim-out{TEMP_SUFFIX}"));
    folder_of(path).join(name)
}

/// Create (or truncate: a leftover of a killed run) the temporary file `p` for writing, mode
/// 0666 minus umask like any ordinary output.
fn create_temp(p: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(p)
}

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
        // The probe is the temporary file the write will use: creating it also replaces a
        // leftover of a killed run, and dropping the claim removes it.
        let tmp = temp_path_for(path);
        own(Owned::File(tmp.clone()), || create_temp(&tmp)).map_err(|e| {
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

    /// Write the file through `fill`: into its temporary file ([`temp_path_for`]), renamed over
    /// the target when `fill` and the flush succeeded (the temporary file is removed otherwise,
    /// and on an interruption).
    pub fn write(&self, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
        commit_all(vec![self.stage(fill)?])
    }

    /// Write the file's complete contents through `fill` into its temporary file, but do not put
    /// it in place yet: [`commit_all`] does, together with the run's other outputs. Dropping the
    /// [`Staged`] removes the temporary file. (A special file is written in place here.)
    pub fn stage(&self, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<Staged> {
        let shown = self.path.display();
        if self.special {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&self.path)
                .with_context(|| format!("opening {shown}"))?;
            let mut w = BufWriter::new(file);
            fill(&mut w).with_context(|| format!("writing {shown}"))?;
            w.flush().with_context(|| format!("writing {shown}"))?;
            return Ok(Staged {
                target: self.path.clone(),
                claim: None,
            });
        }
        let tmp = temp_path_for(&self.path);
        let (file, claim) = own(Owned::File(tmp.clone()), || create_temp(&tmp))
            .with_context(|| format!("creating the temporary file {}", tmp.display()))?;
        {
            let mut w = BufWriter::new(file);
            fill(&mut w).with_context(|| format!("writing {shown}"))?;
            w.flush().with_context(|| format!("writing {shown}"))?;
        }
        Ok(Staged {
            target: self.path.clone(),
            claim: Some(claim),
        })
    }

    /// Write `bytes`.
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<()> {
        self.write(|w| Ok(w.write_all(bytes)?))
    }
}

/// An output written completely to its temporary file ([`OutFile::stage`]), waiting for
/// [`commit_all`].
#[derive(Debug)]
pub struct Staged {
    target: PathBuf,
    /// The temporary file (`None`: a special file, already written in place).
    claim: Option<Claim>,
}

impl Staged {
    /// The target path.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

/// Rename every staged output into place under one hold of the registry's lock, so that an
/// interruption sees all of them in place or none (see the module docs). If a rename fails, the
/// outputs after it are not put in place (their temporary files are removed) and the error names
/// the ones that were.
pub fn commit_all(staged: Vec<Staged>) -> Result<()> {
    let mut r = registry();
    let mut done: Vec<PathBuf> = vec![];
    let mut failed = None;
    let mut leftovers = vec![];
    for mut s in staged {
        if failed.is_some() {
            leftovers.push(s);
            continue;
        }
        let Some(claim) = s.claim.as_mut() else {
            r.written.push(s.target.clone());
            done.push(s.target.clone());
            continue;
        };
        match fs::rename(claim.path(), &s.target) {
            Ok(()) => {
                r.forget(claim.id);
                claim.armed = false;
                r.written.push(s.target.clone());
                done.push(s.target.clone());
            }
            Err(e) => {
                failed =
                    Some(anyhow::Error::new(e).context(format!("writing {}", s.target.display())));
                leftovers.push(s);
            }
        }
    }
    // Dropping the leftovers' claims takes the lock.
    drop(r);
    drop(leftovers);
    match failed {
        None => Ok(()),
        Some(e) if done.is_empty() => Err(e),
        Some(e) => {
            let names: Vec<String> = done.iter().map(|p| p.display().to_string()).collect();
            Err(e.context(format!("only {} were written", names.join(", "))))
        }
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
    /// The staging folder (dropped first: removed before the folder it is in).
    staging: Claim,
    /// The frame folder, when this run created it (removed if the run does not complete).
    created: Option<Claim>,
}

impl FrameDir {
    /// Check (and create if missing) the frame folder `dir`, given as option `what`, and open a
    /// staging folder in it. Its parent must exist.
    pub fn check(what: &str, dir: &Path) -> Result<FrameDir, UserError> {
        let created = match fs::metadata(dir) {
            Ok(m) if m.is_dir() => None,
            Ok(_) => {
                return Err(UserError(format!(
                    "{what} {}: is a file, not a folder",
                    dir.display()
                )))
            }
            Err(_) => {
                check_folder(what, dir, &folder_of(dir))?;
                let (_, claim) = own(Owned::EmptyDir(dir.to_path_buf()), || fs::create_dir(dir))
                    .map_err(|e| {
                        UserError(format!("{what} {}: cannot create it: {e}", dir.display()))
                    })?;
                Some(claim)
            }
        };
        // Staging folders of runs that were killed before they could clean up.
        if let Ok(entries) = fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(STAGING_PREFIX) {
                    let _ = fs::remove_dir_all(e.path());
                }
            }
        }
        static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let staging = dir.join(format!("{STAGING_PREFIX}{}-{n}", std::process::id()));
        let (_, staging) = own(Owned::Tree(staging.clone()), || fs::create_dir(&staging))
            .map_err(|e| UserError(format!("{what} {}: cannot write in it: {e}", dir.display())))?;
        Ok(FrameDir {
            dir: dir.to_path_buf(),
            staging,
            created,
        })
    }

    /// Where files of this run are written while it runs.
    pub fn staging(&self) -> &Path {
        self.staging.path()
    }

    /// Where a file of this run named `name` ends up after [`FrameDir::commit`].
    pub fn final_path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The frame folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run succeeded: remove the previous run's files from the folder and move this run's in
    /// (under the registry's lock: an interruption waits until the folder holds the new run).
    pub fn commit(self) -> Result<()> {
        let FrameDir {
            dir,
            staging,
            created,
        } = self;
        let shown = dir.display().to_string();
        let target = dir.clone();
        staging.keep_after_writing(Some(&target), |from| -> Result<()> {
            for e in fs::read_dir(&dir).with_context(|| format!("reading {shown}"))? {
                let e = e.with_context(|| format!("reading {shown}"))?;
                if is_run_file(&e.file_name().to_string_lossy()) && e.path().is_file() {
                    fs::remove_file(e.path())
                        .with_context(|| format!("removing the old {}", e.path().display()))?;
                }
            }
            for e in fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
                let e = e.with_context(|| format!("reading {}", from.display()))?;
                let to = dir.join(e.file_name());
                fs::rename(e.path(), &to)
                    .with_context(|| format!("moving the new {} in place", to.display()))?;
            }
            fs::remove_dir(from).with_context(|| format!("removing {}", from.display()))
        })?;
        if let Some(c) = created {
            c.keep();
        }
        Ok(())
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
    fn claims_remove_what_they_own_unless_kept() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let (_, claim) = own(Owned::File(a.clone()), || fs::write(&a, b"x")).unwrap();
        drop(claim);
        assert!(!a.exists(), "a dropped claim removes its file");
        let (_, claim) = own(Owned::File(a.clone()), || fs::write(&a, b"x")).unwrap();
        let b = dir.path().join("b");
        claim.keep_after(|p| fs::rename(p, &b)).unwrap();
        assert_eq!(fs::read(&b).unwrap(), b"x", "renamed into place and kept");
        // A failed creation is not registered and leaves nothing.
        let c = dir.path().join("no/such/c");
        assert!(own(Owned::File(c.clone()), || fs::write(&c, b"x")).is_err());
        assert!(!registry()
            .entries
            .iter()
            .any(|(_, o)| *o == Owned::File(c.clone())));

        // An interruption removes newest first: a staging tree before the folder holding it.
        let mut r = Registry::default();
        let made = dir.path().join("made");
        let staging = made.join(".hopkit-sim-run-1");
        fs::create_dir_all(&staging).unwrap();
        fs::write(staging.join("frame-00001.png"), b"x").unwrap();
        let tmp = dir.path().join(".out.csv.hopkit-tmp");
        fs::write(&tmp, b"half").unwrap();
        r.add(Owned::EmptyDir(made.clone()));
        r.add(Owned::Tree(staging));
        r.add(Owned::File(tmp));
        r.add(Owned::File(dir.path().join("never-created")));
        assert_eq!(r.remove_all(), 3);
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "only b is left"
        );
    }

    #[test]
    fn outputs_are_committed_together_and_noted_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.png"));
        fs::write(&a, b"old a").unwrap();
        let (oa, ob) = (
            OutFile::check("--csv", &a).unwrap(),
            OutFile::check("--plot", &b).unwrap(),
        );
        let sa = oa.stage(|w| Ok(w.write_all(b"new a")?)).unwrap();
        let sb = ob.stage(|w| Ok(w.write_all(b"new b")?)).unwrap();
        // Staged: complete in their temporary files, the targets untouched.
        assert_eq!(fs::read(&a).unwrap(), b"old a");
        assert!(!b.exists());
        commit_all(vec![sa, sb]).unwrap();
        assert_eq!(fs::read(&a).unwrap(), b"new a");
        assert_eq!(fs::read(&b).unwrap(), b"new b");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporary left"
        );
        let written = registry().written.clone();
        assert!(written.contains(&a) && written.contains(&b), "{written:?}");
        // A dropped (never committed) stage leaves the target and no temporary file.
        drop(oa.stage(|w| Ok(w.write_all(b"newer a")?)).unwrap());
        assert_eq!(fs::read(&a).unwrap(), b"new a");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn the_interruption_message_names_what_was_written() {
        assert_eq!(
            interrupted_message(0, &[]),
            "interrupted; nothing was written, existing files are unchanged"
        );
        assert_eq!(
            interrupted_message(2, &[]),
            "interrupted; removed 2 unfinished outputs, existing files are unchanged"
        );
        let w = [PathBuf::from("g.csv"), PathBuf::from("g.png")];
        let m = interrupted_message(0, &w);
        assert_eq!(
            m,
            "interrupted; already written and complete: g.csv, g.png; other existing files are \
             unchanged"
        );
        assert!(!m.contains("nothing was written"));
        let m = interrupted_message(1, &w[..1]);
        assert!(
            m.starts_with(
                "interrupted; removed 1 unfinished output; already written and complete: g.csv;"
            ),
            "{m}"
        );
    }

    #[test]
    fn temp_names_are_fixed_per_target() {
        assert_eq!(
            temp_path_for(Path::new("out/big.csv")),
            Path::new("out/.big.csv.hopkit-tmp")
        );
        assert_eq!(
            temp_path_for(Path::new("big.csv")),
            Path::new("./.big.csv.hopkit-tmp")
        );
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
