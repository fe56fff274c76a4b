//! `agui-conform rules` and `agui-conform explain`. STUB: being written.

#[derive(clap::Args, Debug)]
pub struct RulesArgs {}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A rule id, e.g. `ownership.continuation-disagrees`.
    pub rule: String,
}

pub fn run_rules(_args: RulesArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`rules` is not implemented yet")
}

pub fn run_explain(_args: ExplainArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`explain` is not implemented yet")
}
