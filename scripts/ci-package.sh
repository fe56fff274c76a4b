#!/usr/bin/env bash
# Packaging check for CI: every crate packages, and every crate builds from
# its packaged sources alone (against the other crates' packaged sources).
#
# `cargo package --workspace` verifies the same, but builds each crate in its
# own resolve with the default dev profile: the crates' common dependencies
# are compiled again for many of the crates (nine copies of agui-model's
# library after one CI run). Here the crates are packaged without that
# verification, unpacked into one scratch workspace whose [patch] points each
# agui-* dependency at its unpacked copy, and built one crate at a time
# (`cargo build -p CRATE`: with resolver 3 the features are those of that
# crate's graph alone, as in a verify build) into the checkout's target dir
# with the workspace's dev profile, so the builds share what they can with
# each other and with the test build. `--target HOST` keeps their binaries
# in target/HOST/debug, away from the test build's target/debug ones (which
# later CI steps run), while build scripts and proc-macros, built for the
# host, still come from target/debug.
#
# Usage: scripts/ci-package.sh   (from anywhere; writes target/package,
# target/package-check and target/HOST of the checkout)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

# Cargo keeps the sources it unpacked from packaging's temporary registry
# (target/package/tmp-registry) under the registry cache, keyed by that
# path and the version: a later build in the same place (a reused machine)
# could use the first run's crates. Drop those copies first.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/agui-*-0.1.0 \
       "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/-*/agui-*-0.1.0.crate
rm -f target/package/agui-*.crate

# --allow-dirty: packaging is checked on the tree as it stands, clean or not.
cargo package --workspace --allow-dirty --no-verify --quiet

work="$repo/target/package-check"
rm -rf "$work"
mkdir -p "$work"
crates=()
for c in target/package/agui-*.crate; do
  tar -xzf "$c" -C "$work"
  name="$(basename "$c" .crate)"          # agui-model-0.1.0
  crates+=("${name%-*}")                   # agui-model
done

{
  echo '# Scratch workspace of the packaged crates (scripts/ci-package.sh).'
  echo '[workspace]'
  echo 'resolver = "3"'
  echo 'members = ['
  for c in "${crates[@]}"; do echo "  \"$c-0.1.0\","; done
  echo ']'
  echo
  echo '[patch.crates-io]'
  for c in "${crates[@]}"; do echo "$c = { path = \"$c-0.1.0\" }"; done
  echo
  # The profiles of the real workspace (packaged manifests carry none).
  sed -n '/^\[profile\./,$p' Cargo.toml
} >"$work/Cargo.toml"
# The same dependency versions as the workspace (as the packaged lock files).
[ -f Cargo.lock ] || cargo fetch --quiet
cp Cargo.lock "$work/Cargo.lock"

host="$(rustc -vV | sed -n 's/^host: //p')"
for c in "${crates[@]}"; do
  echo "ci-package: building $c from its packaged sources"
  CARGO_TARGET_DIR="$repo/target" \
    cargo build --quiet --manifest-path "$work/Cargo.toml" --target "$host" -p "$c"
done
echo "ci-package: ${#crates[@]} crates package and build from their packaged sources"
