"""The emulated `/system/bin/sh` and its commands, run in-process (no adb): parsing, chains, outputs."""

from __future__ import annotations

import shlex
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_helpers import FOOD_APP

from fairy_virtual import VirtualDevice
from fairy_virtual.wire.services import COMMANDS
from fairy_virtual.wire.shell import Shell, ShellSyntaxError, tokenize
from fairy_virtual.wire.system import AndroidSystem

PACKAGE = "com.mcdonalds.gma.cn"


@pytest.fixture(scope="module")
def device() -> VirtualDevice:
    return VirtualDevice(FOOD_APP, latency=False)


class ShellRunner:
    """`sh(line) -> (exit code, stdout, stderr)`, one fresh shell per line, as adb opens one per command."""

    def __init__(self, system: AndroidSystem) -> None:
        self.system = system

    def __call__(self, line: str) -> tuple[int, str, str]:
        out, err = bytearray(), bytearray()
        status = Shell(self.system, COMMANDS, threading.Event()).run(line, out.extend, err.extend)
        return status, out.decode(), err.decode()


@pytest.fixture
def sh(device: VirtualDevice) -> ShellRunner:
    device.launch(PACKAGE)
    return ShellRunner(AndroidSystem(device))


def test_unknown_command_is_127_with_the_shell_message(sh: ShellRunner) -> None:
    assert sh("frobnicate a b") == (127, "", "/system/bin/sh: frobnicate: inaccessible or not found\n")


def test_exit_status_expands_and_chains_follow_posix(sh: ShellRunner) -> None:
    assert sh("frobnicate; echo X4EXIT:$?")[1] == "X4EXIT:127\n"
    assert sh("false && echo no || echo yes")[1] == "yes\n"
    assert sh("true || echo no && echo yes")[1] == "yes\n"
    assert sh("echo '$?' \"$?\" \\$?")[1] == "$? 0 $?\n"


def test_variables_and_prefix_assignments(sh: ShellRunner) -> None:
    assert sh("A=1; echo $A ${A}x")[1] == "1 1x\n"
    assert sh("B=2 echo $B")[1] == "\n"  # a prefix assignment is for the command's environment only


@pytest.mark.parametrize("line", ["echo $(id)", "echo `id`", "echo hi > /sdcard/x", "sleep 1 &", "(echo)",
                                  "echo 'open", 'echo "open', "| echo", "echo ok &&"])
def test_unsupported_or_broken_syntax_is_an_error_not_a_guess(sh: ShellRunner, line: str) -> None:
    status, out, err = sh(line)
    assert status == 2 and out == "" and err.startswith("/system/bin/sh: syntax error")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(codec="utf-8", exclude_characters="\0"), max_size=12),
                min_size=1, max_size=4))
def test_shlex_quoted_words_come_back_literally(words: list[str]) -> None:
    tokens = tokenize(" ".join(shlex.quote(w) for w in words))
    assert [t.expand(lambda name: "EXPANDED") for t in tokens] == words  # type: ignore[union-attr]


def test_tokenize_rejects_command_substitution() -> None:
    with pytest.raises(ShellSyntaxError, match="command substitution"):
        tokenize("echo $(reboot)")


def test_pipes_feed_stdout_to_the_next_command(sh: ShellRunner) -> None:
    status, out, _ = sh("getprop | grep ro.product.model")
    assert status == 0 and out.startswith("[ro.product.model]: [")


def test_dumpsys_window_names_the_focused_app(sh: ShellRunner) -> None:
    out = sh("dumpsys window windows")[1]
    assert "mCurrentFocus=Window{" in out and f" u0 {PACKAGE}/{PACKAGE}.activity.HomeActivity}}" in out
    assert "mFocusedApp=ActivityRecord{" in out


def test_wm_size_and_dumpsys_display(sh: ShellRunner, device: VirtualDevice) -> None:
    width, height = device.window_size()
    assert sh("wm size")[1] == f"Physical size: {width}x{height}\n"
    display = sh("dumpsys display")[1]
    assert "valid=true" in display and f"deviceWidth={width}, deviceHeight={height}" in display


def test_file_commands_on_the_memory_file_system(sh: ShellRunner) -> None:
    assert sh("mkdir -p /sdcard/a/b && touch /sdcard/a/b/f && ls /sdcard/a/b")[1] == "f\n"
    assert sh("mkdir /sdcard/x/y")[0] == 1
    assert sh("chmod 600 /sdcard/a/b/f && ls -l /sdcard/a/b")[1].startswith("-rw------- ")
    assert sh("rm /sdcard/a")[2] == "rm: /sdcard/a: Is a directory\n"
    assert sh("rm -r /sdcard/a; ls /sdcard/a") == (1, "", "ls: /sdcard/a: No such file or directory\n")
    assert sh("rm -f /sdcard/none")[0] == 0
    assert sh("cat /sdcard/none") == (1, "", "cat: /sdcard/none: No such file or directory\n")
    assert sh("md5 /none")[2] == "md5: /none: No such file or directory\n"


def test_mkdir_of_an_existing_path_fails_as_toybox_does(sh: ShellRunner) -> None:
    assert sh("mkdir /data/local/tmp/held") == (0, "", "")
    assert sh("mkdir /data/local/tmp/held") == (1, "", "mkdir: '/data/local/tmp/held': File exists\n")
    assert sh("mkdir -p /data/local/tmp/held")[0] == 0  # -p: an existing directory is fine
    # every operand is tried; the status says whether one failed
    assert sh("mkdir /data/local/tmp/held /data/local/tmp/other; ls /data/local/tmp/other")[1] == ""
    assert sh("mkdir /data/local/tmp/held /data/local/tmp/third")[0] == 1
    assert sh("ls -d /data/local/tmp/third")[0] == 0
    assert sh("mkdir /data/local/tmp/none/x") == (1, "", "mkdir: '/data/local/tmp/none/x': No such file or directory\n")
    assert sh("mkdir") == (1, "", "mkdir: Needs 1 argument\n")
    assert sh("toybox mkdir /data/local/tmp/held")[2] == "mkdir: '/data/local/tmp/held': File exists\n"
    assert sh("rm -r /data/local/tmp/held && mkdir /data/local/tmp/held")[0] == 0


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["mkdir", "rm"]), max_size=12))
def test_mkdir_is_a_test_and_set(ops: list[str]) -> None:
    """mkdir succeeds exactly when the directory is not there: what pytest_fairy's device lease relies on."""
    run = ShellRunner(AndroidSystem(VirtualDevice(FOOD_APP, latency=False)))
    there = False
    for op in ops:
        status = run(f"{op} {'-r ' if op == 'rm' else ''}/data/local/tmp/lease")[0]
        if op == "mkdir":
            assert (status == 0) == (not there)
            there = True
        else:
            assert (status == 0) == there
            there = False


def test_settings_and_ime(sh: ShellRunner) -> None:
    assert sh("settings get secure default_input_method")[1] == "com.android.inputmethod.latin/.LatinIME\n"
    assert sh("settings put system show_touches 1; settings get system show_touches")[1] == "1\n"
    assert sh("settings put system show_touches 0; settings get system show_touches")[1] == "0\n"
    assert sh("settings --user 0 get system show_touches")[1] == "0\n"
    assert sh("settings get global nothing")[1] == "null\n"
    assert sh("ime list -s -a")[1] == "com.android.inputmethod.latin/.LatinIME\n"
    status, _, err = sh("ime enable com.github.uiautomator/.AdbKeyboard")
    assert status == 1 and "Unknown input method" in err


def test_packages_processes_and_monkey(sh: ShellRunner) -> None:
    assert f"package:{PACKAGE}\n" in sh("pm list packages")[1]
    third_party = sh("pm list packages -3")[1]
    assert f"package:{PACKAGE}\n" in third_party and "launcher3" not in third_party
    assert sh(f"pm path {PACKAGE}")[1].startswith("package:/data/app/")
    assert sh("pm path com.nowhere") == (1, "", "")
    assert sh(f"pidof {PACKAGE}")[0] == 0
    assert sh("ps -A")[1].splitlines()[-1].split()[-1] == PACKAGE
    assert sh(f"am force-stop {PACKAGE}; pidof {PACKAGE}")[0] == 1
    assert "Events injected: 1" in sh(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")[1]
    assert sh("monkey -p com.nowhere -c android.intent.category.LAUNCHER 1")[0] == 251
    assert sh("monkey 500")[0] == 1


def test_input_keyevent_names_and_errors(sh: ShellRunner, device: VirtualDevice) -> None:
    assert sh("input keyevent HOME")[0] == 0
    assert device.current_app().package == "com.android.launcher3"
    assert sh("input keyevent KEYCODE_NOPE") == (1, "", "Error: Unknown keycode: KEYCODE_NOPE\n")
    assert sh("input tap 1")[0] == 1
    assert sh("input tap a b")[0] == 1


def test_uiautomator_dump_writes_the_hierarchy_file(sh: ShellRunner) -> None:
    status, out, _ = sh("rm -f /data/local/tmp/d.xml; uiautomator dump /data/local/tmp/d.xml && echo success")
    assert status == 0 and out.endswith("success\n")
    assert sh.system.fs.read("/data/local/tmp/d.xml").startswith(b"<?xml")


def test_app_process_needs_the_pushed_jar(sh: ShellRunner) -> None:
    status, _, err = sh("CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008")
    assert status == 1 and "Could not find class" in err
    assert sh.system.listener_ports() == []
