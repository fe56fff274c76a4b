//! Every process an implementation started dies with it: also those that
//! left its process group (`setsid(2)`, as Node's `detached: true` does)
//! and those orphaned by a double fork, which a group kill misses.
//!
//! On Linux the harness makes itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`), so an orphan of an implementation is
//! re-parented to the harness instead of to init and stays among its
//! descendants. Each implementation process is started with a marker in
//! its environment ([`MARK`]), which its descendants inherit: when the
//! harness is done with the process, it kills the process's group, the
//! process's own descendants, and every descendant of the harness that
//! carries the marker (with theirs), in rounds until none is left. A
//! descendant that both drops the marker (a new environment) and was
//! orphaned is not told apart from another implementation's; the CLI kills
//! every descendant it has left when it exits or is signalled
//! ([`kill_all_descendants`]). Elsewhere (other Unixes) only the process
//! group is killed.

use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that marks an implementation's processes.
pub const MARK: &str = "AGUI_CONFORM_IMPL";

/// A marker value unique to one implementation process of this harness.
pub(crate) fn new_mark() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(target_os = "linux")]
pub(crate) use linux::{adopt_orphans, kill_all_descendants, kill_tree};

#[cfg(not(target_os = "linux"))]
pub(crate) use other::{adopt_orphans, kill_all_descendants, kill_tree};

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::{HashMap, HashSet};
    use std::time::{Duration, Instant};

    /// How long the kill rounds go on at most: a process that forks as
    /// fast as it is killed is left after this (it is reported by no one,
    /// but it is bounded).
    const ROUNDS_FOR: Duration = Duration::from_secs(2);

    /// Makes this process a child subreaper (once; later calls do nothing).
    pub(crate) fn adopt_orphans() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: prctl with integer arguments on this process.
            unsafe {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            }
        });
    }

    /// One line of the process table.
    #[derive(Debug, Clone, Copy)]
    struct Entry {
        pid: i32,
        ppid: i32,
        pgid: i32,
        /// Neither a zombie nor dead: it can still do something.
        running: bool,
    }

    /// Every process of `/proc` whose `stat` could be read.
    fn table() -> Vec<Entry> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // `pid (comm) state ppid pgrp …`; comm may hold spaces and
                // parentheses, so read after the last `)`.
                let (_, rest) = stat.rsplit_once(')')?;
                let mut f = rest.split_whitespace();
                let state = f.next()?;
                let ppid = f.next()?.parse().ok()?;
                let pgid = f.next()?.parse().ok()?;
                Some(Entry {
                    pid,
                    ppid,
                    pgid,
                    running: !matches!(state, "Z" | "X" | "x"),
                })
            })
            .collect()
    }

    /// `root` and everything below it, by parent links.
    fn subtree(root: i32, children: &HashMap<i32, Vec<i32>>) -> Vec<i32> {
        let mut out = vec![root];
        let mut i = 0;
        while i < out.len() {
            if let Some(c) = children.get(&out[i]) {
                out.extend(c);
            }
            i += 1;
        }
        out
    }

    /// Whether process `pid` was started with `MARK=mark` in its environment.
    fn carries(pid: i32, mark: &str) -> bool {
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let want = format!("{}={mark}", super::MARK);
        env.split(|b| *b == 0).any(|kv| kv == want.as_bytes())
    }

    /// What to kill now: the running processes `pick` chooses (given the
    /// set of this process's descendants), with everything below them.
    fn targets(pick: &dyn Fn(&Entry, &HashSet<i32>) -> bool) -> Vec<Entry> {
        let me = std::process::id() as i32;
        let all = table();
        let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
        for e in &all {
            children.entry(e.ppid).or_default().push(e.pid);
        }
        let mut mine: HashSet<i32> = subtree(me, &children).into_iter().collect();
        mine.remove(&me);
        let mut chosen: HashSet<i32> = HashSet::new();
        for e in &all {
            if e.running && e.pid != me && !chosen.contains(&e.pid) && pick(e, &mine) {
                chosen.extend(subtree(e.pid, &children));
            }
        }
        all.into_iter()
            .filter(|e| e.running && e.pid != me && chosen.contains(&e.pid))
            .collect()
    }

    /// Kills in rounds until `pick` chooses nothing (or the rounds time
    /// out), then reaps the killed orphans that were re-parented to this
    /// process (never a registered implementation leader: its owner reaps
    /// it).
    fn kill_rounds(pick: &dyn Fn(&Entry, &HashSet<i32>) -> bool) {
        let me = std::process::id() as i32;
        let until = Instant::now() + ROUNDS_FOR;
        let mut orphans: HashSet<i32> = HashSet::new();
        loop {
            let now = targets(pick);
            if now.is_empty() || Instant::now() >= until {
                break;
            }
            for e in &now {
                // SAFETY: plain syscall on a process that descends from
                // this harness (or from an implementation it started).
                unsafe {
                    libc::kill(e.pid, libc::SIGKILL);
                }
                if e.ppid == me && !super::super::groups::contains(e.pid) {
                    orphans.insert(e.pid);
                }
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        reap(orphans);
    }

    /// Reaps killed orphans, so that no zombie is left behind; gives up on
    /// one after 200 ms.
    fn reap(pids: HashSet<i32>) {
        let until = Instant::now() + Duration::from_millis(200);
        let mut left: Vec<i32> = pids.into_iter().collect();
        while !left.is_empty() && Instant::now() < until {
            left.retain(|&pid| {
                let mut status = 0;
                // SAFETY: waitpid on a specific child of this process.
                let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
                r == 0
            });
            if !left.is_empty() {
                std::thread::sleep(Duration::from_micros(500));
            }
        }
    }

    /// Kills the process group `leader` (its leader's pid), every
    /// descendant of `leader`, and every descendant of this process whose
    /// environment carries `mark` (with their descendants).
    pub(crate) fn kill_tree(leader: i32, mark: &str) {
        kill_rounds(&|e, mine| {
            // Cheap tests first; an environment is read last.
            e.pid == leader || e.pgid == leader || (mine.contains(&e.pid) && carries(e.pid, mark))
        });
    }

    /// Kills every descendant of this process (the CLI, when it exits or
    /// is signalled: whatever is left then belongs to no one).
    pub fn kill_all_descendants() {
        kill_rounds(&|e, mine| mine.contains(&e.pid));
    }
}

#[cfg(not(target_os = "linux"))]
mod other {
    /// No subreaper here: orphans go to init.
    pub(crate) fn adopt_orphans() {}

    /// Kills the process group `leader` (its leader's pid).
    pub(crate) fn kill_tree(leader: i32, _mark: &str) {
        // SAFETY: plain syscall on a group this process started.
        unsafe {
            libc::kill(-leader, libc::SIGKILL);
        }
    }

    /// Only the recorded process groups can be found here
    /// ([`super::super::cleanup::kill_all`] kills them).
    pub fn kill_all_descendants() {}
}
