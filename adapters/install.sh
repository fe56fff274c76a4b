#!/usr/bin/env bash
# Installs the pinned dependencies of the peer adapters:
#   adapters/typescript: npm ci (package-lock.json; @ag-ui/client, @ag-ui/core 1.0.0)
#   adapters/python:     a venv in adapters/python/.venv + pip install -r requirements.txt
#   adapters/validate:   a venv in adapters/validate/.venv (ag-ui-validate 0.4.0)
# Each adapter is set up independently: if one cannot be (no Node, no Python,
# packages not reachable), it says which and how to fix it, the other is still
# set up, and the script exits non-zero.
# Usage: adapters/install.sh [typescript] [python] [validate]   (default: all three)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(typescript python validate)
failed=()

say() { printf 'adapters/install: %s\n' "$*" >&2; }

install_typescript() {
  local dir="$here/typescript"
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    say "typescript: Node.js 20+ with npm is required and was not found on PATH."
    say "  fix: install Node.js 20 (e.g. 'apt-get install nodejs npm', or from nodejs.org), then rerun."
    return 1
  fi
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -lt 20 ]; then
    say "typescript: Node.js $(node --version) is too old; 20 or newer is required."
    say "  fix: install Node.js 20+, then rerun."
    return 1
  fi
  if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2); then
    say "typescript: 'npm ci' failed in adapters/typescript (see npm's message above)."
    say "  fix: check that the npm registry is reachable (npm config get registry) and rerun."
    return 1
  fi
  say "typescript: ready ($(cd "$dir" && node -p 'require("@ag-ui/client/package.json").version') of @ag-ui/client)."
}

# install_venv NAME: a venv in adapters/NAME/.venv with its requirements.txt.
install_venv() {
  local name="$1" dir="$here/$1" py
  py="$(command -v python3 || true)"
  if [ -z "$py" ]; then
    say "$name: python3 (3.9+) was not found on PATH."
    say "  fix: install Python 3 with venv support (e.g. 'apt-get install python3 python3-venv'), then rerun."
    return 1
  fi
  if [ ! -x "$dir/.venv/bin/python" ]; then
    if ! "$py" -m venv "$dir/.venv" >&2; then
      rm -rf "$dir/.venv"
      say "$name: could not create a venv with $py."
      say "  fix: install the venv module (e.g. 'apt-get install python3-venv'), then rerun."
      return 1
    fi
  fi
  if ! "$dir/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$dir/requirements.txt" >&2; then
    say "$name: 'pip install -r adapters/$name/requirements.txt' failed (see pip's message above)."
    say "  fix: check that the Python package index is reachable (pip config list) and rerun."
    return 1
  fi
}

install_python() {
  install_venv python || return 1
  say "python: ready ($("$here/python/.venv/bin/python" -c 'from importlib.metadata import version; print(version("ag-ui-protocol"))') of ag-ui-protocol)."
}

install_validate() {
  install_venv validate || return 1
  say "validate: ready ($("$here/validate/.venv/bin/python" -c 'from importlib.metadata import version; print(version("ag-ui-validate"))') of ag-ui-validate)."
}

for a in "${wanted[@]}"; do
  case "$a" in
    typescript) install_typescript || failed+=(typescript) ;;
    python) install_python || failed+=(python) ;;
    validate) install_validate || failed+=(validate) ;;
    *) say "unknown adapter '$a' (expected: typescript, python, validate)"; failed+=("$a") ;;
  esac
done

if [ ${#failed[@]} -gt 0 ]; then
  say "NOT installed: ${failed[*]}"
  exit 1
fi
