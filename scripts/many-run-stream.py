#!/usr/bin/env python3
"""A many-run AG-UI stream for measuring the projection (issue 20).

Usage: scripts/many-run-stream.py RUNS EVENTS_PER_RUN FILE

Every run: RUN_STARTED, a STATE_SNAPSHOT, 8 invocations (s0 under the
parent, s1..s7 under s0), then, until about EVENTS_PER_RUN events, owners
taking turns (the parent and each invocation) on: a text message (start,
content deltas, end), a tool call in its own message (start, argument
deltas, end, TOOL_CALL_RESULT), a reasoning message inside a reasoning span,
a STATE_DELTA; two entities of different owners are interleaved at a time.
Then the invocations finish (deepest first) and the run finishes. Valid by
construction: `agui-conform check FILE` reports no violation.
"""

import random
import sys


def tag(owner):
    return "" if owner is None else f',"subagentRunId":"{owner}"'


def entity(r, n, owner, kind, rnd):
    """The events of one entity, in order."""
    t = tag(owner)
    if kind == 0:
        m = f"r{r}.m{n}"
        ev = [f'{{"type":"TEXT_MESSAGE_START","messageId":"{m}","role":"assistant"{t}}}']
        for k in range(rnd.randint(3, 8)):
            d = "Hello \\\"world\\\" " if k % 7 == 3 else f"part {k} of the answer, "
            ev.append(f'{{"type":"TEXT_MESSAGE_CONTENT","messageId":"{m}","delta":"{d}"{t}}}')
        ev.append(f'{{"type":"TEXT_MESSAGE_END","messageId":"{m}"{t}}}')
        return ev
    if kind == 1:
        c = f"r{r}.t{n}"
        ev = [f'{{"type":"TOOL_CALL_START","toolCallId":"{c}","toolCallName":"search"{t}}}']
        for d in ['{\\"query\\":', '\\"weather in ', f'city {n}\\"', "}"]:
            ev.append(f'{{"type":"TOOL_CALL_ARGS","toolCallId":"{c}","delta":"{d}"{t}}}')
        ev.append(f'{{"type":"TOOL_CALL_END","toolCallId":"{c}"{t}}}')
        ev.append(
            f'{{"type":"TOOL_CALL_RESULT","messageId":"r{r}.x{n}","toolCallId":"{c}",'
            f'"content":"sunny, {n} degrees","role":"tool"{t}}}'
        )
        return ev
    if kind == 2:
        z = f"r{r}.z{n}"
        ev = [
            f'{{"type":"REASONING_START","messageId":"{z}s"{t}}}',
            f'{{"type":"REASONING_MESSAGE_START","messageId":"{z}","role":"reasoning"{t}}}',
        ]
        for _ in range(rnd.randint(2, 5)):
            ev.append(
                f'{{"type":"REASONING_MESSAGE_CONTENT","messageId":"{z}","delta":"thinking about it "{t}}}'
            )
        ev.append(f'{{"type":"REASONING_MESSAGE_END","messageId":"{z}"{t}}}')
        ev.append(f'{{"type":"REASONING_END","messageId":"{z}s"{t}}}')
        return ev
    who = owner or "parent"
    return [
        f'{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/progress/{who}","value":{n}}},'
        f'{{"op":"replace","path":"/last","value":"{who} step {n}"}}]{t}}}'
    ]


def run(out, r, per_run, rnd):
    lines = [f'{{"type":"RUN_STARTED","threadId":"bench","runId":"r{r}"}}']
    lines.append(
        '{"type":"STATE_SNAPSHOT","snapshot":{"progress":{},"last":"","run":%d,'
        '"config":{"model":"m","temperature":0.5,"tools":["search","fetch"]}}}' % r
    )
    invs = [f"r{r}.s{k}" for k in range(8)]
    lines.append(f'{{"type":"SUBAGENT_STARTED","subagentRunId":"{invs[0]}","name":"lead"}}')
    for k in range(1, 8):
        lines.append(
            f'{{"type":"SUBAGENT_STARTED","subagentRunId":"{invs[k]}","name":"worker-{k}",'
            f'"parentSubagentRunId":"{invs[0]}"}}'
        )
    owners = [None] + invs
    n = 0
    budget = per_run - len(lines) - 9
    while len(lines) < budget:
        a, b = rnd.sample(owners, 2)
        ea = entity(r, n, a, rnd.randrange(4), rnd)
        eb = entity(r, n + 1, b, rnd.randrange(4), rnd)
        n += 2
        while ea or eb:
            if ea and (not eb or rnd.random() < 0.5):
                lines.append(ea.pop(0))
            else:
                lines.append(eb.pop(0))
    for k in reversed(range(8)):
        lines.append(
            f'{{"type":"SUBAGENT_FINISHED","subagentRunId":"{invs[k]}","outcome":{{"type":"success"}}}}'
        )
    lines.append(
        f'{{"type":"RUN_FINISHED","threadId":"bench","runId":"r{r}","outcome":{{"type":"success"}}}}'
    )
    out.write("\n".join(lines))
    out.write("\n")
    return len(lines)


def main():
    runs, per_run, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rnd = random.Random(20)
    total = 0
    with open(path, "w") as out:
        for r in range(runs):
            total += run(out, r, per_run, rnd)
    print(f"{total} events in {runs} runs", file=sys.stderr)


if __name__ == "__main__":
    main()
