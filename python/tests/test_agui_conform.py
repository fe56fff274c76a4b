"""The agui_conform module as a pytest user meets it, against the installed
binary. Expected answers come from the rule catalogue (docs/rules.md): a
continuation tagged with another invocation than its opener's is
`ownership.continuation-disagrees` (error, must-reject); input ending inside a
run is `run.unterminated` (error, may-reject)."""

import json

import pytest

from agui_conform import ConformError, assert_conforms, check, rule, rule_ids


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


def test_rules_set_a_rules_severity_or_turn_it_off():
    demoted = check(INVALID, rules={"ownership.continuation-disagrees": "warning"})
    assert demoted["verdict"] == "accept"
    assert [(v["rule"], v["severity"]) for v in demoted["violations"]] == [
        ("ownership.continuation-disagrees", "warning")
    ]
    assert check(INVALID, rules={"ownership.continuation-disagrees": "off"})["violations"] == []
    with pytest.raises(ConformError, match="unknown rule `no.such-rule`") as error:
        check(INVALID, rules={"no.such-rule": "off"})
    assert error.value.returncode == 2 and "no.such-rule" in error.value.stderr


def test_check_points_a_url_to_check_url():
    # `check([], url=...)` used to reach the CLI and fail with a clap error.
    with pytest.raises(TypeError, match=r"check_url\(url"):
        check([], url="http://localhost:8000/agent", message="hi")


def test_the_failure_names_each_rule_with_its_statement_and_shows_the_report():
    events = iter(INVALID)  # a generator is read once and checked twice
    with pytest.raises(AssertionError) as failure:
        assert_conforms(events)
    message = str(failure.value)
    statement = rule("ownership.continuation-disagrees")["statement"]
    assert "ownership.continuation-disagrees (error, must-reject) at #2" in message
    assert f"rule: {statement}" in message
    # check's own readable report of the same five events
    assert "<stdin>: reject — 1 violation (1 error, 0 warnings) in 5 events" in message
    assert '  #2     error   ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for "m1"' in message


def test_strict_fails_on_warnings_too():
    unterminated = VALID[:-1]
    as_warning = {"run.unterminated": "warning"}
    assert assert_conforms(unterminated, rules=as_warning)["verdict"] == "accept"
    with pytest.raises(AssertionError, match=r"run.unterminated \(warning, may-reject\) at #6"):
        assert_conforms(unterminated, strict=True, rules=as_warning)


def test_no_events_is_no_verdict():
    with pytest.raises(AssertionError, match="could not be judged: verdict inconclusive.*\n  the input holds no events"):
        assert_conforms([])


def test_the_catalogue_is_the_binarys():
    assert "ownership.continuation-disagrees" in rule_ids()
    entry = rule("run.unterminated")
    assert (entry["severity"], entry["obligation"]) == ("error", "may-reject")
    with pytest.raises(KeyError):
        rule("no.such-rule")
