//! `agui-conform corpus check [DIR]`: the corpus gates and every case
//! against the reference, from the command line, so that a vendor can
//! validate a corpus they extend. All logic lives in `agui_corpus`.
//! `agui-conform corpus export DIR` writes the built-in corpus out.

use agui_corpus::check::CheckSummary;
use anyhow::Context;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Check a corpus directory: case format, rule ids, indexes, gates, and
    /// every case's expectation against the reference model.
    Check {
        /// The corpus directory.
        #[arg(default_value = "corpus")]
        dir: PathBuf,
        /// The spec texts (`docs/rules.md`, the rule catalogue, and
        /// `subagents-draft.txt`, the draft) in this directory: also check
        /// that the quotes recorded in DIR/spec-quotes.md are verbatim (or,
        /// without that file, that every case's `spec` is).
        #[arg(long, value_name = "DIR")]
        spec: Option<PathBuf>,
        /// A vendor's own folder: only what `run` needs (case schema, the
        /// id rule, expectations) and the reference comparison; the golden
        /// corpus's gates (every rule covered, known areas, schema-valid
        /// events) are off.
        #[arg(long)]
        vendor: bool,
    },
    /// Write the corpus built into this binary (cases, case.schema.json,
    /// README.md, spec-quotes.md) into DIR, for runners in other languages.
    Export {
        /// The directory to write (created; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that already has files (same paths are
        /// overwritten).
        #[arg(long)]
        force: bool,
    },
}

/// Exit status: 0 all good, 1 any problem, 2 the directory cannot be read.
pub fn run(cmd: Command) -> anyhow::Result<u8> {
    match cmd {
        Command::Check { dir, spec, vendor } => check(&dir, spec.as_deref(), vendor),
        Command::Export { dir, force } => export(&dir, force),
    }
}

fn export(dir: &Path, force: bool) -> anyhow::Result<u8> {
    let has_files = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
    if has_files && !force {
        anyhow::bail!(
            "{} is not empty (--force writes into it anyway)",
            dir.display()
        );
    }
    let n = agui_assets::export("corpus", dir)
        .with_context(|| format!("cannot write the corpus into {}", dir.display()))?;
    crate::stdout::to_stdout(|out| {
        writeln!(
            out,
            "wrote {n} files of the built-in corpus to {} (`agui-conform corpus check {}` checks it)",
            dir.display(),
            dir.display()
        )
    })?;
    Ok(0)
}

fn check(dir: &Path, spec: Option<&Path>, vendor: bool) -> anyhow::Result<u8> {
    let which = if vendor {
        agui_corpus::check::Gates::Vendor
    } else {
        agui_corpus::check::Gates::Golden
    };
    let summary =
        agui_corpus::check::check_dir_with(dir, spec, which).with_context(|| match spec {
            Some(s) => format!(
                "cannot read corpus directory {} or spec directory {}",
                dir.display(),
                s.display()
            ),
            None => format!("cannot read corpus directory {}", dir.display()),
        })?;
    crate::stdout::to_stdout(|out| write!(out, "{}", render(dir, &summary)))?;
    Ok(if summary.ok() { 0 } else { 1 })
}

/// The report: every problem with its path, then the one-line summary.
fn render(dir: &Path, s: &CheckSummary) -> String {
    let mut out = String::new();
    for p in &s.malformed {
        out.push_str(&format!("MALFORMED {p}\n"));
    }
    for g in s.gates.iter().filter(|g| !g.problems.is_empty()) {
        out.push_str(&format!(
            "GATE FAILED {} ({} problem(s))\n",
            g.name,
            g.problems.len()
        ));
        for p in &g.problems {
            out.push_str(&format!("  {p}\n"));
        }
    }
    for f in &s.failed {
        out.push_str(&format!("FAILED {} ({})\n", f.id, f.path.display()));
        for line in f.detail.lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str(&format!(
        "corpus {}: {} cases, {} passed, {} failed, {} malformed; gates: {} passed, {} failed\n",
        dir.display(),
        s.cases,
        s.passed,
        s.failed.len(),
        s.malformed_files(),
        s.gates.len() - s.gates_failed(),
        s.gates_failed()
    ));
    out
}
