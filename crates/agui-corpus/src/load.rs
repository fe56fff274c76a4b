//! Loading a corpus directory: every `*.json` under it (except
//! `*.schema.json`), sorted by path. A file that cannot be a case is a
//! [`Problem`] of its own; the other files still load.

use crate::case::{Case, Stated};
use agui_model::{Obligation, Severity, Verdict, json};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What is wrong with a case file, for grouping (`gate/ids` looks at `Id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// The file could not be read.
    Io,
    /// The file is not JSON.
    Json,
    /// Not a case: a missing or unknown field, a wrong type, an unknown rule id.
    Format,
    /// The id does not match the path, or another file has it.
    Id,
    /// `expect`/`obligation` are inconsistent with the catalogue or the events.
    Expect,
}

/// A fault of one file, before it is tied to its path.
pub type Fault = (ProblemKind, String);

/// One problem with one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, as found under the corpus directory.
    pub path: PathBuf,
    pub kind: ProblemKind,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// A case that loaded, with where it came from.
#[derive(Debug, Clone)]
pub struct LoadedCase {
    /// Path relative to the corpus directory, e.g. `ownership/x.json`.
    pub rel: PathBuf,
    /// The path as found (corpus directory joined with `rel`).
    pub path: PathBuf,
    pub case: Case,
}

/// A loaded corpus directory.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    pub dir: PathBuf,
    /// The cases that loaded, sorted by path.
    pub cases: Vec<LoadedCase>,
    /// Files that are not valid cases, sorted by path.
    pub malformed: Vec<Problem>,
    /// Every file that parsed as JSON, with its raw value (for the case
    /// schema gate, which also sees malformed cases).
    pub raw: Vec<(PathBuf, Value)>,
}

/// Loads every case file under `dir`. Fails only when `dir` itself cannot
/// be listed; per-file faults land in [`Corpus::malformed`].
/// The largest case file read: a case is a stream of a few events; a file
/// past this is refused, not read into memory.
pub const CASE_BYTES: u64 = 64 << 20;

pub fn load_dir(dir: &Path) -> std::io::Result<Corpus> {
    let mut files = Vec::new();
    collect_json_files(dir, &mut files)?;
    files.sort();
    let texts = files.into_iter().map(|path| {
        let text = agui_model::bounded::read_to_string(&path, CASE_BYTES);
        (path, text)
    });
    Ok(load_texts(dir, texts))
}

/// The corpus built into this crate (`agui_assets`, the repository's
/// `corpus/`), at paths under `<built-in>/corpus`.
pub fn load_builtin() -> Corpus {
    load_embedded("corpus")
}

/// The embedded corpus folder `dir` (`corpus`, `corpus/ownership`), loaded
/// like [`load_dir`] loads a folder on disk.
pub fn load_embedded(dir: &str) -> Corpus {
    let base = Path::new(agui_assets::ROOT).join(dir);
    let texts = agui_assets::under(dir)
        .filter(|f| is_case_file_name(f.path))
        .map(|f| {
            let text = std::str::from_utf8(f.bytes)
                .map(str::to_owned)
                .map_err(std::io::Error::other);
            (Path::new(agui_assets::ROOT).join(f.path), text)
        });
    load_texts(&base, texts)
}

/// Loads the given files of a corpus folder (path under `dir`, its text),
/// sorted by path.
fn load_texts(
    dir: &Path,
    files: impl Iterator<Item = (PathBuf, std::io::Result<String>)>,
) -> Corpus {
    let mut corpus = Corpus {
        dir: dir.to_path_buf(),
        ..Corpus::default()
    };
    // Files that deserialised as cases, with their own faults so far.
    let mut parsed: Vec<(PathBuf, PathBuf, Case, Vec<Fault>)> = Vec::new();
    for (path, text) in files {
        let rel = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                corpus
                    .malformed
                    .push(problem(&path, ProblemKind::Io, format!("cannot read: {e}")));
                continue;
            }
        };
        let raw: Value = match parse_file(&text) {
            Ok(v) => v,
            Err(e) => {
                corpus.malformed.push(problem(&path, ProblemKind::Json, e));
                continue;
            }
        };
        corpus.raw.push((path.clone(), raw.clone()));
        match read_case(&rel, raw) {
            Ok((case, faults)) => parsed.push((path, rel, case, faults)),
            Err(fault) => corpus.malformed.push(problem(&path, fault.0, fault.1)),
        }
    }
    // A duplicate id is charged to the files whose path does not give that
    // id (to all of them when none does).
    let mut by_id: BTreeMap<&str, Vec<(&Path, bool)>> = BTreeMap::new();
    for (path, rel, case, _) in &parsed {
        by_id
            .entry(case.id.as_str())
            .or_default()
            .push((path.as_path(), id_for_path(rel) == case.id));
    }
    let mut dup_faults: Vec<Option<String>> = Vec::with_capacity(parsed.len());
    for (path, rel, case, _) in &parsed {
        let holders = &by_id[case.id.as_str()];
        let owner_exists = holders.iter().any(|(_, matches)| *matches);
        let mine_matches = id_for_path(rel) == case.id;
        dup_faults.push(
            (holders.len() > 1 && (!mine_matches || !owner_exists)).then(|| {
                let others: Vec<String> = holders
                    .iter()
                    .filter(|(p, _)| *p != path.as_path())
                    .map(|(p, _)| p.display().to_string())
                    .collect();
                format!("duplicate id `{}` (also in {})", case.id, others.join(", "))
            }),
        );
    }
    for ((path, rel, case, mut faults), dup) in parsed.into_iter().zip(dup_faults) {
        if let Some(msg) = dup {
            faults.push((ProblemKind::Id, msg));
        }
        if faults.is_empty() {
            corpus.cases.push(LoadedCase { rel, path, case });
        } else {
            for (kind, message) in faults {
                corpus.malformed.push(problem(&path, kind, message));
            }
        }
    }
    corpus.malformed.sort_by(|a, b| a.path.cmp(&b.path));
    corpus
}

fn problem(path: &Path, kind: ProblemKind, message: String) -> Problem {
    Problem {
        path: path.to_path_buf(),
        kind,
        message,
    }
}

/// Reads a case file as RFC 8259 JSON ([`agui_model::json`]): a projection
/// may hold a number outside a double's range (`1e400`), kept as written.
/// A duplicate key or a lone surrogate escape in the file itself is refused
/// (a stream that needs one gives it in `lines`).
pub fn parse_file(text: &str) -> Result<Value, String> {
    let parsed =
        json::parse(text, &json::ParseOptions::default()).map_err(|e| format!("not JSON: {e}"))?;
    match parsed.notes.first() {
        None => Ok(parsed.value),
        Some(json::Note::DuplicateKey { path, key }) => Err(format!(
            "not a case file: key `{key}` twice in the object at `{path}` (write such a stream in `lines`)"
        )),
        Some(json::Note::LoneSurrogate { path, .. }) => Err(format!(
            "not a case file: a lone surrogate escape at `{path}` (write such a stream in `lines`)"
        )),
    }
}

/// Recursively lists `*.json` files, leaving out `*.schema.json` (the case
/// schema lives beside the cases).
fn collect_json_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_json_files(&path, out)?;
        } else if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(is_case_file_name)
        {
            out.push(path);
        }
    }
    Ok(())
}

/// A case file: `*.json` but not `*.schema.json`.
fn is_case_file_name(name: &str) -> bool {
    name.ends_with(".json") && !name.ends_with(".schema.json")
}

/// The id rule every case folder keeps (`run` and `corpus check` alike;
/// `case.schema.json` states the same pattern): two or more `/`-separated
/// segments of ASCII letters, digits, `_`, `.`, `-`, none of them `.` or
/// `..`. `None` when `id` keeps it.
pub fn id_fault(id: &str) -> Option<String> {
    let segments: Vec<&str> = id.split('/').collect();
    let ok_segment = |s: &&str| {
        !s.is_empty()
            && *s != "."
            && *s != ".."
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    };
    if segments.len() >= 2 && segments.iter().all(ok_segment) {
        None
    } else {
        Some(format!(
            "id `{id}` is not `<folder>/<name>` (segments of letters, digits, `_`, `.`, `-`)"
        ))
    }
}

/// The id a file at `rel` must have: its path without `.json`, `/`-separated.
pub fn id_for_path(rel: &Path) -> String {
    let s: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    s.join("/")
}

/// Turns one parsed file into a case, checking everything a single file
/// can get wrong. Every fault found is returned.
pub fn parse_case(rel: &Path, raw: Value) -> Result<Case, Vec<Fault>> {
    match read_case(rel, raw) {
        Ok((case, faults)) if faults.is_empty() => Ok(case),
        Ok((_, faults)) => Err(faults),
        Err(fault) => Err(vec![fault]),
    }
}

/// Deserialises a case (`Err` when it is not one at all) and lists the
/// faults a single file can have.
fn read_case(rel: &Path, raw: Value) -> Result<(Case, Vec<Fault>), Fault> {
    let has = |k: &str| raw.get(k).is_some();
    match (has("events"), has("lines")) {
        (true, true) => {
            return Err((
                ProblemKind::Format,
                "not a case: give the stream as `events` or as `lines`, not both".into(),
            ));
        }
        (false, false) => {
            return Err((
                ProblemKind::Format,
                "not a case: missing field `events` (or `lines`)".into(),
            ));
        }
        _ => {}
    }
    let case: Case = serde_json::from_value(raw)
        .map_err(|e| (ProblemKind::Format, format!("not a case: {e}")))?;
    let mut faults = Vec::new();
    if let Some(f) = id_fault(&case.id) {
        faults.push((ProblemKind::Id, f));
    }
    let want = id_for_path(rel);
    if case.id != want {
        faults.push((
            ProblemKind::Id,
            format!(
                "id `{}` does not match its path (expected `{want}`)",
                case.id
            ),
        ));
    }
    for msg in lines_faults(&case) {
        faults.push((ProblemKind::Format, msg));
    }
    for msg in expect_faults(&case) {
        faults.push((ProblemKind::Expect, msg));
    }
    Ok((case, faults))
}

/// `lines` must read as one item per line: no line breaks inside a line,
/// no blank line (a blank line is no item), and the reader (which takes a
/// first line opening an array that does not close on it for a JSON array
/// file) must see exactly one item per line.
pub fn lines_faults(case: &Case) -> Vec<String> {
    let Some(lines) = &case.lines else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.contains(['\n', '\r']) {
            out.push(format!("`lines[{i}]` holds a line break"));
        } else if l.trim().is_empty() {
            out.push(format!(
                "`lines[{i}]` is blank (a blank line is no stream item)"
            ));
        }
    }
    if out.is_empty() {
        let n = crate::case::read_lines(lines).len();
        if n != lines.len() {
            out.push(format!(
                "`lines` reads as {n} stream items, not {} (one per line)",
                lines.len()
            ));
        }
    }
    out
}

/// Consistency of `expect`, `violations`, `obligation` and `projection`
/// with the catalogue and the events.
pub fn expect_faults(case: &Case) -> Vec<String> {
    let mut out = Vec::new();
    let e = &case.expect;
    match (e.rule, e.index) {
        (Some(_), None) => out.push("`expect.rule` without `expect.index`".to_string()),
        (None, Some(_)) => out.push("`expect.index` without `expect.rule`".to_string()),
        _ => {}
    }
    if let Some(index) = e.index
        && index > case.len()
    {
        out.push(format!(
            "`expect.index` {index} is out of range: the case has {} events",
            case.len()
        ));
    }
    if let Some(r) = e.rule
        && r.rule().is_violation()
        && !r.rule().is_stream_rule()
    {
        out.push(format!(
            "`{r}` judges an HTTP exchange, not a stream: no case expects it"
        ));
    }
    match (e.verdict, e.rule) {
        (Verdict::Reject, None) => {
            out.push("verdict `reject` needs `expect.rule` and `expect.index`".to_string())
        }
        // A warning first, an error after it (or later at the same event,
        // in catalogue order).
        (Verdict::Reject, Some(r)) if r.severity() == Severity::None => {
            out.push(format!(
                "verdict `reject` needs an error rule, or a warning rule that an error follows, but `{r}` is an obligation"
            ));
        }
        (Verdict::Accept, Some(r)) if r.severity() != Severity::Warning => out.push(format!(
            "verdict `accept` with a rule needs a warning rule, but `{r}` has severity {}",
            r.severity().as_str()
        )),
        _ => {}
    }
    if let Some(v) = &case.violations {
        out.extend(violations_faults(case, v));
    } else if let Some(why) = unstated(case) {
        out.push(why);
    }
    if let Some(o) = case.obligation
        && o.rule().is_violation()
    {
        out.push(format!("`obligation` `{o}` is not an accept.* obligation"));
    }
    if case.obligation.is_some() && case.expect.verdict != Verdict::Accept && !all_must_accept(case)
    {
        out.push(
            "a case with an `obligation` must expect `accept`, or state `violations` that are all must-accept"
                .to_string(),
        );
    }
    if case.projection.is_some() && case.expect.verdict != Verdict::Accept && !all_may_reject(case)
    {
        out.push(
            "an expected `projection` needs verdict `accept`, or `violations` that are all may-reject"
                .to_string(),
        );
    }
    out
}

/// Why a case whose stream has a violation fails to state them all, or
/// `None` when it states them (or its stream has none). Revision 3 of
/// docs/rules.md, "Scoring a consumer": "every case whose stream has a
/// violation states all of them (rule and index, in stream order), so a
/// rule named at any index can be judged". The stream has a violation
/// exactly when `expect` names a rule; then `violations` is required,
/// whatever the first violation's obligation. The message names the case
/// and the rule, and, when the first violation does not even fix F and M,
/// says so ([`undetermined`]).
///
/// One exception, until the generator states every violation: a generated
/// case (id `gen/…`, [`is_generated_id`]) whose first violation fixes F and
/// M alone (must-reject) may leave its list out. A must-reject mutation can
/// break more rules at its own event (an `attribution.null` interrupt is
/// also `interrupt.owner-mismatch`), which the generator does not know by
/// construction; the harness scores a named rule such a case cannot judge
/// as a problem of the case (docs/rules.md "Scoring a consumer").
pub fn unstated(case: &Case) -> Option<String> {
    if case.violations.is_some() {
        return None;
    }
    let r = case.expect.rule?;
    if is_generated_id(&case.id) && undetermined(case).is_none() {
        return None;
    }
    let at = case
        .expect
        .index
        .map(|i| format!(" at {i}"))
        .unwrap_or_default();
    let mut msg = format!(
        "case `{}` states no `violations`, but its `expect` names `{r}`{at}: every case whose stream has a violation lists all of them, rule and index in stream order (docs/rules.md \"Scoring a consumer\", revision 3)",
        case.id
    );
    if let Some(why) = undetermined(case) {
        msg.push_str("; ");
        msg.push_str(&why);
    }
    Some(msg)
}

/// True for the id of a generated case: `gen/valid/<seed>` or
/// `gen/<rule id>/<seed>` (`agui-conform gen --out`, `run --save-failures`).
pub fn is_generated_id(id: &str) -> bool {
    id.starts_with("gen/")
}

/// Why the case's first violation alone does not fix F and M (docs/rules.md
/// "Scoring a consumer": "a harness never takes M as absent when the case
/// does not state it"), or `None` when it does: no violation; a
/// must-reject first violation (F = M = its index); only warnings (verdict
/// `accept`: no F, no M). Any other case states its `violations` (since
/// revision 3 every case with a violation does: [`unstated`]).
pub fn undetermined(case: &Case) -> Option<String> {
    let r = case.expect.rule?;
    if case.violations.is_some() {
        return None;
    }
    let why = match (case.expect.verdict, r.severity(), r.obligation()) {
        (_, Severity::Error, Obligation::MustReject) => return None,
        (Verdict::Accept, Severity::Warning, _) => return None,
        (_, Severity::Error, o) => format!(
            "the first violation `{r}` is {}: a later (or same-index) must-reject violation is not ruled out",
            o.as_str()
        ),
        _ => format!(
            "the first violation `{r}` is a warning and the verdict `reject`: the error that follows is not stated"
        ),
    };
    Some(format!(
        "M is not determined ({why}); state every violation in `violations`"
    ))
}

/// The stated list against `expect` and the events.
fn violations_faults(case: &Case, v: &[Stated]) -> Vec<String> {
    let mut out = Vec::new();
    let Some(first) = v.first() else {
        return vec![
            "`violations` is empty (leave it out for a stream without violations)".to_string(),
        ];
    };
    if Some(first.rule) != case.expect.rule || Some(first.index) != case.expect.index {
        out.push(format!(
            "`violations` starts with `{}` at {}, but `expect` names the first violation",
            first.rule, first.index
        ));
    }
    for (k, s) in v.iter().enumerate() {
        if !s.rule.rule().is_violation() {
            out.push(format!(
                "`violations[{k}]`: `{}` is not a violation",
                s.rule
            ));
        }
        if s.index > case.len() {
            out.push(format!(
                "`violations[{k}]`: index {} is out of range ({} events)",
                s.index,
                case.len()
            ));
        }
        if k > 0 && s.index < v[k - 1].index {
            out.push(format!(
                "`violations[{k}]`: not in stream order ({} after {})",
                s.index,
                v[k - 1].index
            ));
        }
    }
    let has_error = v.iter().any(|s| s.rule.severity() == Severity::Error);
    let want = if has_error {
        Verdict::Reject
    } else {
        Verdict::Accept
    };
    if case.expect.verdict != want {
        out.push(format!(
            "`violations` {} an error, so the verdict is `{}`",
            if has_error { "holds" } else { "holds no" },
            want.as_str()
        ));
    }
    out
}

/// True when the case states its violations and every one is must-accept
/// (revision 4: an unknown event type or member is a producer error that a
/// consumer drops or strips), so the stream is one a consumer accepts and
/// an `accept.*` obligation can be tested on it.
pub fn all_must_accept(case: &Case) -> bool {
    case.violations.as_ref().is_some_and(|v| {
        v.iter()
            .all(|s| s.rule.obligation() == Obligation::MustAccept)
    })
}

/// True when the case states its violations and every one a consumer must
/// weigh is may-reject (then either answer conforms, and an accepting
/// consumer's projection is scored).
pub fn all_may_reject(case: &Case) -> bool {
    case.violations.as_ref().is_some_and(|v| {
        v.iter()
            .filter(|s| s.rule.obligation() != Obligation::MustAccept)
            .all(|s| s.rule.obligation() == Obligation::MayReject)
    })
}
