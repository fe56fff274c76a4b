//! Per-run bookkeeping: open entities, owners on record, steps, invocations.
//! Reset at every `RUN_STARTED` (docs/rules.md "Streams, runs, indexes").
//!
//! Every string the rules keep is interned ([`Names`]) and its facts live in
//! one [`Slot`] per name, so an event costs one lookup per string it names
//! and no allocation once its strings are known.

use super::names::{Name, Names};
use super::said::Said;
// foldhash: the few maps left key on names, and SipHash was the largest
// single cost of the stream rules before (docs/performance-log.md).
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

    /// Which of [`Entity`]'s `opened` indexes this part uses.
    fn slot(self) -> usize {
        usize::from(self == Part::Message)
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
    /// Index of the event that last opened each part (by [`Part::slot`]):
    /// the related event of `*.already-open` and
    /// `run.open-entities-at-finish`.
    opened: [u32; 2],
}

/// Everything known of one name in this run.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The entities of this id, one per [`Kind`]: one more than its place
    /// in [`RunBook::entities`], 0 for none. An id is mostly one kind of
    /// entity, so entities are kept apart from the slots: a slot is 24
    /// bytes instead of 104, and a long run's names stay in cache longer.
    entities: [u32; 4],
    /// Carried as an attributable event's own `subagentRunId`.
    attributed: bool,
    /// Announced as an invocation.
    invocation: Option<InvocationState>,
    /// Index of the event that set `invocation` (its announcement, or its
    /// end): a violation's related event; saturates past `u32::MAX`.
    invocation_at: u32,
}

impl Slot {
    /// Where this id's entity of `kind` is in [`RunBook::entities`].
    #[inline]
    fn entity(&self, kind: Kind) -> Option<usize> {
        (self.entities[kind as usize] as usize).checked_sub(1)
    }
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
    /// The entities the slots point to, in the order they were recorded.
    entities: Vec<Entity>,
    /// Open steps: name → owners holding it open (usually one), each with
    /// the index of its `STEP_STARTED`.
    steps: HashMap<Name, Vec<(Owner, u32)>>,
    /// The invocations announced, in order (each once).
    announce_order: Vec<Name>,
    /// Invocations that finished `suspended` in this run, in order, with
    /// their interrupt ids.
    pub suspended: Vec<(String, Vec<String>)>,
    /// How many parts of entities are open: the end of a run looks for
    /// them through every name only when there are any.
    open_parts: usize,
    /// What this run streamed, for the consistency warnings.
    pub(crate) said: Said,
}

impl RunBook {
    /// Forgets the run (keeping capacity: the next run is likely to be of
    /// the same size, and nothing grows across runs).
    pub fn reset(&mut self, implicit: bool) {
        self.implicit = implicit;
        self.names.clear();
        self.slots.clear();
        self.entities.clear();
        self.steps.clear();
        self.announce_order.clear();
        self.suspended.clear();
        self.open_parts = 0;
        self.said.clear();
    }

    /// A count that grows whenever the book may have grown (a new name,
    /// entity or open step, or streamed text that took more room): the
    /// footprint is measured only when it changed.
    pub fn growth(&self) -> usize {
        self.names.len()
            + self.entities.len()
            + self.steps.len()
            + self.suspended.len()
            + self.said.growth()
    }

    /// The bytes the book holds (by capacity; open steps estimated).
    pub fn footprint(&self) -> usize {
        use std::mem::size_of;
        self.names.footprint()
            + self.slots.capacity() * size_of::<Slot>()
            + self.entities.capacity() * size_of::<Entity>()
            // A map slot (name, vector) and a holder or two.
            + self.steps.capacity() * (size_of::<(Name, Vec<(Owner, u32)>)>() + 1 + 32)
            + self.announce_order.capacity() * size_of::<Name>()
            + self
                .suspended
                .iter()
                .map(|(s, ids)| 48 + s.len() + ids.iter().map(|i| 24 + i.len()).sum::<usize>())
                .sum::<usize>()
            + self.said.footprint()
    }

    // ---- names ----

    /// The run's names, for the projector (names it adds get their slot
    /// when the book next interns).
    pub(crate) fn names_mut(&mut self) -> &mut Names {
        &mut self.names
    }

    #[inline]
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

    #[inline]
    fn interned_slot(&mut self, s: &str) -> &mut Slot {
        let n = self.intern(s);
        &mut self.slots[n.index()]
    }

    /// The name of `s`, if this run has one.
    pub fn name(&self, s: &str) -> Option<Name> {
        self.names.find(s)
    }

    /// The name of `s`, given one (with its slot) if it has none.
    pub fn intern_name(&mut self, s: &str) -> Name {
        self.intern(s)
    }

    /// The string of a name.
    pub fn name_str(&self, n: Name) -> &str {
        self.names.str(n)
    }

    /// The owner an event tagged `tag` stands for.
    #[inline]
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

    /// Where name `n`'s entity of `kind` is in [`RunBook::entities`].
    #[inline]
    fn entity_ix(&self, n: Name, kind: Kind) -> Option<usize> {
        self.slots.get(n.index())?.entity(kind)
    }

    /// Name `n`'s entity of `kind`, made (with nothing open) if it has
    /// none; `None` only if `n` has no slot.
    fn entity_or_new(
        &mut self,
        n: Name,
        kind: Kind,
        owner: Owner,
        attributed: bool,
        at: u32,
    ) -> Option<(&mut Entity, bool)> {
        if let Some(i) = self.entity_ix(n, kind) {
            return self.entities.get_mut(i).map(|e| (e, false));
        }
        let slot = self.slots.get_mut(n.index())?;
        self.entities.push(Entity {
            owner,
            open: 0,
            attributed,
            at,
            opened: [0; 2],
        });
        // Saturates: more entities than that cannot be in memory.
        slot.entities[kind as usize] = u32::try_from(self.entities.len()).unwrap_or(u32::MAX);
        self.entities.last_mut().map(|e| (e, true))
    }

    fn entity(&self, kind: Kind, id: &str) -> Option<&Entity> {
        let n = self.names.find(id)?;
        self.entities.get(self.entity_ix(n, kind)?)
    }

    /// The owner on record of `id` as a `kind`.
    pub fn owner(&self, kind: Kind, id: &str) -> Option<Owner> {
        self.entity(kind, id).map(|e| e.owner)
    }

    /// Records an owner unless one is on record (the first opener wins).
    /// `attributed`: the owner is the own tag of the event being checked.
    /// The id's name (the projector finds its records by it).
    #[inline]
    pub fn record_first(
        &mut self,
        kind: Kind,
        id: &str,
        owner: Owner,
        attributed: bool,
        at: usize,
    ) -> Name {
        let n = self.intern(id);
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        self.entity_or_new(n, kind, owner, attributed, at);
        n
    }

    /// Records an owner, replacing any on record.
    pub fn record(&mut self, kind: Kind, id: &str, owner: Owner, attributed: bool, at: usize) {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        let n = self.intern(id);
        if let Some((e, false)) = self.entity_or_new(n, kind, owner, attributed, at) {
            e.owner = owner;
            e.attributed = attributed;
            e.at = at;
        }
    }

    /// Index of the event that put the owner of `id` as a `kind` on record.
    pub fn recorded_at(&self, kind: Kind, id: &str) -> Option<usize> {
        self.entity(kind, id).map(|e| e.at as usize)
    }

    /// The owner on record of `id`, if `part` of it is open, whether it is
    /// attributed already, and the id's name.
    pub fn open_owner(&self, part: Part, id: &str) -> Option<(Owner, bool, Name)> {
        let n = self.names.find(id)?;
        let e = self.entities.get(self.entity_ix(n, part.kind())?)?;
        (e.open & part.bit() != 0).then_some((e.owner, e.attributed, n))
    }

    /// Marks `part` of `id` open by event `at`; its owner must be on
    /// record already.
    pub fn open(&mut self, part: Part, id: &str, at: usize) {
        let Some(n) = self.names.find(id) else { return };
        let ix = self.entity_ix(n, part.kind());
        if let Some(e) = ix.and_then(|i| self.entities.get_mut(i)) {
            // Opening what is open keeps the first opener.
            if e.open & part.bit() == 0 {
                e.opened[part.slot()] = u32::try_from(at).unwrap_or(u32::MAX);
                self.open_parts += 1;
            }
            e.open |= part.bit();
        }
    }

    /// Index of the event that opened `part` of `id`, if it is open.
    pub fn opened_at(&self, part: Part, id: &str) -> Option<usize> {
        self.entity(part.kind(), id)
            .filter(|e| e.open & part.bit() != 0)
            .map(|e| e.opened[part.slot()] as usize)
    }

    /// Closes `part` of `id`; [`RunBook::open_owner`] if it was open.
    pub fn close(&mut self, part: Part, id: &str) -> Option<(Owner, bool, Name)> {
        let n = self.names.find(id)?;
        let ix = self.entity_ix(n, part.kind())?;
        let e = self.entities.get_mut(ix)?;
        if e.open & part.bit() == 0 {
            return None;
        }
        e.open &= !part.bit();
        self.open_parts = self.open_parts.saturating_sub(1);
        Some((e.owner, e.attributed, n))
    }

    /// Whether anything of this reasoning id (span or message) is open.
    pub fn reasoning_open(&self, id: &str) -> bool {
        self.entity(Kind::Reasoning, id)
            .is_some_and(|e| e.open != 0)
    }

    /// The ids with `part` open, sorted, with the index of their opener.
    fn open_ids(&self, part: Part) -> Vec<(&str, u32)> {
        let mut ids: Vec<(&str, u32)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(ix, s)| {
                let e = self.entities.get(s.entity(part.kind())?)?;
                let ix = u32::try_from(ix).ok()?;
                (e.open & part.bit() != 0)
                    .then(|| (self.names.str(Name::from_index(ix)), e.opened[part.slot()]))
            })
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Names the entities still open, for `run.open-entities-at-finish`,
    /// with the index of the earliest opener among them (its related event).
    pub fn open_entities(&self) -> (Vec<String>, Option<usize>) {
        let mut out = Vec::new();
        let mut first: Option<u32> = None;
        let mut seen = |at: u32| first = Some(first.map_or(at, |f| f.min(at)));
        let mut more = 0usize;
        for (part, prefix) in [
            (Part::Text, "text message"),
            (Part::Tool, "tool call"),
            (Part::Span, "reasoning span"),
            (Part::Message, "reasoning message"),
        ] {
            if self.open_parts == 0 {
                break;
            }
            for (id, at) in self.open_ids(part) {
                seen(at);
                if out.len() < LISTED {
                    out.push(format!("{prefix} {id:?}"));
                } else {
                    more += 1;
                }
            }
        }
        let mut steps: Vec<String> = Vec::new();
        for (&name, holders) in &self.steps {
            let name = self.names.str(name);
            for &(o, at) in holders {
                seen(at);
                steps.push(format!("step {name:?} of {}", self.who(o)));
            }
        }
        steps.sort();
        let room = LISTED.saturating_sub(out.len());
        more += steps.len().saturating_sub(room);
        out.extend(steps.into_iter().take(room));
        if more > 0 {
            out.push(format!("and {more} more"));
        }
        (out, first.map(|f| f as usize))
    }

    // ---- attribution ----

    /// Records `tag` as carried by an attributable event.
    #[inline]
    pub fn attribute(&mut self, tag: &str) {
        self.interned_slot(tag).attributed = true;
    }

    /// Whether an attributable event carried `id` this run.
    pub fn is_attributed(&self, id: &str) -> bool {
        self.slot(id).is_some_and(|s| s.attributed)
    }

    // ---- steps ----

    /// The owners holding step `name` open (with their `STEP_STARTED`'s
    /// index), made an (empty) entry if none.
    pub fn step_holders(&mut self, name: &str) -> &mut Vec<(Owner, u32)> {
        let n = self.intern(name);
        self.steps.entry(n).or_default()
    }

    /// The owners holding step `name` open, if anyone does.
    pub fn open_step(&mut self, name: &str) -> Option<&mut Vec<(Owner, u32)>> {
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
    #[inline]
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

/// Entities (or invocations) a message names at most; the rest are
/// counted ("and 999,980 more"), so a message stays short however many
/// are open.
pub const LISTED: usize = 20;

/// Names a tag (an event's own `subagentRunId`): `the parent agent` or
/// `invocation "s1"`.
pub fn who_tag(tag: Option<&str>) -> String {
    match tag {
        None => "the parent agent".to_owned(),
        Some(s) => format!("invocation {s:?}"),
    }
}
