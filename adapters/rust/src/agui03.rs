//! `ag-ui` 0.3 (its `client::Session`) as an implementation under test.
//!
//! The case is the body of the responses a server sends: the SDK's own
//! `decode_events` (what its `HttpTransport` runs on a response body) reads
//! it frame by frame, and a `Session` folds the events into messages and
//! state through its chunk normalizer, verifier and applier — the whole of
//! its inbound path, HTTP apart.
//!
//! **Runs.** A `Session` reads one response per run and stops reading it at
//! the run's terminal event. A case with several runs is served as one
//! response per run: each later run starts at the next `RUN_STARTED` after
//! the SDK ended the previous one, and the items in between are never read
//! (as a client closes a response after its terminal event). The `explain`
//! note lists them.
//!
//! **Verdict.** The SDK reports faults in-stream (`Update::Error`, "Not
//! necessarily fatal — a run survives a patch it could not apply") and goes
//! on. Its first fault by which it refuses an event — a protocol violation
//! (verifier, chunk normalizer, applier: the event is not applied), an
//! event that does not deserialize, an SSE decode error — is the
//! rejection, at the item being read. A patch that does not apply ("The
//! target document is left exactly as it was") and a state its typed view
//! cannot take ("The raw JSON state is still updated and correct") are
//! survived: no rejection, said in the answer's note. `RUN_ERROR` is the
//! agent's failure, not a fault of the stream: no rejection.
//! adapters/rust/README.md quotes the crate for each choice.

use crate::answer::Did;
use crate::expressible::Model;
use crate::items::{frame, next_run_start};
use crate::shown;
use ag_ui::client::transport::{Transport, TransportFuture, boxed_stream, decode_events};
use ag_ui::client::{Error, Session, Subagent, SubagentStatus, Update};
use ag_ui::{Event, EventType, Message, RunAgentInput};
use futures::StreamExt;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The SDK's version, as pinned in Cargo.toml (a test holds them equal).
pub const VERSION: &str = "0.3.0";

/// The thread the session speaks on; the replay ignores the request.
const THREAD: &str = "agui-conform";

/// The case's items, served from `from` on each time the session asks;
/// `cursor` is the item the SDK is reading.
#[derive(Clone, Debug)]
struct CaseBody {
    items: Arc<Vec<String>>,
    from: Arc<AtomicUsize>,
    cursor: Arc<AtomicUsize>,
}

impl Transport for CaseBody {
    fn run(&self, _input: RunAgentInput) -> TransportFuture {
        let items = Arc::clone(&self.items);
        let cursor = Arc::clone(&self.cursor);
        let from = self.from.load(Ordering::SeqCst);
        // One chunk per item, then an empty one: pulling chunk k means the
        // SDK has consumed every event before it, so a fault it reports
        // now is item k's (k = the number of items: the end of input).
        let chunks = futures::stream::iter(from..=items.len()).map(move |k| {
            cursor.store(k, Ordering::SeqCst);
            Ok::<Vec<u8>, Infallible>(items.get(k).map(|i| frame(i)).unwrap_or_default())
        });
        Box::pin(async move { Ok(boxed_stream(decode_events(chunks))) })
    }
}

/// What an `Update::Error` means for the verdict.
#[derive(Debug, PartialEq, Eq)]
enum Fault {
    /// The SDK refused the event: a rejection, from this part of it.
    Refused(&'static str),
    /// The SDK survived it with its documents as they were (a patch that
    /// does not apply, a typed state view it cannot make): no rejection.
    Survived,
    /// The agent's own failure (`RUN_ERROR`): no fault of the stream.
    RunFailed,
    /// Something the replay cannot cause (HTTP, transport, configuration).
    Unexpected,
}

/// How the crate treats an error (its docs, quoted in adapters/rust/README.md).
fn fault(e: &Error) -> Fault {
    match e {
        Error::Protocol(_) => {
            Fault::Refused("protocol violation (verifier, chunk normalizer or applier)")
        }
        Error::Json(_) => Fault::Refused("event deserialization (decode_events)"),
        Error::Decode(_) => Fault::Refused("SSE decoding (SseDecoder)"),
        Error::Core(_) => Fault::Refused("protocol types (core)"),
        Error::Patch { .. } | Error::State(_) => Fault::Survived,
        Error::Run { .. } => Fault::RunFailed,
        _ => Fault::Unexpected,
    }
}

/// Runs the SDK on a case's items.
pub fn run(items: Vec<String>) -> Did {
    let n = items.len();
    let items = Arc::new(items);
    let body = CaseBody {
        items: Arc::clone(&items),
        from: Arc::new(AtomicUsize::new(0)),
        cursor: Arc::new(AtomicUsize::new(0)),
    };
    let mut session: Session<CaseBody> = Session::new(body.clone(), THREAD);
    let mut start = 0;
    let mut unread: Vec<String> = Vec::new();
    let mut survived: Vec<String> = Vec::new();
    loop {
        body.from.store(start, Ordering::SeqCst);
        let mut stream = session.run();
        let cursor = Arc::clone(&body.cursor);
        let refused = futures::executor::block_on(async {
            while let Some(update) = stream.next().await {
                let Update::Error(e) = update else { continue };
                match fault(&e) {
                    Fault::Refused(stage) => return Some(Ok((stage, e.to_string()))),
                    Fault::Survived => {
                        survived.push(format!("item {}: {e}", cursor.load(Ordering::SeqCst)))
                    }
                    Fault::RunFailed => {}
                    Fault::Unexpected => {
                        return Some(Err(format!("the replay transport failed: {e}")));
                    }
                }
            }
            None
        });
        drop(stream);
        let at = body.cursor.load(Ordering::SeqCst);
        match refused {
            Some(Ok((stage, message))) => {
                return Did::Rejected {
                    index: at,
                    stage: stage.into(),
                    message,
                };
            }
            Some(Err(why)) => return Did::Failed(why),
            None => {}
        }
        // The run ended at its terminal event, item `at`.
        match next_run_start(&items, at + 1) {
            Some(k) => {
                if k > at + 1 {
                    unread.push(range(at + 1, k));
                }
                start = k;
            }
            None => {
                if at + 1 < n {
                    unread.push(range(at + 1, n));
                }
                break;
            }
        }
    }
    let mut notes = Vec::new();
    if !survived.is_empty() {
        notes.push(format!(
            "the Session reported and survived (not fatal, nothing changed): {}",
            survived.join("; ")
        ));
    }
    if !unread.is_empty() {
        notes.push(format!(
            "the Session stops reading a response at its run's terminal event; never read: {}",
            unread.join(", ")
        ));
    }
    let note = (!notes.is_empty()).then(|| notes.join(". "));
    Did::Accepted {
        note,
        shown: shown_of(&session),
    }
}

fn range(from: usize, to: usize) -> String {
    if to == from + 1 {
        from.to_string()
    } else {
        format!("{from}..{}", to - 1)
    }
}

/// What the session holds, in the projection's form: its messages (one
/// list over every run; reasoning, which it keeps apart, after them), the
/// state, the last run's interrupts, and the subagents it tracks
/// (announced ones only, across runs; not compared).
fn shown_of<T>(session: &Session<T>) -> Value {
    let wire = |m: &Message| serde_json::to_value(m).unwrap_or(Value::Null);
    let mut messages: Vec<Value> = session
        .messages()
        .iter()
        .map(|m| shown::message(&wire(m)))
        .collect();
    messages.extend(
        session
            .reasoning()
            .iter()
            .map(|r| shown::message(&wire(&Message::Reasoning(r.clone())))),
    );
    let interrupts: Vec<Value> = session
        .interrupts()
        .iter()
        .map(|i| shown::interrupt(&serde_json::to_value(i).unwrap_or(Value::Null)))
        .collect();
    let invocations: Vec<Value> = session.subagents().iter().map(invocation).collect();
    json!({
        "messages": messages,
        "state": session.raw_state(),
        "interrupts": interrupts,
        "invocations": invocations,
    })
}

fn invocation(s: &Subagent) -> Value {
    let mut v = json!({"id": s.run_id.as_str(), "name": s.name});
    if let Some(p) = &s.parent_subagent_run_id {
        v["parent"] = json!(p.as_str());
    }
    let status = match &s.status {
        SubagentStatus::Running => "running",
        SubagentStatus::Finished { .. } => "finished",
        SubagentStatus::Suspended { interrupt_ids, .. } => {
            v["interruptIds"] = json!(interrupt_ids);
            "suspended"
        }
        SubagentStatus::Failed { .. } => "errored",
        _ => "(a status this adapter does not know)",
    };
    v["status"] = json!(status);
    v
}

/// The SDK's event model, for [`crate::expressible`].
pub struct EventModel;

impl Model for EventModel {
    fn knows_type(&self, name: &str) -> bool {
        name.parse::<EventType>().is_ok()
    }

    fn read(&self, item: &Value) -> Result<Value, String> {
        let event: Event = serde_json::from_value(item.clone()).map_err(|e| e.to_string())?;
        serde_json::to_value(event).map_err(|e| e.to_string())
    }
}
