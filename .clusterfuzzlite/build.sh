#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every cargo-fuzz target of fuzz/, with
# its committed seeds (fuzz/seeds/<target>) as the seed corpus and the
# shared dictionary. The base image's cargo wrapper supplies the sanitizer
# and coverage flags for $SANITIZER.
cd "$SRC/agui-conform"
cargo fuzz build -O --debug-assertions
out_dir=fuzz/target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
    cp "$out_dir/$target" "$OUT/$target"
    if [ -d "fuzz/seeds/$target" ]; then
        (cd "fuzz/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
    cp fuzz/dictionaries/agui.dict "$OUT/$target.dict"
done
