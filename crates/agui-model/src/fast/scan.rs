//! A strict, conservative JSON scanner over one line: it validates the
//! syntax as serde_json would and hands out raw slices, without building
//! anything. `None` means "decline" (the line takes the `Value` path): on
//! invalid JSON, and on the few valid inputs where a byte-for-byte screen
//! cannot be sure serde_json agrees — a `\u` escape in the surrogate range,
//! a number with an exponent or more than [`MAX_DIGITS`] digits in a row,
//! nesting deeper than [`MAX_DEPTH`].

use super::MAX_DEPTH;

/// Longest run of digits accepted: any such number parses as an `f64`
/// or integer without overflow.
const MAX_DIGITS: usize = 15;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Bytes of `w` equal to `c`, as high bits (exact up to the first one).
#[inline]
fn eq_bytes(w: u64, c: u8) -> u64 {
    let x = w ^ (LO * u64::from(c));
    x.wrapping_sub(LO) & !x & HI
}

/// Where the next `"`, `\`, control character or (when `ascii` is
/// [`HI`]) non-ASCII byte is, from `i` (or the end): sixteen bytes at a
/// time where the target has them in one register (SSE2 is part of
/// x86-64), then eight ([`find_special_words`]).
#[inline]
pub(crate) fn find_special(b: &[u8], i: usize, ascii: u64) -> usize {
    #[cfg(target_arch = "x86_64")]
    let i = match find_special_sse2(b, i, ascii) {
        Ok(at) => return at,
        Err(from) => from,
    };
    find_special_words(b, i, ascii)
}

/// [`find_special`] over whole 16-byte blocks from `i`: `Ok` where the
/// byte is, or `Err` where the blocks ran out (fewer than 16 bytes left).
#[cfg(target_arch = "x86_64")]
#[inline]
fn find_special_sse2(b: &[u8], mut i: usize, ascii: u64) -> Result<usize, usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    while let Some(block) = b.get(i..i + 16) {
        // SAFETY: SSE2 is part of every x86-64 target; the load is
        // unaligned and reads exactly the 16 bytes of `block`.
        let mask = unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            let stop = if ascii != 0 {
                // Signed: a byte of 0x80 or more is negative, so below
                // 0x20 too: control and non-ASCII bytes in one compare.
                _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))
            } else {
                // Unsigned `v <= 0x1F`: control bytes only.
                _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v)
            };
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            _mm_movemask_epi8(_mm_or_si128(stop, _mm_or_si128(quote, backslash))) as u32
        };
        if mask != 0 {
            return Ok(i + mask.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// [`find_special`] eight bytes at a time (and the last few one by one):
/// the portable form, and the end of a line on x86-64.
#[inline]
fn find_special_words(b: &[u8], mut i: usize, ascii: u64) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let ctrl = w.wrapping_sub(LO * 0x20) & !w & HI;
        let hits = ctrl | eq_bytes(w, b'"') | eq_bytes(w, b'\\') | (w & ascii);
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let stop_high = ascii != 0;
    while i < b.len() && !matches!(b[i], b'"' | b'\\' | 0..=0x1F) && !(stop_high && b[i] >= 0x80) {
        i += 1;
    }
    i
}

/// The raw keys of one object so far, to decline on a duplicate
/// (`schema.duplicate-key` is judged on the `Value` path).
#[derive(Default)]
pub(super) struct Keys<'a> {
    few: [&'a str; 8],
    n: usize,
    more: Vec<&'a str>,
}

impl<'a> Keys<'a> {
    /// Adds a raw key; false if it was there already.
    #[inline]
    pub(super) fn insert(&mut self, key: &'a str) -> bool {
        let seen = &self.few[..self.n.min(8)];
        if seen.contains(&key) || self.more.contains(&key) {
            return false;
        }
        if self.n < 8 {
            self.few[self.n] = key;
        } else {
            self.more.push(key);
        }
        self.n += 1;
        true
    }
}

/// The cursor over one line. Every slice it cuts is at an ASCII byte, so
/// on a character boundary.
///
/// A raw line ([`Scanner::line`]) is not checked for UTF-8 up front: the
/// only place the scanner passes a non-ASCII byte is inside a string, and
/// the first time it meets one it checks the whole line (declining if it is
/// not UTF-8). A line it accepts without meeting one is ASCII. So every
/// slice it hands out is UTF-8, and an all-ASCII line (the common case) is
/// read once instead of twice.
pub(super) struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    /// [`HI`] until the whole text is known to be UTF-8, then 0: the mask
    /// of bytes at which a string's scan stops to check.
    unchecked: u64,
}

impl<'a> Scanner<'a> {
    /// A cursor over text known to be UTF-8.
    pub(super) fn new(s: &'a str) -> Self {
        Scanner {
            b: s.as_bytes(),
            i: 0,
            unchecked: 0,
        }
    }

    /// A cursor over a raw line, checked for UTF-8 only if it holds a
    /// non-ASCII byte.
    pub(super) fn line(b: &'a [u8]) -> Self {
        Scanner {
            b,
            i: 0,
            unchecked: HI,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.b
    }

    /// The text `start..end` (both at ASCII bytes the scanner passed).
    #[inline]
    fn cut(&self, start: usize, end: usize) -> Option<&'a str> {
        let bytes = self.b.get(start..end)?;
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: a non-ASCII byte is only ever passed inside a string,
        // after the whole text was found to be UTF-8 (`Scanner::string_rest`);
        // before that, everything passed is ASCII. `start` and `end` are at
        // ASCII bytes, so on character boundaries.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// Skips JSON whitespace and returns the next byte.
    #[inline]
    pub(super) fn peek(&mut self) -> Option<u8> {
        let b = self.bytes();
        // Every JSON whitespace byte is at most a space: one test for the
        // common, compact case.
        let c = *b.get(self.i)?;
        if c > b' ' {
            return Some(c);
        }
        while let Some(&c) = b.get(self.i) {
            if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(c);
            }
            self.i += 1;
        }
        None
    }

    /// Consumes `c` (after whitespace) or declines.
    #[inline]
    pub(super) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// Whether only whitespace is left.
    pub(super) fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// The bytes after the cursor.
    #[inline]
    pub(super) fn rest(&self) -> &'a [u8] {
        &self.b[self.i.min(self.b.len())..]
    }

    /// Moves the cursor `n` bytes on (past bytes [`Scanner::rest`] showed).
    #[inline]
    pub(super) fn skip(&mut self, n: usize) {
        self.i += n;
    }

    /// A string at the cursor (after whitespace): its raw text, quotes
    /// included, and whether it holds escapes.
    #[inline]
    pub(super) fn string(&mut self) -> Option<(&'a str, bool)> {
        self.eat(b'"')?;
        self.string_rest()
    }

    /// The rest of a string whose opening quote was just consumed.
    #[inline]
    pub(super) fn string_rest(&mut self) -> Option<(&'a str, bool)> {
        let b = self.bytes();
        let start = self.i - 1;
        let mut escaped = false;
        let mut i = self.i;
        loop {
            i = find_special(b, i, self.unchecked);
            match *b.get(i)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i = escape(b, i + 1)?;
                }
                // The first non-ASCII byte: the whole line is checked once,
                // and the scan goes on past such bytes.
                0x80.. => self.check_utf8()?,
                _ => return None,
            }
        }
        self.i = i + 1;
        Some((self.cut(start, self.i)?, escaped))
    }

    /// Checks the whole text for UTF-8 (once); `None` if it is not.
    #[cold]
    #[inline(never)]
    fn check_utf8(&mut self) -> Option<()> {
        // simdutf8: the same answer as `std::str::from_utf8`, in about half
        // the time on lines of this length (docs/performance-log.md).
        simdutf8::basic::from_utf8(self.b).ok()?;
        self.unchecked = 0;
        Some(())
    }

    /// Skips one value (after whitespace) nested `depth` deep below the
    /// event object, and returns its raw text.
    pub(super) fn value(&mut self, depth: usize) -> Option<&'a str> {
        let c = self.peek()?;
        let start = self.i;
        match c {
            b'"' => {
                self.string()?;
            }
            b'{' | b'[' => self.container(c, depth + 1)?,
            b't' => self.literal("true")?,
            b'f' => self.literal("false")?,
            b'n' => self.literal("null")?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return None,
        }
        self.cut(start, self.i)
    }

    fn container(&mut self, open: u8, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        let close = if open == b'{' { b'}' } else { b']' };
        if self.peek()? == close {
            self.i += 1;
            return Some(());
        }
        let mut keys = Keys::default();
        loop {
            if open == b'{' {
                let (key, escaped) = self.string()?;
                // A key spelled with escapes could name another key
                // spelled without: the `Value` path judges duplicates then.
                if escaped || !keys.insert(key) {
                    return None;
                }
                self.eat(b':')?;
            }
            self.value(depth)?;
            match self.peek()? {
                b',' => self.i += 1,
                c if c == close => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.i + word.len();
        (self.bytes().get(self.i..end)? == word.as_bytes()).then(|| self.i = end)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)?`; an exponent declines.
    fn number(&mut self) -> Option<()> {
        let b = self.bytes();
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let int = digits(b, i)?;
        if int > 1 && b[i] == b'0' {
            return None;
        }
        i += int;
        if b.get(i) == Some(&b'.') {
            i += 1;
            i += digits(b, i)?;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            return None;
        }
        self.i = i;
        Some(())
    }
}

/// The length of the run of digits at `i`: one to [`MAX_DIGITS`].
fn digits(b: &[u8], i: usize) -> Option<usize> {
    let n = b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    (1..=MAX_DIGITS).contains(&n).then_some(n)
}

/// Validates the escape after a backslash at `i - 1`; returns the index
/// after it. `\u` in the surrogate range declines.
fn escape(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 1),
        b'u' => {
            let n = hex4(b.get(i + 1..i + 5)?)?;
            (!(0xD800..=0xDFFF).contains(&n)).then_some(i + 5)
        }
        _ => None,
    }
}

fn hex4(h: &[u8]) -> Option<u32> {
    h.iter().try_fold(0u32, |n, &c| {
        let d = (c as char).to_digit(16)?;
        Some(n * 16 + d)
    })
}

/// The content of a raw string the scanner accepted, with its escapes
/// decoded.
pub(super) fn unescape(raw: &str) -> Option<String> {
    let inner = raw.get(1..raw.len().checked_sub(1)?)?;
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let b = rest.as_bytes();
        let (c, len) = match *b.get(at + 1)? {
            b'"' => ('"', 2),
            b'\\' => ('\\', 2),
            b'/' => ('/', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'n' => ('\n', 2),
            b'r' => ('\r', 2),
            b't' => ('\t', 2),
            b'u' => (char::from_u32(hex4(b.get(at + 2..at + 6)?)?)?, 6),
            _ => return None,
        };
        out.push(c);
        rest = rest.get(at + len..)?;
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{HI, Scanner, find_special, unescape};

    /// The definition, one byte at a time.
    fn special_at(b: &[u8], from: usize, ascii: u64) -> usize {
        (from..b.len())
            .find(|&i| matches!(b[i], b'"' | b'\\' | 0..=0x1F) || (ascii != 0 && b[i] >= 0x80))
            .unwrap_or(b.len())
    }

    #[test]
    fn the_block_search_stops_where_the_definition_does() {
        // Every byte class the search tells apart, at every position of
        // lines across the 16- and 8-byte block edges (SplitMix64 draws).
        let alphabet = [b'a', b'"', b'\\', 0x00, 0x1F, b' ', 0x7F, 0x80, 0xC3, 0xFF];
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (seed ^ (seed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB) >> 1
        };
        for len in 0..80 {
            for _ in 0..8 {
                // Mostly plain bytes, so that hits land late in a block too.
                let line: Vec<u8> = (0..len)
                    .map(|_| match next() % 24 {
                        k @ 0..=9 => alphabet[k as usize],
                        _ => b'a',
                    })
                    .collect();
                for from in 0..=len {
                    for ascii in [0, HI] {
                        assert_eq!(
                            find_special(&line, from, ascii),
                            special_at(&line, from, ascii),
                            "{line:?} from {from}, ascii {ascii:x}"
                        );
                    }
                }
            }
        }
    }

    fn value(s: &str) -> Option<&str> {
        let mut sc = Scanner::new(s);
        let v = sc.value(0)?;
        sc.at_end().then_some(v)
    }

    #[test]
    fn accepts_what_serde_json_parses_plainly() {
        for ok in [
            "\"abc\"",
            "\"a\\nb\\\"c\\\\\\/\\b\\f\\r\\t\"",
            "\"\\u00e9\\u0000\"",
            "[1,2.5,-3,0,-0,0.25,true,false,null]",
            " { \"e\" : [ ] , \"f\" : { } } ",
            "\"été\"",
        ] {
            assert!(value(ok).is_some(), "{ok}");
            assert!(
                serde_json::from_str::<serde_json::Value>(ok).is_ok(),
                "{ok}"
            );
        }
        let deep = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert!(value(&deep).is_some());
    }

    #[test]
    fn declines_invalid_and_unsure_values() {
        let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
        for bad in [
            "1e5",
            "1.0E2",
            "1234567890123456",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"a\u{1}b\"",
            "\"open",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            "[1,]",
            "[1 2]",
            "{\"a\"}",
            "{\"a\":1,}",
            "{1:2}",
            "tru",
            "nul",
            "",
            deep.as_str(),
        ] {
            assert!(value(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn unescapes_like_serde_json() {
        for raw in [
            "\"plain\"",
            "\"a\\nb\\\"c\\\\d\\/e\\tf\"",
            "\"\\u00e9t\\u00E9\\u0021\"",
        ] {
            let want: String = serde_json::from_str(raw).expect("valid");
            assert_eq!(unescape(raw).as_deref(), Some(want.as_str()), "{raw}");
        }
    }
}
