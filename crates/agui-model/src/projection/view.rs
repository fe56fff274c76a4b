//! The live view of the current run: typed records built as events arrive.
//!
//! Every id, owner and name of the run is copied once into one buffer (the
//! [`Arena`]) and named by a [`Span`]; records are found by id through hash
//! tables of indexes, so a message costs no allocation for its id or owner,
//! and the view is cleared, not reallocated, from run to run.

use super::InvocationStatus;
use foldhash::fast::RandomState;
use hashbrown::HashTable;
use serde_json::Value;
use std::borrow::Cow;
use std::hash::BuildHasher;

/// A string of the run, as a range of the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Span {
    start: u32,
    end: u32,
}

/// The run's strings, one after the other.
#[derive(Debug, Default)]
pub(super) struct Arena {
    text: String,
}

impl Arena {
    pub(super) fn push(&mut self, s: &str) -> Span {
        // Past 4 GiB of ids in one run the spans saturate; what is shown is
        // then wrong, never out of bounds (`get` below).
        let start = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.text.push_str(s);
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        Span { start, end }
    }

    pub(super) fn get(&self, s: Span) -> &str {
        self.text
            .get(s.start as usize..s.end as usize)
            .unwrap_or_default()
    }
}

#[derive(Debug, Clone)]
pub(super) struct Invocation {
    pub id: Span,
    pub name: Option<Span>,
    pub parent: Option<Span>,
    pub status: InvocationStatus,
}

#[derive(Debug, Clone)]
pub(super) struct ToolCall {
    pub id: Span,
    pub name: Span,
    pub args: String,
}

#[derive(Debug, Clone)]
pub(super) struct Message {
    pub id: Span,
    pub role: Cow<'static, str>,
    pub owner: Option<Span>,
    /// Text so far; for `activity` messages the content object.
    pub content: Value,
    pub activity_type: Option<String>,
    pub tool_calls: Vec<ToolCall>,
}

/// An interrupt of a `RUN_FINISHED` interrupt outcome: its `id` as given
/// (any JSON) and its owner.
#[derive(Debug, Clone)]
pub(super) struct Interrupt {
    pub id: Option<Value>,
    pub owner: Option<Span>,
}

/// The roles spelled by the catalogue, kept without a copy.
const ROLES: [&str; 7] = [
    "assistant",
    "reasoning",
    "tool",
    "activity",
    "user",
    "system",
    "developer",
];

pub(super) fn role(r: &str) -> Cow<'static, str> {
    match ROLES.iter().find(|k| **k == r) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(r.to_owned()),
    }
}

/// The current run.
#[derive(Debug)]
pub(super) struct RunView {
    pub strings: Arena,
    pub thread_id: Span,
    pub run_id: Span,
    pub status: &'static str,
    pub invocations: Vec<Invocation>,
    pub messages: Vec<Message>,
    pub interrupts: Vec<Interrupt>,
    invocation_at: HashTable<u32>,
    message_at: HashTable<u32>,
    /// Where each started tool call's arguments go: (message, call).
    tool_at: HashTable<(u32, u32)>,
    hasher: RandomState,
}

impl Default for RunView {
    fn default() -> Self {
        RunView {
            strings: Arena::default(),
            thread_id: Span { start: 0, end: 0 },
            run_id: Span { start: 0, end: 0 },
            status: "running",
            invocations: Vec::new(),
            messages: Vec::new(),
            interrupts: Vec::new(),
            invocation_at: HashTable::new(),
            message_at: HashTable::new(),
            tool_at: HashTable::new(),
            hasher: RandomState::default(),
        }
    }
}

/// An index as stored in the tables (runs of 2^32 records saturate).
fn ix(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl RunView {
    /// Starts over for a new run, keeping every buffer's capacity.
    pub fn reset(&mut self, thread_id: &str, run_id: &str) {
        self.strings.text.clear();
        self.invocations.clear();
        self.messages.clear();
        self.interrupts.clear();
        self.invocation_at.clear();
        self.message_at.clear();
        self.tool_at.clear();
        self.status = "running";
        self.thread_id = self.strings.push(thread_id);
        self.run_id = self.strings.push(run_id);
    }

    pub fn str(&self, s: Span) -> &str {
        self.strings.get(s)
    }

    pub fn opt(&mut self, s: Option<&str>) -> Option<Span> {
        s.map(|s| self.strings.push(s))
    }

    // ---- invocations ----

    pub fn invocation(&self, id: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(id);
        let (strings, list) = (&self.strings, &self.invocations);
        self.invocation_at
            .find(hash, |&i| {
                list.get(i as usize)
                    .is_some_and(|inv| strings.get(inv.id) == id)
            })
            .map(|&i| i as usize)
    }

    /// Adds an invocation not yet in the list.
    pub fn push_invocation(&mut self, inv: Invocation) {
        let hash = self.hasher.hash_one(self.strings.get(inv.id));
        let at = ix(self.invocations.len());
        self.invocations.push(inv);
        let (strings, list, hasher) = (&self.strings, &self.invocations, &self.hasher);
        self.invocation_at.insert_unique(hash, at, |&i| {
            hasher.hash_one(list.get(i as usize).map_or("", |v| strings.get(v.id)))
        });
    }

    // ---- messages ----

    pub fn message(&self, id: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(id);
        let (strings, list) = (&self.strings, &self.messages);
        self.message_at
            .find(hash, |&i| {
                list.get(i as usize)
                    .is_some_and(|m| strings.get(m.id) == id)
            })
            .map(|&i| i as usize)
    }

    /// Adds a message whose id is not yet in the list; its index.
    pub fn push_message(&mut self, msg: Message) -> usize {
        let hash = self.hasher.hash_one(self.strings.get(msg.id));
        let at = self.messages.len();
        self.messages.push(msg);
        let (strings, list, hasher) = (&self.strings, &self.messages, &self.hasher);
        self.message_at.insert_unique(hash, ix(at), |&i| {
            hasher.hash_one(list.get(i as usize).map_or("", |m| strings.get(m.id)))
        });
        at
    }

    /// Forgets every message (and where tool calls go).
    pub fn clear_messages(&mut self) {
        self.messages.clear();
        self.message_at.clear();
        self.tool_at.clear();
    }

    // ---- tool calls ----

    /// The arguments of the latest started tool call with this id.
    pub fn tool_args(&mut self, id: &str) -> Option<&mut String> {
        let hash = self.hasher.hash_one(id);
        let (messages, strings) = (&self.messages, &self.strings);
        let &(m, c) = self
            .tool_at
            .find(hash, |&at| call_id(messages, strings, at) == id)?;
        self.messages
            .get_mut(m as usize)
            .and_then(|m| m.tool_calls.get_mut(c as usize))
            .map(|call| &mut call.args)
    }

    /// Appends a tool call to message `at`; arguments for its id now go
    /// there.
    pub fn push_tool_call(&mut self, at: usize, call: ToolCall) {
        let Some(msg) = self.messages.get_mut(at) else {
            return;
        };
        let place = (ix(at), ix(msg.tool_calls.len()));
        let id = call.id;
        msg.tool_calls.push(call);
        let RunView {
            strings,
            messages,
            tool_at,
            hasher,
            ..
        } = self;
        let key = strings.get(id);
        let hash = hasher.hash_one(key);
        match tool_at.find_mut(hash, |&at| call_id(messages, strings, at) == key) {
            Some(slot) => *slot = place,
            None => {
                tool_at.insert_unique(hash, place, |&at| {
                    hasher.hash_one(call_id(messages, strings, at))
                });
            }
        }
    }
}

/// The id of the call at `(message, call)`.
fn call_id<'a>(messages: &[Message], strings: &'a Arena, (m, c): (u32, u32)) -> &'a str {
    messages
        .get(m as usize)
        .and_then(|m| m.tool_calls.get(c as usize))
        .map_or("", |call| strings.get(call.id))
}
