#!/usr/bin/env bash
# The binary away from the checkout: copies agui-conform into an empty
# folder, hides the checkout from it (a private mount namespace with an
# empty tmpfs mounted over the repository), and runs there what a vendor
# runs: `run`, `run --suite quick`, `suites`, `corpus export` (and checks the
# export). Every corpus case must come out of the binary: the counts are
# compared with the repository's corpus, counted before it is hidden.
# Usage: scripts/ci-anywhere.sh [BINARY]   (default: target/debug/agui-conform)
# Needs root, or unprivileged user namespaces (`unshare -r`).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$repo/target/debug/agui-conform}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/agui-conform"
cases="$(find "$repo/corpus" -name '*.json' ! -name '*.schema.json' | wc -l)"
ns=(unshare --mount --propagation private)
[ "$(id -u)" -eq 0 ] || ns+=(--map-root-user)

"${ns[@]}" bash -euo pipefail -c '
  repo="$1" work="$2" cases="$3"
  mount -t tmpfs -o size=1m agui-hidden "$repo"
  if [ -e "$repo/Cargo.toml" ]; then echo "the checkout is still visible" >&2; exit 1; fi
  cd "$work"
  echo "-- in $work, $repo hidden"
  ./agui-conform run --no-progress | tail -n 1
  ./agui-conform run --suite quick --no-progress --format json > quick.jsonl
  corpus_run="$(grep "\"id\":\"" quick.jsonl | grep -vc "\"id\":\"gen/")"
  gen_run="$(grep -c "\"id\":\"gen/" quick.jsonl)"
  echo "run --suite quick: $corpus_run corpus cases, $gen_run generated"
  if [ "$corpus_run" -ne "$cases" ]; then
    echo "expected the $cases corpus cases of the repository, ran $corpus_run" >&2; exit 1
  fi
  ./agui-conform suites
  ./agui-conform corpus export corpus-out
  ./agui-conform corpus check corpus-out | tail -n 1
  grep -q "^corpus corpus-out: $cases cases, $cases passed" <(./agui-conform corpus check corpus-out)
' _ "$repo" "$work" "$cases"
