"""The Screen model: one dump understood - its layers, its numbered marks, its compressed text.

`build_screen(xml)` is the one entry point. Marks are the elements the explorer may act on; they are
numbered 1..n, top layer first, then in reading order (top-to-bottom, left-to-right). Elements below a
modal layer get no mark (a tap there lands on the dialog's scrim), nor do elements hidden under a layer
drawn above them (`covers`), nor the keyboard's and system bars' views (the explorer types text and
presses keys instead); all of them still appear in the text as context.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pytest_fairy.perception.actionable import actionable
from pytest_fairy.perception.compress import compress
from pytest_fairy.perception.hierarchy import Bounds, Node, drawn_regions, parse_hierarchy, screen_bounds
from pytest_fairy.perception.layers import Layer, LayerKind, detect_layers
from pytest_fairy.perception.marks import Mark, one_mark_per_control
from pytest_fairy.perception.reading import reading_order
from pytest_fairy.perception.refs import make_refs

# `Mark` is part of the screen's model and may be imported from here; it lives in marks.py because the
# refs, built before the screen, need it too.

# Layers whose views are never marked: chrome the explorer drives by keys and typing, not by taps.
UNMARKED_KINDS = frozenset({LayerKind.KEYBOARD, LayerKind.SYSTEM_UI, LayerKind.DECOR})
# Overlay windows that hide only what they draw: an input method's window reaches up over the app while it
# draws its keys, or only a toolbar, and passes taps elsewhere to the app (its touchable region is what
# it draws); a popup's window is its panel.
DRAWN_COVER_KINDS = frozenset({LayerKind.KEYBOARD, LayerKind.POPUP})
# Layers that are not dialogs even when drawn above the app.
NOT_DIALOG_KINDS = frozenset(
    {LayerKind.APP, LayerKind.SYSTEM_UI, LayerKind.KEYBOARD, LayerKind.LAUNCHER, LayerKind.DECOR}
)
TITLE_IDS = frozenset(
    {"title", "toolbar_title", "action_bar_title", "tv_title", "title_text", "header_title", "alertTitle"}
)
TITLE_REGION_FRACTION = 0.25  # a screen's title is looked for in this top part of the app window
TAB_ROW = 3  # tappable elements side by side that make a row of tabs, at least
DISMISS_LABEL_MAX = 12  # longer labels are sentences, not buttons: only matched exactly

# The ways out of a dialog, as groups of words; a group earlier in a preference list is chosen first.
CLOSE = ("关闭", "close", "×", "x", "✕", "✖", "dismiss", "收起")
CANCEL = (
    "取消",
    "cancel",
    "暂不",
    "以后再说",
    "稍后",
    "not now",
    "later",
    "no thanks",
    "跳过",
    "skip",
    "negative",
)
ACKNOWLEDGE = (
    "知道了",
    "我知道了",
    "好的",
    "好",
    "确定",
    "确认",
    "ok",
    "got it",
    "完成",
    "done",
    "confirm",
    "positive",
)
ALLOW = ("允许", "allow", "while using the app", "only this time", "仅限这一次", "始终允许")
DENY = ("拒绝", "不允许", "禁止", "deny", "don't allow", "dont allow")
CLOSE_APP = ("close app", "关闭应用", "关闭应用程序")
WAIT = ("wait", "等待")
# An AlertDialog's negative button (cancel, not now) by the framework's id, whatever language its label is
# in. The positive button1 is no way out by its id: it may delete, buy or send.
FRAMEWORK_BUTTON_ROLES = {"android:id/button2": "negative"}
# Plain dialogs: leave without choosing (close, cancel) before acknowledging. Permission dialogs: allow,
# so the feature under test can go on. Crash / ANR dialogs: close the app (the defect is already seen).
DISMISS_PREFERENCE: dict[LayerKind, tuple[tuple[str, ...], ...]] = {
    LayerKind.PERMISSION: (ALLOW, ACKNOWLEDGE, DENY, CANCEL, CLOSE),
    LayerKind.SYSTEM_DIALOG: (CLOSE_APP, ACKNOWLEDGE, CLOSE, WAIT, CANCEL),
}
DEFAULT_PREFERENCE = (CLOSE, CANCEL, ACKNOWLEDGE, DENY, ALLOW)

_PUNCTUATION = re.compile(r"[\s.,!?:;'\"()\[\]，。！？：；、（）]+")


def _markable(node: Node) -> bool:
    return actionable(node)


def covers(layer: Layer) -> tuple[Bounds, ...]:
    """What `layer` hides of the layers below: nothing for decor, what it draws for the keyboard and
    popups (`drawn_regions`), else its whole window (drawn opaque, or a scrim that takes the taps)."""
    if layer.kind is LayerKind.DECOR:
        return ()
    return drawn_regions(layer.root) if layer.kind in DRAWN_COVER_KINDS else (layer.bounds,)


def _marks(layers: list[Layer]) -> list[Mark]:
    modal = [i for i, layer in enumerate(layers) if layer.modal]
    lowest = modal[-1] if modal else 0
    chosen: list[tuple[Layer, Node]] = []
    for i in range(len(layers) - 1, lowest - 1, -1):
        layer = layers[i]
        if layer.kind in UNMARKED_KINDS:
            continue
        above = [cover for other in layers[i + 1 :] for cover in covers(other)]
        reached = [
            node
            for node in layer.nodes()
            if _markable(node) and not any(b.contains(*node.bounds.center) for b in above)
        ]
        nodes = one_mark_per_control(layer, reached)
        chosen.extend((layer, node) for node in reading_order(nodes))
    refs = make_refs([node for _, node in chosen])
    return [
        Mark(number, node, ref, layer.kind)
        for number, ((layer, node), ref) in enumerate(zip(chosen, refs, strict=True), start=1)
    ]


def _contains_word(text: str, word: str) -> bool:
    # Latin words must stand alone ("ok" is not in "book"); CJK has no spaces, so a substring will do.
    if word.isascii():
        return re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text) is not None
    return word in text


def _words_group(text: str, preference: tuple[tuple[str, ...], ...]) -> int | None:
    """The index of the group whose word best names `text`: an exact word, else the longest one inside."""
    normal = _PUNCTUATION.sub(" ", text.casefold()).strip()
    if not normal:
        return None
    best: tuple[int, int] | None = None  # (word length, group)
    for group, words in enumerate(preference):
        for word in words:
            if normal == word:
                return group
            if (
                len(normal) <= DISMISS_LABEL_MAX
                and len(word) > 1
                and _contains_word(normal, word)
                and (best is None or len(word) > best[0])
            ):
                best = (len(word), group)
    return None if best is None else best[1]


@dataclass
class Screen:
    """A dump as the explorer sees it. Build one with :func:`build_screen`."""

    windows: list[Node]
    layers: list[Layer]
    marks: list[Mark]
    activity: str = ""
    package: str = ""
    xml: str = field(default="", repr=False)
    text: str = field(default="", repr=False)
    # Toasts the device showed with this screen: never in the dump, part of what a person sees.
    toasts: tuple[str, ...] = ()

    @property
    def bounds(self) -> Bounds:
        return screen_bounds(self.windows)

    @property
    def app_layer(self) -> Layer | None:
        return next((layer for layer in self.layers if layer.kind is LayerKind.APP), None)

    @property
    def top_layer(self) -> Layer:
        """The topmost layer a user deals with (the status bar, nav bar and keyboard do not count)."""
        for layer in reversed(self.layers):
            if layer.kind not in UNMARKED_KINDS:
                return layer
        return self.layers[-1]

    @property
    def dialog_layers(self) -> list[Layer]:
        """Dialogs, popups, sheets, permission and system dialogs above the app, bottom -> top."""
        return [layer for layer in self.layers if layer.kind not in NOT_DIALOG_KINDS]

    @property
    def has_dialog(self) -> bool:
        return bool(self.dialog_layers)

    def own_tabs(self) -> set[str]:
        """The tab of the page shown (找房 on 找房), by ref: an element labelled as the page's title, in a row
        of `TAB_ROW` or more tappable elements side by side. A tap on it opens the page it is on."""
        title = self.title.strip().casefold()
        return {m.ref for m in self.marks if m.label.strip().casefold() == title and in_tab_row(m.node)}

    @property
    def marks_by_ref(self) -> dict[str, Mark]:
        return {mark.ref: mark for mark in self.marks}

    def mark(self, number: int) -> Mark:
        if 1 <= number <= len(self.marks):
            return self.marks[number - 1]
        raise KeyError(f"no mark [{number}] on this screen: marks are 1..{len(self.marks)}")

    def nodes(self) -> Iterator[Node]:
        """Every node of every layer, bottom layer first."""
        for layer in self.layers:
            yield from layer.nodes()

    def find_text(self, text: str, *, exact: bool = False) -> list[Node]:
        """Visible nodes whose text or content-desc is `text` (exact) or contains it (case-insensitive)."""
        wanted = text.strip() if exact else text.strip().casefold()
        found = []
        for node in self.nodes():
            if not node.visible:
                continue
            values = (node.text.strip(), node.content_desc.strip())
            if exact and wanted in values or not exact and any(wanted in v.casefold() for v in values if v):
                found.append(node)
        return found

    def dismiss_mark(self) -> Mark | None:
        """The top dialog's way out, chosen by `DISMISS_PREFERENCE`; None without a dialog or a button."""
        if not self.dialog_layers:
            return None
        top = self.dialog_layers[-1]
        preference = DISMISS_PREFERENCE.get(top.kind, DEFAULT_PREFERENCE)
        in_layer = {id(node) for node in top.nodes()}
        best: tuple[int, Mark] | None = None
        for mark in self.marks:
            if id(mark.node) not in in_layer or not (mark.node.clickable or mark.node.long_clickable):
                continue
            group = _words_group(mark.label, preference)
            if group is None and (role := FRAMEWORK_BUTTON_ROLES.get(mark.node.resource_id)):
                group = _words_group(role, preference)
            if group is None and mark.node.resource_id:
                group = _words_group(mark.node.short_id.replace("_", " "), preference)
            if group is not None and (best is None or group < best[0]):
                best = (group, mark)
        return None if best is None else best[1]

    @property
    def title(self) -> str:
        """A name for the screen: the toolbar title, else the tallest text near the top, else the activity."""
        layer = self.app_layer
        if layer is not None:
            texts = [n for n in layer.nodes() if n.visible and n.text and not n.password]
            for node in reading_order(texts):
                parent = node.parent
                if node.short_id in TITLE_IDS or (parent is not None and "Toolbar" in parent.class_name):
                    return node.text.strip()
            limit = layer.bounds.top + TITLE_REGION_FRACTION * layer.bounds.height
            top_texts = [n for n in reading_order(texts) if n.bounds.top < limit and n.bounds.area > 0]
            if top_texts:
                return max(top_texts, key=lambda n: n.bounds.height).text.strip()
        if self.activity:
            return self.activity.rsplit(".", 1)[-1]
        return self.package


def build_screen(xml: str, *, activity: str = "", package: str = "", toasts: Sequence[str] = ()) -> Screen:
    """Parse a dump and derive everything: layers, marks with refs, and the compressed text. `toasts`
    are the ones the device showed with it (`devices.protocol.Toasts`)."""
    windows = parse_hierarchy(xml)
    layers = detect_layers(windows, package)
    if not package:
        app = next((layer for layer in layers if layer.kind is LayerKind.APP), None)
        package = app.package if app is not None else ""
    screen = Screen(windows, layers, _marks(layers), activity, package, xml, toasts=tuple(toasts))
    screen.text = compress(screen)
    return screen


def in_tab_row(node: Node) -> bool:
    """`node` is one of `TAB_ROW` or more tappable elements side by side in one parent: a row of tabs, a
    bottom navigation."""
    parent = node.parent
    if parent is None:
        return False
    row = [n for n in parent.children if n.clickable and n.bounds.top == node.bounds.top]
    return len(row) >= TAB_ROW
