//! `ag-ui-client` 0.1 (with `ag-ui-core` 0.1, the Rust SDK the AG-UI docs
//! list) as an implementation under test.
//!
//! The case is one response body: the client's own SSE reader
//! (`SseResponseExt::event_source`, on a `reqwest::Response` made from the
//! body) frames it, each frame is deserialized as `HttpAgent::run` does,
//! and `Agent::run_agent` — the client's whole pipeline: its event handler
//! folds messages and state — consumes it.
//!
//! **Verdict.** `run_agent` returning an error is the rejection, at the
//! item being read: an event that does not deserialize, or a state patch
//! that does not apply. The client has no verifier and no notion of runs:
//! it reads every event of the body, whatever its order, and ends when the
//! body does.

use crate::answer::Did;
use crate::expressible::Model;
use crate::items::frame;
use crate::shown;
use ag_ui_client::Agent;
use ag_ui_client::agent::{AgentError, RunAgentParams};
use ag_ui_client::sse::SseResponseExt;
use ag_ui_core::event::{Event, EventType};
use ag_ui_core::types::input::RunAgentInput;
use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The SDK's version, as pinned in Cargo.toml (a test holds them equal).
pub const VERSION: &str = "0.1.0";

/// The agent whose response is the case; `cursor` is the item the client
/// is reading.
struct CaseAgent {
    items: Arc<Vec<String>>,
    cursor: Arc<AtomicUsize>,
}

#[async_trait::async_trait]
impl Agent for CaseAgent {
    async fn run(
        &self,
        _input: &RunAgentInput<Value, Value>,
    ) -> Result<BoxStream<'async_trait, Result<Event<Value>, AgentError>>, AgentError> {
        let items = Arc::clone(&self.items);
        let cursor = Arc::clone(&self.cursor);
        // One chunk per item, then an empty one (see `crate::agui03`).
        let chunks = futures::stream::iter(0..=items.len()).map(move |k| {
            cursor.store(k, Ordering::SeqCst);
            Ok::<bytes::Bytes, Infallible>(
                items.get(k).map(|i| frame(i)).unwrap_or_default().into(),
            )
        });
        let response: reqwest::Response =
            http::Response::new(reqwest::Body::wrap_stream(chunks)).into();
        // From here on, what `HttpAgent::run` does with a response.
        let stream = response
            .event_source()
            .await
            .map(|result| match result {
                Ok(event) => serde_json::from_str::<Event<Value>>(&event.data)
                    .map_err(|err| AgentError::SerializationError { source: err }),
                Err(err) => Err(AgentError::ExecutionError {
                    message: err.to_string(),
                }),
            })
            .boxed();
        Ok(stream)
    }
}

/// Runs the SDK on a case's items.
pub fn run(items: Vec<String>) -> Did {
    let cursor = Arc::new(AtomicUsize::new(0));
    let agent = CaseAgent {
        items: Arc::new(items),
        cursor: Arc::clone(&cursor),
    };
    // `run_agent` unwraps `forwarded_props`, and a state of `null` (the
    // default) cannot be patched: a client passes both, as AG-UI's `{}`.
    let params = RunAgentParams {
        forwarded_props: Some(json!({})),
        state: json!({}),
        ..Default::default()
    };
    match futures::executor::block_on(agent.run_agent(&params, ())) {
        Ok(result) => {
            let messages: Vec<Value> = result
                .new_messages
                .iter()
                .map(|m| shown::message(&serde_json::to_value(m).unwrap_or(Value::Null)))
                .collect();
            Did::Accepted {
                note: None,
                shown: json!({"messages": messages, "state": result.new_state}),
            }
        }
        Err(e) => Did::Rejected {
            index: cursor.load(Ordering::SeqCst),
            stage: match e {
                AgentError::SerializationError { .. } => "event deserialization (serde)",
                AgentError::ExecutionError { .. } => "run_agent (SSE reading or state patch)",
                AgentError::ConfigError { .. } => "configuration",
            }
            .into(),
            message: e.to_string(),
        },
    }
}

/// The SDK's event model, for [`crate::expressible`].
pub struct EventModel;

impl Model for EventModel {
    fn knows_type(&self, name: &str) -> bool {
        serde_json::from_value::<EventType>(Value::String(name.into())).is_ok()
    }

    fn read(&self, item: &Value) -> Result<Value, String> {
        let event: Event<Value> =
            serde_json::from_value(item.clone()).map_err(|e| e.to_string())?;
        serde_json::to_value(event).map_err(|e| e.to_string())
    }
}
