//! `Report::write_json` and `JsonStream` (what `agui-conform check --format
//! json` prints, findings and runs streamed as found) write exactly the
//! object of `Report::to_json`, on every corpus case, with and without the
//! projection.

mod support;

use agui_model::{Checker, Finding, JsonStream};
use serde_json::Value;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use support::corpus_cases;

/// Every corpus case's events.
fn corpus() -> Vec<(PathBuf, Vec<Value>)> {
    corpus_cases()
        .into_iter()
        .filter_map(|(f, case)| {
            // Raw-line cases have no `events` and are left out here.
            let events = case["events"].as_array()?.clone();
            Some((f, events))
        })
        .collect()
}

/// One JSON object, read as RFC 8259 (the report may print 1e400).
fn read(bytes: &[u8]) -> Value {
    let text = std::str::from_utf8(bytes).expect("UTF-8");
    agui_model::json::parse(text, &Default::default())
        .expect("one JSON object")
        .value
}

#[test]
fn runs_streamed_as_they_end_give_the_value_form_byte_for_byte() {
    let mut runs = 0;
    for (f, events) in corpus() {
        let mut kept = Checker::new();
        let out = Rc::new(RefCell::new(Some(JsonStream::new(Vec::new(), None))));
        let sink = Rc::clone(&out);
        let findings = Rc::clone(&out);
        let mut streamed = Checker::with_projection_sink(move |run| {
            if let Some(s) = sink.borrow_mut().as_mut() {
                s.run(&run);
            }
        })
        .with_sink(move |f: Finding<'_>| {
            if let Some(s) = findings.borrow_mut().as_mut() {
                s.finding(f);
            }
        });
        for e in &events {
            kept.push(e);
            streamed.push(e);
        }
        let (kept, streamed) = (kept.finish(), streamed.finish());
        assert_eq!(streamed.projection.as_ref().map(|p| p.runs.len()), Some(0));
        runs += kept.projection.as_ref().map_or(0, |p| p.runs.len());
        let stream = out.borrow_mut().take().expect("not finished yet");
        assert!(streamed.violations.is_empty(), "a sink takes them all");
        assert_eq!(streamed.counts, kept.counts);
        let bytes = stream.finish(&streamed, true).expect("writes to memory");
        let got = read(&bytes);
        assert_eq!(got, kept.to_json(), "{}", f.display());
    }
    assert!(runs > 250, "{runs} runs");
}

#[test]
fn streamed_json_is_the_value_form_byte_for_byte() {
    let mut with_violations = 0;
    for (f, events) in corpus() {
        for projection in [true, false] {
            let mut c = if projection {
                Checker::new()
            } else {
                Checker::without_projection()
            };
            for e in &events {
                c.push(e);
            }
            let report = c.finish();
            with_violations += usize::from(!report.violations.is_empty());
            let mut streamed = Vec::new();
            report.write_json(&mut streamed).expect("writes");
            let got = read(&streamed);
            assert_eq!(got, report.to_json(), "{}", f.display());
        }
    }
    assert!(with_violations > 100);
}
