//! One run's canonical JSON text (`docs/projection.md`), written straight
//! from the typed view: keys in the order a `serde_json::Map` keeps them
//! (sorted), strings and values printed as [`crate::json::Out`] prints
//! them, so the bytes are those of the run's `Value` printed with `Out`.

use super::InvocationStatus;
use super::view::{Message, RunView};
use crate::json::{Out, as_big_number, as_surrogate, printable, settle_surrogates};
use crate::wire::key;
use serde_json::Value;

/// Appends the run's canonical JSON to `out`. `state` is the run's state;
/// `lone`: a lone surrogate was read in the run, so values are settled
/// ([`settle_surrogates`]) before printing, as the `Value` form is.
pub(super) fn run(out: &mut Vec<u8>, run: &RunView, state: &Value, lone: bool) {
    out.extend_from_slice(br#"{"interrupts":["#);
    for (k, i) in run.interrupts.iter().enumerate() {
        comma(out, k);
        out.push(b'{');
        if let Some(id) = &i.id {
            out.extend_from_slice(br#""id":"#);
            value(out, id, lone);
        }
        if let Some(o) = i.owner {
            if i.id.is_some() {
                out.push(b',');
            }
            out.extend_from_slice(br#""owner":"#);
            string(out, run.str(o));
        }
        out.push(b'}');
    }
    out.extend_from_slice(br#"],"invocations":["#);
    for (k, inv) in run.invocations.iter().enumerate() {
        comma(out, k);
        out.extend_from_slice(br#"{"id":"#);
        string(out, run.str(inv.id));
        if let InvocationStatus::Suspended(ids) = &inv.status {
            out.extend_from_slice(br#","interruptIds":["#);
            for (k, id) in ids.iter().enumerate() {
                comma(out, k);
                string(out, id);
            }
            out.push(b']');
        }
        if let Some(n) = inv.name {
            out.extend_from_slice(br#","name":"#);
            string(out, run.str(n));
        }
        if let Some(p) = inv.parent {
            out.extend_from_slice(br#","parent":"#);
            string(out, run.str(p));
        }
        out.extend_from_slice(br#","status":""#);
        out.extend_from_slice(status(&inv.status).as_bytes());
        out.extend_from_slice(b"\"}");
    }
    out.extend_from_slice(br#"],"messages":["#);
    for (k, m) in run.messages.iter().enumerate() {
        comma(out, k);
        message(out, run, m, lone);
    }
    out.extend_from_slice(b"],");
    name(out, key::RunStarted::run_id);
    string(out, run.str(run.run_id));
    out.extend_from_slice(br#","state":"#);
    value(out, state, lone);
    out.extend_from_slice(br#","status":"#);
    string(out, run.status);
    out.push(b',');
    name(out, key::RunStarted::thread_id);
    string(out, run.str(run.thread_id));
    out.push(b'}');
}

/// Writes `"key":` for a wire name taken from the table (a plain ASCII
/// name, so no escaping), keeping the names out of this file.
fn name(out: &mut Vec<u8>, key: &str) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
}

fn message(out: &mut Vec<u8>, run: &RunView, m: &Message, lone: bool) {
    out.push(b'{');
    if let Some(t) = &m.activity_type {
        name(out, key::ActivitySnapshot::activity_type);
        string(out, t);
        out.push(b',');
    }
    out.extend_from_slice(br#""content":"#);
    value(out, &m.content, lone);
    out.extend_from_slice(br#","id":"#);
    string(out, run.str(m.id));
    if let Some(o) = m.owner {
        out.extend_from_slice(br#","owner":"#);
        string(out, run.str(o));
    }
    out.extend_from_slice(br#","role":"#);
    string(out, &m.role);
    if !m.tool_calls.is_empty() {
        out.extend_from_slice(br#","toolCalls":["#);
        for (k, c) in m.tool_calls.iter().enumerate() {
            comma(out, k);
            out.extend_from_slice(br#"{"args":"#);
            string(out, &c.args);
            out.extend_from_slice(br#","id":"#);
            string(out, run.str(c.id));
            out.extend_from_slice(br#","name":"#);
            string(out, run.str(c.name));
            out.push(b'}');
        }
        out.push(b']');
    }
    out.push(b'}');
}

fn status(s: &InvocationStatus) -> &'static str {
    match s {
        InvocationStatus::Running => "running",
        InvocationStatus::Finished => "finished",
        InvocationStatus::Suspended(_) => "suspended",
        InvocationStatus::Errored => "errored",
        InvocationStatus::Abandoned => "abandoned",
        InvocationStatus::Unannounced => "unannounced",
    }
}

fn comma(out: &mut Vec<u8>, k: usize) {
    if k > 0 {
        out.push(b',');
    }
}

/// A string as `Out` prints `Value::String(s)`: a kept big number as the
/// number, kept surrogates as U+FFFD, the rest escaped as serde_json does.
fn string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    if plain(b) {
        out.reserve(b.len() + 2);
        out.push(b'"');
        out.extend_from_slice(b);
        out.push(b'"');
        return;
    }
    if as_big_number(s).is_some() {
        // Rare: the same code as `Out`, for the same bytes.
        let _ = serde_json::to_writer(&mut *out, &Out(&Value::String(s.to_owned())));
    } else if s.chars().any(|c| as_surrogate(c).is_some()) {
        let _ = serde_json::to_writer(&mut *out, &printable(s));
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Whether `b` prints as itself between quotes: no byte serde_json
/// escapes (`"`, `\`, controls), no 0xF4 (how a kept surrogate,
/// U+10F800 and up, begins in UTF-8) and no leading 0xEF (how U+FDD0, a
/// kept big number's mark, begins). One pass without early exit, so the
/// compiler can test many bytes at a time.
fn plain(b: &[u8]) -> bool {
    let odd = b.iter().fold(false, |odd, &c| {
        odd | (c < 0x20) | (c == b'"') | (c == b'\\') | (c == 0xF4)
    });
    !odd && b.first() != Some(&0xEF)
}

/// Any JSON value as `Out` prints it (a string through [`string`]); in a
/// run with a lone surrogate, settled first.
fn value(out: &mut Vec<u8>, v: &Value, lone: bool) {
    match v {
        Value::String(s) => string(out, s),
        _ if lone => {
            let mut v = v.clone();
            settle_surrogates(&mut v);
            let _ = serde_json::to_writer(&mut *out, &Out(&v));
        }
        _ => {
            let _ = serde_json::to_writer(&mut *out, &Out(v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Out, Value, string};

    #[test]
    fn strings_print_as_out_prints_them() {
        let kept_high = char::from_u32(crate::json::SURROGATE_BASE).unwrap_or('?');
        let cases = [
            String::new(),
            "plain text, long enough to cross a vector of bytes: 0123456789".to_owned(),
            "quote \" backslash \\ slash / tab \t nl \n nul \u{0} del \u{7f}".to_owned(),
            "é 😀 \u{FFFD} \u{F4} \u{10FFFF}".to_owned(),
            format!("a{kept_high}b"),
            "\u{FDD0}1e400".to_owned(),
            "\u{FDD0}not a number".to_owned(),
            "x\u{FDD0}1".to_owned(),
        ];
        for s in cases {
            let mut got = Vec::new();
            string(&mut got, &s);
            let want = serde_json::to_vec(&Out(&Value::String(s.clone()))).unwrap_or_default();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "{s:?}"
            );
        }
    }
}
