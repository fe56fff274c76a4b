//! `run --producer URL --record FILE`: the producer suite's results as a
//! run record (agui_harness::record::producer), so `agui-conform report`
//! can render the producers page from records alone. With `--peer CMD`
//! each request's stream, and each conversation of several requests, is
//! also given to another validator (over suites/PROTOCOL.md) and its
//! answer kept beside ours.

use agui_harness::implementation::Implementation;
use agui_harness::record::producer::{Found, Producer, Scenario, Step, Version};
use agui_harness::record::{self, Footer, Header, Line, Meta, Totals};
use agui_harness::session::ImplSpec;
use agui_live::suite::{InputResult, Score};
use serde_json::Value;
use std::path::Path;

/// Another validator given every stream, and the name it gave itself.
pub struct Peer {
    imp: Box<dyn Implementation + Send>,
    pub name: String,
}

impl Peer {
    /// Starts the command (persistent protocol) and asks its name.
    pub fn start(command: &str) -> anyhow::Result<Peer> {
        let spec = ImplSpec {
            command: Some(command.to_owned()),
            ..ImplSpec::default()
        };
        let mut imp = spec.build()?;
        let info = imp.describe()?;
        let name = [info.name, info.version]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        Ok(Peer { imp, name })
    }

    /// Its answer on `events`, as `run --format json` writes one.
    fn answer(&mut self, id: &str, events: &[Value]) -> Value {
        let mut v = self.imp.run_case(id, events).to_json();
        if let Value::Object(m) = &mut v {
            m.remove("projection");
        }
        v
    }

    /// Ends it; what went wrong on the way out, as text.
    pub fn stop(mut self) -> Vec<String> {
        self.imp
            .shutdown()
            .into_iter()
            .map(|i| format!("{i:?}"))
            .collect()
    }
}

/// What the header says beside the results.
pub struct About<'a> {
    pub url: &'a str,
    pub suite: &'a str,
    /// The record's implementation name [default: the URL].
    pub name: Option<&'a str>,
    /// The record's implementation language (`--language`) [default: none].
    pub language: Option<&'a str>,
    pub versions: Vec<Version>,
}

fn score(s: Score) -> agui_harness::Score {
    match s {
        Score::Pass => agui_harness::Score::Pass,
        Score::Warn => agui_harness::Score::Warn,
        Score::Skipped => agui_harness::Score::Skipped,
        Score::Fail => agui_harness::Score::Fail,
        Score::Errored => agui_harness::Score::Errored,
    }
}

/// A result as a scenario line, the peer asked on its streams.
fn scenario(r: &InputResult, description: Option<&String>, peer: Option<&mut Peer>) -> Scenario {
    let mut steps: Vec<Step> = r
        .steps
        .iter()
        .map(|s| Step {
            kind: s.kind.to_owned(),
            status: s.status,
            start: s.start,
            events: s.events,
            outcomes: s.outcomes.iter().map(|o| (*o).to_owned()).collect(),
            request: s.request.clone(),
            peer: None,
            redirects: s.redirects.iter().map(|h| h.to_json()).collect(),
        })
        .collect();
    let mut whole = None;
    if let Some(p) = peer {
        for (k, s) in steps.iter_mut().enumerate() {
            let events = r.stream.get(s.range()).unwrap_or_default();
            s.peer = Some(p.answer(&format!("{}#{}", r.id, k + 1), events));
        }
        if steps.len() > 1 {
            whole = Some(p.answer(&r.id, &r.stream));
        }
    }
    Scenario {
        id: r.id.clone(),
        description: description.cloned().unwrap_or_default(),
        score: score(r.score),
        events: r.events,
        status: r.status,
        failure: r.failure.clone(),
        refused: r.refused.clone(),
        skipped: r.skipped.clone(),
        steps,
        runs: r.runs.iter().map(|run| run.to_json()).collect(),
        violations: r
            .violations
            .iter()
            .map(|v| Found {
                rule: v.rule.as_str().to_owned(),
                index: v.index,
                severity: v.severity.as_str().to_owned(),
                message: v.message.clone(),
                related: v.related,
            })
            .collect(),
        stream: r.stream.clone(),
        peer: whole,
        elapsed_us: u64::try_from(r.elapsed.as_micros()).unwrap_or(u64::MAX),
    }
}

/// The record of a producer suite run; `exit_status` is the run's.
pub fn render(
    about: &About<'_>,
    results: &[InputResult],
    described: &[Option<String>],
    mut peer: Option<&mut Peer>,
    exit_status: u8,
    incomplete: Option<&str>,
    elapsed: std::time::Duration,
) -> String {
    let scenarios: Vec<Scenario> = results
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let description = described.get(k).and_then(Option::as_ref);
            scenario(r, description, peer.as_deref_mut())
        })
        .collect();
    let mut totals = Totals::default();
    for s in &scenarios {
        totals.add(s.score);
    }
    let meta = Meta::now();
    let header = Header {
        format: record::FORMAT.to_owned(),
        implementation: record::Implementation {
            name: about.name.unwrap_or(about.url).to_owned(),
            version: String::new(),
            language: about.language.unwrap_or_default().to_owned(),
            capabilities: Vec::new(),
        },
        suite: about.suite.to_owned(),
        catalogue: record::CATALOGUE.to_owned(),
        agui_conform: meta.agui_conform,
        date: meta.date,
        cases: results.len(),
        producer: Some(Producer {
            url: about.url.to_owned(),
            versions: about.versions.clone(),
            peer: peer.map(|p| p.name.clone()),
        }),
        fuzz: None,
    };
    let footer = Footer {
        totals,
        rules: agui_harness::record::producer::per_rule(&scenarios),
        status: match (incomplete, exit_status) {
            (Some(_), _) => "incomplete",
            (None, 0) => "passed",
            (None, _) => "failed",
        }
        .to_owned(),
        exit_status,
        incomplete: incomplete.map(str::to_owned),
        incidents: Vec::new(),
        problems: Vec::new(),
        elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        fuzz: None,
        official: None,
    };
    let mut out = String::new();
    let lines = std::iter::once(Line::Header(header))
        .chain(scenarios.into_iter().map(Line::Scenario))
        .chain(std::iter::once(Line::Footer(footer)));
    for line in lines {
        if let Ok(text) = serde_json::to_string(&line) {
            out.push_str(&text);
            out.push('\n');
        }
    }
    out
}

/// A versions file: one JSON object of package → version (what a
/// producer's own `/versions` answers, say), in the file's order.
pub fn versions(path: &Path) -> anyhow::Result<Vec<Version>> {
    let text = agui_model::bounded::read_to_string(path, agui_model::bounded::CONFIG_BYTES)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    Version::list(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}
