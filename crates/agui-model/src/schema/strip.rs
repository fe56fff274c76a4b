//! What a consumer strips of an event (docs/rules.md revision 4: unrecognised
//! material is dropped or stripped, never fatal). The schema check records
//! each place as it finds it; [`Judged::stripped`] applies them to a copy of
//! the item, which the checker and the projection then see.

use super::SchemaIssue;
use super::path::Path;
use crate::rules::RuleId;
use serde_json::Value;

/// One step of a path inside an event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seg {
    Key(&'static str),
    Index(usize),
}

/// The schema's judgement of one stream item.
#[derive(Debug, Default)]
pub struct Judged {
    pub issues: Vec<SchemaIssue>,
    /// The values a consumer removes: a field of an object, or an element
    /// of a list.
    pub strips: Vec<Vec<Seg>>,
    /// The whole event is dropped (an unknown `type`, or an unknown member
    /// in one of the event's own required fields).
    pub dropped: bool,
}

impl Judged {
    /// One issue and nothing else.
    pub(crate) fn alone(rule: RuleId, path: &str, message: String) -> Judged {
        Judged {
            issues: vec![SchemaIssue {
                rule,
                path: path.to_owned(),
                message,
            }],
            ..Judged::default()
        }
    }

    /// The item as a consumer keeps it: `None` when nothing is stripped
    /// (the item stands as it is) or when the event is dropped.
    pub fn stripped(&self, item: &Value) -> Option<Value> {
        if self.strips.is_empty() || self.dropped {
            return None;
        }
        let mut copy = item.clone();
        // Deepest and last first, so an index still names its element
        // when an earlier sibling goes.
        let mut strips: Vec<&Vec<Seg>> = self.strips.iter().collect();
        strips.sort();
        strips.dedup();
        for path in strips.into_iter().rev() {
            remove(&mut copy, path);
        }
        Some(copy)
    }
}

/// Removes the value at `path` (a key of its object or an element of its
/// list); a path that names nothing changes nothing.
fn remove(v: &mut Value, path: &[Seg]) {
    let Some((last, up)) = path.split_last() else {
        return;
    };
    let mut at = v;
    for seg in up {
        let next = match (seg, at) {
            (Seg::Key(k), Value::Object(o)) => o.get_mut(*k),
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => return,
        }
    }
    match (last, at) {
        (Seg::Key(k), Value::Object(o)) => {
            o.remove(*k);
        }
        (Seg::Index(i), Value::Array(a)) if *i < a.len() => {
            a.remove(*i);
        }
        _ => {}
    }
}

/// A stack path as owned steps.
pub(crate) fn segs(p: &Path<'_>) -> Vec<Seg> {
    let mut out = Vec::new();
    let mut at = p;
    loop {
        match at {
            Path::Root => break,
            Path::Key(up, k) => {
                out.push(Seg::Key(k));
                at = up;
            }
            Path::Index(up, i) => {
                out.push(Seg::Index(*i));
                at = up;
            }
        }
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_fields_and_elements_deepest_and_last_first() {
        let judged = Judged {
            strips: vec![
                vec![Seg::Key("outcome")],
                vec![Seg::Key("delta"), Seg::Index(0)],
                vec![Seg::Key("delta"), Seg::Index(2)],
            ],
            ..Judged::default()
        };
        let item = json!({"type": "X", "outcome": {"type": "paused"}, "delta": [1, 2, 3]});
        assert_eq!(
            judged.stripped(&item),
            Some(json!({"type": "X", "delta": [2]}))
        );
    }

    #[test]
    fn nothing_to_strip_or_a_dropped_event_gives_no_copy() {
        let item = json!({"type": "X"});
        assert_eq!(Judged::default().stripped(&item), None);
        let dropped = Judged {
            strips: vec![vec![Seg::Key("type")]],
            dropped: true,
            ..Judged::default()
        };
        assert_eq!(dropped.stripped(&item), None);
    }
}
