//! Server-Sent Events framing, as the HTML standard's "event stream
//! interpretation" describes it, over bytes that arrive in any chunking.
//!
//! [`SseParser::feed`] takes the next bytes of the body (any split: an event,
//! a line, a `\r\n` pair or the byte order mark may straddle two calls) and
//! hands every complete event to a callback. What the standard asks and
//! what this parser does:
//! - lines end with `\r\n`, `\n` or `\r`; a blank line dispatches the event;
//! - a line starting with `:` is a comment (keep-alives) and is ignored;
//! - `field:value` (one space after the colon removed) or `field` alone (an
//!   empty value); `data` lines are appended to the event's data, joined
//!   with `\n`; `event`, `id` and `retry` are remembered; other fields are
//!   ignored;
//! - an event whose data buffer is empty is not dispatched; the trailing
//!   `\n` of the data buffer is removed;
//! - one leading UTF-8 byte order mark is skipped;
//! - at the end of the body an unfinished event is discarded
//!   ([`SseParser::finish`] says whether one was).
//!
//! Departures, on purpose: data stays bytes (the standard decodes with
//! replacement characters; a checker wants to report invalid UTF-8, not
//! hide it), and the `event` type does not select a listener — every event
//! with data is an AG-UI event, whatever its type.
//!
//! Memory is bounded by construction: an event's data is kept up to
//! `max_event_bytes`; past that the rest of the event is counted and
//! skipped, and the event is dispatched as [`Dispatch::Oversize`]. Field
//! names, `event` and `id` values are capped too; comments and unknown
//! fields are skipped without being stored.

use super::item::over_line_limit;
use memchr::memchr2;

/// One dispatched event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dispatch<'a> {
    /// An event and its data (lines joined with `\n`, no trailing `\n`).
    Data {
        data: &'a [u8],
        /// The `event` field, `message` when absent.
        event_type: &'a str,
    },
    /// An event whose data exceeded the limit; `bytes` is its full size.
    Oversize { bytes: u64 },
    /// A line that is neither a comment nor a `data`, `event`, `id` or
    /// `retry` field (`transport.framing`): a standard client ignores it,
    /// so an event written without `data:` is lost. Given once per event
    /// (the lines up to the next blank one), before that event's dispatch;
    /// `name` is the line's start, up to the colon (at most 8 bytes).
    Unknown { name: &'a [u8] },
}

/// What [`SseParser::finish`] found pending at the end of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unfinished {
    /// Bytes of data of the discarded event (complete `data` lines and a
    /// partial one).
    pub data_bytes: u64,
    /// The body ended in the middle of a line.
    pub mid_line: bool,
}

/// Where the parser stands within a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the first byte of a line.
    LineStart,
    /// Reading a field name.
    Field,
    /// After the colon: one space is to be skipped.
    ValueStart(Field),
    /// Reading a value.
    Value(Field),
    /// Skipping a comment line.
    Comment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
    Other,
}

/// The longest field name kept (`retry` and `event` are five bytes).
const MAX_FIELD_NAME: usize = 8;
/// The longest `event`, `id` or `retry` value kept; the rest is dropped.
const MAX_SMALL_VALUE: usize = 1024;
/// A data buffer larger than this is released after its event, so one
/// large event does not pin its memory for the rest of the stream.
const KEEP_BUFFER_BYTES: usize = 1 << 20;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An incremental event-stream parser. See the module documentation.
#[derive(Debug)]
pub struct SseParser {
    state: State,
    /// Bytes of a possible byte order mark seen at the start (0..=3), or
    /// `None` once the start has been decided.
    bom: Option<usize>,
    /// The last line ended with `\r`: a `\n` right after it belongs to it.
    after_cr: bool,
    name: Vec<u8>,
    name_too_long: bool,
    /// The value of an `event`, `id` or `retry` line being read.
    small: Vec<u8>,
    data: Vec<u8>,
    /// Data bytes of the current event, counted even past the limit.
    data_len: u64,
    /// At least one `data` line belongs to the current event.
    has_data: bool,
    oversize: bool,
    event_type: Vec<u8>,
    last_event_id: Vec<u8>,
    retry: Option<u64>,
    max_event_bytes: usize,
    dispatched: u64,
    /// An unknown field was already given for the current event.
    unknown_told: bool,
}

impl SseParser {
    /// A parser keeping at most `max_event_bytes` of one event's data.
    pub fn new(max_event_bytes: usize) -> Self {
        SseParser {
            state: State::LineStart,
            bom: Some(0),
            after_cr: false,
            name: Vec::new(),
            name_too_long: false,
            small: Vec::new(),
            data: Vec::new(),
            data_len: 0,
            has_data: false,
            oversize: false,
            event_type: Vec::new(),
            last_event_id: Vec::new(),
            retry: None,
            max_event_bytes,
            dispatched: 0,
            unknown_told: false,
        }
    }

    /// Events dispatched so far.
    pub fn dispatched(&self) -> u64 {
        self.dispatched
    }

    /// The last event id (`id` field), as the standard keeps it.
    pub fn last_event_id(&self) -> &[u8] {
        &self.last_event_id
    }

    /// The reconnection time asked for by the last valid `retry` field, ms.
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Bytes of memory the parser holds in its buffers (for the tests that
    /// show memory stays bounded).
    pub fn buffered_capacity(&self) -> usize {
        self.data.capacity()
            + self.name.capacity()
            + self.small.capacity()
            + self.event_type.capacity()
            + self.last_event_id.capacity()
    }

    /// Feeds the next bytes of the body; `on` gets each complete event.
    pub fn feed(&mut self, mut bytes: &[u8], on: &mut dyn FnMut(Dispatch<'_>)) {
        if let Some(seen) = self.bom {
            // Hold back a possible BOM prefix until it is decided.
            let mut seen = seen;
            while seen < BOM.len() {
                match bytes.first() {
                    None => {
                        self.bom = Some(seen);
                        return;
                    }
                    Some(&b) if b == BOM[seen] => {
                        seen += 1;
                        bytes = &bytes[1..];
                    }
                    Some(_) => break,
                }
            }
            self.bom = None;
            if seen < BOM.len() {
                // Not a BOM: the bytes held back are ordinary input.
                self.feed_body(&BOM[..seen], on);
            }
        }
        self.feed_body(bytes, on);
    }

    fn feed_body(&mut self, mut bytes: &[u8], on: &mut dyn FnMut(Dispatch<'_>)) {
        while let Some(&b) = bytes.first() {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    bytes = &bytes[1..];
                    continue;
                }
            }
            match self.state {
                State::LineStart => match b {
                    b'\r' | b'\n' => {
                        self.end_of_line(b);
                        self.dispatch(on);
                        bytes = &bytes[1..];
                    }
                    b':' => {
                        self.state = State::Comment;
                        bytes = &bytes[1..];
                    }
                    _ => {
                        self.name.clear();
                        self.name_too_long = false;
                        self.state = State::Field;
                    }
                },
                State::Field => match b {
                    b'\r' | b'\n' => {
                        // A field with no colon: its value is empty.
                        let field = self.field();
                        self.tell_unknown(field, on);
                        self.small.clear();
                        self.end_field(field);
                        self.end_of_line(b);
                        bytes = &bytes[1..];
                    }
                    b':' => {
                        let field = self.field();
                        self.tell_unknown(field, on);
                        self.small.clear();
                        self.state = State::ValueStart(field);
                        bytes = &bytes[1..];
                    }
                    _ => {
                        if self.name.len() < MAX_FIELD_NAME {
                            self.name.push(b);
                        } else {
                            self.name_too_long = true;
                        }
                        bytes = &bytes[1..];
                    }
                },
                State::ValueStart(field) => {
                    self.state = State::Value(field);
                    if b == b' ' {
                        bytes = &bytes[1..];
                    }
                }
                State::Value(field) => {
                    let end = memchr2(b'\r', b'\n', bytes).unwrap_or(bytes.len());
                    self.value_bytes(field, &bytes[..end]);
                    bytes = &bytes[end..];
                    if let Some(&eol) = bytes.first() {
                        self.end_field(field);
                        self.end_of_line(eol);
                        bytes = &bytes[1..];
                    }
                }
                State::Comment => {
                    let end = memchr2(b'\r', b'\n', bytes).unwrap_or(bytes.len());
                    bytes = &bytes[end..];
                    if let Some(&eol) = bytes.first() {
                        self.end_of_line(eol);
                        bytes = &bytes[1..];
                    }
                }
            }
        }
    }

    fn field(&self) -> Field {
        if self.name_too_long {
            return Field::Other;
        }
        match self.name.as_slice() {
            b"data" => Field::Data,
            b"event" => Field::Event,
            b"id" => Field::Id,
            b"retry" => Field::Retry,
            _ => Field::Other,
        }
    }

    /// Gives the first unknown field line of an event to `on`.
    fn tell_unknown(&mut self, field: Field, on: &mut dyn FnMut(Dispatch<'_>)) {
        if field == Field::Other && !self.unknown_told {
            self.unknown_told = true;
            on(Dispatch::Unknown { name: &self.name });
        }
    }

    fn end_of_line(&mut self, eol: u8) {
        self.after_cr = eol == b'\r';
        self.state = State::LineStart;
    }

    fn value_bytes(&mut self, field: Field, part: &[u8]) {
        match field {
            Field::Data => self.data_bytes(part),
            Field::Event | Field::Id | Field::Retry => {
                let room = MAX_SMALL_VALUE.saturating_sub(self.small.len());
                self.small.extend_from_slice(&part[..part.len().min(room)]);
            }
            Field::Other => {}
        }
    }

    fn data_bytes(&mut self, part: &[u8]) {
        self.data_len += part.len() as u64;
        if self.oversize {
            return;
        }
        // The buffer holds each data line followed by its `\n`; the last
        // one is not the event's, so the reader's one line-length rule
        // applies to the buffer less that byte.
        let held = self.data.len() + part.len();
        if over_line_limit(held.saturating_sub(1), self.max_event_bytes) {
            self.oversize = true;
            self.data = Vec::new();
        } else {
            self.data.extend_from_slice(part);
        }
    }

    /// The line of `field` ended: apply it.
    fn end_field(&mut self, field: Field) {
        match field {
            Field::Data => {
                self.has_data = true;
                self.data_bytes(b"\n");
            }
            Field::Event => self.event_type = std::mem::take(&mut self.small),
            Field::Id => {
                if !self.small.contains(&0) {
                    self.last_event_id = std::mem::take(&mut self.small);
                }
            }
            Field::Retry => {
                if !self.small.is_empty() && self.small.iter().all(u8::is_ascii_digit) {
                    self.retry = std::str::from_utf8(&self.small)
                        .ok()
                        .and_then(|s| s.parse().ok());
                }
            }
            Field::Other => {}
        }
    }

    /// A blank line: dispatch the event, if it has data.
    fn dispatch(&mut self, on: &mut dyn FnMut(Dispatch<'_>)) {
        if self.has_data {
            self.dispatched += 1;
            if self.oversize {
                // The trailing `\n` is not part of the event's data.
                on(Dispatch::Oversize {
                    bytes: self.data_len.saturating_sub(1),
                });
            } else {
                let data = &self.data[..self.data.len().saturating_sub(1)];
                let event_type = match std::str::from_utf8(&self.event_type) {
                    Ok("") | Err(_) => "message",
                    Ok(t) => t,
                };
                on(Dispatch::Data { data, event_type });
            }
        }
        self.reset_event();
    }

    fn reset_event(&mut self) {
        self.data.clear();
        if self.data.capacity() > KEEP_BUFFER_BYTES {
            self.data = Vec::new();
        }
        self.data_len = 0;
        self.has_data = false;
        self.oversize = false;
        self.unknown_told = false;
        self.event_type.clear();
    }

    /// Ends the body: an unfinished event is discarded, as the standard
    /// asks; what was pending is returned so it can be reported. A partial
    /// comment line, or pending fields without data, are not reported.
    pub fn finish(&mut self) -> Option<Unfinished> {
        let mid_line = match self.state {
            State::LineStart | State::Comment => false,
            State::Field => true,
            State::ValueStart(f) | State::Value(f) => f == Field::Data || f == Field::Other,
        };
        let pending = self.has_data || mid_line;
        let data_bytes = self.data_len;
        self.state = State::LineStart;
        self.reset_event();
        pending.then_some(Unfinished {
            data_bytes,
            mid_line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event of `input` fed whole: data as strings, oversize as `<N>`.
    fn events_in_chunks(input: &[u8], chunks: &[usize], max: usize) -> Vec<String> {
        let mut p = SseParser::new(max);
        let mut out = Vec::new();
        let mut rest = input;
        let mut sizes = chunks.iter().cycle();
        while !rest.is_empty() {
            let n = (*sizes.next().unwrap()).clamp(1, rest.len());
            p.feed(&rest[..n], &mut |d| {
                if !matches!(d, Dispatch::Unknown { .. }) {
                    out.push(show(d))
                }
            });
            rest = &rest[n..];
        }
        out
    }

    fn show(d: Dispatch<'_>) -> String {
        match d {
            Dispatch::Data { data, .. } => String::from_utf8_lossy(data).into_owned(),
            Dispatch::Oversize { bytes } => format!("<{bytes}>"),
            Dispatch::Unknown { name } => format!("?{}", String::from_utf8_lossy(name)),
        }
    }

    fn events(input: &[u8]) -> Vec<String> {
        events_in_chunks(input, &[usize::MAX], 1 << 20)
    }

    /// Every dispatch, unknown field lines included.
    fn all(input: &[u8]) -> Vec<String> {
        let mut p = SseParser::new(1 << 20);
        let mut out = Vec::new();
        p.feed(input, &mut |d| out.push(show(d)));
        out
    }

    #[test]
    fn unknown_lines_are_told_once_per_event() {
        // A JSON line without `data:` is an unknown field named `{"type"`;
        // the second unknown line of the same event is not told again.
        let body = b"{\"type\":\"RUN_STARTED\"}\nfoo: 1\n\ndata: a\n\nbar\n\n: comment\nevent: x\nid: 1\nretry: 5\n\n";
        assert_eq!(all(body), ["?{\"type\"", "a", "?bar"]);
    }

    #[test]
    fn one_event_per_blank_line() {
        assert_eq!(events(b"data: a\n\ndata: b\n\n"), ["a", "b"]);
    }

    #[test]
    fn multi_line_data_is_joined_with_newlines() {
        assert_eq!(events(b"data: {\"a\":\ndata: 1}\n\n"), ["{\"a\":\n1}"]);
        assert_eq!(events(b"data\ndata\n\n"), ["\n"]);
    }

    #[test]
    fn one_space_after_the_colon_is_removed_no_more() {
        assert_eq!(
            events(b"data:x\n\ndata: x\n\ndata:  x\n\n"),
            ["x", "x", " x"]
        );
    }

    #[test]
    fn empty_data_line_dispatches_an_empty_event() {
        // `data:` appends "\n" to the buffer; the buffer is not empty, so
        // an event with data "" is dispatched (the standard's algorithm).
        assert_eq!(events(b"data:\n\n"), [""]);
        assert_eq!(events(b"data\n\n"), [""]);
    }

    #[test]
    fn comments_and_other_fields_are_ignored() {
        let input = b": keep-alive\n:\nevent: x\nid: 7\nretry: 1500\nfoo: bar\nfoo\ndata: a\n\n";
        let mut p = SseParser::new(1024);
        let mut got = Vec::new();
        p.feed(input, &mut |d| {
            if let Dispatch::Data { data, event_type } = d {
                got.push((data.to_vec(), event_type.to_owned()));
            }
        });
        assert_eq!(got, [(b"a".to_vec(), "x".to_owned())]);
        assert_eq!(p.last_event_id(), b"7");
        assert_eq!(p.retry(), Some(1500));
    }

    #[test]
    fn event_type_defaults_to_message_and_resets_after_dispatch() {
        let mut p = SseParser::new(1024);
        let mut types = Vec::new();
        p.feed(b"event: a\ndata: 1\n\ndata: 2\n\n", &mut |d| {
            if let Dispatch::Data { event_type, .. } = d {
                types.push(event_type.to_owned());
            }
        });
        assert_eq!(types, ["a", "message"]);
    }

    #[test]
    fn retry_must_be_digits_and_id_must_not_hold_nul() {
        let mut p = SseParser::new(1024);
        p.feed(b"retry: 12a\nid: a\0b\n\n", &mut |_| {});
        assert_eq!(p.retry(), None);
        assert_eq!(p.last_event_id(), b"");
    }

    #[test]
    fn blank_lines_without_data_dispatch_nothing() {
        assert!(events(b"\n\n\r\n\r\r: c\n\nevent: e\n\nid: 1\n\n").is_empty());
    }

    #[test]
    fn every_line_ending_is_accepted() {
        for input in [
            &b"data: a\r\n\r\ndata: b\r\n\r\n"[..],
            b"data: a\r\rdata: b\r\r",
            b"data: a\n\ndata: b\n\n",
            b"data: a\r\n\ndata: b\n\r\n",
            b"data: a\r\n\rdata: b\n\r",
        ] {
            assert_eq!(events(input), ["a", "b"], "{input:?}");
        }
    }

    #[test]
    fn cr_lf_split_across_reads_is_one_line_end() {
        // "\r" ends a line, and the "\n" arriving in the next read belongs
        // to it: one blank line, not two (which would still be one event),
        // so test with a data line right after.
        let mut p = SseParser::new(1024);
        let mut out = Vec::new();
        p.feed(b"data: a\r", &mut |d| out.push(show(d)));
        p.feed(b"\ndata: b\r", &mut |d| out.push(show(d)));
        p.feed(b"\n\r", &mut |d| out.push(show(d)));
        p.feed(b"\n", &mut |d| out.push(show(d)));
        assert_eq!(out, ["a\nb"]);
    }

    #[test]
    fn a_bom_at_the_start_is_skipped_even_split() {
        let input = b"\xEF\xBB\xBFdata: a\n\n";
        for split in 1..input.len() {
            assert_eq!(
                events_in_chunks(input, &[split], 64),
                ["a"],
                "split {split}"
            );
        }
        // Only at the start, and only one.
        assert_eq!(
            events(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n"),
            Vec::<String>::new()
        );
        assert_eq!(events(b"\xEF\xBBdata: a\n\n"), Vec::<String>::new());
    }

    #[test]
    fn not_a_bom_prefix_is_input() {
        // A first byte that only looks like a BOM start is kept.
        assert_eq!(events(b"data: a\n\n"), ["a"]);
        assert_eq!(
            events_in_chunks(b"\xEFdata: a\n\ndata: b\n\n", &[1], 64),
            ["b"]
        );
    }

    #[test]
    fn every_split_of_a_mixed_stream_gives_the_same_events() {
        let input: &[u8] =
            b"\xEF\xBB\xBF: hi\r\nevent: x\r\ndata: {\"type\":\r\ndata:  \"A\"}\r\n\r\n\
            id: 3\ndata:b\n\n:c\rdata: c\r\rdata\n\ndata: last\r\n\r\n";
        let want = ["{\"type\":\n \"A\"}", "b", "c", "", "last"];
        assert_eq!(events(input), want);
        for a in 1..=7 {
            for b in 1..=5 {
                assert_eq!(events_in_chunks(input, &[a, b], 1024), want, "{a},{b}");
            }
        }
    }

    #[test]
    fn oversize_events_are_counted_not_kept() {
        let big = format!("data: {}\n\ndata: ok\n\n", "x".repeat(100));
        let got = events_in_chunks(big.as_bytes(), &[7], 50);
        assert_eq!(got, ["<100>", "ok"]);
        // Exactly at the limit is kept, one byte more is over (the data's
        // last newline is not counted).
        let at = format!("data: {}\n\n", "y".repeat(50));
        assert_eq!(events_in_chunks(at.as_bytes(), &[3], 50), ["y".repeat(50)]);
        let over = format!("data: {}\r\n\r\n", "y".repeat(51));
        assert_eq!(events_in_chunks(over.as_bytes(), &[3], 50), ["<51>"]);
        // Two lines of 24 bytes and their joining newline: 49 bytes, kept.
        let two = format!("data: {0}\ndata: {0}\n\n", "z".repeat(24));
        assert_eq!(events_in_chunks(two.as_bytes(), &[4], 49).len(), 1);
        assert_eq!(events_in_chunks(two.as_bytes(), &[4], 48), ["<49>"]);
        // Multi-line data counts every line and newline.
        let lines = "data: aaaaaaaaaa\n".repeat(10) + "\n";
        assert_eq!(events_in_chunks(lines.as_bytes(), &[5], 50), ["<109>"]);
    }

    #[test]
    fn memory_stays_bounded_on_huge_events_and_comments() {
        let mut p = SseParser::new(1000);
        let chunk = vec![b'x'; 1 << 16];
        let mut n = 0;
        p.feed(b"data: ", &mut |_| n += 1);
        for _ in 0..64 {
            p.feed(&chunk, &mut |_| n += 1);
        }
        p.feed(b"\n\n: ", &mut |_| n += 1);
        for _ in 0..64 {
            p.feed(&chunk, &mut |_| n += 1);
        }
        p.feed(b"\nunknownfieldname", &mut |_| n += 1);
        for _ in 0..64 {
            p.feed(&chunk, &mut |_| n += 1);
        }
        assert_eq!(n, 1);
        assert!(p.buffered_capacity() < 4096, "{}", p.buffered_capacity());
    }

    #[test]
    fn finish_reports_an_unfinished_event() {
        let mut p = SseParser::new(64);
        p.feed(b"data: a\n\ndata: b\n", &mut |_| {});
        assert_eq!(
            p.finish(),
            Some(Unfinished {
                data_bytes: 2,
                mid_line: false
            })
        );
        let mut p = SseParser::new(64);
        p.feed(b"data: a\n\ndata: {\"ty", &mut |_| {});
        assert_eq!(
            p.finish(),
            Some(Unfinished {
                data_bytes: 4, // `{"ty`
                mid_line: true
            })
        );
        let mut p = SseParser::new(64);
        p.feed(b"data: a\n\n: partial comm", &mut |_| {});
        assert_eq!(p.finish(), None);
        let mut p = SseParser::new(64);
        p.feed(b"data: a\n\n", &mut |_| {});
        assert_eq!(p.finish(), None);
    }

    #[test]
    fn data_without_final_blank_line_is_not_dispatched() {
        assert_eq!(events(b"data: a\n\ndata: b"), ["a"]);
        assert_eq!(events(b"data: a\n\ndata: b\n"), ["a"]);
    }

    #[test]
    fn invalid_utf8_is_passed_through_as_bytes() {
        let mut p = SseParser::new(64);
        let mut got = Vec::new();
        p.feed(b"data: \xFF\xFE\n\n", &mut |d| {
            if let Dispatch::Data { data, .. } = d {
                got.push(data.to_vec());
            }
        });
        assert_eq!(got, [b"\xFF\xFE".to_vec()]);
    }

    /// A seeded generator: the random tests are reproducible.
    struct Rng(rand::rngs::StdRng);

    impl Rng {
        fn below(&mut self, n: u64) -> usize {
            use rand::Rng as _;
            self.0.random_range(0..n) as usize
        }
    }

    /// Random streams built with their expected events, parsed in random
    /// splits: every split gives exactly the events built.
    #[test]
    fn random_streams_in_random_splits() {
        let mut rng = Rng(rand::SeedableRng::seed_from_u64(0x9E37_79B9_7F4A_7C15));
        let alphabet: &[&[u8]] = &[
            b"a",
            b"{",
            b"\"",
            b":",
            b" ",
            b"\xC3\xA9",
            b"\xFF",
            b"data",
            b"\t",
        ];
        let endings: &[&[u8]] = &[b"\n", b"\r", b"\r\n"];
        for _ in 0..300 {
            let mut input = Vec::new();
            if rng.below(4) == 0 {
                input.extend_from_slice(BOM);
            }
            let mut want: Vec<Vec<u8>> = Vec::new();
            let mut last_cr = false;
            let line = |input: &mut Vec<u8>, content: &[u8], rng: &mut Rng, last_cr: &mut bool| {
                input.extend_from_slice(content);
                // A blank line right after a `\r` must not start with `\n`.
                let e = if content.is_empty() && *last_cr {
                    endings[[1, 2][rng.below(2)]]
                } else {
                    endings[rng.below(3)]
                };
                input.extend_from_slice(e);
                *last_cr = e == b"\r";
            };
            for _ in 0..rng.below(6) {
                let mut data = Vec::new();
                for k in 0..1 + rng.below(3) {
                    // Noise lines between data lines.
                    match rng.below(5) {
                        0 => line(&mut input, b": comment: x", &mut rng, &mut last_cr),
                        1 => line(&mut input, b"id: 42", &mut rng, &mut last_cr),
                        2 => line(&mut input, b"event: x", &mut rng, &mut last_cr),
                        3 => line(&mut input, b"other:data: x", &mut rng, &mut last_cr),
                        _ => {}
                    }
                    let mut value = Vec::new();
                    for _ in 0..rng.below(8) {
                        value.extend_from_slice(alphabet[rng.below(alphabet.len() as u64)]);
                    }
                    let mut l = b"data:".to_vec();
                    if rng.below(2) == 0 || value.first() == Some(&b' ') {
                        l.push(b' ');
                    }
                    l.extend_from_slice(&value);
                    line(&mut input, &l, &mut rng, &mut last_cr);
                    if k > 0 {
                        data.push(b'\n');
                    }
                    data.extend_from_slice(&value);
                }
                line(&mut input, b"", &mut rng, &mut last_cr);
                want.push(data);
            }
            // Random splits, including one byte at a time.
            for _ in 0..4 {
                let mut p = SseParser::new(1 << 16);
                let mut got: Vec<Vec<u8>> = Vec::new();
                let mut rest = &input[..];
                while !rest.is_empty() {
                    let n = (1 + rng.below(9)).min(rest.len());
                    p.feed(&rest[..n], &mut |d| {
                        if let Dispatch::Data { data, .. } = d {
                            got.push(data.to_vec());
                        }
                    });
                    rest = &rest[n..];
                }
                assert_eq!(got, want, "input {:?}", String::from_utf8_lossy(&input));
                assert_eq!(p.finish(), None);
            }
        }
    }
}
