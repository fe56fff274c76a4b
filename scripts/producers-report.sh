#!/usr/bin/env bash
# Runs the real AG-UI producers of adapters/producers/ (framework adapters with
# scripted models, on loopback ports) through `agui-conform run --producer
# --record` (each scenario of adapters/producers/scenarios/, then the producer
# suite), and renders docs/conformance/producers.md from the run records with
# `agui-conform report` (and the README's producers summary).
#
#   scripts/producers-report.sh [--out FILE] [--keep DIR] [--only NAME]...
#                               [--bin PATH] [--no-install] [--no-build]
#
#   --out FILE    where the Markdown goes [default: docs/conformance/producers.md]
#   --keep DIR    keep every run record, versions file and server log in DIR
#                 [default: a temp folder, removed unless the script fails]
#   --only NAME   only this producer (repeatable): langgraph, pydantic-ai, adk, strands,
#                 agent-framework, langroid, crewai, mastra, rust, agno
#   --bin PATH    the agui-conform to use (implies --no-build) [default: target/debug/agui-conform]
#   --no-install  do not run adapters/producers/install.sh first
#   --no-build    use target/debug/agui-conform as it is
#
# Each stream is also given to ag-ui-validate (`--peer`) when
# adapters/validate/.venv is installed (adapters/install.sh validate).
#
# Exit status: 0 when every producer ran; 1 when one could not be installed
# or started (the report still covers the others, listing it as not run). A
# producer's violations are findings in the report, not errors of this script.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="docs/conformance/producers.md" keep="" install=1 build=1 only=() bin="$root/target/debug/agui-conform"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --bin) bin="$2"; build=0; shift 2 ;;
    --no-install) install=0; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "producers-report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'producers-report: %s\n' "$*" >&2; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
status=0

# Which scenarios each producer plays, per path served (files of
# adapters/producers/scenarios/, in the order of the report).
plan() {
  case "$1" in
    langgraph) echo "/ text tool state interrupt confirm subagents subagent-interrupt failure"
               echo "/legacy legacy/interrupt subagents legacy/subagent-interrupt" ;;
    pydantic-ai) echo "/ text tool state interrupt confirm failure state-mismatch" ;;
    adk) echo "/ text tool state interrupt confirm subagents failure"
         echo "/legacy interrupt" ;;
    strands) echo "/ text tool state interrupt confirm failure" ;;
    agent-framework) echo "/ text tool state interrupt confirm failure" ;;
    langroid) echo "/ text tool state failure" ;;
    crewai) echo "/ text tool state interrupt confirm subagents failure"
            echo "/legacy interrupt" ;;
    mastra) echo "/ text tool state interrupt confirm subagents failure" ;;
    rust) echo "/ text tool state interrupt confirm subagents subagent-interrupt failure" ;;
    # agno pauses a run on a tool that needs confirmation and streams the
    # paused call for the client to answer: confirm-by-tool resumes it with
    # a tool result. /team is an agno Team (a leader and two members).
    agno) echo "/ text tool state interrupt confirm confirm-by-tool failure state-mismatch"
          echo "/team text subagents failure" ;;
  esac
}
all=(langgraph pydantic-ai adk strands agent-framework langroid crewai mastra rust agno)
# The language each producer's AG-UI adapter is written in (the report's
# matrix groups implementations by it).
language() { case "$1" in mastra) echo typescript ;; rust) echo rust ;; *) echo python ;; esac; }

if [ "$build" = 1 ]; then
  cargo build -q -p agui-conform || { say "cargo build -p agui-conform failed"; exit 1; }
fi
[ -x "$bin" ] || { say "$bin is missing (build it, or drop --no-build)"; exit 1; }

if [ "$install" = 1 ]; then
  adapters/producers/install.sh "${only[@]+"${only[@]}"}" || { say "continuing with the producers that are installed"; status=1; }
fi

peer=()
validate="adapters/validate/.venv/bin/python"
[ -x "$validate" ] && peer=(--peer "$validate adapters/validate/adapter.py")

# A server is never left behind, whatever ends this script (an error, Ctrl-C,
# SIGTERM from a CI job's timeout): serve.sh stop ends it and everything it
# started, also what daemonized out of its process group.
serving=""
stop_serving() {
  [ -n "$serving" ] && adapters/producers/serve.sh stop "$serving" "$work"
  serving=""
}
# Without --keep the records go to a temp folder: removed when the script
# succeeds, kept and named when it does not (the server logs say why).
finish() {
  local rc=$?
  stop_serving
  if [ -z "$keep" ]; then
    if [ "$rc" = 0 ]; then rm -rf "$work"; else say "records and logs kept in $work"; fi
  fi
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

records=() missing=() port=18700
for name in "${all[@]}"; do
  port=$((port + 1))
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  say "$name ..."
  serving="$name"
  if ! why="$(adapters/producers/serve.sh start "$name" "$port" "$work" 2>&1)"; then
    serving=""
    say "$name: $why"
    missing+=(--missing "$name=$why")
    status=1
    continue
  fi
  record() { # URL SUITE FILE
    "$bin" run --producer "$1" --suite "$2" --record "$3" --name "$name" --language "$(language "$name")" \
      --versions "$work/$name.versions.json" --no-progress "${peer[@]+"${peer[@]}"}" >/dev/null
    [ -s "$3" ] && records+=("$3")
  }
  while read -r path scenarios; do
    for s in $scenarios; do
      tag="${s//\//-}"; [ "$path" = / ] || tag="$tag@${path#/}"
      record "http://127.0.0.1:$port$path" "adapters/producers/scenarios/$s.json" "$work/$name.$tag.jsonl"
    done
  done < <(plan "$name")
  record "http://127.0.0.1:$port/" producer "$work/$name.suite.jsonl"
  stop_serving
  say "$name: done"
done

args=()
# The default report also refreshes the summary between the README's
# <!-- producers-summary:start/end --> markers (only a run of every producer).
[ "$out" = "docs/conformance/producers.md" ] && [ ${#only[@]} -eq 0 ] && args+=(--readme README.md)
if [ ${#records[@]} -eq 0 ]; then
  say "no producer ran; $out left as it is"
  exit 1
fi
if ! "$bin" report "${records[@]}" --notes adapters/producers/notes.json --markdown "$out" \
  "${missing[@]+"${missing[@]}"}" "${args[@]+"${args[@]}"}"; then
  say "could not write $out (the report's error is above)${keep:+; the run records are kept in $keep}"
  exit 1
fi
say "wrote $out${keep:+ (run records, versions and server logs kept in $keep)}"
exit $status
