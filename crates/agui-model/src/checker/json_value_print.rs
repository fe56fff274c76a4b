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
const fn mix(mut z: u64) -> u64 {
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

/// A string's bytes hashed eight at a time, whatever pieces they come in
/// (the words do not depend on where escapes cut the text), then their
/// count: one [`step`] per word instead of one per character.
struct Chars {
    h: u64,
    word: u64,
    /// Bytes in `word` (0..8).
    fill: u32,
    len: u64,
}

impl Chars {
    #[inline(always)]
    fn new(kind: u64) -> Chars {
        Chars {
            h: mix(kind),
            word: 0,
            fill: 0,
            len: 0,
        }
    }

    fn bytes(&mut self, mut b: &[u8]) {
        self.len += b.len() as u64;
        while self.fill > 0 {
            let Some((&c, rest)) = b.split_first() else {
                return;
            };
            self.byte(c);
            b = rest;
        }
        while let Some(eight) = b.first_chunk::<8>() {
            self.h = step(self.h, u64::from_le_bytes(*eight));
            b = &b[8..];
        }
        for &c in b {
            self.byte(c);
        }
    }

    /// The print of `b` alone, the same as fed to [`Chars::new`]: a value
    /// shorter than a word (most numbers) in one step.
    #[inline]
    fn of(kind: u64, b: &[u8]) -> u64 {
        if b.len() < 8 {
            let mut word = [0u8; 8];
            word[..b.len()].copy_from_slice(b);
            return step(mix(kind) ^ b.len() as u64, u64::from_le_bytes(word));
        }
        let mut chars = Chars::new(kind);
        chars.bytes(b);
        chars.finish()
    }

    /// One byte into the partial word (not counted in `len`).
    fn byte(&mut self, c: u8) {
        self.word |= u64::from(c) << (8 * self.fill);
        self.fill += 1;
        if self.fill == 8 {
            self.h = step(self.h, std::mem::take(&mut self.word));
            self.fill = 0;
        }
    }

    /// A decoded character, or a lone surrogate's code unit (its
    /// generalized UTF-8, `ED A0 80`..`ED BF BF`, which no `str` holds).
    fn code_point(&mut self, cp: u32) {
        let mut buf = [0u8; 4];
        let bytes: &[u8] = match char::from_u32(cp) {
            Some(c) => c.encode_utf8(&mut buf).as_bytes(),
            None => {
                buf[..3].copy_from_slice(&[
                    0xE0 | (cp >> 12) as u8,
                    0x80 | ((cp >> 6) & 0x3F) as u8,
                    0x80 | (cp & 0x3F) as u8,
                ]);
                &buf[..3]
            }
        };
        self.bytes(bytes);
    }

    /// The last (partial) word and the count in one step: a value of up
    /// to eight bytes, most numbers and names, costs one.
    fn finish(self) -> u64 {
        step(self.h ^ self.len, self.word)
    }
}

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
    /// surrogate escape as its code unit's three-byte form, which no
    /// character has): their UTF-8 bytes, hashed eight at a time
    /// ([`Chars`]), so the runs between escapes are hashed as words.
    fn string(&mut self) -> Option<u64> {
        self.at += 1;
        let mut stop = crate::fast::find_special(self.b, self.at, 0);
        if self.b.get(stop) == Some(&b'"') {
            // No escape: the common case, hashed from the slice at once.
            let h = Chars::of(STRING, self.b.get(self.at..stop)?);
            self.at = stop + 1;
            return Some(h);
        }
        let mut chars = Chars::new(STRING);
        loop {
            chars.bytes(self.b.get(self.at..stop)?);
            self.at = stop;
            match *self.b.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(chars.finish());
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
                    chars.code_point(ch);
                    stop = crate::fast::find_special(self.b, self.at, 0);
                }
                // A control character: not JSON.
                _ => return None,
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
        Some(Chars::of(NUMBER, self.b.get(start..self.at)?))
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

    /// Every character written escaped, one at a time, at each place of
    /// strings longer than a word: the print is that of the plain string
    /// (the words do not depend on where an escape cuts the text).
    #[test]
    fn an_escape_anywhere_is_the_character_it_stands_for() {
        for plain in ["abcdefghijklmnopq", "é😀 mixed — ünïcode text!", "a"] {
            let expected = value_print(&format!("\"{plain}\""));
            assert!(expected.is_some());
            for (at, c) in plain.char_indices() {
                let mut units = [0u16; 2];
                let escaped: String = c
                    .encode_utf16(&mut units)
                    .iter()
                    .map(|u| format!("\\u{u:04x}"))
                    .collect();
                let text = format!(
                    "\"{}{escaped}{}\"",
                    &plain[..at],
                    &plain[at + c.len_utf8()..]
                );
                assert_eq!(value_print(&text), expected, "{text}");
            }
        }
        // A number is hashed by its text, also past eight bytes.
        assert_eq!(value_print("12345678901.5"), value_print(" 12345678901.5 "));
        assert_ne!(value_print("12345678901.5"), value_print("12345678901.6"));
    }

    /// A lone surrogate escape is itself: not the replacement character,
    /// not another surrogate, not the characters of its bytes.
    #[test]
    fn a_lone_surrogate_is_its_own_code_unit() {
        let lone = value_print(r#""a\ud800b""#);
        assert!(lone.is_some());
        for other in [
            r#""a\ud801b""#,
            r#""a\udc00b""#,
            r#""a\ufffdb""#,
            r#""ab""#,
            "\"a\u{ed}\u{a0}\u{80}b\"",
        ] {
            assert_ne!(value_print(other), lone, "{other}");
        }
        assert_eq!(value_print(r#""a\ud800b""#), lone);
    }

    /// A random JSON value (strings of short words, some non-ASCII, some
    /// needing escapes; integers; nesting to depth 3).
    fn random_value(rng: &mut rand::rngs::StdRng, depth: u32) -> serde_json::Value {
        use rand::Rng as _;
        use serde_json::Value;
        const WORDS: [&str; 8] = ["a", "query", "é", "😀", "\"q\"", "tab\tnl\n", "x/y\\z", ""];
        match rng.random_range(0..if depth < 3 { 7 } else { 4 }) {
            0 => Value::Null,
            1 => Value::Bool(rng.random()),
            2 => Value::from(rng.random_range(-1000i64..100_000_000_000)),
            3 => {
                let n = rng.random_range(0..6);
                Value::String((0..n).map(|_| WORDS[rng.random_range(0..8)]).collect())
            }
            4 | 5 => Value::Object(
                (0..rng.random_range(0..5))
                    .map(|k| {
                        let name = format!("{}{k}", WORDS[rng.random_range(0..8)]);
                        (name, random_value(rng, depth + 1))
                    })
                    .collect(),
            ),
            _ => Value::Array(
                (0..rng.random_range(0..5))
                    .map(|_| random_value(rng, depth + 1))
                    .collect(),
            ),
        }
    }

    /// `v` written with every member order reversed and every character
    /// of every string as a `\u` escape.
    fn respelled(v: &serde_json::Value) -> String {
        use serde_json::Value;
        let string = |s: &str| -> String {
            let units: String = s.encode_utf16().map(|u| format!("\\u{u:04X}")).collect();
            format!("\"{units}\"")
        };
        match v {
            Value::String(s) => string(s),
            Value::Array(a) => format!(
                "[ {} ]",
                a.iter().map(respelled).collect::<Vec<_>>().join(" ,\n")
            ),
            Value::Object(o) => format!(
                "{{\t{}}}",
                o.iter()
                    .rev()
                    .map(|(k, v)| format!("{} : {}", string(k), respelled(v)))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            other => other.to_string(),
        }
    }

    /// Against serde_json: the same value however it is spelled has one
    /// print, and values serde_json tells apart have different prints.
    #[test]
    fn prints_agree_with_serde_json_values() {
        let mut rng: rand::rngs::StdRng = rand::SeedableRng::seed_from_u64(46);
        let mut seen: std::collections::HashMap<u64, serde_json::Value> = Default::default();
        for _ in 0..3000 {
            let v = random_value(&mut rng, 0);
            let compact = serde_json::to_string(&v).unwrap_or_default();
            let print = value_print(&compact);
            assert!(print.is_some(), "{compact}");
            let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
            assert_eq!(value_print(&pretty), print, "{pretty}");
            let other = respelled(&v);
            assert_eq!(value_print(&other), print, "{other}");
            if let Some(before) = print.and_then(|p| seen.insert(p, v.clone())) {
                assert_eq!(before, v, "two values, one print");
            }
        }
        assert!(seen.len() > 1000, "{} distinct values", seen.len());
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
