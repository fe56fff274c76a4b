//! Talking to a producer from the command line, for `check --url`
//! (crate::live_check) and `run --producer` (crate::producer_suite): the
//! flags that shape the RunAgentInput sent, and the flags' seconds and
//! headers as agui-live takes them.

use agui_live::{client, input};
use std::time::Duration;

/// Flags that add to the RunAgentInput sent (`check --url`, `run
/// --producer`).
#[derive(clap::Args, Debug, Default)]
pub struct InputArgs {
    /// A user message, appended to the input's messages (without --input:
    /// the only one, instead of the default greeting).
    #[arg(long, value_name = "TEXT")]
    pub message: Option<String>,
    /// The input's state (JSON).
    #[arg(long, value_name = "JSON")]
    pub state: Option<String>,
    /// The input's forwardedProps (JSON).
    #[arg(long, value_name = "JSON")]
    pub forwarded_props: Option<String>,
    /// A tool definition, JSON or @FILE (repeatable; replaces a tool of the
    /// same name).
    #[arg(long = "tool", value_name = "JSON|@FILE")]
    pub tools: Vec<String>,
}

impl InputArgs {
    /// The flags parsed.
    pub fn flags(&self) -> anyhow::Result<input::Flags> {
        input::Flags::parse(
            self.message.as_deref(),
            self.state.as_deref(),
            self.forwarded_props.as_deref(),
            &self.tools,
        )
    }

    /// The first flag given, to refuse it where it means nothing.
    pub fn any(&self) -> Option<&'static str> {
        [
            (self.message.is_some(), "--message"),
            (self.state.is_some(), "--state"),
            (self.forwarded_props.is_some(), "--forwarded-props"),
            (!self.tools.is_empty(), "--tool"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}
/// A positive number of seconds given to `flag`.
pub fn seconds(flag: &str, s: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| anyhow::anyhow!("{flag} {s}: expected a positive number of seconds"))
}

/// `--header NAME: VALUE` flags as (name, value) pairs.
pub fn headers(args: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    args.iter()
        .map(|h| client::parse_header(h).map_err(anyhow::Error::from))
        .collect()
}
