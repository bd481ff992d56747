"""The first mistakes a newcomer makes are one line each, naming what and where and what to do:
a spec of their own app without an app model, run on the default virtual device; a virtual device named
with a model file that is not there or not valid."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

MINE = """\
app:
  name: 我的应用
  package: com.example.mine
features:
  - name: login
    goal: log in
"""


def test_a_spec_without_an_app_model_on_the_virtual_device_is_one_line(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", test_mine=MINE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "*test_mine.yaml:1: app.virtual is missing, and the virtual device (used without --fairy-device) "
            "needs an app model: add `virtual: path/to/app.yaml` under `app:`, or run on a phone or emulator "
            "with --fairy-device SERIAL*"
        ]
    )
    assert "Traceback" not in result.stdout.str() and "pool.py" not in result.stdout.str()
    # On a phone, the same spec is fine: its items are collected.
    collected = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--co", "-q", "--fairy-device", "R58M123ABC"
    )
    collected.stdout.fnmatch_lines(["test_mine.yaml::login"])


@pytest.mark.parametrize(
    ("model", "said"),
    [
        ("nope.yaml", "nope.yaml: cannot read app model: No such file or directory"),
        ("broken.yaml", "broken.yaml:1: "),
    ],
)
def test_a_virtual_device_with_a_model_that_does_not_load_is_a_usage_error(
    pytester: pytest.Pytester, model: str, said: str
) -> None:
    pytester.makefile(".yaml", test_mine=MINE)
    (pytester.path / "broken.yaml").write_text("app: {package: x}\n", encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--fairy-device", f"virtual:{model}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line.removeprefix("ERROR: ") for line in result.stderr.lines if line.strip()]
    assert result.stderr.lines[0].startswith("ERROR: "), errors
    # A line per problem of the model, each naming the option: no traceback, no "and N more".
    assert all(line.startswith(f"--fairy-device virtual:{model}: ") for line in errors), errors
    assert said in errors[0]


@pytest.mark.parametrize(
    ("args", "ini", "message"),
    [
        (["--fairy-device", " "], "", "--fairy-device ' ': expected an adb serial, 'virtual' or a farm"),
        (["--fairy-device", "emulator 5554"], "", "--fairy-device 'emulator 5554': expected an adb serial"),
        (["--fairy-adb", "localhost"], "", "--fairy-adb localhost: expected the HOST:PORT of an adb server"),
        (["--fairy-adb", "host:99999"], "", "--fairy-adb host:99999: expected the HOST:PORT"),
        ([], "fairy_device_wait = soon", "ini key fairy_device_wait: expected seconds, 0 or more, got 'soon'"),
        ([], "fairy_device_wait = -5", "ini key fairy_device_wait: expected seconds, 0 or more, got '-5'"),
        ([], "fairy_max_steps = ten", "ini key fairy_max_steps: expected a whole number, at least 1, got 'ten'"),
        ([], "fairy_settle_cap = 2s", "ini key fairy_settle_cap: expected seconds, 0 or more, got '2s'"),
        ([], "fairy_settle_seconds = -1", "ini key fairy_settle_seconds: expected seconds, 0 or more, got '-1'"),
        ([], "fairy_llm_long_edge = 0", "ini key fairy_llm_long_edge: expected a whole number, at least 256 pixels (below that the model cannot read the screen), got '0'"),
        ([], "fairy_device_timeout = 0", "ini key fairy_device_timeout: expected seconds, more than 0, got '0'"),
    ],
    ids=lambda v: v if isinstance(v, str) else " ".join(v),
)
def test_every_option_and_ini_mistake_is_a_usage_error_naming_it(
    pytester: pytest.Pytester, args: list[str], ini: str, message: str
) -> None:
    """Each bad value is refused where it is read, naming the option or ini key and what it expects; the
    plugin's pytest_configure turns this into pytest's one-line `ERROR:` and exit code 4."""
    from pytest_fairy.plugin.options import read_config

    if ini:
        pytester.makeini(f"[pytest]\n{ini}\n")
    with pytest.raises(pytest.UsageError) as refused:
        read_config(pytester.parseconfig(*args))
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_an_ini_mistake_ends_the_run_in_one_line_with_exit_code_4(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfairy_device_wait = -5\n")
    pytester.makefile(".yaml", test_mine=MINE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.errlines if line] == ["ERROR: ini key fairy_device_wait: expected seconds, 0 or more, got '-5'"]



@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "ini key fairy_device_wait: expected seconds, 0 or more, got '-5'"),  # read at configure
        (("--fairy-device", "emulator-5570", "--fairy-adb", "127.0.0.1:1"), "no adb server answers"),  # at start
    ],
    ids=["configure", "session start"],
)
def test_a_usage_error_is_one_error_in_the_junit_xml(pytester: pytest.Pytester, args: tuple[str, ...], said: str) -> None:
    """Exit code 4 comes before pytest's JUnit writer writes anything: the file a CI reads still says why."""
    if not args:
        pytester.makeini("[pytest]\nfairy_device_wait = -5\n")
    pytester.makefile(".yaml", test_mine=MINE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--junitxml=reports/junit.xml", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    root = ET.parse(pytester.path / "reports" / "junit.xml").getroot()
    (case,) = root.iter("testcase")
    (error,) = case.iter("error")
    assert case.get("name") == "usage error" and said in error.get("message", ""), error.get("message")

def test_a_spec_named_as_no_spec_is_said_not_skipped_in_silence(pytester: pytest.Pytester) -> None:
    """`todo.yaml` reads as a spec (app:, features:) but no pattern collects it: a warning names the
    patterns. A YAML file that is no spec (a CI config) is left alone."""
    pytester.makefile(".yaml", todo="app:\n  name: 待办\n  package: com.example.todo\nfeatures:\n  - name: add\n")
    pytester.makefile(".yml", ci="jobs:\n  test:\n    runs-on: ubuntu-latest\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:xdist")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        ["*SpecNotCollected: todo.yaml has app: and features: but is not collected as a feature spec: spec "
         "files are named test_*.yaml, test_*.yml, *.fairy.yaml, *.fairy.yml (ini fairy_spec_patterns)*"]
    )  # fmt: skip
    assert "ci.yml" not in result.stdout.str()
