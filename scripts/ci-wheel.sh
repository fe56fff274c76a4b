#!/usr/bin/env bash
# The Python wheel as a user gets it: build it with maturin (bindings = "bin"),
# install it into a fresh venv, and run python/tests there, away from the
# source tree, so the module, the pytest plugin (entry point pytest11) and
# the `agui-conform` script come from the wheel. CI builds with the dev
# profile, which reuses the binary `cargo test` built; a release wheel uses
# the `dist` profile (scripts/wheel-linux-x64.sh, .github/workflows/wheels.yml).
# Usage: scripts/ci-wheel.sh [--profile PROFILE] [--out DIR] [--test-only DIR]
#   --profile  cargo profile of the build (default: dev)
#   --out      keep the built wheel in DIR
#   --test-only  build nothing: test the wheel found in DIR
# Prints how long installing the wheel into the fresh venv took.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
profile=dev out="" test_only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --test-only) test_only="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: $0 [--profile PROFILE] [--out DIR] [--test-only DIR]" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "$test_only" ]; then
  wheels="$test_only"
else
  tools="$repo/target/ci-python-tools"
  if [ ! -x "$tools/bin/maturin" ] || [ ! -x "$tools/bin/pytest" ]; then
    python3 -m venv "$tools"
    "$tools/bin/pip" install --quiet --disable-pip-version-check -r "$repo/python/requirements-ci.txt"
  fi
  wheels="${out:-$work/wheels}"
  (cd "$repo/python" && "$tools/bin/maturin" build --quiet --profile "$profile" --out "$wheels")
fi
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
[ -x "$py" ] || py="$work/venv/Scripts/python"  # Windows layout
# The tests' own needs first (pytest, and ag-ui-protocol for the ag_ui.core
# events check() and Checker.feed() take), then the wheel alone, timed: what
# `pip install agui-conform` costs where a wheel exists.
"$py" -m pip install --quiet --disable-pip-version-check \
  $(grep -E '^(pytest|ag-ui-protocol)==' "$repo/python/requirements-ci.txt")
wheel="$(ls "$wheels"/*.whl | head -1)"
started=$("$py" -c 'import time; print(time.time())')
"$py" -m pip install --quiet --disable-pip-version-check --no-deps "$wheel"
"$py" -c "import sys, time; print(f'wheel install: {time.time() - $started:.1f} s ({sys.argv[1]})')" "$(basename "$wheel")"
mkdir "$work/tests"
cp "$repo"/python/tests/*.py "$repo/python/README.md" "$work/tests/"  # README: its example runs
cd "$work/tests"
# The module must be the installed one, and the binary the wheel's script.
"$py" -c '
import agui_conform, sys
assert "site-packages" in agui_conform.__file__, agui_conform.__file__
assert agui_conform.binary().startswith(sys.prefix), agui_conform.binary()
print("agui_conform from", agui_conform.__file__, "binary", agui_conform.binary())'
# The plugin's tests need pytest to load it from the wheel's entry point.
env -u AGUI_CONFORM_BIN -u PYTEST_DISABLE_PLUGIN_AUTOLOAD -u PYTEST_ADDOPTS \
  "$py" -m pytest -q -p no:cacheprovider .
