//! The official AG-UI consumer conformance corpus (`ag-ui-protocol/ag-ui`,
//! `spec/<version>/conformance/streams/*.json`) mapped onto our case model.
//!
//! docs/rules.md revision 4, "The official corpus is a suite": a fixture's
//! `outcome: completed` means no must-reject violation, `failed` the first
//! must-reject violation; `runError` a run whose status is `errored`;
//! `messages`/`messageCount`/`state` what the client holds, compared by
//! subset (arrays of the same length, objects on the keys the fixture
//! names). The README's relaxations for a third-party client drop
//! `warnings`/`noWarnings`, `errorContains`, the event-level expectations
//! (`eventTypes`, `eventPaths`, `eventTypesAbsent`, `eventAbsentPaths`) and
//! the lane-specific `expectOverrides`. A fixture whose expectation is about
//! something a stream consumer does not do (an older protocol era the
//! client is pinned to, the request it sends) is *not comparable*: it is
//! listed by name with the reason, never dropped. docs/decisions.md
//! ("The official corpus") writes the mapping down.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// The repository the official fixtures come from.
pub const REPOSITORY: &str = "ag-ui-protocol/ag-ui";

/// What the official fixture pins a client to do with the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfficialOutcome {
    /// The run completes: the client accepts the stream.
    Completed,
    /// The client fails the run: it rejects the stream.
    Failed,
}

impl OfficialOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            OfficialOutcome::Completed => "completed",
            OfficialOutcome::Failed => "failed",
        }
    }
}

/// The `official` member of a case converted from an official fixture: its
/// provenance and what the fixture expects, in our projection's terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Official {
    /// The fixture's `name`.
    pub name: String,
    /// `1.0`, `1.1` or `draft`: the folder of the suite the case belongs to.
    pub version: String,
    /// `ag-ui-protocol/ag-ui`.
    pub repository: String,
    /// The file the stream and expectation were read from.
    pub path: String,
    /// The commit of that file's text.
    pub commit: String,
    /// Set when the version's own file is not stored and the file of
    /// another version stands in for it: the path of the file stood in for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stands_in_for: Option<String>,
    /// The outcome the fixture pins.
    pub outcome: OfficialOutcome,
    /// An admitted gap (RULES.md revision 4): the fixture pins an outcome
    /// its own README calls a gap, so the case is expected as our rule
    /// says, and agreement is judged by our rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<String>,
    /// Why the fixture's expectation cannot be compared: then only our own
    /// rules judge the case, and no agreement is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    /// Some run of the projection has status `errored` (`runError`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub run_error: bool,
    /// The length of the client-held message list ([`client_messages`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_count: Option<usize>,
    /// The client-held messages, in our projection's shape, compared by
    /// subset ([`subset`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<Value>>,
    /// The final state, compared by subset (`null` is a value here).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub state: Option<Value>,
    /// What of the fixture's expected messages our projection does not show
    /// (so is not compared), one note each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uncompared: Vec<String>,
}

/// A member that is present is `Some`, even when it is `null`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl Official {
    /// True when the fixture expects anything of the projection.
    pub fn expects_projection(&self) -> bool {
        self.not_comparable.is_none()
            && (self.run_error
                || self.message_count.is_some()
                || self.messages.is_some()
                || self.state.is_some())
    }

    /// The outcome a conforming consumer is expected to give, when one is:
    /// the fixture's, unless it is an admitted gap (then `None`: our rule
    /// judges) or not comparable.
    pub fn compared_outcome(&self) -> Option<OfficialOutcome> {
        (self.gap.is_none() && self.not_comparable.is_none()).then_some(self.outcome)
    }
}

/// A fixture read through the mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    /// The stream (the fixture's `stream`), one event per item.
    pub events: Vec<Value>,
    /// The expectation; provenance fields are left for the caller
    /// (`version`, `path`, `commit` empty, `repository` [`REPOSITORY`]).
    pub official: Official,
}

/// The two fixtures the official README admits pin a known gap (RULES.md
/// revision 4), and the draft fixture that pins the opposite of one of
/// them for the same stream (docs/decisions.md "The official corpus"): the
/// outcome expected instead (`None`: either answer, as our rule is
/// may-reject) and why.
pub fn admitted_gap(name: &str) -> Option<(Option<OfficialOutcome>, &'static str)> {
    match name {
        "unknown-enum-value-role-fatal" => Some((
            Some(OfficialOutcome::Completed),
            "admitted gap: an unknown enum value is unrecognised material, stripped (`schema.unknown-member`, must-accept), not fatal",
        )),
        "truncated-run-reported-as-completed" => Some((
            None,
            "admitted gap: a truncated run is `run.unterminated` (may-reject; the run shows `unterminated`, never finished), whatever the client reports",
        )),
        "truncated-stream-fails-the-run" => Some((
            None,
            "contradicts `truncated-run-reported-as-completed` (the same truncated stream, pinned completed); the transports page leaves it to the consumer (\"leaving the run unresolved, or raising a synthetic failure\"): judged as our rule says, `run.unterminated` (may-reject; the run shows `unterminated`), whatever the client reports",
        )),
        _ => None,
    }
}

/// Maps one fixture file (its parsed JSON). `Err` when it is not a fixture
/// at all (no `name`, `stream` or `expect.outcome`); a fixture whose
/// expectation cannot be compared maps with
/// [`Official::not_comparable`] set.
pub fn map_fixture(raw: &Value) -> Result<Mapped, String> {
    let name = raw
        .get("name")
        .and_then(Value::as_str)
        .ok_or("not an official fixture: no string `name`")?
        .to_owned();
    let events = raw
        .get("stream")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("fixture `{name}`: no array `stream`"))?
        .clone();
    let expect = raw
        .get("expect")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("fixture `{name}`: no object `expect`"))?;
    let outcome = match expect.get("outcome").and_then(Value::as_str) {
        Some("completed") => OfficialOutcome::Completed,
        Some("failed") => OfficialOutcome::Failed,
        other => {
            return Err(format!(
                "fixture `{name}`: `expect.outcome` is {}, not `completed` or `failed`",
                other.map_or("absent".to_owned(), |o| format!("`{o}`"))
            ));
        }
    };
    let mut uncompared = Vec::new();
    let messages = match expect.get("messages") {
        None => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .enumerate()
                .map(|(i, m)| message(m, i, &mut uncompared))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("fixture `{name}`: {e}"))?,
        ),
        Some(_) => return Err(format!("fixture `{name}`: `expect.messages` is not a list")),
    };
    let message_count = match expect.get("messageCount") {
        None => None,
        Some(n) => Some(
            n.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("fixture `{name}`: `expect.messageCount` is not a count"))?,
        ),
    };
    let gap = admitted_gap(&name).map(|(_, why)| why.to_owned());
    Ok(Mapped {
        events,
        official: Official {
            not_comparable: not_comparable(raw, expect),
            name,
            version: String::new(),
            repository: REPOSITORY.to_owned(),
            path: String::new(),
            commit: String::new(),
            stands_in_for: None,
            outcome,
            gap,
            run_error: expect.contains_key("runError"),
            message_count,
            messages,
            state: expect.get("state").cloned(),
            uncompared,
        },
    })
}

/// Why a fixture's expectation is beyond a stream consumer, if it is.
fn not_comparable(raw: &Value, expect: &Map<String, Value>) -> Option<String> {
    let mut why = Vec::new();
    if let Some(v) = raw.get("client").and_then(|c| c.get("maxProtocolVersion")) {
        why.push(format!(
            "the client is pinned to protocol version {v}: the expected result is that era's translation, which a consumer of the stream as written does not perform"
        ));
    }
    let request: Vec<&str> = ["request", "requestAbsentPaths"]
        .into_iter()
        .filter(|k| expect.contains_key(*k))
        .collect();
    if !request.is_empty() {
        why.push(format!(
            "it expects the request the client sends (`{}`), not what the client shows of the stream",
            request.join("`, `")
        ));
    }
    if raw.get("input").is_some() {
        why.push(
            "the client starts from its own `input` (messages it holds before the stream), which the case format does not carry".to_owned(),
        );
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// One expected message of the official shape in our projection's shape
/// (docs/projection.md): `subagentRunId` → `owner`; `toolCalls[].function`
/// → `name`/`args`; content parts → the `text` of their text parts joined;
/// keys our projection does not show are noted in `uncompared`.
fn message(m: &Value, i: usize, uncompared: &mut Vec<String>) -> Result<Value, String> {
    let obj = m
        .as_object()
        .ok_or_else(|| format!("`expect.messages[{i}]` is not an object"))?;
    let role = obj.get("role").and_then(Value::as_str);
    let mut out = Map::new();
    use agui_model::wire::{SUBAGENT_RUN_ID, key::ActivitySnapshot};
    for (k, v) in obj {
        match k.as_str() {
            "id" | "role" => {
                out.insert(k.clone(), v.clone());
            }
            k if k == ActivitySnapshot::activity_type => {
                out.insert(k.to_owned(), v.clone());
            }
            k if k == SUBAGENT_RUN_ID => {
                out.insert("owner".into(), v.clone());
            }
            "content" => {
                out.insert("content".into(), content(v, i, role, uncompared));
            }
            "toolCalls" => {
                let calls = v
                    .as_array()
                    .ok_or_else(|| format!("`expect.messages[{i}].toolCalls` is not a list"))?;
                let mapped = calls
                    .iter()
                    .enumerate()
                    .map(|(j, c)| tool_call(c, i, j, uncompared))
                    .collect::<Result<Vec<_>, _>>()?;
                out.insert("toolCalls".into(), Value::Array(mapped));
            }
            other => uncompared.push(format!("messages[{i}].{other}: not part of our projection")),
        }
    }
    Ok(Value::Object(out))
}

fn content(v: &Value, i: usize, role: Option<&str>, uncompared: &mut Vec<String>) -> Value {
    match v {
        Value::Array(parts) if role != Some("activity") => {
            let mut text = String::new();
            for (j, p) in parts.iter().enumerate() {
                match (
                    p.get("type").and_then(Value::as_str),
                    p.get("text").and_then(Value::as_str),
                ) {
                    (Some("text"), Some(t)) => text.push_str(t),
                    (kind, _) => uncompared.push(format!(
                        "messages[{i}].content[{j}]: a `{}` part; our projection shows only the text of text parts",
                        kind.unwrap_or("?")
                    )),
                }
            }
            Value::String(text)
        }
        other => other.clone(),
    }
}

fn tool_call(c: &Value, i: usize, j: usize, uncompared: &mut Vec<String>) -> Result<Value, String> {
    let obj = c
        .as_object()
        .ok_or_else(|| format!("`expect.messages[{i}].toolCalls[{j}]` is not an object"))?;
    let mut out = Map::new();
    for (k, v) in obj {
        match k.as_str() {
            "id" => {
                out.insert("id".into(), v.clone());
            }
            "function" => {
                let f = v.as_object().ok_or_else(|| {
                    format!("`expect.messages[{i}].toolCalls[{j}].function` is not an object")
                })?;
                for (fk, fv) in f {
                    match fk.as_str() {
                        "name" => {
                            out.insert("name".into(), fv.clone());
                        }
                        "arguments" => {
                            out.insert("args".into(), fv.clone());
                        }
                        other => uncompared.push(format!(
                            "messages[{i}].toolCalls[{j}].function.{other}: not part of our projection"
                        )),
                    }
                }
            }
            // Always "function" in the official shape: nothing to compare.
            "type" => {}
            other => uncompared.push(format!(
                "messages[{i}].toolCalls[{j}].{other}: not part of our projection"
            )),
        }
    }
    Ok(Value::Object(out))
}

/// The message list the official client holds after the whole stream,
/// from our per-run projection (docs/decisions.md): the runs' message lists
/// folded in stream order, a message whose `id` is already held replacing
/// it in place, any other appended.
pub fn client_messages(projection: &Value) -> Vec<Value> {
    let mut held: Vec<Value> = Vec::new();
    for run in runs(projection) {
        let Some(list) = run.get("messages").and_then(Value::as_array) else {
            continue;
        };
        for m in list {
            let id = m.get("id");
            match id.and_then(|id| held.iter().position(|h| h.get("id") == Some(id))) {
                Some(at) => held[at] = m.clone(),
                None => held.push(m.clone()),
            }
        }
    }
    held
}

fn runs(projection: &Value) -> &[Value] {
    projection
        .get("runs")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `want` is a subset of `got`: objects on the keys `want` names (an absent
/// key reads as `null`), arrays of the same length element by element,
/// anything else equal. `Err` names the first path that differs.
pub fn subset(want: &Value, got: &Value) -> Result<(), String> {
    subset_at(want, got, &mut String::new())
}

fn subset_at(want: &Value, got: &Value, path: &mut String) -> Result<(), String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, wv) in w {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                subset_at(wv, g.get(k).unwrap_or(&Value::Null), path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Value::Array(w), Value::Array(g)) => {
            if w.len() != g.len() {
                return Err(format!(
                    "{}: {} item(s) expected, {} shown",
                    shown_path(path),
                    w.len(),
                    g.len()
                ));
            }
            for (k, (wv, gv)) in w.iter().zip(g).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{k}]"));
                subset_at(wv, gv, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ if want == got => Ok(()),
        _ => Err(format!(
            "{}: expected {want}, shown {got}",
            shown_path(path)
        )),
    }
}

fn shown_path(path: &str) -> &str {
    if path.is_empty() { "(top)" } else { path }
}

/// Checks a reported projection (docs/projection.md form) against the
/// fixture's projection expectations. `Err` says what differs.
pub fn check_projection(o: &Official, projection: &Value) -> Result<(), String> {
    let runs = runs(projection);
    if o.run_error
        && !runs
            .iter()
            .any(|r| r.get("status").and_then(Value::as_str) == Some("errored"))
    {
        return Err("runError: no run shows status `errored`".to_owned());
    }
    if o.message_count.is_some() || o.messages.is_some() {
        let held = client_messages(projection);
        if let Some(n) = o.message_count
            && held.len() != n
        {
            return Err(format!(
                "messageCount: {n} expected, the client holds {}",
                held.len()
            ));
        }
        if let Some(want) = &o.messages {
            subset(&Value::Array(want.clone()), &Value::Array(held))
                .map_err(|e| format!("messages{}", e.trim_start_matches("(top)")))?;
        }
    }
    if let Some(want) = &o.state {
        let got = runs
            .last()
            .and_then(|r| r.get("state"))
            .unwrap_or(&Value::Null);
        subset(want, got).map_err(|e| format!("state{}", e.trim_start_matches("(top)")))?;
    }
    Ok(())
}

/// Whether a converted case's stated violations give the consumer the
/// answer the fixture pins (RULES.md revision 4: `completed` → no
/// must-reject violation, `failed` → a must-reject violation): `None` when
/// they do, or when the fixture is not compared (not comparable, an
/// admitted gap), else why not.
pub fn outcome_disagreement(case: &crate::Case) -> Option<String> {
    let o = case.official.as_ref()?;
    let want = o.compared_outcome()?;
    let stated = case.violations.as_deref().unwrap_or_default();
    let must: Vec<String> = stated
        .iter()
        .filter(|s| s.rule.obligation() == agui_model::Obligation::MustReject)
        .map(|s| format!("`{}` at {}", s.rule, s.index))
        .collect();
    match (want, must.is_empty()) {
        (OfficialOutcome::Completed, false) => Some(format!(
            "the fixture completes, but the case states must-reject {}",
            must.join(", ")
        )),
        (OfficialOutcome::Failed, true) => {
            let rest: Vec<String> = stated
                .iter()
                .map(|s| {
                    format!(
                        "`{}` ({}) at {}",
                        s.rule,
                        s.rule.obligation().as_str(),
                        s.index
                    )
                })
                .collect();
            Some(format!(
                "the fixture fails, but the case states no must-reject violation ({})",
                if rest.is_empty() {
                    "none at all".to_owned()
                } else {
                    rest.join(", ")
                }
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fold_replaces_by_id_and_appends() {
        let p = json!({"runs": [
            {"messages": [{"id": "a", "content": "1"}, {"role": "assistant"}]},
            {"messages": [{"id": "b"}, {"id": "a", "content": "2"}]}
        ]});
        let held = client_messages(&p);
        assert_eq!(
            held,
            vec![
                json!({"id": "a", "content": "2"}),
                json!({"role": "assistant"}),
                json!({"id": "b"})
            ]
        );
    }

    #[test]
    fn subset_names_the_path() {
        assert_eq!(subset(&json!({"a": 1}), &json!({"a": 1, "b": 2})), Ok(()));
        assert_eq!(
            subset(&json!({"a": [1, 2]}), &json!({"a": [1]})),
            Err(".a: 2 item(s) expected, 1 shown".into())
        );
        assert_eq!(
            subset(&json!([{"c": "x"}]), &json!([{"c": "y"}])),
            Err("[0].c: expected \"x\", shown \"y\"".into())
        );
        // An absent key reads as null.
        assert_eq!(subset(&json!({"s": null}), &json!({})), Ok(()));
    }
}
