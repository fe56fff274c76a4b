"""Streams and a tiny AG-UI producer for the tests: a loopback HTTP server
(http.server on a thread) that answers each POSTed RunAgentInput with a run
as Server-Sent Events, and records what it was sent.

Paths: ``/valid`` a run in which subagent s1 streams one message of its own;
``/invalid`` the same run with event 3 continuing s1's message under s2's tag
(``ownership.continuation-disagrees``, error, must-reject); ``/status500``
an HTTP 500 JSON error (``transport.status``); ``/hang`` RUN_STARTED, then
keep-alive comments for up to ten seconds; ``/warned`` a valid run with a
tool call whose arguments are not JSON (``tool.args-not-json``, warning,
at event 3)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def run(*events, thread="t1", run_id="r1"):
    return [{"type": "RUN_STARTED", "threadId": thread, "runId": run_id}, *events,
            {"type": "RUN_FINISHED", "threadId": thread, "runId": run_id}]


def subagent_message(disagree=False, prefix="", **ids):
    """A run in which subagent s1 is announced, streams message m1 and
    finishes; with ``disagree``, the content event (#3) is tagged s2. The
    ids of s1, s2 and m1 start with ``prefix`` (each run its own)."""
    s1, s2, m1 = prefix + "s1", prefix + "s2", prefix + "m1"
    return run(
        {"type": "SUBAGENT_STARTED", "subagentRunId": s1, "name": "researcher"},
        {"type": "TEXT_MESSAGE_START", "messageId": m1, "role": "assistant", "subagentRunId": s1},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": m1, "delta": "hi",
         "subagentRunId": s2 if disagree else s1},
        {"type": "TEXT_MESSAGE_END", "messageId": m1, "subagentRunId": s1},
        {"type": "SUBAGENT_FINISHED", "subagentRunId": s1},
        **ids,
    )


# A subagent streams one message of its own, announced and closed.
VALID = subagent_message()
# Event 3 continues s1's message under s2's tag.
INVALID = subagent_message(disagree=True)


class _Handler(BaseHTTPRequestHandler):
    server: "AguiServer"
    protocol_version = "HTTP/1.1"

    def do_POST(self):  # noqa: N802 (http.server's name)
        size = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(size) or b"{}")
        self.server.requests.append(
            {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
        )
        ids = {"thread": body.get("threadId", "t"), "run_id": body.get("runId", "r")}
        if self.path == "/status500":
            payload = b'{"error": "no model configured"}'
            self.send_response(500)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            if self.path == "/hang":
                self._send(run(**ids)[0])
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    time.sleep(0.05)
                    self.wfile.write(b": still thinking\n\n")
                    self.wfile.flush()
                return
            if self.path == "/warned":
                for event in run(
                    {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
                    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{not json"},
                    {"type": "TOOL_CALL_END", "toolCallId": "c1"}, **ids,
                ):
                    self._send(event)
                return
            # Ids of the run's own: a later run of the thread announcing
            # "s1" again would resume an invocation that had finished.
            for event in subagent_message(self.path == "/invalid", ids["run_id"] + "/", **ids):
                self._send(event)
        except OSError:
            pass  # the checker hung up (its time limit)

    def _send(self, event):
        self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
        self.wfile.flush()

    def log_message(self, *args):
        pass


class AguiServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list = []
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()
