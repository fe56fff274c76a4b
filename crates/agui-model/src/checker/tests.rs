//! Checker-wide tests: areas exercised, one event's rules in catalogue
//! order.

//! The dispatcher: what one event reports comes in catalogue order.

use crate::RuleId as R;
use crate::checker::streams::*;

/// The areas a stream exercised, on the `Value` path and on the
/// borrowed fast path (its lines), which must agree.
fn exercised(events: &[serde_json::Value]) -> Vec<&'static str> {
    let r = crate::check_values(events);
    let mut c = crate::Checker::new();
    for e in events {
        c.push_line(e.to_string().as_bytes());
    }
    assert_eq!(c.exercised_areas(), r.exercised, "fast path");
    r.exercised
}

#[test]
fn judged_areas_are_the_catalogues_stream_areas_in_order() {
    let mut areas: Vec<&str> = Vec::new();
    for r in crate::rules::CATALOGUE.iter().filter(|r| r.is_violation()) {
        if r.area != "transport" && !areas.contains(&r.area) {
            areas.push(r.area);
        }
    }
    assert_eq!(areas, super::JUDGED_AREAS);
}

#[test]
fn a_plain_text_run_exercises_schema_run_and_entities() {
    // Every event is schema-checked and judged by its place in the run
    // (run.*); the message's START is judged by text.already-open, its
    // CONTENT and END by text.not-open (entities). Untagged, no
    // ownership rule compares an owner (an untagged continuation always
    // agrees); no tool call ends and no snapshot comes (consistency);
    // no invocation is announced, so lifecycle.open-at-run-finish and
    // the interrupt rules at RUN_FINISHED have nothing to judge.
    let areas = exercised(&[
        run_started(),
        text_start("m1", None),
        text_content("m1", "hi", None),
        text_end("m1", None),
        run_finished(),
    ]);
    assert_eq!(areas, ["schema", "run", "entities"]);
}

#[test]
fn an_invocation_exercises_lifecycle_and_its_tags_ownership() {
    // SUBAGENT_STARTED/FINISHED: lifecycle.*; a tagged continuation is
    // judged against the owner on record (ownership.*).
    let areas = exercised(&[
        run_started(),
        started("s1", None),
        text_start("m1", Some("s1")),
        text_content("m1", "hi", Some("s1")),
        text_end("m1", Some("s1")),
        finished("s1"),
        run_finished(),
    ]);
    assert_eq!(
        areas,
        ["schema", "run", "entities", "lifecycle", "ownership"]
    );
}

#[test]
fn tool_ends_interrupts_and_chunks_exercise_their_areas() {
    // TOOL_CALL_END: tool.args-not-json (consistency); a suspended
    // invocation is judged at RUN_FINISHED against its outcome
    // (interrupt.*); a chunk by the chunk rules.
    let areas = exercised(&[
        run_started(),
        tool_start("c1", "f", None, None),
        tool_end("c1", None),
        started("s1", None),
        suspended("s1", &["x"]),
        text_chunk(Some("m2"), Some("a"), None),
        run_finished(),
    ]);
    assert_eq!(
        areas,
        [
            "schema",
            "run",
            "entities",
            "consistency",
            "lifecycle",
            "interrupts",
            "chunks"
        ]
    );
}

#[test]
fn events_judged_in_blind_mode_exercise_the_schema_alone() {
    // After a skipped event only the per-event (schema) rules are
    // judged until the next RUN_STARTED: SUBAGENT_STARTED there does
    // not exercise lifecycle, nor the rest the run rules.
    let mut c = crate::Checker::new();
    c.push_unparseable("x");
    assert_eq!(c.exercised_areas(), ["schema", "run"]);
    let mut c = crate::Checker::new();
    c.push_over_limit(crate::LimitKind::LineBytes, 10, "too long");
    c.push(&started("s1", None));
    c.push(&text_start("m1", Some("s1")));
    assert_eq!(c.exercised_areas(), ["schema"]);
    // A RUN_STARTED ends blind mode: what follows counts again.
    c.push(&run_started());
    c.push(&started("s2", None));
    assert_eq!(c.exercised_areas(), ["schema", "run", "lifecycle"]);
    assert!(crate::check_values(&[]).exercised.is_empty());
}

#[test]
fn several_rules_on_one_event_come_in_catalogue_order() {
    // RUN_FINISHED with an open text message and an active invocation:
    // run.open-entities-at-finish precedes lifecycle.open-at-run-finish.
    let r = crate::check_values(&[
        run_started(),
        started("s1", None),
        text_start("m1", Some("s1")),
        run_finished(),
    ]);
    let rules: Vec<_> = r.violations.iter().map(|v| (v.rule, v.index)).collect();
    assert_eq!(
        rules,
        vec![
            (R::RunOpenEntitiesAtFinish, 3),
            (R::LifecycleOpenAtRunFinish, 3)
        ]
    );
}
