"""The explorer waits for the UI to settle after each action where the device can tell (the virtual device
models a phone's settling), and its oracles read the app's log on from where they stopped."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import ManualClock, VirtualDevice
from fairy_virtual.loader import load_app_model
from fairy_virtual.model import AppModel, Latency
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Observation, defects
from pytest_fairy.explore.run import LOG_OVERLAP
from pytest_fairy.explore.target import Target
from pytest_fairy.perception.screen import build_screen
from tests.explorer.inline_apps import Recorded

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"
PKG = "com.mcdonalds.gma.cn"
CRASH = (
    "11-24 05:00:00.000  100  100 E AndroidRuntime: FATAL EXCEPTION: main\n"
    f"11-24 05:00:00.000  100  100 E AndroidRuntime: Process: {PKG}, PID: 100\n"
    "11-24 05:00:00.000  100  100 E AndroidRuntime: java.lang.IllegalStateException: boom\n"
)


def settling_food(seconds: float) -> AppModel:
    model = load_app_model(FOOD / "app.yaml")
    latency = Latency(dump=0, screenshot=0, action=0, settle=seconds)
    return model.model_copy(update={"device": model.device.model_copy(update={"latency": latency})})


def test_the_explorer_reads_the_screen_once_the_ui_settled() -> None:
    device = VirtualDevice(settling_food(0.3), latency=True, clock=ManualClock())
    target = Target(app_name="麦当劳", package=PKG, feature="pickup", goal="到店取餐", max_steps=1)
    sink = Recorded()
    result = Explorer(device, ScriptedBrain(["tap 到店取餐"]), sinks=[sink]).explore(target, Mission())
    # Read before the UI settled, the dump would still show the home page's views (under the new activity).
    home, pickup = sink.steps[0].state, result.final_state
    assert ": new page" in sink.steps[0].outcome
    assert pickup.rsplit("_", 1)[1] != home.rsplit("_", 1)[1], (home, pickup)


def observation(log: str, log_from: int = 0) -> Observation:
    device = VirtualDevice(FOOD, latency=False)
    device.launch(PKG)
    screen = build_screen(device.dump_hierarchy(), package=PKG)
    return Observation(screen, log, "state_x", log_from=log_from)


def test_the_oracles_read_the_log_from_where_they_stopped() -> None:
    log = CRASH + "later lines\n" * 10
    assert [f.kind for f in defects((), observation(log), PKG)] == ["crash"]
    assert defects((), observation(log, log_from=len(CRASH) + 5), PKG) == []


def test_the_run_reads_on_from_the_last_read_with_an_overlap_and_a_cleared_log_whole() -> None:
    from pytest_fairy.explore.run import Run

    run = Run.__new__(Run)  # only the log bookkeeping: no tree, guard or budget needed
    run._log_read, run._log_head = 0, ""
    first = "a" * 10_000
    assert run.unread_log(first) == 0
    grown = first + "b" * 100
    assert run.unread_log(grown) == len(first) - LOG_OVERLAP
    assert run.unread_log("fresh log after a clear") == 0
