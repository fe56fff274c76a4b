//! Target `invalid_streams`: a scenario and a violation rule drawn from the
//! bytes, the scenario rendered and mutated by that rule's mutator
//! (`agui_gen::invalid_stream`). The reference's first violation (any
//! severity, stream order) must be exactly the mutator's rule at the
//! mutator's index; the verdict must be the generator's; and when the
//! stream is still accepted (a warning rule), the projections must agree.
//! The stream as JSON Lines through the checker's fast path gives the same
//! report. A stream only raw text can carry (a duplicate key, a lone
//! surrogate: `lines`) is checked as those bytes, and the fast path is
//! compared with reading every line as a parsed item.

use agui_model::Checker;
use agui_model::projection::same;
use arbitrary::{Result, Unstructured};

/// The target body.
pub fn run(u: &mut Unstructured) -> Result<()> {
    let g = agui_gen::invalid_stream(u)?;
    let (Some(rule), Some(index)) = (g.rule, g.index) else {
        panic!("the generator's invalid stream names no rule or index: {g:?}");
    };
    let report = g.check(Checker::new());
    match &g.lines {
        None => crate::check_bytes::same_as_fast_path(&g.events, &report),
        Some(_) => {
            let slow = crate::check_bytes::check_items(&crate::check_bytes::read_items(&g.jsonl()));
            assert_eq!(
                report.violations, slow.violations,
                "the fast path reports other violations on a generated `lines` stream"
            );
            assert_eq!(report.projection, slow.projection);
        }
    }
    let first = report.first().map(|v| (v.rule, v.index));
    assert_eq!(
        first,
        Some((rule, index)),
        "the reference's first violation is not the mutator's\nreference: {:?}\nstream:\n{}",
        report.first(),
        String::from_utf8_lossy(&g.jsonl())
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
