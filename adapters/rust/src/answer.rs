//! From what an SDK did with a case to the answer the harness scores, and
//! the `explain` object that goes with it (suites/PROTOCOL.md).

use crate::expressible::Gap;
use agui_harness::Outcome;
use serde_json::{Value, json};

/// What an SDK did with a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Did {
    /// It read the whole stream and reported no fault. `note` says what
    /// only the adapter knows (items never read), `shown` what it holds.
    Accepted { note: Option<String>, shown: Value },
    /// It reported a fault while reading item `index` (the number of items
    /// for one found at the end of input), from its `stage`.
    Rejected {
        index: usize,
        stage: String,
        message: String,
    },
    /// It failed in a way that says nothing about the stream (a panic, a
    /// transport error the replay cannot cause): ERRORED.
    Failed(String),
}

/// The answer for the harness, and its `explain`. A stream holding
/// something the SDK cannot express ([`Gap`]) is `skipped` unless the SDK
/// rejected it before reaching that item: its answer is then no verdict
/// on the case.
pub fn answer(did: Did, gap: Option<Gap>) -> (Outcome, Option<Value>) {
    match (did, gap) {
        (Did::Failed(reason), _) => (Outcome::errored(reason), None),
        (
            Did::Rejected {
                index,
                stage,
                message,
            },
            gap,
        ) => {
            let explain = json!({"stage": stage});
            match gap.filter(|g| g.index <= index) {
                Some(g) => (
                    skipped(&g, &format!("it rejected at {index}: {message}")),
                    Some(explain),
                ),
                None => (
                    Outcome::Reject {
                        index: Some(index),
                        rule: None,
                        message: Some(message),
                    },
                    Some(explain),
                ),
            }
        }
        (Did::Accepted { note, shown }, gap) => {
            let mut explain = json!({"shown": shown});
            if let Some(n) = note {
                explain["note"] = Value::String(n);
            }
            match gap {
                Some(g) => (skipped(&g, "it accepted"), Some(explain)),
                None => (Outcome::Accept { projection: None }, Some(explain)),
            }
        }
    }
}

fn skipped(g: &Gap, did: &str) -> Outcome {
    Outcome::Skipped {
        reason: format!(
            "outside the SDK's model from item {}: {}; {did}",
            g.index, g.what
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gap(index: usize) -> Option<Gap> {
        Some(Gap {
            index,
            what: "it has no SUBAGENT_STARTED event type".into(),
        })
    }

    fn rejected(index: usize) -> Did {
        Did::Rejected {
            index,
            stage: "json".into(),
            message: "bad".into(),
        }
    }

    #[test]
    fn a_rejection_before_the_gap_is_a_verdict_at_or_after_it_is_not() {
        let (o, _) = answer(rejected(1), gap(2));
        assert_eq!(
            o,
            Outcome::Reject {
                index: Some(1),
                rule: None,
                message: Some("bad".into())
            }
        );
        let (o, _) = answer(rejected(2), gap(2));
        assert_eq!(
            o,
            Outcome::Skipped {
                reason: "outside the SDK's model from item 2: it has no SUBAGENT_STARTED event type; it rejected at 2: bad".into()
            }
        );
    }

    #[test]
    fn an_acceptance_over_a_gap_is_skipped_and_keeps_what_was_shown() {
        let did = Did::Accepted {
            note: None,
            shown: json!({"state": {}}),
        };
        let (o, x) = answer(did.clone(), gap(0));
        assert!(matches!(o, Outcome::Skipped { .. }));
        assert_eq!(x, Some(json!({"shown": {"state": {}}})));
        let (o, _) = answer(did, None);
        assert_eq!(o, Outcome::Accept { projection: None });
    }
}
