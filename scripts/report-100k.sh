#!/usr/bin/env bash
# Measures how fast `report --html` opens a 100,000-event failing case into
# its lanes view, in headless Chromium (Debian package `chromium`).
#
# Builds a suite of one corpus case of 100,000 events: agui-bench's
# generated stream (99,995 events: 4 runs × 32 nested invocations, valid by
# construction, ending with RUN_FINISHED) with five events put before its
# last RUN_FINISHED: invocation `late` starts, the parent opens message
# `late-m`, a TEXT_MESSAGE_CONTENT of it tagged `late` (the must-reject
# ownership.continuation-disagrees: the opener had no tag, so the owner on
# record is the parent), the parent closes it, `late` finishes. The
# expectation is written by construction: reject at index 99,996.
# Runs agui-fake-impl (accepts everything, so the case FAILs) with
# `run --record`, renders `report RECORD --html`, and loads the report with
# `#open=<case id>` N times. The report page writes, once the case's frame
# has drawn, `data-lanes-first-draw-ms` on <body>: milliseconds from the
# report's navigation start to the lanes page's first draw.
#
# Usage: scripts/report-100k.sh [N] [KEEP_DIR]   (N defaults to 7)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-7}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cargo build -q -p agui-conform -p agui-harness -p agui-bench --bins
bin="$root/target/debug"

mkdir -p "$tmp/corpus/big"
"$bin/agui-bench" --events 99995 --invocations 32 --runs 4 --seed 7 \
  write "$tmp/stream.jsonl" >/dev/null
jq -s '{
  id: "big/continuation-disagrees-100k",
  description: "agui-bench synth stream (4 runs x 32 nested invocations), then, before the last RUN_FINISHED, a parent message continued under the tag of invocation late.",
  spec: "A consumer MUST reject a continuation whose tag disagrees with its opener.",
  events: (.[:-1] + [
    {type: "SUBAGENT_STARTED", subagentRunId: "late", name: "late"},
    {type: "TEXT_MESSAGE_START", messageId: "late-m", role: "assistant"},
    {type: "TEXT_MESSAGE_CONTENT", messageId: "late-m", delta: "x", subagentRunId: "late"},
    {type: "TEXT_MESSAGE_END", messageId: "late-m"},
    {type: "SUBAGENT_FINISHED", subagentRunId: "late", outcome: {type: "success"}}
  ] + .[-1:]),
  expect: {verdict: "reject", rule: "ownership.continuation-disagrees", index: (length + 1)}
}' "$tmp/stream.jsonl" >"$tmp/corpus/big/continuation-disagrees-100k.json"
[ "$(jq '.events | length' "$tmp/corpus/big/continuation-disagrees-100k.json")" = 100000 ]
cat >"$tmp/suite.toml" <<'TOML'
description = "One generated 100,000-event corpus case (scripts/report-100k.sh)."
[timeouts]
start-ms = 10000
case-ms = 60000
stop-ms = 1000
[corpus]
dirs = ["corpus"]
TOML

status=0
"$bin/agui-conform" run --suite "$tmp/suite.toml" --impl "$bin/agui-fake-impl accept" \
  --record "$tmp/record.jsonl" >"$tmp/run.txt" || status=$?
[ "$status" = 1 ] || { cat "$tmp/run.txt"; echo "expected the case to FAIL (exit 1), got $status" >&2; exit 1; }
"$bin/agui-conform" report "$tmp/record.jsonl" --html "$tmp/report.html" --rules-href rules.md
printf 'record %s bytes, report %s bytes\n' "$(stat -c %s "$tmp/record.jsonl")" "$(stat -c %s "$tmp/report.html")"

attr() { grep -o "$1=\"[^\"]*\"" | head -1 | cut -d'"' -f2; }
times=()
for i in $(seq "$runs"); do
  dom="$(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --window-size=1400,900 --dump-dom \
    "file://$tmp/report.html#open=big%2Fcontinuation-disagrees-100k" 2>"$tmp/console.txt")"
  if grep -q Uncaught "$tmp/console.txt" || [ -n "$(attr data-error <<<"$dom")" ] \
    || [ -n "$(attr data-lanes-error <<<"$dom")" ]; then
    echo "script error" >&2; exit 1
  fi
  ms="$(attr data-lanes-first-draw-ms <<<"$dom")"
  [ -n "$ms" ] || { echo "the lanes view did not draw" >&2; exit 1; }
  echo "run $i: lanes first draw ${ms} ms after the report's navigation start"
  times+=("$ms")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {
  printf "median %.0f ms, range %.0f-%.0f ms (%d runs)\n", a[int((NR+1)/2)], a[1], a[NR], NR }'
uptime
if [ -n "${2:-}" ]; then mkdir -p "$2" && cp "$tmp/record.jsonl" "$tmp/report.html" "$2/"; fi
