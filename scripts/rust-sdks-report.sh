#!/usr/bin/env bash
# Builds the in-process adapters of the Rust AG-UI SDKs (adapters/rust: ag-ui
# 0.3, ag-ui-client 0.1), runs a suite against each SDK in process, one run
# record each (the format `agui-conform run --record` writes), and the
# official corpus' suites (official-1.0, official-1.1, official-draft) the
# same way (SDK.official-1.1.jsonl, …), and merges them with the reference
# model's records into a side-by-side report (`agui-conform report`, its
# official corpus section from the official records).
#
#   scripts/rust-sdks-report.sh [--smoke] [--suite NAME] [--out DIR]
#                               [--markdown FILE] [--html FILE]
#
#   --smoke          CI: ag-ui alone (no HTTP stack to build): the crate's
#                    formatting and tests, then the `quick` suite, records
#                    only (no report, no agui-conform build)
#   --suite NAME     the suite [default: default; quick with --smoke]
#   --out DIR        where the records go [default: target/rust-sdks]
#   --markdown FILE  the merged report [default: docs/conformance/rust-sdks.md]
#   --html FILE      also the report page [default: none]
#
# Exit status: 0 when every run finished and no adapter ERRORED on a case;
# 1 otherwise (a build failed, a run was incomplete, a case ERRORED). The
# SDKs' FAILs are findings: they go into the records and the report and do
# not change the exit status. Building ag-ui-client needs OpenSSL's headers
# and pkg-config (its reqwest uses native TLS).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# `finished STATUS RECORD`: whether a run wrote a whole record.
source "$root/scripts/consumers.sh"
cd "$root"
smoke=0 suite="" out="target/rust-sdks" markdown="docs/conformance/rust-sdks.md" html=""
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; shift ;;
    --suite) suite="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --markdown) markdown="$2"; shift 2 ;;
    --html) html="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "rust-sdks-report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'rust-sdks-report: %s\n' "$*" >&2; }
export CARGO_INCREMENTAL=0
manifest=adapters/rust/Cargo.toml
if [ "$smoke" = 1 ]; then
  sdks=(ag-ui) features=(--no-default-features --features ag-ui) suite="${suite:-quick}"
else
  sdks=(ag-ui ag-ui-client) features=() suite="${suite:-default}"
fi
if [ "$smoke" = 1 ]; then
  cargo fmt --manifest-path "$manifest" -- --check || { say "adapters/rust is not formatted (cargo fmt)"; exit 1; }
  cargo test -q --manifest-path "$manifest" "${features[@]}" || { say "adapters/rust tests failed"; exit 1; }
fi
cargo build -q --manifest-path "$manifest" "${features[@]}" \
  || { say "building $manifest failed"; exit 1; }
bin="${CARGO_TARGET_DIR:-$root/adapters/rust/target}/debug/agui-rust-sdks"
mkdir -p "$out"
status=0 records=()
for sdk in "${sdks[@]}"; do
  record="$out/$sdk.jsonl"
  "$bin" run --sdk "$sdk" --suite "$suite" --record "$record" >"$out/$sdk.txt"
  code=$?
  tail -n 4 "$out/$sdk.txt" | sed "s/^/$sdk: /" >&2
  # 0: every case passed, 1: some did not (findings); anything else: the
  # run did not finish.
  footer="$(tail -n 1 "$record" 2>/dev/null)"
  if [ "$code" -gt 1 ] || ! grep -q '"ERRORED":0' <<<"$footer" || grep -q '"incomplete"' <<<"$footer"; then
    say "$sdk: the run did not finish cleanly (exit $code; see $out/$sdk.txt)"
    status=1
  fi
  records+=("$record")
done
[ "$smoke" = 1 ] && exit "$status"

# The official corpus' suites against each SDK (the report's official
# corpus section), unless the suite is one of them.
official=()
case "$suite" in official-*) ;; *) official=(official-1.0 official-1.1 official-draft) ;; esac
for sdk in "${sdks[@]}"; do
  for o in "${official[@]+"${official[@]}"}"; do
    record="$out/$sdk.$o.jsonl"
    "$bin" run --sdk "$sdk" --suite "$o" --record "$record" >"$out/$sdk.$o.txt"
    code=$?
    if ! finished "$code" "$record"; then
      say "$sdk: the $o run did not finish (exit $code; see $out/$sdk.$o.txt)"
      status=1
      continue
    fi
    records+=("$record")
  done
done

cargo build -q -p agui-conform || { say "cargo build -p agui-conform failed"; exit 1; }
conform="$root/target/debug/agui-conform"
"$conform" run --suite "$suite" --no-progress --record "$out/reference.jsonl" >/dev/null
[ $? -le 1 ] || { say "the reference run did not finish"; status=1; }
for o in "${official[@]+"${official[@]}"}"; do
  "$conform" run --suite "$o" --no-progress --record "$out/reference.$o.jsonl" >/dev/null
  [ $? -le 1 ] || { say "the reference's $o run did not finish"; status=1; continue; }
  records+=("$out/reference.$o.jsonl")
done
page=()
[ -n "$html" ] && page=(--html "$html")
"$conform" report "$out/reference.jsonl" "${records[@]}" \
  --notes adapters/rust/notes.json --markdown "$markdown" "${page[@]}" \
  || { say "agui-conform report failed"; status=1; }
exit "$status"
