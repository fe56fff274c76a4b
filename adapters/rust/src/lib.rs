//! The Rust AG-UI SDKs as implementations under test, in process
//! (`agui_harness::Implementation`): `ag-ui` 0.3 (its `client::Session`)
//! and `ag-ui-client` 0.1 with `ag-ui-core` 0.1 (`Agent::run_agent`), each
//! behind a cargo feature of the same name.
//!
//! Each SDK reads a case as the SSE body a server would send, through its
//! own decoder ([`items`]); its outcome — a fault it reports, at the item
//! it was reading, or none — is the answer ([`answer`]), and what it holds
//! after an accepted stream goes into the answer's `explain.shown`
//! ([`shown`]). A stream holding what the SDK's model cannot express (an
//! event type it lacks, a field it drops) is answered `skipped`
//! ([`expressible`]). [`suite_run`] runs a suite and writes a run record;
//! [`fuzz_run`] runs a fuzz campaign and writes the campaign's record.

#[cfg(feature = "ag-ui")]
pub mod agui03;
#[cfg(feature = "ag-ui-client")]
pub mod agui_client01;
pub mod answer;
pub mod expressible;
pub mod fuzz_run;
pub mod items;
pub mod sdk;
pub mod shown;
pub mod suite_run;

pub use sdk::{Sdk, SdkImpl};
