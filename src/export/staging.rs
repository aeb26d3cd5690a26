//! Atomic output: nothing appears under its final name until it is complete.
//!
//! * A GIF is written to a temporary file in the target's directory and renamed onto the
//!   target at the end (a rename within one directory is atomic).
//! * PNG frames are written into a hidden staging directory inside the output directory
//!   (`.juggler-export-XXXXXX`); when every frame is written they are renamed one by one
//!   to `frame_NNNNN.png`. With `--force`, old frames numbered beyond the new count are
//!   removed afterwards, so the directory holds exactly the new sequence.
//!
//! On any error the staging file or directory is removed (and an output directory that the
//! export created is removed again), so a failed export leaves no partial file under a
//! final name. A process killed by a signal can leave the hidden staging entry behind, but
//! never a half-written `frame_*.png` or GIF.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use tempfile::{NamedTempFile, TempDir};

use super::options::parent_dir;
use super::ExportError;

const STAGING_PREFIX: &str = ".juggler-export-";

/// File name of frame `i`.
pub fn frame_name(i: usize) -> String {
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
pub fn existing_frames(dir: &Path) -> Vec<PathBuf> {
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

/// A GIF being written under a temporary name.
pub struct StagedFile {
    temp: NamedTempFile,
    target: PathBuf,
    force: bool,
}

impl StagedFile {
    /// Create the temporary file next to `target` (this is where an unwritable directory is
    /// detected, before any rendering).
    pub fn new(target: &Path, force: bool) -> Result<StagedFile, ExportError> {
        let dir = parent_dir(target);
        let temp = tempfile::Builder::new()
            .prefix(STAGING_PREFIX)
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| io_error(&dir, e))?;
        Ok(StagedFile {
            temp,
            target: target.to_path_buf(),
            force,
        })
    }

    /// A buffered writer on the temporary file.
    pub fn writer(&self) -> Result<BufWriter<File>, ExportError> {
        let file = self
            .temp
            .reopen()
            .map_err(|e| io_error(self.temp.path(), e))?;
        Ok(BufWriter::with_capacity(1 << 16, file))
    }

    /// Give the complete file its final name.
    pub fn commit(self) -> Result<PathBuf, ExportError> {
        let target = self.target.clone();
        let result = if self.force {
            self.temp.persist(&target).map(|_| ())
        } else {
            self.temp.persist_noclobber(&target).map(|_| ())
        };
        result.map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                ExportError::Exists(target.clone())
            } else {
                io_error(&target, e.error)
            }
        })?;
        Ok(target)
    }
}

/// PNG frames being written into a hidden staging directory.
pub struct StagedFrames {
    /// Declared before `created` so the staging directory is removed first on drop.
    staging: TempDir,
    out: PathBuf,
    force: bool,
    created: Option<CreatedDir>,
}

/// Output directories this export created (innermost first): removed again (if still
/// empty) unless the export succeeded.
struct CreatedDir {
    paths: Vec<PathBuf>,
    keep: bool,
}

impl Drop for CreatedDir {
    fn drop(&mut self) {
        if !self.keep {
            for path in &self.paths {
                let _ = std::fs::remove_dir(path);
            }
        }
    }
}

impl StagedFrames {
    /// Create the output directory if needed, and the staging directory inside it.
    pub fn new(out: &Path, force: bool) -> Result<StagedFrames, ExportError> {
        let created = if out.is_dir() {
            None
        } else {
            let mut paths = vec![out.to_path_buf()];
            let mut dir = out;
            while let Some(parent) = dir.parent() {
                if parent.as_os_str().is_empty() || parent.exists() {
                    break;
                }
                paths.push(parent.to_path_buf());
                dir = parent;
            }
            let guard = CreatedDir { paths, keep: false };
            std::fs::create_dir_all(out).map_err(|e| io_error(out, e))?;
            Some(guard)
        };
        let staging = tempfile::Builder::new()
            .prefix(STAGING_PREFIX)
            .tempdir_in(out)
            .map_err(|e| io_error(out, e))?;
        Ok(StagedFrames {
            staging,
            out: out.to_path_buf(),
            force,
            created,
        })
    }

    /// Where frame `i` is written while the export runs.
    pub fn staged_path(&self, i: usize) -> PathBuf {
        self.staging.path().join(frame_name(i))
    }

    /// Move frames `0..count` to their final names, then (with `force`) remove old frames
    /// numbered `count` or more.
    pub fn commit(mut self, count: usize) -> Result<PathBuf, ExportError> {
        for i in 0..count {
            let from = self.staged_path(i);
            let to = self.out.join(frame_name(i));
            std::fs::rename(&from, &to).map_err(|e| io_error(&to, e))?;
        }
        if let Some(created) = &mut self.created {
            created.keep = true;
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
        Ok(self.out.clone())
    }
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
