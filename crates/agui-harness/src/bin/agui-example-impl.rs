//! An example implementation behind the agui-conform protocol
//! (`suites/PROTOCOL.md`): the reference model, wrapped. It shows how
//! little an adapter is, and is what the protocol benchmark runs.
//!
//! `agui-example-impl` speaks the persistent protocol (`--no-projection`:
//! without the `projection` capability);
//! `agui-example-impl --one-shot` reads one stream (JSON Lines) from stdin
//! and prints one result line.
//!
//! It declares `raw-lines`: a case may come as raw JSON Lines text, read
//! like stdin ([`agui_model::check`]). Messages are read as RFC 8259 JSON
//! (any nesting) and answers written with [`Out`], so a projection prints
//! a number outside a double's range as written.

use agui_model::json::{self, Out};
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// The result object for a stream: reject where a conforming consumer
/// does ([`agui_model::Report::consumer_rejects_at`]), else accept with the
/// projection.
fn result(report: agui_model::Report) -> Value {
    match report.consumer_rejects_at() {
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
    let report =
        agui_model::check::check_reader(std::io::stdin().lock(), agui_model::Checker::new())?;
    println!("{}", serde_json::to_string(&Out(&result(report)))?);
    Ok(())
}

/// The answer to a `run` request: its `events`, or its raw `lines`.
fn run(case: &Value, projection: bool) -> Value {
    let c = if projection {
        agui_model::Checker::new()
    } else {
        agui_model::Checker::without_projection()
    };
    if let Some(lines) = case["lines"].as_array() {
        let mut text = String::new();
        for l in lines {
            text.push_str(l.as_str().unwrap_or_default());
            text.push('\n');
        }
        return result(agui_model::check::check_bytes(text.as_bytes(), c));
    }
    let mut c = c;
    for e in case["events"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        c.push(e);
    }
    result(c.finish())
}

fn persistent(projection: bool) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        let msg: Value = match json::parse(&line, &json::ParseOptions::default()) {
            Ok(m) => m.value,
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
                    json!(["verdict", "index", "rule", "projection", "raw-lines"])
                } else {
                    json!(["verdict", "index", "rule", "raw-lines"])
                },
            }),
            Some("run") => json!({"seq": msg["seq"], "result": run(&msg["case"], projection)}),
            Some("stop") => return Ok(()),
            _ => {
                eprintln!("agui-example-impl: unknown message: {line}");
                continue;
            }
        };
        serde_json::to_writer(&mut out, &Out(&answer))?;
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
