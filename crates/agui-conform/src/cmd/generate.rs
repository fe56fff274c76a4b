//! `agui-conform gen`: writes generated cases in the corpus format.
//!
//! Case `i` of a run uses seed `--seed + i`, so any case can be regenerated
//! alone (`--seed N+i --count 1`), and the same arguments always give the
//! same bytes. Without `--out`, cases go to standard output as JSON Lines;
//! with it, one pretty-printed file per case at `DIR/<id>.json` (a corpus
//! directory: the id matches the path). `check` reads either as the
//! streams the cases hold (`gen | check -`, `check -r DIR`).

use agui_gen::{Config, Mode, case_id, generate_seeded};
use agui_model::RuleId;
use anyhow::{Context, bail};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `agui-conform gen`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// First seed; case i uses seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many cases.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Streams whose first violation is RULE (a violation rule id), or
    /// `all` to cycle through every violation rule.
    #[arg(long, value_name = "RULE", conflicts_with = "valid")]
    pub invalid: Option<String>,
    /// Valid streams with their projection (the default).
    #[arg(long)]
    pub valid: bool,
    /// Write one file per case under DIR instead of JSON Lines to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Generator config (JSON, or TOML if the name ends in `.toml`); absent
    /// fields keep their defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

fn load_config(path: &std::path::Path) -> anyhow::Result<Config> {
    let text = agui_model::bounded::read_to_string(path, agui_model::bounded::CONFIG_BYTES)
        .with_context(|| format!("reading {}", path.display()))?;
    let config: Config = if path.extension().is_some_and(|e| e == "toml") {
        toml::from_str(&text)
            .with_context(|| format!("{} is not a generator config", path.display()))?
    } else {
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a generator config", path.display()))?
    };
    Ok(config.sanitized())
}

/// The modes of the run: one, or every violation rule in turn.
fn modes(args: &Args) -> anyhow::Result<Vec<Mode>> {
    match args.invalid.as_deref() {
        None => Ok(vec![Mode::Valid]),
        Some("all") => Ok(RuleId::violations().map(Mode::Invalid).collect()),
        Some(id) => match RuleId::from_id(id) {
            Some(r) if r.rule().is_stream_rule() => Ok(vec![Mode::Invalid(r)]),
            Some(r) if r.rule().is_violation() => {
                bail!("`{r}` judges an HTTP exchange, not a stream: nothing to generate")
            }
            Some(r) => bail!("`{r}` is an accept.* obligation, not a violation rule"),
            None => bail!("unknown rule id `{id}` (see `agui-conform rules`)"),
        },
    }
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut out = crate::stdout::Marked(std::io::stdout().lock());
    write_cases(&args, &mut out)?;
    out.flush()?;
    Ok(0)
}

/// Generates the cases `args` asks for: into `--out`, else as JSON Lines
/// into `out`.
pub fn write_cases(args: &Args, out: &mut impl Write) -> anyhow::Result<()> {
    let config = match &args.config {
        Some(p) => load_config(p)?,
        None => Config::default(),
    };
    let modes = modes(args)?;
    for i in 0..args.count {
        let seed = args.seed.wrapping_add(i);
        let mode = modes[(i % modes.len() as u64) as usize];
        let case = generate_seeded(&config, seed, mode).into_case(case_id(seed, mode), seed);
        match &args.out {
            Some(dir) => {
                let path = dir.join(format!("{}.json", case.id));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("creating {}", parent.display()))?;
                }
                // `lines` replaces `events` in a file (exactly one of the two).
                let mut text = case.to_pretty();
                text.push('\n');
                std::fs::write(&path, text)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            None => {
                serde_json::to_writer(&mut *out, &agui_model::json::Out(&case.to_json()))?;
                out.write_all(b"\n")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_rules_and_all() {
        let a = |s: &str| Args {
            invalid: Some(s.into()),
            ..Args::default()
        };
        assert_eq!(modes(&Args::default()).unwrap(), vec![Mode::Valid]);
        assert_eq!(
            modes(&a("chunk.ambiguous")).unwrap(),
            vec![Mode::Invalid(RuleId::ChunkAmbiguous)]
        );
        // Every stream rule of the catalogue, once, in catalogue order.
        let stream_rules: Vec<Mode> = agui_model::CATALOGUE
            .iter()
            .zip(RuleId::ALL)
            .filter(|(r, _)| r.is_stream_rule())
            .map(|(_, id)| Mode::Invalid(*id))
            .collect();
        assert_eq!(modes(&a("all")).unwrap(), stream_rules);
        assert_eq!(
            modes(&a("schema.lone-surrogate")).unwrap(),
            vec![Mode::Invalid(RuleId::SchemaLoneSurrogate)]
        );
        assert!(modes(&a("transport.status")).is_err());
        assert!(modes(&a("accept.empty-id")).is_err());
        assert!(modes(&a("no.such-rule")).is_err());
    }

    fn jsonl(args: &Args) -> Vec<u8> {
        let mut out = Vec::new();
        write_cases(args, &mut out).unwrap();
        out
    }

    #[test]
    fn same_seed_same_bytes_on_stdout_and_in_files() {
        let args = Args {
            seed: 7,
            count: 50,
            invalid: Some("all".into()),
            ..Args::default()
        };
        let a = jsonl(&args);
        assert_eq!(a, jsonl(&args));
        assert_eq!(a.iter().filter(|&&b| b == b'\n').count(), 50);
        let valid = Args {
            seed: 7,
            count: 10,
            valid: true,
            ..Args::default()
        };
        assert_eq!(jsonl(&valid), jsonl(&valid));
        assert_ne!(jsonl(&valid), jsonl(&Args { seed: 8, ..valid }));

        let base = std::env::temp_dir().join(format!("agui-gen-cli-{}", std::process::id()));
        let read_all = |dir: &std::path::Path| {
            let mut files: Vec<(String, Vec<u8>)> = Vec::new();
            let mut stack = vec![dir.to_path_buf()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        files.push((
                            p.strip_prefix(dir).unwrap().display().to_string(),
                            std::fs::read(&p).unwrap(),
                        ));
                    }
                }
            }
            files.sort();
            files
        };
        let (d1, d2) = (base.join("1"), base.join("2"));
        for d in [&d1, &d2] {
            write_cases(
                &Args {
                    out: Some(d.clone()),
                    ..Args {
                        seed: 3,
                        count: 12,
                        invalid: Some("all".into()),
                        ..Args::default()
                    }
                },
                &mut Vec::new(),
            )
            .unwrap();
        }
        let (f1, f2) = (read_all(&d1), read_all(&d2));
        assert_eq!(f1.len(), 12);
        assert_eq!(f1, f2);
        assert!(
            f1.iter()
                .any(|(p, _)| p.ends_with("schema.not-json/3.json")),
            "{:?}",
            f1.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn config_files_in_json_and_toml() {
        let base = std::env::temp_dir().join(format!("agui-gen-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&base).unwrap();
        let j = base.join("c.json");
        let t = base.join("c.toml");
        std::fs::write(&j, r#"{"runs": 1, "invocations": 0}"#).unwrap();
        std::fs::write(&t, "runs = 1\ninvocations = 0\n").unwrap();
        let cj = load_config(&j).unwrap();
        assert_eq!(cj, load_config(&t).unwrap());
        assert_eq!((cj.runs, cj.invocations), (1, 0));
        std::fs::write(&j, r#"{"runz": 1}"#).unwrap();
        assert!(load_config(&j).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }
}
