#!/usr/bin/env bash
# Regenerates the lanes-page screenshots in docs/: a nested, interleaved
# corpus stream with a violation, and a generated 100,000-event stream.
# Needs /usr/bin/chromium (Debian package `chromium`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

shoot() { # PAGE PNG SIZE
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --window-size="$3" --screenshot="$2" \
    "file://$1" 2>/dev/null
}

cargo run -q -p agui-view --example case_page \
  corpus/ownership/continuation-disagrees-interleaved.json "$tmp/interleaved.html"
shoot "$tmp/interleaved.html" docs/lanes-interleaved.png 1400,720

cargo run -q --release -p agui-view --example render_time 1 "$tmp/big.html"
shoot "$tmp/big.html" docs/lanes-100k.png 1400,900
