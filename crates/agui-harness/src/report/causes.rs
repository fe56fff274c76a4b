//! A consumer's FAILs grouped by cause, before the per-rule drill-down: one
//! defect that fails nine rule families reads as one line ("ids must be
//! UUIDs — 983 cases, 47 findings"), not nine red columns.
//!
//! A cause comes from the implementation's notes (`causes`: a list of
//! `{cause, matches, rules, answer}`, first match wins): a FAIL whose
//! answer — its message, its adapter's `explain` stage and note, or a
//! skip's reason — contains one of `matches`, on a case of one of `rules`
//! (any when absent), answered `accept` or `reject` as `answer` says (either
//! when absent). A fuzz finding is matched the same way on its shrunk
//! reproducer's answer, its first divergence. A FAIL no note explains is
//! shown as such, grouped by what the implementation said (its message
//! with numbers and quoted names blanked), or, for an acceptance, as
//! "accepted a must-reject violation".

use super::merged::{Merged, Notes};
use crate::record::{Case, Record};
use crate::score::Score;
use serde_json::Value;

/// The notes' key of an implementation's causes.
pub const CAUSES: &str = "causes";

/// One cause and what it explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    pub text: String,
    /// Whether a note gives it (else it is the answer's own words).
    pub noted: bool,
    /// Suite cases FAILed for it.
    pub cases: usize,
    /// Fuzz findings it explains, and the campaign's cases behind them.
    pub findings: usize,
    pub fuzz_cases: u64,
    /// The rule groups it spans, in order of first appearance.
    pub rules: Vec<String>,
}

/// A note's cause, as written.
struct Noted<'a> {
    text: &'a str,
    matches: Vec<&'a str>,
    rules: Vec<&'a str>,
    answer: Option<&'a str>,
}

fn noted<'a>(notes: &'a Notes, keys: &[&str]) -> Vec<Noted<'a>> {
    let list = keys
        .iter()
        .find_map(|k| notes.get(*k).and_then(|n| n.get(CAUSES)))
        .and_then(Value::as_array);
    let strs = |v: Option<&'a Value>| -> Vec<&'a str> {
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    };
    list.into_iter()
        .flatten()
        .filter_map(|c| {
            Some(Noted {
                text: c.get("cause")?.as_str()?,
                matches: strs(c.get("matches")),
                rules: strs(c.get("rules")),
                answer: c.get("answer").and_then(Value::as_str),
            })
        })
        .collect()
}

/// What an answer said, in one text: verdict, message, the adapter's stage
/// and note, a skip's reason.
fn said(answer: &Value, message: Option<&str>, explain: Option<&Value>) -> (String, String) {
    let verdict = answer
        .get("verdict")
        .and_then(Value::as_str)
        .unwrap_or(if answer.get("skipped").is_some() {
            "skipped"
        } else {
            "errored"
        })
        .to_owned();
    let mut text = String::new();
    for part in [
        message,
        answer.get("message").and_then(Value::as_str),
        explain.and_then(|e| e.get("stage")).and_then(Value::as_str),
        explain.and_then(|e| e.get("note")).and_then(Value::as_str),
        answer.pointer("/skipped/reason").and_then(Value::as_str),
    ]
    .into_iter()
    .flatten()
    {
        text.push_str(part);
        text.push('\n');
    }
    (verdict, text)
}

/// The cause of one FAIL: a noted one, or the answer's own words.
fn cause_of(noted: &[Noted<'_>], rule: &str, verdict: &str, text: &str) -> (String, bool) {
    let hit = noted.iter().find(|n| {
        (n.matches.is_empty() || n.matches.iter().any(|m| text.contains(m)))
            && (n.rules.is_empty() || n.rules.contains(&rule))
            && n.answer.is_none_or(|a| a == verdict)
    });
    if let Some(n) = hit {
        return (n.text.to_owned(), true);
    }
    let first = text.lines().next().unwrap_or_default();
    let words = match verdict {
        "accept" => "accepted a stream it must reject".to_owned(),
        "reject" if !first.is_empty() => format!("rejected: {}", blank(first)),
        "reject" => "rejected, saying nothing".to_owned(),
        other => format!("answered {other}"),
    };
    (words, false)
}

/// A message with its particulars blanked (numbers → `N`, quoted or
/// backticked names → `…`), cut to 100 characters: alike failures group.
fn blank(message: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut last_digit = false;
    for ch in message.chars() {
        if let Some(q) = quote {
            if ch == q {
                quote = None;
                out.push(q);
            }
            continue;
        }
        if ch == '"' || ch == '`' || ch == '\'' {
            quote = Some(ch);
            out.push(ch);
            out.push('…');
            last_digit = false;
            continue;
        }
        if ch.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        out.push(ch);
    }
    let cut: String = out.chars().take(100).collect();
    if cut.len() < out.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

fn add<'c>(causes: &'c mut Vec<Cause>, text: String, noted: bool, rule: &str) -> &'c mut Cause {
    let at = match causes.iter().position(|c| c.text == text) {
        Some(i) => i,
        None => {
            causes.push(Cause {
                text,
                noted,
                cases: 0,
                findings: 0,
                fuzz_cases: 0,
                rules: Vec::new(),
            });
            causes.len() - 1
        }
    };
    let c = &mut causes[at];
    if !c.rules.iter().any(|r| r == rule) {
        c.rules.push(rule.to_owned());
    }
    c
}

/// The causes of `suite`'s FAILs and `fuzz`'s findings, most cases first
/// (noted before unnoted at equal counts); `keys`: the implementation's
/// label and name, as the notes key it.
pub fn causes(
    notes: &Notes,
    keys: &[&str],
    suite: Option<&Record>,
    fuzz: Option<&Record>,
) -> Vec<Cause> {
    let noted = noted(notes, keys);
    let mut out: Vec<Cause> = Vec::new();
    for c in suite
        .map(|r| r.cases.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|c| c.score == Score::Fail)
    {
        let (text, is_noted) = case_cause(&noted, c);
        add(&mut out, text, is_noted, &c.group).cases += 1;
    }
    for f in fuzz
        .map(|r| r.findings.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|f| f.score == Score::Fail)
    {
        let (verdict, text) = said(&f.shrunk_answer, None, None);
        let (text, is_noted) = cause_of(&noted, &f.rule, &verdict, &text);
        let c = add(&mut out, text, is_noted, &f.rule);
        c.findings += 1;
        c.fuzz_cases += f.cases;
    }
    out.sort_by_key(|c| (std::cmp::Reverse(c.cases as u64 + c.fuzz_cases), !c.noted));
    out
}

fn case_cause(noted: &[Noted<'_>], c: &Case) -> (String, bool) {
    let (verdict, text) = said(&c.answer, c.message.as_deref(), c.explain.as_ref());
    cause_of(noted, &c.group, &verdict, &text)
}

impl Cause {
    /// What it explains, in words: "3 suite cases, 1 fuzz finding (12
    /// campaign cases)".
    pub fn counts(&self) -> String {
        let mut counts = Vec::new();
        if self.cases > 0 {
            let s = if self.cases == 1 { "" } else { "s" };
            counts.push(format!("{} suite case{s}", self.cases));
        }
        if self.findings > 0 {
            let s = if self.findings == 1 { "" } else { "s" };
            counts.push(format!(
                "{} fuzz finding{s} ({} campaign cases)",
                self.findings, self.fuzz_cases
            ));
        }
        counts.join(", ")
    }
}

/// `1 cause: …` lines, for the matrix page.
pub fn lines(causes: &[Cause], shown: usize) -> Vec<String> {
    causes
        .iter()
        .take(shown)
        .map(|c| {
            let rules: Vec<String> = c.rules.iter().take(6).map(|r| format!("`{r}`")).collect();
            let more = c.rules.len().saturating_sub(6);
            format!(
                "{}{} — {}; rules: {}{}",
                if c.noted { "" } else { "no noted cause: " },
                super::md::text(&c.text),
                c.counts(),
                rules.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )
        })
        .collect()
}

/// One implementation's causes, as the matrix page lists them.
#[derive(Debug, Clone)]
pub struct Group {
    /// Its row's label (a variant run's: the label with the suite's name).
    pub label: String,
    /// A variant run's suite description (`suites/README.md`); `None` for
    /// an implementation's own suite run and campaign.
    pub variant: Option<String>,
    pub causes: Vec<Cause>,
}

impl Group {
    /// Suite FAILs and fuzz findings its causes explain, together.
    pub fn totals(&self) -> (usize, usize) {
        let cases = self.causes.iter().map(|c| c.cases).sum();
        let findings = self.causes.iter().map(|c| c.findings).sum();
        (cases, findings)
    }
}

/// Every consumer's causes: each implementation's suite run and campaign
/// together (a campaign with no suite run on its own), then each variant
/// run's. What the Markdown and HTML pages both draw.
pub fn groups(m: &Merged, notes: &Notes) -> Vec<Group> {
    let mut out = Vec::new();
    for c in &m.columns {
        let name = c.record.header.implementation.name.as_str();
        let fuzz = m.fuzz_of(&c.label).map(|f| &f.record);
        out.push(Group {
            label: c.label.clone(),
            variant: None,
            causes: causes(notes, &[&c.label, name], Some(&c.record), fuzz),
        });
    }
    for f in m
        .fuzz
        .iter()
        .filter(|f| !m.columns.iter().any(|c| c.label == f.label))
    {
        let name = f.record.header.implementation.name.as_str();
        out.push(Group {
            label: f.label.clone(),
            variant: None,
            causes: causes(notes, &[&f.label, name], None, Some(&f.record)),
        });
    }
    for v in &m.variants {
        let name = v.record.header.implementation.name.as_str();
        let suite = &v.record.header.suite;
        out.push(Group {
            label: super::matrix::variant_label(&v.label, suite),
            variant: Some(variant_words(suite)),
            causes: causes(notes, &[&v.label, name], Some(&v.record), None),
        });
    }
    out
}

/// A variant suite's description, from the suite file.
pub fn variant_words(suite: &str) -> String {
    crate::suite::Suite::find(suite)
        .map(|s| s.file.description)
        .unwrap_or_else(|_| format!("suite {suite}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn notes() -> Notes {
        json!({"X": {"causes": [
            {"cause": "ids must be UUIDs", "matches": ["UUID parsing failed"], "answer": "reject"},
            {"cause": "stops reading at the terminal event", "matches": ["never read"], "rules": ["run.after-finished"]}
        ]}})
        .as_object()
        .cloned()
        .unwrap_or_default()
    }

    #[test]
    fn a_noted_cause_takes_every_fail_it_matches_and_the_rest_is_said_as_such() {
        let n = notes();
        let noted = noted(&n, &["X"]);
        let uuid = "JSON: UUID parsing failed: invalid character\n";
        assert_eq!(
            cause_of(&noted, "valid", "reject", uuid),
            ("ids must be UUIDs".into(), true)
        );
        // The answer kind and the rule narrow a cause.
        assert!(!cause_of(&noted, "valid", "accept", uuid).1);
        let never = "the Session stops reading; never read: 2..3\n";
        assert!(cause_of(&noted, "run.after-finished", "accept", never).1);
        assert_eq!(
            cause_of(&noted, "run.after-error", "accept", never),
            ("accepted a stream it must reject".into(), false)
        );
        assert_eq!(
            cause_of(
                &noted,
                "valid",
                "reject",
                "missing field `tools` at line 1 column 77\n"
            ),
            (
                "rejected: missing field `…` at line N column N".into(),
                false
            )
        );
    }

    #[test]
    fn blanking_groups_alike_messages() {
        assert_eq!(
            blank("TOOL_CALL_RESULT for \"tc-12\" at 3"),
            blank("TOOL_CALL_RESULT for \"tc-7\" at 10")
        );
    }
}
