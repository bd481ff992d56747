"""Write uiautomator hierarchy XML from a compact Python description.

    dump(window("com.shop", v("TextView", "商品列表", id="title"), v("Button", "购买", clickable=True)))

Bounds are laid out automatically when not given: a node's children stack vertically and share its
height equally, so tests describe structure and only spell out geometry where it matters (dialogs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

SCREEN = (0, 0, 1080, 2400)
FLAGS = ("checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
         "long-clickable", "password", "selected")


@dataclass
class V:
    cls: str
    text: str = ""
    id: str = ""
    desc: str = ""
    children: list[V] = field(default_factory=list)
    bounds: tuple[int, int, int, int] | None = None
    flags: dict[str, bool] = field(default_factory=dict)
    package: str | None = None


def v(cls: str, text: str = "", *children: V, id: str = "", desc: str = "",
      bounds: tuple[int, int, int, int] | None = None, **flags: bool) -> V:
    """A view. `cls` may be short (`TextView` -> android.widget.TextView); flags use underscores."""
    if "." not in cls:
        cls = f"android.widget.{cls}" if cls not in ("View",) else "android.view.View"
    flags = {k.replace("_", "-"): val for k, val in flags.items()}
    if "EditText" in cls:
        flags.setdefault("focusable", True)
        flags.setdefault("clickable", True)
    unknown = set(flags) - set(FLAGS)
    if unknown:
        raise ValueError(f"unknown view flags {sorted(unknown)}")
    return V(cls, text, id, desc, list(children), bounds, flags)


def window(package: str, *children: V, bounds: tuple[int, int, int, int] = SCREEN,
           cls: str = "FrameLayout") -> V:
    root = v(cls, "", *children, bounds=bounds)
    root.package = package
    return root


def dump(*windows: V) -> str:
    hierarchy = etree.Element("hierarchy", rotation="0")
    for root in windows:
        assert root.package, "window() roots carry the package"
        _emit(hierarchy, root, root.package, root.bounds or SCREEN, 0)
    body = etree.tostring(hierarchy, encoding="unicode")
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n" + body


Box = tuple[int, int, int, int]


def _emit(parent: etree._Element, view: V, package: str, bounds: Box, index: int) -> None:
    left, top, right, bottom = view.bounds or bounds
    res = view.id if (not view.id or ":id/" in view.id) else f"{package}:id/{view.id}"
    attrs = {"index": str(index), "text": view.text, "resource-id": res, "class": view.cls,
             "package": package, "content-desc": view.desc}
    for flag in FLAGS:
        default = flag == "enabled"
        attrs[flag] = "true" if view.flags.get(flag, default) else "false"
    attrs["visible-to-user"] = "true"
    attrs["bounds"] = f"[{left},{top}][{right},{bottom}]"
    element = etree.SubElement(parent, "node", attrs)
    count = len(view.children)
    for i, child in enumerate(view.children):
        height = (bottom - top) / max(count, 1)
        slot = (left, int(top + i * height), right, int(top + (i + 1) * height))
        _emit(element, child, package, slot, i)
