//! Front ends over the one core: `arbitrary` entry points (fuzzing), a
//! proptest strategy (shrinking toward small streams), and seeded
//! generation (`rand_chacha`, the same bytes on every platform) producing
//! corpus cases.

use crate::config::Config;
use crate::mutate::mutate;
use crate::render::render;
use crate::scenario::Scenario;
use agui_corpus::{Case, Expect, Stated};
use agui_model::{Checker, Report, RuleId, Severity, Verdict};
use arbitrary::Unstructured;
use proptest::prelude::*;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A stream satisfying every rule, with its projection.
    Valid,
    /// A stream whose first violation is this rule (a violation rule).
    Invalid(RuleId),
}

/// A generated stream with the answer the spec gives for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The stream items as values. For a `lines` stream, the stream the
    /// lines were made from: check [`Generated::lines`] instead
    /// ([`Generated::check`]).
    pub events: Vec<Value>,
    /// The stream as raw JSON Lines text, for faults a value cannot hold
    /// (`schema.duplicate-key`, `schema.lone-surrogate`).
    pub lines: Option<Vec<String>>,
    pub verdict: Verdict,
    /// The first violation (absent for valid streams).
    pub rule: Option<RuleId>,
    pub index: Option<usize>,
    /// The expected projection, for accepted streams.
    pub projection: Option<Value>,
    /// Every violation, in stream order (docs/rules.md "Scoring a consumer"):
    /// see [`cut_after_site`]; `None` for valid streams and for
    /// `attribution.null`, whose first violation fixes F and M alone.
    pub violations: Option<Vec<(RuleId, usize)>>,
}

/// The core entry: a config, a mode and unstructured bytes.
pub fn generate(config: &Config, mode: Mode, u: &mut Unstructured) -> arbitrary::Result<Generated> {
    let sc = Scenario::new(config, u)?;
    match mode {
        Mode::Valid => {
            let r = render(&sc);
            Ok(Generated {
                events: r.values(),
                lines: None,
                verdict: Verdict::Accept,
                rule: None,
                index: None,
                projection: Some(r.projection),
                violations: None,
            })
        }
        Mode::Invalid(rule) => {
            let m = mutate(rule, sc, u)?.ok_or(arbitrary::Error::IncorrectFormat)?;
            let verdict = if rule.severity() == Severity::Error {
                Verdict::Reject
            } else {
                Verdict::Accept
            };
            let projection = if verdict == Verdict::Accept {
                m.projection
            } else {
                None
            };
            let mut events = m.events;
            let violations = stated_violations(m.rule, m.index, &mut events);
            Ok(Generated {
                events,
                lines: m.lines,
                verdict,
                rule: Some(m.rule),
                index: Some(m.index),
                projection,
                violations,
            })
        }
    }
}

/// Every violation of a mutated stream, by construction (docs/rules.md
/// "Scoring a consumer", revision 3: every case states all its
/// violations). A warning mutator changes the scenario so that the stream
/// carries exactly that warning. An error mutator leaves the valid
/// stream's tail after its site, which may break more rules; the stream is
/// cut after the site ([`cut_after_site`]) so that what remains is known.
///
/// Except `attribution.null` (`None`: only its first violation, which
/// alone fixes F and M): the null tag reads as the parent, so the site
/// event changes owner and may break another rule there
/// (`ownership.step-owner` on a `STEP_FINISHED`,
/// `interrupt.owner-mismatch` on an interrupt, `chunk.ambiguous` on a
/// chunk), which the mutator does not know.
fn stated_violations(
    rule: RuleId,
    index: usize,
    events: &mut Vec<Value>,
) -> Option<Vec<(RuleId, usize)>> {
    match rule.severity() {
        Severity::None => None,
        _ if rule == RuleId::AttributionNull => None,
        Severity::Warning => Some(vec![(rule, index)]),
        Severity::Error => Some(cut_after_site(rule, index, events)),
    }
}

/// Cuts the stream after event `index` and lists its violations: the
/// mutated one, then `run.unterminated` at the new end when the cut leaves
/// a run open ("Input ends inside a run": the last `RUN_*` event up to the
/// site is `RUN_STARTED`). A violation at end of input (`index` = length)
/// cuts nothing.
pub fn cut_after_site(rule: RuleId, index: usize, events: &mut Vec<Value>) -> Vec<(RuleId, usize)> {
    let mut out = vec![(rule, index)];
    if index >= events.len() {
        return out;
    }
    events.truncate(index + 1);
    // What the site breaks besides its rule, known from its shape: a first
    // item that is no event is also not a RUN_STARTED; a delta that is no
    // patch document does not apply.
    let site = &events[index];
    let ty = site.get("type").and_then(Value::as_str);
    // An item with a string `type` naming no event is dropped
    // (`schema.unknown-type`): it is no first event.
    if index == 0 && ty.is_none() {
        out.push((RuleId::RunFirstEvent, 0));
    }
    if ty == Some("STATE_DELTA")
        && let Some(delta) = site.get("delta")
        && serde_json::from_value::<Vec<json_patch::PatchOperation>>(known_ops(delta)).is_err()
    {
        out.push((RuleId::StatePatchFails, index));
    }
    out.sort_by_key(|&(r, i)| (i, r));
    out.dedup();
    let in_run = events
        .iter()
        .rev()
        .filter_map(|e| e.get("type").and_then(Value::as_str))
        .find(|t| matches!(*t, "RUN_STARTED" | "RUN_FINISHED" | "RUN_ERROR"))
        == Some("RUN_STARTED");
    if in_run {
        out.push((RuleId::RunUnterminated, events.len()));
    }
    out
}

/// A patch document as a consumer keeps it: the operations whose `op` is a
/// string naming no RFC 6902 operation are dropped (docs/rules.md
/// `schema.unknown-member`); anything else stays for the patch to judge.
fn known_ops(delta: &Value) -> Value {
    match delta {
        Value::Array(ops) => Value::Array(
            ops.iter()
                .filter(|op| {
                    op.get("op")
                        .and_then(Value::as_str)
                        .is_none_or(|o| agui_model::wire::nested::PATCH_OPS.contains(&o))
                })
                .cloned()
                .collect(),
        ),
        other => other.clone(),
    }
}

/// For fuzzing: a valid stream from a swarm config drawn from the bytes.
pub fn valid_stream(u: &mut Unstructured) -> arbitrary::Result<Generated> {
    let config: Config = u.arbitrary()?;
    generate(&config, Mode::Valid, u)
}

/// For fuzzing: a stream breaking a violation rule drawn from the bytes.
pub fn invalid_stream(u: &mut Unstructured) -> arbitrary::Result<Generated> {
    let rules: Vec<RuleId> = RuleId::violations().collect();
    let rule = rules[u.choose_index(rules.len())?];
    let config: Config = u.arbitrary()?;
    generate(&config, Mode::Invalid(rule), u)
}

/// A proptest strategy: random bytes through the core. Shrinking the bytes
/// (shorter, smaller) shrinks the scenario toward no invocations and no
/// work.
pub fn strategy(config: Config, mode: Mode) -> impl Strategy<Value = Generated> {
    let size = config.entropy_hint();
    proptest::collection::vec(any::<u8>(), 0..size).prop_filter_map(
        "generator declined the bytes",
        move |bytes| {
            let mut u = Unstructured::new(&bytes);
            generate(&config, mode, &mut u).ok()
        },
    )
}

/// The seeded byte source: ChaCha8 from `seed`, as many bytes as the config
/// can use.
pub fn seeded_bytes(config: &Config, seed: u64) -> Vec<u8> {
    let mut bytes = vec![0u8; config.entropy_hint()];
    ChaCha8Rng::seed_from_u64(seed).fill_bytes(&mut bytes);
    bytes
}

/// Seeded generation with a config. The core declines a byte string only
/// in corner cases (a mutator finding no site); then the next seed-derived
/// byte string is tried, deterministically.
pub fn generate_seeded(config: &Config, seed: u64, mode: Mode) -> Generated {
    for attempt in 0..8u64 {
        let bytes = seeded_bytes(config, seed ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if let Ok(g) = generate(config, mode, &mut Unstructured::new(&bytes)) {
            return g;
        }
    }
    // The smallest scenario: every mode is tested to accept it.
    generate(config, mode, &mut Unstructured::new(&[])).unwrap_or_else(|_| Generated {
        events: Vec::new(),
        lines: None,
        verdict: Verdict::Accept,
        rule: None,
        index: None,
        projection: Some(serde_json::json!({"runs": []})),
        violations: None,
    })
}

impl Generated {
    /// The stream as JSON Lines bytes: the lines, or each event.
    pub fn jsonl(&self) -> Vec<u8> {
        match &self.lines {
            Some(lines) => agui_corpus::case::join_lines(lines).into_bytes(),
            None => {
                let mut out = Vec::new();
                for e in &self.events {
                    out.extend(e.to_string().into_bytes());
                    out.push(b'\n');
                }
                out
            }
        }
    }

    /// Checks the stream as it would be read: `lines` through the
    /// checker's reader, `events` value by value.
    pub fn check(&self, mut checker: Checker) -> Report {
        match &self.lines {
            Some(_) => agui_model::check::check_bytes(&self.jsonl(), checker),
            None => {
                for e in &self.events {
                    checker.push(e);
                }
                checker.finish()
            }
        }
    }

    /// As a corpus case.
    pub fn into_case(self, id: String, seed: u64) -> Case {
        let (description, spec) = match self.rule {
            None => (
                format!("Generated valid stream (seed {seed}): interleaved invocations, accepted with the projection given."),
                "docs/rules.md: a stream breaking no rule is accepted; docs/projection.md gives what it shows.".to_string(),
            ),
            Some(r) => {
                let rule = r.rule();
                (
                    format!(
                        "Generated stream (seed {seed}) whose first violation is `{}` at event {}.",
                        rule.id,
                        self.index.unwrap_or_default()
                    ),
                    rule.quote.unwrap_or(rule.statement).to_string(),
                )
            }
        };
        let events = if self.lines.is_some() {
            Vec::new()
        } else {
            self.events
        };
        Case {
            id,
            description,
            spec,
            events,
            lines: self.lines,
            expect: Expect {
                verdict: self.verdict,
                rule: self.rule,
                index: self.index,
            },
            obligation: None,
            projection: self.projection,
            violations: self.violations.map(|v| {
                v.into_iter()
                    .map(|(rule, index)| Stated { rule, index })
                    .collect()
            }),
            official: None,
        }
    }
}

/// The case id of a generated case: `gen/valid/<seed>` or `gen/<rule>/<seed>`.
pub fn case_id(seed: u64, mode: Mode) -> String {
    match mode {
        Mode::Valid => format!("gen/valid/{seed}"),
        Mode::Invalid(r) => format!("gen/{}/{seed}", r.as_str()),
    }
}

/// A corpus case from a seed with the default config (what the harness
/// calls).
pub fn generate_case(seed: u64, mode: Mode) -> Case {
    generate_case_with(&Config::default(), seed, mode)
}

/// A corpus case from a seed and a config.
pub fn generate_case_with(config: &Config, seed: u64, mode: Mode) -> Case {
    generate_seeded(config, seed, mode).into_case(case_id(seed, mode), seed)
}
