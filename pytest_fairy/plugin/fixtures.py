"""The fixtures a project's tests and conftest see, a chain users override as playwright-pytest's:
`fairy_config` -> `fairy_app_model` -> `fairy_device` -> `fairy_brain` -> `fairy_explorer` (with
`fairy_logins`, the session's sign-ins).

Registered by the entry-point module, which imports them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from pytest_fairy.devices.lock import LockTimeout
from pytest_fairy.devices.protocol import Device
from pytest_fairy.errors import DeviceError
from pytest_fairy.explore.briefing import target_of
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.plugin.brains import item_brain
from pytest_fairy.plugin.items import DEVICE_KEY, FEATURE_KEY
from pytest_fairy.plugin.logins import Logins
from pytest_fairy.plugin.options import FairyConfig
from pytest_fairy.plugin.outcomes import Inconclusive
from pytest_fairy.plugin.run import RUN_KEY
from pytest_fairy.plugin.session_budget import ledger_of
from pytest_fairy.plugin.sinks import item_sinks
from pytest_fairy.replay import spec_id


@pytest.fixture(scope="session")
def fairy_config(pytestconfig: pytest.Config) -> FairyConfig:
    """The run's pytest_fairy configuration (options and ini keys), e.g. `fairy_config.devices`."""
    return pytestconfig.stash[RUN_KEY].fairy


@pytest.fixture
def fairy_app_model(request: pytest.FixtureRequest) -> Path | None:
    """The virtual app model for this test: the spec's `app.virtual` for spec items, else None.

    Override it in a conftest to point plain Python tests at an app model::

        @pytest.fixture
        def fairy_app_model():
            return Path(__file__).parent / "apps" / "shop.yaml"
    """
    found = request.node.stash.get(FEATURE_KEY, None)
    return found[0].app.virtual if found else None


@pytest.fixture
def fairy_device(request: pytest.FixtureRequest, fairy_app_model: Path | None) -> Iterator[Device]:
    """The device this test explores on, held (locked, for a real device) until the test ends:
    `fairy_device.tap(x, y)`. A spec item that gets none (its device is gone) is inconclusive, saying why
    in one line."""
    pool = request.config.stash[RUN_KEY].pool
    with ExitStack() as held:
        try:
            device = held.enter_context(pool.lease(fairy_app_model, request.node.stash.get(DEVICE_KEY, None)))
        except (DeviceError, LockTimeout) as exc:  # gone, or none came free (one that went away stays held)
            if FEATURE_KEY not in request.node.stash:
                raise
            raise Inconclusive(f"no device for this item: {exc}", infrastructure=True) from None
        yield device


@pytest.fixture
def fairy_brain(request: pytest.FixtureRequest, fairy_config: FairyConfig) -> Brain:
    """A fresh brain for this test (brains remember one exploration, and budgets count per item). Its
    decisions are recorded in the decision cache; the Claude brain replays them where nothing changed.

    For a spec item, a project's `pytest_fairy_make_brain` hook may choose another, given this one as its
    default. Override the fixture to script one: `return ScriptedBrain(["tap 登录", "back"])`.
    """
    brain = item_brain(fairy_config, spec_id(request.node))
    found = request.node.stash.get(FEATURE_KEY, None)
    if found is None:
        return brain
    target = target_of(*found, max_steps=fairy_config.max_steps)
    chosen = request.config.hook.pytest_fairy_make_brain(config=request.config, target=target, default=brain)
    return brain if chosen is None else chosen


@pytest.fixture(scope="session")
def fairy_logins(fairy_config: FairyConfig, pytestconfig: pytest.Config) -> Logins:
    """The specs' logins: each signs in once per device in the session, and the items of its spec start
    signed in (`fairy_logins.of(spec)`); a login's LLM calls count against --fairy-max-cost."""
    return Logins(fairy_config, ledger_of(pytestconfig))


@pytest.fixture
def fairy_explorer(
    request: pytest.FixtureRequest,
    fairy_device: Device,
    fairy_brain: Brain,
    fairy_config: FairyConfig,
    fairy_logins: Logins,
) -> Explorer:
    """An Explorer on `fairy_device`, recording to the session store (and Allure with --alluredir); for
    a spec item with a `login:`, signed in before the item starts.

    Usable from plain tests::

        result = fairy_explorer.explore(Target(...))
        assert result.verdict == "passed", result.reason
    """
    store = request.config.stash[RUN_KEY].store
    store.open_session(devices=list(fairy_config.devices), brain=fairy_config.brain)
    sinks = item_sinks(request.node, fairy_device, fairy_brain)
    found = request.node.stash.get(FEATURE_KEY, None)
    login = fairy_logins.of(found[0]) if found else None
    secrets = fairy_logins.secrets_of(found[0]) if found else None
    return Explorer(
        fairy_device, fairy_brain, settings=fairy_config.explorer, sinks=sinks, login=login, secrets=secrets
    )
