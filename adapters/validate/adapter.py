#!/usr/bin/env python3
"""agui-conform adapter for ag-ui-validate 0.4.0 (the other AG-UI validator).

ag-ui-validate is a streaming validator with a rule catalogue of its own
(AGUI001-AGUI903). Each case gets a fresh ``Validator``: every stream item is
fed in order, then ``finalize()`` runs its end-of-stream rules. Its first
*error*-level diagnostic is the rejection (warnings and info notes never
reject, as its CLI's default ``--fail-on error`` decides); a diagnostic about
the end of the stream (its index -1) rejects at the number of events, as
suites/PROTOCOL.md asks of an unterminated run. The validator is called
in-process, as its own CLI and pytest plugin call it.

Usage: adapter.py            persistent mode (start/run/stop)
       adapter.py --one-shot one case on stdin, one result line out
Protocol: suites/PROTOCOL.md (version 1).
"""

import json
import sys
from importlib.metadata import version

from ag_ui_validate import create_validator

PROTOCOL = 1
IMPLEMENTATION = {
    "name": "ag-ui-validate",
    "version": version("ag-ui-validate"),
    "language": "python",
}
CAPABILITIES = ["verdict", "index", "raw-lines"]


class RawLine(str):
    """A stream item as the raw text of its line (a one-shot line, or a line
    of a `lines` case): the validator parses such strings itself, so a line
    that is not JSON is its own finding (AGUI502), as on the wire."""


def first_error(diagnostics, count):
    """(index, diagnostic) of the earliest error-level diagnostic, or None.
    The validator reports in stream order, but end-of-run checks run at the
    terminal event and end-of-stream ones at -1, so order by index."""
    best = None
    for diag in diagnostics:
        if diag.severity != "error":
            continue
        index = count if diag.event_index < 0 else diag.event_index
        if best is None or index < best[0]:
            best = (index, diag)
    return best


def run_case(events: list) -> dict:
    """The protocol `result` for one case."""
    validator = create_validator()
    diagnostics = []
    for item in events:
        diagnostics.extend(validator.feed(str(item) if isinstance(item, RawLine) else item))
    diagnostics.extend(validator.finalize())
    report = validator.report()
    if report.internal_errors:
        # The validator caught an exception of its own: not a verdict.
        raise RuntimeError("ag-ui-validate internal error: " + report.internal_errors[0][-300:])
    found = first_error(diagnostics, len(events))
    if found is None:
        return {"verdict": "accept"}
    index, diag = found
    return {"verdict": "reject", "index": index, "message": f"{diag.rule}: {diag.message}"[:300]}


def send(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def answer(seq, events) -> dict:
    if not isinstance(events, list):
        return {"seq": seq, "errored": {"message": "run: case.events is not an array"}}
    try:
        return {"seq": seq, "result": run_case(events)}
    except Exception as error:  # an adapter or validator failure, not a verdict
        return {"seq": seq, "errored": {"message": f"adapter failure: {error}"[:500]}}


def serve_persistent() -> int:
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
                send({"protocol": PROTOCOL, "implementation": IMPLEMENTATION,
                      "capabilities": CAPABILITIES})
        elif cmd == "run":
            case = msg.get("case") or {}
            lines = case.get("lines")
            if isinstance(lines, list):
                send(answer(msg.get("seq"), [RawLine(line) for line in lines]))
            else:
                send(answer(msg.get("seq"), case.get("events")))
        elif cmd == "stop":
            return 0
        else:
            print(f"adapter: ignoring unknown command {cmd!r}", file=sys.stderr)
    return 0


def serve_one_shot() -> int:
    events = [RawLine(line.rstrip("\n")) for line in sys.stdin if line.strip()]
    try:
        send(run_case(events))
    except Exception as error:
        print(f"adapter failure: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(serve_one_shot() if "--one-shot" in sys.argv[1:] else serve_persistent())
