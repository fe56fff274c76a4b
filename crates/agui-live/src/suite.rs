//! The producer suite: `suites/producer/*.json`, one `RunAgentInput` per
//! file, each sent to the producer and its stream scored against every
//! rule of error and warning severity.
//!
//! Scores: FAIL when an error-severity violation was found in the events
//! received or in the exchange (`transport.*`: a non-2xx status, a body
//! cut inside a run, an unclosed event); otherwise ERRORED when the
//! exchange failed in a way no rule judges (our own time limit, no events
//! — the end-of-input rules are not held against a stream we cut);
//! otherwise WARN when warnings were found, PASS when nothing was.

use crate::capture::CaptureWriter;
use crate::live::{self, LiveRun, Options};
use agui_model::{Severity, Violation};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The score of one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    Pass,
    Warn,
    Fail,
    Errored,
}

impl Score {
    pub const ALL: [Score; 4] = [Score::Pass, Score::Warn, Score::Fail, Score::Errored];

    pub fn as_str(self) -> &'static str {
        match self {
            Score::Pass => "PASS",
            Score::Warn => "WARN",
            Score::Fail => "FAIL",
            Score::Errored => "ERRORED",
        }
    }

    /// FAIL and ERRORED make the suite run unsuccessful.
    pub fn is_bad(self) -> bool {
        matches!(self, Score::Fail | Score::Errored)
    }
}

/// One input of the suite.
#[derive(Debug, Clone)]
pub struct SuiteInput {
    /// The file name without `.json`.
    pub id: String,
    pub path: PathBuf,
    /// The input, or why the file could not be used.
    pub input: Result<Value, String>,
}

/// The producer suite built into the binary (`agui_assets`), used when no
/// `suites/producer/` is found nearer.
pub fn built_in_dir() -> PathBuf {
    Path::new(agui_assets::ROOT).join("suites/producer")
}

/// Whether `path` names embedded files (a folder or one file).
fn is_embedded(path: &Path) -> bool {
    agui_assets::resolve(path)
        .is_some_and(|rel| agui_assets::is_dir(&rel) || agui_assets::get(&rel).is_some())
}

/// Finds a suite: a path to a folder or a `.json` file, or a name looked up
/// as `suites/NAME/` in the current folder and its ancestors, then as the
/// built-in producer suite when the name is `producer`.
pub fn find(name_or_path: &str) -> anyhow::Result<PathBuf> {
    let p = Path::new(name_or_path);
    if p.is_dir() || p.is_file() || is_embedded(p) {
        return Ok(p.to_path_buf());
    }
    if p.components().count() == 1 {
        let cwd = std::env::current_dir()?;
        for dir in cwd.ancestors() {
            let candidate = dir.join("suites").join(name_or_path);
            if candidate.is_dir() {
                return Ok(candidate);
            }
        }
        if name_or_path == "producer" {
            return Ok(built_in_dir());
        }
    }
    anyhow::bail!(
        "producer suite `{name_or_path}` not found (a folder of RunAgentInput .json files, a .json file, or suites/NAME/)"
    )
}

/// Loads the inputs of a suite folder (every `*.json`, sorted by name) or
/// of one file.
pub fn load(path: &Path) -> anyhow::Result<Vec<SuiteInput>> {
    if let Some(rel) = agui_assets::resolve(path) {
        return load_embedded(path, &rel);
    }
    let files = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    if files.is_empty() {
        anyhow::bail!("{}: no .json inputs", path.display());
    }
    Ok(files
        .into_iter()
        .map(|p| SuiteInput {
            id: p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            input: crate::input::load(&p).map_err(|e| format!("{e:#}")),
            path: p,
        })
        .collect())
}

/// [`load`] for the embedded folder or file `rel` (shown as `path`).
fn load_embedded(path: &Path, rel: &str) -> anyhow::Result<Vec<SuiteInput>> {
    let files: Vec<&agui_assets::File> = match agui_assets::get(rel) {
        Some(f) => vec![f],
        None => agui_assets::under(rel)
            .filter(|f| f.path.ends_with(".json") && !f.path[rel.len() + 1..].contains('/'))
            .collect(),
    };
    if files.is_empty() {
        anyhow::bail!("{}: no .json inputs", path.display());
    }
    Ok(files
        .into_iter()
        .map(|f| {
            let shown = Path::new(agui_assets::ROOT).join(f.path);
            let text = std::str::from_utf8(f.bytes).map_err(|e| format!("not UTF-8: {e}"));
            SuiteInput {
                id: shown
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                input: text
                    .and_then(|t| crate::input::parse(t).map_err(|e| format!("{e:#}")))
                    .map_err(|e| format!("{}: {e}", shown.display())),
                path: shown,
            }
        })
        .collect())
}

/// The result of one input.
#[derive(Debug, Clone)]
pub struct InputResult {
    pub id: String,
    pub score: Score,
    pub events: usize,
    pub violations: Vec<Violation>,
    /// Why the exchange failed, if it did.
    pub failure: Option<String>,
    pub status: Option<u16>,
    pub elapsed: Duration,
}

impl InputResult {
    pub fn count(&self, severity: Severity) -> usize {
        self.violations
            .iter()
            .filter(|v| v.severity == severity)
            .count()
    }
}

/// Scores a live run; see the module documentation.
pub fn score(run: &LiveRun) -> Score {
    let events = run.report.events;
    let counts = |v: &&Violation| run.failure.is_none() || v.index < events;
    let mut held = run.report.violations.iter().filter(counts);
    if held.clone().any(|v| v.severity == Severity::Error) {
        Score::Fail
    } else if run.failure.is_some() {
        Score::Errored
    } else if held.any(|v| v.severity == Severity::Warning) {
        Score::Warn
    } else {
        Score::Pass
    }
}

/// Sends every input in turn; `each` sees each result as it is known.
/// With `captures`, each stream is saved as `DIR/ID.jsonl`.
pub fn run(
    url: &str,
    inputs: &[SuiteInput],
    opts: &Options,
    captures: Option<&Path>,
    each: &mut dyn FnMut(&InputResult),
) -> Vec<InputResult> {
    let mut results = Vec::with_capacity(inputs.len());
    for input in inputs {
        let r = run_one(url, input, opts, captures);
        each(&r);
        results.push(r);
    }
    results
}

fn run_one(url: &str, input: &SuiteInput, opts: &Options, captures: Option<&Path>) -> InputResult {
    let start = Instant::now();
    let errored = |why: String, status: Option<u16>| InputResult {
        id: input.id.clone(),
        score: Score::Errored,
        events: 0,
        violations: Vec::new(),
        failure: Some(why),
        status,
        elapsed: start.elapsed(),
    };
    let value = match &input.input {
        Ok(v) => v,
        Err(e) => return errored(e.clone(), None),
    };
    let mut writer = match captures {
        None => None,
        Some(dir) => {
            let path = dir.join(format!("{}.jsonl", input.id));
            match std::fs::create_dir_all(dir).and_then(|()| std::fs::File::create(&path)) {
                Ok(f) => Some(CaptureWriter::new(f)),
                Err(e) => return errored(format!("cannot write {}: {e}", path.display()), None),
            }
        }
    };
    match live::check_url(url, value, opts, writer.as_mut(), &mut |_| {}) {
        Err(e) => {
            let status = match &e {
                crate::LiveError::Status { status, .. } => Some(*status),
                _ => None,
            };
            errored(e.to_string(), status)
        }
        Ok(run) => {
            let mut failure = run.failure.as_ref().map(ToString::to_string);
            if let Some(e) = &run.capture_error {
                failure.get_or_insert_with(|| format!("saving the capture failed: {e}"));
            }
            let mut s = score(&run);
            if run.capture_error.is_some() && s == Score::Pass {
                s = Score::Errored;
            }
            InputResult {
                id: input.id.clone(),
                score: s,
                events: run.report.events,
                violations: run.report.violations,
                failure,
                status: Some(run.status),
                elapsed: start.elapsed(),
            }
        }
    }
}

/// Violations listed per input in the text report.
const SHOWN: usize = 10;

/// The text report: one line per input, its violations under it, totals.
pub fn render_text(suite: &str, url: &str, results: &[InputResult]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "producer suite `{suite}` against {url}");
    let width = results.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for r in results {
        let mut what = plural(r.events, "event");
        let (e, w) = (r.count(Severity::Error), r.count(Severity::Warning));
        if e + w > 0 {
            let _ = write!(what, ", {}, {}", plural(e, "error"), plural(w, "warning"));
        }
        let _ = writeln!(out, "{:<7} {:<width$}  {what}", r.score.as_str(), r.id);
        if let Some(f) = &r.failure {
            let _ = writeln!(out, "        {f}");
        }
        if r.score != Score::Pass {
            for v in r.violations.iter().take(SHOWN) {
                let _ = writeln!(
                    out,
                    "        #{:<5} {:<7} {}: {}",
                    v.index,
                    v.severity.as_str(),
                    v.rule,
                    v.message
                );
            }
            if r.violations.len() > SHOWN {
                let _ = writeln!(
                    out,
                    "        … {} more (`--format json` lists them)",
                    r.violations.len() - SHOWN
                );
            }
        }
    }
    let tally = tally(results);
    let parts: Vec<String> = Score::ALL
        .iter()
        .map(|s| format!("{} {}", tally[s], s.as_str()))
        .collect();
    let _ = writeln!(
        out,
        "summary: {} — {}",
        plural(results.len(), "input"),
        parts.join(", ")
    );
    out
}

fn tally(results: &[InputResult]) -> BTreeMap<Score, usize> {
    let mut t: BTreeMap<Score, usize> = Score::ALL.iter().map(|&s| (s, 0)).collect();
    for r in results {
        *t.entry(r.score).or_default() += 1;
    }
    t
}

/// `--format json`: the line of one input.
pub fn json_line(r: &InputResult) -> Value {
    let mut v = json!({
        "id": r.id,
        "score": r.score.as_str(),
        "events": r.events,
        "errors": r.count(Severity::Error),
        "warnings": r.count(Severity::Warning),
        "violations": r.violations.iter().filter_map(|v| serde_json::to_value(v).ok()).collect::<Vec<_>>(),
        "elapsed_us": r.elapsed.as_micros() as u64,
    });
    if let Some(s) = r.status {
        v["status"] = json!(s);
    }
    if let Some(f) = &r.failure {
        v["failure"] = json!(f);
    }
    v
}

/// `--format json`: the closing `{"summary": …}` line.
pub fn summary_line(suite: &str, url: &str, results: &[InputResult]) -> Value {
    let scores: serde_json::Map<String, Value> = tally(results)
        .into_iter()
        .map(|(s, n)| (s.as_str().to_owned(), json!(n)))
        .collect();
    let mut rules: BTreeMap<String, usize> = BTreeMap::new();
    for v in results.iter().flat_map(|r| &r.violations) {
        *rules.entry(v.rule.to_string()).or_default() += 1;
    }
    json!({"summary": {
        "suite": suite,
        "producer": url,
        "inputs": results.len(),
        "scores": scores,
        "rules": rules,
    }})
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
