//! `agui-conform corpus …`. STUB: being written.

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Check a corpus directory.
    Check {
        /// The corpus directory (default: `corpus`).
        dir: Option<std::path::PathBuf>,
    },
}

pub fn run(_cmd: Command) -> anyhow::Result<u8> {
    anyhow::bail!("`corpus check` is not implemented yet")
}
