//! The reader's tests: JSON Lines, JSON arrays and the choice between them.

use super::item::human_bytes;
use super::*;
use serde_json::json;
use std::io::{Cursor, Read};

/// Reads everything from bytes with the given options.
fn read_from(input: impl BufRead, opts: &ReadOptions) -> Vec<Item> {
    let mut items = Vec::new();
    let n = read_stream(input, opts, |item| {
        items.push(item);
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(n, items.len());
    items
}

fn read_with(input: &[u8], opts: &ReadOptions) -> Vec<Item> {
    read_from(input, opts)
}

fn read(input: &[u8]) -> Vec<Item> {
    read_from(input, &ReadOptions::default())
}

fn value(line: usize, value: Value) -> Item {
    Item::Value {
        line,
        value,
        notes: Vec::new(),
    }
}

/// The line and reason of an unparseable item.
/// The line and reason of an item skipped at a limit.
fn over(item: &Item) -> (usize, &str) {
    match item {
        Item::OverLimit { line, reason, .. } => (*line, reason),
        other => panic!("expected an item over a limit, got {other:?}"),
    }
}

fn bad(item: &Item) -> (usize, &str) {
    match item {
        Item::Unparseable { line, reason } => (*line, reason),
        other => panic!("expected an unparseable item, got {other:?}"),
    }
}

#[test]
fn json_lines_one_item_per_non_blank_line() {
    let items = read(b"{\"a\":1}\n\n   \n{\"b\":2}\r\n\t\r\n42\n");
    assert_eq!(
        items,
        vec![
            value(1, json!({"a": 1})),
            value(4, json!({"b": 2})),
            value(6, json!(42))
        ]
    );
}

#[test]
fn last_line_without_newline_is_an_item() {
    assert_eq!(
        read(b"{\"a\":1}\n{\"b\":2}"),
        vec![value(1, json!({"a": 1})), value(2, json!({"b": 2}))]
    );
}

#[test]
fn empty_and_blank_inputs_hold_no_items() {
    assert!(read(b"").is_empty());
    assert!(read(b"\n\n  \r\n\t").is_empty());
    assert!(read(b"\xEF\xBB\xBF\n").is_empty());
}

#[test]
fn byte_order_mark_is_skipped() {
    assert_eq!(
        read(b"\xEF\xBB\xBF{\"a\":1}\n"),
        vec![value(1, json!({"a": 1}))]
    );
}

#[test]
fn non_objects_are_ordinary_items() {
    let items = read(b"42\n\"text\"\nnull\n[1,2]\n");
    assert_eq!(
        items,
        vec![
            value(1, json!(42)),
            value(2, json!("text")),
            value(3, json!(null)),
            value(4, json!([1, 2]))
        ]
    );
}

#[test]
fn invalid_utf8_names_the_byte_offset_and_reading_goes_on() {
    let items = read(b"{\"a\":1}\n{\"s\":\"ab\xFFc\"}\n{\"b\":2}\n");
    assert_eq!(items.len(), 3);
    // `{"s":"ab` is 8 bytes: the bad byte is at offset 8.
    assert_eq!(bad(&items[1]), (2, "invalid UTF-8 at byte offset 8"));
    assert_eq!(items[2], value(3, json!({"b": 2})));
}

#[test]
fn syntax_error_names_the_column() {
    let items = read(b"{\"a\" 1}\n{}\n");
    let (line, reason) = bad(&items[0]);
    assert_eq!(line, 1);
    assert!(
        reason.starts_with("JSON syntax error: expected `:`"),
        "{reason}"
    );
    assert!(reason.ends_with("at column 6"), "{reason}");
    assert_eq!(items[1], value(2, json!({})));
}

#[test]
fn columns_count_leading_whitespace_of_the_first_line() {
    let items = read(b"\n  {\"a\" 1}\n");
    let (line, reason) = bad(&items[0]);
    assert_eq!(line, 2);
    assert!(reason.ends_with("at column 8"), "{reason}");
}

#[test]
fn plain_text_is_a_syntax_error() {
    let items = read(b"hello world\n");
    let (line, reason) = bad(&items[0]);
    assert_eq!(line, 1);
    assert!(
        reason.starts_with("JSON syntax error: expected a value"),
        "{reason}"
    );
}

#[test]
fn trailing_data_after_the_value() {
    let items = read(b"{\"a\":1} {\"b\":2}\n");
    assert_eq!(
        bad(&items[0]),
        (1, "trailing data after the JSON value at column 9")
    );
}

#[test]
fn truncated_last_line() {
    let items = read(b"{\"a\":1}\n{\"type\":\"RUN_ST");
    assert_eq!(items.len(), 2);
    assert_eq!(
        bad(&items[1]),
        (2, "truncated last line: the input ends inside a JSON value")
    );
}

#[test]
fn a_line_ending_inside_a_value() {
    let items = read(b"{\"a\":\n1}\n");
    assert_eq!(bad(&items[0]), (1, "the line ends inside a JSON value"));
    assert_eq!(
        bad(&items[1]),
        (2, "trailing data after the JSON value at column 2")
    );
}

/// The depth of an item's value, dropped without recursion.
fn depth_of(item: Item) -> usize {
    match item {
        Item::Value { value, .. } => {
            let d = json::depth(&value);
            crate::patch::drop_value(value);
            d
        }
        other => panic!("expected a value, got {other:?}"),
    }
}

#[test]
fn deep_nesting_is_json_up_to_the_limit() {
    let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
    let opts = ReadOptions {
        max_depth: 300,
        ..ReadOptions::default()
    };
    let lines = format!("{{}}\n{}\n{}\n{{\"a\":1}}\n", nested(300), nested(301));
    let mut items = read_with(lines.as_bytes(), &opts).into_iter();
    assert_eq!(items.next(), Some(value(1, json!({}))));
    assert_eq!(items.next().map(depth_of), Some(300));
    match items.next() {
        Some(Item::OverLimit {
            line: 3,
            kind: LimitKind::Nesting,
            limit: 300,
            reason,
        }) => assert!(reason.starts_with("nesting deeper than the limit of 300 levels")),
        other => panic!("{other:?}"),
    }
    assert_eq!(items.next(), Some(value(4, json!({"a": 1}))));
    // In an array file the array itself is not an item's level.
    let array = format!("[{}]", nested(300));
    let mut items = read_with(array.as_bytes(), &opts).into_iter();
    assert_eq!(items.next().map(depth_of), Some(300));
}

#[test]
fn default_nesting_admits_ten_thousand_levels_and_any_depth_is_safe() {
    let deep = |d: usize| {
        let mut v = Vec::new();
        v.extend(std::iter::repeat_n(b'[', d));
        v.extend(std::iter::repeat_n(b']', d));
        v.push(b'\n');
        v
    };
    let mut input = deep(10_000);
    input.extend(deep(1_000_000));
    let mut items = read(&input).into_iter();
    assert_eq!(items.next().map(depth_of), Some(10_000));
    assert!(matches!(
        items.next(),
        Some(Item::OverLimit {
            kind: LimitKind::Nesting,
            limit: DEFAULT_MAX_DEPTH,
            ..
        })
    ));
}

#[test]
fn lone_surrogates_huge_numbers_and_duplicate_keys_are_json() {
    let items = read(b"{\"d\":\"\\ud83d\",\"n\":1e400,\"n\":2}\n");
    match &items[..] {
        [Item::Value { line: 1, notes, .. }] => assert_eq!(notes.len(), 2, "{notes:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_line_over_the_limit_is_skipped_and_reading_goes_on() {
    let opts = ReadOptions {
        max_line_bytes: 16,
        ..ReadOptions::default()
    };
    let input = b"{\"a\":\"0123456789abcdef\"}\n{\"b\":2}\n{\"c\":\"0123456\"}\n";
    let items = read_with(input, &opts);
    assert_eq!(
        over(&items[0]),
        (
            1,
            "line longer than the limit of 16 bytes (line ending not counted); skipped"
        )
    );
    assert_eq!(items[1], value(2, json!({"b": 2})));
    // Exactly 16 bytes is within the limit.
    assert_eq!(items[2], value(3, json!({"c": "0123456"})));
}

#[test]
fn a_last_line_over_the_limit_without_newline() {
    let opts = ReadOptions {
        max_line_bytes: 4,
        ..ReadOptions::default()
    };
    let items = read_with(b"{}\n\"abcdef\"", &opts);
    assert_eq!(items.len(), 2);
    assert_eq!(
        over(&items[1]),
        (
            2,
            "line longer than the limit of 4 bytes (line ending not counted); skipped"
        )
    );
}

/// A reader that makes up `{"x":"aaa…a"}\n{"b":2}\n` with `len` bytes of
/// `a`, without holding them.
struct LongLine {
    prefix: &'static [u8],
    filler: usize,
    suffix: &'static [u8],
    at: usize,
}

impl Read for LongLine {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let total = self.prefix.len() + self.filler + self.suffix.len();
        let mut n = 0;
        while n < buf.len() && self.at < total {
            let at = self.at;
            if at < self.prefix.len() {
                buf[n] = self.prefix[at];
                n += 1;
                self.at += 1;
            } else if at < self.prefix.len() + self.filler {
                let run = (self.prefix.len() + self.filler - at).min(buf.len() - n);
                buf[n..n + run].fill(b'a');
                n += run;
                self.at += run;
            } else {
                buf[n] = self.suffix[at - self.prefix.len() - self.filler];
                n += 1;
                self.at += 1;
            }
        }
        Ok(n)
    }
}

#[test]
fn a_100_mb_line_is_skipped_in_chunks() {
    let filler = 100 * 1000 * 1000;
    let reader = LongLine {
        prefix: b"{\"x\":\"",
        filler,
        suffix: b"\"}\n{\"b\":2}\n",
        at: 0,
    };
    let items = read_from(
        io::BufReader::with_capacity(1 << 16, reader),
        &ReadOptions::default(),
    );
    assert_eq!(items.len(), 2);
    let expected = "line longer than the limit of 64 MiB (line ending not counted); skipped";
    assert_eq!(over(&items[0]), (1, expected));
    assert_eq!(items[1], value(2, json!({"b": 2})));
}

/// A line of `n` bytes: `{"x":"…"}` padded to length.
fn line_of(n: usize) -> Vec<u8> {
    let mut l = b"{\"x\":\"".to_vec();
    l.resize(n - 2, b'a');
    l.extend_from_slice(b"\"}");
    l
}

#[test]
fn line_length_is_counted_without_the_line_ending() {
    let opts = ReadOptions {
        max_line_bytes: 100,
        ..ReadOptions::default()
    };
    let read = |parts: &[&[u8]]| {
        let items = read_with(&parts.concat(), &opts);
        items
            .iter()
            .map(|i| matches!(i, Item::OverLimit { .. }))
            .collect::<Vec<_>>()
    };
    let (at, over) = (line_of(100), line_of(101));
    for end in [&b"\n"[..], b"\r\n", b""] {
        // N bytes are read, N + 1 are skipped, the line ending aside,
        // whether or not the line ends the input.
        assert_eq!(read(&[&at, end]), [false], "{end:?}");
        assert_eq!(read(&[&over, end]), [true], "{end:?}");
        // The same in the middle of a stream, and on the reader's
        // slow path (the line split across buffer refills).
        let next = b"{\"b\":2}";
        assert_eq!(read(&[&at, end, b"\n", next]), [false, false], "{end:?}");
        assert_eq!(read(&[&over, end, b"\n", next]), [true, false], "{end:?}");
        let split = |parts: &[&[u8]]| {
            let bytes = parts.concat();
            let items = read_from(io::BufReader::with_capacity(7, &bytes[..]), &opts);
            items
                .iter()
                .map(|i| matches!(i, Item::OverLimit { .. }))
                .collect::<Vec<_>>()
        };
        assert_eq!(split(&[&at, end, b"\n", next]), [false, false], "{end:?}");
        assert_eq!(split(&[&over, end, b"\n", next]), [true, false], "{end:?}");
    }
    // A `\r` inside the line counts.
    let mut cr = line_of(100);
    cr.insert(10, b'\r');
    assert_eq!(read(&[&cr, b"\n"]), [true]);
}

#[test]
fn a_line_whose_parsed_form_passes_the_budget_is_skipped_at_the_line_limit() {
    // Small objects hold many times their text: within the line limit,
    // over what a parsed line may hold.
    let items = vec![r#"{"a":1}"#; 2000].join(",");
    let line = format!(r#"{{"type":"STATE_SNAPSHOT","snapshot":[{items}]}}"#);
    let opts = ReadOptions {
        max_line_bytes: 1 << 20,
        max_value_bytes: 1 << 20,
        ..ReadOptions::default()
    };
    for input in [format!("{line}\n{{}}\n"), format!("[{line},\n{{}}]")] {
        let items = read_with(input.as_bytes(), &opts);
        assert_eq!(items.len(), 2, "{input:.40}");
        match &items[0] {
            Item::OverLimit {
                kind: LimitKind::LineBytes,
                limit,
                reason,
                ..
            } => {
                assert_eq!(*limit, 1 << 20);
                assert!(reason.contains("would hold more than 1 MiB"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(items[1], value(2, json!({})));
    }
    // The budget follows the line limit, 64 MiB at least.
    assert_eq!(value_bytes(1 << 20), 64 << 20);
    assert_eq!(value_bytes(64 << 20), 256 << 20);
}

/// A megabyte with no newline (a line that, for the test, never
/// ends), counting what was read.
struct Endless<'a>(&'a Cell<u64>);

impl Read for Endless<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min((1 << 20) - self.0.get() as usize);
        buf[..n].fill(b'a');
        self.0.set(self.0.get() + n as u64);
        Ok(n)
    }
}

#[test]
fn a_line_that_never_ends_is_reported_once_the_limit_is_passed() {
    let opts = ReadOptions {
        max_line_bytes: 1000,
        ..ReadOptions::default()
    };
    let read = Cell::new(0u64);
    let mut seen = None;
    let input = io::BufReader::with_capacity(256, Endless(&read));
    let n = read_stream(input, &opts, |item| {
        seen = Some((item, read.get()));
        ControlFlow::Break(())
    })
    .unwrap();
    assert_eq!(n, 1);
    let (item, at) = seen.expect("an item");
    assert!(matches!(
        item,
        Item::OverLimit {
            kind: LimitKind::LineBytes,
            ..
        }
    ));
    // Reported within one buffer of the limit, not at the line's end.
    assert!(at <= 1001 + 256, "reported after {at} bytes");
}

#[test]
fn an_array_element_is_counted_without_the_whitespace_around_it() {
    let opts = ReadOptions {
        max_line_bytes: 100,
        ..ReadOptions::default()
    };
    let kinds = |input: Vec<u8>| {
        read_with(&input, &opts)
            .iter()
            .map(|i| matches!(i, Item::OverLimit { .. }))
            .collect::<Vec<_>>()
    };
    let pad = b"\n      \t  ";
    let at = [
        &b"["[..],
        pad,
        &line_of(100),
        pad,
        b",",
        pad,
        b"{}",
        pad,
        b"]",
    ]
    .concat();
    let over = [&b"["[..], pad, &line_of(101), pad, b",{}]"].concat();
    assert_eq!(kinds(at), [false, false]);
    assert_eq!(kinds(over), [true, false]);
}

#[test]
fn a_long_line_within_a_raised_limit_is_read() {
    let filler = 3 * 1000 * 1000;
    let reader = LongLine {
        prefix: b"{\"x\":\"",
        filler,
        suffix: b"\"}\n",
        at: 0,
    };
    let opts = ReadOptions {
        max_line_bytes: 4 * 1000 * 1000,
        ..ReadOptions::default()
    };
    let items = read_from(io::BufReader::new(reader), &opts);
    let Item::Value { value, .. } = &items[0] else {
        panic!("{items:?}")
    };
    assert_eq!(value["x"].as_str().map(str::len), Some(filler));
}

#[test]
fn break_stops_reading() {
    let mut seen = 0;
    let n = read_stream(&b"{}\n{}\n{}\n"[..], &ReadOptions::default(), |_| {
        seen += 1;
        ControlFlow::Break(())
    })
    .unwrap();
    assert_eq!((n, seen), (1, 1));
}

/// Yields `head`, then fails: shows an item was handed over before the
/// rest of the input was read.
struct FailsAfter(Cursor<Vec<u8>>);

impl Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(io::Error::other("the rest of the input is not there yet")),
            n => Ok(n),
        }
    }
}

impl BufRead for FailsAfter {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.0.position() as usize >= self.0.get_ref().len() {
            return Err(io::Error::other("the rest of the input is not there yet"));
        }
        self.0.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.0.consume(n)
    }
}

#[test]
fn items_are_handed_over_before_the_input_ends() {
    for head in [&b"{\"a\":1}\n{\"b\""[..], &b"[{\"a\":1},\n{\"b\""[..]] {
        let mut items = Vec::new();
        let result = read_stream(
            FailsAfter(Cursor::new(head.to_vec())),
            &ReadOptions::default(),
            |item| {
                items.push(item);
                ControlFlow::Continue(())
            },
        );
        assert!(result.is_err(), "the I/O error is returned");
        assert_eq!(items, vec![value(1, json!({"a": 1}))]);
    }
}

#[test]
fn array_elements_are_items() {
    let input = b"[\n  {\"a\":1},\n  42,\n  {\"b\":[2]}\n]\n";
    let items = read(input);
    assert_eq!(
        items,
        vec![
            value(2, json!({"a": 1})),
            value(3, json!(42)),
            value(4, json!({"b": [2]}))
        ]
    );
}

#[test]
fn array_and_json_lines_give_the_same_values() {
    let lines = b"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n{\"foo\":1}\n[]\n";
    let array =
        b"  [{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}, {\"foo\":1}, []]";
    let values = |items: Vec<Item>| -> Vec<Value> {
        items
            .into_iter()
            .map(|i| match i {
                Item::Value { value, .. } => value,
                other => panic!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(values(read(lines)), values(read(array)));
}

#[test]
fn one_line_array_at_end_of_input_is_an_array_file() {
    assert_eq!(
        read(b"[{\"a\":1},{\"b\":2}]\n\n"),
        vec![value(1, json!({"a": 1})), value(1, json!({"b": 2}))]
    );
    assert!(read(b"[]").is_empty());
    assert!(read(b" [ ] \n").is_empty());
}

#[test]
fn first_line_array_followed_by_lines_is_json_lines() {
    let items = read(b"[{\"a\":1}]\n{\"b\":2}\n\n  {\"c\" 3}\n");
    assert_eq!(items[0], value(1, json!([{"a": 1}])));
    assert_eq!(items[1], value(2, json!({"b": 2})));
    let (line, reason) = bad(&items[2]);
    assert_eq!(line, 4);
    assert!(reason.ends_with("at column 8"), "{reason}");
}

#[test]
fn syntax_error_mid_array_costs_that_element_only() {
    let items = read(b"[\n{\"a\":1},\n{\"b\" 2},\n{\"c\":3}\n]\n");
    assert_eq!(items.len(), 3, "{items:?}");
    assert_eq!(items[0], value(2, json!({"a": 1})));
    let (line, reason) = bad(&items[1]);
    assert_eq!(line, 3);
    assert!(
        reason.starts_with("JSON syntax error in the JSON array: expected `:`"),
        "{reason}"
    );
    assert!(reason.ends_with("at column 6"), "{reason}");
    assert_eq!(items[2], value(4, json!({"c": 3})));
}

#[test]
fn an_empty_or_cut_short_element_costs_that_element_only() {
    let items = read(b"[1,,2,tru,3,]");
    assert_eq!(items.len(), 6, "{items:?}");
    assert_eq!(items[0], value(1, json!(1)));
    assert_eq!(
        bad(&items[1]),
        (
            1,
            "JSON syntax error in the JSON array: expected a value at column 4"
        )
    );
    assert_eq!(items[2], value(1, json!(2)));
    assert!(
        bad(&items[3])
            .1
            .contains("ends inside a value at column 10")
    );
    assert_eq!(items[4], value(1, json!(3)));
    assert!(bad(&items[5]).1.contains("expected a value at column 13"));
}

#[test]
fn an_element_that_never_ends_is_read_again_from_its_syntax_error() {
    // The `{` of line 2 is never closed: the scanner takes the rest of
    // the array for one element; reading starts again where the
    // grammar broke (line 3, column 1).
    let items = read(b"[{\"a\":1},\n{\"b\":1,\n{\"c\":2},\n{\"d\":3}]\n");
    assert_eq!(items.len(), 4, "{items:?}");
    assert_eq!(items[0], value(1, json!({"a": 1})));
    let (line, reason) = bad(&items[1]);
    assert_eq!(line, 3);
    assert!(reason.contains("at column 1;"), "{reason}");
    assert_eq!(items[2], value(3, json!({"c": 2})));
    assert_eq!(items[3], value(4, json!({"d": 3})));
}

#[test]
fn truncated_array() {
    let items = read(b"[{\"a\":1},\n{\"b\":");
    assert_eq!(items.len(), 2);
    assert_eq!(
        bad(&items[1]),
        (2, "truncated input: it ends inside the JSON array")
    );
}

#[test]
fn data_after_the_array() {
    let items = read(b"[{\"a\":1}\n]\nxyz\n");
    assert_eq!(items.len(), 2);
    assert_eq!(
        bad(&items[1]),
        (3, "trailing data after the JSON array at column 1")
    );
}

#[test]
fn deep_nesting_in_an_array() {
    let opts = ReadOptions {
        max_depth: 50,
        ..ReadOptions::default()
    };
    let deep = "[".repeat(51) + &"]".repeat(51);
    let input = format!("[{{\"a\":1}},{deep},{{\"b\":2}}]");
    let items = read_with(input.as_bytes(), &opts);
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(matches!(
        items[1],
        Item::OverLimit {
            kind: LimitKind::Nesting,
            limit: 50,
            ..
        }
    ));
    assert_eq!(items[2], value(1, json!({"b": 2})));
    // Truncated inside deep nesting is truncation.
    let mut input = b"[{\"a\":1},".to_vec();
    input.extend(std::iter::repeat_n(b'[', 10_000));
    let items = read(&input);
    assert_eq!(
        bad(&items[1]),
        (1, "truncated input: it ends inside the JSON array")
    );
}

#[test]
fn an_array_element_over_the_limit_is_skipped() {
    let opts = ReadOptions {
        max_line_bytes: 32,
        ..ReadOptions::default()
    };
    let input =
        b"[\n{\"a\":1},\n{\"long\":\"0123456789012345678901234567890123456789\"},\n{\"b\":2}\n]\n";
    let items = read_with(input, &opts);
    assert_eq!(items.len(), 3, "{items:?}");
    assert_eq!(items[0], value(2, json!({"a": 1})));
    match &items[1] {
        Item::OverLimit {
            line: 3,
            kind: LimitKind::LineBytes,
            limit: 32,
            reason,
        } => assert!(reason.contains(
            "longer than the limit of 32 bytes (surrounding whitespace not counted); skipped"
        )),
        other => panic!("{other:?}"),
    }
    assert_eq!(items[2], value(4, json!({"b": 2})));
    // Elements within the limit are read whatever the array's length.
    let many = format!("[{}]", vec!["{\"a\":1}"; 100].join(",\n"));
    assert_eq!(read_with(many.as_bytes(), &opts).len(), 100);
}

#[test]
fn invalid_utf8_in_an_array_is_a_syntax_error_with_its_position() {
    let items = read(b"[{\"a\":1},\n{\"s\":\"\xFF\"}]");
    assert_eq!(items.len(), 2);
    let (line, reason) = bad(&items[1]);
    assert_eq!(line, 2);
    assert!(
        reason.starts_with("JSON syntax error in the JSON array"),
        "{reason}"
    );
}

#[test]
fn break_stops_an_array() {
    let mut seen = 0;
    let n = read_stream(&b"[1,2,3]"[..], &ReadOptions::default(), |_| {
        seen += 1;
        if seen == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!((n, seen), (2, 2));
}

/// Seeded, so the test is reproducible (rand's `StdRng`).
struct Rng(rand::rngs::StdRng);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(rand::SeedableRng::seed_from_u64(seed))
    }
    fn next(&mut self) -> u64 {
        rand::RngCore::next_u64(&mut self.0)
    }
}

#[test]
fn random_json_like_bytes_never_panic_and_every_non_blank_line_is_one_item() {
    const ALPHABET: &[u8] = b"{}[]\":,\n\n\r \t0123456789aeflnrstu-.\\\xFF\xC3\xA9";
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let opts = ReadOptions {
        max_line_bytes: 24,
        ..ReadOptions::default()
    };
    for _ in 0..3000 {
        let len = (rng.next() % 80) as usize;
        let mut input: Vec<u8> = (0..len)
            .map(|_| ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize])
            .collect();
        if input.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            input.insert(0, b'0'); // keep to JSON Lines: arrays have their own tests
        }
        let items = read_with(&input, &opts);
        let lines: Vec<usize> = input
            .split(|&b| b == b'\n')
            .enumerate()
            .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
            .map(|(i, _)| i + 1)
            .collect();
        let got: Vec<usize> = items.iter().map(Item::line).collect();
        assert_eq!(got, lines, "input {:?}", String::from_utf8_lossy(&input));
    }
}

#[test]
fn random_broken_arrays_never_panic_and_lose_no_later_element() {
    const ALPHABET: &[u8] = b"{}[]\":,\n 0123456789aeflnrstu\\";
    let mut rng = Rng::new(0x5851_F42D_4C95_7F2D);
    for _ in 0..3000 {
        let len = (rng.next() % 40) as usize;
        let junk: Vec<u8> = (0..len)
            .map(|_| ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize])
            .collect();
        // A broken element mid-array, then a good one on its own line.
        let mut input = b"[{\"a\":1},\n".to_vec();
        input.extend_from_slice(&junk);
        input.extend_from_slice(b",\n{\"z\":9}]\n");
        let items = read(&input);
        assert_eq!(items[0], value(1, json!({"a": 1})));
        // Unless the junk holds a quote (a string swallows what
        // follows) or a bracket (a `]` may close the array, a `[` may
        // hold the rest as one valid element), the last element is
        // read.
        if !junk.iter().any(|&b| b == b'"' || b == b']' || b == b'[') {
            assert!(
                items.contains(&value(
                    3 + junk.iter().filter(|&&b| b == b'\n').count(),
                    json!({"z": 9})
                )),
                "{:?}: {items:?}",
                String::from_utf8_lossy(&input)
            );
        }
    }
}

#[test]
fn random_arrays_read_like_their_json_lines() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    for _ in 0..300 {
        let values: Vec<Value> = (0..rng.next() % 6)
            .map(|_| match rng.next() % 4 {
                0 => json!({"type": "RUN_STARTED", "n": rng.next() % 100}),
                1 => json!([rng.next() % 10, {"a": null}]),
                2 => json!("text\nwith a newline"),
                _ => json!({"nested": {"deep": [1, 2, {"x": true}]}}),
            })
            .collect();
        let texts: Vec<String> = values.iter().map(Value::to_string).collect();
        let lines = texts.join("\n") + "\n";
        let array = format!("[{}]", texts.join(",\n"));
        let strip = |items: Vec<Item>| -> Vec<Value> {
            items
                .into_iter()
                .map(|i| match i {
                    Item::Value { value, .. } => value,
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(strip(read(array.as_bytes())), values);
        if values.first().is_some_and(Value::is_object) {
            assert_eq!(strip(read(lines.as_bytes())), values);
        }
    }
}

#[test]
fn human_byte_sizes() {
    assert_eq!(human_bytes(DEFAULT_MAX_LINE_BYTES), "64 MiB");
    assert_eq!(human_bytes(2048), "2 KiB");
    assert_eq!(human_bytes(1000), "1000 bytes");
}
