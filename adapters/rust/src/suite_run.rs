//! Runs a suite against one SDK in process and writes the run record
//! `agui-conform run --record` writes (docs/run-record.schema.json), so
//! that `agui-conform report` merges it with the others.

use crate::sdk::{Explains, Sdk, SdkImpl, take};
use agui_harness::record::{self, writer::Writer};
use agui_harness::report::terminal;
use agui_harness::runner::streamed::{Sink, run_plan};
use agui_harness::{CaseResult, ImplInfo, Implementation, Suite, SuiteCase};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A suite name (local `suites/NAME.toml`, else built in) or path.
    pub suite: String,
    pub filter: Option<String>,
    pub record: Option<PathBuf>,
    pub verbose: bool,
}

/// A finished run: the terminal report and the exit status
/// `agui-conform run` would give.
pub struct Ran {
    pub text: String,
    pub exit: u8,
}

/// Hands each settled case to the record, with the `explain` the SDK's
/// adapter left for it.
struct RecordSink {
    record: Option<Writer<BufWriter<File>>>,
    explains: Explains,
}

impl Sink for RecordSink {
    fn started(&self, info: &ImplInfo) {
        if let Some(w) = &self.record {
            w.header(info);
        }
    }

    fn case(&self, r: &CaseResult, c: &SuiteCase) {
        let explain = take(&self.explains, &c.id);
        if let Some(w) = &self.record {
            let mut r = r.clone();
            r.explain = explain;
            w.case(&r, c, false);
        }
    }

    fn lost(&self, index: usize) {
        if let Some(w) = &self.record {
            w.lost(index);
        }
    }
}

/// Runs `opts.suite` against `sdk`, one case at a time.
pub fn run(sdk: Sdk, opts: &Options) -> anyhow::Result<Ran> {
    let suite = Suite::find(&opts.suite)?;
    let (plan, mut problems) = suite.plan_lazily(opts.filter.as_deref());
    if let (Some(f), true) = (&opts.filter, plan.is_empty()) {
        problems.push(format!("--filter `{f}` matches no case"));
    }
    let explains = Explains::default();
    let record = match &opts.record {
        Some(p) => Some(Writer::new(
            BufWriter::new(
                File::create(p).map_err(|e| anyhow::anyhow!("creating {}: {e}", p.display()))?,
            ),
            &suite.name,
            plan.len(),
            record::Meta::now(),
        )),
        None => None,
    };
    let sink = RecordSink {
        record,
        explains: explains.clone(),
    };
    let make = || -> anyhow::Result<Box<dyn Implementation + Send>> {
        Ok(Box::new(SdkImpl::new(sdk, explains.clone())))
    };
    let streamed = run_plan(&suite.name, 1, &make, plan, problems, &sink);
    let (run, cases) = (streamed.run, streamed.cases);
    if let Some(w) = sink.record {
        w.finish(
            &run.implementation,
            record::footer(&run, &cases),
            &BTreeMap::new(),
        )
        .map_err(|e| anyhow::anyhow!("writing the run record: {e}"))?;
    }
    Ok(Ran {
        text: terminal::render(&run, &cases, opts.verbose),
        exit: run.status().exit_code(),
    })
}
