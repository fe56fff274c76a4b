#!/usr/bin/env bash
# The release wheel for this platform (linux x86_64 on a Linux x64 machine),
# as .github/workflows/wheels.yml builds it: maturin with the `dist` profile
# (LTO, stripped), kept in DIR (default target/wheels), then installed into
# a fresh venv (the install timed) and tested there with python/tests.
# Usage: scripts/wheel-linux-x64.sh [DIR]     (a release build: tens of minutes on 2 cores)
#        scripts/wheel-linux-x64.sh --test-only DIR   (test a wheel already built)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--test-only" ]; then
  exec "$repo/scripts/ci-wheel.sh" --test-only "$2"
fi
out="${1:-$repo/target/wheels}"
mkdir -p "$out"
rm -f "$out"/agui_conform-*.whl
exec "$repo/scripts/ci-wheel.sh" --profile "${WHEEL_PROFILE:-dist}" --out "$out"
