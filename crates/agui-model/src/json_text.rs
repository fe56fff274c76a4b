//! Whether a text is one JSON value (RFC 8259), judged without building it:
//! `tool.args-not-json` asks this of a tool call's arguments when the call
//! ends. The grammar alone decides, as for a stream item ([`crate::json`]):
//! a lone surrogate escape, a number outside the range of a double, a
//! duplicate key and nesting of any depth are all JSON. No recursion (the
//! open containers are a stack of bytes), so no depth overflows the stack.

/// JSON whitespace (RFC 8259 §2): space, tab, line feed, carriage return.
/// Most bytes where whitespace may stand are above the space: one test.
#[inline(always)]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if c > b' ' || !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            break;
        }
        i += 1;
    }
    i
}

/// The end of the string whose opening quote is just before `i`, or
/// `None`: an unescaped control character, a bad escape, no closing quote.
fn string(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b'"' => return Some(i + 1),
            b'\\' => {
                match *b.get(i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' if b.get(i + 2..i + 6)?.iter().all(u8::is_ascii_hexdigit) => i += 6,
                    _ => return None,
                }
                continue;
            }
            0x00..=0x1F => return None,
            _ => i += 1,
        }
    }
    None
}

/// The end of the digits from `i` (as many as there are, maybe none).
#[inline]
fn digits(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// The end of the number starting at `i`:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn number(b: &[u8], mut i: usize) -> Option<usize> {
    // The common case first: a lone digit, then a byte that ends it.
    if let (Some(b'0'..=b'9'), Some(b',' | b']' | b'}' | b' ')) = (b.get(i), b.get(i + 1)) {
        return Some(i + 1);
    }
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(b, i + 1),
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        let j = digits(b, i + 1);
        if j == i + 1 {
            return None;
        }
        i = j;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let j = digits(b, i);
        if j == i {
            return None;
        }
        i = j;
    }
    Some(i)
}

/// After `{` or `,` inside an object: a member's name and its `:`; where
/// its value starts.
fn member_name(b: &[u8], i: usize) -> Option<usize> {
    let i = skip_ws(b, i);
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let i = skip_ws(b, string(b, i + 1)?);
    (b.get(i) == Some(&b':')).then_some(i + 1)
}

fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b[i..].starts_with(word).then_some(i + word.len())
}

/// The containers open around the value being read: whether each is an
/// object, the innermost last. The first 64 levels are bits (no
/// allocation for the arguments of an ordinary call), deeper ones a vector.
#[derive(Default)]
struct Open {
    depth: usize,
    bits: u64,
    deeper: Vec<bool>,
}

impl Open {
    fn push(&mut self, object: bool) {
        if self.depth < 64 {
            self.bits = (self.bits & !(1 << self.depth)) | (u64::from(object) << self.depth);
        } else {
            self.deeper.push(object);
        }
        self.depth += 1;
    }

    /// Closes the innermost container; whether the one around it (if
    /// any) is an object.
    fn pop(&mut self) -> Option<bool> {
        self.depth -= 1;
        if self.depth >= 64 {
            self.deeper.pop();
        }
        match self.depth {
            0 => None,
            d if d <= 64 => Some(self.bits >> (d - 1) & 1 == 1),
            _ => self.deeper.last().copied(),
        }
    }
}

/// The end of one value starting at or after `i` (and the whitespace after
/// it), or `None` if the text is not JSON there.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut open = Open::default();
    // Whether the innermost open container is an object (`None`: none is
    // open).
    let mut top: Option<bool> = None;
    loop {
        // A value starts at `i`.
        i = skip_ws(b, i);
        match *b.get(i)? {
            b'{' => {
                let j = skip_ws(b, i + 1);
                if b.get(j) == Some(&b'}') {
                    i = j + 1;
                } else {
                    open.push(true);
                    top = Some(true);
                    i = member_name(b, j)?;
                    continue;
                }
            }
            b'[' => {
                let j = skip_ws(b, i + 1);
                if b.get(j) == Some(&b']') {
                    i = j + 1;
                } else {
                    open.push(false);
                    top = Some(false);
                    i = j;
                    continue;
                }
            }
            b'"' => i = string(b, i + 1)?,
            b't' => i = literal(b, i, b"true")?,
            b'f' => i = literal(b, i, b"false")?,
            b'n' => i = literal(b, i, b"null")?,
            _ => i = number(b, i)?,
        }
        // A value ended at `i`: close what it ends, or go on to the next.
        loop {
            i = skip_ws(b, i);
            let Some(object) = top else {
                return Some(i);
            };
            match (object, *b.get(i)?) {
                (true, b',') => {
                    i = member_name(b, i + 1)?;
                    break;
                }
                (false, b',') => {
                    i += 1;
                    break;
                }
                (true, b'}') | (false, b']') => {
                    top = open.pop();
                    i += 1;
                }
                _ => return None,
            }
        }
    }
}

/// Whether `text` is exactly one JSON value, surrounding whitespace
/// allowed (an empty or blank text is not).
pub fn is_one_value(text: &str) -> bool {
    let b = text.as_bytes();
    value_end(b, 0) == Some(b.len())
}

#[cfg(test)]
mod tests {
    use super::is_one_value;

    #[test]
    fn values_are_json() {
        for t in [
            "{}",
            "[]",
            " {\"city\": \"Lisbon\"}\n",
            "\t[1, -0, 2.5e-3, 1E400, {\"a\": [true, false, null]}]\r\n",
            "\"x\"",
            "0",
            "-12.0e+7",
            "null",
            // Grammar, not meaning: a lone surrogate escape, a duplicate
            // key, a raw character of any plane.
            "\"\\ud83d\"",
            "{\"a\": 1, \"a\": 2}",
            "[\"\\u00e9\\/\\b\\f\\n\\r\\t\\\\\\\"\", \"ü✓😀\u{10F83D}\"]",
            "{\"k\":{\"k\":[[[]]]}}",
            "[{\"a\":1},[2]]",
        ] {
            assert!(is_one_value(t), "{t:?}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(is_one_value(&deep));
    }

    #[test]
    fn other_texts_are_not() {
        for t in [
            "",
            " ",
            "\"Lisbon\"}",
            "{\"q\":",
            "{'q': 1}",
            "{\"a\":1}}",
            "{\"a\":1,}",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{1: 2}",
            "NaN",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "tru",
            "nulls",
            "\"a\nb\"",
            "\"\\x\"",
            "\"\\u12g4\"",
            "\"open",
            "{} {}",
            "\u{feff}{}",
            "[",
            "{\"a\":[}",
            // An array where an object stood before at the same depth.
            "[{\"a\":1},[2}]",
        ] {
            assert!(!is_one_value(t), "{t:?}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(99_999));
        assert!(!is_one_value(&deep));
    }

    #[test]
    fn objects_and_arrays_are_told_apart_at_every_depth() {
        // Alternating `{"k":[` levels around the 64 kept as bits.
        for levels in [1, 31, 32, 33, 63, 64, 65, 130] {
            let (mut open, mut close) = (String::new(), String::new());
            for l in 0..levels {
                if l % 2 == 0 {
                    open.push_str("{\"k\":");
                    close.insert(0, '}');
                } else {
                    open.push('[');
                    close.insert(0, ']');
                }
            }
            let good = format!("{open}1{close}");
            assert!(is_one_value(&good), "{levels}");
            // The innermost closer swapped for the other kind.
            let inner = if levels % 2 == 1 {
                ("}", "]")
            } else {
                ("]", "}")
            };
            let bad = format!("{open}1{}{}", inner.1, &close[1..]);
            assert!(!is_one_value(&bad), "{levels}: {bad}");
            // And the outermost.
            let outer = if close.ends_with('}') { "]" } else { "}" };
            let bad = format!("{open}1{}{outer}", &close[..close.len() - 1]);
            assert!(!is_one_value(&bad), "{levels}: {bad}");
        }
    }
}
