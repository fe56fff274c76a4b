//! The field-checking machinery: a field table per object shape, one
//! [`Kind`] per field type, and the nested shapes of the AG-UI 1.0 schema ("Nested
//! shapes"). Nothing here allocates unless an issue is reported.

use super::SchemaIssue;
use super::path::Path;
use crate::rules::RuleId;
use serde_json::{Map, Number, Value};

use crate::wire::nested::*;
pub(crate) use crate::wire::{Field, Kind, MESSAGE_ROLES};
use crate::wire::{SUBAGENT_OUTCOMES, TYPE};

/// The largest integer JavaScript represents exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE: u64 = (1 << 53) - 1;

impl Kind {
    /// What the field must be, for messages.
    fn expected(self) -> String {
        let s = match self {
            Kind::Any | Kind::State => "any JSON value",
            Kind::Str | Kind::Attribution => "a string",
            Kind::Bool => "a boolean",
            Kind::Object
            | Kind::Input
            | Kind::RunOutcome
            | Kind::SubagentOutcome
            | Kind::Function
            | Kind::Source => "an object",
            Kind::Timestamp => "an integer between -(2^53-1) and 2^53-1",
            Kind::Count => "a non-negative integer no greater than 2^53-1",
            Kind::Pointer => "a JSON Pointer (a string matching ^(/([^/~]|~[01])*)*$)",
            Kind::OneOf(names) => return one_of(names),
            Kind::Strings => "an array of strings",
            Kind::Content => "a string or an array of content parts",
            Kind::Patch => "a JSON Patch (an array of operations)",
            Kind::Messages => "an array of messages",
            Kind::Usage => "an array of token usage objects",
            Kind::ToolCalls => "an array of tool calls",
            Kind::Interrupts => "a non-empty array of interrupts",
            Kind::Tools => "an array of tools",
            Kind::Context => "an array of context entries",
            Kind::Resume => "an array of resume entries",
        };
        s.to_owned()
    }
}

/// `"a"` or `one of "a", "b"`.
pub(crate) fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    if quoted.len() == 1 {
        quoted[0].clone()
    } else {
        format!("one of {}", quoted.join(", "))
    }
}

/// A short description of a value found where another was expected.
pub(crate) fn found(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if crate::json::as_big_number(s).is_some() => {
            let n = crate::json::as_big_number(s).unwrap_or_default();
            format!("the number {n} (outside the range of a double)")
        }
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            if short.len() < s.len() {
                format!("the string {short:?}…")
            } else {
                format!("the string {s:?}")
            }
        }
        Value::Array(a) if a.is_empty() => "an empty array".to_owned(),
        Value::Array(a) => format!("an array of {} elements", a.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// Collects the issues of one event, and what a consumer strips of it.
#[derive(Default)]
pub(crate) struct Ctx {
    pub(crate) issues: Vec<SchemaIssue>,
    pub(crate) strips: Vec<Vec<super::Seg>>,
    pub(crate) dropped: bool,
}

/// The nearest list element at or above `p`: what goes when a required
/// value inside it is unrecognised.
fn element<'p>(p: &'p Path<'p>) -> Option<&'p Path<'p>> {
    match p {
        Path::Root => None,
        Path::Index(..) => Some(p),
        Path::Key(up, _) => element(up),
    }
}

impl Ctx {
    pub(crate) fn report(&mut self, rule: RuleId, path: &Path<'_>, message: String) {
        self.issues.push(SchemaIssue {
            rule,
            path: path.to_string(),
            message,
        });
    }

    pub(crate) fn missing(&mut self, path: &Path<'_>, kind: Kind) {
        let msg = format!("missing required field `{path}` ({})", kind.expected());
        self.report(RuleId::SchemaMissingField, path, msg);
    }

    pub(crate) fn wrong(&mut self, path: &Path<'_>, kind: Kind, v: &Value) {
        let msg = format!("`{path}` must be {}, found {}", kind.expected(), found(v));
        self.report(RuleId::SchemaWrongType, path, msg);
    }

    pub(crate) fn null_optional(&mut self, path: &Path<'_>) {
        let msg = format!("optional field `{path}` is null; leave it out instead of writing null");
        self.report(RuleId::SchemaNullOptional, path, msg);
    }

    /// `schema.unknown-member`: the string `v` at `path` is outside its
    /// closed set `names`. A consumer strips `strip` (a field or a list
    /// element); `None` drops the whole event.
    pub(crate) fn unknown_member(
        &mut self,
        path: &Path<'_>,
        names: &[&str],
        v: &str,
        strip: Option<&Path<'_>>,
    ) {
        let what = match strip {
            None => "the event is dropped".to_owned(),
            Some(s) if matches!(s, Path::Index(..)) => format!("`{s}` is dropped"),
            Some(s) => format!("`{s}` is removed"),
        };
        let msg = format!(
            "`{path}` must be {}, found {v:?}: an unrecognised value a consumer strips ({what})",
            one_of(names)
        );
        self.report(RuleId::SchemaUnknownMember, path, msg);
        self.strip(strip);
    }

    fn strip(&mut self, strip: Option<&Path<'_>>) {
        match strip {
            Some(s) => self.strips.push(super::strip::segs(s)),
            None => self.dropped = true,
        }
    }

    pub(crate) fn attribution_null(&mut self, path: &Path<'_>) {
        let msg = format!(
            "`{path}` is null; the parent agent is spelled by leaving subagentRunId out, never as null"
        );
        self.report(RuleId::AttributionNull, path, msg);
    }

    /// Checks the fields of a table on one object; unknown keys are ignored
    /// (every 1.0 object is loose).
    pub(crate) fn fields(&mut self, obj: &Map<String, Value>, path: &Path<'_>, fields: &[Field]) {
        for f in fields {
            let p = path.key(f.key);
            match obj.get(f.key) {
                None if f.required => self.missing(&p, f.kind),
                None => {}
                Some(Value::Null) if !f.required => match f.kind {
                    Kind::Attribution => self.attribution_null(&p),
                    Kind::State => {}
                    _ => self.null_optional(&p),
                },
                // A closed set of several values (a role, a subtype, a
                // status): an unknown string is stripped, not fatal. A set
                // of one (`role: "tool"`) is the event type's own fixed
                // value: another is malformed.
                Some(val @ Value::String(v))
                    if crate::json::is_string(val) && is_unknown_member(f.kind, v) =>
                {
                    let Kind::OneOf(names) = f.kind else { continue };
                    let strip = if f.required { element(&p) } else { Some(&p) };
                    self.unknown_member(&p, names, v, strip);
                }
                Some(v) => self.value(v, &p, f.kind),
            }
        }
    }

    /// Checks one present value against its kind.
    pub(crate) fn value(&mut self, v: &Value, p: &Path<'_>, kind: Kind) {
        let ok = match kind {
            Kind::Any | Kind::State => true,
            Kind::Str | Kind::Attribution => crate::json::is_string(v),
            Kind::Bool => v.is_boolean(),
            Kind::Object => v.is_object(),
            Kind::Timestamp => v.as_number().is_some_and(|n| safe_integer(n, true)),
            Kind::Count => v.as_number().is_some_and(|n| safe_integer(n, false)),
            Kind::Pointer => v.as_str().is_some_and(is_json_pointer),
            Kind::OneOf(names) => v.as_str().is_some_and(|s| names.contains(&s)),
            Kind::Strings => return self.array(v, p, kind, |c, e, p| c.value(e, p, Kind::Str)),
            Kind::Content => match v {
                Value::String(_) => crate::json::is_string(v),
                Value::Array(_) => return self.array(v, p, kind, Ctx::content_part),
                _ => false,
            },
            Kind::Patch => return self.array(v, p, kind, Ctx::patch_op),
            Kind::Messages => return self.array(v, p, kind, Ctx::message),
            Kind::Input => return self.object(v, p, kind, INPUT),
            Kind::RunOutcome => return self.run_outcome(v, p),
            Kind::SubagentOutcome => return self.subagent_outcome(v, p),
            Kind::Usage => {
                return self.array(v, p, kind, |c, e, p| c.object(e, p, Kind::Object, USAGE));
            }
            Kind::ToolCalls => {
                return self.array(v, p, kind, |c, e, p| {
                    c.object(e, p, Kind::Object, TOOL_CALL)
                });
            }
            Kind::Function => return self.object(v, p, kind, FUNCTION),
            Kind::Interrupts => {
                if v.as_array().is_some_and(|a| a.is_empty()) {
                    return self.wrong(p, kind, v);
                }
                return self.array(v, p, kind, |c, e, p| {
                    c.object(e, p, Kind::Object, INTERRUPT)
                });
            }
            Kind::Tools => {
                return self.array(v, p, kind, |c, e, p| c.object(e, p, Kind::Object, TOOL));
            }
            Kind::Context => {
                return self.array(v, p, kind, |c, e, p| c.object(e, p, Kind::Object, CONTEXT));
            }
            Kind::Resume => {
                return self.array(v, p, kind, |c, e, p| c.object(e, p, Kind::Object, RESUME));
            }
            Kind::Source => return self.source(v, p),
        };
        if !ok {
            self.wrong(p, kind, v);
        }
    }

    /// An array whose elements are each checked by `elem` at `path[i]`.
    fn array(
        &mut self,
        v: &Value,
        p: &Path<'_>,
        kind: Kind,
        mut elem: impl FnMut(&mut Ctx, &Value, &Path<'_>),
    ) {
        match v.as_array() {
            Some(items) => {
                for (i, e) in items.iter().enumerate() {
                    elem(self, e, &p.index(i));
                }
            }
            None => self.wrong(p, kind, v),
        }
    }

    /// An object checked against a field table.
    fn object(&mut self, v: &Value, p: &Path<'_>, kind: Kind, fields: &[Field]) {
        match v.as_object() {
            Some(obj) => self.fields(obj, p, fields),
            None => self.wrong(p, kind, v),
        }
    }

    /// Reads a discriminator (`role`, `type`, `op`): reports it missing or
    /// of the wrong type, or an unknown string (`schema.unknown-member`,
    /// which strips `strip`: the optional field holding the object, or the
    /// list element that holds it), and returns it when it is one of
    /// `names`.
    fn tag<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        p: &Path<'_>,
        key: &'static str,
        names: &'static [&'static str],
        strip: Option<&Path<'_>>,
    ) -> Option<&'v str> {
        let kp = p.key(key);
        match obj.get(key) {
            None => {
                self.missing(&kp, Kind::OneOf(names));
                None
            }
            Some(v) => match v.as_str() {
                Some(s) if names.contains(&s) => Some(s),
                Some(s) if crate::json::is_string(v) => {
                    self.unknown_member(&kp, names, s, strip);
                    None
                }
                _ => {
                    self.wrong(&kp, Kind::OneOf(names), v);
                    None
                }
            },
        }
    }

    /// A Message, selected by `role`. `id` and `subagentRunId` are checked
    /// whatever the role, so a message with a bad role still reports them.
    fn message(&mut self, v: &Value, p: &Path<'_>) {
        let Some(obj) = v.as_object() else {
            return self.wrong(p, Kind::Object, v);
        };
        self.fields(obj, p, MESSAGE_BASE);
        let table = match self.tag(obj, p, ROLE, MESSAGE_ROLES, element(p)) {
            Some("developer" | "system") => DEVELOPER,
            Some("assistant") => ASSISTANT,
            Some("user") => USER,
            Some("tool") => TOOL_MESSAGE,
            Some("activity") => ACTIVITY,
            Some("reasoning") => REASONING,
            _ => return,
        };
        self.fields(obj, p, table);
    }

    /// A ContentPart, selected by `type`.
    fn content_part(&mut self, v: &Value, p: &Path<'_>) {
        let Some(obj) = v.as_object() else {
            return self.wrong(p, Kind::Object, v);
        };
        let table = match self.tag(obj, p, TYPE, PART_TYPES, element(p)) {
            Some("text") => TEXT_PART,
            Some(_) => MEDIA_PART,
            None => return,
        };
        self.fields(obj, p, table);
    }

    /// A media part's `source`, selected by `type`.
    fn source(&mut self, v: &Value, p: &Path<'_>) {
        let Some(obj) = v.as_object() else {
            return self.wrong(p, Kind::Source, v);
        };
        let table = match self.tag(obj, p, TYPE, SOURCE_TYPES, element(p)) {
            Some("data") => DATA_SOURCE,
            Some("url") => URL_SOURCE,
            Some(_) => FILE_SOURCE,
            None => return,
        };
        self.fields(obj, p, table);
    }

    /// One RFC 6902 operation. `path` is required by every op, so it is
    /// checked even when `op` is missing or unknown.
    fn patch_op(&mut self, v: &Value, p: &Path<'_>) {
        let Some(obj) = v.as_object() else {
            return self.wrong(p, Kind::Object, v);
        };
        let op = self.tag(obj, p, OP, PATCH_OPS, element(p));
        self.fields(obj, p, PATCH_PATH);
        match op {
            Some("add" | "replace" | "test") => self.fields(obj, p, PATCH_VALUE),
            Some("move" | "copy") => self.fields(obj, p, PATCH_FROM),
            _ => {}
        }
    }

    /// RunOutcome, selected by `type`.
    fn run_outcome(&mut self, v: &Value, p: &Path<'_>) {
        let Some(obj) = v.as_object() else {
            return self.wrong(p, Kind::RunOutcome, v);
        };
        // The outcome is optional: an unknown one is removed (a success).
        match self.tag(obj, p, TYPE, RUN_OUTCOMES, Some(p)) {
            Some("success") => self.fields(obj, p, RUN_SUCCESS),
            Some("interrupt") => self.fields(obj, p, RUN_INTERRUPT),
            _ => {}
        }
    }

    /// `SUBAGENT_FINISHED.outcome`: `{type: "success"}` (loose; a non-empty
    /// `interruptIds` there is `lifecycle.success-with-interrupts`) or
    /// `{type: "suspended", interruptIds?: [str]}`; any other string `type`
    /// is `lifecycle.unknown-outcome`, and the outcome is removed (a
    /// success), any other value `schema.wrong-type`.
    fn subagent_outcome(&mut self, v: &Value, p: &Path<'_>) {
        let Some(outcome) = v.as_object() else {
            return self.wrong(p, Kind::SubagentOutcome, v);
        };
        let tp = p.key(TYPE);
        match outcome.get(TYPE) {
            None => self.missing(&tp, Kind::OneOf(SUBAGENT_OUTCOMES)),
            Some(Value::String(s)) if s == "suspended" => {
                self.fields(outcome, p, SUBAGENT_SUSPENDED)
            }
            Some(Value::String(s)) if s == "success" => {
                let ids = outcome.get(INTERRUPT_IDS).and_then(Value::as_array);
                if let Some(ids) = ids.filter(|ids| !ids.is_empty()) {
                    let msg = format!(
                        "a success outcome must not carry interrupt ids, found {} in `outcome.interruptIds`",
                        ids.len()
                    );
                    self.report(
                        RuleId::LifecycleSuccessWithInterrupts,
                        &p.key(INTERRUPT_IDS),
                        msg,
                    );
                }
            }
            Some(v @ Value::String(s)) if crate::json::is_string(v) => {
                let msg = format!(
                    "`outcome.type` must be {}, found {s:?}: an unrecognised outcome a consumer strips (`outcome` is removed: a success)",
                    one_of(SUBAGENT_OUTCOMES),
                );
                self.report(RuleId::LifecycleUnknownOutcome, &tp, msg);
                self.strip(Some(p));
            }
            Some(v) => self.wrong(&tp, Kind::OneOf(SUBAGENT_OUTCOMES), v),
        }
    }
}

/// Whether `v` is a string outside a closed set of several values.
fn is_unknown_member(kind: Kind, v: &str) -> bool {
    matches!(kind, Kind::OneOf(names) if names.len() > 1 && !names.contains(&v))
}

/// Whether a JSON number is an integer within the safe range (1.0 counts;
/// 1.5 does not), non-negative unless `signed`.
fn safe_integer(n: &Number, signed: bool) -> bool {
    if let Some(u) = n.as_u64() {
        u <= MAX_SAFE
    } else if let Some(i) = n.as_i64() {
        signed && i.unsigned_abs() <= MAX_SAFE
    } else if let Some(f) = n.as_f64() {
        f.fract() == 0.0 && f.abs() <= MAX_SAFE as f64 && (signed || f >= 0.0)
    } else {
        false
    }
}

/// `^(/([^/~]|~[01])*)*$`: empty, or starting with `/` with every `~`
/// followed by `0` or `1`.
pub(crate) fn is_json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let b = s.as_bytes();
    if b[0] != b'/' {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'~' {
            if !matches!(b.get(i + 1), Some(b'0' | b'1')) {
                return false;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_pointer_pattern() {
        for ok in ["", "/", "/a", "/a/b", "/~0/~1", "//", "/a~1b/0", "/é"] {
            assert!(is_json_pointer(ok), "{ok:?} should match");
        }
        for bad in ["a", "a/b", "/~", "/~2", "/a~", "~0", " /a"] {
            assert!(!is_json_pointer(bad), "{bad:?} should not match");
        }
    }

    #[test]
    fn safe_integers() {
        let n = |v: Value| v.as_number().cloned().unwrap();
        assert!(safe_integer(&n(json!(0)), false));
        assert!(safe_integer(&n(json!(1.0)), false));
        assert!(!safe_integer(&n(json!(1.5)), true));
        assert!(!safe_integer(&n(json!(-1)), false));
        assert!(safe_integer(&n(json!(-9007199254740991i64)), true));
        assert!(!safe_integer(&n(json!(-9007199254740992i64)), true));
        assert!(safe_integer(&n(json!(9007199254740991u64)), false));
        assert!(!safe_integer(&n(json!(9007199254740992u64)), true));
        assert!(!safe_integer(&n(json!(1e300)), true));
    }
}
