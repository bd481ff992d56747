"""Property tests over generated view trees: refs unique, no mark lost in the text, window order moot."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fairy.perception.screen import build_screen

from .builder import PKG, V, alert_window, dump, ime_window, nav_bar, popup_window, status_bar, v
from .marks_text import numbers_in

TEXTS = st.sampled_from(
    ["", "", "确定", "取消", "笔记 1", "笔记 2", "¥12.00", "12:30", "a&b <c>", "设置", "OK"]
)
IDS = st.sampled_from(["", "", "item", "title", "btn", "android:id/content"])
CLASSES = st.sampled_from(["TextView", "Button", "ImageView", "LinearLayout", "FrameLayout", "EditText",
                           "CheckBox", "androidx.recyclerview.widget.RecyclerView"])


@st.composite
def boxes(draw: st.DrawFn, parent: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    left, top, right, bottom = parent
    x1 = draw(st.integers(left, max(left, right - 1)))
    y1 = draw(st.integers(top, max(top, bottom - 1)))
    x2 = draw(st.integers(x1, right))
    y2 = draw(st.integers(y1, bottom))
    return x1, y1, x2, y2


@st.composite
def views(draw: st.DrawFn, parent: tuple[int, int, int, int], depth: int) -> V:
    bounds = draw(boxes(parent))
    children = draw(st.lists(views(bounds, depth - 1), max_size=4)) if depth > 0 else []
    flags = {
        name: draw(st.booleans())
        for name in ("clickable", "checkable", "checked", "scrollable", "enabled", "selected", "password")
    }
    flags["enabled"] = flags["enabled"] or draw(st.booleans())  # mostly enabled
    view = v(draw(CLASSES), bounds, *children, text=draw(TEXTS), rid=draw(IDS),
             desc=draw(st.sampled_from(["", "", "关闭", "更多"])), naf=draw(st.booleans()))
    view.flags.update(flags)
    return view


def app_windows() -> st.SearchStrategy[V]:
    return views((0, 0, 1080, 2400), 3).map(lambda root: v("FrameLayout", (0, 0, 1080, 2400), root))


FAST = settings(max_examples=60, deadline=None)


@FAST
@given(app_windows(), st.lists(views((0, 0, 1080, 2400), 2), max_size=2))
def test_refs_are_unique(app: V, extra: list[V]) -> None:
    screen = build_screen(dump(app, *extra), package=PKG)
    refs = [m.ref for m in screen.marks]
    assert len(refs) == len(set(refs))


@FAST
@given(app_windows(), st.lists(views((0, 0, 1080, 2400), 2), max_size=2))
def test_compression_keeps_every_mark_number(app: V, extra: list[V]) -> None:
    screen = build_screen(dump(app, *extra), package=PKG)
    assert numbers_in(screen.text) == {m.number for m in screen.marks}
    assert [m.number for m in screen.marks] == list(range(1, len(screen.marks) + 1))


@FAST
@given(app_windows(), st.sampled_from([(), (alert_window(),), (popup_window(), ime_window()),
                                       (alert_window(buttons=("好",)), popup_window())]),
       st.randoms(use_true_random=False))
def test_window_order_does_not_change_layers_marks_or_text(app: V, extra: tuple[V, ...], rnd: object) -> None:
    windows = [status_bar(), app, nav_bar(), *extra]
    reference = build_screen(dump(*windows), package=PKG)
    shuffled = windows[:]
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    other = build_screen(dump(*shuffled), package=PKG)
    assert [(x.kind, x.bounds, x.package) for x in other.layers] == [
        (x.kind, x.bounds, x.package) for x in reference.layers
    ]
    assert [(m.number, m.ref, m.bounds, m.layer) for m in other.marks] == [
        (m.number, m.ref, m.bounds, m.layer) for m in reference.marks
    ]
    assert other.text == reference.text
