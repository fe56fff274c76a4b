//! The rule table of README.md ("The rule catalogue"), generated from
//! [`CATALOGUE`] so that it cannot drift: one row per run of rules in
//! catalogue order sharing area, producer severity and consumer
//! obligation. A test compares README.md's table with it;
//! `AGUI_CONFORM_BLESS=1` writes it there.

use agui_model::{CATALOGUE, Rule};

/// Where the table sits in README.md.
const START: &str = "<!-- rule-table:start (generated from crates/agui-model/src/rules.rs; AGUI_CONFORM_BLESS=1 cargo test -p agui-conform readme_rule_table rewrites it) -->";
const END: &str = "<!-- rule-table:end -->";

/// The table.
pub fn table() -> String {
    let key = |r: &Rule| (r.area, r.severity.as_str(), r.obligation.as_str());
    let mut rows: Vec<(&Rule, Vec<&str>)> = Vec::new();
    for rule in CATALOGUE {
        match rows.last_mut() {
            Some((first, ids)) if key(first) == key(rule) => ids.push(rule.id),
            _ => rows.push((rule, vec![rule.id])),
        }
    }
    let dash = |s: &str| {
        if s == "none" {
            "—".to_owned()
        } else {
            s.to_owned()
        }
    };
    let mut out = String::from("| area | rules | producer | consumer |\n|---|---|---|---|\n");
    for (first, ids) in rows {
        let listed = match first.area {
            // Obligations of consumers, not rules a stream breaks.
            "accept" => format!(
                "{} `accept.*` obligations (valid behaviour a consumer must accept and show)",
                ids.len()
            ),
            _ => ids
                .iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        out.push_str(&format!(
            "| {} | {listed} | {} | {} |\n",
            first.area,
            dash(first.severity.as_str()),
            dash(first.obligation.as_str())
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_rule_table_is_the_catalogues() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
        let readme = std::fs::read_to_string(&path).unwrap();
        let (Some(a), Some(b)) = (readme.find(START), readme.find(END)) else {
            panic!("README.md has no {START} … {END} section");
        };
        let have = &readme[a + START.len()..b];
        let want = format!("\n{}", table());
        if have != want {
            if std::env::var_os("AGUI_CONFORM_BLESS").is_some() {
                let text = format!("{}{START}{want}{}", &readme[..a], &readme[b..]);
                std::fs::write(&path, text).unwrap();
                return;
            }
            panic!(
                "README.md's rule table is stale: AGUI_CONFORM_BLESS=1 cargo test -p agui-conform readme_rule_table"
            );
        }
    }

    #[test]
    fn transport_rows_carry_the_catalogues_severities() {
        // docs/rules.md: transport.status is an error, transport.content-type
        // a warning; the table must not give one severity to the family.
        let t = table();
        let row = |id: &str| {
            t.lines()
                .find(|l| l.contains(&format!("`{id}`")))
                .unwrap()
                .to_owned()
        };
        assert!(row("transport.status").contains("| error |"), "{t}");
        assert!(row("transport.content-type").contains("| warning |"), "{t}");
        assert!(row("transport.idle").contains("| warning |"), "{t}");
    }
}
