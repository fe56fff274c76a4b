//! agui-fuzz: the bodies of the fuzz targets of `fuzz/`, as plain library
//! functions, so `cargo test` runs the same logic on seeded inputs and on
//! the committed seed corpora (`fuzz/seeds/`) where no nightly toolchain (or libFuzzer)
//! exists. Each target panics when an invariant breaks; libFuzzer turns
//! the panic into a crash with a reproducer file.
//!
//! Targets (one module each):
//! - [`check_bytes`]: bytes → stream reader → reference checker;
//! - [`roundtrip`]: a typed event serialized and parsed again;
//! - [`valid_streams`]: generated valid streams are accepted with the
//!   generator's projection;
//! - [`invalid_streams`]: a mutated stream's first violation is the
//!   mutator's rule and index;
//! - [`differential`]: the reference against a subprocess implementation
//!   named by `AGUI_CONFORM_IMPL`;
//! - [`patch`]: random JSON Patch documents through the checker's applier,
//!   against `json_patch`;
//! - [`body_decode`]: a live check's HTTP body decoding (framing, content
//!   coding) with a fault anywhere, cut into reads anywhere;
//! - [`fast_scan`]: the fast path's scanner (its block string search)
//!   against serde_json.

pub mod body_decode;
pub mod check_bytes;
pub mod differential;
pub mod event_value;
pub mod fast_scan;
pub mod invalid_streams;
pub mod patch;
pub mod roundtrip;
pub mod seeded;
pub mod seeds;
pub mod streams;
pub mod valid_streams;

/// The targets, by the names `fuzz/` and the seed corpora use.
pub const TARGETS: &[&str] = &[
    "check_bytes",
    "valid_streams",
    "invalid_streams",
    "differential",
    "roundtrip",
    "patch",
    "body_decode",
    "fast_scan",
];

/// Runs the target `name` on one input, as its fuzz target does. Unknown
/// names are an error; an input that runs out of bytes is not.
pub fn run_target(name: &str, data: &[u8]) -> Result<(), String> {
    let mut u = arbitrary::Unstructured::new(data);
    let r = match name {
        "check_bytes" => {
            check_bytes::run(data);
            Ok(())
        }
        "valid_streams" => valid_streams::run(&mut u),
        "invalid_streams" => invalid_streams::run(&mut u),
        "differential" => differential::run(&mut u),
        "roundtrip" => roundtrip::run(&mut u),
        "patch" => {
            patch::run(data);
            Ok(())
        }
        "body_decode" => {
            body_decode::run(data);
            Ok(())
        }
        "fast_scan" => {
            fast_scan::run(data);
            Ok(())
        }
        _ => return Err(format!("no fuzz target `{name}`")),
    };
    // Running out of input (or an input the target cannot use) is not a
    // finding: libFuzzer just moves on.
    let _ = r;
    Ok(())
}
