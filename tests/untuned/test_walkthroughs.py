"""Hand-written walkthroughs of the untuned apps on the virtual device, as a human tester would do them.

Each test drives `VirtualDevice` by labels (tap what you read) and swipes, and checks that every clean
feature reaches its done_when text and every seeded bug shows itself (a crash, nothing happening, the
wrong screen). Nothing here uses the explorer: no import from pytest_fairy.brain / explore / perception.
"""

from __future__ import annotations

import difflib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from fairy_virtual import ManualClock, VirtualDevice
from pytest_fairy import load_spec

HERE = Path(__file__).resolve().parent
EXPECTED = yaml.safe_load((HERE / "expected.yaml").read_text(encoding="utf-8"))
SPECS = sorted(HERE.glob("*/test_*.yaml"))
BACK = 4


# ---------------------------------------------------------------- driving the device by hand


@dataclass
class View:
    text: str
    desc: str
    rid: str
    cls: str
    package: str
    checked: bool
    bounds: tuple[int, int, int, int]

    @property
    def short_id(self) -> str:
        return self.rid.rsplit("/", 1)[-1]

    @property
    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2


def _bounds(raw: str) -> tuple[int, int, int, int]:
    left_top, right_bottom = raw[1:-1].split("][")
    left, top = (int(v) for v in left_top.split(","))
    right, bottom = (int(v) for v in right_bottom.split(","))
    return left, top, right, bottom


def views(device: VirtualDevice) -> list[View]:
    """Every view of a fresh dump, topmost window first."""
    root = ET.fromstring(device.dump_hierarchy().encode("utf-8"))
    found: list[View] = []
    for window in reversed(list(root)):
        for node in window.iter("node"):
            found.append(
                View(
                    node.get("text", ""),
                    node.get("content-desc", ""),
                    node.get("resource-id", ""),
                    node.get("class", ""),
                    node.get("package", ""),
                    node.get("checked") == "true",
                    _bounds(node.get("bounds", "[0,0][0,0]")),
                )
            )
    return found


def find(device: VirtualDevice, label: str) -> View:
    """The first view (topmost window first) whose text, content-desc or id name is `label`."""
    for view in views(device):
        if label in (view.text, view.desc, view.short_id):
            return view
    raise LookupError(f"nothing labelled {label!r} on screen; texts: {texts(device)}")


def tap(device: VirtualDevice, label: str) -> None:
    device.tap(*find(device, label).center)


def texts(device: VirtualDevice) -> list[str]:
    return [v.text for v in views(device) if v.text]


def visible(device: VirtualDevice, text: str) -> bool:
    """The spec's `visible`: some view's text or content-desc (or a showing toast) contains it."""
    needle = text.lower()
    shown = [v.text for v in views(device)] + [v.desc for v in views(device)] + device.toasts()
    return any(needle in s.lower() for s in shown)


def scroll_to(device: VirtualDevice, list_id: str, label: str, max_swipes: int = 60) -> int:
    """Swipe the list up (later rows) until a view labelled `label` shows fully; return the swipes."""
    for swipes in range(max_swipes + 1):
        try:
            view = find(device, label)
        except LookupError:
            pass
        else:
            if view.bounds[3] - view.bounds[1] > 40:
                return swipes
        left, top, right, bottom = find(device, list_id).bounds
        x = (left + right) // 2
        device.swipe(x, bottom - 60, x, top + 60)
    raise AssertionError(f"{label!r} not found after {max_swipes} swipes")


def type_into(device: VirtualDevice, field: str, text: str) -> None:
    tap(device, field)
    device.type_text(text)


def start(app: str, package: str) -> VirtualDevice:
    device = VirtualDevice(HERE / app, latency=False, clock=ManualClock())
    device.launch(package)
    return device


def crashed(device: VirtualDevice, package: str) -> bool:
    return f"Process: {package}" in device.logcat() and "FATAL EXCEPTION" in device.logcat()


# ---------------------------------------------------------------- the models and the expectations


@pytest.mark.parametrize("spec_path", SPECS, ids=lambda p: p.parent.name)
def test_spec_and_model_load(spec_path: Path) -> None:
    spec = load_spec(spec_path)
    VirtualDevice(spec_path.parent / "app.yaml", latency=False)
    key = f"{spec_path.parent.name}/{spec_path.name}"
    assert key in EXPECTED, f"{key} missing from expected.yaml"
    assert sorted(f.name for f in spec.features) == sorted(EXPECTED[key])
    for name, entry in EXPECTED[key].items():
        assert entry["verdict"] in ("passed", "failed"), name
        assert entry["why"], name
        assert ("bug_at" in entry) == (entry["verdict"] == "failed"), name


@pytest.mark.parametrize("app", ["crash_on_save", "dead_button", "missing_screen"])
def test_twins_share_features_and_differ_only_in_the_bug(app: str) -> None:
    buggy = load_spec(HERE / app / f"test_{app}.yaml")
    clean = load_spec(HERE / f"{app}_clean" / f"test_{app}_clean.yaml")
    assert [(f.name, f.goal, f.done_when) for f in buggy.features] == [
        (f.name, f.goal, f.done_when) for f in clean.features
    ]
    body = [
        line
        for line in (HERE / app / "app.yaml").read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    twin = [
        line
        for line in (HERE / f"{app}_clean" / "app.yaml").read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    changed = [line for line in difflib.ndiff(body, twin) if line[:2] in ("- ", "+ ")]
    assert 0 < len(changed) <= 14, changed


# ---------------------------------------------------------------- 1. settings_below_fold

SETTINGS = "com.example.phonesettings"


def test_settings_check_the_version() -> None:
    device = start("settings_below_fold", SETTINGS)
    assert visible(device, "WLAN") and not visible(device, "关于本机")  # below the fold
    tap(device, "显示和亮度")  # an ordinary sub-page on the way
    tap(device, "深色模式")
    assert find(device, "深色模式").checked
    device.press_keycode(BACK)
    assert scroll_to(device, "settings_list", "关于本机") >= 1
    tap(device, "关于本机")
    assert device.current_app().activity.endswith("AboutPhoneActivity")
    assert visible(device, "4.2.0.120")


def test_settings_privacy_statement() -> None:
    device = start("settings_below_fold", SETTINGS)
    assert not visible(device, "隐私")
    scroll_to(device, "settings_list", "隐私")
    tap(device, "隐私")
    tap(device, "关于设置与隐私的声明")
    assert visible(device, "更新日期：2024年3月1日")


# ---------------------------------------------------------------- 2. catalog_below_fold

MALL = "com.example.youxuan"
RICE = "柴火大院 五常大米 5kg"


def test_catalog_add_rice_to_cart() -> None:
    device = start("catalog_below_fold", MALL)
    tap(device, "分类")
    assert visible(device, "华为 Mate 60 Pro")  # 手机数码 is the first category
    tap(device, "粮油调味")
    assert visible(device, "金龙鱼 大米 10kg") and not visible(device, RICE)
    scroll_to(device, "rv_products", RICE)
    tap(device, RICE)
    assert find(device, "tv_detail_name").text == RICE
    tap(device, "加入购物车")
    assert visible(device, "已加入购物车")  # the toast
    tap(device, "btn_go_cart")
    assert device.current_app().activity.endswith(".CartActivity")
    assert visible(device, RICE) and visible(device, "共 1 件商品")


def test_catalog_other_rows_open_the_same_product_page() -> None:
    device = start("catalog_below_fold", MALL)
    tap(device, "分类")
    tap(device, "粮油调味")
    tap(device, "鲁花 花生油 5L")
    assert find(device, "tv_detail_name").text == "鲁花 花生油 5L"
    assert visible(device, "加入购物车")


# ---------------------------------------------------------------- 3. long_list

GOODS = "com.example.haowu"


def test_long_list_reach_the_last_row_and_the_end() -> None:
    device = start("long_list", GOODS)
    assert visible(device, "商品 1") and not visible(device, "商品 300")
    scroll_to(device, "rv_goods", "商品 300", max_swipes=80)
    assert visible(device, "商品 300")
    assert visible(device, "第 300/300 件")
    left, top, right, bottom = find(device, "rv_goods").bounds
    device.swipe((left + right) // 2, bottom - 60, (left + right) // 2, top + 60)  # no further
    assert visible(device, "第 300/300 件")


def test_long_list_favourite_a_product() -> None:
    device = start("long_list", GOODS)
    tap(device, "商品 3")
    assert visible(device, "商品 3") and not visible(device, "已收藏")
    tap(device, "收藏")
    assert visible(device, "已收藏")
    device.press_keycode(BACK)
    tap(device, "商品 4")  # another product is not favourited
    assert not visible(device, "已收藏")


# ---------------------------------------------------------------- 4. dialog_trap

NEWS = "com.example.jinrizixun"


def test_dialog_trap_rating_dialog_comes_back_once() -> None:
    device = start("dialog_trap", NEWS)
    assert visible(device, "给我们好评")
    tap(device, "以后再说")
    assert not visible(device, "给我们好评")
    tap(device, "tv_feed_title")  # an article
    tap(device, "知道了")  # its guide popup
    device.press_keycode(BACK)
    assert visible(device, "给我们好评")  # back once
    tap(device, "以后再说")
    tap(device, "tv_feed_title")
    device.press_keycode(BACK)
    assert not visible(device, "给我们好评")  # never again


def test_dialog_trap_hot_list() -> None:
    device = start("dialog_trap", NEWS)
    with pytest.raises(AssertionError):  # the dialog is modal: the tab behind it takes no tap
        tap(device, "热榜")
        assert visible(device, "今日热榜 TOP 50")
    tap(device, "以后再说")
    tap(device, "热榜")
    assert visible(device, "今日热榜 TOP 50")


def test_dialog_trap_larger_font() -> None:
    device = start("dialog_trap", NEWS)
    tap(device, "以后再说")
    tap(device, "tv_feed_title")
    assert visible(device, "点右上角「更多」可以调整字体大小")
    tap(device, "知道了")
    assert visible(device, "字号：标准")
    tap(device, "更多")
    assert visible(device, "不感兴趣")
    tap(device, "字体大小")
    tap(device, "大")
    assert visible(device, "完成")
    tap(device, "完成")
    assert visible(device, "字号：大") and not visible(device, "完成")


# ---------------------------------------------------------------- 5a. crash_on_save (+ clean)

SHOP = "com.example.yigou"


def _fill_new_address(device: VirtualDevice) -> None:
    tap(device, "我的")
    tap(device, "收货地址")
    tap(device, "新增收货地址")
    type_into(device, "et_receiver", "李雷")
    type_into(device, "et_phone", "13800138000")
    tap(device, "所在地区：请选择 >")
    tap(device, "北京市 海淀区")
    type_into(device, "et_detail", "学院路 35 号")
    assert visible(device, "所在地区：北京市海淀区")


def test_crash_on_save_buggy_crashes() -> None:
    device = start("crash_on_save", SHOP)
    _fill_new_address(device)
    tap(device, "保存")
    assert crashed(device, SHOP)
    assert "NullPointerException" in device.logcat()
    assert device.current_app().package != SHOP
    assert visible(device, "“易购”已停止运行")
    assert not visible(device, "收货地址已保存")


def test_crash_on_save_clean_saves() -> None:
    device = start("crash_on_save_clean", SHOP)
    _fill_new_address(device)
    tap(device, "保存")
    assert not crashed(device, SHOP)
    assert visible(device, "保存成功")  # the toast
    assert visible(device, "收货地址已保存") and visible(device, "李雷 13800138000")


@pytest.mark.parametrize("app", ["crash_on_save", "crash_on_save_clean"])
def test_crash_on_save_empty_form_only_warns(app: str) -> None:
    device = start(app, SHOP)
    tap(device, "我的")
    tap(device, "收货地址")
    tap(device, "新增收货地址")
    tap(device, "保存")
    assert not crashed(device, SHOP) and visible(device, "请填写收货人和手机号码")


@pytest.mark.parametrize("app", ["crash_on_save", "crash_on_save_clean"])
def test_crash_on_save_view_coupons(app: str) -> None:
    device = start(app, SHOP)
    tap(device, "我的")
    tap(device, "优惠券")
    assert visible(device, "满 199 减 20")


# ---------------------------------------------------------------- 5b. dead_button (+ clean)

VIDEO = "com.example.kuaikan"


def _open_settings(device: VirtualDevice) -> None:
    tap(device, "我的")
    tap(device, "设置")
    assert device.current_app().activity.endswith(".settings.SettingsActivity")


def test_dead_button_buggy_does_nothing() -> None:
    device = start("dead_button", VIDEO)
    _open_settings(device)
    before = device.dump_hierarchy()
    tap(device, "检查更新")
    assert device.dump_hierarchy() == before
    assert device.toasts() == []
    assert not visible(device, "已是最新版本")
    assert device.current_app().activity.endswith(".settings.SettingsActivity")


def test_dead_button_clean_reports_latest() -> None:
    device = start("dead_button_clean", VIDEO)
    _open_settings(device)
    tap(device, "检查更新")
    assert visible(device, "已是最新版本")
    tap(device, "好的")
    assert not visible(device, "已是最新版本")


@pytest.mark.parametrize("app", ["dead_button", "dead_button_clean"])
def test_dead_button_clear_cache(app: str) -> None:
    device = start(app, VIDEO)
    _open_settings(device)
    tap(device, "关于我们")  # a working neighbour
    assert visible(device, "快看视频 · 记录美好生活")
    device.press_keycode(BACK)
    tap(device, "清除缓存 · 235.6 MB")
    tap(device, "确定")
    assert visible(device, "清除缓存 · 0 KB")


# ---------------------------------------------------------------- 5c. missing_screen (+ clean)

GROCERY = "com.example.xiandaojia"


def test_missing_screen_buggy_opens_the_wrong_screen() -> None:
    device = start("missing_screen", GROCERY)
    tap(device, "我的")
    tap(device, "我的订单")
    assert device.current_app().activity.endswith(".mine.FavoritesActivity")
    assert visible(device, "收藏的商品 1")
    assert not visible(device, "订单号：")


def test_missing_screen_clean_opens_orders() -> None:
    device = start("missing_screen_clean", GROCERY)
    tap(device, "我的")
    tap(device, "我的订单")
    assert device.current_app().activity.endswith(".order.OrderListActivity")
    assert visible(device, "订单号：")


@pytest.mark.parametrize("app", ["missing_screen", "missing_screen_clean"])
def test_missing_screen_other_rows_work(app: str) -> None:
    device = start(app, GROCERY)
    tap(device, "我的")
    tap(device, "我的收藏")
    assert visible(device, "收藏的商品 1")
    device.press_keycode(BACK)
    tap(device, "优惠券")
    assert visible(device, "免运费券")
