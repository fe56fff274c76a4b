//! Two texts that should be equal, shown around their first difference:
//! what a "disagrees" finding (`messages.snapshot-disagrees`: a message's
//! content, a tool call's name or arguments) says so a producer sees both
//! sides of what differs, however long the texts, with the byte offset
//! where they part. Bounded: at most [`CONTEXT`] characters before the
//! difference and [`SHOWN`] from it on each side, printable
//! (json::printable) and quoted as Rust and JSON quote strings.
//!
//! One side may be known only in part ([`Known`]: its first and last
//! bytes, as the checker keeps a long streamed text); a difference in the
//! part not kept is then said to be there, with the offsets that bound it.

use crate::json;

/// Characters shown before the first difference.
pub const CONTEXT: usize = 20;
/// Characters shown from the first difference on, each side.
pub const SHOWN: usize = 40;

/// What is known of a text: all of it (`tail` empty, `head` the text), or
/// its first bytes (`head`) and its last (`tail`) with its length, the
/// bytes between them not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub head: String,
    pub tail: String,
    pub len: usize,
}

impl Known {
    /// All of `text`.
    pub fn whole(text: &str) -> Known {
        Known {
            head: text.to_owned(),
            tail: String::new(),
            len: text.len(),
        }
    }

    /// The bytes not kept, `head.len()..len - tail.len()` (empty when the
    /// text is whole).
    fn gap(&self) -> std::ops::Range<usize> {
        self.head.len()..self.len.saturating_sub(self.tail.len())
    }
}

/// The byte length of the common prefix of `a` and `b`, on a character
/// boundary of both.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map(|((i, _), _)| i)
        .unwrap_or_else(|| a.len().min(b.len()))
}

/// `…"lead|shown"…`: `lead` (its last [`CONTEXT`] characters) and `rest`
/// (its first [`SHOWN`]), `…` where either is cut or `more` says the text
/// goes on beyond `rest`.
fn around(lead: &str, rest: &str, more: bool) -> String {
    let before: Vec<char> = lead.chars().collect();
    let start = before.len().saturating_sub(CONTEXT);
    let lead: String = before[start..].iter().collect();
    let shown: String = rest.chars().take(SHOWN).collect();
    let cut = more || rest.chars().nth(SHOWN).is_some();
    format!(
        "{}{:?}{}",
        if start > 0 { "…" } else { "" },
        json::printable(&format!("{lead}|{shown}")),
        if cut { "…" } else { "" }
    )
}

/// One side at a difference: its text around it, and its length.
fn side(name: &str, lead: &str, rest: &str, more: bool, len: usize) -> String {
    let ends = if rest.is_empty() && !more {
        "ends there, "
    } else {
        ""
    };
    format!("{name} {} ({ends}{len} bytes)", around(lead, rest, more))
}

/// `at byte N: A "…before|this" (L bytes), B "…before|that" (M bytes)` —
/// the first difference of `a` (named `a_name`) and `b`, as a byte offset
/// into both (they agree up to it), with each side's text around it; `|`
/// marks the offset, `…` a side cut short. When the first difference may
/// lie in the part of `b` not kept, says so with the bytes that bound it,
/// and shows the first difference found in the part kept after it, if any.
/// `None` when they are equal.
pub fn around_first_difference(a_name: &str, a: &str, b_name: &str, b: &Known) -> Option<String> {
    let gap = b.gap();
    if gap.is_empty() {
        let whole = format!("{}{}", b.head, b.tail);
        if a == whole {
            return None;
        }
        let at = common_prefix(a, &whole);
        return Some(format!(
            "at byte {at}: {}, {}",
            side(a_name, &a[..at], &a[at..], false, a.len()),
            side(b_name, &a[..at], &whole[at..], false, b.len)
        ));
    }
    let at = common_prefix(a, &b.head);
    if at < b.head.len() || at == a.len() {
        // In the head: exactly there (b goes on past its head).
        return Some(format!(
            "at byte {at}: {}, {}",
            side(a_name, &a[..at], &a[at..], false, a.len()),
            side(b_name, &a[..at], &b.head[at..], true, b.len)
        ));
    }
    let unknown = format!(
        "at byte {} or later: the two agree on the first {} bytes, and {b_name} bytes {}..{} were not kept",
        gap.start, gap.start, gap.start, gap.end
    );
    // Aligned by offset, the kept tail against `a`: the first byte that
    // differs there (or where one of them ends) is a difference, the
    // first one unless another lies in the gap.
    let from = gap.end;
    let tail = b.tail.as_bytes();
    let ab = a.as_bytes();
    let over = ab.len().saturating_sub(from).min(tail.len());
    let mut m = (0..over)
        .find(|&k| ab[from + k] != tail[k])
        .map_or(from + over, |k| from + k);
    if m == b.len && m == a.len() {
        return Some(format!(
            "{unknown}; {a_name} …{} ({} bytes) agrees with the last {} bytes of {b_name} ({} bytes)",
            around("", a.get(gap.start..).unwrap_or_default(), false),
            a.len(),
            tail.len(),
            b.len
        ));
    }
    if a.len() < from {
        return Some(format!(
            "{unknown}; {a_name} ends at byte {} ({b_name}: {} bytes)",
            a.len(),
            b.len
        ));
    }
    // Back to a character boundary of both (they agree before `m`).
    while m > from && !(a.is_char_boundary(m) && b.tail.is_char_boundary(m - from)) {
        m -= 1;
    }
    let lead = b.tail.get(..m - from).unwrap_or_default();
    let a_rest = a.get(m..).unwrap_or_default();
    let b_rest = b.tail.get(m - from..).unwrap_or_default();
    Some(format!(
        "{unknown}; they differ at byte {m} at the latest: {}, {}",
        side(a_name, lead, a_rest, false, a.len()),
        side(b_name, lead, b_rest, false, b.len)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(a: &str, b: &str) -> Option<String> {
        around_first_difference("snapshot", a, "streamed", &Known::whole(b))
    }

    #[test]
    fn equal_texts_have_no_difference() {
        assert_eq!(whole("same", "same"), None);
        let ends = Known {
            head: "ab".into(),
            tail: "cd".into(),
            len: 4,
        };
        assert_eq!(around_first_difference("x", "abcd", "y", &ends), None);
    }

    #[test]
    fn both_sides_show_around_the_offset() {
        assert_eq!(
            whole("Hello world", "Hello World").unwrap(),
            r#"at byte 6: snapshot "Hello |world" (11 bytes), streamed "Hello |World" (11 bytes)"#
        );
    }

    #[test]
    fn a_side_that_ends_says_so() {
        assert_eq!(
            whole("Hello", "Hello!").unwrap(),
            r#"at byte 5: snapshot "Hello|" (ends there, 5 bytes), streamed "Hello|!" (6 bytes)"#
        );
    }

    #[test]
    fn quotes_and_line_breaks_are_escaped() {
        assert_eq!(
            whole("{\"a\":\n1}", "{\"a\":2}").unwrap(),
            r#"at byte 5: snapshot "{\"a\":|\n1}" (8 bytes), streamed "{\"a\":|2}" (7 bytes)"#
        );
    }

    #[test]
    fn long_texts_are_cut_on_both_sides_of_the_offset() {
        let ours = format!("{}A{}", "x".repeat(100), "y".repeat(100));
        let theirs = format!("{}B{}", "x".repeat(100), "y".repeat(100));
        let lead = format!("…\"{}|", "x".repeat(CONTEXT));
        let tail = format!("{}\"…", "y".repeat(SHOWN - 1));
        assert_eq!(
            whole(&ours, &theirs).unwrap(),
            format!(
                "at byte 100: snapshot {lead}A{tail} (201 bytes), streamed {lead}B{tail} (201 bytes)"
            )
        );
    }

    #[test]
    fn offsets_fall_on_character_boundaries() {
        // "é" is two bytes: the texts part at the character, byte 1.
        let shown = whole("aé", "aè").unwrap();
        assert!(shown.starts_with("at byte 1: snapshot \"a|é\""), "{shown}");
    }

    /// "Hello world, this is a long text" kept as its first 6 and last 5
    /// bytes.
    fn cut() -> Known {
        Known {
            head: "Hello ".into(),
            tail: " text".into(),
            len: 32,
        }
    }

    #[test]
    fn a_difference_in_the_kept_head_is_exact() {
        assert_eq!(
            around_first_difference("snapshot", "Help", "streamed", &cut()).unwrap(),
            r#"at byte 3: snapshot "Hel|p" (4 bytes), streamed "Hel|lo "… (32 bytes)"#
        );
        // A side ending inside the other's head.
        assert_eq!(
            around_first_difference("snapshot", "Hello ", "streamed", &cut()).unwrap(),
            r#"at byte 6: snapshot "Hello |" (ends there, 6 bytes), streamed "Hello |"… (32 bytes)"#
        );
    }

    #[test]
    fn a_difference_past_the_head_is_bounded_by_the_part_kept() {
        // Same length, the tails differ: the latest the difference can be.
        assert_eq!(
            around_first_difference(
                "snapshot",
                "Hello world, this is a long test",
                "streamed",
                &cut()
            )
            .unwrap(),
            "at byte 6 or later: the two agree on the first 6 bytes, and streamed bytes 6..27 were not kept; \
             they differ at byte 30 at the latest: snapshot \" te|st\" (32 bytes), streamed \" te|xt\" (32 bytes)"
        );
        // Everything kept agrees: the difference is in the gap.
        assert_eq!(
            around_first_difference(
                "snapshot",
                "Hello WORLD, this is a long text",
                "streamed",
                &cut()
            )
            .unwrap(),
            "at byte 6 or later: the two agree on the first 6 bytes, and streamed bytes 6..27 were not kept; \
             snapshot …\"|WORLD, this is a long text\" (32 bytes) agrees with the last 5 bytes of streamed (32 bytes)"
        );
        // A shorter side ending inside the gap.
        assert_eq!(
            around_first_difference("snapshot", "Hello world", "streamed", &cut()).unwrap(),
            "at byte 6 or later: the two agree on the first 6 bytes, and streamed bytes 6..27 were not kept; \
             snapshot ends at byte 11 (streamed: 32 bytes)"
        );
        // A longer one: the kept tail agrees, then the streamed text ends.
        assert_eq!(
            around_first_difference(
                "snapshot",
                "Hello world, this is a long text!",
                "streamed",
                &cut()
            )
            .unwrap(),
            "at byte 6 or later: the two agree on the first 6 bytes, and streamed bytes 6..27 were not kept; \
             they differ at byte 32 at the latest: snapshot \" text|!\" (33 bytes), streamed \" text|\" (ends there, 32 bytes)"
        );
    }
}
