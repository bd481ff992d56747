"""Serialise windows in the uiautomator dump format, byte for byte like the device writes it.

Attributes come in the order AccessibilityNodeInfoDumper writes them; `index` is the position among
siblings; values are escaped like Android's XmlSerializer (`&amp; &lt; &gt; &quot;`, newlines as
`&#10;`), characters XML cannot carry become `.` as uiautomator does, and non-ASCII text stays UTF-8.
"""

from __future__ import annotations

import re

from fairy_virtual.views import View, Window

XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
INDENT = "  "

_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)


# Characters uiautomator's dumper replaces with "." (AccessibilityNodeInfoDumper.stripInvalidXMLChars):
# those XML 1.0 cannot carry, plus the C1 controls.
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufdd0-\ufddf\ufffe\uffff]")


def _escape(value: str) -> str:
    return _INVALID.sub(".", value).translate(_ESCAPES)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _attributes(view: View, index: int, package: str) -> str:
    pairs = (
        ("index", str(index)),
        ("text", view.text),
        ("resource-id", view.resource_id),
        ("class", view.class_name),
        ("package", package),
        ("content-desc", view.desc),
        ("checkable", _bool(view.checkable)),
        ("checked", _bool(view.checked)),
        ("clickable", _bool(view.clickable)),
        ("enabled", _bool(view.enabled)),
        ("focusable", _bool(view.focusable)),
        ("focused", _bool(view.focused)),
        ("scrollable", _bool(view.scrollable)),
        ("long-clickable", _bool(view.long_clickable)),
        ("password", _bool(view.password)),
        ("selected", _bool(view.selected)),
        ("visible-to-user", "true"),
        ("bounds", str(view.bounds)),
    )
    return " ".join(f'{name}="{_escape(value)}"' for name, value in pairs)


def _node(view: View, index: int, package: str, depth: int, out: list[str]) -> None:
    pad = INDENT * depth
    attrs = _attributes(view, index, package)
    if not view.children:
        out.append(f"{pad}<node {attrs} />")
        return
    out.append(f"{pad}<node {attrs}>")
    for i, child in enumerate(view.children):
        _node(child, i, package, depth + 1, out)
    out.append(f"{pad}</node>")


def dump_xml(windows: list[Window]) -> str:
    """The dump of `windows` (bottom first): one top-level <node> per window, each with index 0."""
    out = [XML_DECLARATION, '<hierarchy rotation="0">']
    for window in windows:
        _node(window.root, 0, window.package, 1, out)
    out.append("</hierarchy>")
    return "\n".join(out) + "\n"
