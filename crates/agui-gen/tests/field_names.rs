//! The wire names of AG-UI event fields are spelled in the wire
//! table (`agui_model::wire`) and a few files beside it, not across the
//! workspace. These tests scan the non-test source files for the quoted
//! multi-word wire names (the ones a reader would otherwise retype:
//! `"messageId"`, `"toolCallId"`, …) and pin the generator's names read
//! from the table.

use agui_model::EventType;
use agui_model::wire::{COMMON, SUBAGENT_RUN_ID};
use std::path::{Path, PathBuf};

/// At most this many non-test source files of the workspace may spell a
/// multi-word wire name: the wire table itself, and `rule_help.rs`, whose
/// SARIF help shows example events as the text a user sees.
const WORKSPACE_LIMIT: usize = 2;

/// Source folders of the crates this suite keeps free of spelled names
/// (agui-bench: only its synthetic stream, the rest is other work).
const CLEAN: &[&str] = &[
    "crates/agui-gen/src",
    "crates/agui-fuzz/src",
    "crates/agui-bench/src/synth.rs",
    "crates/agui-corpus/src",
    "crates/agui-live/src",
    "crates/agui-view/src",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `"messageId"`, … : every multi-word (camelCase) field name of the
/// table, the common fields and `subagentRunId`, quoted.
fn quoted_names() -> Vec<String> {
    let mut names: Vec<&str> = EventType::ALL
        .iter()
        .flat_map(|t| t.fields().iter().map(|f| f.key))
        .chain(COMMON.iter().map(|f| f.key))
        .chain([SUBAGENT_RUN_ID])
        .filter(|k| k.chars().any(|c| c.is_ascii_uppercase()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().map(|n| format!("\"{n}\"")).collect()
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The file's non-test part: everything before its `#[cfg(test)]` module
/// (by the house style, the last item of a file).
fn non_test(text: &str) -> &str {
    match text.find("\n#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// The files under `roots` whose non-test part spells a quoted name, with
/// the names each spells.
fn spelling(roots: &[PathBuf]) -> Vec<(String, Vec<String>)> {
    let names = quoted_names();
    let mut files = Vec::new();
    for r in roots {
        rs_files(r, &mut files);
    }
    files.sort();
    let base = root();
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let code = non_test(&text);
        let found: Vec<String> = names
            .iter()
            .filter(|n| code.contains(n.as_str()))
            .cloned()
            .collect();
        if !found.is_empty() {
            let shown = f.strip_prefix(&base).unwrap_or(&f).display().to_string();
            out.push((shown, found));
        }
    }
    out
}

fn listing(files: &[(String, Vec<String>)]) -> String {
    files
        .iter()
        .map(|(f, n)| format!("  {f}: {}", n.join(" ")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_names_scanned_are_the_tables_multi_word_fields() {
    let names = quoted_names();
    for n in [
        "\"messageId\"",
        "\"toolCallId\"",
        "\"toolCallName\"",
        "\"parentMessageId\"",
        "\"threadId\"",
        "\"runId\"",
        "\"stepName\"",
        "\"activityType\"",
        "\"entityId\"",
        "\"encryptedValue\"",
        "\"parentRunId\"",
        "\"parentSubagentRunId\"",
        "\"parentToolCallId\"",
        "\"protocolVersion\"",
        "\"rawEvent\"",
        "\"subagentRunId\"",
    ] {
        assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
    }
    assert!(!names.iter().any(|x| x == "\"delta\""));
}

#[test]
fn these_crates_spell_no_wire_name() {
    let roots: Vec<PathBuf> = CLEAN.iter().map(|c| root().join(c)).collect();
    let files = spelling(&roots);
    assert!(
        files.is_empty(),
        "non-test sources spelling wire names (read them from the table or the typed events):\n{}",
        listing(&files)
    );
}

/// Counts the `.rs` files under every `crates/*/src` and under
/// `fuzz/fuzz_targets` whose non-test part (before `#[cfg(test)]`, see
/// [`non_test`]) contains a quoted multi-word wire name ([`quoted_names`]),
/// comments and doc comments included. Not scanned: tests/, benches/,
/// examples/ and build scripts. The wire table (`agui-model/src/wire.rs`)
/// is one of the files allowed.
#[test]
fn the_workspace_spells_wire_names_in_at_most_two_files() {
    let crates = root().join("crates");
    let mut roots: Vec<PathBuf> = std::fs::read_dir(&crates)
        .map(|d| d.flatten().map(|e| e.path().join("src")).collect())
        .unwrap_or_default();
    roots.push(root().join("fuzz/fuzz_targets"));
    let files = spelling(&roots);
    assert!(
        files.len() <= WORKSPACE_LIMIT,
        "{} non-test source files spell wire names (at most {WORKSPACE_LIMIT}):\n{}",
        files.len(),
        listing(&files)
    );
}

#[test]
fn the_generators_names_are_the_fields_they_stand_for() {
    use agui_gen::names::*;
    let pinned = [
        (THREAD_ID, "threadId"),
        (RUN_ID, "runId"),
        (STEP_NAME, "stepName"),
        (MESSAGE_ID, "messageId"),
        (DELTA, "delta"),
        (ROLE, "role"),
        (TOOL_CALL_ID, "toolCallId"),
        (TOOL_CALL_NAME, "toolCallName"),
        (PARENT_MESSAGE_ID, "parentMessageId"),
        (ACTIVITY_TYPE, "activityType"),
        (PARENT_SUBAGENT_RUN_ID, "parentSubagentRunId"),
        (OUTCOME, "outcome"),
        (PROTOCOL_VERSION, "protocolVersion"),
        (PARENT_RUN_ID, "parentRunId"),
        (ENCRYPTED_VALUE, "encryptedValue"),
        (ENTITY_ID, "entityId"),
        (SUBAGENT_RUN_ID, "subagentRunId"),
    ];
    for (got, want) in pinned {
        assert_eq!(got, want);
    }
}
