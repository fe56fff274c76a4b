//! What the lanes page draws, worked out from the events alone: the lanes
//! (one per owner, as a tree), one mark per event, entity bars, invocation
//! lifecycles and runs.
//!
//! This is a drawing, not a judgement: the rules are the checker's, and its
//! violations are only placed here ([`Layout::flag`]). Where a stream is
//! invalid the layout still draws something sensible (a second opener of an
//! open id is a mark, not a bar; a close of nothing is a mark).
//!
//! Display rules (the spec's ownership rules, applied to drawing):
//! - An event is drawn in the lane of its owner: its `subagentRunId`, absent
//!   meaning the parent agent.
//! - An untagged continuation (`TEXT_MESSAGE_CONTENT`/`END`,
//!   `TOOL_CALL_ARGS`/`END`, `REASONING_MESSAGE_CONTENT`/`END`,
//!   `REASONING_END`, `ACTIVITY_DELTA`, `REASONING_ENCRYPTED_VALUE`, a
//!   continuing chunk) is drawn in its opener's lane: the lane of the open
//!   entity, else the owner on record for that id in this run.
//! - An untagged opener is drawn in the lane of the owner on record for its
//!   id (for `TOOL_CALL_START`, first that of its `parentMessageId`), else
//!   the parent's.
//! - A chunk stream is a bar from its first chunk to the last chunk that
//!   continued it, in the lane it was opened in (docs/rules.md "Chunk shorthand").

use agui_model::wire::{SUBAGENT_RUN_ID, key};
use agui_model::{RuleId, Violation};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Wire names read off event values, the wire table's constants
/// (`wire::key`) rather than spelled: the layout reads any value, an
/// invalid one too, so it reads fields loosely instead of parsing typed
/// events.
const RUN_ID: &str = key::RunStarted::run_id;
const STEP_NAME: &str = key::StepStarted::step_name;
const MESSAGE_ID: &str = key::TextMessageStart::message_id;
const TOOL_CALL_ID: &str = key::ToolCallStart::tool_call_id;
const PARENT_MESSAGE_ID: &str = key::ToolCallStart::parent_message_id;
const ENTITY_ID: &str = key::ReasoningEncryptedValue::entity_id;
const PARENT_SUBAGENT_RUN_ID: &str = key::SubagentStarted::parent_subagent_run_id;

/// A lane's position in [`Layout::lanes`]; 0 is the parent agent.
pub type LaneIx = usize;

/// One owner's lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lane {
    /// The `subagentRunId`; `None` for the parent agent.
    pub owner: Option<String>,
    /// The `name` of its first `SUBAGENT_STARTED`.
    pub name: Option<String>,
    /// The lane of its `parentSubagentRunId` (first announcement), else the
    /// parent agent's; `None` only for the parent agent.
    pub parent: Option<LaneIx>,
    pub depth: usize,
    /// Rows needed so that no two of its bars overlap (at least 1).
    pub tracks: usize,
}

/// What an event is about: picks its colour and shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cat {
    Run,
    Lifecycle,
    Text,
    Tool,
    Reasoning,
    Step,
    State,
    Activity,
    Messages,
    Custom,
    /// Not an event object, or an unknown `type`.
    Invalid,
}

/// One event's mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub lane: LaneIx,
    pub cat: Cat,
}

/// The kinds of entity drawn as bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BarKind {
    Text,
    Tool,
    ReasoningSpan,
    ReasoningMessage,
    Step,
}

/// An entity from its opener to its close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    pub lane: LaneIx,
    pub kind: BarKind,
    /// The message, tool call or reasoning id, or the step name.
    pub id: String,
    pub from: usize,
    pub to: usize,
    /// False when the entity was still open where the bar stops (the end of
    /// its run or of the input).
    pub closed: bool,
    /// Made of chunks (`*_CHUNK`).
    pub chunk: bool,
    /// Row inside the lane.
    pub track: usize,
}

/// How an invocation's stretch of lane begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// `SUBAGENT_STARTED`.
    Started,
    /// Attributed events without an announcement (so far).
    Unannounced,
}

/// How it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Finished,
    Suspended,
    Errored,
    /// Still active at `RUN_ERROR`.
    Abandoned,
    /// Still active where the stretch stops (run finished or input ended
    /// with it active, or an announcement came after attribution).
    Open,
}

/// One stretch of an invocation's lane within one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Life {
    pub lane: LaneIx,
    pub from: usize,
    pub to: usize,
    pub start: Start,
    pub end: End,
}

/// How a run ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    Finished,
    Errored,
    /// Input ended, or another `RUN_STARTED` came, inside it.
    Open,
}

/// One run: `RUN_STARTED` to its `RUN_FINISHED`/`RUN_ERROR`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub from: usize,
    pub to: usize,
    pub run_id: Option<String>,
    pub end: RunEnd,
}

/// A violation placed on the drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// The event index (the number of events for end of input).
    pub index: usize,
    pub lane: LaneIx,
    pub rule: RuleId,
    pub message: String,
}

/// Everything the page draws.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// In tree order: the parent agent, then each invocation followed by
    /// its children (in order of first appearance).
    pub lanes: Vec<Lane>,
    /// One per event, in stream order.
    pub marks: Vec<Mark>,
    /// In order of opening.
    pub bars: Vec<Bar>,
    pub lives: Vec<Life>,
    pub runs: Vec<Run>,
    pub flags: Vec<Flag>,
}

impl Layout {
    /// Lays a stream out. `events` are the stream items in order (anything
    /// that is not an event object is drawn as an invalid mark).
    pub fn of(events: &[Value]) -> Layout {
        let mut b = LayoutBuilder::new();
        for e in events {
            b.push(e);
        }
        b.finish()
    }

    /// Places the checker's violations: each in the lane of its event (end
    /// of input: the parent's).
    pub fn flag(&mut self, violations: &[Violation]) {
        self.flags = violations
            .iter()
            .map(|v| Flag {
                index: v.index,
                lane: self.marks.get(v.index).map_or(0, |m| m.lane),
                rule: v.rule,
                message: v.message.clone(),
            })
            .collect();
    }
}

/// [`Layout::of`] one event at a time, for a stream that is not held:
/// what it keeps grows with the events pushed, and only with them.
pub struct LayoutBuilder {
    b: Builder,
    n: usize,
}

impl Default for LayoutBuilder {
    fn default() -> Self {
        LayoutBuilder::new()
    }
}

impl LayoutBuilder {
    pub fn new() -> LayoutBuilder {
        let mut b = Builder::default();
        b.lane(None);
        LayoutBuilder { b, n: 0 }
    }

    /// Lays out the next event (any stream item).
    pub fn push(&mut self, e: &Value) {
        let mark = self.b.event(self.n, e);
        self.b.marks.push(mark);
        self.n += 1;
    }

    /// Events pushed so far.
    pub fn events(&self) -> usize {
        self.n
    }

    pub fn finish(self) -> Layout {
        self.b.finish(self.n)
    }
}

/// Kinds of id that have an owner on record (docs/rules.md "Ownership rules").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Rec {
    Text,
    Tool,
    Reasoning,
    Activity,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChunkKind {
    Text,
    Tool,
    Reasoning,
}

impl ChunkKind {
    fn bar(self) -> BarKind {
        match self {
            ChunkKind::Text => BarKind::Text,
            ChunkKind::Tool => BarKind::Tool,
            ChunkKind::Reasoning => BarKind::ReasoningMessage,
        }
    }
}

/// The open chunk stream of a lane.
#[derive(Debug, Clone)]
struct ChunkStream {
    kind: ChunkKind,
    id: String,
    bar: usize,
}

/// Lane ids here are in order of creation; [`Builder::finish`] renumbers
/// them into tree order.
#[derive(Default)]
struct Builder {
    lanes: Vec<Lane>,
    lane_of: HashMap<Option<String>, LaneIx>,
    marks: Vec<Mark>,
    bars: Vec<Bar>,
    lives: Vec<Life>,
    runs: Vec<Run>,
    // Per run:
    open: HashMap<(BarKind, String), usize>,
    steps: HashMap<(LaneIx, String), usize>,
    record: HashMap<(Rec, String), LaneIx>,
    active: HashMap<LaneIx, usize>,
    seen: HashSet<LaneIx>,
    chunks: HashMap<LaneIx, ChunkStream>,
}

fn str_field<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

impl Builder {
    fn lane(&mut self, owner: Option<&str>) -> LaneIx {
        let key = owner.map(str::to_owned);
        if let Some(&l) = self.lane_of.get(&key) {
            return l;
        }
        let l = self.lanes.len();
        self.lanes.push(Lane {
            owner: key.clone(),
            name: None,
            parent: None,
            depth: 0,
            tracks: 1,
        });
        self.lane_of.insert(key, l);
        l
    }

    fn recorded(&self, rec: Rec, id: Option<&str>) -> Option<LaneIx> {
        id.and_then(|id| self.record.get(&(rec, id.to_owned())).copied())
    }

    fn record_first(&mut self, rec: Rec, id: &str, lane: LaneIx) {
        self.record.entry((rec, id.to_owned())).or_insert(lane);
    }

    fn open_bar(&mut self, lane: LaneIx, kind: BarKind, id: &str, i: usize, chunk: bool) -> usize {
        self.bars.push(Bar {
            lane,
            kind,
            id: id.to_owned(),
            from: i,
            to: i,
            closed: chunk,
            chunk,
            track: 0,
        });
        self.bars.len() - 1
    }

    /// Opens a bar unless one of this kind and id is open.
    fn opener(&mut self, lane: LaneIx, kind: BarKind, id: Option<&str>, i: usize) {
        let Some(id) = id else { return };
        let key = (kind, id.to_owned());
        if !self.open.contains_key(&key) {
            let bar = self.open_bar(lane, kind, id, i, false);
            self.open.insert(key, bar);
        }
    }

    /// The lane of a continuation: its tag's, else the open entity's, else
    /// the owner on record, else the parent's.
    fn continuation(
        &mut self,
        tag: Option<&str>,
        kind: BarKind,
        rec: Rec,
        id: Option<&str>,
    ) -> LaneIx {
        if tag.is_some() {
            return self.lane(tag);
        }
        let open = id.and_then(|id| self.open.get(&(kind, id.to_owned())));
        match open {
            Some(&bar) => self.bars[bar].lane,
            None => self.recorded(rec, id).unwrap_or(0),
        }
    }

    fn close_bar(&mut self, kind: BarKind, id: Option<&str>, i: usize) {
        if let Some(bar) = id.and_then(|id| self.open.remove(&(kind, id.to_owned()))) {
            self.bars[bar].to = i;
            self.bars[bar].closed = true;
        }
    }

    /// An attributed event: a lane with no stretch in this run gets an
    /// unannounced one.
    fn attributed(&mut self, lane: LaneIx, i: usize) {
        if lane != 0 && self.seen.insert(lane) {
            self.lives.push(Life {
                lane,
                from: i,
                to: i,
                start: Start::Unannounced,
                end: End::Open,
            });
            self.active.insert(lane, self.lives.len() - 1);
        }
    }

    /// Ends the current run's bookkeeping at event `i`: open bars and
    /// active stretches stop there.
    fn end_run(&mut self, i: usize, lives_end: End) {
        for (_, bar) in self.open.drain() {
            self.bars[bar].to = i;
        }
        for (_, bar) in self.steps.drain() {
            self.bars[bar].to = i;
        }
        for (_, life) in self.active.drain() {
            self.lives[life].to = i;
            self.lives[life].end = lives_end;
        }
        self.record.clear();
        self.seen.clear();
        self.chunks.clear();
    }

    fn event(&mut self, i: usize, e: &Value) -> Mark {
        let Some(o) = e.as_object() else {
            return Mark {
                lane: 0,
                cat: Cat::Invalid,
            };
        };
        let tag = str_field(o, SUBAGENT_RUN_ID);
        let ty = str_field(o, "type").unwrap_or_default();
        let own = self.lane(tag);
        let is_chunk = ty.ends_with("_CHUNK");
        let explicit = !is_chunk
            && (ty.starts_with("TEXT_")
                || ty.starts_with("TOOL_CALL_")
                || ty.starts_with("STATE_")
                || ty.starts_with("STEP_")
                || ty.starts_with("REASONING_")
                || ty == "CUSTOM")
            && ty != "REASONING_ENCRYPTED_VALUE";
        if explicit {
            self.chunks.remove(&own);
        }
        let mid = str_field(o, MESSAGE_ID);
        let tid = str_field(o, TOOL_CALL_ID);
        let (lane, cat) = match ty {
            "RUN_STARTED" => {
                if let Some(run) = self.runs.last_mut()
                    && run.end == RunEnd::Open
                    && i > 0
                {
                    run.to = i - 1;
                }
                self.end_run(i.saturating_sub(1), End::Open);
                self.runs.push(Run {
                    from: i,
                    to: i,
                    run_id: str_field(o, RUN_ID).map(str::to_owned),
                    end: RunEnd::Open,
                });
                (0, Cat::Run)
            }
            "RUN_FINISHED" | "RUN_ERROR" => {
                let (lives_end, run_end) = if ty == "RUN_ERROR" {
                    (End::Abandoned, RunEnd::Errored)
                } else {
                    (End::Open, RunEnd::Finished)
                };
                self.end_run(i, lives_end);
                if let Some(run) = self.runs.last_mut()
                    && run.end == RunEnd::Open
                {
                    run.to = i;
                    run.end = run_end;
                }
                (0, Cat::Run)
            }
            "SUBAGENT_STARTED" => {
                let parent = str_field(o, PARENT_SUBAGENT_RUN_ID)
                    .and_then(|p| self.lane_of.get(&Some(p.to_owned())).copied());
                let lane = &mut self.lanes[own];
                if lane.name.is_none() && lane.parent.is_none() {
                    lane.name = str_field(o, "name").map(str::to_owned);
                    lane.parent = parent.filter(|&p| p != own);
                }
                let stretch = self.active.get(&own).map(|&l| self.lives[l].start);
                if stretch != Some(Start::Started) && own != 0 {
                    if let Some(l) = self.active.remove(&own) {
                        self.lives[l].to = i;
                    }
                    self.seen.insert(own);
                    self.lives.push(Life {
                        lane: own,
                        from: i,
                        to: i,
                        start: Start::Started,
                        end: End::Open,
                    });
                    self.active.insert(own, self.lives.len() - 1);
                }
                (own, Cat::Lifecycle)
            }
            "SUBAGENT_FINISHED" | "SUBAGENT_ERROR" => {
                self.chunks.remove(&own);
                if let Some(l) = self.active.remove(&own) {
                    let suspended = o
                        .get("outcome")
                        .and_then(|oc| oc.get("type"))
                        .and_then(Value::as_str)
                        == Some("suspended");
                    self.lives[l].to = i;
                    self.lives[l].end = match (ty, suspended) {
                        ("SUBAGENT_ERROR", _) => End::Errored,
                        (_, true) => End::Suspended,
                        _ => End::Finished,
                    };
                }
                (own, Cat::Lifecycle)
            }
            "TEXT_MESSAGE_START" => {
                let lane = self.opener_lane(tag, Rec::Text, mid);
                if let Some(id) = mid {
                    self.record_first(Rec::Text, id, lane);
                }
                self.opener(lane, BarKind::Text, mid, i);
                (lane, Cat::Text)
            }
            "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_END" => {
                let lane = self.continuation(tag, BarKind::Text, Rec::Text, mid);
                if ty == "TEXT_MESSAGE_END" {
                    self.close_bar(BarKind::Text, mid, i);
                }
                (lane, Cat::Text)
            }
            "TOOL_CALL_START" => {
                let pmid = str_field(o, PARENT_MESSAGE_ID);
                let lane = match tag {
                    Some(_) => own,
                    None => self
                        .recorded(Rec::Text, pmid)
                        .or_else(|| self.recorded(Rec::Tool, tid))
                        .unwrap_or(0),
                };
                if let Some(id) = tid {
                    self.record_first(Rec::Tool, id, lane);
                }
                if let Some(p) = pmid {
                    self.record_first(Rec::Text, p, lane);
                }
                self.opener(lane, BarKind::Tool, tid, i);
                (lane, Cat::Tool)
            }
            "TOOL_CALL_ARGS" | "TOOL_CALL_END" => {
                let lane = self.continuation(tag, BarKind::Tool, Rec::Tool, tid);
                if ty == "TOOL_CALL_END" {
                    self.close_bar(BarKind::Tool, tid, i);
                }
                (lane, Cat::Tool)
            }
            "TOOL_CALL_RESULT" => {
                if let Some(id) = mid {
                    self.record.insert((Rec::Text, id.to_owned()), own);
                }
                (own, Cat::Tool)
            }
            "REASONING_START" | "REASONING_MESSAGE_START" => {
                let kind = if ty == "REASONING_START" {
                    BarKind::ReasoningSpan
                } else {
                    BarKind::ReasoningMessage
                };
                let lane = match mid.and_then(|id| self.open.get(&(kind, id.to_owned()))) {
                    Some(&bar) if tag.is_none() => self.bars[bar].lane,
                    _ => self.opener_lane(tag, Rec::Reasoning, mid),
                };
                if let Some(id) = mid {
                    self.record_first(Rec::Reasoning, id, lane);
                }
                self.opener(lane, kind, mid, i);
                (lane, Cat::Reasoning)
            }
            "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_END" | "REASONING_END" => {
                let kind = if ty == "REASONING_END" {
                    BarKind::ReasoningSpan
                } else {
                    BarKind::ReasoningMessage
                };
                let lane = self.continuation(tag, kind, Rec::Reasoning, mid);
                if ty != "REASONING_MESSAGE_CONTENT" {
                    self.close_bar(kind, mid, i);
                }
                (lane, Cat::Reasoning)
            }
            "REASONING_ENCRYPTED_VALUE" => {
                let entity = str_field(o, ENTITY_ID);
                let lane = match tag {
                    Some(_) => own,
                    None if str_field(o, "subtype") == Some("tool-call") => {
                        self.recorded(Rec::Tool, entity).unwrap_or(0)
                    }
                    None => self
                        .recorded(Rec::Text, entity)
                        .or_else(|| self.recorded(Rec::Reasoning, entity))
                        .unwrap_or(0),
                };
                (lane, Cat::Reasoning)
            }
            "STEP_STARTED" | "STEP_FINISHED" => {
                if let Some(name) = str_field(o, STEP_NAME) {
                    let key = (own, name.to_owned());
                    if ty == "STEP_STARTED" {
                        if !self.steps.contains_key(&key) {
                            let bar = self.open_bar(own, BarKind::Step, name, i, false);
                            self.steps.insert(key, bar);
                        }
                    } else {
                        // Its own lane's step, else the first lane's with
                        // that name open (a step-owner violation).
                        let other = || {
                            let mut keys: Vec<_> = self
                                .steps
                                .keys()
                                .filter(|(_, n)| n == name)
                                .cloned()
                                .collect();
                            keys.sort();
                            keys.into_iter().next()
                        };
                        let key = if self.steps.contains_key(&key) {
                            Some(key)
                        } else {
                            other()
                        };
                        if let Some(bar) = key.and_then(|k| self.steps.remove(&k)) {
                            self.bars[bar].to = i;
                            self.bars[bar].closed = true;
                        }
                    }
                }
                (own, Cat::Step)
            }
            "STATE_SNAPSHOT" | "STATE_DELTA" => (own, Cat::State),
            "MESSAGES_SNAPSHOT" => {
                self.chunks.clear();
                (0, Cat::Messages)
            }
            "ACTIVITY_SNAPSHOT" => {
                if let Some(id) = mid {
                    let replace = o.get("replace").and_then(Value::as_bool) != Some(false);
                    let key = (Rec::Activity, id.to_owned());
                    if replace || !self.record.contains_key(&key) {
                        self.record.insert(key, own);
                    }
                }
                (own, Cat::Activity)
            }
            "ACTIVITY_DELTA" => {
                let lane = match tag {
                    Some(_) => own,
                    None => self.recorded(Rec::Activity, mid).unwrap_or(0),
                };
                (lane, Cat::Activity)
            }
            "CUSTOM" | "RAW" => (own, Cat::Custom),
            "TEXT_MESSAGE_CHUNK" => (self.chunk(i, tag, ChunkKind::Text, mid), Cat::Text),
            "TOOL_CALL_CHUNK" => (self.chunk(i, tag, ChunkKind::Tool, tid), Cat::Tool),
            "REASONING_MESSAGE_CHUNK" => (
                self.chunk(i, tag, ChunkKind::Reasoning, mid),
                Cat::Reasoning,
            ),
            _ => (own, Cat::Invalid),
        };
        let concerns_invocation = ty.starts_with("SUBAGENT_");
        if tag.is_some() && !concerns_invocation && !ty.starts_with("RUN_") {
            self.attributed(own, i);
        }
        Mark { lane, cat }
    }

    /// The lane of an opener: its tag's, else the owner on record, else the
    /// parent's.
    fn opener_lane(&mut self, tag: Option<&str>, rec: Rec, id: Option<&str>) -> LaneIx {
        match tag {
            Some(_) => self.lane(tag),
            None => self.recorded(rec, id).unwrap_or(0),
        }
    }

    /// A chunk (docs/rules.md "Chunk shorthand", which lane and open or
    /// continue); returns the lane it is drawn in.
    fn chunk(&mut self, i: usize, tag: Option<&str>, kind: ChunkKind, id: Option<&str>) -> LaneIx {
        let own = self.lane(tag);
        let continued: Option<LaneIx> = match id {
            Some(id) => {
                let mut lanes: Vec<LaneIx> = self
                    .chunks
                    .iter()
                    .filter(|(_, s)| s.kind == kind && s.id == id)
                    .map(|(&l, _)| l)
                    .collect();
                lanes.sort_unstable();
                lanes.first().copied()
            }
            None if tag.is_some() => self
                .chunks
                .get(&own)
                .filter(|s| s.kind == kind)
                .map(|_| own),
            None => {
                let parent = self.chunks.get(&0).filter(|s| s.kind == kind).map(|_| 0);
                parent.or_else(|| {
                    let lanes: Vec<LaneIx> = self
                        .chunks
                        .iter()
                        .filter(|(_, s)| s.kind == kind)
                        .map(|(&l, _)| l)
                        .collect();
                    (lanes.len() == 1).then(|| lanes[0])
                })
            }
        };
        if let Some(lane) = continued {
            if let Some(s) = self.chunks.get(&lane) {
                self.bars[s.bar].to = i;
            }
            return if tag.is_some() { own } else { lane };
        }
        if let Some(id) = id {
            let bar = self.open_bar(own, kind.bar(), id, i, true);
            self.chunks.insert(
                own,
                ChunkStream {
                    kind,
                    id: id.to_owned(),
                    bar,
                },
            );
        }
        own
    }

    fn finish(mut self, n: usize) -> Layout {
        let last = n.saturating_sub(1);
        self.end_run(last, End::Open);
        if let Some(run) = self.runs.last_mut()
            && run.end == RunEnd::Open
        {
            run.to = last;
        }
        let order = tree_order(&mut self.lanes);
        let new_of = |old: LaneIx| order[old];
        let mut lanes = vec![None; self.lanes.len()];
        for (old, mut lane) in self.lanes.into_iter().enumerate() {
            lane.parent = lane.parent.map(new_of);
            lanes[order[old]] = Some(lane);
        }
        let mut lanes: Vec<Lane> = lanes.into_iter().flatten().collect();
        for m in &mut self.marks {
            m.lane = new_of(m.lane);
        }
        for b in &mut self.bars {
            b.lane = new_of(b.lane);
        }
        for l in &mut self.lives {
            l.lane = new_of(l.lane);
        }
        assign_tracks(&mut self.bars, &mut lanes);
        Layout {
            lanes,
            marks: self.marks,
            bars: self.bars,
            lives: self.lives,
            runs: self.runs,
            flags: Vec::new(),
        }
    }
}

/// The tree order of the lanes (old index → new index), setting each
/// lane's depth and making every lane but the first a descendant of it (a
/// parent cycle, possible in an invalid stream, is cut at the root).
fn tree_order(lanes: &mut [Lane]) -> Vec<LaneIx> {
    let n = lanes.len();
    // A lane whose parent chain does not reach the root hangs from it.
    for l in 1..n {
        let mut seen = HashSet::from([l]);
        let mut at = lanes[l].parent.unwrap_or(0);
        while at != 0 {
            if !seen.insert(at) {
                lanes[l].parent = Some(0);
                break;
            }
            at = lanes[at].parent.unwrap_or(0);
        }
        if lanes[l].parent.is_none() {
            lanes[l].parent = Some(0);
        }
    }
    let mut children: Vec<Vec<LaneIx>> = vec![Vec::new(); n];
    for (l, lane) in lanes.iter().enumerate().skip(1) {
        children[lane.parent.unwrap_or(0)].push(l);
    }
    let mut order = vec![0; n];
    let mut next = 0;
    let mut stack = vec![(0, 0)];
    while let Some((l, depth)) = stack.pop() {
        order[l] = next;
        next += 1;
        lanes[l].depth = depth;
        for &c in children[l].iter().rev() {
            stack.push((c, depth + 1));
        }
    }
    order
}

/// Gives each bar the lowest row of its lane free over its span, and each
/// lane its number of rows.
fn assign_tracks(bars: &mut [Bar], lanes: &mut [Lane]) {
    // Per lane, the last index covered by each row.
    let mut ends: Vec<Vec<usize>> = vec![Vec::new(); lanes.len()];
    let mut order: Vec<usize> = (0..bars.len()).collect();
    order.sort_by_key(|&b| (bars[b].from, b));
    for b in order {
        let rows = &mut ends[bars[b].lane];
        let free = rows.iter().position(|&end| end < bars[b].from);
        let track = free.unwrap_or(rows.len());
        if track == rows.len() {
            rows.push(bars[b].to);
        } else {
            rows[track] = bars[b].to;
        }
        bars[b].track = track;
    }
    for (lane, rows) in lanes.iter_mut().zip(&ends) {
        lane.tracks = rows.len().max(1);
    }
}
