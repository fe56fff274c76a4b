//! Random JSON Patch documents through the checker's applier, against
//! `json_patch` (`agui_fuzz::patch`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| agui_fuzz::patch::run(data));
