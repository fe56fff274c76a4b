//! `agui-conform run`. STUB: being written.

/// Arguments of `agui-conform run`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`run` is not implemented yet")
}
