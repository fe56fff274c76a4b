//! The reference against `AGUI_CONFORM_IMPL` (a no-op without it)
//! (`agui_fuzz::differential`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Running out of input is not a finding.
    let _ = agui_fuzz::differential::run(&mut arbitrary::Unstructured::new(data));
});
