//! `agui-conform gen`. STUB: being written.

/// Arguments of `agui-conform gen`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<u8> {
    anyhow::bail!("`gen` is not implemented yet")
}
