# Sourced by the report scripts (conformance-report, fuzz-report,
# community-sdks, rust-sdks-report): the consumers they score, the
# agui-conform build and adapter installs they start with, and how one
# suite run is run and checked. Not a command of its own.

# The peers: KEY|LABEL|COMMAND|READY (READY: a path that exists once the
# adapter is installed). The reference model has no command.
peers=(
  "reference|Reference model||"
  "typescript|TypeScript client|${AGUI_TS_CMD:-node adapters/typescript/adapter.mjs}|adapters/typescript/node_modules/@ag-ui/client"
  "python|Python SDK|${AGUI_PY_CMD:-adapters/python/.venv/bin/python adapters/python/adapter.py}|adapters/python/.venv/bin/python"
  "validate|ag-ui-validate|${AGUI_VALIDATE_CMD:-adapters/validate/.venv/bin/python adapters/validate/adapter.py}|adapters/validate/.venv/bin/python"
)

# Builds agui-conform unless $build is 0, sets $bin to it (exits 1 when it
# is missing), and installs the adapters unless $install is 0; `say` is the
# caller's.
prepare_consumers() {
  if [ "$build" = 1 ]; then
    cargo build -q -p agui-conform || { say "cargo build -p agui-conform failed"; exit 1; }
  fi
  bin="$root/target/debug/agui-conform"
  [ -x "$bin" ] || { say "$bin is missing (build it, or drop --no-build)"; exit 1; }
  if [ "$install" = 1 ]; then
    adapters/install.sh || say "continuing with the adapters that are installed"
  fi
}

# Whether a run wrote a whole record: exit status 0 or 1 (1: FAILs found)
# and the record's footer line. `finished STATUS RECORD`.
finished() { [ "$1" -le 1 ] && tail -n 1 "$2" 2>/dev/null | grep -q '"kind":"footer"'; }

# One suite run: `$bin run --suite SUITE --no-progress IMPL... --record
# RECORD`, its output in BASE.txt and BASE.stderr. Returns 1, saying why
# as WHO (`say` is the caller's), when it did not finish; `rc` is its exit
# status either way. `run_suite WHO SUITE RECORD BASE [IMPL...]`.
run_suite() {
  local who="$1" suite="$2" record="$3" base="$4"
  shift 4
  rm -f "$record"
  "$bin" run --suite "$suite" --no-progress "$@" --record "$record" >"$base.txt" 2>"$base.stderr"
  rc=$?
  finished "$rc" "$record" && return 0
  say "$who: the $suite run did not finish (exit $rc): $(tail -n 3 "$base.stderr" | tr '\n' ' ')"
  return 1
}
