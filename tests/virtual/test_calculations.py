"""Calculations in an app model (`calc: {balance: balance - amount}`): arithmetic over numbers and
variables, text typed into a field counting as the number it reads as, the result in the variable's
declared type."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from virtual_helpers import tap, texts

from fairy_virtual import AppModelError, VirtualDevice, parse_app_model
from fairy_virtual.expr import calculate

PKG = "com.example.bank"
APP = """
app: {name: Bank, package: com.example.bank, launch: main}
variables: {balance: 1000, amount: "", rate: 0.5, shown: "", fee: 0}
screens:
  - id: main
    activity: .MainActivity
    title: Bank
    elements:
      - {id: tv_balance, text: "Balance {var:balance}"}
      - {id: tv_shown, text: "Last {var:shown}"}
      - {class: EditText, id: et_amount, hint: Amount, var: amount}
      - {class: Button, id: btn_send, text: Send, on_tap: [{calc: {balance: balance - amount, shown: amount * rate * 2}}]}
      - {class: Button, id: btn_fee, text: Fee, on_tap: [{calc: {fee: amount * rate}}, {set: {shown: "{var:fee}"}}]}
      - {class: Button, id: btn_split, text: Split, on_tap: [{calc: {balance: balance / (amount - amount)}}]}
"""


def phone() -> VirtualDevice:
    device = VirtualDevice(parse_app_model(APP), latency=False)
    device.launch(PKG)
    return device


def typed(amount: str) -> VirtualDevice:
    device = phone()
    tap(device, "Amount")
    device.type_text(amount)
    return device


def test_a_typed_amount_is_taken_from_the_balance() -> None:
    device = typed("250")
    tap(device, "Send")
    shown = texts(device)
    assert "Balance 750" in shown and "Last 250" in shown, shown  # a whole result in text: no ".0"


def test_a_fraction_stays_a_fraction() -> None:
    device = typed("5")
    tap(device, "Fee")
    assert "Last 2.5" in texts(device)


@pytest.mark.parametrize("amount", ["abc", "", "12,5", "nan", "inf", "1_000", "1e3", "0x10"])
def test_text_that_reads_as_no_number_leaves_the_variables_be(amount: str) -> None:
    device = typed(amount) if amount else phone()
    tap(device, "Send")
    assert "Balance 1000" in texts(device)


def test_a_division_by_zero_leaves_the_variable_be() -> None:
    device = typed("3")
    tap(device, "Split")
    assert "Balance 1000" in texts(device)


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6), st.integers(1, 100))
def test_a_calculation_is_its_arithmetic(a: int, b: int, c: int) -> None:
    variables = {"a": a, "b": str(b), "c": float(c)}
    assert calculate("(a - b) * 2 + -a / c", variables) == pytest.approx((a - b) * 2 + -a / c)


@pytest.mark.parametrize(
    ("written", "wording"),
    [
        ("balance - amout", r"calculation 'balance - amout' reads undeclared variable\(s\) \['amout'\]"),
        ("balance ** amount", r"calculation 'balance \*\* amount' uses Pow"),
        ("max(balance)", r"calculation 'max\(balance\)' uses Call"),
    ],
)
def test_a_calculation_that_cannot_be_made_is_named_where_it_is_written(written: str, wording: str) -> None:
    with pytest.raises(AppModelError, match=r":12: screens.0.elements.3.on_tap.0.calc.balance: " + wording):
        parse_app_model(APP.replace("balance - amount,", f"{written},"))


def test_a_calculation_into_a_boolean_is_refused() -> None:
    with pytest.raises(AppModelError, match=r"calc.flag: variable 'flag' is a boolean"):
        parse_app_model(
            APP.replace("fee: 0}", "fee: 0, flag: false}").replace("{calc: {fee:", "{calc: {flag:")
        )


def test_a_fraction_shows_as_a_person_would_write_it() -> None:
    # Binary floating point makes 0.1 + 0.2 0.30000000000000004; an app shows 0.3.
    app = APP.replace("variables: {balance: 1000,", "variables: {balance: 0.1,").replace(
        "balance - amount, shown", "balance + 0.2, shown"
    )
    device = VirtualDevice(parse_app_model(app), latency=False)
    device.launch(PKG)
    tap(device, "Send")
    assert "Balance 0.3" in texts(device), texts(device)


TYPES = """
app: {name: Types, package: com.example.types, launch: main}
variables: {amount: "20", lit: true, rate: 0.5, source: "false"}
screens:
  - id: main
    activity: .MainActivity
    elements:
      - {class: RadioButton, text: 50 yuan, group: amount, value: 50}
      - {id: tv_amount, text: "{var:amount}", when: "amount == '50'"}
      - {class: Button, text: Copy, on_tap: [{set: {lit: "{var:source}", rate: "12.5"}}]}
      - {id: tv_off, text: "off at {var:rate}", when: "not lit and rate > 12"}
"""


def test_a_value_takes_the_type_its_variable_was_declared_with() -> None:
    # A radio's number into a text variable is its digits; `"false"` into a boolean is false; `"12.5"`
    # into a number variable is 12.5.
    device = VirtualDevice(parse_app_model(TYPES), latency=False)
    device.launch("com.example.types")
    tap(device, "50 yuan")
    tap(device, "Copy")
    shown = texts(device)
    assert "50" in shown and "off at 12.5" in shown, shown


COPIES = """
app: {name: Copies, package: com.example.copies, launch: main}
variables: {cur: 3, target: 0, amt: "", total: 100, price: "26.00"}
screens:
  - id: main
    activity: .MainActivity
    elements:
      - {id: tv_state, text: "{var:target} {var:total} {var:price}"}
      - {class: Button, text: Copy, on_tap: [{calc: {target: cur}}]}
      - {class: Button, text: Pay, on_tap: [{set: {amt: "36.80"}}, {calc: {total: total - amt}}]}
      - {class: Button, text: Raise, on_tap: [{calc: {price: price + 1}}]}
"""


def test_a_bare_variable_set_text_and_a_result_in_text_calculate_as_written() -> None:
    # A bare variable is a calculation; text a `set` wrote counts as its number, as typed text does;
    # a result into a text variable is its digits, without the trailing zeros the text had.
    device = VirtualDevice(parse_app_model(COPIES), latency=False)
    device.launch("com.example.copies")
    for button in ("Copy", "Pay", "Raise"):
        tap(device, button)
    assert "3 63.2 27" in texts(device), texts(device)


WHOLE = """
app: {name: Whole, package: com.example.whole, launch: main}
variables: {n: 0}
screens:
  - id: main
    activity: .MainActivity
    elements:
      - {class: Button, text: Set, on_tap: [{set: {n: "12.5"}}]}
      - {id: tv_n, text: "n is {var:n}", when: "n > 3"}
"""


def test_a_fraction_set_into_a_whole_number_variable_is_that_number() -> None:
    # Declared `0`, the variable is a number: `"12.5"` is 12.5, which a condition compares as one.
    device = VirtualDevice(parse_app_model(WHOLE), latency=False)
    device.launch("com.example.whole")
    tap(device, "Set")
    assert "n is 12.5" in texts(device), texts(device)
