//! `STATE_DELTA.delta` on the fast path: the raw JSON Patch read straight
//! into `json_patch` operations, without a `Value` of the array.
//!
//! Only the plain spelling is read: an array of objects holding exactly the
//! members their `op` takes (`op` and `path`; `value` for add, replace and
//! test; `from` for move and copy), `op`, `path` and `from` unescaped
//! strings. That is a patch the schema accepts (a valid `op`, JSON Pointers,
//! the required members) and that json-patch reads the same way; anything
//! else declines, and the `Value` path judges it.

use super::scan::Scanner;
use super::{Decline, Fast};
use crate::schema::is_json_pointer;
use json_patch::jsonptr::PointerBuf;
use json_patch::{
    AddOperation, CopyOperation, MoveOperation, PatchOperation, RemoveOperation, ReplaceOperation,
    TestOperation,
};

/// The members of one operation, raw.
#[derive(Default)]
struct Members<'a> {
    op: Option<&'a str>,
    path: Option<&'a str>,
    from: Option<&'a str>,
    value: Option<&'a str>,
}

/// Reads the raw `delta` (already scanned once with the whole line).
pub(super) fn read(raw: &str) -> Fast<Vec<PatchOperation>> {
    ops(raw).ok_or(Decline)
}

fn ops(raw: &str) -> Option<Vec<PatchOperation>> {
    let mut sc = Scanner::new(raw);
    let mut out = Vec::new();
    sc.eat(b'[')?;
    if sc.peek()? == b']' {
        sc.eat(b']')?;
        return sc.at_end().then_some(out);
    }
    loop {
        out.push(op(&members(&mut sc)?)?);
        match sc.peek()? {
            b',' => sc.eat(b',')?,
            b']' => break,
            _ => return None,
        }
    }
    sc.eat(b']')?;
    sc.at_end().then_some(out)
}

/// One operation object's members; a member repeated, unknown, or (for
/// `op`, `path`, `from`) not a plain string declines.
fn members<'a>(sc: &mut Scanner<'a>) -> Option<Members<'a>> {
    let mut m = Members::default();
    sc.eat(b'{')?;
    loop {
        let (key, escaped) = sc.string()?;
        sc.eat(b':')?;
        let slot = match key {
            _ if escaped => return None,
            "\"op\"" => &mut m.op,
            "\"path\"" => &mut m.path,
            "\"from\"" => &mut m.from,
            "\"value\"" => &mut m.value,
            _ => return None,
        };
        if slot.is_some() {
            return None;
        }
        let raw = if key == "\"value\"" {
            sc.value(2)?
        } else {
            let (s, escaped) = sc.string()?;
            if escaped {
                return None;
            }
            &s[1..s.len() - 1]
        };
        *slot = Some(raw);
        match sc.peek()? {
            b',' => sc.eat(b',')?,
            b'}' => break,
            _ => return None,
        }
    }
    sc.eat(b'}')?;
    Some(m)
}

fn pointer(s: Option<&str>) -> Option<PointerBuf> {
    let s = s?;
    if !is_json_pointer(s) {
        return None;
    }
    PointerBuf::parse(s).ok()
}

/// The operation, if its members are exactly those its `op` takes.
fn op(m: &Members<'_>) -> Option<PatchOperation> {
    let path = pointer(m.path)?;
    let value = || -> Option<serde_json::Value> { serde_json::from_str(m.value?).ok() };
    let no_from = m.from.is_none();
    let no_value = m.value.is_none();
    Some(match m.op? {
        "add" if no_from => PatchOperation::Add(AddOperation {
            path,
            value: value()?,
        }),
        "replace" if no_from => PatchOperation::Replace(ReplaceOperation {
            path,
            value: value()?,
        }),
        "test" if no_from => PatchOperation::Test(TestOperation {
            path,
            value: value()?,
        }),
        "remove" if no_from && no_value => PatchOperation::Remove(RemoveOperation { path }),
        "move" if no_value => PatchOperation::Move(MoveOperation {
            from: pointer(m.from)?,
            path,
        }),
        "copy" if no_value => PatchOperation::Copy(CopyOperation {
            from: pointer(m.from)?,
            path,
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::ops;
    use json_patch::PatchOperation;
    use serde_json::Value;

    /// What the `Value` path reads from the same text.
    fn by_value(raw: &str) -> Vec<PatchOperation> {
        let v: Value = serde_json::from_str(raw).expect("JSON");
        serde_json::from_value(v).expect("a patch")
    }

    #[test]
    fn plain_patches_read_as_json_patch_reads_them() {
        for raw in [
            "[]",
            r#"[{"op":"add","path":"/a","value":{"b":[1,null]}}]"#,
            r#"[ {"path":"/a~1b","op":"replace","value":null} , {"op":"remove","path":""} ]"#,
            r#"[{"op":"test","path":"/x/0","value":"é"},{"op":"move","from":"/a","path":"/b"}]"#,
            r#"[{"op":"copy","path":"/b","from":"/a"}]"#,
        ] {
            assert_eq!(ops(raw), Some(by_value(raw)), "{raw}");
            let event = format!(r#"{{"type":"STATE_DELTA","delta":{raw}}}"#);
            let event: Value = serde_json::from_str(&event).expect("JSON");
            assert!(crate::schema::validate(&event).is_empty(), "{raw}");
        }
    }

    #[test]
    fn anything_unusual_declines() {
        for raw in [
            r#"[{"op":"add","path":"/a"}]"#,
            r#"[{"op":"remove","path":"/a","value":1}]"#,
            r#"[{"op":"move","path":"/a"}]"#,
            r#"[{"op":"add","path":"a","value":1}]"#,
            r#"[{"op":"add","path":"/~2","value":1}]"#,
            r#"[{"op":"nope","path":"/a"}]"#,
            r#"[{"op":"add","path":"/a","value":1,"x":2}]"#,
            r#"[{"op":"add","op":"add","path":"/a","value":1}]"#,
            r#"[{"op":"add","path":"/\u0061","value":1}]"#,
            r#"[["add","/a",1]]"#,
            r#"{"op":"add","path":"/a","value":1}"#,
            r#"[{"op":"add","path":"/a","value":1},]"#,
        ] {
            assert_eq!(ops(raw), None, "{raw}");
        }
    }
}
