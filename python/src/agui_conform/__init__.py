"""Run the bundled ``agui-conform`` checker from Python tests.

``check`` returns the JSON report of ``agui-conform check --format json``;
``assert_conforms`` turns it into a pytest-friendly assertion whose failure
lists every violation. The checker is the Rust binary this wheel installs as
a script; nothing is re-implemented here.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any, Iterable, Mapping, Union

__all__ = ["check", "assert_conforms", "binary", "rule_ids", "ConformError"]

EventsOrPath = Union[str, "os.PathLike[str]", Iterable[Mapping[str, Any]]]

_EXE = "agui-conform.exe" if sys.platform == "win32" else "agui-conform"


class ConformError(RuntimeError):
    """The checker could not run or did not produce a report (exit status 2:
    a usage or I/O error), as opposed to a stream that does not conform."""


def binary() -> str:
    """The ``agui-conform`` executable: ``$AGUI_CONFORM_BIN``, else the script
    this wheel installed beside the running interpreter, else one on PATH."""
    explicit = os.environ.get("AGUI_CONFORM_BIN")
    if explicit:
        return explicit
    for scheme_dir in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = Path(scheme_dir) / _EXE
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("agui-conform")
    if found:
        return found
    raise ConformError(
        "the agui-conform executable was not found: install the agui-conform wheel "
        "into this environment, or set AGUI_CONFORM_BIN"
    )


def _flags(options: Mapping[str, Any]) -> list[str]:
    """Keyword options as command-line flags: ``no_projection=True`` →
    ``--no-projection``; ``max_line_bytes=10`` → ``--max-line-bytes 10``;
    ``False``/``None`` leave a flag out; a list or tuple repeats it."""
    out: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                out += [flag, str(v)]
        else:
            out += [flag, str(value)]
    return out


def _is_path(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike))


def check(events_or_path: EventsOrPath, **options: Any) -> dict:
    """Checks a stream and returns the checker's JSON report.

    ``events_or_path`` is a path to a recording (JSON Lines or one JSON array)
    or an iterable of events (dicts), sent to the checker as JSON Lines.
    The report is ``{"verdict", "violations", "projection"}`` as
    ``agui-conform check --format json`` prints it; a non-conforming stream
    is a report, not an exception. Raises ``ConformError`` when the checker
    cannot run or reports a usage or I/O error.
    """
    args = [binary(), "check", "--format", "json", *_flags(options)]
    if _is_path(events_or_path):
        args.append(os.fspath(events_or_path))
        stdin = None
    else:
        args.append("-")
        stdin = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events_or_path)
    proc = subprocess.run(
        args, input=stdin, capture_output=True, text=True, encoding="utf-8", check=False
    )
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        report = None
    if not isinstance(report, dict) or "verdict" not in report:
        raise ConformError(
            f"agui-conform check exited with status {proc.returncode}: "
            f"{proc.stderr.strip() or proc.stdout.strip() or 'no output'}"
        )
    return report


@functools.lru_cache(maxsize=None)
def rule_ids() -> frozenset:
    """Every rule id of the checker's catalogue (``agui-conform rules``)."""
    proc = subprocess.run(
        [binary(), "rules", "--format", "json"],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )
    if proc.returncode != 0:
        raise ConformError(f"agui-conform rules failed: {proc.stderr.strip()}")
    return frozenset(r["id"] for r in json.loads(proc.stdout))


def _describe(v: Mapping[str, Any]) -> str:
    at = f" at {v['path']}" if v.get("path") else ""
    return f"  #{v['index']:<5} {v['severity']:<7} {v['rule']}{at}: {v['message']}"


def assert_conforms(
    events_or_path: EventsOrPath,
    allow: Iterable[str] = (),
    strict: bool = False,
    **options: Any,
) -> dict:
    """Asserts that a stream conforms, for pytest.

    Fails (``AssertionError``) when a violation of error severity remains
    once the rules in ``allow`` are set aside, or, with ``strict=True``, a
    warning; also when the checker could not reach a verdict. The message
    lists every remaining violation with its event index. Returns the report.
    """
    allowed = set(allow)
    unknown = sorted(allowed - rule_ids())
    if unknown:
        raise ValueError(f"unknown rule id(s) in allow: {', '.join(unknown)} (see `agui-conform rules`)")
    report = check(events_or_path, **options)
    remaining = [v for v in report.get("violations", []) if v["rule"] not in allowed]
    failing_severities = {"error", "warning"} if strict else {"error"}
    failing = [v for v in remaining if v["severity"] in failing_severities]
    if failing or report["verdict"] not in ("accept", "reject"):
        lines = [
            f"stream does not conform: verdict {report['verdict']}, "
            f"{len(failing)} failing violation(s)"
            + (f" (allowed: {', '.join(sorted(allowed))})" if allowed else "")
        ]
        lines += [_describe(v) for v in remaining]
        rules = list(dict.fromkeys(v["rule"] for v in failing))
        if rules:
            lines.append("explain: " + "; ".join(f"agui-conform explain {r}" for r in rules))
        raise AssertionError("\n".join(lines))
    return report
