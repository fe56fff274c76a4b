//! The implementation process groups that may still have members (their
//! leaders' pids): recorded by the process that starts one, read when the
//! harness kills everything it started ([`super::cleanup`]) and when it
//! reaps orphans, which never include a recorded leader: its owner reaps
//! it ([`super::descendants`]).

use std::sync::Mutex;

/// Process groups (leader pids) that may still have members.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Records a process group as live.
pub(crate) fn add(pgid: i32) {
    if let Ok(mut l) = LIVE.lock() {
        l.push(pgid);
    }
}

/// Forgets a process group.
pub(crate) fn remove(pgid: i32) {
    if let Ok(mut l) = LIVE.lock() {
        l.retain(|p| *p != pgid);
    }
}

/// Whether `pid` leads a recorded process group.
pub(crate) fn contains(pid: i32) -> bool {
    LIVE.lock().map(|l| l.contains(&pid)).unwrap_or(false)
}

/// The recorded process groups.
pub(crate) fn all() -> Vec<i32> {
    LIVE.lock().map(|l| l.clone()).unwrap_or_default()
}
