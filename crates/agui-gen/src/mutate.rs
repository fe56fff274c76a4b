//! Invalid rendering: one mutator per violation rule of the catalogue. Each
//! takes a valid scenario and returns a stream whose *first* violation is
//! exactly its rule, at an index it knows by construction.
//!
//! Two kinds of mutators:
//! - stream edits (most error rules): insert, drop or alter events of the
//!   valid stream at a chosen site; everything before the site is the
//!   valid prefix, the site breaks the rule and nothing earlier in
//!   catalogue order at that event; what follows may break more.
//! - scenario edits (the warning rules, whose streams must stay accepted):
//!   change the scenario so that the rendered stream carries exactly that
//!   warning and nothing else, and read the index off the rendering.
//!
//! Fresh ids and tags start with `zz-`, which the scenario never uses.

use crate::continuation::Form;
use crate::ev::Ev;
pub use crate::mutated::Mutated;
use crate::names::{
    DELTA, MESSAGE_ID, OUTCOME, PARENT_MESSAGE_ID, PARENT_SUBAGENT_RUN_ID, RUN_ID, STEP_NAME,
    SUBAGENT_RUN_ID, THREAD_ID, TOOL_CALL_ID, TOOL_CALL_NAME,
};
use crate::render::{EndKind, Meta, Rendered, render};
use crate::scenario::{Interrupt, InvEnd, Invocation, RunEnd, RunPlan, Scenario};
use agui_model::events::RunOutcome;
use agui_model::wire::COMMON;
use agui_model::{EventType as T, RuleId};
use arbitrary::{Result, Unstructured};
use serde_json::{Value, json};

/// Whether a mutator exists for `rule`: [`mutate`] turns the smallest
/// scenario into a stream for it (the `accept.*` obligations have none:
/// nothing violates them).
pub fn has_mutator(rule: RuleId) -> bool {
    let config = crate::config::Config::default();
    let Ok(sc) = Scenario::new(&config, &mut Unstructured::new(&[])) else {
        return false;
    };
    matches!(mutate(rule, sc, &mut Unstructured::new(&[])), Ok(Some(m)) if m.rule == rule)
}

/// Turns a valid scenario into a stream whose first violation is `rule`.
/// `None` for `accept.*` ids, which no stream violates, and for the
/// `transport.*` rules, which judge an HTTP exchange, not a stream.
///
/// One exhaustive match over the catalogue: a rule added without a
/// mutator (or without saying why it has none) does not compile.
pub fn mutate(rule: RuleId, mut sc: Scenario, u: &mut Unstructured) -> Result<Option<Mutated>> {
    use RuleId as R;
    /// A stream edit of the valid rendering: the index of the event that
    /// breaks the rule, and the projection when the stream is accepted.
    type Edit = fn(&mut Ctx<'_, '_>) -> Result<(usize, Option<Value>)>;
    let edit: Edit = match rule {
        // Scenario edits: the rendering of the edited scenario is the stream.
        R::LifecycleResumedNotSuspended => return resumed_not_suspended(sc, u).map(Some),
        R::InterruptRunNotInterrupted | R::InterruptUnknownId | R::InterruptOwnerMismatch => {
            return interrupt_warning(rule, sc, u).map(Some);
        }
        R::ToolArgsNotJson => return crate::consistency::args_not_json(sc, u).map(Some),
        R::ToolResultBeforeEnd => return crate::consistency::result_before_end(sc, u).map(Some),
        R::MessagesSnapshotDisagrees => {
            return crate::consistency::snapshot_disagrees(sc, u).map(Some);
        }
        // Raw edits: a value cannot hold the fault.
        R::SchemaDuplicateKey => return crate::raw::duplicate_key(&render(&sc), u).map(Some),
        R::SchemaLoneSurrogate => return crate::raw::lone_surrogate(&render(&sc), u).map(Some),
        // Stream edits.
        R::SchemaNotJson => |c| Ok((c.not_json()?, None)),
        R::SchemaUnknownType => |c| Ok((c.unknown_type()?, None)),
        R::SchemaMissingField => |c| Ok((c.missing_field()?, None)),
        R::SchemaWrongType => |c| Ok((c.wrong_type()?, None)),
        R::SchemaUnknownMember => |c| Ok((c.unknown_member()?, None)),
        R::SchemaNullOptional => |c| Ok((c.null_optional()?, None)),
        R::AttributionNull => |c| Ok((c.attribution_null()?, None)),
        R::AttributionNotAttributable => |c| {
            let i = c.not_attributable()?;
            Ok((i, Some(c.r.projection.clone())))
        },
        R::LifecycleMissingId => |c| Ok((c.missing_id()?, None)),
        R::LifecycleUnknownOutcome => |c| {
            let t = c.pick(&["failed", "cancelled", "interrupt", "SUCCESS"])?;
            Ok((c.outcome(json!({ "type": t }))?, None))
        },
        R::LifecycleSuccessWithInterrupts => |c| {
            let outcome = json!({"type": "success", "interruptIds": ["zz-int"]});
            Ok((c.outcome(outcome)?, None))
        },
        R::RunFirstEvent => |c| Ok((c.first_event()?, None)),
        R::RunAlreadyActive => |c| Ok((c.already_active_run()?, None)),
        R::RunAfterFinished => {
            ensure_finished(&mut sc);
            |c| Ok((c.after_end(EndKind::Finished)?, None))
        }
        R::RunAfterError => {
            ensure_error(&mut sc, u)?;
            |c| Ok((c.after_end(EndKind::Error)?, None))
        }
        R::RunOpenEntitiesAtFinish => {
            ensure_finished(&mut sc);
            |c| Ok((c.open_entities()?, None))
        }
        R::RunIdsDisagree => {
            ensure_finished(&mut sc);
            |c| Ok((c.ids_disagree()?, None))
        }
        R::RunThreadChanged => {
            ensure_finished(&mut sc);
            |c| Ok((c.thread_changed()?, None))
        }
        R::RunUnterminated => |c| Ok((c.unterminated()?, None)),
        R::TextAlreadyOpen => |c| Ok((c.already_open(T::TextMessageStart, MESSAGE_ID)?, None)),
        R::TextNotOpen => |c| {
            let ts = [T::TextMessageContent, T::TextMessageEnd];
            Ok((c.not_open(&ts, T::TextMessageEnd, MESSAGE_ID)?, None))
        },
        R::ToolAlreadyOpen => |c| Ok((c.already_open(T::ToolCallStart, TOOL_CALL_ID)?, None)),
        R::ToolNotOpen => |c| {
            let ts = [T::ToolCallArgs, T::ToolCallEnd];
            Ok((c.not_open(&ts, T::ToolCallEnd, TOOL_CALL_ID)?, None))
        },
        R::ReasoningAlreadyOpen => |c| {
            let t = if c.flip()? {
                T::ReasoningStart
            } else {
                T::ReasoningMessageStart
            };
            Ok((c.already_open(t, MESSAGE_ID)?, None))
        },
        R::ReasoningNotOpen => |c| {
            let ts = [
                T::ReasoningMessageContent,
                T::ReasoningMessageEnd,
                T::ReasoningEnd,
            ];
            Ok((c.not_open(&ts, T::ReasoningEnd, MESSAGE_ID)?, None))
        },
        R::StepAlreadyOpen => |c| Ok((c.already_open(T::StepStarted, STEP_NAME)?, None)),
        R::StepNotOpen => |c| Ok((c.step_not_open()?, None)),
        R::StatePatchFails => |c| Ok((c.patch_fails()?, None)),
        R::LifecycleAnnounceAfterAttribution => |c| Ok((c.announce_after_attribution()?, None)),
        R::LifecycleAlreadyActive => |c| Ok((c.lifecycle_already_active()?, None)),
        R::LifecycleReusedId => |c| Ok((c.reused_id()?, None)),
        R::LifecycleNotActive => |c| Ok((c.lifecycle_not_active()?, None)),
        R::LifecycleUnknownParent => |c| Ok((c.unknown_parent()?, None)),
        R::LifecycleOpenAtRunFinish => {
            ensure_finished(&mut sc);
            |c| Ok((c.open_at_run_finish()?, None))
        }
        R::OwnershipContinuationDisagrees => |c| Ok((c.continuation_disagrees()?, None)),
        R::OwnershipReopenDisagrees => |c| Ok((c.reopen_disagrees()?, None)),
        R::OwnershipToolCallVsMessage => |c| Ok((c.tool_call_vs_message()?, None)),
        R::OwnershipStepOwner => |c| Ok((c.step_owner()?, None)),
        R::InterruptDuplicateId => {
            ensure_finished(&mut sc);
            |c| Ok((c.duplicate_interrupt_id()?, None))
        }
        R::ChunkAmbiguous => |c| Ok((c.chunk_ambiguous()?, None)),
        R::ChunkNoStream => |c| Ok((c.chunk_no_stream()?, None)),
        R::ChunkMissingName => |c| Ok((c.chunk_missing_name()?, None)),
        R::ChunkOpenerDisagrees => |c| Ok((c.chunk_opener_disagrees()?, None)),
        // The transport rules judge an HTTP exchange (status, headers,
        // framing, timing), which a stream of events cannot carry.
        R::TransportStatus
        | R::TransportContentType
        | R::TransportFraming
        | R::TransportUnterminatedEvent
        | R::TransportEndedEarly
        | R::TransportBuffered
        | R::TransportIdle => return Ok(None),
        // The accept.* obligations: nothing violates them.
        R::AcceptAttributionOnly
        | R::AcceptInterleaved
        | R::AcceptFinishClosesOnlyOwn
        | R::AcceptAfterFinishAttribution
        | R::AcceptParentFinishedFirst
        | R::AcceptUntaggedContinuation
        | R::AcceptToolCallInherits
        | R::AcceptToolResultOwnOwner
        | R::AcceptStepPerOwner
        | R::AcceptStateRunScoped
        | R::AcceptSubagentErrorContinues
        | R::AcceptRunErrorAbandons
        | R::AcceptSuspendedResume
        | R::AcceptSuspendedNoInterrupts
        | R::AcceptInterruptAttribution
        | R::AcceptEmptyId
        | R::AcceptUnknownFields
        | R::AcceptLateRunError
        | R::AcceptUnknownTypeDropped
        | R::AcceptUnknownMemberStripped => return Ok(None),
    };
    let r = render(&sc);
    let v = r.values();
    let mut c = Ctx { u, r, v, n: 0 };
    let (index, projection) = edit(&mut c)?;
    Ok(Some(Mutated {
        events: c.v,
        lines: None,
        rule,
        index,
        projection,
    }))
}

/// Makes sure some run ends with `RUN_FINISHED` (turning the last run's
/// `RUN_ERROR` into a normal finish; an errored run has nothing suspended).
fn ensure_finished(sc: &mut Scenario) {
    if sc.runs.iter().all(|r| matches!(r.end, RunEnd::Error(_)))
        && let Some(last) = sc.runs.last_mut()
    {
        last.end = RunEnd::Finished;
    }
}

/// Makes sure some run ends with `RUN_ERROR` (the last run: nothing
/// resumes after it; what it suspended now just finishes).
fn ensure_error(sc: &mut Scenario, u: &mut Unstructured) -> Result<()> {
    if sc.runs.iter().any(|r| matches!(r.end, RunEnd::Error(_))) {
        return Ok(());
    }
    if let Some(last) = sc.runs.last_mut() {
        last.end = RunEnd::Error(u.int_in_range(0..=32)?);
        for inv in &mut last.invocations {
            if matches!(inv.end, InvEnd::Suspended(_)) {
                inv.end = InvEnd::Success(0);
            }
        }
    }
    Ok(())
}

fn bare_invocation(id: String) -> Invocation {
    Invocation {
        id,
        name: "zz-agent".into(),
        parent: None,
        announced: true,
        resumed: false,
        ops: Vec::new(),
        end: InvEnd::Success(0),
        late_close: false,
    }
}

fn bare_run(run_id: &str) -> RunPlan {
    RunPlan {
        run_id: run_id.into(),
        input: None,
        parent: Vec::new(),
        invocations: Vec::new(),
        end: RunEnd::Finished,
        outcome_style: 0,
        sched_seed: 1,
        parallelism: 1,
    }
}

/// Index of `SUBAGENT_STARTED(id)` in run `k`, after position `from`.
fn announce_index(r: &Rendered, k: usize, id: &str) -> Option<usize> {
    let span = r.runs.get(k)?;
    (span.start..span.end).find(|&i| {
        r.events[i].kind() == T::SubagentStarted
            && r.events[i].subagent_run_id.as_deref() == Some(id)
    })
}

/// `lifecycle.resumed-not-suspended`: a later run announces an id an
/// earlier run announced and closed `finished` or `errored`.
fn resumed_not_suspended(mut sc: Scenario, u: &mut Unstructured) -> Result<Mutated> {
    // Candidates: (earlier run, invocation) closed finished/errored in a run
    // that ran every script to its end.
    let mut cands = Vec::new();
    for (a, run) in sc.runs.iter().enumerate() {
        if a + 1 < sc.runs.len() && !matches!(run.end, RunEnd::Error(_)) {
            for inv in run
                .invocations
                .iter()
                .filter(|i| i.announced && !matches!(i.end, InvEnd::Suspended(_)))
            {
                cands.push((a, inv.id.clone()));
            }
        }
    }
    let (a, id) = if !cands.is_empty() && u.ratio(3, 4)? {
        cands[u.choose_index(cands.len())?].clone()
    } else {
        // A run before all others announcing and closing a fresh id.
        let mut pre = bare_run("run-zz-pre");
        let mut inv = bare_invocation("zz-again".into());
        inv.end = if u.arbitrary()? {
            InvEnd::Error
        } else {
            InvEnd::Success(u.int_in_range(0..=3)?)
        };
        pre.invocations.push(inv);
        sc.runs.insert(0, pre);
        if sc.runs.len() == 1 {
            sc.runs.push(bare_run("run-zz-post"));
        }
        (0, "zz-again".to_string())
    };
    let b = u.int_in_range(a + 1..=sc.runs.len() - 1)?;
    let mut again = bare_invocation(id.clone());
    again.end = InvEnd::Success(0);
    let run = &mut sc.runs[b];
    if let RunEnd::Error(n) = &mut run.end {
        // The error comes after every script, the re-announcement included.
        *n = u32::MAX;
    }
    run.invocations.insert(0, again);
    // Invocation indexes shifted by one.
    for inv in run.invocations.iter_mut().skip(1) {
        inv.parent = inv.parent.map(|p| p + 1);
    }
    let r = render(&sc);
    let index = announce_index(&r, b, &id).ok_or(arbitrary::Error::IncorrectFormat)?;
    Ok(Mutated {
        events: r.values(),
        lines: None,
        rule: RuleId::LifecycleResumedNotSuspended,
        index,
        projection: Some(r.projection),
    })
}

/// The interrupt warnings, as scenario edits.
fn interrupt_warning(rule: RuleId, mut sc: Scenario, u: &mut Unstructured) -> Result<Mutated> {
    let k = if rule == RuleId::InterruptRunNotInterrupted {
        // A run finishing without an interrupt outcome, in which some
        // invocation ends suspended (with no interrupt ids of its own).
        let finished: Vec<usize> = (0..sc.runs.len())
            .filter(|&k| sc.runs[k].end == RunEnd::Finished)
            .collect();
        let k = if finished.is_empty() {
            let k = sc.runs.len() - 1;
            sc.runs[k].end = RunEnd::Finished;
            k
        } else {
            finished[u.choose_index(finished.len())?]
        };
        let ids = if u.arbitrary()? {
            None
        } else {
            Some(Vec::new())
        };
        let run = &mut sc.runs[k];
        let cands: Vec<usize> = (0..run.invocations.len())
            .filter(|&i| run.invocations[i].announced && run.invocations[i].end != InvEnd::Error)
            .collect();
        if cands.is_empty() || u.ratio(1, 4)? {
            let mut inv = bare_invocation("zz-paused".into());
            inv.end = InvEnd::Suspended(ids);
            run.invocations.push(inv);
        } else {
            let i = cands[u.choose_index(cands.len())?];
            run.invocations[i].end = InvEnd::Suspended(ids);
        }
        k
    } else {
        // An interrupt run (the last run becomes one if none is).
        let ints: Vec<usize> = (0..sc.runs.len())
            .filter(|&k| matches!(sc.runs[k].end, RunEnd::Interrupt(_)))
            .collect();
        let k = if ints.is_empty() {
            let k = sc.runs.len() - 1;
            sc.runs[k].end = RunEnd::Interrupt(vec![Interrupt {
                id: "zz-int-parent".into(),
                tag: None,
            }]);
            k
        } else {
            ints[u.choose_index(ints.len())?]
        };
        let run = &mut sc.runs[k];
        // The invocation that lists the faulty id: one already suspended with
        // ids, else a new one.
        let cands: Vec<usize> = (0..run.invocations.len())
            .filter(
                |&i| matches!(&run.invocations[i].end, InvEnd::Suspended(Some(l)) if !l.is_empty()),
            )
            .collect();
        let i = if cands.is_empty() || u.ratio(1, 4)? {
            let id = "zz-paused".to_string();
            let mut inv = bare_invocation(id.clone());
            inv.end = InvEnd::Suspended(Some(vec!["zz-int-own".into()]));
            run.invocations.push(inv);
            if let RunEnd::Interrupt(list) = &mut run.end {
                list.push(Interrupt {
                    id: "zz-int-own".into(),
                    tag: Some(id),
                });
            }
            run.invocations.len() - 1
        } else {
            cands[u.choose_index(cands.len())?]
        };
        let owner = run.invocations[i].id.clone();
        if rule == RuleId::InterruptUnknownId {
            if let InvEnd::Suspended(Some(l)) = &mut run.invocations[i].end {
                let at = u.int_in_range(0..=l.len())?;
                l.insert(at, "zz-ghost".into());
            }
        } else {
            let listed = match &run.invocations[i].end {
                InvEnd::Suspended(Some(l)) => l.clone(),
                _ => Vec::new(),
            };
            let victim = listed[u.choose_index(listed.len())?].clone();
            let other: Option<String> = if u.arbitrary()? {
                None
            } else {
                Some(format!("{owner}-zz-other"))
            };
            if let RunEnd::Interrupt(list) = &mut run.end {
                for it in list.iter_mut().filter(|it| it.id == victim) {
                    it.tag = other.clone();
                }
            }
        }
        k
    };
    let r = render(&sc);
    let index = r.runs[k].end;
    Ok(Mutated {
        events: r.values(),
        lines: None,
        rule,
        index,
        projection: Some(r.projection),
    })
}

struct Ctx<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    r: Rendered,
    v: Vec<Value>,
    n: u32,
}

fn ev(t: T) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("type".into(), Value::from(t.as_str()));
    m
}

/// An event value: its type and the given fields (wire names from
/// [`crate::names`] or the table), any of which may break the schema.
macro_rules! event {
    ($t:expr $(, $k:expr => $v:expr)* $(,)?) => {{
        #[allow(unused_mut)]
        let mut m = ev($t);
        $( m.insert($k.into(), json!($v)); )*
        Value::Object(m)
    }};
}

impl Ctx<'_, '_> {
    fn fresh(&mut self, p: &str) -> String {
        self.n += 1;
        format!("zz-{p}{}", self.n)
    }

    fn flip(&mut self) -> Result<bool> {
        self.u.arbitrary()
    }

    fn pick<X: Clone>(&mut self, xs: &[X]) -> Result<X> {
        Ok(xs[self.u.choose_index(xs.len())?].clone())
    }

    /// One of `xs` on a coin flip, else none (then the mutator makes a
    /// site of its own): most mutators edit an existing event or add one.
    fn site<X: Clone>(&mut self, xs: &[X]) -> Result<Option<X>> {
        Ok(match self.pick_opt(xs)? {
            Some(x) if self.flip()? => Some(x),
            _ => None,
        })
    }

    /// Repeats event `i` right after itself; the repeat's index.
    fn repeat(&mut self, i: usize) -> usize {
        let copy = self.v[i].clone();
        self.insert(i + 1, vec![copy]);
        i + 1
    }

    /// Drops event `i`, a close: its run ends with what `i` closed still
    /// open; the index of that end.
    fn drop_close(&mut self, i: usize) -> usize {
        let end = self.r.runs[self.run_of(i)].end;
        self.v.remove(i);
        end - 1
    }

    fn pick_opt<X: Clone>(&mut self, xs: &[X]) -> Result<Option<X>> {
        if xs.is_empty() {
            Ok(None)
        } else {
            self.pick(xs).map(Some)
        }
    }

    fn kind(&self, i: usize) -> T {
        self.r.events[i].kind()
    }

    fn meta(&self, i: usize) -> Meta {
        self.r.meta[i]
    }

    /// The owner (tag) of what event `i` touches.
    fn owner(&self, i: usize) -> Option<String> {
        let m = self.meta(i);
        self.r.runs[m.run as usize].tags[m.actor as usize].clone()
    }

    fn run_of(&self, i: usize) -> usize {
        self.meta(i).run as usize
    }

    /// Original indexes (before any edit) matching a predicate.
    fn find(&self, pred: impl Fn(&Ev, Meta) -> bool) -> Vec<usize> {
        (0..self.r.events.len())
            .filter(|&i| pred(&self.r.events[i], self.r.meta[i]))
            .collect()
    }

    /// A position inside some run's body where a new event may go: after
    /// its `RUN_STARTED`, up to (before) its end event.
    fn body_pos(&mut self, kinds: &[EndKind]) -> Result<(usize, usize)> {
        let runs: Vec<usize> = (0..self.r.runs.len())
            .filter(|&k| kinds.contains(&self.r.runs[k].kind))
            .collect();
        let k = self.pick(&runs)?;
        let s = &self.r.runs[k];
        let (lo, hi) = (s.start + 1, s.end);
        let mut p = self.u.int_in_range(lo..=hi)?;
        // Never inside the parent's chunk stream: an untagged event there
        // would close the parent's lane under its remaining chunks, a
        // violation of its own between the edit and the expected index.
        while p < hi && self.r.meta[p].chunk == 2 && self.r.meta[p].actor == 0 {
            p += 1;
        }
        Ok((k, p))
    }

    fn any_body_pos(&mut self) -> Result<usize> {
        Ok(self
            .body_pos(&[EndKind::Finished, EndKind::Interrupt, EndKind::Error])?
            .1)
    }

    fn insert(&mut self, p: usize, items: Vec<Value>) {
        self.v.splice(p..p, items);
    }

    /// A tag that differs from `owner` (never absent: an untagged event
    /// never disagrees).
    fn other_tag(&mut self, run: usize, owner: &Option<String>) -> Result<String> {
        let mut others: Vec<String> = self.r.runs[run]
            .tags
            .iter()
            .flatten()
            .filter(|t| Some(*t) != owner.as_ref())
            .cloned()
            .collect();
        others.push(self.fresh("intruder"));
        self.pick(&others)
    }

    // ---- schema ----

    fn not_json(&mut self) -> Result<usize> {
        let p = self.u.int_in_range(0..=self.v.len())?;
        let item = self.pick(&[
            json!(42),
            json!("TEXT_MESSAGE_START"),
            json!([{"type": "RUN_STARTED"}]),
            Value::Null,
            json!(true),
        ])?;
        self.insert(p, vec![item]);
        Ok(p)
    }

    /// A string `type` naming no event type (an absent or non-string one
    /// is `schema.missing-field` / `schema.wrong-type`): on an event of the
    /// stream, or on a new one.
    fn unknown_type(&mut self) -> Result<usize> {
        let bad = self.pick(&["THINKING_START", "run_started", "TEXT_MESSAGE_BEGIN", ""])?;
        if self.flip()? {
            let i = self.u.choose_index(self.v.len())?;
            self.v[i]["type"] = json!(bad);
            Ok(i)
        } else {
            let p = self.u.int_in_range(0..=self.v.len())?;
            let mut item = event!(T::Custom, "name" => "n", "value" => 1);
            item["type"] = json!(bad);
            self.insert(p, vec![item]);
            Ok(p)
        }
    }

    /// A string outside a closed set of several values: a text message's
    /// `role` (optional: stripped, the message reads as `assistant`), or a
    /// state delta whose one operation's `op` is unknown (that operation is
    /// dropped: an empty patch, which applies).
    fn unknown_member(&mut self) -> Result<usize> {
        let bad = self.pick(&["narrator", "Assistant", "critic"])?;
        let starts = self.find(|e, _| e.kind() == T::TextMessageStart);
        if let Some(i) = self.site(&starts)? {
            self.v[i]["role"] = json!(bad);
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        let op = self.pick(&["merge", "increment", "ADD"])?;
        self.insert(
            p,
            vec![event!(T::StateDelta, DELTA => json!([{"op": op, "path": "/zz", "value": 1}]))],
        );
        Ok(p)
    }

    fn missing_field(&mut self) -> Result<usize> {
        let mut sites: Vec<(usize, Vec<String>)> = Vec::new();
        for (i, e) in self.r.events.iter().enumerate() {
            // The type's required fields from the wire table (the
            // `subagentRunId` of `SUBAGENT_*` apart: the catalogue does not
            // order its absence against `lifecycle.*`), and required
            // members of nested shapes.
            let mut fields: Vec<String> = e
                .kind()
                .fields()
                .iter()
                .filter(|f| f.required)
                .map(|f| f.key.to_owned())
                .collect();
            match e.kind() {
                T::StateDelta => fields.push(format!("{DELTA}/0/path")),
                T::RunFinished
                    if matches!(e.run_outcome.as_deref(), Some(RunOutcome::Interrupt(_))) =>
                {
                    fields.push(format!("{OUTCOME}/interrupts/0/reason"));
                    fields.push(format!("{OUTCOME}/interrupts/0/id"));
                }
                _ => {}
            }
            if !fields.is_empty() {
                sites.push((i, fields));
            }
        }
        let (i, fields) = self.pick(&sites)?;
        let f = self.pick(&fields)?;
        let mut parts: Vec<&str> = f.split('/').collect();
        let last = parts.pop().unwrap_or(&f);
        let mut at = &mut self.v[i];
        for p in parts {
            at = match p.parse::<usize>() {
                Ok(n) => &mut at[n],
                Err(_) => &mut at[p],
            };
        }
        if let Value::Object(m) = at {
            m.remove(last);
        }
        Ok(i)
    }

    fn wrong_type(&mut self) -> Result<usize> {
        let choice = self.u.int_in_range(0..=6u8)?;
        let typed = |t: T| move |e: &Ev, _m: Meta| e.kind() == t;
        let (t, field, val): (T, &str, Value) = match choice {
            1 => (T::TextMessageContent, "delta", json!(7)),
            // Not a string: a role outside its set is an unknown member,
            // stripped (revision 4).
            2 => (T::TextMessageStart, "role", json!(["assistant"])),
            3 => (T::StepStarted, STEP_NAME, json!(1)),
            4 => (T::StateDelta, "delta", json!({"op": "add"})),
            5 => (T::ActivitySnapshot, "content", json!("not an object")),
            6 => (T::RunError, "usage", json!([{"inputTokens": -1}])),
            _ => (T::RunStarted, "timestamp", json!("later")),
        };
        let sites = self.find(typed(t));
        let i = match self.pick_opt(&sites)? {
            Some(i) => i,
            None => {
                let i = self.u.choose_index(self.v.len())?;
                self.v[i]["timestamp"] = json!("later");
                return Ok(i);
            }
        };
        self.v[i][field] = val;
        Ok(i)
    }

    fn null_optional(&mut self) -> Result<usize> {
        let i = self.u.choose_index(self.v.len())?;
        let field = match self.kind(i) {
            T::TextMessageStart => "name",
            T::ToolCallStart => PARENT_MESSAGE_ID,
            T::RunError => "code",
            T::RunFinished => "result",
            T::SubagentStarted => "description",
            T::Raw => "source",
            // `timestamp`, `metadata`, `rawEvent` (COMMON's order is
            // timestamp, rawEvent, metadata).
            _ => self.pick(&[COMMON[0].key, COMMON[2].key, COMMON[1].key])?,
        };
        self.v[i][field] = Value::Null;
        Ok(i)
    }

    fn attribution_null(&mut self) -> Result<usize> {
        let sites = self.find(|e, _| e.kind().is_attributable() && !e.kind().is_lifecycle());
        if let Some(i) = self.site(&sites)? {
            self.v[i][SUBAGENT_RUN_ID] = Value::Null;
            return Ok(i);
        }
        let ints =
            self.find(|e, _| matches!(e.run_outcome.as_deref(), Some(RunOutcome::Interrupt(_))));
        if let Some(i) = self.site(&ints)? {
            self.v[i]["outcome"]["interrupts"][0][SUBAGENT_RUN_ID] = Value::Null;
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        self.insert(
            p,
            vec![event!(T::Custom, "name" => "n", "value" => 1, SUBAGENT_RUN_ID => Value::Null)],
        );
        Ok(p)
    }

    fn not_attributable(&mut self) -> Result<usize> {
        let sites =
            self.find(|e, _| matches!(e.kind(), T::RunStarted | T::RunFinished | T::RunError));
        let i = self.pick(&sites)?;
        let run = self.run_of(i);
        let mut tags: Vec<String> = self.r.runs[run].tags.iter().flatten().cloned().collect();
        tags.push(String::new());
        tags.push("zz-nobody".into());
        let t = self.pick(&tags)?;
        self.v[i][SUBAGENT_RUN_ID] = json!(t);
        Ok(i)
    }

    fn missing_id(&mut self) -> Result<usize> {
        let sites = self.find(|e, _| e.kind().is_lifecycle());
        if let Some(i) = self.site(&sites)? {
            if let Value::Object(m) = &mut self.v[i] {
                m.remove(SUBAGENT_RUN_ID);
            }
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        self.insert(p, vec![event!(T::SubagentStarted, "name" => "zz-agent")]);
        Ok(p)
    }

    /// A `SUBAGENT_FINISHED` with this outcome: an existing one altered, or
    /// a fresh invocation announced and finished.
    fn outcome(&mut self, outcome: Value) -> Result<usize> {
        let sites = self.find(|e, _| e.kind() == T::SubagentFinished);
        if let Some(i) = self.site(&sites)? {
            self.v[i]["outcome"] = outcome;
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("s");
        self.insert(
            p,
            vec![
                event!(T::SubagentStarted, SUBAGENT_RUN_ID => id, "name" => "zz-agent"),
                event!(T::SubagentFinished, SUBAGENT_RUN_ID => id, "outcome" => outcome),
            ],
        );
        Ok(p + 1)
    }

    // ---- runs ----

    fn first_event(&mut self) -> Result<usize> {
        let item = self.pick(&[
            event!(T::Custom, "name" => "early", "value" => 1),
            event!(T::Raw, "event" => json!({"early": true})),
            event!(T::StepStarted, STEP_NAME => "plan"),
            event!(T::TextMessageStart, MESSAGE_ID => "zz-early"),
        ])?;
        self.insert(0, vec![item]);
        Ok(0)
    }

    fn already_active_run(&mut self) -> Result<usize> {
        let p = self.any_body_pos()?;
        let thread = self.r.events[0].thread_id.clone().unwrap_or_default();
        self.insert(
            p,
            vec![event!(T::RunStarted, THREAD_ID => thread, RUN_ID => "zz-run")],
        );
        Ok(p)
    }

    /// The index of some run's `RUN_FINISHED` (the mutator made sure one
    /// run finishes: [`ensure_finished`]).
    fn finished_end(&mut self) -> Result<usize> {
        let ends: Vec<usize> = self
            .r
            .runs
            .iter()
            .filter(|r| r.kind != EndKind::Error)
            .map(|r| r.end)
            .collect();
        self.pick(&ends)
    }

    /// A `RUN_FINISHED` whose `runId` or `threadId` is not its run's.
    fn ids_disagree(&mut self) -> Result<usize> {
        let i = self.finished_end()?;
        let key = if self.flip()? { RUN_ID } else { THREAD_ID };
        let id = self.fresh("other");
        self.v[i][key] = json!(id);
        Ok(i)
    }

    /// A new run, after a finished one, on another thread.
    fn thread_changed(&mut self) -> Result<usize> {
        let ends: Vec<usize> = self.r.runs.iter().map(|r| r.end).collect();
        let p = self.pick(&ends)? + 1;
        let thread = self.fresh("thread");
        let run = self.fresh("run");
        self.insert(
            p,
            vec![event!(T::RunStarted, THREAD_ID => thread, RUN_ID => run)],
        );
        Ok(p)
    }

    /// A `RUN_FINISHED` interrupt outcome with two interrupts of one id:
    /// its first interrupt repeated, or a new outcome of two (a run that
    /// did not end interrupted suspended nothing, so no interrupt warning
    /// follows).
    fn duplicate_interrupt_id(&mut self) -> Result<usize> {
        let i = self.finished_end()?;
        let first = self.v[i]
            .get(OUTCOME)
            .and_then(|o| o.get("interrupts"))
            .and_then(|a| a.get(0))
            .cloned();
        match first {
            Some(interrupt) => {
                if let Some(list) = self.v[i][OUTCOME]["interrupts"].as_array_mut() {
                    list.push(interrupt);
                }
            }
            None => {
                let id = self.fresh("int");
                self.v[i][OUTCOME] = json!({"type": "interrupt", "interrupts": [
                    {"id": id, "reason": "approval"},
                    {"id": id, "reason": "approval"},
                ]});
            }
        }
        Ok(i)
    }

    fn after_end(&mut self, kind: EndKind) -> Result<usize> {
        let kinds: &[EndKind] = if kind == EndKind::Error {
            &[EndKind::Error]
        } else {
            &[EndKind::Finished, EndKind::Interrupt]
        };
        let runs: Vec<usize> = (0..self.r.runs.len())
            .filter(|&k| kinds.contains(&self.r.runs[k].kind))
            .collect();
        let k = self.pick(&runs)?;
        let p = self.r.runs[k].end + 1;
        let thread = self.r.events[0].thread_id.clone().unwrap_or_default();
        let mut items = vec![
            event!(T::Custom, "name" => "late", "value" => 1),
            event!(T::TextMessageStart, MESSAGE_ID => "zz-late"),
            event!(T::SubagentStarted, SUBAGENT_RUN_ID => "zz-late", "name" => "zz-agent"),
        ];
        if kind == EndKind::Error {
            items.push(event!(T::RunError, "message" => "again"));
            items.push(event!(T::RunFinished, THREAD_ID => thread, RUN_ID => "zz-run"));
        }
        let item = self.pick(&items)?;
        self.insert(p, vec![item]);
        Ok(p)
    }

    fn open_entities(&mut self) -> Result<usize> {
        // An explicit close whose entity nothing reopens later in the run.
        let closes = self.find(|e, m| {
            m.chunk == 0
                && matches!(
                    e.kind(),
                    T::TextMessageEnd
                        | T::ToolCallEnd
                        | T::ReasoningEnd
                        | T::ReasoningMessageEnd
                        | T::StepFinished
                )
        });
        let closes: Vec<usize> = closes
            .into_iter()
            .filter(|&i| self.r.runs[self.run_of(i)].kind != EndKind::Error)
            .filter(|&i| {
                let e = &self.r.events[i];
                let end = self.r.runs[self.run_of(i)].end;
                match e.kind() {
                    T::StepFinished => !(i + 1..end).any(|j| {
                        let f = &self.r.events[j];
                        f.kind() == T::StepStarted
                            && f.step_name == e.step_name
                            && f.subagent_run_id == e.subagent_run_id
                    }),
                    // A later result would name the call while it is open
                    // (`tool.result-before-end`, before the run's end).
                    T::ToolCallEnd => !(i + 1..end).any(|j| {
                        let f = &self.r.events[j];
                        f.kind() == T::ToolCallResult && f.tool_call_id == e.tool_call_id
                    }),
                    _ => true,
                }
            })
            .collect();
        if let Some(i) = self.site(&closes)? {
            return Ok(self.drop_close(i));
        }
        let (k, p) = self.body_pos(&[EndKind::Finished, EndKind::Interrupt])?;
        let end = self.r.runs[k].end;
        let id = self.fresh("open");
        let item = self.pick(&[
            event!(T::TextMessageStart, MESSAGE_ID => id),
            event!(T::ToolCallStart, TOOL_CALL_ID => id, TOOL_CALL_NAME => "search"),
            event!(T::ReasoningStart, MESSAGE_ID => id),
            event!(T::ReasoningMessageStart, MESSAGE_ID => id, "role" => "reasoning"),
            event!(T::StepStarted, STEP_NAME => id),
        ])?;
        self.insert(p, vec![item]);
        Ok(end + 1)
    }

    fn unterminated(&mut self) -> Result<usize> {
        let k = self.u.choose_index(self.r.runs.len())?;
        let s = &self.r.runs[k];
        let (lo, hi) = (s.start + 1, s.end);
        let cut = self.u.int_in_range(lo..=hi)?;
        self.v.truncate(cut);
        Ok(cut)
    }

    // ---- entities ----

    /// A second opener for an id while it is open: a copy of an explicit
    /// opener right after it, or a fresh pair.
    fn already_open(&mut self, t: T, key: &str) -> Result<usize> {
        let sites = self.find(|e, m| e.kind() == t && m.chunk == 0);
        if let Some(i) = self.site(&sites)? {
            return Ok(self.repeat(i));
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("dup");
        let mut e = Value::Object(ev(t));
        e[key] = json!(id);
        match t {
            T::ToolCallStart => e[TOOL_CALL_NAME] = json!("search"),
            T::ReasoningMessageStart => e["role"] = json!("reasoning"),
            _ => {}
        }
        if self.flip()? {
            e[SUBAGENT_RUN_ID] = json!(self.fresh("s"));
        }
        self.insert(p, vec![e.clone(), e]);
        Ok(p + 1)
    }

    /// A continuation or close of an id that is not open: a fresh id, or a
    /// second explicit close right after the first.
    fn not_open(&mut self, ts: &[T], close: T, key: &str) -> Result<usize> {
        let sites = self.find(|e, m| e.kind() == close && m.chunk == 0);
        if let Some(i) = self.site(&sites)? {
            return Ok(self.repeat(i));
        }
        let t = self.pick(ts)?;
        let p = self.any_body_pos()?;
        let mut e = Value::Object(ev(t));
        e[key] = json!(self.fresh("gone"));
        if matches!(
            t,
            T::TextMessageContent | T::ToolCallArgs | T::ReasoningMessageContent
        ) {
            e["delta"] = json!("x");
        }
        self.insert(p, vec![e]);
        Ok(p)
    }

    fn step_not_open(&mut self) -> Result<usize> {
        let p = self.any_body_pos()?;
        let mut e = event!(T::StepFinished, STEP_NAME => self.fresh("step"));
        if self.flip()? {
            e[SUBAGENT_RUN_ID] = json!(self.fresh("s"));
        }
        self.insert(p, vec![e]);
        Ok(p)
    }

    fn patch_fails(&mut self) -> Result<usize> {
        let p = self.any_body_pos()?;
        let patch = self.pick(&[
            json!([{"op": "remove", "path": "/zz-missing"}]),
            json!([{"op": "replace", "path": "/zz-missing", "value": 1}]),
            json!([{"op": "test", "path": "/zz-missing", "value": 1}]),
            json!([{"op": "add", "path": "/zz-missing/deep", "value": 1}]),
            json!([{"op": "add", "path": "/zz-ok", "value": 1}, {"op": "move", "from": "/zz-missing", "path": "/zz-b"}]),
            json!([{"op": "copy", "from": "/zz-missing", "path": "/zz-c"}]),
        ])?;
        let mut e = event!(T::StateDelta, "delta" => patch);
        if self.flip()? {
            let tags: Vec<String> = self
                .r
                .runs
                .iter()
                .flat_map(|r| r.tags.iter().flatten().cloned())
                .collect();
            if let Some(t) = self.pick_opt(&tags)? {
                e[SUBAGENT_RUN_ID] = json!(t);
            }
        }
        self.insert(p, vec![e]);
        Ok(p)
    }

    // ---- lifecycle ----

    fn announce_after_attribution(&mut self) -> Result<usize> {
        // An attribution-only id of some run, announced after its first event.
        let mut sites = Vec::new();
        for (k, span) in self.r.runs.iter().enumerate() {
            for t in span.tags.iter().flatten() {
                let announced = (span.start..=span.end).any(|i| {
                    self.r.events[i].kind() == T::SubagentStarted
                        && self.r.events[i].subagent_run_id.as_deref() == Some(t.as_str())
                });
                if announced {
                    continue;
                }
                let first = (span.start..span.end).find(|&i| {
                    let e = &self.r.events[i];
                    e.kind().is_attributable()
                        && !e.kind().is_lifecycle()
                        && e.subagent_run_id.as_deref() == Some(t.as_str())
                });
                if let Some(i) = first {
                    sites.push((k, t.clone(), i));
                }
            }
        }
        if let Some((k, t, i)) = self.site(&sites)? {
            let q = self.u.int_in_range(i + 1..=self.r.runs[k].end)?;
            self.insert(
                q,
                vec![event!(T::SubagentStarted, SUBAGENT_RUN_ID => t, "name" => "late")],
            );
            return Ok(q);
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("s");
        let msg = self.fresh("m");
        let first = self.pick(&[
            event!(T::Custom, "name" => "n", "value" => 1, SUBAGENT_RUN_ID => id),
            event!(T::StepStarted, STEP_NAME => "plan", SUBAGENT_RUN_ID => id),
            event!(T::Raw, "event" => json!({"n": 1}), SUBAGENT_RUN_ID => id),
            event!(T::TextMessageStart, MESSAGE_ID => msg, SUBAGENT_RUN_ID => id),
        ])?;
        self.insert(
            p,
            vec![
                first,
                event!(T::SubagentStarted, SUBAGENT_RUN_ID => id, "name" => "late"),
            ],
        );
        Ok(p + 1)
    }

    fn lifecycle_already_active(&mut self) -> Result<usize> {
        let sites = self.find(|e, _| e.kind() == T::SubagentStarted);
        if let Some(i) = self.site(&sites)? {
            return Ok(self.repeat(i));
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("s");
        let s = event!(T::SubagentStarted, SUBAGENT_RUN_ID => id, "name" => "zz-agent");
        self.insert(p, vec![s.clone(), s]);
        Ok(p + 1)
    }

    fn reused_id(&mut self) -> Result<usize> {
        let ends = self.find(|e, _| matches!(e.kind(), T::SubagentFinished | T::SubagentError));
        if let Some(i) = self.site(&ends)? {
            let k = self.run_of(i);
            let id = self.r.events[i].subagent_run_id.clone().unwrap_or_default();
            if let Some(a) = announce_index(&self.r, k, &id) {
                let copy = self.v[a].clone();
                let q = self.u.int_in_range(i + 1..=self.r.runs[k].end)?;
                self.insert(q, vec![copy]);
                return Ok(q);
            }
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("s");
        let s = event!(T::SubagentStarted, SUBAGENT_RUN_ID => id, "name" => "zz-agent");
        let f = if self.flip()? {
            event!(T::SubagentFinished, SUBAGENT_RUN_ID => id)
        } else {
            event!(T::SubagentError, SUBAGENT_RUN_ID => id, "message" => "failed")
        };
        self.insert(p, vec![s.clone(), f, s]);
        Ok(p + 2)
    }

    fn lifecycle_not_active(&mut self) -> Result<usize> {
        let ends = self.find(|e, _| matches!(e.kind(), T::SubagentFinished | T::SubagentError));
        if let Some(i) = self.site(&ends)? {
            return Ok(self.repeat(i));
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("s");
        let e = if self.flip()? {
            event!(T::SubagentFinished, SUBAGENT_RUN_ID => id)
        } else {
            event!(T::SubagentError, SUBAGENT_RUN_ID => id, "message" => "failed")
        };
        self.insert(p, vec![e]);
        Ok(p)
    }

    fn unknown_parent(&mut self) -> Result<usize> {
        let with_parent =
            self.find(|e, _| e.kind() == T::SubagentStarted && e.parent_subagent_run_id.is_some());
        if let Some(i) = self.site(&with_parent)? {
            self.v[i][PARENT_SUBAGENT_RUN_ID] = json!("zz-ghost");
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("s");
        self.insert(p, vec![event!(T::SubagentStarted, SUBAGENT_RUN_ID => id, "name" => "zz-agent", PARENT_SUBAGENT_RUN_ID => "zz-ghost")]);
        Ok(p)
    }

    fn open_at_run_finish(&mut self) -> Result<usize> {
        let ends = self.find(|e, _| matches!(e.kind(), T::SubagentFinished | T::SubagentError));
        let ends: Vec<usize> = ends
            .into_iter()
            .filter(|&i| self.r.runs[self.run_of(i)].kind != EndKind::Error)
            .collect();
        if let Some(i) = self.site(&ends)? {
            return Ok(self.drop_close(i));
        }
        let (k, p) = self.body_pos(&[EndKind::Finished, EndKind::Interrupt])?;
        let end = self.r.runs[k].end;
        let id = self.fresh("s");
        self.insert(
            p,
            vec![event!(T::SubagentStarted, SUBAGENT_RUN_ID => id, "name" => "zz-agent")],
        );
        Ok(end + 1)
    }

    // ---- ownership ----

    fn continuation_disagrees(&mut self) -> Result<usize> {
        let sites = self.find(|e, m| {
            m.chunk == 0
                && matches!(
                    e.kind(),
                    T::TextMessageContent
                        | T::TextMessageEnd
                        | T::ToolCallArgs
                        | T::ToolCallEnd
                        | T::ReasoningMessageContent
                        | T::ReasoningMessageEnd
                        | T::ReasoningEnd
                        | T::ActivityDelta
                        | T::ReasoningEncryptedValue
                )
        });
        if let Some(i) = self.site(&sites)? {
            let owner = self.owner(i);
            let t = self.other_tag(self.run_of(i), &owner)?;
            self.v[i][SUBAGENT_RUN_ID] = json!(t);
            return Ok(i);
        }
        // A fresh pair in every continuation form (`continuation::Form`):
        // an opener, then the continuation under another owner.
        let p = self.any_body_pos()?;
        let form = self.pick(&Form::ALL)?;
        let id = self.fresh("m");
        let (opener, tag) = if self.flip()? {
            let tag = if self.flip()? {
                String::new()
            } else {
                self.fresh("intruder")
            };
            (None, tag)
        } else {
            let opener = self.fresh("s");
            let tag = if self.flip()? {
                String::new()
            } else {
                format!("{opener}x")
            };
            (Some(opener), tag)
        };
        let delta = self.flip()?;
        let pair = form.pair(&id, opener.as_deref(), &tag, delta);
        self.insert(p, pair.to_vec());
        Ok(p + 1)
    }

    fn reopen_disagrees(&mut self) -> Result<usize> {
        let ends = self.find(|e, m| m.chunk == 0 && e.kind() == T::TextMessageEnd);
        if let Some(i) = self.site(&ends)? {
            let k = self.run_of(i);
            let owner = self.owner(i);
            let t = self.other_tag(k, &owner)?;
            let id = self.r.events[i].message_id.clone().unwrap_or_default();
            let q = self.u.int_in_range(i + 1..=self.r.runs[k].end)?;
            self.insert(
                q,
                vec![event!(T::TextMessageStart, MESSAGE_ID => id, SUBAGENT_RUN_ID => t)],
            );
            return Ok(q);
        }
        let p = self.any_body_pos()?;
        let id = self.fresh("m");
        let (open, close, again) = match self.u.int_in_range(0..=2u8)? {
            0 => (
                event!(T::ToolCallStart, TOOL_CALL_ID => id, TOOL_CALL_NAME => "search"),
                event!(T::ToolCallEnd, TOOL_CALL_ID => id),
                event!(T::ToolCallStart, TOOL_CALL_ID => id, TOOL_CALL_NAME => "search", SUBAGENT_RUN_ID => "zz-other"),
            ),
            1 => (
                event!(T::ReasoningStart, MESSAGE_ID => id, SUBAGENT_RUN_ID => "zz-one"),
                event!(T::ReasoningEnd, MESSAGE_ID => id),
                event!(T::ReasoningMessageStart, MESSAGE_ID => id, "role" => "reasoning", SUBAGENT_RUN_ID => ""),
            ),
            _ => (
                event!(T::TextMessageStart, MESSAGE_ID => id),
                event!(T::TextMessageEnd, MESSAGE_ID => id),
                event!(T::TextMessageStart, MESSAGE_ID => id, SUBAGENT_RUN_ID => "zz-other"),
            ),
        };
        self.insert(p, vec![open, close, again]);
        Ok(p + 2)
    }

    fn tool_call_vs_message(&mut self) -> Result<usize> {
        let openers = self.find(|e, m| {
            m.chunk != 2 && matches!(e.kind(), T::TextMessageStart | T::TextMessageChunk)
        });
        if let Some(i) = self.site(&openers)? {
            let k = self.run_of(i);
            let owner = self.owner(i);
            let t = self.other_tag(k, &owner)?;
            let msg = self.r.events[i].message_id.clone().unwrap_or_default();
            let q = self.u.int_in_range(i + 1..=self.r.runs[k].end)?;
            let call = self.fresh("tc");
            self.insert(
                q,
                vec![event!(T::ToolCallStart, TOOL_CALL_ID => call, TOOL_CALL_NAME => "search", PARENT_MESSAGE_ID => msg, SUBAGENT_RUN_ID => t)],
            );
            return Ok(q);
        }
        let p = self.any_body_pos()?;
        let msg = self.fresh("m");
        let call = self.fresh("tc");
        let mut open = event!(T::TextMessageStart, MESSAGE_ID => msg);
        let mut tag = self.fresh("s");
        if self.flip()? {
            open[SUBAGENT_RUN_ID] = json!("");
            tag = "zz-other".into();
        }
        self.insert(
            p,
            vec![open, event!(T::ToolCallStart, TOOL_CALL_ID => call, TOOL_CALL_NAME => "search", PARENT_MESSAGE_ID => msg, SUBAGENT_RUN_ID => tag)],
        );
        Ok(p + 1)
    }

    fn step_owner(&mut self) -> Result<usize> {
        let sites = self.find(|e, _| e.kind() == T::StepFinished);
        if let Some(i) = self.site(&sites)? {
            self.v[i][SUBAGENT_RUN_ID] = json!(self.fresh("intruder"));
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        let name = self.fresh("step");
        let tag = self.fresh("s");
        let (a, b) = if self.flip()? {
            (None, Some(tag))
        } else {
            (Some(tag), None)
        };
        let mut s = event!(T::StepStarted, STEP_NAME => name);
        let mut f = event!(T::StepFinished, STEP_NAME => name);
        if let Some(a) = a {
            s[SUBAGENT_RUN_ID] = json!(a);
        }
        if let Some(b) = b {
            f[SUBAGENT_RUN_ID] = json!(b);
        }
        self.insert(p, vec![s, f]);
        Ok(p + 1)
    }

    // ---- chunks ----

    fn chunk_opener(&mut self, t: T, id: &str, tag: Option<&str>) -> Value {
        let mut e = Value::Object(ev(t));
        match t {
            T::ToolCallChunk => {
                e[TOOL_CALL_ID] = json!(id);
                e[TOOL_CALL_NAME] = json!("search");
            }
            _ => e[MESSAGE_ID] = json!(id),
        }
        e["delta"] = json!("x");
        if let Some(tag) = tag {
            e[SUBAGENT_RUN_ID] = json!(tag);
        }
        e
    }

    fn chunk_kind(&mut self) -> Result<T> {
        self.pick(&[
            T::TextMessageChunk,
            T::ToolCallChunk,
            T::ReasoningMessageChunk,
        ])
    }

    fn chunk_ambiguous(&mut self) -> Result<usize> {
        let t = self.chunk_kind()?;
        let p = self.any_body_pos()?;
        let (a, b) = (self.fresh("lane"), self.fresh("lane"));
        let (ia, ib) = (self.fresh("c"), self.fresh("c"));
        let mut items = vec![event!(T::Custom, "name" => "close-parent-lane", "value" => 1)];
        items.push(self.chunk_opener(t, &ia, Some(&a)));
        items.push(self.chunk_opener(t, &ib, Some(&b)));
        let mut bare = Value::Object(ev(t));
        bare["delta"] = json!("y");
        items.push(bare);
        self.insert(p, items);
        Ok(p + 3)
    }

    fn chunk_no_stream(&mut self) -> Result<usize> {
        let t = self.chunk_kind()?;
        let p = self.any_body_pos()?;
        let mut e = Value::Object(ev(t));
        e["delta"] = json!("x");
        if t == T::ToolCallChunk && self.flip()? {
            e[TOOL_CALL_NAME] = json!("search");
        }
        e[SUBAGENT_RUN_ID] = json!(self.fresh("lane"));
        self.insert(p, vec![e]);
        Ok(p)
    }

    fn chunk_missing_name(&mut self) -> Result<usize> {
        let p = self.any_body_pos()?;
        let mut e = event!(T::ToolCallChunk, TOOL_CALL_ID => self.fresh("tc"), "delta" => "{");
        if self.flip()? {
            e[SUBAGENT_RUN_ID] = json!(self.fresh("lane"));
        }
        self.insert(p, vec![e]);
        Ok(p)
    }

    fn chunk_opener_disagrees(&mut self) -> Result<usize> {
        let sites = self.find(|e, m| {
            m.chunk == 2 && matches!(e.kind(), T::TextMessageChunk | T::ToolCallChunk)
        });
        if let Some(i) = self.site(&sites)? {
            if self.kind(i) == T::TextMessageChunk {
                self.v[i]["name"] = json!("zz-name");
            } else if self.flip()? {
                self.v[i][TOOL_CALL_NAME] = json!("zz-other");
            } else {
                self.v[i][PARENT_MESSAGE_ID] = json!("zz-msg");
            }
            return Ok(i);
        }
        let p = self.any_body_pos()?;
        let lane = self.fresh("lane");
        let id = self.fresh("c");
        let t = if self.flip()? {
            T::TextMessageChunk
        } else {
            T::ToolCallChunk
        };
        let open = self.chunk_opener(t, &id, Some(&lane));
        let mut next = Value::Object(ev(t));
        next["delta"] = json!("y");
        next[SUBAGENT_RUN_ID] = json!(lane);
        if t == T::TextMessageChunk {
            next["role"] = json!(self.pick(&["user", "system", "developer"])?);
        } else {
            next[TOOL_CALL_NAME] = json!("fetch");
        }
        self.insert(p, vec![open, next]);
        Ok(p + 1)
    }
}
