"""A defect's exports (`report/exports.py`): the reproduction in words, a pytest test on uiautomator2 and a
Maestro flow. The pytest file is run against a device in tests/devices/test_exported_reproduction.py;
here its text is checked, and the Maestro flow is checked against Maestro's documented command schema.
"""

from __future__ import annotations

import ast
import re
import types
from dataclasses import replace
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.explore.evidence import Against, Contradiction
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.recorded_action import RecordedAction
from pytest_fairy.explore.reproduction import NO_WAY, Move, Proof, Reproduction, Selector, Way
from pytest_fairy.report.export_maestro import UNICODE_HEADER, escape
from pytest_fairy.report.exports import TEXT_FILE, exports
from pytest_fairy.spec.model import Oracle, OracleKind

PACKAGE = "com.shop"
PASSWORD = "hunter2-secret"


def move(step: int, kind: str, selector: Selector | None, words: str, **action: Any) -> Move:
    return Move(step, RecordedAction(kind, ref=f"r{step}", **action), selector, words, f"s{step}", f"screen {step}")


SIGN_IN_AND_PAY = (
    move(1, "type", Selector(resource_id="com.shop:id/user"), "type [1] 用户名 '{{SHOP_USER}}'", text="{{SHOP_USER}}"),
    move(2, "type", Selector(resource_id="com.shop:id/pass"), "type [2] *** '••••••'", text=PASSWORD),
    move(3, "tap", Selector(text="登录 (2)"), "tap [3] 登录 (2)"),
    move(4, "scroll", None, "scroll down", direction="down"),
    move(5, "scroll", Selector(resource_id="com.shop:id/list"), "scroll [4] right", direction="right"),
    move(6, "long_tap", Selector(text="Buy"), "long_tap [5] Buy"),
    move(7, "back", None, "back"),
    move(8, "enter", None, "enter"),
    move(9, "tap", Selector(description="Pay $15"), "tap [2] Pay $15"),
)
CRASH = Finding("crash", "app crashed: java.lang.IllegalStateException: no card", "FATAL EXCEPTION: main\n...")


def reproduction(
    moves: tuple[Move, ...] = SIGN_IN_AND_PAY,
    finding: Finding = CRASH,
    proof: Proof = Proof.ORACLES,
    done_when: tuple[Oracle, ...] = (Oracle(kind=OracleKind.VISIBLE, value="支付成功"),),
    must_not: tuple[Oracle, ...] = (Oracle(kind=OracleKind.CRASH),),
    reproduced: int = 2,
    against: Against | None = None,
) -> Reproduction:
    way = Way(moves, "s10", "the shortest known path")
    return Reproduction(
        PACKAGE, ".MainActivity", True, finding, way, 2, reproduced, done_when, must_not, proof, against=against
    )


def test_a_crash_exports_its_words_a_pytest_file_and_a_maestro_flow() -> None:
    files = exports(reproduction(), "pay by card")
    assert set(files) == {TEXT_FILE, "test_reproduce_pay_by_card.py", "pay_by_card.maestro.yaml"}
    text = files[TEXT_FILE]
    assert text.startswith("pay by card: app crashed: java.lang.IllegalStateException: no card\n")
    assert "pytest_fairy reproduced 3/3 in 9 steps, following the shortest known path" in text
    assert "  2. type [2] *** '••••••'  (on screen 2)" in text
    assert "Expected instead: no crash" in text
    # Every variable the test reads is named where it is run, not only in its docstring.
    run = "ANDROID_SERIAL=<serial> SHOP_USER=... FAIRY_TYPED_2=... python -m pytest test_reproduce_pay_by_card.py"
    assert f"test_reproduce_pay_by_card.py: {run}" in text


def test_the_pytest_file_finds_elements_by_selectors_and_checks_the_defect() -> None:
    source = exports(reproduction(), "pay by card")["test_reproduce_pay_by_card.py"]
    ast.parse(source)  # valid Python
    body = source[source.index("def test_pay_by_card(") : source.index("def _settle(")]
    assert "d(resourceId='com.shop:id/user').set_text(os.environ['SHOP_USER'])" in body
    assert "d(resourceId='com.shop:id/pass').set_text(os.environ['FAIRY_TYPED_2'])" in body
    assert "d(text='登录 (2)').click()" in body
    assert "_scroll(d, 'down')" in body
    assert "_scroll(d, 'right', d(resourceId='com.shop:id/list'))" in body
    assert "d(text='Buy').long_click()" in body
    assert 'd.press("back")' in body and 'd.press("enter")' in body
    assert "d(description='Pay $15').click()" in body
    assert "found = _within(WAIT_SECONDS, lambda: _crash(d))" in body
    assert "CLEAR_DATA = True" in source and "ACTIVITY = '.MainActivity'" in source
    # Never coordinates: every tap goes through a selector.
    assert not re.search(r"d\.(click|long_click|swipe)\(\s*\d", body)


def test_no_export_holds_a_typed_password_or_a_secrets_value() -> None:
    for text in exports(reproduction(), "pay by card").values():
        assert PASSWORD not in text
    flow = exports(reproduction(), "pay by card")["pay_by_card.maestro.yaml"]
    assert "# Run: maestro test -e SHOP_USER=... -e FAIRY_TYPED_2=... <this file>" in flow


NEVER_SEEN = Finding("never_seen", "explored the feature to its end but never saw: visible: 支付成功; step 9 ...")


@pytest.mark.parametrize(
    ("finding", "proof", "must_not", "against", "expected"),
    [
        (
            Finding("anr", "app not responding (ANR): Input dispatching timed out"),
            Proof.ORACLES,
            (),
            None,
            "found = _within(ANR_WAIT_SECONDS, lambda: _anr(d))",
        ),
        (
            Finding("visible", "must_not condition seen: visible: 系统繁忙"),
            Proof.ORACLES,
            (Oracle(kind=OracleKind.VISIBLE, value="系统繁忙"), Oracle(kind=OracleKind.CRASH)),
            None,
            # Watched for the whole wait: a text that shows a moment late still fails the test.
            "assert not _within(WAIT_SECONDS, lambda: _visible(d, '系统繁忙')), 'seen: visible: 系统繁忙'",
        ),
        (
            NEVER_SEEN,
            Proof.NEVER_SEEN,
            (),
            Against(Contradiction.NOTHING, "Pay $15"),
            # The last step must change the screen: never the done-when, which may need steps after it.
            'assert _within(WAIT_SECONDS, lambda: _screen(d) != before), "not so: tapping \'Pay $15\' changes the screen"',
        ),
        (
            NEVER_SEEN,
            Proof.NEVER_SEEN,
            (),
            Against(Contradiction.ERROR, "Pay $15", "支付失败"),
            'assert not _within(WAIT_SECONDS, lambda: _visible(d, \'支付失败\')), "not so: tapping \'Pay $15\' shows no \'支付失败\'"',
        ),
        (
            NEVER_SEEN,
            Proof.NEVER_SEEN,
            (),
            Against(Contradiction.WRONG_SCREEN, "Pay $15", "我的收藏"),
            'assert not _within(WAIT_SECONDS, lambda: _visible(d, \'我的收藏\')), "not so: tapping \'Pay $15\' does not open 我的收藏"',
        ),
        (
            NEVER_SEEN,
            Proof.NEVER_SEEN,
            (),
            Against(Contradiction.FORGOTTEN, "Save", missing="Lisbon"),
            # The page of kept things must list what the keep kept.
            'assert _within(WAIT_SECONDS, lambda: _visible(d, \'Lisbon\')), "not so: what \'Save\' kept lists \'Lisbon\'"',
        ),
        (
            NEVER_SEEN,
            Proof.NEVER_SEEN,
            (),
            Against(Contradiction.ACCEPTED, "保存", "共 2 个收货地址"),
            # The empty form must stay: the page it went on to is not shown.
            'assert not _within(WAIT_SECONDS, lambda: _visible(d, \'共 2 个收货地址\')), "not so: tapping \'保存\' on the empty form keeps it there, not \'共 2 个收货地址\'"',
        ),
    ],
    ids=[
        "anr",
        "must-not-visible",
        "never-seen-nothing",
        "never-seen-error",
        "never-seen-wrong-screen",
        "kept-unlisted",
        "accepted-empty",
    ],
)
def test_each_kind_of_defect_ends_with_its_own_check(
    finding: Finding, proof: Proof, must_not: tuple[Oracle, ...], against: Against | None, expected: str
) -> None:
    made = reproduction(finding=finding, proof=proof, must_not=must_not, against=against)
    source = exports(made, "pay")["test_reproduce_pay.py"]
    body = source[source.index("def test_pay(") : source.index("def _settle(")]
    assert expected in body
    assert body.count("assert ") == 1  # the defect's own check, nothing else


def test_a_judges_finding_is_not_exported_as_a_test_that_would_pass_on_the_broken_screen() -> None:
    """The judge is asked once the done-when conditions hold: checking them would pass on the very
    screen the judge found broken."""
    finding = Finding("judge", "the total is wrong")
    files = exports(reproduction(finding=finding, proof=Proof.SCREEN), "pay")
    assert set(files) == {TEXT_FILE}
    text = files[TEXT_FILE]
    assert "test_reproduce_pay.py is not written: no uiautomator2 check can tell the defect: the judge's finding" in text
    assert "pay.maestro.yaml is not written: Maestro cannot check this defect (judge)" in text


def test_a_step_that_changed_nothing_is_checked_from_the_screen_it_was_taken_on() -> None:
    """The screen is read just before the last step, and must differ after it; Maestro cannot compare two
    screens, so no flow is written, and the text says why."""
    files = exports(reproduction(finding=NEVER_SEEN, proof=Proof.NEVER_SEEN, against=Against(Contradiction.NOTHING, "Pay $15")), "pay")
    body = files["test_reproduce_pay.py"]
    assert "before = _screen(d)\n    d(description='Pay $15').click()" in body
    assert body.count("before = _screen(d)") == 1
    assert "pay.maestro.yaml is not written: Maestro cannot check this defect (never_seen)" in files[TEXT_FILE]


def test_a_wrong_screen_is_a_flow_that_asserts_the_screen_is_not_shown() -> None:
    against = Against(Contradiction.WRONG_SCREEN, "Pay $15", "我的收藏")
    flow = exports(reproduction(finding=NEVER_SEEN, proof=Proof.NEVER_SEEN, against=against), "pay")["pay.maestro.yaml"]
    assert flow.endswith("# should be: tapping 'Pay $15' does not open 我的收藏\n- assertNotVisible:\n    text: .*我的收藏.*\n")


def test_a_never_seen_defect_without_a_step_against_it_is_not_exported() -> None:
    """Without the step's contradiction, only the done-when is left to check, which may need steps the
    run never took: a test of it could fail on the fixed app."""
    files = exports(reproduction(finding=NEVER_SEEN, proof=Proof.NEVER_SEEN), "pay")
    assert "test_reproduce_pay.py" not in files and "pay.maestro.yaml" not in files
    assert "no uiautomator2 check can tell the defect: " in files[TEXT_FILE]


def test_a_view_named_only_by_its_class_is_tapped_by_class_in_pytest_and_not_exported_to_maestro() -> None:
    nameless = move(1, "tap", Selector(class_name="android.view.View", instance=2), "tap [7]")
    files = exports(reproduction(moves=(nameless,)), "pay")
    assert "d(className='android.view.View', instance=2).click()" in files["test_reproduce_pay.py"]
    assert "pay.maestro.yaml" not in files
    assert "pay.maestro.yaml is not written: Maestro cannot select a view by its class" in files[TEXT_FILE]


def test_a_defect_not_reproduced_says_so_in_every_file() -> None:
    files = exports(reproduction(reproduced=0), "pay")
    assert "pytest_fairy seen once, not reproduced in 2 replays" in files[TEXT_FILE]
    assert "seen once, not reproduced in 2 replays" in files["test_reproduce_pay.py"]


# -- Maestro's command schema ------------------------------------------------------------------------------
# From Maestro's documentation (docs.maestro.dev: reference/commands-available, reference/selectors) and
# its YAML model (mobile-dev-inc/maestro, maestro-orchestra: YamlElementSelector.kt, YamlSwipe.kt): the
# commands an export may use, with the keys each documents. Text and id are regular expressions matched
# against the whole text.
SELECTOR_KEYS = {
    "text", "id", "index", "point", "width", "height", "tolerance", "enabled", "checked", "focused",
    "selected", "below", "above", "leftOf", "rightOf", "containsChild", "containsDescendants", "traits",
    "optional", "label", "retryTapIfNoChange", "waitUntilVisible", "repeat", "delay",
}
LAUNCH_KEYS = {"appId", "clearState", "clearKeychain", "stopApp", "permissions", "arguments", "label"}
SWIPE_DIRECTIONS = {"UP", "DOWN", "LEFT", "RIGHT"}
SCROLL_UNTIL_KEYS = {"element", "direction", "timeout", "speed", "visibilityPercentage", "centerElement", "label"}
PRESS_KEYS = {"Enter", "Backspace", "Back", "Home", "Lock", "Tab", "Power", "Volume Up", "Volume Down"}
BARE_COMMANDS = {"launchApp", "scroll", "back", "hideKeyboard", "eraseText"}


def check_selector(where: str, selector: Any) -> None:
    if isinstance(selector, str):
        return
    assert isinstance(selector, dict) and selector, f"{where}: a selector is a text or a map"
    assert set(selector) <= SELECTOR_KEYS, f"{where}: unknown selector keys {set(selector) - SELECTOR_KEYS}"
    assert "point" not in selector, f"{where}: an export never taps coordinates"
    for key in ("text", "id"):
        if key in selector:
            re.compile(selector[key])
    if "index" in selector:
        assert isinstance(selector["index"], int) and selector["index"] >= 0


def check_command(where: str, command: Any) -> None:
    if isinstance(command, str):
        assert command in BARE_COMMANDS, f"{where}: {command!r} is not a command without arguments"
        return
    assert isinstance(command, dict) and len(command) == 1, f"{where}: one command per list item"
    ((name, value),) = command.items()
    match name:
        case "launchApp":
            assert isinstance(value, str) or set(value) <= LAUNCH_KEYS, f"{where}: {value}"
            if isinstance(value, dict):
                assert all(isinstance(value.get(k, False), bool) for k in ("clearState", "stopApp"))
        case "tapOn" | "longPressOn" | "assertVisible" | "assertNotVisible":
            check_selector(where, value)
        case "inputText":
            assert isinstance(value, str) or (isinstance(value, dict) and set(value) <= {"text", "label"})
        case "swipe":
            assert isinstance(value, dict) and value.get("direction") in SWIPE_DIRECTIONS, f"{where}: {value}"
            assert set(value) <= {"direction", "from", "duration", "label"}, f"{where}: {value}"
            if "from" in value:
                check_selector(where, value["from"])
        case "scrollUntilVisible":
            assert isinstance(value, dict) and value.get("direction", "DOWN") in SWIPE_DIRECTIONS, f"{where}: {value}"
            assert set(value) <= SCROLL_UNTIL_KEYS, f"{where}: {value}"
            check_selector(where, value["element"])
        case "pressKey":
            assert value in PRESS_KEYS, f"{where}: unknown key {value!r}"
        case "eraseText":
            assert isinstance(value, int) and value >= 1, f"{where}: eraseText deletes at least one character"
        case _:
            pytest.fail(f"{where}: {name!r} is not a Maestro command an export may use")


def check_flow(text: str) -> list[Any]:
    """A flow file: a config document naming the app, `---`, then a list of commands."""
    config, commands = list(yaml.safe_load_all(text))
    assert isinstance(config, dict) and isinstance(config.get("appId"), str)
    assert isinstance(commands, list) and commands
    for i, command in enumerate(commands):
        check_command(f"command {i}", command)
    return commands


def test_the_maestro_flow_follows_maestros_documented_commands() -> None:
    commands = check_flow(exports(reproduction(), "pay by card")["pay_by_card.maestro.yaml"])
    assert commands[0] == {"launchApp": {"appId": PACKAGE, "clearState": True, "stopApp": True}}
    assert commands[1:5] == [
        {"tapOn": {"id": r"com\.shop:id/user"}},
        {"inputText": "${SHOP_USER}"},
        {"tapOn": {"id": r"com\.shop:id/pass"}},
        {"inputText": "${FAIRY_TYPED_2}"},
    ]
    assert {"tapOn": {"text": r"登录 \(2\)"}} in commands
    assert "scroll" in commands  # a scroll down of the screen
    # Maestro's swipe names the finger's way: showing what is right is a swipe to the left.
    assert {"swipe": {"direction": "LEFT", "from": {"id": r"com\.shop:id/list"}}} in commands
    assert {"longPressOn": {"text": "Buy"}} in commands
    # Pay $15 is a content description: Maestro matches it as text.
    assert commands[-4:-1] == ["back", {"pressKey": "Enter"}, {"tapOn": {"text": r"Pay \$15"}}]
    # A crash shows only in the log, and it closes the app: the flow checks a view of the app is still there.
    assert commands[-1] == {"assertVisible": {"id": r"com\.shop:id/.*"}}


def test_what_a_field_showed_is_erased_before_typing_as_the_run_replaced_it() -> None:
    user, password = replace(SIGN_IN_AND_PAY[0], held=6), replace(SIGN_IN_AND_PAY[1], held=130)
    moves = (user, password, *SIGN_IN_AND_PAY[2:])
    commands = check_flow(exports(reproduction(moves), "pay by card")["pay_by_card.maestro.yaml"])
    assert commands[1:7] == [
        {"tapOn": {"id": r"com\.shop:id/user"}},
        {"eraseText": 6},
        {"inputText": "${SHOP_USER}"},
        {"tapOn": {"id": r"com\.shop:id/pass"}},
        {"eraseText": 130},
        {"inputText": "${FAIRY_TYPED_2}"},
    ]


def test_scrolls_down_a_list_to_a_row_become_one_scroll_until_the_row_shows() -> None:
    """Maestro's swipe moves a list by its own distance, not the run's: three of them could stop short of
    the row or pass it, so the flow scrolls until the row shows. Sideways, or with no row after, it swipes."""
    rows = Selector(resource_id="com.shop:id/rows")
    row = Selector(text="Item 40")

    def scroll(step: int, direction: str = "down", mark: int = 2) -> Move:
        words = f"scroll [{mark}] rows {direction}"
        return Move(step, RecordedAction("scroll", ref="rows", mark=mark, direction=direction), rows, words, "s", "")

    tap = move(4, "tap", row, "tap [7] Item 40")
    commands = check_flow(exports(reproduction((scroll(1), scroll(2, mark=3), scroll(3), tap)), "pay")["pay.maestro.yaml"])
    assert commands[1:] == [
        {"scrollUntilVisible": {"element": {"text": "Item 40"}, "direction": "DOWN", "centerElement": True}},
        {"tapOn": {"text": "Item 40"}},
        {"assertVisible": {"id": r"com\.shop:id/.*"}},
    ]
    flow = exports(reproduction((scroll(1), scroll(2, "up"), tap)), "pay")["pay.maestro.yaml"]
    assert "# 1. scroll [2] rows down\n- swipe:" in flow
    assert "# 2. scroll [2] rows up, until the next element shows\n- scrollUntilVisible:" in flow
    sideways = check_flow(exports(reproduction((scroll(1, "right"), tap)), "pay")["pay.maestro.yaml"])
    assert sideways[1] == {"swipe": {"direction": "LEFT", "from": {"id": r"com\.shop:id/rows"}}}


def test_a_crash_with_no_view_of_the_apps_named_by_id_gets_no_flow() -> None:
    """Without an id of the app's on the way, the flow could not tell the app is still there."""
    by_text = tuple(replace(m, selector=Selector(text="登录 (2)")) for m in SIGN_IN_AND_PAY[2:3])
    files = exports(reproduction(by_text), "pay")
    assert "pay.maestro.yaml" not in files
    assert "pay.maestro.yaml is not written: a crash closes the app, and Maestro sees only the screen" in files[TEXT_FILE]


@pytest.mark.parametrize(
    ("finding", "must_not", "expected"),
    [
        (Finding("visible", "must_not condition seen: visible: 系统繁忙"), (Oracle(kind=OracleKind.VISIBLE, value="系统繁忙"),),
         {"assertNotVisible": {"text": ".*系统繁忙.*"}}),
        (Finding("not_visible", "must_not condition seen: not_visible: 购物车"), (Oracle(kind=OracleKind.NOT_VISIBLE, value="购物车"),),
         {"assertVisible": {"text": ".*购物车.*"}}),
    ],
    ids=["must-not-visible", "must-not-not-visible"],
)
def test_a_must_not_condition_becomes_its_opposite_in_the_flow(
    finding: Finding, must_not: tuple[Oracle, ...], expected: dict[str, Any]
) -> None:
    commands = check_flow(exports(reproduction(finding=finding, must_not=must_not), "pay")["pay.maestro.yaml"])
    assert commands[-1] == expected


@given(st.text(min_size=1, max_size=30))
def test_an_escaped_text_matches_itself_whole_and_nothing_longer(text: str) -> None:
    pattern = re.compile(escape(text))
    assert pattern.fullmatch(text)
    assert not pattern.fullmatch(text + "x")


def test_messages_and_labels_with_backslashes_quotes_and_line_breaks_still_make_valid_files() -> None:
    finding = Finding("crash", 'app crashed: FileNotFoundException: C:\\users\\x.txt """ \\u12', "FATAL EXCEPTION")
    moves = (move(1, "tap", Selector(resource_id="com.shop:id/item"), "tap [3] 商品\n¥12"),)
    files = exports(reproduction(moves=moves, finding=finding), "第①步 pay")
    source = files["test_reproduce_第_步_pay.py"]
    ast.parse(source)
    assert "# 1. tap [3] 商品 ¥12 (on screen 1)" in source
    check_flow(files["第_步_pay.maestro.yaml"])


def test_views_told_apart_only_by_their_place_get_no_maestro_flow() -> None:
    """Maestro's index counts by place on the screen, uiautomator's instance by the tree."""
    buy = move(1, "tap", Selector(text="Buy", instance=1), "tap [5] Buy")
    files = exports(reproduction(moves=(buy,)), "pay")
    assert "d(text='Buy', instance=1).click()" in files["test_reproduce_pay.py"]
    assert "pay.maestro.yaml is not written: Maestro would not find the same view" in files[TEXT_FILE]


def test_text_other_than_ascii_is_typed_by_maestro_2_7_and_later() -> None:
    typed = move(1, "type", Selector(resource_id="com.shop:id/q"), "type [1] 搜索 '麦辣鸡腿堡'", text="麦辣鸡腿堡")
    files = exports(reproduction(moves=(typed,)), "pay")
    assert "d(resourceId='com.shop:id/q').set_text('麦辣鸡腿堡')" in files["test_reproduce_pay.py"]
    flow = files["pay.maestro.yaml"]
    assert "- inputText: 麦辣鸡腿堡" in flow and UNICODE_HEADER in flow
    check_flow(flow)
    # Text in ASCII alone needs no particular version.
    typed = move(1, "type", Selector(resource_id="com.shop:id/q"), "type [1] 搜索 'burger'", text="burger")
    assert UNICODE_HEADER not in exports(reproduction(moves=(typed,)), "pay")["pay.maestro.yaml"]


def test_text_maestro_would_run_as_javascript_gets_no_flow() -> None:
    typed = move(1, "type", Selector(resource_id="com.shop:id/q"), "type [1] 搜索 '${x}'", text="${x}")
    files = exports(reproduction(moves=(typed,)), "pay")
    assert "pay.maestro.yaml" not in files
    assert "Maestro would run it as JavaScript" in files[TEXT_FILE]


def test_an_element_named_by_a_secret_is_not_written_down() -> None:
    account = move(1, "tap", Selector(text="{{SHOP_USER}}"), "tap [2] {{SHOP_USER}}")
    files = exports(reproduction(moves=(account,)), "pay")
    assert set(files) == {TEXT_FILE}
    assert "an element is named by a secret" in files[TEXT_FILE]


def test_a_crash_message_quoting_a_typed_password_is_masked() -> None:
    finding = Finding("crash", f'app crashed: NumberFormatException: For input string: "{PASSWORD}"', PASSWORD)
    for text in exports(reproduction(finding=finding), "pay by card").values():
        assert PASSWORD not in text


def test_no_way_replayed_leaves_only_the_text() -> None:
    files = exports(replace(reproduction(reproduced=0), way=NO_WAY), "pay")
    assert set(files) == {TEXT_FILE}
    assert "(no way to the defect could be replayed" in files[TEXT_FILE]


# -- the exported test's own helpers, on what a phone would give them ---------------------------------------


class Phone:
    """What the exported helpers read from a device: `logcat -d`, the dump, the last toast."""

    def __init__(self, log: str = "", nodes: tuple[tuple[str, str], ...] = (), toast: str | None = None) -> None:
        self.log = log
        rows = "".join(f'<node package="{p}" text="{t}" content-desc="" />' for p, t in nodes)
        self.xml = f"<?xml version='1.0' ?><hierarchy>{rows}</hierarchy>"
        self.jsonrpc = type("Rpc", (), {"getLastToast": staticmethod(lambda: toast)})()

    def shell(self, command: list[str]) -> object:
        assert command == ["logcat", "-d"]
        return type("Shell", (), {"output": self.log})()

    def dump_hierarchy(self) -> str:
        return self.xml


@pytest.fixture(scope="module")
def helpers() -> Any:
    """The helpers of an exported test for the app `com.shop` named Shop, loaded as the module they are."""
    source = exports(replace(reproduction(), app_name="Shop"), "pay by card")["test_reproduce_pay_by_card.py"]
    module = types.ModuleType("exported")
    exec(compile(source, "test_reproduce_pay_by_card.py", "exec"), module.__dict__)
    return module


FATAL = "E AndroidRuntime: FATAL EXCEPTION: main\nE AndroidRuntime: Process: {p}, PID: 1\nE AndroidRuntime: java.lang.IllegalStateException"
NATIVE = "F libc    : Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid 9 (RenderThread), pid 8 ({p})"


@pytest.mark.parametrize(
    ("phone", "crashed"),
    [
        (Phone(FATAL.format(p="com.shop")), True),
        (Phone("I ActivityManager: start\n" + FATAL.format(p="com.shop").replace("\n", "\nI Other: x\n", 1)), True),
        (Phone(FATAL.format(p="com.other")), False),
        (Phone(NATIVE.format(p="com.shop")), True),
        (Phone(NATIVE.format(p="com.other.app")), False),
        (Phone(NATIVE.format(p="om.shop")), True),  # older Androids keep the last 15 characters
        (Phone(nodes=(("android", "Shop has stopped"), ("android", "Close app"))), True),
        (Phone(nodes=(("android", "Maps has stopped"),)), False),
        (Phone(nodes=(("com.shop", "Shop has stopped"),)), False),  # the app's own text, not the system's
    ],
    ids=["fatal", "fatal-lines-between", "other-app", "native", "native-other", "native-cut", "dialog", "dialog-other-app", "own-text"],
)
def test_the_exported_crash_check_finds_what_the_oracle_finds(helpers: Any, phone: Phone, crashed: bool) -> None:
    assert bool(helpers._crash(phone)) is crashed


def test_the_exported_anr_check_reads_the_log_then_the_dialog(helpers: Any) -> None:
    assert "ANR in com.shop" in helpers._anr(Phone("E ActivityManager: ANR in com.shop (com.shop/.Pay)"))
    assert helpers._anr(Phone(nodes=(("android", "Shop isn't responding"),)))
    assert not helpers._anr(Phone("E ActivityManager: ANR in com.shopping"))


def test_the_exported_visible_check_reads_the_apps_views_and_toast_not_the_keyboard(helpers: Any) -> None:
    keyboard = Phone(nodes=(("com.google.android.inputmethod.latin", "发送"), ("com.shop", "购物车")))
    assert helpers._visible(keyboard, "购物车") and not helpers._visible(keyboard, "发送")
    assert helpers._visible(Phone(toast="支付成功"), "支付成功")
    assert helpers._visible(Phone(nodes=(("com.shop", "Pay NOW"),)), "pay now")  # as the oracle: any case
