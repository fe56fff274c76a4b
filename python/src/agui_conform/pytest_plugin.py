"""The pytest plugin of the agui-conform wheel, registered through the
``pytest11`` entry point (disable it with ``-p no:agui_conform``).

Fixtures:

- ``agui_check``: ``agui_check(events_or_path, allow=(), strict=False,
  **options)`` is ``assert_conforms``: it returns the report, or fails with
  the violations (rule, indexes, statement) and ``agui-conform check``'s
  readable report in the assertion message.
- ``agui_endpoint``: the URL of the agent under test, from
  ``@pytest.mark.agui(url=...)`` (a relative URL is joined to the base
  below), else ``--agui-url URL``, else the ``agui_url`` ini value; the test
  is skipped when none is given.
- ``agui_checker``: a fresh incremental ``Checker`` (feed events, then
  ``finish()`` or ``assert_conforms()``), closed after the test.
"""

from __future__ import annotations

from typing import Iterator, Optional
from urllib.parse import urljoin, urlsplit

import pytest

import agui_conform

_MARKER = (
    "agui(url): the AG-UI endpoint (a POST answered with Server-Sent Events) "
    "the agui_endpoint fixture gives this test; a relative URL is joined to "
    "--agui-url / agui_url"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agui-conform", "AG-UI conformance (agui-conform)")
    group.addoption(
        "--agui-url",
        metavar="URL",
        default=None,
        help="the AG-UI endpoint the agui_endpoint fixture gives (wins over the agui_url ini value)",
    )
    parser.addini("agui_url", "the AG-UI endpoint the agui_endpoint fixture gives", default=None)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", _MARKER)


def _base_url(config: pytest.Config) -> Optional[str]:
    return config.getoption("--agui-url") or config.getini("agui_url") or None


@pytest.fixture
def agui_endpoint(request: pytest.FixtureRequest) -> str:
    """The URL of the agent under test (marker, ``--agui-url``, ``agui_url``)."""
    base = _base_url(request.config)
    marker = request.node.get_closest_marker("agui")
    url = None
    if marker is not None:
        url = marker.kwargs.get("url", marker.args[0] if marker.args else None)
    if url and not urlsplit(url).scheme:
        if not base:
            pytest.fail(f"@pytest.mark.agui(url={url!r}) is relative: give the base with --agui-url or agui_url",
                        pytrace=False)
        url = urljoin(base, url)
    url = url or base
    if not url:
        pytest.skip("no AG-UI endpoint: pass --agui-url URL, set agui_url in the ini file, "
                    "or mark the test @pytest.mark.agui(url=...)")
    return url


@pytest.fixture
def agui_check():  # type: ignore[no-untyped-def]
    """``assert_conforms``: check events or a file, fail with the report."""
    return agui_conform.assert_conforms


@pytest.fixture
def agui_checker() -> Iterator[agui_conform.Checker]:
    """A fresh incremental ``Checker``, killed after the test."""
    with agui_conform.Checker() as checker:
        yield checker
