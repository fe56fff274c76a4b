"""Run the bundled ``agui-conform`` checker from Python tests.

``check`` returns the JSON report of ``agui-conform check --format json`` for
a file or a list of events, ``check_url`` the report of a live check of an
agent endpoint (``check --url``), ``run_producer`` the run record of the
producer suite (``run --producer``), and ``Checker`` checks events fed one at
a time over one streaming process. ``assert_conforms``,
``assert_endpoint_conforms`` and ``assert_producer_passes`` turn them into
pytest-friendly assertions whose failure lists every violation with its
rule, event index and the rule's statement. The wheel also registers a
pytest plugin (``agui_conform.pytest_plugin``: the ``agui_*`` fixtures).
The checker is the Rust binary this wheel installs as a script; nothing is
re-implemented here.
"""

from __future__ import annotations

import codecs
import fnmatch
import functools
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import IO, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _inputs
from ._inputs import InputError, InputTypeError

__all__ = [
    "check",
    "check_url",
    "run_producer",
    "Checker",
    "assert_conforms",
    "assert_endpoint_conforms",
    "assert_producer_passes",
    "binary",
    "rule_ids",
    "rule",
    "producer_scenarios",
    "ConformError",
    "InputError",
    "InputTypeError",
    "CheckerClosedError",
]

PathLike = Union[str, "os.PathLike[str]"]
Stream = Any
"""What ``check`` takes: event dicts, pydantic events, JSON / JSON Lines /
SSE text as str or bytes, a file object, an iterable of events, or a
``pathlib.Path`` (a file to read)."""
EventsOrPath = Stream
Event = Union[Mapping[str, Any], str, bytes, Any]
Report = Dict[str, Any]
"""A JSON report or record line, as the command printed it."""

_EXE = "agui-conform.exe" if sys.platform == "win32" else "agui-conform"


class ConformError(RuntimeError):
    """The checker could not run or did not produce a report (exit status 2:
    a usage or I/O error, an endpoint that could not be reached), as opposed
    to a stream that does not conform. ``stderr`` holds what the command
    printed on standard error, ``returncode`` its exit status."""

    def __init__(self, message: str, *, stderr: str = "", returncode: Optional[int] = None):
        super().__init__(message)
        self.stderr = stderr
        self.returncode = returncode


class CheckerClosedError(ValueError):
    """A ``Checker`` used after ``finish()`` or ``close()``."""


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


# ---------------------------------------------------------------- flags


def _flags(options: Mapping[str, Any]) -> list[str]:
    """Keyword options as command-line flags: ``no_projection=True`` →
    ``--no-projection``; ``max_line_bytes=10`` → ``--max-line-bytes 10``;
    ``False``/``None`` leave a flag out; a list or tuple repeats it;
    ``rules={"id": "off"}`` → ``--rule id=off``."""
    out: list[str] = []
    for key, value in options.items():
        if key == "rules":
            for rule_id, level in _expand_rules(value or {}).items():
                out += ["--rule", f"{rule_id}={level}"]
            continue
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                out += [flag, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
        else:
            out += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return out


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def _matching(pattern: str, what: str) -> List[str]:
    """The rule ids a family glob (``run.*``) matches, in catalogue
    order; ``ValueError`` when none does."""
    found = [r for r in _catalogue() if fnmatch.fnmatchcase(r, pattern)]
    if not found:
        raise ValueError(f"{what} {pattern!r} matches no rule id (see `agui-conform rules`)")
    return found


def _expand_rules(rules: Mapping[str, str]) -> Dict[str, str]:
    """``rules`` with each family glob (``{"run.*": "off"}``) replaced by
    the rule ids it matches, in order: a later entry wins over an earlier
    one (so settings merged from an ini file and a marker keep the
    marker's)."""
    out: Dict[str, str] = {}
    for pattern, level in rules.items():
        for rule_id in (_matching(pattern, "rules pattern") if _is_glob(pattern) else (pattern,)):
            out.pop(rule_id, None)
            out[rule_id] = level
    return out


def _input_flags(
    message: Optional[str],
    state: Any,
    tools: Optional[Sequence[Union[Mapping[str, Any], PathLike]]],
    forwarded_props: Any,
    headers: Optional[Mapping[str, str]],
) -> list[str]:
    """The flags that shape the RunAgentInput sent and the request:
    ``--message``, ``--state JSON``, ``--tool JSON|@FILE`` (one per tool),
    ``--forwarded-props JSON``, ``--header 'Name: value'``."""
    out: list[str] = []
    if message is not None:
        out += ["--message", message]
    if state is not None:
        out += ["--state", json.dumps(state)]
    for tool in tools or ():
        if isinstance(tool, Mapping):
            out += ["--tool", json.dumps(tool)]
        elif isinstance(tool, os.PathLike):
            out += ["--tool", "@" + os.fspath(tool)]
        else:
            out += ["--tool", str(tool)]  # JSON text or @FILE, as the CLI takes it
    if forwarded_props is not None:
        out += ["--forwarded-props", json.dumps(forwarded_props)]
    for name, value in (headers or {}).items():
        out += ["--header", f"{name}: {value}"]
    return out


def _json_file(tmp: str, name: str, value: Union[Mapping[str, Any], PathLike]) -> str:
    """A path for a flag that takes a JSON file: a path as given, or a
    mapping written to ``tmp/name``."""
    if isinstance(value, Mapping):
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(value, f)
        return path
    return os.fspath(value)


# Where every check also writes its SARIF log and JUnit file while a pytest
# session asks for session-wide reports (``--agui-sarif``/``--agui-junit``:
# the plugin sets it, merges the files at the end of the session).
_session_reports: Optional[Callable[[], Dict[str, str]]] = None


def _with_session_reports(options: Mapping[str, Any]) -> Dict[str, Any]:
    """``options`` plus the session's ``sarif``/``junit`` files, where the
    caller asked for none of its own."""
    out = dict(options)
    if _session_reports is not None:
        for key, path in _session_reports().items():
            out.setdefault(key, path)
    return out


def _run(args: list[str], stdin: Optional[bytes] = None) -> subprocess.CompletedProcess[str]:
    """Runs the command; ``stdin`` goes in as bytes (what the wrapper made
    of the input, lone surrogates escaped), its output comes back as text."""
    proc = subprocess.run(args, input=stdin, capture_output=True, check=False)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode,
        proc.stdout.decode("utf-8", errors="replace"), proc.stderr.decode("utf-8", errors="replace"),
    )


def _failed(what: str, proc: subprocess.CompletedProcess[str], detail: str = "") -> ConformError:
    said = proc.stderr.strip() or detail or proc.stdout.strip()[:2000] or "no output"
    return ConformError(
        f"{what} exited with status {proc.returncode}: {said}",
        stderr=proc.stderr, returncode=proc.returncode,
    )


def _report(what: str, proc: subprocess.CompletedProcess[str]) -> Report:
    """The JSON report on stdout, or ``ConformError`` (exit 2, no report)."""
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        report = None
    if proc.returncode == 2 or not isinstance(report, dict) or "verdict" not in report:
        detail = report.get("error", "") if isinstance(report, dict) else ""
        raise _failed(what, proc, detail)
    return report


# ---------------------------------------------------------------- check


def _stdin_of(events_or_path: Stream, path: Optional[PathLike] = None,
              format: Optional[str] = None) -> Tuple[List[str], Optional[bytes]]:
    """The input arguments (``--input-format F``, then a path or ``-``)
    and what goes on stdin (``_inputs`` says how each kind of input is
    sent)."""
    if path is not None:
        if events_or_path is not None:
            raise InputTypeError("give the stream or path=..., not both")
        events_or_path = Path(os.fspath(path))
    if isinstance(events_or_path, os.PathLike):
        fmt = ["--input-format", _inputs.sniff(b"", format)] if format else []
        return [*fmt, os.fspath(events_or_path)], None
    body, fmt = _inputs.stream_of(events_or_path, format)
    return [*(["--input-format", fmt] if fmt else []), "-"], body


def _check(source: List[str], stdin: Optional[bytes], options: Mapping[str, Any]) -> Report:
    if "url" in options:
        raise TypeError(
            "check() checks a file or a list of events; check a live endpoint with "
            "check_url(url, message=...) (or assert_endpoint_conforms)"
        )
    options = _with_session_reports(options)
    proc = _run([binary(), "check", "--format", "json", *_flags(options), *source], stdin)
    return _report("agui-conform check", proc)


def check(events_or_path: Stream = None, *, path: Optional[PathLike] = None, format: Optional[str] = None,
          rules: Optional[Mapping[str, str]] = None, **options: Any) -> Report:
    """Checks a stream and returns the checker's JSON report.

    The stream is given as it comes: a list (any iterable) of event dicts,
    of pydantic events of ``ag_ui.core`` (serialized as its
    ``EventEncoder`` writes them) or of one event's JSON text each; one
    event dict or model; JSON text, JSON Lines text or a saved SSE body as
    ``str`` or ``bytes``; a file object. ``format`` (``"jsonl"``,
    ``"json"``, ``"sse"``) forces how text is read, else it is sniffed
    (SSE when its first line starts ``data:``, ``event:``, ``id:``,
    ``retry:`` or ``:``). A ``str`` is never taken for a path: a file is
    checked with ``path="recording.jsonl"`` or ``pathlib.Path(...)`` (JSON
    Lines, one JSON array, a saved SSE body, a corpus case). Strings reach
    the checker losslessly (a lone surrogate as its ``\\uD83D`` escape).
    A wrong type is an ``InputTypeError`` (a ``TypeError``) naming what is
    accepted.

    The report is ``agui-conform check --format json``'s: ``{"violations",
    "limits", "counts", "events", "verdict", "runs", "projection"}``; a
    non-conforming stream is a report, not an exception. ``rules`` maps
    rule ids to ``error``/``warning``/``off`` (``--rule ID=LEVEL``); other
    keywords become flags of ``check``: ``sarif="out.sarif"``, ``junit=…``,
    ``html=…`` and ``json=…`` also write those reports (``json``'s file is
    this report, byte for byte), ``group=True`` adds a per-rule ``groups``
    list, ``docs_url=BASE`` makes each violation's ``doc`` an absolute URL.
    Raises ``ConformError`` when the checker cannot run or reports a usage
    or I/O error (exit status 2).
    """
    source, stdin = _stdin_of(events_or_path, path, format)
    return _check(source, stdin, {"rules": rules, **options})


def _text_report(source: List[str], stdin: Optional[bytes], options: Mapping[str, Any]) -> str:
    """``check``'s readable report of the same input (every violation)."""
    written = ("no_projection", "max_violations", "format", "json", "sarif", "junit", "html")
    opts = {k: v for k, v in options.items() if k not in written}
    proc = _run([binary(), "check", "--all", *_flags(opts), *source], stdin)
    return proc.stdout.rstrip("\n") or proc.stderr.rstrip("\n")


# ---------------------------------------------------------------- check_url


def check_url(
    url: str,
    *,
    message: Optional[str] = None,
    input: Optional[Union[Mapping[str, Any], PathLike]] = None,
    state: Any = None,
    tools: Optional[Sequence[Union[Mapping[str, Any], PathLike]]] = None,
    forwarded_props: Any = None,
    headers: Optional[Mapping[str, str]] = None,
    timeout: Optional[float] = None,
    rules: Optional[Mapping[str, str]] = None,
    **options: Any,
) -> Report:
    """Checks a running agent: POSTs a ``RunAgentInput`` to ``url``, checks
    the Server-Sent Events it answers with (``agui-conform check --url URL
    --format json``, the ``transport.*`` rules included) and returns the
    report, as ``check`` does.

    ``message`` → ``--message`` (a user message; without ``input`` the only
    one), ``input`` → ``--input FILE`` (a RunAgentInput dict, written to a
    temporary file, or a path), ``state`` → ``--state JSON``, ``tools`` →
    one ``--tool`` per tool definition (a dict; a path is ``@FILE``),
    ``forwarded_props`` → ``--forwarded-props JSON``, ``headers`` → one
    ``--header 'Name: value'`` each, ``timeout`` (seconds, the whole
    exchange) → ``--timeout``, ``rules`` → ``--rule ID=LEVEL``; other
    keywords become flags (``idle_timeout=5``, ``save="run.jsonl"``,
    ``no_projection=True``, ``sarif="agui.sarif"``, ``docs_url=BASE``, as
    for ``check``). A stream cut by a time limit is verdict
    ``inconclusive``. Raises ``ConformError`` carrying the command's stderr
    when nothing could be checked (exit status 2: no connection, a body
    with no event, a usage error).
    """
    return _check_url(url, message=message, input=input, state=state, tools=tools,
                      forwarded_props=forwarded_props, headers=headers, timeout=timeout,
                      rules=rules, **options)[0]


# check_url's keywords that shape the request rather than name a flag.
_REQUEST_KEYWORDS = ("message", "input", "state", "tools", "forwarded_props", "headers", "timeout")


def _check_url(url: str, **kwargs: Any) -> tuple[Report, str]:
    """``check_url``'s report and what the command printed on stderr."""
    with tempfile.TemporaryDirectory(prefix="agui-conform-") as tmp:
        args = [binary(), "check", "--url", url, "--format", "json"]
        request = {k: kwargs.pop(k, None) for k in _REQUEST_KEYWORDS}
        if request["input"] is not None:
            args += ["--input", _json_file(tmp, "input.json", request["input"])]
        args += _input_flags(request["message"], request["state"], request["tools"],
                             request["forwarded_props"], request["headers"])
        if request["timeout"] is not None:
            args += ["--timeout", str(request["timeout"])]
        args += _flags(_with_session_reports(kwargs))
        proc = _run(args)
    return _report(f"agui-conform check --url {url}", proc), proc.stderr


# ---------------------------------------------------------------- run_producer


def _json_lines(text: str) -> List[Report]:
    out: List[Report] = []
    for line in text.splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass  # a record's last line cut by a kill
    return out


def run_producer(
    url: str,
    suite: PathLike = "producer",
    *,
    base_input: Optional[Union[Mapping[str, Any], PathLike]] = None,
    message: Optional[str] = None,
    state: Any = None,
    tools: Optional[Sequence[Union[Mapping[str, Any], PathLike]]] = None,
    forwarded_props: Any = None,
    headers: Optional[Mapping[str, str]] = None,
    timeout: Optional[float] = None,
    rules: Optional[Mapping[str, str]] = None,
    record: Optional[PathLike] = None,
    **options: Any,
) -> Report:
    """Runs the producer suite against the agent at ``url`` (``agui-conform
    run --producer URL --suite SUITE --format json --record FILE``) and
    returns ``{"header", "scenarios", "footer", "summary"}``: the run
    record's lines (docs/run-record.schema.json; one ``scenario`` per
    scenario with its ``score`` — PASS, WARN, SKIPPED, FAIL or ERRORED —,
    ``violations``, ``steps`` with each request sent, and ``stream``; the
    ``footer`` has ``status`` and ``exit_status``) and the ``summary`` line
    the command prints.

    ``suite`` is a suite name or a folder/file of scenarios; ``base_input``
    → ``--base-input FILE`` (a dict or a path), merged into every scenario's
    first request; ``message``, ``state``, ``tools``, ``forwarded_props``,
    ``headers`` and ``rules`` as for ``check_url``; ``timeout`` (seconds,
    per request) → ``--timeout-ms``; ``record`` keeps the run record at that
    path (else a temporary file); other keywords become flags of ``run``
    (``filter="plain"``, ``idle_timeout=30``, ``captures="dir"``,
    ``tool_name="client_weather"`` to rename the suite's client tool). Raises
    ``ConformError`` carrying the command's stderr on a usage or I/O error
    (exit status 2) or when no scenario ran.
    """
    with tempfile.TemporaryDirectory(prefix="agui-conform-") as tmp:
        record_path = os.fspath(record) if record is not None else os.path.join(tmp, "record.jsonl")
        Path(record_path).unlink(missing_ok=True)  # never read an earlier run's record
        args = [binary(), "run", "--producer", url, "--suite", os.fspath(suite),
                "--format", "json", "--no-progress", "--record", record_path]
        if base_input is not None:
            args += ["--base-input", _json_file(tmp, "base-input.json", base_input)]
        args += _input_flags(message, state, tools, forwarded_props, headers)
        if timeout is not None:
            args += ["--timeout-ms", str(max(1, round(timeout * 1000)))]
        args += _flags(_with_session_reports({"rules": rules, **options}))
        proc = _run(args)
        try:
            with open(record_path, encoding="utf-8") as f:
                lines = _json_lines(f.read())
        except OSError:
            lines = []
    what = f"agui-conform run --producer {url}"
    if proc.returncode == 2 or not lines or lines[0].get("kind") != "header":
        raise _failed(what, proc)
    summary = next((x["summary"] for x in _json_lines(proc.stdout) if "summary" in x), None)
    return {
        "header": lines[0],
        "scenarios": [x for x in lines if x.get("kind") == "scenario"],
        "footer": next((x for x in lines if x.get("kind") == "footer"), None),
        "summary": summary,
    }


# ---------------------------------------------------------------- Checker


class _Drain:
    """Reads a pipe to its end on a daemon thread, so the process never
    blocks on a full pipe. With ``findings``, also parses the violations of
    a JSON report as they are printed (``{"violations":[{…},{…}`` comes
    first, one object at a time). Holds no reference to the Checker."""

    _PREFIX = '{"violations":['

    def __init__(self, pipe: IO[bytes], findings: bool, acks: bool = False):
        self.chunks: list[bytes] = []
        self.findings: List[Report] = []
        # Held while a chunk read from the pipe is being taken in: with the
        # pipe empty and the lock free, everything written so far is taken.
        self.lock = threading.Lock()
        # ``check --ack``: the input bytes judged so far, from stderr.
        self.acked = 0
        self.ack_changed = threading.Condition()
        self._acks = acks
        self._line = b""
        self._state = "prefix" if findings else "done"
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._json = json.JSONDecoder()
        self._text = ""
        self.fd = pipe.fileno()
        self.thread = threading.Thread(target=_drain, args=(pipe, self), daemon=True)
        self.thread.start()

    def take(self, chunk: bytes) -> None:
        if self._acks:
            chunk = self._take_acks(chunk)
        self.chunks.append(chunk)
        if self._state == "done":
            return
        self._text += self._decoder.decode(chunk)
        if self._state == "prefix":
            if not (self._text.startswith(self._PREFIX) or self._PREFIX.startswith(self._text)):
                self._state = "done"  # not the report form this parser knows
                return
            if len(self._text) < len(self._PREFIX):
                return
            self._text = self._text[len(self._PREFIX):]
            self._state = "array"
        text, pos = self._text, 0
        while True:
            while pos < len(text) and text[pos] in " \t\r\n,":
                pos += 1
            if pos >= len(text):
                break
            if text[pos] == "]":
                self._state = "done"  # every violation is out
                break
            try:
                obj, pos = self._json.raw_decode(text, pos)
            except ValueError:
                break  # the object is not whole yet
            self.findings.append(obj)
        self._text = "" if self._state == "done" else text[pos:]

    def _take_acks(self, chunk: bytes) -> bytes:
        """``chunk`` without the ``agui-conform-ack N`` lines, which move
        ``acked`` on."""
        text, kept = self._line + chunk, []
        lines = text.split(b"\n")
        self._line = lines.pop()  # an unfinished line waits for the rest
        acked = None
        for line in lines:
            if line.startswith(_ACK):
                try:
                    acked = int(line[len(_ACK):])
                except ValueError:
                    kept.append(line + b"\n")
            else:
                kept.append(line + b"\n")
        if acked is not None:
            with self.ack_changed:
                self.acked = max(self.acked, acked)
                self.ack_changed.notify_all()
        return b"".join(kept)

    def pending(self) -> Optional[int]:
        """Bytes written to the pipe and not yet read (``None`` where the
        platform cannot tell)."""
        try:
            import fcntl
            import termios

            buf = bytearray(4)
            fcntl.ioctl(self.fd, termios.FIONREAD, buf)
            return int.from_bytes(buf, sys.byteorder)
        except (ImportError, OSError, AttributeError, ValueError):
            return None

    def text(self) -> str:
        return (b"".join(self.chunks) + self._line).decode("utf-8", errors="replace")


_ACK = b"agui-conform-ack "


def _drain(pipe: IO[bytes], sink: _Drain) -> None:
    try:
        use_select = sys.platform != "win32"
        while True:
            if use_select:
                import select

                select.select([pipe], [], [])
                with sink.lock:
                    chunk = os.read(sink.fd, 1 << 16)
                    if chunk:
                        sink.take(chunk)
            else:
                chunk = pipe.read1(1 << 16) if hasattr(pipe, "read1") else pipe.read(1 << 16)
                if chunk:
                    sink.take(chunk)
            if not chunk:
                break
    except (OSError, ValueError):
        pass
    finally:
        if sink._acks:
            with sink.ack_changed:
                sink._acks = False  # no more acks: nobody waits for one
                sink.ack_changed.notify_all()
        try:
            pipe.close()
        except OSError:
            pass


def _shutdown(proc: subprocess.Popen[bytes], spool: IO[bytes]) -> None:
    """Kills the checker if it still runs and closes its pipes (close,
    ``with`` exit, garbage collection)."""
    if proc.poll() is None:
        proc.kill()
    for pipe in (proc.stdin,):
        try:
            if pipe:
                pipe.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    spool.close()


class Checker:
    """Checks a stream fed one event at a time, over ONE streaming
    ``agui-conform check - --format json`` process: its stdin stays open
    while you ``feed``, findings are printed as they are found (``violations``
    shows those printed so far), and ``finish()`` closes the input and
    returns the whole report, as ``check`` does.

    ``format`` (``"jsonl"``, ``"json"``, ``"sse"``) says how the fed
    text is read; by default the first ``feed`` decides (SSE text makes it
    an SSE stream, anything else JSON Lines). ``rules`` and other keywords
    are ``check``'s. Use it as a context
    manager, or call ``close()``; the process is killed on close and when
    the Checker is garbage-collected. Its stdout and stderr are read on
    threads, so feeding never deadlocks on a full pipe.
    """

    def __init__(self, *, format: Optional[str] = None, rules: Optional[Mapping[str, str]] = None,
                 allow: Iterable[str] = (), strict: bool = False, **options: Any):
        if "url" in options:
            raise TypeError("Checker checks events you feed; check a live endpoint with check_url(url)")
        self._options = _with_session_reports({"rules": rules, **options})
        self._allow, self._strict = tuple([allow] if isinstance(allow, str) else allow), strict
        self._mode: Optional[str] = _inputs.sniff(b"", format) if format else None
        fmt = ["--input-format", format] if format else []
        # Where the pipes can be polled, feed() waits for the checker's
        # acknowledgement that what it fed is judged (check --ack).
        self._judged_sync = sys.platform != "win32"
        ack = ["--ack"] if self._judged_sync else []
        self._proc = subprocess.Popen(
            [binary(), "check", "--format", "json", *ack, *_flags(self._options), *fmt, "-"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self._out = _Drain(self._proc.stdout, findings=True)  # type: ignore[arg-type]
        self._err = _Drain(self._proc.stderr, findings=False, acks=self._judged_sync)  # type: ignore[arg-type]
        self._written = 0
        # What was fed, kept on disk for the readable report of a failure.
        self._spool: IO[bytes] = tempfile.TemporaryFile(prefix="agui-conform-")
        self._finalizer = weakref.finalize(self, _shutdown, self._proc, self._spool)
        self._report: Optional[Report] = None
        self.fed = 0
        """How many events were fed (lines of JSON, or SSE ``data:`` lines)."""

    @property
    def violations(self) -> List[Report]:
        """The violations found so far: ``feed`` returns once what it sent
        is judged, so each event's violations are here when it returns
        (on Windows they may lag a little). A violation only the end of the
        stream shows (``run.unterminated``) comes with ``finish()``, whose
        report has them all."""
        if self._report is not None:
            return list(self._report.get("violations", []))
        return list(self._out.findings)

    def _chunk(self, event: Event) -> Tuple[bytes, int]:
        """What ``event`` puts on the checker's stdin, and how many events
        that is; the first feed fixes the stream's form (SSE or JSON)."""
        if isinstance(event, Mapping) or _inputs.is_model(event):
            line = _inputs.event_json(event)
            self._mode = self._mode or "jsonl"
            return (b"data: " + line + b"\n\n" if self._mode == "sse" else line + b"\n"), 1
        if not isinstance(event, (str, bytes, bytearray, memoryview)):
            raise InputTypeError(
                "feed() takes an event dict, a pydantic event of ag_ui.core, or text (str or bytes): "
                f"one event's JSON, JSON Lines, or SSE; not a {type(event).__name__}"
            )
        data = _inputs._data(event) or b""
        sse = _inputs.looks_like_sse(data)
        self._mode = self._mode or ("sse" if sse else "jsonl")
        if self._mode == "sse":
            if sse:
                return data, data.count(b"data:")
            return b"data: " + _inputs.element_line(event) + b"\n\n", 1
        if sse:
            raise InputError(
                "this Checker reads JSON (its first feed was JSON): SSE text needs "
                "Checker(format='sse') or SSE text as the first feed"
            )
        joined = _inputs.one_json_value(data)
        if joined is not None:
            return joined + b"\n", 1
        data = data[:-1] if data.endswith(b"\n") else data
        return data + b"\n", sum(1 for line in data.split(b"\n") if line.strip())

    def feed(self, event: Event) -> None:
        """Sends one event or more: a dict, a pydantic event of
        ``ag_ui.core``, one event's JSON text, JSON Lines text, or SSE text
        (str or bytes; text is sent as it is: a line that is not JSON is
        ``schema.not-json``). Raises ``InputTypeError`` for anything else,
        ``CheckerClosedError`` after ``finish()`` or ``close()``."""
        if self._report is not None or not self._finalizer.alive:
            raise CheckerClosedError("this Checker is finished or closed; start a new one")
        line, count = self._chunk(event)
        try:
            self._proc.stdin.write(line)  # type: ignore[union-attr]
            self._proc.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError):
            self._proc.wait()
            self._out.thread.join()
            self._err.thread.join()
            raise ConformError(
                f"agui-conform check exited with status {self._proc.returncode} while being fed: "
                f"{self._err.text().strip() or 'no output'}",
                stderr=self._err.text(), returncode=self._proc.returncode,
            ) from None
        self._spool.write(line)
        self.fed += count
        self._written += len(line)
        self._wait_judged()

    def _wait_judged(self, timeout: float = 30.0) -> None:
        """Returns once the checker has judged every byte fed and its
        findings are taken in (``violations`` shows them), or the checker
        stopped reading, or after ``timeout`` seconds."""
        if not self._judged_sync:
            return
        deadline = time.monotonic() + timeout
        err = self._err
        with err.ack_changed:
            while err._acks and err.acked < self._written and self._proc.poll() is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                err.ack_changed.wait(min(left, 0.5))
        # What the checker wrote before its acknowledgement is in the pipe:
        # wait until the reading thread has taken it all in.
        while time.monotonic() < deadline:
            with self._out.lock:
                pending = self._out.pending()
                if pending is None or pending == 0:
                    return
            time.sleep(0.0005)

    def feed_all(self, events: Iterable[Event]) -> None:
        """Feeds every event of ``events``, in order."""
        for event in events:
            self.feed(event)

    def finish(self, timeout: Optional[float] = None) -> Report:
        """Ends the input and returns the report (the same report again when
        called twice). Raises ``ConformError`` when the checker could not
        run (exit status 2), ``subprocess.TimeoutExpired`` after ``timeout``
        seconds (the process is then killed)."""
        if self._report is not None:
            return self._report
        if not self._finalizer.alive:
            raise CheckerClosedError("this Checker was closed before it finished")
        try:
            self._proc.stdin.close()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError):
            pass
        try:
            self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.close()
            raise
        self._out.thread.join()
        self._err.thread.join()
        proc = subprocess.CompletedProcess(self._proc.args, self._proc.returncode,
                                           self._out.text(), self._err.text())
        self._report = _report("agui-conform check", proc)
        return self._report

    def text_report(self) -> str:
        """``check``'s readable report of what was fed (checked again from
        the copy kept on disk)."""
        if not self._finalizer.alive:
            raise CheckerClosedError("this Checker is closed")
        self._spool.flush()
        self._spool.seek(0)
        fed = self._spool.read()
        fmt = ["--input-format", self._mode] if self._mode else []
        return _text_report([*fmt, "-"], fed, self._options)

    def assert_conforms(self, allow: Optional[Iterable[str]] = None, strict: Optional[bool] = None) -> Report:
        """``finish()``, then fails (``AssertionError``) as
        ``assert_conforms`` does, with the readable report; ``allow`` and
        ``strict`` default to the Checker's own."""
        __tracebackhide__ = True
        allowed = _allowed(self._allow if allow is None else allow)
        strict = self._strict if strict is None else strict
        report = self.finish()
        _judge(report, allowed, strict, "the stream fed", self.text_report)
        return report

    def close(self) -> None:
        """Kills the checker process if it still runs. Idempotent."""
        self._finalizer()

    def __enter__(self) -> "Checker":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ---------------------------------------------------------------- assertions


@functools.lru_cache(maxsize=None)
def _catalogue() -> Mapping[str, Mapping[str, Any]]:
    proc = _run([binary(), "rules", "--format", "json"])
    if proc.returncode != 0:
        raise _failed("agui-conform rules", proc)
    return {r["id"]: r for r in json.loads(proc.stdout)}


def rule_ids() -> frozenset[str]:
    """Every rule id of the checker's catalogue (``agui-conform rules``)."""
    return frozenset(_catalogue())


def rule(rule_id: str) -> Mapping[str, Any]:
    """One rule of the catalogue: ``{"id", "area", "severity",
    "obligation", "statement", "source", "quote"?}`` (``agui-conform explain
    RULE --format json``). ``KeyError`` for an unknown id."""
    return _catalogue()[rule_id]


def _allowed(allow: Iterable[str]) -> set[str]:
    if isinstance(allow, str):
        allow = (allow,)
    allowed: set[str] = set()
    for a in allow:
        allowed.update(_matching(a, "allow pattern") if _is_glob(a) else (a,))
    unknown = sorted(allowed - rule_ids())
    if unknown:
        raise ValueError(f"unknown rule id(s) in allow: {', '.join(unknown)} (see `agui-conform rules`)")
    return allowed


def _statement(rule_id: str) -> str:
    entry = _catalogue().get(rule_id)
    return entry["statement"] if entry else "(not in this checker's catalogue)"


def _judge(report: Mapping[str, Any], allowed: set[str], strict: bool, source: str, text: Callable[[], str],
           heading: str = "agui-conform's report:") -> None:
    """Raises ``AssertionError`` when ``report`` fails: a violation of error
    severity not in ``allowed`` (a warning too, with ``strict``), or no
    verdict of accept or reject. The message: a summary, every failing
    violation by rule with its indexes and the rule's statement, then
    ``text()``, the checker's readable report."""
    __tracebackhide__ = True
    severities = {"error", "warning"} if strict else {"error"}
    failing = [v for v in report.get("violations", [])
               if v["rule"] not in allowed and v["severity"] in severities]
    if not failing and report.get("verdict") in ("accept", "reject"):
        return
    if report.get("verdict") == "inconclusive" and not any(v["severity"] == "error" for v in failing):
        # A time-out or another limit: nothing shown wrong, nothing shown right.
        head = (f"{source} could not be judged: verdict inconclusive, "
                f"{len(failing)} failing violation(s)")
    else:
        head = (f"{source} does not conform: verdict {report.get('verdict')}, "
                f"{len(failing)} failing violation(s)")
    if allowed:
        head += f" (allowed: {', '.join(sorted(allowed))})"
    lines = [head]
    if report.get("reason"):
        lines.append(f"  {report['reason']}")
    for n in report.get("limits", []):
        lines.append(f"  #{n['index']} limit {n['kind']}: {n['message']}")
    by_rule: dict[str, list[Mapping[str, Any]]] = {}
    for v in failing:
        by_rule.setdefault(v["rule"], []).append(v)
    for rule_id, vs in by_rule.items():
        at = ", ".join(f"#{v['index']}" for v in vs)
        first = vs[0]
        lines.append(f"  {rule_id} ({first['severity']}, {first.get('obligation', '?')}) at {at}")
        lines.append(f"      rule: {_statement(rule_id)}")
        if first.get("doc"):
            lines.append(f"      see:  agui-conform explain {rule_id} ({first['doc']})")
    lines += ["", heading, text()]
    raise AssertionError("\n".join(lines))


def assert_conforms(
    events_or_path: Stream = None,
    allow: Iterable[str] = (),
    strict: bool = False,
    *,
    path: Optional[PathLike] = None,
    format: Optional[str] = None,
    rules: Optional[Mapping[str, str]] = None,
    **options: Any,
) -> Report:
    """Asserts that a stream (a path or an iterable of events) conforms,
    for pytest.

    Fails (``AssertionError``) when a violation of error severity remains
    once the rules in ``allow`` are set aside, or, with ``strict=True``, a
    warning; also when the checker could not reach a verdict. The message
    lists every failing violation by rule with its event indexes and the
    rule's statement, then ``agui-conform check``'s readable report of the
    stream. An unknown rule id in ``allow`` is a ``ValueError``. Returns
    the report.
    """
    __tracebackhide__ = True
    allowed = _allowed(allow)
    source, stdin = _stdin_of(events_or_path, path, format)
    opts = {"rules": rules, **options}
    report = _check(source, stdin, opts)
    name = "the stream" if stdin is not None else source[-1]
    _judge(report, allowed, strict, name, lambda: _text_report(source, stdin, opts))
    return report


def assert_endpoint_conforms(url: str, allow: Iterable[str] = (), strict: bool = False, **kwargs: Any) -> Report:
    """``check_url`` (same keywords: ``message``, ``input``, ``state``,
    ``tools``, ``forwarded_props``, ``headers``, ``timeout``, ``rules``, …)
    with the failure of ``assert_conforms``: fails (``AssertionError``)
    listing every failing violation, the ``transport.*`` rules included, by
    rule with its indexes and statement, then what the checker printed as
    the stream arrived. Returns the report; raises ``ConformError`` when the
    endpoint could not be checked at all."""
    __tracebackhide__ = True
    allowed = _allowed(allow)
    report, stderr = _check_url(url, **kwargs)
    _judge(report, allowed, strict, url, lambda: stderr.rstrip("\n"),
           "agui-conform check --url printed as the stream arrived:")
    return report


def producer_scenarios(suite: PathLike = "producer") -> List[str]:
    """The ids of a producer suite's scenarios (a name or a folder), in the
    order ``run_producer`` runs them: what a test parametrizes over
    (``agui-conform suites --scenarios SUITE``)."""
    proc = _run([binary(), "suites", "--scenarios", os.fspath(suite)])
    if proc.returncode != 0:
        raise _failed(f"agui-conform suites --scenarios {os.fspath(suite)}", proc)
    return [s["id"] for s in json.loads(proc.stdout)]


def assert_producer_passes(url: str, suite: PathLike = "producer", strict: bool = False,
                           scenario: Optional[str] = None, **kwargs: Any) -> Report:
    """``run_producer`` as an assertion: fails (``AssertionError``) when a
    scenario scored FAIL or ERRORED (with ``strict=True``, WARN too) or the
    run was incomplete, listing each such scenario with why and its
    violations (rule, index, statement). Keywords are ``run_producer``'s.
    Returns its result."""
    __tracebackhide__ = True
    if scenario is not None:
        kwargs["filter"] = scenario
    result = run_producer(url, suite, **kwargs)
    if scenario is not None:
        result["scenarios"] = [s for s in result["scenarios"] if s["id"] == scenario]
        if not result["scenarios"]:
            raise ConformError(f"the producer suite `{os.fspath(suite)}` has no scenario {scenario!r}")
    scored = result["scenarios"]
    if scored and all(s["score"] == "SKIPPED" for s in scored):
        import pytest  # only here: the module runs without pytest too

        reasons = "; ".join(f"{s['id']}: {s.get('skipped') or 'skipped'}" for s in scored)
        pytest.skip(f"SKIPPED by the producer suite: {reasons}")
    bad = {"FAIL", "ERRORED", "WARN"} if strict else {"FAIL", "ERRORED"}
    failing = [s for s in result["scenarios"] if s["score"] in bad]
    footer = result["footer"] or {}
    if not failing and (footer.get("status") == "passed" or scenario is not None):
        return result
    scores = (result["summary"] or {}).get("scores", footer.get("totals", {}))
    lines = [f"{url} fails the producer suite `{os.fspath(suite)}` "
             f"({footer.get('status', 'no footer')}): "
             + ", ".join(f"{n} {k}" for k, n in scores.items() if n)]
    if footer.get("incomplete"):
        lines.append(f"  incomplete: {footer['incomplete']}")
    for s in failing:
        why = s.get("failure") or s.get("refused") or ""
        lines.append(f"  {s['score']:<8}{s['id']}  {s['events']} events" + (f": {why}" if why else ""))
        for v in s.get("violations", []):
            lines.append(f"      #{v['index']:<5} {v['severity']:<7} {v['rule']}: {v['message']}")
            lines.append(f"             rule: {_statement(v['rule'])}")
    raise AssertionError("\n".join(lines))
