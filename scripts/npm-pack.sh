#!/usr/bin/env bash
# Packs the npm packages into OUT: agui-conform (npm/agui-conform: the API,
# the matchers, the `agui-conform` bin and the action's script) and the
# platform package of this machine (@agui-conform/<platform>-<arch>, the
# esbuild/biome pattern: the binary alone, installed by npm from the main
# package's optionalDependencies on the platform it fits). The binary is
# cargo's build of agui-conform with PROFILE: `dist` (stripped, LTO: what a
# release publishes; built if missing), `release`, or `dev` (CI: the binary
# `cargo test` built, stripped into the package).
# Usage: scripts/npm-pack.sh [--profile dist|release|dev] OUT
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
profile=dist
if [ "${1:-}" = "--profile" ]; then profile="$2"; shift 2; fi
out="${1:?usage: scripts/npm-pack.sh [--profile dist|release|dev] OUT}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

version="$(node -p "require('$repo/npm/agui-conform/package.json').version")"
crate_version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -1)"
if [ "$version" != "$crate_version" ]; then
  echo "npm-pack: npm/agui-conform/package.json has version $version, the workspace $crate_version: make them agree" >&2
  exit 1
fi
platform="$(node -p 'process.platform + "-" + process.arch')"
name="$(node -p "require('$repo/npm/agui-conform/package.json').optionalDependencies ? Object.keys(require('$repo/npm/agui-conform/package.json').optionalDependencies).find(n => n.endsWith('/$platform')) ?? '' : ''")"
if [ -z "$name" ]; then
  echo "npm-pack: no platform package is declared for $platform in npm/agui-conform/package.json" >&2
  exit 1
fi

case "$profile" in
  dev) dir=debug ;;
  *) dir="$profile" ;;
esac
bin="$repo/target/$dir/agui-conform"
if [ ! -x "$bin" ]; then
  (cd "$repo" && cargo build --profile "$profile" -p agui-conform --bin agui-conform)
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# The platform package: package.json written here from the main package's
# version and the platform (os, cpu; glibc on Linux), the binary in bin/.
mkdir -p "$stage/platform/bin"
cp "$bin" "$stage/platform/bin/agui-conform"
strip "$stage/platform/bin/agui-conform" 2>/dev/null || true
chmod 755 "$stage/platform/bin/agui-conform"
node - "$stage/platform" "$name" "$version" "$platform" <<'JS'
const [dir, name, version, platform] = process.argv.slice(2);
const [os, cpu] = platform.split("-");
const manifest = {
  name,
  version,
  description: `The agui-conform binary for ${platform} (installed by the agui-conform package).`,
  license: "MIT OR Apache-2.0",
  os: [os],
  cpu: [cpu],
  ...(os === "linux" ? { libc: ["glibc"] } : {}),
  files: ["bin/"],
  preferUnplugged: true,
};
require("node:fs").writeFileSync(`${dir}/package.json`, JSON.stringify(manifest, null, 2) + "\n");
require("node:fs").writeFileSync(`${dir}/README.md`, `# ${name}\n\nThe \`agui-conform\` executable for ${platform}. Install \`agui-conform\` instead: npm picks this package from its optional dependencies.\n`);
JS

# The main package, with the repository's README section as its README.
cp -r "$repo/npm/agui-conform" "$stage/main"
rm -rf "$stage/main/node_modules"

(cd "$stage/platform" && npm pack --silent --pack-destination "$out" >/dev/null)
(cd "$stage/main" && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/*.tgz
