"""The exploration loop end to end on the virtual device, with the shipped brains."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.errors import BrainError, DeviceError, HookError
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding, Observation
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.screen import Screen
from pytest_fairy.spec.model import Oracle, OracleKind

ROOT = Path(__file__).resolve().parents[2]
FOOD = ROOT / "example_suites" / "food"
NOTES = ROOT / "example_suites" / "notes"


def visible(text: str) -> Oracle:
    return Oracle(kind=OracleKind.VISIBLE, value=text)


def food_target(**changes: object) -> Target:
    fields: dict[str, object] = dict(
        app_name="麦当劳",
        package="com.mcdonalds.gma.cn",
        feature="delivery time",
        goal="在麦乐送的送达时间弹窗中选择预约送餐并点确定",
        max_steps=30,
    )
    fields.update(changes)
    return Target(**fields)  # type: ignore[arg-type]


def notes_target(**changes: object) -> Target:
    fields: dict[str, object] = dict(
        app_name="随手记",
        package="com.example.notes",
        feature="notes",
        goal="登录后浏览笔记",
        max_steps=30,
    )
    fields.update(changes)
    return Target(**fields)  # type: ignore[arg-type]


class Collect:
    """A StepSink that keeps what it is given, as the session store and Allure would."""

    def __init__(self) -> None:
        self.started = 0
        self.steps: list[StepRecord] = []
        self.results: list[Exploration] = []

    def start(self, target: Target, plan: Plan) -> None:
        self.started += 1

    def step(self, record: StepRecord) -> None:
        self.steps.append(record)

    def finish(self, result: Exploration) -> None:
        self.results.append(result)


@pytest.fixture
def food() -> VirtualDevice:
    return VirtualDevice(FOOD, latency=False)


@pytest.fixture
def notes() -> VirtualDevice:
    return VirtualDevice(NOTES, latency=False)


def test_offline_brain_reaches_the_done_when_oracle(food: VirtualDevice) -> None:
    sink = Collect()
    mission = Mission(
        done_when=(
            visible("送达时间：预约送餐"),
            Oracle(kind=OracleKind.NOT_VISIBLE, value="请选择您的送达时间"),
        )
    )
    result = Explorer(food, OfflineBrain(), sinks=[sink]).explore(
        food_target(done_hints=("送达时间：预约送餐",)), mission
    )
    assert result.verdict is Verdict.PASSED, result.reason
    assert sink.started == 1 and sink.results == [result]
    assert [r.step for r in sink.steps] == list(range(1, result.steps + 1))
    assert all(r.screenshot.data().startswith(b"RIFF") and r.reached for r in sink.steps)
    assert any("+dlg_" in name for name in (r.reached for r in sink.steps)), (
        "the dialog is a state of its own"
    )


def test_scripted_path_and_step_records(food: VirtualDevice) -> None:
    sink = Collect()
    brain = ScriptedBrain(["tap 麦乐送", "tap 预约送餐", "tap 确定"])
    result = Explorer(food, brain, sinks=[sink]).explore(
        food_target(), Mission(done_when=(visible("送达时间：预约送餐"),))
    )
    # 预约送餐 already shows behind the dialog after step 2: the oracle holds before 确定.
    assert result.verdict is Verdict.PASSED
    assert [r.action for r in sink.steps][:2] == ["tap [4] 麦乐送", "tap [2] 预约送餐"]
    assert sink.steps[0].outcome.endswith("new page (" + sink.steps[0].reached + ")")
    # Each step is handed over complete, once: where it led, and that screen's title as the tree keeps it.
    titles = {info.name: info.title for info in result.tree.states.values()}
    for record in sink.steps:
        assert record.reached_title == titles[record.reached]
    assert sink.steps[0].reached_title and sink.steps[1].title == sink.steps[0].reached_title


def test_a_loop_in_the_delivery_dialog_is_escaped_via_its_confirm_button(food: VirtualDevice) -> None:
    """Five toggles inside the delivery-time dialog: the guard warns, then closes it with 确定."""
    toggles = ["tap 预约送餐", "tap 尽快送达"] * 5
    sink = Collect()
    result = Explorer(food, ScriptedBrain(["tap 麦乐送", *toggles]), sinks=[sink]).explore(
        food_target(max_steps=12)
    )
    guards = [r.guard for r in sink.steps]
    assert "warn" in guards
    escapes = [r for r in sink.steps if r.escape]
    assert escapes, guards
    assert escapes[0].action is not None and escapes[0].action.endswith("确定")
    assert "+dlg_" not in escapes[0].reached, "the escape left the dialog"
    assert result.escapes >= 1


def test_step_budget_ends_inconclusive_never_passed(food: VirtualDevice) -> None:
    result = Explorer(food, OfflineBrain()).explore(
        food_target(max_steps=3), Mission(done_when=(visible("不存在的文字"),))
    )
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "step budget of 3" in result.reason
    assert result.steps == 3


def test_crash_fails_with_the_logcat_excerpt(notes: VirtualDevice) -> None:
    brain = ScriptedBrain(
        ["type 用户名 = qa", "type 密码 = secret", "tap 登录", "tap 设置", "tap 关于随手记", "tap 检查更新"]
    )
    result = Explorer(notes, brain).explore(notes_target())
    assert result.verdict is Verdict.FAILED
    assert result.findings and result.findings[0].kind == "crash"
    assert "FATAL EXCEPTION" in result.findings[0].evidence
    assert "NullPointerException" in result.reason
    # The run keeps the screen it ended on: the system's "has stopped" dialog.
    assert "+dlg_" in result.final_state and result.final_screenshot.data().startswith(b"RIFF")


def test_a_brain_that_stops_while_the_judge_says_continue_is_inconclusive_never_a_defect(
    food: VirtualDevice,
) -> None:
    """The script's end is the brain's `done`, a claim: with the oracle unmet the judge says there is more,
    so the run cannot tell whether the app is broken. It says what it never saw."""
    result = Explorer(food, ScriptedBrain(["tap 优惠券"])).explore(
        food_target(), Mission(done_when=(visible("不存在的文字"),))
    )
    assert result.verdict is Verdict.INCONCLUSIVE and not result.findings
    assert result.reason.startswith("the brain stopped early: the judge says the feature is not done")
    assert "never saw: visible: 不存在的文字" in result.reason


def test_risky_action_is_denied_and_fed_back(food: VirtualDevice) -> None:
    sink = Collect()
    script = ["tap 优惠券", "tap 订阅", "back"]
    Explorer(food, ScriptedBrain(script), sinks=[sink]).explore(food_target())
    denied = sink.steps[1]
    assert denied.denial.startswith("denied: '订阅' looks like a purchase action")
    assert denied.outcome.startswith("tap [") and "denied by policy" in denied.outcome
    assert "+dlg_" not in denied.reached, "the permission dialog never opened"

    allowed = Collect()
    policy = RiskPolicy(allowed=frozenset({"purchase"}))
    Explorer(VirtualDevice(FOOD, latency=False), ScriptedBrain(script), sinks=[allowed]).explore(
        food_target(), Mission(policy=policy)
    )
    assert allowed.steps[1].denial == "" and "+dlg_" in allowed.steps[1].reached


class FailingBrain(OfflineBrain):
    """The offline brain until step `fail_at`, then a backend failure, as an unreachable LLM would give."""

    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self.fail_at = fail_at

    def decide(self, ctx: StepContext) -> Decision:
        if ctx.step >= self.fail_at:
            raise BrainError("Messages API: 529 overloaded (request req_123)")
        return super().decide(ctx)

    def summarize(self, target: Target, story: str) -> str:
        raise BrainError("still overloaded")


def test_failing_brain_ends_inconclusive_and_keeps_the_steps_seen(food: VirtualDevice) -> None:
    sink = Collect()
    result = Explorer(food, FailingBrain(fail_at=3), sinks=[sink]).explore(food_target())
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "brain unavailable" in result.reason and "529" in result.reason
    assert len(sink.steps) == 2, "both completed steps reached the sinks"
    assert "could not write a summary" in result.summary
    assert sink.results == [result]


class LosingDevice(VirtualDevice):
    """A virtual device whose connection drops after `calls` dumps, as a USB cable pulled out would."""

    def __init__(self, path: Path, calls: int) -> None:
        super().__init__(path, latency=False)
        self.calls_left = calls

    def dump_hierarchy(self) -> str:
        self.calls_left -= 1
        if self.calls_left < 0:
            raise DeviceError(self.serial, "dump hierarchy", "device offline")
        return super().dump_hierarchy()


def test_lost_device_ends_inconclusive_with_what_was_seen(food: VirtualDevice) -> None:
    sink = Collect()
    result = Explorer(
        LosingDevice(FOOD, calls=3),
        ScriptedBrain(["tap 麦乐送", "tap 预约送餐", "tap 确定", "back"]),
        sinks=[sink],
    ).explore(food_target())
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "device error" in result.reason and "device offline" in result.reason
    assert len(sink.steps) >= 2
    assert sink.results == [result]


def test_unknown_mark_is_a_failed_step_not_a_crash(food: VirtualDevice) -> None:
    class WildBrain(ScriptedBrain):
        def decide(self, ctx: StepContext) -> Decision:
            from pytest_fairy.explore.action import Action, ActionKind

            if ctx.step == 1:
                return Decision(Action(ActionKind.TAP, 99), "a mark that is not there")
            return Decision(None, "done")

    sink = Collect()
    Explorer(food, WildBrain([]), sinks=[sink]).explore(food_target())
    assert "action failed" in sink.steps[0].outcome and "mark [99]" in sink.steps[0].outcome


def test_the_brain_context_stays_bounded(food: VirtualDevice) -> None:
    seen: list[StepContext] = []

    class Watching(OfflineBrain):
        def decide(self, ctx: StepContext) -> Decision:
            seen.append(ctx)
            return super().decide(ctx)

        def judge(self, ctx: StepContext) -> Judgement:
            return Judgement(False, "keep going")

    Explorer(food, Watching()).explore(
        food_target(max_steps=40), Mission(done_when=(visible("不存在的文字"),))
    )
    sizes = [len(c.tree_summary) + len(c.recent_states) for c in seen]
    assert len(seen) >= 30
    assert max(sizes[20:]) < 4000


def test_usage_is_reported(food: VirtualDevice) -> None:
    result = Explorer(food, OfflineBrain()).explore(food_target(max_steps=2))
    assert result.usage == Usage()
    assert "tokens" not in result.figures()


def test_completed_sub_feature_gets_a_return_step_and_is_marked_done(food: VirtualDevice) -> None:
    """Seed 001's fix: once the dialog's sub-feature is judged complete, leave the dialog."""
    from pytest_fairy.explore.decisions import Assessment
    from pytest_fairy.explore.tree import FeatureStatus

    class Assessing(ScriptedBrain):
        def decide(self, ctx: StepContext) -> Decision:
            decision = super().decide(ctx)
            done = ctx.step >= 3
            return Decision(
                decision.action,
                decision.reasoning,
                sub_feature="delivery-time dialog",
                assessment=Assessment(is_completed=done, completion_rate=1.0 if done else 0.5),
            )

        def judge(self, ctx: StepContext) -> Judgement:
            return Judgement(True, "both options seen")

    sink = Collect()
    brain = Assessing(["tap 麦乐送", "tap 预约送餐", "tap 尽快送达", "tap 预约送餐"])
    result = Explorer(food, brain, sinks=[sink]).explore(food_target(sub_features=("delivery-time dialog",)))
    third = sink.steps[2]
    assert third.reasoning.startswith("return step: 'delivery-time dialog' is complete")
    assert third.action is not None and third.action.endswith("确定")
    assert "+dlg_" not in third.reached
    assert result.tree.feature("delivery-time dialog").status is FeatureStatus.DONE


def test_a_review_is_asked_only_what_the_policy_allows_and_its_rewrite_obeys_the_policy(
    food: VirtualDevice,
) -> None:
    asked: list[int] = []

    def review(action: Action, screen: Screen, step: int) -> str | Action | None:
        asked.append(step)
        if step == 3:  # the brain backs out of the coupons; the review would subscribe instead
            return Action(ActionKind.TAP, next(m for m in screen.marks if m.label == "订阅").number)
        return None

    sink = Collect()
    script = ["tap 优惠券", "tap 订阅", "back"]
    Explorer(food, ScriptedBrain(script), sinks=[sink]).explore(food_target(), Mission(review=review))
    assert 2 not in asked, "step 2 (tap 订阅) was denied by the policy: no second opinion asked"
    assert asked[:2] == [1, 3]
    rewritten = sink.steps[2]
    assert rewritten.action is not None and rewritten.action.endswith("订阅")
    assert "rewritten by a hook: the brain chose back" in rewritten.reasoning
    assert rewritten.denial.startswith("denied: '订阅' looks like a purchase action")


def test_a_raising_check_ends_the_run_inconclusive_with_what_was_seen(food: VirtualDevice) -> None:
    def check(observation: Observation) -> list[Finding]:
        if observation.screen.find_text("订阅"):
            raise HookError("a pytest_fairy_check hook raised KeyError: 'x'")
        return []

    sink = Collect()
    result = Explorer(food, ScriptedBrain(["tap 优惠券", "back"]), sinks=[sink]).explore(
        food_target(), Mission(checks=(check,))
    )
    assert result.verdict is Verdict.INCONCLUSIVE and "hook raised KeyError" in result.reason
    assert len(sink.steps) == 1 and sink.results == [result] and result.tree.states


def test_a_screen_is_judged_once_per_progress_made() -> None:
    from pytest_fairy.explore.budget import Budget, BudgetLimits
    from pytest_fairy.explore.guard import LoopGuard
    from pytest_fairy.explore.run import Run

    target = food_target()
    run = Run(target, Mission(), LoopGuard(), Budget.start(BudgetLimits.of(target)))
    menu, product = StateId(".Menu", "m1"), StateId(".Product", "p1")
    run.tree.record(step=0, before=None, action=None, after=menu, title="menu", is_dialog=False)
    assert run.judge_due(menu) and not run.judge_due(menu), "the same screen, nothing new: asked once"
    run.tree.record(step=1, before=menu, action="tap", after=product, title="product", is_dialog=False)
    assert run.judge_due(menu), "a new state was found since: asked again"
    assert run.judge_due(StateId(".Menu", "m1", content_hash="other")), "other content on the screen"
