//! `check --url`: one live stream, checked by agui-live as it arrives;
//! this module turns `check`'s flags into its options and prints the
//! report through the same renderers as `check FILE`.

use crate::checking::{Format, Settings};
use crate::pending::Pending;
use crate::producer::{InputArgs, headers, seconds};
use crate::record::{Check, Collected};
use crate::render::{html, json, junit, sarif, text};
use crate::stdout::to_stdout;
use agui_live::capture::CaptureWriter;
use agui_live::{Limits, LiveError, Options, Progress, input};
use std::fs::File;
use std::path::PathBuf;

/// The live source of `check`: flags used only with `--url`.
#[derive(clap::Args, Debug, Default)]
pub struct LiveArgs {
    /// Check a live producer: POST a RunAgentInput to URL and check the
    /// Server-Sent Events it answers with, as they arrive.
    #[arg(long, value_name = "URL", conflicts_with = "input")]
    pub url: Option<String>,
    /// The RunAgentInput to send (JSON) [default: fresh ids, no messages].
    #[arg(long = "input", value_name = "FILE", requires = "url")]
    pub run_input: Option<PathBuf>,
    /// An extra request header, `Name: value` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    pub headers: Vec<String>,
    /// Longest the whole exchange may take, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 300.0, requires = "url")]
    pub timeout: f64,
    /// Longest wait for the next bytes, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 120.0, requires = "url")]
    pub idle_timeout: f64,
    /// After the stream's last run ended, how long to wait for more before
    /// letting a connection kept open go, in seconds (no blame, but a `time`
    /// limit notice: what came later is not judged).
    #[arg(long, value_name = "SECS", default_value_t = agui_live::live::RUN_END_GRACE.as_secs_f64(), requires = "url")]
    pub run_end_grace: f64,
    /// Save the events received as JSON Lines (kept even if the stream fails).
    #[arg(long, value_name = "FILE", requires = "url")]
    pub save: Option<PathBuf>,
    /// What to put in the input (`--message`, `--state`, …).
    #[command(flatten)]
    pub input_flags: InputArgs,
}
/// `check --url`: violations on stderr as they are found (when stderr is
/// not where stdout goes: crate::live_progress), then the same
/// report as `check FILE` on stdout, the `transport.*` rules included.
/// The exit status is the verdict's (README.md): 0 accept, 1 reject (a
/// non-2xx status is `transport.status`), 3 inconclusive (our own time
/// limits, a SIGINT/SIGTERM, no response head in time: a `time` limit
/// notice). 2 when nothing could be checked (no connection, a body with no
/// event and no error; [`cant_check`] says so in the requested format), for
/// a usage error, and when an output asked for (`--save`, `--junit`,
/// `--html`) could not be written (the report printed is the check's).
pub fn check_url(url: &str, args: &Settings, live: &LiveArgs) -> anyhow::Result<u8> {
    let flags = live.input_flags.flags()?;
    let mut body = match (&live.run_input, &flags.message) {
        (Some(p), _) => input::load(p)?,
        // The message flag stands for the default greeting.
        (None, Some(_)) => input::empty_input(),
        (None, None) => input::default_input(),
    };
    flags.apply(&mut body);
    let opts = Options {
        limits: Limits {
            total: seconds("--timeout", live.timeout)?,
            idle: seconds("--idle-timeout", live.idle_timeout)?,
        },
        headers: headers(&live.headers)?,
        max_event_bytes: args.limits.line_bytes,
        // The checker's limits as for a file; violations are kept by the
        // live check's own cap.
        checker_limits: agui_model::Limits {
            violations: agui_model::limits::DEFAULT_VIOLATIONS,
            ..args.limits
        },
        // `--json` carries the projection as `--format json` would.
        projection: args.projection || (args.json.is_some() && args.json_projection),
        run_end_grace: seconds("--run-end-grace", live.run_end_grace)?,
        levels: args.policy.levels.clone(),
        stop: crate::signals::install(),
        ..Options::default()
    };
    // Every report file is opened before the exchange: an unwritable
    // path is an error before anything is sent.
    let files = Files::create(args)?;
    // `--html` draws the events as the checker sees them (as `--save`
    // keeps them), within its budget.
    let page = args.html.as_ref().map(|_| html::page(args.html_max_bytes));
    let mut capture = match &live.save {
        Some(p) => Some(CaptureWriter::new(std::io::BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?,
        ))),
        None => None,
    };
    // Progress on stderr; each finding once (crate::live_progress).
    let mut shown = crate::live_progress::LiveProgress::new();
    let mut on = |p: Progress<'_>| {
        if let (Progress::Event(seen), Some(page)) = (&p, &page) {
            page.borrow_mut().push(&html::seen_value(seen));
        }
        shown.on(url, &p);
    };
    let started = std::time::Instant::now();
    let run = match agui_live::check_url(url, &body, &opts, capture.as_mut(), &mut on) {
        Ok(run) => run,
        Err(e @ LiveError::Usage(_)) => return Err(e.into()),
        Err(e) => {
            shown.finish();
            return cant_check(url, args, files, &e.to_string());
        }
    };
    shown.finish();
    if let Some(f @ LiveError::NoEvents { .. }) = &run.failure
        && run.report.counts.errors == 0
    {
        // Nothing to judge, and no rule broken: like no answer at all.
        return cant_check(url, args, files, &f.to_string());
    }
    let report = &run.report;
    let runs = &run.runs;
    // Every 307/308 hop followed is named in each output.
    let hops = run.redirects.as_slice();
    let (all, group) = (args.all, args.group);
    // Kept for `--json` alone: the text report shows it only when asked.
    let text_report = (args.format == Format::Text
        && !args.projection
        && report.projection.is_some())
    .then(|| agui_model::Report {
        projection: None,
        ..report.clone()
    });
    to_stdout(|out| match args.format {
        Format::Json => json::write_report(out, report, runs, group, hops),
        Format::Text => {
            let shown = text_report.as_ref().unwrap_or(report);
            text::write_text(&mut *out, url, shown, runs, (all, group), text::colour())?;
            text::redirects(out, hops)
        }
        Format::Sarif => sarif::write(out, &sarif::url_log(url, report, runs, hops)),
    })?;
    let Files {
        json: json_file,
        sarif: sarif_file,
        junit: junit_file,
        html: html_file,
    } = files;
    if let Some((pending, f)) = json_file {
        let without_runs;
        let shown = if args.json_projection || report.projection.is_none() {
            report
        } else {
            without_runs = agui_model::Report {
                projection: None,
                ..report.clone()
            };
            &without_runs
        };
        json::write_report(f, shown, runs, group, hops)
            .map_err(|e| anyhow::anyhow!("writing the --json report: {e}"))?;
        pending.commit()?;
    }
    if let Some((pending, f)) = sarif_file {
        sarif::write(
            std::io::BufWriter::new(f),
            &sarif::url_log(url, report, runs, hops),
        )
        .map_err(|e| anyhow::anyhow!("writing the --sarif log: {e}"))?;
        pending.commit()?;
    }
    if let Some((pending, _)) = junit_file {
        let found = Collected::of(report);
        let check = Check {
            name: url,
            report,
            runs,
            found: &found,
            elapsed: started.elapsed(),
        };
        junit::write_live_check(pending.tmp(), &check, hops)?;
        pending.commit()?;
    }
    if let (Some(p), Some(c)) = (&live.save, &capture) {
        eprintln!("saved {} events to {}", c.lines(), p.display());
    }
    if let (Some((pending, _)), Some(page)) = (html_file, page) {
        html::write(
            pending.tmp(),
            page,
            &report.violations,
            Some(report.verdict()),
            url,
        )?;
        pending.commit()?;
    }
    if let Some(f) = &run.failure {
        eprintln!(
            "agui-conform: note: {f} (the report covers the {} events received)",
            report.events
        );
    }
    if let Some(e) = &run.capture_error {
        eprintln!("agui-conform: error: saving the capture failed: {e}");
        return Ok(2);
    }
    Ok(args.policy.exit_status(report))
}

/// Nothing could be checked (`why`): said on stderr, and in the requested
/// format on stdout — `{"url", "error"}` for JSON (as `check FILE…` writes
/// `{"file", "error"}` for a file it cannot read), a log whose invocation
/// failed for SARIF — and as an erroring test case for `--junit`. Exit 2.
fn cant_check(url: &str, args: &Settings, files: Files, why: &str) -> anyhow::Result<u8> {
    eprintln!("agui-conform: error: {url}: {why}");
    to_stdout(|out| match args.format {
        Format::Json => json::error_line(out, "url", url, why),
        Format::Sarif => sarif::write(out, &sarif::cant_check(url, why)),
        Format::Text => Ok(()),
    })?;
    // The files say the same, each as its format would print it; no page
    // is drawn of nothing.
    if let Some((pending, mut f)) = files.json {
        json::error_line(&mut f, "url", url, why)
            .map_err(|e| anyhow::anyhow!("writing the --json report: {e}"))?;
        pending.commit()?;
    }
    if let Some((pending, f)) = files.sarif {
        sarif::write(f, &sarif::cant_check(url, why))
            .map_err(|e| anyhow::anyhow!("writing the --sarif log: {e}"))?;
        pending.commit()?;
    }
    if let Some((pending, _)) = files.junit {
        junit::write_error(pending.tmp(), url, why)?;
        pending.commit()?;
    }
    Ok(2)
}

/// The report files of a live check, opened before the exchange.
struct Files {
    json: Option<(Pending, File)>,
    sarif: Option<(Pending, File)>,
    junit: Option<(Pending, File)>,
    html: Option<(Pending, File)>,
}

impl Files {
    fn create(args: &Settings) -> anyhow::Result<Files> {
        let open =
            |p: &Option<PathBuf>, flag| p.as_deref().map(|p| Pending::create(flag, p)).transpose();
        Ok(Files {
            json: open(&args.json, "--json")?,
            sarif: open(&args.sarif, "--sarif")?,
            junit: open(&args.junit, "--junit")?,
            html: open(&args.html, "--html")?,
        })
    }
}
