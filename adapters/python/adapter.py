#!/usr/bin/env python3
"""agui-conform adapter for the AG-UI Python SDK (ag-ui-protocol 1.0.0).

The SDK ships event models and an encoder, no stream verifier, so this adapter
is schema-only: each stream item is validated on its own against the SDK's
discriminated event union (``ag_ui.core.Event``, pydantic), exactly as a
Python consumer decoding a wire event would. The first item that fails is the
rejection; a stream whose items all validate is accepted.

Usage: adapter.py            persistent mode (start/run/stop)
       adapter.py --one-shot one case on stdin, one result line out
Protocol: suites/PROTOCOL.md (version 1).
"""

import json
import sys
from importlib.metadata import version

from pydantic import TypeAdapter, ValidationError

from ag_ui.core import Event

PROTOCOL = 1
EVENT = TypeAdapter(Event)
IMPLEMENTATION = {
    "name": "ag-ui-protocol",
    "version": f"{version('ag-ui-protocol')} (pydantic {version('pydantic')})",
    "language": "python",
}
CAPABILITIES = ["verdict", "index", "schema-only", "raw-lines"]


class RawLine(str):
    """A stream item as the raw text of its line: a one-shot input line, or
    a line of a `lines` case (capability raw-lines). The SDK's models decode
    it themselves, as a Python consumer decoding a wire event would."""


def describe(error: ValidationError) -> str:
    """The SDK's validation errors on one line: `path: message; ...`."""
    parts = []
    for issue in error.errors(include_url=False):
        path = ".".join(str(p) for p in issue.get("loc", ())) or "(event)"
        msg = issue.get("msg")
        if issue.get("type") == "union_tag_invalid":  # pydantic lists every tag; keep the gist
            ctx = issue.get("ctx") or {}
            msg = f"{ctx.get('discriminator')} {ctx.get('tag')!r} is none of the union's tags"
        parts.append(f"{path}: {msg}")
    text = "; ".join(parts)
    return text if len(text) <= 300 else text[:297] + "..."


def run_case(events: list) -> dict:
    """The protocol `result` for one case: reject at the first invalid item."""
    for index, item in enumerate(events):
        try:
            # The item as it was on the wire, decoded by the SDK's own models.
            EVENT.validate_json(item if isinstance(item, RawLine) else json.dumps(item))
        except ValidationError as error:
            # explain (suites/PROTOCOL.md): the SDK stage that decided.
            return {"verdict": "reject", "index": index, "message": describe(error),
                    "explain": {"stage": "ag_ui.core.Event"}}
    return {"verdict": "accept"}


def send(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def answer(seq, events) -> dict:
    if not isinstance(events, list):
        return {"seq": seq, "errored": {"message": "run: case.events is not an array"}}
    try:
        return {"seq": seq, "result": run_case(events)}
    except Exception as error:  # an adapter bug, not a verdict
        return {"seq": seq, "errored": {"message": f"adapter failure: {error!r}"}}


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
    events = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        events.append(RawLine(line))
    send(run_case(events))
    return 0


if __name__ == "__main__":
    sys.exit(serve_one_shot() if "--one-shot" in sys.argv[1:] else serve_persistent())
