#!/usr/bin/env bash
# Runs the default suite against the reference model and the consumer peers
# of adapters/ (the AG-UI TypeScript client, the Python SDK, ag-ui-validate),
# and renders the side-by-side report.
#
#   scripts/conformance-report.sh [--out FILE] [--suite NAME] [--keep DIR]
#                                 [--no-install] [--no-build]
#
#   --out FILE    where the Markdown goes [default: docs/conformance/README.md]
#   --suite NAME  the suite to run [default: default]
#   --keep DIR    keep each run's `--format json` output in DIR
#   --no-install  do not run adapters/install.sh first
#   --no-build    use target/debug/agui-conform as it is
#
# Exit status: 0 when all four ran to the end; 1 when a peer could not be
# installed or started, a run did not finish (harness error), or a peer's
# adapter ERRORED on a case. The peers' own FAILs are findings, not errors:
# they go into the report and do not change the exit status.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="docs/conformance/README.md" suite="default" keep="" install=1 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --suite) suite="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "conformance-report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'conformance-report: %s\n' "$*" >&2; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
status=0

if [ "$build" = 1 ]; then
  cargo build -q -p agui-conform || { say "cargo build -p agui-conform failed"; exit 1; }
fi
bin="$root/target/debug/agui-conform"
[ -x "$bin" ] || { say "$bin is missing (build it, or drop --no-build)"; exit 1; }

if [ "$install" = 1 ]; then
  adapters/install.sh || say "continuing with the adapters that are installed"
fi

"$bin" rules --format json > "$work/rules.json" || { say "agui-conform rules failed"; exit 1; }

ts_cmd="${AGUI_TS_CMD:-node adapters/typescript/adapter.mjs}"
py_cmd="${AGUI_PY_CMD:-adapters/python/.venv/bin/python adapters/python/adapter.py}"
val_cmd="${AGUI_VALIDATE_CMD:-adapters/validate/.venv/bin/python adapters/validate/adapter.py}"
runs=() missing=()

# run KEY LABEL [CMD]: one suite run; a finished run has a summary line.
run() {
  local key="$1" label="$2" cmd="${3:-}" file="$work/$1.jsonl" rc
  if [ -n "$cmd" ]; then
    # Failing generated cases are shrunk and kept, for the report's minimal streams.
    rm -rf "$work/saved-$key"
    "$bin" run --suite "$suite" --format json --no-progress --impl "$cmd" \
      --save-failures "$work/saved-$key" > "$file" 2> "$work/$key.stderr"
  else
    "$bin" run --suite "$suite" --format json --no-progress > "$file" 2> "$work/$key.stderr"
  fi
  rc=$?
  if [ $rc -gt 1 ] || ! tail -n 1 "$file" | grep -q '"summary"'; then
    say "$label: the run did not finish (exit $rc): $(tail -n 3 "$work/$key.stderr" | tr '\n' ' ')"
    missing+=("$key=$label=the run did not finish (exit $rc): $(tail -n 1 "$work/$key.stderr")")
    status=1
    return
  fi
  local errored
  errored="$(tail -n 1 "$file" | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["scores"]["ERRORED"])')"
  if [ "$errored" != 0 ] && [ -n "$cmd" ]; then
    say "$label: $errored case(s) ERRORED (an adapter or harness problem; see the report)"
    status=1
  fi
  runs+=("--run" "$key=$label=$file${cmd:+=$cmd}")
  [ -n "$cmd" ] && runs+=("--saved" "$key=$work/saved-$key")
  say "$label: $(tail -n 1 "$file" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]["scores"]; print(", ".join(f"{v} {k}" for k, v in s.items() if v and k.isupper()))')"
}

run reference "Reference model"
if [ -d adapters/typescript/node_modules/@ag-ui/client ] && command -v node >/dev/null 2>&1; then
  run typescript "TypeScript client" "$ts_cmd"
else
  say "TypeScript client: not installed (run adapters/install.sh typescript)"
  missing+=("typescript=TypeScript client=not installed: adapters/install.sh typescript failed or was not run")
  status=1
fi
# The Python-venv peers: KEY LABEL COMMAND.
venv_peers=("python|Python SDK|$py_cmd" "validate|ag-ui-validate|$val_cmd")
for peer in "${venv_peers[@]}"; do
  IFS='|' read -r key label cmd <<<"$peer"
  if [ -x "adapters/$key/.venv/bin/python" ]; then
    run "$key" "$label" "$cmd"
  else
    say "$label: not installed (run adapters/install.sh $key)"
    missing+=("$key=$label=not installed: adapters/install.sh $key failed or was not run")
    status=1
  fi
done

margs=()
for m in "${missing[@]+"${missing[@]}"}"; do margs+=("--missing" "$m"); done
if ! grep -q 'reference=' <<<"${runs[*]:-}"; then
  say "the reference run did not finish; no report written"
  exit 1
fi
readme=()
# The default report also refreshes the summary between the README's
# <!-- conformance-summary:start/end --> markers, when it has them.
[ "$out" = "docs/conformance/README.md" ] && readme=(--readme README.md)
python3 scripts/conformance_report.py "${readme[@]+"${readme[@]}"}" --rules "$work/rules.json" --corpus corpus \
  --notes docs/conformance/notes.json --view "typescript=$ts_cmd" "${runs[@]}" "${margs[@]+"${margs[@]}"}" --out "$out" \
  || { say "rendering the report failed"; exit 1; }
say "wrote $out"
exit $status
