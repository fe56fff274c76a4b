//! What a consumer must show (docs/rules.md "Projection"), in the canonical JSON
//! form of `docs/projection.md`.
//!
//! The checker drives a [`Projector`] with events whose owners it has already
//! resolved; the projector never judges a rule. Finished runs are kept as
//! canonical JSON; only the current run is kept as live structures.

use foldhash::HashMap;
use serde_json::{Map, Value, json};

/// The projection of a whole stream: one canonical JSON object per run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Projection {
    pub runs: Vec<Value>,
}

impl Projection {
    /// The canonical JSON form: `{"runs": [...]}`.
    pub fn to_json(&self) -> Value {
        json!({ "runs": self.runs })
    }
}

/// Drops `null`-valued object keys everywhere: the comparison rule of
/// `docs/projection.md` (absent and `null` mean the same in a report).
pub fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), normalize(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        other => other.clone(),
    }
}

/// Whether two projections are equal under the comparison rule.
pub fn same(a: &Value, b: &Value) -> bool {
    normalize(a) == normalize(b)
}

/// How an invocation stands at the end of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvocationStatus {
    Running,
    Finished,
    Suspended(Vec<String>),
    Errored,
    Abandoned,
    Unannounced,
}

#[derive(Debug, Clone)]
struct Invocation {
    id: String,
    name: Option<String>,
    parent: Option<String>,
    status: InvocationStatus,
}

#[derive(Debug, Clone)]
struct ToolCall {
    id: String,
    name: String,
    args: String,
}

#[derive(Debug, Clone)]
struct Message {
    id: String,
    role: String,
    owner: Option<String>,
    /// Text so far; for `activity` messages the content object.
    content: Value,
    activity_type: Option<String>,
    tool_calls: Vec<ToolCall>,
}

#[derive(Debug, Default)]
struct RunView {
    thread_id: String,
    run_id: String,
    status: &'static str,
    invocations: Vec<Invocation>,
    invocation_at: HashMap<String, usize>,
    messages: Vec<Message>,
    message_at: HashMap<String, usize>,
    /// Where each open tool call's arguments go: (message index, call index).
    tool_at: HashMap<String, (usize, usize)>,
    interrupts: Vec<Value>,
}

/// Builds the projection, run by run.
#[derive(Debug, Default)]
pub struct Projector {
    done: Vec<Value>,
    current: Option<RunView>,
    sink: Option<RunSink>,
    /// A lone surrogate was read in this run: its strings are settled
    /// ([`crate::json::settle_surrogates`]) when it ends.
    lone: bool,
}

/// Takes each run's projection as the run ends, instead of the projector
/// keeping it: how a long stream is projected in memory of one run.
pub struct RunSink(Box<dyn FnMut(Value)>);

impl std::fmt::Debug for RunSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunSink")
    }
}

/// The text of a `content` field: a string, or the `text` parts of a
/// content-part array concatenated.
pub fn content_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

impl Projector {
    pub fn new() -> Self {
        Projector::default()
    }

    /// `RUN_STARTED`: a new run entry.
    pub fn run_started(&mut self, thread_id: &str, run_id: &str) {
        self.current = Some(RunView {
            thread_id: thread_id.to_owned(),
            run_id: run_id.to_owned(),
            status: "running",
            ..Default::default()
        });
    }

    /// The run ends (`finished` or `errored`) with the state as it stands.
    pub fn run_ended(&mut self, status: &'static str, state: &Value) {
        if let Some(mut run) = self.current.take() {
            run.status = status;
            if status == "errored" {
                for inv in &mut run.invocations {
                    if inv.status == InvocationStatus::Running {
                        inv.status = InvocationStatus::Abandoned;
                    }
                }
            }
            let run = render(run, state);
            self.keep(run);
        }
    }

    /// A projector that hands every run to `sink` as it ends (and the one
    /// still open at the end of input to it from [`Projector::finish`]),
    /// keeping none.
    pub fn with_sink(sink: impl FnMut(Value) + 'static) -> Self {
        Projector {
            sink: Some(RunSink(Box::new(sink))),
            ..Projector::default()
        }
    }

    /// A lone surrogate was read (`schema.lone-surrogate`): what is still
    /// unpaired when the run ends is shown as U+FFFD.
    pub fn saw_lone_surrogate(&mut self) {
        self.lone = true;
    }

    fn keep(&mut self, mut run: Value) {
        if std::mem::take(&mut self.lone) {
            crate::json::settle_surrogates(&mut run);
        }
        match &mut self.sink {
            Some(sink) => (sink.0)(run),
            None => self.done.push(run),
        }
    }

    /// The interrupts of a `RUN_FINISHED` interrupt outcome.
    pub fn interrupts(&mut self, list: &[Value]) {
        if let Some(run) = self.current.as_mut() {
            run.interrupts = list
                .iter()
                .map(|i| {
                    let mut m = Map::new();
                    if let Some(id) = i.get("id") {
                        m.insert("id".into(), id.clone());
                    }
                    if let Some(Value::String(o)) = i.get("subagentRunId") {
                        m.insert("owner".into(), Value::String(o.clone()));
                    }
                    Value::Object(m)
                })
                .collect();
        }
    }

    /// An attributable event carried `id` as its own `subagentRunId`.
    pub fn attributed(&mut self, id: &str) {
        if let Some(run) = self.current.as_mut()
            && !run.invocation_at.contains_key(id)
        {
            run.invocation_at
                .insert(id.to_owned(), run.invocations.len());
            run.invocations.push(Invocation {
                id: id.to_owned(),
                name: None,
                parent: None,
                status: InvocationStatus::Unannounced,
            });
        }
    }

    /// `SUBAGENT_STARTED`.
    pub fn announced(&mut self, id: &str, name: Option<&str>, parent: Option<&str>) {
        if let Some(run) = self.current.as_mut() {
            let inv = Invocation {
                id: id.to_owned(),
                name: name.map(str::to_owned),
                parent: parent.map(str::to_owned),
                status: InvocationStatus::Running,
            };
            match run.invocation_at.get(id) {
                Some(&at) => run.invocations[at] = inv,
                None => {
                    run.invocation_at
                        .insert(id.to_owned(), run.invocations.len());
                    run.invocations.push(inv);
                }
            }
        }
    }

    /// `SUBAGENT_FINISHED` / `SUBAGENT_ERROR` of an active invocation.
    pub fn invocation_ended(&mut self, id: &str, status: InvocationStatus) {
        if let Some(run) = self.current.as_mut()
            && let Some(&at) = run.invocation_at.get(id)
        {
            run.invocations[at].status = status;
        }
    }

    fn message_mut(&mut self, id: &str) -> Option<&mut Message> {
        let run = self.current.as_mut()?;
        let at = *run.message_at.get(id)?;
        run.messages.get_mut(at)
    }

    /// Creates a message unless one with this id is already shown.
    fn create(&mut self, msg: Message) -> bool {
        let Some(run) = self.current.as_mut() else {
            return false;
        };
        if run.message_at.contains_key(&msg.id) {
            return false;
        }
        run.message_at.insert(msg.id.clone(), run.messages.len());
        run.messages.push(msg);
        true
    }

    fn text_message(id: &str, role: &str, owner: Option<&str>) -> Message {
        Message {
            id: id.to_owned(),
            role: role.to_owned(),
            owner: owner.map(str::to_owned),
            content: Value::String(String::new()),
            activity_type: None,
            tool_calls: Vec::new(),
        }
    }

    /// `TEXT_MESSAGE_START` or `REASONING_MESSAGE_START` (role `reasoning`).
    pub fn message_started(&mut self, id: &str, role: &str, owner: Option<&str>) {
        self.create(Self::text_message(id, role, owner));
    }

    /// `TEXT_MESSAGE_CONTENT` / `REASONING_MESSAGE_CONTENT`.
    pub fn message_content(&mut self, id: &str, delta: &str) {
        if let Some(Message {
            content: Value::String(s),
            ..
        }) = self.message_mut(id)
        {
            crate::json::join_text(s, delta);
        }
    }

    /// `TOOL_CALL_START`: into the named message if shown, else a new
    /// assistant message (id `parentMessageId`, else the call's id).
    pub fn tool_call_started(
        &mut self,
        id: &str,
        name: &str,
        parent: Option<&str>,
        owner: Option<&str>,
    ) {
        let holder = parent.unwrap_or(id);
        self.create(Self::text_message(holder, "assistant", owner));
        let Some(run) = self.current.as_mut() else {
            return;
        };
        let Some(&at) = run.message_at.get(holder) else {
            return;
        };
        let msg = &mut run.messages[at];
        msg.tool_calls.push(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            args: String::new(),
        });
        run.tool_at
            .insert(id.to_owned(), (at, msg.tool_calls.len() - 1));
    }

    /// `TOOL_CALL_ARGS`.
    pub fn tool_call_args(&mut self, id: &str, delta: &str) {
        let Some(run) = self.current.as_mut() else {
            return;
        };
        if let Some(&(m, c)) = run.tool_at.get(id)
            && let Some(call) = run
                .messages
                .get_mut(m)
                .and_then(|m| m.tool_calls.get_mut(c))
        {
            crate::json::join_text(&mut call.args, delta);
        }
    }

    /// `TOOL_CALL_RESULT`: a tool message under the result's own owner.
    pub fn tool_result(&mut self, message_id: &str, content: String, owner: Option<&str>) {
        if let Some(m) = self.message_mut(message_id) {
            m.content = Value::String(content);
            m.owner = owner.map(str::to_owned);
            return;
        }
        let mut msg = Self::text_message(message_id, "tool", owner);
        msg.content = Value::String(content);
        self.create(msg);
    }

    /// `ACTIVITY_SNAPSHOT`.
    pub fn activity_snapshot(
        &mut self,
        id: &str,
        activity_type: &str,
        content: &Value,
        replace: bool,
        owner: Option<&str>,
    ) {
        if let Some(m) = self.message_mut(id) {
            if replace {
                m.activity_type = Some(activity_type.to_owned());
                m.content = content.clone();
                m.owner = owner.map(str::to_owned);
            }
            return;
        }
        self.create(Message {
            id: id.to_owned(),
            role: "activity".to_owned(),
            owner: owner.map(str::to_owned),
            content: content.clone(),
            activity_type: Some(activity_type.to_owned()),
            tool_calls: Vec::new(),
        });
    }

    /// `ACTIVITY_DELTA`: a patch that fails (or is over the default
    /// budget) leaves the content unchanged.
    pub fn activity_delta(&mut self, id: &str, patch: &[json_patch::PatchOperation]) {
        if let Some(m) = self.message_mut(id)
            && m.role == "activity"
        {
            let mut size = crate::patch::json_size(&m.content);
            let budget = crate::patch::PatchBudget::default();
            let _ = crate::patch::apply(&mut m.content, &mut size, patch, &budget);
        }
    }

    /// `MESSAGES_SNAPSHOT`: the run's list becomes the snapshot's messages.
    pub fn messages_snapshot(&mut self, messages: &[Value]) {
        let Some(run) = self.current.as_mut() else {
            return;
        };
        run.messages.clear();
        run.message_at.clear();
        run.tool_at.clear();
        for m in messages {
            let Some(id) = m.get("id").and_then(Value::as_str) else {
                continue;
            };
            if run.message_at.contains_key(id) {
                continue;
            }
            let role = m.get("role").and_then(Value::as_str).unwrap_or("assistant");
            let owner = m
                .get("subagentRunId")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let (content, activity_type) = if role == "activity" {
                (
                    m.get("content").cloned().unwrap_or_else(|| json!({})),
                    m.get("activityType")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                )
            } else {
                (Value::String(content_text(m.get("content"))), None)
            };
            let tool_calls = if role == "assistant" {
                m.get("toolCalls")
                    .and_then(Value::as_array)
                    .map(|calls| {
                        calls
                            .iter()
                            .map(|c| ToolCall {
                                id: str_of(c.get("id")),
                                name: str_of(c.pointer("/function/name")),
                                args: str_of(c.pointer("/function/arguments")),
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            run.message_at.insert(id.to_owned(), run.messages.len());
            run.messages.push(Message {
                id: id.to_owned(),
                role: role.to_owned(),
                owner,
                content,
                activity_type,
                tool_calls,
            });
        }
    }

    /// Ends the stream: a run still open is shown as `running`.
    pub fn finish(mut self, state: &Value) -> Projection {
        if let Some(run) = self.current.take() {
            let run = render(run, state);
            self.keep(run);
        }
        Projection { runs: self.done }
    }
}

fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The canonical JSON of one run (`docs/projection.md`).
fn render(run: RunView, state: &Value) -> Value {
    let invocations: Vec<Value> = run
        .invocations
        .into_iter()
        .map(|inv| {
            let mut m = Map::new();
            m.insert("id".into(), Value::String(inv.id));
            if let Some(n) = inv.name {
                m.insert("name".into(), Value::String(n));
            }
            if let Some(p) = inv.parent {
                m.insert("parent".into(), Value::String(p));
            }
            let status = match inv.status {
                InvocationStatus::Running => "running",
                InvocationStatus::Finished => "finished",
                InvocationStatus::Suspended(ids) => {
                    m.insert("interruptIds".into(), json!(ids));
                    "suspended"
                }
                InvocationStatus::Errored => "errored",
                InvocationStatus::Abandoned => "abandoned",
                InvocationStatus::Unannounced => "unannounced",
            };
            m.insert("status".into(), Value::from(status));
            Value::Object(m)
        })
        .collect();
    let messages: Vec<Value> = run
        .messages
        .into_iter()
        .map(|msg| {
            let mut m = Map::new();
            m.insert("id".into(), Value::String(msg.id));
            m.insert("role".into(), Value::String(msg.role));
            if let Some(o) = msg.owner {
                m.insert("owner".into(), Value::String(o));
            }
            if let Some(t) = msg.activity_type {
                m.insert("activityType".into(), Value::String(t));
            }
            m.insert("content".into(), msg.content);
            if !msg.tool_calls.is_empty() {
                let calls = msg
                    .tool_calls
                    .into_iter()
                    .map(|c| json!({ "id": c.id, "name": c.name, "args": c.args }))
                    .collect();
                m.insert("toolCalls".into(), Value::Array(calls));
            }
            Value::Object(m)
        })
        .collect();
    json!({
        "threadId": run.thread_id,
        "runId": run.run_id,
        "status": run.status,
        "invocations": invocations,
        "messages": messages,
        "state": state,
        "interrupts": run.interrupts,
    })
}
