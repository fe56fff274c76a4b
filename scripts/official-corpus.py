#!/usr/bin/env python3
"""Converts the official AG-UI consumer conformance fixtures into corpus
cases: corpus/official/<version>/<name>.json.

Usage: scripts/official-corpus.py SRC   (SRC holds streams/<version>/*.json
and PROVENANCE.tsv, a copy of ag-ui-protocol/ag-ui's
spec/<version>/conformance/streams with each file's commit).

The stream and the fixture's expectation are facts, carried over by the same
mapping as `agui_corpus::official::map_fixture` (docs/decisions.md, "The
official corpus"). The description and the violations are ours, written by
hand below from docs/rules.md revision 4 (never from a checker's output).
"""
import json, os, sys

# name -> (our one-sentence description, [(rule, index), ...]) for the 1.1
# files (the 1.0 stand-ins share them). Violations: every one the stream
# has, in stream order, catalogue order at one index.
T = {
 "activity-delta-missing-target-tolerated": ("After a finished text message, an ACTIVITY_DELTA patches an activity id that no snapshot ever created.", []),
 "activity-replace-false-preserves": ("A second ACTIVITY_SNAPSHOT for the same activity says replace: false, so the first content stays.", []),
 "activity-snapshot-then-delta": ("An activity is created by a snapshot and then patched by a delta naming it.", []),
 "chunk-conflicting-role-fatal": ("A text chunk continuing an open chunk stream states the role assistant where its opener said user.", [("chunk.opener-disagrees", 2)]),
 "chunk-conflicting-tool-name-fatal": ("A tool-call chunk continuing an open call names a different tool than the chunk that opened it.", [("chunk.opener-disagrees", 2)]),
 "chunk-expansion-assembles": ("An id-less text chunk continues the chunk stream its predecessor opened.", []),
 "chunk-repeat-identical-accepted": ("A tool-call chunk repeats its opener's name and parent message exactly, which is no conflict.", []),
 "conformant-run-is-quiet": ("One run with a step, a streamed text message and a state snapshot, all well formed.", []),
 "content-without-start-fatal": ("Text content arrives for a message id that was never started.", [("text.not-open", 1)]),
 "current-peer-declares-protocol-version": ("An empty run whose RUN_STARTED declares the protocol version.", []),
 "custom-closes-chunk-stream-fatal": ("A CUSTOM event closes the open text chunk stream, so the next id-less chunk has nothing to continue.", [("chunk.no-stream", 3)]),
 "encrypted-value-unknown-entity-tolerated": ("A REASONING_ENCRYPTED_VALUE names a message id nothing in the stream created.", []),
 "era-0-0-39-flattens-content": ("A plain text run, for a client pinned to an early protocol era that flattens multimodal input.", []),
 "era-0-0-45-thinking-translated": ("A run carrying the retired THINKING_* events before a text message.", [("schema.unknown-type", 1), ("schema.unknown-type", 2), ("schema.unknown-type", 3), ("schema.unknown-type", 4), ("schema.unknown-type", 5)]),
 "era-0-0-47-upgrades-binary-content": ("A plain text run, for a client pinned to an era whose input used binary content parts.", []),
 "era-0-0-57-subagent-dropped-with-warning": ("An announced subagent streams one message and finishes, for a client pinned to an era without subagents.", []),
 "era-current-peer-keeps-modern-content": ("An announced subagent that finishes at once, for a current client whose input mixes content part kinds.", []),
 "era-pinned-peer-omits-protocol-version": ("An empty run, for a client pinned to an era before protocol versions were declared.", []),
 "event-after-run-finished-fatal": ("A text message starts after the run has finished.", [("run.after-finished", 2)]),
 "first-chunk-missing-id-fatal": ("The first text chunk of a run has no message id and nothing is open to continue.", [("chunk.no-stream", 1)]),
 "first-event-not-run-started-fatal": ("The stream opens with a TEXT_MESSAGE_START instead of a RUN_STARTED.", [("run.first-event", 0)]),
 "first-tool-chunk-missing-name-fatal": ("A tool-call chunk opens a new call without naming the tool.", [("chunk.missing-name", 1)]),
 "late-run-error-after-finished-run-continues": ("A RUN_ERROR arrives after the run's RUN_FINISHED, reporting a failure while flushing.", []),
 "malformed-known-field-fatal": ("A text content event carries a number where the delta string belongs.", [("schema.wrong-type", 2)]),
 "messages-snapshot-reconciles-by-id": ("Two streamed messages, then a MESSAGES_SNAPSHOT that keeps only the first, with corrected text.", [("messages.snapshot-disagrees", 7)]),
 "metadata-merges-last-write-wins": ("A text message whose start and content events each carry a metadata object.", []),
 "nested-run-started-fatal": ("A second RUN_STARTED arrives while the first run is still open, and the input ends.", [("run.already-active", 1), ("run.unterminated", 2)]),
 "open-message-at-run-finished-fatal": ("The run finishes while a text message is still open.", [("run.open-entities-at-finish", 3)]),
 "open-metadata-preserved": ("A text message carries vendor-namespaced metadata, one value of it null.", []),
 "open-object-patch-op-extras": ("A JSON Patch remove operation carries an extra value member.", []),
 "producer-declares-newer-version-warns": ("The run declares a protocol version newer than the one the client speaks.", []),
 "producer-declares-same-version-quiet": ("The run declares the protocol version the client speaks.", []),
 "producer-declares-uninterpretable-version-warns": ("The run declares a protocol version string that is not a version number.", []),
 "raw-and-custom-pass-through": ("A RAW event inside an open text message and a CUSTOM event after it.", []),
 "raw-does-not-close-chunk-stream": ("A RAW event between two text chunks leaves the chunk stream open.", []),
 "reasoning-discipline-verified": ("Reasoning content arrives for a reasoning message that was never started.", [("reasoning.not-open", 1)]),
 "reasoning-message-wrong-role-fatal": ("A REASONING_MESSAGE_START gives the role assistant where only reasoning is allowed.", [("schema.wrong-type", 1)]),
 "reasoning-span-and-message": ("A reasoning span holding a streamed reasoning message, then the answer.", []),
 "reopen-closed-message-appends": ("A text message is ended and then started again under the same id with more text.", []),
 "run-error-first-run-continues": ("The stream is a single RUN_ERROR with a code.", []),
 "run-error-then-new-run-continues": ("A run fails with RUN_ERROR and a second run on the same thread streams a message.", []),
 "run-finished-cancelled-outcome-accepted": ("A run delivers a message and finishes with a cancelled outcome.", []),
 "run-finished-interrupt-outcome-accepted": ("A run asks a question and finishes with an interrupt outcome holding one interrupt.", []),
 "run-finished-with-active-subagent-fatal": ("An announced subagent is never finished before RUN_FINISHED.", [("lifecycle.open-at-run-finish", 5)]),
 "state-delta-applies": ("A STATE_DELTA appends to a list and replaces a field of the snapshot.", []),
 "state-delta-unappliable-warns-and-keeps": ("A STATE_DELTA whose second operation targets a missing path, so the patch does not apply.", [("state.patch-fails", 2)]),
 "state-delta-unknown-op-dropped": ("A STATE_DELTA holds an operation of an unknown kind before a replace.", [("schema.unknown-member", 2)]),
 "state-falsy-snapshot-applies": ("A second STATE_SNAPSHOT replaces the state with the number 0.", []),
 "state-null-snapshot-applies": ("A second STATE_SNAPSHOT replaces the state with null.", []),
 "state-snapshot-replaces": ("A second STATE_SNAPSHOT replaces an object state with a list.", []),
 "step-finished-without-start-fatal": ("A STEP_FINISHED names a step that was never started, and the input ends.", [("step.not-open", 1), ("run.unterminated", 2)]),
 "subagent-attribution-mismatch-fatal": ("A tool call opened by one subagent is ended with another subagent's tag.", [("ownership.continuation-disagrees", 3)]),
 "subagent-finished-unstarted-fatal": ("A SUBAGENT_FINISHED names an invocation that was never announced.", [("lifecycle.not-active", 1)]),
 "subagent-started-missing-name-fatal": ("A SUBAGENT_STARTED has no name.", [("schema.missing-field", 1)]),
 "subagent-terminal-closes-open-chunk-stream": ("A subagent's text chunk stream is still open when the subagent finishes.", []),
 "subagent-unannounced-attribution-accepted": ("A message attributed to a subagent that was never announced, one content event untagged.", []),
 "tool-call-metadata-lands-on-the-call": ("A tool call whose start, args and end events each carry metadata, on a parent message no event created.", []),
 "tool-call-triad-assembles": ("A text message, then a tool call on it streamed as start, two argument deltas and end.", []),
 "tool-result-file-source-passes-through": ("A tool call, its result as text and a document part with a file source, then an answer.", []),
 "tool-result-parts-mint-tool-message": ("A tool call, its result as text and a document part with a URL source, then an answer.", []),
 "triad-assembles-message": ("A text message streamed as start, two deltas and end.", []),
 "two-sequential-runs-accumulate": ("Two runs on one thread, each streaming one text message.", []),
 "unknown-enum-value-role-fatal": ("A TEXT_MESSAGE_START gives a role the schema does not list.", [("schema.unknown-member", 1)]),
 "unknown-event-dropped": ("An event of an unknown type arrives between two content deltas of a message.", [("schema.unknown-type", 3)]),
 "unknown-outcome-array-fatal": ("RUN_FINISHED gives its outcome as an array instead of an object.", [("schema.wrong-type", 1)]),
 "unknown-outcome-stripped": ("RUN_FINISHED carries an outcome of a type the schema does not describe.", [("schema.unknown-member", 1)]),
 "unknown-part-in-message-list": ("A MESSAGES_SNAPSHOT holds a user message with a content part of an unknown kind between two text parts.", [("schema.unknown-member", 1)]),
 "unknown-property-stripped": ("A text content event carries a property the protocol does not describe.", []),
}
# Draft files that differ from (or are absent in) 1.1, and the 1.0 files.
D = {
 "duplicate-interrupt-id-fatal": ("A RUN_FINISHED interrupt outcome lists two interrupts with the same id.", [("interrupt.duplicate-id", 1)]),
 "run-finished-wrong-run-id-fatal": ("RUN_FINISHED names a different runId than the RUN_STARTED it closes.", [("run.ids-disagree", 1)]),
 "run-finished-wrong-thread-id-fatal": ("RUN_FINISHED names a different threadId than the RUN_STARTED it closes.", [("run.ids-disagree", 1)]),
 "second-run-on-another-thread-fatal": ("A second run starts on a different thread than the first.", [("run.thread-changed", 2)]),
 "truncated-run-reported-as-completed": ("A run streams one complete message and the input ends without a terminal event.", [("run.unterminated", 5)]),
 "truncated-stream-fails-the-run": ("A run streams one complete message and the input ends without RUN_FINISHED or RUN_ERROR.", [("run.unterminated", 4)]),
 "combining-mark-split-from-its-base": ("A combining accent arrives in its own delta, apart from the letter it modifies.", []),
 "multibyte-text-assembles": ("Japanese and Arabic text streamed across three deltas.", []),
 "zwj-sequence-split-at-the-joiner": ("An emoji sequence split at its zero-width joiner across two deltas.", []),
}
SEVERITY_WARNING = {"messages.snapshot-disagrees"}

def mapped(fx):
    """The fixture's expectation in our terms (agui_corpus::official)."""
    e = fx["expect"]; unc = []
    def content(v, i, role):
        if isinstance(v, list) and role != "activity":
            t = ""
            for j, p in enumerate(v):
                if p.get("type") == "text" and isinstance(p.get("text"), str): t += p["text"]
                else: unc.append(f"messages[{i}].content[{j}]: a `{p.get('type','?')}` part; our projection shows only the text of text parts")
            return t
        return v
    def call(c, i, j):
        o = {}
        for k, v in c.items():
            if k == "id": o["id"] = v
            elif k == "function":
                for fk, fv in v.items():
                    if fk == "name": o["name"] = fv
                    elif fk == "arguments": o["args"] = fv
                    else: unc.append(f"messages[{i}].toolCalls[{j}].function.{fk}: not part of our projection")
            elif k == "type": pass
            else: unc.append(f"messages[{i}].toolCalls[{j}].{k}: not part of our projection")
        return o
    def msg(m, i):
        o = {}
        for k, v in m.items():
            if k in ("id", "role", "activityType"): o[k] = v
            elif k == "subagentRunId": o["owner"] = v
            elif k == "content": o["content"] = content(v, i, m.get("role"))
            elif k == "toolCalls": o["toolCalls"] = [call(c, i, j) for j, c in enumerate(v)]
            else: unc.append(f"messages[{i}].{k}: not part of our projection")
        return o
    nc = []
    if "maxProtocolVersion" in (fx.get("client") or {}):
        nc.append(f"the client is pinned to protocol version {json.dumps(fx['client']['maxProtocolVersion'])}: the expected result is that era's translation, which a consumer of the stream as written does not perform")
    req = [k for k in ("request", "requestAbsentPaths") if k in e]
    if req:
        nc.append("it expects the request the client sends (`" + "`, `".join(req) + "`), not what the client shows of the stream")
    if "input" in fx:
        nc.append("the client starts from its own `input` (messages it holds before the stream), which the case format does not carry")
    o = {"outcome": e["outcome"]}
    gaps = {
        "unknown-enum-value-role-fatal": "admitted gap: an unknown enum value is unrecognised material, stripped (`schema.unknown-member`, must-accept), not fatal",
        "truncated-run-reported-as-completed": "admitted gap: a truncated run is `run.unterminated` (may-reject; the run shows `unterminated`, never finished), whatever the client reports",
        "truncated-stream-fails-the-run": "contradicts `truncated-run-reported-as-completed` (the same truncated stream, pinned completed); the transports page leaves it to the consumer (\"leaving the run unresolved, or raising a synthetic failure\"): judged as our rule says, `run.unterminated` (may-reject; the run shows `unterminated`), whatever the client reports",
    }
    if fx["name"] in gaps: o["gap"] = gaps[fx["name"]]
    if nc: o["notComparable"] = "; ".join(nc)
    if "runError" in e: o["runError"] = True
    if "messageCount" in e: o["messageCount"] = e["messageCount"]
    if "messages" in e: o["messages"] = [msg(m, i) for i, m in enumerate(e["messages"])]
    if "state" in e: o["state"] = e["state"]
    if unc: o["uncompared"] = unc
    return o

def dump(case):
    """The corpus's layout: one event per line, the rest compact per member."""
    c = lambda v: json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    parts = []
    for k, v in case.items():
        if k == "events":
            parts.append('  "events": [\n' + ",\n".join("    " + c(e) for e in v) + "\n  ]")
        elif k == "official":
            inner = ",\n".join(f"    {c(ik)}: {c(iv)}" for ik, iv in v.items())
            parts.append('  "official": {\n' + inner + "\n  }")
        else:
            parts.append(f"  {c(k)}: {c(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"

def main(src, out):
    prov = {}
    for line in open(os.path.join(src, "PROVENANCE.tsv")).read().splitlines()[1:]:
        v, name, path, commit = line.split("\t")[:4]
        prov[(v, name)] = (path, commit)
    n11 = open(os.path.join(src, "streams/1.1/MANIFEST.txt")).read().split()
    n10 = open(os.path.join(src, "streams/1.0/MANIFEST.txt")).read().split()
    plan = []  # (version, name, file version, stands in for)
    for f in n11: plan.append(("1.1", f[:-5], "1.1", None))
    for f in sorted(os.listdir(os.path.join(src, "streams/draft"))):
        if f.endswith(".json"): plan.append(("draft", f[:-5], "draft", None))
    stored10 = {f[:-5] for f in os.listdir(os.path.join(src, "streams/1.0")) if f.endswith(".json")}
    for name in sorted(set(f[:-5] for f in n10) | stored10):
        if name in stored10: plan.append(("1.0", name, "1.0", None))
        else: plan.append(("1.0", name, "1.1", f"spec/1.0/conformance/streams/{name}.json"))
    count = 0
    for version, name, fv, stands in plan:
        fx = json.load(open(os.path.join(src, "streams", fv, name + ".json")))
        assert fx["name"] == name, name
        desc, viol = D.get(name) if (fv != "1.1" and name in D) else T[name]
        path, commit = prov[(fv, name)]
        off = {"name": name, "version": version, "repository": "ag-ui-protocol/ag-ui",
               "path": path, "commit": commit}
        if stands: off["standsInFor"] = stands
        off.update(mapped(fx))
        case = {"id": f"official/{version}/{name}", "description": desc,
                "spec": f"official fixture `{name}` ({fx['specPage']})",
                "events": fx["stream"]}
        if viol:
            error = any(r not in SEVERITY_WARNING for r, _ in viol)
            case["expect"] = {"verdict": "reject" if error else "accept", "rule": viol[0][0], "index": viol[0][1]}
            case["violations"] = [{"rule": r, "index": i} for r, i in viol]
        else:
            case["expect"] = {"verdict": "accept"}
        case["official"] = off
        d = os.path.join(out, version); os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name + ".json"), "w") as fh:
            fh.write(dump(case))
        count += 1
    print(f"{count} cases written under {out}")

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    main(sys.argv[1], os.path.join(here, "..", "corpus", "official"))
