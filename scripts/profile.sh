#!/usr/bin/env bash
# Instructions per event of `check`, counted by callgrind (deterministic:
# the measure to compare builds on a shared machine), and peak memory by
# /usr/bin/time -v, on the single-run bench stream.
# Usage: scripts/profile.sh [EVENTS] [BINARY]   (default 100000, the release build)
# Needs valgrind (apt-get install valgrind). The per-function table:
#   callgrind_annotate --inclusive=yes "$tmp/cg.out" | head -60
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-100000}"
conform="${2:-target/release/agui-conform}"
cargo build --release -q -p agui-conform -p agui-bench
tmp="${TMPDIR:-/tmp}/agui-profile"
mkdir -p "$tmp"
target/release/agui-bench --events "$events" --invocations 64 --runs 1 write "$tmp/stream.jsonl" >/dev/null
for args in "--format json" "--format json --no-projection"; do
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
    "$conform" check $args --parse-ahead off "$tmp/stream.jsonl" >/dev/null 2>"$tmp/cg.err"
  ir="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err")"
  # shellcheck disable=SC2086
  rss="$(/usr/bin/time -f %M "$conform" check $args "$tmp/stream.jsonl" 2>&1 >/dev/null | tail -1)"
  echo "check $args: $ir instructions, $((ir / events)) per event (--parse-ahead off); peak RSS ${rss} KB"
done
