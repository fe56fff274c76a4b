#!/usr/bin/env python3
"""Renders the side-by-side conformance report (docs/conformance/README.md).

Input: the `agui-conform run --format json` output of each implementation (one
JSON object per case, then one `{"summary": ...}` line), the rule catalogue
(`agui-conform rules --format json`), the corpus (for the streams of failed
cases), and docs/conformance/notes.json (hand-written analysis of the peers'
departures, shown only where the run shows them). Standard library only; the
output has no timestamps, so regenerating an unchanged run changes nothing.

Usage:
  conformance_report.py --rules rules.json --corpus corpus --notes notes.json \
      --run 'reference=Reference model=ref.jsonl' \
      --run 'typescript=TypeScript client=ts.jsonl[=CMD for --one-shot logs]' ... \
      [--missing 'python=Python SDK=why it did not run'] --out README.md
"""

import argparse
import json
import os
import shlex
import re
import subprocess
import sys

UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")

SCORES = ["PASS", "FAIL", "WARN", "INFO", "SKIPPED", "ERRORED"]


def load_run(path):
    """The case lines (by id) and the summary of one `run --format json` output."""
    cases, summary = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            obj = json.loads(line)
            if "summary" in obj:
                summary = obj["summary"]
            else:
                cases[obj["id"]] = obj
    if summary is None:
        raise SystemExit(f"{path}: no summary line (the run did not finish)")
    return cases, summary


def load_case(corpus, case_id):
    path = os.path.join(corpus, case_id + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
    except (OSError, ValueError):
        return None
    # A raw-line case (duplicate keys, lone surrogates) shows its lines as
    # events the way Python reads them (the last duplicate wins).
    if "events" not in case and isinstance(case.get("lines"), list):
        try:
            case["events"] = [json.loads(line) for line in case["lines"]]
        except ValueError:
            case["events"] = []
    return case


def rule_of(line, case):
    """The per-rule key the harness uses: first violation, else obligation, else valid."""
    rule = line.get("expected", {}).get("rule")
    if rule:
        return rule
    if case and case.get("obligation"):
        return case["obligation"]
    return "valid"


def answer(got):
    """An implementation's answer in a few words."""
    if "verdict" in got:
        if got["verdict"] == "accept":
            return "accept"
        text = "reject"
        if "index" in got:
            text += f" at {got['index']}"
        if "rule" in got:
            text += f" (`{got['rule']}`)"
        return text
    if "skipped" in got:
        return f"skipped: {got['skipped'].get('reason', '')}"
    if "errored" in got:
        return f"errored: {got['errored'].get('reason', '')}"
    return json.dumps(got)


def expected_text(exp):
    text = exp["verdict"]
    if "rule" in exp:
        text += f"; first violation `{exp['rule']}` at {exp['index']}"
    else:
        text += "; no violation"
    return text


def cell(tally):
    if not tally or sum(tally.get(s, 0) for s in SCORES) == 0:
        return "—"
    parts = []
    for s in SCORES:
        n = tally.get(s, 0)
        if n:
            parts.append(f"**{n} {s}**" if s in ("FAIL", "ERRORED") else f"{n} {s}")
    return ", ".join(parts)


def esc(text):
    """One table cell; ids an implementation minted at random shown as `<uuid>`."""
    return UUID.sub("<uuid>", str(text)).replace("|", "\\|").replace("\n", " ")


def one_shot_log(command, events):
    """What the implementation printed on stderr for this stream (its own warnings)."""
    if not command:
        return []
    try:
        proc = subprocess.run(shlex.split(command) + ["--one-shot"], capture_output=True, text=True,
                              input="".join(json.dumps(e) + "\n" for e in events), timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    lines = [UUID.sub("<uuid>", l) for l in proc.stderr.splitlines() if l.startswith("[ag-ui]")]
    return lines[:5]


def shown_message(m):
    """A message the client keeps, in the projection's message form."""
    out = {"id": m.get("id"), "role": m.get("role")}
    if m.get("subagentRunId") is not None:
        out["owner"] = m["subagentRunId"]
    content = m.get("content")
    if m.get("role") == "activity":
        out["content"] = content
        out["activityType"] = m.get("activityType")
    elif isinstance(content, str):
        out["content"] = content
    elif isinstance(content, list):
        out["content"] = "".join(p.get("text", "") for p in content
                                 if isinstance(p, dict) and p.get("type") == "text")
    else:
        out["content"] = ""
    calls = m.get("toolCalls") or []
    if m.get("role") == "assistant" and calls:
        out["toolCalls"] = [{"id": t.get("id"), "name": t.get("function", {}).get("name"),
                             "args": t.get("function", {}).get("arguments")} for t in calls]
    return out


def view_differences(projection, view):
    """Where what the client shows differs from the expected projection.

    Compared: each expected message by id (its last run's version), on role,
    owner, content, tool calls and activity type; the last run's state; the
    last run's interrupts (id, owner). Not compared: invocations (the client
    keeps none), message order, and messages the projection does not show.
    """
    expected = {}
    for run in projection.get("runs", []):
        for m in run.get("messages", []):
            expected[m["id"]] = m
    shown = {m.get("id"): shown_message(m) for m in view.get("messages", [])}
    diffs = []
    for mid, m in expected.items():
        got = shown.get(mid)
        if got is None:
            diffs.append((f"message `{mid}`", "shown", "not shown"))
            continue
        for key in ("role", "owner", "content", "toolCalls", "activityType"):
            if m.get(key) != got.get(key):
                diffs.append((f"message `{mid}` {key}", m.get(key), got.get(key)))
    runs = projection.get("runs", [])
    if runs:
        last = runs[-1]
        if last.get("state") != view.get("state"):
            diffs.append(("state", last.get("state"), view.get("state")))
        want = [{"id": i["id"], **({"owner": i["owner"]} if "owner" in i else {})}
                for i in last.get("interrupts", [])]
        got = [{"id": i.get("id"), **({"owner": i["subagentRunId"]} if i.get("subagentRunId") is not None else {})}
               for i in view.get("pendingInterrupts", [])]
        if want != got:
            diffs.append(("interrupts", want, got))
    return diffs


def client_views(command, streams):
    """One `--client-view` process for all streams: what the client shows after each."""
    if not streams:
        return []
    proc = subprocess.run(shlex.split(command) + ["--client-view"], capture_output=True, text=True,
                          input="".join(json.dumps(s) + "\n" for s in streams), timeout=600)
    views = [json.loads(l) for l in proc.stdout.splitlines() if l.strip()]
    if len(views) != len(streams):
        raise SystemExit(f"--client-view answered {len(views)} of {len(streams)} streams: {proc.stderr[-500:]}")
    return views


def show(value):
    return "absent" if value is None else f"`{json.dumps(value)}`"


def saved_case(folder, line):
    """The shrunk (else original) stream `agui-conform run --save-failures` kept for a
    generated case: `shrunk/<name>.json`, `failures/<name>.json`, where name is
    `valid-<seed>` or `<rule with dashes>-<seed>`."""
    if not folder or "seed" not in line:
        return None
    mode = line.get("mode", "")
    if mode == "valid":
        name = f"valid-{line['seed']}"
    elif mode.startswith("invalid "):
        name = f"{mode.split(' ', 1)[1].replace('.', '-')}-{line['seed']}"
    else:
        return None
    for sub in ("shrunk", "failures"):
        path = os.path.join(folder, sub, name + ".json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
    return None


START, END = "<!-- conformance-summary:start -->", "<!-- conformance-summary:end -->"


def fill_readme(path, table, suite):
    """Puts the summary table between the README's markers, when it has them."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return
    if START not in text or END not in text or text.index(START) > text.index(END):
        return
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    block = "\n".join([START, "", f"The `{suite}` suite against the reference and the consumer peers"
                        " ([full report](docs/conformance/README.md), regenerated by"
                        " `scripts/conformance-report.sh`):", ""] + table + ["", END])
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + block + tail)


class Impl:
    def __init__(self, spec):
        parts = spec.split("=", 3)
        if len(parts) < 3:
            raise SystemExit(f"--run {spec!r}: expected KEY=LABEL=FILE[=CMD]")
        self.key, self.label, path = parts[0], parts[1], parts[2]
        self.command = parts[3] if len(parts) == 4 else None
        self.cases, self.summary = load_run(path)
        self.saved = None  # --save-failures folder, from --saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--notes")
    ap.add_argument("--run", action="append", default=[])
    ap.add_argument("--missing", action="append", default=[])
    ap.add_argument("--view", action="append", default=[],
                    help="KEY=CMD: compare what that peer shows (CMD --client-view) with the projections")
    ap.add_argument("--saved", action="append", default=[],
                    help="KEY=DIR: that peer's `run --save-failures` folder (minimal generated streams)")
    ap.add_argument("--readme", help="a README whose conformance-summary markers get the summary table")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    with open(args.rules, encoding="utf-8") as f:
        rules = {r["id"]: r for r in json.load(f)}
    order = {rid: i for i, rid in enumerate(rules)}
    notes = {}
    if args.notes and os.path.exists(args.notes):
        with open(args.notes, encoding="utf-8") as f:
            notes = json.load(f)
    impls = [Impl(s) for s in args.run]
    missing = [m.split("=", 2) for m in args.missing]
    for spec in args.saved:
        key, folder = spec.split("=", 1)
        for i in impls:
            if i.key == key:
                i.saved = folder
    ref = impls[0]
    peers = impls[1:]

    out = []
    w = out.append
    suite = ref.summary.get("suite", "default")
    w("# Conformance report: the reference model, the AG-UI TypeScript client, the Python SDK"
      " and ag-ui-validate\n")
    w("Generated by `scripts/conformance-report.sh` — do not edit by hand; rerun it"
      " (see `adapters/README.md`). Scoring follows docs/rules.md \"Scoring a consumer\".\n")
    problems = sorted({p for i in impls for p in i.summary.get("problems", [])})
    w(f"Suite `{suite}`: {ref.summary['cases']} cases." + "".join(f" Note: {p}." for p in problems) + "\n")

    w("## Summary\n")
    table = ["| implementation | version | capabilities | cases | " + " | ".join(SCORES) + " |",
             "|---|---|---|---:|" + "---:|" * len(SCORES)]
    for i in impls:
        s, im = i.summary, i.summary["implementation"]
        table.append(f"| {i.label} | `{im['name']}` {esc(im.get('version', ''))} | {', '.join(im['capabilities'])} | "
                     f"{s['cases']} | " + " | ".join(str(s["scores"].get(k, 0)) for k in SCORES) + " |")
    for key, label, why in missing:
        table.append(f"| {label} | not run | | | " + " | ".join("" for _ in SCORES) + " |")
    out.extend(table)
    w("")
    if args.readme:
        fill_readme(args.readme, table, suite)
    for key, label, why in missing:
        w(f"**{label} did not run:** {why}\n")
    w("PASS: the answer the spec requires. FAIL: a must-reject violation accepted, a valid stream"
      " (or a valid prefix) rejected, or a rejection past a must-reject event. WARN: a should-reject"
      " violation accepted (a deviation from what the AG-UI reference clients enforce). INFO: a"
      " may-reject violation accepted (either answer conforms). SKIPPED: not asked — a schema-only"
      " implementation is scored only on cases the schema rules alone decide. ERRORED: the"
      " implementation or its adapter failed on the case.\n")
    w("What the peers are asked, and how their adapters read their answers:"
      " [`adapters/README.md`](../../adapters/README.md). No peer reports a projection or"
      " rule ids of this catalogue, so their scores are about verdicts and rejection indexes only."
      " ag-ui-validate's own analysis: [`ag-ui-validate.md`](ag-ui-validate.md).\n")

    # Findings: every rule where a peer FAILs (and WARNs, separately).
    def bad_cases(score):
        found = {}
        for p in peers:
            for cid, line in p.cases.items():
                if line["score"] == score:
                    case = load_case(args.corpus, cid)
                    found.setdefault(rule_of(line, case), {}).setdefault(cid, case)
        return found

    fails = bad_cases("FAIL")
    w("## Where the peers depart from the draft and the schema\n")
    if not fails:
        w("No peer failed a case.\n")
    for rule_id in sorted(fails, key=lambda r: order.get(r, 1 << 30)):
        rule = rules.get(rule_id, {})
        w(f"### `{rule_id}`\n")
        if rule:
            src = rule["source"]
            w(f"{rule['statement']} (source: {src}; consumer obligation: **{rule['obligation']}**)\n")
        for p in peers:
            failed = [cid for cid, line in p.cases.items()
                      if line["score"] == "FAIL" and cid in fails[rule_id]]
            if not failed:
                continue
            total = sum(1 for cid, line in p.cases.items()
                        if rule_of(line, load_case(args.corpus, cid)) == rule_id and line["score"] != "SKIPPED")
            what = ("the draft" if "draft" in rule.get("source", "")
                    else "the AG-UI 1.0 wire schema" if rule.get("source") == "schema" else "docs/rules.md")
            accepted = sum(1 for cid in failed if p.cases[cid]["got"].get("verdict") == "accept")
            valid = sum(1 for cid in failed if p.cases[cid]["got"].get("verdict") == "reject"
                        and "rule" not in p.cases[cid]["expected"])
            how = []
            if accepted:
                how.append(f"it accepts a stream that a consumer must reject ({accepted})")
            if valid:
                how.append(f"it rejects a valid stream ({valid})")
            if len(failed) - accepted - valid:
                how.append(f"it rejects at the wrong event ({len(failed) - accepted - valid})")
            if "draft" in rule.get("source", "") and rule.get("quote"):
                lead = f"**{p.label} departs from the draft**, which says: “{rule['quote']}”"
            elif not rule:
                lead = (f"**{p.label} rejects valid streams** (each case below quotes the sentence it"
                        " tests).")
            else:
                lead = f"**{p.label} departs from {what}** ({rule.get('obligation', '')}: {rule.get('statement', '')})"
            text = f"{lead} In {len(failed)} of {total} case(s) " + "; ".join(how) + "."
            note = notes.get(p.key, {}).get(rule_id)
            if note:
                text += f" {note}"
            w(text + "\n")
        by_size = lambda cid: (len((fails[rule_id][cid] or {}).get("events", [])), cid)
        for cid in sorted(fails[rule_id], key=by_size):
            case = fails[rule_id][cid]
            ref_line = ref.cases.get(cid) or next(p.cases[cid] for p in peers if cid in p.cases)
            w(f"#### `{cid}`\n")
            if case:
                w(f"{case.get('description', '')}\n")
                if case.get("spec"):
                    w(f"The sentence the case tests: “{case['spec']}”\n")
                long = len(case["events"]) > 10
                if long:  # the rule's short cases come first; long ones fold
                    w(f"<details><summary>The stream ({len(case['events'])} items)</summary>\n")
                w("```json")
                for e in case["events"]:
                    w(f"{json.dumps(e)}")
                w("```\n")
                if long:
                    w("</details>\n")
                w("(one item per line, index 0 first)\n")
            elif "seed" in ref_line:
                w(f"Generated case (seed {ref_line['seed']}, {ref_line.get('mode', '')}); the answers"
                  " below are to the generated stream.\n")
                for p in peers:
                    if p.cases.get(cid, {}).get("score") != "FAIL":
                        continue
                    saved = saved_case(p.saved, ref_line)
                    if saved is None:
                        w(f"{p.label}: no saved stream (run with `--save-failures`).\n")
                        continue
                    w(f"Minimal stream on which the {p.label} still FAILs — {saved.get('description', '')}\n")
                    w("```json")
                    for e in saved["events"]:
                        w(json.dumps(e))
                    w("```\n")
                    exp = saved.get("expect", {})
                    w(f"Expected on it (reference model): {expected_text(exp)}.\n")
            on = "Expected on the generated stream" if case is None and "seed" in ref_line else "Expected"
            w(f"{on}: {expected_text(ref_line['expected'])}.\n")
            w("| implementation | answered | score | why |")
            w("|---|---|---|---|")
            for i in impls:
                line = i.cases.get(cid)
                if not line:
                    w(f"| {i.label} | (not run) | | |")
                    continue
                got = answer(line["got"])
                msg = line["got"].get("message")
                if msg:
                    got += f" — “{esc(msg)[:300]}”"
                w(f"| {i.label} | {esc(got)} | {line['score']} | {esc(line.get('reason', ''))} |")
            w("")
            for p in peers:
                note = notes.get(p.key, {}).get("case:" + cid)
                if note and p.cases.get(cid, {}).get("score") == "FAIL":
                    w(f"{p.label}: {note}\n")
            for p in peers:
                line = p.cases.get(cid)
                if case and line and line["score"] == "FAIL":
                    log = one_shot_log(p.command, case["events"])
                    if log:
                        w(f"{p.label} logged:\n")
                        w("```")
                        w("\n".join(log))
                        w("```\n")

    warns = bad_cases("WARN")
    w("## Deviations from the reference clients (WARN)\n")
    if not warns:
        w("None.\n")
    else:
        w("Should-reject violations a peer accepted. docs/rules.md ranks these as producer errors that the"
          " AG-UI reference clients enforce; accepting one is not a FAIL.\n")
        w("| rule | case | expected | " + " | ".join(i.label for i in impls) + " |")
        w("|---|---|---|" + "---|" * len(impls))
        for rule_id in sorted(warns, key=lambda r: order.get(r, 1 << 30)):
            for cid in sorted(warns[rule_id]):
                ref_line = ref.cases.get(cid, {})
                row = [answer(i.cases[cid]["got"]) + f" ({i.cases[cid]['score']})" if cid in i.cases else "—"
                       for i in impls]
                w(f"| `{rule_id}` | `{cid}` | {expected_text(ref_line.get('expected', {'verdict': '?'}))} | "
                  + " | ".join(esc(x) for x in row) + " |")
        w("")
        for p in peers:
            for rule_id in sorted(warns, key=lambda r: order.get(r, 1 << 30)):
                note = notes.get(p.key, {}).get(rule_id)
                if note and any(p.cases.get(c, {}).get("score") == "WARN" for c in warns[rule_id]):
                    w(f"- **{p.label}, `{rule_id}`:** {note}")
        w("")

    for spec in args.view:
        key, command = spec.split("=", 1)
        peer = next((p for p in peers if p.key == key), None)
        if peer is None:
            continue
        chosen = []
        for cid in sorted(peer.cases):
            case = load_case(args.corpus, cid)
            # Raw-line cases hold what JSON values cannot carry to the
            # client view (duplicate keys, 1e400): left out of the view.
            if (case and case.get("projection") and "lines" not in case
                    and peer.cases[cid]["got"].get("verdict") == "accept"):
                chosen.append((cid, case))
        views = client_views(command, [c["events"] for _, c in chosen])
        differing = [(cid, case, view_differences(case["projection"], v))
                     for (cid, case), v in zip(chosen, views)]
        differing = [d for d in differing if d[2]]
        w(f"## What the {peer.label} shows (informational)\n")
        w(f"The {peer.label} keeps no list of invocations, so it cannot report the projection"
          " (`docs/projection.md`) and is not scored on it. Its reducer does keep the messages, each"
          " with its owner (`subagentRunId`), the state and the pending interrupts. For every case with"
          " an expected projection that the client accepts, these are compared with the projection:"
          " each expected message by id (its last run's version) on role, owner, content, tool calls"
          " and activity type; the last run's state; the last run's interrupts with their owners."
          " Not compared: invocations, message order (the client puts a tool result right after the"
          " message holding its call) and messages the projection does not show (the client also"
          " lists the `RUN_STARTED` input's history, and keeps one list across runs).\n")
        w(f"{len(chosen)} case(s) compared; {len(chosen) - len(differing)} agree.\n")
        if differing:
            w("| case | what | expected | the client shows | the sentence the case tests |")
            w("|---|---|---|---|---|")
            for cid, case, diffs in differing:
                for what, want, got in diffs:
                    w(f"| `{cid}` | {what} | {esc(show(want))} | {esc(show(got))} | {esc(case.get('spec', ''))} |")
            w("")
            for cid, case, diffs in differing:
                note = notes.get(peer.key, {}).get("view:" + cid)
                if note:
                    w(f"- **`{cid}`:** {note}")
            w("")

    w("## Per rule\n")
    w("Cases are grouped by their first violation's rule, or by the `accept.*` obligation a valid"
      " case tests (`valid`: neither).\n")
    keys = set()
    for i in impls:
        keys.update(i.summary.get("rules", {}))
    w("| rule | obligation | " + " | ".join(i.label for i in impls) + " |")
    w("|---|---|" + "---|" * len(impls))
    for k in sorted(keys, key=lambda r: order.get(r, 1 << 30)):
        ob = rules.get(k, {}).get("obligation", "must-accept" if k == "valid" else "")
        w(f"| `{k}` | {ob} | " + " | ".join(cell(i.summary.get("rules", {}).get(k)) for i in impls) + " |")
    w("")
    untested = [r for r in rules if r not in keys]
    if untested:
        w("No case in this suite for: " + ", ".join(f"`{r}`" for r in untested) + ".\n")

    for i in impls:
        inc = i.summary.get("incidents") or []
        if inc:
            w(f"Incidents ({i.label}): " + "; ".join(esc(x) for x in inc) + "\n")

    text = "\n".join(out).rstrip() + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
