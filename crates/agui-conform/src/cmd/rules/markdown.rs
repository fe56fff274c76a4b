//! `agui-conform rules --format markdown`: the catalogue as the document
//! `docs/rules.md`. The prose (`rules.md` beside this file) is written by
//! hand; each `<!-- rules: AREA -->` line in it becomes the table of that
//! area's rules, generated from [`CATALOGUE`]. An area no marker names gets
//! a section of its own at the end, so a new area is never left out.

use agui_model::{CATALOGUE, Rule};

/// The hand-written prose around the tables.
const PROSE: &str = include_str!("../rules.md");

/// How to regenerate `docs/rules.md` (also said by its staleness test).
pub const REGENERATE: &str = "cargo run -p agui-conform -- rules --format markdown > docs/rules.md";

/// The whole document.
pub fn document() -> String {
    let mut out = format!(
        "<!-- Generated from crates/agui-model/src/rules.rs (the tables) and \
         crates/agui-conform/src/cmd/rules.md (the prose); do not edit. \
         Regenerate: {REGENERATE} -->\n\n"
    );
    let mut placed: Vec<&str> = Vec::new();
    for line in PROSE.lines() {
        match marker(line) {
            Some(area) => {
                placed.push(area);
                out.push_str(&table(area));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    let mut rest: Vec<&str> = CATALOGUE
        .iter()
        .map(|r| r.area)
        .filter(|a| !placed.contains(a))
        .collect();
    rest.dedup();
    for area in rest {
        out.push_str(&format!(
            "\n## Rules of the area `{area}`\n\n{}",
            table(area)
        ));
    }
    out
}

/// The area a `<!-- rules: AREA -->` line names.
fn marker(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("<!-- rules:")?
        .strip_suffix("-->")
        .map(str::trim)
}

/// The table of one area's rules, in catalogue order; empty when the
/// catalogue has none (yet).
fn table(area: &str) -> String {
    let rows: Vec<String> = CATALOGUE
        .iter()
        .filter(|r| r.area == area)
        .map(anchored_row)
        .collect();
    if rows.is_empty() {
        return format!("(The catalogue has no `{area}` rules yet.)\n");
    }
    format!("{HEADER}{}", rows.concat())
}

/// The head of a table of rules.
pub const HEADER: &str = "| id | rule | source | producer | consumer |\n|---|---|---|---|---|\n";

/// One rule as a table row. Every field of [`Rule`] is named here (no
/// `..`), so a field added to the catalogue does not compile until the
/// document shows it.
pub fn row(rule: &Rule) -> String {
    let Rule {
        id,
        area: _, // the section the row is in
        statement,
        quote,
        source,
        severity,
        obligation,
        projection,
    } = *rule;
    let mut text = cell(statement);
    if let Some(q) = quote {
        let from = rule.quote_from().label();
        text.push_str(&format!(" {from}: \"{}\"", cell(q)));
    }
    let mut consumer = obligation.as_str().to_string();
    if let Some(p) = projection {
        consumer.push_str(&format!("; projection: {}", cell(p)));
    }
    format!(
        "| `{id}` | {text} | {} | {} | {consumer} |\n",
        source.as_str(),
        severity.as_str()
    )
}

/// The anchor a rule's row carries in the document, `<a id="RULE-ID"></a>`:
/// the HTML pages, the reports and `explain` link to
/// `docs/rules.md#RULE-ID`, and a table row has no heading anchor of its own.
pub fn anchor(id: &str) -> String {
    format!("<a id=\"{id}\"></a>")
}

/// [`row`] with the rule's [`anchor`] in its first cell.
fn anchored_row(rule: &Rule) -> String {
    let plain = row(rule);
    let cell = format!("| `{}` |", rule.id);
    match plain.strip_prefix(cell.as_str()) {
        Some(rest) => format!("| {}`{}` |{rest}", anchor(rule.id), rule.id),
        None => plain,
    }
}

/// Text safe inside a table cell: `|` escaped, lines joined.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::RuleId;

    #[test]
    fn every_rule_is_in_the_document_once() {
        let doc = document();
        for r in CATALOGUE {
            let needle = format!("| <a id=\"{}\"></a>`{}` |", r.id, r.id);
            assert_eq!(doc.matches(&needle).count(), 1, "{}", r.id);
            assert_eq!(doc.matches(&anchor(r.id)).count(), 1, "{}", r.id);
        }
        assert!(!doc.contains("<!-- rules:"));
    }

    #[test]
    fn a_row_shows_every_field() {
        // From the catalogue entry of accept.attribution-only.
        let r = row(RuleId::AcceptAttributionOnly.rule());
        assert_eq!(
            r,
            "| `accept.attribution-only` | Events tagged with ids that are never announced. \
             Draft: \"A producer MAY attribute events without announcing anything. … a consumer \
             MUST accept it\" | draft | none | must-accept; projection: grouped by id; status \
             `unannounced` |\n"
        );
    }

    #[test]
    fn markers_and_cells() {
        assert_eq!(marker("<!-- rules: run -->"), Some("run"));
        assert_eq!(marker("text"), None);
        assert_eq!(cell("a | b\n  c"), "a \\| b c");
        assert!(table("no-such-area").contains("no `no-such-area` rules"));
    }
}
