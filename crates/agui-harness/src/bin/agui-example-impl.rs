//! An example implementation behind the agui-conform protocol
//! (`suites/PROTOCOL.md`): the reference model, wrapped. It shows how
//! little an adapter is, and is what the protocol benchmark runs.
//!
//! `agui-example-impl` speaks the persistent protocol;
//! `agui-example-impl --one-shot` reads one stream (JSON Lines) from stdin
//! and prints one result line.

use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};

/// The result object for a stream: reject at the first error-severity
/// violation, else accept with the projection.
fn result(report: agui_model::Report) -> Value {
    match report
        .violations
        .iter()
        .find(|v| v.rule.severity() == agui_model::Severity::Error)
    {
        Some(v) => {
            json!({"verdict": "reject", "index": v.index, "rule": v.rule.as_str(), "message": v.message})
        }
        None => {
            let mut r = json!({"verdict": "accept"});
            if let Some(p) = report.projection {
                r["projection"] = p.to_json();
            }
            r
        }
    }
}

fn one_shot() -> std::io::Result<()> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let mut c = agui_model::Checker::new();
    for (n, line) in input.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(v) => c.push(&v),
            Err(e) => c.push_unparseable(&format!("line {}: {e}", n + 1)),
        }
    }
    println!("{}", result(c.finish()));
    Ok(())
}

fn persistent() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        let msg: Value = match serde_json::from_str(&line) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("agui-example-impl: not JSON: {e}");
                continue;
            }
        };
        let answer = match msg["cmd"].as_str() {
            Some("start") => json!({
                "protocol": 1,
                "implementation": {"name": "agui-example-impl", "version": env!("CARGO_PKG_VERSION"), "language": "rust"},
                "capabilities": ["verdict", "index", "rule", "projection"],
            }),
            Some("run") => {
                let events = msg["case"]["events"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                json!({"seq": msg["seq"], "result": result(agui_model::check_values(events))})
            }
            Some("stop") => return Ok(()),
            _ => {
                eprintln!("agui-example-impl: unknown message: {line}");
                continue;
            }
        };
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}

fn main() {
    let one = std::env::args().any(|a| a == "--one-shot");
    let r = if one { one_shot() } else { persistent() };
    if let Err(e) = r {
        eprintln!("agui-example-impl: {e}");
        std::process::exit(1);
    }
}
