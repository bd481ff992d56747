"""Typing on a real device leaves it as it was: U2Device through the real adb server, adbutils and
uiautomator2 against virtual devices over adbd.

The virtual device records what would change a phone beyond the app (`AndroidSystem.changes`: an APK
pushed to be installed, an input method enabled, disabled or selected), and can refuse clipboard reads
as Android 10+ does for apps not in focus (`clipboard_readable`).
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest
from device_helpers import FOOD_PACKAGE, QUICK_RECONNECT, Farm, find, tap_on
from wire.wire_helpers import ServedDevice

from fairy_virtual.wire.system import DEFAULT_IME
from fairy_virtual.wire.u2server import UiautomatorServer
from pytest_fairy.devices.driver import U2Device
from pytest_fairy.devices.typing import U2_IME
from pytest_fairy.errors import DeviceError

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
SEARCH_ID = f"{FOOD_PACKAGE}:id/et_store_search"
OLD_CLIP = "what the user copied 复制的 🙂"
# uiautomator's dump writes characters XML cannot hold (a lone surrogate) as ".".
TEXTS = {
    "chinese": ("麦辣鸡腿堡 中文输入", "麦辣鸡腿堡 中文输入"),
    "emoji": ("🍔🍟 emoji 👩‍👩‍👧", "🍔🍟 emoji 👩‍👩‍👧"),
    "lone-surrogate": ("a\ud800b", "a.b"),
    "shell": ("; reboot $(id) `x` 'q\" & |", "; reboot $(id) `x` 'q\" & |"),
}
CLIPBOARD_NOTE = "typed by clipboard paste, clipboard restored, read back"


def _to_search_field(device: U2Device) -> None:
    tap_on(device, text="到店取餐")
    tap_on(device, resource_id=SEARCH_ID)


def _field(food: ServedDevice) -> str:
    return find(food.device.dump_hierarchy(), resource_id=SEARCH_ID).text


def _untouched_keyboard(food: ServedDevice) -> None:
    system = food.server.system
    assert system.changes == []
    assert system.settings["secure"]["default_input_method"] == DEFAULT_IME
    assert list(system.enabled_imes) == [DEFAULT_IME]
    assert not [path for path, _ in system.fs.list("/data/local/tmp") if path.endswith(".apk")]


@pytest.mark.parametrize("name", list(TEXTS))
def test_typing_pastes_and_puts_the_clipboard_back(driver: U2Device, food: ServedDevice, name: str) -> None:
    text, shown = TEXTS[name]
    food.server.system.clipboard = OLD_CLIP
    _to_search_field(driver)
    driver.type_text(text)
    assert _field(food) == shown
    assert food.server.system.clipboard == OLD_CLIP
    assert driver.take_note() == CLIPBOARD_NOTE
    assert driver.take_note() == ""  # a note is told once: the next step does not inherit it
    _untouched_keyboard(food)


def test_an_empty_clipboard_is_left_empty(driver: U2Device, food: ServedDevice) -> None:
    assert food.server.system.clipboard is None
    _to_search_field(driver)
    driver.type_text("汉堡")
    assert _field(food) == "汉堡"
    assert food.server.system.clipboard == ""
    assert driver.take_note() == "typed by clipboard paste, clipboard left empty as it was, read back"


def test_empty_text_touches_nothing(driver: U2Device, food: ServedDevice) -> None:
    food.server.system.clipboard = OLD_CLIP
    _to_search_field(driver)
    driver.type_text("")
    assert driver.take_note() == "nothing to type"
    assert food.server.system.clipboard == OLD_CLIP


def test_clearing_empties_the_focused_field_so_typing_replaces_what_it_held(
    driver: U2Device, food: ServedDevice
) -> None:
    _to_search_field(driver)
    hint = _field(food)
    driver.type_text("麦辣鸡腿堡 套餐")
    driver.clear_text()  # uiautomator's clearTextField: the whole text, not what is before the cursor
    assert _field(food) == hint
    driver.type_text("薯条")
    assert _field(food) == "薯条"


def test_clearing_with_no_field_focused_changes_nothing(driver: U2Device, food: ServedDevice) -> None:
    tap_on(driver, text="到店取餐")
    before = food.device.dump_hierarchy()
    driver.clear_text()
    assert food.device.dump_hierarchy() == before


def test_the_virtual_u2_server_round_trips_a_lone_surrogate(driver: U2Device, food: ServedDevice) -> None:
    # uiautomator2's own clipboard calls: before, the answer could not be encoded and the call failed.
    d = driver.uiautomator
    d.clipboard = "x\udfffy\ud83d"
    assert d.clipboard == "x\udfffy\ud83d"
    assert food.server.system.clipboard == "x\udfffy\ud83d"
    d.set_clipboard(None)  # a clip without text reads back as null, not as "None"
    assert d.clipboard is None


def test_without_a_readable_clipboard_plain_ascii_goes_through_input_text(
    driver: U2Device, food: ServedDevice
) -> None:
    food.server.system.clipboard_readable = False
    _to_search_field(driver)
    driver.type_text("it's a test; $(id)")
    assert _field(food) == "it's a test; $(id)"
    note = driver.take_note()
    assert note.startswith("typed by adb input text; the clipboard route failed (")
    # What could not be read cannot be put back: it is emptied, so the typed text does not stay in it.
    assert food.server.system.clipboard == ""
    _untouched_keyboard(food)


@pytest.mark.parametrize("text", ["麦辣鸡腿堡", "100%s done", "line\nbreak"])
def test_without_a_readable_clipboard_nothing_is_installed_and_the_error_says_what_to_do(
    driver: U2Device, food: ServedDevice, text: str
) -> None:
    food.server.system.clipboard_readable = False
    _to_search_field(driver)
    before = _field(food)  # its hint
    with pytest.raises(DeviceError) as raised:
        driver.type_text(text)
    message = str(raised.value)
    assert "the clipboard route failed" in message
    assert "fairy_allow_ime_install = true" in message
    assert "installs an APK" in message
    assert _field(food) == before  # `input text` did not type "100  done" either
    assert driver.take_note() == ""
    _untouched_keyboard(food)


def test_uiautomator2_itself_would_install_its_ime(farm: Farm, food: ServedDevice) -> None:
    """Why the driver does not call `send_keys`: uiautomator2 answers a failed clipboard by installing."""
    driver = farm.driver(food)
    driver.launch(FOOD_PACKAGE)
    food.server.system.clipboard_readable = False
    _to_search_field(driver)
    with pytest.raises(Exception):  # noqa: B017 - the virtual device refuses `pm install`
        driver.uiautomator.send_keys("麦辣鸡腿堡")
    assert any(change.startswith("push ") and change.endswith("(an APK to install)")
               for change in food.server.system.changes)


def test_opted_in_the_ime_route_may_install(farm: Farm, food: ServedDevice) -> None:
    driver = farm.driver(food, allow_ime_install=True)
    driver.launch(FOOD_PACKAGE)
    food.server.system.clipboard_readable = False
    _to_search_field(driver)
    with pytest.raises(DeviceError, match="uiautomator2's input method failed"):
        driver.type_text("麦辣鸡腿堡")  # the virtual device refuses `pm install`
    assert any("(an APK to install)" in change for change in food.server.system.changes)
    assert food.server.system.settings["secure"]["default_input_method"] == DEFAULT_IME


def test_opted_in_the_ime_types_and_the_keyboard_is_selected_again(farm: Farm, food: ServedDevice) -> None:
    system = food.server.system
    system.installed_imes = (DEFAULT_IME, U2_IME)  # a phone where uiautomator2's APK is installed already
    driver = farm.driver(food, allow_ime_install=True)
    driver.launch(FOOD_PACKAGE)
    system.clipboard_readable = False
    _to_search_field(driver)
    driver.type_text("麦辣鸡腿堡")
    assert _field(food) == "麦辣鸡腿堡"
    note = driver.take_note()
    assert note.startswith(f"typed by uiautomator2 IME (its set_text fallback), keyboard {DEFAULT_IME} selected")
    assert f"ime enable {U2_IME}" in system.changes  # it was switched...
    assert f"settings secure default_input_method {U2_IME}" in system.changes
    assert system.settings["secure"]["default_input_method"] == DEFAULT_IME  # ...and switched back
    assert list(system.enabled_imes) == [DEFAULT_IME]


# ---- through the plugin: the ini key and the step record --------------------------------------------

KEY_CONFTEST = """
import json, os
import pytest

@pytest.fixture
def fairy_device(fairy_device):
    with open(os.environ["FAIRY_KEY_SEEN"], "a", encoding="utf-8") as out:
        out.write(json.dumps(fairy_device.allow_ime_install) + "\\n")
    yield fairy_device
"""


@pytest.mark.parametrize(
    ("allowed", "workers"), [(False, ()), (True, ()), (True, ("-n", "1"))], ids=["default", "opted-in", "xdist"]
)
def test_the_step_record_names_the_method_and_the_ini_key_reaches_the_driver(
    pytester: pytest.Pytester,
    farm: Farm,
    lock_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    allowed: bool,
    workers: tuple[str, ...],
) -> None:
    shutil.copytree(REPO / "example_suites", pytester.path / "example_suites")
    key = "fairy_allow_ime_install = true\n" if allowed else ""
    pytester.makeini(f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n{key}")
    pytester.makeconftest(KEY_CONFTEST)
    seen = pytester.path / "seen.jsonl"
    monkeypatch.setenv("FAIRY_KEY_SEEN", str(seen))
    food = farm.serve()
    food.server.system.clipboard = OLD_CLIP
    # With xdist the item runs in a worker, which connects the device itself (the controller checked it).
    run = pytester.runpytest_subprocess if workers else pytester.runpytest
    result = run(
        "example_suites/food", "-k", "pickup", f"--fairy-adb={farm.address}", f"--fairy-device={food.serial}",
        *workers,
    )
    result.assert_outcomes(passed=1)
    assert [json.loads(line) for line in seen.read_text().splitlines()] == [allowed]
    steps = [json.loads(line) for line in pytester.path.glob(".fairy/sessions/*/*/steps.jsonl").__next__()
             .read_text(encoding="utf-8").splitlines()]
    typed = [s for s in steps if (s["action"] or "").startswith("type ")]
    assert typed and all(s["device_note"] == CLIPBOARD_NOTE for s in typed)
    assert all(s["device_note"] == "" for s in steps if s not in typed)
    assert food.server.system.clipboard == OLD_CLIP
    _untouched_keyboard(food)


def test_a_connection_dropped_mid_paste_leaves_no_password_on_the_clipboard(
    farm: Farm, food: ServedDevice, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real adb connection goes away after the paste, as the clipboard is being put back: the restore
    never reaches the phone. The driver reconnects and types again, and the clipboard it finds holding the
    password is emptied over the live connection and read back; the step says what was done."""
    set_clip = UiautomatorServer.set_clipboard
    outages: list[threading.Thread] = []

    def outage() -> None:
        port = farm.drop(food)
        time.sleep(0.3)
        farm.restart(food, port)

    def set_clipboard(self: UiautomatorServer, label: str | None, text: str | None) -> None:
        if text != "hunter2-secret" and self.system.clipboard == "hunter2-secret" and not outages:
            # The first restore after the paste: the device goes away before it is applied.
            outages.append(threading.Thread(target=outage))
            outages[0].start()
            time.sleep(1.0)  # the connection is closed under this request: it is never answered
            return
        set_clip(self, label, text)

    monkeypatch.setattr(UiautomatorServer, "set_clipboard", set_clipboard)  # before its server starts
    device = farm.driver(food, reconnect=QUICK_RECONNECT)
    device.launch(FOOD_PACKAGE)
    _to_search_field(device)
    try:
        device.type_text("hunter2-secret")
    finally:
        for thread in outages:
            thread.join()
    assert outages and device.reconnects >= 1
    assert food.server.system.clipboard in (None, ""), "the password stays on the phone's clipboard"
    assert device.take_note() == (
        "reconnected after 'type 14 characters' failed (3 attempts); typed by clipboard paste, clipboard "
        "emptied: it held the typed text, left by an attempt that was cut off"
    )
