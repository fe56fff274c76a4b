"""pytester for the plugin's tests; one loopback AG-UI producer for the
session (agui_support.AguiServer)."""

import pytest

from agui_support import AguiServer

pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def producer():
    with AguiServer() as server:
        yield server


@pytest.fixture
def requests_seen(producer):
    """The requests the producer receives during this test."""
    del producer.requests[:]
    return producer.requests
