//! The ownership rules (docs/rules.md "Ownership rules"): an entity's
//! owner on record (its opener's effective owner, which outlives the
//! close) against the tags of what continues, reopens or closes it. The
//! one lookup of an open part ([`Checker::continue_open`]) also judges
//! the entity rules' `*.not-open`.

use super::Checker;
use super::book::{Kind, Owner, Part, RunBook};
use super::entities::part_rules;
use super::names::Name;
use crate::events::EventType;
use crate::rules::RuleId;

impl Checker {
    /// `ownership.continuation-disagrees`: a tagged event continuing an
    /// entity whose owner on record differs. An untagged one always agrees.
    pub(super) fn continuation(
        &mut self,
        i: usize,
        kind: Kind,
        id: &str,
        tag: Option<&str>,
        ty: EventType,
    ) {
        if tag.is_none() {
            return;
        }
        self.judged(super::area::OWNERSHIP);
        let msg = self
            .book
            .owner(kind, id)
            .and_then(|rec| disagreement(&self.book, rec, id, tag, ty));
        if let Some(msg) = msg {
            let at = self.book.recorded_at(kind, id);
            self.report_related(RuleId::OwnershipContinuationDisagrees, i, msg, at);
        }
    }

    /// [`Checker::continuation`] of an open part, or `*.not-open`: the
    /// continuations and ends of text messages, tool calls and reasoning,
    /// with one lookup. `close` ends the part. The id's name when it was
    /// open.
    pub(super) fn continue_open(
        &mut self,
        i: usize,
        part: Part,
        id: &str,
        tag: Option<&str>,
        ty: EventType,
        close: bool,
    ) -> Option<Name> {
        // `*.not-open`, and the owner on record against a tag (an untagged
        // continuation always agrees: no ownership rule judges it).
        self.judged(if tag.is_some() {
            super::area::ENTITIES | super::area::OWNERSHIP
        } else {
            super::area::ENTITIES
        });
        let rec = if close {
            self.book.close(part, id)
        } else {
            self.book.open_owner(part, id)
        };
        let Some((rec, attributed, name)) = rec else {
            let (_, rule, what) = part_rules(part);
            self.report(rule, i, format!("{ty} for {what}{id:?}, which is not open"));
            // The owner outlives the entity's close (docs/rules.md, ownership):
            // a continuation after the close is still judged against it.
            self.continuation(i, part.kind(), id, tag, ty);
            return None;
        };
        let agrees = tag.is_some() && self.book.is_tag(rec, tag);
        self.tag_attributed = agrees && attributed;
        // Judged once: a tag that agrees needs no second look.
        if !agrees && let Some(msg) = disagreement(&self.book, rec, id, tag, ty) {
            let at = self.book.recorded_at(part.kind(), id);
            self.report_related(RuleId::OwnershipContinuationDisagrees, i, msg, at);
        }
        Some(name)
    }

    /// `ownership.reopen-disagrees`: an opener of an id on record while
    /// nothing of it is open, whose effective owner differs from the record.
    pub(super) fn reopen(
        &mut self,
        i: usize,
        kind: Kind,
        id: &str,
        effective: Option<Owner>,
        ty: EventType,
    ) {
        let Some(eff) = effective else { return };
        self.judged(super::area::OWNERSHIP);
        if let Some(rec) = self.book.owner(kind, id)
            && rec != eff
        {
            let (rec, eff) = (self.book.who(rec), self.book.who(eff));
            let at = self.book.recorded_at(kind, id);
            self.report_related(
                RuleId::OwnershipReopenDisagrees,
                i,
                format!("{ty} reopens {id:?} as {eff}, but {id:?} is on record as {rec}'s"),
                at,
            );
        }
    }

    /// `REASONING_ENCRYPTED_VALUE` at `i` for `id`: a continuation of the
    /// entity its `subtype` names (a message id on record as a text
    /// message is one; any other message is reasoning).
    pub(super) fn encrypted_value(
        &mut self,
        i: usize,
        subtype: Option<&str>,
        id: &str,
        tag: Option<&str>,
        ty: EventType,
    ) {
        let kind = match subtype {
            Some("tool-call") => Some(Kind::Tool),
            Some("message") if self.book.owner(Kind::Text, id).is_some() => Some(Kind::Text),
            Some("message") => Some(Kind::Reasoning),
            _ => None,
        };
        if let Some(kind) = kind {
            self.continuation(i, kind, id, tag, ty);
        }
    }

    /// `ownership.tool-call-vs-message`: the `TOOL_CALL_START` of `id` at
    /// `i`, tagged `t`, names the parent message `m`, on record as `po`'s.
    pub(super) fn tool_call_vs_message(&mut self, i: usize, id: &str, t: &str, m: &str, po: Owner) {
        self.judged(super::area::OWNERSHIP);
        if self.book.is_tag(po, Some(t)) {
            return;
        }
        let po = self.book.who(po);
        let at = self.book.recorded_at(Kind::Text, m);
        self.report_related(
            RuleId::OwnershipToolCallVsMessage,
            i,
            format!("TOOL_CALL_START {id:?} carries subagentRunId {t:?}, but its message {m:?} belongs to {po}"),
            at,
        );
    }

    /// `ownership.step-owner`: the `STEP_FINISHED` of `name` at `i` by
    /// `owner`, who does not hold it; `holders` do, and it closes the first
    /// one's step, opened at `closed_at`.
    pub(super) fn step_owner(
        &mut self,
        i: usize,
        name: &str,
        owner: Owner,
        holders: &[(Owner, u32)],
        closed_at: usize,
    ) {
        let names: Vec<String> = holders.iter().map(|&(o, _)| self.book.who(o)).collect();
        let msg = format!(
            "STEP_FINISHED {name:?} by {}, but only {} has it open",
            self.book.who(owner),
            names.join(" and ")
        );
        self.report_related(RuleId::OwnershipStepOwner, i, msg, Some(closed_at));
    }
}

/// The `ownership.continuation-disagrees` message, if a continuation of
/// `id` tagged `tag` disagrees with `rec`, its owner on record (an untagged
/// one always agrees).
fn disagreement(
    book: &RunBook,
    rec: Owner,
    id: &str,
    tag: Option<&str>,
    ty: EventType,
) -> Option<String> {
    let t = tag?;
    if book.is_tag(rec, Some(t)) {
        return None;
    }
    let rec = book.who(rec);
    Some(format!(
        "{ty} for {id:?} carries subagentRunId {t:?}, but {id:?} was opened by {rec}"
    ))
}

#[cfg(test)]
mod tests {
    //! One detection test (exact rule and index) and one near miss per
    //! ownership rule, written by hand from docs/rules.md and the draft.

    use crate::RuleId as R;
    use crate::checker::streams::*;

    #[test]
    fn ownership_continuation_disagrees() {
        expect_first(
            &[
                run_started(),
                text_start("m1", Some("s1")),
                text_content("m1", "x", Some("s2")),
            ],
            R::OwnershipContinuationDisagrees,
            2,
        );
        // An untagged opener recorded the parent.
        expect_first(
            &[
                run_started(),
                tool_start("c1", "f", None, None),
                tool_end("c1", Some("s1")),
            ],
            R::OwnershipContinuationDisagrees,
            2,
        );
    }
    #[test]
    fn ownership_continuation_near_miss_untagged() {
        expect_clean(&[
            run_started(),
            text_start("m1", Some("s1")),
            text_content("m1", "x", None),
            text_end("m1", None),
            run_finished(),
        ]);
    }
    #[test]
    fn ownership_encrypted_value_continues_closed_entity() {
        expect_first(
            &[
                run_started(),
                tool_start("c1", "f", None, Some("s1")),
                tool_end("c1", None),
                encrypted("tool-call", "c1", Some("s2")),
            ],
            R::OwnershipContinuationDisagrees,
            3,
        );
        expect_clean(&[
            run_started(),
            reasoning_msg_start("r1", Some("s1")),
            reasoning_msg_end("r1", None),
            encrypted("message", "r1", Some("s1")),
            run_finished(),
        ]);
    }
    #[test]
    fn ownership_reopen_disagrees() {
        expect_first(
            &[
                run_started(),
                text_start("m1", Some("s1")),
                text_end("m1", None),
                text_start("m1", Some("s2")),
            ],
            R::OwnershipReopenDisagrees,
            3,
        );
    }
    #[test]
    fn ownership_reopen_near_miss_untagged_reopen_agrees() {
        expect_clean(&[
            run_started(),
            text_start("m1", Some("s1")),
            text_end("m1", None),
            text_start("m1", None),
            text_end("m1", None),
            run_finished(),
        ]);
    }
    #[test]
    fn ownership_tool_call_vs_message() {
        expect_first(
            &[
                run_started(),
                text_start("m1", Some("s1")),
                tool_start("c1", "f", Some("m1"), Some("s2")),
            ],
            R::OwnershipToolCallVsMessage,
            2,
        );
    }
    #[test]
    fn ownership_tool_call_near_miss_inherits() {
        expect_clean(&[
            run_started(),
            text_start("m1", Some("s1")),
            tool_start("c1", "f", Some("m1"), None),
            tool_args("c1", "{}", Some("s1")),
            tool_end("c1", None),
            text_end("m1", None),
            run_finished(),
        ]);
    }
    #[test]
    fn ownership_step_owner() {
        expect_first(
            &[
                run_started(),
                step_started("plan", Some("s1")),
                step_finished("plan", None),
            ],
            R::OwnershipStepOwner,
            2,
        );
    }
    #[test]
    fn ownership_step_near_miss_per_owner() {
        expect_clean(&[
            run_started(),
            step_started("plan", None),
            step_started("plan", Some("s1")),
            step_finished("plan", None),
            step_finished("plan", Some("s1")),
            run_finished(),
        ]);
    }
}
