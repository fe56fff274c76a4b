//! Valid rendering: a scenario becomes a stream satisfying every rule, and
//! the projection it must produce, computed from the scenario as it is
//! rendered (owners are known by construction: whoever's script emits an
//! event owns what it touches).
//!
//! Each actor (the parent agent, each invocation) turns its script into
//! *groups*: one or more events emitted back to back. The scheduler
//! interleaves actors group by group. Why groups: the parent's chunk
//! streams live in the parent's lane, which any untagged event closes, so
//! the parent emits a chunk stream as one group; everything else is one
//! event per group and interleaves freely.

use crate::ev::{Delta, Ev, Str};
use crate::names::{ACTIVITY_TYPE, RUN_ID, THREAD_ID};
use crate::patch;
use crate::rng::SplitMix;
use crate::scenario::{
    ActivityOp, CallOp, InvEnd, Op, ReasoningOp, RunEnd, RunPlan, Scenario, TextOp,
};
use agui_model::EventType as T;
use agui_model::events::{
    Content, Interrupt, Message, Object, ResumeEntry, ResumeStatus, RunAgentInput, RunCancelled,
    RunInterrupt, RunOutcome, RunSuccess, SubagentOutcome, SubagentSuccess, SubagentSuspended,
    UserMessage,
};
use serde_json::{Map, Value, json};

/// `interruptIds` of a subagent's outcome and of an invocation in the
/// projection (a nested shape, not a field of the event table).
const INTERRUPT_IDS: &str = "interruptIds";
use std::collections::{HashMap, VecDeque};

/// Where an event came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    /// Index of the run in the scenario.
    pub run: u16,
    /// 0 = the parent agent, i + 1 = invocation i of that run. The owner of
    /// what the event touches (continuations are emitted by their owner).
    pub actor: u16,
    /// 0: not a chunk; 1: a chunk opening a stream; 2: a chunk continuing one.
    pub chunk: u8,
}

/// How a rendered run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndKind {
    Finished,
    Interrupt,
    Error,
}

/// Positions of one rendered run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSpan {
    /// Index of its `RUN_STARTED`.
    pub start: usize,
    /// Index of its `RUN_FINISHED` / `RUN_ERROR`.
    pub end: usize,
    pub kind: EndKind,
    /// Tags of its actors (`[0]` is the parent: `None`).
    pub tags: Vec<Option<String>>,
}

/// A valid stream with its expected projection.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub events: Vec<Ev>,
    pub meta: Vec<Meta>,
    pub runs: Vec<RunSpan>,
    /// Canonical projection (`docs/projection.md`).
    pub projection: Value,
}

impl Rendered {
    pub fn values(&self) -> Vec<Value> {
        self.events.iter().map(Ev::to_value).collect()
    }
}

/// What emitting an event shows (applied when it is emitted, so creation
/// order follows the stream).
#[derive(Debug, Clone)]
enum Effect {
    None,
    Create {
        id: Str,
        role: &'static str,
    },
    Text {
        id: Str,
        delta: &'static str,
    },
    Call {
        id: Str,
        name: Str,
        parent: Option<Str>,
    },
    Args {
        id: Str,
        delta: &'static str,
    },
    Entity(EntityKind, Str),
    /// A chunk opener with a `delta`: the START's effect, then the CONTENT's.
    Both(Box<Effect>, Box<Effect>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntityKind {
    Call,
    Text,
    Reasoning,
}

/// One schedulable unit. Most are one event, kept inline: boxing it costs
/// an allocation per event, more than the larger moves (measured).
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
enum Group {
    /// One event (the common case, kept inline).
    One(Ev, Effect, u8),
    Ready(Vec<(Ev, Effect, u8)>),
    ToolResult {
        message_id: Str,
        pick: u32,
        parts: bool,
    },
    /// A result for this call while it is open.
    EarlyResult {
        message_id: Str,
        call: Str,
    },
    Encrypted {
        pick: u32,
        untagged: bool,
    },
    StateSnapshot(u64),
    StateDelta(u64),
    ActivityDelta {
        id: Str,
        activity_type: Str,
        seed: u64,
        untagged: bool,
    },
}

impl Group {
    fn one(ev: Ev, effect: Effect) -> Group {
        Group::One(ev, effect, 0)
    }
}

#[derive(Debug, Clone)]
struct PMsg {
    id: Str,
    role: &'static str,
    owner: Option<Str>,
    content: Value,
    activity_type: Option<Str>,
    calls: Vec<(Str, Str, String)>,
    /// No event names this message (a call's message the consumer makes
    /// up): shown without `id` (docs/projection.md, revision 4).
    invented: bool,
}

#[derive(Debug, Clone)]
struct PInv {
    id: Str,
    name: Option<Str>,
    parent: Option<Str>,
    status: &'static str,
    interrupt_ids: Option<Vec<String>>,
}

/// Per-run projection under construction.
#[derive(Debug, Default)]
struct RunView {
    invs: Vec<PInv>,
    inv_at: HashMap<Str, usize>,
    msgs: Vec<PMsg>,
    msg_at: HashMap<Str, usize>,
    call_at: HashMap<Str, (usize, usize)>,
    calls: Vec<Str>,
    /// Calls a `TOOL_CALL_RESULT` may name without naming an open call
    /// (`tool.result-before-end`), in the order they qualified: each
    /// explicit call once its `TOOL_CALL_END` is out (`None`), each
    /// chunked call for the actor whose lane holds it (`Some(actor)`): a
    /// result is an explicit event, which ends its own lane's chunk stream
    /// first, so only its own actor's chunked calls have surely ended.
    ended: Vec<(Str, Option<u16>)>,
}

struct Actor {
    tag: Option<Str>,
    sub: bool,
    groups: VecDeque<Group>,
    entities: Vec<(EntityKind, Str)>,
    /// Its announcement has been emitted (children may start).
    announced: bool,
    /// Needs the announcement of this actor first.
    after: Option<usize>,
}

/// Where rendered events go: kept (for cases and mutators) or written
/// straight out (for throughput, never holding the stream).
pub trait Sink {
    fn event(&mut self, ev: Ev, meta: Meta);
}

/// Keeps every event with its [`Meta`].
#[derive(Debug, Default)]
pub struct Collect {
    pub events: Vec<Ev>,
    pub meta: Vec<Meta>,
}

impl Sink for Collect {
    fn event(&mut self, ev: Ev, meta: Meta) {
        self.events.push(ev);
        self.meta.push(meta);
    }
}

/// Writes each event as one JSON line.
pub struct Jsonl<'a>(pub &'a mut Vec<u8>);

impl Sink for Jsonl<'_> {
    fn event(&mut self, ev: Ev, _meta: Meta) {
        // Serializing strings and values into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *self.0, &ev.to_event());
        self.0.push(b'\n');
    }
}

struct Renderer<'a, S: Sink> {
    sc: &'a Scenario,
    sink: &'a mut S,
    /// Events emitted so far.
    count: usize,
    runs: Vec<RunSpan>,
    done_runs: Vec<Value>,
    state: Map<String, Value>,
    fresh: u32,
    view: RunView,
    run: u16,
    actor: u16,
    /// Build the projection (off: the stream alone, faster).
    project: bool,
    /// The current run's actor tags (`[0]` the parent: `None`).
    tags: Vec<Option<Str>>,
}

/// Renders a scenario into a valid stream and its projection.
pub fn render(sc: &Scenario) -> Rendered {
    let mut c = Collect::default();
    let (runs, projection) = render_into(sc, &mut c, true);
    Rendered {
        events: c.events,
        meta: c.meta,
        runs,
        projection,
    }
}

/// Renders the stream only (`projection` is `null`): the same events as
/// [`render`].
pub fn render_stream(sc: &Scenario) -> Rendered {
    let mut c = Collect::default();
    let (runs, projection) = render_into(sc, &mut c, false);
    Rendered {
        events: c.events,
        meta: c.meta,
        runs,
        projection,
    }
}

/// Renders the stream straight to JSON Lines, never holding it.
pub fn render_jsonl(sc: &Scenario, out: &mut Vec<u8>) {
    render_into(sc, &mut Jsonl(out), false);
}

/// The core of rendering: events into `sink`; returns the runs' positions
/// and, when `project`, the projection (else `null`).
pub fn render_into<S: Sink>(sc: &Scenario, sink: &mut S, project: bool) -> (Vec<RunSpan>, Value) {
    let mut r = Renderer {
        sc,
        sink,
        count: 0,
        runs: Vec::with_capacity(sc.runs.len()),
        done_runs: Vec::with_capacity(sc.runs.len()),
        state: Map::new(),
        fresh: 0,
        view: RunView::default(),
        run: 0,
        actor: 0,
        project,
        tags: Vec::new(),
    };
    for (k, run) in sc.runs.iter().enumerate() {
        r.run = k as u16;
        r.render_run(run, k);
    }
    let projection = if project {
        json!({ "runs": r.done_runs })
    } else {
        Value::Null
    };
    (r.runs, projection)
}

/// A shared copy of a scenario string.
fn st(x: &str) -> Str {
    Str::from(x)
}

fn bit(mask: u32, i: usize) -> bool {
    mask >> (i % 32) & 1 == 1
}

impl<S: Sink> Renderer<'_, S> {
    fn emit(&mut self, mut ev: Ev, effect: Effect, chunk: u8) {
        let kind = ev.kind();
        match (kind, &ev.tool_call_id) {
            (T::ToolCallEnd, Some(id)) => self.view.ended.push((id.clone(), None)),
            (T::ToolCallChunk, Some(id)) if chunk == 1 => {
                self.view.ended.push((id.clone(), Some(self.actor)));
            }
            _ => {}
        }
        if self.project
            && kind.is_attributable()
            && !kind.is_lifecycle()
            && let Some(id) = &ev.subagent_run_id
            && !self.view.inv_at.contains_key(id)
        {
            self.view.inv_at.insert(id.clone(), self.view.invs.len());
            self.view.invs.push(PInv {
                id: id.clone(),
                name: None,
                parent: None,
                status: "unannounced",
                interrupt_ids: None,
            });
        }
        self.apply(effect);
        if self.sc.extras {
            let n = self.count as u64;
            ev.timestamp = Some(1_700_000_000_000 + n * 7);
            if n % 5 == 2 {
                ev.vendor_note = Some("ignored".into());
            }
        }
        let meta = Meta {
            run: self.run,
            actor: self.actor,
            chunk,
        };
        self.sink.event(ev, meta);
        self.count += 1;
    }

    fn owner(&self) -> Option<Str> {
        self.tags.get(self.actor as usize).cloned().flatten()
    }

    fn apply(&mut self, effect: Effect) {
        if !self.project {
            // Only what rendering itself needs: the calls made so far.
            match effect {
                Effect::Call { id, .. } => self.view.calls.push(id),
                Effect::Both(a, b) => {
                    self.apply(*a);
                    self.apply(*b);
                }
                _ => {}
            }
            return;
        }
        let owner = self.owner();
        let v = &mut self.view;
        match effect {
            Effect::None | Effect::Entity(..) => {}
            Effect::Both(a, b) => {
                self.apply(*a);
                self.apply(*b);
            }
            Effect::Create { id, role } => {
                if !v.msg_at.contains_key(&id) {
                    v.msg_at.insert(id.clone(), v.msgs.len());
                    v.msgs.push(PMsg {
                        id,
                        role,
                        owner,
                        content: Value::String(String::new()),
                        activity_type: None,
                        calls: Vec::new(),
                        invented: false,
                    });
                }
            }
            Effect::Text { id, delta } => {
                if let Some(&at) = v.msg_at.get(&id)
                    && let Value::String(s) = &mut v.msgs[at].content
                {
                    s.push_str(delta);
                }
            }
            Effect::Call { id, name, parent } => {
                // Onto the named assistant message; else a new one: named
                // by `parent` when nothing of that id is shown, made up
                // (shown without id) without a parent or when the named
                // message is not an assistant's.
                let named = parent.filter(|p| {
                    v.msg_at
                        .get(p)
                        .is_none_or(|&at| v.msgs[at].role == "assistant")
                });
                let invented = named.is_none();
                let holder = named.unwrap_or_else(|| id.clone());
                if !v.msg_at.contains_key(&holder) {
                    v.msg_at.insert(holder.clone(), v.msgs.len());
                    v.msgs.push(PMsg {
                        id: holder.clone(),
                        role: "assistant",
                        owner,
                        content: Value::String(String::new()),
                        activity_type: None,
                        calls: Vec::new(),
                        invented,
                    });
                }
                let at = v.msg_at[&holder];
                v.msgs[at].calls.push((id.clone(), name, String::new()));
                v.call_at
                    .insert(id.clone(), (at, v.msgs[at].calls.len() - 1));
                v.calls.push(id);
            }
            Effect::Args { id, delta } => {
                if let Some(&(m, c)) = v.call_at.get(&id) {
                    v.msgs[m].calls[c].2.push_str(delta);
                }
            }
        }
    }

    fn render_run(&mut self, run: &RunPlan, k: usize) {
        self.view = RunView::default();
        let sc = self.sc;
        let mut tags = vec![None];
        tags.extend(run.invocations.iter().map(|i| Some(i.id.clone())));
        self.tags = std::iter::once(None)
            .chain(run.invocations.iter().map(|i| Some(st(&i.id))))
            .collect();
        let start = self.count;
        self.runs.push(RunSpan {
            start,
            end: start,
            kind: EndKind::Finished,
            tags,
        });
        self.actor = 0;
        // RUN_STARTED
        let mut ev = Ev::new(T::RunStarted);
        ev.thread_id = Some(st(&sc.thread_id));
        ev.run_id = Some(st(&run.run_id));
        if k > 0 {
            ev.parent_run_id = Some(st(&sc.runs[k - 1].run_id));
        }
        if let Some(input) = &run.input {
            let mut messages = Vec::new();
            if let Some((id, tag)) = &input.history {
                messages.push(Message::User(UserMessage {
                    id: id.clone(),
                    content: Content::Text("earlier question".into()),
                    subagent_run_id: tag.clone(),
                    ..Default::default()
                }));
            }
            let mut typed = RunAgentInput {
                thread_id: sc.thread_id.clone(),
                run_id: run.run_id.clone(),
                messages,
                ..Default::default()
            };
            if let Some(s) = &input.state {
                typed.state = Some(s.clone());
                if let Value::Object(o) = s {
                    self.state = o.clone();
                }
            }
            if !input.resume.is_empty() {
                let list = input
                    .resume
                    .iter()
                    .map(|i| ResumeEntry {
                        interrupt_id: i.clone(),
                        status: ResumeStatus::Resolved,
                        ..Default::default()
                    })
                    .collect();
                typed.resume = Some(list);
            }
            ev.input = Some(Box::new(typed));
        }
        self.emit(ev, Effect::None, 0);

        // Actors: the parent agent, then each invocation.
        let mut actors = Vec::with_capacity(run.invocations.len() + 1);
        actors.push(Actor {
            tag: None,
            sub: false,
            groups: self.script(&run.parent, None, false),
            entities: Vec::new(),
            announced: true,
            after: None,
        });
        for inv in &run.invocations {
            let tag = Some(st(&inv.id));
            let mut groups = self.script(&inv.ops, tag.as_ref(), true);
            if inv.announced {
                let mut s = Ev::new(T::SubagentStarted);
                s.subagent_run_id = tag.clone();
                s.name = Some(st(&inv.name));
                if let Some(p) = inv.parent {
                    s.parent_subagent_run_id = Some(st(&run.invocations[p].id));
                }
                if inv.resumed {
                    s.description = Some("resumed".into());
                }
                groups.push_front(Group::one(s, Effect::None));
                let fin = finish_event(&st(&inv.id), &inv.end);
                let late = inv.late_close
                    && matches!(groups.back(), Some(Group::One(g, _, _)) if is_explicit_close(g.kind()));
                if late {
                    let last = groups.pop_back();
                    groups.push_back(Group::one(fin, Effect::None));
                    groups.extend(last);
                } else {
                    groups.push_back(Group::one(fin, Effect::None));
                }
            }
            actors.push(Actor {
                tag,
                sub: true,
                groups,
                entities: Vec::new(),
                announced: !inv.announced,
                after: inv.parent.map(|p| p + 1),
            });
        }

        // The scheduler.
        let mut rng = SplitMix::new(run.sched_seed);
        let error_after = match run.end {
            RunEnd::Error(n) => Some(n as usize),
            _ => None,
        };
        let mut live: Vec<usize> = vec![0];
        let mut pending: Vec<usize> = (1..actors.len()).collect();
        let mut emitted = 0usize;
        loop {
            if error_after == Some(emitted) {
                break;
            }
            let live_subs = live.iter().filter(|&&a| a != 0).count();
            let startable = if live_subs < run.parallelism as usize {
                pending
                    .iter()
                    .position(|&a| actors[a].after.is_none_or(|p| actors[p].announced))
            } else {
                None
            };
            if live.is_empty() && startable.is_none() {
                break;
            }
            let choice = rng.below(live.len() + usize::from(startable.is_some()));
            if choice == live.len() {
                if let Some(p) = startable {
                    live.push(pending.remove(p));
                }
                continue;
            }
            let a = live[choice];
            match actors[a].groups.pop_front() {
                Some(g) => {
                    self.actor = a as u16;
                    self.run_group(g, &mut actors[a]);
                    emitted += 1;
                }
                None => {
                    live.swap_remove(choice);
                }
            }
        }

        // The run's end.
        self.actor = 0;
        let end_ix = self.count;
        let (status, kind) = match &run.end {
            RunEnd::Error(_) => {
                let mut e = Ev::new(T::RunError);
                e.message = Some("run failed".into());
                if run.outcome_style % 2 == 1 {
                    e.code = Some("E_RUN".into());
                }
                self.emit(e, Effect::None, 0);
                for inv in &mut self.view.invs {
                    if inv.status == "running" {
                        inv.status = "abandoned";
                    }
                }
                ("errored", EndKind::Error)
            }
            RunEnd::Finished => {
                let mut e = Ev::new(T::RunFinished);
                e.thread_id = Some(st(&sc.thread_id));
                e.run_id = Some(st(&run.run_id));
                e.run_outcome = match run.outcome_style {
                    1 => Some(RunOutcome::Success(RunSuccess::default())),
                    2 => {
                        let pending = self.view.calls.iter().take(1).map(|c| c.to_string());
                        Some(RunOutcome::Success(RunSuccess {
                            pending_tool_call_ids: Some(pending.collect()),
                            ..Default::default()
                        }))
                    }
                    3 => Some(RunOutcome::Cancelled(RunCancelled::default())),
                    _ => None,
                }
                .map(Box::new);
                // Revision 4: a cancelled run is shown as such.
                let status = if run.outcome_style == 3 {
                    "cancelled"
                } else {
                    "finished"
                };
                if run.sched_seed.is_multiple_of(3) {
                    e.result = Some(Box::new(json!({"answer": 42})));
                }
                self.emit(e, Effect::None, 0);
                (status, EndKind::Finished)
            }
            RunEnd::Interrupt(list) => {
                let mut e = Ev::new(T::RunFinished);
                e.thread_id = Some(st(&sc.thread_id));
                e.run_id = Some(st(&run.run_id));
                let interrupts = list
                    .iter()
                    .map(|i| Interrupt {
                        id: i.id.clone(),
                        reason: "input_required".into(),
                        subagent_run_id: i.tag.clone(),
                        ..Default::default()
                    })
                    .collect();
                e.run_outcome = Some(Box::new(RunOutcome::Interrupt(RunInterrupt {
                    interrupts,
                    ..Default::default()
                })));
                self.emit(e, Effect::None, 0);
                ("interrupted", EndKind::Interrupt)
            }
        };
        if let Some(span) = self.runs.last_mut() {
            span.end = end_ix;
            span.kind = kind;
        }
        let view = std::mem::take(&mut self.view);
        if self.project {
            let interrupts = interrupts(run);
            self.done_runs
                .push(render_view(sc, run, view, status, &self.state, interrupts));
        }
    }

    fn run_group(&mut self, g: Group, actor: &mut Actor) {
        let tag = actor.tag.clone();
        match g {
            Group::One(ev, effect, chunk) => {
                self.ready(ev, effect, chunk, actor);
            }
            Group::Ready(evs) => {
                for (ev, effect, chunk) in evs {
                    self.ready(ev, effect, chunk, actor);
                }
            }
            Group::ToolResult {
                message_id,
                pick,
                parts,
            } => {
                let actor = self.actor;
                let ended: Vec<&Str> = (self.view.ended.iter())
                    .filter(|(_, lane)| lane.is_none_or(|a| a == actor))
                    .map(|(id, _)| id)
                    .collect();
                if ended.is_empty() {
                    return;
                }
                let call = ended[pick as usize % ended.len()].clone();
                self.tool_result(message_id, call, pick, parts, tag);
            }
            Group::EarlyResult { message_id, call } => {
                self.tool_result(message_id, call, 0, false, tag);
            }
            Group::Encrypted { pick, untagged } => {
                if actor.entities.is_empty() {
                    return;
                }
                let (kind, id) = actor.entities[pick as usize % actor.entities.len()].clone();
                let t = if actor.sub && untagged {
                    None
                } else {
                    tag.clone()
                };
                let mut ev = Ev::new(T::ReasoningEncryptedValue).tagged(t.as_ref());
                ev.subtype = Some(if kind == EntityKind::Call {
                    "tool-call"
                } else {
                    "message"
                });
                ev.entity_id = Some(id);
                ev.encrypted_value = Some(st(&format!("enc:{pick:08x}")));
                self.emit(ev, Effect::None, 0);
            }
            Group::StateSnapshot(seed) => {
                let mut r = SplitMix::new(seed);
                self.state = patch::snapshot(&mut r, &mut self.fresh);
                let mut ev = Ev::new(T::StateSnapshot).tagged(tag.as_ref());
                ev.snapshot = Some(Box::new(Value::Object(self.state.clone())));
                self.emit(ev, Effect::None, 0);
            }
            Group::StateDelta(seed) => {
                let mut r = SplitMix::new(seed);
                let ops = patch::build(&mut self.state, &mut r, &mut self.fresh);
                let mut ev = Ev::new(T::StateDelta).tagged(tag.as_ref());
                ev.delta = Some(Delta::Patch(Box::new(ops)));
                self.emit(ev, Effect::None, 0);
            }
            Group::ActivityDelta {
                id,
                activity_type,
                seed,
                untagged,
            } => {
                let mut r = SplitMix::new(seed);
                let at = self.view.msg_at.get(&*id).copied();
                let Some(at) = at else { return };
                let Value::Object(mut content) = std::mem::take(&mut self.view.msgs[at].content)
                else {
                    return;
                };
                let ops = patch::build(&mut content, &mut r, &mut self.fresh);
                self.view.msgs[at].content = Value::Object(content);
                let t = if actor.sub && untagged {
                    None
                } else {
                    tag.clone()
                };
                let mut ev = Ev::new(T::ActivityDelta).tagged(t.as_ref());
                ev.message_id = Some(id);
                ev.activity_type = Some(activity_type);
                ev.patch = Some(Box::new(ops));
                self.emit(ev, Effect::None, 0);
            }
        }
    }

    /// A `TOOL_CALL_RESULT` of the current actor (tagged `tag`) for
    /// `call`: a tool message under the result's own owner.
    fn tool_result(
        &mut self,
        message_id: Str,
        call: Str,
        pick: u32,
        parts: bool,
        tag: Option<Str>,
    ) {
        let mut ev = Ev::new(T::ToolCallResult).tagged(tag.as_ref());
        ev.message_id = Some(message_id.clone());
        ev.tool_call_id = Some(call);
        let text =
            crate::scenario::DELTAS[pick as usize % crate::scenario::DELTAS.len()].to_owned();
        ev.content = Some(Box::new(if parts {
            json!([{"type": "text", "text": text}, {"type": "image", "source": {"type": "url", "value": "https://example.invalid/i.png"}}, {"type": "text", "text": "!"}])
        } else {
            Value::String(text.clone())
        }));
        if pick.is_multiple_of(2) {
            ev.role = Some("tool");
        }
        let content = if parts { format!("{text}!") } else { text };
        let owner = tag;
        let v = &mut self.view;
        match v.msg_at.get(&message_id) {
            Some(&at) => {
                v.msgs[at].content = Value::String(content);
                v.msgs[at].owner = owner;
            }
            None => {
                v.msg_at.insert(message_id.clone(), v.msgs.len());
                v.msgs.push(PMsg {
                    id: message_id,
                    role: "tool",
                    owner,
                    content: Value::String(content),
                    activity_type: None,
                    calls: Vec::new(),
                    invented: false,
                });
            }
        }
        self.emit(ev, Effect::None, 0);
    }

    /// Emits one ready event, keeping the actor's records.
    fn ready(&mut self, ev: Ev, effect: Effect, chunk: u8, actor: &mut Actor) {
        register(&mut actor.entities, &effect);
        match ev.kind() {
            T::SubagentStarted => {
                actor.announced = true;
                self.announce(&ev);
            }
            T::SubagentFinished | T::SubagentError => self.lifecycle_end(&ev),
            T::ActivitySnapshot => self.activity_snapshot(&ev),
            _ => {}
        }
        self.emit(ev, effect, chunk);
    }

    fn announce(&mut self, ev: &Ev) {
        let id = ev.subagent_run_id.clone().unwrap_or_default();
        let inv = PInv {
            id: id.clone(),
            name: ev.name.clone(),
            parent: ev.parent_subagent_run_id.clone(),
            status: "running",
            interrupt_ids: None,
        };
        let v = &mut self.view;
        match v.inv_at.get(&id) {
            Some(&at) => v.invs[at] = inv,
            None => {
                v.inv_at.insert(id, v.invs.len());
                v.invs.push(inv);
            }
        }
    }

    fn lifecycle_end(&mut self, ev: &Ev) {
        let id = ev.subagent_run_id.clone().unwrap_or_default();
        let Some(&at) = self.view.inv_at.get(&id) else {
            return;
        };
        let inv = &mut self.view.invs[at];
        if ev.kind() == T::SubagentError {
            inv.status = "errored";
            return;
        }
        match ev.sub_outcome.as_deref() {
            Some(SubagentOutcome::Suspended(o)) => {
                inv.status = "suspended";
                inv.interrupt_ids = Some(o.interrupt_ids.clone().unwrap_or_default());
            }
            _ => inv.status = "finished",
        }
    }

    fn activity_snapshot(&mut self, ev: &Ev) {
        let id = ev.message_id.clone().unwrap_or_default();
        let owner = self.owner();
        let v = &mut self.view;
        match v.msg_at.get(&id) {
            Some(&at) => {
                if ev.replace != Some(false) {
                    v.msgs[at].content = ev.content.as_deref().cloned().unwrap_or(Value::Null);
                    v.msgs[at].activity_type = ev.activity_type.clone();
                    v.msgs[at].owner = owner;
                }
            }
            None => {
                v.msg_at.insert(id.clone(), v.msgs.len());
                v.msgs.push(PMsg {
                    id,
                    role: "activity",
                    owner,
                    content: ev.content.as_deref().cloned().unwrap_or(Value::Null),
                    activity_type: ev.activity_type.clone(),
                    calls: Vec::new(),
                    invented: false,
                });
            }
        }
    }

    /// An actor's script as groups.
    fn script(&self, ops: &[Op], tag: Option<&Str>, sub: bool) -> VecDeque<Group> {
        let mut out = VecDeque::with_capacity(ops.len() * 6 + 2);
        for op in ops {
            expand(op, tag, sub, &mut out);
        }
        out
    }
}

/// Remembers what an actor opened (for `REASONING_ENCRYPTED_VALUE`).
fn register(entities: &mut Vec<(EntityKind, Str)>, effect: &Effect) {
    match effect {
        Effect::Create {
            id,
            role: "reasoning",
        } => entities.push((EntityKind::Reasoning, id.clone())),
        Effect::Create { id, .. } => entities.push((EntityKind::Text, id.clone())),
        Effect::Call { id, .. } => entities.push((EntityKind::Call, id.clone())),
        Effect::Entity(k, id) => entities.push((*k, id.clone())),
        Effect::Both(a, b) => {
            register(entities, a);
            register(entities, b);
        }
        _ => {}
    }
}

fn is_explicit_close(t: T) -> bool {
    matches!(
        t,
        T::TextMessageEnd
            | T::ToolCallEnd
            | T::ReasoningEnd
            | T::ReasoningMessageEnd
            | T::StepFinished
    )
}

fn finish_event(id: &Str, end: &InvEnd) -> Ev {
    match end {
        InvEnd::Error => {
            let mut e = Ev::new(T::SubagentError).tagged(Some(id));
            e.message = Some("subagent failed".into());
            e.code = Some("E_SUB".into());
            e
        }
        InvEnd::Success(style) => {
            let mut e = Ev::new(T::SubagentFinished).tagged(Some(id));
            let success = |interrupt_ids: Option<Vec<String>>| {
                let mut extra = Object::new();
                if let Some(ids) = interrupt_ids {
                    // `interruptIds: []` on a success: allowed (only a
                    // non-empty list is `lifecycle.success-with-interrupts`)
                    // and kept out of the typed struct, as the model does.
                    extra.insert(INTERRUPT_IDS.into(), Value::from(ids));
                }
                Some(Box::new(SubagentOutcome::Success(SubagentSuccess {
                    extra,
                })))
            };
            match style {
                1 => e.sub_outcome = success(None),
                2 => e.sub_outcome = success(Some(Vec::new())),
                3 => e.result = Some(Box::new(json!("done"))),
                _ => {}
            }
            e
        }
        InvEnd::Suspended(ids) => {
            let mut e = Ev::new(T::SubagentFinished).tagged(Some(id));
            e.sub_outcome = Some(Box::new(SubagentOutcome::Suspended(SubagentSuspended {
                interrupt_ids: ids.clone(),
                ..Default::default()
            })));
            e
        }
    }
}

/// A continuation's tag: the owner's, or none when the mask says so (only
/// subagents leave it out; the parent never has one).
fn cont(tag: Option<&Str>, sub: bool, mask: u32, i: usize) -> Option<&Str> {
    if sub && bit(mask, i) { None } else { tag }
}

fn expand(op: &Op, tag: Option<&Str>, sub: bool, out: &mut VecDeque<Group>) {
    match op {
        Op::Text(t) => expand_text(t, tag, sub, out),
        Op::ToolCall(c) => expand_call(c, None, tag, sub, out),
        Op::ToolResult {
            message_id,
            pick,
            parts,
        } => out.push_back(Group::ToolResult {
            message_id: st(message_id),
            pick: *pick,
            parts: *parts,
        }),
        Op::Reasoning(r) => expand_reasoning(r, tag, sub, out),
        Op::Encrypted { pick, untagged } => out.push_back(Group::Encrypted {
            pick: *pick,
            untagged: *untagged,
        }),
        Op::Step { name, body } => {
            let mut s = Ev::new(T::StepStarted).tagged(tag);
            s.step_name = Some(st(name));
            out.push_back(Group::one(s, Effect::None));
            for b in body {
                expand(b, tag, sub, out);
            }
            let mut f = Ev::new(T::StepFinished).tagged(tag);
            f.step_name = Some(st(name));
            out.push_back(Group::one(f, Effect::None));
        }
        Op::StateSnapshot { seed } => out.push_back(Group::StateSnapshot(*seed)),
        Op::StateDelta { seed } => out.push_back(Group::StateDelta(*seed)),
        Op::Activity(a) => expand_activity(a, tag, sub, out),
        Op::Custom { name, value } => {
            let mut e = Ev::new(T::Custom).tagged(tag);
            e.name = Some(st(name));
            e.value = Some(Box::new(json!({"n": value})));
            out.push_back(Group::one(e, Effect::None));
        }
        Op::Raw { source, value } => {
            let mut e = Ev::new(T::Raw).tagged(tag);
            e.event = Some(Box::new(json!({"vendor": "x", "n": value})));
            if *source {
                e.source = Some("llm".into());
            }
            out.push_back(Group::one(e, Effect::None));
        }
    }
}

/// Chunk events of one stream: the parent's as one group, a subagent's one
/// per group.
fn push_chunks(evs: Vec<(Ev, Effect, u8)>, sub: bool, out: &mut VecDeque<Group>) {
    if sub {
        for e in evs {
            out.push_back(Group::One(e.0, e.1, e.2));
        }
    } else if !evs.is_empty() {
        out.push_back(Group::Ready(evs));
    }
}

/// A message as chunks of `kind`, one per delta: the first carries the id,
/// the tag and `role` (when given) and creates the message (`create`); the
/// others continue it ([`chunk_addr`], with the `lane`'s tag, whether it is
/// a subagent's, and its untag and noid bits).
fn message_chunks(
    kind: T,
    id: &Str,
    role: Option<&'static str>,
    create: Effect,
    deltas: &[&'static str],
    lane: (Option<&Str>, bool, u32, u32),
) -> Vec<(Ev, Effect, u8)> {
    let (tag, sub, untag, noid) = lane;
    let mut create = Some(create);
    let mut evs = Vec::with_capacity(deltas.len());
    for (i, d) in deltas.iter().enumerate() {
        let d = *d;
        let mut e = Ev::new(kind);
        e.delta = Some(Delta::Static(d));
        let text = Effect::Text {
            id: id.clone(),
            delta: d,
        };
        match create.take() {
            Some(create) => {
                e.message_id = Some(id.clone());
                e.role = role;
                e.subagent_run_id = tag.cloned();
                evs.push((e, Effect::Both(Box::new(create), Box::new(text)), 1));
            }
            None => {
                chunk_addr(&mut e, id, tag, sub, untag, noid, i);
                evs.push((e, text, 2));
            }
        }
    }
    evs
}

/// A continuation chunk's id and tag: a subagent's carries its tag or its
/// id (or both), so its lane is never in doubt; the parent's may carry
/// neither (its lane is the parent's, emitted in one group).
fn chunk_addr(
    ev: &mut Ev,
    id: &Str,
    tag: Option<&Str>,
    sub: bool,
    untag: u32,
    noid: u32,
    i: usize,
) -> bool {
    let untagged = sub && bit(untag, i);
    let with_id = untagged || !bit(noid, i);
    if with_id {
        ev.subagent_run_id = None;
        ev.message_id = Some(id.clone());
    }
    if !untagged {
        ev.subagent_run_id = tag.cloned();
    }
    with_id
}

fn expand_text(t: &TextOp, tag: Option<&Str>, sub: bool, out: &mut VecDeque<Group>) {
    let role = t.role.unwrap_or("assistant");
    let id = st(&t.id);
    if t.chunk {
        let create = Effect::Create {
            id: id.clone(),
            role,
        };
        let lane = (tag, sub, t.untag, t.noid);
        let evs = message_chunks(T::TextMessageChunk, &id, t.role, create, &t.deltas, lane);
        push_chunks(evs, sub, out);
    } else {
        let mut s = Ev::new(T::TextMessageStart).tagged(tag);
        s.message_id = Some(id.clone());
        s.role = t.role;
        out.push_back(Group::one(
            s,
            Effect::Create {
                id: id.clone(),
                role,
            },
        ));
        for (i, d) in t.deltas.iter().enumerate() {
            let d = *d;
            let mut c = Ev::new(T::TextMessageContent).tagged(cont(tag, sub, t.untag, i));
            c.message_id = Some(id.clone());
            c.delta = Some(Delta::Static(d));
            out.push_back(Group::one(
                c,
                Effect::Text {
                    id: id.clone(),
                    delta: d,
                },
            ));
        }
    }
    // Tool calls inside the message: while it is open (explicit), or after
    // its chunk stream.
    for c in &t.calls {
        expand_call(c, Some(&id), tag, sub, out);
    }
    if !t.chunk {
        let mut e = Ev::new(T::TextMessageEnd).tagged(cont(tag, sub, t.untag, 31));
        e.message_id = Some(id);
        out.push_back(Group::one(e, Effect::None));
    }
}

fn expand_call(
    c: &CallOp,
    message: Option<&Str>,
    tag: Option<&Str>,
    sub: bool,
    out: &mut VecDeque<Group>,
) {
    // Inside a message a subagent's call may leave its tag out and inherit
    // the message's owner; outside one it must carry it.
    let opener_tag = if message.is_some() {
        cont(tag, sub, c.untag, 0)
    } else {
        tag
    };
    let id = st(&c.id);
    let name = st(&c.name);
    let effect = Effect::Call {
        id: id.clone(),
        name: name.clone(),
        parent: message.cloned(),
    };
    if c.chunk {
        let mut evs = Vec::with_capacity(c.args.len() + 1);
        let mut e = Ev::new(T::ToolCallChunk);
        e.tool_call_id = Some(id.clone());
        e.tool_call_name = Some(name);
        e.parent_message_id = message.cloned();
        // A chunk opener goes to the lane its tag names: always the owner's.
        e.subagent_run_id = tag.cloned();
        evs.push((e, effect, 1));
        for (i, a) in c.args.iter().enumerate() {
            let a = *a;
            let args = Effect::Args {
                id: id.clone(),
                delta: a,
            };
            if i == 0 {
                if let Some((first, eff, _)) = evs.first_mut() {
                    first.delta = Some(Delta::Static(a));
                    *eff = Effect::Both(
                        Box::new(std::mem::replace(eff, Effect::None)),
                        Box::new(args),
                    );
                }
                continue;
            }
            let mut k = Ev::new(T::ToolCallChunk);
            k.delta = Some(Delta::Static(a));
            let with_id = chunk_addr(&mut k, &id, tag, sub, c.untag >> 1, c.noid, i);
            if with_id {
                k.tool_call_id = k.message_id.take();
            }
            evs.push((k, args, 2));
        }
        push_chunks(evs, sub, out);
        return;
    }
    let mut s = Ev::new(T::ToolCallStart).tagged(opener_tag);
    s.tool_call_id = Some(id.clone());
    s.tool_call_name = Some(name);
    s.parent_message_id = message.cloned();
    out.push_back(Group::one(s, effect));
    let early = |out: &mut VecDeque<Group>| {
        if let Some((message_id, _)) = &c.early_result {
            out.push_back(Group::EarlyResult {
                message_id: st(message_id),
                call: id.clone(),
            });
        }
    };
    let early_at = c.early_result.as_ref().map(|(_, n)| *n);
    for (i, a) in c.args.iter().enumerate() {
        if early_at == Some(i) {
            early(out);
        }
        let a = *a;
        let mut e = Ev::new(T::ToolCallArgs).tagged(cont(tag, sub, c.untag, i + 1));
        e.tool_call_id = Some(id.clone());
        e.delta = Some(Delta::Static(a));
        out.push_back(Group::one(
            e,
            Effect::Args {
                id: id.clone(),
                delta: a,
            },
        ));
    }
    if early_at.is_some_and(|n| n >= c.args.len()) {
        early(out);
    }
    let mut e = Ev::new(T::ToolCallEnd).tagged(cont(tag, sub, c.untag, 30));
    e.tool_call_id = Some(id);
    out.push_back(Group::one(e, Effect::None));
}

fn expand_reasoning(r: &ReasoningOp, tag: Option<&Str>, sub: bool, out: &mut VecDeque<Group>) {
    let span = st(&r.span);
    let mut s = Ev::new(T::ReasoningStart).tagged(tag);
    s.message_id = Some(span.clone());
    out.push_back(Group::one(
        s,
        Effect::Entity(EntityKind::Reasoning, span.clone()),
    ));
    if let Some(m) = &r.message {
        let id = if m.id == r.span {
            span.clone()
        } else {
            st(&m.id)
        };
        let create = Effect::Create {
            id: id.clone(),
            role: "reasoning",
        };
        if m.chunk {
            let lane = (tag, sub, r.untag >> 1, m.noid);
            let evs = message_chunks(T::ReasoningMessageChunk, &id, None, create, &m.deltas, lane);
            push_chunks(evs, sub, out);
        } else {
            // Under the span's own id the start continues the open span and
            // may leave its tag out; under a new id it is an opener.
            let start_tag = if m.id == r.span {
                cont(tag, sub, r.untag, 0)
            } else {
                tag
            };
            let mut e = Ev::new(T::ReasoningMessageStart).tagged(start_tag);
            e.message_id = Some(id.clone());
            e.role = Some("reasoning");
            out.push_back(Group::one(e, create));
            for (i, d) in m.deltas.iter().enumerate() {
                let d = *d;
                let mut e =
                    Ev::new(T::ReasoningMessageContent).tagged(cont(tag, sub, r.untag, i + 1));
                e.message_id = Some(id.clone());
                e.delta = Some(Delta::Static(d));
                out.push_back(Group::one(
                    e,
                    Effect::Text {
                        id: id.clone(),
                        delta: d,
                    },
                ));
            }
            let mut e = Ev::new(T::ReasoningMessageEnd).tagged(cont(tag, sub, r.untag, 29));
            e.message_id = Some(id);
            out.push_back(Group::one(e, Effect::None));
        }
    }
    let mut e = Ev::new(T::ReasoningEnd).tagged(cont(tag, sub, r.untag, 28));
    e.message_id = Some(span);
    out.push_back(Group::one(e, Effect::None));
}

fn expand_activity(a: &ActivityOp, tag: Option<&Str>, sub: bool, out: &mut VecDeque<Group>) {
    let id = st(&a.id);
    let activity_type = st(&a.activity_type);
    let mut s = Ev::new(T::ActivitySnapshot).tagged(tag);
    s.message_id = Some(id.clone());
    s.activity_type = Some(activity_type.clone());
    s.content = Some(Box::new(json!({"pct": 0, "list": []})));
    s.replace = a.replace;
    out.push_back(Group::one(s, Effect::None));
    for (i, seed) in a.deltas.iter().enumerate() {
        out.push_back(Group::ActivityDelta {
            id: id.clone(),
            activity_type: activity_type.clone(),
            seed: *seed,
            untagged: sub && bit(a.untag, i),
        });
        if i == 0 && a.keep_snapshot {
            let mut k = Ev::new(T::ActivitySnapshot).tagged(tag);
            k.message_id = Some(id.clone());
            k.activity_type = Some(activity_type.clone());
            k.content = Some(Box::new(json!({"pct": 100})));
            k.replace = Some(false);
            out.push_back(Group::one(k, Effect::None));
        }
    }
}

/// The interrupts of a run's outcome, as the projection shows them.
fn interrupts(run: &RunPlan) -> Vec<Value> {
    match &run.end {
        RunEnd::Interrupt(list) => list
            .iter()
            .map(|i| match &i.tag {
                Some(t) => json!({"id": i.id, "owner": t}),
                None => json!({"id": i.id}),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The canonical JSON of one run.
fn render_view(
    sc: &Scenario,
    run: &RunPlan,
    view: RunView,
    status: &str,
    state: &Map<String, Value>,
    interrupts: Vec<Value>,
) -> Value {
    let invocations: Vec<Value> = view
        .invs
        .into_iter()
        .map(|i| {
            let mut m = Map::new();
            m.insert("id".into(), Value::from(&*i.id));
            if let Some(n) = i.name {
                m.insert("name".into(), Value::from(&*n));
            }
            if let Some(p) = i.parent {
                m.insert("parent".into(), Value::from(&*p));
            }
            m.insert("status".into(), Value::from(i.status));
            if let Some(ids) = i.interrupt_ids {
                m.insert(INTERRUPT_IDS.into(), json!(ids));
            }
            Value::Object(m)
        })
        .collect();
    let messages: Vec<Value> = view
        .msgs
        .into_iter()
        .map(|msg| {
            let mut m = Map::new();
            if !msg.invented {
                m.insert("id".into(), Value::from(&*msg.id));
            }
            m.insert("role".into(), Value::from(msg.role));
            if let Some(o) = msg.owner {
                m.insert("owner".into(), Value::from(&*o));
            }
            if let Some(t) = msg.activity_type {
                m.insert(ACTIVITY_TYPE.into(), Value::from(&*t));
            }
            m.insert("content".into(), msg.content);
            if !msg.calls.is_empty() {
                let calls = msg
                    .calls
                    .into_iter()
                    .map(|(id, name, args)| json!({"id": id, "name": name, "args": args}));
                m.insert("toolCalls".into(), Value::Array(calls.collect()));
            }
            Value::Object(m)
        })
        .collect();
    let mut out = json!({
        "status": status,
        "invocations": invocations,
        "messages": messages,
        "state": Value::Object(state.clone()),
        "interrupts": interrupts,
    });
    out[THREAD_ID] = Value::from(sc.thread_id.as_str());
    out[RUN_ID] = Value::from(run.run_id.as_str());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use arbitrary::Unstructured;

    #[test]
    fn the_stream_alone_is_the_same_stream() {
        let config = Config::default();
        for seed in 0..50 {
            let bytes = crate::front::seeded_bytes(&config, seed);
            let sc = Scenario::new(&config, &mut Unstructured::new(&bytes)).unwrap();
            let (a, b) = (render(&sc), render_stream(&sc));
            assert_eq!(a.values(), b.values());
            assert_eq!(a.meta, b.meta);
            assert_eq!(a.runs, b.runs);
            assert!(b.projection.is_null());
        }
        eprintln!("size of Ev: {}", std::mem::size_of::<Ev>());
    }
}
