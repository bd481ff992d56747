"""The offline brain's strategy, observed through whole explorations of the example apps."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.explorer.inline_apps import Recorded

ROOT = Path(__file__).resolve().parents[2] / "example_suites"


NEVER_SEEN = (Oracle(kind=OracleKind.VISIBLE, value="不存在的文字"),)


def explore(
    app: str,
    package: str,
    goal: str,
    steps: int,
    done_when: tuple[Oracle, ...] = NEVER_SEEN,
    **target: object,
) -> tuple[Exploration, list[StepRecord]]:
    sink = Recorded()
    device = VirtualDevice(ROOT / app, latency=False)
    result = Explorer(device, OfflineBrain(), sinks=[sink]).explore(
        Target(app_name=app, package=package, feature=goal, goal=goal, max_steps=steps, **target),  # type: ignore[arg-type]
        Mission(done_when=done_when),
    )
    return result, sink.steps


def test_fills_a_form_before_submitting_it() -> None:
    _, steps = explore("notes", "com.example.notes", "log in", 3)
    assert [s.action.split()[0] for s in steps if s.action] == ["type", "type", "tap"]
    assert steps[2].action is not None and steps[2].action.endswith("登录")
    assert steps[2].outcome.startswith("tap [3] 登录: new page")


def test_open_exploration_tries_a_forms_links_before_its_submit_and_refills_it() -> None:
    # No done-when oracle: logging in would leave the login page for good, so 忘记密码 and 注册 first.
    _, steps = explore("notes", "com.example.notes", "explore the app", 12, done_when=())
    actions = [s.action or "" for s in steps]
    login = next(i for i, a in enumerate(actions) if a.endswith("登录"))
    assert any(a.endswith("忘记密码？") for a in actions[:login]), actions
    assert any(a.endswith("注册新账号") for a in actions[:login]), actions
    # Nor are its fields filled before those links: what is typed there would be lost on leaving.
    login_page = [a for s, a in zip(steps, actions, strict=True) if s.title == "登录随手记"]
    links = max(i for i, a in enumerate(login_page) if a.endswith(("忘记密码？", "注册新账号")))
    assert not [a for a in login_page[:links] if a.startswith("type")], actions
    # 注册 opened the browser and the app was relaunched: its form is empty, so it is filled right
    # before the submit (in an open exploration a field waits for the submit that needs it).
    assert "restart" in actions[:login]
    assert [a.split()[0] for a in actions[login - 2 : login]] == ["type", "type"]
    assert steps[login].outcome.startswith("tap [3] 登录: new page")


def test_never_spends_a_step_on_what_the_policy_denies() -> None:
    _, steps = explore("notes", "com.example.notes", "explore the settings", 60)
    assert not [s for s in steps if s.denial], [s.action for s in steps if s.denial]
    assert not [s for s in steps if s.action and ("退出登录" in s.action or "注销账号" in s.action)]


def test_whole_app_run_samples_lists_walks_back_and_ends_when_spent() -> None:
    result, steps = explore("food", "com.mcdonalds.gma.cn", "explore everything", 200)
    # 30 stores open the same menu page: two of them tell that, the other 28 are skipped.
    # (A walk may use a store row again as the known way to the menu; it tries no third one.)
    # (A row is named by what it shows in full: its name, or its distance when the name is cut off.)
    stores = {
        s.action.split("] ", 1)[1]
        for s in steps
        if s.action and s.state.startswith("state_pickupstore") and "productmdslist" in s.outcome
    }
    assert len(stores) == 2, stores
    assert any(s.reasoning.startswith("walk back towards unfinished page") for s in steps)
    # The run ends because nothing is left, not because the budget ran out.
    assert result.steps < 200
    # Out of ideas, with the done-when oracle unmet: the judge says there is more, so no app defect.
    assert result.verdict is Verdict.INCONCLUSIVE and result.reason.startswith("the brain stopped early")
    assert len(result.tree.states) >= 18  # a list at another offset is no state of its own
