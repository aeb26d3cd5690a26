//! Saving what the window shows as a PNG: rows flipped from OpenGL's bottom-up order and
//! written atomically (a temporary file in the same directory, renamed into place), so a
//! reader never sees a half-written image.

#[cfg(not(target_arch = "wasm32"))]
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a screenshot could not be saved.
#[derive(Debug, Error)]
pub enum ScreenshotError {
    #[error("screenshot has {got} bytes, expected {expected} for {width}x{height} RGBA")]
    Size {
        width: u32,
        height: u32,
        expected: usize,
        got: usize,
    },
    #[error("cannot write screenshot {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: already exists (add --force to overwrite it)", .path.display())]
    Exists { path: PathBuf },
    #[error("{}: not a regular file; a screenshot never replaces it", .path.display())]
    NotRegular { path: PathBuf },
    #[error("cannot encode screenshot {path}: {source}")]
    Encode {
        path: PathBuf,
        source: png::EncodingError,
    },
}

/// Reverses the row order of a `width` x `height` RGBA image in place.
pub fn flip_rows(rgba: &mut [u8], width: u32, height: u32) {
    let row = width as usize * 4;
    let h = height as usize;
    if row == 0 || rgba.len() < row * h {
        return;
    }
    for y in 0..h / 2 {
        let (top, bottom) = rgba.split_at_mut((h - 1 - y) * row);
        top[y * row..(y + 1) * row].swap_with_slice(&mut bottom[..row]);
    }
}

/// Whether a screenshot may be written to `path`: a new file always; an existing regular file
/// only with `overwrite`; never a directory, device, pipe or symbolic link.
pub fn check_target(path: &Path, overwrite: bool) -> Result<(), ScreenshotError> {
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(meta) if !meta.file_type().is_file() => Err(ScreenshotError::NotRegular {
            path: path.to_path_buf(),
        }),
        Ok(_) if overwrite => Ok(()),
        Ok(_) => Err(ScreenshotError::Exists {
            path: path.to_path_buf(),
        }),
    }
}

/// Writes a `width` x `height` RGBA image (top row first) to `path` as an opaque RGB PNG,
/// atomically, with the user's umask (mode 0666 minus umask). An existing regular file is
/// replaced (callers check [`check_target`] first); anything else at `path` is refused.
#[cfg(target_arch = "wasm32")]
pub fn write_png(path: &Path, _: u32, _: u32, _: &[u8]) -> Result<(), ScreenshotError> {
    Err(ScreenshotError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "a web page has no file system",
        ),
    })
}

/// Native builds: see above.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), ScreenshotError> {
    let expected = width as usize * height as usize * 4;
    if rgba.len() != expected || expected == 0 {
        return Err(ScreenshotError::Size {
            width,
            height,
            expected,
            got: rgba.len(),
        });
    }
    let io = |source| ScreenshotError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    check_target(path, true)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".juggler-shot").suffix(".png");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with open(2)'s mode, which the kernel masks with the umask.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    {
        let mut encoder = png::Encoder::new(BufWriter::new(tmp.as_file_mut()), width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let encode = |source| ScreenshotError::Encode {
            path: path.to_path_buf(),
            source,
        };
        let mut writer = encoder.write_header().map_err(encode)?;
        let rgb: Vec<u8> = rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        writer.write_image_data(&rgb).map_err(encode)?;
        writer.finish().map_err(encode)?;
    }
    tmp.as_file_mut().flush().map_err(io)?;
    // Checked again just before the rename: something may have appeared meanwhile.
    check_target(path, true)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_rows_reverses_row_order() {
        // 1x3 image: rows 0, 1, 2 with distinct red values.
        let mut img = vec![0, 0, 0, 255, 1, 0, 0, 255, 2, 0, 0, 255];
        flip_rows(&mut img, 1, 3);
        assert_eq!(img, vec![2, 0, 0, 255, 1, 0, 0, 255, 0, 0, 0, 255]);
        let mut img2 = vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
        flip_rows(&mut img2, 2, 2);
        assert_eq!(
            img2,
            vec![9, 10, 11, 12, 13, 14, 15, 16, 1, 2, 3, 4, 5, 6, 7, 8]
        );
    }

    #[test]
    fn written_png_decodes_to_the_same_pixels() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("shot.png");
        let rgba = [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255,
        ];
        write_png(&path, 2, 2, &rgba).expect("write");
        let decoder = png::Decoder::new(std::fs::File::open(&path).expect("open"));
        let mut reader = decoder.read_info().expect("info");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("frame");
        assert_eq!(
            (info.width, info.height, info.color_type),
            (2, 2, png::ColorType::Rgb)
        );
        assert_eq!(&buf[..12], &[255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
    }

    #[test]
    fn never_overwrites_without_force_nor_replaces_special_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let existing = dir.path().join("existing.png");
        std::fs::write(&existing, b"precious").unwrap();
        let err = check_target(&existing, false).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("existing.png: already exists (add --force to overwrite it)"),
            "{err}"
        );
        assert!(check_target(&existing, true).is_ok());
        assert!(check_target(&dir.path().join("new.png"), false).is_ok());
        for special in [dir.path().to_path_buf(), PathBuf::from("/dev/null")] {
            let err = check_target(&special, true).unwrap_err();
            assert!(matches!(err, ScreenshotError::NotRegular { .. }), "{err}");
            assert!(write_png(&special, 1, 1, &[0; 4]).is_err());
        }
        assert_eq!(std::fs::read(&existing).unwrap(), b"precious");
        #[cfg(unix)]
        {
            let link = dir.path().join("link.png");
            std::os::unix::fs::symlink(&existing, &link).unwrap();
            assert!(matches!(
                check_target(&link, true),
                Err(ScreenshotError::NotRegular { .. })
            ));
        }
    }

    #[cfg(unix)]
    #[test]
    fn screenshot_mode_follows_the_umask_not_0600() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("mode.png");
        write_png(&path, 1, 1, &[1, 2, 3, 255]).expect("write");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        // The process umask, as Linux reports it ("Umask:\t0022").
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if let Some(umask) = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        {
            assert_eq!(mode, 0o666 & !umask, "mode {mode:o}, umask {umask:o}");
        }
    }

    #[test]
    fn wrong_buffer_size_and_missing_directory_are_errors() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = write_png(&dir.path().join("a.png"), 2, 2, &[0; 15]).unwrap_err();
        assert!(matches!(
            err,
            ScreenshotError::Size {
                expected: 16,
                got: 15,
                ..
            }
        ));
        let err = write_png(&dir.path().join("no/such/dir/a.png"), 1, 1, &[0; 4]).unwrap_err();
        assert!(err.to_string().contains("cannot write screenshot"), "{err}");
    }
}
