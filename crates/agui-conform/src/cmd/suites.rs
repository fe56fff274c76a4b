//! `agui-conform suites`: the suites `run` can find, built-in and local,
//! each with its kind — a consumer suite scores an implementation (`run
//! --suite NAME --impl CMD`), a producer suite drives an endpoint (`run
//! --producer URL --suite NAME`) — and which one a name picks.

use agui_harness::Suite;
use agui_harness::suite::{builtin_names, find_local, local_names};
use std::io::Write;

/// Arguments of `agui-conform suites`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Instead of the list: the scenarios of this producer suite (a name
    /// or a folder), as one JSON array of `{"id", "description"}`, in the
    /// order `run --producer` runs them (what a test parametrizes over).
    #[arg(long, value_name = "SUITE")]
    pub scenarios: Option<String>,
}

/// `suites --scenarios SUITE`: the suite's scenarios as JSON.
fn scenarios(suite: &str) -> anyhow::Result<u8> {
    use agui_live::suite as producer;
    let dir = producer::find(suite)?;
    let listed: Vec<serde_json::Value> = producer::load(&dir)?
        .iter()
        .map(|i| {
            let description = i.input.as_ref().ok().and_then(|s| s.description.clone());
            serde_json::json!({"id": i.id, "description": description})
        })
        .collect();
    let text = serde_json::Value::Array(listed).to_string();
    crate::stdout::to_stdout(|out| writeln!(out, "{text}"))?;
    Ok(0)
}

/// One suite listed.
struct Listed {
    name: String,
    kind: &'static str,
    description: String,
    from: String,
}

/// Where a suite comes from: a local one (overriding the built-in one of
/// its name, if any) or the binary.
fn from(local: Option<std::path::PathBuf>, builtin: bool) -> String {
    match (local, builtin) {
        (Some(p), true) => format!("{} (overrides the built-in one)", p.display()),
        (Some(p), false) => p.display().to_string(),
        (None, _) => "built-in".to_string(),
    }
}

fn consumer_suites() -> anyhow::Result<Vec<Listed>> {
    let mut names: Vec<String> = builtin_names().into_iter().map(str::to_owned).collect();
    names.extend(local_names());
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let local = find_local(&name)?;
            let builtin = builtin_names().contains(&name.as_str());
            let description = match Suite::find(&name) {
                Ok(s) => s.file.description,
                Err(e) => format!("cannot load: {e:#}"),
            };
            Ok(Listed {
                kind: "consumer",
                description,
                from: from(local, builtin),
                name,
            })
        })
        .collect()
}

fn producer_suites() -> anyhow::Result<Vec<Listed>> {
    use agui_live::suite as producer;
    let mut names = producer::local_names();
    names.push(producer::BUILT_IN.to_owned());
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let local = producer::find_local(&name)?;
            let builtin = name == producer::BUILT_IN;
            let path = match &local {
                Some(p) => p.clone(),
                None => producer::built_in_dir(),
            };
            let description = match producer::describe(&path) {
                Ok(d) => d,
                Err(e) => format!("cannot load: {e:#}"),
            };
            Ok(Listed {
                kind: "producer",
                description,
                from: from(local, builtin),
                name,
            })
        })
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    if let Some(suite) = &args.scenarios {
        return scenarios(suite);
    }
    let mut all = consumer_suites()?;
    all.extend(producer_suites()?);
    all.sort_by(|a, b| (&a.name, a.kind).cmp(&(&b.name, b.kind)));
    let width = all.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let kind = "consumer".len();
    let mut text = String::new();
    for s in &all {
        text.push_str(&format!(
            "{:<width$}  {:<kind$}  {}\n{:<width$}  {:<kind$}  from {}\n",
            s.name, s.kind, s.description, "", "", s.from
        ));
    }
    text.push_str(
        "\nconsumer: scores an implementation, `agui-conform run --suite NAME [--impl CMD]`; \
         a local suites/NAME.toml or a path to a .toml file overrides a built-in one.\n\
         producer: drives an AG-UI endpoint, `agui-conform run --producer URL [--suite NAME]`; \
         a local suites/NAME/ folder of scenarios or a path overrides a built-in one.\n",
    );
    crate::stdout::to_stdout(|out| out.write_all(text.as_bytes()))?;
    Ok(0)
}
