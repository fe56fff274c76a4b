//! What a consumer must show (docs/rules.md "Projection"), in the canonical JSON
//! form of `docs/projection.md`.
//!
//! The checker drives a [`Projector`] with events whose owners it has already
//! resolved; the projector never judges a rule. The current run is kept as
//! typed records ([`view`]), built as events arrive; when it ends its
//! canonical JSON text is written straight from them ([`write`]) into a
//! reused buffer. A run's `Value` form is that text read back, so the text
//! and the `Value` cannot disagree.

mod view;
mod write;

use crate::checker::book::Owner;
use crate::checker::names::{Name, Names};
use crate::wire::{SUBAGENT_RUN_ID, key};
use serde_json::{Value, json};
use thin_vec::ThinVec;
use view::{Content, Interrupt, Invocation, Message, RunView, Text, ToolCall};
/// The projection of a whole stream: one canonical JSON object per run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Projection {
    pub runs: Vec<Value>,
    /// Runs not kept, once the runs kept held the projection's budget
    /// (`projection-bytes`): they ended after the last one in `runs`.
    pub omitted: usize,
}

impl Projection {
    /// The canonical JSON form: `{"runs": [...]}`, with `"omittedRuns"`
    /// when runs were not kept.
    pub fn to_json(&self) -> Value {
        if self.omitted > 0 {
            json!({ "runs": self.runs, "omittedRuns": self.omitted })
        } else {
            json!({ "runs": self.runs })
        }
    }
}

/// Drops `null`-valued object keys everywhere: the comparison rule of
/// `docs/projection.md` (absent and `null` mean the same in a report).
pub fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), normalize(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        other => other.clone(),
    }
}

/// Whether a reported projection equals the expected one under the
/// comparison rule (docs/projection.md): `null`s dropped, and a message the
/// expected projection shows without `id` (one the consumer made up) is
/// compared by its place, whatever id the report gave it.
pub fn same(expected: &Value, reported: &Value) -> bool {
    normalize(expected) == normalize(&by_place(expected, reported))
}

/// `reported` with the `id` of each message removed where the message at
/// the same place in `expected` has none (docs/projection.md: a message no
/// event names is compared by its place).
pub fn by_place(expected: &Value, reported: &Value) -> Value {
    let mut out = reported.clone();
    let (Some(want), Some(got)) = (
        expected.get("runs").and_then(Value::as_array),
        out.get_mut("runs").and_then(Value::as_array_mut),
    ) else {
        return out;
    };
    for (w, g) in want.iter().zip(got.iter_mut()) {
        let (Some(wm), Some(gm)) = (
            w.get("messages").and_then(Value::as_array),
            g.get_mut("messages").and_then(Value::as_array_mut),
        ) else {
            continue;
        };
        for (w, g) in wm.iter().zip(gm.iter_mut()) {
            if w.get("id").is_none_or(Value::is_null)
                && let Some(g) = g.as_object_mut()
            {
                g.remove("id");
            }
        }
    }
    out
}

/// How an invocation stands at the end of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvocationStatus {
    Running,
    Finished,
    Suspended(Vec<String>),
    Errored,
    Abandoned,
    Unannounced,
}

/// The text of a `content` field: a string, or the `text` parts of a
/// content-part array concatenated.
pub fn content_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(crate::json::text) == Some("text"))
            .filter_map(|p| p.get("text").and_then(crate::json::text))
            .collect(),
        _ => String::new(),
    }
}

/// Builds the projection, run by run.
#[derive(Debug, Default)]
pub struct Projector {
    done: Vec<Value>,
    view: RunView,
    /// A run is open (`view` is its view), not yet handed on.
    open: bool,
    /// The open run ended (`RUN_FINISHED` or `RUN_ERROR`): it no longer
    /// grows, and is handed on when the next run starts or the input ends
    /// (a late `RUN_ERROR` may still mark it errored).
    ended: bool,
    sink: Option<RunSink>,
    /// A lone surrogate was read in this run: its strings are settled
    /// ([`crate::json::settle_surrogates`]) when it ends.
    lone: bool,
    /// The last run's text, its capacity kept from run to run.
    text: Vec<u8>,
    /// The most the projector may hold, in bytes: the open run's view and
    /// owned contents, and the runs it keeps (`projection-bytes`).
    budget: usize,
    /// Bytes of the open run held outside the view's tables and arena:
    /// owned texts, JSON contents, tool calls, interrupt ids.
    extra: usize,
    /// Bytes of the runs kept in `done` (their `Value` form).
    kept: usize,
    /// Runs ended once `kept` held the budget: not kept.
    omitted: usize,
    /// The open run passed the budget: it is shown incomplete and stops
    /// growing (what is already shown still changes status).
    full: bool,
}

/// Takes each run's projection as the run ends, instead of the projector
/// keeping it: how a long stream is projected in memory of one run.
pub enum RunSink {
    /// The run as a `Value` (its text read back).
    Value(Box<dyn FnMut(Value)>),
    /// The run's canonical JSON text, compact: what
    /// `serde_json::to_writer(w, &crate::json::Out(&value))` writes for
    /// the `Value` form.
    Text(TextSink),
}

/// Takes a run's canonical JSON text in pieces, in order (a large run is
/// handed over as it is written, not held whole): `true` with the run's
/// last piece. A piece ends between two records of the run.
pub type TextSink = Box<dyn FnMut(&[u8], bool)>;

impl std::fmt::Debug for RunSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunSink")
    }
}

/// Buffers of a run kept for the next one up to this size.
const KEEP_BYTES: usize = 4 << 20;

/// What an owned string costs besides its bytes: its header and block.
const OWNED: usize = 24 + 32;

/// The default of [`Projector`]'s budget: 64 MiB.
pub const DEFAULT_PROJECTION_BYTES: usize = 64 << 20;

impl Projector {
    pub fn new() -> Self {
        Projector {
            budget: DEFAULT_PROJECTION_BYTES,
            ..Projector::default()
        }
    }

    /// The same projector holding at most `bytes` (`projection-bytes`).
    pub fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes;
    }

    /// What the projector holds now, in bytes (the open run, the runs
    /// kept), counted as held, not by the spare room of growing buffers.
    pub fn footprint(&self) -> usize {
        self.view.held() + self.extra + self.kept
    }

    /// Called after each event: whether the open run just passed the
    /// budget (once per run). It is then marked incomplete and stops
    /// growing; every rule is still judged.
    pub fn passed_budget(&mut self) -> bool {
        if !self.open || self.full || self.footprint() <= self.budget {
            return false;
        }
        self.full = true;
        self.view.incomplete = true;
        true
    }

    /// Whether the open run may still grow.
    fn growing(&self) -> bool {
        self.open && !self.full && !self.ended
    }

    /// A projector that hands every run to `sink` as it ends (and the one
    /// still open at the end of input to it from [`Projector::finish`]),
    /// keeping none.
    pub fn with_sink(sink: impl FnMut(Value) + 'static) -> Self {
        Projector {
            sink: Some(RunSink::Value(Box::new(sink))),
            ..Projector::new()
        }
    }

    /// [`Projector::with_sink`] handing over each run's canonical JSON text
    /// instead of its `Value`: no tree is built, no string copied again,
    /// and a large run goes in pieces as it is written ([`TextSink`]).
    pub fn with_text_sink(sink: impl FnMut(&[u8], bool) + 'static) -> Self {
        Projector {
            sink: Some(RunSink::Text(Box::new(sink))),
            ..Projector::new()
        }
    }

    /// A `RUN_STARTED`: the run before it, if not yet handed on, is shown
    /// as it stands (`unterminated` if nothing ended it), with the state as
    /// it stood, before the new one starts (one entry per `RUN_STARTED`).
    pub fn run_left_open(&mut self, state: &Value) {
        if self.open {
            self.emit(state);
        }
    }

    /// `RUN_STARTED` (or a `RUN_ERROR` opening the stream, with no ids): a
    /// new run entry.
    pub fn run_started(&mut self, thread_id: Option<&str>, run_id: Option<&str>) {
        // Buffers are kept from run to run, unless a large run left them
        // large: a run starts within its budget.
        if self.view.footprint() > KEEP_BYTES.min(self.budget / 4) {
            self.view = RunView::default();
        }
        self.view.reset(thread_id, run_id);
        self.open = true;
        self.ended = false;
        self.full = false;
        self.extra = 0;
    }

    /// The run ends (`finished`, `cancelled`, `interrupted` or
    /// `errored`, docs/projection.md); it is handed on with the state as
    /// it stands when the next run starts or the input ends. A `RUN_ERROR`
    /// after the run finished marks it `errored` (docs/rules.md
    /// `accept.late-run-error`).
    pub fn run_ended(&mut self, status: &'static str) {
        if !self.open {
            return;
        }
        self.view.status = status;
        if status == "errored" {
            for inv in &mut self.view.invocations {
                if inv.status == InvocationStatus::Running {
                    inv.status = InvocationStatus::Abandoned;
                }
            }
        }
        self.ended = true;
    }

    /// Hands on the run if it ended ([`crate::Checker::settle_projection`]).
    pub fn settle(&mut self, state: &Value) {
        if self.open && self.ended {
            self.emit(state);
        }
    }

    /// The checker dropped its records of the open run (its names, by
    /// which records here are found): the run is shown as it stood,
    /// incomplete, and stops growing.
    pub fn freeze(&mut self) {
        if self.open {
            self.view.incomplete = true;
            self.full = true;
        }
    }

    /// An event of the open run was skipped at a limit: the run is shown
    /// as incomplete.
    pub fn mark_incomplete(&mut self) {
        if self.open {
            self.view.incomplete = true;
        }
    }

    /// A lone surrogate was read (`schema.lone-surrogate`): what is still
    /// unpaired when the run ends is shown as U+FFFD.
    pub fn saw_lone_surrogate(&mut self) {
        self.lone = true;
    }

    /// Writes the open run's text and hands it on (or keeps its `Value`).
    fn emit(&mut self, state: &Value) {
        self.open = false;
        self.ended = false;
        self.text.clear();
        let lone = std::mem::take(&mut self.lone);
        let (text, view) = (&mut self.text, &self.view);
        match &mut self.sink {
            Some(RunSink::Text(sink)) => {
                write::run(text, view, state, lone, Some(&mut |p| sink(p, false)));
                sink(text, true);
            }
            Some(RunSink::Value(sink)) => {
                write::run(text, view, state, lone, None);
                sink(read_back(text));
            }
            None if self.kept > self.budget => self.omitted += 1,
            None => {
                write::run(text, view, state, lone, None);
                let run = read_back(text);
                self.kept += crate::patch::mem_size(&run);
                self.done.push(run);
            }
        }
        if self.text.capacity() > KEEP_BYTES {
            self.text = Vec::new();
        }
    }

    /// The interrupts of a `RUN_FINISHED` interrupt outcome.
    pub fn interrupts(&mut self, list: &[Value]) {
        if !self.growing() {
            return;
        }
        self.view.interrupts.clear();
        for i in list {
            let owner = i
                .get(SUBAGENT_RUN_ID)
                .and_then(crate::json::text)
                .map(|o| self.view.strings.push(o));
            let id = i.get("id").cloned();
            self.extra += id.as_ref().map_or(0, crate::patch::mem_size);
            self.view.interrupts.push(Interrupt { id, owner });
        }
    }

    /// An attributable event carried `id` as its own `subagentRunId`.
    /// `names`: the checker's names of the run, by which records are found
    /// (every method given them may add names).
    pub(crate) fn attributed(&mut self, names: &mut Names, id: &str) {
        if self.growing() && self.view.invocation(names, id).is_none() {
            let n = names.intern(id);
            let id = self.view.strings.push(id);
            self.view.push_invocation(
                n,
                Invocation {
                    id,
                    name: None,
                    parent: None,
                    status: InvocationStatus::Unannounced,
                },
            );
        }
    }

    /// `SUBAGENT_STARTED`.
    pub(crate) fn announced(
        &mut self,
        names: &mut Names,
        id: &str,
        name: Option<&str>,
        parent: Option<&str>,
    ) {
        if !self.growing() {
            return;
        }
        let at = self.view.invocation(names, id);
        let inv = Invocation {
            id: match at.and_then(|at| self.view.invocations.get(at)) {
                Some(old) => old.id,
                None => self.view.strings.push(id),
            },
            name: self.view.opt(name),
            parent: self.view.opt(parent),
            status: InvocationStatus::Running,
        };
        match at.and_then(|at| self.view.invocations.get_mut(at)) {
            Some(old) => *old = inv,
            None => self.view.push_invocation(names.intern(id), inv),
        }
    }

    /// `SUBAGENT_FINISHED` / `SUBAGENT_ERROR` of an active invocation.
    pub(crate) fn invocation_ended(&mut self, names: &Names, id: &str, status: InvocationStatus) {
        if self.open
            && let Some(at) = self.view.invocation(names, id)
            && let Some(inv) = self.view.invocations.get_mut(at)
        {
            if let InvocationStatus::Suspended(ids) = &status {
                self.extra += ids.iter().map(|i| i.len() + OWNED).sum::<usize>();
            }
            inv.status = status;
        }
    }

    /// Creates the message of the id named `n` unless one is already
    /// shown; its index either way (`None` outside a run). Its owner, and
    /// the lane its deltas go to ([`view::lane`]).
    fn create(
        &mut self,
        n: Name,
        id: &str,
        role: &str,
        (owner, lane): (Option<&str>, u32),
        content: Content,
        activity_type: Option<&str>,
    ) -> Option<usize> {
        if !self.growing() {
            return None;
        }
        if let Some(at) = self.view.message_named(n) {
            return Some(at);
        }
        let msg = Message {
            id: self.view.strings.push(id),
            role: view::role(role),
            owner: self.view.opt(owner),
            lane,
            content,
            activity_type: activity_type.map(Box::from),
            tool_calls: ThinVec::new(),
            invented: false,
        };
        Some(self.view.push_message(n, msg))
    }

    /// `TEXT_MESSAGE_START` or `REASONING_MESSAGE_START` (role
    /// `reasoning`) of the id named `n`, owned by `owner`.
    pub(crate) fn message_started(&mut self, names: &Names, n: Name, role: &str, owner: Owner) {
        let lane = view::lane(owner);
        let owner = owner.map(|o| names.str(o));
        let empty = Content::Text(Text::EMPTY);
        self.create(n, names.str(n), role, (owner, lane), empty, None);
    }

    /// `TEXT_MESSAGE_CONTENT` / `REASONING_MESSAGE_CONTENT` of the id
    /// named `n`.
    pub(crate) fn message_content(&mut self, n: Name, delta: &str) {
        if self.growing()
            && let Some(at) = self.view.message_named(n)
        {
            self.extra += self.view.message_text(at, delta);
        }
    }

    /// `TOOL_CALL_START` of the id named `n`: into the named message if
    /// it is an assistant message, else a new assistant message: id
    /// `parentMessageId` when no message of that id is shown; the call's
    /// id, shown as invented (docs/projection.md), without one or when the
    /// named message is not an assistant's (the 1.0.0 reducer's choice;
    /// the named message stays as it was).
    pub(crate) fn tool_call_started(
        &mut self,
        names: &mut Names,
        n: Name,
        name: &str,
        parent: Option<&str>,
        owner: Owner,
    ) {
        if !self.growing() {
            return;
        }
        let named = parent.map(|p| names.intern(p));
        let holder = match named {
            Some(p) => match self.view.message_named(p) {
                Some(at)
                    if self
                        .view
                        .messages
                        .get(at)
                        .is_some_and(|m| m.role != "assistant") =>
                {
                    n
                }
                _ => p,
            },
            None => n,
        };
        let invented = holder == n && self.view.message_named(n).is_none();
        let lane = view::lane(owner);
        let (id, owner) = (names.str(n), owner.map(|o| names.str(o)));
        let empty = Content::Text(Text::EMPTY);
        let holder_id = names.str(holder);
        let Some(at) = self.create(holder, holder_id, "assistant", (owner, lane), empty, None)
        else {
            return;
        };
        if invented && let Some(m) = self.view.messages.get_mut(at) {
            m.invented = true;
        }
        let call = ToolCall {
            id: self.view.strings.push(id),
            name: self.view.strings.push(name),
            args: Text::EMPTY,
        };
        // A vector of calls holds up to twice the slots it uses.
        self.extra += 2 * std::mem::size_of::<ToolCall>();
        self.view.push_tool_call(n, at, call);
    }

    /// `TOOL_CALL_ARGS` of the id named `n`.
    pub(crate) fn tool_call_args(&mut self, n: Name, delta: &str) {
        if self.growing() {
            self.extra += self.view.tool_args(n, delta);
        }
    }

    /// `TOOL_CALL_RESULT`: a tool message under the result's own owner.
    pub(crate) fn tool_result(
        &mut self,
        names: &mut Names,
        message_id: &str,
        content: String,
        owner: Option<&str>,
    ) {
        if !self.growing() {
            return;
        }
        let n = names.intern(message_id);
        self.extra += content.len() + OWNED;
        if let Some(at) = self.view.message_named(n) {
            let owner = self.view.opt(owner);
            if let Some(m) = self.view.messages.get_mut(at) {
                m.content = Content::Text(Text::Owned(content));
                m.owner = owner;
            }
            return;
        }
        let content = Content::Text(Text::Owned(content));
        let owner = (owner, view::NO_LANE);
        self.create(n, message_id, "tool", owner, content, None);
    }

    /// `ACTIVITY_SNAPSHOT`.
    pub(crate) fn activity_snapshot(
        &mut self,
        names: &mut Names,
        id: &str,
        activity_type: &str,
        content: &Value,
        replace: bool,
        owner: Option<&str>,
    ) {
        if !self.growing() {
            return;
        }
        let n = names.intern(id);
        self.extra += crate::patch::mem_size(content) + activity_type.len() + OWNED;
        if let Some(at) = self.view.message_named(n) {
            if replace {
                let owner = self.view.opt(owner);
                if let Some(m) = self.view.messages.get_mut(at) {
                    m.activity_type = Some(activity_type.into());
                    m.content = Content::Json(Box::new(content.clone()));
                    m.owner = owner;
                }
            }
            return;
        }
        let content = Content::Json(Box::new(content.clone()));
        let owner = (owner, view::NO_LANE);
        self.create(n, id, "activity", owner, content, Some(activity_type));
    }

    /// `ACTIVITY_DELTA`: a patch that fails (or is over the default
    /// budget) leaves the content unchanged.
    pub(crate) fn activity_delta(
        &mut self,
        names: &Names,
        id: &str,
        patch: &[json_patch::PatchOperation],
    ) {
        if !self.growing() {
            return;
        }
        let Some(at) = self.view.message(names, id) else {
            return;
        };
        // A tool result may have given an activity message text: patched
        // as the JSON string it shows.
        let text = match self.view.messages.get(at).map(|m| (&m.role, &m.content)) {
            Some((role, Content::Text(t))) if role == "activity" => {
                Some(Value::String(self.view.joined(t)))
            }
            _ => None,
        };
        if let Some(m) = self.view.messages.get_mut(at)
            && m.role == "activity"
        {
            if let Some(v) = text {
                m.content = Content::Json(Box::new(v));
            }
            if let Content::Json(content) = &mut m.content {
                let before = crate::patch::mem_size(content);
                let mut size = before;
                let budget = crate::patch::PatchBudget::default();
                let _ = crate::patch::apply(content, &mut size, patch, &budget);
                self.extra += size.saturating_sub(before);
            }
        }
    }

    /// `MESSAGES_SNAPSHOT`: the run's list becomes the snapshot's
    /// messages, and keeps the client-only messages (activity, reasoning)
    /// it omits, each after the message it followed that the snapshot
    /// still holds (docs/rules.md revision 4), unless the snapshot carries
    /// a message of that role itself.
    pub(crate) fn messages_snapshot(&mut self, names: &mut Names, messages: &[Value]) {
        if !self.growing() {
            return;
        }
        fn role_of(m: &Value) -> Option<&str> {
            m.get("role").and_then(crate::json::text)
        }
        fn id_of(m: &Value) -> Option<&str> {
            m.get("id").and_then(crate::json::text)
        }
        let carries = |r: &str| messages.iter().any(|m| role_of(m) == Some(r));
        let named: std::collections::HashSet<&str> = messages.iter().filter_map(id_of).collect();
        let keep_roles: Vec<&str> = ["activity", "reasoning"]
            .into_iter()
            .filter(|r| !carries(r))
            .collect();
        // Each kept message, by the id of the snapshot-held message it
        // followed (`None`: the list's start).
        let mut kept: Vec<(Option<String>, Option<Message>)> = Vec::new();
        let mut anchor: Option<String> = None;
        for m in std::mem::take(&mut self.view.messages) {
            let id = self.view.str(m.id).to_owned();
            if named.contains(id.as_str()) {
                anchor = Some(id);
            } else if keep_roles.contains(&m.role.as_ref()) && !m.invented {
                kept.push((anchor.clone(), Some(m)));
            }
        }
        self.view.clear_messages();
        fn push_kept(
            view: &mut RunView,
            names: &mut Names,
            kept: &mut [(Option<String>, Option<Message>)],
            after: Option<&str>,
        ) {
            for (a, slot) in kept.iter_mut() {
                if a.as_deref() == after
                    && let Some(m) = slot.take()
                {
                    let n = names.intern(view.str(m.id));
                    if view.message_named(n).is_none() {
                        view.push_message(n, m);
                    }
                }
            }
        }
        push_kept(&mut self.view, names, &mut kept, None);
        for m in messages {
            let Some(id) = m.get("id").and_then(crate::json::text) else {
                continue;
            };
            let n = names.intern(id);
            if self.view.message_named(n).is_some() {
                continue;
            }
            let role = m
                .get("role")
                .and_then(crate::json::text)
                .unwrap_or("assistant");
            let owner = m.get(SUBAGENT_RUN_ID).and_then(crate::json::text);
            let (content, activity_type) = if role == "activity" {
                (
                    Content::Json(Box::new(
                        m.get("content").cloned().unwrap_or_else(|| json!({})),
                    )),
                    m.get(key::ActivitySnapshot::activity_type)
                        .and_then(crate::json::text)
                        .map(str::to_owned),
                )
            } else {
                let text = Text::Owned(content_text(m.get("content")));
                (Content::Text(text), None)
            };
            let mut tool_calls = ThinVec::new();
            if role == "assistant"
                && let Some(calls) = m.get("toolCalls").and_then(Value::as_array)
            {
                for c in calls {
                    tool_calls.push(ToolCall {
                        id: self.view.strings.push(str_of(c.get("id"))),
                        name: self.view.strings.push(str_of(c.pointer("/function/name"))),
                        args: Text::Owned(str_of(c.pointer("/function/arguments")).to_owned()),
                    });
                }
            }
            self.extra += match &content {
                Content::Json(v) => crate::patch::mem_size(v),
                Content::Text(Text::Owned(t)) => t.len() + OWNED,
                Content::Text(_) => 0,
            } + activity_type.as_ref().map_or(0, |t| t.len() + OWNED)
                + tool_calls
                    .iter()
                    .map(|c| match &c.args {
                        Text::Owned(a) => a.len() + OWNED,
                        Text::Pieces { .. } => 0,
                    } + 2 * std::mem::size_of::<ToolCall>())
                    .sum::<usize>();
            let msg = Message {
                id: self.view.strings.push(id),
                role: view::role(role),
                owner: self.view.opt(owner),
                lane: view::NO_LANE,
                content,
                activity_type: activity_type.map(Box::from),
                tool_calls,
                invented: false,
            };
            self.view.push_message(n, msg);
            push_kept(&mut self.view, names, &mut kept, Some(id));
        }
        // Kept messages whose anchor was never reached (the snapshot held
        // no message of that id with a valid shape) stay at the end.
        for m in kept.into_iter().filter_map(|(_, m)| m) {
            let n = names.intern(self.view.str(m.id));
            if self.view.message_named(n).is_none() {
                self.view.push_message(n, m);
            }
        }
    }

    /// Ends the stream: a run still open is shown (`unterminated` if
    /// nothing ended it).
    pub fn finish(mut self, state: &Value) -> Projection {
        if self.open {
            self.emit(state);
        }
        Projection {
            runs: self.done,
            omitted: self.omitted,
        }
    }
}

fn str_of(v: Option<&Value>) -> &str {
    v.and_then(crate::json::text).unwrap_or_default()
}

/// A run's `Value` form: its text read back as the checker reads JSON
/// (a number printed as written, `1e400`, comes back in its kept form).
fn read_back(text: &[u8]) -> Value {
    let opts = crate::json::ParseOptions {
        max_depth: usize::MAX,
    };
    std::str::from_utf8(text)
        .ok()
        .and_then(|t| crate::json::parse(t, &opts).ok())
        .map_or(Value::Null, |p| p.value)
}
