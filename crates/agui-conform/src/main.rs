//! The `agui-conform` command line.
//!
//! Each subcommand lives in its own module under `cmd/` with an `Args`
//! struct (clap) and a `run` function returning the process exit status.
//! Exit statuses: 0 success/accept, 1 reject or failures found, 2 usage or
//! I/O error, 3 inconclusive (`check`: a checker limit was hit first) or
//! an incomplete run (`run`: aborted, no case, suite problems), 128 + N
//! after signal N (suites/README.md).
//!
//! Broken pipes: when the reader of stdout goes away (`gen | head`), every
//! subcommand stops quietly at once, prints nothing, and exits 0 — the
//! convention of `head`-friendly tools such as ripgrep: there is nobody left
//! to tell.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod ack;
mod batch;
mod case_input;
mod checking;
mod cmd;
mod config;
mod coverage;
mod input_format;
mod live_check;
mod live_progress;
mod no_events;
mod official_dir;
mod pending;
mod producer;
mod producer_record;
mod producer_suite;
mod record;
mod render;
mod signals;
mod stdout;

/// Conformance suite and fuzzing harness for AG-UI event streams with
/// subagent attribution.
#[derive(Parser)]
#[command(name = "agui-conform", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once; `run` has many flags
enum Command {
    /// Check a recorded stream (JSON Lines or one JSON array) against every rule.
    Check(cmd::check::Args),
    /// List the rule catalogue.
    Rules(cmd::rules::RulesArgs),
    /// Print one rule with the sentence of the draft it rests on.
    Explain(cmd::rules::ExplainArgs),
    /// Validate a corpus directory, or export the built-in corpus.
    #[command(subcommand)]
    Corpus(cmd::corpus::Command),
    /// Generate valid or deliberately invalid streams as corpus cases.
    Gen(cmd::generate::Args),
    /// Run a suite against an implementation and score it (default: the built-in reference).
    Run(cmd::run::Args),
    /// List the suites `run` finds, built-in and local, with their kind (consumer: `run --suite NAME`; producer: `run --producer URL --suite NAME`).
    Suites(cmd::suites::Args),
    /// Fuzz an implementation with generated streams (until --time/--cases), shrinking and saving each distinct failure.
    Fuzz(cmd::fuzz::Args),
    /// Merge run records (`run --record`) into the conformance report.
    Report(cmd::report::Args),
    /// Print the command-line reference (docs/cli.md) as Markdown.
    #[command(hide = true)]
    CliDocs,
}

/// The command-line reference, generated from the flags' own definitions:
/// `docs/cli.md` (a test keeps it current).
fn cli_docs() -> String {
    let options = clap_markdown::MarkdownOptions::new()
        .title("agui-conform command-line reference".to_owned())
        .show_footer(false)
        .show_table_of_contents(true);
    let text = clap_markdown::help_markdown_custom::<Cli>(&options);
    format!(
        "<!-- Generated from the clap definitions: {REGENERATE_CLI_DOCS}; do not edit. -->\n\n{text}"
    )
}

/// How to regenerate `docs/cli.md`.
const REGENERATE_CLI_DOCS: &str = "cargo run -p agui-conform -- cli-docs > docs/cli.md";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Check(a)) => cmd::check::run(a),
        Some(Command::Rules(a)) => cmd::rules::run_rules(a),
        Some(Command::Explain(a)) => cmd::rules::run_explain(a),
        Some(Command::Corpus(c)) => cmd::corpus::run(c),
        Some(Command::Gen(a)) => cmd::generate::run(a),
        Some(Command::Run(a)) => cmd::run::run(a),
        Some(Command::Suites(a)) => cmd::suites::run(a),
        Some(Command::Fuzz(a)) => cmd::fuzz::run(a),
        Some(Command::Report(a)) => cmd::report::run(a),
        Some(Command::CliDocs) => {
            print!("{}", cli_docs());
            Ok(0)
        }
        None => cmd::run::run(cmd::run::Args::default()),
    };
    // Whatever an implementation left running dies with the command.
    agui_harness::subprocess::cleanup::kill_leftovers();
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agui-conform: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether an error comes from writing to a stdout whose reader went away.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    let pipe = Some(std::io::ErrorKind::BrokenPipe);
    e.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().map(|io| io.kind()) == pipe
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == pipe
    })
}

#[cfg(test)]
mod tests {
    /// docs/cli.md is the reference the flags generate: changing a flag
    /// without regenerating it fails here.
    #[test]
    fn docs_cli_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == super::cli_docs(),
            "docs/cli.md is stale: {}",
            super::REGENERATE_CLI_DOCS
        );
    }
}
