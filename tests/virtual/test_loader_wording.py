"""How a broken app model reads: file:line, the key or id it probably meant, YAML mistakes in plain
words, and every problem on its own line (also behind `--fairy-device virtual:PATH`)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from fairy_virtual import AppModelError, parse_app_model
from pytest_fairy.devices.simulator import LazySimulator
from pytest_fairy.plugin.run import check_virtual_models

HEADER = """\
app:
  package: com.example.t
  name: T
  launch: home
screens:
  - id: home
    activity: .HomeActivity
    elements:
"""  # element lines start at line 9
SETTINGS = "  - id: settings\n    activity: .SettingsActivity\n"


def problems_of(body: str) -> list[str]:
    with pytest.raises(AppModelError) as caught:
        parse_app_model(HEADER + body, "m.yaml")
    return caught.value.problems


def test_a_misspelt_key_has_its_line_and_the_key_meant() -> None:
    (problem,) = problems_of("      - text: a\n        on_tapp: [back]\n")
    assert (
        problem
        == "m.yaml:10: screens.0.elements.0: unknown key 'on_tapp' is not permitted here (did you mean 'on_tap'?)"
    )


def test_a_key_in_a_union_branch_is_looked_up_in_that_branch_and_the_other_branch_is_quiet() -> None:
    # `toast` is text or a mapping: the mapping's typo is the problem, not "should be a valid string".
    (problem,) = problems_of("      - text: a\n        on_tap: [{toast: {text: hi, duraton: 2}}]\n")
    assert problem == (
        "m.yaml:10: screens.0.elements.0.on_tap.0.toast: unknown key 'duraton' is not permitted here "
        "(did you mean 'duration'?)"
    )


def test_an_unknown_key_far_from_any_lists_the_few_keys_there_are() -> None:
    (problem,) = problems_of("      - text: a\n        on_tap: [{toast: {text: hi, wait: 2}}]\n")
    assert problem.endswith("unknown key 'wait' is not permitted here (known: duration, text)")


def test_a_missing_key_is_said_in_words() -> None:
    (problem,) = problems_of("      - text: a\n  - id: settings\n")
    assert problem == "m.yaml:10: screens.1: missing required key 'activity'"


def test_go_to_an_unknown_screen_suggests_the_closest_screen_id() -> None:
    (problem,) = problems_of("      - text: a\n        on_tap: [{go: setings}]\n" + SETTINGS)
    assert problem == (
        "m.yaml:10: screens.0.elements.0.on_tap.0.go: `go` to unknown screen 'setings' (did you mean 'settings'?)"
    )


def test_an_unknown_launch_screen_suggests_the_closest_screen_id() -> None:
    with pytest.raises(AppModelError) as caught:
        parse_app_model(HEADER.replace("launch: home", "launch: hom") + "      - text: a\n", "m.yaml")
    assert caught.value.problems == [
        "m.yaml:4: app.launch: launch screen 'hom' is not among the screens (did you mean 'home'?)"
    ]


def test_a_value_with_colon_space_is_told_to_be_quoted() -> None:
    (problem,) = problems_of("      - text: Settings: Dark mode\n")
    assert problem == (
        "m.yaml:9: YAML syntax error: the value of 'text' contains ': ', which YAML reads as the start of "
        'another key; put the value in quotes: text: "Settings: Dark mode"'
    )


@pytest.mark.parametrize(
    ("element", "char", "quoted"),
    [
        ("{class: Button, text: Where to?}", "?", '"Where to?"'),
        ("{text: a: b, id: x}", ":", '"a: b"'),
        ("{text: Is it [ok]?, id: x}", "[", '"Is it [ok]?"'),
        ('{text: say "hi"?, id: x}', "?", """'say "hi"?'"""),
    ],
)
def test_a_value_in_braces_holding_yaml_syntax_is_told_to_be_quoted(
    element: str, char: str, quoted: str
) -> None:
    (problem,) = problems_of(f"      - {element}\n")
    assert problem == (
        f"m.yaml:9: YAML syntax error: the value of 'text' contains {char!r}, which YAML reads as syntax "
        f"inside {{ }}; put the value in quotes: text: {quoted}"
    )


@pytest.mark.parametrize(
    ("word", "shown", "kind"), [("No", "False", "a boolean"), ("1.5", "1.5", "a number")]
)
def test_text_that_yaml_reads_as_a_boolean_or_a_number_is_told_to_be_quoted(
    word: str, shown: str, kind: str
) -> None:
    (problem,) = problems_of(f"      - {{text: {word}}}\n")
    assert problem == (
        f"m.yaml:9: screens.0.elements.0.text: expected text, got {shown}: YAML reads this unquoted word as "
        f"{kind}; put it in quotes"
    )


def test_bad_indentation_names_the_columns() -> None:
    (problem,) = problems_of("      - text: a\n       id: b\n")
    assert problem.startswith("m.yaml:10: YAML syntax error: bad indentation: 'id' starts in column 8")
    assert "(columns 1, 5 and 9)" in problem


def test_a_tab_is_named() -> None:
    (problem,) = problems_of("      - text: a\n\t  id: b\n")
    assert problem == (
        "m.yaml:10: YAML syntax error: a tab in the indentation: YAML indents with spaces only "
        "(replace the tab with spaces)"
    )


def test_three_problems_are_three_lines() -> None:
    with pytest.raises(AppModelError) as caught:
        parse_app_model(
            HEADER + "      - text: a\n        colour: red\n        on_tapp: [back]\n      - clas: Button\n",
            "m.yaml",
        )
    assert str(caught.value).splitlines() == [
        "invalid app model:",
        "  m.yaml:10: screens.0.elements.0: unknown key 'colour' is not permitted here",
        "  m.yaml:11: screens.0.elements.0: unknown key 'on_tapp' is not permitted here (did you mean 'on_tap'?)",
        "  m.yaml:12: screens.0.elements.1: unknown key 'clas' is not permitted here (did you mean 'class'?)",
    ]


def test_the_virtual_device_option_lists_every_problem_of_its_model(tmp_path: Path) -> None:
    model = tmp_path / "m.yaml"
    model.write_text(
        HEADER + "      - text: a\n        colour: red\n        on_tapp: [back]\n      - clas: Button\n",
        encoding="utf-8",
    )
    fairy = SimpleNamespace(devices=["virtual:m.yaml"])
    with pytest.raises(pytest.UsageError) as caught:
        check_virtual_models(fairy, LazySimulator(), tmp_path)  # type: ignore[arg-type]
    lines = str(caught.value).splitlines()
    assert [line.split(": ", 2)[1] for line in lines] == [f"{model}:10", f"{model}:11", f"{model}:12"]
    assert all(line.startswith("--fairy-device virtual:m.yaml: ") for line in lines)
    assert "did you mean 'on_tap'?" in lines[1] and "did you mean 'class'?" in lines[2]
    assert "more problem" not in str(caught.value)


def test_an_unknown_dialog_and_an_undeclared_variable_suggest_the_closest_name() -> None:
    body = "      - text: a\n        on_tap: [{dialog: confrm}, {set: {coutn: 1}}]\n"
    tail = "variables:\n  count: 0\ndialogs:\n  - id: confirm\n"
    found = problems_of(body + tail)
    assert (
        "m.yaml:10: screens.0.elements.0.on_tap.0.dialog: unknown dialog 'confrm' (did you mean 'confirm'?)"
        in found
    )
    assert any(
        "variable 'coutn' is not declared under `variables:` (did you mean 'count'?)" in p for p in found
    )
