//! The golden corpus as `cargo test`: one trial per case, named by its id
//! (so `cargo test -p agui-corpus -- ownership/` selects an area), one
//! failing trial per malformed file, and the gate trials.

use agui_corpus::check::gates;
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
        trials.push(Trial::test(g.name, move || {
            if g.problems.is_empty() {
                Ok(())
            } else {
                Err(Failed::from(format!(
                    "{} problem(s):\n{}",
                    g.problems.len(),
                    g.problems.join("\n")
                )))
            }
        }));
    }
    // Quotes are checked against shared/spec when it is there (beside the
    // repository, or at $AGUI_SPEC_DIR); otherwise the trial shows as ignored.
    let spec_dir = std::env::var_os("AGUI_SPEC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.join("../../shared/spec"));
    let texts = gate::read_spec_texts(&spec_dir).ok();
    let found = texts.is_some();
    let problems = texts
        .map(|t| gate::spec_quotes(&corpus.cases, &t))
        .unwrap_or_default();
    trials.push(
        Trial::test("gate/spec-quotes", move || {
            if problems.is_empty() {
                Ok(())
            } else {
                Err(Failed::from(format!(
                    "{} problem(s):\n{}",
                    problems.len(),
                    problems.join("\n")
                )))
            }
        })
        .with_ignored_flag(!found),
    );
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
