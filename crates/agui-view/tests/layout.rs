//! The data the lanes page is drawn from, on small hand-written streams.
//! Expected lanes, bars, stretches and runs are worked out by hand from the
//! events (indexes counted in the stream).

use agui_model::{RuleId, Violation};
use agui_view::layout::{Bar, BarKind, Cat, End, Layout, Life, Run, RunEnd, Start};
use serde_json::{Value, json};

fn owners(l: &Layout) -> Vec<(Option<&str>, Option<usize>, usize)> {
    l.lanes
        .iter()
        .map(|lane| (lane.owner.as_deref(), lane.parent, lane.depth))
        .collect()
}

fn bar(lane: usize, kind: BarKind, id: &str, from: usize, to: usize) -> Bar {
    Bar {
        lane,
        kind,
        id: id.to_owned(),
        from,
        to,
        closed: true,
        chunk: false,
        track: 0,
    }
}

fn life(lane: usize, from: usize, to: usize, start: Start, end: End) -> Life {
    Life {
        lane,
        from,
        to,
        start,
        end,
    }
}

/// corpus/ownership/continuation-disagrees-interleaved.json
fn interleaved() -> Vec<Value> {
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "researcher"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m0"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s2", "name": "searcher", "parentSubagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m0", "delta": "Let me "}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s3", "name": "writer", "parentSubagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m2", "subagentRunId": "s2"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Looking", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m3", "subagentRunId": "s3"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "Found", "subagentRunId": "s2"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "!", "subagentRunId": "s3"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m3", "delta": "Draft", "subagentRunId": "s3"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m2", "subagentRunId": "s2"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s2"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": " up", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m3", "subagentRunId": "s3"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s3"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1", "subagentRunId": "s1"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m0", "delta": "check."}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m0"}),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}),
    ]
}

#[test]
fn nested_interleaved_stream_has_a_lane_tree_bars_and_stretches() {
    let l = Layout::of(&interleaved());
    // parent, s1 under it, s2 and s3 under s1 (in order of appearance).
    assert_eq!(
        owners(&l),
        vec![
            (None, None, 0),
            (Some("s1"), Some(0), 1),
            (Some("s2"), Some(1), 2),
            (Some("s3"), Some(1), 2),
        ]
    );
    let names: Vec<_> = l.lanes.iter().map(|x| x.name.as_deref()).collect();
    assert_eq!(
        names,
        vec![None, Some("researcher"), Some("searcher"), Some("writer")]
    );
    let lanes: Vec<usize> = l.marks.iter().map(|m| m.lane).collect();
    // Index 11 is s3's content for s2's m2: drawn in s3's lane (its tag).
    assert_eq!(
        lanes,
        vec![
            0, 1, 0, 2, 1, 0, 3, 2, 1, 3, 2, 3, 3, 2, 2, 1, 3, 3, 1, 1, 0, 0, 0
        ]
    );
    assert_eq!(l.marks[0].cat, Cat::Run);
    assert_eq!(l.marks[1].cat, Cat::Lifecycle);
    assert_eq!(l.marks[2].cat, Cat::Text);
    assert_eq!(
        l.bars,
        vec![
            bar(0, BarKind::Text, "m0", 2, 21),
            bar(1, BarKind::Text, "m1", 4, 18),
            bar(2, BarKind::Text, "m2", 7, 13),
            bar(3, BarKind::Text, "m3", 9, 16),
        ]
    );
    assert_eq!(
        l.lives,
        vec![
            life(1, 1, 19, Start::Started, End::Finished),
            life(2, 3, 14, Start::Started, End::Finished),
            life(3, 6, 17, Start::Started, End::Finished),
        ]
    );
    assert_eq!(
        l.runs,
        vec![Run {
            from: 0,
            to: 22,
            run_id: Some("r1".into()),
            end: RunEnd::Finished
        }]
    );
}

#[test]
fn violations_are_placed_in_their_event_lane_and_end_of_input_in_the_parents() {
    let mut l = Layout::of(&interleaved());
    l.flag(&[
        Violation::new(RuleId::OwnershipContinuationDisagrees, 11, "m2 is s2's"),
        Violation::new(RuleId::RunUnterminated, 23, "input ends in a run"),
    ]);
    let placed: Vec<_> = l.flags.iter().map(|f| (f.index, f.lane, f.rule)).collect();
    assert_eq!(
        placed,
        vec![
            (11, 3, RuleId::OwnershipContinuationDisagrees),
            (23, 0, RuleId::RunUnterminated),
        ]
    );
    assert_eq!(l.flags[0].message, "m2 is s2's");
}

#[test]
fn untagged_continuations_are_drawn_in_their_openers_lane() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
        // Untagged opener: the tool call's message is s1's.
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "{}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c"}),
        json!({"type": "REASONING_START", "messageId": "q", "subagentRunId": "s1"}),
        json!({"type": "REASONING_END", "messageId": "q"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "outcome": {"type": "suspended", "interruptIds": ["i"]}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ];
    let l = Layout::of(&events);
    let lanes: Vec<usize> = l.marks.iter().map(|m| m.lane).collect();
    assert_eq!(lanes, vec![0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    assert_eq!(
        l.bars,
        vec![
            bar(1, BarKind::Text, "m", 2, 4),
            bar(1, BarKind::Tool, "c", 5, 7),
            bar(1, BarKind::ReasoningSpan, "q", 8, 9),
        ]
    );
    assert_eq!(
        l.lives,
        vec![life(1, 1, 10, Start::Started, End::Suspended)]
    );
}

#[test]
fn run_error_abandons_active_invocations_and_leaves_entities_open() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": "s9"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s2"}),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s2", "message": "boom"}),
        json!({"type": "RUN_ERROR", "message": "gone"}),
    ];
    let l = Layout::of(&events);
    assert_eq!(
        owners(&l),
        vec![
            (None, None, 0),
            (Some("s9"), Some(0), 1),
            (Some("s1"), Some(0), 1),
            (Some("s2"), Some(0), 1),
        ]
    );
    assert_eq!(
        l.lives,
        vec![
            life(1, 1, 5, Start::Unannounced, End::Abandoned),
            life(2, 2, 5, Start::Started, End::Abandoned),
            life(3, 3, 4, Start::Started, End::Errored),
        ]
    );
    let mut open = bar(1, BarKind::Text, "m", 1, 5);
    open.closed = false;
    assert_eq!(l.bars, vec![open]);
    assert_eq!(l.runs[0].end, RunEnd::Errored);
    assert_eq!((l.runs[0].from, l.runs[0].to), (0, 5));
}

#[test]
fn an_announcement_after_attribution_ends_the_unannounced_stretch() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "CUSTOM", "name": "x", "value": 1, "subagentRunId": "s1"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ];
    let l = Layout::of(&events);
    assert_eq!(
        l.lives,
        vec![
            life(1, 1, 2, Start::Unannounced, End::Open),
            life(1, 2, 3, Start::Started, End::Finished),
        ]
    );
    assert_eq!(l.marks[1].cat, Cat::Custom);
}

#[test]
fn runs_are_separate_and_overlapping_bars_take_separate_tracks() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "a"}),
        json!({"type": "STEP_STARTED", "stepName": "plan"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
        json!({"type": "STEP_FINISHED", "stepName": "plan"}),
        json!({"type": "STATE_DELTA", "delta": []}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "a"}),
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "b"}),
        // Same id again in the next run: a new bar.
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
    ];
    let l = Layout::of(&events);
    let mut m2 = bar(0, BarKind::Text, "m", 8, 9);
    m2.track = 0;
    let mut m1 = bar(0, BarKind::Text, "m", 2, 3);
    m1.track = 1;
    assert_eq!(l.bars, vec![bar(0, BarKind::Step, "plan", 1, 4), m1, m2]);
    assert_eq!(l.lanes[0].tracks, 2);
    assert_eq!(l.marks[5].cat, Cat::State);
    assert_eq!(
        l.runs,
        vec![
            Run {
                from: 0,
                to: 6,
                run_id: Some("a".into()),
                end: RunEnd::Finished
            },
            Run {
                from: 7,
                to: 9,
                run_id: Some("b".into()),
                end: RunEnd::Open
            },
        ]
    );
}

#[test]
fn chunk_streams_are_bars_in_the_lane_that_opened_them() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "c", "delta": "a", "subagentRunId": "s1"}),
        // No id, no tag: the sole open text stream, s1's.
        json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "b"}),
        // An explicit event of s1 closes s1's stream...
        json!({"type": "CUSTOM", "name": "n", "value": 0, "subagentRunId": "s1"}),
        // ... so the same id opens a new one.
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "c", "delta": "c", "subagentRunId": "s1"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ];
    let l = Layout::of(&events);
    let lanes: Vec<usize> = l.marks.iter().map(|m| m.lane).collect();
    assert_eq!(lanes, vec![0, 1, 1, 1, 1, 0]);
    let mut first = bar(1, BarKind::Text, "c", 1, 2);
    first.chunk = true;
    let mut second = bar(1, BarKind::Text, "c", 4, 4);
    second.chunk = true;
    assert_eq!(l.bars, vec![first, second]);
}

#[test]
fn an_unknown_or_cyclic_parent_hangs_the_lane_from_the_parent_agent() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "a", "parentSubagentRunId": "nobody"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "b", "parentSubagentRunId": "b"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "c", "parentSubagentRunId": "a"}),
        json!("not an event"),
    ];
    let l = Layout::of(&events);
    assert_eq!(
        owners(&l),
        vec![
            (None, None, 0),
            (Some("a"), Some(0), 1),
            (Some("c"), Some(1), 2),
            (Some("b"), Some(0), 1),
        ]
    );
    assert_eq!(l.marks[4].cat, Cat::Invalid);
    assert_eq!(l.marks[4].lane, 0);
}

#[test]
fn subagent_started_closes_no_chunk_stream_and_subagent_finished_closes_its_own() {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "f", "subagentRunId": "s1"}),
        // Closes nothing (docs/rules.md "Chunk shorthand", Closing).
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "delta": "{}", "subagentRunId": "s1"}),
        // Closes s1's lane: the same id then opens a new stream.
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "f", "subagentRunId": "s1"}),
    ];
    let l = Layout::of(&events);
    let spans: Vec<_> = l
        .bars
        .iter()
        .map(|b| (b.lane, b.kind, b.from, b.to))
        .collect();
    assert_eq!(
        spans,
        vec![(1, BarKind::Tool, 2, 4), (1, BarKind::Tool, 6, 6)]
    );
}
