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
# each other and with the test build (`--target HOST` would keep them apart
# and reuse little: measured slower). The test build's binaries in
# target/debug, which later CI steps run, are kept and put back.
#
# Usage: scripts/ci-package.sh   (from anywhere; writes target/package,
# target/package-check and target/debug of the checkout)
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
# Packaged files all carry one fixed date, and cargo decides whether a path
# crate changed by its files' dates: without a fresh date, a second run
# (a reused checkout) would take the first run's build as current.
find "$work" -type f -exec touch {} +

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

# The packaged crates' binaries land in target/debug under the same names as
# the test build's, which later CI steps run: keep those and put them back.
saved="$work/saved-bins"
mkdir -p "$saved"
find target/debug -maxdepth 1 -type f -perm -u+x -exec cp -p {} "$saved/" \;
restore() { for f in "$saved"/*; do [ -e "$f" ] && rm -f "target/debug/${f##*/}" && cp -p "$f" target/debug/; done; }
trap restore EXIT
for c in "${crates[@]}"; do
  echo "ci-package: building $c from its packaged sources"
  CARGO_TARGET_DIR="$repo/target" \
    cargo build --quiet --manifest-path "$work/Cargo.toml" -p "$c"
done
echo "ci-package: ${#crates[@]} crates package and build from their packaged sources"
