//! The streaming checker: one event in, violations out.
//!
//! [`Checker::push`] takes one stream item at a time. Per event it runs the
//! wire rules ([`crate::schema`]), then the run, entity, consistency,
//! lifecycle, ownership, interrupt and chunk rules against the bookkeeping
//! of the current run ([`book::RunBook`]), and drives the [`Projector`].
//! Violations of one event are reported in catalogue order.
//!
//! One file per rule area of docs/rules.md, each with its unit tests:
//! `run`, `entities`, `consistency`, `lifecycle`, `ownership`, `interrupts`,
//! `chunks`, and `state` (state tracking and `state.patch-fails`). This file
//! holds the checker itself, its one dispatcher (`Checker::dispatch`: each
//! event type to its area) and the limits every area shares.
//!
//! Memory: the bookkeeping of the current run (reset at `RUN_STARTED`), the
//! stream's state document, and the ids of invocations that ended (to judge
//! resumption). Finished runs' projections are kept only when projecting.
//!
//! After a violation the checker goes on so that later violations are still
//! meaningful (see `docs/decisions.md`, "After a violation"):
//! - an item that is not a JSON object, or has no known `type`, is skipped
//!   by every stream rule;
//! - an event with other schema faults is still checked, using the fields
//!   that are usable (a `subagentRunId` that is not a string counts as
//!   absent; an entity event without its id is skipped by entity rules);
//! - a first event that is not `RUN_STARTED`/`RUN_ERROR` opens an *implicit*
//!   run, checked like a run but never projected nor reported unterminated,
//!   and ended silently by a later `RUN_STARTED`;
//! - `RUN_STARTED` inside a run starts a new run (docs/rules.md: bookkeeping "is
//!   reset at each `RUN_STARTED`"), abandoning the active one; events after
//!   a run ended are reported and otherwise ignored;
//! - an opener of an id already open leaves it open; a continuation of an id
//!   that is not open changes nothing, but is still judged against the
//!   owner on record (which outlives the close); a `STEP_FINISHED` under the wrong
//!   owner closes the step it names; a `SUBAGENT_STARTED` reusing an ended
//!   id activates it again; a failed `STATE_DELTA` leaves the state as is.

pub(crate) mod book;
mod chunks;
mod consistency;
mod dispatch;
mod entities;
mod fast;
mod interrupts;
mod json;
mod json_value_print;
mod lifecycle;
pub(crate) mod names;
mod ownership;
mod report;
pub use report::{Report, check_values};
mod run;
mod said;
mod state;

use crate::body::{Body, Typed};
use crate::events::EventType;
use crate::json::Note;
use crate::levels::RuleLevels;
use crate::limits::{LimitKind, LimitNotice, Limits};
use crate::patch;
use crate::projection::Projector;
use crate::rules::RuleId;
use crate::schema;
use crate::violation::{Verdict, Violation};
use crate::wire;
use book::RunBook;
use chunks::Lanes;
pub use json::{CopyIn, JsonStream, copy_in};
use lifecycle::Remembered;
use serde_json::{Map, Value};

/// The rule families (catalogue areas) the checker judges events by, in
/// catalogue order: what [`Checker::exercised_areas`] names. The
/// `transport` area is judged outside the checker (a live exchange or an
/// SSE capture), and is not among them.
pub const JUDGED_AREAS: [&str; 8] = [
    "schema",
    "run",
    "entities",
    "consistency",
    "lifecycle",
    "ownership",
    "interrupts",
    "chunks",
];

/// One bit per area of [`JUDGED_AREAS`], in its order: what marks an
/// event as judged by a rule of that area (see [`Checker::judged`]).
pub(crate) mod area {
    pub const SCHEMA: u16 = 1 << 0;
    pub const RUN: u16 = 1 << 1;
    pub const ENTITIES: u16 = 1 << 2;
    pub const CONSISTENCY: u16 = 1 << 3;
    pub const LIFECYCLE: u16 = 1 << 4;
    pub const OWNERSHIP: u16 = 1 << 5;
    pub const INTERRUPTS: u16 = 1 << 6;
    pub const CHUNKS: u16 = 1 << 7;
}

/// Where the stream stands between runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    /// No event with a known type yet.
    #[default]
    Start,
    Active,
    Finished,
    Errored,
}

/// What a check found, handed to a sink as soon as it is found.
#[derive(Debug, Clone, Copy)]
pub enum Finding<'a> {
    Violation(&'a Violation),
    Limit(&'a LimitNotice),
}

/// Receives every finding as it is found (see [`Checker::with_sink`]).
pub type Sink = Box<dyn FnMut(Finding<'_>)>;

/// What was found in all, however many were kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    /// Limit notices.
    pub limits: usize,
    /// An error violation was found before any limit left part of the
    /// stream unjudged: the verdict is `reject`.
    pub error_first: bool,
    /// A limit left part of the stream unjudged.
    pub unjudged: bool,
}

impl Counts {
    pub fn violations(&self) -> usize {
        self.errors + self.warnings
    }

    /// docs/rules.md "Checker limits": `reject` if an error violation precedes
    /// the first limit notice, else `inconclusive` after a limit, else
    /// `accept`.
    pub fn verdict(&self) -> Verdict {
        if self.error_first {
            Verdict::Reject
        } else if self.unjudged {
            Verdict::Inconclusive
        } else {
            Verdict::Accept
        }
    }

    fn add_violation(&mut self, v: &Violation) {
        if v.severity == crate::rules::Severity::Error {
            self.errors += 1;
            if !self.unjudged {
                self.error_first = true;
            }
        } else {
            self.warnings += 1;
        }
    }

    fn add_limit(&mut self, n: &LimitNotice) {
        self.limits += 1;
        if n.kind.leaves_unjudged() {
            self.unjudged = true;
        }
    }
}

/// The streaming state machine over one stream.
pub struct Checker {
    index: usize,
    violations: Vec<Violation>,
    notices: Vec<LimitNotice>,
    counts: Counts,
    limits: Limits,
    /// Every finding goes here too, when set; then none is kept.
    sink: Option<Sink>,
    /// Rule configuration: rules turned off or given another severity.
    levels: Option<RuleLevels>,
    /// State tracking stopped at a state limit, or at a skipped event.
    state_off: bool,
    /// An event was skipped at a limit and no `RUN_STARTED` was read
    /// since: what it opened, continued or closed is unknown, so only the
    /// per-event (schema) rules are judged (docs/rules.md "Checker limits").
    blind: bool,
    /// [`RunBook::growth`] (with the remembered ids and open lanes) when
    /// the bookkeeping was last measured.
    book_growth: usize,
    /// The `STATE_DELTA` being dispatched has a `delta` that is not a patch
    /// document (set by the `Value` path; the fast path declines those).
    unreadable_delta: bool,
    /// The bookkeeping passed its budget and was dropped: until the next
    /// `RUN_STARTED` no event reaches the stream rules, so it stays empty.
    frozen: bool,
    /// An event was skipped at a limit: whether an invocation ended
    /// suspended is no longer known, so resumption is not judged for the
    /// rest of the stream.
    resume_off: bool,
    /// The kept violations reached [`Limits::violations`].
    kept_full: bool,
    /// The input was cut at a limit ([`Checker::cut`]) or by a transport
    /// failure ([`Checker::end_early`]): no `run.unterminated` at the end.
    cut: bool,
    /// Violations of the event being checked, sorted into catalogue order
    /// before they join `violations`.
    pending: Vec<Violation>,
    phase: Phase,
    /// Index of the current run's `RUN_STARTED` (or first event) while it
    /// is active, of its terminal event once it ended: the related event
    /// of the run rules.
    run_mark: usize,
    /// The `threadId` of the stream's first run (`run.thread-changed`).
    thread: Option<String>,
    /// The current run's `threadId` and `runId`, from its `RUN_STARTED`
    /// (`run.ids-disagree`).
    run_ids: (Option<String>, Option<String>),
    book: RunBook,
    lanes: Lanes,
    state: Value,
    /// `state`'s [`patch::mem_size`] (what it holds in memory), for the
    /// state budget.
    state_size: usize,
    /// Ids of invocations that ended (in this stream), as they last ended:
    /// interned, so each costs its bytes plus a few more (they are what
    /// grows over a long stream).
    remembered: Remembered,
    /// Set by [`Checker::continue_open`]: the event's tag is the owner on
    /// record of what it continues, and already attributed (the fast path
    /// then skips recording the attribution again).
    tag_attributed: bool,
    /// The areas ([`area`]) whose judgement the event being checked
    /// entered, taken into `exercised` when its findings are flushed.
    judging: u16,
    /// The areas that judged at least one event with judging on (in blind
    /// mode only the schema's count, as only its findings are kept).
    exercised: u16,
    projector: Option<Projector>,
}

impl Default for Checker {
    fn default() -> Self {
        Checker::new()
    }
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker")
            .field("index", &self.index)
            .field("counts", &self.counts)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

/// A string field of an event, if present and a string.
fn s<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    o.get(key).and_then(crate::json::text)
}

impl Checker {
    /// A checker that also builds the projection.
    pub fn new() -> Self {
        Checker {
            index: 0,
            violations: Vec::new(),
            notices: Vec::new(),
            counts: Counts::default(),
            limits: Limits::default(),
            sink: None,
            levels: None,
            state_off: false,
            blind: false,
            frozen: false,
            unreadable_delta: false,
            book_growth: 0,
            resume_off: false,
            kept_full: false,
            cut: false,
            pending: Vec::new(),
            phase: Phase::Start,
            run_mark: 0,
            thread: None,
            run_ids: (None, None),
            book: RunBook::default(),
            lanes: Lanes::default(),
            state: Value::Object(Map::new()),
            state_size: patch::mem_size(&Value::Object(Map::new())),
            remembered: Remembered::default(),
            tag_attributed: false,
            judging: 0,
            exercised: 0,
            projector: Some(Projector::new()),
        }
    }

    /// A checker that hands each run's projection to `sink` as the run
    /// ends; the report's projection then holds no runs. Memory stays that
    /// of one run however long the stream (`agui-conform check` prints runs
    /// this way).
    pub fn with_projection_sink(sink: impl FnMut(Value) + 'static) -> Self {
        Checker {
            projector: Some(Projector::with_sink(sink)),
            ..Checker::new()
        }
    }

    /// [`Checker::with_projection_sink`] handing over each run's canonical
    /// JSON text instead of a `Value` (none is built), in pieces with
    /// `true` on a run's last ([`crate::projection::TextSink`]): how `check
    /// --format json` prints the projection.
    pub fn with_projection_text_sink(sink: impl FnMut(&[u8], bool) + 'static) -> Self {
        Checker {
            projector: Some(Projector::with_text_sink(sink)),
            ..Checker::new()
        }
    }

    /// A checker that only reports violations (faster; no projection).
    pub fn without_projection() -> Self {
        Checker {
            projector: None,
            ..Checker::new()
        }
    }

    /// The same checker under other limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        if let Some(p) = self.projector.as_mut() {
            p.set_budget(limits.projection_bytes);
        }
        self
    }

    /// The same checker, handing every violation and limit notice to
    /// `sink` as soon as it is found (in stream order) instead of keeping
    /// it: memory stays the same however many there are. The report then
    /// lists none, but still counts them.
    pub fn with_sink(mut self, sink: impl FnMut(Finding<'_>) + 'static) -> Self {
        self.sink = Some(Box::new(sink));
        self
    }

    /// Applies a rule configuration: a rule turned off is neither reported
    /// nor counted; a rule given another severity counts with it.
    pub fn with_levels(mut self, levels: RuleLevels) -> Self {
        self.levels = (!levels.is_empty()).then_some(levels);
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// What was found so far, in all.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Number of items fed so far.
    pub fn events(&self) -> usize {
        self.index
    }

    /// Violations found so far.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The rule families (catalogue areas, in catalogue order) that judged
    /// at least one event so far: an area counts when the checker entered
    /// one of its rules' judgement for an event (see [`Checker::judged`])
    /// and that event's findings were kept, that is not in blind mode
    /// after a skipped event, where only the schema's are.
    pub fn exercised_areas(&self) -> Vec<&'static str> {
        JUDGED_AREAS
            .iter()
            .enumerate()
            .filter(|(n, _)| self.exercised & (1 << n) != 0)
            .map(|(_, a)| *a)
            .collect()
    }

    /// Marks the event being checked as judged by a rule of `area` (one of
    /// [`area`]): called where the checker enters the area's judgement.
    #[inline(always)]
    fn judged(&mut self, area: u16) {
        self.judging |= area;
    }

    /// Takes the violations found so far (for live reports on long streams).
    pub fn drain_violations(&mut self) -> Vec<Violation> {
        std::mem::take(&mut self.violations)
    }

    /// The stream's state document as it stands.
    pub fn state(&self) -> &Value {
        &self.state
    }

    /// Feeds a stream item that could not be parsed as JSON at all (bad
    /// UTF-8, a syntax error, a truncated line): `schema.not-json`.
    pub fn push_unparseable(&mut self, why: &str) {
        let i = self.index;
        self.index += 1;
        self.judged(area::SCHEMA);
        self.report(
            RuleId::SchemaNotJson,
            i,
            format!("not a JSON object: {why}"),
        );
        self.no_event(i);
        self.flush();
    }

    /// Feeds a stream item the reader skipped at one of its limits (a line
    /// too long, nesting too deep): a limit notice at its index, no
    /// violation. The skipped event is unknown, not absent: until the next
    /// `RUN_STARTED` only the per-event rules are judged, and state
    /// tracking and the judgement of resumption stop for the stream.
    pub fn push_over_limit(&mut self, kind: LimitKind, limit: usize, why: &str) {
        let i = self.index;
        self.index += 1;
        self.notice(LimitNotice::new(kind, i, limit as u64, why));
        self.blind = true;
        self.resume_off = true;
        self.state_off = true;
        if let Some(p) = self.projector.as_mut() {
            p.mark_incomplete();
        }
    }

    /// Whether an event was skipped at a limit with no `RUN_STARTED`
    /// read since (only the per-event rules are judged now).
    pub fn blind(&self) -> bool {
        self.blind
    }

    /// Ends the input early at a limit of the checker's own (a live
    /// exchange out of time): the notice, and no `run.unterminated` at the
    /// end, since the producer was not given the chance to end its run.
    pub fn cut(&mut self, n: LimitNotice) {
        self.cut = true;
        self.notice(n);
    }

    /// Reports a violation found outside the events (the `transport.*`
    /// rules of a live check or an SSE capture), through the same counting
    /// and sink as the rest, at its own index (normally [`Checker::events`],
    /// so it stays in stream order).
    pub fn report_external(&mut self, v: Violation) {
        self.pending.push(v);
        self.flush();
    }

    /// Whether the stream's last run has its terminal event: a transport
    /// failure now leaves no run unfinished.
    pub fn run_ended(&self) -> bool {
        matches!(self.phase, Phase::Finished | Phase::Errored)
    }

    /// Whether a run is open (started, or implied by a first event that is
    /// not `RUN_STARTED`, and not yet ended).
    pub fn run_open(&self) -> bool {
        self.phase == Phase::Active
    }

    /// The connection ended abnormally with the last run still open:
    /// `transport.ended-early` here, reported instead of `run.unterminated`
    /// at the end (docs/rules.md "Transport rules").
    pub fn end_early(&mut self, why: &str) {
        let i = self.index;
        self.cut = true;
        // After a skipped event whether the run ended is unknown: the
        // skipped event may have been its RUN_FINISHED.
        if self.blind {
            return;
        }
        self.report_external(Violation::new(
            RuleId::TransportEndedEarly,
            i,
            format!("the connection ended before the last run's RUN_FINISHED or RUN_ERROR: {why}"),
        ));
    }

    /// Records a limit notice at once (notices are not sorted with an
    /// event's violations: a limit stops judging, so it comes first).
    pub fn notice(&mut self, n: LimitNotice) {
        self.flush();
        self.counts.add_limit(&n);
        if let Some(sink) = self.sink.as_mut() {
            sink(Finding::Limit(&n));
        } else if self.notices.len() < self.limits.violations {
            self.notices.push(n);
        }
    }

    /// Feeds the next stream item with what its parse noted (duplicate
    /// keys, lone surrogates: warnings of this event).
    pub fn push_parsed(&mut self, item: &Value, notes: &[Note]) {
        if notes
            .iter()
            .any(|n| matches!(n, Note::LoneSurrogate { .. }))
            && let Some(p) = self.projector.as_mut()
        {
            p.saw_lone_surrogate();
        }
        for note in notes {
            let v = match note {
                Note::DuplicateKey { path, key } => Violation::new(
                    RuleId::SchemaDuplicateKey,
                    self.index,
                    format!(
                        "the object at {} has the key {key:?} more than once; the last value counts",
                        if path.is_empty() { "the top" } else { path }
                    ),
                )
                .at_path(path.clone()),
                Note::LoneSurrogate { path, unit } => Violation::new(
                    RuleId::SchemaLoneSurrogate,
                    self.index,
                    format!(
                        "the string at {path} holds the lone surrogate \\u{unit:04x}, not half of a pair"
                    ),
                )
                .at_path(path.clone()),
            };
            self.pending.push(v);
        }
        self.push(item);
    }

    /// Feeds the next stream item.
    pub fn push(&mut self, item: &Value) {
        let i = self.index;
        self.index += 1;
        self.judged(area::SCHEMA);
        let judged = schema::judge(item);
        let stripped = judged.stripped(item);
        let dropped = judged.dropped;
        for issue in judged.issues {
            let v = Violation::new(issue.rule, i, issue.message);
            self.pending.push(if issue.path.is_empty() {
                v
            } else {
                v.at_path(issue.path)
            });
        }
        if dropped {
            // docs/rules.md `schema.unknown-type`: the event opens, closes
            // and changes nothing; nothing of it is shown.
            self.flush();
            return;
        }
        // What a consumer keeps of it, unrecognised members stripped.
        let item = stripped.as_ref().unwrap_or(item);
        match item.as_object().and_then(|obj| {
            let ty = s(obj, wire::TYPE).and_then(EventType::from_name)?;
            Some((obj, ty))
        }) {
            Some((obj, ty)) => {
                let typed = Typed::from_map(ty, obj);
                // A `delta` that is not an RFC 6902 patch document (an
                // operation without `path`, a path that is no JSON Pointer)
                // does not apply: its schema fault, and `state.patch-fails`.
                self.unreadable_delta = matches!(&typed.body, Body::StateDelta { delta: None })
                    && obj.contains_key(wire::key::StateDelta::delta);
                self.dispatch(i, &typed);
                self.unreadable_delta = false;
            }
            None => self.no_event(i),
        }
        self.flush();
    }

    #[inline]
    fn flush(&mut self) {
        // The areas that judged the event count as its findings do: all of
        // them with judging on, the schema's alone in blind mode.
        let judged = std::mem::take(&mut self.judging);
        self.exercised |= if self.blind {
            judged & area::SCHEMA
        } else {
            judged
        };
        if self.pending.is_empty() {
            return;
        }
        self.pending.sort_by_key(|v| v.rule);
        let mut pending = std::mem::take(&mut self.pending);
        for mut v in pending.drain(..) {
            if self.blind && !v.rule.rule().judged_blind() {
                continue;
            }
            if let Some(level) = self.levels.as_ref().and_then(|l| l.get(v.rule)) {
                if level == crate::rules::Severity::None {
                    continue;
                }
                v.severity = level;
            }
            self.counts.add_violation(&v);
            if let Some(sink) = self.sink.as_mut() {
                sink(Finding::Violation(&v));
            } else if self.violations.len() < self.limits.violations {
                self.violations.push(v);
            } else if !self.kept_full {
                // Once: the list is full from here on.
                self.kept_full = true;
                let n = LimitNotice::new(
                    LimitKind::Violations,
                    v.index,
                    self.limits.violations as u64,
                    format!(
                        "more than {} violations: the rest are counted, not kept",
                        self.limits.violations
                    ),
                );
                self.counts.add_limit(&n);
                if self.notices.len() < self.limits.violations {
                    self.notices.push(n);
                }
            }
        }
        self.pending = pending;
    }

    fn report(&mut self, rule: RuleId, i: usize, message: String) {
        self.pending.push(Violation::new(rule, i, message));
    }

    /// [`Checker::report`] naming the earlier event the violation refers to
    /// (`Violation.related`):
    /// - `run.already-active`, `run.unterminated`, `run.ids-disagree`:
    ///   the run's start;
    ///   `run.after-finished`, `run.after-error`: the run's end;
    /// - `run.open-entities-at-finish`: the earliest opener still open;
    /// - `text`/`tool`/`reasoning`/`step.already-open`: the open one's opener;
    /// - `ownership.*` (but `step-owner`), `chunk.*` continuations: the event
    ///   that put the owner on record; `ownership.step-owner`: the
    ///   `STEP_STARTED` of the step it closes;
    /// - `lifecycle.already-active`, `lifecycle.open-at-run-finish` (the
    ///   first still active): the announcement; `lifecycle.reused-id`,
    ///   `lifecycle.not-active`: the invocation's end in this run;
    ///   `lifecycle.resumed-not-suspended`, `lifecycle.unknown-parent` (a
    ///   parent that ended in an earlier run): that end;
    /// - `tool.args-not-json`: the call's opener; `tool.result-before-end`:
    ///   the open call's opener; `messages.snapshot-disagrees`: the opener
    ///   of the message or call streamed (a message's first);
    /// - `interrupt.*`: the invocation's suspended `SUBAGENT_FINISHED`;
    /// - `chunk.opener-disagrees`: the opening chunk.
    ///
    /// None, with no single earlier event to name: `schema.*`,
    /// `attribution.*` and the `lifecycle.*` schema rules (the event
    /// itself); `run.first-event`; `run.thread-changed` (any earlier run);
    /// `interrupt.duplicate-id` (the outcome itself); `*.not-open` (nothing open: the id may
    /// never have been seen); `state.patch-fails` (the state is built by
    /// many events); `lifecycle.announce-after-attribution` (any of the
    /// attributed events); `lifecycle.not-active` and
    /// `lifecycle.unknown-parent` for an id never announced (or announced
    /// but never ended in an earlier run); `chunk.ambiguous` (several
    /// streams), `chunk.no-stream`, `chunk.missing-name`; `transport.*`.
    fn report_related(&mut self, rule: RuleId, i: usize, message: String, at: Option<usize>) {
        let mut v = Violation::new(rule, i, message);
        v.related = at;
        self.pending.push(v);
    }

    /// Hands on the projection of a run that ended (a run is otherwise
    /// handed on when the next one starts or the input ends, since a late
    /// `RUN_ERROR` may still mark it errored): for a reader whose input
    /// comes in separate responses, at the end of each.
    pub fn settle_projection(&mut self) {
        if let Some(p) = self.projector.as_mut() {
            p.settle(&self.state);
        }
    }

    /// Ends the input: end-of-input rules, then the report.
    pub fn finish(mut self) -> Report {
        let n = self.index;
        if self.phase == Phase::Active && !self.book.implicit && !self.cut && !self.blind {
            self.report_related(
                RuleId::RunUnterminated,
                n,
                "input ends inside a run: no RUN_FINISHED or RUN_ERROR closed it".to_owned(),
                Some(self.run_mark),
            );
        }
        self.flush();
        let exercised = self.exercised_areas();
        let state = std::mem::take(&mut self.state);
        Report {
            exercised,
            violations: self.violations,
            limits: self.notices,
            counts: self.counts,
            projection: self.projector.map(|p| p.finish(&state)),
            events: n,
        }
    }

    /// The bookkeeping's budget, after an event: past it, what is on
    /// record is dropped (its memory freed) and the rest of the run is
    /// judged as after a skipped event (per-event rules only until the
    /// next `RUN_STARTED`; no resumption judged for the rest of the
    /// stream).
    fn bookkeeping_budget(&mut self, i: usize) {
        let growth = self.book.growth() + self.remembered.ids.len() + self.lanes.len();
        if growth == self.book_growth {
            return;
        }
        self.book_growth = growth;
        let held = self.book.footprint() + self.remembered.footprint() + self.lanes.footprint();
        if held <= self.limits.bookkeeping_bytes {
            return;
        }
        let limit = self.limits.bookkeeping_bytes;
        self.notice(LimitNotice::new(
            LimitKind::BookkeepingBytes,
            i,
            limit as u64,
            format!(
                "what the checker keeps to judge the rules (the run's ids and what is on record for them) passed its budget of {limit} bytes: dropped; until the next RUN_STARTED only per-event rules are judged"
            ),
        ));
        self.book = RunBook::default();
        self.lanes = Lanes::default();
        self.remembered = Remembered::default();
        self.blind = true;
        self.frozen = true;
        self.resume_off = true;
        if let Some(p) = self.projector.as_mut() {
            p.freeze();
        }
    }
}

/// The hand-written stream builders of the integration tests
/// (`tests/support`), shared with the unit tests of each rule area.
#[cfg(test)]
#[path = "../../tests/support/mod.rs"]
mod streams;

#[cfg(test)]
mod tests;
