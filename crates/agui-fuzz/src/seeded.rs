//! Seeded inputs for running the targets under `cargo test`, where no
//! fuzzer drives them: deterministic random bytes, and byte-level mutations
//! of seed files (what libFuzzer's simplest mutators do), so the tests
//! reach past the first parse error.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// SplitMix64 from the generator crate: the same deterministic sequence
/// spreads test inputs here.
pub use agui_gen::rng::SplitMix as Rng;

/// JSON's structural characters: the first tokens [`mutate`] splices in,
/// and the first entries of the fuzz dictionary ([`crate::seeds`]).
pub const STRUCTURAL: [&[u8]; 6] = [b"{", b"}", b"[", b"]", b",", b":"];

/// Tokens spliced in by [`mutate`] after [`STRUCTURAL`]: the rest of the
/// grammar of the input format.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"\n",
    b"\r\n",
    b"null",
    b"true",
    b"0",
    b"-1",
    b"1.5",
    b"1e400",
    b"\"type\"",
    b"\"RUN_STARTED\"",
    b"\"RUN_FINISHED\"",
    b"\"TEXT_MESSAGE_START\"",
    b"\"SUBAGENT_STARTED\"",
    b"\"subagentRunId\"",
    b"\"messageId\"",
    b"\"m1\"",
    b"\"s1\"",
    b"\xEF\xBB\xBF",
    b"\xFF",
    b"\\u0000",
];

/// Applies 1–4 random edits to `input`: flip a byte, insert a token,
/// delete a range, duplicate or drop a line.
pub fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(out.len() + 1);
                let n = rng.below(STRUCTURAL.len() + TOKENS.len());
                let t = STRUCTURAL.iter().chain(TOKENS).nth(n).copied();
                let t = t.unwrap_or_default();
                out.splice(i..i, t.iter().copied());
            }
            2 if !out.is_empty() => {
                let i = rng.below(out.len());
                let j = (i + 1 + rng.below(16)).min(out.len());
                out.drain(i..j);
            }
            _ => {
                let mut lines: Vec<Vec<u8>> =
                    out.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
                let i = rng.below(lines.len());
                if rng.below(2) == 0 {
                    let line = lines[i].clone();
                    lines.insert(rng.below(lines.len() + 1), line);
                } else if lines.len() > 1 {
                    lines.remove(i);
                }
                out = lines.join(&b'\n');
            }
        }
    }
    out
}

/// The files of a seed-corpus directory, sorted by name (empty when the
/// directory does not exist).
pub fn corpus_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    match fs::read_dir(dir) {
        Ok(rd) => {
            for entry in rd {
                let p = entry?.path();
                if p.is_file() {
                    files.push(p);
                }
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    files.sort();
    Ok(files)
}
