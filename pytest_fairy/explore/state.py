"""State identity: which screen the app is on, told apart from what that screen currently shows.

A `StateId` has three hashes. The *structure* hash covers the app page: classes, resource-ids, the tree
shape and normalised static text, with everything dynamic filtered out (`dynamic_text`: counts, times,
dates, weekdays, months, prices, relative times; and long free text, typed text, checked / selected,
rows of lists beyond their shape). The *dialog* hash covers the dialog-like layers on top (dialogs,
popups, bottom sheets, permission and system dialogs) in the same way, so "menu page" and "menu page +
delivery-time dialog" are two states. The *content* hash covers what changes without changing the
screen: checked / selected / enabled, typed values and the visible (normalised) text, so toggling a radio
inside the dialog is "same state, content changed". Keyboard, system-bar (the status bar with its clock,
battery and notification icons) and decor layers count for nothing. The lock screen counts as itself
only: one mark in the dialog hash whatever its clock, date and notifications say, so a phone that locks
is one state however long it stays locked.

Lists: the children of a scrollable container are reduced to the set of their repeated shapes (no text,
no count; a header or footer that scrolls in and out does not count), so scrolling and list length make
no new state; only fully visible rows count, because a row clipped at the edge may lack some of its views.
What the rows say is content, names with their numbers (`商品 7`): rows scrolled into view are new
content. Non-scrolling groups of repeated children keep the text of their first `list_rows_kept` rows
and are reduced to their shape beyond that.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_fairy.explore.dynamic_text import normalize
from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.layers import Layer, LayerKind
from pytest_fairy.perception.refs import name_text

if TYPE_CHECKING:
    from pytest_fairy.perception.screen import Screen

IGNORED_KINDS = frozenset({LayerKind.KEYBOARD, LayerKind.SYSTEM_UI, LayerKind.DECOR})
DIALOG_KINDS = frozenset(
    {
        LayerKind.DIALOG,
        LayerKind.POPUP,
        LayerKind.BOTTOM_SHEET,
        LayerKind.DRAWER,
        LayerKind.PERMISSION,
        LayerKind.SYSTEM_DIALOG,
        LayerKind.SHADE,
    }
)
NAME_HASH_CHARS = 8
SYSTEMUI_PACKAGE = "com.android.systemui"
# The lock screen, by the window in front (`...KeyguardActivity`) or by its views (AOSP `keyguard_*`,
# `lock_icon`, the PIN `bouncer`; vendors' `com.oplus.keyguard.clock` views live in systemui's window).
KEYGUARD_WINDOW = re.compile(r"keyguard|lock", re.IGNORECASE)
KEYGUARD_VIEW = re.compile(r"keyguard|lockscreen|lock_screen|lock_icon|bouncer", re.IGNORECASE)
KEYGUARD_SIGNATURE = "keyguard"
_SEP = "\x1f"


@dataclass(frozen=True, slots=True)
class StateId:
    activity: str
    structure_hash: str
    dialog_hash: str = ""
    content_hash: str = ""

    @property
    def key(self) -> str:
        """What makes a state: activity + structure + dialog. Content is deliberately not part of it."""
        return f"{self.activity}|{self.structure_hash}|{self.dialog_hash}"

    @property
    def has_dialog(self) -> bool:
        return bool(self.dialog_hash)

    @property
    def name(self) -> str:
        """Readable and short: `state_productlist_e960fb61+dlg_3a9c01d2`."""
        base = f"state_{short_activity(self.activity)}_{self.structure_hash[:NAME_HASH_CHARS]}"
        return base + (f"+dlg_{self.dialog_hash[:NAME_HASH_CHARS]}" if self.dialog_hash else "")

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, str]:
        return {
            "activity": self.activity,
            "structure_hash": self.structure_hash,
            "dialog_hash": self.dialog_hash,
            "content_hash": self.content_hash,
        }

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> StateId:
        return cls(
            data["activity"],
            data["structure_hash"],
            data.get("dialog_hash", ""),
            data.get("content_hash", ""),
        )


def short_activity(activity: str) -> str:
    """`com.mcd.ProductListActivity` (or `pkg/.ProductListActivity`) -> `productlist`."""
    last = re.split(r"[./$]", activity.strip())[-1] if activity.strip() else ""
    if last.endswith("Activity") and last != "Activity":
        last = last[: -len("Activity")]
    cleaned = re.sub(r"[^a-z0-9_]", "", last.lower())
    return cleaned or "screen"


@dataclass(frozen=True, slots=True)
class StateIdentifier:
    """How states are told apart. The defaults suit phone apps; see the module doc for the rules."""

    # Longer text (after normalising) is free text: only its length class counts.
    long_text_chars: int = 40
    # In a non-scrolling group of repeated children, this many rows keep their text.
    list_rows_kept: int = 3
    # Children sharing one shape make a repeated group from this count on.
    repeated_min: int = 3
    hash_chars: int = 16

    def identify(self, screen: Screen) -> StateId:
        return self.identify_layers(screen.layers, activity=screen.activity, package=screen.package)

    def identify_layers(self, layers: list[Layer], *, activity: str = "", package: str = "") -> StateId:
        pages: list[str] = []
        dialogs: list[str] = []
        contents: list[str] = []
        for layer in layers:
            if layer.kind in IGNORED_KINDS:
                continue
            if is_keyguard(layer, activity=activity, package=package):
                dialogs.append(KEYGUARD_SIGNATURE)
                continue
            walk = _Walk(self, {id(n) for n in layer.excluded})
            signature = f"{layer.kind.value}:{layer.package}:{walk.structure(layer.root)}"
            (dialogs if layer.kind in DIALOG_KINDS else pages).append(signature)
            contents.append(walk.content(layer.root))
        # Sorted, so that the same windows listed in another order give the same hashes.
        structure = self._digest(package, *sorted(pages))
        dialog = self._digest(*sorted(dialogs)) if dialogs else ""
        return StateId(activity, structure, dialog, self._digest(*sorted(contents)))

    def normalize_text(self, text: str) -> str:
        """Static text with dynamic parts replaced by placeholders; long free text by its length class."""
        return normalize(text, self.long_text_chars) if text else ""

    def _digest(self, *parts: str) -> str:
        data = _SEP.join(parts).encode("utf-8")
        return hashlib.blake2b(data, digest_size=(self.hash_chars + 1) // 2).hexdigest()[: self.hash_chars]


_DEFAULT = StateIdentifier()


def is_keyguard(layer: Layer, *, activity: str = "", package: str = "") -> bool:
    """Whether `layer` is the lock screen: system UI covering the screen, in front as a keyguard window
    or showing keyguard views."""
    if layer.package != SYSTEMUI_PACKAGE or layer.kind is not LayerKind.SHADE:
        return False
    if package == SYSTEMUI_PACKAGE and KEYGUARD_WINDOW.search(activity):
        return True
    return any(KEYGUARD_VIEW.search(node.resource_id) for node in layer.nodes())


def identify(screen: Screen, identifier: StateIdentifier = _DEFAULT) -> StateId:
    """The state of `screen` (see the module doc for what counts)."""
    return identifier.identify(screen)


def layout_of(screen: Screen) -> frozenset[str]:
    """The screen's layout without its content: the distinct kinds of view it shows (layer, class, id
    without an index ending it, flags), text left out. Pages of one layout filled with other content (a
    shop's product pages, their views tagged `save_12` on the twelfth) have the same or nearly the same
    set; `families.Families` compares them."""
    views: set[str] = set()
    for layer in screen.layers:
        if layer.kind in IGNORED_KINDS:
            continue
        views.update(
            f"{layer.kind.value}:{n.short_class}#{_INDEX.sub('#', n.short_id)}/{_flags(n)}"
            for n in layer.nodes()
            if n.visible
        )
    return frozenset(views)


_INDEX = re.compile(r"\d+$")


def _flags(node: Node) -> str:
    return "".join(
        flag
        for flag, on in (
            ("c", node.clickable),
            ("l", node.long_clickable),
            ("k", node.checkable),
            ("s", node.scrollable),
            ("e", node.editable),
            ("p", node.password),
        )
        if on
    )


class _Walk:
    """One layer's signatures. Shapes are memoised: grouping children asks for them repeatedly."""

    def __init__(self, rules: StateIdentifier, excluded: set[int]) -> None:
        self.rules = rules
        self.excluded = excluded
        self._shapes: dict[int, str] = {}

    def _children(self, node: Node) -> list[Node]:
        return [c for c in node.children if id(c) not in self.excluded and c.visible]

    def shape(self, node: Node) -> str:
        """Text-free signature: classes, ids, flags and tree shape; lists as their set of row shapes."""
        cached = self._shapes.get(id(node))
        if cached is None:
            head = f"{node.short_class}#{node.short_id}/{_flags(node)}"
            inner = self._rows(node) if node.scrollable else ",".join(map(self.shape, self._children(node)))
            cached = f"{head}({inner})"
            self._shapes[id(node)] = cached
        return cached

    def _rows(self, node: Node) -> str:
        """A list as the shapes of its rows, whatever its offset: only the shapes that repeat among the
        fully visible rows (a header or footer scrolls in and out), all of them where none repeats (a
        ScrollView's single child)."""
        rows = self._children(node)
        inside = [r for r in rows if _within(r, node)] or rows
        counts = Counter(self.shape(r) for r in inside)
        repeated = {shape for shape, count in counts.items() if count > 1}
        return "{" + ",".join(sorted(repeated or counts)) + "}"

    def structure(self, node: Node) -> str:
        text = "" if node.editable or node.password else self.rules.normalize_text(node.text)
        desc = self.rules.normalize_text(node.content_desc)
        head = f"{node.short_class}#{node.short_id}/{_flags(node)}'{text}'{desc}"
        if node.scrollable:
            return f"{head}[{self._rows(node)}]"
        children = self._children(node)
        counts: dict[str, int] = {}
        for child in children:
            counts[self.shape(child)] = counts.get(self.shape(child), 0) + 1
        seen: dict[str, int] = {}
        parts: list[str] = []
        for child in children:
            shape = self.shape(child)
            if counts[shape] < self.rules.repeated_min:
                parts.append(self.structure(child))
                continue
            seen[shape] = seen.get(shape, 0) + 1
            if seen[shape] <= self.rules.list_rows_kept:
                parts.append(self.structure(child))
            elif seen[shape] == self.rules.list_rows_kept + 1:
                parts.append(f"+{shape}")
        return f"{head}[{','.join(parts)}]"

    def content(self, root: Node) -> str:
        """What the layer shows. Text in a list row keeps the numbers of its name (`商品 7`, not `商品 #`):
        rows 8-14 scrolled into view are other content than rows 1-7, though prices and times still
        count for nothing."""
        parts: list[str] = []
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, in_list = stack.pop()
            if id(node) in self.excluded or not node.visible:
                continue
            text = node.text if node.editable else self._text(node.text, in_list)
            marks = f"{int(node.checked)}{int(node.selected)}{int(node.enabled)}"
            if text or node.content_desc or node.checkable or node.selected or not node.enabled:
                desc = self._text(node.content_desc, in_list)
                parts.append(f"{node.short_id}'{text}'{desc}{marks}")
            inner = in_list or node.scrollable
            stack.extend((child, inner) for child in reversed(node.children))
        return _SEP.join(parts)

    def _text(self, text: str, in_list: bool) -> str:
        return name_text(text) if in_list else self.rules.normalize_text(text)


def _within(child: Node, container: Node) -> bool:
    c, b = child.bounds, container.bounds
    return b.left <= c.left and b.top <= c.top and c.right <= b.right and c.bottom <= b.bottom
