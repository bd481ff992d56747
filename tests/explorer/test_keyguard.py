"""A phone that locks itself mid-run: the virtual device's lock screen, its recognition
at each look, a swipe lock lifted so the item goes on, and a PIN lock ending the item inconclusive with
what to do, never as "actions failed" or an app defect."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairy_virtual import VirtualDevice
from fairy_virtual.loader import load_app_model
from pytest_fairy.brain.scripted import ScriptedBrain
from pytest_fairy.devices.protocol import AppRef, Key
from pytest_fairy.errors import UsageError
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.keyguard import LOCKED_REASON, locked
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.target import Target
from pytest_fairy.explore.verdict import Verdict
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.perceive import perceive
from pytest_fairy.perception.screen import Screen, build_screen
from pytest_fairy.spec.model import Oracle, OracleKind
from tests.mail_app import APP, MAIL, write_mail_app

SHADE_DUMP = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.mail"
    content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2400]">
    <node index="0" text="Open inbox" resource-id="com.example.mail:id/btn_inbox" class="android.widget.Button"
      package="com.example.mail" content-desc="" clickable="true" enabled="true" bounds="[40,300][1040,440]" />
  </node>
  <node index="0" text="" resource-id="com.android.systemui:id/ROOT_ID" class="android.widget.FrameLayout"
    package="com.android.systemui" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2400]">
    <node index="0" text="12:00" resource-id="com.android.systemui:id/CHILD_ID" class="android.widget.TextView"
      package="com.android.systemui" content-desc="" clickable="false" enabled="true" bounds="[0,400][1080,640]" />
  </node>
</hierarchy>
"""


def mail(tmp_path: Path, lock: str = "") -> VirtualDevice:
    return VirtualDevice(write_mail_app(tmp_path, lock), latency=False)


def target() -> Target:
    return Target(app_name="Mail", package=MAIL, feature="read all", goal="mark all mail read", max_steps=8)


def explore(device: VirtualDevice) -> tuple[Verdict, str, list[str]]:
    brain = ScriptedBrain(["tap Open inbox", "tap Mark all read"])
    mission = Mission(done_when=(Oracle(kind=OracleKind.VISIBLE, value="Inbox zero"),))
    result = Explorer(device, brain).explore(target(), mission)
    return result.verdict, result.reason, [entry.action for entry in device.action_log]


def shade(
    root_id: str,
    child_id: str = "keyguard_clock",
    package: str = MAIL,
    activity: str = ".Feed",
    window: str = "",
) -> Screen:
    xml = SHADE_DUMP.replace("ROOT_ID", root_id).replace("CHILD_ID", child_id)
    if window:  # the covering window is the app's own
        xml = xml.replace('package="com.android.systemui"', f'package="{window}"')
    return build_screen(xml, package=package, activity=activity)


# ---- the virtual lock screen ------------------------------------------------------------------------


def test_a_locked_virtual_phone_shows_systemuis_keyguard_over_the_app_and_takes_every_touch(
    tmp_path: Path,
) -> None:
    device = mail(tmp_path)
    device.launch(MAIL)
    app = perceive(device)
    (inbox,) = [m for m in app.screen.marks if m.label == "Open inbox"]
    device.lock(secure=False)
    assert device.locked
    assert device.current_app() == AppRef(
        "com.android.systemui", "com.android.systemui.keyguard.KeyguardActivity"
    )
    seen = perceive(device)
    top = seen.screen.top_layer
    assert (top.package, top.kind) == ("com.android.systemui", LayerKind.SHADE)
    assert "com.android.systemui:id/keyguard_root_view" in seen.screen.xml
    assert seen.screenshot.getpixel((5, 1000)) != app.screenshot.getpixel(
        (5, 1000)
    )  # a wallpaper, not the app
    device.tap(*inbox.bounds.center)  # the keyguard takes it
    device.swipe(540, 2000, 540, 400)
    device.press(Key.BACK)
    device.press(Key.HOME)
    device.dismiss_keyguard()
    assert not device.locked
    assert device.current_app().activity == "com.example.mail.FeedActivity"


def test_typing_on_the_lock_screen_reaches_no_field(tmp_path: Path) -> None:
    device = mail(tmp_path)
    device.launch(MAIL, "com.example.mail.InboxActivity")
    (search,) = [m for m in perceive(device).screen.marks if m.label == "Search"]
    device.tap(*search.bounds.center)
    device.lock(secure=False)
    device.type_text("bills")
    device.dismiss_keyguard()
    assert "bills" not in device.dump_hierarchy()


def test_dismiss_keyguard_lifts_a_swipe_lock_but_not_a_pin(tmp_path: Path) -> None:
    device = mail(tmp_path)
    device.lock(secure=True)
    device.dismiss_keyguard()
    assert device.locked
    assert "Enter PIN to unlock" in device.dump_hierarchy()


def test_the_model_locks_the_phone_once_after_n_input_actions(tmp_path: Path) -> None:
    device = mail(tmp_path, "lock_after_actions: 2")
    device.launch(MAIL)  # launching and stopping are not a person's input
    device.stop(MAIL)
    device.launch(MAIL)
    device.press(Key.ENTER)
    assert not device.locked
    device.tap(1, 1)
    assert device.locked
    device.dismiss_keyguard()
    for _ in range(4):
        device.tap(1, 1)
    assert not device.locked


def test_lock_after_actions_must_be_positive(tmp_path: Path) -> None:
    app = tmp_path / "mail.yaml"
    app.write_text(APP.replace("{LOCK}", "{lock_after_actions: 0}"), encoding="utf-8")
    with pytest.raises(UsageError, match="lock_after_actions"):
        load_app_model(app)


# ---- recognised mid-run -------------------------------------------------------------------------------


def test_a_phone_that_locks_itself_with_a_swipe_lock_is_unlocked_and_the_item_goes_on(tmp_path: Path) -> None:
    device = mail(tmp_path, "lock_after_actions: 1")
    verdict, reason, actions = explore(device)
    assert verdict is Verdict.PASSED, reason
    assert (
        actions.index("tap")
        < actions.index("dismiss_keyguard")
        < len(actions) - 1 - actions[::-1].index("tap")
    )


def test_a_phone_that_locks_itself_with_a_pin_ends_the_item_inconclusive_saying_so(tmp_path: Path) -> None:
    device = mail(tmp_path, "lock_after_actions: 1, lock_secure: true")
    verdict, reason, actions = explore(device)
    assert verdict is Verdict.INCONCLUSIVE
    assert LOCKED_REASON in reason
    assert "failed" not in reason
    assert actions.count("tap") == 1  # nothing more was tried on the lock screen


def test_systemui_in_front_with_a_keyguard_activity_is_the_lock_screen(tmp_path: Path) -> None:
    plain = shade(
        "notification_panel", "clock", package="com.android.systemui", activity="x.KeyguardActivity"
    )
    assert locked(mail(tmp_path), plain)
    assert not locked(mail(tmp_path), shade("notification_panel", "clock", package="com.android.systemui"))


def test_a_full_screen_systemui_window_with_keyguard_views_is_the_lock_screen(tmp_path: Path) -> None:
    # On a Pixel the app may stay "in front" for dumpsys while the keyguard covers it.
    assert locked(mail(tmp_path), shade("notification_panel", "keyguard_status_view"))
    assert locked(mail(tmp_path), shade("notification_panel", "lock_icon_view"))
    assert not locked(mail(tmp_path), shade("notification_panel", "quick_settings_panel"))


class DumpsysPhone:
    """A device with an adb shell whose `dumpsys window` says what `window` holds."""

    serial = "phone"

    def __init__(self, window: str) -> None:
        self.window = window
        self.asked = 0

    def shell(self, args: list[str], *, doing: str) -> str:
        self.asked += 1
        return self.window if args[:2] == ["dumpsys", "window"] else ""


def test_a_vendor_lock_screen_without_keyguard_views_is_told_by_dumpsys() -> None:
    screen = shade("vendor_root", "vendor_clock")
    assert locked(DumpsysPhone("  mShowingLockscreen=true mShowingDream=false"), screen)  # type: ignore[arg-type]
    assert not locked(DumpsysPhone("  mShowingLockscreen=false"), screen)  # type: ignore[arg-type]


def test_an_apps_own_screen_is_never_the_lock_screen_and_costs_no_dumpsys() -> None:
    # An app's own "lock screen" settings page: its ids say lock_screen, yet it is the app's window.
    phone = DumpsysPhone("  mShowingLockscreen=true")
    assert not locked(phone, shade("settings_root", "lock_screen_switch", window=MAIL))  # type: ignore[arg-type]
    assert phone.asked == 0
