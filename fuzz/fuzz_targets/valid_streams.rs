//! A generated valid stream is accepted with the generator's projection
//! (`agui_fuzz::valid_streams`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Running out of input is not a finding.
    let _ = agui_fuzz::valid_streams::run(&mut arbitrary::Unstructured::new(data));
});
