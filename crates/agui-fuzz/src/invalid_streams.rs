//! Target `invalid_streams`: a scenario and a violation rule drawn from the
//! bytes, the scenario rendered and mutated by that rule's mutator
//! (`agui_gen::invalid_stream`). The reference's first violation (any
//! severity, stream order) must be exactly the mutator's rule at the
//! mutator's index; the verdict must be the generator's; and when the
//! stream is still accepted (a warning rule), the projections must agree.
//! The stream as JSON Lines through the checker's fast path gives the same
//! report.

use agui_model::check_values;
use agui_model::projection::same;
use arbitrary::{Result, Unstructured};

/// The target body.
pub fn run(u: &mut Unstructured) -> Result<()> {
    let g = agui_gen::invalid_stream(u)?;
    let (Some(rule), Some(index)) = (g.rule, g.index) else {
        panic!("the generator's invalid stream names no rule or index: {g:?}");
    };
    let report = check_values(&g.events);
    crate::check_bytes::same_as_fast_path(&g.events, &report);
    let first = report.first().map(|v| (v.rule, v.index));
    assert_eq!(
        first,
        Some((rule, index)),
        "the reference's first violation is not the mutator's\nreference: {:?}\nstream:\n{}",
        report.first(),
        crate::differential::to_jsonl(&g.events)
    );
    assert_eq!(
        report.verdict(),
        g.verdict,
        "verdicts differ (first violation {rule} at {index})"
    );
    if let (Some(got), Some(want)) = (report.projection.map(|p| p.to_json()), &g.projection) {
        assert!(
            same(&got, want),
            "projections differ on an accepted invalid stream ({rule} at {index})\nreference: {got}\ngenerator: {want}"
        );
    }
    Ok(())
}
