//! Mutations only raw JSON text can carry: a `serde_json::Value` has no
//! room for two members of one name (`schema.duplicate-key`) or for a lone
//! surrogate escape (`schema.lone-surrogate`), so these streams are written
//! as lines. Both rules are warnings, and each mutation keeps the stream's
//! meaning by construction: a duplicate's **last** value is the original
//! one (docs/rules.md: checking goes on with the last value), and a lone
//! surrogate lands either in an unknown field (ignored) or at the very end
//! of a message's text, which the projection then ends with U+FFFD.

use crate::mutated::Mutated;
use crate::names::MESSAGE_ID;
use crate::render::Rendered;
use agui_model::{EventType as T, RuleId};
use arbitrary::{Result, Unstructured};
use serde_json::Value;

/// A character the rendered streams never hold, marking where raw text
/// goes into a serialized line.
const MARK: char = '\u{F8FF}';

/// The stream's lines: each rendered event as compact JSON.
fn lines_of(values: &[Value]) -> Vec<String> {
    values.iter().map(Value::to_string).collect()
}

/// `schema.duplicate-key`: one object of one event (the event itself or an
/// object inside it) gets a second member of an existing name. Either the
/// same value is repeated after the original, or a decoy value comes first
/// and the original last.
pub fn duplicate_key(r: &Rendered, u: &mut Unstructured) -> Result<Mutated> {
    let values = r.values();
    let mut lines = lines_of(&values);
    let sites: Vec<usize> = (0..values.len())
        .filter(|&i| values[i].as_object().is_some_and(|m| !m.is_empty()))
        .collect();
    let i = sites[u.choose_index(sites.len())?];
    let mut event = values[i].clone();
    // The object that gets the duplicate: the event or one nested in it.
    let mut objects = Vec::new();
    pointers(&event, String::new(), &mut objects);
    let at = objects[u.choose_index(objects.len())?].clone();
    let Some(Value::Object(obj)) = event.pointer_mut(&at).map(std::mem::take) else {
        return Err(arbitrary::Error::IncorrectFormat);
    };
    let keys: Vec<&String> = obj.keys().collect();
    let key = keys[u.choose_index(keys.len())?].clone();
    let text = Value::Object(obj.clone()).to_string();
    let member = format!("{}:{}", Value::from(key.as_str()), obj[&key]);
    let dup = if u.arbitrary()? {
        // `{…,"k":v}` → `{…,"k":v,"k":v}`
        format!("{},{member}}}", &text[..text.len() - 1])
    } else {
        // `{…}` → `{"k":decoy,…}`: the original value comes last.
        let decoy = ["null", "\"zz-decoy\"", "0", "{}"][u.choose_index(4)?];
        format!("{{{}:{decoy},{}", Value::from(key.as_str()), &text[1..])
    };
    let mark = Value::from(MARK.to_string());
    let line = if at.is_empty() {
        dup
    } else {
        if let Some(slot) = event.pointer_mut(&at) {
            *slot = mark.clone();
        }
        event.to_string().replacen(&mark.to_string(), &dup, 1)
    };
    lines[i] = line;
    Ok(Mutated {
        events: values,
        lines: Some(lines),
        rule: RuleId::SchemaDuplicateKey,
        index: i,
        projection: Some(r.projection.clone()),
    })
}

/// JSON Pointers of the non-empty objects in `v` (itself included).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let k = k.replace('~', "~0").replace('/', "~1");
                pointers(x, format!("{at}/{k}"), out);
            }
            out.push(at);
        }
        Value::Array(a) => {
            for (n, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{n}"), out);
            }
        }
        _ => {}
    }
}

/// `schema.lone-surrogate`: a lone surrogate escape appended to the last
/// text delta of a message (its text, and so the projection, then ends in
/// U+FFFD), or held by an unknown field of any event (ignored).
pub fn lone_surrogate(r: &Rendered, u: &mut Unstructured) -> Result<Mutated> {
    let values = r.values();
    let mut lines = lines_of(&values);
    let mut projection = r.projection.clone();
    let escape = ["\\ud83d", "\\udc00", "\\ud800", "\\udfff"][u.choose_index(4)?];
    let sites = last_deltas(r, &values);
    let (i, line) = if !sites.is_empty() && u.arbitrary()? {
        let (i, run, id) = sites[u.choose_index(sites.len())?].clone();
        let mut event = values[i].clone();
        let delta = event["delta"].as_str().unwrap_or_default().to_owned();
        event["delta"] = Value::from(format!("{delta}{MARK}"));
        let shown = projection["runs"][run]["messages"]
            .as_array_mut()
            .and_then(|ms| ms.iter_mut().find(|m| m["id"] == id.as_str()))
            .and_then(|m| m.get_mut("content"));
        match shown {
            Some(Value::String(text)) => text.push('\u{FFFD}'),
            _ => return Err(arbitrary::Error::IncorrectFormat),
        }
        (i, event.to_string().replacen(MARK, escape, 1))
    } else {
        let i = u.choose_index(values.len())?;
        let Value::Object(mut event) = values[i].clone() else {
            return Err(arbitrary::Error::IncorrectFormat);
        };
        event.insert("zzNote".into(), Value::from(MARK.to_string()));
        (
            i,
            Value::Object(event).to_string().replacen(MARK, escape, 1),
        )
    };
    lines[i] = line;
    Ok(Mutated {
        events: values,
        lines: Some(lines),
        rule: RuleId::SchemaLoneSurrogate,
        index: i,
        projection: Some(projection),
    })
}

/// `(index, run, message id)` of each `TEXT_MESSAGE_CONTENT` that is the
/// last text of its message in its run (no later content or chunk names
/// the id there).
fn last_deltas(r: &Rendered, values: &[Value]) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for (k, span) in r.runs.iter().enumerate() {
        for i in span.start..span.end {
            if r.events[i].kind() != T::TextMessageContent {
                continue;
            }
            let Some(id) = values[i][MESSAGE_ID].as_str() else {
                continue;
            };
            let later = (i + 1..span.end).any(|j| {
                matches!(
                    r.events[j].kind(),
                    T::TextMessageContent | T::TextMessageChunk
                ) && values[j][MESSAGE_ID].as_str() == Some(id)
            });
            if !later {
                out.push((i, k, id.to_owned()));
            }
        }
    }
    out
}
