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

/// Everything the checker knows about the current run.
#[derive(Debug, Default)]
pub struct RunBook {
    /// Opened by a first event that was not `RUN_STARTED` (after
    /// `run.first-event`): checked like a run, never projected, never
    /// reported unterminated.
    pub implicit: bool,
    pub text_open: HashSet<String>,
    pub tool_open: HashSet<String>,
    pub reasoning_spans: HashSet<String>,
    pub reasoning_messages: HashSet<String>,
    /// Open steps: name → owners holding it open (usually one).
    pub steps: HashMap<String, Vec<Owner>>,
    /// Owners on record, one map per [`Kind`].
    pub(super) owners: [HashMap<String, Owner>; 4],
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
    pub fn owner(&self, kind: Kind, id: &str) -> Option<&Owner> {
        self.owners[kind as usize].get(id)
    }

    /// Records an owner unless one is on record (the first opener wins).
    pub fn record_first(&mut self, kind: Kind, id: &str, owner: Owner) {
        let map = &mut self.owners[kind as usize];
        if !map.contains_key(id) {
            map.insert(id.to_owned(), owner);
        }
    }

    /// Records an owner, replacing any on record.
    pub fn record(&mut self, kind: Kind, id: &str, owner: Owner) {
        self.owners[kind as usize].insert(id.to_owned(), owner);
    }

    /// Whether anything of this reasoning id (span or message) is open.
    pub fn reasoning_open(&self, id: &str) -> bool {
        self.reasoning_spans.contains(id) || self.reasoning_messages.contains(id)
    }

    /// Names the entities still open, for `run.open-entities-at-finish`.
    pub fn open_entities(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut sorted = |prefix: &str, ids: Vec<&String>| {
            let mut ids = ids;
            ids.sort();
            out.extend(ids.into_iter().map(|id| format!("{prefix} {id:?}")));
        };
        sorted("text message", self.text_open.iter().collect());
        sorted("tool call", self.tool_open.iter().collect());
        sorted("reasoning span", self.reasoning_spans.iter().collect());
        sorted(
            "reasoning message",
            self.reasoning_messages.iter().collect(),
        );
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
