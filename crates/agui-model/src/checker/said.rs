//! What the consistency warnings remember of the current run (part of
//! [`super::book::RunBook`], reset with it, counted by its budget):
//!
//! - each text message's streamed text, compared by its [`Print`]: the
//!   deltas are copied into one buffer of the run (a text is the chain of
//!   its pieces there, as the projection keeps its texts), and once that
//!   buffer holds [`FOLD_BYTES`] (or an eighth of the budget) every text is
//!   folded into its print and the buffer emptied. A run of long messages
//!   thus holds a bounded buffer and a print per message, and only such a
//!   run pays for printing its texts;
//! - each tool call's name (interned) and, while it is open, its arguments
//!   as text, to be read as JSON when it ends; then their print;
//! - beside each print, the [`Ends`] of the text it was fed (its first and
//!   last [`KEPT`] bytes and its length), so a disagreement can be shown
//!   around its first difference (crate::difference). Texts keep them only
//!   for what was folded (the pieces in the buffer are the rest), filled as
//!   the fold walks them: a text delta costs nothing more.

use super::names::Name;
use crate::difference::Known;
use crate::json::as_surrogate;

/// No entry.
const NONE: u32 = u32::MAX;

/// The Mersenne prime 2^61 − 1, the modulus of the prints.
const P: u64 = (1 << 61) - 1;

/// The two bases of a print (fixed, so that a check is reproducible).
const BASES: [u64; 2] = [0x0b2d_9a8e_5f13_c741, 0x1c6e_3f70_a259_d84b];

/// `a · b`, congruent modulo P and folded below 2^62, for `a < 2^63` and
/// `b < P` (2^61 ≡ 1: the bits above 61 add to the bits below).
#[inline(always)]
fn mul(a: u64, b: u64) -> u64 {
    let x = u128::from(a) * u128::from(b);
    let s = (x as u64 & P) + (x >> 61) as u64;
    (s & P) + (s >> 61)
}

/// `a · b mod P`, for the constants below.
const fn mul_mod(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % P as u128) as u64
}

/// Each base squared modulo P: two words absorbed in one step
/// ([`Print::absorb2`]).
const SQUARES: [u64; 2] = [mul_mod(BASES[0], BASES[0]), mul_mod(BASES[1], BASES[1])];

/// `h` reduced modulo P.
fn reduce(h: u64) -> u64 {
    let s = (h & P) + (h >> 61);
    if s >= P { s - P } else { s }
}

/// The fingerprint of a text fed in pieces, the same whatever the pieces:
/// the text as 7-byte words (each below P, so distinct texts of one length
/// are distinct word sequences), a polynomial in each of [`BASES`] modulo
/// P, and the length. Two different texts of L words have the same print
/// with a probability of about (L / 2^61)^2: compared by print, strings
/// are compared exactly but for that.
///
/// Fed as deltas join, as UTF-16 code units: a kept high surrogate ending
/// one delta is held back, and paired with a kept low one starting the
/// next ([`crate::json::join_text`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Print {
    h: [u64; 2],
    len: u64,
    /// Up to 6 bytes not yet a word, little-endian, and how many.
    tail: u64,
    tail_len: u8,
    /// A kept high surrogate code unit that ended the last delta (0: none).
    held: u16,
}

/// The kept form of a high surrogate (`U+10F800 + k`).
fn kept(unit: u16) -> char {
    char::from_u32(crate::json::SURROGATE_BASE + u32::from(unit) - 0xD800).unwrap_or('\u{FFFD}')
}

impl Print {
    /// A print of `text` read as one delta.
    pub(crate) fn of(text: &str) -> Print {
        let mut p = Print::default();
        p.feed(text);
        p
    }

    /// A print of deltas concatenated as they came: a kept high surrogate
    /// followed by a kept low one is paired wherever it stands, which is
    /// where two deltas met (one delta's parse pairs its own).
    pub(crate) fn of_joined(text: &str) -> Print {
        let mut p = Print::default();
        if memchr::memchr(0xF4, text.as_bytes()).is_none() {
            p.feed_bytes(text.as_bytes());
            return p;
        }
        let mut from = 0;
        for (i, c) in text.char_indices() {
            if as_surrogate(c).is_some_and(|u| (0xDC00..=0xDFFF).contains(&u)) {
                // Where two deltas may have met: just before a kept low one.
                p.feed(&text[from..i]);
                from = i;
            }
        }
        p.feed(&text[from..]);
        p
    }

    /// One word: `h · base + word` in each lane, kept below 2^63 (reduced
    /// only when finished).
    #[inline(always)]
    fn absorb(&mut self, word: u64) {
        for (h, base) in self.h.iter_mut().zip(BASES) {
            *h = mul(*h, base) + word;
        }
    }

    /// Two words at once: `h · base² + first · base + second`, the same
    /// value modulo P as absorbing them one after the other, but with one
    /// multiply on the chain through `h` instead of two (the other is
    /// independent of it). Each product is below 2^61 + 8, so the sum
    /// stays below 2^63.
    #[inline(always)]
    fn absorb2(&mut self, first: u64, second: u64) {
        for ((h, base), square) in self.h.iter_mut().zip(BASES).zip(SQUARES) {
            *h = mul(*h, square) + mul(first, base) + second;
        }
    }

    fn feed_bytes(&mut self, mut b: &[u8]) {
        self.len += b.len() as u64;
        if self.tail_len > 0 {
            let need = usize::from(7 - self.tail_len).min(b.len());
            for &c in &b[..need] {
                self.tail |= u64::from(c) << (8 * u32::from(self.tail_len));
                self.tail_len += 1;
            }
            b = &b[need..];
            if self.tail_len < 7 {
                return;
            }
            let w = std::mem::take(&mut self.tail);
            self.tail_len = 0;
            self.absorb(w);
        }
        // Fourteen bytes at a time (two words), then seven, each read as
        // eight while there are (one load a word).
        const WORD: u64 = (1 << 56) - 1;
        while let Some(fifteen) = b.first_chunk::<15>() {
            let (mut first, mut second) = ([0u8; 8], [0u8; 8]);
            first.copy_from_slice(&fifteen[..8]);
            second.copy_from_slice(&fifteen[7..]);
            self.absorb2(
                u64::from_le_bytes(first) & WORD,
                u64::from_le_bytes(second) & WORD,
            );
            b = &b[14..];
        }
        while let Some(eight) = b.first_chunk::<8>() {
            self.absorb(u64::from_le_bytes(*eight) & ((1 << 56) - 1));
            b = &b[7..];
        }
        let mut last = [0u8; 8];
        last[..b.len()].copy_from_slice(b);
        let w = u64::from_le_bytes(last);
        if b.len() == 7 {
            self.absorb(w);
        } else {
            self.tail = w;
            self.tail_len = b.len() as u8;
        }
    }

    fn feed_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.feed_bytes(c.encode_utf8(&mut buf).as_bytes());
    }

    /// Appends one delta. Kept surrogates are plane-16 characters, whose
    /// UTF-8 starts with 0xF4: only then is a character decoded.
    pub(crate) fn feed(&mut self, delta: &str) {
        let mut rest = delta;
        if self.held != 0 {
            let high = std::mem::take(&mut self.held);
            let low = (rest.as_bytes().first() == Some(&0xF4))
                .then(|| rest.chars().next().and_then(as_surrogate))
                .flatten()
                .filter(|u| (0xDC00..=0xDFFF).contains(u));
            match low {
                Some(low) => {
                    let cp =
                        0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                    self.feed_char(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                    rest = &rest[4..];
                }
                None => self.feed_char(kept(high)),
            }
        }
        let n = rest.len();
        if n >= 4
            && rest.as_bytes()[n - 4] == 0xF4
            && let Some(high @ 0xD800..=0xDBFF) =
                rest[n - 4..].chars().next().and_then(as_surrogate)
        {
            self.held = high;
            rest = &rest[..n - 4];
        }
        self.feed_bytes(rest.as_bytes());
    }

    /// The print of what was fed: a held surrogate stays unpaired, the
    /// tail is a last word (the length, part of the print, says how long).
    pub(crate) fn finish(mut self) -> ([u64; 2], u64) {
        if self.held != 0 {
            let high = std::mem::take(&mut self.held);
            self.feed_char(kept(high));
        }
        if self.tail_len > 0 {
            let w = self.tail;
            self.absorb(w);
        }
        (self.h.map(reduce), self.len)
    }
}

/// Bytes kept of each end of a folded text or of a call's arguments: a text
/// of up to twice as many is kept whole. Enough for
/// [`crate::difference::CONTEXT`] + [`crate::difference::SHOWN`]
/// characters of ASCII around a difference near either end.
pub(crate) const KEPT: usize = 64;

/// The first and last [`KEPT`] bytes of a text fed in pieces (each end
/// cut on a character boundary, so at most that), and its length: what a
/// disagreement shows of a text no longer kept whole. Fixed size, no
/// allocation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ends {
    head: [u8; KEPT],
    tail: [u8; KEPT],
    head_len: u8,
    tail_len: u8,
    /// The head stopped short of a piece: it takes no more.
    head_full: bool,
    len: u64,
}

impl Default for Ends {
    fn default() -> Self {
        Ends {
            head: [0; KEPT],
            tail: [0; KEPT],
            head_len: 0,
            tail_len: 0,
            head_full: false,
            len: 0,
        }
    }
}

/// The last character boundary of `s` at or before `i` (`str::
/// floor_char_boundary`, stable only since Rust 1.91).
fn floor_boundary(s: &str, i: usize) -> usize {
    (0..=i.min(s.len()))
        .rev()
        .find(|&k| s.is_char_boundary(k))
        .unwrap_or(0)
}

/// The first character boundary of `s` at or after `i`.
fn ceil_boundary(s: &str, i: usize) -> usize {
    (i..s.len())
        .find(|&k| s.is_char_boundary(k))
        .unwrap_or(s.len())
}

impl Ends {
    /// The ends of `text`.
    pub(crate) fn of(text: &str) -> Ends {
        let mut e = Ends::default();
        e.push(text);
        e
    }

    /// Appends a piece.
    pub(crate) fn push(&mut self, s: &str) {
        self.len += s.len() as u64;
        let b = s.as_bytes();
        if !self.head_full {
            let from = usize::from(self.head_len);
            let take = floor_boundary(s, KEPT - from);
            self.head[from..from + take].copy_from_slice(&b[..take]);
            self.head_len += take as u8;
            self.head_full = take < b.len();
        }
        if b.len() >= KEPT {
            let t = &b[ceil_boundary(s, b.len() - KEPT)..];
            self.tail[..t.len()].copy_from_slice(t);
            self.tail_len = t.len() as u8;
            return;
        }
        let old = usize::from(self.tail_len);
        // Drop what no longer fits, then up to a character's start.
        let mut drop = (old + b.len()).saturating_sub(KEPT);
        while drop < old && self.tail[drop] & 0xC0 == 0x80 {
            drop += 1;
        }
        self.tail.copy_within(drop..old, 0);
        let keep = old - drop;
        self.tail[keep..keep + b.len()].copy_from_slice(b);
        self.tail_len = (keep + b.len()) as u8;
    }

    /// What is known of the text, followed by `rest` (joined as deltas
    /// join): whole when the ends meet.
    pub(crate) fn known_then(&self, rest: &str) -> Known {
        let head = std::str::from_utf8(&self.head[..usize::from(self.head_len)]).unwrap_or("");
        let tail = std::str::from_utf8(&self.tail[..usize::from(self.tail_len)]).unwrap_or("");
        let len = usize::try_from(self.len).unwrap_or(usize::MAX);
        if head.len() + tail.len() >= len {
            let mut whole = head.to_owned();
            whole.push_str(tail.get(head.len() + tail.len() - len..).unwrap_or(""));
            crate::json::join_text(&mut whole, rest);
            return Known::whole(&whole);
        }
        let mut tail = tail.to_owned();
        crate::json::join_text(&mut tail, rest);
        let len = len + tail.len() - usize::from(self.tail_len);
        Known {
            head: head.to_owned(),
            tail,
            len,
        }
    }
}

/// Where each name's entry is, by [`Name::index`] ([`NONE`]: none): the
/// run's names are dense, so finding an entry costs an index, not a hash.
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
    fn entry(&mut self, n: Name, new: impl FnOnce() -> T) -> Option<&mut T> {
        if self.at.len() <= n.index() {
            self.at.resize(n.index() + 1, NONE);
        }
        let slot = self.at.get_mut(n.index())?;
        if *slot == NONE {
            *slot = index(self.entries.len());
            self.entries.push(new());
        }
        self.entries.get_mut(*slot as usize)
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

/// Saturates, as the book's indexes do.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// How much streamed text the run's buffer holds before every text is
/// folded into its print (at most; an eighth of the bookkeeping budget
/// when that is less): a bound on what texts cost the bookkeeping, and
/// what a run streams without printing anything.
pub(crate) const FOLD_BYTES: usize = 1 << 20;

/// Bytes `start..end` of the run's buffer, and the next piece of the same
/// text.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    next: u32,
}

/// A text's pieces in the buffer, first and last ([`NONE`] when empty).
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
/// chunk's): every delta of its id, in order: the print of what was
/// folded, then the pieces in the buffer since.
#[derive(Debug)]
struct Text {
    print: Print,
    chain: Chain,
    /// Where the ends of what was folded into `print` are in
    /// [`Said::ends`] ([`NONE`] until a fold folds some of it).
    ends: u32,
    /// Index of its first opener: the related event.
    at: u32,
}

/// Appends `delta` to `chain` in the buffer: the chain's last piece grows
/// when nothing came in between, unless the delta starts with a kept
/// surrogate (0xF4), where a pair split across deltas may join: each
/// piece is then printed as one delta ([`Print::feed`]).
fn append(buffer: &mut String, pieces: &mut Vec<Piece>, chain: &mut Chain, delta: &str) {
    if delta.is_empty() {
        return;
    }
    let start = buffer.len();
    buffer.push_str(delta);
    let end = buffer.len();
    if let Some(p) = pieces.get_mut(chain.last as usize)
        && p.end == start
        && delta.as_bytes()[0] != 0xF4
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

/// `print` fed the pieces of `chain`.
fn printed(mut print: Print, buffer: &str, pieces: &[Piece], chain: Chain) -> Print {
    let mut ix = chain.first;
    while let Some(p) = pieces.get(ix as usize) {
        print.feed(&buffer[p.start..p.end]);
        ix = p.next;
    }
    print
}

/// A tool call this run streamed, as its last opening stated it.
#[derive(Debug)]
struct Call {
    /// `toolCallName`.
    tool: Name,
    /// Its arguments as text while the call is open (to be read as JSON
    /// when it ends); their print once it ended.
    args: String,
    print: Print,
    /// Where the ends of the arguments are in [`Said::ends`], once the
    /// call ended ([`NONE`] before).
    ends: u32,
    /// The arguments' print as a JSON value, when they are one
    /// ([`super::json_value_print`]): compared with a snapshot's as values.
    canon: Option<u64>,
    /// Index of that opening: the related event.
    at: u32,
}

/// The texts and calls of the run, by their id's name.
#[derive(Debug, Default)]
pub(crate) struct Said {
    texts: Table<Text>,
    calls: Table<Call>,
    /// The text deltas since the last fold, back to back.
    buffer: String,
    pieces: Vec<Piece>,
    /// Strings of ended calls' arguments, emptied, for the next calls to
    /// take (no allocation per call once the run has a few).
    spare: Vec<String>,
    /// The bytes the open calls' arguments and the spare strings hold (by
    /// capacity).
    held: usize,
    /// The [`Ends`] of folded texts and ended calls, side by side (no
    /// allocation per entry).
    ends: Vec<Ends>,
}

/// The longest string kept spare, and how many.
const SPARE_BYTES: usize = 4096;
const SPARE_COUNT: usize = 64;

impl Said {
    /// Forgets the run (keeping capacity: the next run is likely of the
    /// same size).
    pub(crate) fn clear(&mut self) {
        self.texts.clear();
        self.calls.clear();
        self.buffer.clear();
        self.pieces.clear();
        self.spare.clear();
        self.held = 0;
        self.ends.clear();
    }

    /// Takes a string for a call's arguments.
    fn take(&mut self) -> String {
        self.spare.pop().unwrap_or_default()
    }

    /// Gives back a call's arguments: kept spare if short, else freed.
    fn give(&mut self, mut args: String) {
        if args.capacity() <= SPARE_BYTES && self.spare.len() < SPARE_COUNT {
            args.clear();
            self.spare.push(args);
        } else {
            self.held = self.held.saturating_sub(args.capacity());
        }
    }

    /// Changes whenever what is held may have grown: the buffer taking more
    /// room, or the arguments' strings another 4 KiB (entries come with new
    /// names, which the book counts). The budget is measured only then.
    pub(crate) fn growth(&self) -> usize {
        (self.held >> 12) + self.buffer.capacity() + self.pieces.capacity() + self.ends.capacity()
    }

    /// The bytes held (by capacity).
    pub(crate) fn footprint(&self) -> usize {
        self.held
            + self.buffer.capacity()
            + self.pieces.capacity() * std::mem::size_of::<Piece>()
            + self.texts.footprint()
            + self.calls.footprint()
            + self.ends.capacity() * std::mem::size_of::<Ends>()
    }

    /// Nothing streamed in this run yet.
    pub(crate) fn is_empty(&self) -> bool {
        self.texts.is_empty() && self.calls.is_empty()
    }

    /// A `TEXT_MESSAGE_START` of the id named `n` at `at` (a reopened id
    /// goes on with its text: the projection shows one entry per id).
    pub(crate) fn text_started(&mut self, n: Name, at: usize) {
        self.texts.entry(n, || Text {
            print: Print::default(),
            chain: Chain::EMPTY,
            ends: NONE,
            at: index(at),
        });
    }

    /// A content delta of the open text message named `n`; the texts are
    /// folded once the buffer holds `fold_at` bytes.
    pub(crate) fn text_delta(&mut self, n: Name, delta: &str, fold_at: usize) {
        if let Some(t) = self.texts.get_mut(n) {
            append(&mut self.buffer, &mut self.pieces, &mut t.chain, delta);
            if self.buffer.len() >= fold_at {
                self.fold();
            }
        }
    }

    /// Prints every text's pieces and empties the buffer.
    fn fold(&mut self) {
        for t in &mut self.texts.entries {
            t.print = printed(t.print, &self.buffer, &self.pieces, t.chain);
            if t.chain.first != NONE && t.ends == NONE {
                t.ends = index(self.ends.len());
                self.ends.push(Ends::default());
            }
            if let Some(ends) = self.ends.get_mut(t.ends as usize) {
                let mut ix = t.chain.first;
                while let Some(p) = self.pieces.get(ix as usize) {
                    ends.push(&self.buffer[p.start..p.end]);
                    ix = p.next;
                }
            }
            t.chain = Chain::EMPTY;
        }
        self.buffer.clear();
        self.pieces.clear();
    }

    /// A `TOOL_CALL_START` of the call named `n`, for the tool named
    /// `tool`, at `at`: its arguments start empty.
    pub(crate) fn call_started(&mut self, n: Name, tool: Name, at: usize) {
        let args = self.take();
        let call = Call {
            tool,
            args,
            print: Print::default(),
            ends: NONE,
            canon: None,
            at: index(at),
        };
        match self.calls.get_mut(n) {
            Some(c) => {
                // Its ends' slot is reused when it ends again.
                let call = Call {
                    ends: c.ends,
                    ..call
                };
                let old = std::mem::replace(c, call);
                self.give(old.args);
            }
            None => {
                self.calls.entry(n, || call);
            }
        }
    }

    /// An argument delta of the open call named `n`.
    pub(crate) fn call_args(&mut self, n: Name, delta: &str) {
        if let Some(c) = self.calls.get_mut(n) {
            let before = c.args.capacity();
            c.args.push_str(delta);
            self.held += c.args.capacity() - before;
        }
    }

    /// The call named `n` ends: `judge` reads its arguments, which are then
    /// printed and let go.
    pub(crate) fn call_ended<R>(
        &mut self,
        n: Name,
        judge: impl FnOnce(&str, usize, bool) -> R,
    ) -> Option<R> {
        let c = self.calls.get_mut(n)?;
        let args = std::mem::take(&mut c.args);
        c.print = Print::of_joined(&args);
        match self.ends.get_mut(c.ends as usize) {
            Some(e) => *e = Ends::of(&args),
            None => {
                c.ends = index(self.ends.len());
                self.ends.push(Ends::of(&args));
            }
        }
        c.canon = super::json_value_print::value_print(&args);
        // Read as one JSON value already (up to its depth bound).
        let judged = judge(&args, c.at as usize, c.canon.is_some());
        self.give(args);
        Some(judged)
    }

    /// The print of the text streamed for the message named `n`, and its
    /// opener's index, if this run streamed it.
    pub(crate) fn text(&self, n: Name) -> Option<(Print, usize)> {
        let t = self.texts.get(n)?;
        let print = printed(t.print, &self.buffer, &self.pieces, t.chain);
        Some((print, t.at as usize))
    }

    /// What is known of the text streamed for the message named `n`: all
    /// of it while it is in the buffer, else the [`Ends`] of what was
    /// folded followed by the rest.
    pub(crate) fn text_known(&self, n: Name) -> Option<Known> {
        let t = self.texts.get(n)?;
        let mut rest = String::new();
        let mut ix = t.chain.first;
        while let Some(p) = self.pieces.get(ix as usize) {
            crate::json::join_text(&mut rest, &self.buffer[p.start..p.end]);
            ix = p.next;
        }
        Some(match self.ends.get(t.ends as usize) {
            Some(ends) => ends.known_then(&rest),
            None => Known::whole(&rest),
        })
    }

    /// What is known of the arguments of the ended call named `n`.
    pub(crate) fn call_known(&self, n: Name) -> Option<Known> {
        let c = self.calls.get(n)?;
        Some(
            self.ends
                .get(c.ends as usize)
                .map_or_else(|| Known::whole(""), |e| e.known_then("")),
        )
    }

    /// The tool name, the print of the arguments of the call named `n`
    /// (and of their canonical JSON form, when they are one value), and
    /// its opener's index, if this run streamed it.
    pub(crate) fn call(&self, n: Name) -> Option<(Name, Print, Option<u64>, usize)> {
        self.calls
            .get(n)
            .map(|c| (c.tool, c.print, c.canon, c.at as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(deltas: &[&str]) -> ([u64; 2], u64) {
        let mut p = Print::default();
        for d in deltas {
            p.feed(d);
        }
        p.finish()
    }

    /// The print's definition, one 7-byte word at a time, reduced at
    /// every step.
    fn defined(text: &[u8]) -> ([u64; 2], u64) {
        let mut h = [0u64; 2];
        for word in text.chunks(7) {
            let mut w = [0u8; 8];
            w[..word.len()].copy_from_slice(word);
            for (h, base) in h.iter_mut().zip(BASES) {
                *h = (mul_mod(*h, base) + u64::from_le_bytes(w)) % P;
            }
        }
        (h, text.len() as u64)
    }

    #[test]
    fn a_print_is_its_polynomial_whichever_step_absorbed_the_words() {
        // Lengths across the one- and two-word steps and the tail, bytes
        // up to 0xFF (the words' top byte is masked off).
        let text: Vec<u8> = (0..200u32).map(|i| (i * 97 + 13) as u8).collect();
        for len in 0..text.len() {
            let mut p = Print::default();
            p.feed_bytes(&text[..len]);
            assert_eq!(p.finish(), defined(&text[..len]), "{len} bytes");
        }
    }

    #[test]
    fn a_print_does_not_depend_on_how_the_text_was_cut() {
        let text = "Hello, wörld: {\"a\": [1, 2, 3]} ✓ and some more words";
        let whole = Print::of(text).finish();
        for cut in 0..text.len() {
            if let (Some(a), Some(b)) = (text.get(..cut), text.get(cut..)) {
                assert_eq!(fed(&[a, b]), whole, "{cut}");
                for cut2 in cut..text.len() {
                    if let (Some(b1), Some(b2)) = (text.get(cut..cut2), text.get(cut2..)) {
                        assert_eq!(fed(&[a, b1, b2]), whole, "{cut} {cut2}");
                    }
                }
            }
        }
        assert_eq!(fed(&[]), Print::of("").finish());
    }

    #[test]
    fn different_texts_have_different_prints() {
        let texts = [
            "", "a", "b", "ab", "ba", "a\0", "\0a", "aaaaaaa", "aaaaaab", "aaaaaaaa", "Hello",
            "Hello!", "Hello ", "hello", "1234567", "12345678", "123456",
        ];
        let prints: Vec<_> = texts.iter().map(|t| Print::of(t).finish()).collect();
        for i in 0..texts.len() {
            for j in 0..i {
                assert_ne!(prints[i], prints[j], "{:?} {:?}", texts[i], texts[j]);
            }
        }
    }

    #[test]
    fn a_pair_split_across_deltas_is_one_character() {
        // As a JavaScript consumer joins UTF-16 code units.
        assert_eq!(
            fed(&["a\u{10F83D}", "\u{10FE00}b"]),
            Print::of("a😀b").finish()
        );
        // Unpaired, a kept surrogate stays what it is, wherever it ends.
        assert_eq!(
            fed(&["a\u{10F83D}", "b"]),
            Print::of("a\u{10F83D}b").finish()
        );
        assert_eq!(fed(&["a\u{10F83D}"]), Print::of("a\u{10F83D}").finish());
        assert_ne!(
            fed(&["a\u{10F83D}", "\u{10FE00}"]),
            Print::of("a\u{10F83D}\u{10FE00}x").finish()
        );
    }

    /// The print of the text streamed for `n`.
    fn print_of(s: &Said, n: Name) -> ([u64; 2], u64) {
        s.text(n).map(|(p, _)| p.finish()).unwrap_or_default()
    }

    #[test]
    fn texts_interleave_and_fold_as_fed_delta_by_delta() {
        let mut s = Said::default();
        let (a, b) = (Name::from_index(0), Name::from_index(1));
        s.text_started(a, 1);
        s.text_started(b, 2);
        // Past the fold threshold twice, interleaved with b's deltas; pairs
        // split across deltas, one of them across a fold.
        let big = "x".repeat(300_000);
        let deltas_a = [
            big.as_str(),
            "a\u{10F83D}",
            "\u{10FE00}b",
            &big,
            &big,
            "c\u{10F83D}",
            "\u{10FE00}",
            &big,
            "d\u{10F83D}",
            &big,
            "\u{10FE00}",
        ];
        let (mut want_a, mut want_b) = (Print::default(), Print::default());
        for (k, d) in deltas_a.iter().enumerate() {
            s.text_delta(a, d, FOLD_BYTES);
            want_a.feed(d);
            let db = format!("{k},");
            s.text_delta(b, &db, FOLD_BYTES);
            want_b.feed(&db);
        }
        assert!(s.buffer.len() < FOLD_BYTES && s.buffer.len() > 300_000);
        assert_eq!(print_of(&s, a), want_a.finish());
        assert_eq!(print_of(&s, b), want_b.finish());
        // Each pair split across deltas is one character; the lone ones
        // stay as kept.
        let whole = [
            big.as_str(),
            "a😀b",
            &big,
            &big,
            "c😀",
            &big,
            "d\u{10F83D}",
            &big,
            "\u{10FE00}",
        ]
        .concat();
        assert_eq!(print_of(&s, a), Print::of(&whole).finish());
        assert_eq!(s.text(a).map(|(_, at)| at), Some(1));
    }

    #[test]
    fn a_pair_split_between_contiguous_deltas_stays_two_pieces() {
        // One text alone: its deltas lie back to back in the buffer.
        let mut s = Said::default();
        let a = Name::from_index(0);
        s.text_started(a, 0);
        for d in ["a\u{10F83D}", "\u{10FE00}b", "c"] {
            s.text_delta(a, d, FOLD_BYTES);
        }
        assert_eq!(s.pieces.len(), 2);
        assert_eq!(print_of(&s, a), Print::of("a😀bc").finish());
    }

    #[test]
    fn after_a_fold_texts_start_new_chains() {
        let mut s = Said::default();
        let (a, b) = (Name::from_index(0), Name::from_index(1));
        s.text_started(a, 0);
        s.text_started(b, 0);
        s.text_delta(b, "0", 16);
        for k in 0..5 {
            s.text_delta(a, &format!("a{k}"), 16);
        }
        s.text_delta(a, &"x".repeat(16), 16);
        assert!(s.buffer.is_empty(), "folded");
        for k in 1..10 {
            s.text_delta(b, &format!("{k}"), 16);
        }
        s.text_delta(a, "y", 16);
        let a_text = format!("a0a1a2a3a4{}y", "x".repeat(16));
        assert_eq!(print_of(&s, a), Print::of(&a_text).finish());
        assert_eq!(print_of(&s, b), Print::of("0123456789").finish());
    }

    #[test]
    fn deltas_concatenated_print_as_they_were_fed() {
        for deltas in [
            &["{\"a\": \"x\u{10F83D}", "\u{10FE00}\"}"][..],
            &["\u{10F83D}", "\u{10F83D}", "\u{10FE00}", "\u{10FE00}"],
            &["plain", " text"],
        ] {
            assert_eq!(
                Print::of_joined(&deltas.concat()).finish(),
                fed(deltas),
                "{deltas:?}"
            );
        }
    }

    #[test]
    fn ends_keep_the_first_and_last_bytes_on_character_boundaries() {
        let k = |e: &Ends| e.known_then("");
        // Short texts are whole, however they were cut.
        let mut e = Ends::default();
        for piece in ["Hel", "lo", "", " world"] {
            e.push(piece);
        }
        assert_eq!(k(&e), Known::whole("Hello world"));
        // Up to twice KEPT bytes: the ends meet, whole again.
        let text = format!("{}{}", "a".repeat(KEPT), "b".repeat(KEPT));
        assert_eq!(k(&Ends::of(&text)), Known::whole(&text));
        // Longer: the first and last KEPT bytes, pieces long and short.
        let text = format!("{}{}{}", "a".repeat(KEPT), "-".repeat(10), "b".repeat(KEPT));
        let want = Known {
            head: "a".repeat(KEPT),
            tail: "b".repeat(KEPT),
            len: 2 * KEPT + 10,
        };
        assert_eq!(k(&Ends::of(&text)), want);
        let mut e = Ends::default();
        for c in text.as_bytes().chunks(7) {
            e.push(std::str::from_utf8(c).unwrap());
        }
        assert_eq!(k(&e), want);
        // Two-byte characters straddling either limit are left out whole.
        let text = format!(
            "{}é{}{}é{}",
            "a".repeat(KEPT - 1),
            "-".repeat(10),
            "b",
            "c".repeat(KEPT - 2)
        );
        let got = k(&Ends::of(&text));
        assert_eq!(got.head, "a".repeat(KEPT - 1));
        assert_eq!(got.tail, format!("é{}", "c".repeat(KEPT - 2)));
        assert_eq!(got.len, text.len());
        let mut e = Ends::default();
        for c in text.chars() {
            e.push(c.encode_utf8(&mut [0; 4]));
        }
        assert_eq!(k(&e), got);
        // What follows the ends joins the tail.
        assert_eq!(
            Ends::of(&text).known_then("!").tail,
            format!("é{}!", "c".repeat(KEPT - 2))
        );
    }

    #[test]
    fn a_folded_text_is_known_by_its_ends_and_the_pieces_since() {
        let mut s = Said::default();
        let (a, b) = (Name::from_index(0), Name::from_index(1));
        s.text_started(a, 0);
        s.text_started(b, 0);
        s.text_delta(b, "short", 64);
        assert_eq!(s.text_known(b), Some(Known::whole("short")));
        s.text_delta(a, &"x".repeat(200), 64);
        assert!(s.buffer.is_empty(), "folded");
        s.text_delta(a, "yz", 64);
        s.text_delta(b, " one", 64);
        assert_eq!(
            s.text_known(a),
            Some(Known {
                head: "x".repeat(KEPT),
                tail: format!("{}yz", "x".repeat(KEPT)),
                len: 202,
            })
        );
        // b was folded short: its ends are all of it.
        assert_eq!(s.text_known(b), Some(Known::whole("short one")));
        assert_eq!(s.ends.len(), 2);
        // docs/decisions.md gives its size.
        assert_eq!(std::mem::size_of::<Ends>(), 144);
        assert!(s.footprint() >= 2 * std::mem::size_of::<Ends>());
        s.clear();
        assert_eq!((s.ends.len(), s.text_known(a)), (0, None));
    }

    #[test]
    fn a_call_holds_its_arguments_only_while_open() {
        let mut s = Said::default();
        let (c, tool) = (Name::from_index(0), Name::from_index(1));
        s.call_started(c, tool, 3);
        s.call_args(c, "{\"q\":");
        s.call_args(c, "1}");
        assert!(s.footprint() >= 7 && s.held >= 7);
        let seen = s.call_ended(c, |args, at, _| (args.to_owned(), at));
        assert_eq!(seen, Some(("{\"q\":1}".to_owned(), 3)));
        assert_eq!(s.call_known(c), Some(Known::whole("{\"q\":1}")));
        // Its string is kept spare (emptied) for the next call.
        assert_eq!((s.spare.len(), s.spare[0].len()), (1, 0));
        assert_eq!(s.held, s.spare[0].capacity());
        let (t, print, _, at) = s.call(c).unwrap();
        assert_eq!(
            (t, print.finish(), at),
            (tool, Print::of("{\"q\":1}").finish(), 3)
        );
        // A new opening starts afresh.
        s.call_started(c, tool, 9);
        assert_eq!(
            s.call(c).map(|(_, p, _, at)| (p.finish(), at)),
            Some((Print::of("").finish(), 9))
        );
        // Long arguments are freed when the call ends.
        let d = Name::from_index(2);
        s.call_started(d, tool, 10);
        s.call_args(d, &"1".repeat(2 * SPARE_BYTES));
        assert!(s.held > 2 * SPARE_BYTES && s.growth() > 0);
        s.call_ended(d, |_, _, _| ());
        assert!(s.held <= SPARE_BYTES);
        // The next run forgets it, and the arguments of a call left open.
        s.call_args(c, "[1, 2");
        s.clear();
        assert!(s.is_empty() && s.call(c).is_none() && s.ends.is_empty());
        // What stays is capacity for the next run: the tables and the ends.
        let ends = s.ends.capacity();
        assert_eq!(
            (
                s.growth() - ends,
                s.footprint() - s.calls.footprint() - ends * std::mem::size_of::<Ends>()
            ),
            (0, 0)
        );
    }
}
