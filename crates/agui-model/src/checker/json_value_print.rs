//! A fingerprint of a JSON text as a value (docs/rules.md
//! `messages.snapshot-disagrees`, revision 4: arguments that are both one
//! JSON value are compared as values). One pass over the bytes, no
//! allocation: whitespace between tokens is skipped, a string is hashed by
//! the characters it decodes to (`"A"` and `"\u0041"` agree), an object's
//! members are combined in an order-free way (member order does not
//! differ), an array's elements in order; a number is hashed by its text.
//! It runs at the end of every tool call, so it must cost about what
//! reading the arguments costs (a `serde_json::Value` and a canonical text
//! cost 28 % of a whole check; docs/performance.md).

/// Deeper values are not fingerprinted (the caller compares exactly).
const MAX_DEPTH: usize = 128;

/// The fingerprint of `text` as one JSON value (surrounding whitespace
/// allowed), or `None` when it is not one, or nests deeper than 128.
pub(crate) fn value_print(text: &str) -> Option<u64> {
    let mut p = Parser {
        b: text.as_bytes(),
        at: 0,
    };
    p.ws();
    let h = p.value(0)?;
    p.ws();
    (p.at == p.b.len()).then_some(h)
}

/// splitmix64's finaliser: a well-mixed 64-bit step.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn step(h: u64, x: u64) -> u64 {
    mix(h ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

const OBJECT: u64 = 1;
const ARRAY: u64 = 2;
const STRING: u64 = 3;
const NUMBER: u64 = 4;
const TRUE: u64 = 5;
const FALSE: u64 = 6;
const NULL: u64 = 7;

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.b.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<u64> {
        if depth > MAX_DEPTH {
            return None;
        }
        match *self.b.get(self.at)? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string(),
            b't' => self.word(b"true", TRUE),
            b'f' => self.word(b"false", FALSE),
            b'n' => self.word(b"null", NULL),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn word(&mut self, w: &[u8], h: u64) -> Option<u64> {
        self.b[self.at..].starts_with(w).then(|| {
            self.at += w.len();
            mix(h)
        })
    }

    /// Members combined by a wrapping sum of each (name, value) print: the
    /// same members in any order give the same print. (A name given twice
    /// counts twice, unlike `JSON.parse`, which keeps the last: such
    /// arguments are rare, and a difference is then only reported.)
    fn object(&mut self, depth: usize) -> Option<u64> {
        self.at += 1;
        self.ws();
        let mut sum = 0u64;
        let mut n = 0u64;
        if !self.eat(b'}') {
            loop {
                self.ws();
                if self.b.get(self.at) != Some(&b'"') {
                    return None;
                }
                let name = self.string()?;
                self.ws();
                if !self.eat(b':') {
                    return None;
                }
                self.ws();
                let v = self.value(depth + 1)?;
                sum = sum.wrapping_add(step(name, v));
                n += 1;
                self.ws();
                if self.eat(b',') {
                    continue;
                }
                if self.eat(b'}') {
                    break;
                }
                return None;
            }
        }
        Some(step(step(mix(OBJECT), n), sum))
    }

    fn array(&mut self, depth: usize) -> Option<u64> {
        self.at += 1;
        self.ws();
        let mut h = mix(ARRAY);
        if self.eat(b']') {
            return Some(h);
        }
        loop {
            self.ws();
            h = step(h, self.value(depth + 1)?);
            self.ws();
            if self.eat(b',') {
                continue;
            }
            if self.eat(b']') {
                return Some(h);
            }
            return None;
        }
    }

    /// By the characters the string decodes to (escapes decoded; a lone
    /// surrogate escape hashes as its code unit).
    fn string(&mut self) -> Option<u64> {
        self.at += 1;
        let mut h = mix(STRING);
        loop {
            let c = *self.b.get(self.at)?;
            match c {
                b'"' => {
                    self.at += 1;
                    return Some(h);
                }
                b'\\' => {
                    let e = *self.b.get(self.at + 1)?;
                    self.at += 2;
                    let ch = match e {
                        b'"' => u32::from(b'"'),
                        b'\\' => u32::from(b'\\'),
                        b'/' => u32::from(b'/'),
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => 10,
                        b'r' => 13,
                        b't' => 9,
                        b'u' => self.unicode()?,
                        _ => return None,
                    };
                    h = step(h, u64::from(ch));
                }
                0..=0x1f => return None,
                // ASCII, the common case: the character is the byte.
                0x20..=0x7f => {
                    self.at += 1;
                    h = step(h, u64::from(c));
                }
                _ => {
                    // One UTF-8 character (the text is a `str`: valid).
                    let len = match c {
                        0x00..=0x7f => 1,
                        0xc0..=0xdf => 2,
                        0xe0..=0xef => 3,
                        _ => 4,
                    };
                    let s = std::str::from_utf8(self.b.get(self.at..self.at + len)?).ok()?;
                    let ch = s.chars().next()?;
                    self.at += len;
                    h = step(h, u64::from(u32::from(ch)));
                }
            }
        }
    }

    /// The code point of `\uXXXX` (and of a following low surrogate
    /// escape, when this one is a high surrogate).
    fn unicode(&mut self) -> Option<u32> {
        let hex = |p: &mut Self| -> Option<u32> {
            let s = std::str::from_utf8(p.b.get(p.at..p.at + 4)?).ok()?;
            let v = u32::from_str_radix(s, 16).ok()?;
            p.at += 4;
            Some(v)
        };
        let u = hex(self)?;
        if (0xd800..0xdc00).contains(&u) && self.b[self.at..].starts_with(b"\\u") {
            let save = self.at;
            self.at += 2;
            match hex(self) {
                Some(l) if (0xdc00..0xe000).contains(&l) => {
                    return Some(0x10000 + ((u - 0xd800) << 10) + (l - 0xdc00));
                }
                _ => self.at = save,
            }
        }
        Some(u)
    }

    /// By its text (`1.0` and `1` differ; JSON gives no one spelling).
    fn number(&mut self) -> Option<u64> {
        let start = self.at;
        self.eat(b'-');
        let digits = |p: &mut Self| {
            let s = p.at;
            while matches!(p.b.get(p.at), Some(b'0'..=b'9')) {
                p.at += 1;
            }
            p.at > s
        };
        if !digits(self) {
            return None;
        }
        if self.eat(b'.') && !digits(self) {
            return None;
        }
        if matches!(self.b.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if !digits(self) {
                return None;
            }
        }
        let mut h = mix(NUMBER);
        for &c in &self.b[start..self.at] {
            h = step(h, u64::from(c));
        }
        Some(h)
    }
}

#[cfg(test)]
mod tests {
    use super::value_print;

    #[test]
    fn whitespace_and_member_order_do_not_differ() {
        let a = value_print(r#"{"city": "Lisbon", "days": [1, 2], "x": {"a": true, "b": null}}"#);
        let b = value_print(r#"{"x":{"b":null,"a":true},"days":[1,2],"city":"Lisbon"}"#);
        assert!(a.is_some());
        assert_eq!(a, b);
        assert_eq!(value_print(" \"A\"\n"), value_print(r#""\u0041""#));
        assert_eq!(value_print(r#""😀""#), value_print(r#""\ud83d\ude00""#));
        // ASCII read byte by byte, the rest decoded: the same characters.
        assert_eq!(
            value_print("\" ~\u{7f}é\""),
            value_print(r#""\u0020\u007e\u007f\u00e9""#)
        );
    }

    #[test]
    fn other_values_differ() {
        let base = value_print(r#"{"city":"Lisbon"}"#);
        for other in [
            r#"{"city":"Porto"}"#,
            r#"{"town":"Lisbon"}"#,
            r#"{"city":"Lisbon","x":1}"#,
            r#"[{"city":"Lisbon"}]"#,
            r#"{"city":["Lisbon"]}"#,
            r#""{\"city\":\"Lisbon\"}""#,
        ] {
            assert_ne!(value_print(other), base, "{other}");
        }
        assert_ne!(value_print("[1,2]"), value_print("[2,1]"));
        assert_ne!(value_print("1"), value_print("1.0"));
        assert_ne!(value_print("true"), value_print("null"));
    }

    #[test]
    fn not_one_value_is_none() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01x",
            "1 2",
            "\"a",
            "tru",
            "{\"a\":1,}",
            "-",
            "1.",
            "1e",
        ] {
            assert_eq!(value_print(bad), None, "{bad:?}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(value_print(&deep), None);
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(value_print(&ok).is_some());
    }
}
