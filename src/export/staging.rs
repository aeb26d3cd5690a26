//! Atomic output: nothing appears under its final name until it is complete, and nothing
//! visible is left behind by a failed or interrupted export.
//!
//! * A file (GIF, PNG, video) is written to a hidden staging file in the target's directory
//!   (`.juggler-export-<pid>-<id>.tmp`) and renamed onto the target at the end (a rename
//!   within one directory is atomic). Without `--force` the final step is a hard link, which
//!   fails if the target appeared meanwhile, so nothing is ever overwritten.
//! * PNG frames are written into a hidden staging directory beside the output directory.
//!   At the end it takes the output's place in one step: renamed to it when the output does
//!   not exist, otherwise exchanged with it atomically (Linux `renameat2(RENAME_EXCHANGE)`)
//!   after the output's other files were linked into it, so the old sequence stays intact
//!   until the new one is complete, and with `--force` the directory then holds exactly the
//!   new sequence. Where no exchange is possible (other systems, subdirectories in the
//!   output) the frames are renamed in one by one.
//! * Staging files are created like any other file (`0666` less the umask), so the output
//!   gets the user's usual mode.
//! * Every staging path is registered while it exists: [`install_signal_cleanup`] makes
//!   SIGINT, SIGTERM, SIGHUP and SIGQUIT remove them (and kill an encoder child) before the
//!   process dies of the signal. A process killed outright (SIGKILL) leaves a hidden staging
//!   entry named after its process id; the next export into that directory removes entries of
//!   processes that no longer run.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::ExportError;

/// Name prefix of every staging file and directory.
pub(crate) const STAGING_PREFIX: &str = ".juggler-export-";

/// File name of frame `i`.
pub(crate) fn frame_name(i: usize) -> String {
    format!("frame_{i:05}.png")
}

/// The frame number of a file name `frame_<digits>.png`.
fn frame_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("frame_")?.strip_suffix(".png")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Existing `frame_*.png` files in `dir`, sorted (empty when `dir` does not exist).
pub(crate) fn existing_frames(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut frames: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_str().and_then(frame_number).is_some())
        .map(|e| e.path())
        .collect();
    frames.sort();
    frames
}

fn io_error(path: &Path, source: std::io::Error) -> ExportError {
    ExportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Staging paths that exist now, and encoder processes running now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Directories an export created for its output (innermost first), removed when empty if
/// it is interrupted.
static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn created_dirs() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    CREATED.lock().unwrap_or_else(|e| e.into_inner())
}

fn live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn register(path: &Path) {
    live().push(path.to_path_buf());
}

fn unregister(path: &Path) {
    live().retain(|p| p != path);
}

/// Remember a child process (an encoder) to kill if the export is interrupted.
pub(crate) fn register_child(pid: u32) {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
}

/// Forget a child process that ended.
pub(crate) fn unregister_child(pid: u32) {
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&p| p != pid);
}

/// Remove a file or a directory tree, ignoring errors. A directory is first renamed, so
/// that threads still writing frames into it by path can no longer add files.
fn remove_any(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            let mut doomed = path.as_os_str().to_owned();
            doomed.push(".del");
            let doomed = PathBuf::from(doomed);
            let target = if std::fs::rename(path, &doomed).is_ok() {
                doomed
            } else {
                path.to_path_buf()
            };
            for _ in 0..5 {
                if std::fs::remove_dir_all(&target).is_ok() || !target.exists() {
                    break;
                }
            }
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// Kill encoder children and remove every registered staging path.
pub(crate) fn cleanup_all() {
    for &pid in CHILDREN.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        if let Ok(pid) = libc::pid_t::try_from(pid) {
            // SAFETY: kill(2) has no memory effects; `pid` is our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
    for path in live().drain(..) {
        remove_any(&path);
    }
    // Then the directories created for the output, innermost first, if nothing else is in
    // them now.
    for dir in created_dirs().drain(..) {
        let _ = std::fs::remove_dir(&dir);
    }
}

/// Set once a signal is being handled: the process is about to end of it.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a signal is ending the process (an export failing now failed because of it: the
/// caller should wait for the end rather than report an error).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Make SIGINT, SIGTERM, SIGHUP and SIGQUIT remove staging output before the process dies
/// of the signal (exit status as for the signal). Idempotent.
pub fn install_signal_cleanup() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    static INSTALLED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT])?;
    let _ = INSTALLED.set(());
    std::thread::Builder::new()
        .name("export-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                INTERRUPTED.store(true, Ordering::SeqCst);
                cleanup_all();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// The directory a file is written in (`.` for a bare file name).
pub(crate) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A unique staging name for this process: `.juggler-export-<pid>-<id><suffix>`.
fn staging_name(suffix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(
        "{STAGING_PREFIX}{}-{nanos:08x}{n}{suffix}",
        std::process::id()
    )
}

/// The process id in a staging name, if it is one.
fn staging_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(STAGING_PREFIX)?;
    let (pid, _) = rest.split_once('-')?;
    pid.parse().ok()
}

/// Remove staging entries in `dir` left by processes that no longer run (killed outright).
/// Does nothing where running processes cannot be told (no `/proc`).
pub(crate) fn remove_stale(dir: &Path) {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(staging_pid) else {
            continue;
        };
        if pid != me && !proc_root.join(pid.to_string()).exists() {
            remove_any(&entry.path());
        }
    }
}

/// A file being written under a hidden staging name.
pub struct StagedFile {
    path: PathBuf,
    target: PathBuf,
    force: bool,
    done: bool,
}

impl StagedFile {
    /// Create the staging file next to `target` (this is where an unwritable directory is
    /// detected, before any rendering).
    pub fn new(target: &Path, force: bool) -> Result<StagedFile, ExportError> {
        let dir = parent_dir(target);
        remove_stale(&dir);
        let path = dir.join(staging_name(".tmp"));
        register(&path);
        let staged = StagedFile {
            path,
            target: target.to_path_buf(),
            force,
            done: false,
        };
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&staged.path)
            .map_err(|e| io_error(&dir, e))?;
        Ok(staged)
    }

    /// Where the file is written until it is complete.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// A buffered writer on the staging file.
    pub fn writer(&self) -> Result<BufWriter<File>, ExportError> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&self.path)
            .map_err(|e| io_error(&self.path, e))?;
        Ok(BufWriter::with_capacity(1 << 16, file))
    }

    /// Give the complete file its final name.
    pub fn commit(mut self) -> Result<PathBuf, ExportError> {
        let target = self.target.clone();
        if self.force {
            if let Ok(meta) = std::fs::symlink_metadata(&target) {
                let regular = meta.is_file()
                    || (meta.file_type().is_symlink()
                        && std::fs::metadata(&target).is_ok_and(|m| m.is_file()));
                if !regular {
                    return Err(ExportError::NotRegular(target));
                }
                // The new file keeps the mode of the one it replaces (a private 0600 file
                // stays private).
                if let Ok(existing) = std::fs::metadata(&target) {
                    std::fs::set_permissions(&self.path, existing.permissions())
                        .map_err(|e| io_error(&self.path, e))?;
                }
            }
            std::fs::rename(&self.path, &target).map_err(|e| io_error(&target, e))?;
        } else {
            match std::fs::hard_link(&self.path, &target) {
                Ok(()) => {
                    let _ = std::fs::remove_file(&self.path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return Err(ExportError::Exists(target));
                }
                // A file system without hard links: check, then rename.
                Err(_) => {
                    if std::fs::symlink_metadata(&target).is_ok() {
                        return Err(ExportError::Exists(target));
                    }
                    std::fs::rename(&self.path, &target).map_err(|e| io_error(&target, e))?;
                }
            }
        }
        self.done = true;
        unregister(&self.path);
        Ok(target)
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.path);
            unregister(&self.path);
        }
    }
}

/// PNG frames being written into a hidden staging directory beside the output directory.
pub(crate) struct StagedFrames {
    staging: PathBuf,
    out: PathBuf,
    force: bool,
    done: bool,
    /// Parent directories this export created (innermost first), removed again on failure.
    created: Vec<PathBuf>,
    /// Staging inside the output directory (its parent is not writable): frames are renamed
    /// in one by one.
    inside: bool,
}

impl StagedFrames {
    /// Create missing parent directories of `out` and the staging directory beside it.
    pub(crate) fn new(out: &Path, force: bool) -> Result<StagedFrames, ExportError> {
        // A link to a directory: work on the directory itself (the link stays).
        let out = match std::fs::symlink_metadata(out) {
            Ok(m) if m.file_type().is_symlink() && out.is_dir() => {
                std::fs::canonicalize(out).map_err(|e| io_error(out, e))?
            }
            _ => out.to_path_buf(),
        };
        let parent = parent_dir(&out);
        let mut created = Vec::new();
        let mut dir = parent.as_path();
        while !dir.as_os_str().is_empty() && !dir.exists() {
            created.push(dir.to_path_buf());
            match dir.parent() {
                Some(p) => dir = p,
                None => break,
            }
        }
        let mut staged = StagedFrames {
            staging: PathBuf::new(),
            out: out.clone(),
            force,
            done: false,
            created,
            inside: false,
        };
        created_dirs().extend(staged.created.iter().cloned());
        std::fs::create_dir_all(&parent).map_err(|e| io_error(&parent, e))?;
        remove_stale(&parent);
        let staging = parent.join(staging_name(""));
        register(&staging);
        staged.staging = staging;
        if let Err(e) = std::fs::create_dir(&staged.staging) {
            // The parent is not writable but the output directory may be: stage inside it
            // and rename the frames in one by one at the end.
            if !out.is_dir() {
                return Err(io_error(&parent, e));
            }
            unregister(&staged.staging);
            remove_stale(&out);
            let inside = out.join(staging_name(""));
            register(&inside);
            staged.staging = inside;
            staged.inside = true;
            std::fs::create_dir(&staged.staging).map_err(|e| io_error(&out, e))?;
        }
        Ok(staged)
    }

    /// Where frame `i` is written while the export runs.
    pub(crate) fn staged_path(&self, i: usize) -> PathBuf {
        self.staging.join(frame_name(i))
    }

    /// Put the `count` staged frames in place: the whole directory at once where possible
    /// (see the module documentation).
    pub(crate) fn commit(mut self, count: usize) -> Result<PathBuf, ExportError> {
        let out = self.out.clone();
        if self.inside {
            if !self.force {
                if let Some(first) = existing_frames(&out).first() {
                    return Err(ExportError::Exists(first.clone()));
                }
            }
            self.rename_one_by_one(count)?;
            self.finish();
            return Ok(out);
        }
        match std::fs::symlink_metadata(&out) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::rename(&self.staging, &out).map_err(|e| io_error(&out, e))?;
            }
            Err(e) => return Err(io_error(&out, e)),
            Ok(_) => {
                if !self.force {
                    if let Some(first) = existing_frames(&out).first() {
                        return Err(ExportError::Exists(first.clone()));
                    }
                }
                // Without --force an existing directory stays itself (its inode, owner and
                // other files): the frames are renamed into it. With --force it is exchanged
                // whole for the new one where possible.
                if !self.force || !self.swap_into(&out)? {
                    self.rename_one_by_one(count)?;
                }
            }
        }
        self.finish();
        Ok(out)
    }

    /// Exchange the staging directory with the existing `out`, carrying `out`'s other files
    /// along. `Ok(false)` when the exchange is not possible here.
    fn swap_into(&self, out: &Path) -> Result<bool, ExportError> {
        let entries: Vec<std::fs::DirEntry> = std::fs::read_dir(out)
            .map_err(|e| io_error(out, e))?
            .filter_map(|e| e.ok())
            .collect();
        let mut linked = Vec::new();
        let mut possible = true;
        for entry in &entries {
            let name = entry.file_name();
            if name.to_str().and_then(frame_number).is_some() {
                continue;
            }
            let to = self.staging.join(&name);
            let file_type = entry.file_type().ok();
            let ok = match file_type {
                Some(t) if t.is_file() => std::fs::hard_link(entry.path(), &to).is_ok(),
                Some(t) if t.is_symlink() => std::fs::read_link(entry.path())
                    .and_then(|target| std::os::unix::fs::symlink(target, &to))
                    .is_ok(),
                _ => false,
            };
            if !ok {
                possible = false;
                break;
            }
            linked.push(to);
        }
        if possible {
            if let Ok(meta) = std::fs::metadata(out) {
                let _ = std::fs::set_permissions(&self.staging, meta.permissions());
            }
            if exchange(&self.staging, out).is_ok() {
                // The staging path now holds the old content: rescue anything that appeared
                // in the output meanwhile, then drop the rest.
                if let Ok(old) = std::fs::read_dir(&self.staging) {
                    for entry in old.filter_map(|e| e.ok()) {
                        let name = entry.file_name();
                        let is_frame = name.to_str().and_then(frame_number).is_some();
                        let to = out.join(&name);
                        if !is_frame && std::fs::symlink_metadata(&to).is_err() {
                            let _ = std::fs::rename(entry.path(), &to);
                        }
                    }
                }
                remove_any(&self.staging);
                return Ok(true);
            }
        }
        for path in linked {
            let _ = std::fs::remove_file(path);
        }
        Ok(false)
    }

    /// Move frames `0..count` to their final names, then (with `force`) remove old frames
    /// numbered `count` or more.
    fn rename_one_by_one(&self, count: usize) -> Result<(), ExportError> {
        for i in 0..count {
            let to = self.out.join(frame_name(i));
            std::fs::rename(self.staged_path(i), &to).map_err(|e| io_error(&to, e))?;
        }
        if self.force {
            for old in existing_frames(&self.out) {
                let stale = old
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(frame_number)
                    .is_some_and(|n| n >= count);
                if stale {
                    std::fs::remove_file(&old).map_err(|e| io_error(&old, e))?;
                }
            }
        }
        remove_any(&self.staging);
        Ok(())
    }

    fn finish(&mut self) {
        self.done = true;
        unregister(&self.staging);
        created_dirs().retain(|d| !self.created.contains(d));
    }
}

impl Drop for StagedFrames {
    fn drop(&mut self) {
        if !self.done {
            if !self.staging.as_os_str().is_empty() {
                remove_any(&self.staging);
                unregister(&self.staging);
            }
            for dir in &self.created {
                let _ = std::fs::remove_dir(dir);
            }
            created_dirs().retain(|d| !self.created.contains(d));
        }
    }
}

/// Atomically exchange two directory entries (Linux); an error elsewhere.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are valid NUL-terminated paths; renameat2 only reads them.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_names_and_numbers() {
        assert_eq!(frame_name(0), "frame_00000.png");
        assert_eq!(frame_name(123456), "frame_123456.png");
        assert_eq!(frame_number("frame_00042.png"), Some(42));
        for bad in [
            "frame_.png",
            "frame_12.jpg",
            "frame_1a.png",
            "xframe_1.png",
            "frame_-1.png",
        ] {
            assert_eq!(frame_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn staged_file_appears_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.gif");
        let staged = StagedFile::new(&target, false).unwrap();
        {
            use std::io::Write;
            let mut w = staged.writer().unwrap();
            w.write_all(b"GIF89a").unwrap();
        }
        assert!(!target.exists());
        staged.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"GIF89a");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn dropped_staged_file_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.gif");
        drop(StagedFile::new(&target, false).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn staged_frames_commit_and_force_removes_stale_frames() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        std::fs::create_dir(&out).unwrap();
        for i in 0..5 {
            std::fs::write(out.join(frame_name(i)), b"old").unwrap();
        }
        std::fs::write(out.join("keep.txt"), b"mine").unwrap();
        let staged = StagedFrames::new(&out, true).unwrap();
        for i in 0..3 {
            std::fs::write(staged.staged_path(i), b"new").unwrap();
        }
        staged.commit(3).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "frame_00000.png",
                "frame_00001.png",
                "frame_00002.png",
                "keep.txt"
            ]
        );
        assert_eq!(std::fs::read(out.join(frame_name(2))).unwrap(), b"new");
    }

    #[test]
    fn failed_frames_export_removes_the_directories_it_created() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new").join("frames");
        let staged = StagedFrames::new(&out, false).unwrap();
        std::fs::write(staged.staged_path(0), b"partial").unwrap();
        drop(staged);
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
