//! The streaming checker: one event in, violations out.
//!
//! [`Checker::push`] takes one stream item at a time. Per event it runs the
//! wire rules ([`crate::schema`]), then the run, entity, consistency,
//! lifecycle, ownership, interrupt and chunk rules against the bookkeeping
//! of the current run ([`book::RunBook`]), and drives the [`Projector`].
//! Violations of one event are reported in catalogue order.
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
mod fast;
mod json;
pub(crate) mod names;
mod said;

use crate::body::{Body, Typed, Val};
use crate::events::EventType;
use crate::json::Note;
use crate::levels::RuleLevels;
use crate::limits::{LimitKind, LimitNotice, Limits};
use crate::patch;
use crate::projection::{InvocationStatus, Projection, Projector, content_text};
use crate::rules::RuleId;
use crate::schema;
use crate::violation::{Verdict, Violation};
use crate::wire::{self, SUBAGENT_RUN_ID, nested};
use book::{InvocationState, Kind, Owner, Part, RunBook, who_tag};
use chunks::{Chunk, ChunkKind, Lanes};
pub use json::{CopyIn, JsonStream, copy_in};
use names::Name;
use serde_json::{Map, Value};

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

/// How an invocation last ended, remembered across the runs of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// Announced again after it ended, not (yet) closed.
    Open,
    Finished,
    Suspended,
    Errored,
    Abandoned,
}

/// How every invocation that ended in this stream last ended, and the
/// index of that end (its `SUBAGENT_FINISHED`/`SUBAGENT_ERROR`, or the
/// `RUN_ERROR` that abandoned it): the related event of the cross-run rules.
#[derive(Debug, Default)]
struct Remembered {
    ids: names::Names,
    how: Vec<(Ended, u32)>,
}

impl Remembered {
    fn footprint(&self) -> usize {
        self.ids.footprint() + self.how.capacity() * std::mem::size_of::<(Ended, u32)>()
    }

    fn set(&mut self, id: &str, how: Ended, at: usize) {
        let n = self.ids.intern(id).index();
        let entry = (how, u32::try_from(at).unwrap_or(u32::MAX));
        if n >= self.how.len() {
            self.how.resize(n + 1, entry);
        }
        self.how[n] = entry;
    }

    /// Marks a remembered id announced again; how and where it had ended.
    fn reopen(&mut self, id: &str) -> Option<(Ended, usize)> {
        let n = self.ids.find(id)?.index();
        let (how, at) = self.how.get_mut(n)?;
        Some((std::mem::replace(how, Ended::Open), *at as usize))
    }

    /// Where a remembered id last ended (kept when it is announced again).
    fn ended_at(&self, id: &str) -> Option<usize> {
        let n = self.ids.find(id)?.index();
        self.how.get(n).map(|&(_, at)| at as usize)
    }
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
            book: RunBook::default(),
            lanes: Lanes::default(),
            state: Value::Object(Map::new()),
            state_size: patch::mem_size(&Value::Object(Map::new())),
            remembered: Remembered::default(),
            tag_attributed: false,
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
        for issue in schema::validate(item) {
            let v = Violation::new(issue.rule, i, issue.message);
            self.pending.push(if issue.path.is_empty() {
                v
            } else {
                v.at_path(issue.path)
            });
        }
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
    /// - `run.already-active`, `run.unterminated`: the run's start;
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
    /// itself); `run.first-event`; `*.not-open` (nothing open: the id may
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
        let state = std::mem::take(&mut self.state);
        Report {
            violations: self.violations,
            limits: self.notices,
            counts: self.counts,
            projection: self.projector.map(|p| p.finish(&state)),
            events: n,
        }
    }

    // ---- runs ----

    /// A chunk may open an entity and continue it in one event, so the
    /// record it continues was made by this very event, whose attribution
    /// is not recorded yet: never skip recording it.
    fn chunk_event(&mut self, i: usize, ty: EventType, tag: Option<&str>, c: &Chunk<'_>) {
        self.chunk(i, ty, tag, c);
        self.tag_attributed = false;
    }

    /// `run.first-event`: the stream's first item is `what`, neither
    /// `RUN_STARTED` nor `RUN_ERROR`. An *implicit* run opens (checked as a
    /// run, never projected nor reported unterminated).
    fn first_event_not_a_start(&mut self, i: usize, what: &str) {
        self.report(
            RuleId::RunFirstEvent,
            i,
            format!("the first {what}; a stream starts with RUN_STARTED (or RUN_ERROR)"),
        );
        self.book.reset(true);
        self.phase = Phase::Active;
        self.run_mark = i;
    }

    /// A stream item that is no event (not JSON, not an object, no known
    /// `type`): the stream rules skip it, but as the stream's first item it
    /// is still the first event, and not a `RUN_STARTED` (the catalogue
    /// counts every item as an event).
    fn no_event(&mut self, i: usize) {
        if self.phase == Phase::Start {
            self.first_event_not_a_start(i, "item is not an event of a known type");
        }
    }

    /// The run rules of an event's place in the stream (before, inside or
    /// after a run); whether the event goes on to the rules of its type.
    fn enter(&mut self, i: usize, ty: EventType) -> bool {
        match (self.phase, ty) {
            (Phase::Active, EventType::RunStarted) if !self.book.implicit => {
                // docs/rules.md: per-run bookkeeping "is reset at each
                // `RUN_STARTED`" — this one too, although it breaks a rule.
                self.report_related(
                    RuleId::RunAlreadyActive,
                    i,
                    "RUN_STARTED while a run is active (no RUN_FINISHED or RUN_ERROR ended it); a new run starts here, the active one is abandoned".to_owned(),
                    Some(self.run_mark),
                );
                true
            }
            (_, EventType::RunStarted) | (Phase::Active, _) => true,
            (Phase::Start, EventType::RunError) => {
                self.run_mark = i;
                self.phase = Phase::Errored;
                false
            }
            (Phase::Start, _) => {
                self.first_event_not_a_start(i, &format!("event is {ty}"));
                true
            }
            (Phase::Finished, _) => {
                self.report_related(
                    RuleId::RunAfterFinished,
                    i,
                    format!("{ty} after RUN_FINISHED; only RUN_STARTED may follow a finished run"),
                    Some(self.run_mark),
                );
                false
            }
            (Phase::Errored, _) => {
                self.report_related(
                    RuleId::RunAfterError,
                    i,
                    format!(
                        "{ty} after RUN_ERROR; RUN_ERROR ends everything, only RUN_STARTED may follow"
                    ),
                    Some(self.run_mark),
                );
                false
            }
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

    /// The one dispatcher: every event, from either parse path (the
    /// borrowed fast path or the `Value` path), as a typed body. Taken by
    /// reference: the body is built in the caller's frame and never moved
    /// (moving it cost 5.7% of `check`, docs/performance-log.md).
    fn dispatch(&mut self, i: usize, ev: &Typed<'_>) {
        let ty = ev.body.event_type();
        if self.blind && ty == EventType::RunStarted {
            // Full checking resumes here, as at the stream's start: the
            // skipped event may have ended the run before it.
            self.blind = false;
            self.frozen = false;
            self.phase = Phase::Start;
        }
        if self.frozen {
            // Nothing is recorded; a run's end still ends what is shown.
            let status = match ty {
                EventType::RunFinished => "finished",
                EventType::RunError => "errored",
                _ => return,
            };
            if let Some(p) = self.projector.as_mut() {
                p.run_ended(status, &self.state);
            }
            return;
        }
        if !self.enter(i, ty) {
            return;
        }
        let Typed { tag, body } = ev;
        let tag = tag.as_deref();
        // The attribution is recorded after the rules ran (none of this
        // event's rules reads it: only SUBAGENT_STARTED asks, and it
        // attributes nothing), so a continuation whose tag is already on
        // record as attributed skips the lookup.
        let own_tag = tag.filter(|_| !ty.is_lifecycle());
        // The projector learns of an attribution with the book, after the
        // rules (a continuation of an entity its tag put on record needs
        // no lookup); a run boundary's before, in the run it ends.
        let boundary = matches!(
            ty,
            EventType::RunStarted | EventType::RunFinished | EventType::RunError
        );
        if boundary
            && let Some(id) = own_tag
            && let Some(p) = self.projector.as_mut()
        {
            p.attributed(self.book.names_mut(), id);
        }
        // The chunk shorthand: which events close which lanes (with no
        // chunk stream open there is none to close).
        if !self.lanes.is_empty() {
            self.close_lanes_for(i, ty, tag);
        }
        // After closing lanes: their ends judge other tags.
        self.tag_attributed = false;
        match body {
            Body::RunStarted {
                thread_id,
                run_id,
                input,
                ..
            } => self.run_started(i, thread_id.as_deref(), run_id.as_deref(), input.as_ref()),
            Body::RunFinished { outcome, .. } => {
                self.run_mark = i;
                self.run_finished(i, outcome.as_ref());
            }
            Body::RunError { .. } => {
                self.run_mark = i;
                self.run_error(i);
            }
            Body::TextMessageChunk {
                message_id,
                role,
                delta,
                name,
            } => {
                let c = Chunk {
                    kind: ChunkKind::Text,
                    id: message_id.as_deref(),
                    delta: delta.as_deref(),
                    role: role.as_deref(),
                    name: name.as_deref(),
                    tool_name: None,
                    parent: None,
                };
                self.chunk_event(i, ty, tag, &c);
            }
            Body::ToolCallChunk {
                tool_call_id,
                tool_call_name,
                parent_message_id,
                delta,
            } => {
                let c = Chunk {
                    kind: ChunkKind::Tool,
                    id: tool_call_id.as_deref(),
                    delta: delta.as_deref(),
                    role: None,
                    name: None,
                    tool_name: tool_call_name.as_deref(),
                    parent: parent_message_id.as_deref(),
                };
                self.chunk_event(i, ty, tag, &c);
            }
            Body::ReasoningMessageChunk { message_id, delta } => {
                let c = Chunk {
                    kind: ChunkKind::Reasoning,
                    id: message_id.as_deref(),
                    delta: delta.as_deref(),
                    role: None,
                    name: None,
                    tool_name: None,
                    parent: None,
                };
                self.chunk_event(i, ty, tag, &c);
            }
            Body::TextMessageStart {
                message_id, role, ..
            } => {
                if let Some(id) = message_id {
                    self.text_start(i, id, tag, role.as_deref().unwrap_or("assistant"));
                }
            }
            Body::TextMessageContent { message_id, delta } => {
                if let Some(id) = message_id {
                    self.text_content(i, id, tag, delta.as_deref().unwrap_or_default(), ty);
                }
            }
            Body::TextMessageEnd { message_id } => {
                if let Some(id) = message_id {
                    self.text_end(i, id, tag);
                }
            }
            Body::ToolCallStart {
                tool_call_id,
                tool_call_name,
                parent_message_id,
            } => {
                if let Some(id) = tool_call_id {
                    let name = tool_call_name.as_deref().unwrap_or_default();
                    self.tool_start(i, id, tag, name, parent_message_id.as_deref());
                }
            }
            Body::ToolCallArgs {
                tool_call_id,
                delta,
            } => {
                if let Some(id) = tool_call_id {
                    self.tool_args(i, id, tag, delta.as_deref().unwrap_or_default(), ty);
                }
            }
            Body::ToolCallEnd { tool_call_id } => {
                if let Some(id) = tool_call_id {
                    self.tool_end(i, id, tag);
                }
            }
            Body::ToolCallResult {
                message_id,
                tool_call_id,
                content,
                ..
            } => {
                if let Some(call) = tool_call_id {
                    self.result_for_call(i, call);
                }
                if let Some(id) = message_id {
                    let owner = self.book.owner_of(tag);
                    self.book.record(Kind::Text, id, owner, tag.is_some(), i);
                    if let Some(p) = self.projector.as_mut() {
                        let content = content.as_ref().and_then(Val::value);
                        let content = content_text(content.as_deref());
                        p.tool_result(self.book.names_mut(), id, content, tag);
                    }
                }
            }
            Body::ReasoningStart { message_id } => {
                if let Some(id) = message_id {
                    self.reasoning_start(i, id, tag);
                }
            }
            Body::ReasoningEnd { message_id } => {
                if let Some(id) = message_id {
                    self.reasoning_end(i, id, tag);
                }
            }
            Body::ReasoningMessageStart { message_id, .. } => {
                if let Some(id) = message_id {
                    self.reasoning_message_start(i, id, tag);
                }
            }
            Body::ReasoningMessageContent { message_id, delta } => {
                if let Some(id) = message_id {
                    let delta = delta.as_deref().unwrap_or_default();
                    self.reasoning_message_content(i, id, tag, delta, ty);
                }
            }
            Body::ReasoningMessageEnd { message_id } => {
                if let Some(id) = message_id {
                    self.reasoning_message_end(i, id, tag);
                }
            }
            Body::ReasoningEncryptedValue {
                subtype, entity_id, ..
            } => {
                if let Some(id) = entity_id {
                    let kind = match subtype.as_deref() {
                        Some("tool-call") => Some(Kind::Tool),
                        Some("message") if self.book.owner(Kind::Text, id).is_some() => {
                            Some(Kind::Text)
                        }
                        Some("message") => Some(Kind::Reasoning),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        self.continuation(i, kind, id, tag, ty);
                    }
                }
            }
            Body::StepStarted { step_name } => {
                if let Some(name) = step_name {
                    self.step_started(i, name, tag);
                }
            }
            Body::StepFinished { step_name } => {
                if let Some(name) = step_name {
                    self.step_finished(i, name, tag);
                }
            }
            Body::StateSnapshot { snapshot } => {
                if let Some(snapshot) = snapshot.as_ref().and_then(Val::value) {
                    self.replace_state(i, &snapshot);
                }
            }
            Body::StateDelta { delta } => match delta {
                Some(patch) => self.state_delta(i, patch),
                None if self.unreadable_delta => self.unreadable_patch(i),
                None => {}
            },
            Body::MessagesSnapshot { messages } => {
                let messages = messages.as_ref().and_then(Val::value);
                if let Some(Value::Array(messages)) = messages.as_deref() {
                    self.snapshot_agrees(i, messages);
                    self.record_messages(i, messages, true);
                    if let Some(p) = self.projector.as_mut() {
                        p.messages_snapshot(self.book.names_mut(), messages);
                    }
                }
            }
            Body::ActivitySnapshot {
                message_id,
                activity_type,
                content,
                replace,
            } => {
                if let Some(id) = message_id {
                    let replace = replace.unwrap_or(true);
                    let new = self.book.owner(Kind::Activity, id).is_none();
                    if new || replace {
                        let owner = self.book.owner_of(tag);
                        self.book
                            .record(Kind::Activity, id, owner, tag.is_some(), i);
                    }
                    if let Some(p) = self.projector.as_mut() {
                        let empty = Value::Object(Map::new());
                        let content = content.as_ref().and_then(Val::value);
                        p.activity_snapshot(
                            self.book.names_mut(),
                            id,
                            activity_type.as_deref().unwrap_or_default(),
                            content.as_deref().unwrap_or(&empty),
                            replace,
                            tag,
                        );
                    }
                }
            }
            Body::ActivityDelta {
                message_id, patch, ..
            } => {
                if let Some(id) = message_id {
                    self.continuation(i, Kind::Activity, id, tag, ty);
                    if let Some(p) = self.projector.as_mut()
                        && let Some(patch) = patch
                    {
                        p.activity_delta(self.book.names_mut(), id, patch);
                    }
                }
            }
            Body::Raw { .. } | Body::Custom { .. } => {}
            Body::SubagentStarted {
                name,
                parent_subagent_run_id,
                ..
            } => {
                if let Some(id) = tag {
                    let parent = parent_subagent_run_id.as_deref();
                    self.subagent_started(i, id, name.as_deref(), parent);
                }
            }
            Body::SubagentFinished { outcome, .. } => {
                if let Some(id) = tag {
                    let outcome = outcome.as_ref().and_then(Val::value);
                    let outcome = outcome.as_deref().and_then(Value::as_object);
                    self.subagent_ended(i, ty, id, outcome);
                }
            }
            Body::SubagentError { .. } => {
                if let Some(id) = tag {
                    self.subagent_ended(i, ty, id, None);
                }
            }
        }
        if let Some(id) = own_tag
            && !self.tag_attributed
        {
            self.book.attribute(id);
            if !boundary && let Some(p) = self.projector.as_mut() {
                p.attributed(self.book.names_mut(), id);
            }
        }
        self.bookkeeping_budget(i);
        if let Some(p) = self.projector.as_mut()
            && p.passed_budget()
        {
            let limit = self.limits.projection_bytes;
            self.notice(LimitNotice::new(
                LimitKind::ProjectionBytes,
                i,
                limit as u64,
                format!(
                    "the projection passed its budget of {limit} bytes: this run is shown incomplete from here; every rule is still judged"
                ),
            ));
        }
    }

    fn run_started(
        &mut self,
        i: usize,
        thread_id: Option<&str>,
        run_id: Option<&str>,
        input: Option<&Val<'_>>,
    ) {
        self.run_mark = i;
        if let Some(p) = self.projector.as_mut() {
            p.run_left_open(&self.state);
        }
        self.lanes = Lanes::default();
        self.book.reset(false);
        self.phase = Phase::Active;
        let input = input.and_then(Val::value);
        if let Some(input) = input.as_deref().and_then(Value::as_object) {
            match input.get(nested::STATE) {
                None | Some(Value::Null) => {}
                Some(state) => self.replace_state(i, state),
            }
            if let Some(Value::Array(messages)) = input.get(nested::MESSAGES) {
                self.record_messages(i, messages, false);
            }
        }
        if let Some(p) = self.projector.as_mut() {
            p.run_started(thread_id.unwrap_or_default(), run_id.unwrap_or_default());
        }
    }

    /// Records the owners of replayed messages (`MESSAGES_SNAPSHOT`
    /// replaces, the `RUN_STARTED` input only fills gaps).
    fn record_messages(&mut self, i: usize, messages: &[Value], replace: bool) {
        for m in messages {
            let Some(m) = m.as_object() else { continue };
            let Some(id) = s(m, nested::ID) else { continue };
            let owner = self.book.owner_of(s(m, SUBAGENT_RUN_ID));
            let role = s(m, nested::ROLE);
            let kind = match role {
                Some("reasoning") => Kind::Reasoning,
                Some("activity") => Kind::Activity,
                _ => Kind::Text,
            };
            if replace {
                self.book.record(kind, id, owner, false, i);
            } else {
                self.book.record_first(kind, id, owner, false, i);
            }
            if role == Some("assistant") {
                for call in m
                    .get(nested::TOOL_CALLS)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(cid) = call.get(nested::ID).and_then(crate::json::text) {
                        if replace {
                            self.book.record(Kind::Tool, cid, owner, false, i);
                        } else {
                            self.book.record_first(Kind::Tool, cid, owner, false, i);
                        }
                    }
                }
            }
        }
    }

    fn run_finished(&mut self, i: usize, outcome: Option<&Val<'_>>) {
        let (open, first_opener) = self.book.open_entities();
        if !open.is_empty() {
            self.report_related(
                RuleId::RunOpenEntitiesAtFinish,
                i,
                format!("RUN_FINISHED while open: {}", open.join(", ")),
                first_opener,
            );
        }
        let active_ids = self.book.active_invocations();
        let first_active = active_ids
            .first()
            .and_then(|id| self.book.invocation_at(id));
        let count = active_ids.len();
        let mut active: Vec<String> = active_ids
            .into_iter()
            .take(book::LISTED)
            .map(|s| format!("{s:?}"))
            .collect();
        if count > book::LISTED {
            active.push(format!("and {} more", count - book::LISTED));
        }
        if !active.is_empty() {
            self.report_related(
                RuleId::LifecycleOpenAtRunFinish,
                i,
                format!(
                    "RUN_FINISHED while invocation(s) {} still active",
                    active.join(", ")
                ),
                first_active,
            );
        }
        let outcome = outcome.and_then(Val::value);
        let outcome = outcome.as_deref().and_then(Value::as_object);
        let interrupted = outcome.and_then(|oc| s(oc, wire::TYPE)) == Some("interrupt");
        let interrupts: &[Value] = match outcome.and_then(|oc| oc.get(nested::INTERRUPTS)) {
            Some(Value::Array(list)) if interrupted => list,
            _ => &[],
        };
        for (inv, ids) in std::mem::take(&mut self.book.suspended) {
            // The invocation's suspended SUBAGENT_FINISHED, which listed
            // the interrupt ids.
            let suspended_at = self.book.invocation_at(&inv);
            if !interrupted {
                self.report_related(
                    RuleId::InterruptRunNotInterrupted,
                    i,
                    format!("invocation {inv:?} finished suspended, but the run's outcome is not `interrupt`"),
                    suspended_at,
                );
                continue;
            }
            for id in ids {
                match interrupts.iter().find(|x| x.get(nested::ID).and_then(crate::json::text) == Some(id.as_str())) {
                    None => self.report_related(
                        RuleId::InterruptUnknownId,
                        i,
                        format!("invocation {inv:?} lists interrupt {id:?}, which the run's interrupt outcome does not carry"),
                        suspended_at,
                    ),
                    Some(x) => {
                        let owner = x.get(SUBAGENT_RUN_ID).and_then(crate::json::text);
                        if owner != Some(inv.as_str()) {
                            self.report_related(
                                RuleId::InterruptOwnerMismatch,
                                i,
                                format!(
                                    "invocation {inv:?} lists interrupt {id:?}, but the run outcome attributes it to {}",
                                    who_tag(owner)
                                ),
                                suspended_at,
                            );
                        }
                    }
                }
            }
        }
        self.phase = Phase::Finished;
        if let Some(p) = self.projector.as_mut() {
            if interrupted {
                p.interrupts(interrupts);
            }
            p.run_ended("finished", &self.state);
        }
    }

    fn run_error(&mut self, i: usize) {
        if !self.resume_off {
            for id in self.book.active_invocations() {
                self.remembered.set(id, Ended::Abandoned, i);
            }
        }
        self.phase = Phase::Errored;
        if let Some(p) = self.projector.as_mut() {
            p.run_ended("errored", &self.state);
        }
    }

    // ---- ownership ----

    /// `ownership.continuation-disagrees`: a tagged event continuing an
    /// entity whose owner on record differs. An untagged one always agrees.
    fn continuation(&mut self, i: usize, kind: Kind, id: &str, tag: Option<&str>, ty: EventType) {
        if tag.is_none() {
            return;
        }
        let msg = self
            .book
            .owner(kind, id)
            .and_then(|rec| disagreement(&self.book, rec, id, tag, ty));
        if let Some(msg) = msg {
            let at = self.book.recorded_at(kind, id);
            self.report_related(RuleId::OwnershipContinuationDisagrees, i, msg, at);
        }
    }

    /// [`Checker::continuation`] of an open part, or `*.not-open`: the
    /// continuations and ends of text messages, tool calls and reasoning,
    /// with one lookup. `close` ends the part. The id's name when it was
    /// open.
    fn continue_open(
        &mut self,
        i: usize,
        part: Part,
        id: &str,
        tag: Option<&str>,
        ty: EventType,
        close: bool,
    ) -> Option<Name> {
        let rec = if close {
            self.book.close(part, id)
        } else {
            self.book.open_owner(part, id)
        };
        let Some((rec, attributed, name)) = rec else {
            let (rule, what) = match part {
                Part::Text => (RuleId::TextNotOpen, ""),
                Part::Tool => (RuleId::ToolNotOpen, ""),
                Part::Span => (RuleId::ReasoningNotOpen, "span "),
                Part::Message => (RuleId::ReasoningNotOpen, "reasoning message "),
            };
            self.report(rule, i, format!("{ty} for {what}{id:?}, which is not open"));
            // The owner outlives the entity's close (docs/rules.md, ownership):
            // a continuation after the close is still judged against it.
            self.continuation(i, part.kind(), id, tag, ty);
            return None;
        };
        let agrees = tag.is_some() && self.book.is_tag(rec, tag);
        self.tag_attributed = agrees && attributed;
        if let Some(msg) = disagreement(&self.book, rec, id, tag, ty) {
            let at = self.book.recorded_at(part.kind(), id);
            self.report_related(RuleId::OwnershipContinuationDisagrees, i, msg, at);
        }
        Some(name)
    }

    /// `ownership.reopen-disagrees`: an opener of an id on record while
    /// nothing of it is open, whose effective owner differs from the record.
    fn reopen(&mut self, i: usize, kind: Kind, id: &str, effective: Option<Owner>, ty: EventType) {
        let Some(eff) = effective else { return };
        if let Some(rec) = self.book.owner(kind, id)
            && rec != eff
        {
            let (rec, eff) = (self.book.who(rec), self.book.who(eff));
            let at = self.book.recorded_at(kind, id);
            self.report_related(
                RuleId::OwnershipReopenDisagrees,
                i,
                format!("{ty} reopens {id:?} as {eff}, but {id:?} is on record as {rec}'s"),
                at,
            );
        }
    }

    // ---- text messages ----

    fn text_start(&mut self, i: usize, id: &str, tag: Option<&str>, role: &str) {
        let ty = EventType::TextMessageStart;
        if let Some(at) = self.book.opened_at(Part::Text, id) {
            self.report_related(
                RuleId::TextAlreadyOpen,
                i,
                format!("TEXT_MESSAGE_START for {id:?}, which is already open"),
                Some(at),
            );
            return;
        }
        let owner = self.book.owner_of(tag);
        self.reopen(i, Kind::Text, id, tag.map(|_| owner), ty);
        let name = self
            .book
            .record_first(Kind::Text, id, owner, tag.is_some(), i);
        self.book.open(Part::Text, id, i);
        self.book.said.text_started(name, i);
        if let Some(p) = self.projector.as_mut() {
            let owner = self.book.owner(Kind::Text, id).flatten();
            p.message_started(self.book.names_mut(), name, role, owner);
        }
    }

    fn text_content(&mut self, i: usize, id: &str, tag: Option<&str>, delta: &str, ty: EventType) {
        let Some(name) = self.continue_open(i, Part::Text, id, tag, ty, false) else {
            return;
        };
        let fold_at = (self.limits.bookkeeping_bytes / 8).min(said::FOLD_BYTES);
        self.book.said.text_delta(name, delta, fold_at);
        if let Some(p) = self.projector.as_mut() {
            p.message_content(name, delta);
        }
    }

    fn text_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        self.continue_open(i, Part::Text, id, tag, EventType::TextMessageEnd, true);
    }

    // ---- tool calls ----

    fn tool_start(
        &mut self,
        i: usize,
        id: &str,
        tag: Option<&str>,
        name: &str,
        parent: Option<&str>,
    ) {
        let ty = EventType::ToolCallStart;
        if let Some(at) = self.book.opened_at(Part::Tool, id) {
            self.report_related(
                RuleId::ToolAlreadyOpen,
                i,
                format!("TOOL_CALL_START for {id:?}, which is already open"),
                Some(at),
            );
            return;
        }
        let parent_owner = parent.and_then(|m| self.book.owner(Kind::Text, m));
        let effective: Option<Owner> = match tag {
            Some(t) => Some(self.book.owner_of(Some(t))),
            None => parent_owner,
        };
        self.reopen(i, Kind::Tool, id, effective, ty);
        if let (Some(t), Some(m), Some(po)) = (tag, parent, parent_owner)
            && !self.book.is_tag(po, Some(t))
        {
            let po = self.book.who(po);
            let at = self.book.recorded_at(Kind::Text, m);
            self.report_related(
                    RuleId::OwnershipToolCallVsMessage,
                    i,
                    format!("TOOL_CALL_START {id:?} carries subagentRunId {t:?}, but its message {m:?} belongs to {po}"),
                    at,
                );
        }
        let call_owner: Owner = effective
            .or_else(|| self.book.owner(Kind::Tool, id))
            .flatten();
        if let Some(m) = parent
            && parent_owner.is_none()
        {
            let own = tag.is_some() && self.book.is_tag(call_owner, tag);
            self.book.record(Kind::Text, m, call_owner, own, i);
        }
        let key =
            self.book
                .record_first(Kind::Tool, id, effective.unwrap_or(None), tag.is_some(), i);
        self.book.open(Part::Tool, id, i);
        let tool = self.book.intern_name(name);
        self.book.said.call_started(key, tool, i);
        if let Some(p) = self.projector.as_mut() {
            p.tool_call_started(self.book.names_mut(), key, name, parent, call_owner);
        }
    }

    fn tool_args(&mut self, i: usize, id: &str, tag: Option<&str>, delta: &str, ty: EventType) {
        let Some(name) = self.continue_open(i, Part::Tool, id, tag, ty, false) else {
            return;
        };
        self.book.said.call_args(name, delta);
        if let Some(p) = self.projector.as_mut() {
            p.tool_call_args(name, delta);
        }
    }

    /// An explicit `TOOL_CALL_END`, or the END a chunk lane's close stands
    /// for: `i` is the event that ends the call.
    fn tool_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ToolCallEnd;
        if let Some(name) = self.continue_open(i, Part::Tool, id, tag, ty, true) {
            self.call_ended(i, id, name);
        }
    }

    // ---- reasoning ----

    /// Shared by `REASONING_START` and `REASONING_MESSAGE_START`: an opener
    /// whose id names an open span or message is a continuation.
    fn reasoning_opener(&mut self, i: usize, id: &str, tag: Option<&str>, ty: EventType) -> Name {
        let owner = self.book.owner_of(tag);
        if self.book.reasoning_open(id) {
            self.continuation(i, Kind::Reasoning, id, tag, ty);
        } else {
            self.reopen(i, Kind::Reasoning, id, tag.map(|_| owner), ty);
        }
        self.book
            .record_first(Kind::Reasoning, id, owner, tag.is_some(), i)
    }

    fn reasoning_start(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ReasoningStart;
        if let Some(at) = self.book.opened_at(Part::Span, id) {
            self.report_related(
                RuleId::ReasoningAlreadyOpen,
                i,
                format!("REASONING_START for span {id:?}, which is already open"),
                Some(at),
            );
        }
        self.reasoning_opener(i, id, tag, ty);
        self.book.open(Part::Span, id, i);
    }

    fn reasoning_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        self.continue_open(i, Part::Span, id, tag, EventType::ReasoningEnd, true);
    }

    fn reasoning_message_start(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ReasoningMessageStart;
        let opened_at = self.book.opened_at(Part::Message, id);
        let was_open = opened_at.is_some();
        if was_open {
            self.report_related(
                RuleId::ReasoningAlreadyOpen,
                i,
                format!(
                    "REASONING_MESSAGE_START for reasoning message {id:?}, which is already open"
                ),
                opened_at,
            );
        }
        let name = self.reasoning_opener(i, id, tag, ty);
        self.book.open(Part::Message, id, i);
        if !was_open && let Some(p) = self.projector.as_mut() {
            let owner = self.book.owner(Kind::Reasoning, id).flatten();
            p.message_started(self.book.names_mut(), name, "reasoning", owner);
        }
    }

    fn reasoning_message_content(
        &mut self,
        i: usize,
        id: &str,
        tag: Option<&str>,
        delta: &str,
        ty: EventType,
    ) {
        let Some(name) = self.continue_open(i, Part::Message, id, tag, ty, false) else {
            return;
        };
        if let Some(p) = self.projector.as_mut() {
            p.message_content(name, delta);
        }
    }

    fn reasoning_message_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ReasoningMessageEnd;
        self.continue_open(i, Part::Message, id, tag, ty, true);
    }

    // ---- steps ----

    fn step_started(&mut self, i: usize, name: &str, tag: Option<&str>) {
        let owner = self.book.owner_of(tag);
        let holders = self.book.step_holders(name);
        if let Some(&(_, at)) = holders.iter().find(|(o, _)| *o == owner) {
            let who = self.book.who(owner);
            self.report_related(
                RuleId::StepAlreadyOpen,
                i,
                format!("STEP_STARTED {name:?} by {who}, who already has it open"),
                Some(at as usize),
            );
        } else {
            holders.push((owner, u32::try_from(i).unwrap_or(u32::MAX)));
        }
    }

    fn step_finished(&mut self, i: usize, name: &str, tag: Option<&str>) {
        let owner = self.book.owner_of(tag);
        let Some(holders) = self.book.open_step(name) else {
            self.report(
                RuleId::StepNotOpen,
                i,
                format!("STEP_FINISHED {name:?}, which no one has open"),
            );
            return;
        };
        if let Some(at) = holders.iter().position(|(o, _)| *o == owner) {
            holders.remove(at);
        } else {
            let others = holders.clone();
            // The step it closes: the first holder's, named by its
            // STEP_STARTED.
            let (_, closed_at) = holders.remove(0);
            let names: Vec<String> = others.iter().map(|&(o, _)| self.book.who(o)).collect();
            let msg = format!(
                "STEP_FINISHED {name:?} by {}, but only {} has it open",
                self.book.who(owner),
                names.join(" and ")
            );
            self.report_related(RuleId::OwnershipStepOwner, i, msg, Some(closed_at as usize));
        }
        self.book.drop_step_if_closed(name);
    }

    // ---- state ----

    /// A `STATE_DELTA` whose `delta` reads as a patch (one that does not is
    /// a schema fault, reported there).
    fn state_delta(&mut self, i: usize, patch: &[json_patch::PatchOperation]) {
        if self.state_off {
            return;
        }
        let budget = patch::PatchBudget {
            state_bytes: self.limits.state_bytes,
            work: self.limits.state_bytes,
        };
        match patch::apply(&mut self.state, &mut self.state_size, patch, &budget) {
            Ok(()) => {}
            Err(e @ patch::PatchError::Fails { .. }) => self.report(
                RuleId::StatePatchFails,
                i,
                format!("STATE_DELTA does not apply to the state: {e}; state left unchanged"),
            ),
            Err(e @ patch::PatchError::OverBudget { .. }) => self.state_limit(
                i,
                format!("STATE_DELTA would pass the state budget: {e}; state tracking stops"),
            ),
        }
    }

    /// A `STATE_DELTA` whose `delta` is not a patch document: it does not
    /// apply, and the state stays as it is.
    fn unreadable_patch(&mut self, i: usize) {
        if self.state_off {
            return;
        }
        self.report(
            RuleId::StatePatchFails,
            i,
            "STATE_DELTA does not apply to the state: its delta is not an RFC 6902 patch document; state left unchanged".to_owned(),
        );
    }

    /// A state document (snapshot or input state) replaces the state,
    /// unless it is over the state budget or tracking already stopped.
    fn replace_state(&mut self, i: usize, state: &Value) {
        if self.state_off {
            return;
        }
        let size = patch::mem_size(state);
        if size > self.limits.state_bytes {
            let msg = format!(
                "a state document holding {size} bytes in memory is over the state budget of {}; state tracking stops",
                self.limits.state_bytes
            );
            self.state_limit(i, msg);
            return;
        }
        self.state = state.clone();
        self.state_size = size;
    }

    /// The state budget was hit: a `state-bytes` notice, and no more state
    /// tracking for this stream (so `state.patch-fails` is no longer judged;
    /// the projection shows the state as it stood).
    fn state_limit(&mut self, i: usize, message: String) {
        self.state_off = true;
        let n = LimitNotice::new(
            LimitKind::StateBytes,
            i,
            self.limits.state_bytes as u64,
            message,
        );
        self.notice(n);
    }

    // ---- lifecycle ----

    fn subagent_started(&mut self, i: usize, id: &str, name: Option<&str>, parent: Option<&str>) {
        if let Some(p) = parent
            && self.book.invocation(p).is_none()
        {
            // A parent known from an earlier run: where it last ended.
            let at = self.remembered.ended_at(p);
            self.report_related(
                RuleId::LifecycleUnknownParent,
                i,
                format!("SUBAGENT_STARTED {id:?} names parent {p:?}, which was not announced in this run"),
                at,
            );
        }
        if self.book.invocation(id) == Some(InvocationState::Active) {
            let at = self.book.invocation_at(id);
            self.report_related(
                RuleId::LifecycleAlreadyActive,
                i,
                format!("SUBAGENT_STARTED {id:?} while invocation {id:?} is already active"),
                at,
            );
            return;
        }
        // Only ids that ended are kept (absent reads as open), so a new id
        // costs one lookup here and one insertion when it ends.
        let before = if self.resume_off {
            None
        } else {
            self.remembered.reopen(id)
        };
        match self.book.invocation(id) {
            Some(ended) => {
                let how = match ended {
                    InvocationState::Suspended => "finished (suspended)",
                    InvocationState::Errored => "errored",
                    _ => "finished",
                };
                let at = self.book.invocation_at(id);
                self.report_related(
                    RuleId::LifecycleReusedId,
                    i,
                    format!("SUBAGENT_STARTED {id:?}: invocation {id:?} already {how} in this run; a new invocation needs a new id"),
                    at,
                );
            }
            None => {
                if self.book.is_attributed(id) {
                    self.report(
                        RuleId::LifecycleAnnounceAfterAttribution,
                        i,
                        format!("SUBAGENT_STARTED {id:?} comes after events already attributed to {id:?} in this run"),
                    );
                }
                if let Some((how @ (Ended::Finished | Ended::Errored), ended_at)) = before {
                    let how = if how == Ended::Finished {
                        "finished"
                    } else {
                        "errored"
                    };
                    self.report_related(
                        RuleId::LifecycleResumedNotSuspended,
                        i,
                        format!("SUBAGENT_STARTED {id:?} resumes an invocation an earlier run closed {how}, not suspended"),
                        Some(ended_at),
                    );
                }
            }
        }
        self.book.set_invocation(id, InvocationState::Active, i);
        if let Some(p) = self.projector.as_mut() {
            p.announced(self.book.names_mut(), id, name, parent);
        }
    }

    /// `SUBAGENT_FINISHED` (with its outcome, if an object) or
    /// `SUBAGENT_ERROR`.
    fn subagent_ended(
        &mut self,
        i: usize,
        ty: EventType,
        id: &str,
        outcome: Option<&Map<String, Value>>,
    ) {
        if self.book.invocation(id) != Some(InvocationState::Active) {
            let why = if self.book.invocation(id).is_some() {
                "already closed"
            } else {
                "never announced in this run"
            };
            let at = self.book.invocation_at(id);
            self.report_related(
                RuleId::LifecycleNotActive,
                i,
                format!("{ty} for {id:?}, which is not active ({why})"),
                at,
            );
            return;
        }
        let (state, ended, status) = if ty == EventType::SubagentError {
            (
                InvocationState::Errored,
                Ended::Errored,
                InvocationStatus::Errored,
            )
        } else {
            if outcome.and_then(|oc| s(oc, wire::TYPE)) == Some("suspended") {
                let ids: Vec<String> = outcome
                    .and_then(|oc| oc.get(nested::INTERRUPT_IDS))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(crate::json::text)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                self.book.suspended.push((id.to_owned(), ids.clone()));
                (
                    InvocationState::Suspended,
                    Ended::Suspended,
                    InvocationStatus::Suspended(ids),
                )
            } else {
                (
                    InvocationState::Finished,
                    Ended::Finished,
                    InvocationStatus::Finished,
                )
            }
        };
        // Both are on record since the announcement: no new keys.
        self.book.set_invocation(id, state, i);
        if !self.resume_off {
            self.remembered.set(id, ended, i);
        }
        if let Some(p) = self.projector.as_mut() {
            p.invocation_ended(self.book.names_mut(), id, status);
        }
    }
}

/// The `ownership.continuation-disagrees` message, if a continuation of
/// `id` tagged `tag` disagrees with `rec`, its owner on record (an untagged
/// one always agrees).
fn disagreement(
    book: &RunBook,
    rec: Owner,
    id: &str,
    tag: Option<&str>,
    ty: EventType,
) -> Option<String> {
    let t = tag?;
    if book.is_tag(rec, Some(t)) {
        return None;
    }
    let rec = book.who(rec);
    Some(format!(
        "{ty} for {id:?} carries subagentRunId {t:?}, but {id:?} was opened by {rec}"
    ))
}

/// The outcome of checking one stream.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The violations kept, in stream order (catalogue order within one
    /// event): every one, unless [`Limits::violations`] was passed or a
    /// sink took them.
    pub violations: Vec<Violation>,
    /// The limit notices kept, in stream order.
    pub limits: Vec<LimitNotice>,
    /// Everything found, kept or not.
    pub counts: Counts,
    pub projection: Option<Projection>,
    /// Number of stream items read.
    pub events: usize,
}

impl Report {
    /// A report of these violations and nothing else (tests, summaries).
    pub fn of(violations: Vec<Violation>, events: usize) -> Report {
        let mut counts = Counts::default();
        for v in &violations {
            counts.add_violation(v);
        }
        Report {
            violations,
            counts,
            events,
            ..Report::default()
        }
    }

    pub fn verdict(&self) -> Verdict {
        self.counts.verdict()
    }

    /// The first violation of any severity.
    pub fn first(&self) -> Option<&Violation> {
        self.violations.first()
    }
}

/// Checks a whole stream held in memory.
pub fn check_values(events: &[Value]) -> Report {
    let mut c = Checker::new();
    for e in events {
        c.push(e);
    }
    c.finish()
}
