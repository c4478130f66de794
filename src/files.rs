//! Reading the text files a user names (configs, saves, opening lists) with a size limit, so
//! that a wrong path (`/dev/zero`, a disk image, a log) is refused with a message instead of
//! filling the memory.

use std::io::Read;
use std::path::Path;

/// The largest config or opening list read, in bytes: far beyond any real one.
pub const MAX_SETTINGS_BYTES: u64 = 16 << 20;

/// The largest saved game read, in bytes: a save of the longest game any board allows is a
/// few megabytes at most.
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

/// The text of the file at `path`, without a leading byte-order mark (some Windows editors
/// write one), refused (as [`std::io::ErrorKind::InvalidData`]) when it is longer than
/// `limit` bytes or not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "it is larger than {} MB, far more than such a file holds",
                limit >> 20
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_over_the_limit_or_not_text_are_refused() {
        let dir = std::env::temp_dir().join(format!("gametree-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_text(&path, 10).unwrap(), "0123456789");
        let err = read_text(&path, 9).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("larger than"), "{err}");
        std::fs::write(&path, "\u{feff}[a]").unwrap();
        assert_eq!(read_text(&path, 10).unwrap(), "[a]");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(
            read_text(&path, 10)
                .unwrap_err()
                .to_string()
                .contains("UTF-8")
        );
        // An endless file stops at the limit.
        if Path::new("/dev/zero").exists() {
            let err = read_text(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(err.to_string().contains("larger than 1 MB"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
