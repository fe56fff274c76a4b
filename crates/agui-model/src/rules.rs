//! The rule catalogue, as data (`docs/rules.md` is generated from it:
//! `agui-conform rules --format markdown`).
//!
//! This is the one place rule ids are spelled. Everything else (checker,
//! corpus, generators, harness, CLI) refers to a [`RuleId`] and reads the
//! id, statement, severity and obligation from [`RuleId::rule`]. Variants are
//! declared in catalogue order, so sorting violations of one event by
//! `RuleId` gives the order docs/rules.md demands.

use std::fmt;

/// What the rule asks of a producer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// MUST / MUST NOT: the stream is invalid.
    Error,
    /// SHOULD, or a consistency check inferred from the draft or docs.
    Warning,
    /// Not a violation (`accept.*` obligations).
    None,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::None => "none",
        }
    }
}

/// What the rule asks of a consumer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Obligation {
    MustReject,
    ShouldReject,
    MayReject,
    MustAccept,
    /// Transport rules: checked on producers' HTTP exchanges only; the
    /// consumer harness works on event streams and never scores them.
    None,
}

impl Obligation {
    pub fn as_str(self) -> &'static str {
        match self {
            Obligation::MustReject => "must-reject",
            Obligation::ShouldReject => "should-reject",
            Obligation::MayReject => "may-reject",
            Obligation::MustAccept => "must-accept",
            Obligation::None => "none",
        }
    }
}

/// Where a rule comes from (docs/rules.md "Sources").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    Schema,
    Draft,
    DraftDocs,
    Base,
    Docs,
    /// The official AG-UI specification (revision 4): its pages, schema
    /// and conformance corpus, beside the schema.
    SchemaSpec,
    /// The official specification beside the draft.
    DraftSpec,
    /// The official specification beside the base rules.
    BaseSpec,
    /// The official specification alone.
    Spec,
    /// The AG-UI HTTP agent (SSE) and the HTML Living Standard's
    /// server-sent events parsing.
    Transport,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Schema => "schema",
            Source::Draft => "draft",
            Source::DraftDocs => "draft, docs",
            Source::Base => "base",
            Source::Docs => "docs",
            Source::SchemaSpec => "schema, spec",
            Source::DraftSpec => "draft, spec",
            Source::BaseSpec => "base, spec",
            Source::Spec => "spec",
            Source::Transport => "transport",
        }
    }
}

/// Where a rule's quoted sentence comes from ([`Rule::quote_from`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteFrom {
    Draft,
    Spec,
}

impl QuoteFrom {
    /// The label before the sentence in a table or a report: `Draft`,
    /// `Spec`.
    pub fn label(self) -> &'static str {
        match self {
            QuoteFrom::Draft => "Draft",
            QuoteFrom::Spec => "Spec",
        }
    }

    /// The source named in full.
    pub fn name(self) -> &'static str {
        match self {
            QuoteFrom::Draft => "the AG-UI subagent attribution draft",
            QuoteFrom::Spec => "the official AG-UI specification",
        }
    }
}

/// One catalogue entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    /// The docs/rules.md section the rule is listed under (`schema`, `run`, …).
    pub area: &'static str,
    pub statement: &'static str,
    /// The sentence of the draft the rule rests on, where there is one.
    pub quote: Option<&'static str>,
    pub source: Source,
    pub severity: Severity,
    pub obligation: Obligation,
    /// For `accept.*` obligations: what a consumer must show.
    pub projection: Option<&'static str>,
}

/// The catalogue's areas (docs/rules.md sections) of the rules `keep`
/// selects, each once, in catalogue order: read from the catalogue, so a
/// new area needs no list edited elsewhere.
pub fn areas(keep: impl Fn(&Rule) -> bool) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in CATALOGUE.iter().filter(|r| keep(r)) {
        if !out.contains(&r.area) {
            out.push(r.area);
        }
    }
    out
}

impl Rule {
    /// Where the rule's `quote` comes from: `Draft` (the subagent draft,
    /// which the official subagents page repeats word for word) or
    /// `Spec` (another page of the official specification).
    pub fn quote_from(&self) -> QuoteFrom {
        match self.source {
            Source::Spec | Source::BaseSpec | Source::SchemaSpec => QuoteFrom::Spec,
            _ => QuoteFrom::Draft,
        }
    }

    /// True for rules a stream can violate (everything but `accept.*`).
    pub fn is_violation(&self) -> bool {
        self.severity != Severity::None
    }

    /// True for the rules still judged after an event was skipped at a
    /// limit (docs/rules.md "Checker limits"): the per-event (schema) rules,
    /// and the transport rules, which judge the bytes, not the events.
    pub fn judged_blind(&self) -> bool {
        matches!(self.area, "schema" | "transport")
    }

    /// True for rules an event stream alone can break, which consumers are
    /// scored on (everything but `accept.*` and `transport.*`).
    pub fn is_stream_rule(&self) -> bool {
        self.is_violation() && self.obligation != Obligation::None
    }
}

macro_rules! catalogue {
    ($( $variant:ident => {
        id: $id:literal, area: $area:literal, source: $source:ident,
        severity: $sev:ident, obligation: $obl:ident,
        statement: $stmt:literal
        $(, quote: $quote:literal)?
        $(, projection: $proj:literal)? $(,)?
    } ),* $(,)?) => {
        /// A rule of the catalogue, in catalogue order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleId { $( $variant ),* }

        /// Every rule, in catalogue order.
        pub static CATALOGUE: &[Rule] = &[ $( Rule {
            id: $id,
            area: $area,
            statement: $stmt,
            quote: catalogue!(@opt $($quote)?),
            source: Source::$source,
            severity: Severity::$sev,
            obligation: Obligation::$obl,
            projection: catalogue!(@opt $($proj)?),
        } ),* ];

        impl RuleId {
            /// Every rule id, in catalogue order.
            pub const ALL: &'static [RuleId] = &[ $( RuleId::$variant ),* ];
        }
    };
    (@opt) => { None };
    (@opt $v:literal) => { Some($v) };
}

impl RuleId {
    /// The catalogue entry of this id.
    pub fn rule(self) -> &'static Rule {
        &CATALOGUE[self as usize]
    }

    /// The stable id string, e.g. `ownership.continuation-disagrees`.
    pub fn as_str(self) -> &'static str {
        self.rule().id
    }

    pub fn severity(self) -> Severity {
        self.rule().severity
    }

    pub fn obligation(self) -> Obligation {
        self.rule().obligation
    }

    /// Looks an id string up in the catalogue.
    pub fn from_id(id: &str) -> Option<RuleId> {
        RuleId::ALL.iter().copied().find(|r| r.as_str() == id)
    }

    /// The rules an event stream can violate, which consumers are scored
    /// on (all but `accept.*` and the HTTP-level `transport.*`).
    pub fn violations() -> impl Iterator<Item = RuleId> {
        RuleId::ALL
            .iter()
            .copied()
            .filter(|r| r.rule().is_stream_rule())
    }

    /// The `transport.*` rules: judged on producers' HTTP exchanges only.
    pub fn transport() -> impl Iterator<Item = RuleId> {
        RuleId::ALL
            .iter()
            .copied()
            .filter(|r| r.rule().is_violation() && !r.rule().is_stream_rule())
    }

    /// The `accept.*` obligations.
    pub fn obligations() -> impl Iterator<Item = RuleId> {
        RuleId::ALL
            .iter()
            .copied()
            .filter(|r| !r.rule().is_violation())
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for RuleId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleId::from_id(s).ok_or_else(|| format!("unknown rule id `{s}`"))
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        RuleId::from_id(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown rule id `{s}`")))
    }
}

catalogue! {
    // ---- Schema rules (checked per event) ----
    SchemaNotJson => { id: "schema.not-json", area: "schema", source: Schema, severity: Error, obligation: MustReject,
        statement: "A stream item is not a JSON object." },
    SchemaUnknownType => { id: "schema.unknown-type", area: "schema", source: SchemaSpec, severity: Error, obligation: MustAccept,
        statement: "`type` is a string that names none of the 31 AG-UI 1.0 event types (an absent or non-string `type` is `schema.missing-field` / `schema.wrong-type`). The event is dropped: it opens, closes and changes nothing, and nothing of it is shown.",
        quote: "An event of a type this implementation does not recognise MUST NOT abort the run.",
        projection: "the event is absent" },
    SchemaMissingField => { id: "schema.missing-field", area: "schema", source: Schema, severity: Error, obligation: MustReject,
        statement: "A required field is absent, at any depth (an outcome without `type`, a patch operation without `path`, a message without `id`, …)." },
    SchemaWrongType => { id: "schema.wrong-type", area: "schema", source: Schema, severity: Error, obligation: MustReject,
        statement: "A field has the wrong JSON type, or a value outside its range, pattern or length (an empty `interrupts` list, a JSON Pointer that breaks its pattern, a negative token count, a `role` other than the one its event type fixes, …): a malformed known value, fatal." },
    SchemaUnknownMember => { id: "schema.unknown-member", area: "schema", source: SchemaSpec, severity: Error, obligation: MustAccept,
        statement: "A string the schema gives a closed set of values (a discriminator such as an outcome's, a content part's or a patch operation's `type`/`op`, or an enum such as a message `role`) holds a value outside that set. For a consumer it is unrecognised material, stripped: in an optional position the field is removed (an unknown `RUN_FINISHED` outcome reads as absent, a success); in a required position the value containing it is removed (a message whose `role` is unknown leaves `MESSAGES_SNAPSHOT`; an event whose own required field holds it is dropped like an unknown type); in a list the element is dropped.",
        quote: "A union member the implementation does not recognise … MUST NOT abort the run.",
        projection: "stripped" },
    SchemaNullOptional => { id: "schema.null-optional", area: "schema", source: Schema, severity: Error, obligation: MustReject,
        statement: "An optional field is written as `null` (absent is the only spelling)." },
    AttributionNull => { id: "attribution.null", area: "schema", source: Draft, severity: Error, obligation: MustReject,
        statement: "`subagentRunId: null` on an event, a message, or an interrupt.",
        quote: "An absent subagentRunId means the parent agent, and MUST NOT be spelled as null." },
    AttributionNotAttributable => { id: "attribution.not-attributable", area: "schema", source: DraftDocs, severity: Warning, obligation: MustAccept,
        statement: "`subagentRunId` on `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` or `MESSAGES_SNAPSHOT`, which the schema gives no attribution. The field passes through as an unknown field; it attributes nothing.",
        quote: "Which events can carry attribution is a structural question, and the schema answers it.",
        projection: "nothing attributed" },
    LifecycleMissingId => { id: "lifecycle.missing-id", area: "schema", source: Draft, severity: Error, obligation: MustReject,
        statement: "`SUBAGENT_STARTED`/`FINISHED`/`ERROR` without `subagentRunId`.",
        quote: "All three carry the subagentRunId they concern, and a producer MUST NOT omit it." },
    LifecycleUnknownOutcome => { id: "lifecycle.unknown-outcome", area: "schema", source: DraftSpec, severity: Error, obligation: MustAccept,
        statement: "`SUBAGENT_FINISHED.outcome.type` is a string that is neither `success` nor `suspended`. Stripped like `schema.unknown-member` (reported instead of it): the outcome reads as absent, a success.",
        quote: "A producer MUST NOT send an outcome value the schema does not describe, and MUST NOT attach interrupt ids to a success outcome.",
        projection: "status `finished`" },
    LifecycleSuccessWithInterrupts => { id: "lifecycle.success-with-interrupts", area: "schema", source: Draft, severity: Error, obligation: MayReject,
        statement: "A `success` outcome carries a non-empty `interruptIds` (the 1.0 schema objects are loose and let it through; an empty list attaches none).",
        quote: "A producer MUST NOT send an outcome value the schema does not describe, and MUST NOT attach interrupt ids to a success outcome." },

    SchemaDuplicateKey => { id: "schema.duplicate-key", area: "schema", source: Schema, severity: Warning, obligation: MayReject,
        statement: "An object, at any depth, has two members with the same name. RFC 8259 §4: names \"SHOULD be unique\"; parsers disagree on which value wins. Checking goes on with the last value (what `JSON.parse` and Python's `json` do)." },
    SchemaLoneSurrogate => { id: "schema.lone-surrogate", area: "schema", source: Schema, severity: Warning, obligation: MayReject,
        statement: "A string holds a `\\uD800`–`\\uDFFF` escape that is not half of a pair (RFC 8259 §8.2: valid JSON grammar, unpredictable text). A JavaScript producer emits it when it splits one character across two deltas. Text built from deltas is concatenated as UTF-16 code units: a pair split across two deltas joins into one character; a surrogate still unpaired in the final text is shown as U+FFFD.",
        projection: "a pair split across deltas is one character; an unpaired surrogate is U+FFFD" },

    // ---- Run rules (base) ----
    RunFirstEvent => { id: "run.first-event", area: "run", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "The first event is neither `RUN_STARTED` nor `RUN_ERROR`.",
        quote: "a consumer MUST treat a stream that opens with anything else as a protocol violation" },
    RunAlreadyActive => { id: "run.already-active", area: "run", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`RUN_STARTED` while a run is active." },
    RunAfterFinished => { id: "run.after-finished", area: "run", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "Any event but `RUN_STARTED` or `RUN_ERROR` after `RUN_FINISHED` (a late `RUN_ERROR` is `accept.late-run-error`).",
        quote: "A consumer MUST reject any other event that arrives after a run has closed." },
    RunAfterError => { id: "run.after-error", area: "run", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "Any event but `RUN_STARTED` after `RUN_ERROR`, a late `RUN_ERROR` included.",
        quote: "RUN_ERROR ends everything. A consumer MUST treat every open invocation as abandoned when a run errors, and MUST NOT expect a closing event for any of them." },
    RunOpenEntitiesAtFinish => { id: "run.open-entities-at-finish", area: "run", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`RUN_FINISHED` while a text message, tool call, reasoning span/message or step is open (anything still open at `RUN_FINISHED` is fatal)." },
    RunIdsDisagree => { id: "run.ids-disagree", area: "run", source: Spec, severity: Error, obligation: MustReject,
        statement: "A `RUN_FINISHED` or `RUN_ERROR` whose `runId` or `threadId`, where present, differs from its run's `RUN_STARTED`.",
        quote: "each run's two boundary events MUST agree on their `runId`" },
    RunThreadChanged => { id: "run.thread-changed", area: "run", source: Spec, severity: Error, obligation: MustReject,
        statement: "A `RUN_STARTED` whose `threadId` differs from the `threadId` of an earlier run of the stream.",
        quote: "Every run on the stream carries the input's `threadId` on its boundary events" },
    RunUnterminated => { id: "run.unterminated", area: "run", source: BaseSpec, severity: Error, obligation: MayReject,
        statement: "Input ends inside a run. A truncated run has no outcome: it is never shown as finished.",
        quote: "has no outcome and MUST NOT be reported as having succeeded",
        projection: "the run's status is `unterminated`, never finished" },

    // ---- Entity rules (base) ----
    TextAlreadyOpen => { id: "text.already-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`TEXT_MESSAGE_START` for a message id that is open." },
    TextNotOpen => { id: "text.not-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`TEXT_MESSAGE_CONTENT`/`END` for a message id that is not open." },
    ToolAlreadyOpen => { id: "tool.already-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`TOOL_CALL_START` for a tool call id that is open." },
    ToolNotOpen => { id: "tool.not-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`TOOL_CALL_ARGS`/`END` for a tool call id that is not open." },
    ReasoningAlreadyOpen => { id: "reasoning.already-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`REASONING_START` for a span id that is open, or `REASONING_MESSAGE_START` for a reasoning message id that is open." },
    ReasoningNotOpen => { id: "reasoning.not-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`REASONING_MESSAGE_CONTENT`/`END` for a reasoning message id that is not open, or `REASONING_END` for a span id that is not open." },
    StepAlreadyOpen => { id: "step.already-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`STEP_STARTED` for a name already open under the same owner." },
    StepNotOpen => { id: "step.not-open", area: "entities", source: BaseSpec, severity: Error, obligation: MustReject,
        statement: "`STEP_FINISHED` for a name open under no owner at all." },
    StatePatchFails => { id: "state.patch-fails", area: "entities", source: Base, severity: Error, obligation: MayReject,
        statement: "A `STATE_DELTA` that does not apply (RFC 6902) to the state as it stands; the state is then left unchanged." },

    // ---- Consistency warnings (revision 3; listed with the entity rules) ----
    ToolArgsNotJson => { id: "tool.args-not-json", area: "consistency", source: Base, severity: Warning, obligation: MustAccept,
        statement: "When a tool call ends (`TOOL_CALL_END`, or the event that ends a chunked call), the concatenation of its argument deltas is not empty and is not one JSON value (RFC 8259, surrounding whitespace allowed). Index: the ending event." },
    ToolResultBeforeEnd => { id: "tool.result-before-end", area: "consistency", source: Base, severity: Warning, obligation: MustAccept,
        statement: "A `TOOL_CALL_RESULT` names a tool call that is open (started, not ended)." },
    MessagesSnapshotDisagrees => { id: "messages.snapshot-disagrees", area: "consistency", source: Base, severity: Warning, obligation: MustAccept,
        statement: "A `MESSAGES_SNAPSHOT` holds a message whose id names a text message that this run streamed and ended before the snapshot, with a `content` different from the streamed text; or a tool call whose id names a call this run streamed and ended before the snapshot, with a different `function.name` or `function.arguments` (arguments that are both one JSON value are compared as JSON values, so whitespace and member order do not differ; otherwise as strings, exactly). Index: the snapshot. Messages and calls not streamed in this run, or still open, are not compared." },

    // ---- Lifecycle rules (draft) ----
    LifecycleAnnounceAfterAttribution => { id: "lifecycle.announce-after-attribution", area: "lifecycle", source: Draft, severity: Error, obligation: MayReject,
        statement: "`SUBAGENT_STARTED(s)` for an `s` not yet announced in this run, after an event of this run whose own `subagentRunId` is `s` (any attributable event; the `SUBAGENT_*` events, and messages replayed in `MESSAGES_SNAPSHOT` or the `RUN_STARTED` input, do not count).",
        quote: "A producer that announces an invocation MUST do so before any event attributed to it." },
    LifecycleAlreadyActive => { id: "lifecycle.already-active", area: "lifecycle", source: Draft, severity: Error, obligation: ShouldReject,
        statement: "`SUBAGENT_STARTED` for an id that is active.",
        quote: "A producer MUST NOT announce an invocation whose id is already active." },
    LifecycleReusedId => { id: "lifecycle.reused-id", area: "lifecycle", source: Draft, severity: Error, obligation: ShouldReject,
        statement: "`SUBAGENT_STARTED` for an id that already finished or errored in this run.",
        quote: "A producer MUST NOT reuse the id of an invocation that has already finished in this run." },
    LifecycleNotActive => { id: "lifecycle.not-active", area: "lifecycle", source: DraftSpec, severity: Error, obligation: MustReject,
        statement: "`SUBAGENT_FINISHED`/`SUBAGENT_ERROR` for an id that is not active in this run (never announced, or already closed)." },
    LifecycleUnknownParent => { id: "lifecycle.unknown-parent", area: "lifecycle", source: Draft, severity: Error, obligation: ShouldReject,
        statement: "`parentSubagentRunId` names an invocation not announced in this run.",
        quote: "A producer MUST NOT name a parent invocation that has not been announced in this run." },
    LifecycleOpenAtRunFinish => { id: "lifecycle.open-at-run-finish", area: "lifecycle", source: DraftSpec, severity: Error, obligation: MustReject,
        statement: "`RUN_FINISHED` while an invocation is active.",
        quote: "A run MUST NOT finish while an invocation is still active." },
    LifecycleResumedNotSuspended => { id: "lifecycle.resumed-not-suspended", area: "lifecycle", source: Draft, severity: Warning, obligation: MayReject,
        statement: "A later run of the same stream announces an id that an earlier run announced and closed `finished` (not `suspended`) or `errored`.",
        quote: "An id MAY reappear in a later run, when a suspended invocation is continued." },

    // ---- Ownership rules (draft) ----
    OwnershipContinuationDisagrees => { id: "ownership.continuation-disagrees", area: "ownership", source: Draft, severity: Error, obligation: MustReject,
        statement: "An event continuing or closing an entity carries a `subagentRunId` different from the owner on record (an opener with no tag recorded the parent).",
        quote: "A consumer MUST reject a continuation whose tag disagrees with its opener." },
    OwnershipReopenDisagrees => { id: "ownership.reopen-disagrees", area: "ownership", source: Draft, severity: Error, obligation: ShouldReject,
        statement: "An opener for an id whose owner is on record while nothing of that id is open, with an effective owner that differs from it." ,
        quote: "Once an entity is opened under an owner, every event continuing it MUST agree about that owner." },
    OwnershipToolCallVsMessage => { id: "ownership.tool-call-vs-message", area: "ownership", source: Draft, severity: Error, obligation: ShouldReject,
        statement: "`TOOL_CALL_START` whose explicit `subagentRunId` differs from the owner on record of the message its `parentMessageId` names.",
        quote: "A producer MUST NOT attribute a tool call to one owner while the message carrying it is attributed to another." },
    OwnershipStepOwner => { id: "ownership.step-owner", area: "ownership", source: Draft, severity: Error, obligation: ShouldReject,
        statement: "`STEP_FINISHED` for a name that is open only under another owner.",
        quote: "A STEP_FINISHED MUST carry the same attribution as the STEP_STARTED it closes." },

    // ---- Interrupt consistency (docs; warnings; one error from the official spec) ----
    InterruptDuplicateId => { id: "interrupt.duplicate-id", area: "interrupts", source: Spec, severity: Error, obligation: MustReject,
        statement: "Two interrupts of one run outcome share an `id`.",
        quote: "Each interrupt's `id` MUST be unique within the run" },
    InterruptRunNotInterrupted => { id: "interrupt.run-not-interrupted", area: "interrupts", source: Docs, severity: Warning, obligation: MayReject,
        statement: "An invocation finished `suspended` in a run whose `RUN_FINISHED` outcome is not `interrupt`." },
    InterruptUnknownId => { id: "interrupt.unknown-id", area: "interrupts", source: Docs, severity: Warning, obligation: MayReject,
        statement: "A suspended outcome's `interruptIds` names an id absent from the run's interrupt outcome." },
    InterruptOwnerMismatch => { id: "interrupt.owner-mismatch", area: "interrupts", source: Docs, severity: Warning, obligation: MayReject,
        statement: "An interrupt listed in invocation `s`'s `interruptIds` does not carry `subagentRunId: s` in the run outcome (untagged means the parent: also a mismatch).",
        quote: "An interrupt tagged with a subagentRunId was raised inside that invocation; an untagged one belongs to the parent agent." },

    // ---- Chunk shorthand ----
    ChunkAmbiguous => { id: "chunk.ambiguous", area: "chunks", source: Spec, severity: Error, obligation: MustReject,
        statement: "An untagged, id-less chunk while the parent has no open stream of that kind and several lanes do." },
    ChunkNoStream => { id: "chunk.no-stream", area: "chunks", source: Spec, severity: Error, obligation: MustReject,
        statement: "A chunk that would open a stream has no id (`messageId` / `toolCallId`)." },
    ChunkMissingName => { id: "chunk.missing-name", area: "chunks", source: Spec, severity: Error, obligation: MustReject,
        statement: "A `TOOL_CALL_CHUNK` that would open a tool call has no `toolCallName`." },
    ChunkOpenerDisagrees => { id: "chunk.opener-disagrees", area: "chunks", source: Spec, severity: Error, obligation: MustReject,
        statement: "A continuing chunk states `role` or `name` (text), or `toolCallName` or `parentMessageId` (tool call), different from the stream's opener (a field the opener left out counts as different, except a text `role`, which the opener set to `assistant`)." },

    // ---- Transport rules (HTTP + SSE; producers only) ----
    TransportStatus => { id: "transport.status", area: "transport", source: Transport, severity: Error, obligation: None,
        statement: "The response status is not 2xx." },
    TransportContentType => { id: "transport.content-type", area: "transport", source: Transport, severity: Warning, obligation: None,
        statement: "The response `Content-Type` is not `text/event-stream` (parameters allowed)." },
    TransportFraming => { id: "transport.framing", area: "transport", source: Transport, severity: Error, obligation: None,
        statement: "A non-blank line that is neither a comment (`:`) nor a `data`, `event`, `id` or `retry` field: a standard client ignores it, so an event written without `data:` is silently lost." },
    TransportUnterminatedEvent => { id: "transport.unterminated-event", area: "transport", source: Transport, severity: Error, obligation: None,
        statement: "The body ends with an event not closed by a blank line: a standard client discards it." },
    TransportEndedEarly => { id: "transport.ended-early", area: "transport", source: Transport, severity: Error, obligation: None,
        statement: "The connection ends abnormally (reset, truncated chunked body, decode error) before the stream's last run has its terminal event; reported instead of `run.unterminated`." },
    TransportBuffered => { id: "transport.buffered", area: "transport", source: Transport, severity: Warning, obligation: None,
        statement: "The response lasted at least 1 s and every event arrived within its last 100 ms: events are not flushed as they happen." },
    TransportIdle => { id: "transport.idle", area: "transport", source: Transport, severity: Warning, obligation: None,
        statement: "No byte (event or comment) for 30 s or more while a run is open: intermediaries commonly close idle connections (send a comment as keep-alive)." },

    // ---- Obligations that are not violations (must-accept) ----
    AcceptAttributionOnly => { id: "accept.attribution-only", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Events tagged with ids that are never announced.",
        quote: "A producer MAY attribute events without announcing anything. … a consumer MUST accept it",
        projection: "grouped by id; status `unannounced`" },
    AcceptInterleaved => { id: "accept.interleaved", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Invocations' events interleave arbitrarily; several invocations hold open messages at once.",
        quote: "A consumer MUST NOT assume that one invocation’s events are contiguous",
        projection: "each message whole, under its owner" },
    AcceptFinishClosesOnlyOwn => { id: "accept.finish-closes-only-own", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "An invocation ends while others (or the parent) still stream.",
        quote: "MUST NOT close one invocation’s entities because another invocation ended.",
        projection: "the others' entities continue to completion" },
    AcceptAfterFinishAttribution => { id: "accept.after-finish-attribution", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Events attributed to an invocation that already finished, e.g. closing a message it left open.",
        projection: "owner unchanged" },
    AcceptParentFinishedFirst => { id: "accept.parent-finished-first", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "`parentSubagentRunId` names an invocation that was announced and has already finished.",
        projection: "parent link kept" },
    AcceptUntaggedContinuation => { id: "accept.untagged-continuation", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "A continuation without a tag.",
        quote: "A continuation carrying no tag is not a disagreement and MUST be accepted.",
        projection: "owned by the opener's owner" },
    AcceptToolCallInherits => { id: "accept.tool-call-inherits", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "An untagged `TOOL_CALL_START` whose `parentMessageId` names a subagent's message.",
        quote: "A tool call inherits the attribution of the message that held it.",
        projection: "the call belongs to that message's owner" },
    AcceptToolResultOwnOwner => { id: "accept.tool-result-own-owner", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "A `TOOL_CALL_RESULT` attributed to another owner than its call.",
        projection: "the tool message has the result's owner" },
    AcceptStepPerOwner => { id: "accept.step-per-owner", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Parent and subagent each hold a step of the same name at once, each closing its own.",
        quote: "Steps are per-owner: a parent and a subagent MAY each have a step of the same name open at once, and each closes its own." },
    AcceptStateRunScoped => { id: "accept.state-run-scoped", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Attributed `STATE_SNAPSHOT`/`STATE_DELTA`.",
        quote: "a consumer MUST NOT withhold the update from the run’s state because a subagent sent it.",
        projection: "one run state with every update applied" },
    AcceptSubagentErrorContinues => { id: "accept.subagent-error-continues", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "`SUBAGENT_ERROR`, then more work and a normal `RUN_FINISHED`.",
        quote: "SUBAGENT_ERROR ends the invocation, not the run.",
        projection: "status `errored`" },
    AcceptRunErrorAbandons => { id: "accept.run-error-abandons", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "`RUN_ERROR` with invocations still active, no closing events.",
        quote: "A consumer MUST treat every open invocation as abandoned when a run errors, and MUST NOT expect a closing event for any of them.",
        projection: "those invocations `abandoned`" },
    AcceptSuspendedResume => { id: "accept.suspended-resume", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Run N ends with an interrupt outcome and `s` finished `suspended`; run N+1 re-announces `s`.",
        quote: "An id MAY reappear in a later run, when a suspended invocation is continued.",
        projection: "`s` goes suspended → running → its new end" },
    AcceptSuspendedNoInterrupts => { id: "accept.suspended-no-interrupts", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "A `suspended` outcome with no or empty `interruptIds` (a descendant interrupted).",
        quote: "An invocation suspended because a descendant interrupted owns no interrupt of its own, so a suspended outcome MAY carry no interrupt ids at all.",
        projection: "status `suspended`" },
    AcceptInterruptAttribution => { id: "accept.interrupt-attribution", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "Interrupts in the run's interrupt outcome tagged with `subagentRunId`.",
        quote: "An interrupt tagged with a subagentRunId was raised inside that invocation; an untagged one belongs to the parent agent.",
        projection: "each interrupt under its owner" },
    AcceptEmptyId => { id: "accept.empty-id", area: "accept", source: Draft, severity: None, obligation: MustAccept,
        statement: "`\"\"` used as a subagent id, distinct from the parent.",
        projection: "`\"\"` is its own group" },
    AcceptUnknownFields => { id: "accept.unknown-fields", area: "accept", source: SchemaSpec, severity: None, obligation: MustAccept,
        statement: "Unknown extra fields on events and messages (where the schema leaves an object open, such as a JSON Patch operation, the member is kept).",
        quote: "A property that is not described on an event MUST NOT abort the run",
        projection: "stripped: never shown" },
    AcceptLateRunError => { id: "accept.late-run-error", area: "accept", source: Spec, severity: None, obligation: MustAccept,
        statement: "`RUN_ERROR` after `RUN_FINISHED`.",
        quote: "A consumer MUST treat the run as failed.",
        projection: "the run's status is errored" },
    AcceptUnknownTypeDropped => { id: "accept.unknown-type-dropped", area: "accept", source: Spec, severity: None, obligation: MustAccept,
        statement: "An event of an unknown type between valid events.",
        quote: "An event of a type this implementation does not recognise MUST NOT abort the run.",
        projection: "the event is absent; what follows continues as if it were not there" },
    AcceptUnknownMemberStripped => { id: "accept.unknown-member-stripped", area: "accept", source: Spec, severity: None, obligation: MustAccept,
        statement: "An unknown outcome, content part kind or enum value.",
        quote: "A union member the implementation does not recognise … MUST NOT abort the run.",
        projection: "the stripped form (an unknown `RUN_FINISHED` outcome: success)" },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_indexed_in_order() {
        for (i, r) in RuleId::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i);
            assert_eq!(RuleId::from_id(r.as_str()), Some(*r));
        }
        let mut ids: Vec<_> = CATALOGUE.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), CATALOGUE.len());
    }

    #[test]
    fn catalogue_matches_rules_md_counts() {
        // docs/rules.md (revision 4) lists 13 schema, 8 run, 9 entity,
        // 3 consistency, 7 lifecycle, 4 ownership, 4 interrupt, 4 chunk, 7
        // transport rules and 20 accept obligations.
        let count = |area: &str| CATALOGUE.iter().filter(|r| r.area == area).count();
        assert_eq!(count("schema"), 13);
        assert_eq!(count("transport"), 7);
        assert_eq!(count("run"), 8);
        assert_eq!(count("entities"), 9);
        assert_eq!(count("consistency"), 3);
        assert_eq!(count("lifecycle"), 7);
        assert_eq!(count("ownership"), 4);
        assert_eq!(count("interrupts"), 4);
        assert_eq!(count("chunks"), 4);
        assert_eq!(count("accept"), 20);
    }

    #[test]
    fn consistency_warnings_sit_after_the_entity_rules() {
        // docs/rules.md lists them under "Entity rules", after `state.patch-fails`
        // and before the lifecycle rules: that is their order at one event.
        let ids: Vec<&str> = CATALOGUE.iter().map(|r| r.id).collect();
        let at = |id: &str| ids.iter().position(|x| *x == id).unwrap();
        assert_eq!(
            &ids[at("state.patch-fails")..=at("lifecycle.announce-after-attribution")],
            [
                "state.patch-fails",
                "tool.args-not-json",
                "tool.result-before-end",
                "messages.snapshot-disagrees",
                "lifecycle.announce-after-attribution",
            ]
        );
        for r in CATALOGUE.iter().filter(|r| r.area == "consistency") {
            // Warnings a consumer must accept, not judged after a skip.
            assert_eq!(r.severity, Severity::Warning, "{}", r.id);
            assert_eq!(r.obligation, Obligation::MustAccept, "{}", r.id);
            assert!(r.is_stream_rule() && !r.judged_blind(), "{}", r.id);
        }
    }

    #[test]
    fn accept_obligations_are_not_violations() {
        for r in CATALOGUE {
            assert_eq!(r.id.starts_with("accept."), !r.is_violation(), "{}", r.id);
        }
        assert!(RuleId::AttributionNotAttributable.rule().is_violation());
        assert_eq!(
            RuleId::AttributionNotAttributable.obligation(),
            Obligation::MustAccept
        );
    }
}
