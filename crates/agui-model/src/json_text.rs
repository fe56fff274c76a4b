//! Whether a text is one JSON value (RFC 8259), judged without building it:
//! `tool.args-not-json` asks this of a tool call's arguments when the call
//! ends. The grammar alone decides, as for a stream item ([`crate::json`]):
//! a lone surrogate escape, a number outside the range of a double, a
//! duplicate key and nesting of any depth are all JSON. No recursion (the
//! open containers are a stack of bytes), so no depth overflows the stack.

/// JSON whitespace (RFC 8259 §2): space, tab, line feed, carriage return.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (a `"`), or `None` if there is
/// none: an unescaped control character, a bad escape or no closing quote.
fn string(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut i = i + 1;
    loop {
        match *b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => match *b.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                b'u' => {
                    let hex = b.get(i + 2..i + 6)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    i += 6;
                }
                _ => return None,
            },
            0x00..=0x1F => return None,
            _ => i += 1,
        }
    }
}

/// One or more digits from `i`; their end.
fn digits(b: &[u8], i: usize) -> Option<usize> {
    let n = b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    (n > 0).then_some(i + n)
}

/// The end of the number starting at `i`:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn number(b: &[u8], mut i: usize) -> Option<usize> {
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(b, i)?,
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(b, i)?;
    }
    Some(i)
}

/// After `{` or `,` inside an object: a member's name and its `:`; where
/// its value starts.
fn member_name(b: &[u8], i: usize) -> Option<usize> {
    let i = skip_ws(b, string(b, skip_ws(b, i))?);
    (b.get(i) == Some(&b':')).then(|| skip_ws(b, i + 1))
}

/// The end of one JSON text starting at `i` (a value and what surrounds
/// it), or `None` if it is not JSON.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut open: Vec<u8> = Vec::new();
    loop {
        // A value starts at `i`.
        i = skip_ws(b, i);
        match *b.get(i)? {
            b'{' => {
                let j = skip_ws(b, i + 1);
                if b.get(j) == Some(&b'}') {
                    i = j + 1;
                } else {
                    open.push(b'{');
                    i = member_name(b, j)?;
                    continue;
                }
            }
            b'[' => {
                let j = skip_ws(b, i + 1);
                if b.get(j) == Some(&b']') {
                    i = j + 1;
                } else {
                    open.push(b'[');
                    i = j;
                    continue;
                }
            }
            b'"' => i = string(b, i)?,
            b't' => i = literal(b, i, b"true")?,
            b'f' => i = literal(b, i, b"false")?,
            b'n' => i = literal(b, i, b"null")?,
            _ => i = number(b, i)?,
        }
        // A value ended at `i`: close what it ends, or go on to the next.
        loop {
            i = skip_ws(b, i);
            let Some(&top) = open.last() else {
                return Some(i);
            };
            match (top, b.get(i)) {
                (b'{', Some(b',')) => {
                    i = member_name(b, i + 1)?;
                    break;
                }
                (b'[', Some(b',')) => {
                    i += 1;
                    break;
                }
                (b'{', Some(b'}')) | (b'[', Some(b']')) => {
                    open.pop();
                    i += 1;
                }
                _ => return None,
            }
        }
    }
}

fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b.get(i..i + word.len())
        .filter(|w| *w == word)
        .map(|_| i + word.len())
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
        ] {
            assert!(!is_one_value(t), "{t:?}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(99_999));
        assert!(!is_one_value(&deep));
    }
}
