//! An input that holds no events (an empty file, blank lines only, `[]`,
//! an SSE body of comments) leaves nothing to judge. No rule covers the
//! empty stream, so no violation is invented; the check is `inconclusive`
//! (exit status 3) with the reason [`MESSAGE`] in every output, never a
//! silent `accept` (docs/decisions.md "An input that holds no events").

use agui_model::Report;

/// The reason, as every output states it.
pub const MESSAGE: &str = "the input holds no events";

/// True when `report` judged nothing: no event, and no error violation or
/// limit notice (which decide the verdict themselves, e.g. an SSE body
/// whose every line was lost to `transport.framing`).
pub fn holds_none(report: &Report) -> bool {
    report.events == 0 && report.counts.errors == 0 && report.counts.limits == 0
}

/// Marks such a report as leaving the stream unjudged, so that its verdict
/// is `inconclusive` wherever it is read (the JSON report, SARIF, JUnit,
/// the page, the exit status). Returns whether it did.
pub fn mark(report: &mut Report) -> bool {
    let none = holds_none(report);
    if none {
        report.counts.unjudged = true;
    }
    none
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::{RuleId, Verdict, Violation};

    #[test]
    fn only_a_report_with_nothing_in_it_is_marked() {
        let mut empty = Report::of(vec![], 0);
        assert!(mark(&mut empty));
        assert_eq!(empty.verdict(), Verdict::Inconclusive);
        // An error with no event decides the verdict itself.
        let mut framing = Report::of(vec![Violation::new(RuleId::TransportFraming, 0, "lost")], 0);
        assert!(!mark(&mut framing));
        assert_eq!(framing.verdict(), Verdict::Reject);
        let mut one = Report::of(vec![], 1);
        assert!(!mark(&mut one));
        assert_eq!(one.verdict(), Verdict::Accept);
    }
}
