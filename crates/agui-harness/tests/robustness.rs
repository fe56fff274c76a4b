//! The harness against implementations that misbehave (issue point 3):
//! each affected case is ERRORED with the reason and the stderr tail, the
//! process is restarted, and the run ends within its limits.

mod support;

use agui_harness::outcome::Outcome;
use agui_harness::subprocess::OneShot;
use agui_harness::{Capabilities, ImplInfo, Implementation, Score};
use std::time::{Duration, Instant};
use support::*;

fn scores(r: &agui_harness::RunResult) -> Vec<Score> {
    r.results.iter().map(|c| c.scored.score).collect()
}

fn errored(r: &agui_harness::RunResult, i: usize) -> agui_harness::outcome::Errored {
    match &r.results[i].outcome {
        Outcome::Errored(e) => e.clone(),
        o => panic!("case {i} not errored: {o:?}"),
    }
}

fn three() -> Vec<agui_harness::SuiteCase> {
    vec![valid("a"), valid("b"), valid("c")]
}

/// One case misbehaves; the one before and the one after pass, the latter
/// on a restarted process.
fn one_bad_case(behaviour: &str) -> agui_harness::RunResult {
    one_bad_case_restarted(behaviour, 1)
}

/// [`one_bad_case`], the process restarted `restarts` times.
fn one_bad_case_restarted(behaviour: &str, restarts: usize) -> agui_harness::RunResult {
    let t = Instant::now();
    let r = run(&mut fake(&format!("{behaviour}@b")), &three());
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "{behaviour}: took {:?}",
        t.elapsed()
    );
    assert_eq!(
        scores(&r),
        [Score::Pass, Score::Errored, Score::Pass],
        "{behaviour}: {:?}",
        r.results
    );
    let times = if restarts == 1 { "time" } else { "times" };
    assert_eq!(
        r.incidents,
        [format!(
            "the implementation was restarted {restarts} {times}"
        )],
        "{behaviour}"
    );
    r
}

#[test]
fn crash_is_errored_with_stderr_tail_and_restarted() {
    let r = one_bad_case("crash");
    let e = errored(&r, 1);
    assert!(
        e.reason
            .starts_with("the process closed stdout (killed by signal 6)"),
        "{}",
        e.reason
    );
    assert!(
        e.stderr_tail
            .unwrap()
            .contains("fake: about to crash on seq 2")
    );
}

#[test]
fn hang_times_out() {
    let r = one_bad_case("hang");
    assert_eq!(errored(&r, 1).reason, "no answer within 300 ms (hang)");
}

#[test]
fn silence_times_out() {
    let r = one_bad_case("silent");
    assert_eq!(errored(&r, 1).reason, "no answer within 300 ms (hang)");
}

#[test]
fn garbage_is_not_a_protocol_message() {
    let r = one_bad_case("garbage");
    let reason = errored(&r, 1).reason;
    assert!(reason.starts_with("not a protocol message"), "{reason}");
    assert!(reason.ends_with(": this is not json"), "{reason}");
}

#[test]
fn exit_without_answer() {
    // A clean exit without an answer may have come after the previous
    // case: `b` is sent once more to a fresh process, which exits too, so
    // `b` is charged (and `a`, answered, is not).
    let r = one_bad_case_restarted("silent-exit", 2);
    assert_eq!(
        errored(&r, 1).reason,
        "the process closed stdout (exit status 0)"
    );
}

#[test]
fn wrong_seq() {
    let r = one_bad_case("wrong-seq");
    assert_eq!(errored(&r, 1).reason, "answer has seq 1002, expected 2");
}

#[test]
fn stdout_flood_is_capped() {
    let r = one_bad_case("flood");
    let reason = errored(&r, 1).reason;
    assert!(
        reason.starts_with(&format!("stdout line longer than {MAX_LINE} bytes (flood")),
        "{reason}"
    );
}

/// A double answer is charged to the case that caused it, whether the
/// second line is already there with the first or arrives while the next
/// case runs (the next case then still gets its own answer).
#[test]
fn a_second_answer_is_charged_to_its_own_case() {
    for behaviour in ["two-answers@b", "late-second-answer@b"] {
        let r = run(&mut fake(behaviour), &three());
        assert_eq!(
            scores(&r),
            [Score::Pass, Score::Errored, Score::Pass],
            "{behaviour}"
        );
        let reason = errored(&r, 1).reason;
        assert!(
            reason.starts_with("answered twice"),
            "{behaviour}: {reason}"
        );
    }
}

/// Issue point 9: a process that exited while a process it started holds
/// stdout open is told apart from a hang.
#[test]
fn an_exit_is_told_from_a_hang() {
    let r = run(&mut fake("exit-leaving-stdout@b"), &three());
    assert_eq!(scores(&r), [Score::Pass, Score::Errored, Score::Pass]);
    assert_eq!(
        errored(&r, 1).reason,
        "the process exited (exit status 0) without answering; a process it started kept stdout open"
    );
}

#[test]
fn exit_after_handshake_errors_every_case() {
    let r = run(&mut fake("exit-after-handshake"), &three());
    assert_eq!(scores(&r), [Score::Errored; 3]);
    for i in 0..3 {
        let e = errored(&r, i);
        assert_eq!(e.reason, "the process closed stdout (exit status 3)");
        assert!(
            e.stderr_tail
                .unwrap()
                .contains("fake: leaving after the handshake")
        );
    }
}

#[test]
fn ignored_stop_is_killed_after_grace() {
    let mut imp = fake("ignore-stop");
    let t = Instant::now();
    let r = run(&mut imp, &three());
    assert_eq!(scores(&r), [Score::Pass; 3]);
    assert_eq!(
        r.incidents,
        ["the implementation ignored stop; killed after 300 ms"]
    );
    assert!(t.elapsed() < Duration::from_secs(3));
}

#[test]
fn a_process_that_never_reads_stdin_cannot_block_the_harness() {
    // A case far bigger than a pipe buffer, to a process that stopped reading.
    let mut big = valid("big");
    let text = "x".repeat(1 << 20);
    big.events.insert(
        1,
        serde_json::json!({"type": "CUSTOM", "name": "n", "value": text}),
    );
    let t = Instant::now();
    let r = run(&mut fake("no-read"), &[big, valid("after")]);
    assert_eq!(scores(&r), [Score::Errored, Score::Errored]);
    assert_eq!(errored(&r, 0).reason, "no answer within 300 ms (hang)");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn memory_limit_turns_a_hog_into_an_error() {
    let mut s = spawn(&format!("{FAKE} alloc@b"));
    s.memory_limit = Some(256 << 20);
    // The hog reserves 4 GiB at once and then blocks: only the limit can
    // end it (an abort), so the limits here are long enough never to fire
    // and the clock decides nothing — the crash is seen as soon as it
    // happens, however loaded the machine.
    let limits = agui_harness::subprocess::Timeouts {
        start: Duration::from_secs(120),
        case: Duration::from_secs(120),
        stop: Duration::from_secs(120),
    };
    let mut imp = agui_harness::subprocess::Persistent::new(s, limits);
    let r = run(&mut imp, &three());
    assert_eq!(scores(&r), [Score::Pass, Score::Errored, Score::Pass]);
    let e = errored(&r, 1);
    assert_eq!(
        e.reason, "the process closed stdout (killed by signal 6)",
        "the abort of a failed allocation"
    );
    let tail = e.stderr_tail.unwrap_or_default();
    assert!(
        tail.contains("memory allocation of 4294967296 bytes failed"),
        "{tail}"
    );
    assert_eq!(r.incidents, ["the implementation was restarted 1 time"]);
}

#[test]
fn another_protocol_version_stops_the_run() {
    let err = fake("bad-version").describe().unwrap_err().to_string();
    assert!(
        err.contains("implementation speaks protocol 99 (harness: 1): fake speaks only 99"),
        "{err}"
    );
}

#[test]
fn no_handshake_stops_the_run() {
    let mut imp = agui_harness::subprocess::Persistent::new(
        spawn(&format!("{FAKE} no-handshake")),
        agui_harness::subprocess::Timeouts {
            start: Duration::from_millis(300),
            ..timeouts()
        },
    );
    let t = Instant::now();
    let err = imp.describe().unwrap_err().to_string();
    assert!(
        err.contains("no handshake answer: no answer within 300 ms (hang)"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_missing_program_stops_the_run() {
    let err = fake_missing().describe().unwrap_err().to_string();
    assert!(
        err.contains("cannot start `/nonexistent/agui-impl`"),
        "{err}"
    );
}

fn fake_missing() -> agui_harness::subprocess::Persistent {
    agui_harness::subprocess::Persistent::new(spawn("/nonexistent/agui-impl --flag"), timeouts())
}

#[test]
fn an_error_the_implementation_reports_keeps_the_process() {
    let r = run(&mut fake("self-error@b"), &three());
    assert_eq!(scores(&r), [Score::Pass, Score::Errored, Score::Pass]);
    let e = errored(&r, 1);
    assert_eq!(e.reason, "implementation reported an error: fake failed");
    assert_eq!(e.context, Some(serde_json::json!({"why": "asked to"})));
    assert!(r.incidents.is_empty(), "{:?}", r.incidents);
}

fn one_shot(behaviour: &str) -> OneShot {
    let info = ImplInfo {
        name: "fake".into(),
        version: String::new(),
        language: String::new(),
        capabilities: Capabilities {
            index: true,
            ..Capabilities::default()
        },
    };
    OneShot::new(
        spawn(&format!("{FAKE} --one-shot {behaviour}")),
        timeouts(),
        info,
    )
}

#[test]
fn one_shot_mode() {
    let c = [valid("a")];
    assert_eq!(scores(&run(&mut one_shot("accept"), &c)), [Score::Pass]);
    assert_eq!(scores(&run(&mut one_shot("reject:0"), &c)), [Score::Fail]);
    let reason = |b: &str| errored(&run(&mut one_shot(b), &c), 0).reason;
    assert!(reason("crash").starts_with("the process printed no result (killed by signal 6)"));
    assert_eq!(reason("hang"), "no answer within 300 ms (hang)");
    assert!(reason("garbage").starts_with("not a result object"));
    assert_eq!(
        reason("silent-exit"),
        "the process printed no result (exit status 0)"
    );
    assert!(reason("flood").starts_with("stdout line longer than"));
}

/// Whether a process is still running (a zombie counts as gone: it was
/// killed and waits only for its reaper).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(s) => !s
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Waits (boundedly) until none of `pids` runs.
fn all_gone(pids: &[u32]) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if pids.iter().all(|p| !alive(*p)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// The pids "OWN CHILD" the fake wrote with `--fork`, one line per process.
fn forked(pidfile: &std::path::Path) -> Vec<(u32, u32)> {
    std::fs::read_to_string(pidfile)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (a, b) = l.split_once(' ')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

fn pidfile(name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("agui-fake-{name}-{}.pids", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Issue point 2: a child the implementation started (and left running)
/// does not outlive the run, after a clean stop as after a restart.
#[test]
fn a_forked_child_does_not_outlive_the_run() {
    let file = pidfile("persistent");
    let cmd = format!(
        "env AGUI_FAKE_PIDFILE={} {FAKE} --fork crash@b",
        file.display()
    );
    let r = run(
        &mut agui_harness::subprocess::Persistent::new(spawn(&cmd), timeouts()),
        &three(),
    );
    assert_eq!(scores(&r), [Score::Pass, Score::Errored, Score::Pass]);
    let pids = forked(&file);
    let _ = std::fs::remove_file(&file);
    // The first process (crashed on b) and its restart each forked one.
    assert_eq!(pids.len(), 2, "{pids:?}");
    let all: Vec<u32> = pids.iter().flat_map(|(a, b)| [*a, *b]).collect();
    assert!(all_gone(&all), "still running: {all:?}");
}

#[test]
fn a_forked_child_of_a_one_shot_process_does_not_outlive_its_case() {
    let file = pidfile("one-shot");
    let info = ImplInfo {
        name: "fake".into(),
        version: String::new(),
        language: String::new(),
        capabilities: Capabilities::default(),
    };
    let cmd = format!(
        "env AGUI_FAKE_PIDFILE={} {FAKE} --one-shot --fork accept",
        file.display()
    );
    let mut imp = OneShot::new(spawn(&cmd), timeouts(), info);
    let r = run(&mut imp, &[valid("a"), valid("b")]);
    assert_eq!(scores(&r), [Score::Pass, Score::Pass]);
    let pids = forked(&file);
    let _ = std::fs::remove_file(&file);
    assert_eq!(pids.len(), 2, "{pids:?}");
    let all: Vec<u32> = pids.iter().flat_map(|(a, b)| [*a, *b]).collect();
    assert!(all_gone(&all), "still running: {all:?}");
}

/// Limits long enough that only prompt detection can pass the time check.
fn patient() -> agui_harness::subprocess::Timeouts {
    agui_harness::subprocess::Timeouts {
        start: Duration::from_secs(20),
        case: Duration::from_secs(20),
        stop: Duration::from_millis(500),
    }
}

/// A process that closes its stdin, exits while something it started
/// holds stdout, or crashes, is reported as what it did within the stop
/// grace, not as a hang after the whole case limit.
#[test]
fn a_closed_stdin_an_exit_and_a_crash_are_seen_at_once() {
    for (behaviour, want) in [
        (
            "close-stdin@b",
            "the process closed its stdin and did not answer (still running)",
        ),
        (
            "exit-leaving-stdout@b",
            "the process exited (exit status 0) without answering; a process it started kept stdout open",
        ),
        ("crash@b", "the process closed stdout (killed by signal 6)"),
    ] {
        let mut imp = agui_harness::subprocess::Persistent::new(
            spawn(&format!("{FAKE} {behaviour}")),
            patient(),
        );
        let t = Instant::now();
        let r = run(&mut imp, &three());
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{behaviour}: took {:?}",
            t.elapsed()
        );
        assert_eq!(
            scores(&r),
            [Score::Pass, Score::Errored, Score::Pass],
            "{behaviour}"
        );
        let e = errored(&r, 1);
        assert_eq!(e.reason, want, "{behaviour}");
        if behaviour != "exit-leaving-stdout@b" {
            let tail = e.stderr_tail.unwrap_or_default();
            assert!(tail.contains("on seq 2"), "{behaviour}: {tail}");
        }
    }
}

/// The same in one-shot mode, where a process may stop reading early
/// (it answers from a prefix): only its exit is watched.
#[test]
fn a_one_shot_exit_is_seen_at_once() {
    let info = ImplInfo::new("fake", "", "", Capabilities::default());
    let mut imp = OneShot::new(
        spawn(&format!("{FAKE} --one-shot exit-leaving-stdout")),
        patient(),
        info,
    );
    let t = Instant::now();
    let r = run(&mut imp, &[valid("a")]);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_eq!(
        errored(&r, 0).reason,
        "the process exited (exit status 0) without a result; a process it started kept stdout open"
    );
}
