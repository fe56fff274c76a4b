//! One run's canonical JSON text (`docs/projection.md`), written straight
//! from the typed view: keys in the order a `serde_json::Map` keeps them
//! (sorted), strings and values printed as [`crate::json::Out`] prints
//! them, so the bytes are those of the run's `Value` printed with `Out`.

use super::InvocationStatus;
use super::view::{Content, Message, RunView, Text};
use crate::json::{Out, as_big_number, as_surrogate, printable, settle_surrogates};
use crate::wire::key;
use serde_json::Value;

/// Text written before it is handed on as a piece (when there is a
/// `piece` taker): a run of a million events is written through a buffer
/// that stays in cache instead of one as large as the run, whose pages
/// cost more to fault in than the writing itself (docs/performance-log.md).
const PIECE_BYTES: usize = 64 << 10;

/// Takes the pieces of a run's text as it is written.
pub(super) type Piece<'a> = Option<&'a mut dyn FnMut(&[u8])>;

/// Hands what `out` holds to `piece` (and empties it) once it holds
/// [`PIECE_BYTES`]; asked between records, never inside one.
fn boundary(out: &mut Vec<u8>, piece: &mut Piece<'_>) {
    if out.len() >= PIECE_BYTES
        && let Some(p) = piece
    {
        p(out);
        out.clear();
    }
}

/// Appends the run's canonical JSON to `out`. `state` is the run's state;
/// `lone`: a lone surrogate was read in the run, so values are settled
/// ([`settle_surrogates`]) before printing, as the `Value` form is. With
/// `piece`, the text written so far is handed to it whenever `out` holds
/// [`PIECE_BYTES`] between two records, and `out` ends with the rest.
pub(super) fn run(
    out: &mut Vec<u8>,
    run: &RunView,
    state: &Value,
    lone: bool,
    mut piece: Piece<'_>,
) {
    out.push(b'{');
    if run.incomplete {
        out.extend_from_slice(br#""incomplete":true,"#);
    }
    out.extend_from_slice(br#""interrupts":["#);
    for (k, i) in run.interrupts.iter().enumerate() {
        boundary(out, &mut piece);
        comma(out, k);
        out.push(b'{');
        if let Some(id) = &i.id {
            out.extend_from_slice(br#""id":"#);
            value(out, id, lone);
        }
        if let Some(o) = i.owner {
            if i.id.is_some() {
                out.push(b',');
            }
            out.extend_from_slice(br#""owner":"#);
            string(out, run.str(o));
        }
        out.push(b'}');
    }
    out.extend_from_slice(br#"],"invocations":["#);
    for (k, inv) in run.invocations.iter().enumerate() {
        boundary(out, &mut piece);
        comma(out, k);
        out.extend_from_slice(br#"{"id":"#);
        string(out, run.str(inv.id));
        if let InvocationStatus::Suspended(ids) = &inv.status {
            out.extend_from_slice(br#","interruptIds":["#);
            for (k, id) in ids.iter().enumerate() {
                comma(out, k);
                string(out, id);
            }
            out.push(b']');
        }
        if let Some(n) = inv.name {
            out.extend_from_slice(br#","name":"#);
            string(out, run.str(n));
        }
        if let Some(p) = inv.parent {
            out.extend_from_slice(br#","parent":"#);
            string(out, run.str(p));
        }
        out.extend_from_slice(br#","status":""#);
        out.extend_from_slice(status(&inv.status).as_bytes());
        out.extend_from_slice(b"\"}");
    }
    out.extend_from_slice(br#"],"messages":["#);
    for (k, m) in run.messages.iter().enumerate() {
        boundary(out, &mut piece);
        comma(out, k);
        message(out, run, m, lone);
    }
    out.extend_from_slice(b"],");
    boundary(out, &mut piece);
    if let Some(id) = run.run_id {
        name(out, key::RunStarted::run_id);
        string(out, run.str(id));
        out.push(b',');
    }
    out.extend_from_slice(br#""state":"#);
    value(out, state, lone);
    out.extend_from_slice(br#","status":"#);
    string(out, run.status);
    if let Some(id) = run.thread_id {
        out.push(b',');
        name(out, key::RunStarted::thread_id);
        string(out, run.str(id));
    }
    out.push(b'}');
}

/// Writes `"key":` for a wire name taken from the table (a plain ASCII
/// name, so no escaping), keeping the names out of this file.
fn name(out: &mut Vec<u8>, key: &str) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
}

fn message(out: &mut Vec<u8>, run: &RunView, m: &Message, lone: bool) {
    out.push(b'{');
    if let Some(t) = &m.activity_type {
        name(out, key::ActivitySnapshot::activity_type);
        string(out, t);
        out.push(b',');
    }
    out.extend_from_slice(br#""content":"#);
    match &m.content {
        Content::Text(t) => text(out, run, t),
        Content::Json(v) => value(out, v, lone),
    }
    if !m.invented {
        out.extend_from_slice(br#","id":"#);
        string(out, run.str(m.id));
    }
    if let Some(o) = m.owner {
        out.extend_from_slice(br#","owner":"#);
        string(out, run.str(o));
    }
    out.extend_from_slice(br#","role":"#);
    string(out, &m.role);
    if !m.tool_calls.is_empty() {
        out.extend_from_slice(br#","toolCalls":["#);
        for (k, c) in m.tool_calls.iter().enumerate() {
            comma(out, k);
            out.extend_from_slice(br#"{"args":"#);
            text(out, run, &c.args);
            out.extend_from_slice(br#","id":"#);
            string(out, run.str(c.id));
            out.extend_from_slice(br#","name":"#);
            string(out, run.str(c.name));
            out.push(b'}');
        }
        out.push(b']');
    }
    out.push(b'}');
}

fn status(s: &InvocationStatus) -> &'static str {
    match s {
        InvocationStatus::Running => "running",
        InvocationStatus::Finished => "finished",
        InvocationStatus::Suspended(_) => "suspended",
        InvocationStatus::Errored => "errored",
        InvocationStatus::Abandoned => "abandoned",
        InvocationStatus::Unannounced => "unannounced",
    }
}

fn comma(out: &mut Vec<u8>, k: usize) {
    if k > 0 {
        out.push(b',');
    }
}

/// A text built from deltas, as [`string`] prints it joined: piece by
/// piece (JSON escapes are per character, and every piece is whole
/// characters), or joined first when a piece needs more than escaping.
fn text(out: &mut Vec<u8>, run: &RunView, t: &Text) {
    let Text::Pieces { first, .. } = t else {
        if let Text::Owned(s) = t {
            string(out, s);
        }
        return;
    };
    let mark = out.len();
    out.push(b'"');
    for (k, span) in run.spans(*first).enumerate() {
        let b = run.str(span).as_bytes();
        if (k == 0 && b.first() == Some(&0xEF)) || !escaped(out, b) {
            out.truncate(mark);
            string(out, &run.joined(t));
            return;
        }
    }
    out.push(b'"');
}

/// A string as `Out` prints `Value::String(s)`: a kept big number as the
/// number, kept surrogates as U+FFFD, the rest escaped as serde_json does.
fn string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    if b.first() != Some(&0xEF) {
        let mark = out.len();
        out.push(b'"');
        if escaped(out, b) {
            out.push(b'"');
            return;
        }
        out.truncate(mark);
    }
    if as_big_number(s).is_some() {
        // Rare: the same code as `Out`, for the same bytes.
        let _ = serde_json::to_writer(&mut *out, &Out(&Value::String(s.to_owned())));
    } else if s.chars().any(|c| as_surrogate(c).is_some()) {
        let _ = serde_json::to_writer(&mut *out, &printable(s));
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Appends `b` escaped as serde_json escapes a string's contents; `false`
/// (with `out` partly written) when `b` holds a 0xF4 byte, which may begin
/// a kept surrogate (U+10F800 and up) that needs [`string`]'s slow path.
fn escaped(out: &mut Vec<u8>, b: &[u8]) -> bool {
    let (mut from, mut i) = (0, 0);
    // Sixteen bytes at a time where SSE2 is (every x86-64), each block's
    // stops taken from one mask; the last block overlaps the one before
    // (its bytes already seen are masked off), so no byte is read twice
    // as a stop and none is left for the loops below.
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        while i < b.len() {
            let base = i.min(b.len() - 16);
            let Some(block) = b.get(base..).and_then(|r| r.first_chunk::<16>()) else {
                break;
            };
            let mut mask = stops16(block) & (u32::MAX << (i - base));
            while mask != 0 {
                let at = base + mask.trailing_zeros() as usize;
                let c = b.get(at).copied().unwrap_or_default();
                if c == 0xF4 {
                    return false;
                }
                out.extend_from_slice(b.get(from..at).unwrap_or_default());
                escape(out, c);
                from = at + 1;
                mask &= mask - 1;
            }
            i = base + 16;
        }
    }
    const F4: u64 = u64::from_ne_bytes([0xF4; 8]);
    // Eight bytes at a time to the next byte to escape, then one by one.
    while let Some(w) = b.get(i..i + 8) {
        let mut x = [0u8; 8];
        x.copy_from_slice(w);
        let v = u64::from_le_bytes(x);
        if zero_byte(v ^ F4) != 0 {
            return false;
        }
        let m = to_escape(v);
        if m == 0 {
            i += 8;
            continue;
        }
        let at = i + (m.trailing_zeros() / 8) as usize;
        out.extend_from_slice(b.get(from..at).unwrap_or_default());
        escape(out, b.get(at).copied().unwrap_or_default());
        (from, i) = (at + 1, at + 1);
    }
    for (at, &c) in b.iter().enumerate().skip(i) {
        if c == 0xF4 {
            return false;
        }
        if ESCAPE[usize::from(c)] != 0 {
            out.extend_from_slice(b.get(from..at).unwrap_or_default());
            escape(out, c);
            from = at + 1;
        }
    }
    out.extend_from_slice(b.get(from..).unwrap_or_default());
    true
}

/// The bytes of `block` that stop [`escaped`] (`"`, `\\`, a control, or
/// 0xF4), as bits of a mask.
#[cfg(target_arch = "x86_64")]
#[inline]
fn stops16(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of every x86-64 target; the load is unaligned
    // and reads exactly the 16 bytes of `block`.
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        // Unsigned `v <= 0x1F`: the control bytes.
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        let f4 = _mm_cmpeq_epi8(v, _mm_set1_epi8(0xF4_u8 as i8));
        _mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(control, quote),
            _mm_or_si128(backslash, f4),
        )) as u32
    }
}

/// A word (little-endian) with the high bit set in the byte of the first
/// byte to escape (`"`, `\\`, a control); 0 when there is none. The usual
/// "has a zero byte" tests: a borrow may also mark bytes after the first
/// such byte, never one before it, so the lowest mark is exact.
fn to_escape(v: u64) -> u64 {
    let below_space = v.wrapping_sub(ONES * 0x20) & !v & HIGH;
    below_space | zero_byte(v ^ (ONES * u64::from(b'"'))) | zero_byte(v ^ (ONES * u64::from(b'\\')))
}

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// Nonzero when a byte of `x` is zero (its high bit set, and maybe those
/// of later bytes).
fn zero_byte(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// Appends the escape of byte `c` (one [`ESCAPE`] names).
fn escape(out: &mut Vec<u8>, c: u8) {
    let short = ESCAPE[usize::from(c)];
    out.push(b'\\');
    out.push(short);
    if short == b'u' {
        out.extend_from_slice(b"00");
        out.push(HEX[usize::from(c >> 4)]);
        out.push(HEX[usize::from(c & 0xF)]);
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// serde_json's escapes: for each byte, the letter after the backslash,
/// `u` for `\u00XX`, or 0 for a byte printed as itself.
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = b'u';
        c += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// Any JSON value as `Out` prints it (a string through [`string`]); in a
/// run with a lone surrogate, settled first.
fn value(out: &mut Vec<u8>, v: &Value, lone: bool) {
    match v {
        Value::String(s) => string(out, s),
        _ if lone => {
            let mut v = v.clone();
            settle_surrogates(&mut v);
            let _ = serde_json::to_writer(&mut *out, &Out(&v));
        }
        _ => {
            let _ = serde_json::to_writer(&mut *out, &Out(v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Out, Value, escaped, string};

    /// Escaping agrees with serde_json's for every byte class at every
    /// place of a word and of the tail, one or several escapes.
    #[test]
    fn escapes_are_serde_jsons_at_every_place() {
        // Several words of eight and the tail.
        for len in 1..44 {
            for at in 0..len {
                for c in ['"', '\\', '\u{0}', '\n', '\u{1f}', '\u{7f}', 'é', ' '] {
                    let mut s: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
                        .chars()
                        .take(len)
                        .collect();
                    s[at] = c;
                    if at + 3 < len {
                        s[at + 3] = '\t';
                    }
                    let s: String = s.into_iter().collect();
                    let mut got = Vec::new();
                    assert!(escaped(&mut got, s.as_bytes()));
                    let want = serde_json::to_string(&s).unwrap_or_default();
                    assert_eq!(format!("\"{}\"", String::from_utf8_lossy(&got)), want);
                }
            }
        }
        for s in ["a \u{100000}", "\u{100000}", "abcdefgh\u{10F800}ijklmnop"] {
            assert!(!escaped(&mut Vec::new(), s.as_bytes()), "{s:?}");
        }
        // A 0xF4 byte anywhere: in a word or the tail, after an escape or
        // not.
        for len in 0..40 {
            for lead in ["", "\""] {
                let s = format!("{lead}{}\u{10F800}xy", "a".repeat(len));
                assert!(!escaped(&mut Vec::new(), s.as_bytes()), "{s:?}");
            }
        }
    }

    #[test]
    fn strings_print_as_out_prints_them() {
        let kept_high = char::from_u32(crate::json::SURROGATE_BASE).unwrap_or('?');
        let cases = [
            String::new(),
            "plain text, long enough to cross a vector of bytes: 0123456789".to_owned(),
            "quote \" backslash \\ slash / tab \t nl \n nul \u{0} del \u{7f}".to_owned(),
            "é 😀 \u{FFFD} \u{F4} \u{10FFFF}".to_owned(),
            format!("a{kept_high}b"),
            "\u{FDD0}1e400".to_owned(),
            "\u{FDD0}not a number".to_owned(),
            "x\u{FDD0}1".to_owned(),
        ];
        for s in cases {
            let mut got = Vec::new();
            string(&mut got, &s);
            let want = serde_json::to_vec(&Out(&Value::String(s.clone()))).unwrap_or_default();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "{s:?}"
            );
        }
    }
}
