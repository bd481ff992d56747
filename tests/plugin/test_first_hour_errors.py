"""The first mistakes a newcomer makes are one line each, naming what and where and what to do (issue 18):
a spec of their own app without an app model, run on the default virtual device; a virtual device named
with a model file that is not there or not valid."""

from __future__ import annotations

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
    errors = [line for line in result.stderr.lines if line.strip()]
    assert len(errors) == 1 and errors[0].startswith(f"ERROR: --fairy-device virtual:{model}: "), errors
    assert said in errors[0]
