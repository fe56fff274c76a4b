#!/usr/bin/env bash
# The whole performance table of docs/performance.md in one command (release builds,
# whole processes, medians and medians of per-round ratios):
#   1. 1,000,001 events, one run, 64 interleaved subagents: serde_json
#      Value floor, borrowed parse alone, check --no-projection, check
#      (projection on), the TypeScript pipeline as a whole process and
#      in-process, the ratios, peak RSS;
#   2. the same shape at 10,000,001 events (linearity 1 M -> 10 M);
#   3. the many-run workload (1,000 runs x 1,000 events): projection on
#      against off;
#   4. file-parallel check (8 files) with -j 1 against -j N;
#   5. one 1 M file read with the parse-ahead thread against one thread.
# Usage: scripts/perf-table.sh [ROUNDS]   (default 5; the 10 M rows use 3)
# Run it on a quiet machine: the load average is printed before and after,
# and the core-to-core round trip before each section (the two-thread
# figures swing with it on hosts whose vCPUs share a cache only at times).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
cargo build --release -q -p agui-conform -p agui-bench
bench=target/release/agui-bench
conform=target/release/agui-conform
echo "# Performance table ($(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD))"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB; $(node --version 2>/dev/null || echo 'no node')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## 1. 1,000,001 events, 1 run, 64 subagents ($rounds rounds)"
"$bench" cores
"$bench" --events 1000001 --invocations 64 --runs 1 --repeat "$rounds"
echo
echo "## 2. 10,000,001 events, 1 run, 64 subagents (3 rounds; no TypeScript)"
"$bench" cores
"$bench" --events 10000001 --invocations 64 --runs 1 --repeat 3 --no-peer
echo
echo "## 3. many-run workload: 1,000 runs x 1,000 events ($rounds rounds)"
"$bench" cores
"$bench" projection --runs 1000 --per-run 1000 --rounds "$rounds"
echo
echo "## 4. file-parallel check: 8 files of 125 runs x 1,000 events ($rounds rounds)"
"$bench" cores
"$bench" files --files 8 --runs 125 --rounds "$rounds"
echo
echo "## 5. parse-ahead thread on one 1,000,001-event file ($rounds rounds)"
"$bench" cores
"$bench" --events 1000001 --invocations 64 --runs 1 ahead --rounds "$rounds"
echo
"$bench" cores
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
