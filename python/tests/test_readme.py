"""The test file python/README.md offers producers' maintainers to copy
runs as written, against the loopback producer: it passes on a conforming
endpoint and fails, as the README shows, on one that is not. (CI copies
README.md beside the tests; from a checkout it is ../README.md.)"""

import re
from pathlib import Path


def readme_example():
    here = Path(__file__).parent
    readme = next(p for p in (here / "README.md", here.parent / "README.md") if p.is_file())
    section = readme.read_text(encoding="utf-8").split("## Test your producer with pytest", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_passes_on_a_conforming_endpoint(pytester, producer):
    pytester.makepyfile(test_agui_conformance=readme_example())
    result = pytester.runpytest("-p", "no:cacheprovider", "--strict-markers",
                                f"--agui-url={producer.url('/agent')}")
    result.assert_outcomes(passed=4)
    paths = [r["path"] for r in producer.requests]
    assert "/agents/research" in paths and paths.count("/agent") > 3


def test_the_readme_example_fails_as_shown_on_a_broken_endpoint(pytester, producer):
    pytester.makepyfile(test_agui_conformance=readme_example())
    url = producer.url("/invalid")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--agui-url={url}")
    # The marked test goes to /agents/research on the same server: it conforms.
    result.assert_outcomes(passed=1, failed=3)
    result.stdout.fnmatch_lines([
        f"E       AssertionError: {url} does not conform: verdict reject, 1 failing violation(s)",
        "E         ownership.continuation-disagrees (error, must-reject) at #3",
        "E             rule: An event continuing or closing an entity carries a `subagentRunId`*",
        "E             see:  agui-conform explain ownership.continuation-disagrees (docs/rules.md#*)",
        "E       agui-conform check --url printed as the stream arrived:",
        f"E       {url}: HTTP 200, text/event-stream",
        "E         live #3     error   ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for *",
    ])
    result.stdout.fnmatch_lines([f"E       AssertionError: {url} fails the producer suite `producer` (failed): *FAIL*"])
