//! The scripted conversation, as `adapters/producers/common/script.py`
//! states it for every producer: the scenario a user message asks for,
//! and what approves a resume.

use serde_json::Value;

/// A scenario of the producers report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    Text,
    Tool,
    State,
    Interrupt,
    Confirm,
    Subagents,
    SubagentInterrupt,
    Failure,
}

/// Keywords, first match wins (script.py `KEYWORDS`).
const KEYWORDS: &[(&str, Scenario)] = &[
    ("fail", Scenario::Failure),
    ("research", Scenario::Subagents),
    ("book", Scenario::SubagentInterrupt),
    ("confirm", Scenario::Confirm),
    ("pay", Scenario::Interrupt),
    ("approv", Scenario::Interrupt),
    ("todo", Scenario::State),
    ("state", Scenario::State),
    ("weather", Scenario::Tool),
    ("tool", Scenario::Tool),
];

/// The scenario a user message asks for.
pub fn scenario_of(text: Option<&str>) -> Scenario {
    let low = text.unwrap_or_default().to_lowercase();
    KEYWORDS
        .iter()
        .find(|(word, _)| low.contains(word))
        .map_or(Scenario::Text, |(_, s)| *s)
}

/// Whether a resume payload approves: `{"approved": true}`, a LangChain
/// HITL `{"decisions": [{"type": "approve"}]}`, or `true`.
pub fn approved(answer: Option<&Value>) -> bool {
    match answer {
        Some(Value::Bool(b)) => *b,
        Some(Value::Object(m)) => {
            m.get("approved") == Some(&Value::Bool(true))
                || m.get("decisions")
                    .and_then(|d| d.get(0))
                    .and_then(|d| d.get("type"))
                    .and_then(Value::as_str)
                    == Some("approve")
        }
        _ => false,
    }
}

/// A reply split into streamed deltas (word by word, spaces kept).
pub fn words(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split(' ').collect();
    let last = parts.len().saturating_sub(1);
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i < last {
                format!("{p} ")
            } else {
                (*p).to_owned()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keywords_choose_as_script_py_does() {
        assert_eq!(scenario_of(Some("Please fail now.")), Scenario::Failure);
        assert_eq!(
            scenario_of(Some("Book a flight to Lisbon through the booking agent.")),
            Scenario::SubagentInterrupt
        );
        assert_eq!(
            scenario_of(Some(
                "Pay the 89 EUR invoice, but ask me for approval first."
            )),
            Scenario::Interrupt
        );
        assert_eq!(
            scenario_of(Some("Add 'buy milk' to my todo list.")),
            Scenario::State
        );
        assert_eq!(scenario_of(None), Scenario::Text);
    }

    #[test]
    fn approvals_and_words() {
        assert!(approved(Some(&json!({"approved": true}))));
        assert!(approved(Some(&json!({"decisions": [{"type": "approve"}]}))));
        assert!(!approved(Some(&json!({"approved": false}))));
        assert!(!approved(None));
        assert_eq!(words("a b c"), ["a ", "b ", "c"]);
    }
}
