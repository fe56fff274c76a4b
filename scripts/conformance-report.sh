#!/usr/bin/env bash
# Runs a suite against the reference model and each peer adapter
# (adapters/), keeping one run record each (`agui-conform run --record`),
# runs the official corpus' suites (official-1.0, official-1.1,
# official-draft) against each too (KEY.official-1.1.jsonl, …: the report's
# official corpus section), and merges the records into the side-by-side
# conformance report (`agui-conform report`): docs/conformance/README.md and
# index.html.
#
#   scripts/conformance-report.sh [--out FILE] [--html FILE] [--suite NAME]
#                                 [--keep DIR] [--peer SPEC]... [--no-install]
#                                 [--no-build] [--fuzz-records DIR]
#                                 [--in-process SPEC]... [--producer-records DIR]
#                                 [--consumer-records DIR]
#                                 [--command TEXT] [--no-official] [--no-shrink]
#
#   --out FILE    where the Markdown goes [default: docs/conformance/README.md]
#   --html FILE   where the HTML page goes [default: next to --out, index.html]
#   --suite NAME  the suite to run [default: default]
#   --keep DIR    keep the run records (KEY.jsonl) and stderr logs in DIR
#                 [default: a temp folder, removed unless the script fails]
#   --peer SPEC   another implementation, `KEY|LABEL|COMMAND|READY`: READY is a
#                 path that exists once it is installed (may be empty);
#                 repeatable, added after the built-in peers below
#   --no-install  do not run adapters/install.sh first
#   --no-build    use target/debug/agui-conform as it is
#   --fuzz-records DIR  fuzz campaign records (KEY.jsonl, scripts/fuzz-report.sh),
#                 each shown beside the suite run of the peer of that KEY
#   --in-process SPEC  a consumer run in process, not by this script,
#                 `KEY|LABEL` (the Rust SDKs: scripts/fuzz-report.sh runs
#                 them): its records in the --fuzz-records DIR — the suite
#                 run KEY.suite.jsonl, the official suites' KEY.official-*.jsonl,
#                 variant suites' KEY.variant-*.jsonl and the campaign
#                 KEY.jsonl — are its row, as a peer's; repeatable
#   --producer-records DIR  producer run records (*.jsonl, kept by
#                 scripts/producers-report.sh --keep DIR): matrix rows
#   --consumer-records DIR  run records of consumers run by another script
#                 (scripts/community-sdks.sh --out DIR: every *.jsonl, suite
#                 runs and fuzz campaigns): matrix rows, each under the
#                 implementation name its record carries
#   --command TEXT  what the page says regenerates it [default: this command]
#   --no-official  do not run the official suites (no official corpus section)
#   --no-shrink   do not shrink the peers' failing generated cases (the
#                 report then shows each as found; CI's smoke run, where
#                 shrinking took most of the step's time)
#
# Exit status: 0 when every implementation ran to the end; 1 when a peer
# could not be installed or started, a run did not finish (harness error),
# a peer's adapter ERRORED on a case, or an --in-process record is missing;
# 2 for a bad option. The peers' own FAILs are findings, not errors: they
# go into the report and do not change the exit status.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="docs/conformance/README.md" html="" suite="default" keep="" install=1 build=1
shrink=1 fuzz_dir="" producer_dir="" consumer_dir="" fuzz_only=() official=(official-1.0 official-1.1 official-draft) command="scripts/conformance-report.sh${*:+ $*}"
source "$root/scripts/consumers.sh"  # peers=(…), prepare_consumers, finished, run_suite
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --html) html="$2"; shift 2 ;;
    --suite) suite="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --peer) peers+=("$2"); shift 2 ;;
    --no-install) install=0; shift ;;
    --no-build) build=0; shift ;;
    --fuzz-records) fuzz_dir="$2"; shift 2 ;;
    --in-process) fuzz_only+=("$2"); shift 2 ;;
    --producer-records) producer_dir="$2"; shift 2 ;;
    --consumer-records) consumer_dir="$2"; shift 2 ;;
    --command) command="$2"; shift 2 ;;
    --no-official) official=(); shift ;;
    --no-shrink) shrink=0; shift ;;
    -h|--help) sed -n '2,50p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "conformance-report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$html" ] || html="$(dirname "$out")/index.html"
say() { printf 'conformance-report: %s\n' "$*" >&2; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
status=0
# Without --keep the records go to a temp folder: removed when the script
# succeeds, kept and named when it does not (its logs say why).
if [ -z "$keep" ]; then
  trap 'rc=$?; if [ "$rc" = 0 ]; then rm -rf "$work"; else say "records and logs kept in $work"; fi' EXIT
fi

prepare_consumers

records=() labels=() missing=()
for spec in "${peers[@]}"; do
  IFS='|' read -r key label cmd ready <<<"$spec"
  if [ -n "$ready" ] && [ ! -e "$ready" ]; then
    say "$label: not installed ($ready is missing; see adapters/README.md)"
    missing+=(--missing "$label=not installed: $ready is missing (adapters/install.sh failed or was not run)")
    status=1
    continue
  fi
  record="$work/$key.jsonl"
  rm -rf "$work/saved-$key"
  impl=()
  # Failing generated cases are shrunk and kept: the record carries the
  # minimal streams.
  [ -n "$cmd" ] && impl=(--impl "$cmd")
  [ -n "$cmd" ] && [ "$shrink" = 1 ] && impl+=(--save-failures "$work/saved-$key")
  if ! run_suite "$label" "$suite" "$record" "$work/$key" "${impl[@]+"${impl[@]}"}"; then
    missing+=(--missing "$label=the run did not finish (exit $rc): $(tail -n 1 "$work/$key.stderr")")
    status=1
    continue
  fi
  say "$label: $(grep -E '^[0-9]+ cases' "$work/$key.txt" | tail -n 1)"
  if [ -n "$cmd" ] && tail -n 1 "$record" | grep -q '"ERRORED":[1-9]'; then
    say "$label: some case(s) ERRORED (an adapter or harness problem; see the report)"
    status=1
  fi
  records+=("$record")
  labels+=(--label "$label")
  # The official corpus' suites, one record each (the suite run above
  # already holds their cases; these records give the section per version).
  for o in "${official[@]+"${official[@]}"}"; do
    [ "$o" = "$suite" ] && continue
    orecord="$work/$key.$o.jsonl"
    oimpl=()
    [ -n "$cmd" ] && oimpl=(--impl "$cmd")
    if ! run_suite "$label" "$o" "$orecord" "$work/$key.$o" "${oimpl[@]+"${oimpl[@]}"}"; then
      status=1
      continue
    fi
    say "$label, $o: $(tail -n 1 "$orecord" | grep -o '"official":{[^}]*}')"
    records+=("$orecord")
    labels+=(--label "$label")
  done
done

# The fuzz campaigns' records, labelled as the suite runs of the same peer
# (`report --label` names every record but producer records, in order).
if [ -n "$fuzz_dir" ]; then
  for spec in "${peers[@]}"; do
    IFS='|' read -r key label _ _ <<<"$spec"
    if [ -s "$fuzz_dir/$key.jsonl" ]; then
      records+=("$fuzz_dir/$key.jsonl")
      labels+=(--label "$label")
    else
      say "$label: no fuzz campaign record in $fuzz_dir"
    fi
  done
  for spec in "${fuzz_only[@]+"${fuzz_only[@]}"}"; do
    IFS='|' read -r key label <<<"$spec"
    for f in "$fuzz_dir/$key.suite.jsonl" "$fuzz_dir/$key".official-*.jsonl "$fuzz_dir/$key".variant-*.jsonl "$fuzz_dir/$key.jsonl"; do
      [ -s "$f" ] || continue
      records+=("$f")
      labels+=(--label "$label")
    done
    for f in "$fuzz_dir/$key.suite.jsonl" "$fuzz_dir/$key.jsonl"; do
      [ -s "$f" ] || { say "$label: no record $f"; status=1; }
    done
  done
elif [ ${#fuzz_only[@]} -gt 0 ]; then
  say "--in-process needs --fuzz-records DIR"
  exit 2
fi
if [ -n "$producer_dir" ]; then
  found=("$producer_dir"/*.jsonl)
  if [ -e "${found[0]}" ]; then
    records+=("${found[@]}")
  else
    say "no producer run record in $producer_dir"
    status=1
  fi
fi

# Consumers run elsewhere (unlabelled: last, named by their records).
if [ -n "$consumer_dir" ]; then
  found=("$consumer_dir"/*.jsonl)
  if [ -e "${found[0]}" ]; then
    records+=("${found[@]}")
  else
    say "no consumer run record in $consumer_dir"
    status=1
  fi
fi

if [ ${#records[@]} -eq 0 ]; then
  say "no run finished; no report written"
  exit 1
fi
readme=()
# The default report also refreshes the summary between the README's
# <!-- conformance-summary:start/end --> markers.
[ "$out" = "docs/conformance/README.md" ] && readme=(--readme README.md)
"$bin" report "${records[@]}" "${labels[@]}" "${missing[@]+"${missing[@]}"}" \
  --notes docs/conformance/notes.json --notes adapters/rust/notes.json "${readme[@]+"${readme[@]}"}" \
  --markdown "$out" --html "$html" --command "$command" \
  || { say "rendering the report failed"; exit 1; }
say "wrote $out and $html"
exit $status
