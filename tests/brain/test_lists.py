"""The offline brain explores lists as lists: scrolled to their end, rows sampled by where they lead,
what the feature waits for searched for by scrolling. Whole runs on small virtual apps."""

from __future__ import annotations

from pathlib import Path

import yaml

from fairy_virtual import VirtualDevice
from pytest_fairy.brain.candidates import SEARCH_SCROLLS
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.record import Exploration, StepRecord
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.explorer.inline_apps import Recorded

PKG = "com.example.goods"


def goods_app(tmp_path: Path, rows: int, *, same_page: bool = True) -> Path:
    """A list of `rows` products. Each row opens the product page (`same_page`), or row i its own kind
    of page (a settings list whose rows lead to different screens)."""
    screens: list[dict[str, object]] = [
        {
            "id": "home",
            "activity": ".MainActivity",
            "title": "全部商品",
            "elements": [
                {
                    "class": "RecyclerView",
                    "id": "rv_goods",
                    "list": {
                        "rows": rows,
                        "row_height": 200,
                        "row": {
                            "class": "LinearLayout",
                            "id": "goods_item",
                            "children": [{"class": "TextView", "id": "tv_name", "text": "商品 {i}"}],
                        },
                        "on_tap": [{"set": {"current": "{i}"}}, {"go": "detail"}],
                    },
                }
            ],
        },
        {
            "id": "detail",
            "activity": ".DetailActivity",
            "title": "商品详情",
            "elements": [
                {"class": "TextView", "id": "tv_title", "text": "商品 {var:current}"},
                {"class": "Button", "id": "btn_fav", "text": "收藏", "on_tap": [{"set": {"fav": True}}]},
                {"class": "TextView", "id": "tv_fav", "text": "已收藏", "when": "fav"},
            ],
        },
    ]
    if not same_page:
        rows_list = [
            {"class": "TextView", "text": f"设置项 {i}", "on_tap": [{"go": f"page{i}"}]} for i in range(rows)
        ]
        screens[0]["elements"] = [{"class": "RecyclerView", "id": "rv_goods", "list": {"rows": rows_list}}]
        screens[1:] = [
            {
                "id": f"page{i}",
                "activity": f".Page{i}Activity",
                "title": f"页面 {i}",
                "elements": [
                    {"class": "Switch" if i % 2 else "EditText", "id": f"w{i}", "text": f"控件 {i}"}
                ],
            }
            for i in range(rows)
        ]
    model = {
        "app": {"package": PKG, "name": "好物", "launch": "home"},
        "variables": {"current": 0, "fav": False},
        "screens": screens,
    }
    path = tmp_path / "app.yaml"
    path.write_text(yaml.safe_dump(model, allow_unicode=True), "utf-8")
    return path


def explore(app: Path, goal: str, wanted: str, steps: int = 60) -> tuple[Exploration, list[StepRecord]]:
    sink = Recorded()
    target = Target(app_name="好物", package=PKG, feature=goal, goal=goal, max_steps=steps)
    oracle = Oracle(kind=OracleKind.VISIBLE, value=wanted)
    result = Explorer(VirtualDevice(app, latency=False), OfflineBrain(), sinks=[sink]).explore(
        target, Mission(done_when=(oracle,))
    )
    return result, sink.steps


def actions(records: list[StepRecord]) -> list[str]:
    return [r.action or "" for r in records]


def test_a_row_the_goal_names_is_searched_for_by_scrolling_to_it(tmp_path: Path) -> None:
    result, records = explore(goods_app(tmp_path, 120), "浏览到最后一件商品（商品 120）", "商品 120")
    assert result.verdict is Verdict.PASSED, result.reason
    # Every step scrolled: no row that only resembles it (商品 7) was opened on the way.
    assert all(a.startswith("scroll") for a in actions(records)), actions(records)
    # Each scroll showed new rows: progress, never 'no change', never a loop.
    assert all("page content changed" in r.outcome and r.guard == "ok" for r in records)


def test_what_does_not_look_like_a_row_is_searched_for_a_few_screens_only(tmp_path: Path) -> None:
    result, records = explore(goods_app(tmp_path, 120), "打开任意一件商品，点「收藏」", "已收藏")
    assert result.verdict is Verdict.PASSED, result.reason
    first_row = next(i for i, a in enumerate(actions(records)) if "商品" in a)
    assert actions(records)[:first_row] == [actions(records)[0]] * SEARCH_SCROLLS
    assert len(records) <= SEARCH_SCROLLS + 2


def test_a_list_is_scrolled_to_its_end_and_no_further(tmp_path: Path) -> None:
    result, records = explore(goods_app(tmp_path, 30), "explore the goods", "不存在的文字", steps=80)
    scrolls = [r for r in records if (r.action or "").startswith("scroll")]
    # The end: one scroll that moved nothing, and the list is not scrolled again.
    assert [r.outcome.endswith("no change") for r in scrolls] == [False] * (len(scrolls) - 1) + [True]
    assert "not scrolled" not in result.reason  # nothing left of the list


def test_rows_that_open_one_kind_of_page_are_sampled_not_opened_one_by_one(tmp_path: Path) -> None:
    result, records = explore(goods_app(tmp_path, 30), "explore the goods", "不存在的文字", steps=80)
    opened = {a for a in actions(records) if "商品" in a and a.startswith("tap")}
    assert len(opened) == 2, opened
    # The rest counts as covered: the run exhausted the app. A row opening 商品详情 is no wrong screen
    # (`商品 10` does not name it), so nothing shows the app at fault.
    assert result.verdict is Verdict.INCONCLUSIVE and "explored the feature to its end" in result.reason


def test_rows_that_open_other_pages_are_each_opened(tmp_path: Path) -> None:
    _, records = explore(goods_app(tmp_path, 6, same_page=False), "explore the settings", "不存在的文字")
    opened = {a.split("] ", 1)[1] for a in actions(records) if "设置项" in a}
    assert opened == {f"设置项 {i}" for i in range(6)}
