"""Toasts are part of the screen: an error an app only says in a toast ("网络异常，请稍后重试") is seen by
the must_not oracles, with the toast in the evidence, on the virtual device in-process and over adb
(the real adb server, adbutils and uiautomator2's toast watcher, served by the virtual device)."""

from __future__ import annotations

from pathlib import Path

import pytest
from device_helpers import Farm

from fairy_virtual import VirtualDevice
from fairy_virtual.clock import ManualClock
from pytest_fairy.devices.protocol import toasts_of
from pytest_fairy.perception.perceive import perceive
from pytest_fairy.perception.som import TOAST_CAPTION_COLOUR

pytestmark = pytest.mark.wire

NEWS = "com.example.news"
APP = """
app: {package: com.example.news, name: 资讯, launch: feed}
screens:
  - id: feed
    activity: .FeedActivity
    title: 资讯
    elements:
      - {class: TextView, id: tv_empty, text: 暂无内容}
      - {class: Button, id: btn_refresh, text: 刷新, on_tap: [{toast: 网络异常，请稍后重试}]}
"""
SPEC = """
app: {name: 资讯, package: com.example.news, virtual: news.yaml}
features:
  - name: refresh
    goal: 刷新资讯列表 (tap 刷新)
    max_steps: 6
    done_when: [{visible: 已刷新}]
    must_not: [crash, {visible: 网络异常}]
"""


def test_a_toast_is_on_the_screen_its_text_and_its_set_of_mark(tmp_path: Path) -> None:
    app = tmp_path / "news.yaml"
    app.write_text(APP, encoding="utf-8")
    device = VirtualDevice(app, latency=False)
    device.launch(NEWS)
    assert perceive(device).screen.toasts == ()
    (refresh,) = [m for m in perceive(device).screen.marks if m.label == "刷新"]
    device.tap(*refresh.bounds.center)
    seen = perceive(device)
    assert seen.screen.toasts == ("网络异常，请稍后重试",)
    assert "[toast] 网络异常，请稍后重试" in seen.screen.text.splitlines()[:3]
    # The caption band below the screen in the Set-of-Mark image: the screen itself is drawn as it was.
    shot = seen.screenshot.convert("RGB")
    assert seen.som.full.height > shot.height and seen.som.full.width == shot.width
    assert seen.som.full.getpixel((2, shot.height + 2)) == TOAST_CAPTION_COLOUR


def test_uiautomator2s_watcher_reports_the_toast_while_it_shows_and_not_after(farm: Farm, tmp_path: Path) -> None:
    app = tmp_path / "news.yaml"
    app.write_text(APP, encoding="utf-8")
    clock = ManualClock()
    served = farm.serve(app, clock=clock)
    driver = farm.driver(served)
    driver.launch(NEWS)
    assert toasts_of(driver) == []
    (refresh,) = [m for m in perceive(driver).screen.marks if m.label == "刷新"]
    driver.tap(*refresh.bounds.center)
    assert toasts_of(driver) == ["网络异常，请稍后重试"]
    clock.advance(5)
    assert toasts_of(driver) == []  # read and cleared, and gone from the screen


@pytest.mark.parametrize("over_adb", [False, True], ids=["in-process", "over-adb"])
def test_a_toast_only_error_fails_the_feature_with_the_toast_as_evidence(
    pytester: pytest.Pytester, farm: Farm, lock_dir: Path, over_adb: bool
) -> None:
    (pytester.path / "news.yaml").write_text(APP, encoding="utf-8")
    (pytester.path / "test_news.yaml").write_text(SPEC, encoding="utf-8")
    pytester.makeini(f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n")
    options: tuple[str, ...] = ()
    if over_adb:
        served = farm.serve(pytester.path / "news.yaml")
        options = (f"--fairy-adb={farm.address}", f"--fairy-device={served.serial}")
    result = pytester.runpytest("-p", "no:cacheprovider", *options)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*app defect: must_not condition seen: visible: 网络异常*",
                                 "*toast '网络异常，请稍后重试'*"])
