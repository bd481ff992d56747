"""A small app written in a test, explored: its app model and spec as YAML text, the first feature run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy import load_spec
from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.explore.briefing import mission_of, target_of
from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.explorer import Explorer
from pytest_fairy.explore.record import Exploration, StepRecord, StepSink

# 去结算 does nothing while the cart is empty, as a working shop may: what it did before 加入购物车 says
# nothing of what it does after.
SHOP_APP = """
app: {package: com.example.cartshop, name: 小店, launch: cart}
variables:
  cart: 0
screens:
  - id: cart
    activity: .CartActivity
    title: 购物车
    elements:
      - {text: "购物车里有 {var:cart} 件"}
      - {class: Button, text: 去结算, on_tap: [{when: "cart > 0", go: checkout}]}
      - {class: Button, text: 逛逛, on_tap: [{go: product}]}
  - id: product
    activity: .ProductActivity
    title: 商品详情
    elements:
      - {class: Button, text: 加入购物车, on_tap: [{inc: {cart: 1}}, {toast: 已加入}]}
  - id: checkout
    activity: .CheckoutActivity
    title: 订单确认
    elements:
      - {text: 待支付}
"""
SHOP_SPEC = """
app: {name: 小店, package: com.example.cartshop, virtual: app.yaml}
features:
  - name: check out
    goal: 加入购物车, then 去结算 shows the order
    done_when: [{visible: 待支付}]
    allow: [payment]
"""
# The same shop, its 去结算 dead with a product in the cart too.
DEAD_CHECKOUT_APP = SHOP_APP.replace(
    '{class: Button, text: 去结算, on_tap: [{when: "cart > 0", go: checkout}]}',
    "{class: Button, text: 去结算}",
)


def write_suite(folder: Path, app: str, spec: str) -> Path:
    """`app` and `spec` as a suite in `folder` (app.yaml, test_app.yaml); the app model's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "app.yaml").write_text(app, "utf-8")
    (folder / "test_app.yaml").write_text(spec, "utf-8")
    return folder / "app.yaml"


def explore_inline(
    folder: Path, app: str, spec: str, brain: Brain | None = None, sinks: Sequence[StepSink] = ()
) -> Exploration:
    """Write `app` (app.yaml) and `spec` (test_app.yaml, `virtual: app.yaml`) into `folder` and explore
    the spec's first feature on the virtual device, with `brain` (default: the offline brain), its steps
    told to `sinks`."""
    app_model = write_suite(folder, app, spec)
    loaded = load_spec(folder / "test_app.yaml")
    feature = loaded.features[0]
    device = VirtualDevice(app_model, latency=False)
    explorer = Explorer(device, brain or OfflineBrain(), sinks=list(sinks))
    return explorer.explore(target_of(loaded, feature), mission_of(loaded, feature))


class Recorded:
    """A step sink that keeps the step records."""

    def __init__(self) -> None:
        self.steps: list[StepRecord] = []

    def start(self, target: object, plan: object) -> None:
        pass

    def step(self, record: StepRecord) -> None:
        self.steps.append(record)

    def finish(self, result: Exploration) -> None:
        pass
