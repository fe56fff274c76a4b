//! Checker limits (docs/rules.md "Checker limits"): a checker has finite
//! resources, and hitting one is never the producer's fault. A hit limit is
//! a [`LimitNotice`] in the report, apart from the violations; the verdict
//! then becomes `inconclusive` unless an error came first.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::fmt;

/// Which resource ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LimitKind {
    /// One line (or array element) is longer than allowed; it was skipped.
    LineBytes,
    /// One event nests deeper than allowed; it was skipped.
    Nesting,
    /// The state document, or the work of one `STATE_DELTA`, would pass its
    /// budget; state tracking stops for the rest of the stream.
    StateBytes,
    /// A live exchange ran out of time; the stream was cut there.
    Time,
    /// More violations than are kept (or printed); every one is still
    /// counted.
    Violations,
    /// A run's projection outgrew its budget: it is shown incomplete and
    /// stops growing; every rule is still judged.
    ProjectionBytes,
    /// What the checker must remember to judge the rules (the ids a run
    /// names and what is on record for them, and the invocations ended in
    /// earlier runs) outgrew its budget: it is dropped, and the rest of
    /// the run is judged as after a skipped event.
    BookkeepingBytes,
}

impl LimitKind {
    pub const ALL: [LimitKind; 7] = [
        LimitKind::LineBytes,
        LimitKind::Nesting,
        LimitKind::StateBytes,
        LimitKind::Time,
        LimitKind::Violations,
        LimitKind::ProjectionBytes,
        LimitKind::BookkeepingBytes,
    ];

    /// The kind's name in reports: `line-bytes`, `nesting`, …
    pub fn as_str(self) -> &'static str {
        match self {
            LimitKind::LineBytes => "line-bytes",
            LimitKind::Nesting => "nesting",
            LimitKind::StateBytes => "state-bytes",
            LimitKind::Time => "time",
            LimitKind::Violations => "violations",
            LimitKind::ProjectionBytes => "projection-bytes",
            LimitKind::BookkeepingBytes => "bookkeeping-bytes",
        }
    }

    /// Whether hitting it leaves part of the stream unjudged (and so makes
    /// the verdict `inconclusive`). The `violations` and
    /// `projection-bytes` limits do not: every violation is still counted
    /// and every rule judged, only less is kept or shown.
    pub fn leaves_unjudged(self) -> bool {
        !matches!(self, LimitKind::Violations | LimitKind::ProjectionBytes)
    }
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One limit hit: where, which, and the limit in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitNotice {
    pub kind: LimitKind,
    /// The index of the event the limit was hit at (an event over a limit
    /// is skipped, but keeps its index).
    pub index: usize,
    /// The limit in force (bytes, levels, milliseconds or violations).
    pub limit: u64,
    /// What happened, for people.
    pub message: String,
}

impl LimitNotice {
    pub fn new(kind: LimitKind, index: usize, limit: u64, message: impl Into<String>) -> Self {
        LimitNotice {
            kind,
            index,
            limit,
            message: message.into(),
        }
    }
}

/// `{"kind", "index", "limit", "message"}`.
impl Serialize for LimitNotice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("kind", self.kind.as_str())?;
        m.serialize_entry("index", &self.index)?;
        m.serialize_entry("limit", &self.limit)?;
        m.serialize_entry("message", &self.message)?;
        m.end()
    }
}

/// The limits a check runs under, each with a generous default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest line or array element, in bytes.
    pub line_bytes: usize,
    /// Deepest nesting of one event.
    pub nesting: usize,
    /// Largest state document, in bytes it holds in memory
    /// ([`crate::patch::mem_size`], an estimate from above); one
    /// `STATE_DELTA` may also touch at most this many bytes.
    pub state_bytes: usize,
    /// Violations (and limit notices) kept in memory for the report; the
    /// rest are counted (and streamed to a sink, if one is set).
    pub violations: usize,
    /// The most the projection may hold in memory, in bytes: the open
    /// run's, and the runs kept when no sink takes them. A run that
    /// passes it is shown incomplete.
    pub projection_bytes: usize,
    /// The most the checker's bookkeeping may hold, in bytes: the current
    /// run's ids and records, and the invocations remembered from earlier
    /// runs.
    pub bookkeeping_bytes: usize,
}

/// The default longest line: 64 MiB.
pub const DEFAULT_LINE_BYTES: usize = 64 * 1024 * 1024;
/// The default largest state: the patch applier's own default budget.
pub const DEFAULT_STATE_BYTES: usize = crate::patch::DEFAULT_STATE_BYTES;
/// The default number of violations kept in memory.
pub const DEFAULT_VIOLATIONS: usize = 100_000;
/// The default bookkeeping budget: 128 MiB (about half a million ids in
/// one run).
pub const DEFAULT_BOOKKEEPING_BYTES: usize = 128 << 20;
/// The default projection budget: 64 MiB.
pub const DEFAULT_PROJECTION_BYTES: usize = crate::projection::DEFAULT_PROJECTION_BYTES;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            line_bytes: DEFAULT_LINE_BYTES,
            nesting: crate::json::DEFAULT_MAX_DEPTH,
            state_bytes: DEFAULT_STATE_BYTES,
            violations: DEFAULT_VIOLATIONS,
            projection_bytes: DEFAULT_PROJECTION_BYTES,
            bookkeeping_bytes: DEFAULT_BOOKKEEPING_BYTES,
        }
    }
}

impl Limits {
    /// The reader's share of the limits.
    pub fn read_options(&self) -> crate::stream::ReadOptions {
        crate::stream::ReadOptions {
            max_line_bytes: self.line_bytes,
            max_depth: self.nesting,
            max_value_bytes: crate::stream::value_bytes(self.line_bytes),
            framing: crate::stream::Framing::Detect,
        }
    }

    /// A thread stack big enough to build, check, print and drop values
    /// nested [`Limits::nesting`] deep (serde_json's `Value` recurses).
    pub fn stack_bytes(&self) -> usize {
        (16 << 20) + self.nesting.saturating_mul(2048)
    }
}
