"""check_url, assert_endpoint_conforms, run_producer and
assert_producer_passes against a loopback producer (agui_support.AguiServer:
/valid, /invalid, /status500, /hang)."""

import json
import socket

import pytest

from agui_conform import (
    ConformError,
    assert_endpoint_conforms,
    assert_producer_passes,
    check_url,
    rule,
    run_producer,
)

CONTINUATION = "ownership.continuation-disagrees"


def test_a_valid_endpoint_is_accepted(producer, requests_seen):
    report = check_url(producer.url("/valid"))
    assert report["verdict"] == "accept" and report["violations"] == []
    assert report["events"] == 7
    assert [r["outcome"] for r in report["runs"]] == ["finished"]
    (run_view,) = report["projection"]["runs"]
    assert [(i["name"], i["status"]) for i in run_view["invocations"]] == [("researcher", "finished")]
    # The default input: one user message, fresh ids.
    (sent,) = requests_seen
    assert sent["headers"]["accept"] == "text/event-stream"
    assert [m["role"] for m in sent["body"]["messages"]] == ["user"]


def test_every_keyword_reaches_the_request(producer, requests_seen, tmp_path):
    tool = {"name": "get_weather", "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    check_url(
        producer.url("/valid"),
        input={"threadId": "thread-mine", "messages": [{"id": "u0", "role": "user", "content": "Hello"}]},
        message="What is the weather in Lisbon?",
        state={"city": "Lisbon"},
        tools=[tool],
        forwarded_props={"model": "small"},
        headers={"Authorization": "Bearer token-1", "X-Tenant": "acme"},
        timeout=30,
        no_projection=True,
    )
    (sent,) = requests_seen
    body = sent["body"]
    assert body["threadId"] == "thread-mine"
    assert [m["content"] for m in body["messages"]] == ["Hello", "What is the weather in Lisbon?"]
    assert body["state"] == {"city": "Lisbon"}
    assert body["tools"] == [tool]
    assert body["forwardedProps"] == {"model": "small"}
    assert sent["headers"]["authorization"] == "Bearer token-1"
    assert sent["headers"]["x-tenant"] == "acme"

    saved = tmp_path / "input.json"
    saved.write_text(json.dumps({"threadId": "thread-from-file"}))
    check_url(producer.url("/valid"), input=saved)
    assert requests_seen[-1]["body"]["threadId"] == "thread-from-file"


def test_an_invalid_endpoint_is_rejected_and_rules_configure_it(producer):
    report = check_url(producer.url("/invalid"), no_projection=True)
    assert report["verdict"] == "reject"
    assert [(v["rule"], v["index"]) for v in report["violations"]] == [(CONTINUATION, 3)]
    relaxed = check_url(producer.url("/invalid"), rules={CONTINUATION: "off"})
    assert (relaxed["verdict"], relaxed["violations"]) == ("accept", [])


def test_transport_rules_are_judged(producer):
    report = check_url(producer.url("/status500"))
    assert [(v["rule"], v["index"]) for v in report["violations"]] == [("transport.status", 0)]
    assert "no model configured" in report["violations"][0]["message"]


def test_the_timeout_cuts_the_stream_inconclusive(producer):
    report = check_url(producer.url("/hang"), timeout=0.5, no_projection=True)
    assert report["verdict"] == "inconclusive"
    assert [n["kind"] for n in report["limits"]] == ["time"]
    assert report["events"] == 1


def test_an_endpoint_that_cannot_be_reached_is_an_error():
    with socket.socket() as s:  # a loopback port bound, then released: nothing listens
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/agent"
    with pytest.raises(ConformError, match="exited with status 2") as error:
        check_url(url)
    assert error.value.returncode == 2
    assert "request failed" in error.value.stderr
    with pytest.raises(ConformError):
        assert_endpoint_conforms(url)


def test_assert_endpoint_conforms(producer):
    assert assert_endpoint_conforms(producer.url("/valid"), message="hi")["verdict"] == "accept"
    with pytest.raises(AssertionError) as failure:
        assert_endpoint_conforms(producer.url("/invalid"))
    message = str(failure.value)
    assert message.startswith(f"{producer.url('/invalid')} does not conform: verdict reject, 1 failing violation(s)")
    assert f"{CONTINUATION} (error, must-reject) at #3" in message
    assert f"rule: {rule(CONTINUATION)['statement']}" in message
    assert f"live #3     error   {CONTINUATION}: TEXT_MESSAGE_CONTENT" in message
    assert assert_endpoint_conforms(producer.url("/invalid"), allow=[CONTINUATION])["verdict"] == "reject"
    with pytest.raises(AssertionError, match=r"transport.status \(error, none\) at #0"):
        assert_endpoint_conforms(producer.url("/status500"))
    # A time-out shows nothing wrong: the stream could not be judged, it
    # is not said not to conform.
    with pytest.raises(AssertionError) as timed_out:
        assert_endpoint_conforms(producer.url("/hang"), timeout=0.5)
    assert str(timed_out.value).startswith(
        f"{producer.url('/hang')} could not be judged: verdict inconclusive, 0 failing violation(s)")
    assert "does not conform" not in str(timed_out.value)


def test_run_producer_returns_the_run_record(producer, requests_seen, tmp_path):
    record = tmp_path / "producer.jsonl"
    result = run_producer(producer.url("/valid"), record=record,
                          base_input={"forwardedProps": {"tenant": "acme"}},
                          headers={"Authorization": "Bearer token-2"})
    assert result["header"]["producer"] == {"url": producer.url("/valid")}
    scores = {s["id"]: s["score"] for s in result["scenarios"]}
    # The loopback producer never interrupts nor calls tools: those steps
    # are not sent (SKIPPED); the rest pass.
    assert scores == {
        "continue-thread": "PASS", "history-attributed": "PASS", "plain": "PASS",
        "resume-after-interrupt": "SKIPPED", "resume-cancelled": "SKIPPED",
        "state-carrying": "PASS", "tool-results": "SKIPPED",
    }
    assert (result["footer"]["status"], result["footer"]["exit_status"]) == ("passed", 0)
    assert result["summary"]["scores"]["PASS"] == 4
    assert [json.loads(line)["kind"] for line in record.read_text().splitlines()][0] == "header"
    assert requests_seen and all(r["headers"]["authorization"] == "Bearer token-2" for r in requests_seen)
    assert all(r["body"]["forwardedProps"].get("tenant") == "acme" for r in requests_seen)
    assert assert_producer_passes(producer.url("/valid"), filter="plain")["footer"]["status"] == "passed"


def test_run_producer_writes_sarif_junit_and_json(producer, tmp_path):
    out = {k: tmp_path / f"producer.{k}" for k in ("sarif", "junit", "json")}
    result = run_producer(producer.url("/invalid"), filter="plain", **out)
    assert [s["score"] for s in result["scenarios"]] == ["FAIL"]
    log = json.loads(out["sarif"].read_text())
    assert [(r["ruleId"], r["properties"]["scenario"]) for r in log["runs"][0]["results"]] == [
        ("ownership.continuation-disagrees", "plain")]
    assert out["junit"].read_text().count("<failure") == 1
    lines = [json.loads(line) for line in out["json"].read_text().splitlines()]
    assert lines[-1]["summary"]["scores"]["FAIL"] == 1


def test_run_producer_renames_the_client_tool(producer, requests_seen):
    # tool_name= becomes --tool-name: the suite offers the client tool under
    # that name, and no request names get_weather.
    result = run_producer(producer.url("/valid"), filter="tool-results", tool_name="client_weather")
    assert [s["id"] for s in result["scenarios"]] == ["tool-results"]
    assert requests_seen
    offered = [t["name"] for r in requests_seen for t in r["body"].get("tools", [])]
    assert offered and set(offered) == {"client_weather"}
    assert all("get_weather" not in json.dumps(r["body"]) for r in requests_seen)


def test_run_producer_scores_a_failing_producer(producer, requests_seen):
    result = run_producer(producer.url("/invalid"), filter="plain", message="Say hi.", state={"n": 1},
                          rules={"transport.buffered": "off"})
    (plain,) = result["scenarios"]
    assert plain["score"] == "FAIL"
    assert [(v["rule"], v["index"]) for v in plain["violations"]] == [(CONTINUATION, 3)]
    assert result["footer"]["exit_status"] == 1
    (sent,) = requests_seen
    assert "Say hi." in [m["content"] for m in sent["body"]["messages"]]
    assert sent["body"]["state"] == {"n": 1}
    with pytest.raises(AssertionError) as failure:
        assert_producer_passes(producer.url("/invalid"), filter="plain")
    message = str(failure.value)
    assert "fails the producer suite `producer` (failed): 1 FAIL" in message
    assert "FAIL    plain  7 events" in message
    assert f"#3     error   {CONTINUATION}" in message and rule(CONTINUATION)["statement"] in message


def test_run_producer_timeout_is_per_request(producer):
    result = run_producer(producer.url("/hang"), filter="plain", timeout=0.5)
    (plain,) = result["scenarios"]
    assert plain["score"] == "ERRORED"
    assert "did not end within" in plain["failure"]


def test_run_producer_errors(producer, tmp_path):
    # A record left by an earlier run is never taken for this run's.
    record = tmp_path / "producer.jsonl"
    run_producer(producer.url("/valid"), filter="plain", record=record)
    with pytest.raises(ConformError, match="producer suite `no-such-suite` not found") as error:
        run_producer(producer.url("/valid"), suite="no-such-suite", record=record)
    assert error.value.returncode == 2
    assert "not found" in error.value.stderr
    with pytest.raises(ConformError, match="matches none") as error:
        run_producer(producer.url("/valid"), filter="no-such-scenario", record=record)
    assert error.value.returncode == 3
