//! The implementation under test, behind one trait whether it runs in this
//! process or as a subprocess; the reference model is one implementation.

use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What an implementation reports (PROTOCOL.md, handshake `capabilities`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// A rejection names the event index it stopped at.
    pub index: bool,
    /// A rejection may name a docs/rules.md id.
    pub rule: bool,
    /// An acceptance may carry the projection.
    pub projection: bool,
    /// Only the wire schema is checked, event by event.
    pub schema_only: bool,
    /// Takes a case as raw JSON Lines text (`lines`): a duplicate key or a
    /// lone surrogate, which a JSON value cannot carry. Without it such
    /// cases are skipped.
    pub raw_lines: bool,
}

impl Capabilities {
    pub const ALL: Capabilities = Capabilities {
        index: true,
        rule: true,
        projection: true,
        schema_only: false,
        raw_lines: true,
    };

    /// From the protocol's list of names; `verdict` is mandatory.
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Self, String> {
        let mut c = Capabilities::default();
        let mut verdict = false;
        for n in names {
            match n {
                "verdict" => verdict = true,
                "index" => c.index = true,
                "rule" => c.rule = true,
                "projection" => c.projection = true,
                "schema-only" => c.schema_only = true,
                "raw-lines" => c.raw_lines = true,
                // Unknown capabilities are ignored: a newer adapter may
                // announce more than this harness scores.
                _ => {}
            }
        }
        if verdict {
            Ok(c)
        } else {
            Err("capabilities lack the mandatory `verdict`".into())
        }
    }

    pub fn names(&self) -> Vec<&'static str> {
        let mut v = vec!["verdict"];
        for (on, n) in [
            (self.index, "index"),
            (self.rule, "rule"),
            (self.projection, "projection"),
            (self.schema_only, "schema-only"),
            (self.raw_lines, "raw-lines"),
        ] {
            if on {
                v.push(n);
            }
        }
        v
    }
}

/// Name, version, language (handshake `implementation`) and capabilities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImplInfo {
    pub name: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub language: String,
    #[serde(skip)]
    pub capabilities: Capabilities,
}

impl ImplInfo {
    pub fn new(name: &str, version: &str, language: &str, capabilities: Capabilities) -> ImplInfo {
        ImplInfo {
            name: name.into(),
            version: version.into(),
            language: language.into(),
            capabilities,
        }
    }

    /// The placeholder of a run whose implementation never started.
    pub fn not_started() -> ImplInfo {
        ImplInfo::new(
            "(implementation not started)",
            "",
            "",
            Capabilities::default(),
        )
    }
}

/// Something that happened outside any case (e.g. the process ignored stop).
pub type Incident = String;

/// An implementation under test: what a crate implements to run the suite
/// against its own checker in process (`examples/embed.rs`). Two methods are
/// required; the rest have defaults that suit an in-process checker.
pub trait Implementation {
    /// Starts it if needed and says what it is. An error here stops the run
    /// (the implementation cannot be started at all, or speaks another
    /// protocol version).
    fn describe(&mut self) -> anyhow::Result<ImplInfo>;

    /// Answers one case. Never panics on a misbehaving implementation: that is
    /// an [`Outcome::Errored`].
    fn run_case(&mut self, id: &str, events: &[Value]) -> Outcome;

    /// Answers one case given as raw JSON Lines text (`lines`); asked only
    /// of an implementation with the `raw-lines` capability.
    fn run_lines(&mut self, id: &str, lines: &[String]) -> Outcome {
        let _ = (id, lines);
        Outcome::Skipped {
            reason: "this implementation cannot take raw lines".into(),
        }
    }

    /// Ends it; reports anything that went wrong on the way out.
    fn shutdown(&mut self) -> Vec<Incident> {
        Vec::new()
    }

    /// The harness's own implementations (the reference model, the
    /// subprocess modes) say more through this; see [`Instrumented`]. Keep
    /// the default, or forward it from a wrapper.
    #[doc(hidden)]
    fn instrumented(&mut self) -> Option<&mut dyn Instrumented> {
        None
    }
}

mod sealed {
    /// Only this crate's types implement [`super::Instrumented`].
    pub trait Sealed {}
}

/// What the harness's own implementations tell beyond [`Implementation`]:
/// a projection hint the in-process reference uses to skip work, and what a
/// subprocess wrote or explained. Sealed, so that the public trait stays
/// two methods and these can change without breaking implementors.
pub trait Instrumented: Implementation + sealed::Sealed {
    /// Like [`Implementation::run_case`], told whether a projection would
    /// be scored (the case states one); nothing of the expectation crosses
    /// the protocol.
    fn run_case_hinted(&mut self, id: &str, events: &[Value], projection_scored: bool) -> Outcome {
        let _ = projection_scored;
        self.run_case(id, events)
    }

    /// [`Implementation::run_lines`] with the same hint.
    fn run_lines_hinted(&mut self, id: &str, lines: &[String], projection_scored: bool) -> Outcome {
        let _ = projection_scored;
        self.run_lines(id, lines)
    }

    /// What it wrote to stderr while answering the last case (the end of
    /// it), for the reports of cases that did not pass.
    fn case_stderr(&mut self) -> Option<String> {
        None
    }

    /// The `explain` object of the last answer (suites/PROTOCOL.md): what
    /// only the adapter knows about it, for run records.
    fn case_explain(&mut self) -> Option<Value> {
        None
    }

    /// Earlier cases found to have misbehaved only later, as (case id,
    /// reason): a second answer that arrived after the next case was sent.
    fn late_errors(&mut self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// From now on every start and every case ends at `deadline` at the
    /// latest (a campaign's `--time`). In process nothing can be cut: the
    /// default ignores it.
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        let _ = deadline;
    }

    /// Whether the last case was cut at the deadline (not answered: its
    /// outcome is no verdict on the implementation), clearing the flag.
    fn take_cut(&mut self) -> bool {
        false
    }
}

pub(crate) use sealed::Sealed;

/// The reference model as an implementation: it rejects at its first
/// error-severity violation and names that rule; it accepts (with the
/// projection) when only warnings, or nothing, were found.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reference {
    /// Skip building the projection (faster; for throughput runs).
    pub without_projection: bool,
}

impl Reference {
    pub fn info() -> ImplInfo {
        ImplInfo::new(
            "agui-conform reference model",
            env!("CARGO_PKG_VERSION"),
            "rust",
            Capabilities::ALL,
        )
    }
}

/// The reference's answer for a stream.
pub fn reference_outcome(events: &[Value], with_projection: bool) -> Outcome {
    let mut c = reference_checker(with_projection);
    for e in events {
        c.push(e);
    }
    outcome_of(c.finish())
}

/// The reference's answer for a stream of raw JSON Lines text, read as
/// `agui-conform check` reads it ([`agui_model::check`]).
pub fn reference_outcome_lines(lines: &[String], with_projection: bool) -> Outcome {
    let bytes = agui_corpus::case::join_lines(lines);
    outcome_of(agui_model::check::check_bytes(
        bytes.as_bytes(),
        reference_checker(with_projection),
    ))
}

fn reference_checker(with_projection: bool) -> agui_model::Checker {
    if with_projection {
        agui_model::Checker::new()
    } else {
        agui_model::Checker::without_projection()
    }
}

/// The answer of a conforming consumer that follows the reference
/// clients ([`agui_model::Report::consumer_rejects_at`]), else accept with
/// the projection.
fn outcome_of(report: agui_model::Report) -> Outcome {
    match report.consumer_rejects_at() {
        Some(v) => Outcome::Reject {
            index: Some(v.index),
            rule: Some(v.rule.as_str().to_string()),
            message: Some(v.message.clone()),
        },
        None => Outcome::Accept {
            projection: report.projection.map(|p| p.to_json()),
        },
    }
}

impl Implementation for Reference {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        let mut i = Reference::info();
        i.capabilities.projection = !self.without_projection;
        Ok(i)
    }

    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        reference_outcome(events, !self.without_projection)
    }

    fn run_lines(&mut self, _id: &str, lines: &[String]) -> Outcome {
        reference_outcome_lines(lines, !self.without_projection)
    }

    fn instrumented(&mut self) -> Option<&mut dyn Instrumented> {
        Some(self)
    }
}

impl Sealed for Reference {}

/// In process, the reference skips the projection when none is scored.
impl Instrumented for Reference {
    fn run_case_hinted(&mut self, _id: &str, events: &[Value], projection_scored: bool) -> Outcome {
        reference_outcome(events, projection_scored && !self.without_projection)
    }

    fn run_lines_hinted(
        &mut self,
        _id: &str,
        lines: &[String],
        projection_scored: bool,
    ) -> Outcome {
        reference_outcome_lines(lines, projection_scored && !self.without_projection)
    }
}

impl<T: Implementation + ?Sized> Implementation for Box<T> {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        (**self).describe()
    }
    fn run_case(&mut self, id: &str, events: &[Value]) -> Outcome {
        (**self).run_case(id, events)
    }
    fn run_lines(&mut self, id: &str, lines: &[String]) -> Outcome {
        (**self).run_lines(id, lines)
    }
    fn shutdown(&mut self) -> Vec<Incident> {
        (**self).shutdown()
    }
    fn instrumented(&mut self) -> Option<&mut dyn Instrumented> {
        (**self).instrumented()
    }
}
