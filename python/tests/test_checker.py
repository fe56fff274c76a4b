"""The incremental Checker: one `agui-conform check - --format json` process
fed event by event. Expected answers from docs/rules.md, as in
test_agui_conform.py."""

import gc
import json
import threading
import time

import pytest

from agui_conform import Checker, CheckerClosedError, ConformError, check
from agui_support import INVALID, VALID, run


def long_message(deltas, owner="s1"):
    """One run: s1 streams one message in ``deltas`` chunks, each tagged
    ``owner`` (another owner than s1 breaks ownership.continuation-disagrees
    on every chunk)."""
    head = [
        {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "writer"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant", "subagentRunId": "s1"},
    ]
    body = [{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": f"w{i} ",
             "subagentRunId": owner} for i in range(deltas)]
    tail = [
        {"type": "TEXT_MESSAGE_END", "messageId": "m1", "subagentRunId": "s1"},
        {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"},
    ]
    return run(*head, *body, *tail)


def in_time(work, seconds=60):
    """Runs ``work`` on a thread; fails if it has not returned in time (a
    deadlock), else returns its result."""
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("result", work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: deadlocked?"
    return out["result"]


def test_a_valid_stream_fed_event_by_event_gives_checks_report():
    with Checker() as checker:
        for event in VALID:
            checker.feed(event)
        report = checker.finish()
    assert report == check(VALID)
    assert report["verdict"] == "accept" and report["events"] == len(VALID)
    assert checker.fed == len(VALID)


def test_many_events_with_a_violation_each_never_fill_a_pipe():
    # 20,000 violations are ~5 MB of findings printed while the input is
    # still open: unread, stdout would fill and the checker would stop
    # reading stdin, and feed() would block for ever.
    events = long_message(20_000, owner="s2")

    def feed_all():
        with Checker(no_projection=True) as checker:
            checker.feed_all(events)
            return checker.finish(timeout=60)

    report = in_time(feed_all)
    assert report["events"] == len(events)
    assert report["counts"]["violations"] == 20_000
    assert {v["rule"] for v in report["violations"]} == {"ownership.continuation-disagrees"}
    assert [v["index"] for v in report["violations"]] == list(range(3, 20_003))


def test_many_valid_events_are_accepted():
    events = long_message(50_000)
    with Checker() as checker:
        in_time(lambda: checker.feed_all(events))
        report = checker.finish(timeout=60)
    assert (report["verdict"], report["events"]) == ("accept", len(events))
    (run_view,) = report["projection"]["runs"]
    assert run_view["messages"][0]["content"] == "".join(f"w{i} " for i in range(50_000))


def test_findings_arrive_while_the_input_is_still_open():
    with Checker() as checker:
        for event in INVALID[:4]:  # up to the disagreeing continuation
            checker.feed(event)
        deadline = time.monotonic() + 20
        while not checker.violations and time.monotonic() < deadline:
            time.sleep(0.02)
        (found,) = checker.violations
        assert (found["rule"], found["index"]) == ("ownership.continuation-disagrees", 3)
        assert checker._proc.poll() is None  # still running, stdin open
        report = checker.finish()
    # Finished early, inside the run: the report says so.
    assert [(v["rule"], v["index"]) for v in report["violations"]] == [
        ("ownership.continuation-disagrees", 3),
        ("run.unterminated", 4),
    ]
    assert report["runs"][0]["outcome"] == "unterminated"
    assert checker.violations == report["violations"]


def test_an_early_finish_judges_what_was_fed():
    with Checker() as checker:
        checker.feed_all(VALID[:3])
        report = checker.finish()
        assert checker.finish() is report  # finishing twice: the same report
        with pytest.raises(ValueError, match="finished"):
            checker.feed(VALID[3])
    assert report["events"] == 3
    assert [(v["rule"], v["index"]) for v in report["violations"]] == [("run.unterminated", 3)]


def test_nothing_fed_is_inconclusive():
    with Checker() as checker:
        report = checker.finish(timeout=30)
    assert report["verdict"] == "inconclusive"
    assert report["reason"] == "the input holds no events"


def test_lines_are_sent_as_they_are():
    with Checker() as checker:
        checker.feed(json.dumps(VALID[0]))          # str
        checker.feed(json.dumps(VALID[1]).encode() + b"\n")  # bytes, with its line end
        checker.feed("this is not JSON")
        report = checker.finish()
    assert report["events"] == 3
    assert [(v["rule"], v["index"]) for v in report["violations"]][0] == ("schema.not-json", 2)


def test_feed_takes_a_pretty_printed_event_and_refuses_other_types():
    with Checker() as checker:
        with pytest.raises(TypeError, match="feed\\(\\) takes an event dict, a pydantic event.*not a int"):
            checker.feed(42)
        assert checker.fed == 0
        checker.feed('{"type": "RUN_STARTED",\n "threadId": "t1", "runId": "r1"}')  # one event, two lines
        checker.feed_all(VALID[1:])
        assert checker.fed == len(VALID)
        assert checker.finish()["verdict"] == "accept"


def test_a_checker_that_cannot_run_is_an_error():
    checker = Checker(rules={"no.such-rule": "off"})
    with pytest.raises(ConformError, match="unknown rule `no.such-rule`") as error:
        for event in VALID * 2000:  # the process may be gone before the input ends
            checker.feed(event)
        checker.finish()
    assert error.value.returncode == 2
    checker.close()


def test_close_and_garbage_collection_kill_the_process():
    with Checker() as checker:
        checker.feed(VALID[0])
        proc = checker._proc
        assert proc.poll() is None
    assert proc.wait(timeout=10) is not None
    with pytest.raises(CheckerClosedError, match="closed"):
        checker.feed(VALID[1])

    checker = Checker()
    checker.feed(VALID[0])
    proc = checker._proc
    del checker
    gc.collect()
    assert proc.wait(timeout=10) < 0  # killed, not finished


def test_assert_conforms_fails_with_checks_readable_report():
    with Checker() as checker:
        checker.feed_all(INVALID)
        with pytest.raises(AssertionError) as failure:
            checker.assert_conforms()
    message = str(failure.value)
    assert "ownership.continuation-disagrees (error, must-reject) at #3" in message
    assert "<stdin>: reject — 1 violation (1 error, 0 warnings) in 7 events" in message
    with Checker() as checker:
        checker.feed_all(INVALID)
        assert checker.assert_conforms(allow=["ownership.continuation-disagrees"])["verdict"] == "reject"


def test_feed_returns_once_the_event_is_judged():
    # docs/rules.md: INVALID's event 3 continues s1's message under s2's
    # tag (ownership.continuation-disagrees), detectable at that event.
    for attempt in range(5):
        with Checker() as checker:
            for event in INVALID[:3]:
                checker.feed(event)
                assert checker.violations == []
            checker.feed(INVALID[3])
            assert [(v["rule"], v["index"]) for v in checker.violations] == [
                ("ownership.continuation-disagrees", 3)], attempt
            checker.feed_all(INVALID[4:])
            assert checker.finish()["verdict"] == "reject"
