//! `agui-conform report` on producer run records (`run --producer …
//! --record`): the producers page (agui_harness::report::producers) and
//! the README's producers summary.

use super::report::{Args, write};
use agui_harness::record::Record;
use agui_harness::report::producers::{self, Info};
use anyhow::Context;

pub fn run(args: &Args, records: &[Record]) -> anyhow::Result<u8> {
    if args.html.is_some() {
        anyhow::bail!("--html: the producers report is Markdown only (give --markdown FILE)");
    }
    if !args.label.is_empty() {
        anyhow::bail!("--label: a producer's heading comes from --notes (its `label`)");
    }
    let info: Info = match &args.notes {
        Some(p) => {
            let text = agui_model::bounded::read_to_string(p, agui_model::bounded::CONFIG_BYTES)
                .with_context(|| format!("reading {}", p.display()))?;
            serde_json::from_str(&text).with_context(|| {
                format!(
                    "{}: not producer notes (name → {{label, paths, notes, not_covered}})",
                    p.display()
                )
            })?
        }
        None => Info::new(),
    };
    let missing: Vec<(String, String)> = args
        .missing
        .iter()
        .map(|m| match m.split_once('=') {
            Some((name, why)) => (name.to_owned(), why.to_owned()),
            None => (m.clone(), "no record".to_owned()),
        })
        .collect();
    if let Some(p) = &args.markdown {
        write(p, &producers::render(records, &info, &missing))?;
    }
    if let Some(readme) = &args.readme {
        let text = std::fs::read_to_string(readme)
            .with_context(|| format!("reading {}", readme.display()))?;
        let table = producers::summary_table(records, &info, &missing);
        match producers::fill_summary(&text, &table) {
            Some(new) => write(readme, &new)?,
            None => eprintln!(
                "agui-conform: {} has no producers-summary markers; left as it is",
                readme.display()
            ),
        }
    }
    Ok(0)
}
