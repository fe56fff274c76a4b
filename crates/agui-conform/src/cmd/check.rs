//! `agui-conform check`. STUB: being written.

/// Arguments of `agui-conform check`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`check` is not implemented yet")
}
