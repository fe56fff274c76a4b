//! `agui-rust-sdks`: runs an agui-conform suite against a Rust AG-UI SDK in
//! process and writes the run record (`agui-conform report` merges it).
//!
//! ```text
//! agui-rust-sdks run --sdk ag-ui [--suite NAME] [--filter TEXT] [--record FILE] [--verbose]
//! agui-rust-sdks sdks
//! ```

use agui_rust_sdks::Sdk;
use agui_rust_sdks::suite_run::{Options, run};
use std::process::ExitCode;

const USAGE: &str = "usage: agui-rust-sdks run --sdk SDK [--suite NAME] [--filter TEXT] [--record FILE] [--verbose]\n       agui-rust-sdks sdks";

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
            Ok((sdk, opts)) => match run(sdk, &opts) {
                Ok(ran) => {
                    print!("{}", ran.text);
                    ExitCode::from(ran.exit)
                }
                Err(e) => {
                    eprintln!("agui-rust-sdks: {e:#}");
                    ExitCode::from(2)
                }
            },
            Err(e) => usage(&e),
        },
        _ => usage("a command is needed"),
    }
}

fn usage(why: &str) -> ExitCode {
    eprintln!("agui-rust-sdks: {why}\n{USAGE}");
    ExitCode::from(2)
}

/// `run`'s flags.
fn parse(args: &[String]) -> Result<(Sdk, Options), String> {
    let mut sdk = None;
    let mut opts = Options {
        suite: "default".into(),
        ..Options::default()
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--sdk" => {
                let key = value()?;
                let known: Vec<&str> = Sdk::ALL.iter().map(|s| s.key()).collect();
                sdk = Some(Sdk::from_key(&key).ok_or_else(|| {
                    format!(
                        "no SDK `{key}` in this build (built in: {})",
                        known.join(", ")
                    )
                })?);
            }
            "--suite" => opts.suite = value()?,
            "--filter" => opts.filter = Some(value()?),
            "--record" => opts.record = Some(value()?.into()),
            "--verbose" | "-v" => opts.verbose = true,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok((sdk.ok_or("--sdk is needed")?, opts))
}
