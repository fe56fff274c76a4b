//! Target `patch`: random documents × random JSON Patch documents through
//! the checker's applier (`agui_model::patch`), against `json_patch` as an
//! independent second applier.
//!
//! Input: bytes that drive a generator (`arbitrary`): a document (objects
//! and arrays a few levels deep, keys from a small alphabet with `~`, `/`,
//! `-` and digits), then 1–24 operations biased to the root `""`, to
//! `move`/`copy` chains (`copy` from `""` into a new member doubles the
//! document), to keys that need `~0`/`~1`, and to array tokens `-`, one past
//! the end, `01`; `test` values taken from the document, sometimes with
//! integers written as floats. The budget is small (16 KiB of state and of
//! work; a quarter of the time under 2 KB), so chains trip it, and cloning
//! stays cheap (at 64 KiB cloning took most of the time under ASan).
//!
//! Invariants:
//! - no panic;
//! - a patch that fails (or is over budget) leaves the document and its
//!   tracked size exactly as before (compared with a clone taken before);
//! - after a patch that applies, the tracked size is the document's
//!   `mem_size`, and within the budget unless the document started over
//!   it and did not grow;
//! - the operations before the one that stopped apply on their own, and
//!   `json_patch::patch_unsafe` gives the same document for them;
//! - an operation ours rejects as not applying, `json_patch` rejects too.
//!
//! Where the two appliers disagree RFC 6902 decides, and the only
//! differences allowed are json_patch's, both where it rejects what the RFC
//! applies: a `test` of numerically equal numbers written differently (`1`
//! and `1.0`: RFC 6902 §4.6 compares numbers by value, serde_json's `==`
//! does not), and a `move` from `""` to `""` (the RFC defines move as remove
//! then add; json_patch cannot remove the root first; ours treats a move
//! onto itself as the no-op it is). json_patch is only asked about
//! operations that fit our budget, so it cannot exhaust memory.

use agui_model::patch::{PatchBudget, PatchError, apply, json_eq, mem_size};
use arbitrary::{Result, Unstructured};
use json_patch::jsonptr::{PointerBuf, Token};
use json_patch::{
    AddOperation, CopyOperation, MoveOperation, PatchOperation, RemoveOperation, ReplaceOperation,
    TestOperation,
};
use serde_json::{Map, Number, Value};

/// Keys: plain, empty, ones that look like array tokens, and ones that
/// need `~0`/`~1` in a pointer.
const KEYS: &[&str] = &[
    "a", "b", "", "-", "0", "1", "01", "~", "/", "~1", "~0", "a/b", "m~n", "k0", "k1",
];

/// Array tokens: in range, at and past the end, `-`, and not indexes.
const INDEXES: &[&str] = &["0", "1", "2", "3", "-", "01", "00", "+1", "-1", "", "1e0"];

/// The target body: never fails; an input too short just does less.
pub fn run(data: &[u8]) {
    if let Ok(c) = case(&mut Unstructured::new(data)) {
        check(&c.doc, &c.ops, &c.budget);
    }
}

/// One generated case.
#[derive(Debug)]
pub struct Case {
    pub doc: Value,
    pub ops: Vec<PatchOperation>,
    pub budget: PatchBudget,
}

/// The case the bytes describe.
pub fn case(u: &mut Unstructured) -> Result<Case> {
    let mut nodes = 48;
    // Mostly a container: a scalar root leaves little to patch.
    let doc = if u.ratio(1, 10)? {
        value(u, 0, &mut nodes)?
    } else {
        container(u, 3, &mut nodes)?
    };
    let mut paths = Vec::new();
    collect_paths(&doc, &mut Vec::new(), &mut paths);
    let ops = if u.ratio(1, 5)? {
        copy_chain(u, &paths)?
    } else {
        let n = if u.ratio(3, 4)? {
            u.int_in_range(1..=4)?
        } else {
            u.int_in_range(1..=24)?
        };
        let mut ops = Vec::with_capacity(n);
        for _ in 0..n {
            ops.push(op(u, &doc, &paths)?);
        }
        ops
    };
    let budget = match u.int_in_range(0..=3)? {
        0 => PatchBudget {
            state_bytes: u.int_in_range(0..=2000)?,
            work: u.int_in_range(0..=2000)?,
        },
        _ => PatchBudget {
            state_bytes: 1 << 14,
            work: 1 << 14,
        },
    };
    Ok(Case { doc, ops, budget })
}

// ---- generation ----

fn key(u: &mut Unstructured) -> Result<String> {
    if u.ratio(1, 10)? {
        let n = u.int_in_range(0..=4)?;
        let mut s = String::new();
        for _ in 0..n {
            s.push(*u.choose(&['~', '/', '0', '1', 'x', 'é'])?);
        }
        Ok(s)
    } else {
        Ok((*u.choose(KEYS)?).to_owned())
    }
}

fn number(u: &mut Unstructured) -> Result<Number> {
    Ok(match u.int_in_range(0..=5)? {
        0 => Number::from(u.int_in_range(0u64..=3)?),
        1 => Number::from(-u.int_in_range(1i64..=3)?),
        2 => Number::from(u64::MAX - u.int_in_range(0u64..=1)?),
        3 => Number::from_f64(f64::from(u.int_in_range(0i32..=3)?)).unwrap_or(Number::from(0)),
        4 => Number::from_f64(*u.choose(&[0.5, -0.0, 1e300, 9007199254740992.0])?)
            .unwrap_or(Number::from(0)),
        _ => Number::from(i64::MIN),
    })
}

/// A value at most `depth` levels deep, with at most `nodes` containers
/// and members in all.
fn value(u: &mut Unstructured, depth: usize, nodes: &mut usize) -> Result<Value> {
    let pick = if depth == 0 || *nodes == 0 {
        u.int_in_range(0..=3)?
    } else {
        u.int_in_range(0..=7)?
    };
    Ok(match pick {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(number(u)?),
        3 => Value::String(key(u)?),
        _ => container(u, depth, nodes)?,
    })
}

/// An array or (more often) an object, `depth` ≥ 1 levels deep.
fn container(u: &mut Unstructured, depth: usize, nodes: &mut usize) -> Result<Value> {
    let depth = depth.max(1);
    Ok(match u.int_in_range(0..=2)? {
        0 => {
            let n = u.int_in_range(0..=4)?.min(*nodes);
            *nodes -= n;
            let mut a = Vec::with_capacity(n);
            for _ in 0..n {
                a.push(value(u, depth - 1, nodes)?);
            }
            Value::Array(a)
        }
        _ => {
            let n = u.int_in_range(0..=4)?.min(*nodes);
            *nodes -= n;
            let mut m = Map::new();
            for _ in 0..n {
                let k = key(u)?;
                let v = value(u, depth - 1, nodes)?;
                m.insert(k, v);
            }
            Value::Object(m)
        }
    })
}

/// The decoded tokens of every place in `v` (the root first), up to 64.
fn collect_paths(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if out.len() >= 64 {
        return;
    }
    out.push(at.clone());
    match v {
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                at.push(i.to_string());
                collect_paths(c, at, out);
                at.pop();
            }
        }
        Value::Object(m) => {
            for (k, c) in m {
                at.push(k.clone());
                collect_paths(c, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn pointer_of(tokens: &[String]) -> PointerBuf {
    let mut p = PointerBuf::new();
    for t in tokens {
        p.push_back(Token::new(t.as_str()));
    }
    p
}

/// A pointer: the root, a place that exists, or one beside it.
fn pointer(u: &mut Unstructured, paths: &[Vec<String>]) -> Result<PointerBuf> {
    let mut tokens = u.choose(paths)?.clone();
    match u.int_in_range(0..=11)? {
        0..=2 => tokens.clear(),
        3..=7 => {}
        8 | 9 => tokens.push((*u.choose(INDEXES)?).to_owned()),
        10 => tokens.push(key(u)?),
        _ => {
            tokens.clear();
            for _ in 0..u.int_in_range(1..=3)? {
                tokens.push(key(u)?);
            }
        }
    }
    Ok(pointer_of(&tokens))
}

/// `v` with its integers written as floats (equal under RFC 6902, not
/// under serde_json's `==`).
fn as_floats(v: &Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_i64()
            .and_then(|i| Number::from_f64(i as f64))
            .map_or_else(|| v.clone(), Value::Number),
        Value::Array(a) => Value::Array(a.iter().map(as_floats).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, c)| (k.clone(), as_floats(c))).collect())
        }
        _ => v.clone(),
    }
}

fn op(u: &mut Unstructured, doc: &Value, paths: &[Vec<String>]) -> Result<PatchOperation> {
    let path = pointer(u, paths)?;
    let kind = u.int_in_range(0..=7)?;
    // Copies from the root are the chains that double the document; a
    // move from the root fails unless it goes to the root.
    let from = if u.ratio(1, if kind >= 5 { 3 } else { 12 })? {
        PointerBuf::new()
    } else {
        pointer(u, paths)?
    };
    let mut nodes = 8;
    Ok(match kind {
        0 => PatchOperation::Add(AddOperation {
            path,
            value: value(u, 2, &mut nodes)?,
        }),
        1 => PatchOperation::Remove(RemoveOperation { path }),
        2 => PatchOperation::Replace(ReplaceOperation {
            path,
            value: value(u, 2, &mut nodes)?,
        }),
        3 | 4 => PatchOperation::Move(MoveOperation { from, path }),
        5 | 6 => PatchOperation::Copy(CopyOperation { from, path }),
        _ => {
            let value = match doc.pointer(path.as_str()) {
                Some(v) if u.ratio(2, 3)? => {
                    if u.arbitrary()? {
                        as_floats(v)
                    } else {
                        v.clone()
                    }
                }
                _ => value(u, 2, &mut nodes)?,
            };
            PatchOperation::Test(TestOperation { path, value })
        }
    })
}

/// Copies of the root into new members (doubling the document each time),
/// then a few more operations, perhaps one that fails.
fn copy_chain(u: &mut Unstructured, paths: &[Vec<String>]) -> Result<Vec<PatchOperation>> {
    let n = u.int_in_range(1..=30)?;
    let mut ops = Vec::with_capacity(n + 2);
    for i in 0..n {
        let key = if u.ratio(1, 4)? {
            key(u)?
        } else {
            format!("k{i}")
        };
        ops.push(PatchOperation::Copy(CopyOperation {
            from: PointerBuf::new(),
            path: pointer_of(&[key]),
        }));
    }
    for _ in 0..u.int_in_range(0..=2)? {
        ops.push(PatchOperation::Move(MoveOperation {
            from: pointer(u, paths)?,
            path: PointerBuf::new(),
        }));
    }
    Ok(ops)
}

// ---- the invariants ----

/// Applies `ops` with our applier and checks every invariant.
pub fn check(doc: &Value, ops: &[PatchOperation], budget: &PatchBudget) {
    let before = doc.clone();
    let size0 = mem_size(doc);
    let mut ours = doc.clone();
    let mut size = size0;
    let result = apply(&mut ours, &mut size, ops, budget);
    let applied = match &result {
        Ok(()) => {
            assert_eq!(size, mem_size(&ours), "tracked size after {ops:?}");
            assert!(
                size <= budget.state_bytes.max(size0),
                "the patch grew the state past the budget: {size0} to {size}"
            );
            ops.len()
        }
        Err(e) => {
            assert_eq!(ours, before, "failed patch ({e}) changed the document");
            assert_eq!(size, size0, "failed patch ({e}) changed the size");
            match e {
                PatchError::Fails { op, .. } | PatchError::OverBudget { op, .. } => *op,
            }
        }
    };
    // The operations before the one that stopped apply on their own.
    let mut prefix = doc.clone();
    let mut prefix_size = size0;
    let r = apply(&mut prefix, &mut prefix_size, &ops[..applied], budget);
    assert!(
        r.is_ok(),
        "the first {applied} operations fail alone: {r:?}"
    );
    if result.is_ok() {
        assert_eq!(prefix, ours);
    }
    // json_patch on the same operations: the same document, or a failure
    // at an operation RFC 6902 applies (see the module doc).
    let mut theirs = doc.clone();
    match json_patch::patch_unsafe(&mut theirs, &ops[..applied]) {
        Ok(()) => assert_eq!(theirs, prefix, "json_patch differs on {ops:?}"),
        Err(e) => {
            let j = e.operation;
            let at = state_before(doc, &ops[..j], budget);
            assert!(
                rfc_applies_json_patch_rejects(&at, &ops[j]),
                "json_patch rejects operation {j} ({e}), ours applies it: {:?} on {at}",
                ops[j]
            );
        }
    }
    // An operation that does not apply for us does not for json_patch.
    if let Err(PatchError::Fails { op, reason, .. }) = &result {
        let mut theirs = prefix;
        assert!(
            json_patch::patch_unsafe(&mut theirs, &ops[*op..=*op]).is_err(),
            "json_patch applies operation {op} which we reject ({reason}): {:?} on {before}",
            ops[*op]
        );
    }
}

/// The document after `ops` (which apply).
fn state_before(doc: &Value, ops: &[PatchOperation], budget: &PatchBudget) -> Value {
    let mut d = doc.clone();
    let mut size = mem_size(&d);
    let r = apply(&mut d, &mut size, ops, budget);
    assert!(r.is_ok(), "{r:?}");
    d
}

/// The two places where json_patch rejects what RFC 6902 applies.
fn rfc_applies_json_patch_rejects(doc: &Value, op: &PatchOperation) -> bool {
    match op {
        PatchOperation::Test(t) => doc
            .pointer(t.path.as_str())
            .is_some_and(|v| json_eq(v, &t.value) && *v != t.value),
        PatchOperation::Move(m) => m.from.is_root() && m.path.is_root(),
        _ => false,
    }
}
