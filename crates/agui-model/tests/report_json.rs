//! `Report::write_json` (what `agui-conform check --format json` prints)
//! writes exactly the bytes of `Report::to_json`, on every corpus case,
//! with and without the projection.

use agui_model::Checker;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn cases(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("corpus directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            cases(&path, out);
        } else if path.extension().is_some_and(|e| e == "json")
            && path.file_name().is_some_and(|n| n != "case.schema.json")
        {
            out.push(path);
        }
    }
}

#[test]
fn streamed_json_is_the_value_form_byte_for_byte() {
    let mut files = Vec::new();
    cases(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus"),
        &mut files,
    );
    assert!(files.len() > 200, "corpus not found: {} cases", files.len());
    let mut with_violations = 0;
    for f in &files {
        let case: Value = serde_json::from_slice(&std::fs::read(f).expect("reads")).expect("JSON");
        let Some(events) = case["events"].as_array() else {
            continue;
        };
        for projection in [true, false] {
            let mut c = if projection {
                Checker::new()
            } else {
                Checker::without_projection()
            };
            for e in events {
                c.push(e);
            }
            let report = c.finish();
            with_violations += usize::from(!report.violations.is_empty());
            let mut streamed = Vec::new();
            report.write_json(&mut streamed).expect("writes");
            assert_eq!(
                String::from_utf8(streamed).expect("UTF-8"),
                report.to_json().to_string(),
                "{}",
                f.display()
            );
        }
    }
    assert!(with_violations > 100);
}
