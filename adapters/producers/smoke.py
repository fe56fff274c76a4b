#!/usr/bin/env python3
"""Smoke test of the producer servers: start one, check one live stream, stop it.

For each producer named (default: every installed one): start its server on
a loopback port, POST the text scenario with `agui-conform check --url`,
and expect HTTP 200, verdict accept, and a stream that opens with
RUN_STARTED and ends with RUN_FINISHED (what the scripted text scenario
produces by construction). The server is started and stopped by
serve.sh (its process group and every process carrying its marker are
always ended, also on SIGTERM or Ctrl-C).

Usage: adapters/producers/smoke.py [--bin target/debug/agui-conform] [--port 18790] [NAME ...]
Prints one line per check and ends with 'N passed, N failed'.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ALL = ("langgraph", "pydantic-ai", "adk", "strands", "agent-framework", "langroid", "crewai", "mastra", "rust", "agno")
SERVE = os.path.join(HERE, "serve.sh")  # the one copy of server start/stop
sys.path.insert(0, HERE)

from common.script import MESSAGES  # noqa: E402


def smoke(name, binary, port, results):
    work = tempfile.mkdtemp(prefix=f"smoke-{name}-")
    started = subprocess.run([SERVE, "start", name, str(port), work], capture_output=True, text=True)
    try:
        ok = started.returncode == 0
        results.append(ok)
        if not ok:
            print(f"FAIL {name}: {started.stderr.strip()}")
            return
        with open(os.path.join(work, f"{name}.versions.json"), encoding="utf-8") as f:
            versions = json.load(f)
        print(f"ok   {name}: server up on 127.0.0.1:{port} {versions}")
        request = os.path.join(work, "request.json")
        with open(request, "w", encoding="utf-8") as f:
            json.dump({"threadId": "thread-smoke", "runId": "run-smoke-1",
                       "messages": [{"id": "msg-user-1", "role": "user", "content": MESSAGES["text"]}],
                       "tools": [], "context": [], "state": {}, "forwardedProps": {}}, f)
        saved = os.path.join(work, "stream.jsonl")
        check = subprocess.run([binary, "check", "--url", f"http://127.0.0.1:{port}/", "--input", request,
                                "--format", "json", "--no-projection", "--save", saved, "--timeout", "120"],
                               capture_output=True, text=True, timeout=180)
        try:
            report = json.loads(check.stdout)
        except ValueError:
            report = {}
        types = []
        if os.path.exists(saved):
            with open(saved, encoding="utf-8") as f:
                types = [json.loads(line).get("type") for line in f if line.strip()]
        ok = (check.returncode == 0 and report.get("verdict") == "accept" and types[:1] == ["RUN_STARTED"]
              and types[-1:] == ["RUN_FINISHED"])
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: check --url accepts a {len(types)}-event text run"
              + ("" if ok else f": exit {check.returncode}, {check.stdout[-300:]} {check.stderr[-300:]}"))
    finally:
        stopped = subprocess.run([SERVE, "stop", name, work], capture_output=True, text=True)
    if started.returncode == 0:
        ok = stopped.returncode == 0 and not os.path.exists(os.path.join(work, f"{name}.pid"))
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: server stopped")


def main():
    # SIGTERM (a CI job's timeout) unwinds like Ctrl-C: the `finally` of
    # smoke() stops the server, and serve.sh ends all it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "debug", "agui-conform"))
    ap.add_argument("--port", type=int, default=18790)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or [n for n in ALL if os.path.exists(os.path.join(HERE, n, ".venv", "bin", "python"))
                           or os.path.exists(os.path.join(HERE, n, "node_modules", ".bin", "node"))
                           or os.path.exists(os.path.join(HERE, n, "target", "release", "agui-rust-producer"))]
    results = []
    for i, name in enumerate(names):
        smoke(name, args.bin, args.port + i, results)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if results and passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
