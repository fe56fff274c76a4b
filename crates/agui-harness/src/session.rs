//! Choosing the implementation under test: the built-in reference, or a
//! command run over the persistent or one-shot protocol.

use crate::implementation::{Capabilities, ImplInfo, Implementation, Reference};
use crate::subprocess::{OneShot, Persistent, Spawn, Timeouts};

/// How to reach the implementation under test.
#[derive(Debug, Clone, Default)]
pub struct ImplSpec {
    /// `None` or `"reference"`: the built-in reference model. Otherwise a
    /// command line, split like a shell would (no shell is run).
    pub command: Option<String>,
    pub one_shot: bool,
    /// One-shot only (there is no handshake): capability names.
    pub capabilities: Vec<String>,
    /// One-shot only: the name to report.
    pub name: Option<String>,
    /// One-shot only: the language it is written in, for reports that
    /// group implementations by it.
    pub language: Option<String>,
    pub timeouts: Timeouts,
    pub memory_limit: Option<u64>,
    pub max_line: Option<usize>,
}

impl ImplSpec {
    pub fn is_reference(&self) -> bool {
        self.command.as_deref().is_none_or(|c| c == "reference")
    }

    pub fn build(&self) -> anyhow::Result<Box<dyn Implementation + Send>> {
        let Some(command) = self.command.as_deref().filter(|c| *c != "reference") else {
            return Ok(Box::new(Reference::default()));
        };
        let mut spawn = Spawn::parse(command)?;
        spawn.memory_limit = self.memory_limit;
        if let Some(m) = self.max_line {
            spawn.max_line = m;
        }
        if self.one_shot {
            let caps = if self.capabilities.is_empty() {
                Capabilities::default()
            } else {
                Capabilities::from_names(self.capabilities.iter().map(String::as_str))
                    .map_err(anyhow::Error::msg)?
            };
            let name = self.name.as_deref().unwrap_or(&spawn.program);
            let language = self.language.as_deref().unwrap_or_default();
            let info = ImplInfo::new(name, "", language, caps);
            Ok(Box::new(OneShot::new(spawn, self.timeouts, info)))
        } else {
            Ok(Box::new(Persistent::new(spawn, self.timeouts)))
        }
    }
}
