//! Shrinking a failing campaign case while keeping both the failure (the
//! same rule and score) and a right expectation.
//!
//! 1. By construction: smaller swarm configs and shorter generator inputs
//!    are regenerated, so every candidate carries the generator's answer.
//! 2. Then, only when the reference model agrees with the generator on the
//!    stream reached (the generator property tests prove them in agreement
//!    on generated streams; this checks it for this one), events are
//!    deleted ([`crate::shrink::ddmin`]) and values simplified, each
//!    candidate's expectation being the reference's full report for it.
//!    The saved case says which of the two its expectation comes from.

use super::draw::Recipe;
use crate::implementation::{ImplInfo, Implementation};
use crate::runner::run_case;
use crate::score::Score;
use crate::shrink::{ddmin, reference_agrees, reference_expectation};
use crate::suite::SuiteCase;
use agui_model::{RuleId, Verdict};
use serde_json::Value;
use std::time::Instant;

/// What identifies a distinct failure: the rule the case tests (`None`
/// for a valid stream) and the score.
pub type Signature = (Option<RuleId>, Score);

/// The signature of a case scored `score`.
pub fn signature(case: &SuiteCase, score: Score) -> Signature {
    (case.rule_key(), score)
}

/// A shrunk failure.
#[derive(Debug, Clone)]
pub struct Shrunk {
    pub case: SuiteCase,
    /// The recipe of the smallest generated stream (stage 1).
    pub recipe: Recipe,
    /// Stage 2 changed the stream: its expectation is the reference's.
    pub by_reference: bool,
    /// Why stage 2 did not run, if it did not.
    pub note: Option<String>,
    /// How many times the implementation was asked.
    pub tests: usize,
    /// The answer and the score's reason on the shrunk case.
    pub outcome: String,
    pub reason: String,
    /// That answer as `run --format json` writes it (`Null` until one
    /// smaller case failed alike), for records.
    pub answer: Value,
    /// The deadline stopped shrinking before its budget did.
    pub cut_short: bool,
}

/// The stream's size: events, or raw lines.
fn size(c: &SuiteCase) -> usize {
    c.lines.as_ref().map_or(c.events.len(), Vec::len)
}

/// Shrinks `case` (made by `recipe`) that scored `sig` on `imp`, asking it
/// at most `budget` times and never past `deadline` (a question in flight
/// then is cut by the implementation, [`crate::implementation::Instrumented::set_deadline`]).
pub fn shrink(
    imp: &mut dyn Implementation,
    info: &ImplInfo,
    recipe: &Recipe,
    case: &SuiteCase,
    sig: Signature,
    budget: usize,
    deadline: Option<Instant>,
) -> Shrunk {
    let mut tests = 0usize;
    let mut outcome = (String::new(), String::new(), Value::Null);
    let cut_short = std::cell::Cell::new(false);
    // Questions actually asked (`tests` is also set to the budget to stop
    // every loop when the time runs out).
    let asked = std::cell::Cell::new(0usize);
    let mut still_fails =
        |c: &SuiteCase, tests: &mut usize, outcome: &mut (String, String, Value)| {
            if cut_short.get() || deadline.is_some_and(|d| Instant::now() >= d) {
                // Out of time: every loop below stops at its budget check.
                cut_short.set(true);
                *tests = budget;
                return false;
            }
            *tests += 1;
            asked.set(asked.get() + 1);
            let r = run_case(imp, info, c, 0);
            if imp.instrumented().is_some_and(|x| x.take_cut()) {
                cut_short.set(true);
                *tests = budget;
                return false;
            }
            let same = signature(c, r.scored.score) == sig;
            if same {
                *outcome = (r.outcome.short(), r.scored.reason, r.outcome.to_json());
            }
            same
        };
    // Stage 1: regenerate from smaller recipes.
    let (mut rec, mut cur) = (recipe.clone(), case.clone());
    'outer: loop {
        for cand in candidates(&rec) {
            if tests >= budget {
                break 'outer;
            }
            let Some(c) = cand.make(&case.id) else {
                continue;
            };
            if size(&c) >= size(&cur) || c.rule_key() != cur.rule_key() {
                continue;
            }
            if still_fails(&c, &mut tests, &mut outcome) {
                (rec, cur) = (cand, c);
                continue 'outer;
            }
        }
        break;
    }
    // Stage 2: delete events and simplify values, judged by the reference.
    let note = if cur.lines.is_some() {
        Some("events not deleted: the case is raw lines".to_string())
    } else if !reference_agrees(&cur) {
        Some(
            "events not deleted: the reference model disagrees with the generator on this stream"
                .to_string(),
        )
    } else {
        None
    };
    let mut by_reference = false;
    if note.is_none() && tests < budget {
        let base = cur.clone();
        let mut judged =
            |events: &[Value], tests: &mut usize, outcome: &mut (String, String, Value)| {
                judged_case(&base, events).is_some_and(|c| still_fails(&c, tests, outcome))
            };
        // Simplified values may free more events to delete: a few rounds.
        let mut events = cur.events.clone();
        for _ in 0..3 {
            let before = events.clone();
            drop_entities(&mut events, budget, &mut tests, |e, t| {
                judged(e, t, &mut outcome)
            });
            let left = budget.saturating_sub(tests);
            events = ddmin(&events, |sub| judged(sub, &mut tests, &mut outcome), left);
            simplify(&mut events, budget, &mut tests, |e, t| {
                judged(e, t, &mut outcome)
            });
            if events == before || tests >= budget {
                break;
            }
        }
        if events != cur.events
            && let Some(c) = judged_case(&base, &events)
        {
            cur = c;
            by_reference = true;
        }
    }
    let (outcome, reason, answer) = outcome;
    let cut_short = cut_short.get();
    Shrunk {
        case: cur,
        recipe: rec,
        by_reference,
        note,
        tests: asked.get(),
        outcome,
        reason,
        answer,
        cut_short,
    }
}

/// `base` with `events` and the reference's full answer for them, when
/// that answer is a consistent expectation for the same rule.
fn judged_case(base: &SuiteCase, events: &[Value]) -> Option<SuiteCase> {
    let mut expected = reference_expectation(events);
    if expected.verdict != Verdict::Accept {
        expected.projection = None;
    }
    expected.consistent().ok()?;
    let mut c = base.clone();
    c.events = events.to_vec();
    c.expected = expected;
    (c.rule_key() == base.rule_key()).then_some(c)
}

/// Deletes every event naming one id (`messageId`, `toolCallId`,
/// `subagentRunId`, … of a value) at once: an entity's start and end go
/// together, which event-by-event deletion cannot do when they are apart.
fn drop_entities(
    events: &mut Vec<Value>,
    budget: usize,
    tests: &mut usize,
    mut fails: impl FnMut(&[Value], &mut usize) -> bool,
) {
    let ids = |e: &Value| -> Vec<String> {
        match e {
            Value::Object(m) => m
                .iter()
                .filter(|(k, _)| k.ends_with("Id"))
                .filter_map(|(_, v)| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut seen: Vec<String> = Vec::new();
    for e in events.iter() {
        for id in ids(e) {
            if !seen.contains(&id) {
                seen.push(id);
            }
        }
    }
    for id in seen {
        if *tests >= budget {
            return;
        }
        let cand: Vec<Value> = events
            .iter()
            .filter(|e| !ids(e).contains(&id))
            .cloned()
            .collect();
        if cand.len() < events.len() && fails(&cand, tests) {
            *events = cand;
        }
    }
}

/// Removes fields (all but `type`) and shortens long strings to one
/// character, one at a time, keeping each change under which `fails`
/// still holds; stops at `budget` tests.
fn simplify(
    events: &mut [Value],
    budget: usize,
    tests: &mut usize,
    mut fails: impl FnMut(&[Value], &mut usize) -> bool,
) {
    for i in 0..events.len() {
        let keys: Vec<String> = match &events[i] {
            Value::Object(m) => m.keys().filter(|k| *k != "type").cloned().collect(),
            _ => continue,
        };
        for k in keys {
            let Value::Object(m) = &events[i] else { break };
            let Some(old) = m.get(&k).cloned() else {
                continue;
            };
            let mut tries = vec![None];
            if matches!(&old, Value::String(s) if s.chars().count() > 1) {
                tries.push(Some(Value::String("x".into())));
            }
            for t in tries {
                if *tests >= budget {
                    return;
                }
                let mut cand = events.to_vec();
                if let Value::Object(m) = &mut cand[i] {
                    match &t {
                        None => {
                            m.remove(&k);
                        }
                        Some(v) => {
                            m.insert(k.clone(), v.clone());
                        }
                    }
                }
                if fails(&cand, tests) {
                    events[i] = cand.swap_remove(i);
                    break;
                }
            }
        }
    }
}

/// Smaller recipes, most drastic first: the generator's smaller configs
/// ([`agui_gen::Config::smaller`]), then shorter generator input (the
/// generator reads missing bytes as zeros, its smallest choices).
fn candidates(r: &Recipe) -> Vec<Recipe> {
    let mut out: Vec<Recipe> = r
        .config
        .smaller()
        .into_iter()
        .map(|config| Recipe {
            config,
            ..r.clone()
        })
        .collect();
    let len = r.bytes.len();
    for keep in [len / 4, len / 2, len * 3 / 4, len - len / 16] {
        if keep < len {
            let mut n = r.clone();
            n.bytes.truncate(keep);
            out.push(n);
        }
    }
    out
}
