//! Nothing outlives a run: every implementation process group is recorded
//! while it may hold members, and SIGINT/SIGTERM of the harness kill them
//! all, with every descendant of the harness ([`super::descendants`]: an
//! implementation runs in its own process group, so a Ctrl-C on the
//! terminal never reaches it, and what it started may have left the group).
//!
//! [`install`] blocks the two signals in the calling thread (call it first
//! in `main`, before any thread starts, so that every thread inherits the
//! mask) and waits for them on a thread of its own with `sigwait(2)`: no
//! code runs in a signal handler. Children would inherit the mask: the
//! implementation's process unblocks every signal before `exec`
//! ([`super::process`]).

use super::groups;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The first signal received, 0 when none.
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);
/// Whether [`install`] ran: this process is a CLI that owns every process
/// below it.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// What the harness does on the first SIGINT/SIGTERM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnSignal {
    /// Kill every implementation and let the run wind down (it stops taking
    /// cases and writes its reports, see [`interrupted`]); a second signal
    /// exits at once.
    WindDown,
    /// Kill every implementation and exit with 128 + the signal number.
    Exit,
}

/// The signal that interrupted the run, if one did.
pub fn interrupted() -> Option<i32> {
    match INTERRUPTED.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// Records a process group (its leader's pid) as live ([`groups`]).
/// Returns false when the harness was already interrupted: the caller
/// kills the group at once.
pub(crate) fn register(pgid: i32) -> bool {
    groups::add(pgid);
    interrupted().is_none()
}

/// Forgets a process group (after it was killed, before its leader is
/// reaped: a pid is not reused while its zombie is unreaped).
pub(crate) fn unregister(pgid: i32) {
    groups::remove(pgid);
}

/// Kills every recorded process group, then every descendant of this
/// process (on Linux; see [`super::descendants`]).
pub fn kill_all() {
    for pgid in groups::all() {
        // SAFETY: plain syscall on a group this process started.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    super::descendants::kill_all_descendants();
}

/// At the end of a CLI command (after [`install`]): kills whatever
/// process is still below this one. Every implementation was already
/// ended with what it started; this catches a descendant that dropped the
/// marker ([`super::descendants::MARK`]) and left its group. Does nothing
/// in a process that did not call [`install`] (a library user's own
/// children are not ours to end).
pub fn kill_leftovers() {
    if INSTALLED.load(Ordering::Relaxed) {
        super::descendants::kill_all_descendants();
    }
}

/// What else the first signal does, when the run winds down (a command's
/// own stop flag: a live check stops its exchange and reports what it
/// received).
type Hook = Box<dyn Fn(i32) + Send + Sync>;

static HOOK: std::sync::OnceLock<Hook> = std::sync::OnceLock::new();

/// Sets what the first SIGINT/SIGTERM does besides killing the
/// implementations, under [`OnSignal::WindDown`] (once; a later call is
/// ignored). One watcher serves the whole process: two threads waiting
/// for the same signals would each take some of them.
pub fn on_signal(hook: impl Fn(i32) + Send + Sync + 'static) {
    let _ = HOOK.set(Box::new(hook));
}

/// Installs the SIGINT/SIGTERM watcher (once; later calls do nothing).
pub fn install(mode: OnSignal) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        INSTALLED.store(true, Ordering::Relaxed);
        super::descendants::adopt_orphans();
        // SAFETY: sigset manipulation on a local set; pthread_sigmask on
        // the calling thread.
        let set = unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            set
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || watch(set, mode));
        if spawned.is_err() {
            // No watcher: give the signals their default action back.
            // SAFETY: as above.
            unsafe {
                libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            }
        }
    });
}

fn watch(set: libc::sigset_t, mode: OnSignal) {
    loop {
        let mut sig: libc::c_int = 0;
        // SAFETY: `set` is a valid signal set; `sig` a valid out pointer.
        if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
            continue;
        }
        let first = INTERRUPTED
            .compare_exchange(0, sig, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok();
        // The hook first: the command's own stop is set before the
        // implementations it waits on die.
        if first
            && mode == OnSignal::WindDown
            && let Some(hook) = HOOK.get()
        {
            hook(sig);
        }
        kill_all();
        if mode == OnSignal::Exit || !first {
            eprintln!("agui-conform: signal {sig}: implementations killed");
            std::process::exit(128 + sig);
        }
        eprintln!(
            "agui-conform: signal {sig}: stopping; the reports cover what ran \
             (a second signal exits at once)"
        );
    }
}
