"""check() and Checker.feed() take a stream as it comes: event dicts, JSON
strings, JSON Lines text, SSE text, bytes, file objects, explicit paths and
pydantic events of ag_ui.core; strings reach the checker losslessly. The
expected answers are docs/rules.md's: VALID conforms (accept, 7 events),
INVALID breaks ownership.continuation-disagrees at #3 (the subagent's
content event); a run never finished is run.unterminated at the stream's end
(the index after its last event); a line that is not JSON is
schema.not-json, and as a stream's first item also run.first-event; a lone surrogate is schema.lone-surrogate
(warning) and shows as U+FFFD in the projection, a pair split across two
deltas joins into one character."""

import io
import json
import pathlib

import pytest

from agui_conform import Checker, InputError, InputTypeError, check
from agui_support import INVALID, VALID, run

INVALID_FINDINGS = [("ownership.continuation-disagrees", 3)]


def findings(report):
    return [(v["rule"], v["index"]) for v in report["violations"]]


def jsonl(events):
    return "".join(json.dumps(e) + "\n" for e in events)


def sse(events):
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events)


@pytest.mark.parametrize("form", [
    "dicts", "json strings", "json bytes", "jsonl text", "jsonl bytes", "json array text",
    "sse text", "sse bytes", "binary file", "text file",
])
def test_every_form_of_the_same_stream_gets_the_same_findings(form):
    given = {
        "dicts": lambda es: es,
        "json strings": lambda es: [json.dumps(e) for e in es],
        "json bytes": lambda es: [json.dumps(e).encode() for e in es],
        "jsonl text": jsonl,
        "jsonl bytes": lambda es: jsonl(es).encode(),
        "json array text": lambda es: json.dumps(es, indent=2),
        "sse text": sse,
        "sse bytes": lambda es: sse(es).encode(),
        "binary file": lambda es: io.BytesIO(jsonl(es).encode()),
        "text file": lambda es: io.StringIO(sse(es)),
    }[form]
    valid, invalid = check(given(VALID)), check(given(INVALID))
    assert (valid["verdict"], valid["events"], findings(valid)) == ("accept", 7, [])
    assert (invalid["verdict"], invalid["events"], findings(invalid)) == ("reject", 7, INVALID_FINDINGS)


def test_one_event_alone_pretty_printed_or_not():
    for one in (VALID[0], json.dumps(VALID[0], indent=2), json.dumps(VALID[0])):
        report = check(one)
        assert (report["events"], findings(report)) == (1, [("run.unterminated", 1)]), one


def test_a_str_is_never_a_path_and_paths_are_explicit(tmp_path, monkeypatch):
    recording = tmp_path / "recording.jsonl"
    recording.write_text(jsonl(INVALID))
    assert findings(check(path=recording)) == INVALID_FINDINGS
    assert findings(check(path=str(recording))) == INVALID_FINDINGS
    assert findings(check(pathlib.Path(recording))) == INVALID_FINDINGS
    with pytest.raises(InputError, match=r"names a file.*path="):
        check(str(recording))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="names a file"):
        check("recording.jsonl")
    # A name that is no file is text like any other: one line, not JSON.
    report = check("no-such-recording.jsonl")
    assert findings(report) == [("schema.not-json", 0), ("run.first-event", 0)]


def test_format_forces_how_text_is_read():
    # Read as JSON Lines, each SSE line is a line of text that is not JSON.
    as_lines = check(sse(VALID[:1]), format="jsonl")
    assert findings(as_lines) == [("schema.not-json", 0), ("run.first-event", 0)]
    # A list of events sent as an SSE body.
    as_sse = check(INVALID, format="sse")
    assert (as_sse["events"], findings(as_sse)) == (7, INVALID_FINDINGS)
    with pytest.raises(InputError, match="format='yaml'"):
        check(VALID, format="yaml")


def test_a_wrong_type_names_what_is_accepted():
    for wrong in (42, None, 3.5):
        with pytest.raises(TypeError, match="event dict, a pydantic event of ag_ui.core, JSON or JSON Lines or SSE"):
            check(wrong)
    with pytest.raises(InputTypeError, match="element of the event list is a int"):
        check([VALID[0], 7])
    with pytest.raises(InputError, match="several lines and is not one JSON value"):
        check([jsonl(VALID)])


def lone(delta_events):
    return run({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
               *({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": d} for d in delta_events),
               {"type": "TEXT_MESSAGE_END", "messageId": "m1"})


def text_of(report):
    return report["projection"]["runs"][0]["messages"][0]["content"]


def test_a_lone_surrogate_reaches_the_checker_as_sent():
    # What json.loads gives for a JavaScript producer's split emoji.
    events = lone([json.loads('"a\\ud83d"')])
    for given in (events, [json.dumps(e, ensure_ascii=False) for e in events], jsonl(events)):
        report = check(given)
        assert findings(report) == [("schema.lone-surrogate", 2)]
        assert text_of(report) == "a\ufffd"
    with Checker() as checker:
        checker.feed_all(events)
        report = checker.finish()
    assert findings(report) == [("schema.lone-surrogate", 2)] and text_of(report) == "a\ufffd"


def test_a_pair_split_across_deltas_joins_into_one_character():
    split = lone([json.loads('"a\\ud83d"'), json.loads('"\\ude00b"')])
    assert text_of(check(split)) == "a\U0001F600b"


def test_the_checker_takes_sse_text_and_jsonl_text():
    with Checker() as checker:
        checker.feed(sse(INVALID[:3]))
        checker.feed(INVALID[3])            # a dict fed to an SSE stream becomes a data: line
        checker.feed(sse(INVALID[4:]).encode())
        report = checker.finish()
    assert (checker.fed, report["events"], findings(report)) == (7, 7, INVALID_FINDINGS)
    with Checker() as checker:
        checker.feed(jsonl(INVALID[:4]))
        checker.feed_all(INVALID[4:])
        with pytest.raises(InputError, match="reads JSON"):
            checker.feed(sse(VALID[:1]))
        report = checker.finish()
    assert (checker.fed, findings(report)) == (7, INVALID_FINDINGS)


def test_pydantic_events_are_sent_as_the_encoder_writes_them():
    core = pytest.importorskip("ag_ui.core")
    events = [
        core.RunStartedEvent(thread_id="t1", run_id="r1"),
        core.TextMessageStartEvent(message_id="m1", role="assistant"),
        core.TextMessageContentEvent(message_id="m1", delta="hi"),
        core.TextMessageEndEvent(message_id="m1"),
        core.RunFinishedEvent(thread_id="t1", run_id="r1"),
    ]
    as_dicts = [{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
                {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hi"},
                {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
                {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}]
    report = check(events)
    assert report == check(as_dicts)
    assert (report["verdict"], findings(report)) == ("accept", [])
    with Checker() as checker:
        checker.feed_all(events)
        assert checker.finish() == report
    # A lone surrogate the encoder cannot write is still sent as it is.
    cut = core.TextMessageContentEvent(message_id="m1", delta="a\ud83d")
    report = check([events[0], events[1], cut, events[3], events[4]])
    assert findings(report) == [("schema.lone-surrogate", 2)]
