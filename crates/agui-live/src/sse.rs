//! Server-Sent Events framing: the stream reader's SSE framing
//! (`agui_model::stream::sse`), beside its JSON Lines and JSON array
//! framings, so an event's data meets the same item core and limits.

pub use agui_model::stream::sse::*;
