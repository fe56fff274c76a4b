//! An example implementation behind the agui-conform protocol
//! (`suites/PROTOCOL.md`): the reference model, wrapped. It shows how
//! little an adapter is, and is what the protocol benchmark runs.
//!
//! `agui-example-impl` speaks the persistent protocol (`--no-projection`:
//! without the `projection` capability);
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

fn persistent(projection: bool) -> std::io::Result<()> {
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
                "capabilities": if projection {
                    json!(["verdict", "index", "rule", "projection"])
                } else {
                    json!(["verdict", "index", "rule"])
                },
            }),
            Some("run") => {
                let events = msg["case"]["events"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                let mut c = if projection {
                    agui_model::Checker::new()
                } else {
                    agui_model::Checker::without_projection()
                };
                for e in events {
                    c.push(e);
                }
                json!({"seq": msg["seq"], "result": result(c.finish())})
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
    let projection = !std::env::args().any(|a| a == "--no-projection");
    let r = if one {
        one_shot()
    } else {
        persistent(projection)
    };
    if let Err(e) = r {
        eprintln!("agui-example-impl: {e}");
        std::process::exit(1);
    }
}
