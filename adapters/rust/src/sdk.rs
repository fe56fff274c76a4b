//! The SDKs this crate builds in, each as an [`Implementation`].

use crate::answer::{Did, answer};
use crate::expressible::{Model, first_gap};
use crate::items;
use agui_harness::implementation::Capabilities;
use agui_harness::{ImplInfo, Implementation, Outcome};
use serde_json::Value;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};

/// An SDK under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sdk {
    /// `ag-ui` 0.3: `client::Session`.
    #[cfg(feature = "ag-ui")]
    AgUi,
    /// `ag-ui-client` 0.1 with `ag-ui-core` 0.1: `Agent::run_agent`.
    #[cfg(feature = "ag-ui-client")]
    AgUiClient,
}

impl Sdk {
    /// Every SDK in this build.
    pub const ALL: &'static [Sdk] = &[
        #[cfg(feature = "ag-ui")]
        Sdk::AgUi,
        #[cfg(feature = "ag-ui-client")]
        Sdk::AgUiClient,
    ];

    /// The crate's name (`--sdk`).
    pub fn key(self) -> &'static str {
        match self {
            #[cfg(feature = "ag-ui")]
            Sdk::AgUi => "ag-ui",
            #[cfg(feature = "ag-ui-client")]
            Sdk::AgUiClient => "ag-ui-client",
        }
    }

    /// The implementation's name in reports: the crate and its entry point.
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "ag-ui")]
            Sdk::AgUi => "ag-ui (Rust) client::Session",
            #[cfg(feature = "ag-ui-client")]
            Sdk::AgUiClient => "ag-ui-client (Rust) Agent::run_agent",
        }
    }

    /// The pinned version.
    pub fn version(self) -> &'static str {
        match self {
            #[cfg(feature = "ag-ui")]
            Sdk::AgUi => crate::agui03::VERSION,
            #[cfg(feature = "ag-ui-client")]
            Sdk::AgUiClient => crate::agui_client01::VERSION,
        }
    }

    pub fn from_key(key: &str) -> Option<Sdk> {
        Sdk::ALL.iter().copied().find(|s| s.key() == key)
    }

    fn model(self) -> &'static dyn Model {
        match self {
            #[cfg(feature = "ag-ui")]
            Sdk::AgUi => &crate::agui03::EventModel,
            #[cfg(feature = "ag-ui-client")]
            Sdk::AgUiClient => &crate::agui_client01::EventModel,
        }
    }

    fn run(self, items: Vec<String>) -> Did {
        match self {
            #[cfg(feature = "ag-ui")]
            Sdk::AgUi => crate::agui03::run(items),
            #[cfg(feature = "ag-ui-client")]
            Sdk::AgUiClient => crate::agui_client01::run(items),
        }
    }
}

/// Each case's `explain`, by case id: in process the harness has no
/// channel for it, so the runner ([`crate::suite_run`]) takes it from here
/// into the run record.
pub type Explains = Arc<Mutex<BTreeMap<String, Value>>>;

/// An SDK as an implementation under test.
pub struct SdkImpl {
    sdk: Sdk,
    explains: Explains,
}

impl SdkImpl {
    pub fn new(sdk: Sdk, explains: Explains) -> SdkImpl {
        SdkImpl { sdk, explains }
    }

    /// The `explain` of case `id`, taken out.
    pub fn take_explain(&self, id: &str) -> Option<Value> {
        take(&self.explains, id)
    }

    fn run(&mut self, id: &str, items: Vec<String>) -> Outcome {
        let gap = first_gap(self.sdk.model(), &items);
        let sdk = self.sdk;
        let did = catch_unwind(AssertUnwindSafe(|| sdk.run(items))).unwrap_or_else(|p| {
            let what = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Did::Failed(format!("the SDK panicked: {what}"))
        });
        let (outcome, explain) = answer(did, gap);
        if let Some(x) = explain {
            self.explains
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(id.to_owned(), x);
        }
        outcome
    }
}

/// Takes case `id`'s `explain` out of `explains`.
pub fn take(explains: &Explains, id: &str) -> Option<Value> {
    explains
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(id)
}

impl Implementation for SdkImpl {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        // No `rule` (the SDKs' faults name no catalogue rule) and no
        // `projection` (neither keeps a run's invocations as the
        // projection counts them): what they hold goes in `explain.shown`.
        let capabilities = Capabilities {
            index: true,
            raw_lines: true,
            ..Capabilities::default()
        };
        Ok(ImplInfo::new(
            self.sdk.name(),
            self.sdk.version(),
            "rust",
            capabilities,
        ))
    }

    fn run_case(&mut self, id: &str, events: &[Value]) -> Outcome {
        match items::from_events(events) {
            Ok(items) => self.run(id, items),
            Err(e) => Outcome::errored(format!("the case's events could not be written: {e}")),
        }
    }

    fn run_lines(&mut self, id: &str, lines: &[String]) -> Outcome {
        self.run(id, lines.to_vec())
    }
}
