//! `check` of corpus cases: a case file (`corpus/…`, `gen --out`) or JSON
//! Lines of cases (what `gen` prints) is recognised, and the stream each
//! case holds is checked — not the case's own JSON, which read as a stream
//! is dozens of schema violations (docs/decisions.md "Checking a corpus
//! case"). Anything else is handed back untouched, what was read to tell
//! put back in front.

use agui_corpus::Case;
use serde_json::Value;
use std::io::{self, BufRead, Cursor, Read};

/// The top-level keys of a case (`corpus/case.schema.json`). An input is
/// read further to tell only when its first object's first key is one of
/// them, so a stream (`{"type":…`) costs one look at its first bytes.
const CASE_KEYS: [&str; 9] = [
    "id",
    "description",
    "spec",
    "events",
    "lines",
    "expect",
    "obligation",
    "projection",
    "violations",
];

/// The most read to tell a case: the corpus loader's cap on a case file.
const CASE_BYTES: u64 = agui_corpus::load::CASE_BYTES;

/// What an input turned out to hold.
pub enum Sniffed {
    /// A stream, to check as such.
    Stream(Box<dyn BufRead + Send>),
    /// One case: a case file, or one line of JSON Lines of cases.
    Case(Found),
    /// JSON Lines of cases, two or more.
    Lines(Lines),
}

/// A case found in an input.
pub struct Found {
    pub case: Case,
    /// Its line, for JSON Lines of cases.
    pub line: Option<usize>,
}

impl Found {
    /// The case's stream as JSON Lines bytes: its `lines`, or each event
    /// (a number outside a double's range printed as written).
    pub fn stream(&self) -> Vec<u8> {
        if let Some(text) = self.case.lines_bytes() {
            return text.into_bytes();
        }
        let mut out = Vec::new();
        for e in &self.case.events {
            // Writing a value to memory does not fail.
            let _ = serde_json::to_writer(&mut out, &agui_model::json::Out(e));
            out.push(b'\n');
        }
        out
    }

    /// How a report names it: the input's name, and for a line of JSON
    /// Lines of cases `NAME:LINE (ID)`.
    pub fn label(&self, name: &str) -> String {
        match self.line {
            Some(line) => format!("{name}:{line} ({})", self.case.id),
            None => name.to_owned(),
        }
    }

    /// What the user is told on stderr.
    pub fn note(&self, name: &str) -> String {
        let e = &self.case.expect;
        let first = match (e.rule, e.index) {
            (Some(r), Some(i)) => format!(", `{r}` at {i}"),
            _ => String::new(),
        };
        let n = self.case.len();
        let events = if n == 1 { "event" } else { "events" };
        format!(
            "agui-conform: {name} is a corpus case (`{}`; it expects {}{first}): checking its stream of {n} {events}, not the case file",
            self.case.id,
            e.verdict.as_str(),
        )
    }
}

/// The cases of JSON Lines of cases, in order; a line that is not one is
/// an error naming it.
pub struct Lines {
    /// Read ahead: the first case.
    first: Option<Found>,
    /// The first case's line.
    first_line: usize,
    /// Read ahead: the next non-blank line and its number.
    pending: Option<(usize, Vec<u8>)>,
    input: Box<dyn BufRead + Send>,
    /// Lines read so far.
    line: usize,
    /// Reading failed: nothing more comes.
    failed: bool,
}

impl Iterator for Lines {
    type Item = Result<Found, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(first) = self.first.take() {
            return Some(Ok(first));
        }
        if self.failed {
            return None;
        }
        let (line, text) = match self.pending.take() {
            Some(x) => x,
            None => match next_line(&mut *self.input, &mut self.line) {
                Ok(Some(x)) => x,
                Ok(None) => return None,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(format!("line {}: {e}", self.line + 1)));
                }
            },
        };
        Some(match parse(&text) {
            Parsed::Case(case) => Ok(Found {
                case,
                line: Some(line),
            }),
            Parsed::Invalid(why) => Err(format!("line {line}: not a corpus case: {why}")),
            Parsed::Other | Parsed::Incomplete => Err(format!(
                "line {line}: not a corpus case (line {} is one: JSON Lines of cases hold one case per line)",
                self.first_line
            )),
        })
    }
}

impl Lines {
    /// What the user is told on stderr.
    pub fn note(name: &str) -> String {
        format!(
            "agui-conform: {name} holds JSON Lines of corpus cases: checking each case's stream, one report each (NAME:LINE (ID)), not the cases"
        )
    }
}

/// Reads as much of `input` as it takes to tell whether it holds cases.
pub fn sniff(mut input: Box<dyn BufRead + Send>) -> io::Result<Sniffed> {
    if !first_key_is_a_case_key(input.fill_buf()?) {
        return Ok(Sniffed::Stream(input));
    }
    // Everything read is kept, to be put back if this is a stream.
    let mut read = Vec::new();
    let mut line = 0;
    let start = loop {
        let start = read.len();
        let room = CASE_BYTES.saturating_sub(start as u64);
        if (&mut input).take(room).read_until(b'\n', &mut read)? == 0 {
            return Ok(replay(read, input));
        }
        line += 1;
        if read[start..].iter().any(|b| !b.is_ascii_whitespace()) {
            break start;
        }
    };
    match parse(&read[start..]) {
        Parsed::Case(case) => {
            // JSON Lines of cases: a second line makes them several.
            let first = Found {
                case,
                line: Some(line),
            };
            let first_line = line;
            Ok(match next_line(&mut *input, &mut line)? {
                None => Sniffed::Case(Found {
                    line: None,
                    ..first
                }),
                pending => Sniffed::Lines(Lines {
                    first: Some(first),
                    first_line,
                    pending,
                    input,
                    line,
                    failed: false,
                }),
            })
        }
        Parsed::Incomplete => {
            // A case written over many lines: read it whole (within the cap).
            let room = CASE_BYTES.saturating_sub(read.len() as u64);
            (&mut input).take(room).read_to_end(&mut read)?;
            let whole = (read.len() as u64) < CASE_BYTES;
            match whole.then(|| parse(&read)) {
                Some(Parsed::Case(case)) => Ok(Sniffed::Case(Found { case, line: None })),
                Some(Parsed::Invalid(why)) => Ok(not_a_case(read, input, &why)),
                _ => Ok(replay(read, input)),
            }
        }
        Parsed::Invalid(why) => Ok(not_a_case(read, input, &why)),
        Parsed::Other => Ok(replay(read, input)),
    }
}

/// The input as it was: `read` first, then the rest.
fn replay(read: Vec<u8>, input: Box<dyn BufRead + Send>) -> Sniffed {
    Sniffed::Stream(Box::new(Cursor::new(read).chain(input)))
}

/// Something shaped like a case that does not read as one is checked as
/// the stream it is, with a hint saying why it was not taken as a case.
fn not_a_case(read: Vec<u8>, input: Box<dyn BufRead + Send>, why: &str) -> Sniffed {
    eprintln!(
        "agui-conform: hint: the input starts like a corpus case but is not one ({why}); it is checked as a stream"
    );
    replay(read, input)
}

/// The next line that is not blank, with its number (`line` counts every
/// line read); a line over the cap is an error.
fn next_line(input: &mut dyn BufRead, line: &mut usize) -> io::Result<Option<(usize, Vec<u8>)>> {
    loop {
        let mut text = Vec::new();
        let n = input.take(CASE_BYTES).read_until(b'\n', &mut text)?;
        if n == 0 {
            return Ok(None);
        }
        if n as u64 == CASE_BYTES && text.last() != Some(&b'\n') {
            return Err(io::Error::other(format!(
                "longer than a case may be ({CASE_BYTES} bytes)"
            )));
        }
        *line += 1;
        if text.iter().any(|b| !b.is_ascii_whitespace()) {
            return Ok(Some((*line, text)));
        }
    }
}

/// Whether `bytes` start (after whitespace) with an object whose first key
/// is one of a case's.
fn first_key_is_a_case_key(bytes: &[u8]) -> bool {
    let mut rest = bytes.trim_ascii_start();
    let Some(after) = rest.strip_prefix(b"{") else {
        return false;
    };
    rest = after.trim_ascii_start();
    let Some(after) = rest.strip_prefix(b"\"") else {
        return false;
    };
    let Some(end) = after.iter().position(|&b| b == b'"') else {
        return false;
    };
    CASE_KEYS.iter().any(|k| k.as_bytes() == &after[..end])
}

/// What one JSON text is.
enum Parsed {
    Case(Case),
    /// An object with a case's shape that is not a valid case (why).
    Invalid(String),
    /// Not JSON by itself, and not closed: the start of a longer text.
    Incomplete,
    /// Anything else (an event, broken JSON).
    Other,
}

fn parse(bytes: &[u8]) -> Parsed {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Parsed::Other;
    };
    let text = text.trim();
    let value = match agui_corpus::load::parse_file(text) {
        Ok(v) => v,
        Err(_) if !text.ends_with('}') => return Parsed::Incomplete,
        Err(_) => return Parsed::Other,
    };
    if !shaped_like_a_case(&value) {
        return Parsed::Other;
    }
    match serde_json::from_value::<Case>(value) {
        Ok(case) => Parsed::Case(case),
        Err(e) => Parsed::Invalid(e.to_string()),
    }
}

/// A case has `expect` and `events` or `lines`; an event has `type`.
fn shaped_like_a_case(v: &Value) -> bool {
    let Some(m) = v.as_object() else {
        return false;
    };
    m.contains_key("expect")
        && (m.contains_key("events") || m.contains_key("lines"))
        && !m.contains_key("type")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniffed(text: &str) -> Sniffed {
        match sniff(Box::new(Cursor::new(text.as_bytes().to_vec()))) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    fn stream_of(s: Sniffed) -> String {
        let Sniffed::Stream(mut input) = s else {
            panic!("not a stream");
        };
        let mut out = String::new();
        input.read_to_string(&mut out).unwrap();
        out
    }

    const CASE: &str = r#"{"id":"x/y","description":"d","spec":"s","events":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"CUSTOM","name":"n","value":1e400}],"expect":{"verdict":"reject","rule":"run.unterminated","index":2},"violations":[{"rule":"run.unterminated","index":2}]}"#;

    #[test]
    fn a_stream_is_handed_back_whole() {
        for text in [
            "{\"type\":\"RUN_STARTED\"}\n{\"type\":\"X\"}\n",
            "[{\"type\":\"RUN_STARTED\"}]",
            "data: {}\n\n",
            "",
            // A case's first key, but an event: read, then put back.
            "{\"description\":\"x\",\"type\":\"CUSTOM\"}\n{}\n",
            // Not closed and not a case: read whole, then put back.
            "{\n\"id\": 1\n",
        ] {
            assert_eq!(stream_of(sniffed(text)), text, "{text:?}");
        }
    }

    #[test]
    fn a_case_on_one_line_or_many_is_its_stream() {
        let pretty = serde_json::to_string_pretty(
            &serde_json::from_str::<Value>(&CASE.replace("1e400", "1")).unwrap(),
        )
        .unwrap();
        for (text, big) in [(CASE.to_string(), "1e400"), (pretty, "1")] {
            let Sniffed::Case(found) = sniffed(&format!("{text}\n")) else {
                panic!("not a case: {text}");
            };
            assert_eq!(found.case.id, "x/y");
            assert_eq!(found.label("f.json"), "f.json");
            let stream = String::from_utf8(found.stream()).unwrap();
            assert_eq!(
                stream,
                format!(
                    "{{\"runId\":\"r\",\"threadId\":\"t\",\"type\":\"RUN_STARTED\"}}\n{{\"name\":\"n\",\"type\":\"CUSTOM\",\"value\":{big}}}\n"
                )
            );
            assert!(found.note("f.json").contains("`run.unterminated` at 2"));
        }
    }

    #[test]
    fn json_lines_of_cases_are_each_a_case() {
        let text = format!("\n{CASE}\n\n{CASE}\n{CASE}\n{{\"type\":\"X\"}}\n");
        let Sniffed::Lines(lines) = sniffed(&text) else {
            panic!("not lines");
        };
        let got: Vec<Result<String, String>> = lines.map(|r| r.map(|f| f.label("in"))).collect();
        assert_eq!(
            got,
            [
                Ok("in:2 (x/y)".to_string()),
                Ok("in:4 (x/y)".to_string()),
                Ok("in:5 (x/y)".to_string()),
                Err("line 6: not a corpus case (line 2 is one: JSON Lines of cases hold one case per line)".to_string()),
            ]
        );
    }

    #[test]
    fn a_malformed_case_is_checked_as_a_stream() {
        let text = CASE.replace("\"verdict\":\"reject\"", "\"verdict\":\"maybe\"");
        assert_eq!(stream_of(sniffed(&text)), text);
    }
}
