"""How a broken spec reads: YAML mistakes in plain words with the fix, and every problem on its own line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pytest_fairy.spec.loader import load_spec
from pytest_fairy.spec.model import SpecError
from pytest_fairy.spec.yaml_errors import yaml_problem

HEAD = "app:\n  name: Shop\n  package: com.example.shop\nfeatures:\n"


def error_of(tmp_path: Path, text: str) -> SpecError:
    path = tmp_path / "shop.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    return caught.value


def test_a_value_with_colon_space_is_told_to_be_quoted(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + "  - name: dark mode\n    goal: open Settings: Dark mode\n")
    assert (error.line, error.reason) == (
        6,
        "YAML syntax error: the value of 'goal' contains ': ', which YAML reads as the start of another key; "
        'put the value in quotes: goal: "open Settings: Dark mode"',
    )


def test_the_quoted_value_keeps_its_double_quotes_and_leaves_the_comment_out(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + '  - name: x\n    goal: say "hi": now  # greeting\n')
    assert error.reason.endswith("""put the value in quotes: goal: 'say "hi": now'""")


def test_a_key_indented_less_than_its_siblings_names_the_columns_it_could_take(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + "  - name: a\n    goal: b\n   done_when: [{visible: x}]\n")
    assert (error.line, error.reason) == (
        7,
        "YAML syntax error: bad indentation: 'done_when' starts in column 4, which lines up with none of the "
        "keys above it (columns 1 and 5); keys of one mapping start in the same column, indented with spaces",
    )


def test_a_key_indented_more_than_the_line_above_is_said_so(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + "  - name: a\n    goal: b\n      done_when: [{visible: x}]\n")
    assert (error.line, error.reason) == (
        7,
        "YAML syntax error: bad indentation: 'done_when' is indented more than the line above it (line 6), so "
        "YAML reads it as part of that line's value; indent it like the keys it belongs with",
    )


def test_a_list_item_out_of_line_is_compared_with_the_items_above() -> None:
    text = "features:\n- name: a\n  goal: b\n - name: c\n"
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        yaml.safe_load(text)
    line, reason = yaml_problem(caught.value, text)
    assert line == 4
    assert (
        "the list item starts in column 2, which lines up with none of the list items above it (column 1)"
        in (reason)
    )


def test_a_tab_in_the_indentation_is_named(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + "  - name: a\n\tgoal: b\n")
    assert (error.line, error.reason) == (
        6,
        "YAML syntax error: a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)",
    )


def test_a_tab_after_a_value_is_named_with_its_column(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + "  - name: a\n    goal: b\t\n")
    assert (error.line, error.reason) == (
        6,
        "YAML syntax error: a tab at column 12: YAML does not accept tabs there (use spaces)",
    )


def test_other_yaml_errors_keep_pyyaml_words(tmp_path: Path) -> None:
    error = error_of(tmp_path, HEAD + "  - name: a\n    goal: [unclosed\n")
    assert (
        error.reason
        == "YAML syntax error: while parsing a flow sequence: expected ',' or ']', but got '<stream end>'"
    )


def test_every_schema_problem_is_a_line_of_its_own_the_first_one_first(tmp_path: Path) -> None:
    path = tmp_path / "shop.yaml"
    error = error_of(
        tmp_path,
        HEAD + "  - name: a\n    goal: g\n    max_step: 3\n  - name: b\n    goal: g\n    budget: {token: 5}\n"
        "  - name: c\n",
    )
    assert str(error).splitlines() == [
        f"{path}:7: unknown key 'max_step' in feature 'a' (did you mean 'max_steps'?)",
        f"{path}:10: unknown key 'token' in budget of feature 'b' (did you mean 'tokens'?)",
        f"{path}:11: missing required key 'goal' in feature 'c'",
    ]
    assert error.line == 7 and len(error.problems) == 3
    assert "more problem" not in str(error)


def test_every_cross_check_problem_is_listed_too(tmp_path: Path) -> None:
    path = tmp_path / "shop.yaml"
    text = HEAD + "  - {name: a, goal: g, allow: [paymnt]}\n  - {name: a, goal: g, forbid: [sendd]}\n"
    assert str(error_of(tmp_path, text)).splitlines() == [
        f"{path}:6: duplicate feature name 'a' (first on line 5)",
        f"{path}:5: unknown risky-action category 'paymnt' in feature 'a' (did you mean 'payment'?)",
        f"{path}:6: unknown risky-action category 'sendd' in feature 'a' (did you mean 'send'?)",
    ]


def test_a_loaded_spec_knows_the_line_of_its_values(tmp_path: Path) -> None:
    path = tmp_path / "shop.yaml"
    path.write_text(HEAD + "  - name: a\n    goal: g\n", encoding="utf-8")
    spec = load_spec(path)
    assert spec.line_of("app", "package") == 3
    assert spec.line_of("features", 0, "done_when") == 5  # not in the file: its feature's line
    assert spec.line_of("features", 0, "goal") == 6
