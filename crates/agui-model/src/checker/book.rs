//! Per-run bookkeeping: open entities, owners on record, steps, invocations.
//! Reset at every `RUN_STARTED` (docs/rules.md "Streams, runs, indexes").
//!
//! Every string the rules keep is interned ([`Names`]) and its facts live in
//! one [`Slot`] per name, so an event costs one lookup per string it names
//! and no allocation once its strings are known.

use super::names::{Name, Names};
// foldhash: the few maps left key on names, and SipHash was the largest
// single cost of the stream rules before (docs/performance.md).
use foldhash::HashMap;

/// The owner of an event or entity: `None` is the parent agent, else the
/// invocation of that (interned) id.
pub type Owner = Option<Name>;

/// Entity kinds whose owners are kept apart (docs/rules.md "Ownership rules").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Text messages, and the tool messages `TOOL_CALL_RESULT` mints.
    Text,
    Tool,
    /// One owner shared by a reasoning span and a reasoning message of one id.
    Reasoning,
    Activity,
}

/// How an invocation announced in this run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvocationState {
    Active,
    Finished,
    Suspended,
    Errored,
}

/// What of an entity can be open: text messages and tool calls, and the
/// two parts of a reasoning id (a span and a message share one owner).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Text,
    Tool,
    Span,
    Message,
}

impl Part {
    pub(crate) fn kind(self) -> Kind {
        match self {
            Part::Text => Kind::Text,
            Part::Tool => Kind::Tool,
            Part::Span | Part::Message => Kind::Reasoning,
        }
    }

    fn bit(self) -> u8 {
        match self {
            Part::Message => 2,
            _ => 1,
        }
    }
}

/// One id of one [`Kind`]: its owner on record and which [`Part`]s of it
/// are open. An entity is open only once its owner is on record.
#[derive(Debug, Clone, Copy)]
struct Entity {
    owner: Owner,
    open: u8,
    /// The owner is the own `subagentRunId` of the event that put it on
    /// record, so that id is attributed already.
    attributed: bool,
    /// Index of the event that put the owner on record (a violation's
    /// related event); saturates past `u32::MAX`.
    at: u32,
}

/// Everything known of one name in this run.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The entities of this id, one per [`Kind`].
    entities: [Option<Entity>; 4],
    /// Carried as an attributable event's own `subagentRunId`.
    attributed: bool,
    /// Announced as an invocation.
    invocation: Option<InvocationState>,
    /// Index of the event that set `invocation` (its announcement, or its
    /// end): a violation's related event; saturates past `u32::MAX`.
    invocation_at: u32,
}

/// Everything the checker knows about the current run.
#[derive(Debug, Default)]
pub struct RunBook {
    /// Opened by a first event that was not `RUN_STARTED` (after
    /// `run.first-event`): checked like a run, never projected, never
    /// reported unterminated.
    pub implicit: bool,
    names: Names,
    /// One per name, by [`Name::index`].
    slots: Vec<Slot>,
    /// Open steps: name → owners holding it open (usually one).
    steps: HashMap<Name, Vec<Owner>>,
    /// The invocations announced, in order (each once).
    announce_order: Vec<Name>,
    /// Invocations that finished `suspended` in this run, in order, with
    /// their interrupt ids.
    pub suspended: Vec<(String, Vec<String>)>,
}

impl RunBook {
    /// Forgets the run (keeping capacity: the next run is likely to be of
    /// the same size, and nothing grows across runs).
    pub fn reset(&mut self, implicit: bool) {
        self.implicit = implicit;
        self.names.clear();
        self.slots.clear();
        self.steps.clear();
        self.announce_order.clear();
        self.suspended.clear();
    }

    // ---- names ----

    fn intern(&mut self, s: &str) -> Name {
        let n = self.names.intern(s);
        if self.slots.len() < self.names.len() {
            self.slots.resize(self.names.len(), Slot::default());
        }
        n
    }

    fn slot(&self, s: &str) -> Option<&Slot> {
        self.names.find(s).and_then(|n| self.slots.get(n.index()))
    }

    fn interned_slot(&mut self, s: &str) -> &mut Slot {
        let n = self.intern(s);
        &mut self.slots[n.index()]
    }

    /// The owner an event tagged `tag` stands for.
    pub fn owner_of(&mut self, tag: Option<&str>) -> Owner {
        tag.map(|t| self.intern(t))
    }

    /// The id of an owner (`None` for the parent).
    pub fn owner_str(&self, owner: Owner) -> Option<&str> {
        owner.map(|n| self.names.str(n))
    }

    /// Whether `owner` is the one a tag names.
    pub fn is_tag(&self, owner: Owner, tag: Option<&str>) -> bool {
        self.owner_str(owner) == tag
    }

    /// Names an owner in a message: `the parent agent` or `invocation "s1"`.
    pub fn who(&self, owner: Owner) -> String {
        who_tag(self.owner_str(owner))
    }

    // ---- entities ----

    fn entity(&self, kind: Kind, id: &str) -> Option<&Entity> {
        self.slot(id)?.entities[kind as usize].as_ref()
    }

    /// The owner on record of `id` as a `kind`.
    pub fn owner(&self, kind: Kind, id: &str) -> Option<Owner> {
        self.entity(kind, id).map(|e| e.owner)
    }

    /// Records an owner unless one is on record (the first opener wins).
    /// `attributed`: the owner is the own tag of the event being checked.
    pub fn record_first(
        &mut self,
        kind: Kind,
        id: &str,
        owner: Owner,
        attributed: bool,
        at: usize,
    ) {
        let e = &mut self.interned_slot(id).entities[kind as usize];
        if e.is_none() {
            *e = Some(Entity {
                owner,
                open: 0,
                attributed,
                at: u32::try_from(at).unwrap_or(u32::MAX),
            });
        }
    }

    /// Records an owner, replacing any on record.
    pub fn record(&mut self, kind: Kind, id: &str, owner: Owner, attributed: bool, at: usize) {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        let e = &mut self.interned_slot(id).entities[kind as usize];
        match e {
            Some(e) => {
                e.owner = owner;
                e.attributed = attributed;
                e.at = at;
            }
            None => {
                *e = Some(Entity {
                    owner,
                    open: 0,
                    attributed,
                    at,
                });
            }
        }
    }

    /// Index of the event that put the owner of `id` as a `kind` on record.
    pub fn recorded_at(&self, kind: Kind, id: &str) -> Option<usize> {
        self.entity(kind, id).map(|e| e.at as usize)
    }

    /// Whether `part` of `id` is open.
    pub fn is_open(&self, part: Part, id: &str) -> bool {
        self.open_owner(part, id).is_some()
    }

    /// The owner on record of `id`, if `part` of it is open, and whether
    /// it is attributed already.
    pub fn open_owner(&self, part: Part, id: &str) -> Option<(Owner, bool)> {
        self.entity(part.kind(), id)
            .filter(|e| e.open & part.bit() != 0)
            .map(|e| (e.owner, e.attributed))
    }

    /// Marks `part` of `id` open; its owner must be on record already.
    pub fn open(&mut self, part: Part, id: &str) {
        let Some(n) = self.names.find(id) else { return };
        if let Some(Some(e)) = self
            .slots
            .get_mut(n.index())
            .map(|s| &mut s.entities[part.kind() as usize])
        {
            e.open |= part.bit();
        }
    }

    /// Closes `part` of `id`; [`RunBook::open_owner`] if it was open.
    pub fn close(&mut self, part: Part, id: &str) -> Option<(Owner, bool)> {
        let n = self.names.find(id)?;
        let e = self.slots.get_mut(n.index())?.entities[part.kind() as usize].as_mut()?;
        if e.open & part.bit() == 0 {
            return None;
        }
        e.open &= !part.bit();
        Some((e.owner, e.attributed))
    }

    /// Whether anything of this reasoning id (span or message) is open.
    pub fn reasoning_open(&self, id: &str) -> bool {
        self.entity(Kind::Reasoning, id)
            .is_some_and(|e| e.open != 0)
    }

    /// The ids with `part` open, sorted.
    fn open_ids(&self, part: Part) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.entities[part.kind() as usize].is_some_and(|e| e.open & part.bit() != 0)
            })
            .filter_map(|(ix, _)| u32::try_from(ix).ok())
            .map(|ix| self.names.str(Name::from_index(ix)))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Names the entities still open, for `run.open-entities-at-finish`.
    pub fn open_entities(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (part, prefix) in [
            (Part::Text, "text message"),
            (Part::Tool, "tool call"),
            (Part::Span, "reasoning span"),
            (Part::Message, "reasoning message"),
        ] {
            out.extend(
                self.open_ids(part)
                    .into_iter()
                    .map(|id| format!("{prefix} {id:?}")),
            );
        }
        let mut steps: Vec<String> = self
            .steps
            .iter()
            .flat_map(|(&name, owners)| {
                let name = self.names.str(name);
                owners
                    .iter()
                    .map(move |&o| format!("step {name:?} of {}", self.who(o)))
            })
            .collect();
        steps.sort();
        out.extend(steps);
        out
    }

    // ---- attribution ----

    /// Records `tag` as carried by an attributable event.
    pub fn attribute(&mut self, tag: &str) {
        self.interned_slot(tag).attributed = true;
    }

    /// Whether an attributable event carried `id` this run.
    pub fn is_attributed(&self, id: &str) -> bool {
        self.slot(id).is_some_and(|s| s.attributed)
    }

    // ---- steps ----

    /// The owners holding step `name` open, made an (empty) entry if none.
    pub fn step_holders(&mut self, name: &str) -> &mut Vec<Owner> {
        let n = self.intern(name);
        self.steps.entry(n).or_default()
    }

    /// The owners holding step `name` open, if anyone does.
    pub fn open_step(&mut self, name: &str) -> Option<&mut Vec<Owner>> {
        let n = self.names.find(name)?;
        self.steps.get_mut(&n)
    }

    /// Forgets step `name` if no one holds it open.
    pub fn drop_step_if_closed(&mut self, name: &str) {
        if let Some(n) = self.names.find(name)
            && self.steps.get(&n).is_some_and(Vec::is_empty)
        {
            self.steps.remove(&n);
        }
    }

    // ---- invocations ----

    /// How the invocation `id` announced in this run stands.
    pub fn invocation(&self, id: &str) -> Option<InvocationState> {
        self.slot(id).and_then(|s| s.invocation)
    }

    /// Sets how invocation `id` stands; the first time, it joins the
    /// announcement order.
    pub fn set_invocation(&mut self, id: &str, state: InvocationState, at: usize) {
        let n = self.intern(id);
        let slot = &mut self.slots[n.index()];
        if slot.invocation.is_none() {
            self.announce_order.push(n);
        }
        slot.invocation = Some(state);
        slot.invocation_at = u32::try_from(at).unwrap_or(u32::MAX);
    }

    /// Index of the event that last set how invocation `id` stands.
    pub fn invocation_at(&self, id: &str) -> Option<usize> {
        self.slot(id)
            .filter(|s| s.invocation.is_some())
            .map(|s| s.invocation_at as usize)
    }

    /// The invocations still active, in announcement order.
    pub fn active_invocations(&self) -> Vec<&str> {
        self.announce_order
            .iter()
            .filter(|n| self.slots[n.index()].invocation == Some(InvocationState::Active))
            .map(|&n| self.names.str(n))
            .collect()
    }
}

/// Names a tag (an event's own `subagentRunId`): `the parent agent` or
/// `invocation "s1"`.
pub fn who_tag(tag: Option<&str>) -> String {
    match tag {
        None => "the parent agent".to_owned(),
        Some(s) => format!("invocation {s:?}"),
    }
}
