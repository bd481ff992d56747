"""Lay out app screens and dialogs: model elements + current state -> `Window`s of `View`s.

Automatic layout is a vertical flow (rows for `orientation: horizontal`), with default heights per
widget class like stock Material widgets at 1080 px width, scaled to the screen width. Elements with
`bounds` are placed where they say; `dock: bottom` stacks at the bottom; `fill` (and lists without a
height) take the space left.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from fairy_virtual.expr import TextContext, evaluate, expand
from fairy_virtual.model import AppModel, Element, ExternalScreen, RowList, Screen
from fairy_virtual.ui_state import UiState
from fairy_virtual.views import Target, View, Window, clip
from pytest_fairy.perception.hierarchy import Bounds

BASE_WIDTH = 1080  # default sizes below are for this width and scale with the screen
DEFAULT_HEIGHT = 110
HEIGHTS = {
    "Button": 144,
    "ImageButton": 132,
    "EditText": 150,
    "CheckBox": 120,
    "RadioButton": 120,
    "Switch": 120,
    "ToggleButton": 120,
    "ImageView": 300,
    "ProgressBar": 60,
    "SeekBar": 90,
    "Spinner": 130,
}
STYLE_HEIGHTS = {"title": 130, "caption": 80, "card": 220}
TOOLBAR_HEIGHT = 168
ACTION_PADDING, ACTION_CHAR = 64, 40  # a toolbar's text action item (Save): padding, width per character
SCREEN_PADDING = 40
GAP = 24
MIN_FILL = 200  # a fill element never gets less than this, even on a crowded screen

CHECKABLE = {"CheckBox", "RadioButton", "Switch", "ToggleButton", "CheckedTextView"}
EDITABLE = {"EditText", "AutoCompleteTextView"}
SCROLLING = {"RecyclerView", "ListView", "GridView", "ScrollView", "HorizontalScrollView", "ViewPager"}
SIDEWAYS = {"HorizontalScrollView", "ViewPager"}  # scroll sideways: their children are laid out in place
CLICKABLE = {"Button", "ImageButton", "Spinner"} | CHECKABLE | EDITABLE
PASSWORD_DOT = "•"


class Layout:
    """Builds windows for one observation. Cheap to make; holds only what the observation needs."""

    def __init__(self, model: AppModel, ui: UiState, ctx: TextContext, size: tuple[int, int]) -> None:
        self.model = model
        self.ui = ui
        self.ctx = ctx
        self.width, self.height = size
        self.scale = self.width / BASE_WIDTH
        self.package = model.app.package

    def px(self, value: int) -> int:
        return round(value * self.scale)

    # ---- windows --------------------------------------------------------------------------------

    def screen_window(self, screen: Screen, is_root: bool) -> Window:
        full = Bounds(0, 0, self.width, self.height)
        children: list[View] = []
        top = 0
        if screen.title:
            up = screen.up if screen.up is not None else screen.id != self.model.app.launch and not is_root
            children.append(
                self._toolbar(expand(screen.title, self.ctx), up, actions=screen.actions, path=screen.id)
            )
            top = self.px(TOOLBAR_HEIGHT)
        body = Bounds(0, top, self.width, self.height)
        children.extend(self.flow(screen.elements, body, screen.id, self.px(SCREEN_PADDING)))
        content = View("android.widget.LinearLayout", full, children=children)
        return Window(self._decor(full, content), self.package, "app", accent=self.model.app.color)

    def external_window(self, external: ExternalScreen) -> Window:
        full = Bounds(0, 0, self.width, self.height)
        bar = self._toolbar(external.title or external.package, up=True, package=external.package)
        body = View(
            "android.webkit.WebView",
            Bounds(0, bar.bounds.bottom, self.width, self.height),
            desc=external.title,
            focusable=True,
        )
        content = View("android.widget.LinearLayout", full, children=[bar, body])
        return Window(self._decor(full, content), external.package, "app")

    def _decor(self, full: Bounds, content: View) -> View:
        """DecorView > LinearLayout > android:id/content, the wrappers every activity window has."""
        frame = View("android.widget.FrameLayout", full, resource_id="android:id/content", children=[content])
        return View(
            "android.widget.FrameLayout",
            full,
            children=[View("android.widget.LinearLayout", full, children=[frame])],
        )

    def _toolbar(
        self,
        title: str,
        up: bool,
        package: str | None = None,
        actions: Sequence[Element] = (),
        path: str = "",
    ) -> View:
        pkg = package or self.package
        bar = Bounds(0, 0, self.width, self.px(TOOLBAR_HEIGHT))
        items = self._actions(actions, bar, path)
        right = min((item.bounds.left for item in items), default=self.width)
        children: list[View] = []
        left = self.px(SCREEN_PADDING)
        if up:
            size = bar.height
            label = "转到上一层级" if self.model.device.locale == "zh" else "Navigate up"
            children.append(
                View(
                    "android.widget.ImageButton",
                    Bounds(0, 0, size, size),
                    desc=label,
                    clickable=True,
                    focusable=True,
                    role="up",
                    target=Target(key="toolbar:up", system="up"),
                )
            )
            left = size
        children.append(
            View(
                "android.widget.TextView",
                Bounds(left, 0, right, bar.bottom),
                text=title,
                resource_id=f"{pkg}:id/toolbar_title",
                style="title",
            )
        )
        toolbar = f"{pkg}:id/toolbar"
        return View(
            "android.view.ViewGroup", bar, resource_id=toolbar, role="toolbar", children=children + items
        )

    def _actions(self, actions: Sequence[Element], bar: Bounds, path: str) -> list[View]:
        """The toolbar's action items, right-aligned in model order: an icon a square of the bar's
        height, a text item as wide as its text."""
        views: list[View] = []
        right = bar.right
        for i, element in reversed([(i, e) for i, e in enumerate(actions) if self.shown(e)]):
            text = expand(element.text, self.ctx)
            width = max(bar.height, self.px(ACTION_PADDING + ACTION_CHAR * len(text))) if text else bar.height
            box = Bounds(right - width, bar.top, right, bar.bottom)
            view = self._view(element, box, f"{path}/actions/{i}", None)
            view.role = "action"
            views.append(view)
            right = box.left
        return views[::-1]

    # ---- flow layout ----------------------------------------------------------------------------

    def shown(self, element: Element) -> bool:
        return evaluate(element.when, self.ui.variables)

    def _natural(self, element: Element) -> int:
        if element.height is not None:
            return element.height
        if element.children:
            kids = [k for k in element.children if self.shown(k) and k.bounds is None]
            if element.orientation == "horizontal":
                inner = max((self._natural(k) for k in kids), default=0)
            else:
                inner = self.stack_height(kids)
            return inner + 2 * element.padding
        if element.row_list is not None:
            return self._rows_height(element.row_list)
        if element.style in STYLE_HEIGHTS:
            return self.px(STYLE_HEIGHTS[element.style])
        return self.px(HEIGHTS.get(element.short_class, DEFAULT_HEIGHT))

    def stack_height(self, elements: list[Element]) -> int:
        if not elements:
            return 0
        return sum(self._natural(e) for e in elements) + self.px(GAP) * (len(elements) - 1)

    def flow(
        self,
        elements: list[Element],
        area: Bounds,
        path: str,
        pad: int,
        top_pad: int | None = None,
        row: int | None = None,
    ) -> list[View]:
        """Vertical flow of `elements` in `area`; returns views in model order."""
        placed: list[tuple[int, View]] = []
        shown = [(i, e) for i, e in enumerate(elements) if self.shown(e)]
        bottom = area.bottom - (pad if top_pad is not None else 0)
        for i, element in reversed([(i, e) for i, e in shown if e.dock == "bottom" and e.bounds is None]):
            h = self._natural(element) if not element.fill else self.px(TOOLBAR_HEIGHT)
            box = Bounds(area.left + pad, bottom - h, area.right - pad, bottom)
            placed.append((i, self._view(element, box, f"{path}/{i}", row)))
            bottom -= h
        flow = [(i, e) for i, e in shown if e.dock is None and e.bounds is None]
        gap = self.px(GAP)
        fills = [e for _, e in flow if self._fills(e)]
        fixed = sum(self._natural(e) for _, e in flow if not self._fills(e))
        top = area.top + (pad if top_pad is None else top_pad)
        spare = bottom - top - fixed - gap * max(0, len(flow) - 1)
        fill_height = max(self.px(MIN_FILL), spare // len(fills)) if fills else 0
        y = top
        for i, element in flow:
            h = fill_height if self._fills(element) else self._natural(element)
            box = Bounds(area.left + pad, y, area.right - pad, y + h)
            if box.top < area.bottom:
                view = self._view(element, box, f"{path}/{i}", row)
                visible = clip(view, Bounds(area.left, area.top, area.right, area.bottom))
                if visible is not None:
                    placed.append((i, visible))
            y += h + gap
        for i, element in shown:
            if element.bounds is not None:
                placed.append((i, self._view(element, Bounds(*element.bounds), f"{path}/{i}", row)))
        placed.sort(key=lambda pair: pair[0])
        return [view for _, view in placed]

    @staticmethod
    def _fills(element: Element) -> bool:
        return element.fill or (element.row_list is not None and element.height is None)

    def _row(self, elements: list[Element], area: Bounds, path: str, row: int | None) -> list[View]:
        shown = [(i, e) for i, e in enumerate(elements) if self.shown(e)]
        if not shown:
            return []
        gap = self.px(GAP)
        total = sum(e.weight for _, e in shown)
        space = area.width - gap * (len(shown) - 1)
        views, x = [], area.left
        for n, (i, element) in enumerate(shown):
            w = area.right - x if n == len(shown) - 1 else round(space * element.weight / total)
            views.append(self._view(element, Bounds(x, area.top, x + w, area.bottom), f"{path}/{i}", row))
            x += w + gap
        return views

    # ---- one element ----------------------------------------------------------------------------

    def _view(self, element: Element, box: Bounds, key: str, row: int | None) -> View:
        ctx = self.ctx if row is None else self.ctx.with_row(row)
        short = element.short_class
        editable = element.editable if element.editable is not None else short in EDITABLE
        checkable = element.checkable if element.checkable is not None else short in CHECKABLE
        clickable = (
            element.clickable
            if element.clickable is not None
            else (short in CLICKABLE or editable or bool(element.on_tap))
        )
        long_clickable = (
            element.long_clickable
            if element.long_clickable is not None
            else (editable or bool(element.on_long_tap))
        )
        scrollable = (
            element.scrollable
            if element.scrollable is not None
            else (element.row_list is not None or short in SCROLLING)
        )
        focusable = (
            element.focusable if element.focusable is not None else (clickable or editable or scrollable)
        )
        text, showing_hint = expand(element.text, ctx), False
        if editable:
            typed = str(self.ui.variables.get(element.var, "")) if element.var else self.ui.texts.get(key, "")
            if typed:
                text = PASSWORD_DOT * len(typed) if element.password else typed
            elif element.hint:
                text, showing_hint = expand(element.hint, ctx), True
        view = View(
            element.class_name,
            box,
            text=text,
            resource_id=self.model.resource_id(element.id),
            desc=expand(element.desc, ctx),
            checkable=checkable,
            checked=self._checked(element, key),
            clickable=clickable,
            enabled=element.enabled,
            focusable=focusable,
            focused=editable and self.ui.focused == key,
            scrollable=scrollable,
            long_clickable=long_clickable,
            password=element.password,
            selected=element.selected,
            style=element.style,
            showing_hint=showing_hint,
            role="card" if element.style == "card" else "",
            target=Target(key=key, element=element, row=row),
        )
        inner = Bounds(
            box.left + element.padding,
            box.top + element.padding,
            box.right - element.padding,
            box.bottom - element.padding,
        )
        if element.children:
            if element.orientation == "horizontal":
                view.children = self._row(element.children, inner, key, row)
            elif view.scrollable and short not in SIDEWAYS:
                self._fill_scroll(view, element, inner, key, row)
            else:
                view.children = self.flow(element.children, inner, key, 0, top_pad=0, row=row)
        elif element.row_list is not None:
            self._fill_list(view, element, key)
        return view

    def _fill_scroll(self, view: View, element: Element, viewport: Bounds, key: str, row: int | None) -> None:
        """A scrolling container (a ScrollView): its children flow at their natural heights, moved up by
        its scroll offset; what lies outside its viewport is not in the dump."""
        content = self.stack_height([e for e in element.children if self.shown(e) and e.bounds is None])
        extent = max(0, content - viewport.height)
        offset = min(self.ui.scroll.get(key, 0), extent)
        top = viewport.top - offset
        area = Bounds(viewport.left, top, viewport.right, top + max(content, viewport.height))
        placed = (
            clip(child, viewport) for child in self.flow(element.children, area, key, 0, top_pad=0, row=row)
        )
        view.children = [child for child in placed if child is not None]
        view.target = Target(key=key, element=element, row=row, scroll_extent=extent)

    def _checked(self, element: Element, key: str) -> bool:
        if element.group is not None:
            return self.ui.variables.get(element.group) == element.value
        if element.var is not None and (element.checkable or element.short_class in CHECKABLE):
            return bool(self.ui.variables.get(element.var))
        return self.ui.checked.get(key, element.checked)

    def _fill_list(self, view: View, element: Element, key: str) -> None:
        """Only the rows inside the viewport exist, as with a RecyclerView. Rows given one by one show
        while their `when` holds, each as tall as its `height` (else `row_height`)."""
        rows = element.row_list
        assert rows is not None
        viewport = view.bounds
        extent = max(0, self._rows_height(rows) - viewport.height)
        offset = min(self.ui.scroll.get(key, 0), extent)
        view.target = Target(key=key, element=element, scroll_extent=extent)
        for number, template, top, height in self._row_slots(rows, offset, viewport.height):
            box = Bounds(
                viewport.left,
                viewport.top + top - offset,
                viewport.right,
                viewport.top + top - offset + height,
            )
            row_key = f"{key}#{number}"
            row_view = self._view(template, box, row_key, number)
            row_view.role = row_view.role or "row"
            if rows.on_tap or rows.on_swipe:
                row_view.clickable = row_view.focusable = bool(rows.on_tap) or row_view.clickable
                row_view.target = Target(
                    row_key,
                    template,
                    number,
                    row_effects=tuple(rows.on_tap),
                    swipe_effects=tuple(rows.on_swipe),
                )
            visible = clip(row_view, viewport)
            if visible is not None:
                view.children.append(visible)

    def _rows_height(self, rows: RowList) -> int:
        if isinstance(rows.rows, int):
            return rows.rows * rows.row_height
        return sum(row.height or rows.row_height for row in rows.rows if self.shown(row))

    def _row_slots(self, rows: RowList, offset: int, span: int) -> Iterator[tuple[int, Element, int, int]]:
        """The rows within `span` px below `offset`: (row number, element, top in the content, height)."""
        if isinstance(rows.rows, int):
            assert rows.row is not None
            height = rows.row_height
            for r in range(offset // height, min(rows.rows, (offset + span) // height + 1)):
                yield r + 1, rows.row, r * height, height
            return
        top = 0
        for number, row in enumerate(rows.rows, start=1):
            if not self.shown(row):
                continue
            height = row.height or rows.row_height
            if top + height > offset and top < offset + span:
                yield number, row, top, height
            top += height
