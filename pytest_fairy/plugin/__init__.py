"""pytest_fairy's pytest plugin (entry point `fairy`): options, spec collection, fixtures, reporting.

The hooks stay thin; the work is done by `spec`, `explorer`, `store` and `report`.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.devices.pool import DevicePool
from pytest_fairy.devices.protocol import Device
from pytest_fairy.errors import HookError
from pytest_fairy.explore.action import Action
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import AppDefect, Inconclusive, Verdict
from pytest_fairy.perception.screen import Screen
from pytest_fairy.plugin import hookspecs
from pytest_fairy.plugin.options import FairyConfig, add_options, read_config
from pytest_fairy.replay import brain_with_cache, spec_id
from pytest_fairy.replay.regression import review, write_diff_summary
from pytest_fairy.report.allure import AllureEnvironment, AllureSink, where_shown
from pytest_fairy.report.store import SessionStore, new_session_id
from pytest_fairy.spec.model import Feature, OracleKind, Spec, SpecError, load_spec

CONFIG_KEY = pytest.StashKey[FairyConfig]()
STORE_KEY = pytest.StashKey[SessionStore]()
POOL_KEY = pytest.StashKey[DevicePool]()
FEATURE_KEY = pytest.StashKey[tuple[Spec, Feature]]()
# --fairy-matrix: the serial an item is pinned to.
DEVICE_KEY = pytest.StashKey[str]()
RESULT_KEY = pytest.StashKey[Exploration]()
SUMMARY_PROPERTY = "fairy"
# Done-when texts worth steering towards: the offline brain scores elements that mention them higher.
HINT_KINDS = frozenset({OracleKind.VISIBLE, OracleKind.CHECKED})


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_configure(config: pytest.Config) -> None:
    fairy = read_config(config)
    config.stash[CONFIG_KEY] = fairy
    workerinput = getattr(config, "workerinput", None)
    session_id = workerinput["fairy_session"] if workerinput else new_session_id()
    config.stash[STORE_KEY] = SessionStore(fairy.artifacts, session_id)
    # The worker id from xdist's own handshake, not PYTEST_XDIST_WORKER: a pytest run inside a worker
    # (pytester, a nested suite) inherits that variable without being a worker.
    worker = workerinput.get("workerid", "") if workerinput else ""
    # The session id also goes into the owner record of each device lease, to find the run's artifacts.
    config.stash[POOL_KEY] = DevicePool(
        fairy.device, config.rootpath, open_virtual=_open_virtual, worker=worker, session=session_id
    )


def _open_virtual(app_model: Path, serial: str) -> Device:
    from pytest_fairy.virtual import VirtualDevice

    return VirtualDevice(app_model, serial=serial, latency=False)


def pytest_configure_node(node: Any) -> None:
    """xdist: every worker writes into the controller's session folder."""
    node.workerinput["fairy_session"] = node.config.stash[STORE_KEY].session_id


def pytest_sessionstart(session: pytest.Session) -> None:
    """Real devices are checked once, by the controller, before any item: a usage error says what to do."""
    config = session.config
    is_worker = hasattr(config, "workerinput")
    if config.stash[CONFIG_KEY].real_devices and not is_worker and not config.option.collectonly:
        config.stash[POOL_KEY].diagnose()


def pytest_unconfigure(config: pytest.Config) -> None:
    if POOL_KEY in config.stash:
        config.stash[POOL_KEY].close()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` runs a worker per real device."""
    return len(config.stash[CONFIG_KEY].devices) if config.stash[CONFIG_KEY].real_devices else None


def pytest_report_header(config: pytest.Config) -> str:
    fairy = config.stash[CONFIG_KEY]
    store = config.stash[STORE_KEY]
    return (
        f"fairy: device {fairy.device.device_line()}; brain {fairy.brain} ({fairy.brain_reason}); "
        f"model {fairy.model or '-'}; artifacts {store.folder}"
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> SpecFile | None:
    patterns = parent.config.stash[CONFIG_KEY].spec_patterns
    if any(fnmatch.fnmatch(file_path.name, pattern) for pattern in patterns):
        return SpecFile.from_parent(parent, path=file_path)
    return None


class SpecFile(pytest.File):
    """One YAML spec: one app, an item per feature. A broken spec fails its own collection only."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            spec = load_spec(self.path)
        except SpecError as exc:
            raise self.CollectError(str(exc)) from None
        if spec.app.virtual is not None:
            # A broken app model is this spec's problem: say so at collection, not in every item's setup.
            from pytest_fairy.virtual import AppModelError, load_app_model

            try:
                load_app_model(spec.app.virtual)
            except AppModelError as exc:
                raise self.CollectError(f"{self.path}: app.virtual: {exc}") from None
        fairy = self.config.stash[CONFIG_KEY]
        for feature, serial in _matrix(spec.features, fairy.devices if fairy.matrix else ()):
            name = f"{feature.name}[{serial}]" if serial else feature.name
            item = FeatureItem.from_parent(self, name=name, callobj=_explore_feature)
            item.stash[FEATURE_KEY] = (spec, feature)
            if serial:
                item.stash[DEVICE_KEY] = serial
                item.add_marker(pytest.mark.xdist_group(serial))  # --dist loadgroup: a worker per device
            for tag in feature.tags:
                self.config.addinivalue_line("markers", f"{tag}: tag from fairy specs")
                item.add_marker(tag)
            yield item


def _matrix(features: Sequence[Feature], devices: Sequence[str]) -> Iterator[tuple[Feature, str]]:
    """Each feature once (serial ""), or once per device in matrix mode."""
    for feature in features:
        yield from ((feature, serial) for serial in devices or ("",))


class FeatureItem(pytest.Function):
    """A feature of a spec, run as a pytest function so fixtures, -k, -m and xdist work as usual."""

    def reportinfo(self) -> tuple[Path, int, str]:
        _, feature = self.stash[FEATURE_KEY]
        return self.path, feature.line - 1, f"feature: {feature.name}"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        if isinstance(excinfo.value, AppDefect | Inconclusive):
            kind = "app defect" if isinstance(excinfo.value, AppDefect) else "inconclusive"
            _, feature = self.stash[FEATURE_KEY]
            return f"{self.path}:{feature.line}: {feature.name}: {kind}: {excinfo.value}"
        return super().repr_failure(excinfo)


def _explore_feature(fairy_explorer: Explorer, request: pytest.FixtureRequest) -> None:
    spec, feature = request.node.stash[FEATURE_KEY]
    target = target_of(spec, feature, request.config.stash[CONFIG_KEY])
    chosen = request.config.hook.pytest_fairy_make_brain(
        config=request.config, target=target, default=fairy_explorer.brain
    )
    if chosen is not None:
        fairy_explorer.brain = chosen
    result = fairy_explorer.explore(target, _with_hooks(mission_of(spec, feature), request.node))
    result = distrust_if_shared(result, request.config.stash[POOL_KEY].lease_lost(fairy_explorer.device))
    result = review(  # the build-to-build diff against --fairy-baseline, which may fail the item
        request.node,
        result,
        request.config.stash[CONFIG_KEY].replay,
        request.config.stash[STORE_KEY].item(request.node.nodeid).folder,
        lose_screens=any(o.kind is OracleKind.LOSE_SCREENS for o in feature.must_not),
        allure=bool(getattr(request.config.option, "allure_report_dir", None)),
    )
    request.node.stash[RESULT_KEY] = result
    # user_properties travel with the reports to the xdist controller and into JUnit XML.
    request.node.user_properties.append((SUMMARY_PROPERTY, f"{result.verdict.value}: {result.figures()}"))
    request.config.hook.pytest_fairy_finished(item=request.node, result=result)
    if result.verdict is Verdict.FAILED:
        evidence = "\n".join(f.evidence for f in result.findings if f.evidence)
        # Where first: the evidence below can be a long logcat excerpt.
        raise AppDefect(f"{result.reason}\n({where_shown(result)})" + (f"\n{evidence}" if evidence else ""))
    if result.verdict is Verdict.INCONCLUSIVE:
        raise Inconclusive(f"{result.reason} ({where_shown(result)})")


def distrust_if_shared(result: Exploration, lease_lost: str) -> Exploration:
    """A pass seen while the device's lease was lost (another host may have tapped the same phone)
    proves nothing: inconclusive. A defect found stays a failure: its evidence is the app's own."""
    if not lease_lost or result.verdict is not Verdict.PASSED:
        return result
    reason = f"the device's lease was lost during the run ({lease_lost}); another host may have driven it"
    return replace(result, verdict=Verdict.INCONCLUSIVE, reason=reason)


def target_of(spec: Spec, feature: Feature, fairy: FairyConfig) -> Target:
    settings = feature.effective()
    hints = tuple(o.value for o in feature.done_when if o.kind in HINT_KINDS and o.value)
    return Target(
        app_name=spec.app.name,
        package=spec.app.package,
        feature=feature.name,
        goal=feature.goal,
        description=spec.app.description,
        start=feature.start,
        launch_activity=spec.app.launch_activity,
        sub_features=tuple(feature.sub_features),
        done_hints=hints,
        allowed_risks=settings.allow,
        max_steps=fairy.max_steps or settings.max_steps,
        wall_seconds=settings.budget.wall_seconds or 600.0,
        token_budget=settings.budget.tokens,
        cost_budget=settings.budget.cost_usd,
    )


def _with_hooks(mission: Mission, item: pytest.Item) -> Mission:
    """The mission with the project's pytest_fairy_check and pytest_fairy_review_action hooks in it."""
    hook = item.config.hook

    def check(observation: Observation) -> list[Finding]:
        with _hook_errors("pytest_fairy_check"):
            found = hook.pytest_fairy_check(item=item, observation=observation)
        findings = [finding for findings in found for finding in findings or ()]
        if not all(isinstance(f, Finding) for f in findings):
            raise HookError(f"a pytest_fairy_check hook returned {findings!r}: expected a list of Finding")
        return findings

    def second_opinion(action: Action, screen: Screen, step: int) -> str | Action | None:
        with _hook_errors("pytest_fairy_review_action"):
            verdict = hook.pytest_fairy_review_action(item=item, action=action, screen=screen, step=step)
        if verdict is not None and not isinstance(verdict, str | Action):
            raise HookError(
                f"a pytest_fairy_review_action hook returned {verdict!r}: expected a reason (str) to veto, "
                "an Action to take instead, or None"
            )
        return verdict

    return replace(mission, checks=(*mission.checks, check), review=second_opinion)


@contextmanager
def _hook_errors(name: str) -> Iterator[None]:
    """A project's hook that raises ends the item inconclusive, its steps and tree kept, not lost."""
    try:
        yield
    except Exception as exc:
        raise HookError(f"a {name} hook raised {type(exc).__name__}: {exc}") from exc


def mission_of(spec: Spec, feature: Feature) -> Mission:
    settings = feature.effective()
    return Mission(
        done_when=feature.done_when,
        must_not=feature.must_not,
        policy=RiskPolicy(allowed=settings.allow, forbidden=settings.forbid, extra_words=spec.risky_words),
    )


@pytest.fixture(scope="session")
def fairy_config(pytestconfig: pytest.Config) -> FairyConfig:
    """The run's pytest_fairy configuration (options and ini keys), e.g. `fairy_config.devices`."""
    return pytestconfig.stash[CONFIG_KEY]


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
    `fairy_device.tap(x, y)`."""
    pool = request.config.stash[POOL_KEY]
    with pool.lease(fairy_app_model, request.node.stash.get(DEVICE_KEY, None)) as device:
        yield device


@pytest.fixture
def fairy_brain(request: pytest.FixtureRequest, fairy_config: FairyConfig) -> Brain:
    """A fresh brain for this test (brains remember one exploration, and budgets count per item). Its
    decisions are recorded in the decision cache; the Claude brain replays them where nothing changed.

    Override it to script one: `return ScriptedBrain(["tap 登录", "back"])`.
    """
    replay, spec = fairy_config.replay, spec_id(request.node)
    if fairy_config.brain == "replay":
        return brain_with_cache(None, replay, spec, replays=False)
    if fairy_config.brain == "claude":
        from pytest_fairy.brain.claude import ClaudeBrain, ClaudeSettings

        settings = ClaudeSettings(
            model=fairy_config.model or ClaudeSettings.model,
            image_long_edge=fairy_config.explorer.llm_long_edge,
        )
        if fairy_config.max_queued_actions is not None:
            settings = replace(settings, max_queued_actions=fairy_config.max_queued_actions)
        claude = ClaudeBrain(settings)
        return brain_with_cache(claude, replay, spec, replays=True)
    return brain_with_cache(OfflineBrain(), replay, spec, replays=False)


@pytest.fixture
def fairy_explorer(
    request: pytest.FixtureRequest, fairy_device: Device, fairy_brain: Brain, fairy_config: FairyConfig
) -> Explorer:
    """An Explorer on `fairy_device`, recording to the session store (and Allure with --alluredir).

    Usable from plain tests::

        result = fairy_explorer.explore(Target(...))
        assert result.verdict == "passed", result.reason
    """
    item = request.node
    store = request.config.stash[STORE_KEY]
    store.open_session(devices=list(fairy_config.devices), brain=fairy_config.brain)
    sinks: list[Any] = [store.item(item.nodeid), _HookSink(item)]
    # xdist workers have no terminal: their step lines would go nowhere.
    if request.config.option.verbose > 0 and not hasattr(request.config, "workerinput"):
        sinks.append(_TerminalSink(request.config))
    if getattr(request.config.option, "allure_report_dir", None):
        spec = item.stash.get(FEATURE_KEY, None)
        brain_facts = {"brain": fairy_brain.name, "model": fairy_brain.model or "-"}
        environment = AllureEnvironment(
            Path(request.config.option.allure_report_dir), store.session_id, facts=brain_facts
        )
        spec_name = spec[0].path.name if spec else ""
        sinks.append(
            AllureSink(
                spec_name=spec_name,
                environment=environment,
                device=fairy_device,
                attachments=lambda record: [
                    extra
                    for found in item.config.hook.pytest_fairy_step_attachments(item=item, record=record)
                    for extra in found or ()
                ],
            )
        )
    return Explorer(fairy_device, fairy_brain, settings=fairy_config.explorer, sinks=sinks)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            for name, value in getattr(report, "user_properties", ()):
                if name == SUMMARY_PROPERTY and report.when == "call":
                    lines.append(f"{report.nodeid}: {value}")
    if lines:
        terminalreporter.write_sep("-", "fairy exploration summary")
        for line in sorted(lines):
            terminalreporter.write_line(line)
        store = terminalreporter.config.stash[STORE_KEY]
        terminalreporter.write_line(f"steps, screenshots and feature trees: {store.folder}")
    write_diff_summary(terminalreporter)


class _HookSink:
    """Forwards each step to the `pytest_fairy_step` hook."""

    def __init__(self, item: pytest.Item) -> None:
        self.item = item

    def start(self, target: Target, plan: Any) -> None:
        pass

    def step(self, record: StepRecord) -> None:
        self.item.config.hook.pytest_fairy_step(item=self.item, record=record)

    def finish(self, result: Exploration) -> None:
        pass


class _TerminalSink:
    """With -v, a line per exploration step: step, action, state reached, guard verdict."""

    def __init__(self, config: pytest.Config) -> None:
        self.reporter = config.pluginmanager.get_plugin("terminalreporter")
        self.capture = config.pluginmanager.get_plugin("capturemanager")

    def start(self, target: Target, plan: Any) -> None:
        self._write("")

    def step(self, record: StepRecord) -> None:
        guard = "" if record.guard == "ok" else f"  [guard {record.guard}: {record.guard_reason}]"
        denial = f"  [{record.denial}]" if record.denial else ""
        source = "  [replayed]" if record.replayed else ""
        self._write(
            f"    step {record.step}: {record.action} -> {record.reached or '?'}{guard}{denial}{source}"
        )

    def finish(self, result: Exploration) -> None:
        pass

    def _write(self, line: str) -> None:
        if self.reporter is None:
            return
        # Live, as the steps happen: pytest's output capture would hold them until the item ends.
        if self.capture is None:
            self.reporter.write_line(line)
            return
        with self.capture.global_and_fixture_disabled():
            self.reporter.write_line(line)
