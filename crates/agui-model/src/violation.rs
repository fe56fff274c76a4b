//! A reported violation and the stream's verdict.

use crate::rules::{RuleId, Severity};
use serde::{Deserialize, Serialize};

/// One rule broken at one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub rule: RuleId,
    /// 0-based index of the event where the violation becomes detectable;
    /// the number of events when detected at end of input.
    pub index: usize,
    /// What and where: names the ids, owners and field path involved.
    pub message: String,
    /// JSON path of the offending field inside the event (schema rules):
    /// dotted (`delta[0].path`), or a JSON Pointer (parse notes);
    /// [`Violation::pointer`] gives the pointer either way.
    pub path: Option<String>,
    /// The rule's severity, or the one a rule configuration gave it
    /// ([`crate::RuleLevels`]).
    pub severity: Severity,
    /// Index of the earlier event the violation refers to, where the rule
    /// has one: the opener on record of an entity, the run's `RUN_STARTED`,
    /// the terminal event of the previous run.
    pub related: Option<usize>,
}

impl Violation {
    pub fn new(rule: RuleId, index: usize, message: impl Into<String>) -> Self {
        Violation {
            rule,
            index,
            message: message.into(),
            path: None,
            severity: rule.rule().severity,
            related: None,
        }
    }

    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The same violation, referring to event `index`.
    pub fn related_to(mut self, index: usize) -> Self {
        self.related = Some(index);
        self
    }

    /// The offending field as an RFC 6901 JSON Pointer (`/delta/0/path`).
    pub fn pointer(&self) -> Option<String> {
        self.path.as_deref().map(pointer)
    }

    /// The rule's row of the rule catalogue ([`doc_url`]).
    pub fn doc(&self) -> String {
        doc_url(self.rule.rule().id)
    }
}

/// The rule catalogue's page, relative to the repository.
pub const RULES_DOC: &str = "docs/rules.md";

/// Where the published docs/ directory lives, once set ([`set_docs_base`]).
static DOCS_BASE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Makes every documentation link absolute: `BASE/rules.md#RULE-ID`,
/// where BASE is the URL the repository's `docs/` directory is published
/// at (`check --docs-url`). Process-wide because a violation's machine
/// form is written by serde, which has no room for a caller's setting;
/// the first call wins.
pub fn set_docs_base(base: &str) {
    let _ = DOCS_BASE.set(base.trim_end_matches('/').to_owned());
}

/// The docs base set by [`set_docs_base`], if any.
pub fn docs_base() -> Option<&'static str> {
    DOCS_BASE.get().map(String::as_str)
}

/// A rule's row of the catalogue (each has an `<a id="RULE-ID">` anchor):
/// `docs/rules.md#run.unterminated`, relative to the repository, or under
/// the docs base when one is set.
pub fn doc_url(rule_id: &str) -> String {
    match docs_base() {
        Some(base) => format!("{base}/rules.md#{rule_id}"),
        None => format!("{RULES_DOC}#{rule_id}"),
    }
}

/// A violation path as a JSON Pointer: one that is one already (empty, or
/// starting with `/`) as it is; a dotted path (`a[0].b`, schema field
/// names, which hold no `.` or `[`) split into its keys and indexes.
pub fn pointer(path: &str) -> String {
    if path.is_empty() || path.starts_with('/') {
        return path.to_owned();
    }
    let mut out = String::with_capacity(path.len() + 2);
    let push = |out: &mut String, key: &str| {
        out.push('/');
        out.push_str(&key.replace('~', "~0").replace('/', "~1"));
    };
    let mut key = String::new();
    let mut after_index = false;
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        match c {
            '.' if !after_index || !key.is_empty() => {
                push(&mut out, &key);
                key.clear();
            }
            '.' => {}
            '[' => {
                if !key.is_empty() || !after_index && out.is_empty() {
                    push(&mut out, &key);
                    key.clear();
                }
                let index: String = chars.by_ref().take_while(|&c| c != ']').collect();
                push(&mut out, &index);
                after_index = true;
                continue;
            }
            _ => key.push(c),
        }
        after_index = false;
    }
    if !key.is_empty() || !after_index {
        push(&mut out, &key);
    }
    out
}

/// The machine form of a violation (`check --format json`).
impl Serialize for Violation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let rule = self.rule.rule();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("rule", rule.id)?;
        m.serialize_entry("index", &self.index)?;
        m.serialize_entry("severity", self.severity.as_str())?;
        m.serialize_entry("obligation", rule.obligation.as_str())?;
        m.serialize_entry("message", &self.message)?;
        if let Some(p) = &self.path {
            m.serialize_entry("path", p)?;
            m.serialize_entry("pointer", &pointer(p))?;
        }
        if let Some(r) = self.related {
            m.serialize_entry("related", &r)?;
        }
        m.serialize_entry("doc", &self.doc())?;
        m.end()
    }
}

/// A stream is rejected exactly when some violation has producer severity
/// `error`; warnings are listed but leave it accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Accept,
    Reject,
    /// A checker limit left part of the stream unjudged before any error
    /// was found (docs/rules.md "Checker limits"); never a consumer's answer.
    Inconclusive,
}

impl Verdict {
    pub fn of(violations: &[Violation]) -> Verdict {
        if violations.iter().any(|v| v.severity == Severity::Error) {
            Verdict::Reject
        } else {
            Verdict::Accept
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accept => "accept",
            Verdict::Reject => "reject",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

#[cfg(test)]
mod pointer_tests {
    use super::pointer;

    #[test]
    fn dotted_paths_become_json_pointers() {
        assert_eq!(pointer("runId"), "/runId");
        assert_eq!(pointer("delta[0].path"), "/delta/0/path");
        assert_eq!(
            pointer("messages[0].toolCalls[1].function.name"),
            "/messages/0/toolCalls/1/function/name"
        );
        assert_eq!(pointer("delta[2][1]"), "/delta/2/1");
        // Parse notes give pointers already; the top is the empty pointer.
        assert_eq!(pointer("/o/a~1b"), "/o/a~1b");
        assert_eq!(pointer(""), "");
    }
}
