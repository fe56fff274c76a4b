//! Rule configuration for `check` and `run --producer`: `--rule ID=error|warning|off`,
//! `--fail-on`, `--max-warnings`, and the same in `agui-conform.toml`, a
//! file a vendor commits, found like `Cargo.toml` (this directory, then
//! its parents) unless `--config PATH` names one or `--no-config` is
//! given. Flags win over the file. See docs/decisions.md.
//!
//! ```toml
//! fail-on = "warning"      # or "error" (the default)
//! max-warnings = 10
//! docs-url = "https://docs.acme.test/agui-conform"   # check's --docs-url
//! [rules]
//! "transport.buffered" = "off"
//! "ownership.continuation-disagrees" = "warning"
//! ```

use agui_model::{Report, RuleId, RuleLevels, Verdict};
use std::path::{Path, PathBuf};

/// The file looked for.
pub const FILE_NAME: &str = "agui-conform.toml";

/// Flags of the rule configuration.
#[derive(clap::Args, Debug, Default)]
pub struct RuleArgs {
    /// Set a rule's severity, or turn it off: `ID=error|warning|off`
    /// (repeatable; wins over agui-conform.toml).
    #[arg(long = "rule", value_name = "ID=LEVEL")]
    pub rules: Vec<String>,
    /// Exit 1 on errors only (default), or on warnings too.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,
    /// Exit 1 when there are more than N warnings.
    #[arg(long, value_name = "N")]
    pub max_warnings: Option<usize>,
    /// Read the rule configuration from PATH instead of looking for
    /// agui-conform.toml here and in the parent directories.
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore any agui-conform.toml.
    #[arg(long)]
    pub no_config: bool,
    /// The configuration in force, resolved from the flags and the file.
    #[arg(skip)]
    pub policy: Policy,
}

/// What fails a check.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FailOn {
    #[default]
    Error,
    Warning,
}

/// The resolved configuration.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub levels: RuleLevels,
    pub fail_on: FailOn,
    pub max_warnings: Option<usize>,
    /// The file read, if any.
    pub file: Option<PathBuf>,
    /// `docs-url`: where the docs/ directory is published, making `check`'s
    /// documentation links absolute (`--docs-url` wins over it).
    pub docs_url: Option<String>,
}

impl Policy {
    /// The exit status of a report: 1 reject (or warnings past what
    /// `--fail-on`/`--max-warnings` allow), 3 inconclusive, else 0.
    pub fn exit_status(&self, report: &Report) -> u8 {
        let base = exit_status(report);
        let warnings = report.counts.warnings;
        let too_many = match (self.fail_on, self.max_warnings) {
            (FailOn::Warning, _) => warnings > 0,
            (_, Some(n)) => warnings > n,
            _ => false,
        };
        if too_many && report.verdict() != Verdict::Inconclusive {
            1
        } else {
            base
        }
    }
}

/// Exit status of an inconclusive check.
pub const EXIT_INCONCLUSIVE: u8 = 3;

/// The exit status of a report's verdict alone: 0 accept, 1 reject,
/// 3 inconclusive.
pub fn exit_status(report: &Report) -> u8 {
    match report.verdict() {
        Verdict::Accept => 0,
        Verdict::Reject => 1,
        Verdict::Inconclusive => EXIT_INCONCLUSIVE,
    }
}

/// Resolves the flags and the file into the configuration in force.
pub fn resolve(args: &RuleArgs) -> anyhow::Result<Policy> {
    let file = if args.no_config {
        None
    } else if let Some(p) = &args.config {
        Some(p.clone())
    } else {
        std::env::current_dir().ok().and_then(|d| find(&d))
    };
    let mut policy = match &file {
        Some(p) => {
            let text = agui_model::bounded::read_to_string(p, agui_model::bounded::CONFIG_BYTES)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
            parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?
        }
        None => Policy::default(),
    };
    policy.file = file;
    for r in &args.rules {
        let (id, level) = r
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--rule `{r}`: expected ID=error|warning|off"))?;
        set(&mut policy.levels, id.trim(), level.trim())
            .map_err(|e| anyhow::anyhow!("--rule: {e}"))?;
    }
    if let Some(f) = args.fail_on {
        policy.fail_on = f;
    }
    if let Some(n) = args.max_warnings {
        policy.max_warnings = Some(n);
    }
    Ok(policy)
}

/// `agui-conform.toml` in `dir` or the nearest parent that has one.
pub fn find(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// Parses the file's text.
pub fn parse(text: &str) -> anyhow::Result<Policy> {
    let table: toml::Table = text.parse()?;
    let mut policy = Policy::default();
    for (key, value) in &table {
        match (key.as_str(), value) {
            ("fail-on", toml::Value::String(s)) => {
                policy.fail_on = match s.as_str() {
                    "error" => FailOn::Error,
                    "warning" => FailOn::Warning,
                    other => {
                        anyhow::bail!("fail-on = {other:?}: expected \"error\" or \"warning\"")
                    }
                }
            }
            ("max-warnings", toml::Value::Integer(n)) => {
                policy.max_warnings = Some(
                    usize::try_from(*n)
                        .map_err(|_| anyhow::anyhow!("max-warnings = {n}: expected N >= 0"))?,
                )
            }
            ("docs-url", toml::Value::String(s)) => policy.docs_url = Some(docs_url(s)?),
            ("rules", toml::Value::Table(rules)) => {
                for (id, level) in rules {
                    let level = level.as_str().ok_or_else(|| {
                        anyhow::anyhow!(
                            "rules.\"{id}\": expected \"error\", \"warning\" or \"off\""
                        )
                    })?;
                    set(&mut policy.levels, id, level)?;
                }
            }
            (other, _) => anyhow::bail!(
                "unexpected `{other}` (expected fail-on, max-warnings, docs-url or a [rules] table)"
            ),
        }
    }
    Ok(policy)
}

/// A docs base URL as given (`--docs-url`, `docs-url`): an absolute
/// `http(s)` URL, so every link made from it is one.
pub fn docs_url(s: &str) -> anyhow::Result<String> {
    let s = s.trim();
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .filter(|rest| {
            !rest.is_empty() && !rest.starts_with('/') && !s.contains(char::is_whitespace)
        });
    match rest {
        Some(_) => Ok(s.to_owned()),
        None => anyhow::bail!(
            "docs-url `{s}`: expected an absolute http(s) URL (where docs/ is published)"
        ),
    }
}

/// Sets one rule from its id and level text.
fn set(levels: &mut RuleLevels, id: &str, level: &str) -> anyhow::Result<()> {
    let rule = RuleId::from_id(id)
        .filter(|r| r.rule().is_violation())
        .ok_or_else(|| anyhow::anyhow!("unknown rule `{id}` (`agui-conform rules` lists them)"))?;
    let level = RuleLevels::parse_level(level)
        .ok_or_else(|| anyhow::anyhow!("`{id}` = `{level}`: expected error, warning or off"))?;
    levels.set(rule, level);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::Severity;

    #[test]
    fn the_file_sets_rules_and_thresholds() {
        let p = parse(
            "fail-on = \"warning\"\nmax-warnings = 3\n[rules]\n\"transport.buffered\" = \"off\"\n\"run.unterminated\" = \"warning\"\n",
        )
        .unwrap();
        assert_eq!(p.fail_on, FailOn::Warning);
        assert_eq!(p.max_warnings, Some(3));
        assert_eq!(
            p.levels.get(RuleId::TransportBuffered),
            Some(Severity::None)
        );
        assert_eq!(
            p.levels.get(RuleId::RunUnterminated),
            Some(Severity::Warning)
        );
    }

    #[test]
    fn the_file_sets_the_docs_base() {
        let p = parse("docs-url = \"https://d.test/agui/docs/\"\n").unwrap();
        assert_eq!(p.docs_url.as_deref(), Some("https://d.test/agui/docs/"));
    }

    #[test]
    fn mistakes_are_errors() {
        assert!(parse("[rules]\n\"no.such\" = \"off\"\n").is_err());
        assert!(parse("[rules]\n\"run.unterminated\" = \"loud\"\n").is_err());
        assert!(parse("fail-on = \"never\"\n").is_err());
        assert!(parse("colour = true\n").is_err());
        assert!(parse("docs-url = \"docs/\"\n").is_err());
        assert!(parse("docs-url = 3\n").is_err());
        // `accept.*` obligations are not violations: nothing to configure.
        assert!(parse("[rules]\n\"accept.empty-id\" = \"off\"\n").is_err());
    }
}
