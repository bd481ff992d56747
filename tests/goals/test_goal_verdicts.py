"""Apps whose features the explorer must read to test: what to type (the spec's `inputs`), where the
feature hides, what must hold over time. Each working app passes and its broken twin fails at the step
that shows the defect. Whole explorations with the offline brain, in process, from the apps' own specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.verdict import Verdict
from tests.explorer.inline_apps import explore_inline

GOALS = Path(__file__).resolve().parent


def text(app: str, name: str) -> str:
    return (GOALS / app / name).read_text("utf-8")


def explore(app: str, feature: str) -> Exploration:
    """The spec's `feature` of tests/goals/`app`, explored on its virtual device."""
    spec = load_spec(GOALS / app / f"test_{app}.yaml")
    chosen = next(f for f in spec.features if f.name == feature)
    device = VirtualDevice(GOALS / app / "app.yaml", latency=False)
    return Explorer(device, OfflineBrain()).explore(target_of(spec, chosen), mission_of(spec, chosen))


# (app, feature, what its broken twin's failure names)
CASES = [
    ("fruit_search", "search for a fruit", "(tap [3] Search on Search) found nothing for the spec's input"),
    ("night_reader", "dark mode stays on", "no longer held on Settings after a relaunch of the app (step 4)"),
    ("night_reader", "large text stays on", "no longer held on Settings after leaving it and coming back"),
    ("signup_form", "empty form shows the errors", "step 2 (tap [5] Create account on Create your account) changed"),
    ("mail_drawer", "read the archived booking", "(tap [5] Archive on Inbox) opened Sent instead, which 'Sent' names"),
    ("terms_page", "accept the user agreement", "(tap [3] 同意并继续 on 用户协议) changed nothing"),
]


IDS = [f"{app}-{feature}" for app, feature, _ in CASES]


@pytest.mark.parametrize(("app", "feature", "evidence"), CASES, ids=IDS)
def test_the_working_app_passes(app: str, feature: str, evidence: str) -> None:
    result = explore(app, feature)
    assert result.verdict is Verdict.PASSED, result.reason


@pytest.mark.parametrize(("app", "feature", "evidence"), CASES, ids=IDS)
def test_the_broken_twin_fails_at_the_step_that_shows_it(app: str, feature: str, evidence: str) -> None:
    result = explore(f"{app}_broken", feature)
    assert result.verdict is Verdict.FAILED, result.reason
    assert evidence in result.reason, result.reason
    assert "(reproduced 2/2" in result.reason, result.reason


def test_without_the_specs_input_the_search_is_never_evidence(tmp_path: Path) -> None:
    # The explorer's own query (a word of the goal) may find nothing on a working shop too: the broken twin
    # is inconclusive, not failed.
    spec = text("fruit_search_broken", "test_fruit_search_broken.yaml")
    spec = spec.replace("    inputs:\n      Search products: banana\n", "")
    result = explore_inline(tmp_path, text("fruit_search_broken", "app.yaml"), spec)
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason


def test_a_check_over_time_passes_only_once_the_done_when_held_again() -> None:
    result = explore("night_reader", "dark mode stays on")
    assert result.reason.endswith("; held again after a relaunch of the app (step 4)"), result.reason


def test_without_after_the_app_that_forgets_passes_as_before(tmp_path: Path) -> None:
    # What `after` adds: the same spec without it cannot tell the broken twin from the working app.
    spec = text("night_reader_broken", "test_night_reader_broken.yaml").replace("    after: relaunch\n", "")
    result = explore_inline(tmp_path, text("night_reader_broken", "app.yaml"), spec)  # dark mode stays on
    assert result.verdict is Verdict.PASSED, result.reason


def test_a_check_over_time_that_cannot_come_back_is_inconclusive(tmp_path: Path) -> None:
    # The library is the app's first screen: Back leaves the app and no move entered it to take again.
    spec = (
        "app: {name: Night Reader, package: com.example.nightreader, virtual: app.yaml}\n"
        "features:\n"
        "  - name: books stay\n"
        "    goal: the library shows the books\n"
        "    done_when: [{visible: 3 books}]\n"
        "    after: back_and_return\n"
    )
    result = explore_inline(tmp_path, text("night_reader", "app.yaml"), spec)
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith(
        "the done-when held on My library at step 0, but after leaving it and coming back the way back ended on"
    ), result.reason


# A check-in page whose `Check in` gives way to `Checked in today`: the layout the done-when held on is
# not the one the page had when entered; the check-in is kept over a relaunch (`persist`) or not.
CHECK_IN = """
app: {{name: Streak, package: com.example.streak, launch: home}}
variables:
  checked_in: {{initial: false, persist: {persist}}}
screens:
  - id: home
    activity: .HomeActivity
    title: Streak
    up: false
    elements:
      - {{id: tv_checkin, text: Daily check-in, on_tap: [{{go: checkin}}]}}
  - id: checkin
    activity: .CheckInActivity
    title: Daily check-in
    elements:
      - {{text: "Streak: 7 days", when: not checked_in}}
      - {{text: "Streak: 8 days", when: checked_in}}
      - {{class: Button, id: btn_checkin, text: Check in, when: not checked_in, on_tap: [{{set: {{checked_in: true}}}}]}}
      - {{id: tv_done, text: Checked in today, when: checked_in}}
"""
CHECK_IN_SPEC = """
app: {name: Streak, package: com.example.streak, virtual: app.yaml}
features:
  - name: check-in is kept
    goal: check in on the Daily check-in page; the streak goes from 7 to 8 days and stays so after a relaunch
    max_steps: 15
    done_when: [{visible: "Streak: 8 days"}, {visible: Checked in today}]
    after: relaunch
"""


@pytest.mark.parametrize(("persist", "verdict"), [("true", Verdict.PASSED), ("false", Verdict.FAILED)])
def test_a_check_over_time_comes_back_to_the_page_whatever_layout_the_done_when_held_on(
    tmp_path: Path, persist: str, verdict: Verdict
) -> None:
    result = explore_inline(tmp_path, CHECK_IN.format(persist=persist), CHECK_IN_SPEC)
    assert result.verdict is verdict, result.reason
    if verdict is Verdict.FAILED:
        assert "no longer held on Daily check-in after a relaunch of the app" in result.reason, result.reason


# Settings only in the navigation drawer: leaving it and coming back opens the drawer again.
DRAWER = """
app: {name: Reader, package: com.example.reader, launch: home}
variables:
  dark: false
screens:
  - id: home
    activity: .HomeActivity
    title: Library
    up: false
    elements:
      - {class: ImageButton, id: btn_menu, desc: Menu, on_tap: [{dialog: nav}]}
      - {text: 3 books}
  - id: settings
    activity: .SettingsActivity
    title: Settings
    elements:
      - {class: Switch, id: sw_dark, text: Dark mode, var: dark}
dialogs:
  - id: nav
    kind: drawer
    elements:
      - {text: Library, clickable: true, on_tap: [close]}
      - {text: Settings, clickable: true, on_tap: [{go: settings}]}
"""
DRAWER_SPEC = """
app: {name: Reader, package: com.example.reader, virtual: app.yaml}
features:
  - name: dark mode stays on
    goal: open Settings from the menu, turn on Dark mode; it is still on after leaving Settings and coming back
    max_steps: 15
    done_when: [{checked: Dark mode}]
    after: back_and_return
"""


@pytest.mark.parametrize("verdict", [Verdict.PASSED, Verdict.FAILED])
def test_leaving_a_page_entered_from_the_drawer_and_coming_back_opens_the_drawer_again(
    tmp_path: Path, verdict: Verdict
) -> None:
    # The broken app turns Dark mode off whenever Settings is shown.
    app = DRAWER
    if verdict is Verdict.FAILED:
        app = app.replace("    title: Settings\n", "    title: Settings\n    on_show: [{set: {dark: false}}]\n")
    result = explore_inline(tmp_path, app, DRAWER_SPEC)
    assert result.verdict is verdict, result.reason
