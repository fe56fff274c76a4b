"""The protocol loop the Python peer adapters share (suites/PROTOCOL.md,
version 1): persistent mode (start/run/stop on stdin and stdout) and one-shot
mode (one case on stdin, one result line out). Each adapter supplies only
what it is: its `implementation`, its capabilities, and `run_case(events)`
returning the protocol `result`. An exception from `run_case` is an adapter
or library failure, never a verdict: `errored` in persistent mode, exit
status 1 in one-shot mode.

Used by adapters/python/adapter.py and adapters/validate/adapter.py, which
put this folder on `sys.path` (they run from the source tree, each in its
own venv: adapters/install.sh).
"""

import json
import sys

PROTOCOL = 1


class RawLine(str):
    """A stream item as the raw text of its line: a one-shot input line, or
    a line of a `lines` case (capability raw-lines). The library under test
    decodes it itself, as a consumer decoding a wire event would."""


def send(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def answer(run_case, seq, events) -> dict:
    if not isinstance(events, list):
        return {"seq": seq, "errored": {"message": "run: case.events is not an array"}}
    try:
        return {"seq": seq, "result": run_case(events)}
    except Exception as error:  # an adapter or library failure, not a verdict
        return {"seq": seq, "errored": {"message": f"adapter failure: {error}"[:500]}}


def serve_persistent(run_case, implementation: dict, capabilities: list) -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError as error:
            print(f"adapter: ignoring a line that is not JSON: {error}", file=sys.stderr)
            continue
        cmd = msg.get("cmd") if isinstance(msg, dict) else None
        if cmd == "start":
            if msg.get("protocol") != PROTOCOL:
                send({"protocol": PROTOCOL,
                      "error": f"this adapter speaks protocol {PROTOCOL}, not {msg.get('protocol')!r}"})
            else:
                send({"protocol": PROTOCOL, "implementation": implementation,
                      "capabilities": capabilities})
        elif cmd == "run":
            case = msg.get("case") or {}
            lines = case.get("lines")
            if isinstance(lines, list):
                send(answer(run_case, msg.get("seq"), [RawLine(line) for line in lines]))
            else:
                send(answer(run_case, msg.get("seq"), case.get("events")))
        elif cmd == "stop":
            return 0
        else:
            print(f"adapter: ignoring unknown command {cmd!r}", file=sys.stderr)
    return 0


def serve_one_shot(run_case) -> int:
    events = [RawLine(line.rstrip("\n")) for line in sys.stdin if line.strip()]
    try:
        send(run_case(events))
    except Exception as error:
        print(f"adapter failure: {error}", file=sys.stderr)
        return 1
    return 0


def main(run_case, implementation: dict, capabilities: list) -> None:
    """Serves the mode the command line asks for (`--one-shot`) and exits."""
    if "--one-shot" in sys.argv[1:]:
        sys.exit(serve_one_shot(run_case))
    sys.exit(serve_persistent(run_case, implementation, capabilities))
