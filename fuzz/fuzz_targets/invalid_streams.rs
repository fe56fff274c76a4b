//! A mutated stream's first violation is the mutator's rule and index
//! (`agui_fuzz::invalid_streams`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Running out of input is not a finding.
    let _ = agui_fuzz::invalid_streams::run(&mut arbitrary::Unstructured::new(data));
});
