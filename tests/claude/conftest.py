"""Fixtures for the Claude brain's tests: a hermetic environment, the fake Messages API, a brain on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings
from pytest_fairy.brain.claude_api import make_client
from tests.claude.fake_api import FakeMessagesAPI

FAKE_KEY = "sk-ant-fake-3f9c1e7b-NEVER-PRINT-ME"
# Fast faults: short timeout, small retry-after cap; the fake server asks for 20 ms retry waits.
FAST = ClaudeSettings(
    model="claude-sonnet-5", timeout_seconds=5.0, max_retries=2, retry_after_cap_seconds=0.05
)


@pytest.fixture
def api() -> Iterator[FakeMessagesAPI]:
    with FakeMessagesAPI() as server:
        yield server


def brain_on(api: FakeMessagesAPI, settings: ClaudeSettings = FAST) -> ClaudeBrain:
    """A brain on the fake API through the brain's own client factory, with strict response checks."""
    client = make_client(settings, api_key=FAKE_KEY, base_url=api.url, _strict_response_validation=True)
    return ClaudeBrain(settings, client=client)


@pytest.fixture
def brain(api: FakeMessagesAPI) -> ClaudeBrain:
    return brain_on(api)
