#!/usr/bin/env bash
# Installs the pinned real producers (AG-UI framework adapters) that
# scripts/producers-report.sh runs: one venv per producer, in
# adapters/producers/NAME/.venv (git-ignored), from NAME/requirements.txt
# (every package pinned). Each producer is set up on its own; one that cannot
# be installed is named, the others still are, and the script exits non-zero.
# Usage: adapters/producers/install.sh [langgraph] [pydantic-ai] [adk] [strands]   (default: all)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
all=(langgraph pydantic-ai adk strands)
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=("${all[@]}")
failed=()
say() { printf 'producers/install: %s\n' "$*" >&2; }

py="$(command -v python3 || true)"
if [ -z "$py" ]; then
  say "python3 (3.10+) was not found on PATH; fix: install Python 3 with venv support, then rerun."
  exit 1
fi

install_one() {
  local name="$1" dir="$here/$1"
  if [ ! -f "$dir/requirements.txt" ]; then
    say "unknown producer '$name' (expected one of: ${all[*]})"
    return 1
  fi
  if [ ! -x "$dir/.venv/bin/python" ] && ! "$py" -m venv "$dir/.venv" >&2; then
    rm -rf "$dir/.venv"
    say "$name: could not create a venv with $py (install python3-venv, then rerun)."
    return 1
  fi
  if ! "$dir/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$dir/requirements.txt" >&2; then
    say "$name: 'pip install -r adapters/producers/$name/requirements.txt' failed (see pip's message above)."
    say "  fix: check that the Python package index is reachable (pip config list) and rerun."
    return 1
  fi
  say "$name: ready"
}

for name in "${wanted[@]}"; do
  install_one "$name" || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  say "NOT installed: ${failed[*]}"
  exit 1
fi
