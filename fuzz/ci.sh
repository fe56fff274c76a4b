#!/usr/bin/env bash
# Builds every fuzz target and runs each for N seconds (default 30).
#
#   fuzz/ci.sh [SECONDS]          # or FUZZ_SECONDS=N fuzz/ci.sh
#   FUZZ_TARGETS="check_bytes roundtrip" fuzz/ci.sh   # only these targets
#
# Exit status: 0 when every target ran its time without a finding (or when
# cargo-fuzz is not installed: then nothing runs and it says so); non-zero
# on a build failure or on any finding (crash, invariant broken, timeout,
# out-of-memory). Findings are left under fuzz/artifacts/<target>/.
#
# Works on a stable toolchain: RUSTC_BOOTSTRAP=1 lets it use the sanitizer
# flags cargo-fuzz needs. The differential target runs against
# $AGUI_CONFORM_IMPL when set; otherwise against the example implementation
# (the reference behind the protocol, crates/agui-harness), so the
# subprocess path is fuzzed too. FUZZ_DIFFERENTIAL_IMPL=none leaves it a
# no-op instead.
#
# Build flags (the same ones go to `cargo fuzz run`, so it does not rebuild):
#   FUZZ_SANITIZER=address|none|...   default address, as for a campaign
#   FUZZ_PROFILE=release|dev          default release (cargo-fuzz's default)
# .ci/run sets FUZZ_SANITIZER=none FUZZ_PROFILE=dev: the smoke only asks
# that every target builds and runs briefly without a finding, our code is
# safe Rust (a panic or an abort is still a finding without ASan), and an
# unoptimised build skips cargo-fuzz's one-codegen-unit -O build, the bulk of
# the step's time. The dev build keeps line tables only, as the workspace does.
set -uo pipefail

secs="${1:-${FUZZ_SECONDS:-30}}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz/ci.sh: cargo-fuzz is not installed; no fuzzing run (install it with: cargo install cargo-fuzz)"
    exit 0
fi
export RUSTC_BOOTSTRAP=1

flags=(--sanitizer "${FUZZ_SANITIZER:-address}")
case "${FUZZ_PROFILE:-release}" in
    release) ;;  # cargo-fuzz's default build, as a campaign uses
    dev)
        flags+=(--dev)
        export CARGO_PROFILE_DEV_DEBUG=line-tables-only ;;
    *)
        echo "fuzz/ci.sh: FUZZ_PROFILE must be release or dev, not '${FUZZ_PROFILE}'"
        exit 2 ;;
esac

echo "fuzz/ci.sh: building the fuzz targets (${flags[*]})"
if ! cargo fuzz build "${flags[@]}"; then
    echo "fuzz/ci.sh: FAILED to build the fuzz targets"
    exit 2
fi

if [ -z "${AGUI_CONFORM_IMPL:-}" ] && [ "${FUZZ_DIFFERENTIAL_IMPL:-}" != "none" ]; then
    if cargo build -q -p agui-harness --bin agui-example-impl; then
        export AGUI_CONFORM_IMPL="$root/target/debug/agui-example-impl"
    fi
fi
export AGUI_CONFORM_FUZZ_OUT="$root/fuzz/artifacts/differential-streams"

failed=()
summary=()
logs="$root/fuzz/artifacts/logs"
mkdir -p "$logs"
for t in ${FUZZ_TARGETS:-$(cargo fuzz list)}; do
    # New inputs go to fuzz/corpus/<target> (git-ignored); the committed
    # seeds (fuzz/seeds/<target>) are only read.
    mkdir -p "fuzz/corpus/$t" "fuzz/seeds/$t"
    echo "fuzz/ci.sh: running $t for ${secs}s"
    cargo fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
        -dict=fuzz/dictionaries/agui.dict -print_final_stats=1 \
        >"$logs/$t.log" 2>&1
    status=$?
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$logs/$t.log" | tail -n 1)"
    if [ "$status" -ne 0 ]; then
        failed+=("$t")
        summary+=("$t: FINDING (exit $status), see $logs/$t.log and fuzz/artifacts/$t/")
        tail -n 60 "$logs/$t.log"
    else
        summary+=("$t: ok ${done_line}")
    fi
done

echo
echo "fuzz/ci.sh: summary (${secs}s per target)"
printf '  %s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzz/ci.sh: findings in: ${failed[*]}"
    exit 1
fi
echo "fuzz/ci.sh: no findings"
