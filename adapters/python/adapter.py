#!/usr/bin/env python3
"""agui-conform adapter for the AG-UI Python SDK (ag-ui-protocol 1.0.0).

The SDK ships event models and an encoder, no stream verifier, so this adapter
is schema-only: each stream item is validated on its own against the SDK's
discriminated event union (``ag_ui.core.Event``, pydantic), exactly as a
Python consumer decoding a wire event would. The first item that fails is the
rejection; a stream whose items all validate is accepted.

Usage: adapter.py            persistent mode (start/run/stop)
       adapter.py --one-shot one case on stdin, one result line out
Protocol: suites/PROTOCOL.md (version 1), served by adapters/adapter_loop.py.
"""

import json
import os
import sys
from importlib.metadata import version

from pydantic import TypeAdapter, ValidationError

from ag_ui.core import Event

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapter_loop import RawLine, main  # noqa: E402  (the shared protocol loop)

IMPLEMENTATION = {
    "name": "ag-ui-protocol",
    "version": f"{version('ag-ui-protocol')} (pydantic {version('pydantic')})",
    "language": "python",
}
CAPABILITIES = ["verdict", "index", "schema-only", "raw-lines"]
EVENT = TypeAdapter(Event)


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


if __name__ == "__main__":
    main(run_case, IMPLEMENTATION, CAPABILITIES)
