//! The notes on consumers' fuzz findings (docs/conformance/notes.json, keys
//! `fuzz:RULE`) agree with the findings they sit under on the committed
//! findings pages (docs/conformance/details/fuzz-*.md and the other
//! reports' `*-details/`): each campaign shrinks a new minimal stream, and
//! a note written for an earlier one can say the implementation rejected
//! where it now accepts, at another event, or with another message. A note
//! that says it was not re-read on this campaign is exempt (it says so on
//! the page); every other note's claims are held to the finding's answer:
//! - an event index it says the rejection is at ("rejects at 3",
//!   "rejected at item 0", "(AGUI504, at 4)") is the answer's index;
//! - a message it quotes from the implementation (`("…")` or `AGUI123:
//!   "…"`) is in the answer's message (`…` stands for any text);
//! - a sentence saying it accepts, and not that it rejects, sits under an
//!   answer that accepts.
//!
//! The pages are rendered from the campaign records and these notes by the
//! report scripts, so their answers are what the records hold.

mod pages;

use pages::{conformance, markdown_files, unescape};
use std::path::PathBuf;

/// The findings pages: `fuzz-*.md` in the detail folders of
/// docs/conformance.
fn finding_pages() -> Vec<PathBuf> {
    markdown_files(&conformance())
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("fuzz-"))
        })
        .collect()
}

/// What an implementation answered on a finding's minimal stream.
#[derive(Debug, PartialEq)]
enum Answer {
    Accept,
    Reject {
        index: usize,
        message: String,
    },
    /// Neither (skipped, errored, a producer's answer): nothing to hold a
    /// note to.
    Other,
}

/// The answer of a finding's "Answered:" line, Markdown escapes undone.
fn answer(line: &str) -> Answer {
    let rest = line.split("Answered: ").nth(1).unwrap_or("");
    if rest.starts_with("accept") {
        return Answer::Accept;
    }
    let Some(rest) = rest.strip_prefix("reject at ") else {
        return Answer::Other;
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(index) = digits.parse() else {
        return Answer::Other;
    };
    let message = rest
        .split_once('“')
        .and_then(|(_, m)| m.rsplit_once('”'))
        .map_or("", |(m, _)| m);
    Answer::Reject {
        index,
        message: unescape(message),
    }
}

/// Each finding of a page: its anchor, its answer and the notes under it
/// (the paragraphs after the "Answered:" line, up to the next finding).
fn findings(page: &str) -> Vec<(String, Answer, Vec<String>)> {
    let mut out = Vec::new();
    for block in page.split("<a id=\"finding-").skip(1) {
        let anchor = block.split('"').next().unwrap_or("").to_string();
        let mut lines = block.lines();
        let Some(answered) = lines.find(|l| l.contains("Answered: ")) else {
            continue;
        };
        let notes = lines
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        out.push((anchor, answer(answered), notes));
    }
    out
}

/// The numbers after each of `prefixes` in `text`, each with what follows
/// it.
fn numbers_after<'a>(text: &'a str, prefixes: &[&str]) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    for p in prefixes {
        for (at, _) in text.match_indices(p) {
            let rest = &text[at + p.len()..];
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if let Ok(n) = rest[..digits].parse() {
                out.push((n, &rest[digits..]));
            }
        }
    }
    out
}

/// Where a note says the implementation's rejection is: after one of these
/// words, or after ", at " closing a diagnostic's parentheses ("(AGUI504,
/// at 4)") or ending a clause about the rejection (", at 3: past the
/// event", ", at 2 (\"the stream ended …\")").
fn index_claims(text: &str) -> Vec<usize> {
    const WORDS: &[&str] = &[
        "rejects at ",
        "rejected at item ",
        "rejected at ",
        "rejection is at item ",
        "rejection is at ",
        "fails on it at ",
    ];
    let mut out: Vec<usize> = numbers_after(text, WORDS)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    for (at, _) in text.match_indices(", at ") {
        let before = text[..at].rsplit('(').next().unwrap_or("");
        // "(AGUI504, at 4)": a diagnostic and where it came.
        let diagnostic = before.len() == 7 && before.starts_with("AGUI");
        let rest = &text[at + 5..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let after = &rest[digits..];
        let closes = (diagnostic && after.starts_with(')'))
            || after.starts_with(": past")
            || after.starts_with(" (\"");
        if let (true, Ok(n)) = (closes, rest[..digits].parse()) {
            out.push(n);
        }
    }
    out
}

/// The implementation's messages a note quotes: `("…")` and `AGUI123: "…"`.
fn quoted(note: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (at, _) in note.match_indices('"') {
        let before = &note[..at];
        let agui = before.len() >= 9
            && before.ends_with(": ")
            && before[..before.len() - 2]
                .rsplit(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .is_some_and(|w| w.len() == 7 && w.starts_with("AGUI"));
        if !(before.ends_with('(') || agui) {
            continue;
        }
        if let Some(end) = note[at + 1..].find('"') {
            out.push(&note[at + 1..at + 1 + end]);
        }
    }
    out
}

/// Whether `message` holds `quote`, where `…` in the quote stands for any
/// text.
fn holds(message: &str, quote: &str) -> bool {
    let mut from = 0;
    for part in quote.split('…').map(str::trim).filter(|p| !p.is_empty()) {
        match message[from..].find(part) {
            Some(at) => from += at + part.len(),
            None => return false,
        }
    }
    true
}

/// What `note` claims that `answer` contradicts.
fn contradictions(note: &str, answer: &Answer) -> Vec<String> {
    let mut out = Vec::new();
    if note.contains("not re-read") {
        return out;
    }
    // The label the page puts before a note ("ag-ui-validate: …") is not
    // part of the claim.
    let claims = note.split_once(": ").map_or(note, |(_, rest)| rest);
    match answer {
        Answer::Reject { index, message } => {
            for n in index_claims(claims) {
                if n != *index {
                    out.push(format!("says the rejection is at {n}; it is at {index}"));
                }
            }
            for q in quoted(claims) {
                if !holds(message, q) {
                    out.push(format!("quotes \"{q}\"; the answer says \"{message}\""));
                }
            }
            for sentence in claims.split(". ") {
                let s = sentence.to_lowercase();
                let accepts = [
                    "and accepts",
                    "so it accepts",
                    "it accepts",
                    "accepts the stream",
                ]
                .iter()
                .any(|w| s.contains(w));
                if accepts && !s.contains("reject") {
                    out.push(format!("says it accepts: {sentence}"));
                }
            }
        }
        Answer::Accept => {
            for n in index_claims(claims) {
                out.push(format!("says it rejects at {n}; it accepted"));
            }
        }
        Answer::Other => {}
    }
    out
}

#[test]
fn every_finding_note_agrees_with_its_answer() {
    let pages = finding_pages();
    assert!(
        pages.len() >= 3,
        "the findings pages are missing: {pages:?}"
    );
    let (mut notes, mut wrong) = (0, Vec::new());
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("a findings page");
        for (anchor, answer, finding_notes) in findings(&text) {
            for note in finding_notes {
                notes += 1;
                for c in contradictions(&note, &answer) {
                    wrong.push(format!("{}#finding-{anchor}: {c}", page.display()));
                }
            }
        }
    }
    assert!(notes > 100, "only {notes} notes found on {pages:?}");
    assert!(
        wrong.is_empty(),
        "{} note(s) disagree with the finding they sit under (re-read them on the \
         campaign's minimal stream, or say they were not re-read):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_stale_note_is_caught() {
    let reject = Answer::Reject {
        index: 0,
        message: "JSON error: missing field `tools`".into(),
    };
    // Written for another campaign's stream: another event, another message.
    let stale = "X: Checked by hand: ag-ui-validate rejects at 3, a result \
        (AGUI504: \"field 'content' must be a string\").";
    assert_eq!(contradictions(stale, &reject).len(), 2);
    let accepts = "X: Checked by hand: it never reads that item and accepts.";
    assert_eq!(contradictions(accepts, &reject).len(), 1);
    assert_eq!(
        contradictions("X: the Session rejects at 1 (\"…\").", &Answer::Accept).len(),
        1
    );
    // The same claims, true of this answer.
    let fresh = "X: Checked by hand: the rejection is at 0, the input echo \
        lacks `tools` (\"missing field …\").";
    assert!(contradictions(fresh, &reject).is_empty());
    // Labelled as not re-read: shown as such, not held.
    let labelled = format!("X: Read on the previous campaign's stream, not re-read: {stale}");
    assert!(contradictions(&labelled, &reject).is_empty());
}
