//! Suites (`suites/*.toml`): corpus folders plus generated cases, and the
//! time limits to run them under.

use crate::expect::Expected;
use crate::generated::{self, GenMode};
use crate::variant::Variant;
use agui_model::RuleId;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A suite file as written.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SuiteFile {
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub timeouts: TimeoutsFile,
    #[serde(default)]
    pub corpus: CorpusFile,
    #[serde(default)]
    pub generated: Option<GeneratedFile>,
    /// How the cases are written ([`crate::variant`]); the default as is.
    #[serde(default)]
    pub variant: Variant,
}

/// Time limits in milliseconds.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TimeoutsFile {
    #[serde(default = "default_start_ms")]
    pub start_ms: u64,
    #[serde(default = "default_case_ms")]
    pub case_ms: u64,
    #[serde(default = "default_stop_ms")]
    pub stop_ms: u64,
}

fn default_start_ms() -> u64 {
    10_000
}
fn default_case_ms() -> u64 {
    5_000
}
fn default_stop_ms() -> u64 {
    1_000
}

impl Default for TimeoutsFile {
    fn default() -> Self {
        TimeoutsFile {
            start_ms: default_start_ms(),
            case_ms: default_case_ms(),
            stop_ms: default_stop_ms(),
        }
    }
}

impl TimeoutsFile {
    pub fn to_timeouts(self) -> crate::subprocess::Timeouts {
        crate::subprocess::Timeouts {
            start: Duration::from_millis(self.start_ms),
            case: Duration::from_millis(self.case_ms),
            stop: Duration::from_millis(self.stop_ms),
        }
    }
}

/// Corpus folders, relative to the suite file's folder.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CorpusFile {
    #[serde(default)]
    pub dirs: Vec<String>,
    /// Only the cases whose id starts with one of these (`official/1.1/`),
    /// and only the problems of their files; all when empty. Case ids are
    /// paths under a corpus folder, so a suite of one subfolder names the
    /// folder in `dirs` and the subfolder here.
    #[serde(default)]
    pub select: Vec<String>,
}

impl CorpusFile {
    /// Whether the suite takes the case with this id.
    pub fn selects(&self, id: &str) -> bool {
        self.select.is_empty() || self.select.iter().any(|p| id.starts_with(p.as_str()))
    }

    /// Whether a loading problem concerns a selected file (its text names
    /// the file's path).
    fn selects_problem(&self, problem: &str) -> bool {
        self.select.is_empty()
            || self
                .select
                .iter()
                .any(|p| problem.contains(&format!("/{p}")))
    }
}

/// Generated cases: `valid` valid streams and `invalid-per-rule` invalid
/// streams for each violation rule (or for `rules`), with seeds `seed`,
/// `seed + 1`, ….
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GeneratedFile {
    pub seed: u64,
    #[serde(default)]
    pub valid: u64,
    #[serde(default)]
    pub invalid_per_rule: u64,
    #[serde(default)]
    pub rules: Option<Vec<RuleId>>,
}

/// Where a case came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    Corpus {
        path: PathBuf,
    },
    Generated {
        seed: u64,
        mode: GenMode,
        /// The suite's variant it was written in.
        variant: Variant,
    },
}

/// One case of a suite.
#[derive(Debug, Clone)]
pub struct SuiteCase {
    /// Stable, path-like (`ownership/tagged-content-disagrees`, `gen/valid/17`).
    pub id: String,
    pub description: String,
    /// The stream items (empty when the case gives `lines`).
    pub events: Vec<Value>,
    /// The stream as raw JSON Lines text, when the case gives it so (a
    /// duplicate key, a lone surrogate: what a value cannot hold). Sent to
    /// implementations that declare `raw-lines`; skipped for the others.
    pub lines: Option<Vec<String>>,
    pub expected: Expected,
    /// The `accept.*` obligation a valid case tests.
    pub obligation: Option<RuleId>,
    pub origin: Origin,
}

impl SuiteCase {
    /// The row of the per-rule table the case counts in: its first
    /// violation's rule, else its obligation, else `None` (valid).
    pub fn rule_key(&self) -> Option<RuleId> {
        self.expected.first.map(|(r, _)| r).or(self.obligation)
    }

    /// The case without its stream (its expectation whole).
    pub fn without_stream(self) -> SuiteCase {
        SuiteCase {
            events: Vec::new(),
            lines: None,
            ..self
        }
    }

    /// The case without its stream and expected projection: what the
    /// reports of a run need once its own lines are written (a streamed run
    /// keeps only this; `expected.events` still says how long it was).
    pub fn summary(&self) -> SuiteCase {
        let mut expected = self.expected.clone();
        expected.projection = None;
        SuiteCase {
            id: self.id.clone(),
            description: self.description.clone(),
            events: Vec::new(),
            lines: None,
            expected,
            obligation: self.obligation,
            origin: self.origin.clone(),
        }
    }

    /// From a corpus case.
    pub fn from_corpus(case: agui_corpus::Case, path: PathBuf) -> Result<SuiteCase, String> {
        let expected = Expected::from_case(&case)?;
        Ok(SuiteCase {
            id: case.id,
            description: case.description,
            events: case.events,
            lines: case.lines,
            expected,
            obligation: case.obligation,
            origin: Origin::Corpus { path },
        })
    }

    /// The generated case of `seed` and `mode` ([`generated::generate`]),
    /// its expectation the generator's.
    pub fn generated(seed: u64, mode: GenMode) -> Result<SuiteCase, String> {
        SuiteCase::generated_as(seed, mode, Variant::default())
    }

    /// [`SuiteCase::generated`] written in a suite's variant.
    pub fn generated_as(seed: u64, mode: GenMode, variant: Variant) -> Result<SuiteCase, String> {
        let mut c = SuiteCase::from_corpus(generated::generate(seed, mode)?, PathBuf::new())?;
        c.origin = Origin::Generated {
            seed,
            mode,
            variant: Variant::default(),
        };
        Ok(c.in_variant(variant))
    }

    /// The case written in `variant` ([`crate::variant`]).
    pub fn in_variant(mut self, variant: Variant) -> SuiteCase {
        if variant.is_plain() {
            return self;
        }
        let generated = matches!(self.origin, Origin::Generated { .. });
        variant.apply(
            &mut self.events,
            self.expected.projection.as_mut(),
            self.lines.is_some(),
            generated,
        );
        if let Origin::Generated { variant: v, .. } = &mut self.origin {
            *v = variant;
        }
        self
    }

    /// The case in the corpus format (for `--save-failures`).
    pub fn to_corpus(&self, spec: &str) -> agui_corpus::Case {
        agui_corpus::Case {
            id: self.id.clone(),
            description: self.description.clone(),
            spec: spec.to_string(),
            events: self.events.clone(),
            lines: self.lines.clone(),
            expect: agui_corpus::Expect {
                verdict: self.expected.verdict,
                rule: self.expected.first.map(|(r, _)| r),
                index: self.expected.first.map(|(_, i)| i),
            },
            obligation: self.obligation,
            projection: self.expected.projection.clone(),
            violations: self.expected.all.as_ref().map(|v| {
                v.iter()
                    .map(|&(rule, index)| agui_corpus::Stated { rule, index })
                    .collect()
            }),
            official: self.expected.official.clone().map(Box::new),
        }
    }
}

/// A loaded suite.
#[derive(Debug, Clone)]
pub struct Suite {
    pub name: String,
    pub file: SuiteFile,
    /// The folder relative paths are resolved against.
    pub base: PathBuf,
}

impl Suite {
    /// Finds a suite by path (`*.toml`, or anything with a folder in it) or
    /// by name: `suites/NAME.toml` in the current folder or an ancestor,
    /// else the suite of that name built into the binary.
    pub fn find(name_or_path: &str) -> anyhow::Result<Suite> {
        let p = Path::new(name_or_path);
        if name_or_path.ends_with(".toml") || p.components().count() > 1 {
            return Suite::load(p);
        }
        if let Some(local) = find_local(name_or_path)? {
            return Suite::load(&local);
        }
        if let Some(suite) = Suite::builtin(name_or_path) {
            return suite;
        }
        if is_producer_suite(name_or_path) {
            anyhow::bail!(
                "`{name_or_path}` is a producer suite: it drives an endpoint, `run --producer URL --suite {name_or_path}` (`agui-conform suites` lists every suite with its kind)"
            )
        }
        anyhow::bail!(
            "suite `{name_or_path}` not found (looked for suites/{name_or_path}.toml here and in parent folders; built-in suites: {})",
            builtin_names().join(", ")
        )
    }

    /// The built-in suite `name` (`suites/NAME.toml` of `agui_assets`), its
    /// corpus folders resolved among the embedded files.
    pub fn builtin(name: &str) -> Option<anyhow::Result<Suite>> {
        let rel = format!("suites/{name}.toml");
        let file = agui_assets::get(&rel)?;
        let path = Path::new(agui_assets::ROOT).join(&rel);
        Some(
            std::str::from_utf8(file.bytes)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
                .and_then(|text| Suite::parse(&path, text)),
        )
    }

    pub fn load(path: &Path) -> anyhow::Result<Suite> {
        if let Some(s) = agui_assets::resolve(path)
            .and_then(|rel| Suite::builtin(rel.strip_prefix("suites/")?.strip_suffix(".toml")?))
        {
            return s;
        }
        let text = agui_model::bounded::read_to_string(path, agui_model::bounded::CONFIG_BYTES)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Suite::parse(path, &text)
    }

    /// A suite file's text, read from `path` (its name and base folder).
    fn parse(path: &Path, text: &str) -> anyhow::Result<Suite> {
        let file: SuiteFile =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Suite { name, file, base })
    }

    /// Every case, corpus first (sorted by id), then generated ones; plus
    /// the problems met on the way (unreadable files, a missing folder,
    /// generation unavailable), which the run reports without stopping.
    pub fn cases(&self) -> (Vec<SuiteCase>, Vec<String>) {
        let (plan, mut problems) = self.plan();
        let mut cases = Vec::with_capacity(plan.len());
        for p in plan {
            let id = p.id();
            match p.materialize() {
                Ok(c) => cases.push(c),
                Err(e) => problems.push(format!("{id}: {e}")),
            }
        }
        (cases, problems)
    }

    /// [`Suite::cases`] for the cases whose id contains `filter` (all when
    /// `None`), generated on `jobs` threads (generation dominates a run
    /// against a fast implementation). The threads take one case at a time
    /// from a shared counter: the corpus cases, which cost nothing, all sit
    /// at the front of the plan, so fixed halves would leave one thread
    /// most of the generating. Order and problems as `cases`.
    pub fn cases_matching(
        &self,
        filter: Option<&str>,
        jobs: usize,
    ) -> (Vec<SuiteCase>, Vec<String>) {
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (mut plan, mut problems) = self.plan();
        if let Some(f) = filter {
            plan.retain(|p| p.id().contains(f));
        }
        let slots: Vec<Mutex<Option<Planned>>> =
            plan.into_iter().map(|p| Mutex::new(Some(p))).collect();
        let next = AtomicUsize::new(0);
        let take = || -> Vec<(usize, String, Result<SuiteCase, String>)> {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(slot) = slots.get(i) else {
                    return done;
                };
                let planned = slot.lock().ok().and_then(|mut p| p.take());
                if let Some(p) = planned {
                    done.push((i, p.id(), p.materialize()));
                }
            }
        };
        let threads = jobs.clamp(1, slots.len().max(1));
        let mut done: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(take)).collect();
            handles
                .into_iter()
                .flat_map(|h| {
                    h.join().unwrap_or_else(|_| {
                        vec![(usize::MAX, String::new(), Err("generation panicked".into()))]
                    })
                })
                .collect()
        });
        done.sort_by_key(|(i, _, _)| *i);
        let mut cases = Vec::with_capacity(done.len());
        for (_, id, r) in done {
            match r {
                Ok(c) => cases.push(c),
                Err(e) => problems.push(format!("{id}: {e}")),
            }
        }
        (cases, problems)
    }

    /// Every case by id without generating any: corpus cases loaded,
    /// generated ones as (seed, mode). Listing a suite stays cheap (test
    /// runners list it once per test process).
    pub fn plan(&self) -> (Vec<Planned>, Vec<String>) {
        let mut problems = Vec::new();
        let mut cases = Vec::new();
        for d in &self.file.corpus.dirs {
            let dir = self.base.join(d);
            load_corpus(&dir, &mut cases, &mut problems);
        }
        let corpus = &self.file.corpus;
        cases.retain(|c| corpus.selects(&c.id));
        problems.retain(|p| corpus.selects_problem(p));
        cases.sort_by(|a, b| a.id.cmp(&b.id));
        let variant = self.file.variant;
        let mut plan: Vec<Planned> = cases
            .into_iter()
            .map(|c| Planned::Loaded(c.in_variant(variant)))
            .collect();
        if let Some(g) = &self.file.generated {
            plan_generated(g, variant, &mut plan, &mut problems);
        }
        (plan, problems)
    }

    /// The plan of [`Suite::plan`] with nothing read that can wait: a
    /// corpus folder on disk is listed, its files read one at a time when
    /// a case is taken ([`Planned::File`]; a file that is not a valid case
    /// is then a problem of the run); only `filter`'s cases (by id).
    pub fn plan_lazily(&self, filter: Option<&str>) -> (Vec<Planned>, Vec<String>) {
        let mut problems = Vec::new();
        let mut loaded = Vec::new();
        let mut plan = Vec::new();
        for d in &self.file.corpus.dirs {
            let dir = self.base.join(d);
            if agui_assets::resolve(&dir).is_some() {
                // Built in: already in memory.
                load_corpus(&dir, &mut loaded, &mut problems);
                continue;
            }
            match list_case_files(&dir) {
                Ok(files) => plan.extend(files.into_iter().map(|rel| Planned::File {
                    id: agui_corpus::load::id_for_path(&rel),
                    path: dir.join(&rel),
                    rel,
                    variant: self.file.variant,
                })),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    problems.push(format!("corpus folder {} not found", dir.display()));
                }
                Err(e) => problems.push(format!("{}: {e}", dir.display())),
            }
        }
        let variant = self.file.variant;
        plan.extend(
            loaded
                .into_iter()
                .map(|c| Planned::Loaded(c.in_variant(variant))),
        );
        let corpus = &self.file.corpus;
        plan.retain(|p| corpus.selects(&p.id()));
        problems.retain(|p| corpus.selects_problem(p));
        plan.sort_by_key(Planned::id);
        if let Some(g) = &self.file.generated {
            plan_generated(g, variant, &mut plan, &mut problems);
        }
        if let Some(f) = filter {
            plan.retain(|p| p.id().contains(f));
        }
        (plan, problems)
    }
}

/// The case files under `dir` (`*.json` but `*.schema.json`, as the corpus
/// loader takes them), relative to it, sorted.
fn list_case_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(base, &path, out)?;
            } else if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".json") && !n.ends_with(".schema.json"))
            {
                out.push(path.strip_prefix(base).unwrap_or(&path).to_path_buf());
            }
        }
        Ok(())
    }
    if !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "not found",
        ));
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Whether `name` is a producer suite's rather than a consumer suite's: a
/// `suites/NAME/` folder of scenario files (`*.json` but `*.schema.json`),
/// built in or here or in a parent folder.
fn is_producer_suite(name: &str) -> bool {
    let scenario = |n: &str| n.ends_with(".json") && !n.ends_with(".schema.json");
    let rel = format!("suites/{name}");
    if agui_assets::under(&rel).any(|f| scenario(f.path)) {
        return true;
    }
    let Ok(cwd) = std::env::current_dir() else {
        return false;
    };
    cwd.ancestors()
        .filter_map(|dir| std::fs::read_dir(dir.join(&rel)).ok())
        .flat_map(|entries| entries.flatten())
        .any(|e| scenario(&e.file_name().to_string_lossy()))
}

/// The names of the built-in suites (`suites/*.toml` of `agui_assets`).
pub fn builtin_names() -> Vec<&'static str> {
    agui_assets::under("suites")
        .filter_map(|f| f.path.strip_prefix("suites/")?.strip_suffix(".toml"))
        .filter(|n| !n.contains('/'))
        .collect()
}

/// `suites/NAME.toml` in the current folder or its nearest ancestor that
/// has one.
pub fn find_local(name: &str) -> anyhow::Result<Option<PathBuf>> {
    let file = format!("{name}.toml");
    let cwd = std::env::current_dir()?;
    Ok(cwd
        .ancestors()
        .map(|dir| dir.join("suites").join(&file))
        .find(|candidate| candidate.is_file()))
}

/// The names of the suites in `suites/` folders of the current folder and
/// its ancestors, sorted, each once.
pub fn local_names() -> Vec<String> {
    let mut names: Vec<String> = agui_assets::local_suite_entries()
        .into_iter()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_owned)
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A case of a suite before generation. (Loaded cases outnumber generated
/// ones only in small suites; boxing them buys nothing measurable.)
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Planned {
    Loaded(SuiteCase),
    /// A corpus case file on disk, read when the case is taken.
    File {
        id: String,
        path: PathBuf,
        /// Its path under the corpus folder (which fixes its id).
        rel: PathBuf,
        variant: Variant,
    },
    Generated {
        seed: u64,
        mode: GenMode,
        variant: Variant,
    },
}

impl Planned {
    pub fn id(&self) -> String {
        match self {
            Planned::Loaded(c) => c.id.clone(),
            Planned::File { id, .. } => id.clone(),
            Planned::Generated { seed, mode, .. } => mode.case_id("gen", *seed),
        }
    }

    pub fn materialize(self) -> Result<SuiteCase, String> {
        match self {
            Planned::Loaded(c) => Ok(c),
            Planned::File {
                path, rel, variant, ..
            } => read_case_file(&path, &rel).map(|c| c.in_variant(variant)),
            Planned::Generated {
                seed,
                mode,
                variant,
            } => SuiteCase::generated_as(seed, mode, variant),
        }
    }
}

/// One corpus case file, checked as the corpus loader checks a file
/// ([`agui_corpus::load::parse_case`]).
fn read_case_file(path: &Path, rel: &Path) -> Result<SuiteCase, String> {
    let text = agui_model::bounded::read_to_string(path, agui_corpus::load::CASE_BYTES)
        .map_err(|e| format!("cannot read: {e}"))?;
    let raw = agui_corpus::load::parse_file(&text)?;
    drop(text);
    let case = agui_corpus::load::parse_case(rel, raw).map_err(|faults| {
        faults
            .into_iter()
            .map(|(_, m)| m)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    SuiteCase::from_corpus(case, path.to_path_buf())
}

/// Reads every case under `dir` with the corpus's own loader
/// ([`agui_corpus::load_dir`]: `*.json` but `*.schema.json`, ids checked
/// against paths, expectations linted); files that are not valid cases are
/// problems, reported by the run without stopping it.
pub fn load_corpus(dir: &Path, cases: &mut Vec<SuiteCase>, problems: &mut Vec<String>) {
    let embedded = agui_assets::resolve(dir);
    let found = match &embedded {
        Some(rel) => agui_assets::is_dir(rel),
        None => dir.is_dir(),
    };
    if !found {
        problems.push(format!("corpus folder {} not found", dir.display()));
        return;
    }
    let corpus = match embedded {
        Some(rel) => agui_corpus::load_embedded(&rel),
        None => match agui_corpus::load_dir(dir) {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("{}: {e}", dir.display()));
                return;
            }
        },
    };
    for p in corpus.malformed {
        problems.push(format!("{}: {}", p.path.display(), p.message));
    }
    for c in corpus.cases {
        match SuiteCase::from_corpus(c.case, c.path.clone()) {
            Ok(case) => cases.push(case),
            Err(e) => problems.push(format!("{}: {e}", c.path.display())),
        }
    }
}

fn plan_generated(
    g: &GeneratedFile,
    variant: Variant,
    plan: &mut Vec<Planned>,
    problems: &mut Vec<String>,
) {
    if !generated::AVAILABLE {
        problems
            .push("generated cases left out: this build has no generator (feature `gen`)".into());
        return;
    }
    let rules: Vec<RuleId> = match &g.rules {
        Some(r) => r.clone(),
        None => RuleId::violations().collect(),
    };
    let mut modes: Vec<(GenMode, u64)> = vec![(GenMode::Valid, g.valid)];
    modes.extend(
        rules
            .into_iter()
            .map(|r| (GenMode::Invalid(r), g.invalid_per_rule)),
    );
    for (mode, count) in modes {
        for k in 0..count {
            plan.push(Planned::Generated {
                seed: g.seed.wrapping_add(k),
                mode,
                variant,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suites_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites")
    }

    #[test]
    fn shipped_suites_parse() {
        for name in ["default", "quick"] {
            let s = Suite::load(&suites_dir().join(format!("{name}.toml"))).unwrap();
            assert_eq!(s.name, name);
            assert_eq!(s.file.corpus.dirs, ["../corpus"]);
            assert!(s.file.generated.is_some());
        }
        let d = Suite::find("default").unwrap();
        assert_eq!(d.file.timeouts.case_ms, 5000);
        assert_eq!(d.file.generated.unwrap().invalid_per_rule, 10);
    }

    #[test]
    fn built_in_suites_are_the_shipped_files_with_the_embedded_corpus() {
        assert_eq!(
            builtin_names(),
            [
                "default",
                "input-tools-context",
                "official-1.0",
                "official-1.1",
                "official-draft",
                "quick",
                "uuid-ids"
            ]
        );
        for name in ["default", "quick"] {
            let b = Suite::builtin(name).unwrap().unwrap();
            let d = Suite::load(&suites_dir().join(format!("{name}.toml"))).unwrap();
            assert_eq!(b.name, name);
            assert_eq!(b.base, Path::new("<built-in>/suites"));
            assert_eq!(b.file.description, d.file.description);
            let (bp, bproblems) = b.plan();
            let (dp, dproblems) = d.plan();
            assert!(
                bproblems.is_empty() && dproblems.is_empty(),
                "{bproblems:?}"
            );
            let ids = |p: &[Planned]| p.iter().map(Planned::id).collect::<Vec<_>>();
            assert_eq!(ids(&bp), ids(&dp));
            let Some(Planned::Loaded(first)) = bp.first() else {
                panic!("a corpus case first");
            };
            let Origin::Corpus { path } = &first.origin else {
                panic!("{:?}", first.origin);
            };
            assert!(path.starts_with("<built-in>/corpus"), "{path:?}");
        }
        assert!(Suite::builtin("no-such-suite").is_none());
        // A path under the built-in root names the built-in suite.
        assert_eq!(
            Suite::load(Path::new("<built-in>/suites/quick.toml"))
                .unwrap()
                .name,
            "quick"
        );
    }

    #[test]
    fn unknown_keys_and_rules_are_refused() {
        assert!(toml::from_str::<SuiteFile>("colour = 1").is_err());
        assert!(
            toml::from_str::<SuiteFile>("[generated]\nseed = 1\nrules = [\"no.such-rule\"]")
                .is_err()
        );
        let f: SuiteFile =
            toml::from_str("[generated]\nseed = 3\nvalid = 2\nrules = [\"text.not-open\"]")
                .unwrap();
        let g = f.generated.unwrap();
        assert_eq!((g.seed, g.valid, g.invalid_per_rule), (3, 2, 0));
        assert_eq!(g.rules, Some(vec![RuleId::TextNotOpen]));
        assert_eq!(f.timeouts.start_ms, 10_000);
    }

    #[test]
    fn a_missing_corpus_folder_is_a_problem_not_an_error() {
        let s = Suite {
            name: "t".into(),
            file: toml::from_str("[corpus]\ndirs = [\"no-such-folder\"]").unwrap(),
            base: std::env::temp_dir(),
        };
        let (cases, problems) = s.cases();
        assert!(cases.is_empty());
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("no-such-folder") && problems[0].ends_with("not found"),
            "{problems:?}"
        );
    }

    #[test]
    fn corpus_files_that_are_not_valid_cases_are_problems() {
        let dir = std::env::temp_dir().join(format!("agui-suite-corpus-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("run")).unwrap();
        let case = |id: &str| {
            format!(
                r#"{{"id": "{id}", "description": "d", "spec": "s",
                "events": [], "expect": {{"verdict": "accept"}}}}"#
            )
        };
        std::fs::write(dir.join("run/good.json"), case("run/good")).unwrap();
        std::fs::write(dir.join("run/moved.json"), case("run/elsewhere")).unwrap();
        std::fs::write(dir.join("run/broken.json"), "{").unwrap();
        let (mut cases, mut problems) = (Vec::new(), Vec::new());
        load_corpus(&dir, &mut cases, &mut problems);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            ["run/good"]
        );
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems.iter().any(|p| p.contains("broken.json")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("moved.json")),
            "{problems:?}"
        );
    }

    #[test]
    fn generated_cases_follow_the_seed_plan() {
        let s = Suite {
            name: "t".into(),
            file: toml::from_str("[generated]\nseed = 10\nvalid = 2\ninvalid-per-rule = 1\nrules = [\"text.not-open\"]")
                .unwrap(),
            base: std::env::temp_dir(),
        };
        let (cases, problems) = s.cases();
        assert!(problems.is_empty(), "{problems:?}");
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            ["gen/valid/10", "gen/valid/11", "gen/text.not-open/10"]
        );
        assert_eq!(
            cases[2].expected.first.map(|(r, _)| r),
            Some(RuleId::TextNotOpen)
        );
        assert_eq!(
            cases[2].origin,
            Origin::Generated {
                seed: 10,
                mode: GenMode::Invalid(RuleId::TextNotOpen),
                variant: Variant::default(),
            }
        );
    }

    /// A variant writes a case another way, never changes what it tests:
    /// the reference model (the implementation under test here, not the
    /// source of any expectation) agrees with the generator's expectation
    /// on every generated case of both variant suites, and the ids are
    /// UUIDs where the variant says.
    #[cfg(feature = "gen")]
    #[test]
    fn variant_suites_keep_every_expectation() {
        for name in ["uuid-ids", "input-tools-context"] {
            let suite = Suite::find(name).unwrap();
            assert!(!suite.file.variant.is_plain(), "{name}");
            let (plan, problems) = suite.plan();
            assert!(problems.is_empty(), "{problems:?}");
            let generated: Vec<Planned> = plan
                .into_iter()
                .filter(|p| matches!(p, Planned::Generated { .. }))
                .step_by(7)
                .collect();
            assert!(generated.len() > 50, "{name}");
            for p in generated {
                let c = p.materialize().unwrap();
                if c.lines.is_none() {
                    assert!(crate::shrink::reference_agrees(&c), "{name}: {}", c.id);
                }
                if name == "uuid-ids"
                    && let Some(id) = c.events.iter().find_map(|e| e.get("runId"))
                    && id.is_string()
                {
                    let id = id.as_str().unwrap_or_default();
                    assert!(id.is_empty() || id.len() == 36, "{}: {id}", c.id);
                }
            }
        }
    }

    #[test]
    fn generating_on_several_threads_keeps_the_plan_order() {
        let s = Suite {
            name: "t".into(),
            file: toml::from_str("[generated]\nseed = 10\nvalid = 5\ninvalid-per-rule = 2\nrules = [\"text.not-open\", \"tool.not-open\"]")
                .unwrap(),
            base: std::env::temp_dir(),
        };
        let want = [
            "gen/valid/10",
            "gen/valid/11",
            "gen/valid/12",
            "gen/valid/13",
            "gen/valid/14",
            "gen/text.not-open/10",
            "gen/text.not-open/11",
            "gen/tool.not-open/10",
            "gen/tool.not-open/11",
        ];
        for jobs in [1, 2, 3, 16] {
            let (cases, problems) = s.cases_matching(None, jobs);
            assert!(problems.is_empty(), "{problems:?}");
            let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids, want, "-j {jobs}");
        }
        let (cases, _) = s.cases_matching(Some("tool"), 2);
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["gen/tool.not-open/10", "gen/tool.not-open/11"]);
    }
}
