"""Every item has its own folder in the session store, whatever the length of its id: a readable name cut
to fit and a digest of the whole id (report/store.py `item_folder_name`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.report.store import ITEM_NAME_CHARS, item_folder_name, slug
from tests.specs import FOOD_APP_BLOCK

ITEMS = 40
# Long feature names that agree on their first 100 characters: cut alone, they would share folders.
PREFIX = "check that the delivery-time dialog opens from the menu page and keeps what was chosen, case "


def test_forty_items_with_long_ids_get_forty_folders_each_with_its_own_steps(suite: pytest.Pytester) -> None:
    features = "".join(
        f"  - name: {PREFIX}{n:02d}\n    goal: 打开麦乐送\n    max_steps: 1\n    done_when:\n      - visible: 已下单\n"
        for n in range(ITEMS)
    )
    spec = suite.path / "specs" / "deep" / "test_long_names.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(
        FOOD_APP_BLOCK.replace("food/app.yaml", "../../food/app.yaml") + features, encoding="utf-8"
    )
    result = suite.runpytest("-p", "no:xdist", "-q")
    assert result.parseoutcomes()["inconclusive"] == ITEMS, "one step each, the done-when never met"
    folders = sorted(p for p in suite.path.glob(".fairy/sessions/*/*") if p.is_dir())
    assert len(folders) == ITEMS
    named = set()
    for folder in folders:
        target = json.loads((folder / "target.json").read_text(encoding="utf-8"))["target"]
        named.add(target["feature"])
        assert folder.name == item_folder_name(f"specs/deep/test_long_names.yaml::{target['feature']}")
        assert len((folder / "steps.jsonl").read_text(encoding="utf-8").splitlines()) == 1
    assert named == {f"{PREFIX}{n:02d}" for n in range(ITEMS)}


@given(st.text(min_size=1), st.text(min_size=1))
def test_two_item_ids_never_share_a_folder_name(one: str, other: str) -> None:
    if one != other:
        assert item_folder_name(one) != item_folder_name(other)
    assert len(item_folder_name(one)) <= ITEM_NAME_CHARS + 9


def test_a_folder_name_reads_as_its_item() -> None:
    name = item_folder_name("test_food.yaml::delivery time")
    assert name.startswith("test_food.yaml_delivery_time-") and name == item_folder_name(
        "test_food.yaml::delivery time"
    )
    assert slug("a b") == slug("a_b") and item_folder_name("a b") != item_folder_name("a_b")


@pytest.mark.parametrize(
    "item", ["../../work/todo/test_todo.yaml::delete a task", "/work/todo/test_todo.yaml::delete a task"]
)
def test_a_spec_outside_the_rootdir_names_its_folder_by_its_folder_and_file(item: str) -> None:
    name = item_folder_name(item)
    assert name.startswith("todo_test_todo.yaml_delete_a_task-")
    assert name != item_folder_name("todo/test_todo.yaml::delete a task")  # the digest is of the whole id


def test_a_run_keeps_the_newest_sessions_and_removes_the_older(suite: pytest.Pytester) -> None:
    for n in range(3):
        (suite.path / ".fairy" / "sessions" / f"20200101_00000{n}_000000").mkdir(parents=True)
    spec = (
        FOOD_APP_BLOCK
        + "  - name: open\n    goal: 打开麦乐送\n    max_steps: 1\n    done_when:\n      - visible: 麦乐送\n"
    )
    (suite.path / "test_food.yaml").write_text(spec, encoding="utf-8")
    suite.runpytest("-p", "no:xdist", "-o", "fairy_keep_sessions=2").assert_outcomes(passed=1)
    left = sorted(p.name for p in (suite.path / ".fairy" / "sessions").iterdir() if p.is_dir())
    assert len(left) == 2 and left[0] == "20200101_000002_000000", left  # the newest old one, and this run's
