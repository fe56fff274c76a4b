//! The producer suite: `suites/producer/*.json`, one scenario per file —
//! a `RunAgentInput`, or steps where each later request is built from the
//! producer's answers ([`crate::scenario`]) — each sent to the producer
//! and its whole conversation (every step's stream, one after the other,
//! as one multi-run stream) checked against every rule, so cross-run
//! rules (`lifecycle.resumed-not-suspended`) are judged too.
//!
//! A refusal — a 4xx answer with a body — is the producer declining the
//! request, not a broken exchange: where the scenario says the producer
//! may refuse it (`mayRefuse`, a state that does not fit its model, say)
//! it scores SKIPPED with that reason; elsewhere it is "the producer
//! refused a valid input" (FAIL, kept apart from the violations), as a run
//! ended by `RUN_ERROR` always is (its message cannot tell a deliberate
//! refusal from a failure). A 5xx answer, or a 4xx without a body, is a
//! broken exchange: `transport.status`.
//!
//! Scores: FAIL when an error-severity violation was found in the events
//! received or in the exchange (`transport.*`: a 5xx status, a body
//! cut inside a run, an unclosed event), or when the producer refused a
//! valid input; otherwise ERRORED when the exchange
//! failed in a way no rule judges (our own time limit, the connection
//! let go after `--run-end-grace`, no events — the
//! end-of-input rules are not held against a stream we cut); otherwise
//! SKIPPED when a step's precondition was not met (the producer never
//! interrupted, so there was nothing to resume) or the producer refused a
//! request it may refuse: INFO, never PASS;
//! otherwise WARN when warnings were found, PASS when nothing was.

use crate::capture::CaptureWriter;
use crate::live::{self, Options, Progress, Seen};
use crate::outcome::{Outcome, RunLog, RunRecord};
use crate::redirect::Hop;
use crate::scenario::{self, Answer, Digest, Scenario};
use agui_model::{Checker, Severity, Violation};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The score of one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    Pass,
    Warn,
    /// A step's precondition was not met: nothing judged it (INFO).
    Skipped,
    Fail,
    Errored,
}

impl Score {
    pub const ALL: [Score; 5] = [
        Score::Pass,
        Score::Warn,
        Score::Skipped,
        Score::Fail,
        Score::Errored,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Score::Pass => "PASS",
            Score::Warn => "WARN",
            Score::Skipped => "SKIPPED",
            Score::Fail => "FAIL",
            Score::Errored => "ERRORED",
        }
    }

    /// FAIL and ERRORED make the suite run unsuccessful.
    pub fn is_bad(self) -> bool {
        matches!(self, Score::Fail | Score::Errored)
    }
}

/// One scenario of the suite.
#[derive(Debug, Clone)]
pub struct SuiteInput {
    /// The file name without `.json`.
    pub id: String,
    pub path: PathBuf,
    /// The scenario, or why the file could not be used.
    pub input: Result<Scenario, String>,
}

/// A scenario file's text read.
fn parse_scenario(text: &str) -> Result<Scenario, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    Scenario::from_json(v)
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

/// The name of the built-in producer suite.
pub const BUILT_IN: &str = "producer";

/// `suites/NAME/` in the current folder or its nearest ancestor that has
/// one: the local suite [`find`] takes for `NAME`.
pub fn find_local(name: &str) -> anyhow::Result<Option<PathBuf>> {
    let cwd = std::env::current_dir()?;
    Ok(cwd
        .ancestors()
        .map(|dir| dir.join("suites").join(name))
        .find(|candidate| candidate.is_dir()))
}

/// Whether `dir` holds scenario files (`*.json` but `*.schema.json`, which
/// a folder of JSON Schemas such as `suites/protocol/` holds).
fn holds_scenarios(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".json") && !name.ends_with(".schema.json") && e.path().is_file()
        })
    })
}

/// The names of the producer suites in `suites/` folders of the current
/// folder and its ancestors (each sub-folder holding scenario files),
/// sorted, each once.
pub fn local_names() -> Vec<String> {
    let mut names: Vec<String> = agui_assets::local_suite_entries()
        .into_iter()
        .filter(|e| holds_scenarios(&e.path()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// What a producer suite holds, in one line: `7 scenarios: a, b, …`.
pub fn describe(path: &Path) -> anyhow::Result<String> {
    let inputs = load(path)?;
    let ids: Vec<&str> = inputs.iter().map(|i| i.id.as_str()).collect();
    let unreadable = inputs.iter().filter(|i| i.input.is_err()).count();
    let mut text = format!(
        "{} scenario{} sent to a producer: {}",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" },
        ids.join(", ")
    );
    if unreadable > 0 {
        text.push_str(&format!(" ({unreadable} unreadable)"));
    }
    Ok(text)
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
            input: agui_model::bounded::read_to_string(&p, agui_model::bounded::CONFIG_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|t| parse_scenario(&t))
                .map_err(|e| format!("{}: {e}", p.display())),
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
                    .and_then(parse_scenario)
                    .map_err(|e| format!("{}: {e}", shown.display())),
                path: shown,
            }
        })
        .collect())
}

/// One request of a scenario and what came back.
#[derive(Debug, Clone)]
pub struct StepResult {
    /// `input`, `resume`, `continue` or `toolResults`.
    pub kind: &'static str,
    pub status: Option<u16>,
    /// Index of this step's first event in the conversation.
    pub start: usize,
    /// Events of this step's answer.
    pub events: usize,
    /// How the runs of this step's answer ended.
    pub outcomes: Vec<&'static str>,
    /// The request sent (to reproduce the step by hand).
    pub request: Value,
    /// Each 307/308 hop followed to this step's response.
    pub redirects: Vec<Hop>,
}

/// The result of one scenario.
#[derive(Debug, Clone)]
pub struct InputResult {
    pub id: String,
    pub score: Score,
    /// Events of the whole conversation.
    pub events: usize,
    /// Violations of the whole conversation, the `transport.*` ones of
    /// each exchange among them, indexed in the conversation.
    pub violations: Vec<Violation>,
    /// Why the exchange failed, if it did.
    pub failure: Option<String>,
    /// The producer refused a valid input: `RUN_ERROR`, or a 4xx answer
    /// with a body that the scenario does not allow.
    pub refused: Option<String>,
    /// Why a step was not sent (its precondition was not met), or the
    /// refusal the scenario allows (`mayRefuse`).
    pub skipped: Option<String>,
    /// The status of the last response.
    pub status: Option<u16>,
    pub steps: Vec<StepResult>,
    /// How each run of the conversation ended.
    pub runs: Vec<RunRecord>,
    /// The conversation's events as received (data that was not JSON left
    /// out), for a run record: the first [`STREAM_KEEP_BYTES`] of them.
    pub stream: Vec<Value>,
    /// Events of the conversation past [`STREAM_KEEP_BYTES`], not kept.
    pub stream_left_out: usize,
    pub elapsed: Duration,
}

impl InputResult {
    /// Each 307/308 hop followed, step after step.
    pub fn redirects(&self) -> impl Iterator<Item = &Hop> {
        self.steps.iter().flat_map(|s| &s.redirects)
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.violations
            .iter()
            .filter(|v| v.severity == severity)
            .count()
    }
}

/// A result's score; see the module documentation. `events` is the number
/// of events received: when the exchange failed, what was found at the
/// end of input is not held against the producer.
fn score(r: &InputResult) -> Score {
    let counts = |v: &&Violation| r.failure.is_none() || v.index < r.events;
    let mut held = r.violations.iter().filter(counts);
    if r.refused.is_some() || held.clone().any(|v| v.severity == Severity::Error) {
        Score::Fail
    } else if r.failure.is_some() {
        Score::Errored
    } else if r.skipped.is_some() {
        Score::Skipped
    } else if held.any(|v| v.severity == Severity::Warning) {
        Score::Warn
    } else {
        Score::Pass
    }
}

/// How the suite is run beside the live options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Setup<'a> {
    /// Merged into every scenario's first request ([`crate::input::merge`]).
    pub base: Option<&'a Value>,
    /// Each conversation is saved as `DIR/ID.jsonl`.
    pub captures: Option<&'a Path>,
}

/// Runs every scenario in turn; `each` sees each result as it is known.
/// After a stop ([`Options::stop`]) no further scenario starts (the one
/// running ends with a `time` notice and scores ERRORED).
pub fn run(
    url: &str,
    inputs: &[SuiteInput],
    opts: &Options,
    setup: Setup<'_>,
    each: &mut dyn FnMut(&InputResult),
) -> Vec<InputResult> {
    let mut results = Vec::with_capacity(inputs.len());
    // A 4xx with a body is scored as a refusal, not `transport.status`.
    let opts = &Options {
        refusals: true,
        ..opts.clone()
    };
    for input in inputs {
        if opts.stop.requested().is_some() {
            break;
        }
        let r = run_one(url, input, opts, setup);
        each(&r);
        results.push(r);
    }
    results
}

/// The first request of a scenario: the base merged in, ids filled in,
/// a user message when it has none.
pub fn first_request(scenario: &Scenario, base: Option<&Value>) -> Value {
    let merged = match base {
        Some(b) => crate::input::merge(b, &scenario.first),
        None => scenario.first.clone(),
    };
    let mut request = match merged {
        Value::Object(m) => Value::Object(crate::input::complete(m)),
        other => other,
    };
    crate::input::ensure_user_message(&mut request);
    request
}

fn run_one(url: &str, input: &SuiteInput, opts: &Options, setup: Setup<'_>) -> InputResult {
    let start = Instant::now();
    let mut r = InputResult {
        id: input.id.clone(),
        score: Score::Errored,
        events: 0,
        violations: Vec::new(),
        failure: None,
        refused: None,
        skipped: None,
        status: None,
        steps: Vec::new(),
        runs: Vec::new(),
        stream: Vec::new(),
        stream_left_out: 0,
        elapsed: Duration::ZERO,
    };
    let scenario = match &input.input {
        Ok(s) => s,
        Err(e) => {
            r.failure = Some(e.clone());
            r.elapsed = start.elapsed();
            return r;
        }
    };
    // Runs ended so far, and the last one's projection: the next request
    // is built from the projection of a step's last run.
    let latest: Rc<RefCell<(usize, Option<Value>)>> = Rc::default();
    let sink = Rc::clone(&latest);
    let mut checker = Checker::with_projection_sink(move |run| {
        let mut l = sink.borrow_mut();
        l.0 += 1;
        l.1 = Some(run);
    });
    let mut runs = RunLog::new();
    // The conversation goes to its capture file as it arrives.
    let mut capture = match setup.captures.map(|dir| open_capture(dir, &input.id)) {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => {
            r.failure = Some(e);
            None
        }
        None => None,
    };
    let mut kept = Kept::new(STREAM_KEEP_BYTES);
    let mut request = first_request(scenario, setup.base);
    let mut found = live::Found::default();
    let kinds = std::iter::once(None).chain(scenario.then.iter().map(Some));
    for (n, step) in kinds.enumerate() {
        let (runs_before, projections_before, start) =
            (runs.runs().len(), latest.borrow().0, checker.events());
        let kind = step.map_or("input", scenario::Step::kind);
        let mut digest = Digest::default();
        let ex = live::exchange(
            url,
            &request,
            opts,
            &mut checker,
            &mut runs,
            &mut found,
            capture.as_mut(),
            &mut |p| {
                if let Progress::Event(Seen::Json { value, data }) = p {
                    digest.observe(value);
                    kept.push(data);
                }
            },
        );
        let ex = match ex {
            Ok(ex) => ex,
            Err(e) => {
                if let crate::LiveError::Status { status, .. } = &e {
                    r.status = Some(*status);
                }
                r.failure = Some(format!("step {} ({kind}): {e}", n + 1));
                break;
            }
        };
        r.status = ex.status;
        // The response is over: a run it ended is handed on now (the
        // projector waits for a late RUN_ERROR within one stream).
        checker.settle_projection();
        let new_runs = &runs.runs()[runs_before.min(runs.runs().len())..];
        r.steps.push(StepResult {
            kind,
            status: ex.status,
            start,
            events: checker.events() - start,
            outcomes: new_runs.iter().map(|run| run.outcome.as_str()).collect(),
            request: request.clone(),
            redirects: ex.redirects.clone(),
        });
        if let Some(f) = ex.failure {
            r.failure = Some(format!("step {} ({kind}): {f}", n + 1));
            break;
        }
        // Our own stop after the run (a `time` notice): what came later
        // was not judged, so the scenario is not a PASS.
        if let Some(why) = ex.let_go {
            r.failure = Some(format!("step {} ({kind}): {why}", n + 1));
            break;
        }
        if let Some(body) = &ex.refusal {
            let how = format!(
                "HTTP {}; body starts: {body}",
                ex.status.unwrap_or_default()
            );
            refusal(&mut r, scenario.may_refuse.as_deref(), n + 1, kind, &how);
            break;
        }
        if !ex.status.is_some_and(|s| (200..300).contains(&s)) {
            break;
        }
        if let Some(Outcome::Errored { message, code }) = new_runs
            .iter()
            .map(|run| &run.outcome)
            .find(|o| matches!(o, Outcome::Errored { .. }))
        {
            let code = code
                .as_deref()
                .map(|c| format!(" [code {c}]"))
                .unwrap_or_default();
            refusal(&mut r, None, n + 1, kind, &format!("{message}{code}"));
            break;
        }
        let Some(next) = scenario.then.get(n) else {
            break;
        };
        if runs.is_open() {
            r.skipped = Some(format!(
                "step {} ({}) not sent: the producer's run did not end",
                n + 2,
                next.kind()
            ));
            break;
        }
        let latest = latest.borrow();
        let answer = Answer {
            request: &request,
            last_run: new_runs.last(),
            projection: latest.1.as_ref().filter(|_| latest.0 > projections_before),
            digest: &digest,
        };
        match scenario::next_request(next, &answer) {
            Ok(v) => request = v,
            Err(why) => {
                r.skipped = Some(format!("step {} ({}) not sent: {why}", n + 2, next.kind()));
                break;
            }
        }
    }
    runs.finish(checker.events());
    let mut report = checker.finish();
    for v in std::mem::take(&mut report.violations) {
        found.keep(v, opts.max_violations, |_| {});
    }
    r.violations = found.violations;
    r.events = report.events;
    r.runs = runs.runs().to_vec();
    (r.stream, r.stream_left_out) = (kept.values, kept.left_out);
    if let Some(e) = capture.as_ref().and_then(CaptureWriter::error) {
        r.failure
            .get_or_insert_with(|| format!("saving the capture: {e}"));
    }
    r.score = score(&r);
    r.elapsed = start.elapsed();
    r
}

/// The producer refused step `n` (`how`: the `RUN_ERROR` message, or the
/// 4xx status and body): SKIPPED with `allowed`, the scenario's reason,
/// when it may refuse it, otherwise a refused valid input (FAIL).
fn refusal(r: &mut InputResult, allowed: Option<&str>, n: usize, kind: &str, how: &str) {
    match allowed {
        Some(why) => {
            r.skipped = Some(format!(
                "the producer refused step {n} ({kind}), which this scenario allows ({why}): {how}"
            ))
        }
        None => {
            r.refused = Some(format!(
                "the producer refused a valid input (step {n}, {kind}): {how}"
            ))
        }
    }
}

/// `DIR/ID.jsonl`, ready to take the conversation line by line.
fn open_capture(dir: &Path, id: &str) -> Result<CaptureWriter, String> {
    let path = dir.join(format!("{id}.jsonl"));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::File::create(&path))
        .map(|f| CaptureWriter::new(std::io::BufWriter::new(f)))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The conversation's events kept for a run record: JSON data only (as
/// `check` would read the capture's lines), up to a byte budget; past it
/// they are counted.
struct Kept {
    budget: usize,
    used: usize,
    values: Vec<Value>,
    left_out: usize,
}

impl Kept {
    fn new(budget: usize) -> Kept {
        Kept {
            budget,
            used: 0,
            values: Vec::new(),
            left_out: 0,
        }
    }

    fn push(&mut self, data: &[u8]) {
        let fits = self.left_out == 0 && self.used + data.len() <= self.budget;
        match serde_json::from_slice::<Value>(data) {
            Ok(v) if fits => {
                self.used += data.len();
                self.values.push(v);
            }
            Ok(_) => self.left_out += 1,
            Err(_) => {}
        }
    }
}

/// The most bytes of a scenario's events kept for its run record (the
/// capture file, `--captures`, holds them all).
pub const STREAM_KEEP_BYTES: usize = 4 << 20;

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
        for note in [&r.failure, &r.refused, &r.skipped].into_iter().flatten() {
            let _ = writeln!(out, "        {note}");
        }
        for hop in r.redirects() {
            let _ = writeln!(
                out,
                "        redirected: {hop} (the POST repeated with its body)"
            );
        }
        if r.steps.len() > 1 || r.score != Score::Pass {
            let steps: Vec<String> = r
                .steps
                .iter()
                .map(|s| format!("{} → {}", s.kind, s.outcomes.join("+")))
                .collect();
            if !steps.is_empty() {
                let _ = writeln!(out, "        steps: {}", steps.join("; "));
            }
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
    if let Some(f) = &r.refused {
        v["refused"] = json!(f);
    }
    if let Some(f) = &r.skipped {
        v["skipped"] = json!(f);
    }
    v["steps"] = r
        .steps
        .iter()
        .map(|s| {
            let mut step = json!({"kind": s.kind, "status": s.status, "events": s.events, "outcomes": s.outcomes});
            if !s.redirects.is_empty() {
                step["redirects"] = s.redirects.iter().map(Hop::to_json).collect();
            }
            step
        })
        .collect();
    v["runs"] = r.runs.iter().map(RunRecord::to_json).collect();
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
