//! JSON Patch (RFC 6902) applied atomically and within a budget: what the
//! checker does with a `STATE_DELTA` and the projector with an
//! `ACTIVITY_DELTA`.
//!
//! Why not `json_patch::patch`: its undo panics when a patch first moves or
//! copies onto the root and then fails, and nothing bounds a chain of
//! `copy` operations that doubles the document each time (20 of them abort
//! the process). This applier keeps the operation type of that crate (the
//! fast path produces it) and its pointers, and owns the rest:
//!
//! - **Atomic by an undo log, no whole-document clone.** Each operation
//!   changes the document at one place (a `move` at two); the value it
//!   displaces is moved, not cloned, into the log with the place it came
//!   from. On failure the log is replayed backwards, each step at a place
//!   that exists by construction, so the document is exactly as before. A
//!   scratch copy would cost a clone of the whole state per delta; checking
//!   first would mean simulating the patch. The log costs only what the
//!   patch displaces.
//! - **Budgeted before allocating.** The state's size (see [`mem_size`]) is
//!   tracked incrementally, and each operation's cost is checked before its
//!   value is cloned: a patch that would take the state over
//!   [`PatchBudget::state_bytes`], or do more than [`PatchBudget::work`],
//!   stops with [`PatchError::OverBudget`] and the state unchanged.
//! - **RFC 6902 to the letter.** Array indexes follow RFC 6901 (`0` or no
//!   leading zero, `-` only where `add` appends, index = length only for
//!   `add`); the root `""` works for every operation but `remove`; a `move`
//!   whose `from` is a proper prefix of its `path` fails; `test` compares
//!   JSON values as the RFC says, so numbers compare by numeric value: `1`
//!   equals `1.0` (serde_json's `==` says they differ; this is where this
//!   applier and `json_patch` disagree), and member order never matters.
//!   A `move` onto itself (`from` = `path`) is a no-op when the place exists,
//!   the root included (`json_patch` fails on the root there: it cannot
//!   remove the root first).
//!
//! Nothing here recurses: documents may be nested 100,000 levels deep.

use json_patch::PatchOperation;
use json_patch::jsonptr::index::Index;
use json_patch::jsonptr::{Pointer, Token};
use serde_json::{Map, Value};
use std::fmt;

/// What one patch may cost. Both limits are generous by default: real
/// states are kilobytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatchBudget {
    /// The largest the state may grow to, as [`mem_size`]: no operation
    /// takes it past this (one that shrinks a state already over it may).
    pub state_bytes: usize,
    /// The most work one patch may do, in units: a byte (as [`mem_size`]
    /// counts it) of a value cloned (`add`, `replace`, `copy`), compared
    /// (`test`) or measured (a `move` onto the root), or one array element
    /// shifted by an insertion or removal in the middle of an array.
    pub work: usize,
}

/// 64 MiB: far above any real state, far below what hurts the machine.
pub const DEFAULT_STATE_BYTES: usize = 64 << 20;

/// The same order as the state budget: a patch may rewrite the whole state
/// about once.
pub const DEFAULT_WORK: usize = 64 << 20;

impl Default for PatchBudget {
    fn default() -> Self {
        PatchBudget {
            state_bytes: DEFAULT_STATE_BYTES,
            work: DEFAULT_WORK,
        }
    }
}

/// Which budget an operation would exceed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// [`PatchBudget::state_bytes`].
    State,
    /// [`PatchBudget::work`].
    Work,
}

/// Why a patch did not apply. Either way the document is unchanged.
/// Operations are numbered from 0, as in a JSON Pointer into the patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    /// The patch does not apply (RFC 6902): a path that does not exist, a
    /// failed `test`, a `move` into itself, ….
    Fails {
        op: usize,
        /// The operation, e.g. `copy from /a to /b`.
        what: String,
        reason: String,
    },
    /// Applying operation `op` would exceed a budget: the checker's limit,
    /// not the patch's fault. `needed` is what it would take (for work, at
    /// least that much: measuring stops at the limit).
    OverBudget {
        op: usize,
        what: String,
        budget: Budget,
        needed: usize,
        limit: usize,
    },
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::Fails { op, what, reason } => {
                write!(f, "operation {op} ({what}): {reason}")
            }
            PatchError::OverBudget {
                op,
                what,
                budget: Budget::State,
                needed,
                limit,
            } => write!(
                f,
                "operation {op} ({what}) would grow the state to {needed} bytes, \
                 over the {limit}-byte state budget"
            ),
            PatchError::OverBudget {
                op,
                what,
                budget: Budget::Work,
                needed,
                limit,
            } => write!(
                f,
                "operation {op} ({what}) would take the patch's work to at least {needed} \
                 units, over the per-patch budget of {limit}"
            ),
        }
    }
}

impl std::error::Error for PatchError {}

/// Applies `ops` to `doc` atomically: all of them, or none and an error.
/// `doc_size` is `doc`'s [`mem_size`] on entry and is kept up to date.
pub fn apply(
    doc: &mut Value,
    doc_size: &mut usize,
    ops: &[PatchOperation],
    budget: &PatchBudget,
) -> Result<(), PatchError> {
    let mut run = Run {
        size: *doc_size,
        work: 0,
        budget,
        log: Vec::with_capacity(ops.len()),
    };
    for (i, op) in ops.iter().enumerate() {
        if let Err(stop) = run.op(doc, op) {
            rollback(doc, run.log);
            return Err(stop.at(i, op));
        }
    }
    *doc_size = run.size;
    for step in run.log {
        if let Undo::Put(_, v) | Undo::Insert(_, Some(v)) = step {
            drop_value(v);
        }
    }
    Ok(())
}

// ---- size ----

/// A `serde_json::Value` (its slot, wherever it lives).
const VALUE: usize = std::mem::size_of::<Value>();

/// What the allocator adds to one heap block, at most: its header and
/// rounding (glibc: an 8-byte header, 16-byte steps, 32 bytes at least).
const ALLOC: usize = 32;

/// A map's first node, held as soon as it has a member: a B-tree leaf of
/// eleven keys (`String`) and eleven values, with its header.
const MAP_NODE: usize = 640;

/// Each member's share of a map's further nodes (a node is at least five
/// of eleven full, an inner node a little larger), besides its key's own
/// block.
const MEMBER_NODES: usize = 128;

/// What a member of an object costs besides its value: its key's bytes
/// and block, and its share of the map's nodes.
pub(crate) fn member_cost(key_len: usize) -> usize {
    key_len.saturating_add(ALLOC + MEMBER_NODES)
}

/// What an element of an array costs besides its value: the spare slot a
/// vector grown by pushing may hold for it (capacity up to twice the
/// length).
pub(crate) const ELEMENT_COST: usize = VALUE;

/// The slots a vector holds as soon as it has an element (Rust's
/// smallest capacity for values of this size).
const ARRAY_MIN_SLOTS: usize = 4;

/// A value's own cost, its members and elements apart.
pub(crate) fn own_cost(v: &Value) -> usize {
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => VALUE,
        Value::String(s) => VALUE + ALLOC + s.len(),
        Value::Array(a) => {
            VALUE + ALLOC + ARRAY_MIN_SLOTS * VALUE + a.len().saturating_mul(ELEMENT_COST)
        }
        Value::Object(_) => VALUE + MAP_NODE,
    }
}

/// The size measure of budgets: the bytes `v` holds in memory, estimated
/// from above (every value's slot, every string's and key's bytes and
/// block, a vector's spare capacity, a map's nodes), so that a state
/// within its budget in this measure is within it in memory too. Counting
/// JSON text instead let a small delta of `copy` operations build a state
/// of 63 MB of text that held 2.9 GB. Iterative (any depth), one pass, no
/// allocation beyond a stack as deep as `v`.
pub fn mem_size(v: &Value) -> usize {
    match size_within(v, usize::MAX) {
        Ok(n) | Err(n) => n,
    }
}

/// Levels the helpers below walk by plain recursion (cheap, no heap stack)
/// before they hand a deeper subtree to their explicit-stack form: the
/// thread's stack holds at most this many of their frames.
const RECURSE: u32 = 48;

/// [`mem_size`], stopping as soon as it passes `cap`: `Err(more than cap)`.
fn size_within(v: &Value, cap: usize) -> Result<usize, usize> {
    let mut acc = 0;
    if size_rec(v, &mut acc, cap, RECURSE) {
        Ok(acc)
    } else {
        Err(acc)
    }
}

/// Adds `v`'s size to `acc`; false once `acc` passes `cap`.
fn size_rec(v: &Value, acc: &mut usize, cap: usize, depth: u32) -> bool {
    if depth == 0 {
        let (Ok(n) | Err(n)) = size_iter(v, cap.saturating_sub(*acc));
        *acc = acc.saturating_add(n);
        return *acc <= cap;
    }
    *acc = acc.saturating_add(own_cost(v));
    if *acc > cap {
        return false;
    }
    match v {
        Value::Array(a) => a.iter().all(|c| size_rec(c, acc, cap, depth - 1)),
        Value::Object(m) => m.iter().all(|(k, c)| {
            *acc = acc.saturating_add(member_cost(k.len()));
            *acc <= cap && size_rec(c, acc, cap, depth - 1)
        }),
        _ => true,
    }
}

/// [`size_within`] with an explicit stack, for any depth.
fn size_iter(v: &Value, cap: usize) -> Result<usize, usize> {
    enum Open<'a> {
        Arr(std::slice::Iter<'a, Value>),
        Obj(serde_json::map::Iter<'a>),
    }
    let mut total = 0usize;
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Array(a) => stack.push(Open::Arr(a.iter())),
                Value::Object(m) => stack.push(Open::Obj(m.iter())),
                _ => {}
            }
            total = total.saturating_add(own_cost(v));
            if total > cap {
                return Err(total);
            }
        }
        match stack.last_mut() {
            None => return Ok(total),
            Some(Open::Arr(it)) => match it.next() {
                Some(c) => next = Some(c),
                None => {
                    stack.pop();
                }
            },
            Some(Open::Obj(it)) => match it.next() {
                Some((k, c)) => {
                    total = total.saturating_add(member_cost(k.len()));
                    next = Some(c);
                }
                None => {
                    stack.pop();
                }
            },
        }
    }
}

// ---- clone, compare and drop, without recursion ----

/// Drops `v` with an explicit stack (dropping a `Value` recurses once per
/// level). The stack holds at most one entry per non-empty container.
pub fn drop_value(v: Value) {
    drop_rec(v, RECURSE);
}

fn drop_rec(v: Value, depth: u32) {
    match v {
        Value::Array(a) if depth > 0 => a.into_iter().for_each(|c| drop_rec(c, depth - 1)),
        Value::Object(m) if depth > 0 => m.into_iter().for_each(|(_, c)| drop_rec(c, depth - 1)),
        Value::Array(_) | Value::Object(_) => drop_iter(v),
        _ => {}
    }
}

fn drop_iter(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        let nested = |c: &Value| match c {
            Value::Array(a) => !a.is_empty(),
            Value::Object(m) => !m.is_empty(),
            _ => false,
        };
        match v {
            Value::Array(a) => stack.extend(a.into_iter().filter(nested)),
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, c)| c).filter(nested)),
            _ => {}
        }
    }
}

/// A deep copy of `v`, built with an explicit stack (`Value::clone`
/// recurses once per level).
pub fn clone_value(v: &Value) -> Value {
    clone_rec(v, RECURSE)
}

fn clone_rec(v: &Value, depth: u32) -> Value {
    match v {
        Value::Array(a) if depth > 0 => {
            Value::Array(a.iter().map(|c| clone_rec(c, depth - 1)).collect())
        }
        Value::Object(m) if depth > 0 => Value::Object(
            m.iter()
                .map(|(k, c)| (k.clone(), clone_rec(c, depth - 1)))
                .collect(),
        ),
        Value::Array(_) | Value::Object(_) => clone_iter(v),
        scalar => scalar.clone(),
    }
}

fn clone_iter(v: &Value) -> Value {
    enum Open<'a> {
        Arr(std::slice::Iter<'a, Value>, Vec<Value>),
        Obj(serde_json::map::Iter<'a>, Map<String, Value>, String),
    }
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = v;
    loop {
        // Open `next`, or copy it when it is a scalar.
        let mut done = match next {
            Value::Array(a) => {
                stack.push(Open::Arr(a.iter(), Vec::with_capacity(a.len())));
                None
            }
            Value::Object(m) => {
                stack.push(Open::Obj(m.iter(), Map::new(), String::new()));
                None
            }
            scalar => Some(scalar.clone()),
        };
        // Hand finished values up until some container has a next child.
        loop {
            let Some(top) = stack.last_mut() else {
                return done.unwrap_or(Value::Null);
            };
            let child = match top {
                Open::Arr(it, out) => {
                    if let Some(d) = done.take() {
                        out.push(d);
                    }
                    it.next()
                }
                Open::Obj(it, out, key) => {
                    if let Some(d) = done.take() {
                        out.insert(std::mem::take(key), d);
                    }
                    it.next().map(|(k, c)| {
                        key.clone_from(k);
                        c
                    })
                }
            };
            if let Some(c) = child {
                next = c;
                break;
            }
            done = match stack.pop() {
                Some(Open::Arr(_, out)) => Some(Value::Array(out)),
                Some(Open::Obj(_, out, _)) => Some(Value::Object(out)),
                None => None,
            };
        }
    }
}

/// Equality as RFC 6902 `test` defines it: same type; numbers numerically
/// equal (`1` = `1.0` = `1e0`); strings by code points; arrays element by
/// element; objects with the same members, in any order. Iterative.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    eq_rec(a, b, RECURSE)
}

fn eq_rec(a: &Value, b: &Value, depth: u32) -> bool {
    match (a, b) {
        (Value::Array(p), Value::Array(q)) if depth > 0 => {
            p.len() == q.len() && p.iter().zip(q).all(|(x, y)| eq_rec(x, y, depth - 1))
        }
        (Value::Object(p), Value::Object(q)) if depth > 0 => {
            p.len() == q.len()
                && p.iter()
                    .all(|(k, x)| q.get(k).is_some_and(|y| eq_rec(x, y, depth - 1)))
        }
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => eq_iter(a, b),
        (Value::Null, Value::Null) => true,
        (Value::Bool(p), Value::Bool(q)) => p == q,
        (Value::Number(p), Value::Number(q)) => number_eq(p, q),
        (Value::String(p), Value::String(q)) => p == q,
        _ => false,
    }
}

fn eq_iter(a: &Value, b: &Value) -> bool {
    enum Open<'a> {
        Arr(std::slice::Iter<'a, Value>, std::slice::Iter<'a, Value>),
        Obj(serde_json::map::Iter<'a>, &'a Map<String, Value>),
    }
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some((a, b));
    loop {
        if let Some((x, y)) = next.take() {
            let same = match (x, y) {
                (Value::Null, Value::Null) => true,
                (Value::Bool(p), Value::Bool(q)) => p == q,
                (Value::Number(p), Value::Number(q)) => number_eq(p, q),
                (Value::String(p), Value::String(q)) => p == q,
                (Value::Array(p), Value::Array(q)) if p.len() == q.len() => {
                    stack.push(Open::Arr(p.iter(), q.iter()));
                    true
                }
                (Value::Object(p), Value::Object(q)) if p.len() == q.len() => {
                    stack.push(Open::Obj(p.iter(), q));
                    true
                }
                _ => false,
            };
            if !same {
                return false;
            }
        }
        match stack.last_mut() {
            None => return true,
            Some(Open::Arr(p, q)) => match (p.next(), q.next()) {
                (Some(x), Some(y)) => next = Some((x, y)),
                _ => {
                    stack.pop();
                }
            },
            Some(Open::Obj(p, q)) => match p.next() {
                Some((k, x)) => match q.get(k) {
                    Some(y) => next = Some((x, y)),
                    None => return false,
                },
                None => {
                    stack.pop();
                }
            },
        }
    }
}

/// Numeric equality across serde_json's integer and float forms: an
/// integer equals a float when the float is that exact integer.
fn number_eq(p: &serde_json::Number, q: &serde_json::Number) -> bool {
    fn int(n: &serde_json::Number) -> Option<i128> {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    }
    match (int(p), int(q)) {
        (Some(x), Some(y)) => x == y,
        (Some(i), None) => q.as_f64().is_some_and(|f| float_is_int(f, i)),
        (None, Some(i)) => p.as_f64().is_some_and(|f| float_is_int(f, i)),
        (None, None) => match (p.as_f64(), q.as_f64()) {
            (Some(x), Some(y)) => x == y,
            // Numbers no f64 holds (only with arbitrary precision): as written.
            _ => p == q,
        },
    }
}

/// Whether the float `f` is exactly the integer `i` (`f` is finite with
/// no fraction, and in range: `as` saturates beyond, which no i64 or u64
/// reaches).
fn float_is_int(f: f64, i: i128) -> bool {
    f.is_finite() && f.fract() == 0.0 && f as i128 == i
}

// ---- the applier ----

/// Where a value sits: the root, a member of the object at `parent`, or
/// an element of the array at `parent`.
#[derive(Clone)]
enum Slot<'p> {
    Root,
    Key(&'p Pointer, Token<'p>),
    Index(&'p Pointer, usize),
}

/// One step of the undo log, to be replayed backwards.
enum Undo<'p> {
    /// A value was inserted here: take it out (arrays close up).
    Take(Slot<'p>),
    /// A value was overwritten here: put the old one back.
    Put(Slot<'p>, Value),
    /// A value was removed from here: insert it back (arrays open up).
    /// `None` for a `move`: the value is the one the previous step took.
    Insert(Slot<'p>, Option<Value>),
}

/// Why an operation stopped, before it is tied to its number.
enum Stop {
    Fails(String),
    Over(Budget, usize, usize),
}

impl Stop {
    fn at(self, op: usize, o: &PatchOperation) -> PatchError {
        let what = describe(o);
        match self {
            Stop::Fails(reason) => PatchError::Fails { op, what, reason },
            Stop::Over(budget, needed, limit) => PatchError::OverBudget {
                op,
                what,
                budget,
                needed,
                limit,
            },
        }
    }
}

/// `copy from /a to /b`; the root pointer shows as `""`.
fn describe(o: &PatchOperation) -> String {
    let p = show;
    match o {
        PatchOperation::Add(o) => format!("add {}", p(&o.path)),
        PatchOperation::Remove(o) => format!("remove {}", p(&o.path)),
        PatchOperation::Replace(o) => format!("replace {}", p(&o.path)),
        PatchOperation::Move(o) => format!("move from {} to {}", p(&o.from), p(&o.path)),
        PatchOperation::Copy(o) => format!("copy from {} to {}", p(&o.from), p(&o.path)),
        PatchOperation::Test(o) => format!("test {}", p(&o.path)),
    }
}

/// Where a value to be placed comes from.
enum Source<'p> {
    /// The operation's `value`: cloned.
    Op(&'p Value),
    /// Another place in the document (`copy`): cloned.
    Doc(&'p Pointer),
    /// Taken out of the document (`move`): already owned.
    Moved(Value),
}

/// `add` may append or create a member; `replace` needs one that exists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Add,
    Replace,
}

/// One patch being applied.
struct Run<'b, 'p> {
    size: usize,
    work: usize,
    budget: &'b PatchBudget,
    log: Vec<Undo<'p>>,
}

impl<'p> Run<'_, 'p> {
    fn op(&mut self, doc: &mut Value, op: &'p PatchOperation) -> Result<(), Stop> {
        match op {
            PatchOperation::Add(o) => {
                let n = self.measure(&o.value)?;
                self.place(doc, &o.path, Mode::Add, n, Source::Op(&o.value))
                    .map_err(|(e, _)| e)
            }
            PatchOperation::Replace(o) => {
                let n = self.measure(&o.value)?;
                self.place(doc, &o.path, Mode::Replace, n, Source::Op(&o.value))
                    .map_err(|(e, _)| e)
            }
            PatchOperation::Copy(o) => {
                let src = walk(doc, &o.from).map_err(|d| Stop::Fails(miss(doc, &o.from, d)))?;
                let n = self.measure(src)?;
                self.place(doc, &o.path, Mode::Add, n, Source::Doc(&o.from))
                    .map_err(|(e, _)| e)
            }
            PatchOperation::Test(o) => {
                self.measure(&o.value)?;
                let at = walk(doc, &o.path).map_err(|d| Stop::Fails(miss(doc, &o.path, d)))?;
                if json_eq(at, &o.value) {
                    Ok(())
                } else {
                    Err(Stop::Fails(format!(
                        "the value at {} is not the test value",
                        show(&o.path)
                    )))
                }
            }
            PatchOperation::Remove(o) => {
                let (v, slot, overhead) = self.take(doc, &o.path)?;
                self.size = self.size.saturating_sub(mem_size(&v) + overhead);
                self.log.push(Undo::Insert(slot, Some(v)));
                Ok(())
            }
            PatchOperation::Move(o) => self.mov(doc, &o.from, &o.path),
        }
    }

    /// Charges `units` of work.
    fn charge(&mut self, units: usize) -> Result<(), Stop> {
        self.work = self.work.saturating_add(units);
        if self.work > self.budget.work {
            return Err(Stop::Over(Budget::Work, self.work, self.budget.work));
        }
        Ok(())
    }

    /// `v`'s size, charged as work; measuring stops past the budget.
    fn measure(&mut self, v: &Value) -> Result<usize, Stop> {
        let room = self.budget.work.saturating_sub(self.work);
        match size_within(v, room) {
            Ok(n) => {
                self.charge(n)?;
                Ok(n)
            }
            Err(n) => Err(Stop::Over(
                Budget::Work,
                self.work.saturating_add(n),
                self.budget.work,
            )),
        }
    }

    /// `move`: take the value out of `from`, place it at `path`. The value
    /// stays counted in the state's size while in flight.
    fn mov(&mut self, doc: &mut Value, from: &'p Pointer, path: &'p Pointer) -> Result<(), Stop> {
        if from == path {
            // Removing then adding it back: nothing changes, if it exists.
            return walk(doc, from)
                .map(|_| ())
                .map_err(|d| Stop::Fails(miss(doc, from, d)));
        }
        if path.starts_with(from) {
            return Err(Stop::Fails(format!(
                "from {} is a proper prefix of path {}: a value cannot move into itself",
                show(from),
                show(path)
            )));
        }
        let (v, slot, overhead) = self.take(doc, from)?;
        self.size = self.size.saturating_sub(overhead);
        self.log.push(Undo::Insert(slot, None));
        // Onto the root the moved value becomes the whole state: its size
        // must be known (measured, as work); elsewhere it is already counted.
        let grow = if path.is_root() {
            match self.measure(&v) {
                Ok(n) => n,
                Err(e) => return Err(self.put_back(doc, v, e)),
            }
        } else {
            0
        };
        match self.place(doc, path, Mode::Add, grow, Source::Moved(v)) {
            Ok(()) => Ok(()),
            Err((e, Some(v))) => Err(self.put_back(doc, v, e)),
            Err((e, None)) => Err(e),
        }
    }

    /// A `move` that could not place its value: return it to where it was
    /// taken (the last log entry), so the log is whole again.
    fn put_back(&mut self, doc: &mut Value, v: Value, e: Stop) -> Stop {
        if let Some(step) = self.log.pop() {
            let mut carry = Some(v);
            undo(doc, step, &mut carry);
        }
        e
    }

    /// Removes the value at `path` (which must exist; not the root):
    /// returns it, where it was, and the bytes its place cost besides the
    /// value (a member's key and node share, an element's spare slot).
    fn take(
        &mut self,
        doc: &mut Value,
        path: &'p Pointer,
    ) -> Result<(Value, Slot<'p>, usize), Stop> {
        let Some((parent, last)) = path.split_back() else {
            return Err(Stop::Fails("the root cannot be removed".to_owned()));
        };
        let fails = |doc: &Value, d| Stop::Fails(miss(doc, path, d));
        let depth = parent.count();
        let container = match walk_mut(doc, parent) {
            Ok(c) => c,
            Err(d) => return Err(fails(doc, d)),
        };
        match container {
            Value::Object(m) => {
                let Some(v) = m.remove(last.decoded().as_ref()) else {
                    return Err(fails(doc, depth));
                };
                let overhead = member_cost(last.decoded().len());
                Ok((v, Slot::Key(parent, last), overhead))
            }
            Value::Array(a) => {
                let len = a.len();
                let Some(i) = element(&last, len) else {
                    return Err(fails(doc, depth));
                };
                self.charge(len - 1 - i)?;
                let v = a.remove(i);
                Ok((v, Slot::Index(parent, i), ELEMENT_COST))
            }
            _ => Err(fails(doc, depth)),
        }
    }

    /// Puts a value of size `grow` at `path`, after checking the budgets
    /// and before making the value. On failure a moved value is handed
    /// back.
    fn place(
        &mut self,
        doc: &mut Value,
        path: &'p Pointer,
        mode: Mode,
        grow: usize,
        src: Source<'p>,
    ) -> Result<(), (Stop, Option<Value>)> {
        let give_back = |src: Source<'p>| match src {
            Source::Moved(v) => Some(v),
            _ => None,
        };
        let plan = match self.plan(doc, path, mode) {
            Ok(p) => p,
            Err(e) => return Err((e, give_back(src))),
        };
        let size = match &plan.slot {
            Slot::Root => grow,
            _ => (self.size.saturating_sub(plan.displaced.unwrap_or(0)))
                .saturating_add(plan.overhead)
                .saturating_add(grow),
        };
        if let Err(e) = self.charge(plan.shift) {
            return Err((e, give_back(src)));
        }
        // Only growth is refused: a state already over the budget (a large
        // snapshot) may still shrink.
        if size > self.budget.state_bytes && size > self.size {
            let e = Stop::Over(Budget::State, size, self.budget.state_bytes);
            return Err((e, give_back(src)));
        }
        let value = match src {
            Source::Op(v) => clone_value(v),
            Source::Doc(from) => match walk(doc, from) {
                Ok(v) => clone_value(v),
                Err(d) => return Err((Stop::Fails(miss(doc, from, d)), None)),
            },
            Source::Moved(v) => v,
        };
        let undo = match (&plan.slot, set(doc, &plan.slot, plan.insert, value)) {
            (_, Err(v)) => {
                // The plan found the place; not finding it again is a bug.
                debug_assert!(false, "planned place vanished");
                return Err((Stop::Fails(miss(doc, path, 0)), Some(v)));
            }
            (slot, Ok(Some(old))) => Undo::Put(slot.clone(), old),
            (slot, Ok(None)) => Undo::Take(slot.clone()),
        };
        self.log.push(undo);
        self.size = size;
        Ok(())
    }

    /// Finds where `path` puts a value, without changing anything.
    fn plan(&self, doc: &Value, path: &'p Pointer, mode: Mode) -> Result<Plan<'p>, Stop> {
        let Some((parent, last)) = path.split_back() else {
            return Ok(Plan {
                slot: Slot::Root,
                insert: false,
                displaced: Some(self.size),
                overhead: 0,
                shift: 0,
            });
        };
        let depth = parent.count();
        let fails = |d| Stop::Fails(miss(doc, path, d));
        match walk(doc, parent).map_err(fails)? {
            Value::Object(m) => match (m.get(last.decoded().as_ref()), mode) {
                (Some(old), _) => Ok(Plan {
                    slot: Slot::Key(parent, last),
                    insert: false,
                    displaced: Some(mem_size(old)),
                    overhead: 0,
                    shift: 0,
                }),
                (None, Mode::Replace) => Err(fails(depth)),
                (None, Mode::Add) => {
                    let overhead = member_cost(last.decoded().len());
                    Ok(Plan {
                        slot: Slot::Key(parent, last),
                        insert: false,
                        displaced: None,
                        overhead,
                        shift: 0,
                    })
                }
            },
            Value::Array(a) => {
                let len = a.len();
                match mode {
                    Mode::Replace => {
                        let i = element(&last, len).ok_or_else(|| fails(depth))?;
                        Ok(Plan {
                            slot: Slot::Index(parent, i),
                            insert: false,
                            displaced: Some(mem_size(&a[i])),
                            overhead: 0,
                            shift: 0,
                        })
                    }
                    Mode::Add => {
                        let i = match last.to_index() {
                            Ok(Index::Next) => len,
                            Ok(Index::Num(i)) if i <= len => i,
                            _ => return Err(fails(depth)),
                        };
                        Ok(Plan {
                            slot: Slot::Index(parent, i),
                            insert: true,
                            displaced: None,
                            overhead: ELEMENT_COST,
                            shift: len - i,
                        })
                    }
                }
            }
            _ => Err(fails(depth)),
        }
    }
}

/// Where a value will go and what that costs.
struct Plan<'p> {
    slot: Slot<'p>,
    /// Array insertion (elements after it shift) rather than setting.
    insert: bool,
    /// The size of the value overwritten, if any.
    displaced: Option<usize>,
    /// Bytes the place adds besides the value (see [`Run::take`]).
    overhead: usize,
    /// Array elements that shift.
    shift: usize,
}

/// The element `tok` names in an array of `len`: an RFC 6901 index below
/// `len` (not `-`, no leading zero).
fn element(tok: &Token<'_>, len: usize) -> Option<usize> {
    match tok.to_index() {
        Ok(Index::Num(i)) if i < len => Some(i),
        _ => None,
    }
}

/// The value at `ptr`, or the number of tokens that resolved.
fn walk<'d>(doc: &'d Value, ptr: &Pointer) -> Result<&'d Value, usize> {
    let mut cur = doc;
    for (d, tok) in ptr.tokens().enumerate() {
        cur = match cur {
            Value::Object(m) => m.get(tok.decoded().as_ref()),
            Value::Array(a) => element(&tok, a.len()).map(|i| &a[i]),
            _ => None,
        }
        .ok_or(d)?;
    }
    Ok(cur)
}

/// [`walk`], mutably.
fn walk_mut<'d>(doc: &'d mut Value, ptr: &Pointer) -> Result<&'d mut Value, usize> {
    let mut cur = doc;
    for (d, tok) in ptr.tokens().enumerate() {
        cur = match cur {
            Value::Object(m) => m.get_mut(tok.decoded().as_ref()),
            Value::Array(a) => {
                let len = a.len();
                element(&tok, len).map(|i| &mut a[i])
            }
            _ => None,
        }
        .ok_or(d)?;
    }
    Ok(cur)
}

/// Why `ptr` does not resolve in `doc`, its first `depth` tokens having
/// resolved: e.g. `path /b/c does not exist (/b is a number)`.
fn miss(doc: &Value, ptr: &Pointer, depth: usize) -> String {
    let mut at = String::new();
    let mut cur = Some(doc);
    let mut tok_text = String::new();
    for (d, tok) in ptr.tokens().enumerate() {
        if d == depth {
            tok_text = tok.encoded().to_owned();
            break;
        }
        at.push('/');
        at.push_str(tok.encoded());
        cur = cur.and_then(|c| match c {
            Value::Object(m) => m.get(tok.decoded().as_ref()),
            Value::Array(a) => element(&tok, a.len()).map(|i| &a[i]),
            _ => None,
        });
    }
    let parent = if at.is_empty() {
        "the root"
    } else {
        at.as_str()
    };
    let why = match cur {
        Some(Value::Object(_)) => format!("{parent} has no member \"{tok_text}\""),
        Some(Value::Array(a)) => match Token::new(tok_text.as_str()).to_index() {
            Ok(Index::Next) => format!("\"-\" names no element of {parent}"),
            Ok(Index::Num(_)) => format!("{parent} has {} elements", a.len()),
            Err(_) => format!("\"{tok_text}\" is not an array index"),
        },
        Some(v) => format!("{parent} is {}", kind(v)),
        None => "the path breaks earlier".to_owned(),
    };
    format!("path {} does not exist ({why})", show(ptr))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A pointer in a message; the root shows as `""`.
fn show(ptr: &Pointer) -> &str {
    if ptr.is_root() { "\"\"" } else { ptr.as_str() }
}

/// Puts `v` at `slot` (inserting into an array when `insert`): the value
/// it overwrote, if any; `Err(v)` when the slot is not there.
fn set(doc: &mut Value, slot: &Slot<'_>, insert: bool, v: Value) -> Result<Option<Value>, Value> {
    match slot {
        Slot::Root => Ok(Some(std::mem::replace(doc, v))),
        Slot::Key(parent, tok) => match walk_mut(doc, parent) {
            Ok(Value::Object(m)) => Ok(m.insert(tok.decoded().into_owned(), v)),
            _ => Err(v),
        },
        Slot::Index(parent, i) => match walk_mut(doc, parent) {
            Ok(Value::Array(a)) if insert && *i <= a.len() => {
                a.insert(*i, v);
                Ok(None)
            }
            Ok(Value::Array(a)) if !insert && *i < a.len() => {
                Ok(Some(std::mem::replace(&mut a[*i], v)))
            }
            _ => Err(v),
        },
    }
}

/// Takes the value at `slot` out (an array closes up).
fn unset(doc: &mut Value, slot: &Slot<'_>) -> Option<Value> {
    match slot {
        Slot::Root => None,
        Slot::Key(parent, tok) => match walk_mut(doc, parent) {
            Ok(Value::Object(m)) => m.remove(tok.decoded().as_ref()),
            _ => None,
        },
        Slot::Index(parent, i) => match walk_mut(doc, parent) {
            Ok(Value::Array(a)) if *i < a.len() => Some(a.remove(*i)),
            _ => None,
        },
    }
}

/// Replays one undo step. `carry` holds the value the previous step took
/// out, for a `move`'s [`Undo::Insert`] with no value of its own.
fn undo(doc: &mut Value, step: Undo<'_>, carry: &mut Option<Value>) {
    if !matches!(step, Undo::Insert(_, None))
        && let Some(c) = carry.take()
    {
        drop_value(c);
    }
    let retraced = match step {
        Undo::Take(slot) => {
            *carry = unset(doc, &slot);
            carry.is_some()
        }
        Undo::Put(slot, old) => match set(doc, &slot, false, old) {
            Ok(now) => {
                *carry = now;
                true
            }
            Err(_) => false,
        },
        Undo::Insert(slot, v) => match v.or_else(|| carry.take()) {
            Some(v) => set(doc, &slot, matches!(slot, Slot::Index(..)), v).is_ok(),
            None => false,
        },
    };
    // Each step acts where the operation it undoes acted, on the document
    // as that operation left it: it cannot miss.
    debug_assert!(retraced, "an undo step could not retrace its operation");
}

/// Undoes the whole log, newest first.
fn rollback(doc: &mut Value, log: Vec<Undo<'_>>) {
    let mut carry = None;
    for step in log.into_iter().rev() {
        undo(doc, step, &mut carry);
    }
    if let Some(c) = carry {
        drop_value(c);
    }
}
