"""Dynamic text tokens as an app model's author writes them: `{price}` in the app's own currency."""

from __future__ import annotations

import re

import pytest
from virtual_helpers import texts

from fairy_virtual import AppModelError, VirtualDevice, parse_app_model

APP = """
app: {name: Shop, package: com.example.shop, launch: main}
screens:
  - id: main
    activity: .MainActivity
    title: Shop
    elements:
      - {id: tv_price, text: "Coffee {price:10}"}
"""


def price_shown(app: str) -> str:
    device = VirtualDevice(parse_app_model(app), latency=False)
    device.launch("com.example.shop")
    return next(text for text in texts(device) if text.startswith("Coffee "))


def test_a_price_shows_in_yuan_unless_the_app_names_its_currency() -> None:
    yuan = re.fullmatch(r"Coffee ¥(\d+\.\d)", price_shown(APP))
    dollars = re.fullmatch(
        r"Coffee \$(\d+\.\d\d)", price_shown(APP.replace("launch: main}", 'launch: main, currency: "$"}'))
    )
    assert yuan is not None and dollars is not None
    assert all(8.5 <= float(shown.group(1)) <= 11.5 for shown in (yuan, dollars))  # 10 within 15 %


def test_an_empty_currency_is_refused_where_it_is_written() -> None:
    with pytest.raises(AppModelError, match=r":2: app.currency"):
        parse_app_model(APP.replace("launch: main}", 'launch: main, currency: ""}'))
