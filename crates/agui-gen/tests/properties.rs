//! Properties of the generators against the reference model, and
//! construction-side checks that need no checker.
//!
//! Case counts: `AGUI_GEN_CASES` (default 2000) valid seeds, and
//! `AGUI_GEN_CASES / 20` seeds per violation rule (default 100 × 48 rules), and proportionally more for the other properties.

use agui_gen::mutate::has_mutator;
use agui_gen::{
    Config, Mode, generate, generate_case, generate_case_with, invalid_stream, valid_stream,
};
use agui_model::projection::same;
use agui_model::{Checker, EventType, Report, RuleId, Severity, Verdict, check_values};
use arbitrary::Unstructured;
use proptest::prelude::*;
use serde_json::Value;

fn cases() -> u64 {
    std::env::var("AGUI_GEN_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

fn show(events: &[Value]) -> String {
    events
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{i:3} {e}\n"))
        .collect()
}

/// The reference accepts a valid stream with no violation at all and
/// shows the generator's projection.
fn assert_valid(events: &[Value], projection: &Value, what: &str) {
    let report = check_values(events);
    assert!(
        report.violations.is_empty(),
        "{what}: valid stream has violations {:?}\n{}",
        report
            .violations
            .iter()
            .map(|v| (v.rule.as_str(), v.index, v.message.clone()))
            .collect::<Vec<_>>(),
        show(events)
    );
    let got = report
        .projection
        .map(|p| p.to_json())
        .unwrap_or(Value::Null);
    assert!(
        same(&got, projection),
        "{what}: projection differs\nexpected {}\n     got {}\n{}",
        projection,
        got,
        show(events)
    );
}

/// The reference's first violation is exactly the expected rule and index.
/// `report` is the reference's report of the stream `shown`.
fn assert_first(report: &Report, shown: &str, rule: RuleId, index: usize, what: &str) {
    let first = report.violations.first().map(|v| (v.rule, v.index));
    assert_eq!(
        first,
        Some((rule, index)),
        "{what}: expected first violation {rule} at {index}, got {:?}\n{shown}",
        report
            .violations
            .iter()
            .take(4)
            .map(|v| (v.rule.as_str(), v.index, v.message.clone()))
            .collect::<Vec<_>>(),
    );
    if rule.severity() == Severity::Warning {
        assert_eq!(
            report.verdict(),
            Verdict::Accept,
            "{what}: warning stream must stay accepted\n{shown}"
        );
    }
}

/// A case's stream, numbered (its lines as written, for a `lines` case).
fn show_case(c: &agui_corpus::Case) -> String {
    c.shown()
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{i:3} {e}\n"))
        .collect()
}

/// A generated stream, numbered.
fn show_generated(g: &agui_gen::Generated) -> String {
    match &g.lines {
        Some(lines) => lines
            .iter()
            .enumerate()
            .map(|(i, e)| format!("{i:3} {e}\n"))
            .collect(),
        None => show(&g.events),
    }
}

#[test]
fn every_violation_rule_has_a_mutator() {
    let missing: Vec<&str> = RuleId::violations()
        .filter(|r| !has_mutator(*r))
        .map(RuleId::as_str)
        .collect();
    assert!(missing.is_empty(), "rules without a mutator: {missing:?}");
    assert!(RuleId::obligations().all(|r| !has_mutator(r)));
    assert!(RuleId::transport().all(|r| !has_mutator(r)));
    // Exactly the catalogue's stream rules have one.
    let stream_rules = agui_model::CATALOGUE
        .iter()
        .filter(|r| r.is_stream_rule())
        .count();
    let with_mutator = RuleId::ALL.iter().filter(|r| has_mutator(**r)).count();
    assert_eq!(with_mutator, stream_rules);
    // And each one produces a case, even from the smallest scenario.
    for rule in RuleId::violations() {
        let g = generate(
            &Config::default(),
            Mode::Invalid(rule),
            &mut Unstructured::new(&[]),
        );
        let g = g.unwrap_or_else(|e| panic!("{rule}: no stream from empty bytes: {e}"));
        assert_eq!(g.rule, Some(rule));
    }
}

#[test]
fn same_seed_same_bytes() {
    for seed in 0..20 {
        for mode in [
            Mode::Valid,
            Mode::Invalid(RuleId::OwnershipContinuationDisagrees),
            Mode::Invalid(RuleId::InterruptOwnerMismatch),
        ] {
            let a = serde_json::to_string(&generate_case(seed, mode)).unwrap();
            let b = serde_json::to_string(&generate_case(seed, mode)).unwrap();
            assert_eq!(a, b);
        }
    }
    // Different seeds differ (the generator is not constant).
    let a = serde_json::to_string(&generate_case(1, Mode::Valid)).unwrap();
    let b = serde_json::to_string(&generate_case(2, Mode::Valid)).unwrap();
    assert_ne!(a, b);
}

#[test]
fn valid_streams_are_accepted_with_the_generated_projection() {
    for seed in 0..cases() {
        let c = generate_case(seed, Mode::Valid);
        assert_eq!(c.expect.verdict, Verdict::Accept);
        assert_valid(&c.events, c.projection.as_ref().unwrap(), &c.id);
    }
}

#[test]
fn valid_streams_under_other_configs() {
    let configs = [
        Config {
            attribution: agui_gen::AttributionMode::AttributionOnly,
            ..Config::default()
        },
        Config {
            attribution: agui_gen::AttributionMode::Announced,
            parallelism: 1,
            ..Config::default()
        },
        Config {
            invocations: 8,
            parallelism: 8,
            ops_per_actor: 10,
            runs: 4,
            ..Config::default()
        },
        Config {
            chunks: false,
            failures: false,
            extras: false,
            ..Config::default()
        },
    ];
    for (k, config) in configs.iter().enumerate() {
        for seed in 0..cases() / 10 {
            let c = generate_case_with(config, seed, Mode::Valid);
            assert_valid(
                &c.events,
                c.projection.as_ref().unwrap(),
                &format!("config {k}, {}", c.id),
            );
        }
    }
}

#[test]
fn mutated_streams_break_exactly_their_rule_first() {
    let per_rule = (cases() / 20).max(1);
    for rule in RuleId::violations() {
        for seed in 0..per_rule {
            let c = generate_case(seed, Mode::Invalid(rule));
            assert_eq!(c.expect.rule, Some(rule));
            let verdict = if rule.severity() == Severity::Error {
                Verdict::Reject
            } else {
                Verdict::Accept
            };
            assert_eq!(c.expect.verdict, verdict);
            // A `lines` case is checked as written, through the reader.
            let report = c.check(Checker::new());
            assert_first(
                &report,
                &show_case(&c),
                rule,
                c.expect.index.unwrap(),
                &c.id,
            );
            if let Some(p) = &c.projection {
                let got = report
                    .projection
                    .map(|p| p.to_json())
                    .unwrap_or(Value::Null);
                assert!(
                    same(&got, p),
                    "{}: projection differs\nexpected {p}\n     got {got}\n{}",
                    c.id,
                    show_case(&c)
                );
            }
        }
    }
}

/// A generated case that states its violations states them all: the
/// reference finds exactly that list (rules and indexes, in order). Only
/// `attribution.null` states just its first violation (must-reject: F =
/// M), see `front::stated_violations`.
#[test]
fn generated_cases_state_every_violation() {
    let per_rule = (cases() / 20).max(1);
    let mut bad = Vec::new();
    for rule in RuleId::violations() {
        for seed in 0..per_rule {
            let c = generate_case(seed, Mode::Invalid(rule));
            let Some(stated) = &c.violations else {
                assert_eq!(rule, RuleId::AttributionNull, "{}", c.id);
                continue;
            };
            let stated: Vec<(RuleId, usize)> = stated.iter().map(|s| (s.rule, s.index)).collect();
            let mut found: Vec<(RuleId, usize)> = c
                .check(agui_model::Checker::without_projection())
                .violations
                .iter()
                .map(|v| (v.rule, v.index))
                .collect();
            // A rule broken several times at one index is stated once.
            found.dedup();
            if stated != found {
                bad.push(format!("{}: stated {stated:?}, reference {found:?}", c.id));
            }
        }
    }
    assert!(bad.is_empty(), "{} cases:\n{}", bad.len(), bad.join("\n"));
}

/// The `arbitrary` front end (what fuzz targets call), over seeded bytes.
#[test]
fn arbitrary_front_end_smoke() {
    use rand::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
    for i in 0..cases() / 4 {
        let mut bytes = vec![0u8; (rng.next_u32() % 4096) as usize];
        rng.fill_bytes(&mut bytes);
        if let Ok(g) = valid_stream(&mut Unstructured::new(&bytes)) {
            assert_valid(
                &g.events,
                g.projection.as_ref().unwrap(),
                &format!("arbitrary valid #{i}"),
            );
        }
        if let Ok(g) = invalid_stream(&mut Unstructured::new(&bytes)) {
            assert_first(
                &g.check(Checker::new()),
                &show_generated(&g),
                g.rule.unwrap(),
                g.index.unwrap(),
                &format!("arbitrary invalid #{i}"),
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The proptest front end: valid streams are accepted (a failure
    /// shrinks toward the smallest stream that still fails).
    #[test]
    fn proptest_valid(g in agui_gen::strategy(Config::default(), Mode::Valid)) {
        let report = check_values(&g.events);
        prop_assert!(report.violations.is_empty(), "{:?}\n{}", report.violations, show(&g.events));
        let got = report.projection.map(|p| p.to_json()).unwrap_or(Value::Null);
        prop_assert!(same(&got, g.projection.as_ref().unwrap()));
    }

    #[test]
    fn proptest_invalid(
        rule in proptest::sample::select(RuleId::violations().collect::<Vec<_>>()),
        bytes in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let g = generate(&Config::default(), Mode::Invalid(rule), &mut Unstructured::new(&bytes));
        if let Ok(g) = g {
            let report = g.check(Checker::new());
            let first = report.violations.first().map(|v| (v.rule, v.index));
            prop_assert_eq!(first, Some((rule, g.index.unwrap())), "{}", show_generated(&g));
        }
    }
}

// ---- construction-side checks (no checker) ----

/// Every event of a valid stream is schema-valid; in a mutated stream,
/// every event is, except the one a schema rule targets.
#[test]
fn streams_are_schema_valid_where_they_should_be() {
    for seed in 0..cases() / 4 {
        let c = generate_case(seed, Mode::Valid);
        for (i, e) in c.events.iter().enumerate() {
            let issues = agui_model::schema::validate(e);
            assert!(issues.is_empty(), "{}: event {i} {e}: {issues:?}", c.id);
        }
    }
    for rule in RuleId::violations() {
        let schema_rule = rule.rule().area == "schema";
        for seed in 0..5 {
            let c = generate_case(seed, Mode::Invalid(rule));
            for (i, e) in c.values().iter().enumerate() {
                if schema_rule && Some(i) == c.expect.index {
                    assert!(
                        !agui_model::schema::validate(e).is_empty()
                            || !e.is_object()
                            || rule.severity() == Severity::Warning
                            || rule_is_semantic(rule),
                        "{}: the targeted event {i} is schema-valid: {e}",
                        c.id
                    );
                    continue;
                }
                let issues = agui_model::schema::validate(e);
                assert!(issues.is_empty(), "{}: event {i} {e}: {issues:?}", c.id);
            }
        }
    }
}

/// Schema-area rules that are about values the schema lets through.
fn rule_is_semantic(rule: RuleId) -> bool {
    matches!(
        rule,
        RuleId::LifecycleSuccessWithInterrupts | RuleId::AttributionNotAttributable
    )
}

/// In valid streams, every explicitly opened entity is closed before its
/// run finishes, by its owner, and every announced invocation is closed.
#[test]
fn valid_streams_close_what_they_open() {
    use std::collections::BTreeMap;
    for seed in 0..cases() / 2 {
        let c = generate_case(seed, Mode::Valid);
        let mut open: BTreeMap<(EventType, String), ()> = BTreeMap::new();
        let mut active: BTreeMap<String, ()> = BTreeMap::new();
        let mut steps: BTreeMap<(Option<String>, String), ()> = BTreeMap::new();
        for (i, e) in c.events.iter().enumerate() {
            let t = EventType::from_name(e["type"].as_str().unwrap()).unwrap();
            let s = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let tag = e
                .get("subagentRunId")
                .and_then(Value::as_str)
                .map(str::to_string);
            match t {
                EventType::RunStarted => {
                    open.clear();
                    active.clear();
                    steps.clear();
                }
                EventType::TextMessageStart => assert!(
                    open.insert((t, s("messageId")), ()).is_none(),
                    "{} {i}",
                    c.id
                ),
                EventType::TextMessageEnd => assert!(
                    open.remove(&(EventType::TextMessageStart, s("messageId")))
                        .is_some(),
                    "{} {i}",
                    c.id
                ),
                EventType::ToolCallStart => assert!(
                    open.insert((t, s("toolCallId")), ()).is_none(),
                    "{} {i}",
                    c.id
                ),
                EventType::ToolCallEnd => assert!(
                    open.remove(&(EventType::ToolCallStart, s("toolCallId")))
                        .is_some(),
                    "{} {i}",
                    c.id
                ),
                EventType::ReasoningStart | EventType::ReasoningMessageStart => {
                    assert!(
                        open.insert((t, s("messageId")), ()).is_none(),
                        "{} {i}",
                        c.id
                    )
                }
                EventType::ReasoningEnd => assert!(
                    open.remove(&(EventType::ReasoningStart, s("messageId")))
                        .is_some(),
                    "{} {i}",
                    c.id
                ),
                EventType::ReasoningMessageEnd => {
                    assert!(
                        open.remove(&(EventType::ReasoningMessageStart, s("messageId")))
                            .is_some(),
                        "{} {i}",
                        c.id
                    )
                }
                EventType::StepStarted => assert!(
                    steps.insert((tag, s("stepName")), ()).is_none(),
                    "{} {i}",
                    c.id
                ),
                EventType::StepFinished => assert!(
                    steps.remove(&(tag, s("stepName"))).is_some(),
                    "{} {i}",
                    c.id
                ),
                EventType::SubagentStarted => assert!(
                    active.insert(s("subagentRunId"), ()).is_none(),
                    "{} {i}",
                    c.id
                ),
                EventType::SubagentFinished | EventType::SubagentError => {
                    assert!(active.remove(&s("subagentRunId")).is_some(), "{} {i}", c.id)
                }
                EventType::RunFinished => {
                    assert!(
                        open.is_empty() && steps.is_empty() && active.is_empty(),
                        "{} {i}: {open:?} {steps:?} {active:?}",
                        c.id
                    )
                }
                _ => {}
            }
        }
    }
}

/// Over many seeds the valid generator reaches every feature the scenario
/// model has: interleaving, nesting, attribution-only ids, `""`, chunks,
/// untagged continuations, inherited tool calls, every run ending.
#[test]
fn valid_streams_cover_the_features() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let c = generate_case(seed, Mode::Valid);
        let p = c.projection.unwrap();
        for run in p["runs"].as_array().unwrap() {
            for inv in run["invocations"].as_array().unwrap() {
                seen.insert(format!("status:{}", inv["status"].as_str().unwrap()));
                if inv["id"] == "" {
                    seen.insert("empty-id".into());
                }
                if inv.get("parent").is_some() {
                    seen.insert("nested".into());
                }
            }
            seen.insert(format!("run:{}", run["status"].as_str().unwrap()));
            if !run["interrupts"].as_array().unwrap().is_empty() {
                seen.insert("interrupts".into());
            }
        }
        for e in &c.events {
            seen.insert(format!("type:{}", e["type"].as_str().unwrap()));
        }
    }
    for want in [
        "status:finished",
        "status:suspended",
        "status:errored",
        "status:abandoned",
        "status:unannounced",
        "empty-id",
        "nested",
        "run:finished",
        "run:errored",
        "interrupts",
        "type:TEXT_MESSAGE_CHUNK",
        "type:TOOL_CALL_CHUNK",
        "type:REASONING_MESSAGE_CHUNK",
        "type:REASONING_ENCRYPTED_VALUE",
        "type:STATE_DELTA",
        "type:ACTIVITY_DELTA",
        "type:TOOL_CALL_RESULT",
        "type:RAW",
        "type:CUSTOM",
    ] {
        assert!(seen.contains(want), "never generated: {want}");
    }
}

/// Over many seeds the valid generator produces every `accept.*` family the
/// scenario model is meant to reach (read off the rendering's own record of
/// who emitted what, not off a checker).
#[test]
fn valid_streams_reach_the_accept_families() {
    use agui_gen::front::seeded_bytes;
    use agui_gen::{Scenario, render};
    use std::collections::{BTreeMap, BTreeSet};
    let config = Config::default();
    let mut seen = BTreeSet::new();
    for seed in 0..300 {
        let bytes = seeded_bytes(&config, seed);
        let sc = Scenario::new(&config, &mut Unstructured::new(&bytes)).unwrap();
        let r = render(&sc);
        let mut ended: BTreeSet<(u16, String)> = BTreeSet::new();
        let mut call_owner: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut steps: BTreeMap<(u16, String), BTreeSet<Option<String>>> = BTreeMap::new();
        let mut open_msgs: BTreeMap<(u16, String), Option<String>> = BTreeMap::new();
        for (e, m) in r.events.iter().zip(&r.meta) {
            let owner = r.runs[m.run as usize].tags[m.actor as usize].clone();
            let tag = e.subagent_run_id.as_deref().map(str::to_string);
            let kind = e.kind();
            if m.actor != 0 && tag.is_none() && !kind.is_lifecycle() {
                seen.insert("untagged-continuation");
            }
            match kind {
                EventType::ToolCallStart => {
                    if tag.is_none() && owner.is_some() {
                        seen.insert("tool-call-inherits");
                    }
                    call_owner.insert(
                        e.tool_call_id.as_deref().unwrap().to_string(),
                        owner.clone(),
                    );
                }
                EventType::ToolCallResult
                    if call_owner.get(e.tool_call_id.as_deref().unwrap()) != Some(&tag) =>
                {
                    seen.insert("tool-result-own-owner");
                }
                EventType::StepStarted => {
                    let holders = steps
                        .entry((m.run, e.step_name.as_deref().unwrap().to_string()))
                        .or_default();
                    holders.insert(tag.clone());
                    if holders.len() > 1 {
                        seen.insert("step-per-owner");
                    }
                }
                EventType::StepFinished => {
                    if let Some(h) =
                        steps.get_mut(&(m.run, e.step_name.as_deref().unwrap().to_string()))
                    {
                        h.remove(&tag);
                    }
                }
                EventType::TextMessageStart => {
                    open_msgs.insert(
                        (m.run, e.message_id.as_deref().unwrap().to_string()),
                        owner.clone(),
                    );
                    let owners: BTreeSet<&String> = open_msgs
                        .iter()
                        .filter(|((r, _), _)| *r == m.run)
                        .filter_map(|(_, o)| o.as_ref())
                        .collect();
                    if owners.len() >= 2 {
                        seen.insert("interleaved");
                    }
                }
                EventType::TextMessageEnd => {
                    open_msgs.remove(&(m.run, e.message_id.as_deref().unwrap().to_string()));
                }
                EventType::StateSnapshot | EventType::StateDelta if tag.is_some() => {
                    seen.insert("state-run-scoped");
                }
                EventType::SubagentFinished | EventType::SubagentError => {
                    ended.insert((m.run, tag.clone().unwrap()));
                }
                EventType::SubagentStarted => {
                    if let Some(p) = &e.parent_subagent_run_id
                        && ended.contains(&(m.run, p.to_string()))
                    {
                        seen.insert("parent-finished-first");
                    }
                    if e.description.as_deref() == Some("resumed") {
                        seen.insert("suspended-resume");
                    }
                }
                _ => {}
            }
            if !kind.is_lifecycle()
                && let Some(o) = &owner
                && ended.contains(&(m.run, o.clone()))
            {
                seen.insert("after-finish-attribution");
            }
        }
    }
    for want in [
        "untagged-continuation",
        "tool-call-inherits",
        "tool-result-own-owner",
        "step-per-owner",
        "interleaved",
        "state-run-scoped",
        "parent-finished-first",
        "suspended-resume",
        "after-finish-attribution",
    ] {
        assert!(seen.contains(want), "never generated: {want}");
    }
}

/// Generated cases written as `gen --out` writes them load as corpus
/// files and pass `corpus check` (a `lines` case included: `lines`
/// replaces `events` in the file).
#[test]
fn generated_case_files_load_and_pass() {
    let dir = std::env::temp_dir().join(format!("agui-gen-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut n = 0;
    for seed in 0..3 {
        let mut modes: Vec<Mode> = vec![Mode::Valid];
        modes.extend(RuleId::violations().map(Mode::Invalid));
        for mode in modes {
            let c = generate_case(seed, mode);
            let path = dir.join(format!("{}.json", c.id));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, c.to_pretty()).unwrap();
            n += 1;
        }
    }
    let s = agui_corpus::check_dir(&dir).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(s.malformed.is_empty(), "{:?}", s.malformed);
    assert!(
        s.failed.is_empty(),
        "{}",
        s.failed
            .iter()
            .map(|f| format!("{}: {}", f.id, f.detail))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!((s.cases, s.passed), (n, n));
    let schema = s.gates.iter().find(|g| g.name == "gate/schema").unwrap();
    assert!(schema.problems.is_empty(), "{:?}", schema.problems);
}

/// By construction, without a checker: every line but one is the source
/// stream's own; the duplicate-key line reads (last value wins, as
/// serde_json reads it) as the source event while being longer; the
/// lone-surrogate line holds a lone escape, which serde_json refuses.
#[test]
fn raw_mutations_are_in_the_lines() {
    let config = Config::default();
    for seed in 0..50 {
        for rule in [RuleId::SchemaDuplicateKey, RuleId::SchemaLoneSurrogate] {
            let g = agui_gen::generate_seeded(&config, seed, Mode::Invalid(rule));
            let lines = g.lines.as_ref().expect("written as lines");
            let i = g.index.unwrap();
            assert_eq!(lines.len(), g.events.len());
            for (j, (l, e)) in lines.iter().zip(&g.events).enumerate() {
                if j != i {
                    assert_eq!(*l, e.to_string(), "{rule} seed {seed}: line {j} changed");
                }
            }
            let line = &lines[i];
            if rule == RuleId::SchemaDuplicateKey {
                let read: Value = serde_json::from_str(line).unwrap();
                assert_eq!(read, g.events[i], "{rule} seed {seed}: {line}");
                assert!(line.len() > g.events[i].to_string().len(), "{line}");
            } else {
                assert!(
                    ["\\ud83d", "\\udc00", "\\ud800", "\\udfff"]
                        .iter()
                        .any(|e| line.contains(e)),
                    "{line}"
                );
                assert!(serde_json::from_str::<Value>(line).is_err(), "{line}");
            }
        }
    }
}
