"""The Allure reporter: step titles, the failure pointer, environment.properties, and the results of a real
run of the example suites (two xdist workers) as Allure writes them."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from pytest_fairy.errors import DeviceError
from pytest_fairy.explore.record import StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.report.allure import step_title
from pytest_fairy.report.allure_environment import (
    AllureEnvironment,
    device_facts,
    read_properties,
    write_properties,
)
from tests.report.conftest import REPO, AllureRun

NOTES_APP = REPO / "example_suites" / "notes" / "app.yaml"
NOTES = Target(app_name="随手记", package="com.example.notes", feature="search", goal="search notes")


def record(**changes: object) -> StepRecord:
    fields: dict[str, object] = dict(
        step=3, state="state_main_1", title="随手记", screen_text="", action="tap [7] 搜索",
        reasoning="because", reached="state_search_2",
    )  # fmt: skip
    fields.update(changes)
    return StepRecord(**fields)  # type: ignore[arg-type]


def test_a_step_title_says_the_action_and_the_screen_it_reached() -> None:
    assert step_title(record(reached_title="搜索")) == "3. tap [7] 搜索 → 搜索 [state_search_2]"
    assert step_title(record()) == "3. tap [7] 搜索 → state_search_2"
    assert step_title(record(reached="", action=None)) == "3. observe"


def test_a_step_title_flags_guard_warnings_escapes_and_denials() -> None:
    assert step_title(record(guard="warn", guard_reason="same state 4 times")).endswith("(loop guard: warn)")
    assert step_title(record(guard="escape", escape=True, action="back")).endswith("(loop-guard escape)")
    assert "(denied by the risk policy)" in step_title(record(denial="payment is forbidden"))


@given(st.dictionaries(st.text(min_size=1).filter(lambda k: "=" not in k and k.strip() == k), st.text()))
def test_properties_round_trip_any_text_as_ascii(values: dict[str, str]) -> None:
    values = {k: v for k, v in values.items() if k.strip() and not k.lstrip().startswith(("#", "!"))}
    text = write_properties(values)
    assert text.isascii()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "environment.properties"
        path.write_text(text, encoding="ascii")
        assert read_properties(path) == values


def test_java_readers_see_cjk_as_unicode_escapes() -> None:
    assert write_properties({"app": "随手记 2.3"}) == "app=\\u968f\\u624b\\u8bb0 2.3\n"
    assert write_properties({"emoji": "🙂"}) == "emoji=\\ud83d\\ude42\n", (
        "outside the BMP: UTF-16 pairs, as Java"
    )


def test_environment_lists_every_device_once_and_keeps_an_earlier_sessions(tmp_path: Path) -> None:
    """Results of an earlier session in a reused alluredir are in the report too: so are its devices."""
    worker_a = AllureEnvironment(tmp_path, "session-1", facts={"brain": "offline"})
    worker_b = AllureEnvironment(tmp_path, "session-1", facts={"brain": "offline"})
    worker_a.add({"device": "emulator-5554 (Pixel 7)"})
    worker_b.add({"device": "emulator-5556 (Pixel 8)"})
    worker_a.add({"device": "emulator-5554 (Pixel 7)"})
    found = worker_a.read()
    assert found["device"] == "emulator-5554 (Pixel 7), emulator-5556 (Pixel 8)"
    assert found["brain"] == "offline" and found["fairy.session"] == "session-1"
    AllureEnvironment(tmp_path, "session-2").add({"device": "virtual"})
    again = worker_a.read()
    assert again["device"] == "emulator-5554 (Pixel 7), emulator-5556 (Pixel 8), virtual"
    assert again["fairy.session"] == "session-1, session-2"


def test_device_facts_come_from_the_device_and_the_app_model() -> None:
    facts = device_facts(VirtualDevice(NOTES_APP, serial="virtual-notes", latency=False), NOTES)
    assert facts["device"].startswith("virtual-notes (")
    assert re.fullmatch(r"\d+ \(SDK \d+\)", facts["android"])
    assert facts["app"] == "随手记 com.example.notes 2.3.1"


def test_a_device_that_cannot_tell_its_properties_says_so() -> None:
    class Mute(VirtualDevice):
        def info(self):  # type: ignore[no-untyped-def]
            raise DeviceError(self.serial, "getprop", "device offline")

    facts = device_facts(Mute(NOTES_APP, serial="emulator-5554", latency=False), NOTES)
    assert facts == {"device": "emulator-5554 (its properties could not be read: device offline)"}


# -- a real run's Allure results ----------------------------------------------------------------------------


def test_each_exploration_step_is_a_titled_allure_step_with_its_screenshot(allure_run: AllureRun) -> None:
    search = allure_run.by_name()["search"]
    assert search["status"] == "passed"
    steps = search["steps"]
    assert steps and all(
        re.match(rf"{i}\. \S.* → .+ \[state_\w+\]$", s["name"]) for i, s in enumerate(steps, 1)
    )
    for number, step in enumerate(steps, 1):
        names = [a["name"] for a in step["attachments"]]
        assert names[0].startswith(f"step {number} screenshot: ")
        assert step["attachments"][0]["type"] == "image/webp"
        assert f"step {number} decision" in names
        why = {p["name"]: p["value"] for p in step["parameters"]}
        assert why["why"] and why["outcome"]
    assert {"feature tree", "feature tree (json)", "summary"} <= {a["name"] for a in search["attachments"]}
    labels = {(label["name"], label["value"]) for label in search["labels"]}
    assert {("epic", "随手记"), ("feature", "search"), ("app_package", "com.example.notes")} <= labels
    assert "**Summary:**" in search["description"] and "**Verdict:** passed" in search["description"]


def test_the_failure_names_the_step_that_shows_it_and_that_step_is_red(allure_run: AllureRun) -> None:
    crash = allure_run.by_name()["check for updates"]
    assert crash["status"] == "failed"
    *before, last = crash["steps"]
    assert last["status"] == "failed" and all(s["status"] == "passed" for s in before)
    assert "app crashed" in last["statusDetails"]["message"]
    message = crash["statusDetails"]["message"]
    assert f"see the report step '{last['name']}'" in message
    assert "AppErrorDialog" in last["name"], "the step's title names the crash dialog it reached"
    # The message says what and where to look; the logcat evidence is the trace's, said once.
    assert "FATAL EXCEPTION" not in message and "FATAL EXCEPTION" in crash["statusDetails"]["trace"]


def test_a_confirmed_defect_carries_its_reproduction_as_attachments_and_files(allure_run: AllureRun) -> None:
    crash = allure_run.by_name()["check for updates"]
    attached = {a["name"]: a for a in crash["attachments"]}
    wanted = {"reproduction.txt", "test_reproduce_check_for_updates.py", "check_for_updates.maestro.yaml"}
    assert wanted <= set(attached)
    assert attached["test_reproduce_check_for_updates.py"]["type"] == "text/x-python"
    source = (allure_run.results / attached["test_reproduce_check_for_updates.py"]["source"]).read_text("utf-8")
    assert "def test_check_for_updates(d: u2.Device)" in source and "_crash(d)" in source
    # The session store keeps the same files beside the item's steps.
    (item,) = (allure_run.results.parent / "fairy" / "sessions").glob("*/*check_for_updates-*")
    assert wanted <= {p.name for p in item.iterdir()}
    passed = allure_run.by_name()["search"]
    assert not any(a["name"] == "reproduction.txt" for a in passed["attachments"])


def test_the_terminal_the_store_and_allure_give_the_same_counts(allure_run: AllureRun) -> None:
    """One source for the step, state and transition counts: the terminal summary, the store's result
    and the Allure figures agree item by item."""
    summary = re.compile(r"::(?P<name>[^:]+): \w+: (?P<steps>\d+) steps, (?P<states>\d+) states, (?P<tr>\d+) transitions")
    terminal = {m["name"]: m for m in map(summary.search, allure_run.outcome.stdout.splitlines()) if m}
    assert len(terminal) == len(allure_run.by_name()) >= 6
    sessions = allure_run.results.parent / "fairy" / "sessions"
    for name, result in allure_run.by_name().items():
        shown = terminal[name]
        parameters = {p["name"]: p["value"] for p in result["parameters"]}
        assert (parameters["steps"], parameters["states"]) == (shown["steps"], shown["states"]), name
        (stored,) = sessions.glob(f"*/*{name.replace(' ', '_')}-*/result.json")
        kept = json.loads(stored.read_text(encoding="utf-8"))
        assert (kept["steps"], kept["states"], kept["transitions"]) == tuple(
            int(shown[k]) for k in ("steps", "states", "tr")
        ), name


def test_environment_properties_are_written_once_for_the_whole_xdist_session(allure_run: AllureRun) -> None:
    assert "2 workers [6 items]" in allure_run.outcome.stdout
    environment = read_properties(allure_run.results / "environment.properties")
    assert environment["device"].startswith("virtual-notes (") and ", " not in environment["device"]
    assert environment["app"] == "随手记 com.example.notes 2.3.1"
    assert environment["brain"] == "offline" and environment["model"] == "-"
    assert re.fullmatch(r"\d+ \(SDK \d+\)", environment["android"])
    sessions = list((allure_run.results.parent / "fairy" / "sessions").iterdir())
    assert environment["fairy.session"] in {p.name for p in sessions}


@pytest.mark.parametrize("name", ["backup"])
def test_an_anr_is_reported_on_its_step_too(allure_run: AllureRun, name: str) -> None:
    anr = allure_run.by_name()[name]
    assert anr["status"] == "failed" and anr["steps"][-1]["status"] == "failed"


SINK_TEST = """
import io
from PIL import Image
from pytest_fairy.explore.decisions import Plan, Usage
from pytest_fairy.explore.screenshot import PNG, StepScreenshot
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.report.allure import AllureSink, where_shown
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.plugin.outcomes import Inconclusive

def png():
    buffer = io.BytesIO()
    Image.new("RGB", (540, 1200), "white").save(buffer, format="PNG")
    return buffer.getvalue()

def test_llm_run():
    target = Target(app_name="Shop", package="com.shop", feature="cart", goal="add to cart")
    home, cart = StateId("Home", "aaaa1111"), StateId("Cart", "bbbb2222")
    tree = FeatureTree()
    tree.record(0, None, None, home, "Home", False)
    tree.record(1, home, "tap [2] Cart", cart, "Cart", False)
    usage = Usage(calls=3, input_tokens=1000, output_tokens=200, cost_usd=0.01234)
    sink = AllureSink(spec_name="test_shop.yaml")
    sink.start(target, Plan(root="cart"))
    sink.step(StepRecord(step=1, state=home.name, title="Home", screen_text="[2] Cart", screenshot=StepScreenshot.ready(png(), PNG),
                         action="tap [2] Cart", reasoning="the cart is there", reached=cart.name, reached_title="Cart",
                         outcome="new page", guard="warn", guard_reason="same state 3 times", usage=usage))
    result = Exploration(target=target, verdict=Verdict.INCONCLUSIVE, reason="step budget spent",
                         plan=Plan(root="cart"), tree=tree, steps=1, summary="tried the cart", usage=usage)
    sink.finish(result)
    raise Inconclusive(f"{result.reason} ({where_shown(result)})")
"""


def test_llm_figures_guard_warnings_and_an_inconclusive_pointer_reach_allure(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_sink=SINK_TEST)
    ran = pytester.runpytest("--alluredir", "results", "-p", "no:cacheprovider")
    assert ran.parseoutcomes()["inconclusive"] == 1 and "failed" not in ran.parseoutcomes()
    (path,) = (pytester.path / "results").glob("*-result.json")
    result = json.loads(path.read_text(encoding="utf-8"))
    assert result["status"] == "broken", "inconclusive is never a plain failure"
    assert (
        "the run ended after step 1: see the report step '1. tap [2] Cart → Cart [state_cart_bbbb2222]"
        in (result["statusDetails"]["message"])
    )
    figures = {p["name"]: p["value"] for p in result["parameters"]}
    assert figures["tokens"] == "1200" and figures["cost usd"] == "0.0123"
    assert all(p.get("excluded") for p in result["parameters"]), "figures stay out of Allure's history id"
    assert "**LLM:** 3 calls, 1200 tokens" in result["description"]
    (step,) = result["steps"]
    assert step["name"] == "1. tap [2] Cart → Cart [state_cart_bbbb2222] (loop guard: warn)"
    assert step["status"] == "passed", "only an app defect seen on the step's screen makes it red"
    params = {p["name"]: p["value"] for p in step["parameters"]}
    assert params["loop guard"] == "warn: same state 3 times" and params["tokens so far"] == "1200"
    assert "step 1 loop guard: warn" in {a["name"] for a in step["attachments"]}


EVIDENCE_TEST = """
from pytest_fairy.explore.decisions import Plan
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.report.allure import AllureSink, where_shown
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.plugin.outcomes import AppDefect

def test_pay():
    target = Target(app_name="Shop", package="com.shop", feature="pay", goal="pay for the cart")
    home, cart, error = StateId("Home", "aaaa1111"), StateId("Cart", "bbbb2222"), StateId("Error", "cccc3333")
    TITLES = {cart: "Cart", error: "Error"}
    tree = FeatureTree()
    tree.record(0, None, None, home, "Home", False)
    sink = AllureSink(spec_name="test_shop.yaml")
    sink.start(target, Plan(root="pay"))
    for step, (before, action, after) in enumerate(
        [(home, "tap [2] Cart", cart), (cart, "tap [5] Pay", error), (error, "back", cart)], 1
    ):
        tree.record(step, before, action, after, TITLES[after], False)
        sink.step(StepRecord(step=step, state=before.name, title="", screen_text="", action=action,
                             reasoning="", reached=after.name, reached_title=TITLES[after]))
    reason = "explored the feature to its end but never saw: visible: paid; step 2 'Pay' showed an error"
    finding = Finding("never_seen", reason)
    result = Exploration(target=target, verdict=Verdict.FAILED, reason=reason, plan=Plan(root="pay"),
                         tree=tree, steps=3, summary="", findings=(finding,), at_step=2)
    sink.finish(result)
    raise AppDefect(f"{result.reason} ({where_shown(result)})")
"""


def test_the_step_a_failure_names_is_red_though_steps_came_after_it(pytester: pytest.Pytester) -> None:
    """A done-when never seen fails at its evidence step, often long before the run's last step: that step
    is the red one in the report, and the message points at it."""
    pytester.makepyfile(test_pay=EVIDENCE_TEST)
    ran = pytester.runpytest("--alluredir", "results", "-p", "no:cacheprovider")
    assert ran.parseoutcomes()["failed"] == 1
    (path,) = (pytester.path / "results").glob("*-result.json")
    result = json.loads(path.read_text(encoding="utf-8"))
    assert [s["status"] for s in result["steps"]] == ["passed", "failed", "passed"]
    assert result["steps"][1]["name"] == "2. tap [5] Pay → Error [state_error_cccc3333]"
    assert "seen after step 2: see the report step '2. tap [5] Pay → Error" in result["statusDetails"]["message"]


def test_what_the_device_said_about_a_step_is_in_its_allure_step() -> None:
    """A reconnect or the way text was typed: a parameter of the step and a line of its decision."""
    from pytest_fairy.report.allure import AllureSink, _decision_text

    sink = AllureSink(spec_name="test_shop.yaml")
    noted = record(device_note="reconnected after 'dump the hierarchy' failed (1 attempt)")
    assert sink._parameters(noted) == {
        **sink._parameters(record()),
        "device": "reconnected after 'dump the hierarchy' failed (1 attempt)",
    }
    assert _decision_text(noted).endswith("device: reconnected after 'dump the hierarchy' failed (1 attempt)")
