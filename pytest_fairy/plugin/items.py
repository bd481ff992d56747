"""Spec collection, as pytest's `example/nonpython`: a `SpecFile` per YAML spec, a `FeatureItem` per
feature (per feature and device with --fairy-matrix), and the body every feature item runs."""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_fairy.errors import FairyError, FairyWarning, UsageError
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.record import Interrupted
from pytest_fairy.explore.verdict import distrust_if_shared
from pytest_fairy.plugin.outcomes import AppDefect, Inconclusive, conclude
from pytest_fairy.plugin.project_hooks import with_project_hooks
from pytest_fairy.plugin.run import RUN_KEY
from pytest_fairy.plugin.session_budget import BudgetedBrain, ledger_of, refuse_when_spent
from pytest_fairy.replay.regression import review
from pytest_fairy.spec.loader import load_spec
from pytest_fairy.spec.model import Feature, OracleKind, Spec, SpecError
from pytest_fairy.spec.secrets import Secrets

_log = logging.getLogger(__name__)

# The spec and feature a FeatureItem runs.
FEATURE_KEY = pytest.StashKey[tuple[Spec, Feature]]()
# --fairy-matrix: the serial an item is pinned to.
DEVICE_KEY = pytest.StashKey[str]()


class SpecFile(pytest.File):
    """One YAML spec: one app, an item per feature. A broken spec fails its own collection only."""

    def collect(self) -> Iterator[pytest.Item]:
        run = self.config.stash[RUN_KEY]
        try:
            spec = load_spec(self.path)
            if run.fairy.replay.baseline is None:
                _refuse_ungated(self.path, spec)
        except SpecError as exc:
            raise self.CollectError(str(exc)) from None
        if spec.secrets:  # they come from the environment: say now when one is not set
            try:
                Secrets.from_env(spec.secrets, f"{self.path}:{_secret_line(self.path, spec.secrets)}")
            except UsageError as exc:
                raise self.CollectError(str(exc)) from None
        if spec.app.virtual is None and not _has_device_for(run.fairy.devices):
            line = _line_of(self.path, "app:")
            raise self.CollectError(
                f"{self.path}:{line}: app.virtual is missing, and the virtual device (used without "
                "--fairy-device) needs an app model: add `virtual: path/to/app.yaml` under `app:`, or run on "
                "a phone or emulator with --fairy-device SERIAL (docs/devices.md)"
            )
        if spec.app.virtual is not None:
            # A broken app model is this spec's problem: say so at collection, not in every item's setup.
            # The model parsed here is the one the item's virtual device will run.

            try:
                model = run.simulator.load(spec.app.virtual)
            except UsageError as exc:
                raise self.CollectError(f"{self.path}: app.virtual: {exc}") from None
            mismatch = _package_mismatch(self.path, spec, model)
            if mismatch:
                raise self.CollectError(mismatch)
        try:
            _warn_open_explorations(self.path, spec)
        except SpecError as exc:
            raise self.CollectError(str(exc)) from None
        for feature, serial in matrix(spec.features, run.fairy.devices if run.fairy.matrix else ()):
            name = f"{feature.name}[{serial}]" if serial else feature.name
            item = FeatureItem.from_parent(self, name=name, callobj=explore_feature)
            item.stash[FEATURE_KEY] = (spec, feature)
            if serial:
                item.stash[DEVICE_KEY] = serial
                item.add_marker(pytest.mark.xdist_group(serial))  # --dist loadgroup: a worker per device
            for tag in feature.tags:
                self.config.addinivalue_line("markers", f"{tag}: tag from fairy specs")
                item.add_marker(tag)
            yield item


class OpenExploration(FairyWarning):
    """A feature without `done_when`: explored openly, it can fail on a defect it sees, never on the feature
    not working. Silence it with `-W ignore::pytest_fairy.plugin.items.OpenExploration` (or the same in ini
    `filterwarnings`)."""


def _warn_open_explorations(path: Path, spec: Spec) -> None:
    """Say, at the feature's line, that a feature without `done_when` cannot show that the feature works.
    Turned into an error (`-W error::...OpenExploration`), it is the spec's collection error, one line."""
    for feature in spec.features:
        if feature.done_when:
            continue
        try:
            warnings.warn_explicit(
                OpenExploration(
                    f"feature {feature.name!r} has no done_when: it is explored openly (every screen it "
                    "reaches) and can only fail on a defect it sees (a crash, an ANR, a must_not), never on "
                    "the feature not working; give it a done_when to check that it works"
                ),
                OpenExploration,
                filename=str(path),
                lineno=feature.line,
            )
        except OpenExploration as exc:
            raise SpecError(path, feature.line, str(exc)) from None


def _package_mismatch(path: Path, spec: Spec, model: object) -> str:
    """The app model's app must be the spec's: the virtual device runs only the model's package, so every
    item would fail to launch the spec's with the same device error. One line at collection instead."""
    # The simulator's model is opaque to the product (`Simulator.load` returns object): read by name.
    package = getattr(getattr(model, "app", None), "package", None)
    if not isinstance(package, str) or package == spec.app.package or spec.app.virtual is None:
        return ""
    named = os.path.relpath(spec.app.virtual, path.parent)
    return (
        f"{path}:{spec.line_of('app', 'package')}: app.package {spec.app.package!r} is not the package of "
        f"the app model {named!r} ({package!r}), so the virtual device could not launch it; make the two the "
        "same, or name the model of this app in app.virtual"
    )


def _line_of(path: Path, start: str) -> int:
    """The line number of the first line of `path` that starts with `start` (1 if none does)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((n for n, text in enumerate(lines, 1) if text.startswith(start)), 1)


def _secret_line(path: Path, names: Sequence[str]) -> int:
    """The line of the first mention of a secret not set in the environment (of the first one, else)."""
    missing = [n for n in names if not os.environ.get(n)] or list(names)
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((n for n, text in enumerate(lines, 1) if f"${{{missing[0]}}}" in text), 1)


def _has_device_for(devices: Sequence[str]) -> bool:
    """A spec without an app model can run: on a real device, or a virtual one that names its model."""
    return any(device != "virtual" for device in devices)


def _refuse_ungated(path: Path, spec: Spec) -> None:
    """`must_not: [lose_screens]` compares with a baseline run: without --fairy-baseline the gate would
    pass whatever the build lost, so the spec does not load (its own collection only)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for feature in spec.features:
        if any(o.kind is OracleKind.LOSE_SCREENS for o in feature.effective().must_not):
            line = next(
                (n for n in range(max(feature.line, 1), len(lines) + 1) if "lose_screens" in lines[n - 1]),
                feature.line,
            )
            raise SpecError(
                path,
                line,
                f"feature {feature.name!r}: must_not lose_screens needs --fairy-baseline (a "
                "previous run's session folder to compare with); without one this gate could never fail",
            )


def matrix(features: Sequence[Feature], devices: Sequence[str]) -> Iterator[tuple[Feature, str]]:
    """Each feature once (serial ""), or once per device in matrix mode."""
    for feature in features:
        yield from ((feature, serial) for serial in devices or ("",))


class FeatureItem(pytest.Function):
    """A feature of a spec, run as a pytest function so fixtures, -k, -m and xdist work as usual."""

    def setup(self) -> None:
        # Before the fixtures: an item the session's cost budget cannot pay for claims no device.
        refuse_when_spent(self.config)
        super().setup()

    def reportinfo(self) -> tuple[Path, int, str]:
        _, feature = self.stash[FEATURE_KEY]
        return self.path, feature.line - 1, f"feature: {feature.name}"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        """The verdict and its reason first (the short summary shows the first line), then where the
        feature is, relative to the rootdir: `app defect: app crashed: ...` / `at test_notes.yaml:6 ...`."""
        if isinstance(excinfo.value, AppDefect | Inconclusive):
            kind = "app defect" if isinstance(excinfo.value, AppDefect) else "inconclusive"
            _, feature = self.stash[FEATURE_KEY]
            reason, _, more = str(excinfo.value).partition("\n")
            where = f"at {self.nodeid.split('::', 1)[0]}:{feature.line}, feature '{feature.name}'"
            return "\n".join(part for part in (f"{kind}: {reason}", where, more) if part)
        return super().repr_failure(excinfo)


def explore_feature(fairy_explorer: Explorer, request: pytest.FixtureRequest) -> None:
    """Every feature item's body: explore the feature, let the lease and the baseline have their say on
    the result, then tell pytest."""
    item, config = request.node, request.config
    run = config.stash[RUN_KEY]
    spec, feature = item.stash[FEATURE_KEY]
    target = target_of(spec, feature, max_steps=run.fairy.max_steps)
    ledger = ledger_of(config)
    budgeted = None if ledger is None else BudgetedBrain(fairy_explorer.brain, ledger, item.nodeid)
    if budgeted is not None:  # --fairy-max-cost: no call once the session's budget is spent
        fairy_explorer.brain = budgeted
    try:
        result = fairy_explorer.explore(target, with_project_hooks(mission_of(spec, feature), item))
    except Interrupted as stop:  # Ctrl-C or SIGTERM: this item is reported inconclusive, then the run stops
        request.session.shouldstop = f"interrupted during {item.nodeid}"
        result = stop.result
    except FairyError:
        raise  # a usage error: the user's to fix, as it is
    except Exception as exc:
        # A bug of pytest_fairy's own says nothing of the app: never a red build for it.
        _log.exception("pytest_fairy failed on %s", item.nodeid)
        raise Inconclusive(
            f"pytest_fairy failed on this item ({type(exc).__name__}: {exc}): a bug of the tool, not of the "
            "app; the steps so far are in its artifacts, the traceback in the log"
        ) from exc
    finally:
        if budgeted is not None:  # a call that failed after it was paid for counts too
            budgeted.post()
    result = distrust_if_shared(result, run.pool.lease_lost(fairy_explorer.device))
    folder = run.store.item(item.nodeid).folder  # the item's artifacts
    result = review(  # the build-to-build diff against --fairy-baseline, which may fail the item
        item,
        result,
        run.fairy.replay,
        folder,
        lose_screens=any(o.kind is OracleKind.LOSE_SCREENS for o in feature.effective().must_not),
        allure=bool(getattr(config.option, "allure_report_dir", None)),
    )
    conclude(item, result, folder)
