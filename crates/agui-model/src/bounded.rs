//! Reading a small file a user names (a configuration, a suite, a case, an
//! input document) with a cap on its size: `/dev/zero` or a runaway file
//! is an error saying so, not a process that reads until memory runs out.

use std::io::{self, Read};
use std::path::Path;

/// The cap for configuration-like files: far above any real one.
pub const CONFIG_BYTES: u64 = 16 << 20;

/// Reads `path` as UTF-8 text of at most `max` bytes.
pub fn read_to_string(path: &Path, max: u64) -> io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    file.take(max.saturating_add(1)).read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {max} bytes; is it the file you meant?"),
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_an_error_not_a_read_without_end() {
        let e = read_to_string(Path::new("/dev/zero"), 1000).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("larger than 1000 bytes"), "{e}");
        let dir = std::env::temp_dir().join(format!("agui-bounded-{}", std::process::id()));
        std::fs::write(&dir, "0123456789").unwrap();
        assert_eq!(read_to_string(&dir, 10).unwrap(), "0123456789");
        assert!(read_to_string(&dir, 9).is_err());
        let _ = std::fs::remove_file(dir);
    }
}
