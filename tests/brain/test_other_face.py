"""A button whose tap turns it into its other face (`Like` into `Liked`, and back): in a feature's search,
the other face is not tapped, at once or when the page is seen again, which would undo what the feature
did. Nor is a switch the done-when wants checked, once it is on."""

from __future__ import annotations

from pathlib import Path

from tests.explorer.inline_apps import Recorded, explore_inline

APP = (
    """
app: {name: Songs, package: com.example.songs, launch: home}
variables: {liked1: false, liked3: false}
screens:
  - id: home
    activity: .HomeActivity
    title: Songs
    up: false
    elements:
      - {id: row_1, text: Track 1, on_tap: [{go: track1}]}
      - {id: row_3, text: Track 3, on_tap: [{go: track3}]}
      - {id: tv_library, text: Library, on_tap: [{go: library}]}
"""
    + "".join(
        f"""
  - id: track{n}
    activity: .Track{n}Activity
    title: Track {n}
    elements:
      - {{class: Button, id: btn_like, text: Like, when: not liked{n},
         on_tap: [{{set: {{liked{n}: true}}}}, {{toast: Added to Liked Songs}}]}}
      - {{class: Button, id: btn_liked, text: Liked, when: liked{n}, on_tap: [{{set: {{liked{n}: false}}}}]}}
"""
        for n in (1, 3)
    )
    + """
  - id: library
    activity: .LibraryActivity
    title: Library
    elements:
      - {text: Liked Songs, style: title}
      - {text: Track 1, when: liked1}
      - {text: Track 3, when: liked3}
      - {text: No liked songs yet, when: "not liked1 and not liked3"}
"""
)
SPEC = """
app: {{name: Songs, package: com.example.songs, virtual: app.yaml}}
features:
  - name: {name}
    goal: {goal}
    max_steps: 30
    done_when:
      - activity: .LibraryActivity
      - {done}
"""


def explored(tmp_path: Path, goal: str, done: str, app: str = APP) -> tuple[str, list[tuple[str, str]]]:
    sink = Recorded()
    result = explore_inline(
        tmp_path, app, SPEC.format(name="the library", goal=goal, done=done), sinks=[sink]
    )
    return result.verdict.value, [(step.title, step.action or "") for step in sink.steps]


def test_a_like_is_not_undone_by_its_other_face(tmp_path: Path) -> None:
    verdict, steps = explored(tmp_path, "like Track 3 and find it under Liked Songs", "visible: Track 3")
    assert ("Track 3", "tap [2] Like") in steps
    assert ("Track 3", "tap [2] Liked") not in steps, steps
    assert verdict == "passed", steps


def test_an_unlike_is_not_undone_by_its_other_face(tmp_path: Path) -> None:
    liked = APP.replace(
        "variables: {liked1: false, liked3: false}", "variables: {liked1: false, liked3: true}"
    )
    verdict, steps = explored(
        tmp_path, "unlike Track 3, so the library no longer lists it", "not_visible: Track 3", liked
    )
    assert ("Track 3", "tap [2] Liked") in steps
    assert ("Track 3", "tap [2] Like") not in steps, steps
    assert verdict == "passed", steps


def test_an_open_exploration_takes_the_other_face_as_a_way_of_the_map(tmp_path: Path) -> None:
    sink = Recorded()
    open_spec = SPEC.format(name="the app", goal="explore every screen", done="").split("    done_when:")[0]
    explore_inline(tmp_path, APP, open_spec, sinks=[sink])
    steps = [(step.title, step.action or "") for step in sink.steps]
    liked = steps.index(("Track 3", "tap [2] Like"))
    assert steps[liked + 1] == ("Track 3", "tap [2] Liked"), steps


REMINDER_APP = """
app: {name: 燃动健身, package: com.example.reminder, launch: settings}
variables: {remind_on: false, remind_time: "07:00"}
screens:
  - id: settings
    activity: .SettingsActivity
    title: 设置
    up: false
    elements:
      - {class: Switch, id: sw_remind, text: 打卡提醒, var: remind_on}
      - {text: "提醒时间 {var:remind_time}", id: row_time, when: remind_on, on_tap: [{dialog: times}]}
      - {id: row_cache, text: 清理缓存, on_tap: [{toast: 已清理}]}
dialogs:
  - id: times
    title: 选择提醒时间
    elements:
      - {class: RadioButton, id: rb_0700, text: "07:00", group: remind_time, value: "07:00"}
      - {class: RadioButton, id: rb_2000, text: "20:00", group: remind_time, value: "20:00"}
      - {class: Button, id: btn_ok, text: 确定, on_tap: [close]}
"""
REMINDER_SPEC = """
app: {name: 燃动健身, package: com.example.reminder, virtual: app.yaml}
features:
  - name: evening check-in reminder
    goal: 打开 打卡提醒，并把 提醒时间 设为 20:00
    max_steps: 12
    done_when:
      - checked: 打卡提醒
      - visible: 提醒时间 20:00
"""


def test_a_switch_the_done_when_wants_checked_is_left_on(tmp_path: Path) -> None:
    sink = Recorded()
    result = explore_inline(tmp_path, REMINDER_APP, REMINDER_SPEC, sinks=[sink])
    actions = [step.action or "" for step in sink.steps]
    assert sum(action.endswith("打卡提醒") for action in actions) == 1, actions
    assert result.verdict.value == "passed", (result.reason, actions)
