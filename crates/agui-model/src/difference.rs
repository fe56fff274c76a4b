//! Two texts that should be equal, shown around their first difference:
//! what a "disagrees" finding (`messages.snapshot-disagrees`, a tool call's
//! arguments, a chunk's opener) says so a producer sees both sides of what
//! differs, however long the texts, with the offset where they part.
//! Bounded: at most [`CONTEXT`] characters before the difference and
//! [`SHOWN`] from it on each side, printable (json::printable).

use crate::json;

/// Characters shown before the first difference.
pub const CONTEXT: usize = 20;
/// Characters shown from the first difference on, each side.
pub const SHOWN: usize = 40;

/// `at byte N: "…before|this" where the other has "…before|that"` — the
/// first difference of `ours` and `theirs`, as a byte offset into both
/// (they agree up to it), with each side's text around it; `None` when
/// they are equal. `|` marks the offset; `…` a side cut short.
pub fn around_first_difference(ours: &str, theirs: &str) -> Option<String> {
    if ours == theirs {
        return None;
    }
    // The common prefix, on a character boundary of both.
    let at = ours
        .char_indices()
        .zip(theirs.chars())
        .find(|((_, a), b)| a != b)
        .map(|((i, _), _)| i)
        .unwrap_or_else(|| ours.len().min(theirs.len()));
    let before: Vec<char> = ours[..at].chars().collect();
    let start = before.len().saturating_sub(CONTEXT);
    let lead: String = before[start..].iter().collect();
    let lead = format!(
        "{}{}",
        if start > 0 { "…" } else { "" },
        json::printable(&lead)
    );
    let side = |s: &str| {
        let rest = &s[at..];
        let shown: String = rest.chars().take(SHOWN).collect();
        let more = if rest.chars().nth(SHOWN).is_some() {
            "…"
        } else {
            ""
        };
        match rest.is_empty() {
            true => format!("\"{lead}|\" (ends there, {} bytes)", s.len()),
            false => format!(
                "\"{lead}|{}{more}\" ({} bytes)",
                json::printable(&shown),
                s.len()
            ),
        }
    };
    Some(format!(
        "at byte {at}: {} where the other has {}",
        side(ours),
        side(theirs)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_difference() {
        assert_eq!(around_first_difference("same", "same"), None);
    }

    #[test]
    fn both_sides_show_around_the_offset() {
        assert_eq!(
            around_first_difference("Hello world", "Hello World").unwrap(),
            r#"at byte 6: "Hello |world" (11 bytes) where the other has "Hello |World" (11 bytes)"#
        );
    }

    #[test]
    fn a_side_that_ends_says_so() {
        assert_eq!(
            around_first_difference("Hello", "Hello!").unwrap(),
            r#"at byte 5: "Hello|" (ends there, 5 bytes) where the other has "Hello|!" (6 bytes)"#
        );
    }

    #[test]
    fn long_texts_are_cut_on_both_sides_of_the_offset() {
        let ours = format!("{}A{}", "x".repeat(100), "y".repeat(100));
        let theirs = format!("{}B{}", "x".repeat(100), "y".repeat(100));
        let shown = around_first_difference(&ours, &theirs).unwrap();
        let lead = format!("…{}|", "x".repeat(CONTEXT));
        let tail = format!("{}…", "y".repeat(SHOWN - 1));
        assert_eq!(
            shown,
            format!(
                r#"at byte 100: "{lead}A{tail}" (201 bytes) where the other has "{lead}B{tail}" (201 bytes)"#
            )
        );
    }

    #[test]
    fn offsets_fall_on_character_boundaries() {
        // "é" is two bytes: the texts part at the character, byte 1.
        let shown = around_first_difference("aé", "aè").unwrap();
        assert!(shown.starts_with("at byte 1: \"a|é\""), "{shown}");
    }
}
