"""The pytest plugin of the agui-conform wheel, registered through the
``pytest11`` entry point (disable it with ``-p no:agui_conform``).

Fixtures:

- ``agui_url``: the base URL of the agent under test, from ``--agui-url
  URL``, else the ``agui_url`` ini value, else ``None``. Override it in
  your conftest.py with a fixture that starts your server and returns its
  URL; every other fixture follows.
- ``agui_endpoint``: the URL under test: ``@pytest.mark.agui(url=...)``
  (a relative URL is joined to ``agui_url``), else ``agui_url``; the test
  is skipped, with the reason, when there is none or when a relative URL
  has no base.
- ``agui_settings``: ``{"strict", "allow", "rules"}`` from the ini values
  ``agui_strict``, ``agui_allow``, ``agui_rules``, then every
  ``@pytest.mark.agui(strict=..., allow=..., rules=...)`` on the test, its
  class and its module (the closest wins). ``allow`` and ``rules`` take
  family globs (``run.*``).
- ``agui_check``: ``assert_conforms`` with the settings.
- ``agui_checker``: a fresh ``Checker`` with the settings, killed after the
  test.
- ``agui_assert_endpoint``: ``agui_assert_endpoint(message=..., **kw)``
  is ``assert_endpoint_conforms(agui_endpoint, ...)`` with the settings.
- ``agui_assert_producer``: ``agui_assert_producer(scenario=None, **kw)``
  is ``assert_producer_passes(agui_endpoint, ...)`` with the settings; a
  scenario the suite SKIPPED is a pytest skip.

``--agui-sarif PATH`` and ``--agui-junit PATH`` write one SARIF log and
one JUnit file for every check the session made (each test's checks named
by its node id).
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional
from urllib.parse import urljoin, urlsplit

import pytest

import agui_conform

_MARKER = (
    "agui(url=None, strict=None, allow=None, rules=None): the AG-UI endpoint "
    "(a relative URL is joined to agui_url) and how strictly the agui_* fixtures judge "
    "this test: strict fails on warnings too, allow sets rules aside, rules sets "
    "levels (family globs such as run.* allowed)"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agui-conform", "AG-UI conformance (agui-conform)")
    group.addoption("--agui-url", metavar="URL", default=None,
                    help="the AG-UI endpoint the agui_url fixture gives (wins over the agui_url ini value)")
    group.addoption("--agui-sarif", metavar="PATH", default=None,
                    help="write one SARIF 2.1.0 log of every check this session made")
    group.addoption("--agui-junit", metavar="PATH", default=None,
                    help="write one JUnit XML file of every check this session made")
    parser.addini("agui_url", "the AG-UI endpoint the agui_url fixture gives", default=None)
    parser.addini("agui_strict", "the agui_* fixtures fail on warnings too", type="bool", default=False)
    parser.addini("agui_allow", "rule ids (or globs such as run.*) the agui_* fixtures set aside",
                  type="linelist", default=[])
    parser.addini("agui_rules", "ID=LEVEL lines (ID may be a glob such as run.*): rule levels for "
                  "the agui_* fixtures", type="linelist", default=[])


class _SessionReports:
    """Every check of the session writes its SARIF log and JUnit file here
    (one pair per check); at the end they are merged into the requested
    files."""

    def __init__(self, sarif: Optional[str], junit: Optional[str]):
        self.sarif, self.junit = sarif, junit
        self.dir = tempfile.TemporaryDirectory(prefix="agui-conform-session-")
        self.made: List[Dict[str, str]] = []
        self.test = "session"

    def next(self) -> Dict[str, str]:
        n = len(self.made)
        files = {"test": self.test}
        if self.sarif:
            files["sarif"] = os.path.join(self.dir.name, f"{n}.sarif")
        if self.junit:
            files["junit"] = os.path.join(self.dir.name, f"{n}.xml")
        self.made.append(files)
        return {k: v for k, v in files.items() if k != "test"}

    def write(self) -> None:
        if self.sarif:
            runs = []
            for made in self.made:
                try:
                    log = json.loads(Path(made["sarif"]).read_text(encoding="utf-8"))
                except (OSError, ValueError, KeyError):
                    continue  # that check wrote no log (it could not run)
                for run in log.get("runs", []):
                    run["automationDetails"] = {"id": f"{made['test']}/{len(runs)}"}
                    runs.append(run)
            merged = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
                      "runs": runs}
            _write(self.sarif, json.dumps(merged))
        if self.junit:
            root = ET.Element("testsuites", name="agui-conform")
            for made in self.made:
                try:
                    tree = ET.parse(made["junit"])
                except (OSError, ET.ParseError, KeyError):
                    continue
                for suite in tree.getroot().iter("testsuite"):
                    suite.set("name", f"{made['test']}: {suite.get('name', '')}")
                    root.append(suite)
            _write(self.junit, ET.tostring(root, encoding="unicode", xml_declaration=True))
        self.dir.cleanup()


def _write(path: str, text: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text, encoding="utf-8")


_REPORTS = pytest.StashKey[_SessionReports]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", _MARKER)
    sarif, junit = config.getoption("--agui-sarif"), config.getoption("--agui-junit")
    if sarif or junit:
        reports = _SessionReports(sarif, junit)
        config.stash[_REPORTS] = reports
        agui_conform._session_reports = reports.next


def pytest_unconfigure(config: pytest.Config) -> None:
    reports = config.stash.get(_REPORTS, None)
    if reports is not None:
        agui_conform._session_reports = None
        reports.write()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    reports = item.config.stash.get(_REPORTS, None)
    if reports is not None:
        reports.test = item.nodeid
    return (yield)


@pytest.fixture
def agui_url(request: pytest.FixtureRequest) -> Optional[str]:
    """The base URL of the agent under test (``--agui-url``, the
    ``agui_url`` ini value), or ``None``. Override it with a fixture that
    starts your server and returns its URL."""
    return request.config.getoption("--agui-url") or request.config.getini("agui_url") or None


def _marker_value(request: pytest.FixtureRequest, key: str) -> Any:
    """The closest ``agui`` marker's ``key`` (the test's, then its class's,
    then its module's); ``url`` may also be the first positional
    argument."""
    for marker in request.node.iter_markers("agui"):
        if key in marker.kwargs and marker.kwargs[key] is not None:
            return marker.kwargs[key]
        if key == "url" and marker.args:
            return marker.args[0]
    return None


@pytest.fixture
def agui_endpoint(request: pytest.FixtureRequest, agui_url: Optional[str]) -> str:
    """The URL under test (marker, else ``agui_url``)."""
    url = _marker_value(request, "url")
    if url and not urlsplit(url).scheme:
        if not agui_url:
            pytest.skip(f"@pytest.mark.agui(url={url!r}) is relative and there is no base URL: pass "
                        "--agui-url URL, set agui_url in the ini file, or override the agui_url fixture")
        url = urljoin(agui_url, url)
    url = url or agui_url
    if not url:
        pytest.skip("no AG-UI endpoint: pass --agui-url URL, set agui_url in the ini file, override "
                    "the agui_url fixture, or mark the test @pytest.mark.agui(url=...)")
    return url


def _rules_ini(lines: List[str]) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for line in lines:
        rule_id, sep, level = line.partition("=")
        if not sep:
            raise pytest.UsageError(f"agui_rules: {line!r} is not ID=LEVEL")
        out[rule_id.strip()] = level.strip()
    return out


@pytest.fixture
def agui_settings(request: pytest.FixtureRequest) -> Dict[str, Any]:
    """``{"strict", "allow", "rules"}``: the ini values, then the markers."""
    config = request.config
    strict = _marker_value(request, "strict")
    allow = _marker_value(request, "allow")
    rules = _marker_value(request, "rules")
    return {
        "strict": bool(config.getini("agui_strict")) if strict is None else bool(strict),
        "allow": tuple(config.getini("agui_allow")) if allow is None
        else ((allow,) if isinstance(allow, str) else tuple(allow)),
        "rules": {**_rules_ini(config.getini("agui_rules")), **(rules or {})},
    }


def _with(settings: Dict[str, Any], call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def checked(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        merged = {**settings, **kwargs}
        merged["rules"] = {**settings["rules"], **(kwargs.get("rules") or {})}
        return call(*args, **merged)

    return checked


@pytest.fixture
def agui_check(agui_settings: Dict[str, Any]) -> Callable[..., Any]:
    """``assert_conforms`` with the settings: check events or a file,
    fail with the report."""
    return _with(agui_settings, agui_conform.assert_conforms)


@pytest.fixture
def agui_assert_endpoint(agui_endpoint: str, agui_settings: Dict[str, Any]) -> Callable[..., Any]:
    """``assert_endpoint_conforms(agui_endpoint, ...)`` with the settings."""
    return functools.partial(_with(agui_settings, agui_conform.assert_endpoint_conforms), agui_endpoint)


@pytest.fixture
def agui_assert_producer(agui_endpoint: str, agui_settings: Dict[str, Any]) -> Callable[..., Any]:
    """``assert_producer_passes(agui_endpoint, scenario=...)`` with the
    settings (``strict`` fails a WARN; ``rules`` set levels; ``allow`` has
    no meaning for a suite's scores and is left out)."""
    settings = {k: v for k, v in agui_settings.items() if k != "allow"}

    def producer(scenario: Optional[str] = None, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        return _with(settings, agui_conform.assert_producer_passes)(agui_endpoint, scenario=scenario, **kwargs)

    return producer


@pytest.fixture
def agui_checker(agui_settings: Dict[str, Any]) -> Iterator[agui_conform.Checker]:
    """A fresh incremental ``Checker`` with the settings, killed after the
    test."""
    with agui_conform.Checker(**agui_settings) as checker:
        yield checker

