"""The spec's `login:` section: steps or a goal, a done_when, and the secrets it names."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytest_fairy.explore.briefing import target_of
from pytest_fairy.spec.loader import load_spec
from pytest_fairy.spec.model import SpecError

HEAD = """\
app: {name: Shop, package: com.shop}
features:
  - {name: cart, goal: add to cart}
login:
"""


def spec_with(tmp_path: Path, login: str) -> Path:
    path = tmp_path / "shop.yaml"
    path.write_text(HEAD + textwrap.indent(textwrap.dedent(login), "  "), encoding="utf-8")
    return path


def test_steps_name_their_secrets_in_order(tmp_path: Path) -> None:
    spec = load_spec(
        spec_with(
            tmp_path,
            """
            steps:
              - type 账号 = ${SHOP_USER}
              - type 密码 = ${SHOP_PASSWORD}
              - tap 登录
            done_when: [{visible: 我的订单}]
            """,
        )
    )
    assert spec.login is not None
    assert spec.login.secrets == ("SHOP_USER", "SHOP_PASSWORD")
    assert spec.login.max_steps == 20


@pytest.mark.parametrize(
    ("login", "message"),
    [
        (
            "goal: sign in\nsteps: [tap 登录]\ndone_when: [{visible: 我的}]\n",
            r"either 'steps' .*, not both in login$",
        ),
        ("done_when: [{visible: 我的}]\n", r"either 'steps' .*, not both in login$"),
        (
            "steps: [press 登录]\ndone_when: [{visible: 我的}]\n",
            "a login step starts with one of tap, long_tap",
        ),
        ("steps: [tap 登录]\n", "done_when"),
        ("steps: [tap 登录]\ndone_when: [crash]\n", "'crash' is not a condition for being done"),
    ],
)
def test_a_broken_login_is_a_spec_error_at_its_line(tmp_path: Path, login: str, message: str) -> None:
    with pytest.raises(SpecError, match=message) as caught:
        load_spec(spec_with(tmp_path, login))
    assert caught.value.line >= 4


def test_a_feature_may_name_secrets_too_and_its_brain_reads_only_placeholders(tmp_path: Path) -> None:
    path = tmp_path / "shop.yaml"
    path.write_text(
        "app: {name: Shop, package: com.shop}\n"
        "features:\n"
        "  - {name: coupon, goal: 'apply the coupon ${SHOP_COUPON} at checkout', start: 'cart of ${SHOP_USER}'}\n",
        encoding="utf-8",
    )
    spec = load_spec(path)
    assert spec.secrets == ("SHOP_COUPON", "SHOP_USER")
    target = target_of(spec, spec.features[0])
    assert target.goal == "apply the coupon {{SHOP_COUPON}} at checkout"
    assert target.start == "cart of {{SHOP_USER}}"
    assert target.secrets == ("SHOP_COUPON", "SHOP_USER")
