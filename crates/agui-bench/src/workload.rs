//! The many-run workload: `runs` AG-UI runs of about
//! `per_run` events each, the shape where the projection's cost shows
//! (many runs, each rendered as it ends).
//!
//! Every run starts with a `STATE_SNAPSHOT`, announces 8 invocations (two
//! trees: `s0` and `s4` at the top, three children under each), then
//! interleaves at random the work of the parent and of every invocation:
//! text messages, tool calls followed by their `TOOL_CALL_RESULT`,
//! reasoning messages and state deltas, each owner keeping one entity open
//! at a time. Everything is closed, the invocations finish (children
//! before parents) and the run finishes. Ids are unique per run and the
//! deltas touch one key per owner, so the state stays small.
//!
//! Valid by construction; the tests check instances with the reference
//! checker.

use crate::emit::{self, Args, Out, Rng, Task, Words};
use agui_model::wire::{SUBAGENT_RUN_ID, key};
use std::io::{self, Write};

/// Wire names inlined into the templates below, the wire table's constants
/// (`wire::key`) rather than spelled.
const THREAD_ID: &str = key::RunStarted::thread_id;
const RUN_ID: &str = key::RunStarted::run_id;
const PARENT_SUBAGENT_RUN_ID: &str = key::SubagentStarted::parent_subagent_run_id;

/// Invocations announced in every run.
pub const INVOCATIONS: usize = 8;

/// The shape of a many-run stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManyRuns {
    pub runs: usize,
    /// Events in each run (at least [`ManyRuns::min_per_run`]).
    pub per_run: usize,
    pub seed: u64,
}

impl ManyRuns {
    /// The fewest events a run needs: start, snapshot, the invocations'
    /// starts and finishes, and the run's end.
    pub fn min_per_run() -> usize {
        3 + 2 * INVOCATIONS
    }
}

/// Writes the stream; returns (events, bytes). `out` should be buffered.
pub fn write(shape: &ManyRuns, out: &mut impl Write) -> io::Result<(usize, u64)> {
    if shape.per_run < ManyRuns::min_per_run() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a run needs at least {} events", ManyRuns::min_per_run()),
        ));
    }
    let mut rng = Rng(shape.seed);
    let mut o = Out::new(out);
    for r in 0..shape.runs {
        run(&mut o, &mut rng, r, shape.per_run)?;
    }
    o.finish()
}

fn run<W: Write>(o: &mut Out<'_, W>, rng: &mut Rng, r: usize, events: usize) -> io::Result<()> {
    o.emit(format_args!(
        r#"{{"type":"RUN_STARTED","{THREAD_ID}":"many","{RUN_ID}":"r{r}"}}"#
    ))?;
    o.emit(format_args!(
        r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"run":{r},"phase":"working","notes":["a","b"]}}}}"#
    ))?;
    for k in 0..INVOCATIONS {
        if k % 4 == 0 {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_STARTED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","name":"lead-{k}"}}"#
            ))?;
        } else {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_STARTED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","name":"helper-{k}","{PARENT_SUBAGENT_RUN_ID}":"r{r}.s{}"}}"#,
                k - k % 4
            ))?;
        }
    }
    body(o, rng, r, events - ManyRuns::min_per_run())?;
    for k in (0..INVOCATIONS).rev() {
        o.emit(format_args!(
            r#"{{"type":"SUBAGENT_FINISHED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","outcome":{{"type":"success"}},"result":"done {k}"}}"#
        ))?;
    }
    o.emit(format_args!(
        r#"{{"type":"RUN_FINISHED","{THREAD_ID}":"many","{RUN_ID}":"r{r}","outcome":{{"type":"success"}}}}"#
    ))
}

/// The words inside this workload's entities.
const WORDS: Words = Words {
    text: [
        "words of the answer, streamed ",
        r#"a line\nwith \"quotes\" "#,
    ],
    tool_name: "lookup",
    tool_args: Args::Countdown,
    reasoning: "considering ",
};

/// Exactly `budget` events of interleaved work, every entity closed.
fn body<W: Write>(o: &mut Out<'_, W>, rng: &mut Rng, r: usize, budget: usize) -> io::Result<()> {
    emit::interleave(
        o,
        rng,
        (r, INVOCATIONS + 1, budget),
        &WORDS,
        |o, rng, tag, who, id, free| {
            let len = 1 + rng.below(10);
            let task = match rng.below(100) {
                0..40 if free >= len + 2 => Task::Text { id, left: len },
                40..65 if free >= len + 3 => Task::Tool {
                    id,
                    left: len,
                    result: true,
                    first: true,
                },
                65..80 if free >= len + 2 => Task::Reasoning { id, left: len },
                _ => {
                    o.emit(format_args!(
                        r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/owner{who}","value":{{"step":{id},"label":"at \"{id}\""}}}}]{tag}}}"#
                    ))?;
                    return Ok(None);
                }
            };
            Ok(Some(task))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::Checker;
    use agui_model::check::check_bytes;

    fn stream(shape: &ManyRuns) -> (Vec<u8>, usize) {
        let mut buf = Vec::new();
        let (events, bytes) = write(shape, &mut buf).expect("writes");
        assert_eq!(bytes, buf.len() as u64);
        (buf, events)
    }

    #[test]
    fn runs_of_the_asked_length_that_the_checker_accepts() {
        let shape = ManyRuns {
            runs: 12,
            per_run: 300,
            seed: 7,
        };
        let (buf, events) = stream(&shape);
        assert_eq!(events, 12 * 300);
        let text = String::from_utf8(buf.clone()).expect("utf-8");
        let count = |ty: &str| text.lines().filter(|l| l.contains(ty)).count();
        assert_eq!(count("\"RUN_STARTED\""), 12);
        assert_eq!(count("\"STATE_SNAPSHOT\""), 12);
        assert_eq!(count("\"SUBAGENT_STARTED\""), 12 * INVOCATIONS);
        assert_eq!(count("\"parentSubagentRunId\""), 12 * 6);
        // Every tool call that ends has its result.
        assert_eq!(count("\"TOOL_CALL_END\""), count("\"TOOL_CALL_RESULT\""));
        assert!(count("\"TOOL_CALL_RESULT\"") > 0 && count("\"REASONING_MESSAGE_START\"") > 0);
        let report = check_bytes(&buf, Checker::new());
        assert_eq!(report.events, events);
        assert!(
            report.violations.is_empty(),
            "{:?}",
            report.violations.first()
        );
        let projection = report.projection.expect("projection on");
        assert_eq!(projection.runs.len(), 12);
    }

    #[test]
    fn the_shortest_run_is_valid_and_a_shorter_one_refused() {
        let shape = ManyRuns {
            runs: 2,
            per_run: ManyRuns::min_per_run(),
            seed: 1,
        };
        let (buf, events) = stream(&shape);
        assert_eq!(events, 2 * ManyRuns::min_per_run());
        assert!(check_bytes(&buf, Checker::new()).violations.is_empty());
        let short = ManyRuns {
            per_run: ManyRuns::min_per_run() - 1,
            ..shape
        };
        assert!(write(&short, &mut Vec::new()).is_err());
    }
}
