"""The agui_conform module as a pytest user meets it, against the installed
binary. Expected answers come from the rule catalogue (docs/rules.md): a
continuation tagged with another invocation than its opener's is
`ownership.continuation-disagrees` (error, must-reject); input ending inside a
run is `run.unterminated` (error, may-reject)."""

import json

import pytest

from agui_conform import ConformError, assert_conforms, check


def run(*events):
    return [{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}, *events,
            {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}]


# A subagent streams one message of its own, announced and closed.
VALID = run(
    {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "researcher"},
    {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant", "subagentRunId": "s1"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hi", "subagentRunId": "s1"},
    {"type": "TEXT_MESSAGE_END", "messageId": "m1", "subagentRunId": "s1"},
    {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"},
)

# Event 2 continues s1's message under s2's tag.
INVALID = run(
    {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant", "subagentRunId": "s1"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x", "subagentRunId": "s2"},
    {"type": "TEXT_MESSAGE_END", "messageId": "m1", "subagentRunId": "s1"},
)


def test_a_valid_stream_conforms_and_shows_its_projection():
    report = assert_conforms(VALID)
    assert report["verdict"] == "accept"
    assert report["violations"] == []
    (run_view,) = report["projection"]["runs"]
    assert run_view["messages"] == [
        {"id": "m1", "role": "assistant", "owner": "s1", "content": "hi"}
    ]
    assert run_view["invocations"] == [{"id": "s1", "name": "researcher", "status": "finished"}]


def test_an_invalid_stream_fails_listing_its_violations():
    with pytest.raises(AssertionError) as failure:
        assert_conforms(INVALID)
    message = str(failure.value)
    assert "verdict reject, 1 failing violation(s)" in message
    assert "#2" in message and "ownership.continuation-disagrees" in message
    assert "agui-conform explain ownership.continuation-disagrees" in message


def test_check_returns_the_report_for_a_path(tmp_path):
    recording = tmp_path / "recording.jsonl"
    recording.write_text("".join(json.dumps(e) + "\n" for e in INVALID))
    report = check(recording, no_projection=True)
    assert report["verdict"] == "reject"
    assert [(v["rule"], v["index"], v["severity"]) for v in report["violations"]] == [
        ("ownership.continuation-disagrees", 2, "error")
    ]
    assert "projection" not in report


def test_allowed_rules_are_set_aside_and_unknown_ones_refused():
    unterminated = VALID[:-1]  # no RUN_FINISHED: run.unterminated at the end
    with pytest.raises(AssertionError, match="run.unterminated"):
        assert_conforms(unterminated)
    assert assert_conforms(unterminated, allow=("run.unterminated",))["verdict"] == "reject"
    with pytest.raises(ValueError, match="no.such-rule"):
        assert_conforms(VALID, allow=("no.such-rule",))


def test_a_checker_error_is_not_a_verdict(tmp_path):
    with pytest.raises(ConformError, match="status 2"):
        check(tmp_path / "missing.jsonl")
