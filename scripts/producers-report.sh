#!/usr/bin/env bash
# Runs the real AG-UI producers of adapters/producers/ (framework adapters with
# scripted models, on loopback ports) through `agui-conform check --url` and
# `agui-conform run --producer`, and writes docs/conformance/producers.md.
#
#   scripts/producers-report.sh [--out FILE] [--keep DIR] [--only NAME]...
#                               [--suite S] [--bin PATH] [--no-install] [--no-build]
#
#   --out FILE    where the Markdown goes [default: docs/conformance/producers.md]
#   --keep DIR    keep every request, saved stream, JSON report and server log in DIR
#   --only NAME   only this producer (repeatable): langgraph, pydantic-ai, adk, strands
#   --suite S     the producer suite for `run --producer` (a name or a folder) [default: producer]
#   --bin PATH    the agui-conform to use (implies --no-build) [default: target/debug/agui-conform]
#   --no-install  do not run adapters/producers/install.sh first
#   --no-build    use target/debug/agui-conform as it is
#
# Exit status: 0 when every producer ran; 1 when one could not be installed
# or started (the report still covers the others). A producer's violations
# are findings in the report, not errors of this script.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="docs/conformance/producers.md" keep="" install=1 build=1 only=() suite="" bin="$root/target/debug/agui-conform"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --suite) suite="$2"; shift 2 ;;
    --bin) bin="$2"; build=0; shift 2 ;;
    --no-install) install=0; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "producers-report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'producers-report: %s\n' "$*" >&2; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
status=0

if [ "$build" = 1 ]; then
  cargo build -q -p agui-conform || { say "cargo build -p agui-conform failed"; exit 1; }
fi
[ -x "$bin" ] || { say "$bin is missing (build it, or drop --no-build)"; exit 1; }

if [ "$install" = 1 ]; then
  adapters/producers/install.sh "${only[@]+"${only[@]}"}" || { say "continuing with the producers that are installed"; status=1; }
fi

args=()
for name in "${only[@]+"${only[@]}"}"; do args+=(--only "$name"); done
[ -n "$suite" ] && args+=(--suite "$suite")
# The default report also refreshes the summary between the README's
# <!-- producers-summary:start/end --> markers (only a run of every producer).
[ "$out" = "docs/conformance/producers.md" ] && [ ${#only[@]} -eq 0 ] && args+=(--readme README.md)
python3 scripts/producers_report.py --bin "$bin" --work "$work" --out "$out" "${args[@]+"${args[@]}"}" || status=1
say "wrote $out${keep:+ (requests, streams and reports kept in $keep)}"
exit $status
