//! Arbitrary bytes as a stream through the reader and the reference checker
//! (`agui_fuzz::check_bytes`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    agui_fuzz::check_bytes::run(data);
});
