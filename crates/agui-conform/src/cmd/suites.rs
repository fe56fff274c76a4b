//! `agui-conform suites`: the suites `run --suite NAME` can find, built-in
//! and local, and which one a name picks.

use agui_harness::Suite;
use agui_harness::suite::{builtin_names, find_local, local_names};
use std::io::Write;

/// Arguments of `agui-conform suites`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<u8> {
    let mut names: Vec<String> = builtin_names().into_iter().map(str::to_owned).collect();
    names.extend(local_names());
    names.sort();
    names.dedup();
    let width = names.iter().map(String::len).max().unwrap_or(0);
    let mut text = String::new();
    for name in &names {
        let local = find_local(name)?;
        let builtin = builtin_names().contains(&name.as_str());
        let from = match (&local, builtin) {
            (Some(p), true) => format!("{} (overrides the built-in one)", p.display()),
            (Some(p), false) => p.display().to_string(),
            (None, _) => "built-in".to_string(),
        };
        let description = match Suite::find(name) {
            Ok(s) => s.file.description,
            Err(e) => format!("cannot load: {e:#}"),
        };
        text.push_str(&format!(
            "{name:<width$}  {description}\n{:<width$}  from {from}\n",
            ""
        ));
    }
    text.push_str("\n`agui-conform run --suite NAME` runs one; a local suites/NAME.toml or a path to a .toml file overrides a built-in suite.\n");
    crate::stdout::to_stdout(|out| out.write_all(text.as_bytes()))?;
    Ok(0)
}
