//! Foreign text in Markdown. What an implementation, a producer, a stream
//! or a record file says is shown as written, never read as Markdown or
//! HTML: a `<script>` stays text, `[x](javascript:…)` is no link, and a
//! `|` cannot end a table cell. Every Markdown writer puts foreign text
//! through here; its own wording (headings, catalogue ids) it writes as it
//! is.

/// Inline text (a paragraph, a heading, a table cell): `& < >` as HTML
/// entities; Markdown's punctuation backslash-escaped; a line break as
/// `<br>` (a table row is one line); other control characters as U+FFFD.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let mut lines = s.split('\n').peekable();
    while let Some(line) = lines.next() {
        for c in line.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '#' | '!' => {
                    out.push('\\');
                    out.push(c);
                }
                '\t' => out.push(' '),
                c if c.is_control() => out.push('\u{FFFD}'),
                c => out.push(c),
            }
        }
        if lines.peek().is_some() {
            out.push_str("<br>");
        }
    }
    out
}

/// An inline code span holding `s` literally, whatever backticks it holds
/// (a longer fence), safe in a table cell (`|` escaped, which GitHub's
/// tables read inside code too; line breaks as spaces).
pub fn code(s: &str) -> String {
    let body: String = s
        .chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => ' ',
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect::<String>()
        .replace('|', "\\|");
    let fence = "`".repeat(longest_run(&body, '`') + 1);
    // A space inside the fence when the text starts or ends with a
    // backtick (CommonMark strips one space on each side).
    let pad = if body.starts_with('`') || body.ends_with('`') || body.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// A fenced code block (`lang` after the opening fence) of `lines`, its
/// fence longer than any run of backticks in them, each line indented by
/// `indent`.
pub fn fence<'a>(lang: &str, lines: impl IntoIterator<Item = &'a str>, indent: &str) -> String {
    let lines: Vec<String> = lines
        .into_iter()
        .map(|l| {
            l.chars()
                .map(|c| {
                    if c.is_control() && c != '\t' {
                        '\u{FFFD}'
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect();
    let run = lines.iter().map(|l| longest_run(l, '`')).max().unwrap_or(0);
    let fence = "`".repeat(run.max(2) + 1);
    let mut out = format!("{indent}{fence}{lang}\n");
    for l in &lines {
        out.push_str(indent);
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(indent);
    out.push_str(&fence);
    out.push('\n');
    out
}

/// The longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for x in s.chars() {
        if x == c {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// A fragment-safe form of `s`: lower-case letters, digits and `-`.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_never_markup() {
        assert_eq!(
            text("<script>alert(1)</script> | [x](javascript:y) *a* `b`\nnext\u{1b}[2J"),
            "&lt;script&gt;alert(1)&lt;/script&gt; \\| \\[x\\](javascript:y) \\*a\\* \\`b\\`<br>next\u{FFFD}\\[2J"
        );
        assert_eq!(text("a & b"), "a &amp; b");
        // A trailing backslash cannot escape the cell separator after it.
        assert_eq!(text("end\\"), "end\\\\");
    }

    #[test]
    fn code_spans_hold_any_backticks() {
        assert_eq!(code("a"), "`a`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
        assert_eq!(code("a|b\nc"), "`a\\|b c`");
        assert_eq!(code("<b>"), "`<b>`");
    }

    #[test]
    fn fences_are_longer_than_what_they_hold() {
        assert_eq!(fence("json", ["{}"], ""), "```json\n{}\n```\n");
        assert_eq!(fence("", ["a ``` b"], "  "), "  ````\n  a ``` b\n  ````\n");
    }
}
