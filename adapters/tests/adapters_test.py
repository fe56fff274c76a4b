#!/usr/bin/env python3
"""End-to-end tests of the peer adapters over the agui-conform protocol v1.

Each adapter is started as the harness would start it, fed protocol lines, and
its answers are checked. Expected answers come from the spec (docs/rules.md: which
event a rule fires at) and, for the Python adapter, from construction: it only
validates events one by one, so a stream whose events are each well-formed is
accepted whatever their order. For ag-ui-validate they come from its rule
catalogue: ownership disagreement is its AGUI606, a warning, so it accepts;
an open subagent at RUN_FINISHED is its AGUI604, an error at that event.
Standard library only.

Usage: python3 adapters/tests/adapters_test.py [typescript] [python] [validate]
Prints one line per check and ends with 'N passed, N failed'.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTERS = os.path.dirname(HERE)
COMMANDS = {
    "typescript": ["node", os.path.join(ADAPTERS, "typescript", "adapter.mjs")],
    "python": [os.path.join(ADAPTERS, "python", ".venv", "bin", "python"),
               os.path.join(ADAPTERS, "python", "adapter.py")],
    "validate": [os.path.join(ADAPTERS, "validate", ".venv", "bin", "python"),
                 os.path.join(ADAPTERS, "validate", "adapter.py")],
}
VENV_ADAPTERS = ("python", "validate")

RS = {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}
RF = {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}


def text(kind, mid, **extra):
    event = {"type": f"TEXT_MESSAGE_{kind}", "messageId": mid, **extra}
    if kind == "CONTENT":
        event.setdefault("delta", "x")
    return event


# (case id, events, expected result per adapter; "accept" or a reject index)
CASES = [
    ("valid/attributed-text",
     [RS, text("START", "m1", subagentRunId="s1"), text("CONTENT", "m1"), text("END", "m1"), RF],
     {"typescript": "accept", "python": "accept", "validate": "accept"}),
    ("valid/subagent-lifecycle",
     [RS, {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "researcher"},
      text("START", "m1", subagentRunId="s1"), text("END", "m1", subagentRunId="s1"),
      {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"}, RF],
     {"typescript": "accept", "python": "accept", "validate": "accept"}),
    # schema.missing-field: TEXT_MESSAGE_START without messageId, at index 1.
    ("schema/missing-message-id", [RS, {"type": "TEXT_MESSAGE_START"}, RF],
     {"typescript": 1, "python": 1, "validate": 1}),
    # schema.not-json: a stream item that is not an object, at index 1.
    ("schema/not-an-object", [RS, 3, RF], {"typescript": 1, "python": 1, "validate": 1}),
    # ownership.continuation-disagrees at index 2 (the CONTENT tagged s2).
    ("ownership/continuation-disagrees",
     [RS, text("START", "m1", subagentRunId="s1"), text("CONTENT", "m1", subagentRunId="s2"),
      text("END", "m1"), RF],
     {"typescript": 2, "python": "accept", "validate": "accept"}),
    # The same through the chunk shorthand: checked at the chunk's own index.
    ("chunk/continuation-disagrees",
     [RS, {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "a"},
      {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "b", "subagentRunId": "s9"}, RF],
     {"typescript": 2, "python": "accept", "validate": "accept"}),
    # run.first-event at index 0.
    ("run/first-event", [text("START", "m1"), text("END", "m1")],
     {"typescript": 0, "python": "accept", "validate": 0}),
    # lifecycle.open-at-run-finish at the RUN_FINISHED (index 2).
    ("lifecycle/open-at-run-finish",
     [RS, {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "w"}, RF],
     {"typescript": 2, "python": "accept", "validate": 2}),
    # An empty delta is ag-ui-validate's AGUI105, a warning: warnings never
    # reject (the spec has no such rule either).
    ("text/empty-delta",
     [RS, text("START", "m1"), text("CONTENT", "m1", delta=""), text("END", "m1"), RF],
     {"typescript": "accept", "python": "accept", "validate": "accept"}),
    # An unterminated run: a fault found only at end of input rejects at the
    # number of events (PROTOCOL.md), here 1 (ag-ui-validate's AGUI003).
    ("run/unterminated", [RS], {"validate": 1}),
]


# Cases given as raw JSON Lines text (capability raw-lines): the lines reach
# the implementation as written. A duplicate key is JSON (the last value
# counts for both JSON.parse and pydantic); a line that is not JSON is
# rejected at its own index, which shows the text itself was read.
RAW_CASES = [
    ("schema/duplicate-key",
     [json.dumps(RS), '{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}',
      '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a","delta":"b"}',
      '{"type":"TEXT_MESSAGE_END","messageId":"m1"}', json.dumps(RF)],
     "accept"),
    ("schema/not-json", [json.dumps(RS), '{"type":"CUSTOM",', json.dumps(RF)], 1),
]


class Adapter:
    def __init__(self, name, args=()):
        self.proc = subprocess.Popen(COMMANDS[name] + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)

    def ask(self, msg):
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def stop(self):
        self.proc.stdin.write(json.dumps({"cmd": "stop"}) + "\n")
        self.proc.stdin.flush()
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


def check(results, label, ok, detail=""):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {label}{'' if ok else ': ' + detail}")


def test_adapter(name, results):
    a = Adapter(name)
    hello = a.ask({"cmd": "start", "protocol": 1})
    caps = (hello or {}).get("capabilities", [])
    check(results, f"{name}: start answers protocol 1 with verdict+index",
          hello is not None and hello.get("protocol") == 1 and "verdict" in caps
          and "index" in caps and "name" in hello.get("implementation", {}), repr(hello))
    if name == "python":
        check(results, "python: declares schema-only", "schema-only" in caps, repr(caps))
    for seq, (cid, events, expected) in enumerate(CASES, start=10):
        if name not in expected:
            continue
        answer = a.ask({"cmd": "run", "seq": seq, "case": {"id": cid, "events": events}})
        result = (answer or {}).get("result", {})
        want = expected[name]
        if want == "accept":
            ok = result.get("verdict") == "accept"
        else:
            ok = result.get("verdict") == "reject" and result.get("index") == want
        check(results, f"{name}: {cid} -> {want}", ok and answer.get("seq") == seq, repr(answer))
    check(results, f"{name}: declares raw-lines", "raw-lines" in caps, repr(caps))
    for seq, (cid, lines, want) in enumerate(RAW_CASES, start=100):
        answer = a.ask({"cmd": "run", "seq": seq, "case": {"id": cid, "lines": lines}})
        result = (answer or {}).get("result", {})
        if want == "accept":
            ok = result.get("verdict") == "accept"
        else:
            ok = result.get("verdict") == "reject" and result.get("index") == want
        check(results, f"{name}: raw lines {cid} -> {want}", ok and answer.get("seq") == seq, repr(answer))
    code = a.stop()
    check(results, f"{name}: stop exits with status 0", code == 0, repr(code))

    b = Adapter(name)
    refusal = b.ask({"cmd": "start", "protocol": 99})
    check(results, f"{name}: refuses an unknown protocol version",
          refusal is not None and refusal.get("protocol") == 1 and "error" in refusal, repr(refusal))
    b.stop()

    one = subprocess.run(COMMANDS[name] + ["--one-shot"], capture_output=True, text=True,
                         input="".join(json.dumps(e) + "\n" for e in [RS, {"type": "TEXT_MESSAGE_START"}, RF]),
                         timeout=60)
    lines = one.stdout.splitlines()
    check(results, f"{name}: one-shot prints one result line",
          one.returncode == 0 and len(lines) == 1
          and json.loads(lines[0]).get("verdict") == "reject" and json.loads(lines[0]).get("index") == 1,
          repr(one.stdout))


def test_one_shot_not_json(name, results):
    """schema.not-json: a one-shot line that is not JSON is rejected at its index."""
    one = subprocess.run(COMMANDS[name] + ["--one-shot"], capture_output=True, text=True,
                         input=json.dumps(RS) + "\nnot json\n" + json.dumps(RF) + "\n", timeout=60)
    try:
        got = json.loads(one.stdout)
    except ValueError:
        got = {}
    check(results, f"{name}: one-shot line that is not JSON -> reject at 1",
          got.get("verdict") == "reject" and got.get("index") == 1, repr(one.stdout))


def test_lock(results):
    """The lock pins exact versions and records no download URL (no registry host)."""
    with open(os.path.join(ADAPTERS, "typescript", "package-lock.json")) as f:
        lock = json.load(f)
    packages = lock.get("packages", {})
    resolved = [k for k, v in packages.items() if "resolved" in v]
    check(results, "typescript: package-lock.json has no 'resolved' URLs", not resolved, repr(resolved))
    pins = {k: packages.get(f"node_modules/{k}", {}).get("version") for k in ("@ag-ui/client", "@ag-ui/core")}
    check(results, "typescript: lock pins @ag-ui/client and @ag-ui/core 1.0.0",
          pins == {"@ag-ui/client": "1.0.0", "@ag-ui/core": "1.0.0"}, repr(pins))


def test_client_view(results):
    """--client-view shows the reducer's messages with their owners (the draft's
    "an untagged continuation continues whatever the opener owns")."""
    stream = [RS, text("START", "m1", subagentRunId="s1"), text("CONTENT", "m1", delta="hi"),
              text("END", "m1"), RF]
    proc = subprocess.run(COMMANDS["typescript"] + ["--client-view"], capture_output=True, text=True,
                          input=json.dumps(stream) + "\n", timeout=60)
    try:
        view = json.loads(proc.stdout)
        m = view["messages"][0]
        ok = (view["verdict"] == "accept" and len(view["messages"]) == 1 and m["id"] == "m1"
              and m.get("subagentRunId") == "s1" and m.get("content") == "hi")
    except (ValueError, KeyError, IndexError):
        ok = False
    check(results, "typescript: --client-view shows m1 owned by s1 with its text", ok, proc.stdout)


def test_explain(results):
    """The answers' `explain` (suites/PROTOCOL.md): the stage of the client
    that decided, and what it logged, with no random ids."""
    def one_shot(name, events):
        proc = subprocess.run(COMMANDS[name] + ["--one-shot"], capture_output=True, text=True,
                              input="".join(json.dumps(e) + "\n" for e in events), timeout=60)
        try:
            return json.loads(proc.stdout)
        except ValueError:
            return {"stdout": proc.stdout}
    # An unknown type: enforcement drops it with a warning, the run goes on.
    got = one_shot("typescript", [RS, {"type": "NOPE"}, RF])
    why = got.get("explain", {})
    check(results, "typescript: explain names enforceEvents and its warning for a dropped event",
          got.get("verdict") == "accept" and why.get("stage") == "enforceEvents"
          and any("NOPE" in w for w in why.get("warnings", [])), repr(got))
    # A pre-1.0 THINKING_START: translated with a warning, then verifyEvents
    # rejects the reasoning span it left open (with a minted id, hidden).
    got = one_shot("typescript", [RS, {"type": "THINKING_START"}, RF])
    why = got.get("explain", {})
    check(results, "typescript: explain names verifyEvents, keeps the compat warning, hides minted ids",
          got.get("index") == 2 and why.get("stage") == "verifyEvents"
          and any(w.startswith("[ag-ui][compat]") for w in why.get("warnings", []))
          and "<uuid>" in got.get("message", ""), repr(got))
    if os.path.exists(COMMANDS["python"][0]):
        got = one_shot("python", [RS, {"type": "NOPE"}, RF])
        check(results, "python: explain names the SDK's event union on a rejection",
              got.get("explain") == {"stage": "ag_ui.core.Event"}, repr(got))


def main():
    wanted = sys.argv[1:] or list(COMMANDS)
    results = []
    if "typescript" in wanted:
        test_lock(results)
        test_client_view(results)
        test_explain(results)
    for name in wanted:
        if not os.path.exists(COMMANDS[name][0]) and name in VENV_ADAPTERS:
            check(results, f"{name}: installed", False, "run adapters/install.sh first")
            continue
        test_adapter(name, results)
        test_one_shot_not_json(name, results)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
