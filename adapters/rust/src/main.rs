//! `agui-rust-sdks`: runs an agui-conform suite, or a fuzz campaign, against
//! a Rust AG-UI SDK in process and writes the run record (`agui-conform
//! report` merges it).
//!
//! ```text
//! agui-rust-sdks run --sdk ag-ui [--suite NAME] [--filter TEXT] [--record FILE] [--verbose]
//! agui-rust-sdks fuzz --sdk ag-ui [--seed N] [--cases N] [--time T] [--shrink-budget N] [--record FILE]
//! agui-rust-sdks sdks
//! ```

use agui_harness::campaign::parse_duration;
use agui_harness::subprocess::cleanup;
use agui_rust_sdks::Sdk;
use agui_rust_sdks::fuzz_run::{FuzzOptions, draw_seed, fuzz};
use agui_rust_sdks::suite_run::{Options, run};
use std::process::ExitCode;

const USAGE: &str = "usage: agui-rust-sdks run --sdk SDK [--suite NAME] [--filter TEXT] [--record FILE] [--verbose]
       agui-rust-sdks fuzz --sdk SDK [--seed N] [--cases N] [--time T] [--shrink-budget N] [--record FILE]
       agui-rust-sdks sdks

fuzz: the campaign `agui-conform fuzz` runs (mixed streams, every rule), in
process; --time takes 90s, 5m, 1h (plain numbers are seconds); neither
--cases nor --time: until interrupted. Exit status: 0 no FAIL or ERRORED,
1 some, 2 bad flags or the record could not be written, 3 incomplete,
128 + N after signal N.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("sdks") => {
            for s in Sdk::ALL {
                println!("{}\t{}\t{}", s.key(), s.version(), s.name());
            }
            ExitCode::SUCCESS
        }
        Some("run") => match parse(&args[1..]) {
            Ok((sdk, opts)) => finish(run(sdk, &opts).map(|ran| (ran.text, ran.exit))),
            Err(e) => usage(&e),
        },
        Some("fuzz") => match parse_fuzz(&args[1..]) {
            Ok((sdk, mut opts)) => {
                // A signal stops taking cases; the record is still written.
                cleanup::install(cleanup::OnSignal::WindDown);
                if opts.seed.is_none() {
                    let seed = draw_seed();
                    eprintln!("agui-rust-sdks fuzz: seed {seed}");
                    opts.seed = Some(seed);
                }
                finish(fuzz(sdk, &opts).map(|done| (done.text, done.exit)))
            }
            Err(e) => usage(&e),
        },
        _ => usage("a command is needed"),
    }
}

/// Prints a finished command's report and exits with its status; an error
/// that stopped it is exit 2.
fn finish(done: anyhow::Result<(String, u8)>) -> ExitCode {
    match done {
        Ok((text, exit)) => {
            print!("{text}");
            ExitCode::from(exit)
        }
        Err(e) => {
            eprintln!("agui-rust-sdks: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn usage(why: &str) -> ExitCode {
    eprintln!("agui-rust-sdks: {why}\n{USAGE}");
    ExitCode::from(2)
}

/// `--sdk KEY`.
fn sdk_of(key: &str) -> Result<Sdk, String> {
    Sdk::from_key(key).ok_or_else(|| {
        let known: Vec<&str> = Sdk::ALL.iter().map(|s| s.key()).collect();
        format!(
            "no SDK `{key}` in this build (built in: {})",
            known.join(", ")
        )
    })
}

/// Walks `args` as flags: `on(flag, value)` handles each, `value()`
/// taking the word after it (an error when there is none).
fn each_flag(
    args: &[String],
    mut on: impl FnMut(&str, &mut dyn FnMut() -> Result<String, String>) -> Result<(), String>,
) -> Result<(), String> {
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        on(flag, &mut value)?;
    }
    Ok(())
}

/// `run`'s flags.
fn parse(args: &[String]) -> Result<(Sdk, Options), String> {
    let mut sdk = None;
    let mut opts = Options {
        suite: "default".into(),
        ..Options::default()
    };
    each_flag(args, |flag, value| {
        match flag {
            "--sdk" => sdk = Some(sdk_of(&value()?)?),
            "--suite" => opts.suite = value()?,
            "--filter" => opts.filter = Some(value()?),
            "--record" => opts.record = Some(value()?.into()),
            "--verbose" | "-v" => opts.verbose = true,
            other => return Err(format!("unknown flag {other}")),
        }
        Ok(())
    })?;
    Ok((sdk.ok_or("--sdk is needed")?, opts))
}

/// A whole number for `flag`.
fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag} takes a whole number, not `{v}`"))
}

/// `fuzz`'s flags.
fn parse_fuzz(args: &[String]) -> Result<(Sdk, FuzzOptions), String> {
    let mut sdk = None;
    let mut opts = FuzzOptions::default();
    each_flag(args, |flag, value| {
        match flag {
            "--sdk" => sdk = Some(sdk_of(&value()?)?),
            "--seed" => opts.seed = Some(number(flag, &value()?)?),
            "--cases" => opts.cases = Some(number(flag, &value()?)?),
            "--time" => {
                opts.time = Some(parse_duration(&value()?).map_err(|e| format!("--time: {e}"))?)
            }
            "--shrink-budget" => opts.shrink_budget = number(flag, &value()?)?,
            "--record" => opts.record = Some(value()?.into()),
            other => return Err(format!("unknown flag {other}")),
        }
        Ok(())
    })?;
    Ok((sdk.ok_or("--sdk is needed")?, opts))
}
