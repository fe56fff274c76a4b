//! Nothing an implementation started outlives the harness's use of it,
//! also a daemon that left the process group and was orphaned (a double
//! fork and `setsid`, as Node's `detached: true` children are): after a
//! case that ends the process, after a restart, after stop, in both modes.
//! Survivors are found in `/proc` by a marker in their environment.
#![cfg(target_os = "linux")]

mod support;

use agui_harness::subprocess::{OneShot, Persistent};
use agui_harness::{Capabilities, ImplInfo, Implementation, Outcome};
use std::time::{Duration, Instant};
use support::*;

/// A marker unique to this test process and `name`.
fn marker(name: &str) -> String {
    format!("{name}-{}", std::process::id())
}

/// Running (not zombie) processes whose environment holds
/// `AGUI_FAKE_MARKER=marker`.
fn survivors(marker: &str) -> Vec<u32> {
    procs::running_with("AGUI_FAKE_MARKER", marker)
}

/// Asserts that `n` marked processes run (the count a check can see:
/// without it a survivor check proves nothing).
fn assert_running(marker: &str, n: usize, when: &str) {
    let until = Instant::now() + Duration::from_secs(5);
    let mut found = survivors(marker);
    while found.len() < n && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
        found = survivors(marker);
    }
    assert_eq!(found.len(), n, "{when}: marked processes {found:?}");
}

/// Asserts that no marked process runs; kills any found (by pid) first,
/// so a failure leaves nothing behind.
fn assert_none(marker: &str, when: &str) {
    let found = survivors(marker);
    for pid in &found {
        // SAFETY: a plain syscall on a process this test's fake started.
        unsafe {
            libc::kill(*pid as i32, libc::SIGKILL);
        }
    }
    assert!(found.is_empty(), "{when}: survivors {found:?}");
}

fn persistent(marker: &str, behaviour: &str) -> Persistent {
    Persistent::new(
        spawn(&format!(
            "env AGUI_FAKE_MARKER={marker} {FAKE} --daemon {behaviour}"
        )),
        timeouts(),
    )
}

#[test]
fn a_daemon_dies_with_its_process_at_a_restart_and_at_stop() {
    let m = marker("persistent");
    let mut imp = persistent(&m, "crash@b");
    imp.describe().unwrap();
    let events = valid_events();
    assert_eq!(
        imp.run_case("a", &events),
        Outcome::Accept { projection: None }
    );
    // The fake and its daemon.
    assert_running(&m, 2, "after the first case");
    assert!(matches!(imp.run_case("b", &events), Outcome::Errored(_)));
    assert_none(&m, "after the crash (before the restart)");
    assert_eq!(
        imp.run_case("c", &events),
        Outcome::Accept { projection: None }
    );
    assert_running(&m, 2, "after the restart");
    let incidents = imp.shutdown();
    assert_eq!(incidents, ["the implementation was restarted 1 time"]);
    assert_none(&m, "after stop");
}

#[test]
fn a_daemon_dies_after_a_hang() {
    let m = marker("hang");
    let mut imp = persistent(&m, "hang@b");
    imp.describe().unwrap();
    let events = valid_events();
    assert_running(&m, 2, "after the handshake");
    assert!(matches!(imp.run_case("b", &events), Outcome::Errored(_)));
    assert_none(&m, "after the hang was cut");
    drop(imp);
    assert_none(&m, "after drop");
}

#[test]
fn a_one_shot_daemon_dies_with_its_case() {
    let m = marker("one-shot");
    let info = ImplInfo::new("fake", "", "", Capabilities::default());
    let mut imp = OneShot::new(
        spawn(&format!(
            "env AGUI_FAKE_MARKER={m} {FAKE} --one-shot --daemon accept"
        )),
        timeouts(),
        info,
    );
    for id in ["a", "b"] {
        assert_eq!(
            imp.run_case(id, &valid_events()),
            Outcome::Accept { projection: None }
        );
        assert_none(&m, &format!("after case {id}"));
    }
}

/// The limit is set by a hook between fork and exec, which std runs with
/// every signal blocked: the implementation must not start that way (it
/// would ignore SIGTERM, and so would everything it starts).
#[test]
fn an_implementation_starts_with_no_signal_blocked() {
    // As the CLI does: the harness blocks SIGINT and SIGTERM in its own
    // threads (a watcher thread waits for them).
    agui_harness::subprocess::cleanup::install(agui_harness::subprocess::cleanup::OnSignal::Exit);
    for limit in [None, Some(1u64 << 30)] {
        let mut s = spawn(&format!("{FAKE} sigblk"));
        s.memory_limit = limit;
        let mut imp = Persistent::new(s, timeouts());
        imp.describe().unwrap();
        match imp.run_case("a", &valid_events()) {
            Outcome::Reject { message, .. } => {
                assert_eq!(message.as_deref(), Some("0000000000000000"), "{limit:?}")
            }
            other => panic!("{other:?}"),
        }
        imp.shutdown();
    }
}
