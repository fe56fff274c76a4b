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
Protocol: suites/PROTOCOL.md (version 1), served by adapters/adapter_loop.py.
"""

import os
import sys
from importlib.metadata import version

from ag_ui_validate import create_validator

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapter_loop import RawLine, main  # noqa: E402  (the shared protocol loop)

IMPLEMENTATION = {
    "name": "ag-ui-validate",
    "version": version("ag-ui-validate"),
    "language": "python",
}
CAPABILITIES = ["verdict", "index", "raw-lines"]


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


if __name__ == "__main__":
    main(run_case, IMPLEMENTATION, CAPABILITIES)
