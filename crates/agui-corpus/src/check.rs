//! Checking a whole corpus directory: loading, gates, and every case
//! against the reference (what `agui-conform corpus check` prints).

use crate::gate;
use crate::load::{Problem, load_dir};
use crate::reference::run_case;
use std::path::{Path, PathBuf};

/// One gate and what it found.
#[derive(Debug, Clone)]
pub struct GateResult {
    /// `gate/…`, as the test harness names it.
    pub name: &'static str,
    pub problems: Vec<String>,
}

/// A case the reference disagrees with.
#[derive(Debug, Clone)]
pub struct CaseFailure {
    pub id: String,
    pub path: PathBuf,
    /// The readable mismatch (`reference::Mismatch`'s display).
    pub detail: String,
}

/// The result of checking a corpus directory.
#[derive(Debug, Clone, Default)]
pub struct CheckSummary {
    /// Case files found (loaded and malformed).
    pub files: usize,
    pub cases: usize,
    pub passed: usize,
    pub failed: Vec<CaseFailure>,
    pub malformed: Vec<Problem>,
    pub gates: Vec<GateResult>,
}

impl CheckSummary {
    /// True when every case loaded and passed and every gate passed.
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && self.malformed.is_empty() && self.gates_failed() == 0
    }

    /// Number of distinct files with at least one problem.
    pub fn malformed_files(&self) -> usize {
        let mut paths: Vec<&Path> = self.malformed.iter().map(|p| p.path.as_path()).collect();
        paths.sort();
        paths.dedup();
        paths.len()
    }

    /// Number of gates that found problems.
    pub fn gates_failed(&self) -> usize {
        self.gates.iter().filter(|g| !g.problems.is_empty()).count()
    }
}

/// Which gates a folder is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gates {
    /// The golden corpus: every gate, coverage of the catalogue included.
    #[default]
    Golden,
    /// A vendor's own folder: what `agui-conform run` needs of it (the case
    /// schema, the id rule), and the reference comparison; no coverage, no
    /// golden areas, no schema-valid-events rule.
    Vendor,
}

/// The golden gates, in the order the test harness lists them.
pub fn gates(corpus: &crate::load::Corpus) -> Vec<GateResult> {
    gates_for(corpus, Gates::Golden)
}

/// The gates of `which`.
pub fn gates_for(corpus: &crate::load::Corpus, which: Gates) -> Vec<GateResult> {
    let mut g = Vec::new();
    if which == Gates::Golden {
        g.push(GateResult {
            name: "gate/every-rule-has-cases",
            problems: gate::every_rule_has_cases(&corpus.cases),
        });
    }
    g.push(GateResult {
        name: "gate/schema",
        problems: gate::schema(corpus),
    });
    if which == Gates::Golden {
        g.push(GateResult {
            name: "gate/events-schema-valid",
            problems: gate::events_schema_valid(&corpus.cases),
        });
    }
    g.push(GateResult {
        name: "gate/ids",
        problems: gate::ids(corpus),
    });
    if which == Gates::Golden {
        g.push(GateResult {
            name: "gate/areas",
            problems: gate::areas(&corpus.cases),
        });
    }
    if which == Gates::Golden {
        g.push(GateResult {
            name: "gate/official-outcomes",
            problems: gate::official_outcomes(&corpus.cases),
        });
    }
    g
}

/// The recorded quotes of the corpus in `dir` ([`gate::QUOTES_FILE`]):
/// `None` when there is no such file, an error when it cannot be read or
/// parsed.
pub fn read_quotes(dir: &Path) -> Option<Result<Vec<gate::Quote>, String>> {
    let path = dir.join(gate::QUOTES_FILE);
    if !path.exists() {
        return None;
    }
    Some(
        agui_model::bounded::read_to_string(&path, agui_model::bounded::CONFIG_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|t| gate::parse_quotes(&t))
            .map_err(|e| format!("{}: {e}", path.display())),
    )
}

/// The quote gates. `gate/spec-quotes`: every case's `spec` is a recorded
/// quote, or, with no record, occurs in the spec texts (when given).
/// `gate/quotes-verbatim` (record and spec texts both there): every
/// recorded quote is in its source verbatim and cited by a case.
pub fn quote_gates(
    corpus: &crate::load::Corpus,
    quotes: Option<Result<Vec<gate::Quote>, String>>,
    spec_texts: Option<&[String]>,
) -> Vec<GateResult> {
    let mut out = Vec::new();
    match (quotes, spec_texts) {
        (Some(Ok(quotes)), texts) => {
            let recorded: Vec<String> = quotes.iter().map(|q| q.text.clone()).collect();
            out.push(GateResult {
                name: "gate/spec-quotes",
                problems: gate::spec_quotes(&corpus.cases, &recorded),
            });
            if let Some(t) = texts {
                out.push(GateResult {
                    name: "gate/quotes-verbatim",
                    problems: gate::quotes_verbatim(&quotes, t, &corpus.cases),
                });
            }
        }
        (Some(Err(e)), _) => out.push(GateResult {
            name: "gate/spec-quotes",
            problems: vec![e],
        }),
        (None, Some(t)) => out.push(GateResult {
            name: "gate/spec-quotes",
            problems: gate::spec_quotes(&corpus.cases, t),
        }),
        (None, None) => {}
    }
    out
}

/// Loads `dir`, runs the gates and every case. Fails only when `dir`
/// cannot be listed.
pub fn check_dir(dir: &Path) -> std::io::Result<CheckSummary> {
    check_dir_with_spec(dir, None)
}

/// [`check_dir`], plus the quote gates ([`quote_gates`]) with the spec
/// texts in `spec_dir` (`docs/rules.md` and `subagents-draft.txt`) when given.
/// Fails when `dir` cannot be listed or the spec files cannot be read.
pub fn check_dir_with_spec(dir: &Path, spec_dir: Option<&Path>) -> std::io::Result<CheckSummary> {
    check_dir_with(dir, spec_dir, Gates::Golden)
}

/// [`check_dir_with_spec`] holding the folder to the gates of `which`.
pub fn check_dir_with(
    dir: &Path,
    spec_dir: Option<&Path>,
    which: Gates,
) -> std::io::Result<CheckSummary> {
    let texts = spec_dir.map(gate::read_spec_texts).transpose()?;
    let corpus = load_dir(dir)?;
    let mut s = CheckSummary {
        cases: corpus.cases.len(),
        gates: {
            let mut g = gates_for(&corpus, which);
            g.extend(quote_gates(&corpus, read_quotes(dir), texts.as_deref()));
            g
        },
        ..CheckSummary::default()
    };
    for c in &corpus.cases {
        match run_case(&c.case) {
            Ok(()) => s.passed += 1,
            Err(m) => s.failed.push(CaseFailure {
                id: c.case.id.clone(),
                path: c.path.clone(),
                detail: m.to_string(),
            }),
        }
    }
    s.malformed = corpus.malformed;
    s.files = s.cases + s.malformed_files();
    Ok(s)
}
