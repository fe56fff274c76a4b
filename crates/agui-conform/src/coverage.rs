//! What a check could not judge, and why (`coverage` in JSON and SARIF,
//! the `coverage:` line in text): derived from what the check did, not
//! from guesses — the kind of input it read (a file of JSON holds no HTTP
//! response for the transport rules; a saved SSE body holds its bytes but
//! not its status, headers or timing), the limit notices the checker
//! emitted, read by the contract of docs/rules.md "Checker limits" (a
//! skipped event suspends the stream rules until the next `RUN_STARTED`
//! and stops state tracking and the judgement of resumption for the rest
//! of the stream; a state limit stops `state.patch-fails`; a live
//! exchange cut at a time limit blames no unfinished run), and an input
//! with no events, where nothing was judged.
//!
//! And which rule families (the catalogue's areas the checker judges
//! events by, `agui_model::checker::JUDGED_AREAS`) the stream exercised:
//! had at least one event a rule of the family judged, as the checker
//! marked it while judging (`Checker::exercised_areas`; in blind mode
//! after a skipped event only the schema's count).

use agui_model::rules::{CATALOGUE, RuleId};
use agui_model::{LimitKind, LimitNotice};
use serde_json::{Value, json};

/// Where the events came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// JSON Lines or one array (a file, standard input, a case's stream).
    Json,
    /// A saved SSE body.
    Sse,
    /// A live producer (`--url`).
    Live,
}

/// The limit notices of one check that bear on coverage: the first
/// index and the number of each kind.
#[derive(Debug, Default)]
pub struct Notices {
    seen: Vec<(LimitKind, usize, usize)>,
}

impl Notices {
    pub fn push(&mut self, n: &LimitNotice) {
        match self.seen.iter_mut().find(|(k, _, _)| *k == n.kind) {
            Some((_, _, count)) => *count += 1,
            None => self.seen.push((n.kind, n.index, 1)),
        }
    }

    /// The notices of a report that kept them all (`--url`).
    pub fn of(limits: &[LimitNotice]) -> Self {
        let mut n = Notices::default();
        for l in limits {
            n.push(l);
        }
        n
    }

    /// The first index and count of the notices of `kinds`, together.
    fn first(&self, kinds: &[LimitKind]) -> Option<(usize, usize)> {
        let of: Vec<_> = self
            .seen
            .iter()
            .filter(|(k, _, _)| kinds.contains(k))
            .collect();
        let from = of.iter().map(|(_, i, _)| *i).min()?;
        Some((from, of.iter().map(|(_, _, c)| c).sum()))
    }
}

/// Rules not judged over part or all of the stream.
#[derive(Debug, PartialEq, Eq)]
pub struct Gap {
    /// Whole areas of the catalogue, or single rules.
    pub what: What,
    /// From this event on (none: the whole stream).
    pub from: Option<usize>,
    /// The limit notices behind it.
    pub notices: usize,
    pub reason: &'static str,
}

#[derive(Debug, PartialEq, Eq)]
pub enum What {
    Areas(Vec<&'static str>),
    Rules(Vec<&'static str>),
}

/// Limits that skip an event (or, for bookkeeping, drop what was kept
/// and judge the rest of the run as after a skip).
const SKIPS: [LimitKind; 3] = [
    LimitKind::LineBytes,
    LimitKind::Nesting,
    LimitKind::BookkeepingBytes,
];

/// The transport rules a saved SSE body is judged by: they read only its
/// bytes (agui-live's `sse_file`); the rest need the live response.
const SSE_BODY_RULES: [RuleId; 2] = [RuleId::TransportFraming, RuleId::TransportUnterminatedEvent];

/// The catalogue's areas of rules a stream can break, in order, that
/// `keep` selects.
fn areas(keep: impl Fn(&agui_model::rules::Rule) -> bool) -> Vec<&'static str> {
    agui_model::rules::areas(|r| r.is_violation() && keep(r))
}

/// What was not judged (`empty`: the input held no events, and nothing
/// was judged at all).
pub fn gaps(source: Source, empty: bool, notices: &Notices) -> Vec<Gap> {
    let mut gaps = Vec::new();
    if empty {
        gaps.push(Gap {
            what: What::Areas(areas(|_| true)),
            from: None,
            notices: 0,
            reason: "the input holds no events",
        });
        return gaps;
    }
    match source {
        Source::Json => gaps.push(Gap {
            what: What::Areas(vec!["transport"]),
            from: None,
            notices: 0,
            reason: "a stream of JSON holds no HTTP response: the transport rules judge one's bytes, status, headers and timing",
        }),
        Source::Sse => gaps.push(Gap {
            what: What::Rules(
                CATALOGUE
                    .iter()
                    .filter(|r| r.area == "transport" && !SSE_BODY_RULES.iter().any(|s| s.as_str() == r.id))
                    .map(|r| r.id)
                    .collect(),
            ),
            from: None,
            notices: 0,
            reason: "a saved SSE body keeps its bytes, not the response's status, headers or timing",
        }),
        Source::Live => {}
    }
    if let Some((from, n)) = notices.first(&SKIPS) {
        gaps.push(Gap {
            what: What::Areas(areas(|r| !r.judged_blind())),
            from: Some(from),
            notices: n,
            reason: "an event was skipped at a limit (or what the checker kept was dropped): until the next RUN_STARTED only the per-event rules are judged",
        });
        gaps.push(Gap {
            what: What::Rules(vec![
                RuleId::StatePatchFails.as_str(),
                RuleId::LifecycleResumedNotSuspended.as_str(),
            ]),
            from: Some(from),
            notices: n,
            reason: "after a skipped event state tracking and the judgement of resumption stop for the rest of the stream",
        });
    } else if let Some((from, n)) = notices.first(&[LimitKind::StateBytes]) {
        gaps.push(Gap {
            what: What::Rules(vec![RuleId::StatePatchFails.as_str()]),
            from: Some(from),
            notices: n,
            reason: "the state passed --max-state-bytes: state tracking stops for the rest of the stream",
        });
    }
    if let Some((from, n)) = notices.first(&[LimitKind::Time]) {
        gaps.push(Gap {
            what: What::Rules(vec![RuleId::RunUnterminated.as_str()]),
            from: Some(from),
            notices: n,
            reason: "the exchange was cut at a time limit: an unfinished run is not blamed, and nothing after the cut was received",
        });
    }
    gaps
}

/// The coverage of a finished check: what was not judged, and which rule
/// families judged at least one event.
#[derive(Debug, PartialEq, Eq)]
pub struct Coverage {
    pub gaps: Vec<Gap>,
    /// The families that judged an event, in catalogue order.
    pub exercised: Vec<&'static str>,
}

impl Coverage {
    /// The families of [`agui_model::checker::JUDGED_AREAS`] that judged
    /// no event.
    pub fn not_exercised(&self) -> Vec<&'static str> {
        agui_model::checker::JUDGED_AREAS
            .into_iter()
            .filter(|a| !self.exercised.contains(a))
            .collect()
    }
}

/// The coverage of a finished check.
pub fn of(source: Source, report: &agui_model::Report, notices: &Notices) -> Coverage {
    Coverage {
        gaps: gaps(source, crate::no_events::holds_none(report), notices),
        exercised: report.exercised.clone(),
    }
}

/// The machine form: `{"exercised": [area], "notExercised": [area],
/// "notEvaluable": [{"areas" | "rules", "from"?, "notices"?, "reason"}]}`.
pub fn to_json(coverage: &Coverage) -> Value {
    let entries: Vec<Value> = coverage
        .gaps
        .iter()
        .map(|g| {
            let mut e = serde_json::Map::new();
            match &g.what {
                What::Areas(a) => e.insert("areas".into(), json!(a)),
                What::Rules(r) => e.insert("rules".into(), json!(r)),
            };
            if let Some(i) = g.from {
                e.insert("from".into(), json!(i));
            }
            if g.notices > 0 {
                e.insert("notices".into(), json!(g.notices));
            }
            e.insert("reason".into(), json!(g.reason));
            Value::Object(e)
        })
        .collect();
    json!({
        "exercised": coverage.exercised,
        "notExercised": coverage.not_exercised(),
        "notEvaluable": entries,
    })
}

/// The text line: `coverage: every rule judged`, or what was not and why;
/// then the families exercised and not (none when no event was judged,
/// which the gaps say).
pub fn line(coverage: &Coverage) -> String {
    let mut l = gaps_line(&coverage.gaps);
    if !coverage.exercised.is_empty() {
        l.push_str("; exercised: ");
        l.push_str(&coverage.exercised.join(", "));
        let not = coverage.not_exercised();
        if !not.is_empty() {
            l.push_str("; no event judged by: ");
            l.push_str(&not.join(", "));
        }
    }
    l
}

fn gaps_line(gaps: &[Gap]) -> String {
    if gaps.is_empty() {
        return "coverage: every rule judged".to_owned();
    }
    let parts: Vec<String> = gaps
        .iter()
        .map(|g| {
            let what = match &g.what {
                What::Areas(a) => a
                    .iter()
                    .map(|a| format!("{a}.*"))
                    .collect::<Vec<_>>()
                    .join(", "),
                What::Rules(r) => r.join(", "),
            };
            let from = g.from.map(|i| format!(" from #{i}")).unwrap_or_default();
            format!("{what}{from} ({})", g.reason)
        })
        .collect();
    format!("coverage: not judged: {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(kind: LimitKind, index: usize) -> LimitNotice {
        LimitNotice::new(kind, index, 1, "x")
    }

    #[test]
    fn a_file_of_json_leaves_the_transport_rules_and_nothing_else() {
        let g = gaps(Source::Json, false, &Notices::default());
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].what, What::Areas(vec!["transport"]));
        assert!(gaps(Source::Live, false, &Notices::default()).is_empty());
    }

    #[test]
    fn a_saved_body_is_judged_by_its_byte_rules_only() {
        let g = gaps(Source::Sse, false, &Notices::default());
        let What::Rules(r) = &g[0].what else {
            panic!("{g:?}")
        };
        assert!(r.contains(&"transport.status") && r.contains(&"transport.buffered"));
        assert!(!r.contains(&"transport.framing") && !r.contains(&"transport.unterminated-event"));
    }

    #[test]
    fn a_skip_suspends_the_stream_rules_from_the_first_one() {
        let n = Notices::of(&[
            notice(LimitKind::Nesting, 9),
            notice(LimitKind::LineBytes, 4),
            notice(LimitKind::Nesting, 12),
            notice(LimitKind::ProjectionBytes, 2),
        ]);
        let g = gaps(Source::Live, false, &n);
        assert_eq!(g.len(), 2, "{g:?}");
        let What::Areas(a) = &g[0].what else {
            panic!("{g:?}")
        };
        // Every area but the per-event ones.
        assert!(a.contains(&"run") && a.contains(&"ownership") && a.contains(&"chunks"));
        assert!(!a.contains(&"schema") && !a.contains(&"transport"));
        assert_eq!((g[0].from, g[0].notices), (Some(4), 3));
        assert_eq!(
            g[1].what,
            What::Rules(vec!["state.patch-fails", "lifecycle.resumed-not-suspended"])
        );
    }

    #[test]
    fn a_state_limit_stops_state_rules_and_a_time_limit_blames_no_run() {
        let n = Notices::of(&[
            notice(LimitKind::StateBytes, 7),
            notice(LimitKind::Time, 30),
        ]);
        let g = gaps(Source::Live, false, &n);
        assert_eq!(g[0].what, What::Rules(vec!["state.patch-fails"]));
        assert_eq!(g[0].from, Some(7));
        assert_eq!(g[1].what, What::Rules(vec!["run.unterminated"]));
        assert_eq!(g[1].from, Some(30));
    }

    #[test]
    fn no_events_judges_nothing() {
        let g = gaps(Source::Json, true, &Notices::default());
        let What::Areas(a) = &g[0].what else {
            panic!("{g:?}")
        };
        assert!(a.contains(&"schema") && a.contains(&"transport"));
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn the_line_names_each_gap_and_its_reason() {
        assert_eq!(gaps_line(&[]), "coverage: every rule judged");
        let g = gaps(
            Source::Json,
            false,
            &Notices::of(&[notice(LimitKind::StateBytes, 2)]),
        );
        let l = gaps_line(&g);
        assert!(
            l.starts_with("coverage: not judged: transport.* (a stream of JSON"),
            "{l}"
        );
        assert!(
            l.contains("; state.patch-fails from #2 (the state passed"),
            "{l}"
        );
    }
}
