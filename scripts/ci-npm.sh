#!/usr/bin/env bash
# The npm package as a user gets it: pack agui-conform and its linux-x64
# platform package (scripts/npm-pack.sh), install the two tarballs into a
# fresh temporary project beside pinned vitest, jest and TypeScript,
# type-check the package's types there, and run its tests
# (npm/agui-conform/test: vitest, and test/jest/ with jest) on Node 20 and
# on Node 22 (the registry's `node` package, pinned, kept in
# target/ci-npm-tools between runs). Then the docs' vitest file
# (docs/typescript.md) copied as a user would: red on an agent with the
# planted ownership bug, with a readable message, green once fixed.
# With --mastra, also against adapters/producers/mastra over HTTP (installed
# with adapters/producers/install.sh if it is not): the live tests, the
# action's producer mode, and the docs' file red through a proxy planting
# the bug in Mastra's stream, green on Mastra itself.
# CI builds with the dev profile, reusing the binary `cargo test` built.
# Usage: scripts/ci-npm.sh [--profile dev|dist] [--mastra]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
VITEST=4.1.12
TYPESCRIPT=5.9.3
TYPES_NODE=20.19.43
JEST=30.5.2
YAML=2.9.1
NODE20=20.20.2
NODE22=22.23.3
profile=dev
mastra=0
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --mastra) mastra=1; shift ;;
    *) echo "usage: scripts/ci-npm.sh [--profile dev|dist] [--mastra]" >&2; exit 2 ;;
  esac
done
say() { printf 'ci-npm: %s\n' "$*" >&2; }
npmq() { npm --no-audit --no-fund --loglevel=error "$@"; }

tools="$repo/target/ci-npm-tools"
declare -A nodes
for pair in "20:$NODE20" "22:$NODE22"; do
  major="${pair%%:*}" version="${pair#*:}"
  dir="$tools/node-$version"
  if [ ! -x "$dir/node_modules/.bin/node" ]; then
    say "installing Node $version (the registry's node package)"
    mkdir -p "$dir"
    npmq install --prefix "$dir" --no-save "node@$version" >/dev/null
  fi
  # The package's bin is a shim that execs the platform binary it installed.
  real="$(find "$dir/node_modules" -path '*/bin/node' -type f -perm -u+x | head -1)"
  [ -n "$real" ] || { say "no node binary under $dir"; exit 1; }
  nodes[$major]="$real"
  say "Node $major: $("$real" --version) ($real)"
done

work="$(mktemp -d)"
server_dir="$work/serve"
cleanup() {
  if [ "$mastra" = 1 ]; then "$repo/adapters/producers/serve.sh" stop mastra "$server_dir" >/dev/null 2>&1 || true; fi
  [ -n "${proxy_pid:-}" ] && kill "$proxy_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$repo/scripts/npm-pack.sh" --profile "$profile" "$work/pack" >/dev/null
ls -l "$work"/pack/*.tgz | awk '{ print "ci-npm: packed " $NF " (" $5 " bytes)" }' >&2

proj="$work/project"
mkdir -p "$proj"
cat > "$proj/package.json" <<JSON
{ "name": "agui-conform-ci", "private": true, "type": "module",
  "devDependencies": { "vitest": "$VITEST", "typescript": "$TYPESCRIPT", "@types/node": "$TYPES_NODE", "jest": "$JEST", "yaml": "$YAML" } }
JSON
(cd "$proj" && npmq install >/dev/null)
# The tarballs offline: the platform packages of other platforms (optional
# dependencies) are skipped, never looked up.
(cd "$proj" && npmq install --offline "$work"/pack/agui-conform-0.1.0.tgz "$work"/pack/agui-conform-linux-x64-0.1.0.tgz >/dev/null)
test -x "$proj/node_modules/@agui-conform/linux-x64/bin/agui-conform"
cp -r "$repo/npm/agui-conform/test" "$proj/test"
cp "$repo/action.yml" "$proj/action.yml"   # for test/action-yml.test.js
export AGUI_TARBALLS="$work/pack/agui-conform-0.1.0.tgz $work/pack/agui-conform-linux-x64-0.1.0.tgz"
mv "$proj/test/tsconfig.json" "$proj/tsconfig.json"

# The docs' vitest file, copied as a user would, and an agent for it.
mkdir -p "$proj/example/test" "$proj/example/src"
node -e '
const text = require("fs").readFileSync(process.argv[1], "utf8");
const block = text.match(/```ts\n([\s\S]*?)```/);
if (!block) { console.error("no ```ts block in docs/typescript.md"); process.exit(1); }
process.stdout.write(block[1]);' "$repo/docs/typescript.md" > "$proj/example/test/agui-conformance.test.ts"
agent() { # planted|fixed
  local s2=s1
  [ "$1" = planted ] && s2=s2
  cat > "$proj/example/src/agent.ts" <<TS
// A stand-in agent: one run with a subagent's message (s1); planted: another
// subagent (s2) sends its second delta.
export async function runAgent(_prompt: string): Promise<object[]> {
  return [
    { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
    { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher" },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", subagentRunId: "s1" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "AG-UI is ", subagentRunId: "s1" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a protocol.", subagentRunId: "$s2" },
    { type: "TEXT_MESSAGE_END", messageId: "m1", subagentRunId: "s1" },
    { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
    { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
  ];
}
TS
}
agent fixed

say "type check (tsc $TYPESCRIPT, strict): the package's types and the docs' file"
(cd "$proj" && "${nodes[20]}" node_modules/typescript/bin/tsc -p tsconfig.json)

if [ "$mastra" = 1 ]; then
  if [ ! -x "$repo/adapters/producers/mastra/node_modules/.bin/node" ]; then
    "$repo/adapters/producers/install.sh" mastra
  fi
  port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  mkdir -p "$server_dir"
  "$repo/adapters/producers/serve.sh" start mastra "$port" "$server_dir" >&2
  export AGUI_MASTRA_URL="http://127.0.0.1:$port/"
  say "Mastra at $AGUI_MASTRA_URL"
fi

for major in 20 22; do
  say "vitest $VITEST on Node $major"
  (cd "$proj" && AGUI_EXPECT_NODE="$major" "${nodes[$major]}" node_modules/vitest/vitest.mjs run --dir test)
  say "jest $JEST (ESM) on Node $major: agui-conform/jest"
  (cd "$proj" && "${nodes[$major]}" --experimental-vm-modules --no-warnings node_modules/jest/bin/jest.js \
    --rootDir test --testMatch '**/*.jest.js' --ci)
done

# Red, then green: vitest's exit status and what it printed.
expect_run() { # red|green LABEL ARGS...: vitest on the docs' file
  local want="$1" label="$2" out status
  shift 2
  set +e
  out="$(cd "$proj" && "${nodes[20]}" node_modules/vitest/vitest.mjs run --dir example "$@" 2>&1)"
  status=$?
  set -e
  if [ "$want" = red ]; then
    if [ "$status" -ne 1 ]; then printf '%s\n' "$out" >&2; say "$label: expected the docs' file to fail (exit 1), got $status"; exit 1; fi
    printf '%s\n' "$out" | grep -F -- "error   ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for" >/dev/null \
      || { printf '%s\n' "$out" >&2; say "$label: the failure does not name the ownership finding"; exit 1; }
    printf '%s\n' "$out" | grep -E -- '^ *> #[0-9]+ +\{"type":"TEXT_MESSAGE_(CONTENT|CHUNK)".*"subagentRunId":"s2"' >/dev/null \
      || { printf '%s\n' "$out" >&2; say "$label: the failure does not show the event"; exit 1; }
  elif [ "$status" -ne 0 ]; then
    printf '%s\n' "$out" >&2; say "$label: expected the docs' file to pass, got exit $status"; exit 1
  fi
  say "$label: $want as expected"
}
agent planted
expect_run red "docs' vitest file, planted agent"
agent fixed
expect_run green "docs' vitest file, fixed agent"

if [ "$mastra" = 1 ]; then
  proxy_out="$work/proxy.url"
  (cd "$proj" && exec "${nodes[20]}" test/support/proxy-cli.js "$AGUI_MASTRA_URL" > "$proxy_out") &
  proxy_pid=$!
  for _ in $(seq 1 50); do [ -s "$proxy_out" ] && break; sleep 0.1; done
  proxy="$(cat "$proxy_out")"
  AGUI_URL="$proxy/planted" expect_run red "docs' vitest file, Mastra over HTTP with the bug planted" -t conforming
  AGUI_URL="$AGUI_MASTRA_URL" expect_run green "docs' vitest file, Mastra over HTTP" -t conforming
fi
say "done"
