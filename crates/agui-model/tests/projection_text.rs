//! The projection's text (`Checker::with_projection_text_sink`, what
//! `agui-conform check --format json` prints) is canonical: every run's
//! text is exactly what printing its `Value` form with `json::Out` writes
//! (keys sorted, compact, kept numbers and surrogates as printed), and the
//! `Value` form is that text read back. Checked on every corpus case and
//! on streams written here for the shapes the corpus has few of.

mod support;

use agui_model::Checker;
use agui_model::check::check_bytes;
use agui_model::json::{Out, ParseOptions, parse};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use support::corpus_cases;

/// Every corpus case as JSON Lines (events printed, or the raw lines).
fn corpus() -> Vec<(PathBuf, String)> {
    corpus_cases()
        .into_iter()
        .filter_map(|(f, case)| {
            let lines: Vec<String> = match (&case["events"], &case["lines"]) {
                (Value::Array(events), _) => events
                    .iter()
                    .map(|e| serde_json::to_string(&Out(e)).expect("prints"))
                    .collect(),
                (_, Value::Array(lines)) => lines
                    .iter()
                    .filter_map(|l| l.as_str().map(str::to_owned))
                    .collect(),
                _ => return None,
            };
            Some((f, lines.join("\n")))
        })
        .collect()
}

/// Each run's text from the text sink, and the kept `Value` form of a
/// checker that keeps runs.
fn both(stream: &str) -> (Vec<Vec<u8>>, Vec<Value>) {
    let texts = Rc::new(RefCell::new(Vec::<Vec<u8>>::new()));
    let sink = Rc::clone(&texts);
    // Pieces are joined until a run's last; a new run starts a new text.
    let mut open = false;
    let streamed = Checker::with_projection_text_sink(move |piece, last| {
        let mut texts = sink.borrow_mut();
        match texts.last_mut() {
            Some(t) if open => t.extend_from_slice(piece),
            _ => texts.push(piece.to_vec()),
        }
        open = !last;
    });
    // Read as `agui-conform check` reads a file.
    let streamed = check_bytes(stream.as_bytes(), streamed);
    assert_eq!(streamed.projection.map(|p| p.runs.len()), Some(0));
    let kept = check_bytes(stream.as_bytes(), Checker::new());
    let runs = kept.projection.map(|p| p.runs).unwrap_or_default();
    let texts = texts.borrow().clone();
    (texts, runs)
}

/// Each run's text from the text sink, as a string.
fn run_texts(stream: &str) -> Vec<String> {
    let (texts, _) = both(stream);
    texts
        .iter()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect()
}

fn assert_canonical(name: &str, stream: &str) -> usize {
    let (texts, values) = both(stream);
    assert_eq!(texts.len(), values.len(), "{name}: one text per run");
    for (text, value) in texts.iter().zip(&values) {
        let printed = serde_json::to_vec(&Out(value)).expect("prints");
        assert_eq!(
            String::from_utf8_lossy(text),
            String::from_utf8_lossy(&printed),
            "{name}"
        );
        let opts = ParseOptions {
            max_depth: usize::MAX,
        };
        let read = parse(std::str::from_utf8(text).expect("UTF-8"), &opts).expect("JSON");
        assert_eq!(&read.value, value, "{name}");
    }
    texts.len()
}

#[test]
fn every_corpus_run_is_written_as_its_value_prints() {
    let runs: usize = corpus()
        .iter()
        .map(|(f, s)| assert_canonical(&f.display().to_string(), s))
        .sum();
    assert!(runs > 250, "{runs} runs");
}

/// One line per event.
fn lines(events: &[Value]) -> String {
    events
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_run_of_every_shape_is_written_field_for_field() {
    let events = [
        json!({"type":"RUN_STARTED","threadId":"t\"1","runId":"r1"}),
        json!({"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"lead"}),
        json!({"type":"SUBAGENT_STARTED","subagentRunId":"s2","name":"w","parentSubagentRunId":"s1"}),
        json!({"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","subagentRunId":"s1"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\u{1}\n\"é","subagentRunId":"s1"}),
        json!({"type":"TEXT_MESSAGE_END","messageId":"m1","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"1}","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_END","toolCallId":"c1","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_RESULT","messageId":"x1","toolCallId":"c1","content":"ok"}),
        json!({"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"progress","content":{"pct":1,"z":[true,null]},"subagentRunId":"s2"}),
        json!({"type":"ACTIVITY_DELTA","messageId":"a1","activityType":"progress","patch":[{"op":"replace","path":"/pct","value":2.5}],"subagentRunId":"s2"}),
        json!({"type":"STATE_SNAPSHOT","snapshot":{"b":[1,-2,0.5],"a":{"y":"é","x":null}}}),
        json!({"type":"SUBAGENT_FINISHED","subagentRunId":"s2","outcome":{"type":"suspended","interruptIds":["i1"]}}),
        json!({"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}),
        json!({"type":"RUN_FINISHED","threadId":"t\"1","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","subagentRunId":"s2"},{"id":"i2"}]}}),
        json!({"type":"RUN_STARTED","threadId":"t","runId":"r2"}),
        json!({"type":"MESSAGES_SNAPSHOT","messages":[
            {"id":"u1","role":"user","content":[{"type":"text","text":"hi "},{"type":"text","text":"there"}]},
            {"id":"m9","role":"assistant","subagentRunId":"s3","toolCalls":[{"id":"c9","type":"function","function":{"name":"g","arguments":"{}"}}]},
            {"id":"a9","role":"activity","activityType":"p","content":{"k":1}}]}),
        json!({"type":"REASONING_MESSAGE_START","messageId":"z1","role":"reasoning","subagentRunId":"s4"}),
        json!({"type":"REASONING_MESSAGE_CONTENT","messageId":"z1","delta":"hmm","subagentRunId":"s4"}),
        json!({"type":"RUN_ERROR","message":"boom"}),
        json!({"type":"RUN_STARTED","threadId":"t","runId":"r3"}),
        json!({"type":"SUBAGENT_STARTED","subagentRunId":"s5"}),
    ];
    let text = run_texts(&lines(&events));
    // Written from docs/projection.md: keys sorted, absent fields left out.
    assert_eq!(
        text[0],
        concat!(
            r#"{"interrupts":[{"id":"i1","owner":"s2"},{"id":"i2"}],"#,
            r#""invocations":[{"id":"s1","name":"lead","status":"finished"},"#,
            r#"{"id":"s2","interruptIds":["i1"],"name":"w","parent":"s1","status":"suspended"}],"#,
            r#""messages":[{"content":"a\u0001\n\"é","id":"m1","owner":"s1","role":"assistant","#,
            r#""toolCalls":[{"args":"{\"a\":1}","id":"c1","name":"f"}]},"#,
            r#"{"content":"ok","id":"x1","role":"tool"},"#,
            r#"{"activityType":"progress","content":{"pct":2.5,"z":[true,null]},"id":"a1","owner":"s2","role":"activity"}],"#,
            r#""runId":"r1","state":{"a":{"x":null,"y":"é"},"b":[1,-2,0.5]},"status":"interrupted","threadId":"t\"1"}"#
        )
    );
    assert_eq!(
        text[1],
        concat!(
            r#"{"interrupts":[],"invocations":[{"id":"s4","status":"unannounced"}],"messages":["#,
            r#"{"content":"hi there","id":"u1","role":"user"},"#,
            r#"{"content":"","id":"m9","owner":"s3","role":"assistant","toolCalls":[{"args":"{}","id":"c9","name":"g"}]},"#,
            r#"{"activityType":"p","content":{"k":1},"id":"a9","role":"activity"},"#,
            r#"{"content":"hmm","id":"z1","owner":"s4","role":"reasoning"}],"#,
            r#""runId":"r2","state":{"a":{"x":null,"y":"é"},"b":[1,-2,0.5]},"status":"errored","threadId":"t"}"#
        )
    );
    assert_eq!(
        text[2],
        r#"{"interrupts":[],"invocations":[{"id":"s5","status":"running"}],"messages":[],"runId":"r3","state":{"a":{"x":null,"y":"é"},"b":[1,-2,0.5]},"status":"unterminated","threadId":"t"}"#
    );
    assert_eq!(text.len(), 3);
    assert_canonical("every shape", &lines(&events));
}

#[test]
fn kept_numbers_and_lone_surrogates_print_as_the_value_form_does() {
    let stream = concat!(
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#,
        "\n",
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"big":1e400,"k\ud800":"\udc00x","n":-0.0}}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m\ud801","role":"assistant"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\ud801","delta":"a\ud83d"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\ud801","delta":"\ude00b\ud800"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m\ud801"}"#,
        "\n",
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}"#,
        "\n",
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#,
    );
    let (texts, _) = both(stream);
    let first = String::from_utf8_lossy(&texts[0]).into_owned();
    assert!(first.contains(r#""big":1e400"#), "{first}");
    assert!(
        first.contains("\"content\":\"a\u{1F600}b\u{FFFD}\""),
        "{first}"
    );
    assert!(first.contains("\"id\":\"m\u{FFFD}\""), "{first}");
    assert!(first.contains("\"k\u{FFFD}\":\"\u{FFFD}x\""), "{first}");
    // The second run read no lone surrogate; the state still holds them.
    let second = String::from_utf8_lossy(&texts[1]).into_owned();
    assert!(second.contains("\"k\u{FFFD}\":\"\u{FFFD}x\""), "{second}");
    assert_canonical("kept", stream);
}

/// Texts are kept as their deltas and joined when the run is written:
/// deltas of interleaved messages and calls, escapes on both sides of a
/// join, a surrogate pair split between two deltas of an interleaved
/// message, a message that begins with U+FDD0, and an activity message
/// given text by a tool result and then patched.
#[test]
fn interleaved_deltas_join_into_each_text() {
    let events = [
        json!({"type":"RUN_STARTED","threadId":"t","runId":"r1"}),
        json!({"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}),
        json!({"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","subagentRunId":"s2"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"one \"a\""}),
        json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":","subagentRunId":"s2"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"\u{FDD0}7","subagentRunId":"s1"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"\n"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"two\\"}),
        json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":" 1}","subagentRunId":"s2"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"\t!","subagentRunId":"s1"}),
        json!({"type":"TEXT_MESSAGE_END","messageId":"m1"}),
        json!({"type":"TEXT_MESSAGE_END","messageId":"m2","subagentRunId":"s1"}),
        json!({"type":"TOOL_CALL_END","toolCallId":"c1","subagentRunId":"s2"}),
        json!({"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"p","content":{"k":1}}),
        json!({"type":"TOOL_CALL_RESULT","messageId":"a1","toolCallId":"c1","content":"done"}),
        json!({"type":"ACTIVITY_DELTA","messageId":"a1","activityType":"p","patch":[{"op":"replace","path":"","value":{"k":2}}]}),
        json!({"type":"RUN_FINISHED","threadId":"t","runId":"r1"}),
    ];
    let mut stream = lines(&events);
    // m3: a surrogate pair split between two deltas, with m1's delta
    // between them (serde_json cannot print a lone surrogate).
    stream.push_str(concat!(
        "\n",
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m3","role":"assistant"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m4","role":"assistant"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m3","delta":"x\ud83d"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m4","delta":"y"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m3","delta":"\ude00z"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m4","delta":"\"w"}"#,
        "\n",
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}"#,
    ));
    let text = run_texts(&stream);
    // Written from docs/projection.md and the deltas above; a string that
    // is U+FDD0 and a number prints as that number (json::Out's kept form).
    assert_eq!(
        text[0],
        concat!(
            r#"{"interrupts":[],"invocations":[{"id":"s1","status":"unannounced"},{"id":"s2","status":"unannounced"}],"#,
            r#""messages":[{"content":"one \"a\"\ntwo\\","id":"m1","role":"assistant"},"#,
            "{\"content\":\"\u{FDD0}7\\t!\",\"id\":\"m2\",\"owner\":\"s1\",\"role\":\"assistant\"},",
            // The call's message: no event names its id (invented, shown
            // without one).
            r#"{"content":"","owner":"s2","role":"assistant","toolCalls":[{"args":"{\"q\": 1}","id":"c1","name":"f"}]},"#,
            r#"{"activityType":"p","content":{"k":2},"id":"a1","role":"activity"}],"#,
            r#""runId":"r1","state":{},"status":"finished","threadId":"t"}"#
        )
    );
    assert_eq!(
        text[1],
        concat!(
            r#"{"interrupts":[],"invocations":[],"messages":["#,
            "{\"content\":\"x\u{1F600}z\",\"id\":\"m3\",\"role\":\"assistant\"},",
            r#"{"content":"y\"w","id":"m4","role":"assistant"}],"#,
            r#""runId":"r2","state":{},"status":"finished","threadId":"t"}"#
        )
    );
    assert_canonical("interleaved deltas", &stream);
}

/// A run larger than the writer's buffer reaches the text sink in several
/// pieces, each ending between two records, and the run after it starts a
/// text of its own; joined, each is its `Value` form printed.
#[test]
fn a_large_run_is_handed_over_in_pieces() {
    // 4,000 messages of about 100 bytes: about 600 KB of run text.
    let mut events = vec![json!({"type":"RUN_STARTED","threadId":"t","runId":"big"})];
    for k in 0..4000 {
        let id = format!("m{k}");
        events.push(json!({"type":"TEXT_MESSAGE_START","messageId":id,"role":"assistant"}));
        events
            .push(json!({"type":"TEXT_MESSAGE_CONTENT","messageId":id,"delta":"x\"y".repeat(30)}));
        events.push(json!({"type":"TEXT_MESSAGE_END","messageId":id}));
    }
    events.push(json!({"type":"RUN_FINISHED","threadId":"t","runId":"big"}));
    events.push(json!({"type":"RUN_STARTED","threadId":"t","runId":"small"}));
    events.push(json!({"type":"RUN_FINISHED","threadId":"t","runId":"small"}));
    let stream = lines(&events);
    let pieces = Rc::new(RefCell::new(Vec::<(Vec<u8>, bool)>::new()));
    let sink = Rc::clone(&pieces);
    let checker = Checker::with_projection_text_sink(move |piece, last| {
        sink.borrow_mut().push((piece.to_vec(), last));
    });
    check_bytes(stream.as_bytes(), checker);
    let pieces = pieces.borrow();
    let lasts: Vec<usize> = (0..pieces.len()).filter(|&k| pieces[k].1).collect();
    assert_eq!(lasts.len(), 2, "two runs, each ended once");
    assert_eq!(lasts[1], lasts[0] + 1, "the small run is one piece");
    assert!(lasts[0] >= 5, "{} pieces for about 600 KB", lasts[0] + 1);
    for (piece, last) in &pieces[..lasts[0]] {
        assert!(!last);
        // Between two messages: a piece ends after a message's `}`.
        assert_eq!(
            piece.last(),
            Some(&b'}'),
            "{}",
            String::from_utf8_lossy(piece)
        );
    }
    assert_eq!(assert_canonical("large run", &stream), 2);
}

/// A run of several megabytes where 16 invocations stream at once, their
/// messages' and calls' deltas interleaved event by event (multi-byte
/// characters, escapes, a few deltas larger than the rest): every text
/// shows exactly its own deltas, in order — the texts are built here from
/// the deltas sent, not by the checker.
#[test]
fn a_large_interleaved_run_shows_each_text_whole() {
    const OWNERS: usize = 16;
    let mut events = vec![json!({"type":"RUN_STARTED","threadId":"t","runId":"r"})];
    for o in 0..OWNERS {
        events.push(json!({"type":"SUBAGENT_STARTED","subagentRunId":format!("s{o}"),"name":"w"}));
    }
    // Message or call id -> the text its deltas make.
    let mut want: std::collections::BTreeMap<String, String> = Default::default();
    let mut open: Vec<Option<(String, bool)>> = vec![None; OWNERS];
    let mut made = 0usize;
    for step in 0..60_000usize {
        let o = step % OWNERS;
        let owner = format!("s{o}");
        let (id, call) = match &open[o] {
            Some(x) => x.clone(),
            None => {
                made += 1;
                let call = made.is_multiple_of(3);
                let id = format!("{}{made}", if call { "c" } else { "m" });
                events.push(if call {
                    json!({"type":"TOOL_CALL_START","toolCallId":id,"toolCallName":"f","subagentRunId":owner})
                } else {
                    json!({"type":"TEXT_MESSAGE_START","messageId":id,"role":"assistant","subagentRunId":owner})
                });
                want.insert(id.clone(), String::new());
                open[o] = Some((id.clone(), call));
                (id, call)
            }
        };
        let delta = match step % 97 {
            0 => format!("{}|", "long ".repeat(1000 + step % 7)),
            k => format!("é{step}\"{}\\n ", "w".repeat(k % 40)),
        };
        want.entry(id.clone()).or_default().push_str(&delta);
        events.push(if call {
            json!({"type":"TOOL_CALL_ARGS","toolCallId":id,"delta":delta,"subagentRunId":owner})
        } else {
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":id,"delta":delta,"subagentRunId":owner})
        });
        if step.is_multiple_of(5 + o) {
            events.push(if call {
                json!({"type":"TOOL_CALL_END","toolCallId":id,"subagentRunId":owner})
            } else {
                json!({"type":"TEXT_MESSAGE_END","messageId":id,"subagentRunId":owner})
            });
            open[o] = None;
        }
    }
    for (o, x) in open.iter().enumerate() {
        if let Some((id, call)) = x {
            let owner = format!("s{o}");
            events.push(if *call {
                json!({"type":"TOOL_CALL_END","toolCallId":id,"subagentRunId":owner})
            } else {
                json!({"type":"TEXT_MESSAGE_END","messageId":id,"subagentRunId":owner})
            });
        }
        events.push(json!({"type":"SUBAGENT_FINISHED","subagentRunId":format!("s{o}")}));
    }
    events.push(json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}));
    let texts = run_texts(&lines(&events));
    assert_eq!(texts.len(), 1);
    assert!(texts[0].len() > 4 << 20, "{} bytes", texts[0].len());
    let run: Value = serde_json::from_str(&texts[0]).expect("JSON");
    let mut got = std::collections::BTreeMap::new();
    for m in run["messages"].as_array().expect("messages") {
        match m["toolCalls"].as_array() {
            Some(calls) => {
                for c in calls {
                    let id = c["id"].as_str().expect("id").to_owned();
                    got.insert(id, c["args"].as_str().expect("args").to_owned());
                }
            }
            None => {
                let id = m["id"].as_str().expect("id").to_owned();
                got.insert(id, m["content"].as_str().expect("content").to_owned());
            }
        }
    }
    assert_eq!(got.len(), want.len());
    for (id, text) in &want {
        assert!(got.get(id) == Some(text), "{id} differs");
    }
}
