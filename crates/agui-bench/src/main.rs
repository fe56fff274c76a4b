//! `agui-bench`: writes one large valid stream and measures, side by side
//! on that file, `agui-conform check` (projection off and on), the
//! serde_json `Value` floor and the TypeScript peer. Every side runs as a
//! child process and is measured the same way ([`agui_bench::measure`]).
//!
//! ```text
//! cargo build --release -p agui-conform -p agui-bench
//! target/release/agui-bench --events 1000000 --invocations 64 --runs 1000 --repeat 5
//! ```

use agui_bench::jobs;
use agui_bench::measure::{self, Sample, median};
use agui_bench::pairs::{self, Contender};
use agui_bench::synth::{self, Shape};
use agui_bench::workload::{self, ManyRuns};
use agui_model::stream::{self, ReadOptions};
use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use std::fs::File;
use std::io::BufRead;
use std::io::{BufReader, BufWriter};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Parser, Debug)]
#[command(
    name = "agui-bench",
    about = "Checker throughput against the serde_json Value floor and the TypeScript peer"
)]
struct Cli {
    /// Events in the generated stream.
    #[arg(long, default_value_t = 1_000_000)]
    events: usize,
    /// Subagent invocations announced (and running concurrently) per run.
    #[arg(long, default_value_t = 64)]
    invocations: usize,
    /// AG-UI runs in the stream (the events are shared out evenly).
    #[arg(long, default_value_t = 1_000)]
    runs: usize,
    /// Measurements of each side; medians are reported.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Seed of the stream writer.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Skip the TypeScript peer.
    #[arg(long)]
    no_peer: bool,
    /// Where to write the stream (default: the temp directory; removed
    /// afterwards unless `--keep`).
    #[arg(long)]
    file: Option<PathBuf>,
    /// Keep the stream files.
    #[arg(long)]
    keep: bool,
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// The floor: reads FILE with the checker's stream reader, parsing each
    /// line into a `serde_json::Value`, and nothing else.
    #[command(hide = true)]
    Floor { file: PathBuf },
    /// The borrowed parse alone: reads FILE with the same reader, each line
    /// through the checker's fast-path parse (schema included), no stream
    /// rules.
    #[command(hide = true)]
    Parse { file: PathBuf },
    /// Writes a stream of the given shape to FILE and exits.
    Write { file: PathBuf },
    /// The round trip of a cache line between two cores (two threads
    /// passing a counter), the median of 5 trials: what the two-thread
    /// figures depend on.
    Cores,
    /// Memory against the number of violations: `check` on LINES lines of
    /// `{}` (one `schema.unknown-type` each), text and JSON, peak RSS of
    /// each child.
    Violations {
        #[arg(long, default_value_t = 2_000_000)]
        lines: usize,
    },
    /// Peak memory on hostile inputs (copy-chain deltas, one huge message,
    /// many runs, many owners, many open ids, a wide snapshot), built at
    /// run time: `check` in text, in JSON and in JSON without the
    /// projection, the peak RSS of each child against the limits.
    Memory {
        /// The `agui-conform` binary (default: the one beside this one).
        #[arg(long)]
        conform: Option<PathBuf>,
        /// Keep the input files (in the temp directory).
        #[arg(long)]
        keep: bool,
    },
    /// The many-run workload: `check --format json` against
    /// `check --format json --no-projection` on RUNS runs of PER_RUN events
    /// (text, tool calls with results, reasoning, state, 8 nested
    /// invocations per run), alternating for `--rounds` rounds.
    Projection {
        #[arg(long, default_value_t = 1_000)]
        runs: usize,
        #[arg(long, default_value_t = 1_000)]
        per_run: usize,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// The `agui-conform` binary (default: the one beside this one).
        #[arg(long)]
        conform: Option<PathBuf>,
    },
    /// File-parallel `check FILE…`: FILES many-run files checked by one
    /// `agui-conform check --format json` process with `-j 1` and with
    /// `-j JOBS`, alternating for `--rounds` rounds.
    Files {
        #[arg(long, default_value_t = 8)]
        files: usize,
        /// Runs in each file (of 1,000 events).
        #[arg(long, default_value_t = 125)]
        runs: usize,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// Workers of the parallel side (default: the available cores).
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(long)]
        conform: Option<PathBuf>,
    },
    /// The parse-ahead thread: `check --format json` with
    /// `--parse-ahead off` and `on`, projection off and on, on a stream of
    /// the shape the global options give, alternating for `--rounds`.
    Ahead {
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[arg(long)]
        conform: Option<PathBuf>,
    },
    /// Writes the many-run workload to FILE and exits.
    WriteRuns {
        file: PathBuf,
        #[arg(long, default_value_t = 1_000)]
        runs: usize,
        #[arg(long, default_value_t = 1_000)]
        per_run: usize,
    },
    /// Parallel runs: `agui-conform run -j 1` and `-j 2` (or `--jobs`)
    /// alternately for `--rounds` rounds; medians, the median of per-round
    /// ratios, and the load average before and after.
    Jobs {
        /// The implementation under test (`--impl` of `agui-conform run`).
        #[arg(long = "impl", default_value = "reference")]
        implementation: String,
        #[arg(long, default_value = "default")]
        suite: String,
        #[arg(long, default_value_t = 10)]
        rounds: usize,
        /// Worker counts to compare; the first is the baseline.
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        jobs: Vec<usize>,
        /// The `agui-conform` binary (default: the one beside this one).
        #[arg(long)]
        conform: Option<PathBuf>,
        /// Further arguments to `agui-conform run` (after `--`).
        #[arg(last = true)]
        extra: Vec<String>,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match &cli.cmd {
        Some(Cmd::Floor { file }) => floor(file),
        Some(Cmd::Parse { file }) => parse(file),
        Some(Cmd::Cores) => {
            let ns = agui_bench::cores::round_trip_ns(5);
            println!("core-to-core round trip: {ns:.0} ns (median of 5 trials)");
            Ok(())
        }
        Some(Cmd::Write { file }) => {
            let w = write_stream(&shape(&cli), file)?;
            println!(
                "{} events, {} bytes → {}",
                w.events,
                w.bytes,
                file.display()
            );
            Ok(())
        }
        Some(Cmd::Violations { lines }) => violations(*lines),
        Some(Cmd::Memory { conform, keep }) => memory(conform.clone(), *keep),
        Some(Cmd::Projection {
            runs,
            per_run,
            rounds,
            conform,
        }) => projection(
            ManyRuns {
                runs: *runs,
                per_run: *per_run,
                seed: cli.seed,
            },
            *rounds,
            conform.clone(),
            cli.keep,
        ),
        Some(Cmd::Files {
            files,
            runs,
            rounds,
            jobs,
            conform,
        }) => files_parallel(*files, *runs, *rounds, *jobs, conform.clone(), cli.seed),
        Some(Cmd::Ahead { rounds, conform }) => ahead(&cli, *rounds, conform.clone()),
        Some(Cmd::WriteRuns {
            file,
            runs,
            per_run,
        }) => {
            let shape = ManyRuns {
                runs: *runs,
                per_run: *per_run,
                seed: cli.seed,
            };
            let (events, bytes) = write_many(&shape, file)?;
            println!("{events} events, {bytes} bytes → {}", file.display());
            Ok(())
        }
        Some(Cmd::Jobs {
            implementation,
            suite,
            rounds,
            jobs,
            conform,
            extra,
        }) => parallel(jobs::Plan {
            conform: conform_or_beside(conform.clone())?,
            implementation: implementation.clone(),
            suite: suite.clone(),
            rounds: *rounds,
            jobs: jobs.clone(),
            extra: extra.clone(),
        }),
        None => bench(&cli),
    }
}

/// The `agui-conform` binary built beside this one.
fn conform_binary() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe.parent().context("no executable directory")?;
    let conform = dir.join("agui-conform");
    if !conform.exists() {
        bail!(
            "{} is missing: build it first (cargo build --release -p agui-conform)",
            conform.display()
        );
    }
    Ok(conform)
}

/// The binary `--conform` names, else the one beside this one.
fn conform_or_beside(conform: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    match conform {
        Some(c) => Ok(c),
        None => conform_binary(),
    }
}

/// `agui-bench jobs`: prints the plan and the load, the rounds as they
/// go (stderr), then the table.
fn parallel(plan: jobs::Plan) -> anyhow::Result<()> {
    println!(
        "agui-conform run --suite {} --impl '{}'{}, {} rounds, -j {} alternately ({})",
        plan.suite,
        plan.implementation,
        plan.extra
            .iter()
            .map(|a| format!(" {a}"))
            .collect::<String>(),
        plan.rounds,
        plan.jobs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" / "),
        plan.conform.display()
    );
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("CPUs: {cpus}; load before: {}", jobs::load());
    if let Some(u) = jobs::uptime() {
        println!("uptime before: {u}");
    }
    let measured = jobs::measure(&plan, |round, j, s| {
        eprintln!(
            "round {}: -j {j} {:.3} s wall, {:.2} s CPU, exit {}",
            round + 1,
            s.wall.as_secs_f64(),
            s.cpu.as_secs_f64(),
            s.code
        );
    })?;
    print!("{}", jobs::render(&plan, &measured));
    println!("load after: {}", jobs::load());
    if let Some(u) = jobs::uptime() {
        println!("uptime after: {u}");
    }
    Ok(())
}

/// `agui-bench violations`: memory never grows with the violations.
fn violations(lines: usize) -> anyhow::Result<()> {
    let conform = conform_binary()?;
    let file = std::env::temp_dir().join(format!("agui-bench-violations-{lines}.jsonl"));
    std::fs::write(&file, "{}\n".repeat(lines))?;
    for format in ["text", "json"] {
        let s = measure::run(
            Command::new(&conform)
                .args(["check", "--format", format])
                .arg(&file),
        )?;
        println!(
            "check --format {format}: {lines} violations, peak RSS {:.1} MB, {:.2} s, exit {}",
            s.max_rss as f64 / 1e6,
            s.wall.as_secs_f64(),
            s.code
        );
    }
    std::fs::remove_file(&file)?;
    Ok(())
}

/// `agui-bench memory`: each hostile input, written to a temp file, then
/// checked three ways; one line each with the peak RSS.
fn memory(conform: Option<PathBuf>, keep: bool) -> anyhow::Result<()> {
    let conform = conform_or_beside(conform)?;
    let limits = agui_model::Limits::default();
    println!(
        "limits: line {} MiB, state {} MiB, projection {} MiB",
        limits.line_bytes >> 20,
        limits.state_bytes >> 20,
        limits.projection_bytes >> 20
    );
    println!("| input | MB | form | peak RSS MB | s | exit |");
    println!("|---|---:|---|---:|---:|---:|");
    for h in agui_gen::hostile::Hostile::bench_set() {
        let file = std::env::temp_dir().join(format!("agui-bench-{}.jsonl", h.name()));
        let out =
            File::create(&file).with_context(|| format!("cannot create {}", file.display()))?;
        let bytes = h.write(BufWriter::with_capacity(1 << 20, out))?;
        for (form, args) in [
            ("text", &["check"][..]),
            ("json", &["check", "--format", "json"][..]),
            (
                "json --no-projection",
                &["check", "--format", "json", "--no-projection"][..],
            ),
        ] {
            let s = measure::run(Command::new(&conform).args(args).arg(&file))?;
            println!(
                "| {} | {:.1} | {form} | {:.1} | {:.2} | {} |",
                h.name(),
                bytes as f64 / 1e6,
                s.max_rss as f64 / 1e6,
                s.wall.as_secs_f64(),
                s.code
            );
        }
        if !keep {
            std::fs::remove_file(&file)?;
        }
    }
    Ok(())
}

/// Writes the many-run workload to `file`: (events, bytes).
fn write_many(shape: &ManyRuns, file: &Path) -> anyhow::Result<(usize, u64)> {
    let out = File::create(file).with_context(|| format!("cannot create {}", file.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, out);
    Ok(workload::write(shape, &mut out)?)
}

/// A side that runs the binary `exe` with `args` and then `files`.
fn child_side(name: &str, exe: &Path, args: &[&str], files: &[PathBuf]) -> Contender {
    let (exe, files) = (exe.to_path_buf(), files.to_vec());
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    Contender::new(name, move || {
        let mut c = Command::new(&exe);
        c.args(&args).args(&files);
        c
    })
}

/// `agui-bench projection`: the projection's cost on the many-run
/// workload.
fn projection(
    shape: ManyRuns,
    rounds: usize,
    conform: Option<PathBuf>,
    keep: bool,
) -> anyhow::Result<()> {
    let conform = conform_or_beside(conform)?;
    let file = std::env::temp_dir().join(format!(
        "agui-bench-runs-{}x{}-{}.jsonl",
        shape.runs, shape.per_run, shape.seed
    ));
    let (events, bytes) = write_many(&shape, &file)?;
    println!(
        "many-run workload: {} runs × {} events ({events} events, {:.1} MB, {} invocations per run), {}; load before: {}",
        shape.runs,
        shape.per_run,
        bytes as f64 / 1e6,
        workload::INVOCATIONS,
        file.display(),
        jobs::load()
    );
    let files = [file.clone()];
    let mut sides = vec![
        child_side(
            "check --format json --no-projection",
            &conform,
            &["check", "--format", "json", "--no-projection"],
            &files,
        ),
        child_side(
            "check --format json (projection on)",
            &conform,
            &["check", "--format", "json"],
            &files,
        ),
    ];
    pairs::measure(&mut sides, rounds, judge)?;
    print!("{}", pairs::render(&sides));
    let (off, on) = (&sides[0], &sides[1]);
    println!(
        "projection on / off, median of per-round ratios: wall {:.2}×, user+sys {:.2}× (target ≤ 1.3×); load after: {}",
        pairs::ratio(&on.walls(), &off.walls()),
        pairs::ratio(&on.cpus(), &off.cpus()),
        jobs::load()
    );
    if !keep {
        let _ = std::fs::remove_file(&file);
    }
    Ok(())
}

/// `agui-bench files`: one `check` process over many files, one worker
/// against several.
fn files_parallel(
    count: usize,
    runs: usize,
    rounds: usize,
    jobs: Option<usize>,
    conform: Option<PathBuf>,
    seed: u64,
) -> anyhow::Result<()> {
    let conform = conform_or_beside(conform)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = jobs.unwrap_or(cores).max(1);
    let dir = std::env::temp_dir().join(format!("agui-bench-files-{count}x{runs}-{seed}"));
    std::fs::create_dir_all(&dir)?;
    let mut files = Vec::new();
    let (mut events, mut bytes) = (0, 0);
    for k in 0..count {
        let f = dir.join(format!("{k:03}.jsonl"));
        let shape = ManyRuns {
            runs,
            per_run: 1_000,
            seed: seed + k as u64,
        };
        let (e, b) = write_many(&shape, &f)?;
        events += e;
        bytes += b;
        files.push(f);
    }
    println!(
        "{count} files of {runs} runs × 1,000 events ({events} events, {:.1} MB in all), {}; CPUs {cores}; load before: {}",
        bytes as f64 / 1e6,
        dir.display(),
        jobs::load()
    );
    let j = jobs.to_string();
    let mut sides = vec![
        child_side(
            "check --format json -j 1 FILES",
            &conform,
            &["check", "--format", "json", "-j", "1"],
            &files,
        ),
        child_side(
            &format!("check --format json -j {jobs} FILES"),
            &conform,
            &["check", "--format", "json", "-j", &j],
            &files,
        ),
    ];
    pairs::measure(&mut sides, rounds, |name, s| {
        if s.code != 0 {
            eprintln!("warning: {name} exited {}", s.code);
        }
    })?;
    print!("{}", pairs::render(&sides));
    let walls = |k: usize| sides[k].walls();
    println!(
        "-j 1 wall / -j {jobs} wall, median of per-round ratios: {:.2}× (above 1: parallel faster); load after: {}",
        pairs::ratio(&walls(0), &walls(1)),
        jobs::load()
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// `agui-bench ahead`: one thread against the parse-ahead thread.
fn ahead(cli: &Cli, rounds: usize, conform: Option<PathBuf>) -> anyhow::Result<()> {
    let conform = conform_or_beside(conform)?;
    let shape = shape(cli);
    if let Some(p) = shape.problem() {
        bail!("{p}");
    }
    let file = std::env::temp_dir().join(format!(
        "agui-bench-ahead-{}-{}-{}-{}.jsonl",
        cli.events, cli.invocations, cli.runs, cli.seed
    ));
    let w = write_stream(&shape, &file)?;
    println!(
        "stream: {} events, {:.1} MB, {} runs × {} invocations; load before: {}",
        w.events,
        w.bytes as f64 / 1e6,
        cli.runs,
        cli.invocations,
        jobs::load()
    );
    let files = [file.clone()];
    let side = |name: &str, extra: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        child_side(name, &conform, &args, &files)
    };
    let mut sides = vec![
        side(
            "--no-projection, one thread",
            &["--no-projection", "--parse-ahead", "off"],
        ),
        side(
            "--no-projection, parse-ahead",
            &["--no-projection", "--parse-ahead", "on"],
        ),
        side("projection on, one thread", &["--parse-ahead", "off"]),
        side("projection on, parse-ahead", &["--parse-ahead", "on"]),
    ];
    pairs::measure(&mut sides, rounds, judge)?;
    print!("{}", pairs::render(&sides));
    let walls = |k: usize| sides[k].walls();
    println!(
        "one thread / parse-ahead wall, median of per-round ratios: projection off {:.2}×, on {:.2}× (above 1: parse-ahead faster); load after: {}",
        pairs::ratio(&walls(0), &walls(1)),
        pairs::ratio(&walls(2), &walls(3)),
        jobs::load()
    );
    if !cli.keep {
        let _ = std::fs::remove_file(&file);
    }
    Ok(())
}

fn shape(cli: &Cli) -> Shape {
    Shape {
        events: cli.events,
        invocations: cli.invocations,
        runs: cli.runs,
        seed: cli.seed,
    }
}

fn floor(file: &Path) -> anyhow::Result<()> {
    // The physical floor: each line parsed into a serde_json `Value`, and
    // nothing else (the reader's own parser judges more than serde_json).
    let mut input = BufReader::with_capacity(1 << 16, File::open(file)?);
    let (mut values, mut bad) = (0usize, 0usize);
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        match serde_json::from_slice::<serde_json::Value>(&line) {
            Ok(value) => {
                values += 1;
                drop(value);
            }
            Err(_) => bad += 1,
        }
    }
    println!("{{\"values\":{values},\"unparseable\":{bad}}}");
    Ok(())
}

fn parse(file: &Path) -> anyhow::Result<()> {
    let input = BufReader::with_capacity(1 << 16, File::open(file)?);
    let (mut fast, mut values) = (0usize, 0usize);
    stream::read_stream_with(
        input,
        &ReadOptions::default(),
        |line, _| {
            let ok = agui_model::fast::parses(line);
            fast += usize::from(ok);
            ok
        },
        |_| {
            values += 1;
            ControlFlow::Continue(())
        },
    )?;
    println!("{{\"fast\":{fast},\"values\":{values},\"unparseable\":0}}");
    Ok(())
}

fn write_stream(shape: &Shape, file: &Path) -> anyhow::Result<synth::Written> {
    let out = File::create(file).with_context(|| format!("cannot create {}", file.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, out);
    Ok(synth::write(shape, &mut out)?)
}

fn bench(cli: &Cli) -> anyhow::Result<()> {
    let shape = shape(cli);
    if let Some(p) = shape.problem() {
        bail!("{p}");
    }
    let exe = std::env::current_exe()?;
    let conform = conform_binary()?;
    let file = cli.file.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "agui-bench-{}-{}-{}-{}.jsonl",
            cli.events, cli.invocations, cli.runs, cli.seed
        ))
    });
    let w = write_stream(&shape, &file)?;
    // One run of the same shape, for the memory comparison.
    let one = Shape {
        events: cli.events / cli.runs,
        runs: 1,
        ..shape
    };
    let one_file = file.with_extension("one-run.jsonl");
    write_stream(&one, &one_file)?;
    println!(
        "stream: {} events, {:.1} MB, {} runs × {} invocations, {}",
        w.events,
        w.bytes as f64 / 1e6,
        cli.runs,
        cli.invocations,
        file.display()
    );

    let files = [file.clone()];
    let mut sides = vec![
        child_side("serde_json Value floor", &exe, &["floor"], &files),
        child_side("borrowed parse alone", &exe, &["parse"], &files),
        child_side(
            "check --no-projection",
            &conform,
            &["check", "--format", "json", "--no-projection"],
            &files,
        ),
        child_side(
            "check (projection on)",
            &conform,
            &["check", "--format", "json"],
            &files,
        ),
    ];
    match peer_script() {
        _ if cli.no_peer => println!("peer: skipped (--no-peer)"),
        Err(why) => println!("peer: skipped — {why}"),
        Ok(script) => {
            let f = file.clone();
            sides.push(Contender::new("TypeScript peer", move || {
                let mut c = Command::new("node");
                c.arg(&script).arg(&f);
                c
            }))
        }
    }
    pairs::measure(&mut sides, cli.repeat, judge)?;

    let mb = w.bytes as f64 / 1e6;
    let ev = w.events as f64;
    let secs = |s: &Contender| pairs::fmedian(&s.walls());
    let floor_s = secs(&sides[0]);
    println!();
    println!("| side | median wall (s) | events/s | MB/s | peak RSS (MB) | events/s vs floor |");
    println!("|---|---:|---:|---:|---:|---:|");
    for s in &sides {
        let t = secs(s);
        println!(
            "| {} | {:.3} | {:.0} | {:.1} | {:.1} | {:.2}× |",
            s.name,
            t,
            ev / t,
            mb / t,
            s.rss() as f64 / 1e6,
            floor_s / t
        );
    }
    // Ratios within each round (the sides ran back to back), then their
    // median: steadier than a ratio of medians on a shared machine.
    let ratio = |a: usize, b: usize| pairs::ratio(&sides[a].walls(), &sides[b].walls());
    println!();
    println!("median of per-round ratios (events/s):");
    println!(
        "  check --no-projection / floor: {:.2}× (target ≥ 3×)",
        ratio(0, 2)
    );
    println!(
        "  borrowed parse alone / floor: {:.2}× (the room the issue names: about 2.5×)",
        ratio(0, 1)
    );
    println!(
        "  check with projection / without: {:.2}× (the projection costs {:.0}% more time)",
        ratio(2, 3),
        (1.0 / ratio(2, 3) - 1.0) * 100.0
    );
    if let Some(peer) = sides.get(4) {
        // The peer's whole process (node start-up and module loading
        // included) is its wall time above; bench.mjs also prints its own
        // in-process time, from opening the file to the verdict.
        let inproc: Vec<f64> = peer
            .samples
            .iter()
            .map(|s| peer_seconds(&s.stdout).unwrap_or(f64::NAN))
            .collect();
        let check_on = sides[3].walls();
        println!(
            "  TypeScript pipeline: whole process {:.3} s, in-process {:.3} s (medians; the difference is node start-up and loading the client)",
            secs(peer),
            pairs::fmedian(&inproc)
        );
        println!(
            "  check --no-projection / TypeScript whole process: {:.1}× (target ≥ 10×)",
            ratio(4, 2)
        );
        println!(
            "  check with projection / TypeScript whole process: {:.1}× (target ≥ 20×)",
            ratio(4, 3)
        );
        println!(
            "  check with projection (whole process) / TypeScript in-process: {:.1}×",
            pairs::ratio(&inproc, &check_on)
        );
    }

    // Memory: the whole stream against one of its runs.
    let mut mem = Vec::new();
    for f in [&one_file, &file] {
        let mut best = Vec::new();
        for _ in 0..cli.repeat.clamp(1, 3) {
            let mut c = Command::new(&conform);
            c.args(["check", "--format", "json", "--no-projection"])
                .arg(f);
            best.push(measure::run(&mut c)?.max_rss);
        }
        mem.push(median(&best).unwrap_or(0));
    }
    println!(
        "peak RSS, check --no-projection: one run ({} events) {:.1} MB; all {} runs {:.1} MB ({:.2}×)",
        one.events,
        mem[0] as f64 / 1e6,
        cli.runs,
        mem[1] as f64 / 1e6,
        mem[1] as f64 / mem[0].max(1) as f64
    );
    if !cli.keep {
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::remove_file(&one_file);
    }
    Ok(())
}

/// Warns when a side did not accept the (valid) stream: its timing would
/// not be comparable.
fn judge(name: &str, s: &Sample) {
    let accepted = s.code == 0
        && (s.stdout.contains("\"verdict\":\"accept\"") || s.stdout.contains("\"unparseable\":0"));
    if !accepted {
        let head: String = s.stdout.chars().take(300).collect();
        eprintln!(
            "warning: {name} did not accept the stream (exit {}): {head}",
            s.code
        );
    }
}

/// The `"seconds"` bench.mjs prints: its in-process time.
fn peer_seconds(stdout: &str) -> Option<f64> {
    let line = stdout.lines().find(|l| l.contains("\"seconds\""))?;
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    v.get("seconds")?.as_f64()
}

/// `adapters/typescript/bench.mjs`, when Node and the installed client are
/// there.
fn peer_script() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("adapters/typescript");
    let script = dir.join("bench.mjs");
    if !script.exists() {
        return Err(format!("{} not found", script.display()));
    }
    if !dir.join("node_modules/@ag-ui/client").exists() {
        return Err("@ag-ui/client is not installed (run adapters/install.sh typescript)".into());
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(script),
        _ => Err("node is not on PATH".into()),
    }
}
