"""A phone that locks itself mid-run, over adb: the served virtual device reports its lock screen as a
phone does (`dumpsys window`, a systemui keyguard in the dump), `wm dismiss-keyguard` lifts a swipe lock,
and a run through the real adb server, adbutils and uiautomator2 goes on after a swipe lock and ends
inconclusive on a PIN lock."""

from __future__ import annotations

from pathlib import Path

import pytest
from device_helpers import Farm

from pytest_fairy.devices.diagnostics import dismiss_keyguard, keyguard_showing
from pytest_fairy.explore.keyguard import LOCKED_REASON
from tests.mail_app import write_mail_app

pytestmark = pytest.mark.wire

SPEC = """
app: {name: Mail, package: com.example.mail, virtual: mail.yaml}
features:
  - name: read all
    goal: open the inbox and mark all mail read (tap Open inbox, then Mark all read)
    max_steps: 8
    done_when: [{visible: Inbox zero}]
"""


def test_dumpsys_window_and_the_dump_show_the_lock_screen_and_wm_lifts_a_swipe_lock(
    farm: Farm, tmp_path: Path
) -> None:
    served = farm.serve(write_mail_app(tmp_path))
    driver = farm.driver(served)
    driver.launch("com.example.mail")
    assert not keyguard_showing(driver)
    assert "mShowingLockscreen=false" in driver.shell(["dumpsys", "window"], doing="read")
    served.device.lock(secure=False)
    window = driver.shell(["dumpsys", "window"], doing="read")
    assert "mShowingLockscreen=true" in window and "isStatusBarKeyguard=true" in window
    assert 'package="com.android.systemui"' in driver.dump_hierarchy()
    assert dismiss_keyguard(driver)
    assert not served.device.locked


def test_wm_dismiss_keyguard_leaves_a_pin_lock(farm: Farm, tmp_path: Path) -> None:
    served = farm.serve(write_mail_app(tmp_path))
    driver = farm.driver(served)
    served.device.lock(secure=True)
    assert not dismiss_keyguard(driver)
    assert keyguard_showing(driver)


@pytest.mark.parametrize(
    ("lock", "outcome", "line"),
    [
        ("lock_after_actions: 1", {"passed": 1}, "*read all: passed*"),
        (
            "lock_after_actions: 1, lock_secure: true",
            {"inconclusive": 1},
            f"*inconclusive: {LOCKED_REASON}*",
        ),
    ],
    ids=["swipe-lock", "pin-lock"],
)
def test_a_run_over_adb_unlocks_a_swipe_lock_and_stops_at_a_pin(
    pytester: pytest.Pytester, farm: Farm, lock_dir: Path, lock: str, outcome: dict[str, int], line: str
) -> None:
    (pytester.path / "test_mail.yaml").write_text(SPEC, encoding="utf-8")
    served = farm.serve(write_mail_app(pytester.path, lock))
    pytester.makeini(f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", f"--fairy-adb={farm.address}", f"--fairy-device={served.serial}"
    )
    assert {k: v for k, v in result.parseoutcomes().items() if k != "warnings"} == outcome
    result.stdout.fnmatch_lines([line])
    assert "actions failed" not in result.stdout.str()
    assert "dismiss_keyguard" in [entry.action for entry in served.device.action_log]
