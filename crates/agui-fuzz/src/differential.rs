//! Target `differential`: the reference against an implementation under
//! test, on generated streams (valid or mutated).
//!
//! The implementation is a subprocess speaking `suites/PROTOCOL.md`, named
//! by environment variables read once per process:
//! - `AGUI_CONFORM_IMPL`: the command line (split like a shell would, no
//!   shell is run). **Unset or empty: the target does nothing**, so it can
//!   sit in every fuzz run and in `cargo test` without an implementation.
//! - `AGUI_CONFORM_IMPL_ONE_SHOT=1`: one process per case (one-shot mode);
//!   `AGUI_CONFORM_IMPL_CAPS=verdict,index,…`: its capabilities (one-shot
//!   has no handshake).
//! - `AGUI_CONFORM_FUZZ_OUT`: where reproducers go (default
//!   `fuzz/artifacts/differential-streams`).
//! - `AGUI_CONFORM_FUZZ_KEEP_GOING=1`: survey mode for an implementation
//!   known to disagree: instead of aborting, the first reproducer of each
//!   kind of disagreement (score, the reference's first rule, the
//!   implementation's verdict) is saved as `<kind>.min.jsonl` with its
//!   report (`<kind>.txt`) and one line goes to stderr; the run goes on.
//!
//! Each stream is scored as the harness scores a case
//! ([`agui_harness::score::score`]) against the reference model's full
//! report for it ([`agui_harness::shrink::reference_expectation`]). A FAIL
//! is a disagreement on a must-reject or must-accept obligation (a
//! must-reject violation accepted or rejected too late, a valid prefix or
//! stream rejected, a projection that differs); an ERRORED answer (crash,
//! hang, protocol breach) is a finding too. Either way the stream is shrunk
//! (delta debugging over events, keeping the same score), both forms are
//! written as JSON Lines reproducers, and the target panics with a readable
//! report. WARN and INFO (should/may-reject) are not findings.

use crate::streams;
use agui_harness::expect::Expected;
use agui_harness::implementation::{Capabilities, Implementation};
use agui_harness::score::{Score, score};
use agui_harness::session::ImplSpec;
use agui_harness::shrink::{ddmin, reference_expectation};
use arbitrary::{Result, Unstructured};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The implementation under test, started once per process.
struct Under {
    imp: Box<dyn Implementation + Send>,
    name: String,
    caps: Capabilities,
    out: PathBuf,
    /// Survey mode: kinds of disagreement already saved.
    keep_going: Option<std::collections::BTreeSet<String>>,
}

/// `None` when `AGUI_CONFORM_IMPL` is unset or empty.
static UNDER: OnceLock<Option<Mutex<Under>>> = OnceLock::new();

fn under() -> Option<&'static Mutex<Under>> {
    UNDER.get_or_init(|| from_env().map(Mutex::new)).as_ref()
}

fn from_env() -> Option<Under> {
    let command = std::env::var("AGUI_CONFORM_IMPL")
        .ok()
        .filter(|c| !c.trim().is_empty())?;
    let spec = ImplSpec {
        command: Some(command.clone()),
        one_shot: std::env::var("AGUI_CONFORM_IMPL_ONE_SHOT").is_ok_and(|v| v == "1"),
        capabilities: std::env::var("AGUI_CONFORM_IMPL_CAPS")
            .map(|c| {
                c.split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        ..ImplSpec::default()
    };
    // A misconfigured implementation is not a finding about it: say so and
    // stop the campaign at once.
    let mut imp = match spec.build() {
        Ok(i) => i,
        Err(e) => panic!("differential: cannot use AGUI_CONFORM_IMPL={command:?}: {e}"),
    };
    let info = match imp.describe() {
        Ok(i) => i,
        Err(e) => panic!("differential: AGUI_CONFORM_IMPL={command:?} does not start: {e}"),
    };
    let out = std::env::var_os("AGUI_CONFORM_FUZZ_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("fuzz/artifacts/differential-streams"));
    Some(Under {
        imp,
        name: info.name,
        caps: info.capabilities,
        out,
        keep_going: std::env::var("AGUI_CONFORM_FUZZ_KEEP_GOING")
            .is_ok_and(|v| v == "1")
            .then(Default::default),
    })
}

/// The target body: a no-op without `AGUI_CONFORM_IMPL`.
pub fn run(u: &mut Unstructured) -> Result<()> {
    let Some(under) = under() else {
        return Ok(());
    };
    let stream = streams::any(u)?;
    // A panic while the lock was held poisons it; the campaign is over then.
    let mut guard = match under.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    let Under {
        imp,
        name,
        caps,
        out,
        keep_going,
    } = &mut *guard;
    if let Err(finding) = compare(imp.as_mut(), *caps, &stream.label, &stream.events) {
        let Some(seen) = keep_going else {
            let files = save(out, &finding);
            panic!("{}", finding.report(name, &files));
        };
        let kind = finding.kind();
        if seen.insert(kind.clone()) {
            let min = out.join(format!("{kind}.min.jsonl"));
            let report = finding.report(name, std::slice::from_ref(&min));
            let saved = std::fs::create_dir_all(&*out).is_ok()
                && std::fs::write(&min, to_jsonl(&finding.shrunk)).is_ok()
                && std::fs::write(out.join(format!("{kind}.txt")), &report).is_ok();
            eprintln!(
                "differential: new kind of disagreement {kind} ({} so far){}",
                seen.len(),
                if saved { "" } else { " (could not save it)" }
            );
        }
    }
    Ok(())
}

/// A disagreement, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    pub label: String,
    pub score: Score,
    pub events: Vec<Value>,
    pub shrunk: Vec<Value>,
    /// The reference's answer and the implementation's, on the shrunk stream.
    pub expected: Expected,
    pub got: String,
    pub reason: String,
}

/// Whether a score is a finding.
fn is_finding(s: Score) -> bool {
    matches!(s, Score::Fail | Score::Errored)
}

/// Scores one stream; on a finding, shrinks it keeping the same score.
pub fn compare(
    imp: &mut dyn Implementation,
    caps: Capabilities,
    label: &str,
    events: &[Value],
) -> std::result::Result<(), Box<Finding>> {
    let expected = reference_expectation(events);
    // A schema-only implementation is judged only where the wire schema
    // alone decides the answer (as the harness runner does).
    if caps.schema_only && !expected.schema_decided() {
        return Ok(());
    }
    let first = score(&expected, &imp.run_case(label, events), caps);
    if !is_finding(first.score) {
        return Ok(());
    }
    let bad = first.score;
    let shrunk = ddmin(
        events,
        |sub| {
            let e = reference_expectation(sub);
            (!caps.schema_only || e.schema_decided())
                && score(&e, &imp.run_case(label, sub), caps).score == bad
        },
        500,
    );
    let expected = reference_expectation(&shrunk);
    let outcome = imp.run_case(label, &shrunk);
    let scored = score(&expected, &outcome, caps);
    // Shrinking keeps the score unless the implementation is flaky; then
    // report the original stream's answer.
    let (reason, got) = if scored.score == bad {
        (scored.reason, outcome.short())
    } else {
        (
            format!(
                "{} (flaky: not reproduced on the shrunk stream)",
                first.reason
            ),
            String::from("?"),
        )
    };
    Err(Box::new(Finding {
        label: label.to_owned(),
        score: bad,
        events: events.to_vec(),
        shrunk,
        expected,
        got,
        reason,
    }))
}

/// JSON Lines, one item per line.
pub fn to_jsonl(events: &[Value]) -> String {
    let mut s = String::new();
    for e in events {
        s.push_str(&e.to_string());
        s.push('\n');
    }
    s
}

/// Writes the original and the shrunk stream under `dir`, named by a hash
/// of the shrunk stream; returns the paths written (none when writing
/// fails: the report then carries the stream itself).
fn save(dir: &Path, f: &Finding) -> Vec<PathBuf> {
    let min = to_jsonl(&f.shrunk);
    let name = format!("{:016x}", fnv1a(min.as_bytes()));
    let mut written = Vec::new();
    if std::fs::create_dir_all(dir).is_ok() {
        for (suffix, text) in [
            ("min.jsonl", min.clone()),
            ("orig.jsonl", to_jsonl(&f.events)),
        ] {
            let p = dir.join(format!("{name}.{suffix}"));
            if std::fs::write(&p, text).is_ok() {
                written.push(p);
            }
        }
    }
    written
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Finding {
    /// What kind of disagreement this is, as a file name:
    /// `<score>--<reference's first rule or valid>--<implementation's verdict>`.
    pub fn kind(&self) -> String {
        let rule = self
            .expected
            .first
            .map_or("valid".to_owned(), |(r, _)| r.as_str().to_owned());
        let got = self
            .got
            .split_whitespace()
            .next()
            .unwrap_or("unknown")
            .trim_end_matches(':');
        format!("{}--{rule}--{got}", self.score.as_str().to_lowercase())
    }

    /// The panic message: what each side said, why it matters, where the
    /// reproducer is.
    pub fn report(&self, implementation: &str, files: &[PathBuf]) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "differential: {} disagrees with the reference model ({})",
            implementation, self.score
        );
        let _ = writeln!(
            s,
            "  stream:      {} ({} events, shrunk to {})",
            self.label,
            self.events.len(),
            self.shrunk.len()
        );
        let reference = match self.expected.first {
            Some((r, i)) => format!(
                "{} (first violation {} at {}, {})",
                self.expected.verdict.as_str(),
                r,
                i,
                r.obligation().as_str()
            ),
            None => format!("{} (no violation)", self.expected.verdict.as_str()),
        };
        let _ = writeln!(s, "  reference:   {reference}");
        let _ = writeln!(s, "  implementation: {}", self.got);
        let _ = writeln!(s, "  why:         {}", self.reason);
        for f in files {
            let _ = writeln!(s, "  reproducer:  {}", f.display());
        }
        if files.is_empty() || self.shrunk.len() <= 12 {
            let _ = writeln!(s, "  shrunk stream (JSON Lines):");
            for e in &self.shrunk {
                let _ = writeln!(s, "    {e}");
            }
        }
        let _ = write!(
            s,
            "  replay:      agui-conform check {}",
            files
                .first()
                .map_or("<the stream above>".into(), |p| p.display().to_string())
        );
        s
    }
}
