#!/usr/bin/env bash
# Runs a fuzz campaign (`agui-conform fuzz --record`) against every consumer —
# the built-in reference model and the peer adapters of adapters/, plus any
# --peer — and the same campaign in process against the Rust SDKs
# (`agui-rust-sdks fuzz --record`, adapters/rust: ag-ui 0.3, ag-ui-client
# 0.1), with one fixed seed and budget, keeping one run record per consumer
# (each distinct failure once, shrunk, with its minimal stream), runs the
# Rust SDKs' suites in process too (default, official-*, and each SDK's
# variant suite: input-tools-context for ag-ui, uuid-ids for ag-ui-client),
# then renders the conformance
# report with those records beside the suite runs
# (scripts/conformance-report.sh --fuzz-records DIR --in-process KEY|LABEL):
# docs/conformance/README.md and index.html.
#
#   scripts/fuzz-report.sh [--seed N] [--cases N] [--time T] [--shrink-budget N]
#                          [--keep DIR] [--peer SPEC]... [--producer-records DIR]
#                          [--consumer-records DIR]
#                          [--no-report] [--no-install] [--no-build] [--no-rust]
#                          [--no-peers] [--out FILE]
#
#   --seed N       the campaign seed [default: 20261205]
#   --cases N      cases per consumer [default: 4000]; with the seed, fixes
#                  every case and finding (whatever the machine's speed)
#   --time T       a bound per consumer (`90s`, `2m`) [default: 90s]; a campaign
#                  it cuts is said so in its record and the report
#   --shrink-budget N  questions per finding while shrinking [default: 300]
#   --keep DIR     keep the campaign records (KEY.jsonl; rust-ag-ui.jsonl and
#                  rust-ag-ui-client.jsonl for the Rust SDKs) and logs in DIR
#                  [default: a temporary folder]
#   --peer SPEC    another consumer, `KEY|LABEL|COMMAND|READY` as for
#                  scripts/conformance-report.sh (a stdio adapter of your own);
#                  repeatable, passed on to the report too
#   --producer-records DIR  producer run records kept by
#                  `scripts/producers-report.sh --keep DIR`, shown as matrix rows
#   --consumer-records DIR  run records of consumers run elsewhere
#                  (`scripts/community-sdks.sh`: the Go and C++ SDKs), matrix rows
#   --no-report    only run the campaigns
#   --out FILE     where the report's Markdown goes (its HTML page beside it)
#                  [default: docs/conformance/README.md]
#   --no-install   do not run adapters/install.sh first
#   --no-build     use target/debug/agui-conform and
#                  adapters/rust/target/release/agui-rust-sdks as they are
#   --no-rust      leave the Rust SDKs out
#   --no-peers     run no peer's campaign (their records already in --keep DIR:
#                  the Rust SDKs and the report only)
#
# The Rust SDKs are built with `cargo build --release --manifest-path
# adapters/rust/Cargo.toml` (ag-ui-client needs OpenSSL's headers and
# pkg-config); when that fails the script says so and goes on without them.
#
# Exit status: 0 when every campaign ran to its end (and the report was
# written); 1 when a consumer could not be installed, built or started
# (the Rust SDKs included, unless --no-rust), a campaign did not finish or
# was incomplete, or the report failed; 2 for a bad option. The consumers'
# findings are findings, not errors of this script.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seed=20261205 cases=4000 time=90s shrink=300 keep="" report=1 install=1 build=1 rust=1 run_peers=1
extra=() producers=() consumers=() fuzz_only=() out=()
# The variant suite each Rust SDK also runs (suites/README.md): the one
# that takes its noted main cause out of the way, so what else fails shows
# (ag-ui's RunAgentInput needs tools and context; ag-ui-client's ids must
# be UUIDs).
variant_of() { case "$1" in ag-ui) echo input-tools-context ;; ag-ui-client) echo uuid-ids ;; esac; }
source "$root/scripts/consumers.sh"  # peers=(…), prepare_consumers, finished
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --cases) cases="$2"; shift 2 ;;
    --time) time="$2"; shift 2 ;;
    --shrink-budget) shrink="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --peer) peers+=("$2"); extra+=(--peer "$2"); shift 2 ;;
    --producer-records) producers=(--producer-records "$2"); shift 2 ;;
    --consumer-records) consumers=(--consumer-records "$2"); shift 2 ;;
    --no-report) report=0; shift ;;
    --no-install) install=0; shift ;;
    --no-build) build=0; shift ;;
    --no-rust) rust=0; shift ;;
    --no-peers) run_peers=0; shift ;;
    --out) out=(--out "$2"); shift 2 ;;
    -h|--help) sed -n '2,51p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz-report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'fuzz-report: %s\n' "$*" >&2; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
status=0

prepare_consumers

# Runs one campaign (the command after KEY and LABEL, writing $work/KEY.jsonl)
# and says how it went; returns 1 when it did not finish or is incomplete.
campaign() {
  local key="$1" label="$2" rc
  shift 2
  "$@" > "$work/$key.txt" 2> "$work/$key.stderr"
  rc=$?
  if ! finished "$rc" "$work/$key.jsonl"; then
    say "$label: the campaign did not finish or is incomplete (exit $rc): $(tail -n 3 "$work/$key.txt" "$work/$key.stderr" | tr '\n' ' ')"
    return 1
  fi
  say "$label: $(sed -n 2p "$work/$key.txt"); $(grep -c '"kind":"finding"' "$work/$key.jsonl") findings"
}

for spec in "${peers[@]}"; do
  [ "$run_peers" = 1 ] || break
  IFS='|' read -r key label cmd ready <<<"$spec"
  # conformance-report.sh's specs leave the reference's command empty.
  [ -n "$cmd" ] || cmd=reference
  record="$work/$key.jsonl"
  rm -f "$record"
  if [ -n "$ready" ] && [ ! -e "$ready" ]; then
    say "$label: not installed ($ready is missing; see adapters/README.md)"
    status=1
    continue
  fi
  campaign "$key" "$label" "$bin" fuzz --impl "$cmd" --seed "$seed" --cases "$cases" --time "$time" \
    --shrink-budget "$shrink" --no-progress --record "$record" || status=1
done

# The Rust SDKs, in process: the same campaign, the same record format, and
# their suite runs (the default suite, the official ones, and the variant
# suites that take a known defect out of the way: suites/README.md).
if [ "$rust" = 1 ]; then
  manifest=adapters/rust/Cargo.toml
  rbin="${CARGO_TARGET_DIR:-$root/adapters/rust/target}/release/agui-rust-sdks"
  built=1
  if [ "$build" = 1 ]; then
    cargo build -q --release --manifest-path "$manifest" > "$work/rust-build.log" 2>&1 || {
      say "Rust SDKs: cargo build --release --manifest-path $manifest failed; going on without them ($(tail -n 2 "$work/rust-build.log" | tr '\n' ' '))"
      built=0 status=1
    }
  fi
  if [ "$built" = 1 ] && [ ! -x "$rbin" ]; then
    say "Rust SDKs: $rbin is missing (build it, or drop --no-build); going on without them"
    built=0 status=1
  fi
  if [ "$built" = 1 ]; then
    while IFS=$'\t' read -r sdk _ label; do
      [ -n "$sdk" ] || continue
      key="rust-$sdk"
      record="$work/$key.jsonl"
      rm -f "$record"
      if ! campaign "$key" "$label" "$rbin" fuzz --sdk "$sdk" --seed "$seed" --cases "$cases" \
        --time "$time" --shrink-budget "$shrink" --record "$record"; then
        status=1
        continue
      fi
      for s in default official-1.0 official-1.1 official-draft $(variant_of "$sdk"); do
        case "$s" in
          default) out_record="$work/$key.suite.jsonl" ;;
          official-*) out_record="$work/$key.$s.jsonl" ;;
          *) out_record="$work/$key.variant-$s.jsonl" ;;
        esac
        "$rbin" run --sdk "$sdk" --suite "$s" --record "$out_record" > "$work/$key.$s.txt" 2>&1
        if ! finished "$?" "$out_record"; then
          say "$label: the $s run did not finish (see $work/$key.$s.txt)"
          status=1
        else
          say "$label, suite $s: $(grep -E '^[0-9]+ cases' "$work/$key.$s.txt" | tail -n 1)"
        fi
      done
      fuzz_only+=(--in-process "$key|$label")
    done < <("$rbin" sdks)
  fi
fi

if [ "$report" = 1 ]; then
  # What the page says regenerates it.
  command="scripts/fuzz-report.sh"
  for spec in "${extra[@]+"${extra[@]}"}"; do
    [ "$spec" = --peer ] || command+=" --peer '$spec'"
  done
  [ ${#producers[@]} -gt 0 ] && command="scripts/producers-report.sh --keep ${producers[1]} && $command --producer-records ${producers[1]}"
  [ ${#consumers[@]} -gt 0 ] && command="scripts/community-sdks.sh PATH_TO_AG_UI_CHECKOUT --out ${consumers[1]} && $command --consumer-records ${consumers[1]}"
  scripts/conformance-report.sh --no-install --no-build --fuzz-records "$work" \
    "${fuzz_only[@]+"${fuzz_only[@]}"}" "${out[@]+"${out[@]}"}" \
    "${producers[@]+"${producers[@]}"}" "${consumers[@]+"${consumers[@]}"}" "${extra[@]+"${extra[@]}"}" --command "$command" \
    || status=1
fi
say "campaign records in $work"
exit $status
