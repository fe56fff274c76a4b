#!/usr/bin/env bash
# Regenerates the conformance matrix screenshot in docs/ (the top of
# docs/conformance/index.html: summary and per-rule matrix of the reference
# and the peers). Run scripts/conformance-report.sh first when the records
# changed. Needs /usr/bin/chromium (Debian package `chromium`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
page="${1:-docs/conformance/index.html}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --window-size=1400,900 \
  --screenshot=docs/conformance-matrix.png "file://$root/$page" 2>/dev/null
