#!/usr/bin/env bash
# Are two builds' reports byte for byte the same? `check` (JSON and text,
# with and without the projection and the parse-ahead thread) by binary A
# and binary B over: the bench streams (agui-bench write / write-runs), the
# corpus (corpus/), an official corpus directory if given, and N invalid
# streams of `gen --invalid all`. Prints each difference and the counts;
# exits 1 if any differ.
# Usage: scripts/same-outputs.sh A B [OFFICIAL_DIR] [N]   (N default 1000)
# Example (the build before against this one):
#   git worktree add /tmp/before main && (cd /tmp/before && cargo build --release -p agui-conform)
#   scripts/same-outputs.sh /tmp/before/target/release/agui-conform target/release/agui-conform
set -uo pipefail
cd "$(dirname "$0")/.."
a="$1" b="$2" official="${3:-}" n="${4:-1000}"
bench=target/release/agui-bench
[ -x "$bench" ] || cargo build --release -q -p agui-bench
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
same=0 differ=0
run() { "$1" check "${@:2}" 2>&1; echo "exit $?"; }
compare() { # ARGS... FILE
  if [ "$(run "$a" "$@")" == "$(run "$b" "$@")" ]; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "differ: check $*"
  fi
}
"$bench" --events 100000 --invocations 64 --runs 1 write "$tmp/single-100k.jsonl" >/dev/null
"$bench" --events 1000000 --invocations 64 --runs 1 write "$tmp/single-1m.jsonl" >/dev/null
"$bench" write-runs "$tmp/runs.jsonl" >/dev/null
for f in "$tmp"/single-100k.jsonl "$tmp"/single-1m.jsonl "$tmp"/runs.jsonl; do
  for args in "--format json" "--format json --no-projection" \
    "--format json --parse-ahead off" "--format text"; do
    # shellcheck disable=SC2086
    compare $args "$f"
  done
done
"$a" gen --invalid all --count "$n" --seed 4600 --out "$tmp/gen" >/dev/null
while IFS= read -r f; do
  compare --format json "$f"
done < <(find corpus ${official:+"$official"} "$tmp/gen" -type f \( -name '*.json' -o -name '*.jsonl' \) ! -name '*.schema.json' | sort)
echo "same: $same, differ: $differ"
[ "$differ" -eq 0 ]
