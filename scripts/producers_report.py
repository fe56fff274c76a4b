#!/usr/bin/env python3
"""Runs the real producers of adapters/producers/ and writes their report.

For each producer: start its server on a loopback port, read its versions,
send one request per scenario (`agui-conform check --url`, JSON report and
the stream saved), resume every interrupted run with the interrupt ids the
producer itself emitted and check the two runs as one conversation, run the
producer suite (`agui-conform run --producer`), stop the server. Then render
docs/conformance/producers.md. Standard library only; called by
scripts/producers-report.sh (which installs and builds first).

Usage: producers_report.py --bin AGUI_CONFORM --work DIR --out FILE [--only NAME ...] [--suite S] [--readme README.md]
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCERS_DIR = os.path.join(ROOT, "adapters", "producers")
VALIDATE = [os.path.join(ROOT, "adapters", "validate", ".venv", "bin", "python"),
            os.path.join(ROOT, "adapters", "validate", "adapter.py"), "--one-shot"]
sys.path.insert(0, PRODUCERS_DIR)

from common.script import MESSAGES  # noqa: E402

APPROVE = {"approved": True}
# name: label, packages whose versions are shown, paths served, what its
# framework has, and the resume payload its interrupts take.
PRODUCERS = {
    "langgraph": {
        "label": "ag-ui-langgraph + deepagents",
        "paths": {"/": "subagents attributed, interrupt outcome on", "/legacy": "defaults (subagents inline, no interrupt outcome)"},
        "scenarios": ["text", "tool", "state", "interrupt", "confirm", "subagents", "subagent-interrupt", "failure"],
        "legacy_scenarios": ["interrupt", "subagents", "subagent-interrupt"],
        "resume": {"decisions": [{"type": "approve"}]},
    },
    "pydantic-ai": {
        "label": "pydantic-ai AG-UI adapter (FunctionModel)",
        "paths": {"/": "AGUIAdapter.dispatch_request"},
        "scenarios": ["text", "tool", "state", "interrupt", "confirm", "failure", "state-mismatch"],
        "resume": APPROVE,
    },
    "adk": {
        "label": "ag-ui-adk + google-adk (custom BaseLlm)",
        "paths": {"/": "interrupt outcome on", "/legacy": "defaults (a confirmation is a client tool call, no interrupt outcome)"},
        "scenarios": ["text", "tool", "state", "interrupt", "confirm", "subagents", "failure"],
        "legacy_scenarios": ["interrupt"],
        "resume": APPROVE,
    },
    "strands": {
        "label": "ag-ui-strands + strands-agents (custom Model)",
        "paths": {"/": "add_strands_fastapi_endpoint"},
        "scenarios": ["text", "tool", "state", "interrupt", "confirm", "failure"],
        "resume": APPROVE,
    },
}
# The scenarios whose resume declines (status cancelled), to exercise that path too.
CANCELLED = ("confirm",)
NOT_COVERED = {
    "langgraph": "frontend (client-side) tools: the deep agent binds only its own tools, so a client's `get_weather` is never called (the producer suite's `tool-results` is SKIPPED); reasoning; the `hidden` subagent visibility.",
    "pydantic-ai": "subagents (the adapter has no subagent events); reasoning (FunctionModel could stream thinking parts, not scripted here).",
    "adk": "parallel sub-agents (ADK `transfer_to_agent` hands over one at a time; ag-ui-adk emits no subagent events); the legacy confirmation's answer as a tool message; reasoning.",
    "strands": "subagents (Strands graphs and swarms are wrapped as one run; no subagent events); reasoning.",
}
# Behaviour outside the rules, each seen in the saved streams (notes, not violations).
NOTES = {
    "langgraph": [
        "With `emit_interrupt_outcome=True` an interrupted run carries the interrupt twice: a `CUSTOM` event `on_interrupt` (the legacy signal, on by default through `enable_legacy_on_interrupt_event`) and the `RUN_FINISHED` outcome `interrupt`.",
        "Subagent ids are LangGraph checkpoint namespaces (`tools:<uuid>`), so an interrupted subagent resumed in the next run comes back under the same `subagentRunId` — the case the draft's \"An id MAY reappear in a later run, when a suspended invocation is continued\" allows.",
        "Every `STEP_*` of the deep agent's middleware (`PatchToolCallsMiddleware.before_agent`, `_ParentNotifierMiddleware.after_agent`, …) is streamed as a step, and a `RAW` event follows nearly every event (`emit_raw_events` defaults to true): most of a stream's events are bookkeeping.",
        "A call to a tool the agent does not have (seen while writing this server: deepagents 0.7.32 has no `write_todos` by default) is answered inside the graph with an error tool message, which reaches the client only in `MESSAGES_SNAPSHOT`: the call's `TOOL_CALL_START`/`END` get no `TOOL_CALL_RESULT`.",
        "On the failure path the run ends with `RUN_ERROR` while the `model` step is open; RULES.md: `RUN_ERROR` ends everything, so this is not a violation.",
        "The two `researcher` subagents run concurrently, so the event count of the `subagents` scenarios can differ by a few `RAW` events from one run of this report to the next (everything else is the same on every run).",
        "An interrupt inside a subagent: the `booker` subagent ends its first run with `SUBAGENT_FINISHED` outcome `suspended` naming the interrupt id, the run with the `interrupt` outcome; the resume re-announces the same `subagentRunId` and finishes it (`subagent-interrupt` rows).",
        "A `resume` naming interrupt ids the thread never raised (the `resume-after-interrupt` input of the producer suite before it became stateful): the adapter passes them on as a resume map, drops the input's messages (the model sees only its system prompt) and answers as a fresh conversation. The stream conforms; the resume path is exercised only by resuming the ids the producer raised (the scenarios above).",
    ],
    "pydantic-ai": [
        "A tool call is preceded by an empty assistant text message (`TEXT_MESSAGE_START`/`END` with no content) whose id the call names as `parentMessageId`.",
        "The adapter validates the request's `state` against the agent's state model (`StateDeps`) before the stream starts; a state that does not fit is an unhandled exception, answered `HTTP 500` with body `Internal Server Error` (scenario `state-mismatch`).",
        "Every event carries a `timestamp`; `RUN_STARTED` carries `protocolVersion`.",
        "On resume, the approved (or declined) tool's `TOOL_CALL_RESULT` is the new run's first event after `RUN_STARTED`; the call's `TOOL_CALL_START`/`END` were in the interrupted run, and no `MESSAGES_SNAPSHOT` repeats it. No rule of the catalogue asks a result to follow its call in the same run (the request's messages carry the call); ag-ui-validate rejects it (AGUI207, \"never started\").",
        "A `resume` naming interrupt ids the thread never raised (the `resume-after-interrupt` input of the producer suite before it became stateful) is answered `RUN_ERROR` \"Tool call results were provided, but the message history does not contain any unprocessed tool calls.\"",
    ],
    "adk": [
        "A sub-agent hand-over (`transfer_to_agent`) is streamed as an ordinary tool call with result `{\"result\": null}`; the sub-agent's answer is the run's own text, unattributed (ag-ui-adk has no subagent events).",
        "The session state includes the adapter's own keys (`_ag_ui_thread_id`, `_ag_ui_app_name`, `_ag_ui_user_id`), so they reach the client in every `STATE_SNAPSHOT`.",
        "Text arrives as one `TEXT_MESSAGE_CONTENT` per model response (the scripted BaseLlm answers in one part; ADK streams partial parts only from models that stream).",
        "A `resume` naming an interrupt the thread never raised (the `resume-after-interrupt` input of the producer suite before it became stateful) is answered with a stream of one event, `RUN_ERROR` code `UNKNOWN_INTERRUPT`, without `RUN_STARTED`: legal (`run.first-event` allows `RUN_ERROR` first), but a client gets no run to attach the error to.",
        "A tool with `require_confirmation` streams the model's call (`TOOL_CALL_START`/`END`, no arguments event for `{}`), then ADK's own `adk_request_confirmation` call, whose id is the interrupt id; with the default (`/legacy`) the run just finishes, leaving that call for the client. On resume the original call's `TOOL_CALL_RESULT` is the new run's first event after `RUN_STARTED` (ag-ui-validate rejects that, AGUI207; no rule of the catalogue does); a declined confirmation's result is `{\"error\": \"This tool call is rejected.\"}`.",
    ],
    "strands": [
        "Each run opens with `STATE_SNAPSHOT` and `MESSAGES_SNAPSHOT` echoing the input, and repeats `MESSAGES_SNAPSHOT` after every tool call and at the end.",
        "The failure path answers `RUN_ERROR` with code `STRANDS_FORCE_STOP`.",
        "On resume, the approved tool's `TOOL_CALL_RESULT` is the first tool event of the new run: its `TOOL_CALL_START`/`END` were in the interrupted run (the `MESSAGES_SNAPSHOT` before it carries the call). No rule of the catalogue asks a result to follow a call in the same run; ag-ui-validate accepts it too (it learns the call from that `MESSAGES_SNAPSHOT`).",
        "A `resume` naming interrupt ids the thread never raised (the `resume-after-interrupt` input of the producer suite before it became stateful) is answered `RUN_ERROR` \"No pending interrupts for this thread.\" (code `UNKNOWN_INTERRUPT_ID`).",
    ],
}


def request_for(scenario: str, thread: str, run: str) -> dict:
    """The RunAgentInput of a scenario: one user message, no tools."""
    message = MESSAGES.get(scenario, MESSAGES["state"])
    body = {"threadId": thread, "runId": run,
            "messages": [{"id": "msg-user-1", "role": "user", "content": message}],
            "tools": [], "context": [], "state": {}, "forwardedProps": {}}
    if scenario == "state-mismatch":
        body["state"] = {"todos": "not a list"}
    return body


def read_events(path):
    events = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        events.append(json.loads(line))
                    except ValueError:
                        events.append(None)
    except OSError:
        pass
    return events


def outcome_of(events) -> dict:
    """How the run ended: finished, interrupted (with its interrupt ids), errored, or unterminated."""
    for event in reversed(events):
        if not isinstance(event, dict):
            continue
        if event.get("type") == "RUN_ERROR":
            return {"kind": "errored", "text": f"errored: {event.get('message', '')[:80]}"
                    + (f" (code `{event['code']}`)" if event.get("code") else "")}
        if event.get("type") == "RUN_FINISHED":
            outcome = event.get("outcome") or {}
            if outcome.get("type") == "interrupt":
                ids = [i.get("id") for i in outcome.get("interrupts", []) if isinstance(i, dict)]
                return {"kind": "interrupted", "ids": ids, "text": f"interrupted ({len(ids)} interrupt(s))"}
            return {"kind": "finished", "text": "finished" + _signals(events)}
    return {"kind": "unterminated", "text": "no terminal event"}


def _signals(events) -> str:
    """What else a finished run showed: the legacy interrupt signal, or an
    approved tool that ran (the evidence that a resume was acted on)."""
    extra = []
    if legacy_interrupt(events):
        extra.append("with the legacy `on_interrupt` CUSTOM event, no interrupt outcome")
    results = " ".join(str(e.get("content")) for e in events if isinstance(e, dict) and e.get("type") == "TOOL_CALL_RESULT")
    if "Paid" in results or "Deleted" in results:
        extra.append("the approved tool ran")
    if any(word in results for word in ("declined", "rejected", "Cancelled", "denied")):
        extra.append("the declined tool did not run")
    started = {e.get("toolCallId"): e.get("toolCallName") for e in events
               if isinstance(e, dict) and e.get("type") == "TOOL_CALL_START"}
    answered = {e.get("toolCallId") for e in events if isinstance(e, dict) and e.get("type") == "TOOL_CALL_RESULT"}
    pending = [f"`{n}`" for i, n in started.items() if i not in answered]
    if pending:
        extra.append("tool calls left for the client: " + ", ".join(pending))
    return f" ({'; '.join(extra)})" if extra else ""


def legacy_interrupt(events):
    """The LangGraph legacy interrupt signal (CUSTOM on_interrupt), if any."""
    return any(isinstance(e, dict) and e.get("type") == "CUSTOM" and e.get("name") == "on_interrupt" for e in events)


def resume_request(first: dict, events, interrupt_ids, payload, legacy: bool, status: str = "resolved") -> dict:
    """The next request of an interrupted conversation: the same thread, the
    messages so far (the user's, and the assistant's tool calls as streamed),
    and a resume for every interrupt the producer emitted."""
    calls, parent = [], None
    for e in events:
        if isinstance(e, dict) and e.get("type") == "TOOL_CALL_START" and not e.get("subagentRunId"):
            parent = parent or e.get("parentMessageId")
            calls.append({"id": e["toolCallId"], "type": "function",
                          "function": {"name": e.get("toolCallName", ""), "arguments": ""}})
        if isinstance(e, dict) and e.get("type") == "TOOL_CALL_ARGS":
            for c in calls:
                if c["id"] == e.get("toolCallId"):
                    c["function"]["arguments"] += e.get("delta", "")
    body = dict(first)
    body["runId"] = first["runId"].rsplit("-", 1)[0] + "-2"
    body["messages"] = list(first["messages"])
    if calls:
        body["messages"].append({"id": parent or "msg-assistant-1", "role": "assistant", "content": "",
                                 "toolCalls": calls})
    if legacy:
        body["forwardedProps"] = {"command": {"resume": payload}}
    else:
        body["resume"] = [{"interruptId": i, "status": status, **({"payload": payload} if status == "resolved" else {})}
                          for i in interrupt_ids]
    return body


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check_url(binary, url, body, stem):
    """One live check: the request saved as STEM.request.json, the stream as STEM.jsonl."""
    with open(stem + ".request.json", "w", encoding="utf-8") as f:
        json.dump(body, f, indent=1)
    proc = run([binary, "check", "--url", url, "--input", stem + ".request.json", "--format", "json",
                "--no-projection", "--save", stem + ".jsonl", "--timeout", "120"], timeout=180)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        report = {"verdict": "error", "violations": [], "error": (proc.stderr or proc.stdout)[-300:]}
    return {"exit": proc.returncode, "report": report, "events": read_events(stem + ".jsonl"),
            "request": body, "stem": stem, "other": other_validator(stem + ".jsonl")}


def other_validator(path):
    """ag-ui-validate 0.4.0's verdict on a saved stream (its adapter, one-shot),
    or None when it is not installed (adapters/install.sh validate)."""
    if not os.path.exists(VALIDATE[0]) or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        proc = subprocess.run(VALIDATE, stdin=f, capture_output=True, text=True, timeout=120)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"verdict": "error", "message": (proc.stderr or proc.stdout)[-200:]}


def check_file(binary, path):
    proc = run([binary, "check", path, "--format", "json", "--no-projection"], timeout=120)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"verdict": "error", "violations": [], "error": (proc.stderr or proc.stdout)[-300:]}


def wait_ready(port, proc, seconds=180):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/versions", timeout=5) as r:
                return json.loads(r.read())
        except (OSError, ValueError):
            time.sleep(0.5)
    return None


def stop(proc):
    """Ends the server's whole process group (it was started in its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass


def exercise(name, spec, binary, work, port, suite=None):
    """Everything the report says about one producer."""
    python = os.path.join(PRODUCERS_DIR, name, ".venv", "bin", "python")
    result = {"name": name, "spec": spec, "port": port, "checks": [], "conversations": [], "suite": None}
    if not os.path.exists(python):
        result["error"] = f"not installed (adapters/producers/install.sh {name})"
        return result
    log = open(os.path.join(work, f"{name}.server.log"), "w", encoding="utf-8")
    proc = subprocess.Popen([python, os.path.join(PRODUCERS_DIR, name, "server.py"), str(port)],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT)
    try:
        versions = wait_ready(port, proc)
        if versions is None:
            result["error"] = f"the server did not come up (see {name}.server.log)"
            return result
        result["versions"] = versions
        base = f"http://127.0.0.1:{port}"
        plan = [("/", s) for s in spec["scenarios"]] + [("/legacy", s) for s in spec.get("legacy_scenarios", [])]
        for path, scenario in plan:
            tag = scenario if path == "/" else f"{scenario}@legacy"
            stem = os.path.join(work, f"{name}.{tag}")
            body = request_for(scenario, f"thread-{name}-{tag}", f"run-{tag}-1")
            first = check_url(binary, base + path, body, stem)
            first.update(scenario=tag, path=path)
            result["checks"].append(first)
            out = outcome_of(first["events"])
            legacy = path == "/legacy"
            ids = out.get("ids") or []
            if spec["resume"] is not None and (ids or (legacy and legacy_interrupt(first["events"]))):
                status = "cancelled" if scenario in CANCELLED else "resolved"
                second = check_url(binary, base + path,
                                   resume_request(body, first["events"], ids, spec["resume"], legacy, status),
                                   stem + ".resume")
                second.update(scenario=f"{tag} → resume ({status})", path=path)
                result["checks"].append(second)
                joined = stem + ".conversation.jsonl"
                with open(joined, "w", encoding="utf-8") as f:
                    for e in first["events"] + second["events"]:
                        f.write(json.dumps(e) + "\n")
                result["conversations"].append({"scenario": tag, "file": joined,
                                                "report": check_file(binary, joined),
                                                "other": other_validator(joined),
                                                "stream": first["events"] + second["events"],
                                                "events": len(first["events"]) + len(second["events"])})
        captures = os.path.join(work, f"{name}.suite")
        proc_suite = run([binary, "run", "--producer", base + "/", "--format", "json", "--no-progress",
                          "--captures", captures] + (["--suite", suite] if suite else []), timeout=600)
        lines = [json.loads(l) for l in proc_suite.stdout.splitlines() if l.strip().startswith("{")]
        result["suite"] = {"exit": proc_suite.returncode, "lines": lines, "captures": captures}
    finally:
        stop(proc)
        log.close()
    return result


# ---------------------------------------------------------------- rendering

def esc(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def other_text(answer, events) -> str:
    """ag-ui-validate's answer in a table cell: its first error, or accept."""
    if answer is None:
        return "not run"
    if answer.get("verdict") != "reject":
        return answer.get("verdict", "?")
    index = answer.get("index")
    shown = ""
    if events and isinstance(index, int) and 0 <= index < len(events) and isinstance(events[index], dict):
        shown = f" (`{events[index].get('type')}`)"
    return esc(f"reject at {index}{shown}: {answer.get('message', '')[:140]}")


def render(results, rules, out):
    w = []
    w.append("# Real producers: conformance of AG-UI framework adapters\n")
    w.append("Generated by `scripts/producers-report.sh` — do not edit by hand; rerun it. Each producer is a"
             " small server in `adapters/producers/NAME/server.py` around a real framework adapter from"
             " PyPI (pinned in `NAME/requirements.txt`), driven by a scripted model (no network, no"
             " model weights): the same conversation on every run. Scenarios are chosen by the user"
             " message (`adapters/producers/common/script.py`). Rules and their wording: `docs/rules.md`"
             " (`agui-conform rules`).\n")
    w.append("## Summary\n")
    w.append("| producer | versions | scenarios checked | accepted | rejected | violations | producer suite |")
    w.append("|---|---|---:|---:|---:|---:|---|")
    for r in results:
        if "error" in r:
            w.append(f"| {r['spec']['label']} | — | not run: {esc(r['error'])} | | | | |")
            continue
        vers = ", ".join(f"`{k}` {v}" for k, v in r["versions"].items())
        checks = r["checks"]
        acc = sum(1 for c in checks if c["report"].get("verdict") == "accept")
        rej = sum(1 for c in checks if c["report"].get("verdict") == "reject")
        nviol = sum(len(c["report"].get("violations", [])) for c in checks) + sum(
            len(c["report"].get("violations", [])) for c in r["conversations"])
        suite = r["suite"]
        summary = next((l["summary"] for l in suite["lines"] if "summary" in l), None) if suite else None
        st = ", ".join(f"{v} {k}" for k, v in summary["scores"].items() if v) if summary else "did not run"
        w.append(f"| {r['spec']['label']} | {vers} | {len(checks)} | {acc} | {rej} | {nviol} | {st} |")
    summary_table = w[w.index("## Summary\n") + 1:]
    w.append("")
    w.append("A scenario's verdict is `agui-conform check --url`'s; a resumed conversation is also checked"
             " as one stream (both runs concatenated), for the rules across runs. The producer suite is"
             " `agui-conform run --producer URL` with the `producer` suite of the binary that ran."
             " Each saved stream is also given to ag-ui-validate 0.4.0 (its adapter, `adapters/validate/`,"
             " one-shot; its first error is its rejection): where it rejects a stream this catalogue"
             " accepts, the scenario tables say at which event and why"
             " ([why it departs](ag-ui-validate.md)).\n")

    for r in results:
        spec = r["spec"]
        w.append(f"## {spec['label']}\n")
        if "error" in r:
            w.append(f"Not run: {r['error']}.\n")
            continue
        w.append("Versions: " + ", ".join(f"`{k}` {v}" for k, v in r["versions"].items()) + ".\n")
        w.append("Served paths: " + "; ".join(f"`{p}` — {d}" for p, d in spec["paths"].items()) + ".\n")
        w.append("| scenario | path | events | how the run ended | verdict | violations | ag-ui-validate 0.4.0 |")
        w.append("|---|---|---:|---|---|---|---|")
        for c in r["checks"]:
            rep = c["report"]
            status = rep.get("verdict", "?")
            viol = ", ".join(f"`{v['rule']}` at {v['index']}" for v in rep.get("violations", [])) or "—"
            w.append(f"| {esc(c['scenario'])} | `{c['path']}` | {len(c['events'])} | {esc(outcome_of(c['events'])['text'])}"
                     f" | {status} | {viol} | {other_text(c.get('other'), c['events'])} |")
        for conv in r["conversations"]:
            rep = conv["report"]
            viol = ", ".join(f"`{v['rule']}` at {v['index']}" for v in rep.get("violations", [])) or "—"
            w.append(f"| {esc(conv['scenario'])}: both runs as one stream | | {conv['events']} | | {rep.get('verdict', '?')}"
                     f" | {viol} | {other_text(conv.get('other'), conv.get('stream'))} |")
        w.append("")
        if r["suite"]:
            w.append("Producer suite (`agui-conform run --producer`):\n")
            w.append("| input | score | events | HTTP | how the runs ended | violations |")
            w.append("|---|---|---:|---:|---|---|")
            for line in r["suite"]["lines"]:
                if "id" not in line:
                    continue
                viol = ", ".join(f"`{v['rule']}` at {v['index']}" for v in line.get("violations", [])) or "—"
                if line.get("steps"):  # a suite in steps: each request and how its runs ended
                    ended = "; ".join(f"{st.get('kind')} → {', '.join(st.get('outcomes', [])) or 'not sent'}"
                                      for st in line["steps"])
                else:
                    ended = outcome_of(read_events(os.path.join(r["suite"]["captures"], line["id"] + ".jsonl")))["text"]
                for key in ("refused", "skipped"):
                    if line.get(key):
                        ended += f"; {key}: {line[key] if isinstance(line[key], str) else json.dumps(line[key])[:200]}"
                w.append(f"| {line['id']} | {line.get('score')} | {line.get('events', '')} | {line.get('status', '')}"
                         f" | {esc(ended)} | {viol} |")
            w.append("")
        w.append("### Findings\n")
        findings = [(c, v) for c in r["checks"] for v in c["report"].get("violations", [])]
        findings += [(conv, v) for conv in r["conversations"] for v in conv["report"].get("violations", [])]
        suite_findings = [(l, v) for l in (r["suite"]["lines"] if r["suite"] else []) if "id" in l
                          for v in l.get("violations", [])]
        if not findings and not suite_findings:
            w.append("None: every stream checked conforms.\n")
        for c, v in findings:
            rule = rules.get(v["rule"], {})
            w.append(f"- **`{v['rule']}`** ({v.get('severity', rule.get('severity', ''))}) in scenario"
                     f" `{c['scenario']}` at event {v['index']}: {esc(v.get('message', ''))}")
            w.append(f"  - The rule: “{rule.get('statement', '')}” (docs/rules.md, source: {rule.get('source', '')})")
            events = c.get("events")
            if isinstance(events, list) and 0 <= v["index"] < len(events):
                w.append(f"  - The event: `{esc(json.dumps(events[v['index']])[:300])}`")
            if "request" in c:
                w.append(f"  - Reproduce: start `adapters/producers/{r['name']}/.venv/bin/python"
                         f" adapters/producers/{r['name']}/server.py {r['port']}`, then `agui-conform check --url"
                         f" http://127.0.0.1:{r['port']}{c['path']} --input request.json` with request.json:")
                w.append("")
                w.append("    ```json")
                w.append("    " + json.dumps(c["request"]))
                w.append("    ```")
            else:
                w.append(f"  - Reproduce: the two runs above (scenario and its resume) saved with `--save`,"
                         f" concatenated, then `agui-conform check conversation.jsonl`.")
        for line, v in suite_findings:
            rule = rules.get(v["rule"], {})
            w.append(f"- **`{v['rule']}`** in producer-suite input `{line['id']}` at event {v['index']}:"
                     f" {esc(v.get('message', ''))}")
            w.append(f"  - The rule: “{rule.get('statement', '')}” (docs/rules.md)")
            w.append(f"  - Reproduce: `agui-conform run --producer http://127.0.0.1:{r['port']}/` against the"
                     f" server above (the input is `suites/producer/{line['id']}.json`).")
        w.append("")
        w.append("### Notes (behaviour outside the rules)\n")
        for note in NOTES.get(r["name"], []):
            w.append(f"- {note}")
        w.append("")
        w.append(f"### Not covered\n\n{NOT_COVERED.get(r['name'], '')}\n")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(w).rstrip() + "\n")
    return summary_table


START, END = "<!-- producers-summary:start -->", "<!-- producers-summary:end -->"


def fill_readme(path, table):
    """Puts the summary table between the README's producers-summary markers."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return
    if START not in text or END not in text or text.index(START) > text.index(END):
        return
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + "\n".join([START, ""] + table + ["", END]) + tail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--readme", help="a README whose producers-summary markers get the summary table")
    ap.add_argument("--base-port", type=int, default=18701)
    ap.add_argument("--suite", help="the producer suite to run (a name or a folder) [default: the binary's]")
    args = ap.parse_args()
    rules = {r["id"]: r for r in json.loads(run([args.bin, "rules", "--format", "json"]).stdout)}
    results = []
    for i, (name, spec) in enumerate(PRODUCERS.items()):
        if args.only and name not in args.only:
            continue
        print(f"producers-report: {name} ...", file=sys.stderr, flush=True)
        results.append(exercise(name, spec, args.bin, args.work, args.base_port + i, args.suite))
        r = results[-1]
        print(f"producers-report: {name}: " + (r.get("error") or f"{len(r['checks'])} checks"), file=sys.stderr)
    table = render(results, rules, args.out)
    if args.readme:
        fill_readme(args.readme, table)
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
