//! The generator's knobs: one struct, documented defaults, a serde form for
//! `--config FILE`, and an `Arbitrary` "swarm" form (random limits and
//! switches, then [`Config::sanitize`]) so fuzzing explores shapes the
//! defaults never reach.

use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};

/// How invocations make themselves known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Arbitrary)]
#[serde(rename_all = "kebab-case")]
pub enum AttributionMode {
    /// Every invocation is announced with `SUBAGENT_STARTED` and closed.
    Announced,
    /// No invocation is announced; events only carry `subagentRunId`
    /// (`accept.attribution-only`).
    AttributionOnly,
    /// Each invocation independently announced or attribution-only.
    Mixed,
}

/// Relative weights of the kinds of work in an invocation's script. A zero
/// weight switches the kind off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Text messages (with their tool calls).
    pub text: u32,
    /// Tool calls outside any message.
    pub tool_call: u32,
    /// `TOOL_CALL_RESULT` for a call made so far in the run, by anyone.
    pub tool_result: u32,
    /// Reasoning spans, with or without a reasoning message.
    pub reasoning: u32,
    /// `REASONING_ENCRYPTED_VALUE` on an entity of the same actor.
    pub encrypted: u32,
    /// Steps (names from a small shared pool, so owners collide).
    pub step: u32,
    /// `STATE_SNAPSHOT` / `STATE_DELTA`.
    pub state: u32,
    /// `ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA`.
    pub activity: u32,
    /// `CUSTOM`.
    pub custom: u32,
    /// `RAW`.
    pub raw: u32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            text: 6,
            tool_call: 2,
            tool_result: 2,
            reasoning: 2,
            encrypted: 1,
            step: 2,
            state: 2,
            activity: 1,
            custom: 1,
            raw: 1,
        }
    }
}

impl Weights {
    pub(crate) fn as_array(&self) -> [u32; 10] {
        [
            self.text,
            self.tool_call,
            self.tool_result,
            self.reasoning,
            self.encrypted,
            self.step,
            self.state,
            self.activity,
            self.custom,
            self.raw,
        ]
    }

    /// Each weight, to set in place (same order as [`Weights::as_array`]).
    fn slots_mut(&mut self) -> [&mut u32; 10] {
        [
            &mut self.text,
            &mut self.tool_call,
            &mut self.tool_result,
            &mut self.reasoning,
            &mut self.encrypted,
            &mut self.step,
            &mut self.state,
            &mut self.activity,
            &mut self.custom,
            &mut self.raw,
        ]
    }
}

/// Every knob of the generator. Limits are upper bounds: each scenario draws
/// its actual sizes below them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Most invocations (subagent runs) per run. Default 4.
    pub invocations: u32,
    /// Deepest nesting of announced invocations (1 = only direct children
    /// of the parent agent). Default 3.
    pub max_depth: u32,
    /// Most script operations per actor and run (each becomes ~1–8
    /// events). Default 6.
    pub ops_per_actor: u32,
    /// Most runs per stream (state and suspended invocations carry over).
    /// Default 3.
    pub runs: u32,
    /// How many invocations may stream at once (the scheduler's window).
    /// Default 3.
    pub parallelism: u32,
    pub weights: Weights,
    pub attribution: AttributionMode,
    /// Whether the chunk shorthand is used. Default true.
    pub chunks: bool,
    /// Whether `""` may be used as a subagent id. Default true.
    pub empty_id: bool,
    /// Whether runs may end in `RUN_ERROR`, `SUBAGENT_ERROR` or an interrupt
    /// (otherwise every run and invocation succeeds). Default true.
    pub failures: bool,
    /// Whether events may carry `timestamp` and an unknown extra field.
    /// Default true.
    pub extras: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            invocations: 4,
            max_depth: 3,
            ops_per_actor: 6,
            runs: 3,
            parallelism: 3,
            weights: Weights::default(),
            attribution: AttributionMode::Mixed,
            chunks: true,
            empty_id: true,
            failures: true,
            extras: true,
        }
    }
}

impl Config {
    /// Clamps every limit into the range the generator supports, so any
    /// config (from a file or from fuzz bytes) is usable.
    pub fn sanitize(&mut self) {
        self.invocations = self.invocations.min(16);
        self.max_depth = self.max_depth.clamp(1, 8);
        self.ops_per_actor = self.ops_per_actor.min(64);
        self.runs = self.runs.clamp(1, 8);
        self.parallelism = self.parallelism.clamp(1, 16);
        let w = &mut self.weights;
        for x in w.slots_mut() {
            *x = (*x).min(1000);
        }
        if w.as_array().iter().all(|&x| x == 0) {
            w.text = 1;
        }
    }

    /// Smaller configs, most drastic first, for a minimiser: fewer
    /// invocations, runs and operations, shallower and less parallel, kinds
    /// of work switched off, no chunks, extras, failures or empty ids, plain
    /// attribution. Each is sanitized and differs from this one.
    pub fn smaller(&self) -> Vec<Config> {
        let mut out = Vec::new();
        let mut with = |f: &dyn Fn(&mut Config)| {
            let mut n = self.clone();
            f(&mut n);
            n.sanitize();
            if n != *self {
                out.push(n);
            }
        };
        for v in [0, 1, self.invocations / 2] {
            with(&|x| x.invocations = x.invocations.min(v));
        }
        with(&|x| x.runs = 1);
        with(&|x| x.runs /= 2);
        for v in [0, 1, self.ops_per_actor / 2] {
            with(&|x| x.ops_per_actor = x.ops_per_actor.min(v));
        }
        with(&|x| x.max_depth = 1);
        with(&|x| x.parallelism = 1);
        for k in 0..10 {
            with(&|x| {
                if let Some(s) = x.weights.slots_mut().into_iter().nth(k) {
                    *s = 0;
                }
            });
        }
        with(&|x| x.chunks = false);
        with(&|x| x.extras = false);
        with(&|x| x.failures = false);
        with(&|x| x.empty_id = false);
        with(&|x| x.attribution = AttributionMode::AttributionOnly);
        with(&|x| x.attribution = AttributionMode::Announced);
        out
    }

    /// A sanitized copy.
    pub fn sanitized(mut self) -> Self {
        self.sanitize();
        self
    }

    /// Bytes of randomness a scenario of this config needs at most, roughly
    /// (the seeded front end sizes its buffer by it).
    pub fn entropy_hint(&self) -> usize {
        let actors = (self.invocations as usize + 1) * self.runs as usize;
        1024 + actors * (self.ops_per_actor as usize + 2) * 48
    }
}

/// The swarm form: small random limits and switches.
impl<'a> Arbitrary<'a> for Config {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let c = Config {
            invocations: u.int_in_range(0..=6)?,
            max_depth: u.int_in_range(1..=4)?,
            ops_per_actor: u.int_in_range(0..=8)?,
            runs: u.int_in_range(1..=4)?,
            parallelism: u.int_in_range(1..=4)?,
            weights: Weights {
                text: u.int_in_range(0..=8)?,
                tool_call: u.int_in_range(0..=4)?,
                tool_result: u.int_in_range(0..=4)?,
                reasoning: u.int_in_range(0..=4)?,
                encrypted: u.int_in_range(0..=2)?,
                step: u.int_in_range(0..=4)?,
                state: u.int_in_range(0..=4)?,
                activity: u.int_in_range(0..=2)?,
                custom: u.int_in_range(0..=2)?,
                raw: u.int_in_range(0..=2)?,
            },
            attribution: u.arbitrary()?,
            chunks: u.arbitrary()?,
            empty_id: u.arbitrary()?,
            failures: u.arbitrary()?,
            extras: u.arbitrary()?,
        };
        Ok(c.sanitized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_already_sane_and_round_trip_through_serde() {
        let c = Config::default();
        assert_eq!(c.clone().sanitized(), c);
        let text = serde_json::to_string(&c).unwrap();
        let back: Config = serde_json::from_str(&text).unwrap();
        assert_eq!(back, c);
        let partial: Config =
            serde_json::from_str(r#"{"runs": 1, "attribution": "attribution-only"}"#).unwrap();
        assert_eq!(partial.runs, 1);
        assert_eq!(partial.attribution, AttributionMode::AttributionOnly);
        assert_eq!(partial.invocations, 4);
    }

    #[test]
    fn sanitize_clamps_and_never_leaves_all_weights_zero() {
        let mut c = Config {
            runs: 0,
            parallelism: 0,
            invocations: 1000,
            ..Config::default()
        };
        c.weights = Weights {
            text: 0,
            tool_call: 0,
            tool_result: 0,
            reasoning: 0,
            encrypted: 0,
            step: 0,
            state: 0,
            activity: 0,
            custom: 0,
            raw: 0,
        };
        c.sanitize();
        assert_eq!((c.runs, c.parallelism, c.invocations), (1, 1, 16));
        assert_eq!(c.weights.text, 1);
    }
}
