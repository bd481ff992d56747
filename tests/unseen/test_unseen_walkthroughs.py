"""Each unseen app's features walked by hand on the virtual device (see README.md beside this file).

On the clean twin the way reaches the feature's done-when; on the bug twin the same way shows the bug.
Only pytest_fairy's public API is used (`VirtualDevice`, `Key`); elements are found in the dump by their
text, content-desc or resource-id, and tapped at their centre, as a person would.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from pytest_fairy import Key

HERE = Path(__file__).resolve().parent

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass
class Node:
    text: str
    desc: str
    rid: str
    bounds: tuple[int, int, int, int]
    attrs: dict[str, str]

    @property
    def centre(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    def labels(self) -> list[str]:
        return [self.text, self.desc, self.rid.rsplit("/", 1)[-1]]


class Phone:
    """One app of this folder on a fresh virtual device, driven by labels."""

    def __init__(self, folder: str) -> None:
        self.device = VirtualDevice(HERE / folder / "app.yaml", latency=False)
        self.package = self.device.app_model.app.package
        self.device.launch(self.package)

    def nodes(self) -> list[Node]:
        root = ET.fromstring(self.device.dump_hierarchy())
        found = []
        for element in root.iter("node"):
            match = _BOUNDS.fullmatch(element.get("bounds", ""))
            if match is None:
                continue
            found.append(Node(element.get("text", ""), element.get("content-desc", ""),
                              element.get("resource-id", ""),
                              tuple(int(v) for v in match.groups()), dict(element.attrib)))
        return found

    def find(self, label: str) -> Node | None:
        nodes = self.nodes()
        for node in reversed(nodes):            # the top window is dumped last
            if label in (node.text, node.desc) or node.rid.endswith("/" + label):
                return node
        for node in reversed(nodes):
            if any(label in text for text in (node.text, node.desc)):
                return node
        return None

    def tap(self, label: str) -> None:
        node = self.find(label)
        assert node is not None, f"no {label!r} on screen:\n{self.screen_text()}"
        self.device.tap(*node.centre)

    def type_into(self, label: str, text: str) -> None:
        self.tap(label)
        self.device.type_text(text)

    def back(self) -> None:
        self.device.press(Key.BACK)

    def screen_text(self) -> str:
        return "\n".join(t for node in self.nodes() for t in (node.text, node.desc) if t)

    def sees(self, text: str) -> bool:
        """As a done-when `visible` reads it: a view's text or content-desc, or a toast showing now."""
        lowered = text.lower()
        if any(lowered in t.lower() for node in self.nodes() for t in (node.text, node.desc)):
            return True
        return any(lowered in toast.lower() for toast in self.device.toasts())

    def checked(self, label: str) -> bool:
        node = self.find(label)
        assert node is not None, label
        return node.attrs.get("checked") == "true"

    def activity(self) -> str:
        return str(self.device.current_app())

    def scroll_list_to(self, list_id: str, label: str, max_swipes: int = 80) -> None:
        """Swipe the list up (later rows) until a row showing `label` is whole (rows are clipped to the list)."""
        for _ in range(max_swipes):
            row = self.find(label)
            lst = self.find(list_id)
            assert lst is not None, list_id
            if row is not None and row.bounds[3] - row.bounds[1] >= 150:
                return
            left, top, right, bottom = lst.bounds
            x = (left + right) // 2
            self.device.swipe(x, bottom - 100, x, bottom - 100 - min(900, (bottom - top) // 2))
        raise AssertionError(f"{label!r} not found in {list_id}")

    def crashed(self) -> bool:
        return "FATAL EXCEPTION" in self.device.logcat() and self.sees("has stopped")

    def anr(self) -> bool:
        return f"ANR in {self.package}" in self.device.logcat() and self.sees("isn't responding")


def twins(name: str):
    return pytest.mark.parametrize("folder", [f"{name}_clean", name])


# --- Set A -------------------------------------------------------------------------------------------


@twins("helpdesk_ticket")
def test_helpdesk_ticket(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("Report a problem")
    phone.tap("Submit ticket")                  # everything missing
    assert phone.sees("Please fill in the subject")
    phone.type_into("Subject", "Laptop will not boot")
    phone.type_into("Describe the problem", "Black screen after the update")
    phone.tap("Submit ticket")                  # consent missing
    assert phone.sees("Please fill in the subject")
    phone.tap("I agree that IT staff may access my laptop")
    assert phone.checked("I agree that IT staff may access my laptop")
    phone.tap("Submit ticket")
    if folder.endswith("_clean"):
        assert phone.sees("Ticket #4711 created")
        assert "TicketCreatedActivity" in phone.activity()
    else:
        assert phone.sees("Something went wrong. The ticket was not created.")
        assert not phone.sees("Ticket #4711 created")
        assert "NewTicketActivity" in phone.activity()


@twins("clinic_booking")
def test_clinic_booking_empty_submit(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("预约挂号")
    assert not phone.sees("请填写就诊人姓名")
    phone.tap("提交预约")
    if folder.endswith("_clean"):
        assert phone.sees("请填写就诊人姓名") and phone.sees("请填写手机号码")
    else:
        assert not phone.sees("请填写就诊人姓名") and not phone.sees("请填写手机号码")
        assert "BookingActivity" in phone.activity()


@twins("clinic_booking")
def test_clinic_booking_complete_form(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("预约挂号")
    phone.type_into("就诊人姓名", "李雷")
    phone.type_into("手机号码", "13800138000")
    phone.tap("儿科")
    phone.tap("提交预约")
    assert phone.sees("预约成功：儿科")            # the bug does not touch a complete form


@twins("recipe_saved")
def test_recipe_saved(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("Saved recipes")
    assert phone.sees("No saved recipes yet")
    phone.back()
    phone.tap("Shakshuka")
    assert "RecipeActivity" in phone.activity()
    phone.tap("Save recipe")
    assert phone.sees("Recipe saved")            # the toast shows on both twins
    phone.back()
    phone.tap("Saved recipes")
    assert "SavedRecipesActivity" in phone.activity()
    if folder.endswith("_clean"):
        assert phone.sees("Shakshuka") and not phone.sees("No saved recipes yet")
    else:
        assert not phone.sees("Shakshuka") and phone.sees("No saved recipes yet")


@twins("flash_sale")
def test_flash_sale(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("商品 3 ·")
    assert phone.sees("商品 3 暂时缺货")           # an ordinary row only toasts
    assert "GoodsListActivity" in phone.activity()
    phone.scroll_list_to("rv_goods", "商品 150 · 限时特价")
    phone.tap("商品 150 · 限时特价")
    if folder.endswith("_clean"):
        assert phone.sees("特价倒计时")
        assert "DealDetailActivity" in phone.activity()
    else:
        assert not phone.sees("特价倒计时")
        assert "GoodsListActivity" in phone.activity()
        assert phone.device.toasts() == [] or not any("150" in t for t in phone.device.toasts())


@twins("flash_sale")
def test_flash_sale_list_has_300_rows(folder: str) -> None:
    phone = Phone(folder)
    phone.scroll_list_to("rv_goods", "商品 300 ·", max_swipes=200)
    assert not phone.sees("商品 301")


@twins("todo_tasks")
def test_todo_add_task(folder: str) -> None:
    phone = Phone(folder)
    assert phone.sees("2 tasks")
    phone.tap("Add task")
    assert phone.sees("New task")
    phone.type_into("Task title", "Water the plants")
    phone.tap("Save")
    if folder.endswith("_clean"):
        assert phone.sees("3 tasks") and phone.sees("Water the plants")
        assert not phone.sees("New task")
    else:
        assert phone.sees("2 tasks") and not phone.sees("3 tasks")
        assert phone.sees("New task")              # the dead Save leaves the dialog open
        assert phone.device.toasts() == []


@twins("todo_tasks")
def test_todo_rename_task(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("Buy milk")
    assert phone.sees("Rename task")
    phone.type_into("New title", "Buy oat milk")
    phone.tap("Rename")
    assert phone.sees("Buy oat milk") and phone.sees("(edited)")   # not touched by the bug


# --- Set B -------------------------------------------------------------------------------------------


@twins("music_tabs")
def test_music_library_tab(folder: str) -> None:
    phone = Phone(folder)
    assert phone.sees("Made for you")
    phone.tap("Profile")
    assert phone.sees("Minutes listened")
    phone.tap("Library")
    if folder.endswith("_clean"):
        assert phone.sees("Liked songs · 128 songs")
    else:
        assert phone.crashed()
        assert "LibraryFragment.onCreateView" in phone.device.logcat()
        assert not phone.sees("Liked songs")


@twins("news_drawer")
def test_news_drawer_feedback(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("打开导航菜单")
    nav = [node.text for node in phone.nodes() if node.rid.split("/")[-1].startswith("nav_")]
    assert nav[-1] == "意见反馈"                    # the target is the drawer's last item
    phone.tap("意见反馈")
    if folder.endswith("_clean"):
        assert phone.sees("请描述您遇到的问题")
        assert "FeedbackActivity" in phone.activity()
    else:
        assert not phone.sees("请描述您遇到的问题")
        assert "AboutActivity" in phone.activity()


@twins("fitness_onboarding")
def test_fitness_onboarding(folder: str) -> None:
    phone = Phone(folder)
    assert phone.sees("Track every step")
    phone.tap("Next")
    assert phone.sees("Set a daily goal")
    phone.tap("Next")
    assert phone.sees("Stay motivated")
    phone.tap("Get started")
    if folder.endswith("_clean"):
        assert phone.sees("Today's steps")
        phone.device.stop(phone.package)           # remembered: the next launch skips the onboarding
        phone.device.launch(phone.package)
        assert phone.sees("Today's steps")
    else:
        assert phone.anr()
        assert not phone.sees("Today's steps")


@twins("fitness_onboarding")
def test_fitness_onboarding_skip(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("Skip")
    assert phone.sees("Stay motivated")


@twins("library_search")
def test_library_search(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("搜索馆藏图书")
    phone.tap("搜索")                              # no query: nothing happens
    assert "SearchActivity" in phone.activity()
    phone.type_into("书名 / 作者 / ISBN", "三体")
    phone.tap("btn_search")
    if folder.endswith("_clean"):
        assert phone.sees("《三体》 刘慈欣 · 可借 2 本")
    else:
        assert phone.sees("服务暂时不可用 (HTTP 500)")
        assert not phone.sees("可借 2 本")


@twins("library_search")
def test_library_search_enter_and_other_query(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("搜索馆藏图书")
    phone.type_into("书名 / 作者 / ISBN", "红楼梦")
    phone.device.press(Key.ENTER)
    if folder.endswith("_clean"):
        assert phone.sees("没有找到与“红楼梦”相关的图书")
    else:
        assert phone.sees("服务暂时不可用 (HTTP 500)")


@twins("reader_settings")
def test_reader_night_mode_kept(folder: str) -> None:
    phone = Phone(folder)
    assert phone.sees("Theme: Day")
    phone.tap("Settings")
    phone.tap("Night reading mode")
    assert phone.checked("Night reading mode")   # the switch itself works on both twins
    phone.back()
    if folder.endswith("_clean"):
        assert phone.sees("Theme: Night")
        phone.tap("Settings")
        assert phone.checked("Night reading mode")
    else:
        assert phone.sees("Theme: Day") and not phone.sees("Theme: Night")
        phone.tap("Settings")
        assert not phone.checked("Night reading mode")   # lost after coming back


@twins("drive_login")
def test_drive_shared_folder(folder: str) -> None:
    phone = Phone(folder)
    assert "LoginActivity" in phone.activity()      # the login wall
    phone.tap("登录")
    assert phone.sees("请输入账号和密码")
    phone.type_into("企业账号", "zhang.wei")
    phone.type_into("密码", "Dr1ve-2024")
    phone.tap("登录")
    assert phone.sees("我的文件")
    phone.tap("项目资料（共享）")
    if folder.endswith("_clean"):
        assert phone.sees("项目资料 · 12 个文件")
    else:
        assert phone.sees("加载失败（错误码 E1003）")
        assert not phone.sees("12 个文件")


@twins("parcel_sheet")
def test_parcel_express(folder: str) -> None:
    phone = Phone(folder)
    phone.tap("New shipment")
    phone.tap("Delivery speed: Standard")
    assert phone.sees("Choose delivery speed")
    phone.tap("Express (next day)")
    assert phone.checked("Express (next day)")
    phone.tap("Apply")
    assert not phone.sees("Choose delivery speed")   # the sheet closes on both twins
    if folder.endswith("_clean"):
        assert phone.sees("Delivery speed: Express")
    else:
        assert phone.sees("Delivery speed: Standard") and not phone.sees("Delivery speed: Express")


# --- the twins differ only in the bug ----------------------------------------------------------------

BUG_APPS = ["helpdesk_ticket", "clinic_booking", "recipe_saved", "flash_sale", "todo_tasks", "music_tabs",
            "news_drawer", "fitness_onboarding", "library_search", "reader_settings", "drive_login",
            "parcel_sheet"]


@pytest.mark.parametrize("name", BUG_APPS)
def test_twin_specs_are_the_same(name: str) -> None:
    clean = (HERE / f"{name}_clean" / f"test_{name}_clean.yaml").read_text(encoding="utf-8")
    bug = (HERE / name / f"test_{name}.yaml").read_text(encoding="utf-8")
    assert clean.replace(f"{name}_clean/test_{name}_clean.yaml", f"{name}/test_{name}.yaml") == bug


def test_every_feature_has_an_expected_verdict() -> None:
    import yaml

    from pytest_fairy import load_spec

    expected = yaml.safe_load((HERE / "expected.yaml").read_text(encoding="utf-8"))
    specs = sorted(HERE.glob("*/test_*.yaml"))
    assert len(specs) == 2 * len(BUG_APPS)
    for spec_path in specs:
        key = f"{spec_path.parent.name}/{spec_path.name}"
        names = {feature.name for feature in load_spec(spec_path).features}
        assert set(expected[key]) == names, key
        for name, row in expected[key].items():
            bug_twin = not spec_path.parent.name.endswith("_clean")
            assert row["verdict"] in ("passed", "failed"), (key, name)
            if row["verdict"] == "failed":
                assert bug_twin and row.get("bug_at"), (key, name)
