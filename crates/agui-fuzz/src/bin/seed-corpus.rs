//! `seed-corpus`: writes the fuzz seed corpora and the dictionary from the
//! golden corpus.
//!
//! ```text
//! cargo run -p agui-fuzz --bin seed-corpus -- [--corpus corpus] [--out fuzz/seeds]
//!     [--dict fuzz/dictionaries/agui.dict] [--max-stream-bytes 2048]
//! ```
//!
//! Run from the repository root. Streams longer than `--max-stream-bytes`
//! as JSON Lines are left out, so the committed seeds stay small.

use anyhow::{Context, bail};
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut corpus = PathBuf::from("corpus");
    let mut out = PathBuf::from("fuzz/seeds");
    let mut dict = PathBuf::from("fuzz/dictionaries/agui.dict");
    let mut max_stream_bytes = 2048usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--corpus" => corpus = val()?.into(),
            "--out" => out = val()?.into(),
            "--dict" => dict = val()?.into(),
            "--max-stream-bytes" => max_stream_bytes = val()?.parse()?,
            "-h" | "--help" => {
                println!(
                    "usage: seed-corpus [--corpus DIR] [--out DIR] [--dict FILE] [--max-stream-bytes N]"
                );
                return Ok(());
            }
            other => bail!("unknown argument {other:?} (see --help)"),
        }
    }
    let cases = agui_fuzz::seeds::load_cases(&corpus)
        .with_context(|| format!("reading {}", corpus.display()))?;
    if cases.is_empty() {
        bail!("no cases under {}", corpus.display());
    }
    let seeds = agui_fuzz::seeds::seeds(&cases, max_stream_bytes);
    let n = agui_fuzz::seeds::write_seeds(&out, &seeds)
        .with_context(|| format!("writing {}", out.display()))?;
    if let Some(p) = dict.parent() {
        std::fs::create_dir_all(p)?;
    }
    std::fs::write(&dict, agui_fuzz::seeds::dictionary(&cases))
        .with_context(|| format!("writing {}", dict.display()))?;
    for (target, files) in &seeds {
        println!("{target}: {} seeds", files.len());
    }
    println!(
        "{n} seed files from {} cases under {}; dictionary {}",
        cases.len(),
        out.display(),
        dict.display()
    );
    Ok(())
}
