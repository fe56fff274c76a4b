//! What the consistency warnings remember of the current run: each text
//! message's streamed text and each tool call's name and arguments (part
//! of [`super::book::RunBook`], reset with it, counted by its budget).
//!
//! Every delta goes, back to back, into one buffer for the run, and a text
//! is the chain of its pieces there (the projection keeps its texts the
//! same way): a delta costs a copy, and a piece only when another text's
//! delta came in between; no text allocates on its own. A text is joined
//! only when it is judged (a call's end, a snapshot), into a reused buffer.

use super::names::Name;
use crate::json::as_surrogate;
use std::borrow::Cow;

/// No piece.
const NONE: u32 = u32::MAX;

/// Bytes `start..end` of the run's buffer, and the next piece of the same
/// text.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    next: u32,
}

/// A text: its first and last piece ([`NONE`] when empty).
#[derive(Debug, Clone, Copy)]
struct Chain {
    first: u32,
    last: u32,
}

impl Chain {
    const EMPTY: Chain = Chain {
        first: NONE,
        last: NONE,
    };
}

/// A text message this run streamed (a `TEXT_MESSAGE_START`, explicit or a
/// chunk's): every delta of its id, in order.
#[derive(Debug)]
struct Text {
    chain: Chain,
    /// Index of its first opener: the related event.
    at: u32,
}

/// A tool call this run streamed, as its last opening stated it.
#[derive(Debug, Clone, Copy)]
struct Call {
    /// `toolCallName`, one piece of the buffer.
    tool: Chain,
    /// The argument deltas since that opening.
    args: Chain,
    /// Index of that opening: the related event.
    at: u32,
}

/// Where each name's entry is, by [`Name::index`] ([`NONE`]: none): the
/// run's names are dense, so finding a text costs an index, not a hash.
#[derive(Debug)]
struct Table<T> {
    at: Vec<u32>,
    entries: Vec<T>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            at: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl<T> Table<T> {
    fn get(&self, n: Name) -> Option<&T> {
        let ix = *self.at.get(n.index())?;
        self.entries.get(ix as usize)
    }

    fn get_mut(&mut self, n: Name) -> Option<&mut T> {
        let ix = *self.at.get(n.index())?;
        self.entries.get_mut(ix as usize)
    }

    /// The entry of `n`, made by `new` if it has none.
    fn entry(&mut self, n: Name, new: impl FnOnce() -> T) -> &mut T {
        if self.at.len() <= n.index() {
            self.at.resize(n.index() + 1, NONE);
        }
        let ix = match self.at[n.index()] {
            NONE => {
                self.entries.push(new());
                let ix = index(self.entries.len() - 1);
                self.at[n.index()] = ix;
                ix
            }
            ix => ix,
        };
        let last = self.entries.len() - 1;
        &mut self.entries[(ix as usize).min(last)]
    }

    fn clear(&mut self) {
        self.at.clear();
        self.entries.clear();
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn footprint(&self) -> usize {
        self.at.capacity() * std::mem::size_of::<u32>()
            + self.entries.capacity() * std::mem::size_of::<T>()
    }
}

/// The texts and calls of the run, by their id's name.
#[derive(Debug, Default)]
pub(crate) struct Said {
    texts: Table<Text>,
    calls: Table<Call>,
    /// Every delta of the run, back to back.
    buffer: String,
    pieces: Vec<Piece>,
    /// A text of several pieces, joined to be judged.
    joined: String,
}

/// Saturates, as the book's indexes do.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Appends `delta` to `chain`: into the buffer, growing the chain's last
/// piece when nothing came in between.
fn append(buffer: &mut String, pieces: &mut Vec<Piece>, chain: &mut Chain, delta: &str) {
    if delta.is_empty() {
        return;
    }
    let start = buffer.len();
    buffer.push_str(delta);
    let end = buffer.len();
    if let Some(p) = pieces.get_mut(chain.last as usize)
        && p.end == start
    {
        p.end = end;
        return;
    }
    // Saturates: more pieces than that cannot be in memory.
    let ix = index(pieces.len());
    pieces.push(Piece {
        start,
        end,
        next: NONE,
    });
    match pieces.get_mut(chain.last as usize) {
        Some(p) => p.next = ix,
        None => chain.first = ix,
    }
    chain.last = ix;
}

/// A chain's deltas, concatenated: a slice of the buffer when it is one
/// piece, else joined into `joined`.
fn concat<'a>(buffer: &'a str, pieces: &[Piece], joined: &'a mut String, chain: Chain) -> &'a str {
    if chain.first == chain.last {
        return pieces
            .get(chain.first as usize)
            .map_or("", |p| &buffer[p.start..p.end]);
    }
    joined.clear();
    let mut ix = chain.first;
    while let Some(p) = pieces.get(ix as usize) {
        joined.push_str(&buffer[p.start..p.end]);
        ix = p.next;
    }
    joined
}

/// `s` with each kept high surrogate followed by a kept low one made the
/// character they stand for (crate::json::join_text's pairing, over the
/// whole text: within one delta the parser has paired them already). Kept
/// surrogates are plane-16 characters, whose UTF-8 starts with 0xF4.
fn paired(s: &str) -> Cow<'_, str> {
    if memchr::memchr(0xF4, s.as_bytes()).is_none() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(high @ 0xD800..=0xDBFF) = as_surrogate(c)
            && let Some(low @ 0xDC00..=0xDFFF) = chars.peek().and_then(|&n| as_surrogate(n))
        {
            chars.next();
            let cp = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

impl Said {
    /// Forgets the run (keeping capacity: the next run is likely of the
    /// same size).
    pub(crate) fn clear(&mut self) {
        self.texts.clear();
        self.calls.clear();
        self.buffer.clear();
        self.pieces.clear();
    }

    /// Changes whenever what is held may have grown (a buffer that took
    /// more room; entries come with new names, which the book counts).
    pub(crate) fn growth(&self) -> usize {
        self.buffer.capacity() + self.pieces.capacity() + self.joined.capacity()
    }

    /// The bytes held (by capacity).
    pub(crate) fn footprint(&self) -> usize {
        self.buffer.capacity()
            + self.joined.capacity()
            + self.pieces.capacity() * std::mem::size_of::<Piece>()
            + self.texts.footprint()
            + self.calls.footprint()
    }

    /// Nothing streamed in this run yet.
    pub(crate) fn is_empty(&self) -> bool {
        self.texts.is_empty() && self.calls.is_empty()
    }

    /// A `TEXT_MESSAGE_START` of the id named `n` at `at` (a reopened id
    /// keeps its text: the projection shows one entry per id).
    pub(crate) fn text_started(&mut self, n: Name, at: usize) {
        self.texts.entry(n, || Text {
            chain: Chain::EMPTY,
            at: index(at),
        });
    }

    /// A content delta of the open text message named `n`.
    pub(crate) fn text_delta(&mut self, n: Name, delta: &str) {
        if let Some(t) = self.texts.get_mut(n) {
            append(&mut self.buffer, &mut self.pieces, &mut t.chain, delta);
        }
    }

    /// A `TOOL_CALL_START` of the call named `n`, for the tool `tool`, at
    /// `at`: its arguments start empty.
    pub(crate) fn call_started(&mut self, n: Name, tool: &str, at: usize) {
        let mut name = Chain::EMPTY;
        append(&mut self.buffer, &mut self.pieces, &mut name, tool);
        let call = Call {
            tool: name,
            args: Chain::EMPTY,
            at: index(at),
        };
        *self.calls.entry(n, || call) = call;
    }

    /// An argument delta of the open call named `n`.
    pub(crate) fn call_args(&mut self, n: Name, delta: &str) {
        if let Some(c) = self.calls.get_mut(n) {
            append(&mut self.buffer, &mut self.pieces, &mut c.args, delta);
        }
    }

    /// The text streamed for the message named `n` (a pair split across
    /// deltas joined, as UTF-16 code units join), and its opener's index,
    /// if this run streamed it.
    pub(crate) fn text(&mut self, n: Name) -> Option<(Cow<'_, str>, usize)> {
        let t = self.texts.get(n)?;
        let at = t.at as usize;
        let text = concat(&self.buffer, &self.pieces, &mut self.joined, t.chain);
        Some((paired(text), at))
    }

    /// The opener's index of the call named `n`, if this run streamed it.
    pub(crate) fn call_at(&self, n: Name) -> Option<usize> {
        self.calls.get(n).map(|c| c.at as usize)
    }

    /// The tool name of the call named `n`, as its opening stated it.
    pub(crate) fn tool(&mut self, n: Name) -> Option<&str> {
        let c = self.calls.get(n)?;
        Some(concat(&self.buffer, &self.pieces, &mut self.joined, c.tool))
    }

    /// The arguments streamed for the call named `n` since its opening,
    /// joined as [`Said::text`] joins a text.
    pub(crate) fn args(&mut self, n: Name) -> Option<Cow<'_, str>> {
        let c = self.calls.get(n)?;
        let args = concat(&self.buffer, &self.pieces, &mut self.joined, c.args);
        Some(paired(args))
    }

    /// The same, the deltas only concatenated: whether they are one JSON
    /// value does not depend on how kept surrogates pair (any character
    /// may stand in a string, none outside one).
    pub(crate) fn args_concatenated(&mut self, n: Name) -> Option<&str> {
        let c = self.calls.get(n)?;
        Some(concat(&self.buffer, &self.pieces, &mut self.joined, c.args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_texts_keep_their_own_deltas_in_order() {
        let mut s = Said::default();
        let (a, b) = (Name::from_index(0), Name::from_index(1));
        s.text_started(a, 1);
        s.call_started(b, "search", 2);
        for (n, d) in [
            (a, "Hel"),
            (a, "lo"),
            (b, "{\"q\":"),
            (a, ", "),
            (b, "1}"),
            (a, "you"),
        ] {
            if n == a {
                s.text_delta(n, d);
            } else {
                s.call_args(n, d);
            }
        }
        assert_eq!(
            s.text(a).map(|(t, at)| (t.into_owned(), at)),
            Some(("Hello, you".into(), 1))
        );
        assert_eq!(s.args(b).as_deref(), Some("{\"q\":1}"));
        // Consecutive deltas of one text share a piece (the tool name is one).
        assert_eq!(s.pieces.len(), 6);
        // A new opening of a call starts its arguments afresh.
        s.call_started(b, "fetch", 7);
        assert_eq!(s.args(b).as_deref(), Some(""));
        assert_eq!(s.call_at(b), Some(7));
        assert_eq!(s.tool(b), Some("fetch"));
        s.clear();
        assert!(s.is_empty() && s.text(a).is_none());
    }

    #[test]
    fn a_pair_split_across_deltas_is_one_character() {
        let mut s = Said::default();
        let (a, b) = (Name::from_index(0), Name::from_index(1));
        s.text_started(a, 0);
        s.text_started(b, 0);
        s.text_delta(a, "a\u{10F83D}");
        s.text_delta(b, "x");
        s.text_delta(a, "\u{10FE00}b");
        assert_eq!(
            s.text(a).map(|(t, _)| t.into_owned()).as_deref(),
            Some("a😀b")
        );
        // An unpaired one stays as it was kept.
        assert_eq!(paired("\u{10FE00}\u{10F83D}"), "\u{10FE00}\u{10F83D}");
        assert!(matches!(paired("plain"), Cow::Borrowed(_)));
    }
}
