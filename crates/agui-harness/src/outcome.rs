//! What an implementation answered for one case.

use serde_json::Value;

/// One implementation's answer to one case (before scoring).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The stream is accepted; `projection` when reported.
    Accept { projection: Option<Value> },
    /// The stream is rejected; `index` is where the implementation stopped.
    Reject {
        index: Option<usize>,
        rule: Option<String>,
        message: Option<String>,
    },
    /// The implementation does not support what the case needs (not scored).
    Skipped { reason: String },
    /// The implementation failed or misbehaved on this case.
    Errored(Errored),
}

/// Why a case errored, with what the implementation left behind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Errored {
    pub reason: String,
    /// The tail of the implementation's stderr (subprocesses only).
    pub stderr_tail: Option<String>,
    /// The implementation's own `context`, when it reported the error itself.
    pub context: Option<Value>,
}

impl Outcome {
    pub fn errored(reason: impl Into<String>) -> Self {
        Outcome::Errored(Errored {
            reason: reason.into(),
            ..Default::default()
        })
    }

    /// The machine form used by `--format json` (`"got"`).
    pub fn to_json(&self) -> Value {
        use serde_json::json;
        let mut v = match self {
            Outcome::Accept { projection } => {
                let mut v = json!({"verdict": "accept"});
                if let Some(p) = projection {
                    v["projection"] = p.clone();
                }
                v
            }
            Outcome::Reject {
                index,
                rule,
                message,
            } => {
                let mut v = json!({"verdict": "reject"});
                if let Some(i) = index {
                    v["index"] = json!(i);
                }
                if let Some(r) = rule {
                    v["rule"] = json!(r);
                }
                if let Some(m) = message {
                    v["message"] = json!(m);
                }
                v
            }
            Outcome::Skipped { reason } => json!({"skipped": {"reason": reason}}),
            Outcome::Errored(e) => {
                let mut v = json!({"errored": {"reason": e.reason}});
                if let Some(t) = &e.stderr_tail {
                    v["errored"]["stderr"] = json!(t);
                }
                if let Some(c) = &e.context {
                    v["errored"]["context"] = c.clone();
                }
                v
            }
        };
        if let Value::Object(m) = &mut v {
            m.retain(|_, x| !x.is_null());
        }
        v
    }

    /// One line for people: `accept`, `reject at 3 (rule)`, ….
    pub fn short(&self) -> String {
        match self {
            Outcome::Accept {
                projection: Some(_),
            } => "accept (with projection)".into(),
            Outcome::Accept { projection: None } => "accept".into(),
            Outcome::Reject { index, rule, .. } => {
                let mut s = "reject".to_string();
                if let Some(i) = index {
                    s.push_str(&format!(" at {i}"));
                }
                if let Some(r) = rule {
                    s.push_str(&format!(" ({r})"));
                }
                s
            }
            Outcome::Skipped { reason } => format!("skipped: {reason}"),
            Outcome::Errored(e) => format!("errored: {}", e.reason),
        }
    }
}
