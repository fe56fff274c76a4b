//! A live check's HTTP body decoding, with a fault anywhere and reads cut
//! anywhere (`agui_fuzz::body_decode`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| agui_fuzz::body_decode::run(data));
