"""Secrets (`spec/secrets.py`): typed by placeholder, masked in everything read back from the device."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairy_virtual import VirtualDevice
from pytest_fairy.errors import UsageError
from pytest_fairy.perception.perceive import SECRET_FILL, perceive
from pytest_fairy.spec.secrets import Secrets, as_placeholders, referenced

NOTES = Path(__file__).resolve().parents[2] / "example_suites" / "notes" / "app.yaml"
SECRETS = Secrets({"SHOP_USER": "qa.lead", "SHOP_PASSWORD": 'p<a&ss"word'})


def test_a_brain_reads_placeholders_and_the_device_types_values() -> None:
    line = as_placeholders("type 密码 = ${SHOP_PASSWORD}")
    assert line == "type 密码 = {{SHOP_PASSWORD}}"
    assert SECRETS.reveal("{{SHOP_PASSWORD}}") == 'p<a&ss"word'
    assert SECRETS.reveal("{{OTHER}}") == "{{OTHER}}"  # not a secret of this spec: typed as written
    assert referenced(["${A} and ${B}", "${A}"]) == ("A", "B")


def test_values_read_back_are_masked_as_they_appear_in_a_dump() -> None:
    xml = '<node text="当前账号：qa.lead" content-desc="p&lt;a&amp;ss&quot;word" />'
    masked = SECRETS.mask_xml(xml)
    assert "qa.lead" not in masked and "&lt;a&amp;ss" not in masked
    assert masked == '<node text="当前账号：{{SHOP_USER}}" content-desc="{{SHOP_PASSWORD}}" />'
    assert SECRETS.mask("login ok for qa.lead") == "login ok for {{SHOP_USER}}"


def test_a_value_too_short_to_mask_safely_is_left_alone_and_repr_never_shows_values() -> None:
    assert Secrets({"PIN": "12"}).mask("1234") == "1234"
    assert "qa.lead" not in repr(SECRETS) and "SHOP_USER" in repr(SECRETS)


@given(st.text(min_size=3, max_size=20).filter(lambda v: "{{" not in v), st.text(max_size=40))
def test_masking_leaves_no_value_behind(value: str, around: str) -> None:
    secrets = Secrets({"S": value})
    assert value not in secrets.mask(around + value + around)


def test_a_missing_variable_is_named_with_where_it_is_needed() -> None:
    with pytest.raises(UsageError, match=r"spec.yaml:4: the spec needs \$SHOP_PASSWORD: set it"):
        Secrets.from_env(["SHOP_USER", "SHOP_PASSWORD"], "spec.yaml:4", env={"SHOP_USER": "x"})


def test_a_view_showing_a_secret_is_covered_on_the_screenshot_and_named_by_placeholder() -> None:
    device = VirtualDevice(NOTES, latency=False)
    device.launch("com.example.notes")
    first = perceive(device).screen
    user = next(m for m in first.marks if "用户名" in m.label)
    device.tap(*user.center)
    device.type_text("qa.lead")
    plain = perceive(device)
    seen = perceive(device, secrets=SECRETS)
    field = next(m for m in seen.screen.marks if m.ref == user.ref)
    assert field.node.text == "{{SHOP_USER}}" and "qa.lead" not in seen.screen.text
    box = field.bounds
    inside = seen.screenshot.crop((box.left + 2, box.top + 2, box.right - 2, box.bottom - 2))
    assert inside.getcolors() == [(inside.width * inside.height, SECRET_FILL)]
    assert plain.screenshot.crop(inside.getbbox() or (0, 0, 1, 1)).getcolors() != inside.getcolors()
