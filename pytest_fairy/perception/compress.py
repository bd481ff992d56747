"""The compressed screen text the brain reads: a few lines instead of a hundred kilobytes of XML.

Shape (layers top -> bottom, the one in front first)::

    activity: com.example.food/.MenuActivity
    [dialog] 请选择您的送达时间
      [1] RadioButton "尽快送达" checked
      [2] Button "确定"
    [app, behind the dialog] 菜单 · 巨无霸 · ¥22.00 · ...

Only interactive and text-bearing nodes are kept; pure containers are dropped and their children lifted.
An interactive container whose inside is plain text becomes one line carrying that text. Runs of similar
siblings (same class / id / shape) are cut after the first few, the rest summarised on one line that
still names every mark number in it. Layers below a modal one are summarised as a line of their texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.layers import Layer, LayerKind
from pytest_fairy.perception.marks import Mark
from pytest_fairy.perception.reading import node_label, reading_order
from pytest_fairy.text import one_line

MERGE_MIN_RUN = 5  # runs of at least this many similar siblings are merged
MERGE_SHOW = 3  # how many of a merged run are shown in full
TAIL_INLINE_CHARS = 160  # labels of the merged rest listed up to about this many characters
TEXT_MAX = 60  # longer texts are cut with an ellipsis
SUMMARY_TEXTS = 12  # texts listed for a layer that is only summarised
MAX_INDENT = 3  # nesting levels shown; deeper lines stay at this level
INDENT = "  "
SIGNATURE_DEPTH = 2  # how deep the shape of an element is compared when merging runs
SILENT_KINDS = frozenset({LayerKind.SYSTEM_UI, LayerKind.DECOR})  # bars and decor say nothing useful


class Readable(Protocol):
    """What the text is made from: a :class:`~pytest_fairy.perception.screen.Screen` is one. Named here
    rather than imported, since the screen is built with this text and so imports this module."""

    @property
    def layers(self) -> Sequence[Layer]: ...

    @property
    def marks(self) -> Sequence[Mark]: ...

    @property
    def activity(self) -> str: ...

    @property
    def toasts(self) -> tuple[str, ...]: ...

    @property
    def package(self) -> str: ...

    @property
    def title(self) -> str: ...


@dataclass
class _Item:
    node: Node
    children: list[_Item] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)


def _cut(text: str) -> str:
    return one_line(text, TEXT_MAX)


def _actionable(node: Node) -> bool:
    # Disabled controls stay in the text (flagged) although they get no mark.
    return node.clickable or node.long_clickable or node.checkable or node.editable or node.scrollable


def _items(node: Node, skip: set[int]) -> list[_Item]:
    if id(node) in skip or not node.visible:
        return []
    kids = [item for child in node.children for item in _items(child, skip)]
    # Reading order, so that the lines follow the mark numbers (the file order of siblings need not).
    kids.sort(key=lambda k: (k.node.bounds.top, k.node.bounds.left))
    if not (_actionable(node) or node.text or node.content_desc):
        return kids  # a pure container: drop it, keep what it holds
    if _actionable(node) and not node.text and not node.content_desc:
        # A row or card: its plain texts become its label; its own buttons stay lines of their own.
        plain = [k for k in kids if not k.children and not k.folded and not _actionable(k.node)]
        if plain:
            rest = [k for k in kids if all(k is not p for p in plain)]
            return [_Item(node, rest, [_label_text(k.node) for k in plain])]
    return [_Item(node, kids)]


def _label_text(node: Node) -> str:
    if node.password and node.text:
        return "***"
    return _cut(node.text or node.content_desc)


def _signature(item: _Item, depth: int = 0) -> tuple[object, ...]:
    node = item.node
    inner = tuple(_signature(c, depth + 1) for c in item.children) if depth < SIGNATURE_DEPTH else ()
    return (node.class_name, node.resource_id, _actionable(node), bool(item.folded), inner)


class _Writer:
    def __init__(self, numbers: dict[int, int], layer: Layer, heading: str) -> None:
        self.numbers = numbers
        self.layer = layer
        self.heading = heading  # a plain text equal to the layer's heading is not repeated below it
        self.lines: list[str] = []

    def line(self, item: _Item) -> str:
        node = item.node
        parts: list[str] = []
        number = self.numbers.get(id(node))
        if number is not None:
            parts.append(f"[{number}]")
        text = _label_text(node)
        if item.folded:
            text = " · ".join(t for t in [text, *item.folded] if t)
        elif node.text and node.content_desc and node.content_desc != node.text:
            text = f"{text} ({_cut(node.content_desc)})"
        if _actionable(node) or not node.text:
            parts.append(node.short_class or "View")
        if text:
            parts.append(f'"{text}"')
        elif node.resource_id:
            parts.append(f"#{node.short_id}")
        elif _actionable(node) and node.bounds == self.layer.bounds:
            parts.append("(background: tapping it may dismiss)")
        parts.extend(_flags(node))
        return " ".join(parts)

    def write(self, items: list[_Item], level: int) -> None:
        indent = INDENT * min(level, MAX_INDENT)
        i = 0
        while i < len(items):
            j = i + 1
            while j < len(items) and _signature(items[j]) == _signature(items[i]):
                j += 1
            run = items[i:j] if j - i >= MERGE_MIN_RUN else items[i : i + 1]
            shown = run[:MERGE_SHOW] if len(run) >= MERGE_MIN_RUN else run
            for item in shown:
                if self.heading and not _actionable(item.node) and _label_text(item.node) == self.heading:
                    self.heading = ""
                else:
                    self.lines.append(indent + self.line(item))
                self.write(item.children, level + 1)
            if len(run) > len(shown):
                self.lines.append(indent + self.tail(run[len(shown) :]))
            i += len(run)

    def tail(self, hidden: list[_Item]) -> str:
        inline: list[str] = []
        listed: set[int] = set()
        size = 0
        for item in hidden:
            number = self.numbers.get(id(item.node))
            label = _label_text(item.node) or next(iter(item.folded), "") or node_label(item.node)
            entry = f"[{number}] {label}" if number is not None else label
            if size + len(entry) > TAIL_INLINE_CHARS:
                break
            inline.append(entry)
            size += len(entry) + 3
            if number is not None:
                listed.add(number)
        rest = sorted(
            self.numbers[id(n)]
            for item in hidden
            for n in _nodes(item)
            if id(n) in self.numbers and self.numbers[id(n)] not in listed
        )
        text = f"… and {len(hidden)} more like it"
        if inline:
            text += ": " + " · ".join(inline)
        if rest:
            text += f" {'· ' if inline else ''}(marks {format_numbers(rest)})"
        return text


def _nodes(item: _Item) -> list[Node]:
    found = [item.node]
    for child in item.children:
        found.extend(_nodes(child))
    return found


def _flags(node: Node) -> list[str]:
    flags = []
    if node.checkable:
        flags.append("checked" if node.checked else "unchecked")
    if node.selected:
        flags.append("selected")
    if not node.enabled:
        flags.append("disabled")
    if node.editable:
        flags.append("editable")
    if node.password:
        flags.append("password")
    if node.focused and node.editable:
        flags.append("focused")
    if node.scrollable:
        flags.append("scrollable")
    if node.long_clickable and not node.clickable:
        flags.append("long-click")
    return flags


def format_numbers(numbers: list[int]) -> str:
    """`[3, 4, 5, 9]` -> `3-5,9`."""
    spans: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        spans.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ",".join(spans)


def layer_title(layer: Layer) -> str:
    """A dialog's title: its title view, else its first text in reading order."""
    texts = [n for n in layer.nodes() if n.visible and n.text and not n.password]
    for node in texts:
        if "title" in node.short_id.lower():
            return _cut(node.text)
    ordered = reading_order(texts)
    return _cut(ordered[0].text) if ordered else ""


def _summary(layer: Layer) -> str:
    seen: list[str] = []
    texts = [n for n in layer.nodes() if n.visible and (n.text or n.content_desc) and not n.password]
    for node in reading_order(texts):
        text = _cut(node.text or node.content_desc)
        if text not in seen:
            seen.append(text)
    shown = " · ".join(seen[:SUMMARY_TEXTS])
    return shown + (f" · … (+{len(seen) - SUMMARY_TEXTS})" if len(seen) > SUMMARY_TEXTS else "")


def compress(screen: Readable) -> str:
    """The screen as short, numbered lines for the LLM (see the module doc for the shape)."""
    numbers = {id(mark.node): mark.number for mark in screen.marks}
    lines: list[str] = []
    if screen.activity or screen.package:
        lines.append(f"activity: {screen.package}/{screen.activity}".replace("//", "/").rstrip("/"))
    lines.extend(f"[toast] {' '.join(toast.split())}" for toast in screen.toasts)
    modal = [i for i, layer in enumerate(screen.layers) if layer.modal]
    lowest = modal[-1] if modal else 0
    for i in range(len(screen.layers) - 1, -1, -1):
        layer = screen.layers[i]
        if layer.kind in SILENT_KINDS:
            continue
        if layer.kind is LayerKind.KEYBOARD:
            lines.append("[keyboard] shown")
            continue
        name = screen.title if layer.kind is LayerKind.APP else layer_title(layer)
        if i < lowest:
            lines.append(f"[{layer.kind}, behind the {screen.layers[lowest].kind}] {_summary(layer)}")
            continue
        lines.append(f"[{layer.kind}] {name}".rstrip())
        writer = _Writer(numbers, layer, name)
        skip = {id(node) for node in layer.excluded}
        writer.write(_items(layer.root, skip), 1)
        lines.extend(writer.lines)
    return "\n".join(lines)
