//! A typed event serialized and parsed again is equal
//! (`agui_fuzz::roundtrip`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Running out of input is not a finding.
    let _ = agui_fuzz::roundtrip::run(&mut arbitrary::Unstructured::new(data));
});
