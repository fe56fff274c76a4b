//! The conservative screen of one raw JSON value (already syntax-checked by
//! serde_json): whether parsing it into a `Value` is sure to succeed.

use super::MAX_DEPTH;

/// Longest run of digits accepted: any such number parses as an `f64`
/// or integer without overflow.
const MAX_DIGITS: usize = 15;

/// Whether `raw` has no nesting beyond [`MAX_DEPTH`], no `\u` escape and no
/// number with an exponent or more than [`MAX_DIGITS`] digits in a row.
pub(super) fn plain(raw: &[u8]) -> bool {
    // The common case: a string without escapes (serde_json has checked it).
    if raw.first() == Some(&b'"') && memchr::memchr(b'\\', raw).is_none() {
        return true;
    }
    let mut depth = 0usize;
    let mut digits = 0usize;
    let mut prev = 0u8;
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        match b {
            b'"' => {
                i += 1;
                loop {
                    let Some(k) = memchr::memchr2(b'"', b'\\', &raw[i..]) else {
                        return false;
                    };
                    i += k;
                    if raw[i] == b'"' {
                        break;
                    }
                    if raw.get(i + 1) == Some(&b'u') {
                        return false;
                    }
                    i += 2;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'0'..=b'9' => {
                digits += 1;
                if digits > MAX_DIGITS {
                    return false;
                }
            }
            b'e' | b'E' if prev.is_ascii_digit() || prev == b'.' => return false,
            _ => {}
        }
        if !b.is_ascii_digit() {
            digits = 0;
        }
        prev = b;
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn screens() {
        for ok in [
            &b"\"abc\""[..],
            b"\"a\\nb\"",
            b"[1,2.5,-3,true,false,null]",
            b"{\"e\":1}",
        ] {
            assert!(plain(ok), "{}", String::from_utf8_lossy(ok));
        }
        let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
        for bad in [
            &b"1e5"[..],
            b"1.0E2",
            b"\"\\u0041\"",
            b"1234567890123456",
            deep.as_bytes(),
        ] {
            assert!(!plain(bad), "{}", String::from_utf8_lossy(bad));
        }
    }
}
