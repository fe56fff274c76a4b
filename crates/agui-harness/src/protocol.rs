//! The messages of `suites/PROTOCOL.md` (version 1), as serde types.
//! Their JSON Schemas are `suites/protocol/*.schema.json`.

use crate::implementation::{Capabilities, ImplInfo};
use crate::outcome::{Errored, Outcome};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this harness speaks.
pub const PROTOCOL: u64 = 1;

/// `{"cmd": "start", "protocol": 1}`
pub fn start_request() -> Value {
    serde_json::json!({"cmd": "start", "protocol": PROTOCOL})
}

/// `{"cmd": "stop"}`
pub fn stop_request() -> Value {
    serde_json::json!({"cmd": "stop"})
}

/// `{"cmd": "run", "seq": N, "case": {"id", "events" | "lines"}}`, borrowed.
#[derive(Serialize)]
pub struct RunRequest<'a> {
    pub cmd: &'static str,
    pub seq: u64,
    pub case: CaseRef<'a>,
}

#[derive(Serialize)]
pub struct CaseRef<'a> {
    pub id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<&'a [Value]>,
    /// Raw JSON Lines text, only to an implementation with `raw-lines`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<&'a [String]>,
}

impl<'a> RunRequest<'a> {
    pub fn new(seq: u64, id: &'a str, events: &'a [Value]) -> Self {
        RunRequest {
            cmd: "run",
            seq,
            case: CaseRef {
                id,
                events: Some(events),
                lines: None,
            },
        }
    }

    /// A case given as raw JSON Lines text.
    pub fn lines(seq: u64, id: &'a str, lines: &'a [String]) -> Self {
        RunRequest {
            cmd: "run",
            seq,
            case: CaseRef {
                id,
                events: None,
                lines: Some(lines),
            },
        }
    }
}

/// Reads an answer line as RFC 8259 JSON ([`agui_model::json`]): a
/// projection may print a number outside a double's range as written
/// (`1e400`), which serde_json alone refuses. A duplicate key keeps its
/// last value.
fn read_answer<T: serde::de::DeserializeOwned>(line: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(line).map_err(|e| e.to_string())?;
    let parsed = agui_model::json::parse(text, &agui_model::json::ParseOptions::default())
        .map_err(|e| e.to_string())?;
    serde_json::from_value(parsed.value).map_err(|e| e.to_string())
}

/// The answer to `start`.
#[derive(Debug, Deserialize)]
pub struct StartAnswer {
    pub protocol: Value,
    #[serde(default)]
    pub implementation: Option<ImplInfo>,
    #[serde(default)]
    pub capabilities: Option<Vec<String>>,
    #[serde(default)]
    pub error: Option<String>,
}

/// Why a handshake did not succeed.
#[derive(Debug)]
pub enum StartRefused {
    /// Another protocol version (the run stops).
    Version(String),
    /// Not a valid handshake answer.
    Malformed(String),
}

impl StartAnswer {
    pub fn into_info(self) -> Result<ImplInfo, StartRefused> {
        if self.protocol.as_u64() != Some(PROTOCOL) || self.error.is_some() {
            return Err(StartRefused::Version(format!(
                "implementation speaks protocol {} (harness: {PROTOCOL}){}",
                self.protocol,
                self.error.map(|e| format!(": {e}")).unwrap_or_default()
            )));
        }
        let mut info = self
            .implementation
            .ok_or_else(|| StartRefused::Malformed("handshake lacks `implementation`".into()))?;
        let names = self
            .capabilities
            .ok_or_else(|| StartRefused::Malformed("handshake lacks `capabilities`".into()))?;
        info.capabilities = Capabilities::from_names(names.iter().map(String::as_str))
            .map_err(StartRefused::Malformed)?;
        Ok(info)
    }
}

/// The `result` object (persistent `run` answer; the whole line in one-shot mode).
#[derive(Debug, Deserialize)]
pub struct ResultMsg {
    pub verdict: VerdictMsg,
    #[serde(default)]
    pub index: Option<usize>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub projection: Option<Value>,
    /// What only the adapter knows about its answer (the stage of its
    /// implementation that decided it, the warnings it logged): kept
    /// verbatim for run records and reports, never scored.
    #[serde(default)]
    pub explain: Option<Value>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum VerdictMsg {
    Accept,
    Reject,
}

impl ResultMsg {
    pub fn into_outcome(self) -> Outcome {
        match self.verdict {
            VerdictMsg::Accept => Outcome::Accept {
                projection: self.projection,
            },
            VerdictMsg::Reject => Outcome::Reject {
                index: self.index,
                rule: self.rule,
                message: self.message,
            },
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct SkippedMsg {
    #[serde(default)]
    pub reason: String,
}

#[derive(Debug, Deserialize)]
pub struct ErroredMsg {
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub context: Option<Value>,
}

/// The answer to `run`.
#[derive(Debug, Deserialize)]
pub struct RunAnswer {
    pub seq: Value,
    #[serde(default)]
    pub result: Option<ResultMsg>,
    #[serde(default)]
    pub skipped: Option<SkippedMsg>,
    #[serde(default)]
    pub errored: Option<ErroredMsg>,
}

/// Parses one answer line to `run` with sequence number `seq`. `Err` means
/// a protocol violation (the process is then restarted).
pub fn parse_run_answer(line: &[u8], seq: u64) -> Result<Outcome, String> {
    parse_run_answer_explained(line, seq).map(|(o, _)| o)
}

/// [`parse_run_answer`], with the result's `explain` object.
pub fn parse_run_answer_explained(
    line: &[u8],
    seq: u64,
) -> Result<(Outcome, Option<Value>), String> {
    let a: RunAnswer = read_answer(line)
        .map_err(|e| format!("not a protocol message ({e}): {}", snippet(line)))?;
    if seq_number(&a.seq) != Some(seq) {
        return Err(format!("answer has seq {}, expected {seq}", a.seq));
    }
    match (a.result, a.skipped, a.errored) {
        (Some(mut r), None, None) => {
            let explain = r.explain.take();
            Ok((r.into_outcome(), explain))
        }
        (None, Some(s), None) => Ok((Outcome::Skipped { reason: s.reason }, None)),
        (None, None, Some(e)) => Ok((
            Outcome::Errored(Errored {
                reason: format!("implementation reported an error: {}", e.message),
                stderr_tail: None,
                context: e.context,
            }),
            None,
        )),
        _ => Err(format!(
            "answer must hold exactly one of result, skipped, errored: {}",
            snippet(line)
        )),
    }
}

/// The `seq` of a line that looks like a run answer, if it has one.
pub fn answer_seq(line: &[u8]) -> Option<u64> {
    #[derive(Deserialize)]
    struct Seq {
        seq: Value,
    }
    serde_json::from_slice::<Seq>(line)
        .ok()
        .and_then(|s| seq_number(&s.seq))
}

/// A `seq` as the JSON number it is: `1`, `1.0` and `1e0` are all 1 (a
/// JavaScript or Python writer may print a whole number as a float).
fn seq_number(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return Some(n);
    }
    let f = v.as_f64()?;
    // Exact only up to 2^53; a seq is a small counter.
    (f >= 0.0 && f.fract() == 0.0 && f < 9_007_199_254_740_992.0).then_some(f as u64)
}

/// Parses a one-shot result line.
pub fn parse_result_line(line: &[u8]) -> Result<Outcome, String> {
    parse_result_line_explained(line).map(|(o, _)| o)
}

/// [`parse_result_line`], with the result's `explain` object.
pub fn parse_result_line_explained(line: &[u8]) -> Result<(Outcome, Option<Value>), String> {
    let mut r: ResultMsg =
        read_answer(line).map_err(|e| format!("not a result object ({e}): {}", snippet(line)))?;
    let explain = r.explain.take();
    Ok((r.into_outcome(), explain))
}

/// At most 200 characters of a line, for error messages.
pub fn snippet(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    let s = s.trim_end();
    match s.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse() {
        let o = parse_run_answer(
            br#"{"seq":7,"result":{"verdict":"reject","index":3,"rule":"text.not-open"}}"#,
            7,
        );
        assert_eq!(
            o,
            Ok(Outcome::Reject {
                index: Some(3),
                rule: Some("text.not-open".into()),
                message: None
            })
        );
        assert_eq!(
            parse_run_answer(br#"{"seq":7.0,"result":{"verdict":"accept"}}"#, 7),
            Ok(Outcome::Accept { projection: None })
        );
        assert_eq!(answer_seq(br#"{"seq":7e0}"#), Some(7));
        assert_eq!(answer_seq(br#"{"seq":7.5}"#), None);
        assert!(parse_run_answer(br#"{"seq":7.5,"result":{"verdict":"accept"}}"#, 7).is_err());
        assert!(
            parse_run_answer(br#"{"seq":8,"result":{"verdict":"accept"}}"#, 7)
                .unwrap_err()
                .contains("seq 8")
        );
        assert!(parse_run_answer(b"hello", 7).is_err());
        assert!(parse_run_answer(br#"{"seq":7}"#, 7).is_err());
        assert!(parse_run_answer(br#"{"seq":7,"result":{"verdict":"maybe"}}"#, 7).is_err());
        assert_eq!(
            parse_run_answer(br#"{"seq":7,"skipped":{"reason":"no chunks"}}"#, 7),
            Ok(Outcome::Skipped {
                reason: "no chunks".into()
            })
        );
    }

    #[test]
    fn handshake_checks_version_and_verdict() {
        let a: StartAnswer = serde_json::from_str(
            r#"{"protocol":1,"implementation":{"name":"x","version":"1","language":"py"},"capabilities":["verdict","index"]}"#,
        )
        .unwrap();
        let i = a.into_info().unwrap();
        assert!(i.capabilities.index && !i.capabilities.rule);
        let a: StartAnswer = serde_json::from_str(r#"{"protocol":2,"error":"too new"}"#).unwrap();
        assert!(matches!(a.into_info(), Err(StartRefused::Version(_))));
        let a: StartAnswer = serde_json::from_str(
            r#"{"protocol":1,"implementation":{"name":"x"},"capabilities":["index"]}"#,
        )
        .unwrap();
        assert!(matches!(a.into_info(), Err(StartRefused::Malformed(_))));
    }
}
