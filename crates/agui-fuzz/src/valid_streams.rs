//! Target `valid_streams`: a scenario drawn from the bytes (with a "swarm"
//! generator config, `agui_gen::valid_stream`) rendered valid. The
//! reference must report no violation at all, and its projection must
//! equal the one the generator built by construction (compared under
//! `docs/projection.md`'s rule, `agui_model::projection::same`). The
//! stream as JSON Lines through the checker's fast path gives the same
//! report.

use agui_model::check_values;
use agui_model::projection::same;
use arbitrary::{Result, Unstructured};

/// The target body.
pub fn run(u: &mut Unstructured) -> Result<()> {
    let g = agui_gen::valid_stream(u)?;
    let report = check_values(&g.events);
    assert!(
        report.violations.is_empty(),
        "the reference finds violations in a generated valid stream: {:?}\nstream:\n{}",
        report.violations,
        crate::differential::to_jsonl(&g.events)
    );
    crate::check_bytes::same_as_fast_path(&g.events, &report);
    let got = report.projection.map(|p| p.to_json());
    match (&got, &g.projection) {
        (Some(got), Some(want)) => assert!(
            same(got, want),
            "projections differ on a generated valid stream\nreference: {got}\ngenerator: {want}\nstream:\n{}",
            crate::differential::to_jsonl(&g.events)
        ),
        _ => panic!(
            "a projection is missing: reference {got:?}, generator {:?}",
            g.projection
        ),
    }
    Ok(())
}
