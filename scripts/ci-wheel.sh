#!/usr/bin/env bash
# The Python wheel as a user gets it: build it with maturin (bindings = "bin"),
# install it into a fresh venv, and run python/tests there, away from the
# source tree, so the module, the pytest plugin (entry point pytest11) and
# the `agui-conform` script come from the wheel. CI builds with the dev
# profile, which reuses the binary `cargo test` built (a release wheel uses
# the `dist` profile of python/pyproject.toml).
# Usage: scripts/ci-wheel.sh [--profile PROFILE]   (default: dev)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
profile=dev
if [ "${1:-}" = "--profile" ]; then profile="$2"; fi
tools="$repo/target/ci-python-tools"
if [ ! -x "$tools/bin/maturin" ] || [ ! -x "$tools/bin/pytest" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet --disable-pip-version-check -r "$repo/python/requirements-ci.txt"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo/python" && "$tools/bin/maturin" build --quiet --profile "$profile" --out "$work/wheels")
python3 -m venv "$work/venv"
# The tests' own needs beside the wheel: pytest, and ag-ui-protocol for the
# ag_ui.core events check() and Checker.feed() take.
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work"/wheels/*.whl \
  $(grep -E '^(pytest|ag-ui-protocol)==' "$repo/python/requirements-ci.txt")
mkdir "$work/tests"
cp "$repo"/python/tests/*.py "$repo/python/README.md" "$work/tests/"  # README: its example runs
cd "$work/tests"
# The module must be the installed one, and the binary the wheel's script.
"$work/venv/bin/python" -c '
import agui_conform, sys
assert "site-packages" in agui_conform.__file__, agui_conform.__file__
assert agui_conform.binary().startswith(sys.prefix), agui_conform.binary()
print("agui_conform from", agui_conform.__file__, "binary", agui_conform.binary())'
# The plugin's tests need pytest to load it from the wheel's entry point.
env -u AGUI_CONFORM_BIN -u PYTEST_DISABLE_PLUGIN_AUTOLOAD -u PYTEST_ADDOPTS \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider .
