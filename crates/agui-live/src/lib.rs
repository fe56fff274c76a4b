//! agui-live: producer conformance over HTTP and Server-Sent Events.
//!
//! Most AG-UI producers are HTTP servers: the client POSTs a
//! `RunAgentInput` and reads the run back as `text/event-stream`, one event
//! per `data` field. This crate sends the input ([`client`]), frames the
//! body as SSE ([`sse`]), checks each event with the reference checker as it
//! arrives ([`live`]) or from a saved body ([`sse_file`]), saves the capture as JSON Lines ([`capture`]) and runs
//! the producer suite of scenario inputs ([`suite`]). See README.md.

pub mod capture;
pub mod client;
pub mod encoding;
pub mod error;
pub mod input;
pub mod live;
pub mod outcome;
pub mod redirect;
pub mod scenario;
pub mod sse;
pub mod sse_file;
pub mod stop;
pub mod suite;
pub mod tap;
pub mod tool_name;
pub mod transfer;

pub use client::Limits;
pub use error::LiveError;
pub use live::{LiveRun, Options, Progress, check_url};
pub use outcome::{Outcome, RunLog, RunRecord};
pub use stop::Stop;
