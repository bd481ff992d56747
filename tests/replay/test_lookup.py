"""Finding a recorded step by screen, and the feature's progress it is matched on (replay/lookup.py)."""

from __future__ import annotations

from pytest_fairy.explore.decisions import Decision, Origin
from pytest_fairy.replay.lookup import Progress, RecordedSteps, condition_of
from pytest_fairy.replay.recording import RecordedStep, Recording, StepKey

SHOWN = "visible: 已下单"
HIDDEN = "not_visible: 请选择您的送达时间"


def step(state: str, visit: int, after: str, content: str = "c1", progress: str = "p1") -> RecordedStep:
    return RecordedStep(state, visit, after, content=content, progress=progress)


def steps(*recorded: RecordedStep) -> RecordedSteps:
    return RecordedSteps(Recording("s.yaml", "f", "t", steps=list(recorded)))


def test_by_screen_a_step_needs_its_own_state_content_and_progress() -> None:
    recorded = step("A", 0, "tap|x||")
    here = StepKey("A", 3, "tap|y||")  # another visit, reached another way: positions no longer count
    assert steps(recorded).like(StepKey("B", 0, "tap|x||"), "c1", "p1") is None
    assert steps(recorded).like(here, "c2", "p1") is None
    assert steps(recorded).like(here, "c1", "p2") is None
    assert steps(recorded).like(here, "c1", "p1") is recorded


def test_steps_recorded_without_content_or_progress_are_found_on_the_path_only() -> None:
    old = RecordedStep("A", 0, "")
    assert steps(old).like(StepKey("A", 0, ""), "c1", "p1") is None
    assert steps(old).at(StepKey("A", 0, "")) is old


def test_a_screen_visited_again_replays_its_decisions_in_their_recorded_order_once_each() -> None:
    first, second = step("A", 0, ""), step("A", 1, "back||")
    found = steps(first, second)
    assert [found.like(StepKey("A", 7, "x"), "c1", "p1") for _ in range(3)] == [first, second, None]

    # The step at the run's own position goes first, and is not found again by position.
    found = steps(first, second)
    assert found.like(second.key, "c1", "p1") is second
    assert found.at(second.key) is None
    assert found.like(StepKey("A", 0, "x"), "c1", "p1") is first


def test_an_unmet_condition_is_known_without_its_evidence() -> None:
    assert condition_of(f"{SHOWN} (no view shows '已下单')") == SHOWN
    assert condition_of(f"{HIDDEN} (on screen: TextView '请选择您的送达时间 (必选)')") == HIDDEN
    assert condition_of("text_matches: ^订单 \\(\\d+\\)$") == "text_matches: ^订单 \\(\\d+\\)$"
    assert condition_of(SHOWN) == SHOWN


def test_progress_counts_the_conditions_met_once_and_all_at_once() -> None:
    def after(*screens: tuple[tuple[str, ...], bool]) -> str:
        progress = Progress()
        for unmet, held in screens:
            progress.saw(unmet, held)
        return progress.digest()

    start = after(((SHOWN, f"{HIDDEN} (on screen: x)"), False))
    # The same conditions unmet, whatever the screens say of them: no progress.
    assert after(((SHOWN, f"{HIDDEN} (on screen: y)"), False), ((SHOWN, HIDDEN), False)) == start
    one_met = after(((SHOWN, HIDDEN), False), ((HIDDEN,), False))
    both_met_apart = after(((SHOWN,), False), ((HIDDEN,), False))
    both_met_together = after(((SHOWN,), False), ((), True))
    assert len({start, one_met, both_met_apart, both_met_together}) == 4


def test_progress_counts_the_sub_feature_worked_on_and_those_done() -> None:
    progress = Progress()
    progress.saw((SHOWN,), False)
    start = progress.digest()
    progress.decided(Decision(None, "x", sub_feature="f"), feature="f")  # the feature itself: no change
    assert progress.digest() == start
    progress.decided(Decision(None, "x", sub_feature="menu"), feature="f")
    on_menu = progress.digest()
    progress.witnessed(Decision(None, "escape", sub_feature="menu", origin=Origin.ESCAPE))
    assert progress.digest() == on_menu != start
    progress.witnessed(Decision(None, "return step", sub_feature="menu", origin=Origin.RETURN))
    assert progress.digest() not in (start, on_menu)
