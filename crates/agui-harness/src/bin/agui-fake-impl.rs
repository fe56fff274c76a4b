//! Test support: a deliberately misbehaving (or scripted) implementation
//! of the agui-conform protocol, for the harness's own tests. Not an
//! implementation to score.
//!
//! `agui-fake-impl [--one-shot] [--caps a,b] BEHAVIOUR[@SUBSTR]`
//!
//! With `@SUBSTR` the behaviour applies only to cases whose id contains
//! SUBSTR; other cases are accepted. Behaviours:
//! answers: `accept`, `reject:N[:RULE]`, `reject-end`, `projection:JSON`,
//! `skip`, `self-error`; misbehaviours: `crash`, `hang`, `silent`,
//! `garbage`, `silent-exit`, `wrong-seq`, `flood`, `no-read`, `alloc`,
//! `two-answers`; process-level: `exit-after-handshake`, `ignore-stop`,
//! `bad-version`, `no-handshake`.

use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};
use std::time::Duration;

fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

fn emit(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// The result object for a well-behaved answer, or `None` when the
/// behaviour is a misbehaviour (already acted out, or to act out).
fn answer(behaviour: &str, events: &[Value]) -> Option<Value> {
    let (name, arg) = behaviour.split_once(':').unwrap_or((behaviour, ""));
    Some(match name {
        "accept" => json!({"verdict": "accept"}),
        "reject" => {
            let mut parts = arg.splitn(2, ':');
            let index: usize = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            let mut r = json!({"verdict": "reject", "index": index});
            if let Some(rule) = parts.next() {
                r["rule"] = json!(rule);
            }
            r
        }
        "reject-end" => json!({"verdict": "reject", "index": events.len()}),
        "projection" => {
            json!({"verdict": "accept", "projection": serde_json::from_str::<Value>(arg).unwrap_or(Value::Null)})
        }
        _ => return None,
    })
}

/// Acts out a misbehaviour on a run request (returns for the ones that
/// keep the process alive).
fn misbehave(name: &str, seq: &Value) {
    match name {
        "crash" => {
            eprintln!("fake: about to crash on seq {seq}");
            std::process::abort();
        }
        "hang" | "no-read" => sleep_forever(),
        "silent" => {}
        "garbage" => emit("this is not json"),
        "silent-exit" => std::process::exit(0),
        "wrong-seq" => emit(&json!({"seq": seq.as_u64().unwrap_or(0) + 1000, "result": {"verdict": "accept"}}).to_string()),
        "two-answers" => {
            emit(&json!({"seq": seq, "result": {"verdict": "accept"}}).to_string());
            emit(&json!({"seq": seq, "result": {"verdict": "accept"}}).to_string());
        }
        "flood" => {
            let mut out = std::io::stdout().lock();
            let chunk = vec![b'x'; 1 << 16];
            loop {
                if out.write_all(&chunk).is_err() {
                    std::process::exit(1);
                }
            }
        }
        "alloc" => {
            // 4 GiB of address space, untouched: only a limit makes it fail.
            let v: Vec<u8> = Vec::with_capacity(4 << 30);
            let cap = std::hint::black_box(v).capacity();
            emit(&json!({"seq": seq, "result": {"verdict": "accept", "index": cap}}).to_string());
        }
        "skip" => emit(&json!({"seq": seq, "skipped": {"reason": "fake skips"}}).to_string()),
        "self-error" => emit(&json!({"seq": seq, "errored": {"message": "fake failed", "context": {"why": "asked to"}}}).to_string()),
        other => {
            eprintln!("fake: unknown behaviour {other}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let one_shot = take_flag(&mut args, "--one-shot");
    let caps = take_value(&mut args, "--caps").unwrap_or_else(|| "verdict,index,rule".into());
    let spec = args.pop().unwrap_or_else(|| "accept".into());
    let (behaviour, only) = match spec.split_once('@') {
        Some((b, s)) => (b.to_string(), Some(s.to_string())),
        None => (spec, None),
    };
    if one_shot {
        let mut input = String::new();
        let _ = std::io::stdin().read_to_string(&mut input);
        let events: Vec<Value> = input
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        match answer(&behaviour, &events) {
            Some(r) => emit(&r.to_string()),
            None => misbehave(behaviour.as_str(), &json!(0)),
        }
        return;
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let msg: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        match msg["cmd"].as_str() {
            Some("start") => {
                match behaviour.as_str() {
                    "bad-version" => {
                        emit(r#"{"protocol": 99, "error": "fake speaks only 99"}"#);
                        continue;
                    }
                    "no-handshake" => sleep_forever(),
                    _ => {}
                }
                let caps: Vec<&str> = caps.split(',').collect();
                emit(&json!({"protocol": 1, "implementation": {"name": "fake", "version": "0", "language": "rust"}, "capabilities": caps}).to_string());
                if behaviour == "exit-after-handshake" {
                    eprintln!("fake: leaving after the handshake");
                    std::process::exit(3);
                }
                if behaviour == "no-read" {
                    sleep_forever();
                }
            }
            Some("run") => {
                let id = msg["case"]["id"].as_str().unwrap_or("");
                let applies = only.as_deref().is_none_or(|s| id.contains(s));
                let process_level = matches!(
                    behaviour.as_str(),
                    "ignore-stop" | "exit-after-handshake" | "no-read"
                );
                let b = if applies && !process_level {
                    behaviour.as_str()
                } else {
                    "accept"
                };
                let events = msg["case"]["events"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                match answer(b, events) {
                    Some(r) => emit(&json!({"seq": msg["seq"], "result": r}).to_string()),
                    None => misbehave(b, &msg["seq"]),
                }
            }
            Some("stop") => {
                if behaviour == "ignore-stop" {
                    sleep_forever();
                }
                return;
            }
            _ => {}
        }
    }
}

fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != flag);
    args.len() != before
}

fn take_value(args: &mut Vec<String>, flag: &str) -> Option<String> {
    let i = args.iter().position(|a| a == flag)?;
    args.remove(i);
    (i < args.len()).then(|| args.remove(i))
}
