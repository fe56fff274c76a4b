//! The fast path's known keys, derived at compile time from the wire table
//! ([`crate::wire`]): `type`, `subagentRunId`, the common fields and the
//! fields of the [`FAST_TYPES`], each once. A key the table does not declare
//! cannot be named here ([`Key::named`] fails to compile), and a field added
//! to a fast type in the table is recognised without touching this file.

use crate::events::EventType;
use crate::wire::{COMMON, SUBAGENT_RUN_ID, TYPE};

/// The event types the fast path reads; every other type declines.
pub(super) const FAST_TYPES: &[EventType] = {
    use EventType as E;
    &[
        E::StepStarted,
        E::StepFinished,
        E::TextMessageStart,
        E::TextMessageContent,
        E::TextMessageEnd,
        E::ToolCallStart,
        E::ToolCallArgs,
        E::ToolCallEnd,
        E::ToolCallResult,
        E::StateDelta,
        E::Raw,
        E::Custom,
        E::ReasoningStart,
        E::ReasoningMessageStart,
        E::ReasoningMessageContent,
        E::ReasoningMessageEnd,
        E::ReasoningEnd,
        E::SubagentStarted,
        E::SubagentFinished,
        E::SubagentError,
    ]
};

/// Room for the key list while it is built.
const MAX: usize = 64;

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Appends `name` unless present.
const fn add(
    mut list: ([&'static str; MAX], usize),
    name: &'static str,
) -> ([&'static str; MAX], usize) {
    let mut i = 0;
    while i < list.1 {
        if same(list.0[i], name) {
            return list;
        }
        i += 1;
    }
    list.0[list.1] = name;
    list.1 += 1;
    list
}

/// The key names in order of first sight (most frequent first: `type`).
const fn collect() -> ([&'static str; MAX], usize) {
    let mut list = add(([""; MAX], 0), TYPE);
    list = add(list, SUBAGENT_RUN_ID);
    let mut i = 0;
    while i < COMMON.len() {
        list = add(list, COMMON[i].key);
        i += 1;
    }
    let mut t = 0;
    while t < FAST_TYPES.len() {
        let fields = FAST_TYPES[t].fields();
        let mut f = 0;
        while f < fields.len() {
            list = add(list, fields[f].key);
            f += 1;
        }
        t += 1;
    }
    list
}

const COLLECTED: ([&str; MAX], usize) = collect();

/// How many keys the fast path knows.
pub(super) const KEYS: usize = COLLECTED.1;

/// Their names, indexed by [`Key`].
pub(super) const NAMES: [&str; KEYS] = {
    let mut out = [""; KEYS];
    let mut i = 0;
    while i < KEYS {
        out[i] = COLLECTED.0[i];
        i += 1;
    }
    out
};

/// Key indices by first letter (`a`..=`z`) and length, `u8::MAX` where
/// there is none: no two known keys share both.
const BY_LETTER: [[u8; PATTERN]; 26] = {
    let mut out = [[u8::MAX; PATTERN]; 26];
    let mut k = 0;
    while k < KEYS {
        let name = NAMES[k].as_bytes();
        assert!(name[0].is_ascii_lowercase(), "a wire key starts with a-z");
        assert!(name.len() < PATTERN, "a wire key fits the pattern");
        let l = (name[0] - b'a') as usize;
        assert!(
            out[l][name.len()] == u8::MAX,
            "two fast keys share a first letter and a length"
        );
        out[l][name.len()] = k as u8;
        k += 1;
    }
    out
};

// The escape bits of the key table fit one word.
const _: () = assert!(KEYS <= 32);

/// One of the keys the fast path knows (an index into [`NAMES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key(u8);

/// The index of a known name.
const fn find(name: &str) -> Option<Key> {
    let mut k = 0;
    while k < KEYS {
        if same(NAMES[k], name) {
            return Some(Key(k as u8));
        }
        k += 1;
    }
    None
}

/// Most fields one event type declares.
const MAX_FIELDS: usize = 8;

/// The keys of each type's table fields (`EventType::fields`), in that
/// order: filled for the [`FAST_TYPES`], which alone read them.
const BY_TYPE: [[Key; MAX_FIELDS]; EventType::ALL.len()] = {
    let mut out = [[Key(u8::MAX); MAX_FIELDS]; EventType::ALL.len()];
    let mut t = 0;
    while t < FAST_TYPES.len() {
        let ty = FAST_TYPES[t];
        let fields = ty.fields();
        assert!(fields.len() <= MAX_FIELDS, "too many fields on one type");
        let mut f = 0;
        while f < fields.len() {
            out[ty as usize][f] = match find(fields[f].key) {
                Some(k) => k,
                None => panic!("a field of a fast type is a known key"),
            };
            f += 1;
        }
        t += 1;
    }
    out
};

/// The keys of [`COMMON`], in that order.
pub(super) const COMMON_KEYS: [Key; COMMON.len()] = {
    let mut out = [Key(u8::MAX); COMMON.len()];
    let mut i = 0;
    while i < COMMON.len() {
        out[i] = Key::named(COMMON[i].key);
        i += 1;
    }
    out
};

/// Whether the fast path reads a type, by `EventType as usize`.
const IS_FAST: [bool; EventType::ALL.len()] = {
    let mut out = [false; EventType::ALL.len()];
    let mut t = 0;
    while t < FAST_TYPES.len() {
        out[FAST_TYPES[t] as usize] = true;
        t += 1;
    }
    out
};

/// Whether the fast path reads `t`.
#[inline]
pub(super) fn is_fast(t: EventType) -> bool {
    IS_FAST[t as usize]
}

/// The keys of `t.fields()`, in that order (for a fast type).
#[inline]
pub(super) fn of(t: EventType) -> &'static [Key] {
    let keys = &BY_TYPE[t as usize];
    &keys[..t.fields().len().min(MAX_FIELDS)]
}

impl Key {
    /// The key of a wire name; a name the fast types do not declare fails
    /// to compile (when used in a `const`).
    pub(super) const fn named(name: &str) -> Key {
        match find(name) {
            Some(k) => k,
            None => panic!("not a key of the fast-path event types"),
        }
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The known key spelled at the start of `rest` (the bytes after a
    /// key's opening quote) with its closing quote, and the length of both:
    /// without scanning the key as a string. `None` for any other key: an
    /// unescaped key naming a known one is always spelled so.
    #[inline]
    pub(super) fn known(rest: &[u8]) -> Option<(Key, usize)> {
        let first = *rest.first()?;
        let bucket = BY_LETTER.get(usize::from(first.wrapping_sub(b'a')))?;
        // Three words of the key, compared under each candidate's mask:
        // no call, no loop over bytes.
        let w = match rest.first_chunk::<PATTERN>() {
            Some(head) => words(head),
            None => {
                let mut buf = [0u8; PATTERN];
                buf[..rest.len()].copy_from_slice(rest);
                words(&buf)
            }
        };
        // The key's length is where its closing quote is; a first letter
        // and a length name at most one known key.
        let quote = first_quote(&w)?;
        let k = *bucket.get(quote)?;
        let p = PATTERNS.get(usize::from(k))?;
        let diff = ((w[0] ^ p.word[0]) & p.mask[0])
            | ((w[1] ^ p.word[1]) & p.mask[1])
            | ((w[2] ^ p.word[2]) & p.mask[2]);
        (diff == 0).then_some((Key(k), p.len))
    }
}

/// Where the first `"` is in three little-endian words, if anywhere.
#[inline]
fn first_quote(w: &[u64; 3]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    for (i, &word) in w.iter().enumerate() {
        let x = word ^ (LO * u64::from(b'"'));
        // Exact up to the first quote, which is all that is read.
        let hits = x.wrapping_sub(LO) & !x & HI;
        if hits != 0 {
            return Some(i * 8 + (hits.trailing_zeros() / 8) as usize);
        }
    }
    None
}

/// Bytes of a key with its closing quote, at most.
const PATTERN: usize = 24;

/// A known key with its closing quote, as three little-endian words and
/// the masks of its bytes.
struct Pattern {
    word: [u64; 3],
    mask: [u64; 3],
    len: usize,
}

#[inline]
const fn words(b: &[u8; PATTERN]) -> [u64; 3] {
    let mut out = [0u64; 3];
    let mut w = 0;
    while w < 3 {
        let mut word = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            word[i] = b[w * 8 + i];
            i += 1;
        }
        out[w] = u64::from_le_bytes(word);
        w += 1;
    }
    out
}

const PATTERNS: [Pattern; KEYS] = {
    let mut out = [const {
        Pattern {
            word: [0; 3],
            mask: [0; 3],
            len: 0,
        }
    }; KEYS];
    let mut k = 0;
    while k < KEYS {
        let name = NAMES[k].as_bytes();
        assert!(name.len() < PATTERN, "a wire key fits the pattern");
        let (mut bytes, mut ones) = ([0u8; PATTERN], [0u8; PATTERN]);
        let mut i = 0;
        while i < name.len() {
            bytes[i] = name[i];
            ones[i] = 0xFF;
            i += 1;
        }
        bytes[i] = b'"';
        ones[i] = 0xFF;
        out[k] = Pattern {
            word: words(&bytes),
            mask: words(&ones),
            len: name.len() + 1,
        };
        k += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field the schema declares on a fast type is a known key, and
    /// nothing else is (besides `type`, `subagentRunId` and the common
    /// fields).
    #[test]
    fn the_keys_are_the_fast_types_fields() {
        let mut expected: Vec<&str> = vec!["type", "subagentRunId"];
        expected.extend(COMMON.iter().map(|f| f.key));
        for t in FAST_TYPES {
            expected.extend(t.fields().iter().map(|f| f.key));
        }
        expected.sort_unstable();
        expected.dedup();
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        assert_eq!(names, expected);
    }

    #[test]
    fn each_fast_type_reads_its_fields_keys() {
        for &t in FAST_TYPES {
            let names: Vec<&str> = of(t).iter().map(|k| NAMES[k.index()]).collect();
            let fields: Vec<&str> = t.fields().iter().map(|f| f.key).collect();
            assert_eq!(names, fields, "{t}");
        }
        assert!(is_fast(EventType::TextMessageContent));
        assert!(!is_fast(EventType::RunStarted));
    }

    #[test]
    fn known_keys_are_recognised_by_their_exact_spelling() {
        for (i, name) in NAMES.iter().enumerate() {
            let rest = format!("{name}\":1}}");
            let (k, len) = Key::known(rest.as_bytes()).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(k.index(), i, "{name}");
            assert_eq!(len, name.len() + 1, "{name}");
            assert_eq!(Key::named(name), k);
            for other in [
                format!("{name}x\":1"),
                format!("{name}\\\":1"),
                (*name).to_owned(),
            ] {
                assert!(Key::known(other.as_bytes()).is_none(), "{other}");
            }
        }
        for other in ["threadId\"", "Type\"", "\"", "", "_x\""] {
            assert!(Key::known(other.as_bytes()).is_none(), "{other}");
        }
    }
}
