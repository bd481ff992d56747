"""Loading app models: the examples load; every kind of mistake is reported with file:line."""

from __future__ import annotations

from pathlib import Path

import pytest
from virtual_helpers import FOOD, NOTES

from fairy_virtual import AppModelError, load_app_model, parse_app_model
from fairy_virtual.expr import evaluate
from fairy_virtual.model import Effect

HEADER = """\
app:
  package: com.example.t
  name: T
  launch: home
variables:
  n: 0
  flag: false
screens:
  - id: home
    activity: .HomeActivity
    elements:
"""  # element lines start at line 12


def problems_of(body: str, header: str = HEADER) -> list[str]:
    with pytest.raises(AppModelError) as caught:
        parse_app_model(header + body, "m.yaml")
    return caught.value.problems


@pytest.mark.parametrize("path", [FOOD, NOTES, FOOD / "app.yaml"])
def test_example_apps_load(path: Path) -> None:
    model = load_app_model(path)
    assert 8 <= len(model.screens) <= 15
    assert model.app.launch in {s.id for s in model.screens}


def test_food_app_is_the_mcdonalds_delivery_app() -> None:
    model = load_app_model(FOOD)
    assert (model.app.package, model.app.name) == ("com.mcdonalds.gma.cn", "麦当劳")
    dialog = model.dialog("delivery_time")
    assert dialog.title == "请选择您的送达时间"
    assert not dialog.dismiss_on_outside and not dialog.cancelable


def test_minimal_model_gets_defaults() -> None:
    model = parse_app_model(HEADER + "      - text: hi\n", "m.yaml")
    assert model.device.size == (1080, 2400)
    assert model.screens[0].elements[0].class_name == "android.widget.TextView"
    assert model.activity_name(".HomeActivity") == "com.example.t.HomeActivity"
    assert model.resource_id("btn") == "com.example.t:id/btn"
    assert model.resource_id("android:id/title") == "android:id/title"


def test_flag_effects_have_a_short_form() -> None:
    assert Effect.model_validate("back").action == "back"
    assert Effect.model_validate({"go": "x", "when": "a"}).action == "go"


def test_yaml_syntax_error_has_its_line() -> None:
    (problem,) = problems_of("      - text: [unclosed\n      - text: b\n")
    assert problem.startswith("m.yaml:13: YAML syntax error")


def test_unknown_key_is_rejected_at_its_line() -> None:
    (problem,) = problems_of("      - text: a\n      - text: b\n        colour: red\n")
    assert problem.startswith("m.yaml:14: ") and "colour" in problem and "not permitted" in problem


def test_wrong_type_is_rejected_at_its_line() -> None:
    (problem,) = problems_of("      - text: a\n        clickable: maybe\n")
    assert problem.startswith("m.yaml:13: ") and "clickable" in problem


def test_go_to_unknown_screen_is_rejected() -> None:
    (problem,) = problems_of("      - text: a\n        on_tap:\n          - go: nowhere\n")
    assert problem == "m.yaml:14: screens.0.elements.0.on_tap.0.go: `go` to unknown screen 'nowhere'"


def test_duplicate_screen_ids_are_rejected() -> None:
    (problem,) = problems_of("      - text: a\n  - id: home\n    activity: .Other\n")
    assert problem.startswith("m.yaml:13: ") and "duplicate screen id 'home'" in problem


def test_duplicate_yaml_keys_are_rejected() -> None:
    (problem,) = problems_of("      - text: a\n        text: b\n")
    assert problem.startswith("m.yaml:13: ") and "duplicate key 'text'" in problem


def test_undeclared_variable_in_condition_and_effect() -> None:
    found = problems_of("      - text: a\n        when: n > 1 and ghost\n"
                        "        on_tap: [{inc: {flag: 1}}]\n")
    assert any(p.startswith("m.yaml:13: ") and "ghost" in p for p in found)
    assert any(p.startswith("m.yaml:14: ") and "'flag' is not a number" in p for p in found)


def test_unsafe_condition_is_rejected() -> None:
    (problem,) = problems_of("      - text: a\n        when: __import__('os')\n")
    assert problem.startswith("m.yaml:13: ") and "Call" in problem


def test_unknown_text_token() -> None:
    (problem,) = problems_of("      - text: a\n      - text: '{wibble}'\n")
    assert problem.startswith("m.yaml:13: ") and "unknown text token {wibble}" in problem


def test_unknown_class() -> None:
    (problem,) = problems_of("      - text: a\n      - class: Buton\n")
    assert problem.startswith("m.yaml:13: screens.0.elements.1.class: unknown class 'Buton'")


def test_effect_with_two_actions_is_rejected() -> None:
    (problem,) = problems_of("      - text: a\n        on_tap:\n          - {go: home, back: true}\n")
    assert problem.startswith("m.yaml:14: ") and "exactly one action" in problem


def test_unknown_launch_screen_and_missing_file(tmp_path: Path) -> None:
    bad = HEADER.replace("launch: home", "launch: start") + "      - text: a\n"
    with pytest.raises(AppModelError, match=r"m.yaml:4: app.launch: launch screen 'start'"):
        parse_app_model(bad, "m.yaml")
    with pytest.raises(AppModelError, match="cannot read app model"):
        load_app_model(tmp_path)


def test_a_condition_may_compare_with_a_negative_number_and_negate_nothing_else() -> None:
    assert evaluate("balance < -50", {"balance": -80}) and not evaluate("balance < -50", {"balance": 0})
    assert evaluate("t >= -0.5", {"t": 0.0})
    (problem,) = problems_of("      - text: a\n        when: -n > 1\n")
    assert problem.startswith("m.yaml:13: ") and "negates something other than a number" in problem


def test_views_may_merge_a_shared_mapping_and_override_its_keys() -> None:
    text = "x-views:\n  primary: &primary {class: Button, style: primary, text: Go}\n" + HEADER + (
        "      - {<<: *primary, id: btn_pay, text: Pay}\n"
        "      - {<<: *primary, id: btn_go}\n"
    )
    model = parse_app_model(text, "m.yaml")
    pay, go = model.screens[0].elements
    assert (pay.class_name, pay.text, pay.id) == ("android.widget.Button", "Pay", "btn_pay")
    assert (go.text, go.style) == ("Go", "primary")
    (problem,) = problems_of("      - {text: a, text: b}\n")  # its own keys twice: still an error
    assert "duplicate key 'text'" in problem


def test_a_condition_that_orders_a_text_with_a_number_is_refused_where_it_is_written() -> None:
    # `name` is declared as text: `name > 3` could only fail when the screen is shown.
    header = HEADER.replace("  n: 0\n", "  n: 0\n  name: ''\n")
    (problem,) = problems_of("      - text: a\n        when: n > 1 and name > 3\n", header)
    assert problem.startswith("m.yaml:14: ") and "orders a text with a number (name > 3)" in problem, problem
    parse_app_model(header + "      - text: a\n        when: \"n > 1 and name == '3' and name > 'a'\"\n")


def test_a_number_format_in_a_token_is_refused_and_a_card_may_hold_children() -> None:
    # There is no `{var:NAME:format}`: the error says so, where.
    header = HEADER.replace("  n: 0\n", "  n: 0\n  total: 5552.2\n")
    (problem,) = problems_of("      - text: '¥{var:total:.2f}'\n", header)
    assert problem.startswith("m.yaml:13: ") and "{var:total:.2f}: a variable shows as it is, with no format" in problem
    model = parse_app_model(HEADER + "      - {style: card, padding: 20, children: [{text: a}, {text: b}]}\n")
    assert model.screens[0].elements[0].style == "card"
