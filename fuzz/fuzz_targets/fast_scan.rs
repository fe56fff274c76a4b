//! The fast path's scanner (its block string search) against serde_json
//! (`agui_fuzz::fast_scan`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| agui_fuzz::fast_scan::run(data));
