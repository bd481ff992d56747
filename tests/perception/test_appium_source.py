"""Appium's page source is read like a uiautomator dump: its views are elements named by their class."""

from __future__ import annotations

from pytest_fairy.perception.hierarchy import parse_hierarchy
from pytest_fairy.perception.screen import build_screen

PAGE_SOURCE = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">
  <android.widget.FrameLayout index="0" package="com.example.shop" class="android.widget.FrameLayout" text=""
      clickable="false" enabled="true" bounds="[0,0][1080,2400]" displayed="true">
    <android.widget.Button index="0" package="com.example.shop" class="android.widget.Button" text="结算"
        resource-id="com.example.shop:id/pay" clickable="true" enabled="true" bounds="[40,2200][1040,2340]"
        displayed="true" />
    <android.widget.Button index="1" package="com.example.shop" class="android.widget.Button" text="隐藏"
        clickable="true" enabled="true" bounds="[40,100][1040,240]" displayed="false" />
  </android.widget.FrameLayout>
</hierarchy>
"""


def test_appium_page_source_parses_into_windows_and_views() -> None:
    (window,) = parse_hierarchy(PAGE_SOURCE)
    assert window.class_name == "android.widget.FrameLayout" and len(window.children) == 2
    pay, hidden = window.children
    assert pay.text == "结算" and pay.clickable and pay.visible
    assert not hidden.visible  # Appium's `displayed="false"` is uiautomator's visible-to-user


def test_an_appium_page_gets_marks_like_a_dump() -> None:
    assert [m.label for m in build_screen(PAGE_SOURCE).marks] == ["结算"]
