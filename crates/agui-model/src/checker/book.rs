//! Per-run bookkeeping: open entities, owners on record, steps, invocations.
//! Reset at every `RUN_STARTED` (RULES.md "Streams, runs, indexes").

// foldhash: ids are short strings, and SipHash was the largest single cost
// of the stream rules (docs/performance.md); no input can make the checker
// quadratic that way either, since the seeds are random per process.
use foldhash::{HashMap, HashSet};

/// The owner of an event or entity: `None` is the parent agent.
pub type Owner = Option<String>;

/// Entity kinds whose owners are kept apart (RULES.md "Ownership rules").
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
    fn kind(self) -> Kind {
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
/// are open. An entity is open only once its owner is on record, so one
/// map per kind answers both questions with one lookup.
#[derive(Debug)]
struct Entity {
    owner: Owner,
    open: u8,
    /// The owner is the own `subagentRunId` of the event that put it on
    /// record, so that id is already in [`RunBook::attributed`].
    attributed: bool,
}

/// Everything the checker knows about the current run.
#[derive(Debug, Default)]
pub struct RunBook {
    /// Opened by a first event that was not `RUN_STARTED` (after
    /// `run.first-event`): checked like a run, never projected, never
    /// reported unterminated.
    pub implicit: bool,
    /// Owners on record and open parts, one map per [`Kind`].
    entities: [HashMap<String, Entity>; 4],
    /// Open steps: name → owners holding it open (usually one).
    pub steps: HashMap<String, Vec<Owner>>,
    /// Invocations announced in this run, and the order they were announced.
    pub invocations: HashMap<String, InvocationState>,
    pub announce_order: Vec<String>,
    /// Ids carried as an attributable event's own `subagentRunId` this run.
    pub attributed: HashSet<String>,
    /// Invocations that finished `suspended` in this run, in order, with
    /// their interrupt ids and the index of their `SUBAGENT_FINISHED`.
    pub suspended: Vec<(String, Vec<String>)>,
}

impl RunBook {
    /// Forgets the run (keeping the maps' capacity: the next run is likely
    /// to be of the same size, and nothing grows across runs).
    pub fn reset(&mut self, implicit: bool) {
        self.implicit = implicit;
        for map in &mut self.entities {
            map.clear();
        }
        self.steps.clear();
        self.invocations.clear();
        self.announce_order.clear();
        self.attributed.clear();
        self.suspended.clear();
    }

    pub fn owner(&self, kind: Kind, id: &str) -> Option<&Owner> {
        self.entities[kind as usize].get(id).map(|e| &e.owner)
    }

    /// Records an owner unless one is on record (the first opener wins).
    /// `attributed`: the owner is the own tag of the event being checked.
    pub fn record_first(&mut self, kind: Kind, id: &str, owner: Owner, attributed: bool) {
        let map = &mut self.entities[kind as usize];
        if !map.contains_key(id) {
            let e = Entity {
                owner,
                open: 0,
                attributed,
            };
            map.insert(id.to_owned(), e);
        }
    }

    /// Records an owner, replacing any on record.
    pub fn record(&mut self, kind: Kind, id: &str, owner: Owner, attributed: bool) {
        match self.entities[kind as usize].get_mut(id) {
            Some(e) => {
                e.owner = owner;
                e.attributed = attributed;
            }
            None => {
                let e = Entity {
                    owner,
                    open: 0,
                    attributed,
                };
                self.entities[kind as usize].insert(id.to_owned(), e);
            }
        }
    }

    /// Whether `part` of `id` is open.
    pub fn is_open(&self, part: Part, id: &str) -> bool {
        self.open_owner(part, id).is_some()
    }

    /// The owner on record of `id`, if `part` of it is open, and whether
    /// it is an id already in [`RunBook::attributed`].
    pub fn open_owner(&self, part: Part, id: &str) -> Option<(&Owner, bool)> {
        self.entities[part.kind() as usize]
            .get(id)
            .filter(|e| e.open & part.bit() != 0)
            .map(|e| (&e.owner, e.attributed))
    }

    /// Marks `part` of `id` open; its owner must be on record already.
    pub fn open(&mut self, part: Part, id: &str) {
        if let Some(e) = self.entities[part.kind() as usize].get_mut(id) {
            e.open |= part.bit();
        }
    }

    /// Closes `part` of `id`; [`RunBook::open_owner`] if it was open.
    pub fn close(&mut self, part: Part, id: &str) -> Option<(&Owner, bool)> {
        let e = self.entities[part.kind() as usize].get_mut(id)?;
        if e.open & part.bit() == 0 {
            return None;
        }
        e.open &= !part.bit();
        Some((&e.owner, e.attributed))
    }

    /// Whether anything of this reasoning id (span or message) is open.
    pub fn reasoning_open(&self, id: &str) -> bool {
        self.entities[Kind::Reasoning as usize]
            .get(id)
            .is_some_and(|e| e.open != 0)
    }

    /// The ids with `part` open, sorted.
    fn open_ids(&self, part: Part) -> Vec<&String> {
        let mut ids: Vec<&String> = self.entities[part.kind() as usize]
            .iter()
            .filter(|(_, e)| e.open & part.bit() != 0)
            .map(|(id, _)| id)
            .collect();
        ids.sort();
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
            .flat_map(|(name, owners)| {
                owners
                    .iter()
                    .map(move |o| format!("step {name:?} of {}", who(o)))
            })
            .collect();
        steps.sort();
        out.extend(steps);
        out
    }

    /// The invocations still active, in announcement order.
    pub fn active_invocations(&self) -> Vec<&String> {
        self.announce_order
            .iter()
            .filter(|id| self.invocations.get(*id) == Some(&InvocationState::Active))
            .collect()
    }
}

/// Names an owner in a message: `the parent agent` or `invocation "s1"`.
pub fn who(owner: &Owner) -> String {
    match owner {
        None => "the parent agent".to_owned(),
        Some(s) => format!("invocation {s:?}"),
    }
}

/// Names a tag (an event's own `subagentRunId`).
pub fn who_tag(tag: Option<&str>) -> String {
    match tag {
        None => "the parent agent".to_owned(),
        Some(s) => format!("invocation {s:?}"),
    }
}
