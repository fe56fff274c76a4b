//! Output paths that are not plain files, and outputs that cannot be
//! written: nothing is lost silently, and nothing but the output changes.
//!
//! - A report file (`--html`, `--json`, `--sarif`, `--junit`) is written
//!   beside its path and renamed into place; a path that is a symbolic
//!   link, a named pipe or a device is written through instead (a rename
//!   would replace it: as root, `--html /dev/full` once made a plain file
//!   of the device).
//! - A write that fails (a full disk: `/dev/full`, where it exists) ends
//!   with exit status 2 and a message that names what was being written:
//!   the file, or standard output — not the input being read.

mod support;

use std::fs::OpenOptions;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use support::{BIN, Dir, full_device, run, text};

const STREAM: &str = concat!(
    r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#,
    "\n",
    r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#,
    "\n"
);

/// What each report file of `check` starts with.
const REPORTS: [(&str, &str); 4] = [
    ("--html", "<!DOCTYPE html>"),
    ("--json", "{"),
    ("--sarif", "{"),
    ("--junit", "<?xml"),
];

#[test]
fn a_report_file_behind_a_symbolic_link_is_written_through_the_link() {
    let dir = Dir::new("special-link");
    let stream = dir.file("s.jsonl", STREAM);
    for (flag, starts) in REPORTS {
        let target = dir.file(&format!("real{flag}"), "old");
        let link = dir.path(&format!("link{flag}"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = run(&[
            "check",
            stream.to_str().unwrap(),
            flag,
            link.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", text(&out.stderr));
        assert!(
            std::fs::symlink_metadata(&link).unwrap().is_symlink(),
            "{flag}: the link was replaced by a file"
        );
        let written = std::fs::read_to_string(&target).unwrap();
        assert!(written.starts_with(starts), "{flag}: {written:.80}");
    }
    // Nothing but the stream, the targets and the links: no partial file.
    assert_eq!(
        std::fs::read_dir(&dir.0).unwrap().count(),
        1 + 2 * REPORTS.len()
    );
}

#[test]
fn a_report_file_that_is_a_named_pipe_is_written_into_the_pipe() {
    let dir = Dir::new("special-fifo");
    let stream = dir.file("s.jsonl", STREAM);
    for (flag, starts) in REPORTS {
        let fifo = dir.path(&format!("pipe{flag}"));
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `mkfifo` reads a NUL-terminated path this test owns.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        let (tx, rx) = std::sync::mpsc::channel();
        let reading = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(std::fs::read_to_string(reading));
        });
        let mut child = Command::new(BIN)
            .args([
                "check",
                stream.to_str().unwrap(),
                flag,
                fifo.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let Ok(read) = rx.recv_timeout(Duration::from_secs(60)) else {
            let _ = child.kill();
            panic!("{flag}: nothing was written into the pipe within 60 s");
        };
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", text(&out.stderr));
        let read = read.unwrap();
        assert!(read.starts_with(starts), "{flag}: {read:.80}");
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo(),
            "{flag}: the pipe was replaced by a file"
        );
    }
}

#[test]
fn a_report_that_cannot_be_written_to_stdout_says_so() {
    let Some(full) = full_device("the stdout part") else {
        return;
    };
    let dir = Dir::new("special-full-stdout");
    let stream = dir.file("s.jsonl", STREAM);
    let s = stream.to_str().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/run");
    let commands: [&[&str]; 11] = [
        &["check", s],
        &["check", "--format", "json", s],
        &["check", "--format", "sarif", s],
        &["check", s, s],
        &["check", "--format", "json", s, s],
        &["rules"],
        &["explain", "run.first-event"],
        &["suites"],
        &["run", "--suite", "quick", "--no-progress"],
        &["gen", "--count", "3"],
        &["corpus", "check", corpus.to_str().unwrap()],
    ];
    for args in commands {
        let out = Command::new(BIN)
            .args(args)
            .stdout(OpenOptions::new().write(true).open(full).unwrap())
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("writing to standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_report_file_that_cannot_be_written_names_its_path_and_leaves_the_device() {
    let Some(full) = full_device("the report-file part") else {
        return;
    };
    let dir = Dir::new("special-full-files");
    let stream = dir.file("s.jsonl", STREAM);
    let s = stream.to_str().unwrap();
    let f = full.to_str().unwrap();
    let commands: [&[&str]; 8] = [
        &["check", s, "--html", f],
        &["check", s, "--json", f],
        &["check", s, "--sarif", f],
        &["check", s, "--junit", f],
        &["check", s, s, "--json", f],
        &["run", "--suite", "quick", "--no-progress", "--record", f],
        &["run", "--suite", "quick", "--no-progress", "--junit", f],
        &["run", "--suite", "quick", "--no-progress", "--markdown", f],
    ];
    for args in commands {
        let out = run(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(
            err.contains(f) || err.contains("report") || err.contains("record"),
            "{args:?} does not say what it was writing: {err}"
        );
        assert!(
            std::fs::metadata(full).is_ok_and(|m| m.file_type().is_char_device()),
            "{args:?} replaced {f}"
        );
    }
}
