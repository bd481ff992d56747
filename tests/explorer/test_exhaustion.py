"""'Never saw' is an app defect only with proof: the explorer exhausted what it could reach. Otherwise the
item is inconclusive and says what it left. Whole explorations of the tests/untuned apps (written without
reading the explorer), in process, from their own specs."""

from __future__ import annotations

from pathlib import Path

from inline_apps import DEAD_CHECKOUT_APP, SHOP_APP, SHOP_SPEC, Recorded, explore_inline

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.decisions import Judgement, StepContext
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.record import Exploration
from pytest_fairy.explore.verdict import Verdict

UNTUNED = Path(__file__).resolve().parents[1] / "untuned"


def explore(app: str, feature: str, max_steps: int | None = None) -> Exploration:
    """The spec's `feature` of tests/untuned/`app`, explored on its virtual device."""
    spec = load_spec(UNTUNED / app / f"test_{app}.yaml")
    chosen = next(f for f in spec.features if f.name == feature)
    device = VirtualDevice(UNTUNED / app / "app.yaml", latency=False)
    target = target_of(spec, chosen, max_steps=max_steps)
    return Explorer(device, OfflineBrain()).explore(target, mission_of(spec, chosen))


def test_a_menu_entry_opening_the_wrong_screen_fails_once_the_app_is_exhausted() -> None:
    result = explore("missing_screen", "order history")
    assert result.verdict is Verdict.FAILED, result.reason
    assert "explored the feature to its end" in result.reason
    assert "never saw: visible: 订单号：" in result.reason
    # The evidence is the step where the orders should have opened.
    assert "(tap [1] 我的订单 on 我的) opened 我的收藏 instead" in result.reason
    assert [f.kind for f in result.findings] == ["never_seen"]


def test_a_dead_button_fails_naming_the_tap_that_did_nothing() -> None:
    # Exhausting this app takes a restart: the exit page has no known path to the pages left.
    result = explore("dead_button", "check for updates")
    assert result.verdict is Verdict.FAILED, result.reason
    assert "(tap [5] 检查更新 on 设置) changed nothing" in result.reason


def test_their_clean_twins_pass() -> None:
    assert explore("missing_screen_clean", "order history").verdict is Verdict.PASSED
    assert explore("dead_button_clean", "check for updates").verdict is Verdict.PASSED


def test_a_product_the_goal_names_below_the_fold_is_found_and_added() -> None:
    result = explore("catalog_below_fold", "add rice to cart")
    assert result.verdict is Verdict.PASSED, result.reason
    assert result.steps <= 12


def test_out_of_budget_without_a_step_against_the_feature_is_inconclusive_and_says_what_is_left() -> None:
    result = explore("dead_button_clean", "check for updates", max_steps=2)
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith("step budget of 2 spent")
    assert "; left untried: " in result.reason and "not tried" in result.reason


# A member page that shows a level other than the one the feature expects: every element does what its
# label says, so no step shows the app at fault (the spec may be wrong, or the account), only that the
# done-when never held.
MEMBER_APP = """
app: {package: com.example.member, name: 会员, launch: home}
screens:
  - id: home
    activity: .MainActivity
    title: 首页
    elements:
      - {class: Button, text: 会员中心, on_tap: [{go: member}]}
      - {class: Button, text: 帮助, on_tap: [{go: help}]}
  - id: member
    activity: .MemberActivity
    title: 会员中心
    elements:
      - {text: 当前等级：白银会员}
  - id: help
    activity: .HelpActivity
    title: 帮助
    elements:
      - {text: 常见问题}
"""
MEMBER_SPEC = """
app: {name: 会员, package: com.example.member, virtual: app.yaml}
features:
  - name: member level
    goal: 会员中心 shows the member level
    done_when: [{visible: 黄金会员}]
"""


def test_every_element_tried_without_a_step_against_the_feature_is_inconclusive(tmp_path: Path) -> None:
    result = explore_inline(tmp_path, MEMBER_APP, MEMBER_SPEC)
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith("explored the feature to its end (3 screens"), result.reason
    assert result.reason.endswith(
        "no step shows the app at fault: no element the feature names did anything against it"
    )


def test_a_done_when_condition_seen_without_the_rest_is_not_said_never_seen(tmp_path: Path) -> None:
    both = MEMBER_SPEC.replace("[{visible: 黄金会员}]", "[{visible: 常见问题}, {visible: 黄金会员}]")
    result = explore_inline(tmp_path, MEMBER_APP, both)
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert "but never saw at once: visible: 常见问题 (held after step " in result.reason, result.reason
    assert ", on 帮助); visible: 黄金会员 (no view shows '黄金会员')" in result.reason
    assert (
        "never saw: visible: 黄金会员 (no view shows"
        in explore_inline(tmp_path, MEMBER_APP, MEMBER_SPEC).reason
    )


def test_a_step_of_the_feature_is_tried_again_once_the_app_changed_its_data(tmp_path: Path) -> None:
    # 去结算 does nothing with the cart empty; the brain taps it again once 加入购物车 filled the cart.
    assert explore_inline(tmp_path, SHOP_APP, SHOP_SPEC).verdict is Verdict.PASSED
    (tmp_path / "dead").mkdir()
    result = explore_inline(tmp_path / "dead", DEAD_CHECKOUT_APP, SHOP_SPEC)
    assert result.verdict is Verdict.FAILED, result.reason
    # The replay leaves out the first 去结算, which did nothing then too: a fixed build would act on it.
    assert "; step 5 (tap [1] 去结算 on 购物车) changed nothing (reproduced 2/2 in 4 steps)" in result.reason


def test_out_of_budget_with_a_step_against_the_feature_fails_on_it_once_a_replay_shows_it_again() -> None:
    # The rest of the app untried does not matter: the replay does the tap again and sees it do nothing.
    result = explore("dead_button", "check for updates", max_steps=10)
    assert result.verdict is Verdict.FAILED, result.reason
    assert result.reason.startswith(
        "step budget of 10 spent before the feature was done, and never saw: visible: 已是最新版本 (no view "
        "shows '已是最新版本'); step 3 (tap [5] 检查更新 on 设置) changed nothing"
    ), result.reason
    assert result.reason.endswith("(reproduced 2/2 in 3 steps)"), result.reason
    assert result.at_step == 3


class Unconvinced(ScriptedBrain):
    """A script whose judge never calls the feature done, though its done-when holds."""

    def judge(self, ctx: StepContext) -> Judgement:
        return Judgement(False, "not convinced")


def test_out_of_budget_after_the_done_when_held_once_is_no_defect(tmp_path: Path) -> None:
    # The settings page showed 消息通知, the done-when: 检查更新 doing nothing there is no evidence that the
    # feature does not work, only that the judge was not convinced.
    spec = load_spec(UNTUNED / "dead_button" / "test_dead_button.yaml")
    chosen = next(f for f in spec.features if f.name == "check for updates")
    chosen = chosen.model_copy(
        update={"done_when": (chosen.done_when[0].model_copy(update={"value": "消息通知"}),)}
    )
    brain = Unconvinced(["tap 我的", "tap 设置", "tap 检查更新", "back"])
    device = VirtualDevice(UNTUNED / "dead_button" / "app.yaml", latency=False)
    result = Explorer(device, brain).explore(target_of(spec, chosen, max_steps=4), mission_of(spec, chosen))
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith("step budget of 4 spent"), result.reason


def test_a_brain_that_stops_early_after_a_step_against_the_feature_fails_on_that_step() -> None:
    # Three screens of a larger app: the script ends where 检查更新 did nothing, and the replay sees it again.
    spec = load_spec(UNTUNED / "dead_button" / "test_dead_button.yaml")
    chosen = next(f for f in spec.features if f.name == "check for updates")
    brain = ScriptedBrain(["tap 我的", "tap 设置", "tap 检查更新"])
    device = VirtualDevice(UNTUNED / "dead_button" / "app.yaml", latency=False)
    result = Explorer(device, brain).explore(target_of(spec, chosen), mission_of(spec, chosen))
    assert result.verdict is Verdict.FAILED, result.reason
    assert result.reason.startswith("the brain stopped early: the judge says the feature is not done"), (
        result.reason
    )
    assert "and never saw: visible: 已是最新版本" in result.reason
    assert "step 3 (tap [5] 检查更新 on 设置) changed nothing" in result.reason
    assert result.reason.endswith("(reproduced 2/2 in 3 steps)"), result.reason


def test_a_brain_that_stops_early_with_no_step_against_the_feature_is_inconclusive() -> None:
    spec = load_spec(UNTUNED / "dead_button_clean" / "test_dead_button_clean.yaml")
    chosen = next(f for f in spec.features if f.name == "check for updates")
    brain = ScriptedBrain(["tap 我的", "tap 设置"])
    device = VirtualDevice(UNTUNED / "dead_button_clean" / "app.yaml", latency=False)
    result = Explorer(device, brain).explore(target_of(spec, chosen), mission_of(spec, chosen))
    assert result.verdict is Verdict.INCONCLUSIVE, result.reason
    assert result.reason.startswith("the brain stopped early"), result.reason


# Sixteen rows of one list, every fourth named by the feature's word, each opening one detail layout.
PALACE_APP = """
app: {package: com.example.trips, name: Trips, launch: catalog}
screens:
  - id: catalog
    activity: .CatalogActivity
    title: 目的地
    elements:
      - id: rv
        class: RecyclerView
        list:
          rows:
            - {class: TextView, id: row, text: "外滩 1", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "西湖 2", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "黄山 3", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "故宫 4", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "外滩 5", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "西湖 6", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "黄山 7", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "故宫 8", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "外滩 9", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "西湖 10", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "黄山 11", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "故宫 12", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "外滩 13", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "西湖 14", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "黄山 15", on_tap: [{go: detail}]}
            - {class: TextView, id: row, text: "故宫 16", on_tap: [{go: detail}]}
  - id: detail
    activity: .DetailActivity
    title: 详情
    elements:
      - {text: 景点介绍}
"""
PALACE_SPEC = """
app: {name: Trips, package: com.example.trips, virtual: app.yaml}
features:
  - name: palace
    goal: 收藏的「故宫」出现在收藏夹里
    max_steps: 30
    done_when: [{visible: 你收藏的目的地都在这里}]
"""


def test_rows_saying_the_features_word_again_are_samples_too(tmp_path: Path) -> None:
    """Rows opened one layout: 故宫 8, 12, 16 say nothing 故宫 4 did not, though they share the feature's
    word, and are not opened one by one."""
    recorded = Recorded()
    explore_inline(tmp_path, PALACE_APP, PALACE_SPEC, sinks=[recorded])
    opened = [
        s.action for s in recorded.steps if s.action and s.action.startswith("tap") and "故宫" in s.action
    ]
    assert opened and len(opened) <= 2, opened
