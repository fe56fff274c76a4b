//! The live view of the current run: typed records built as events arrive.
//!
//! Every id, owner and name of the run, and every delta of its text, is
//! copied once into one buffer (the [`Arena`]) and named by a [`Span`];
//! records are found by the checker's interned name of their id
//! ([`Names`]: one hash lookup the checker made already serves both), in
//! tables indexed by that name. A message's
//! text is the chain of its deltas' spans ([`Text`]), joined only when the
//! run is written, so a message costs no allocation for its id, owner or
//! text, and the view is cleared, not reallocated, from run to run.

use super::InvocationStatus;
use crate::checker::names::{Name, Names};
use serde_json::Value;
use thin_vec::ThinVec;

/// A string of the run, as a range of the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Span {
    start: u32,
    end: u32,
}

/// The run's strings, one after the other; in a large run, the deltas of
/// each producer in chunks of their own ([`Arena::push_in`]).
#[derive(Debug, Default)]
pub(super) struct Arena {
    text: String,
    /// By lane: the free part of its chunk, `start..end` of `text`.
    lanes: Vec<Span>,
}

/// Arena size from which deltas go to their lane's chunk: below it the run
/// is in cache anyway, and a chunk per producer would cost more than it
/// saves.
const LANES_FROM: usize = 1 << 20;

/// A lane's chunk: deltas up to a quarter of it go there.
const CHUNK: usize = 16 << 10;

/// A chunk's worth of `\0`s, copied in whole (pushed one `char` at a
/// time they cost 2 % of a large run's check).
static NULS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| "\0".repeat(CHUNK));

/// The lane of the parent agent's texts (and of texts without one).
pub(super) const NO_LANE: u32 = 0;

/// Lanes at most: a stream of many owners shares them out (owners in one
/// lane interleave there as they would in the arena), so the chunks a run
/// holds open stay within `LANES × CHUNK` (4 MiB), however many owners it
/// names.
const LANES: usize = 256;

/// The lane of a producer's texts: one per owner, up to [`LANES`].
pub(super) fn lane(owner: Option<Name>) -> u32 {
    owner.map_or(NO_LANE, |n| ix(1 + n.index() % (LANES - 1)))
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

    /// [`Arena::push`] for a delta of a text in `lane`. In a large run
    /// the parallel producers' deltas interleave: kept apart, each text's
    /// deltas are one piece, read in one pass when the run is written,
    /// instead of pieces scattered through the whole arena.
    pub(super) fn push_in(&mut self, lane: u32, s: &str) -> Span {
        let len = s.len();
        if self.text.len() < LANES_FROM || len > CHUNK / 4 {
            return self.push(s);
        }
        let k = lane as usize;
        if self.lanes.len() <= k {
            self.lanes.resize(k + 1, Span { start: 0, end: 0 });
        }
        let Some(free) = self.lanes.get_mut(k) else {
            return self.push(s);
        };
        if ((free.end - free.start) as usize) < len {
            // A new chunk at the end, of `\0`s (ASCII: the text stays
            // UTF-8); what the old one had left is never shown.
            let start = self.text.len();
            let end = start + CHUNK;
            let (Ok(start32), Ok(end32)) = (u32::try_from(start), u32::try_from(end)) else {
                return self.push(s);
            };
            self.text.push_str(&NULS);
            *free = Span {
                start: start32,
                end: end32,
            };
        }
        let at = free.start as usize;
        // SAFETY: `at..at + len` lies in the lane's chunk (its free part
        // holds `len` bytes or more, checked above), where only `\0`s
        // were written; replacing whole ASCII characters with the bytes of
        // a whole `str` keeps the text UTF-8.
        let bytes = unsafe { self.text.as_bytes_mut() };
        let Some(place) = bytes.get_mut(at..at + len) else {
            return self.push(s);
        };
        place.copy_from_slice(s.as_bytes());
        let span = Span {
            start: free.start,
            end: free.start + len as u32,
        };
        free.start = span.end;
        span
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

/// One piece of a [`Text`]: a span of the arena and the next piece.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    pub span: Span,
    /// Index of the next piece in [`RunView::pieces`]; [`NONE`] ends it.
    pub next: u32,
}

/// No piece.
pub(super) const NONE: u32 = u32::MAX;

/// Text built from deltas (a message's content, a call's arguments).
#[derive(Debug, Clone)]
pub(super) enum Text {
    /// The deltas as pieces of the arena, first to last ([`NONE`] when
    /// empty); consecutive deltas of one text share a piece.
    Pieces { first: u32, last: u32 },
    /// The text as one string: given whole (a snapshot, a tool result), or
    /// joined once a delta began with a kept surrogate, which
    /// [`crate::json::join_text`] may pair with the one before it.
    Owned(String),
}

impl Text {
    pub const EMPTY: Text = Text::Pieces {
        first: NONE,
        last: NONE,
    };
}

/// What a message shows as its `content`.
#[derive(Debug, Clone)]
pub(super) enum Content {
    Text(Text),
    /// An `activity` message's content object (boxed: rare, and a
    /// message is kept small, there are millions of them).
    Json(Box<Value>),
}

#[derive(Debug, Clone)]
pub(super) struct ToolCall {
    pub id: Span,
    pub name: Span,
    pub args: Text,
}

#[derive(Debug, Clone)]
pub(super) struct Message {
    pub id: Span,
    pub role: Role,
    pub owner: Option<Span>,
    /// Where its deltas (and its tool calls') go ([`Arena::push_in`]).
    pub lane: u32,
    pub content: Content,
    pub activity_type: Option<Box<str>>,
    /// Most messages have none: eight bytes when empty.
    pub tool_calls: ThinVec<ToolCall>,
    /// No event names this message's id: the consumer made it up (a
    /// tool call's message). Shown without `id`, compared by its place.
    pub invented: bool,
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

pub(super) fn role(r: &str) -> Role {
    match ROLES.iter().position(|k| *k == r) {
        Some(k) => Role::Known(k as u8),
        None => Role::Other(Box::new(r.to_owned())),
    }
}

/// A message's role: one of [`ROLES`] by its place, or another, boxed
/// (rare: a thin pointer keeps the role at 16 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Role {
    Known(u8),
    // A `Box<str>` is two words: the box of a `String` keeps the role at two.
    #[allow(clippy::box_collection)]
    Other(Box<String>),
}

impl std::ops::Deref for Role {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Role::Known(k) => ROLES.get(usize::from(*k)).copied().unwrap_or_default(),
            Role::Other(s) => s,
        }
    }
}

impl PartialEq<&str> for Role {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl PartialEq<str> for Role {
    fn eq(&self, other: &str) -> bool {
        **self == *other
    }
}

/// The current run.
#[derive(Debug)]
pub(super) struct RunView {
    pub strings: Arena,
    /// The pieces of every [`Text::Pieces`] of the run.
    pub pieces: Vec<Piece>,
    /// Absent for a run that opened with `RUN_ERROR` (no `RUN_STARTED`).
    pub thread_id: Option<Span>,
    pub run_id: Option<Span>,
    pub status: &'static str,
    /// Part of the run is not shown (an event skipped at a limit, or the
    /// projection's byte budget spent): written as `"incomplete": true`.
    pub incomplete: bool,
    pub invocations: Vec<Invocation>,
    pub messages: Vec<Message>,
    pub interrupts: Vec<Interrupt>,
    /// By the name of an id ([`Name::index`]; [`NONE`]: none): the
    /// invocation and the message of that id, and where the arguments of
    /// the latest started tool call of that id go, (message, call).
    invocation_of: Vec<u32>,
    message_of: Vec<u32>,
    tool_of: Vec<(u32, u32)>,
    /// Tool calls streamed into [`Message::tool_calls`] (counted by
    /// [`RunView::held`]; a message's calls are not in a table of the view).
    calls: usize,
}

impl Default for RunView {
    fn default() -> Self {
        RunView {
            strings: Arena::default(),
            pieces: Vec::new(),
            thread_id: None,
            run_id: None,
            status: "unterminated",
            incomplete: false,
            invocations: Vec::new(),
            messages: Vec::new(),
            interrupts: Vec::new(),
            invocation_of: Vec::new(),
            message_of: Vec::new(),
            tool_of: Vec::new(),
            calls: 0,
        }
    }
}

/// An index as stored in the tables (runs of 2^32 records saturate).
fn ix(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl RunView {
    /// Starts over for a new run, keeping every buffer's capacity.
    pub fn reset(&mut self, thread_id: Option<&str>, run_id: Option<&str>) {
        self.strings.text.clear();
        self.strings.lanes.clear();
        self.pieces.clear();
        self.invocations.clear();
        self.messages.clear();
        self.interrupts.clear();
        self.invocation_of.clear();
        self.message_of.clear();
        self.tool_of.clear();
        self.calls = 0;
        self.status = "unterminated";
        self.incomplete = false;
        self.thread_id = self.opt(thread_id);
        self.run_id = self.opt(run_id);
    }

    pub fn str(&self, s: Span) -> &str {
        self.strings.get(s)
    }

    pub fn opt(&mut self, s: Option<&str>) -> Option<Span> {
        s.map(|s| self.strings.push(s))
    }

    // ---- invocations ----

    pub fn invocation(&self, names: &Names, id: &str) -> Option<usize> {
        found(&self.invocation_of, names.find(id)?)
    }

    /// Adds the invocation of the id named `n` (not yet in the list).
    pub fn push_invocation(&mut self, n: Name, inv: Invocation) {
        remember(&mut self.invocation_of, n, ix(self.invocations.len()), NONE);
        self.invocations.push(inv);
    }

    // ---- messages ----

    pub fn message(&self, names: &Names, id: &str) -> Option<usize> {
        self.message_named(names.find(id)?)
    }

    /// The message of the id named `n`.
    pub fn message_named(&self, n: Name) -> Option<usize> {
        found(&self.message_of, n)
    }

    /// Adds the message of the id named `n` (not yet in the list); its
    /// index.
    pub fn push_message(&mut self, n: Name, msg: Message) -> usize {
        let at = self.messages.len();
        remember(&mut self.message_of, n, ix(at), NONE);
        self.messages.push(msg);
        at
    }

    /// The bytes the view holds in its tables and arena (what they hold,
    /// not their spare room), besides what [`Text::Owned`] strings and
    /// [`Content::Json`] values hold (the projector counts those as it
    /// makes them): what the projection budget counts, so that a run is
    /// cut where its content reaches the budget, not where a buffer last
    /// doubled.
    pub fn held(&self) -> usize {
        use std::mem::size_of;
        self.strings.text.len()
            + self.strings.lanes.len() * size_of::<Span>()
            + self.pieces.len() * size_of::<Piece>()
            + self.invocations.len() * size_of::<Invocation>()
            + self.messages.len() * size_of::<Message>()
            + self.interrupts.len() * size_of::<Interrupt>()
            + (self.invocation_of.len() + self.message_of.len()) * size_of::<u32>()
            + self.tool_of.len() * size_of::<(u32, u32)>()
            + self.calls * size_of::<ToolCall>()
    }

    /// What [`RunView::held`] counts, by capacity: the memory the view
    /// keeps for the next run.
    pub fn footprint(&self) -> usize {
        use std::mem::size_of;
        self.strings.text.capacity()
            + self.strings.lanes.capacity() * size_of::<Span>()
            + self.pieces.capacity() * size_of::<Piece>()
            + self.invocations.capacity() * size_of::<Invocation>()
            + self.messages.capacity() * size_of::<Message>()
            + self.interrupts.capacity() * size_of::<Interrupt>()
            + (self.invocation_of.capacity() + self.message_of.capacity()) * size_of::<u32>()
            + self.tool_of.capacity() * size_of::<(u32, u32)>()
            + self.calls * size_of::<ToolCall>()
    }

    /// Forgets every message (and where tool calls go).
    pub fn clear_messages(&mut self) {
        self.messages.clear();
        self.message_of.clear();
        self.tool_of.clear();
        self.calls = 0;
    }

    // ---- tool calls ----

    /// Appends `delta` to the arguments of the latest started tool call
    /// of the id named `n`, if there is one; the bytes it added to an
    /// owned string ([`append`]).
    pub fn tool_args(&mut self, n: Name, delta: &str) -> usize {
        let Some(&(m, c)) = self.tool_of.get(n.index()) else {
            return 0;
        };
        if let Some(msg) = self.messages.get_mut(m as usize)
            && let Some(call) = msg.tool_calls.get_mut(c as usize)
        {
            let to = (&mut self.strings, msg.lane);
            return append(to, &mut self.pieces, &mut call.args, delta);
        }
        0
    }

    /// Appends `delta` to the text of message `at`, if it shows text; the
    /// bytes it added to an owned string ([`append`]).
    pub fn message_text(&mut self, at: usize, delta: &str) -> usize {
        if let Some(Message {
            content: Content::Text(text),
            lane,
            ..
        }) = self.messages.get_mut(at)
        {
            return append((&mut self.strings, *lane), &mut self.pieces, text, delta);
        }
        0
    }

    /// A text as one string (for the rare text the writer does not print
    /// piece by piece).
    pub fn joined(&self, text: &Text) -> String {
        match text {
            Text::Owned(s) => s.clone(),
            Text::Pieces { first, .. } => join(&self.strings, &self.pieces, *first),
        }
    }

    /// The spans of a text's pieces, first to last.
    pub fn spans(&self, first: u32) -> impl Iterator<Item = Span> + '_ {
        let mut at = first;
        std::iter::from_fn(move || {
            let piece = self.pieces.get(at as usize)?;
            at = piece.next;
            Some(piece.span)
        })
    }

    /// Appends a tool call to message `at`; arguments for its id (named
    /// `n`) now go there.
    pub fn push_tool_call(&mut self, n: Name, at: usize, call: ToolCall) {
        let Some(msg) = self.messages.get_mut(at) else {
            return;
        };
        let place = (ix(at), ix(msg.tool_calls.len()));
        msg.tool_calls.push(call);
        self.calls += 1;
        remember(&mut self.tool_of, n, place, (NONE, NONE));
    }
}

/// [`crate::json::join_text`] for a [`Text`]: the delta goes into the
/// arena, in `lane` ([`Arena::push_in`]), growing the text's last piece
/// when it lands right after it; a delta that
/// begins with a kept surrogate joins the text into one string first, so
/// a surrogate pair split between deltas is paired as `join_text` pairs it.
/// Returns the bytes added to an owned string (the arena's growth is
/// counted by its capacity).
fn append(
    (strings, lane): (&mut Arena, u32),
    pieces: &mut Vec<Piece>,
    text: &mut Text,
    delta: &str,
) -> usize {
    if delta.is_empty() {
        return 0;
    }
    let mut added = 0;
    if let Text::Pieces { first, last } = text {
        if delta.as_bytes().first() != Some(&0xF4) {
            let span = strings.push_in(lane, delta);
            let next = ix(pieces.len());
            match pieces.get_mut(*last as usize) {
                // Nothing was written in between (in the arena or the
                // lane) since this text's last delta.
                Some(p) if p.span.end == span.start => {
                    p.span.end = span.end;
                }
                Some(p) => {
                    p.next = next;
                    *last = next;
                    pieces.push(Piece { span, next: NONE });
                }
                None => {
                    *first = next;
                    *last = next;
                    pieces.push(Piece { span, next: NONE });
                }
            }
            return 0;
        }
        let joined = join(strings, pieces, *first);
        added += joined.len();
        *text = Text::Owned(joined);
    }
    if let Text::Owned(s) = text {
        let before = s.len();
        crate::json::join_text(s, delta);
        added += s.len().saturating_sub(before);
    }
    added
}

/// `table[n] = at`, growing the table with `none`.
fn remember<T: Copy>(table: &mut Vec<T>, n: Name, at: T, none: T) {
    let k = n.index();
    if table.len() <= k {
        table.resize(k + 1, none);
    }
    if let Some(slot) = table.get_mut(k) {
        *slot = at;
    }
}

/// The record `table` holds for name `n`.
fn found(table: &[u32], n: Name) -> Option<usize> {
    table
        .get(n.index())
        .filter(|&&at| at != NONE)
        .map(|&at| at as usize)
}

/// The pieces from `first` on, joined into one string.
fn join(strings: &Arena, pieces: &[Piece], first: u32) -> String {
    let mut s = String::new();
    let mut at = first;
    while let Some(p) = pieces.get(at as usize) {
        s.push_str(strings.get(p.span));
        at = p.next;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{Arena, CHUNK, LANES_FROM, NONE, Piece, Text, append};

    /// However many owners a large run names, the chunks held open stay
    /// within [`LANES`] of them: the arena grows by what is written, not
    /// by a chunk per owner.
    #[test]
    fn many_owners_share_the_lanes() {
        use super::{LANES, lane};
        use crate::checker::names::Name;
        let mut arena = Arena::default();
        arena.push(&"x".repeat(LANES_FROM));
        let owners = 20 * LANES as u32;
        for o in 0..owners {
            let span = arena.push_in(lane(Some(Name::from_index(o))), "delta");
            assert_eq!(arena.get(span), "delta");
        }
        let grown = arena.text.len() - LANES_FROM;
        assert!(grown <= LANES * CHUNK, "{grown} bytes for {owners} owners");
        assert_eq!(lane(None), super::NO_LANE);
        assert!((0..owners).all(|o| (lane(Some(Name::from_index(o))) as usize) < LANES));
    }

    /// The pieces of a text, first to last, as strings.
    fn pieces_of<'a>(arena: &'a Arena, pieces: &[Piece], text: &Text) -> Vec<&'a str> {
        let Text::Pieces { first, .. } = text else {
            return Vec::new();
        };
        let (mut out, mut at) = (Vec::new(), *first);
        while at != NONE {
            let p = pieces[at as usize];
            out.push(arena.get(p.span));
            at = p.next;
        }
        out
    }

    /// Once the arena is large, interleaved deltas of texts in different
    /// lanes land in their lane's chunk: each text stays one piece. A delta
    /// too large for a chunk goes to the end and the text carries on; below
    /// the threshold, interleaved deltas are pieces of their own.
    #[test]
    fn interleaved_texts_stay_whole_in_their_lanes() {
        let mut arena = Arena::default();
        let mut pieces = Vec::new();
        let (mut a, mut b) = (Text::EMPTY, Text::EMPTY);
        append((&mut arena, 1), &mut pieces, &mut a, "a0");
        append((&mut arena, 2), &mut pieces, &mut b, "b0");
        append((&mut arena, 1), &mut pieces, &mut a, "a1");
        assert_eq!(pieces_of(&arena, &pieces, &a), ["a0", "a1"], "small arena");
        arena.push(&"x".repeat(LANES_FROM));
        let (mut a, mut b) = (Text::EMPTY, Text::EMPTY);
        let (mut want_a, mut want_b) = (String::new(), String::new());
        for k in 0..3 * CHUNK / 10 {
            let (da, db) = (format!("é{k} "), format!("\"{k}\n"));
            append((&mut arena, 1), &mut pieces, &mut a, &da);
            arena.push("an id between");
            append((&mut arena, 2), &mut pieces, &mut b, &db);
            want_a.push_str(&da);
            want_b.push_str(&db);
        }
        let (pa, pb) = (
            pieces_of(&arena, &pieces, &a),
            pieces_of(&arena, &pieces, &b),
        );
        // Several chunks each: one piece per chunk.
        assert!(
            pa.len() > 1 && pa.len() <= 1 + want_a.len() / (CHUNK / 2),
            "{}",
            pa.len()
        );
        assert!(
            pb.len() > 1 && pb.len() <= 1 + want_b.len() / (CHUNK / 2),
            "{}",
            pb.len()
        );
        assert_eq!(pa.concat(), want_a);
        assert_eq!(pb.concat(), want_b);
        // Too large for a chunk: at the end, joined in order.
        let big = "z".repeat(CHUNK);
        append((&mut arena, 1), &mut pieces, &mut a, &big);
        append((&mut arena, 1), &mut pieces, &mut a, "tail");
        want_a.push_str(&big);
        want_a.push_str("tail");
        assert_eq!(pieces_of(&arena, &pieces, &a).concat(), want_a);
    }
}
