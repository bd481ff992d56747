"""The run: pytest_fairy's objects of one pytest process, made in `pytest_configure` and kept in
`config.stash[RUN_KEY]`, for the hooks, items and fixtures to reach.

Under xdist every worker is its own process with its own run (its app models, its device pool); the
workers share the controller's session id, so they all write into one session folder.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_fairy.brain.models import request_line
from pytest_fairy.brain.prompt_cache import PromptCache
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.providers import DeviceProvider, FarmBookings, FarmEntry, is_farm
from pytest_fairy.devices.simulator import LazySimulator
from pytest_fairy.errors import ArtifactError, UsageError
from pytest_fairy.plugin.options import FairyConfig, read_config
from pytest_fairy.plugin.outcomes import SUMMARY_PROPERTY, Inconclusive
from pytest_fairy.plugin.waiting import WaitingLine
from pytest_fairy.replay.provenance import ReplayProvenance
from pytest_fairy.replay.pruning import CachePruning
from pytest_fairy.report.atomic import check_writable
from pytest_fairy.report.store import SessionStore, new_session_id

# The key in an xdist worker's workerinput that carries the controller's session id.
SESSION_INPUT = "fairy_session"


@dataclass
class FairyRun:
    fairy: FairyConfig  # options and ini keys
    store: SessionStore  # steps, screenshots and trees of every item, in one session folder
    # The simulator for virtual devices: each app model parsed once, collection and devices share them.
    simulator: LazySimulator
    pool: DevicePool  # a device per item

    @classmethod
    def configure(cls, config: pytest.Config) -> FairyRun:
        """The run of `config`: options read (a bad one is a pytest.UsageError), nothing opened yet."""
        fairy = read_config(config)
        workerinput = getattr(config, "workerinput", None)
        if not config.option.collectonly:  # collecting writes nothing
            check_artifacts(fairy.artifacts)
        config.pluginmanager.register(ArtifactFailures(), "fairy-artifact-failures")
        # Whose decisions an item replayed, when another brain or model made them than this run's.
        replaying = (
            (fairy.model or fairy.brain) if fairy.brain == "claude" and fairy.replay.use_cache else None
        )
        provenance = ReplayProvenance(SUMMARY_PROPERTY, replaying, fairy.replay.cache)
        config.pluginmanager.register(provenance, "fairy-replay-provenance")
        # The decision cache, pruned once at the end of the session by the process that ends last.
        pruning = CachePruning(fairy.replay.cache, fairy.replay.cache_limits)
        config.pluginmanager.register(pruning, "fairy-cache-pruning")
        session_id = workerinput[SESSION_INPUT] if workerinput else new_session_id()
        # The worker id from xdist's own handshake, not PYTEST_XDIST_WORKER: a pytest run inside a worker
        # (pytester, a nested suite) inherits that variable without being a worker.
        worker = workerinput.get("workerid", "") if workerinput else ""
        simulator = LazySimulator()
        check_virtual_models(fairy, simulator, config.rootpath)
        # The session id also goes into the owner record of each device lease, to find the run's artifacts.
        pool = DevicePool(
            fairy.device,
            config.rootpath,
            open_virtual=simulator.open_device,
            worker=worker,
            session=session_id,
            say=WaitingLine(config),
        )
        pool.use_farms(farm_bookings(config, fairy, pool))
        return cls(fairy, SessionStore(fairy.artifacts, session_id), simulator, pool)

    def collects(self, path: Path) -> bool:
        """Whether `path` is a spec (ini key fairy_spec_patterns)."""
        return any(fnmatch.fnmatch(path.name, pattern) for pattern in self.fairy.spec_patterns)

    def header(self) -> str:
        fairy = self.fairy
        devices = fairy.device.device_line()
        for device in fairy.devices:
            if is_farm(device):
                devices = devices.replace(device, self.pool.farms.describe(device))
        return (
            f"fairy: device {devices}; brain {fairy.brain} ({fairy.brain_reason}); "
            f"model {self._model_line()}; artifacts {self.store.folder}"
        )

    def _model_line(self) -> str:
        fairy = self.fairy
        if fairy.brain != "claude" or not fairy.model:
            return fairy.model or "-"
        cache = PromptCache.for_settings(fairy.claude_settings()).note()
        extras = [extra for extra in (cache, fairy.judge_line()) if extra]
        return "; ".join([request_line(fairy.model, fairy.effort), *extras])

    def check_devices(self, config: pytest.Config) -> None:
        """Real devices are checked once, by the controller, before any item: a usage error says what to
        do. The controller also prunes the session store to the newest `fairy_keep_sessions`. Phones from
        farms are booked by each process that runs items, after the controller saw the farm take the token."""
        is_worker = hasattr(config, "workerinput")
        if config.option.collectonly:
            return
        try:
            if not is_worker:
                self.store.prune(self.fairy.keep_sessions, spare=self.fairy.replay.baseline)
                self.pool.farms.check()  # a token the farm refuses: exit 4 here, not in every worker
                if self.fairy.real_devices:
                    self.pool.diagnose()
            # Phones from farms are booked by the process that runs items: each xdist worker its own.
            if is_worker or not config.pluginmanager.has_plugin("dsession"):
                self.pool.book_farms()
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None

    def auto_workers(self) -> int | None:
        """`-n auto`: a worker per real device (None: xdist's own count)."""
        return len(self.fairy.devices) if self.fairy.real_devices else None

    def close(self) -> None:
        self.pool.close()


def check_artifacts(folder: Path) -> None:
    """The artifacts folder must take files before any item runs: else a usage error, one line."""
    try:
        check_writable(folder)
    except ArtifactError as exc:
        raise pytest.UsageError(f"artifacts folder {folder} cannot be written: {exc.reason}") from None


class ArtifactFailures:
    """An artifact write that fails where the explorer cannot end the item itself (writing the result)
    makes the item inconclusive with the reason, never failed and never a traceback."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None]:
        try:
            return (yield)
        except ArtifactError as exc:
            raise Inconclusive(exc.as_reason()) from None


RUN_KEY = pytest.StashKey[FairyRun]()


def check_virtual_models(fairy: FairyConfig, simulator: LazySimulator, rootpath: Path) -> None:
    """`--fairy-device virtual:PATH` names an app model that must load: a line per problem and exit 4 if it
    does not, not an error per item (hundreds of lines of chained tracebacks)."""
    for device in fairy.devices:
        if not device.startswith("virtual:"):
            continue
        raw = device.split(":", 1)[1]
        path = Path(raw) if Path(raw).is_absolute() else rootpath / raw
        try:
            simulator.load(path)
        except UsageError as exc:
            problems = [line.strip() for line in str(exc).splitlines()[1:] if line.strip()] or [str(exc)]
            raise pytest.UsageError("\n".join(f"--fairy-device {device}: {p}" for p in problems)) from None


def farm_bookings(config: pytest.Config, fairy: FairyConfig, pool: DevicePool) -> FarmBookings:
    """The farm entries of --fairy-device, each with its provider: a plugin's (`pytest_fairy_device_provider`)
    or pytest_fairy's own; nothing is booked yet. A farm nobody provides for is a usage error."""
    if not any(is_farm(device) for device in fairy.devices):
        return FarmBookings([])

    def provider_for(entry: FarmEntry) -> DeviceProvider:
        chosen = config.hook.pytest_fairy_device_provider(config=config, url=entry)
        if chosen is not None:
            return chosen  # type: ignore[no-any-return]
        if entry.provider == "stf":
            from pytest_fairy.devices.stf import StfProvider

            return StfProvider.from_env(entry, pool.adb)
        raise UsageError(
            f"--fairy-device {entry.text}: no device provider for '{entry.provider}' (pytest_fairy has "
            "stf; a plugin adds others with the pytest_fairy_device_provider hook)"
        )

    try:
        return FarmBookings.of(fairy.devices, provider_for)
    except UsageError as exc:
        raise pytest.UsageError(str(exc)) from None
