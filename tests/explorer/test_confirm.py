"""An app defect fails the item only once a replay of its way from a fresh launch, without the brain, shows
it again; one that does not show again leaves the item inconclusive with its evidence. Whole
explorations on the virtual device: the notes app's seeded crash and ANR, a project check that fires only
once, a judge's finding, and a done-when never seen."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from inline_apps import DEAD_CHECKOUT_APP, SHOP_SPEC, explore_inline

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.decisions import Judgement, StepContext
from pytest_fairy.explore.explorer import Explorer, ExplorerSettings
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2]
DEFECTS = ROOT / "example_defects" / "test_notes_defects.yaml"
NOTES = ROOT / "example_suites" / "notes" / "app.yaml"
UNTUNED = ROOT / "tests" / "untuned"


class CountingDevice(VirtualDevice):
    """The notes app, counting its launches: one for the run, one per replay."""

    launches = 0

    def launch(self, package: str, activity: str | None = None) -> None:
        self.launches += 1
        super().launch(package, activity)


def explore_defect(feature: str, confirm: int = 1) -> tuple[Exploration, CountingDevice]:
    spec = load_spec(DEFECTS)
    chosen = next(f for f in spec.features if f.name == feature)
    device = CountingDevice(NOTES, latency=False)
    explorer = Explorer(device, OfflineBrain(), settings=ExplorerSettings(confirm=confirm))
    return explorer.explore(target_of(spec, chosen), mission_of(spec, chosen)), device


@pytest.mark.parametrize(("feature", "kind"), [("check for updates", "crash"), ("backup", "anr")])
def test_a_seeded_defect_is_replayed_by_its_shortest_way_and_fails_the_item(feature: str, kind: str) -> None:
    result, _ = explore_defect(feature)
    assert result.verdict is Verdict.FAILED, result.reason
    found = result.reproduction
    assert found is not None and found.confirmed
    assert found.finding.kind == kind
    # The way signs in (both fields typed: the screen's set-up moves come along), then goes straight to
    # the defect, far shorter than the run's own wandering.
    words = [m.words for m in found.way.moves]
    assert found.way.how == "the shortest known path"
    assert words[:3] == ["type [1] 用户名 / 手机号 '13800138000'", "type [2] *** '••••••'", "tap [3] 登录"]
    assert len(found.way) == 6 < result.steps
    assert result.reason.endswith("(reproduced 2/2 in 6 steps)")


def test_more_replays_are_counted_in_the_verdict() -> None:
    result, _ = explore_defect("check for updates", confirm=3)
    assert result.verdict is Verdict.FAILED
    assert result.reason.endswith("(reproduced 4/4 in 6 steps)")


def test_confirm_zero_fails_on_what_was_seen_once_without_replaying() -> None:
    result, unconfirmed = explore_defect("check for updates", confirm=0)
    assert result.verdict is Verdict.FAILED
    assert result.reproduction is None and "reproduced" not in result.reason
    _, confirmed = explore_defect("check for updates", confirm=1)
    assert confirmed.launches == unconfirmed.launches + 1  # one replay, one launch


class Once:
    """A project check that finds its defect the first time it sees the about page, never again: a
    defect a replay cannot show a second time."""

    def __init__(self) -> None:
        self.fired = False

    def __call__(self, observation: Observation) -> Iterable[Finding]:
        if "检查更新" in observation.screen.text and not self.fired:
            self.fired = True
            return [Finding("house rule", "the about page must not offer updates", observation.state_name)]
        return []


def test_a_defect_seen_once_and_not_again_leaves_the_item_inconclusive_with_its_evidence() -> None:
    spec = load_spec(DEFECTS)
    chosen = next(f for f in spec.features if f.name == "check for updates")
    mission = mission_of(spec, chosen)
    mission = Mission(mission.done_when, mission.must_not, mission.policy, checks=[Once()])
    result = Explorer(VirtualDevice(NOTES, latency=False), OfflineBrain()).explore(
        target_of(spec, chosen), mission
    )
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    # Both ways were tried once: the shortest, then the run's own walk.
    assert result.reason.startswith("seen once, not reproduced in 2 replays (the shortest known path (5 steps): ")
    assert re.search(r"; the run's own walk \(\d+ steps\): no house rule this time", result.reason)
    assert "the run saw the about page must not offer updates" in result.reason
    assert [f.kind for f in result.findings] == ["house rule"]  # the evidence is kept
    assert result.reproduction is not None and not result.reproduction.confirmed


class JudgeOfTheAboutPage(ScriptedBrain):
    """Follows a script; its judge sees a defect on the about page (the version it shows is wrong)."""

    def judge(self, ctx: StepContext) -> Judgement:
        if "关于随手记" in ctx.screen.title:
            finding = Finding("wrong version", "the about page shows an old version", ctx.screen.title)
            return Judgement(False, "wrong version", (finding,))
        return super().judge(ctx)


SIGN_IN_AND_WANDER = [
    "type 用户名 = qa",
    "type 密码 = secret",
    "tap 登录",
    "tap 搜索",
    "back",
    "tap 设置",
    "tap 关于随手记",
]


def test_a_judges_finding_is_reproduced_by_reaching_the_judged_screen_again() -> None:
    target = Target(
        app_name="随手记",
        feature="about",
        goal="the about page shows the version",
        package="com.example.notes",
        max_steps=20,
    )
    brain = JudgeOfTheAboutPage(SIGN_IN_AND_WANDER)
    result = Explorer(VirtualDevice(NOTES, latency=False), brain).explore(target, Mission())
    assert result.verdict is Verdict.FAILED, result.reason
    assert result.reproduction is not None
    assert [m.words.split(" ", 2)[-1] for m in result.reproduction.way.moves][-2:] == ["设置", "关于随手记"]
    assert result.reason.endswith("(reproduced 2/2 in 5 steps)")  # the detour through search is left out


def test_a_done_when_never_seen_is_reproduced_by_the_step_where_it_should_have_happened() -> None:
    spec = load_spec(UNTUNED / "dead_button" / "test_dead_button.yaml")
    chosen = next(f for f in spec.features if f.name == "check for updates")
    device = VirtualDevice(UNTUNED / "dead_button" / "app.yaml", latency=False)
    result = Explorer(device, OfflineBrain()).explore(target_of(spec, chosen), mission_of(spec, chosen))
    assert result.verdict is Verdict.FAILED, result.reason
    found = result.reproduction
    assert found is not None and found.confirmed
    assert found.way.moves[-1].words.endswith("检查更新")
    assert "(reproduced 2/2 in " in result.reason


# 检查更新 does nothing the first time it is ever tapped, and from then on notes when it last checked:
# a replay sees the tap change the page, not the run's "changed nothing", though it stays on that page.
FIRST_TAP_APP = """
app: {package: com.example.firsttap, name: 首次, launch: settings}
variables:
  taps: {initial: 0, persist: true}
screens:
  - id: settings
    activity: .SettingsActivity
    title: 设置
    elements:
      - {class: Button, text: 检查更新, on_tap: [{inc: {taps: 1}}]}
      - {text: 上次检查：刚刚, when: "taps > 1"}
"""
FIRST_TAP_SPEC = """
app: {name: 首次, package: com.example.firsttap, virtual: app.yaml}
defaults: {reset: none}
features:
  - name: check for updates
    goal: 设置 → 检查更新 says the app is up to date
    done_when: [{visible: 已是最新版本}]
"""


def test_a_replay_where_the_step_no_longer_contradicts_the_feature_confirms_nothing(tmp_path: Path) -> None:
    result = explore_inline(tmp_path, FIRST_TAP_APP, FIRST_TAP_SPEC)
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith("seen once, not reproduced in 1 replay (the run's own walk (1 step): ")
    assert "this time '检查更新' changed what 设置 shows, not: changed nothing" in result.reason




def test_evidence_after_the_feature_changed_the_apps_data_is_replayed_by_the_walk_that_changed_it(
    tmp_path: Path,
) -> None:
    """去结算 is dead with a product in the cart: the replay adds one first, as the run did, rather than
    tapping 去结算 on an empty cart (where doing nothing proves nothing)."""
    brain = ScriptedBrain(["tap 逛逛", "tap 加入购物车", "back", "tap 去结算"])
    result = explore_inline(tmp_path, DEAD_CHECKOUT_APP, SHOP_SPEC, brain)
    assert result.verdict is Verdict.FAILED, result.reason
    assert "step 4 (tap [1] 去结算 on 购物车) changed nothing (reproduced 2/2 in 4 steps)" in result.reason
    assert result.reproduction is not None and result.reproduction.way.how == "the run's own walk"
