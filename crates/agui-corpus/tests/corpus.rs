//! The golden corpus as `cargo test`: one trial per case, named by its id
//! (so `cargo test -p agui-corpus -- ownership/` selects an area), one
//! failing trial per malformed file, and the gate trials.

use agui_corpus::check::{GateResult, gates, quote_gates, read_quotes};
use agui_corpus::gate;
use agui_corpus::{load_dir, run_case};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;

fn main() {
    let args = Arguments::from_args();
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus"));
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    let corpus = match load_dir(&dir) {
        Ok(c) => c,
        Err(e) => {
            let msg = format!("cannot list {}: {e}", dir.display());
            libtest_mimic::run(
                &args,
                vec![Trial::test("corpus/load", move || Err(msg.into()))],
            )
            .exit();
        }
    };
    let mut trials = Vec::new();
    for g in gates(&corpus) {
        trials.push(gate_trial(g));
    }
    // The recorded quotes are part of the corpus: `gate/spec-quotes` always
    // runs. Whether the record is verbatim is checked against the spec texts
    // when they are there (shared/spec beside the repository, or
    // $AGUI_SPEC_DIR); otherwise `gate/quotes-verbatim` shows as ignored.
    let spec_dir = std::env::var_os("AGUI_SPEC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.join("../../shared/spec"));
    let texts = gate::read_spec_texts(&spec_dir).ok();
    let quotes =
        read_quotes(&dir).unwrap_or_else(|| Err(format!("{} is missing", gate::QUOTES_FILE)));
    let mut quote_trials = quote_gates(&corpus, Some(quotes), texts.as_deref());
    if texts.is_none() {
        quote_trials.push(GateResult {
            name: "gate/quotes-verbatim",
            problems: Vec::new(),
        });
    }
    for g in quote_trials {
        let ignored = texts.is_none() && g.name == "gate/quotes-verbatim";
        trials.push(gate_trial(g).with_ignored_flag(ignored));
    }
    for c in corpus.cases {
        let name = c.case.id.clone();
        trials.push(Trial::test(name, move || {
            run_case(&c.case).map_err(|m| Failed::from(format!("{}\n{m}", c.path.display())))
        }));
    }
    // A malformed file is a failing trial of its own, named by its path
    // under the corpus directory (with `.json`, so it never collides with
    // a case id).
    let mut by_file: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for p in corpus.malformed {
        match by_file.last_mut() {
            Some((path, msgs)) if *path == p.path => msgs.push(p.message),
            _ => by_file.push((p.path, vec![p.message])),
        }
    }
    for (path, msgs) in by_file {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        trials.push(Trial::test(name, move || {
            Err(Failed::from(format!(
                "{}: malformed case file:\n{}",
                path.display(),
                msgs.join("\n")
            )))
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// A gate as a trial: it fails listing the gate's problems.
fn gate_trial(g: GateResult) -> Trial {
    Trial::test(g.name, move || {
        if g.problems.is_empty() {
            Ok(())
        } else {
            Err(Failed::from(format!(
                "{} problem(s):\n{}",
                g.problems.len(),
                g.problems.join("\n")
            )))
        }
    })
}
