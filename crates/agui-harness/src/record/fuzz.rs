//! The record of a fuzz campaign (`fuzz --record FILE`): the usual header
//! with `fuzz` (seed, mode, limits), one `finding` line per distinct
//! failure (rule and score) with its minimal stream and the expectation on
//! it, and the usual footer with `fuzz` (coverage, failures per rule, what
//! the time limit cut). Written once the campaign is over, so a report can
//! show a campaign's findings beside the suite runs, from records alone.

use super::{Expected, Footer, Header, Line, Meta, Stream, Totals, header};
use crate::campaign::{Campaign, Finding as Found, Mix, summary};
use crate::report::{describe_expected, rule_label};
use crate::score::Score;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The suite name a campaign's record gives in its header.
pub const SUITE: &str = "fuzz";

/// The header's `fuzz`: what the campaign was asked to run.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Plan {
    pub seed: u64,
    /// `mixed`, `valid` or `invalid`.
    pub mode: String,
    /// `--cases`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cases: Option<u64>,
    /// `--time` in ms, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<u64>,
    /// `--rules`: the only violation rules drawn (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    pub shrink_budget: usize,
}

/// The footer's `fuzz`: what a suite's footer has no place for.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Valid streams among the cases answered.
    pub valid: u64,
    /// Case numbers the generator declined (not run).
    pub declined: u64,
    /// Answers a generated case could not judge.
    pub unjudged: u64,
    /// Violation rules the cases answered broke.
    pub covered: Vec<String>,
    /// Failing cases per rule and score (each a finding's `cases`).
    pub failures: Vec<Failures>,
    /// What the time limit cut short.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<String>,
}

/// How many cases failed alike.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Failures {
    pub rule: String,
    pub score: Score,
    pub cases: u64,
}

/// One distinct failure (`kind: finding`): the first case that failed so,
/// and the minimal stream shrinking kept.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Finding {
    /// The rule the case tests (its `group`), or `valid`.
    pub rule: String,
    /// FAIL or ERRORED.
    pub score: Score,
    /// Cases of the campaign that failed alike.
    pub cases: u64,
    /// The first of them: its number in the campaign, id and case seed.
    pub number: u64,
    pub id: String,
    pub seed: u64,
    /// The score's reason and the answer (as `run --format json` writes
    /// it), on the case as found.
    pub reason: String,
    pub answer: Value,
    /// Its size as found (events, or raw lines).
    pub events_before: usize,
    /// The saved case's description: where it came from, how it shrank.
    pub description: String,
    /// The minimal stream, and the expectation on it.
    pub stream: Stream,
    pub expected: Expected,
    /// Where that expectation comes from: `construction` (the
    /// generator's) or `reference` (the reference model's, after events
    /// were deleted).
    pub expectation: String,
    /// The answer and the score's reason on the minimal stream.
    pub shrunk_answer: Value,
    pub shrunk_reason: String,
    /// Why events were not deleted, when they were not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Questions asked while shrinking.
    pub shrink_tests: usize,
    /// The time limit stopped shrinking early.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut_short: bool,
}

impl Finding {
    /// The minimal stream's length.
    pub fn events_after(&self) -> usize {
        match &self.stream {
            Stream::Events(e) => e.len(),
            Stream::Lines(l) => l.len(),
        }
    }

    /// The rejection index answered on the minimal stream.
    pub fn shrunk_index(&self) -> Option<usize> {
        self.shrunk_answer
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok())
    }
}

fn mode(m: Mix) -> &'static str {
    match m {
        Mix::Valid => "valid",
        Mix::Invalid => "invalid",
        Mix::Mixed => "mixed",
    }
}

/// The finding's line.
fn finding(f: &Found, cases: u64) -> Finding {
    let saved = summary::saved_case(f);
    let e = &saved.expected;
    Finding {
        rule: summary::key(&f.signature),
        score: f.signature.1,
        cases,
        number: f.number,
        id: f.id.clone(),
        seed: f.shrunk.recipe.seed,
        reason: f.reason.clone(),
        answer: f.answer.clone(),
        events_before: f.original_size,
        description: saved.description.clone(),
        stream: match &saved.lines {
            Some(l) => Stream::Lines(l.clone()),
            None => Stream::Events(saved.events.clone()),
        },
        expected: Expected {
            verdict: e.verdict.as_str().to_owned(),
            rule: e.first.map(|(r, _)| r.as_str().to_owned()),
            index: e.first.map(|(_, i)| i),
            text: describe_expected(e),
            projection: None,
        },
        expectation: if f.shrunk.by_reference {
            "reference"
        } else {
            "construction"
        }
        .to_owned(),
        shrunk_answer: f.shrunk.answer.clone(),
        shrunk_reason: f.shrunk.reason.clone(),
        note: f.shrunk.note.clone(),
        shrink_tests: f.shrunk.tests,
        cut_short: f.shrunk.cut_short,
    }
}

/// Why a campaign vouches for nothing, if it does not (as its JUnit says).
fn incomplete(c: &Campaign) -> Option<String> {
    c.aborted
        .clone()
        .or_else(|| (c.stats.cases == 0).then(|| "no case ran".to_owned()))
        .or_else(|| {
            (c.stats.unjudged > 0).then(|| {
                format!(
                    "{} answers not judged (a generated case states only its first violation)",
                    c.stats.unjudged
                )
            })
        })
}

/// The header of a campaign's record.
pub fn campaign_header(c: &Campaign, meta: &Meta) -> Header {
    let mut h = header(
        &c.implementation,
        SUITE,
        usize::try_from(c.stats.cases).unwrap_or(usize::MAX),
        meta,
    );
    h.fuzz = Some(Plan {
        seed: c.plan.seed,
        mode: mode(c.plan.mix).to_owned(),
        max_cases: c.plan.cases,
        time_limit_ms: c
            .plan
            .time
            .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        rules: c.plan.rules.iter().map(|r| r.as_str().to_owned()).collect(),
        shrink_budget: c.plan.shrink_budget,
    });
    h
}

/// The footer of a campaign's record.
pub fn campaign_footer(c: &Campaign) -> Footer {
    let s = &c.stats;
    let status = c.status();
    Footer {
        totals: Totals::of(&s.tally),
        rules: s
            .per_rule
            .iter()
            .map(|(k, t)| (rule_label(*k).to_owned(), Totals::of(t)))
            .collect(),
        status: status.as_str().to_owned(),
        exit_status: status.exit_code(),
        incomplete: incomplete(c),
        incidents: c.incidents.clone(),
        problems: s.problems.clone(),
        elapsed_ms: u64::try_from(c.elapsed.as_millis()).unwrap_or(u64::MAX),
        official: None,
        fuzz: Some(Summary {
            valid: s.valid,
            declined: s.declined,
            unjudged: s.unjudged,
            covered: s.covered.iter().map(|r| r.as_str().to_owned()).collect(),
            failures: s
                .failures
                .iter()
                .map(|(sig, n)| Failures {
                    rule: summary::key(sig),
                    score: sig.1,
                    cases: *n,
                })
                .collect(),
            cut: c.cut.clone(),
        }),
    }
}

/// The whole record of a finished (or interrupted) campaign.
pub fn render(c: &Campaign, meta: &Meta) -> String {
    let lines = std::iter::once(Line::Header(campaign_header(c, meta)))
        .chain(c.findings.iter().map(|f| {
            let cases = c.stats.failures.get(&f.signature).copied().unwrap_or(0);
            Line::Finding(finding(f, cases))
        }))
        .chain(std::iter::once(Line::Footer(campaign_footer(c))));
    let mut out = String::new();
    for line in lines {
        if let Ok(text) = serde_json::to_string(&line) {
            out.push_str(&text);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{self, Plan};
    use crate::implementation::{Capabilities, ImplInfo, Implementation};
    use crate::outcome::Outcome;
    use crate::record::Record;

    /// Accepts every stream: fails every must-reject rule it is given.
    struct AcceptAll;

    impl Implementation for AcceptAll {
        fn describe(&mut self) -> anyhow::Result<ImplInfo> {
            let caps = Capabilities {
                index: true,
                ..Capabilities::default()
            };
            Ok(ImplInfo::new("accept-all", "0", "rust", caps))
        }
        fn run_case(&mut self, _id: &str, _events: &[Value]) -> Outcome {
            Outcome::Accept { projection: None }
        }
    }

    fn campaign() -> Campaign {
        let plan = Plan {
            seed: 3,
            cases: Some(60),
            shrink_budget: 50,
            ..Plan::default()
        };
        campaign::run_with(&plan, &mut AcceptAll, &|_, _| {})
    }

    #[test]
    fn a_campaign_record_round_trips_with_its_findings() {
        let c = campaign();
        assert!(!c.findings.is_empty(), "accepting everything fails");
        let text = render(&c, &Meta::now());
        let r = Record::parse(&text).expect("its own record reads back");
        assert!(r.is_fuzz() && !r.is_producer());
        assert_eq!(r.header.cases, 60);
        assert_eq!(r.findings.len(), c.findings.len());
        for (line, f) in r.findings.iter().zip(&c.findings) {
            let saved = summary::saved_case(f);
            assert_eq!(line.rule, summary::key(&f.signature));
            assert_eq!(line.stream, Stream::Events(saved.events.clone()));
            assert_eq!(line.events_after(), saved.events.len());
            assert_eq!(line.expected.index, saved.expected.first.map(|x| x.1));
            assert_eq!(line.cases, c.stats.failures[&f.signature], "{}", line.rule);
            assert_eq!(line.shrunk_answer["verdict"], "accept");
        }
        // Every line is written back as it was read.
        for (read, written) in r.findings.iter().zip(text.lines().skip(1)) {
            let again = serde_json::to_string(&Line::Finding(read.clone())).unwrap();
            assert_eq!(again, written);
        }
        // The footer counts per rule what the totals count.
        let f = r.footer.expect("a footer");
        let per_rule: u64 = f.rules.values().map(Totals::total).sum();
        assert_eq!(per_rule, f.totals.total());
        assert_eq!(f.totals.total(), 60);
        let z = f.fuzz.expect("the campaign's summary");
        assert_eq!(z.valid, f.rules["valid"].total());
        assert_eq!(z.failures.len(), c.stats.failures.len());
    }
}
