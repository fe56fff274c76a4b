//! `fuzz-replay`: runs one fuzz target's body on input files, without
//! libFuzzer or a nightly toolchain (a crash file from `fuzz/artifacts/`,
//! a regression input, a seed):
//!
//! ```text
//! cargo run -p agui-fuzz --bin fuzz-replay -- <target> <file>...
//! ```
//!
//! A broken invariant panics with the target's message, as under
//! libFuzzer; otherwise it prints one line per file.

use anyhow::{Context, bail};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next().filter(|a| a != "-h" && a != "--help") else {
        println!(
            "usage: fuzz-replay <target> <file>...\ntargets: {}",
            agui_fuzz::TARGETS.join(", ")
        );
        return Ok(());
    };
    if !agui_fuzz::TARGETS.contains(&target.as_str()) {
        bail!(
            "no fuzz target {target:?} (targets: {})",
            agui_fuzz::TARGETS.join(", ")
        );
    }
    let files: Vec<String> = args.collect();
    if files.is_empty() {
        bail!("no input files");
    }
    for f in &files {
        let data = std::fs::read(f).with_context(|| format!("reading {f}"))?;
        agui_fuzz::run_target(&target, &data).map_err(anyhow::Error::msg)?;
        println!("{target}: {f}: ok ({} bytes)", data.len());
    }
    Ok(())
}
