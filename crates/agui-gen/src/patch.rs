//! JSON Patch (RFC 6902) operations built against a known document so that
//! they apply by construction, with the resulting document computed
//! alongside (no patch library on the generation path).

use crate::rng::SplitMix;
use serde_json::{Map, Value, json};

/// Escapes one reference token of a JSON Pointer (RFC 6901).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Keys the builder adds; some need escaping in a pointer.
const SPECIAL: &[&str] = &["a/b", "t~x", "~/"];

/// Builds 1–3 operations that apply to `doc` (an object) and applies them to
/// it. `fresh` numbers new keys so they never collide.
pub fn build(doc: &mut Map<String, Value>, rng: &mut SplitMix, fresh: &mut u32) -> Value {
    let n = 1 + rng.below(3);
    let mut ops = Vec::with_capacity(n);
    for _ in 0..n {
        ops.push(one(doc, rng, fresh));
    }
    Value::Array(ops)
}

fn new_key(rng: &mut SplitMix, fresh: &mut u32, doc: &Map<String, Value>) -> String {
    *fresh += 1;
    let special = SPECIAL[rng.below(SPECIAL.len())];
    if rng.chance(1, 5) && !doc.contains_key(special) {
        special.to_owned()
    } else {
        format!("k{fresh}")
    }
}

fn one(doc: &mut Map<String, Value>, rng: &mut SplitMix, fresh: &mut u32) -> Value {
    let keys: Vec<String> = doc
        .keys()
        .filter(|k| k.as_str() != "list")
        .cloned()
        .collect();
    let list_len = doc.get("list").and_then(Value::as_array).map(Vec::len);
    let choice = rng.below(8);
    let value = json!(rng.below(1000));
    match choice {
        1 if !keys.is_empty() => {
            let k = keys[rng.below(keys.len())].clone();
            doc.insert(k.clone(), value.clone());
            json!({"op": "replace", "path": format!("/{}", escape(&k)), "value": value})
        }
        2 if !keys.is_empty() => {
            let k = keys[rng.below(keys.len())].clone();
            doc.remove(&k);
            json!({"op": "remove", "path": format!("/{}", escape(&k))})
        }
        3 if !keys.is_empty() => {
            let k = keys[rng.below(keys.len())].clone();
            let v = doc.get(&k).cloned().unwrap_or(Value::Null);
            json!({"op": "test", "path": format!("/{}", escape(&k)), "value": v})
        }
        4 => match list_len {
            Some(_) => {
                if let Some(Value::Array(a)) = doc.get_mut("list") {
                    a.push(value.clone());
                }
                json!({"op": "add", "path": "/list/-", "value": value})
            }
            None => {
                doc.insert("list".into(), json!([]));
                json!({"op": "add", "path": "/list", "value": []})
            }
        },
        5 if !keys.is_empty() => {
            let from = keys[rng.below(keys.len())].clone();
            let to = new_key(rng, fresh, doc);
            let v = doc.get(&from).cloned().unwrap_or(Value::Null);
            doc.insert(to.clone(), v);
            json!({"op": "copy", "from": format!("/{}", escape(&from)), "path": format!("/{}", escape(&to))})
        }
        6 if !keys.is_empty() => {
            let from = keys[rng.below(keys.len())].clone();
            let to = new_key(rng, fresh, doc);
            let v = doc.remove(&from).unwrap_or(Value::Null);
            doc.insert(to.clone(), v);
            json!({"op": "move", "from": format!("/{}", escape(&from)), "path": format!("/{}", escape(&to))})
        }
        7 if list_len.is_some() => {
            if let Some(Value::Array(a)) = doc.get_mut("list") {
                a.insert(0, value.clone());
            }
            json!({"op": "add", "path": "/list/0", "value": value})
        }
        _ => {
            let k = new_key(rng, fresh, doc);
            let v = if rng.chance(1, 4) {
                json!({"deep": [value, "x"]})
            } else {
                value
            };
            doc.insert(k.clone(), v.clone());
            json!({"op": "add", "path": format!("/{}", escape(&k)), "value": v})
        }
    }
}

/// A fresh snapshot document.
pub fn snapshot(rng: &mut SplitMix, fresh: &mut u32) -> Map<String, Value> {
    let mut m = Map::new();
    for _ in 0..rng.below(3) {
        *fresh += 1;
        m.insert(format!("k{fresh}"), json!(rng.below(100)));
    }
    if rng.chance(1, 2) {
        m.insert("list".into(), json!([rng.below(10)]));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_rfc_6901() {
        assert_eq!(escape("a/b"), "a~1b");
        assert_eq!(escape("t~x"), "t~0x");
        assert_eq!(escape("~/"), "~0~1");
    }

    /// The patch applies (per an independent RFC 6902 implementation) and
    /// gives exactly the document the builder computed.
    #[test]
    fn built_patches_apply_and_give_the_computed_document() {
        let mut rng = SplitMix::new(7);
        let mut fresh = 0;
        for _ in 0..200 {
            let mut doc = if rng.chance(1, 10) {
                snapshot(&mut rng, &mut fresh)
            } else {
                Map::new()
            };
            for _ in 0..20 {
                let before = Value::Object(doc.clone());
                let ops = build(&mut doc, &mut rng, &mut fresh);
                let patch: json_patch::Patch = serde_json::from_value(ops.clone()).unwrap();
                let mut applied = before.clone();
                json_patch::patch(&mut applied, &patch)
                    .unwrap_or_else(|e| panic!("{ops} on {before}: {e}"));
                assert_eq!(applied, Value::Object(doc.clone()), "{ops}");
            }
        }
    }
}
