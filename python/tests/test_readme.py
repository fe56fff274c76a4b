"""The test file python/README.md offers producers' maintainers to copy
runs as written, against the loopback producer: it passes on a conforming
endpoint and fails, as the README shows, on one that is not. (CI copies
README.md beside the tests; from a checkout it is ../README.md.)"""

import re
from pathlib import Path


def readme_section():
    here = Path(__file__).parent
    readme = next(p for p in (here / "README.md", here.parent / "README.md") if p.is_file())
    return readme.read_text(encoding="utf-8").split("## Test your producer with pytest", 1)[1]


def readme_example():
    return re.search(r"```python\n(.*?)```", readme_section(), re.S).group(1)


def readme_failure(url):
    """The failure the README shows, as fnmatch patterns for this run: its
    URL, and any quoted id (the loopback producer's ids carry a prefix)."""
    text = re.search(r"A failure reads:\n\n```text\n(.*?)```", readme_section(), re.S).group(1)
    lines = []
    for line in text.splitlines():
        line = line.replace("http://localhost:8000/agent", url)
        line = re.sub(r'"[^"]*"', '"*"', line).replace("[", "[[]")
        lines.append(line.rstrip() if line.strip() != "E" else "E*")
    return lines


def test_the_readme_example_passes_on_a_conforming_endpoint(pytester, producer):
    pytester.makepyfile(test_agui_conformance=readme_example())
    result = pytester.runpytest("-p", "no:cacheprovider", "--strict-markers",
                                f"--agui-url={producer.url('/agent')}")
    # 3 endpoint tests and the 7 scenarios; the loopback producer never
    # interrupts and calls no tool: 3 scenarios skip.
    result.assert_outcomes(passed=7, skipped=3)
    paths = [r["path"] for r in producer.requests]
    assert "/agents/research" in paths and paths.count("/agent") > 3


def test_the_readme_example_fails_as_shown_on_a_broken_endpoint(pytester, producer):
    pytester.makepyfile(test_agui_conformance=readme_example())
    url = producer.url("/invalid")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--agui-url={url}")
    # The marked test goes to /agents/research on the same server: it conforms.
    result.assert_outcomes(passed=1, failed=9)
    result.stdout.fnmatch_lines(readme_failure(url))
    result.stdout.fnmatch_lines([f"E       AssertionError: {url} fails the producer suite `producer` (failed): 1 FAIL"])


def test_the_readme_example_fails_on_warnings(pytester, producer):
    pytester.makepyfile(test_agui_conformance=readme_example())
    url = producer.url("/warned")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--agui-url={url}", "-k", "plain_question")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E       AssertionError: * does not conform: verdict accept, 1 failing violation(s)",
                                 "E         tool.args-not-json (warning, must-accept) at #3"])
