"""Per-step overhead of the core: what one exploration step costs before the device and the brain.

    /work/venv/bin/python benchmarks/bench_core.py [--runs 25]

Generated hierarchies of about 50, 300 and 1500 nodes (a menu page: toolbar, tabs, a product list,
a bottom bar, and a dialog window over it), each in several variants (the list scrolled to other rows),
so a step meets a changing screen as a run does. For each: median milliseconds of a bare lxml parse, then
parse_hierarchy, build_screen (layers, marks, compress), render_som on a photo-like 1080x2400 screenshot
(full image and LLM JPEG), identify, FeatureTree.record, LoopGuard.observe, the run's coverage
bookkeeping (explore/coverage.py) and handing the screenshot to the encoder's thread (`shot`); beside
them, side by side, that thread's WebP encoding and the lossless PNG the loop used to wait for; the per-step
total and its ratio to the bare parse; the compressed text's size as a fraction of the XML. Prints
whether each target is met; never fails.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from lxml import etree
from PIL import Image
from timing import median_ms

from pytest_fairy.explore.coverage import Coverage
from pytest_fairy.explore.guard import LoopGuard
from pytest_fairy.explore.screenshot import ScreenshotEncoder, png, webp
from pytest_fairy.explore.state import StateId, identify
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.perception.hierarchy import BOOL_ATTRIBUTES, parse_hierarchy
from pytest_fairy.perception.screen import build_screen
from pytest_fairy.perception.som import render_som

T = TypeVar("T")
SIZES = (50, 300, 1500)
TARGET_MS_AT_300 = 25.0
TARGET_SCALING_1500 = 5.0
TARGET_COMPRESSED = 0.12
WIDTH, HEIGHT = 1080, 2400
PKG = "com.mcdonalds.gma.cn"
MAX_VISIBLE_ROWS = 14
VARIANTS = 4  # the list at this many offsets: consecutive steps see other rows
STEP = ("build_screen", "som", "identify", "record", "guard", "coverage", "shot")
NAMES = [
    "巨无霸",
    "麦辣鸡腿堡",
    "板烧鸡腿堡",
    "麦香鱼",
    "双层吉士堡",
    "麦乐鸡",
    "薯条",
    "可乐",
    "雪碧",
    "圣代",
]


class _Dump:
    """Builds a dump node by node, counting nodes, so each size is hit closely."""

    def __init__(self) -> None:
        self.root = etree.Element("hierarchy", rotation="0")
        self.count = 0

    def node(
        self,
        parent: etree._Element,
        cls: str,
        box: tuple[int, int, int, int],
        text: str = "",
        rid: str = "",
        **flags: bool,
    ) -> etree._Element:
        self.count += 1
        attrs = {
            "index": "0",
            "text": text,
            "resource-id": f"{PKG}:id/{rid}" if rid else "",
            "class": f"android.widget.{cls}",
            "package": PKG,
            "content-desc": "",
        }
        for flag in BOOL_ATTRIBUTES:
            attrs[flag] = "true" if flags.get(flag.replace("-", "_"), flag == "enabled") else "false"
        attrs["visible-to-user"] = "true"
        attrs["bounds"] = "[{},{}][{},{}]".format(*box)
        return etree.SubElement(parent, "node", attrs)


def photo_like(width: int = WIDTH, height: int = HEIGHT) -> Image.Image:
    """A screenshot that compresses like a photo feed, not like flat UI: noise over colour gradients."""
    noise = Image.effect_noise((width, height), 48).convert("RGB")
    ramp = Image.linear_gradient("L").resize((width, height))
    colour = Image.merge(
        "RGB",
        (ramp, ramp.rotate(90).resize((width, height)), ramp.transpose(Image.Transpose.FLIP_TOP_BOTTOM)),
    )
    return Image.blend(colour, noise, 0.35)


def generate(nodes: int, *, dialog: bool = False, offset: int = 0) -> str:
    """A menu page of about `nodes` nodes, its list showing rows from `offset` on; with `dialog`, the
    delivery-time dialog window over it."""
    d = _Dump()
    app = d.node(d.root, "FrameLayout", (0, 0, WIDTH, HEIGHT))
    d.node(app, "TextView", (0, 80, WIDTH, 200), "麦乐送", "title")
    d.node(app, "Button", (0, 200, WIDTH, 300), "配送时间 尽快送达", "delivery_time", clickable=True)
    tabs = d.node(app, "LinearLayout", (0, 300, WIDTH, 400), rid="tabs")
    for i, name in enumerate(["汉堡", "小食", "饮料", "甜品"]):
        box = (i * 270, 300, (i + 1) * 270, 400)
        d.node(tabs, "TextView", box, name, "tab", clickable=True, selected=i == 0)
    # A screen shows a dozen or so rows; big dumps are big because of nesting inside them (labels, tags,
    # wrappers), so extra nodes go into each row's tag group rather than into more tappable rows.
    rows = min(MAX_VISIBLE_ROWS, max(1, (nodes - d.count - 4) // 8))
    pad = max(0, (nodes - d.count - 4 - rows * 8) // rows)
    listing = d.node(app, "RecyclerView", (0, 400, WIDTH, 2200), rid="list", scrollable=True)
    height = 1800 // rows
    for r in range(rows):
        top = 400 + r * height
        row = d.node(listing, "LinearLayout", (0, top, WIDTH, top + height), rid="item", clickable=True)
        d.node(row, "ImageView", (0, top, 200, top + height), rid="photo")
        info = d.node(row, "LinearLayout", (200, top, 800, top + height))
        name = NAMES[(r + offset) % len(NAMES)] + str(r + offset)
        d.node(info, "TextView", (200, top, 800, top + height // 3), name, "name")
        desc_box = (200, top + height // 3, 800, top + height // 2)
        d.node(info, "TextView", desc_box, "经典美味 限时优惠", "desc")
        tags = d.node(info, "LinearLayout", (200, top + height // 2, 800, top + height), rid="tags")
        for t in range(pad):
            left = 200 + (t * 600) // max(pad, 1)
            d.node(
                tags,
                "TextView",
                (left, top + height // 2, left + 600 // max(pad, 1), top + height),
                ("新品", "热卖", "辣", "套餐")[t % 4],
                "tag",
            )
        d.node(row, "TextView", (800, top, 950, top + height), f"¥{12 + r % 30}.5", "price")
        d.node(row, "ImageView", (950, top, WIDTH, top + height), rid="add", clickable=True)
    bar = d.node(app, "LinearLayout", (0, 2200, WIDTH, 2400), rid="cart_bar")
    d.node(bar, "TextView", (0, 2200, 700, 2400), "购物车(2) ¥25", "cart")
    d.node(bar, "Button", (700, 2200, WIDTH, 2400), "去结算", "checkout", clickable=True)
    if dialog:
        panel = d.node(d.root, "FrameLayout", (90, 800, 990, 1600))
        d.node(panel, "TextView", (90, 800, 990, 900), "请选择您的送达时间", "dlg_title")
        group = d.node(panel, "RadioGroup", (90, 900, 990, 1200), rid="options")
        radio = {"checkable": True, "clickable": True}
        d.node(group, "RadioButton", (90, 900, 990, 1050), "尽快送达", "asap", checked=True, **radio)
        d.node(group, "RadioButton", (90, 1050, 990, 1200), "预约送餐", "later", **radio)
        d.node(panel, "TextView", (90, 1200, 990, 1300), "预计 12:35 送达", "eta")
        d.node(panel, "Button", (90, 1400, 990, 1600), "确定", "ok", clickable=True)
    body = etree.tostring(d.root, encoding="unicode")
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n" + body


class _Inline(Executor):
    """An executor that only takes the job: what the loop pays to hand a screenshot over, without the
    encoding itself (timed apart, as `webp`: it runs on the encoder's thread while the loop goes on)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        # Done at once, as nothing is encoded: the encoder's room for waiting frames is freed as it
        # would be by the encoding thread (a future never done would fill it and block the 5th frame).
        done: Future[T] = Future()
        done.set_result(None)  # type: ignore[arg-type]
        return done


def bench(nodes: int, runs: int) -> dict[str, float]:
    xml = generate(nodes)
    data = xml.encode("utf-8")
    screenshot = photo_like()
    activity = "com.mcdonalds.gma.cn.ProductMdsListActivity"
    variants = [generate(nodes, offset=i * MAX_VISIBLE_ROWS) for i in range(VARIANTS)]
    screens = [build_screen(x, activity=activity) for x in variants]
    states = [identify(s) for s in screens]
    title = screens[0].title
    som = render_som(screenshot, screens[0])
    tree, guard, coverage = FeatureTree(), LoopGuard(), Coverage()
    # The loop hands the picture over and goes on; one thread encodes it meanwhile (explore/screenshot.py).
    encoder = ScreenshotEncoder(executor=_Inline())
    step = [0]
    previous: list[StateId | None] = [None]

    def turn() -> int:
        step[0] += 1
        return step[0] % VARIANTS

    def record() -> None:
        state = states[turn()]
        tree.record(step[0], previous[0], "tap [1] 确定", state, title, state.has_dialog)
        previous[0] = state

    def observe() -> None:
        i = turn()
        guard.observe(step[0] % 50 + 1, states[i], "tap [1] 确定", True, False, step[0] % 3 == 0)

    def cover() -> None:
        i = turn()
        coverage.saw(states[i], screens[i], in_app=True)

    figures = {
        "nodes": float(sum(1 for w in parse_hierarchy(xml) for _ in w.iter())),
        "lxml": median_ms(lambda: etree.fromstring(data), runs),
        "parse": median_ms(lambda: parse_hierarchy(xml), runs),
        "build_screen": median_ms(lambda: build_screen(variants[turn()], activity=activity), runs),
        "som": median_ms(lambda: render_som(screenshot, screens[turn()]), runs),
        "identify": median_ms(lambda: identify(screens[turn()]), runs),
        "record": median_ms(record, runs),
        "guard": median_ms(observe, runs),
        "coverage": median_ms(cover, runs),
        "shot": median_ms(lambda: encoder.submit(som.full), runs),
        "webp": median_ms(lambda: webp(som.full), runs),
        "png": median_ms(lambda: png(som.full), runs),
        "compressed": len(screens[0].text.encode("utf-8")) / len(data),
    }
    # With a modal dialog the page behind it is summarised in one line: a smaller, easier figure.
    dialog_xml = generate(nodes, dialog=True)
    figures["compressed_dialog"] = len(build_screen(dialog_xml).text.encode()) / len(dialog_xml.encode())
    # build_screen includes the parse; the step is everything the harness does once per step.
    figures["step"] = sum(figures[k] for k in STEP)
    figures["no shot"] = figures["step"] - figures["shot"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=25, help="measurements per figure (median is shown)")
    runs = parser.parse_args().runs
    results = {size: bench(size, runs) for size in SIZES}
    columns = ("lxml", "parse", *STEP, "step", "no shot", "webp", "png")
    print(
        f"median ms over {runs} runs; step = {' + '.join(STEP)} (shot: handing the screenshot over; "
        "webp: its encoding, off the loop; png: what the loop once waited for); "
        "compressed = compressed text / XML bytes (page alone, and with a dialog over it)"
    )
    header = " ".join(f"{c:>12}" for c in columns)
    print(f"{'nodes':>6} {header} {'step/lxml':>10} {'compressed':>10} {'+dialog':>8}")
    for f in results.values():
        print(
            f"{int(f['nodes']):>6} "
            + " ".join(f"{f[c]:>12.2f}" for c in columns)
            + f" {f['step'] / f['lxml']:>10.1f} {f['compressed']:>10.1%} {f['compressed_dialog']:>8.1%}"
        )
    at300, at1500 = results[300]["step"], results[1500]["step"]
    checks = [
        (f"step at 300 nodes {at300:.1f} ms <= {TARGET_MS_AT_300:.0f} ms", at300 <= TARGET_MS_AT_300),
        (
            f"step at 1500 nodes is {at1500 / at300:.1f}x the 300-node figure <= {TARGET_SCALING_1500:.0f}x",
            at1500 <= TARGET_SCALING_1500 * at300,
        ),
    ]
    for size, f in results.items():
        checks.append(
            (
                f"compressed text at {size} nodes is {f['compressed']:.1%} of the XML "
                f"<= {TARGET_COMPRESSED:.0%}",
                f["compressed"] <= TARGET_COMPRESSED,
            )
        )
    for text, met in checks:
        print(f"[{'met' if met else 'MISSED'}] {text}")


if __name__ == "__main__":
    main()
