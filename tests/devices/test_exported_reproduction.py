"""The exported reproduction of a defect, run on its own: a plain pytest file on uiautomator2, against the
virtual device over the real adb stack, fails the way the item failed while the defect is there, and
passes on a build of the app with it fixed.

The spec's features clear the app's data (`reset: data`), so the way starts at the notes app's login
wall, as a developer's fresh install would: the exported test types the user name and reads the password
(typed into a password field, never written down) from FAIRY_TYPED_2.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from device_helpers import NOTES_APP, Farm, run_exported

from fairy_virtual.wire.u2server import METHOD_NOT_FOUND, RpcError, UiautomatorServer
from tests.core.test_keeps_kept import RECIPES, SPEC
from tests.explorer.inline_apps import write_suite
from tests.goals.test_goal_verdicts import DRAWER, DRAWER_SPEC

pytestmark = pytest.mark.wire

REPO = Path(__file__).resolve().parents[2]
# The seeded defects of the notes app, and what a fixed build does instead.
CRASH = "on_tap:\n          - crash:"
# The drawer app's Settings, and a build of it that turns Dark mode off whenever Settings is shown.
SETTINGS = "    title: Settings\n"
FORGETTING = SETTINGS + "    on_show: [{set: {dark: false}}]\n"
ANR = 'on_tap: [{anr: {reason: "Input dispatching timed out (BackupActivity is not responding)"}}]'


@pytest.fixture
def bare(pytester: pytest.Pytester, lock_dir: Path) -> pytest.Pytester:
    """A pytest project configured for pytest_fairy, with no suite in it yet."""
    pytester.makeini(f"[pytest]\nfairy_artifacts = .fairy\nfairy_lock_dir = {lock_dir}\n")
    return pytester


@pytest.fixture
def project(bare: pytest.Pytester) -> pytest.Pytester:
    pytester = bare
    shutil.copytree(REPO / "example_suites", pytester.path / "example_suites")
    shutil.copytree(REPO / "example_defects", pytester.path / "example_defects")
    spec_path = pytester.path / "example_defects" / "test_notes_defects.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    for feature in spec["features"]:
        feature["reset"] = "data"
    spec_path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return pytester


def red_then_green(
    project: pytest.Pytester,
    farm: Farm,
    runs: Path,
    suite: str,
    broken: Path,
    clean: Path,
    failure: str,
    *options: str,
) -> tuple[Path, str]:
    """Run the project's `suite` on the app model `broken`: its one item fails, its output matching
    `failure` (run with `options`); the reproduction it exported fails on that build and passes on `clean`. The exported file
    and its red run's output."""
    device = farm.serve(broken)
    result = project.runpytest(
        suite, *options, f"--fairy-adb={farm.address}", f"--fairy-device={device.serial}"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([failure])
    (exported,) = (project.path / ".fairy").rglob("test_reproduce_*.py")
    failing = run_exported(exported, device, farm, runs / "red")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    passing = run_exported(exported, farm.serve(clean), farm, runs / "green")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    return exported, failing.stdout


def fixed_notes_app(folder: Path) -> Path:
    """The notes app with its crash and its ANR fixed: the buttons do what the features expect."""
    shutil.copytree(NOTES_APP, folder)
    model = folder / "app.yaml"
    text = model.read_text(encoding="utf-8")
    assert CRASH in text and ANR in text, "the notes app's seeded defects moved: update this test"
    crash_block = text[text.index(CRASH) : text.index("      - {class: TextView, id: tv_agreement")]
    text = text.replace(crash_block, "on_tap: [{replace: update_done}]\n")
    text = text.replace(ANR, "on_tap: [{replace: backup_done}]")
    text = text.replace(
        "\ndialogs:\n",
        "\n  - {id: update_done, activity: .ui.AboutActivity, title: 检查更新,"
        " elements: [{class: TextView, text: 已是最新版本}]}\n"
        "  - {id: backup_done, activity: .ui.BackupActivity, title: 数据备份,"
        " elements: [{class: TextView, text: 备份完成}]}\n\ndialogs:\n",
    )
    model.write_text(text, encoding="utf-8")
    return folder


def test_the_exported_test_fails_on_the_defect_and_passes_once_it_is_fixed(
    project: pytest.Pytester, farm: Farm, tmp_path: Path
) -> None:
    notes = farm.serve(NOTES_APP)
    result = project.runpytest(
        "example_defects", f"--fairy-adb={farm.address}", f"--fairy-device={notes.serial}"
    )
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "*app crashed*(reproduced 2/2 in 6 steps)*",
            "(reproduce it on its own: ANDROID_SERIAL=<serial> FAIRY_TYPED_2=... python -m pytest "
            ".fairy/sessions/*/test_reproduce_check_for_updates.py)",
        ]
    )
    exported = {p.name: p for p in (project.path / ".fairy").rglob("test_reproduce_*.py")}
    assert set(exported) == {"test_reproduce_check_for_updates.py", "test_reproduce_backup.py"}
    assert (exported["test_reproduce_backup.py"].parent / "backup.maestro.yaml").is_file()

    crash = run_exported(exported["test_reproduce_check_for_updates.py"], notes, farm, tmp_path / "crash")
    assert crash.returncode == 1, crash.stdout + crash.stderr
    assert "AssertionError: the app crashed:" in crash.stdout
    assert "java.lang.NullPointerException" in crash.stdout
    # Without the password it types, the test is an error of its setup that names what to set, not a
    # failure that looks like the defect; nothing of the environment is printed.
    unset = run_exported(
        exported["test_reproduce_check_for_updates.py"],
        notes,
        farm,
        tmp_path / "unset",
        {"FAIRY_TYPED_2": None},
    )
    assert unset.returncode == 1, unset.stdout + unset.stderr
    assert "1 error" in unset.stdout and "AssertionError" not in unset.stdout
    assert "set FAIRY_TYPED_2 in the environment: the values it types" in unset.stdout
    assert "ANDROID_ADB_SERVER_PORT" not in unset.stdout + unset.stderr
    anr = run_exported(exported["test_reproduce_backup.py"], notes, farm, tmp_path / "anr")
    assert anr.returncode == 1, anr.stdout + anr.stderr
    assert "AssertionError: the app is not responding:" in anr.stdout
    assert "ANR in com.example.notes" in anr.stdout

    fixed = farm.serve(fixed_notes_app(tmp_path / "fixed_notes"))
    for name, folder in (
        ("test_reproduce_check_for_updates.py", "fixed1"),
        ("test_reproduce_backup.py", "fixed2"),
    ):
        passed = run_exported(exported[name], fixed, farm, tmp_path / folder)
        assert passed.returncode == 0, passed.stdout + passed.stderr


def test_a_done_when_never_seen_exports_a_test_that_waits_for_it_and_fails_until_the_button_works(
    bare: pytest.Pytester, farm: Farm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/untuned/dead_button: 检查更新 was never wired. The export ends by waiting for that tap to
    change the screen: it fails on the broken build and passes on its twin where the button works."""
    untuned = REPO / "tests" / "untuned"
    failure = "*(reproduced 2/2 in 3 steps)*"  # 我的, 设置, 检查更新: no detour
    exported, red = twins(bare, farm, tmp_path, untuned / "dead_button", failure, "-k", "updates")
    source = exported.read_text(encoding="utf-8")
    assert (
        "before = _screen(d)\n    d(resourceId='com.example.kuaikan:id/row_check_update').click()" in source
    )
    assert (
        """assert _within(WAIT_SECONDS, lambda: _screen(d) != before), "not so: tapping '检查更新' changes"""
        in source
    )
    assert "AssertionError: not so: tapping '检查更新' changes the screen" in red

    # A uiautomator2 server without waitForIdle (an older or a vendor's build): the test pauses instead.
    def old_server(self: UiautomatorServer, timeout_ms: int = 0) -> None:
        raise RpcError(METHOD_NOT_FOUND, "Method not found: waitForIdle")

    monkeypatch.setattr(UiautomatorServer, "wait_for_idle", old_server)
    older = farm.serve(untuned / "dead_button_clean")
    passing = run_exported(exported, older, farm, tmp_path / "older")
    assert passing.returncode == 0, passing.stdout + passing.stderr


def test_a_lost_setting_exports_a_test_of_the_switch_that_fails_until_the_app_keeps_it(
    bare: pytest.Pytester, farm: Farm, tmp_path: Path
) -> None:
    """tests/unseen/reader_settings: the library turns night mode off each time it comes back. The export
    walks there and back and checks the switch: red on that build, green on its clean twin."""
    failure = "*showed 'Night reading mode' off again, though step * turned it on*"
    _, red = twins(bare, farm, tmp_path, REPO / "tests" / "unseen" / "reader_settings", failure)
    assert "AssertionError: not so: 'Night reading mode' stays on" in red


def test_a_setting_lost_behind_a_drawer_exports_a_walk_through_the_drawer_and_back(
    bare: pytest.Pytester, farm: Farm, tmp_path: Path
) -> None:
    """Settings only in the navigation drawer, Dark mode turned off whenever Settings is shown: the export
    opens the drawer again on its way back, red on that build, green on the one that keeps the switch."""
    suite = write_suite(bare.path / "reader", DRAWER.replace(SETTINGS, FORGETTING), DRAWER_SPEC)
    clean = write_suite(tmp_path / "clean", DRAWER, DRAWER_SPEC)
    red_then_green(bare, farm, tmp_path, "reader", suite, clean, "*no longer held on Settings after*")


# A shop whose delivery form refuses the tester's own phone number, and keeps the error on the page
# when the run leaves it and comes back; its twin opens the review.
REFUSING_SHOP = """
app: {name: Corner Shop, package: com.example.cornershop, launch: home}
variables: {basket: 0, refused: false, name: '', phone: ''}
screens:
  - id: home
    activity: .HomeActivity
    title: Corner Shop
    up: false
    elements:
      - {class: ImageButton, id: action_basket, desc: Basket, on_tap: [{go: basket}]}
      - {id: row_tea, text: Green tea · $3, on_tap: [{go: tea}]}
      - {id: row_honey, text: Honey · $6, on_tap: [{go: honey}]}
  - id: tea
    activity: .ProductActivity
    title: Green tea
    elements:
      - {class: Button, id: btn_add, text: Add to basket, on_tap: [{inc: {basket: 1}}, {toast: Added to basket}]}
  - id: honey
    activity: .ProductActivity
    title: Honey
    elements:
      - {class: Button, id: btn_add, text: Add to basket, on_tap: [{inc: {basket: 1}}, {toast: Added to basket}]}
  - id: basket
    activity: .BasketActivity
    title: Basket
    elements:
      - {id: tv_count, text: "Items in basket: {var:basket}"}
      - {when: "basket > 0", class: Button, id: btn_proceed, text: Proceed to delivery, on_tap: [{go: delivery}]}
  - id: delivery
    activity: .DeliveryActivity
    title: Delivery details
    elements:
      - {class: EditText, id: et_name, hint: Full name, var: name}
      - {class: EditText, id: et_phone, hint: Phone number, var: phone}
      - {when: refused, id: tv_error, text: Invalid phone number}
      - {class: Button, id: btn_confirm, text: Confirm details, on_tap: [{set: {refused: true}}]}
  - id: review
    activity: .ReviewActivity
    title: Review
    elements:
      - {text: Deliver to Alex Morgan}
"""
SHOP_SPEC = """
app: {name: Corner Shop, package: com.example.cornershop, virtual: app.yaml}
defaults:
  inputs: {Full name: Alex Morgan, Phone number: '5550123456'}
features:
  - name: delivery details
    goal: add a product to the basket, open the basket, proceed to delivery, fill in the delivery details and
      confirm them
    max_steps: 40
    done_when:
      - visible: Deliver to Alex Morgan
"""


def test_a_refusal_met_again_after_a_change_of_data_exports_a_test_that_passes_once_the_form_accepts(
    bare: pytest.Pytester, farm: Farm, tmp_path: Path
) -> None:
    """Confirm refuses the phone number; a second product goes into the basket; back on the form, which still
    shows the error, Confirm changes nothing. That last tap is the evidence, and the walk to it leaves out
    the earlier taps of Confirm: on the fixed app they open the review, and the rest of the walk would not
    be found there. So the export is red on the refusing shop and green on its twin."""
    shop = write_suite(bare.path / "shop", REFUSING_SHOP, SHOP_SPEC)
    accepting = REFUSING_SHOP.replace("on_tap: [{set: {refused: true}}]", "on_tap: [{go: review}]")
    fixed = write_suite(tmp_path / "fixed", accepting, SHOP_SPEC)
    _, red = red_then_green(
        bare,
        farm,
        tmp_path,
        "shop",
        shop,
        fixed,
        "*(tap * Confirm details on Delivery details) showed 'Invalid phone number'*",
    )
    assert "AssertionError: not so: tapping 'Confirm details' shows no 'Invalid phone number'" in red


def test_a_keep_not_kept_exports_a_test_of_its_page_that_fails_until_the_app_keeps_it(
    bare: pytest.Pytester, farm: Farm, tmp_path: Path
) -> None:
    """The recipes app that says `Recipe saved` and keeps nothing: the export walks to Saved recipes and
    checks it no longer says it holds none - red on that build, green on the one that keeps."""
    forgetting = RECIPES.replace("[{set: {saved: true}}, {toast", "[{toast")
    pantry = write_suite(bare.path / "pantry", forgetting, SPEC)
    clean = write_suite(tmp_path / "clean", RECIPES, SPEC)
    red_then_green(
        bare,
        farm,
        tmp_path,
        "pantry",
        pantry,
        clean,
        "*showed 'No saved recipes yet', though step * (Save recipe) said 'Recipe saved'*",
    )


def twins(
    project: pytest.Pytester, farm: Farm, runs: Path, suite: Path, failure: str, *options: str
) -> tuple[Path, str]:
    """`red_then_green` on a suite of the repository's corpora and its `_clean` twin beside it."""
    shutil.copytree(suite, project.path / suite.name)
    clean = suite.with_name(f"{suite.name}_clean") / "app.yaml"
    return red_then_green(project, farm, runs, suite.name, suite / "app.yaml", clean, failure, *options)
