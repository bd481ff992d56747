"""pytest-split's `--store-durations` on feature items (plugin/split_durations.py), and the contract of
pytest-split 0.11.0 that module works around: run with `-p no:fairy-split-durations`, pytest-split stores
a skipped item's ~0 s and an item whose setup failed at its setup's duration, and `--clean-durations` drops
every deselected item. On an upgrade that changes this, the contract test fails first, naming what changed.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from specs import NOTES_APP_BLOCK

# What the durations file held before the run: every feature item took 99 s then.
BEFORE = 99.0
# Features of the notes app: one explored (it passes in a few steps), the others never reach their call.
FEATURE = """\
  - name: {name}
    goal: 登录：log in with a username and a password
    done_when:
      - visible: 共 200 条笔记
"""
FEATURES = ("explored", "skipped", "skipped anew", "no device", "left out")
CONFTEST = """
import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if item.name.startswith("skipped"):
            item.add_marker(pytest.mark.skip(reason="not on this runner"))


@pytest.fixture(autouse=True)
def refuse_a_device(request):
    if request.node.name == "no device":
        raise RuntimeError("no free device")
"""
PLAIN = "import pytest\n\n\n@pytest.mark.skip(reason='a plain test')\ndef test_plain():\n    pass\n"
# `-k` deselects one feature item; `gone` is in the file but no longer in the spec.
RUN = ("--store-durations", "--clean-durations", "--durations-path=durations.json", "-k", "not left")


@pytest.fixture
def project(suite: pytest.Pytester) -> pytest.Pytester:
    """The notes app's five features and a plain skipped test, with durations stored by an earlier run."""
    spec = NOTES_APP_BLOCK + "".join(FEATURE.format(name=name) for name in FEATURES)
    suite.path.joinpath("test_notes.yaml").write_text(spec, encoding="utf-8")
    suite.makeconftest(CONFTEST)
    suite.makepyfile(test_plain=PLAIN)
    stored = {f"test_notes.yaml::{name}": BEFORE for name in (*FEATURES, "gone") if name != "skipped anew"}
    stored["test_plain.py::test_plain"] = BEFORE
    suite.path.joinpath("durations.json").write_text(json.dumps(stored), encoding="utf-8")
    return suite


def stored(project: pytest.Pytester) -> dict[str, float]:
    durations = json.loads(project.path.joinpath("durations.json").read_text(encoding="utf-8"))
    return {nodeid.replace("test_notes.yaml::", ""): value for nodeid, value in durations.items()}


def test_the_contract_of_pytest_split_without_this_plugin(project: pytest.Pytester) -> None:
    result = project.runpytest(*RUN, "-p", "no:fairy-split-durations", "--junitxml=junit.xml")
    result.assert_outcomes(passed=1, skipped=3, errors=1, deselected=1)
    durations = stored(project)
    # An item's duration is the sum of its setup, call and teardown, as JUnit's testcase time is.
    case = next(
        c for c in ET.parse(project.path / "junit.xml").iter("testcase") if c.get("name") == "explored"
    )
    assert durations["explored"] == pytest.approx(float(case.get("time", "")), abs=0.001)
    # What would skew the next split: ~0 s for what did not run, and deselected items dropped.
    assert durations["skipped"] < 1 and durations["skipped anew"] < 1, durations
    assert durations["no device"] < 1, durations
    assert "left out" not in durations and "gone" not in durations, durations


def test_a_feature_item_that_did_not_run_keeps_its_duration(project: pytest.Pytester) -> None:
    project.runpytest(*RUN).assert_outcomes(passed=1, skipped=3, errors=1, deselected=1)
    durations = stored(project)
    assert durations["explored"] < BEFORE  # explored in this run: its new duration
    assert durations["skipped"] == BEFORE  # skipped: the exploration's duration stays
    assert "skipped anew" not in durations  # skipped, never stored: none, pytest-split takes the average
    assert durations["no device"] == BEFORE  # its setup failed: no exploration ran
    assert durations["left out"] == BEFORE  # deselected: --clean-durations keeps it, the item is there
    assert "gone" not in durations  # no longer in the spec: --clean-durations drops it, as it should
    assert durations["test_plain.py::test_plain"] < 1  # a plain test: pytest-split's own way


def test_without_store_durations_the_file_is_left_alone_and_pytest_split_is_not_needed(
    project: pytest.Pytester,
) -> None:
    before = project.path.joinpath("durations.json").read_text(encoding="utf-8")
    project.runpytest("--durations-path=durations.json", "-k", "skipped").assert_outcomes(
        skipped=2, deselected=4
    )
    assert project.path.joinpath("durations.json").read_text(encoding="utf-8") == before
    project.runpytest("-p", "no:pytest-split", "-k", "skipped").assert_outcomes(skipped=2, deselected=4)


# A worker's own copy of the durations file as its session ends: after pytest-split's writer and
# pytest_fairy's (registered here after pytest_fairy's, so its `trylast` hook runs after theirs), before
# xdist tells the controller that the worker is done.
WORKER_LEFT = """

class WorkerLeft:
    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        if hasattr(session.config, "workerinput"):
            import shutil

            shutil.copy("durations.json", "worker-left.json")


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    config.pluginmanager.register(WorkerLeft())
"""


def test_under_xdist_the_controller_writes_and_knows_what_the_worker_deselected(
    project: pytest.Pytester,
) -> None:
    """One worker, so that its copy of the file is not another worker's half-written one."""
    project.makeconftest(CONFTEST + WORKER_LEFT)
    project.runpytest(*RUN, "-n", "1").assert_outcomes(passed=1, skipped=3, errors=1)
    durations = stored(project)
    assert durations["explored"] < BEFORE
    assert durations["left out"] == BEFORE  # deselected on the worker
    assert durations["skipped"] == BEFORE and durations["no device"] == BEFORE
    assert "gone" not in durations and "skipped anew" not in durations
    # The worker left pytest-split's file as it was: files that several workers write at once are never
    # read back there, only the controller's, written when every worker is done.
    left = json.loads(project.path.joinpath("worker-left.json").read_text(encoding="utf-8"))
    assert left["test_notes.yaml::skipped"] < 1, left
