"""Tiny uiautomator dumps for tests of the parts above perception (brains, policy, actions)."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from pytest_fairy.perception.screen import Screen, build_screen

PACKAGE = "com.example.app"
ATTRS = (
    "index",
    "text",
    "resource-id",
    "class",
    "package",
    "content-desc",
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
    "visible-to-user",
    "bounds",
)


def node(
    cls: str = "android.widget.TextView", *children: str, bounds: str = "[0,0][1080,2400]", **attrs: object
) -> str:
    values: dict[str, object] = {
        "index": 0,
        "text": "",
        "resource-id": "",
        "class": cls,
        "package": PACKAGE,
        "content-desc": "",
        "checkable": False,
        "checked": False,
        "clickable": False,
        "enabled": True,
        "focusable": False,
        "focused": False,
        "scrollable": False,
        "long-clickable": False,
        "password": False,
        "selected": False,
        "visible-to-user": True,
        "bounds": bounds,
    }
    values.update({k.replace("_", "-"): v for k, v in attrs.items()})
    rendered = " ".join(f"{name}={quoteattr(_text(values[name]))}" for name in ATTRS)
    return f"<node {rendered}>{''.join(children)}</node>"


def button(text: str, row: int, **attrs: object) -> str:
    top = 200 + row * 150
    return node(
        "android.widget.Button", text=text, clickable=True, bounds=f"[40,{top}][1040,{top + 120}]", **attrs
    )


def dump(*windows: str) -> str:
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
        + f'<hierarchy rotation="0">{"".join(windows)}</hierarchy>'
    )


def screen_of(*buttons: str, activity: str = ".MainActivity") -> Screen:
    """A one-window app screen holding the given elements."""
    window = node("android.widget.FrameLayout", *buttons)
    return build_screen(dump(window), activity=activity, package=PACKAGE)


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
