"""The plugin's settings, scenarios and session reports, run with pytester
as a producer's maintainer would: strict/allow/rules on the marker (the
closest wins), the fixtures and the ini file, family globs; an agui_url
fixture a project overrides with its own server; producer_scenarios() to
parametrize over, a SKIPPED scenario a pytest skip; --agui-sarif and
--agui-junit over the session. The expected answers are docs/rules.md's:
an unterminated run is run.unterminated (error), a tool call whose
arguments are not JSON tool.args-not-json (warning)."""

import json
import xml.etree.ElementTree as ET

from agui_support import INVALID, VALID, run

# Valid but for a warning: a tool call's arguments are not JSON (tool.args-not-json).
WARNED = run(
    {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{not json"},
    {"type": "TOOL_CALL_END", "toolCallId": "c1"},
)
STREAMS = (f"VALID = {json.dumps(VALID)}\nINVALID = {json.dumps(INVALID)}\n"
           f"WARNED = {json.dumps(WARNED)}\nUNTERMINATED = {json.dumps(VALID[:-1])}\n")


def test_the_warning_stream_is_a_warning():
    from agui_conform import check
    report = check(WARNED)
    assert report["verdict"] == "accept"
    assert [v["severity"] for v in report["violations"]] == ["warning"], report["violations"]


def test_strict_allow_and_rules_on_markers_fixtures_and_ini(pytester):
    pytester.makeini("[pytest]\nagui_strict = true\nagui_rules =\n    run.unterminated=warning\n")
    pytester.makepyfile("import pytest\n" + STREAMS + """
pytestmark = pytest.mark.agui(allow=["ownership.*"])

def test_ini_strict_fails_a_warning(agui_check):
    agui_check(WARNED)

@pytest.mark.agui(strict=False)
def test_the_marker_relaxes(agui_check, agui_settings):
    assert agui_settings["strict"] is False
    agui_check(WARNED)

def test_the_module_marker_allows_a_family(agui_check):
    agui_check(INVALID)

@pytest.mark.agui(strict=False)
def test_ini_rules_make_an_error_a_warning(agui_check):
    agui_check(UNTERMINATED)

@pytest.mark.agui(strict=False, rules={"run.*": "off"})
def test_a_rules_glob_turns_a_family_off(agui_check):
    report = agui_check(UNTERMINATED)
    assert not [v for v in report["violations"] if v["rule"].startswith("run.")]

@pytest.mark.agui(strict=False)
def test_the_checker_takes_the_settings(agui_checker):
    agui_checker.feed_all(UNTERMINATED)
    agui_checker.assert_conforms()

def test_a_glob_matching_nothing_is_refused(agui_check):
    with pytest.raises(ValueError, match="matches no rule id"):
        agui_check(VALID, rules={"nothing.*": "off"})
""")
    result = pytester.runpytest("-p", "no:cacheprovider", "--strict-markers")
    result.assert_outcomes(passed=6, failed=1)
    result.stdout.fnmatch_lines(["*test_ini_strict_fails_a_warning*",
                                 "E * the stream does not conform: verdict accept, 1 failing violation(s)*"])


def test_a_project_overrides_agui_url_with_its_own_server(pytester, producer):
    # The README's pattern: a session fixture starts the server (here the
    # tests' loopback producer stands in for a uvicorn.Server on a thread).
    pytester.makeconftest(f"""
import pytest

@pytest.fixture
def agui_url():
    return "{producer.url('/')}"
""")
    pytester.makepyfile("""
import pytest

@pytest.mark.agui(url="valid")
def test_relative_to_the_fixture(agui_assert_endpoint, agui_endpoint):
    assert agui_endpoint.endswith("/valid")
    agui_assert_endpoint(message="Hi")

@pytest.mark.agui(url="invalid")
def test_broken(agui_assert_endpoint):
    agui_assert_endpoint()
""")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["E * does not conform: verdict reject*"])


def test_scenarios_parametrize_and_skipped_ones_are_skips(pytester, producer):
    from agui_conform import producer_scenarios
    scenarios = producer_scenarios()
    assert "plain" in scenarios and "resume-after-interrupt" in scenarios
    pytester.makepyfile("""
import pytest
import agui_conform

@pytest.mark.parametrize("scenario", agui_conform.producer_scenarios())
def test_scenario(agui_assert_producer, scenario):
    agui_assert_producer(scenario)
""")
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs", f"--agui-url={producer.url('/valid')}")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) + outcomes.get("skipped", 0) == len(scenarios), outcomes
    # The loopback producer never interrupts and makes no tool call: the two
    # resume scenarios and tool-results have a step they cannot send.
    assert outcomes == {"passed": len(scenarios) - 3, "skipped": 3}, outcomes
    result.stdout.fnmatch_lines([
        "SKIPPED * SKIPPED by the producer suite: resume-after-interrupt: step 2 (resume) not sent:*"])


def test_session_wide_sarif_and_junit(pytester, tmp_path):
    pytester.makepyfile(STREAMS + """
def test_valid(agui_check):
    agui_check(VALID)

def test_invalid(agui_check):
    agui_check(INVALID)
""")
    sarif, junit = tmp_path / "out" / "all.sarif", tmp_path / "out" / "all.xml"
    result = pytester.runpytest("-p", "no:cacheprovider", f"--agui-sarif={sarif}", f"--agui-junit={junit}")
    result.assert_outcomes(passed=1, failed=1)
    log = json.loads(sarif.read_text())
    assert log["version"] == "2.1.0" and len(log["runs"]) == 2
    ids = [r["automationDetails"]["id"] for r in log["runs"]]
    assert ids[0].startswith("test_session_wide_sarif_and_junit.py::test_valid"), ids
    assert [[x["ruleId"] for x in r["results"]] for r in log["runs"]] == [
        [], ["ownership.continuation-disagrees"]]
    root = ET.parse(junit).getroot()
    suites = root.findall("testsuite")
    assert len(suites) == 2
    assert suites[1].get("name").startswith("test_session_wide_sarif_and_junit.py::test_invalid")
    assert len(suites[1].findall("testcase/failure")) == 1
