"""An open exploration once every screen's actions are taken: what is still worth its budget.

A screen's Back it left by the Up button, a form's submit after another choice on it, and a screen seen
before the app's data changed (the saved item it now lists) are each a way of the app's map not yet taken.
"""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.brain.open_exploration import OpenExploration
from pytest_fairy.brain.walk_back import WalkBack
from pytest_fairy.explore.action import ActionKind
from pytest_fairy.explore.record import StepRecord
from tests.explorer.inline_apps import Recorded, explore_inline
from tests.screens import button, screen_of

# A clinic: a booking form with a choice of department and a submit, a meal with a choice of size and a
# button that stays on its page, a recipe to save, and a favourites page that lists what was saved (left by
# Back alone, taken on the first visit).
APP = """
app: {package: com.example.clinic, name: 诊所, launch: home}
variables: {dept: 内科, saved: false, size: 小份}
screens:
  - id: home
    activity: .HomeActivity
    title: 首页
    up: false
    elements:
      - {id: tv_favourites, text: 我的收藏, on_tap: [{go: favourites}]}
      - {id: tv_book, text: 预约挂号, on_tap: [{go: form}]}
      - {id: tv_recipe, text: 养生食谱, on_tap: [{go: recipe}]}
      - {id: tv_meal, text: 营养套餐, on_tap: [{go: meal}]}
  - id: favourites
    activity: .FavouritesActivity
    title: 我的收藏
    up: false
    elements:
      - {id: tv_empty, text: 暂无收藏, when: "not saved"}
      - {id: tv_saved, text: 山药排骨汤, when: saved}
  - id: form
    activity: .BookingActivity
    title: 预约挂号
    elements:
      - class: RadioGroup
        id: rg_dept
        children:
          - {class: RadioButton, id: rb_internal, text: 内科, group: dept, value: 内科}
          - {class: RadioButton, id: rb_surgery, text: 外科, group: dept, value: 外科}
      - {class: Button, id: btn_submit, text: 提交预约, on_tap: [{go: booked}]}
  - id: booked
    activity: .BookedActivity
    title: 预约成功
    elements:
      - {id: tv_booked, text: "已预约{var:dept}"}
  - id: meal
    activity: .MealActivity
    title: 营养套餐
    elements:
      - class: RadioGroup
        id: rg_size
        children:
          - {class: RadioButton, id: rb_small, text: 小份, group: size, value: 小份}
          - {class: RadioButton, id: rb_large, text: 大份, group: size, value: 大份}
      - {class: Button, id: btn_add, text: 加入购物车, on_tap: [{toast: 已加入购物车}]}
  - id: recipe
    activity: .RecipeActivity
    title: 山药排骨汤
    elements:
      - {class: Button, id: btn_save, text: 收藏, on_tap: [{set: {saved: true}}, {toast: 已收藏}]}
"""
SPEC = """
app: {name: 诊所, package: com.example.clinic, virtual: app.yaml}
features:
  - name: explore the app
    goal: explore every screen
    max_steps: 60
"""


def explored(tmp_path: Path) -> list[StepRecord]:
    sink = Recorded()
    explore_inline(tmp_path, APP, SPEC, sinks=[sink])
    return sink.steps


def actions_on(steps: list[StepRecord], title: str) -> list[str]:
    return [s.action or "" for s in steps if s.title == title]


# -- the memory -----------------------------------------------------------------------------------------


def test_screens_seen_before_the_data_changed_are_stale_until_seen_again() -> None:
    memory = OpenExploration()
    memory.saw("favourites", screen_of(button("返回", 1)))
    memory.saw("recipe", screen_of(button("收藏", 1)))
    assert memory.stale() == {}
    memory.changed_data()  # the recipe saved, on its own screen
    memory.saw("recipe", screen_of(button("收藏", 1)))
    assert memory.stale() == {"favourites": 1}
    memory.saw("favourites", screen_of(button("返回", 1)))
    assert memory.stale() == {}


def test_screens_whose_back_is_untried_are_work_for_a_walk() -> None:
    memory = OpenExploration()
    memory.saw("home", screen_of(button("预约挂号", 1)))
    memory.saw("form", screen_of(button("提交预约", 1)))
    memory.backed("home")
    assert memory.unbacked() == {"form": 1}


def test_a_walk_for_an_untried_back_never_heads_out_of_the_app() -> None:
    memory, walk = OpenExploration(), WalkBack()
    for state in ("home", "form", "launcher"):
        walk.stood_on(state, outside=state == "launcher")
        memory.saw(state, screen_of(button("返回", 1)))
    walk.learn("home", "back|", ActionKind.BACK, "", "launcher")
    assert walk.inside(memory.unbacked()) == {"home": 1, "form": 1}


# -- on an app --------------------------------------------------------------------------------------------


# Two screens and nothing that changes the app's data.
ABOUT_APP = """
app: {package: com.example.about, name: 关于, launch: home}
screens:
  - id: home
    activity: .HomeActivity
    title: 首页
    up: false
    elements:
      - {id: tv_about, text: 关于我们, on_tap: [{go: about}]}
  - id: about
    activity: .AboutActivity
    title: 关于我们
    elements:
      - {text: 版本 1.0}
"""


def test_a_screen_left_by_its_up_button_still_gets_its_back_taken(tmp_path: Path) -> None:
    sink = Recorded()
    explore_inline(
        tmp_path,
        ABOUT_APP,
        SPEC.replace("诊所, package: com.example.clinic", "关于, package: com.example.about"),
        sinks=[sink],
    )
    on_about = actions_on(sink.steps, "关于我们")
    assert on_about[0] == "tap [1] Navigate up" and "back" in on_about, on_about


def test_a_forms_submit_is_tried_again_after_another_choice_on_it(tmp_path: Path) -> None:
    # Choosing 外科 leaves the form's state as it was (a choice is its content), where the submit was
    # tried: it is worth another try at once, for the booking 外科 makes.
    on_form = actions_on(explored(tmp_path), "预约挂号")
    surgery = next(i for i, action in enumerate(on_form) if action.endswith("] 外科"))
    assert any("提交预约" in action for action in on_form[:surgery]), on_form
    assert on_form[surgery + 1].endswith("] 提交预约"), on_form


def test_a_submit_that_stayed_on_its_page_is_not_tried_again_after_another_choice(tmp_path: Path) -> None:
    on_meal = actions_on(explored(tmp_path), "营养套餐")
    assert [a for a in on_meal if a.endswith("] 加入购物车")] == ["tap [4] 加入购物车"], on_meal
    assert any(a.endswith("] 大份") for a in on_meal), on_meal


def test_a_screen_seen_before_something_was_saved_is_visited_again(tmp_path: Path) -> None:
    steps = explored(tmp_path)
    saved = next(
        i for i, s in enumerate(steps) if s.action and s.action.endswith("] 收藏") and s.title == "山药排骨汤"
    )
    assert any(s.title == "我的收藏" for s in steps[:saved]), [s.action for s in steps]  # seen before
    assert any(s.title == "我的收藏" for s in steps[saved + 1 :]), [(s.title, s.action) for s in steps]
