"""The recording format, the cache folder under concurrent writers, and the caching brain in the loop."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.explore.action import Action, ActionKind
from pytest_fairy.explore.decisions import Assessment, Decision, Judgement, Plan, StepContext, Usage
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.screen import Screen
from pytest_fairy.replay import CacheMode, CacheWarning, CachingBrain, DecisionCache, Recording
from pytest_fairy.replay.recording import (
    RecordedAction,
    RecordedDecision,
    RecordedPlan,
    RecordedStep,
    RecordingError,
)
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.replay.helpers import DIALOG_HEAD, FOOD_APP, NOTICE, newest_file
from tests.screens import button, screen_of

TARGET = Target(app_name="麦当劳", package="com.mcdonalds.gma.cn", feature="delivery time",
                goal="选择送达时间：在弹窗中选择预约送餐并确定", max_steps=20)  # fmt: skip
MISSION = Mission(done_when=[Oracle(kind=OracleKind.VISIBLE, value="送达时间：预约送餐"),
                             Oracle(kind=OracleKind.NOT_VISIBLE, value="请选择您的送达时间")])  # fmt: skip
SCRIPT = ["tap 麦乐送", "tap 预约送餐", "tap 确定"]

# ------------------------------------------------------------------------------------- the format

texts = st.text(max_size=12)
actions = st.builds(
    RecordedAction,
    kind=st.sampled_from([k.value for k in ActionKind]),
    ref=texts, label=texts, mark=st.none() | st.integers(1, 40), text=st.none() | texts,
    direction=st.none() | st.sampled_from(["up", "down"]),
)  # fmt: skip
decisions = st.builds(
    RecordedDecision, action=st.none() | actions, reasoning=texts, expected=texts, sub_feature=texts,
    assessment=st.builds(Assessment, is_completed=st.booleans(), completion_rate=st.floats(0, 100),
                         reason=texts, should_return=st.booleans(), next_action_type=texts),
)  # fmt: skip
judgements = st.builds(
    Judgement, complete=st.booleans(), reason=texts,
    findings=st.lists(st.builds(Finding, kind=texts, message=texts, evidence=texts), max_size=2).map(tuple),
)  # fmt: skip
steps = st.builds(
    RecordedStep, state=texts, visit=st.integers(0, 9), after=texts, state_name=texts, title=texts,
    step=st.integers(1, 99), decision=st.none() | decisions, judgements=st.lists(judgements, max_size=2),
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(steps, max_size=4), summary=texts, with_plan=st.booleans())
def test_a_recording_reads_back_as_it_was_written(
    steps: list[RecordedStep], summary: str, with_plan: bool
) -> None:
    plan = RecordedPlan("k", "state_k", Plan("root", ("a", "b"), ("tap [1] x",))) if with_plan else None
    recording = Recording(
        "suite/test_a.yaml", "特性", "abc", "claude", "m", "2025", plan, steps, "d", summary
    )
    back = Recording.from_json(recording.to_json())
    # Empty ref / label / text are left out of the file; they read back as their defaults.
    assert back.to_dict() == recording.to_dict()
    assert back.steps == [_defaults(s) for s in steps]


def _defaults(step: RecordedStep) -> RecordedStep:
    if step.decision is None or step.decision.action is None:
        return step
    a = step.decision.action
    action = RecordedAction(a.kind, a.ref, a.label, a.mark, a.text or None, a.direction)
    return RecordedStep(step.state, step.visit, step.after, step.state_name, step.title, step.step,
                        RecordedDecision(action, *_rest(step.decision)), step.judgements)  # fmt: skip


def _rest(d: RecordedDecision) -> tuple[str, str, str, Assessment]:
    return d.reasoning, d.expected, d.sub_feature, d.assessment


@pytest.mark.parametrize(
    ("text", "problem"),
    [("{", "not valid JSON"), ('{"schema": "x"}', "not a decision recording"),
     ('{"schema": "pytest_fairy.decisions", "version": 9}', "version 9 is not supported"),
     ('{"schema": "pytest_fairy.decisions", "version": 1}', "malformed recording")],
)  # fmt: skip
def test_unreadable_recordings_say_why(text: str, problem: str) -> None:
    with pytest.raises(RecordingError, match=problem):
        Recording.from_json(text)


def test_actions_replay_by_ref_then_by_a_unique_label_never_by_a_stale_number() -> None:
    before = screen_of(button("首页", 0), button("麦乐送", 1), button("优惠券", 2))
    recorded = RecordedAction.of(Action(ActionKind.TAP, 2), before)
    assert (recorded.ref, recorded.label, recorded.mark) == (before.mark(2).ref, "麦乐送", 2)
    moved = screen_of(button("新品", 0), button("首页", 1), button("优惠券", 2), button("麦乐送", 3))
    assert recorded.resolve(moved) == Action(ActionKind.TAP, 4)
    renamed_ref = RecordedAction("tap", ref="gone/ref", label="麦乐送", mark=2)
    assert renamed_ref.resolve(moved) == Action(ActionKind.TAP, 4)
    assert RecordedAction("tap", ref="gone/ref", label="没有", mark=2).resolve(moved) is None
    assert RecordedAction("back").resolve(moved) == Action(ActionKind.BACK)


# ------------------------------------------------------------------------------- the brain in the loop


class Counting(ScriptedBrain):
    """The scripted brain, counting the calls that would have cost an LLM request."""

    def __init__(self, script: list[str]) -> None:
        super().__init__(script)
        self.calls: list[str] = []

    def plan(self, target: Target, screen: Screen, som_jpeg: bytes = b"") -> Plan:
        self.calls.append("plan")
        return super().plan(target, screen, som_jpeg)

    def decide(self, ctx: StepContext) -> Decision:
        self.calls.append(f"decide {ctx.step}")
        return super().decide(ctx)

    def judge(self, ctx: StepContext) -> Judgement:
        self.calls.append(f"judge {ctx.step}")
        return super().judge(ctx)

    def summarize(self, target: Target, story: str) -> str:
        self.calls.append("summarize")
        return super().summarize(target, story)

    def usage(self) -> Usage:
        return Usage(calls=len(self.calls))


def explore(app: Path, brain: CachingBrain) -> tuple[Verdict, list[bool]]:
    replayed: list[bool] = []

    class Sink:
        def start(self, target: Target, plan: Plan) -> None: ...
        def step(self, record) -> None:  # type: ignore[no-untyped-def]
            replayed.append(record.replayed)

        def finish(self, result) -> None: ...  # type: ignore[no-untyped-def]

    result = Explorer(VirtualDevice(app, latency=False), brain, sinks=[Sink()]).explore(TARGET, MISSION)
    return result.verdict, replayed


def test_cached_mode_replays_what_is_unchanged_and_decides_the_changed_screens(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path / "cache")
    changed_app = tmp_path / "changed.yaml"
    changed_app.write_text(FOOD_APP.read_text(encoding="utf-8").replace(DIALOG_HEAD, DIALOG_HEAD + NOTICE),
                           encoding="utf-8")  # fmt: skip

    first = Counting(SCRIPT)
    assert explore(FOOD_APP, CachingBrain(first, cache, "s.yaml", CacheMode.CACHED)) == (
        Verdict.PASSED,
        [False] * 3,
    )
    assert first.calls == ["plan", "decide 1", "decide 2", "decide 3", "judge 4", "summarize"]

    rerun = Counting(SCRIPT)
    brain = CachingBrain(rerun, cache, "s.yaml", CacheMode.CACHED)
    assert explore(FOOD_APP, brain) == (Verdict.PASSED, [True] * 3)
    assert rerun.calls == [] and brain.usage().calls == 0 and brain.replayed == 6

    # The script of a brain that starts at the dialog: the tap on 麦乐送 is replayed, not asked for; the
    # two dialog screens changed and are decided; the judge on the unchanged delivery page is replayed.
    fresh = Counting(SCRIPT[1:])
    brain = CachingBrain(fresh, cache, "s.yaml", CacheMode.CACHED)
    assert explore(changed_app, brain) == (Verdict.PASSED, [True, False, False])
    assert fresh.calls == ["decide 2", "decide 3", "summarize"]
    assert "no recorded decision for state state_productmdslist_" in brain.divergence
    stored = json.loads(newest_file(cache, "s.yaml", "delivery time").read_text(encoding="utf-8"))
    assert [s["step"] for s in stored["steps"]] == [1, 2, 3, 4]


def test_a_changed_goal_makes_the_recording_stale(tmp_path: Path) -> None:
    cache = DecisionCache(tmp_path)
    explore(FOOD_APP, CachingBrain(Counting(SCRIPT), cache, "s.yaml", CacheMode.RECORD))
    strict = CachingBrain(None, cache, "s.yaml", CacheMode.STRICT)
    target = dataclasses.replace(TARGET, goal="another goal")
    result = Explorer(VirtualDevice(FOOD_APP, latency=False), strict).explore(target, MISSION)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "the feature in the spec changed since it was recorded" in result.reason


def test_record_and_cached_modes_need_a_live_brain(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs a live brain"):
        CachingBrain(None, DecisionCache(tmp_path), "s.yaml", CacheMode.CACHED)


def test_a_broken_recording_ends_strict_replay_inconclusive_and_is_recorded_anew_when_cached(
    tmp_path: Path,
) -> None:
    cache = DecisionCache(tmp_path)
    folder = cache.item_folder("s.yaml", TARGET.feature)
    folder.mkdir(parents=True)
    (folder / "0123456789abcdef.json").write_text("{", encoding="utf-8")
    strict = CachingBrain(None, cache, "s.yaml", CacheMode.STRICT)
    result = Explorer(VirtualDevice(FOOD_APP, latency=False), strict).explore(TARGET, MISSION)
    assert result.verdict is Verdict.INCONCLUSIVE and "not valid JSON" in result.reason

    with pytest.warns(CacheWarning, match="decision cache: .*not valid JSON.*no version of it can be read"):
        verdict, _ = explore(FOOD_APP, CachingBrain(Counting(SCRIPT), cache, "s.yaml", CacheMode.CACHED))
    assert verdict is Verdict.PASSED
    assert cache.newest("s.yaml", TARGET.feature) is not None
