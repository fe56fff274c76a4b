//! `agui-conform rules` and `agui-conform explain`: the rule catalogue of
//! `agui_model::CATALOGUE`, for people and for machines.

mod markdown;
#[cfg(test)]
mod summary;

use crate::stdout::to_stdout;
use agui_model::{CATALOGUE, Rule};
use serde_json::{Map, Value};
use std::io::{self, Write};

/// Arguments of `agui-conform rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// Output form: a table grouped by area, a JSON array, or the Markdown
    /// document `docs/rules.md`.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `agui-conform explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A rule id, e.g. `ownership.continuation-disagrees`.
    pub rule: String,
    /// Output form: readable text, one JSON object, or a Markdown table row.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Output form of `rules` and `explain`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Markdown,
}

pub fn run_rules(args: RulesArgs) -> anyhow::Result<u8> {
    to_stdout(|out| match args.format {
        Format::Json => {
            let all: Vec<Value> = CATALOGUE.iter().map(rule_json).collect();
            writeln!(out, "{}", Value::Array(all).to_pretty())
        }
        Format::Text => write_table(out),
        Format::Markdown => out.write_all(markdown::document().as_bytes()),
    })?;
    Ok(0)
}

/// Pretty JSON text of a value.
trait Pretty {
    fn to_pretty(&self) -> String;
}

impl Pretty for Value {
    fn to_pretty(&self) -> String {
        // Serializing a `Value` cannot fail (its keys are strings).
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

pub fn run_explain(args: ExplainArgs) -> anyhow::Result<u8> {
    let Some(rule) = CATALOGUE.iter().find(|r| r.id == args.rule) else {
        eprintln!("agui-conform: unknown rule id `{}`", args.rule);
        let close = suggestions(&args.rule);
        if !close.is_empty() {
            eprintln!("did you mean: {}?", close.join(", "));
        }
        eprintln!("(`agui-conform rules` lists every rule)");
        return Ok(2);
    };
    to_stdout(|out| match args.format {
        Format::Json => writeln!(out, "{}", rule_json(rule).to_pretty()),
        Format::Text => write_rule(out, rule),
        Format::Markdown => write!(out, "{}{}", markdown::HEADER, markdown::row(rule)),
    })?;
    Ok(0)
}

/// The machine form of a rule: `id, area, statement, source, severity,
/// obligation`, plus `quote` and `projection` when the rule has them.
fn rule_json(rule: &Rule) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), rule.id.into());
    m.insert("area".into(), rule.area.into());
    m.insert("statement".into(), rule.statement.into());
    m.insert("source".into(), rule.source.as_str().into());
    m.insert("severity".into(), rule.severity.as_str().into());
    m.insert("obligation".into(), rule.obligation.as_str().into());
    if let Some(q) = rule.quote {
        m.insert("quote".into(), q.into());
    }
    if let Some(p) = rule.projection {
        m.insert("projection".into(), p.into());
    }
    Value::Object(m)
}

/// The catalogue as a table, one block per area in catalogue order.
fn write_table(out: &mut impl Write) -> io::Result<()> {
    let width = CATALOGUE.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut area = "";
    for rule in CATALOGUE {
        if rule.area != area {
            if !area.is_empty() {
                writeln!(out)?;
            }
            area = rule.area;
            writeln!(out, "{area}")?;
        }
        writeln!(
            out,
            "  {:<width$}  {:<7}  {:<13}  {}",
            rule.id,
            rule.severity.as_str(),
            rule.obligation.as_str(),
            rule.statement
        )?;
    }
    writeln!(
        out,
        "\n{} rules; `agui-conform explain RULE` shows one with its draft quote.",
        CATALOGUE.len()
    )
}

/// One rule with every field.
fn write_rule(out: &mut impl Write, rule: &Rule) -> io::Result<()> {
    writeln!(out, "{}", rule.id)?;
    writeln!(out, "  {}", rule.statement)?;
    writeln!(out, "  area:        {}", rule.area)?;
    writeln!(out, "  source:      {}", rule.source.as_str())?;
    writeln!(
        out,
        "  severity:    {} (what the rule asks of a producer)",
        rule.severity.as_str()
    )?;
    writeln!(
        out,
        "  obligation:  {} (what it asks of a consumer)",
        rule.obligation.as_str()
    )?;
    match rule.quote {
        Some(q) if rule.quote_from() == agui_model::rules::QuoteFrom::Spec => {
            writeln!(out, "  spec:        \"{q}\"")?
        }
        Some(q) => writeln!(out, "  draft:       \"{q}\"")?,
        None => writeln!(
            out,
            "  draft:       (no sentence of the draft; source: {})",
            rule.source.as_str()
        )?,
    }
    if let Some(p) = rule.projection {
        writeln!(out, "  projection:  {p}")?;
    }
    writeln!(
        out,
        "  doc:         {}#{}",
        agui_model::violation::RULES_DOC,
        rule.id
    )?;
    Ok(())
}

/// Up to five ids close to an unknown one: ids it is a prefix of (or whose
/// area it names) first, then ids within a small edit distance.
fn suggestions(query: &str) -> Vec<&'static str> {
    let q = query.trim().to_ascii_lowercase();
    if q.is_empty() {
        return Vec::new();
    }
    let mut picked: Vec<&'static str> = CATALOGUE
        .iter()
        .filter(|r| r.id.starts_with(&q) || r.area == q || r.id.ends_with(&format!(".{q}")))
        .map(|r| r.id)
        .collect();
    let limit = (q.len() / 3).max(2);
    let mut near: Vec<(usize, &'static str)> = CATALOGUE
        .iter()
        .map(|r| {
            // Compare with the whole id, and with its name after the area.
            let name = r.id.split_once('.').map_or(r.id, |(_, n)| n);
            (
                strsim::levenshtein(&q, r.id).min(strsim::levenshtein(&q, name)),
                r.id,
            )
        })
        .filter(|&(d, id)| d <= limit && !picked.contains(&id))
        .collect();
    near.sort();
    picked.extend(near.into_iter().map(|(_, id)| id));
    picked.truncate(5);
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_a_misspelt_id() {
        assert_eq!(suggestions("schema.not-jsn")[0], "schema.not-json");
        assert_eq!(
            suggestions("ownership.continuation-disagree")[0],
            "ownership.continuation-disagrees"
        );
    }

    #[test]
    fn suggests_by_prefix_and_by_name_alone() {
        assert!(suggestions("lifecycle.re").contains(&"lifecycle.reused-id"));
        assert_eq!(suggestions("not-json"), vec!["schema.not-json"]);
        let chunks = suggestions("chunk");
        assert_eq!(chunks.len(), 4, "{chunks:?}");
        assert!(chunks.iter().all(|id| id.starts_with("chunk.")));
    }

    #[test]
    fn far_queries_get_no_suggestion() {
        assert!(suggestions("completely-unrelated-words").is_empty());
        assert!(suggestions("").is_empty());
    }

    #[test]
    fn json_form_has_optional_fields_only_when_present() {
        let with = rule_json(agui_model::RuleId::AttributionNull.rule());
        assert_eq!(
            with["quote"],
            "An absent subagentRunId means the parent agent, and MUST NOT be spelled as null."
        );
        assert!(with.get("projection").is_none());
        let without = rule_json(agui_model::RuleId::SchemaNotJson.rule());
        assert!(without.get("quote").is_none());
        assert_eq!(without["severity"], "error");
        assert_eq!(without["obligation"], "must-reject");
        assert_eq!(without["source"], "schema");
        assert_eq!(without["area"], "schema");
    }
}
