"""The pytest plugin the wheel registers (entry point pytest11): each test
here runs a small test file of a producer's maintainer with pytester, in
this environment, with no `-p` flag: the fixtures must come from the
installed wheel."""

import json

from agui_support import INVALID, VALID

STREAMS = f"VALID = {json.dumps(VALID)}\nINVALID = {json.dumps(INVALID)}\n"


def test_the_wheel_registers_the_plugin(pytester):
    help_text = pytester.runpytest("--help").stdout.str()
    assert "--agui-url=URL" in help_text
    assert "agui_url (string)" in help_text
    for option in ("--agui-sarif=PATH", "--agui-junit=PATH", "agui_strict (bool)", "agui_allow (linelist)",
                   "agui_rules (linelist)"):
        assert option in help_text
    markers = pytester.runpytest("--markers").stdout.str()
    assert "@pytest.mark.agui(url=None, strict=None, allow=None, rules=None)" in markers
    fixtures = pytester.runpytest("--fixtures").stdout.str()
    for name in ("agui_check", "agui_endpoint", "agui_checker", "agui_url", "agui_settings",
                 "agui_assert_endpoint", "agui_assert_producer"):
        assert name in fixtures


def test_agui_check_passes_a_valid_stream_and_fails_an_invalid_one_with_the_report(pytester):
    pytester.makepyfile("import json\n" + STREAMS + """
def test_valid(agui_check):
    assert agui_check(VALID)["verdict"] == "accept"

def test_invalid(agui_check):
    agui_check(INVALID)

def test_a_file(agui_check, tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(e) + "\\n" for e in INVALID))
    agui_check(path)
""")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*test_invalid*",
        "E * the stream does not conform: verdict reject, 1 failing violation(s)",
        "E *   ownership.continuation-disagrees (error, must-reject) at #3",
        "E *       rule: An event continuing or closing an entity carries a `subagentRunId` different*",
        "E * agui-conform's report:",
        'E *   #3     error   ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for "m1" carries subagentRunId "s2"*',
        "E * <stdin>: reject — 1 violation (1 error, 0 warnings) in 7 events",
        "E * runs: 1 finished",
        "E * hint: agui-conform explain ownership.continuation-disagrees (docs: docs/rules.md#ownership.continuation-disagrees)",
    ])
    result.stdout.fnmatch_lines(["E * */run.jsonl: reject — 1 violation (1 error, 0 warnings) in 7 events"])


def test_agui_checker_is_fresh_and_killed_after_the_test(pytester):
    pytester.makepyfile(STREAMS + """
import pytest
seen = []

def test_feed_then_finish(agui_checker):
    for event in VALID:
        agui_checker.feed(event)
    assert agui_checker.finish()["verdict"] == "accept"

@pytest.mark.parametrize("n", [1, 2])
def test_left_running(agui_checker, n):
    assert agui_checker.fed == 0  # fresh: nothing fed by the test before
    agui_checker.feed(VALID[0])
    seen.append(agui_checker._proc)

def test_the_processes_are_gone():
    assert len(seen) == 2
    assert all(proc.poll() is not None for proc in seen)

def test_invalid(agui_checker):
    agui_checker.feed_all(INVALID)
    agui_checker.assert_conforms()
""")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines([
        "E * the stream fed does not conform: verdict reject, 1 failing violation(s)",
        "E * <stdin>: reject — 1 violation (1 error, 0 warnings) in 7 events",
    ])


ENDPOINT_TESTS = """
import pytest
from agui_conform import assert_endpoint_conforms

def test_url(agui_endpoint):
    print("URL", agui_endpoint)

def test_conforms(agui_endpoint):
    assert_endpoint_conforms(agui_endpoint, message="What is the weather in Lisbon?")
"""


def test_agui_endpoint_from_the_command_line(pytester, producer):
    pytester.makepyfile(ENDPOINT_TESTS)
    passing = pytester.runpytest("-p", "no:cacheprovider", "-s", f"--agui-url={producer.url('/valid')}")
    passing.assert_outcomes(passed=2)
    passing.stdout.fnmatch_lines([f"*URL {producer.url('/valid')}*"])

    failing = pytester.runpytest("-p", "no:cacheprovider", f"--agui-url={producer.url('/invalid')}")
    failing.assert_outcomes(passed=1, failed=1)
    failing.stdout.fnmatch_lines([
        f"E * {producer.url('/invalid')} does not conform: verdict reject, 1 failing violation(s)",
        "E *   ownership.continuation-disagrees (error, must-reject) at #3",
        "E *       rule: An event continuing*",
        f"E * {producer.url('/invalid')}: HTTP 200, text/event-stream",
        "E *   live #3     error   ownership.continuation-disagrees: *",
    ])


def test_agui_endpoint_from_the_ini_file_and_the_marker(pytester, producer):
    pytester.makeini(f"[pytest]\nagui_url = {producer.url('/valid')}\n")
    pytester.makepyfile(ENDPOINT_TESTS + f"""
@pytest.mark.agui(url="{producer.url('/elsewhere')}")
def test_marker_wins(agui_endpoint):
    assert agui_endpoint == "{producer.url('/elsewhere')}"

@pytest.mark.agui("/invalid")
def test_relative_marker_joins_the_base(agui_endpoint):
    assert agui_endpoint == "{producer.url('/invalid')}"
    assert_endpoint_conforms(agui_endpoint)
""")
    result = pytester.runpytest("-p", "no:cacheprovider", "--strict-markers", "-s")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines([f"*URL {producer.url('/valid')}*"])
    result.stdout.fnmatch_lines(["*test_relative_marker_joins_the_base*", "E * does not conform*"])
    # The command line wins over the ini value.
    override = pytester.runpytest("-p", "no:cacheprovider", "-s", "-k", "test_url",
                                  f"--agui-url={producer.url('/other')}")
    override.stdout.fnmatch_lines([f"*URL {producer.url('/other')}*"])


def test_no_endpoint_or_a_relative_marker_without_a_base_skips_with_the_reason(pytester):
    pytester.makepyfile("""
import pytest

def test_needs_an_endpoint(agui_endpoint):
    pass

@pytest.mark.agui(url="/agent")
def test_relative(agui_endpoint):
    pass
""")
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines([
        "*SKIPPED*no AG-UI endpoint: pass --agui-url URL*",
        "*SKIPPED*@pytest.mark.agui(url='/agent') is relative and there is no base URL*",
    ])


def test_the_plugin_can_be_disabled(pytester):
    pytester.makepyfile("def test_x(agui_check):\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:agui_conform")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'agui_check' not found*"])
