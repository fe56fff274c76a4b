//! What `check --url` shows on stderr while a stream arrives: the response
//! head, warnings, and each violation as it is found — unless stdout goes
//! to the same place as stderr (the same terminal, or one pipe or file
//! for both), where the report printed at the end lists every violation
//! already: then each is shown once, in the report, and a terminal gets a
//! status line instead (events and findings so far), cleared before the
//! report (docs/decisions.md "Live findings shown once").

use agui_live::Progress;
use agui_model::Severity;
use std::io::{self, IsTerminal, Write};
use std::time::Duration;

/// Whether stdout and stderr are one destination: the same terminal, pipe
/// or file (the same device and inode).
#[cfg(unix)]
pub fn same_destination() -> bool {
    use std::os::fd::{AsFd, BorrowedFd};
    use std::os::unix::fs::MetadataExt;
    fn id(fd: BorrowedFd<'_>) -> Option<(u64, u64)> {
        let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
        let m = file.metadata().ok()?;
        Some((m.dev(), m.ino()))
    }
    match (id(io::stdout().as_fd()), id(io::stderr().as_fd())) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

#[cfg(not(unix))]
pub fn same_destination() -> bool {
    io::stdout().is_terminal() && io::stderr().is_terminal()
}

/// The live part of `check --url` on stderr.
pub struct LiveProgress {
    /// Print each violation as it is found.
    violations: bool,
    /// The status line (a terminal that also shows the report).
    bar: Option<indicatif::ProgressBar>,
    events: usize,
    errors: usize,
    warnings: usize,
}

impl LiveProgress {
    /// Decides what to show from where stdout and stderr go.
    pub fn new() -> LiveProgress {
        let same = same_destination();
        let bar = (same && io::stderr().is_terminal()).then(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.enable_steady_tick(Duration::from_millis(200));
            b.set_message("waiting for the response");
            b
        });
        LiveProgress {
            violations: !same,
            bar,
            events: 0,
            errors: 0,
            warnings: 0,
        }
    }

    /// Writes a line on stderr (above the status line, if there is one).
    fn say(&self, line: &str) {
        let write = || {
            let _ = writeln!(io::stderr().lock(), "{line}");
        };
        match &self.bar {
            Some(b) => b.suspend(write),
            None => write(),
        }
    }

    /// One piece of progress of the live check of `url`.
    pub fn on(&mut self, url: &str, p: &Progress<'_>) {
        match p {
            Progress::Connected {
                status,
                content_type,
            } => self.say(&format!(
                "{url}: HTTP {status}, {}",
                content_type.unwrap_or("no content type")
            )),
            Progress::Warning(w) => self.say(&format!("warning: {w}")),
            Progress::Event(_) => self.events += 1,
            Progress::Violation(v) => {
                match v.severity {
                    Severity::Error => self.errors += 1,
                    _ => self.warnings += 1,
                }
                if self.violations {
                    self.say(&format!(
                        "  live #{:<5} {:<7} {}: {}{}",
                        v.index,
                        v.severity.as_str(),
                        v.rule,
                        v.message,
                        crate::render::text::where_(v)
                    ));
                }
            }
        }
        if let Some(b) = &self.bar {
            let n = |n: usize, what: &str| match n {
                1 => format!("1 {what}"),
                n => format!("{n} {what}s"),
            };
            b.set_message(format!(
                "{}, {}, {} so far",
                n(self.events, "event"),
                n(self.errors, "error"),
                n(self.warnings, "warning")
            ));
        }
    }

    /// The stream is over: the status line goes before the report.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for LiveProgress {
    fn drop(&mut self) {
        self.finish();
    }
}
