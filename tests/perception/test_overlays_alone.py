"""Dialogs and sheets with nothing of the page beside them in the dump (`perception/overlays.py`): a
dialog-themed activity whose window is the dialog, a Flutter dialog deep in full-size wrappers beside its
barrier, the system's share sheet. Each rule on a screen built small, so each test fails when its rule is
deleted, and on the corpus dump that showed it (tuned split)."""

from __future__ import annotations

import pytest

from pytest_fairy.perception.layers import LayerKind as K
from pytest_fairy.perception.screen import Screen, build_screen
from tests.perception.real_screens.corpus import screen_of

from .builder import NAV_TOP, STATUS_BAR, H, V, W, decor, dump, nav_bar, status_bar, v


def screen_with(*content: V) -> Screen:
    return build_screen(dump(status_bar(), decor(*content), nav_bar()))


def kinds(screen: Screen) -> list[K]:
    return [layer.kind for layer in screen.layers if layer.kind not in (K.SYSTEM_UI, K.DECOR)]


def buttons(top: int) -> list[V]:
    return [
        v("Button", (120, top, 520, top + 100), text="Cancel", clickable=True),
        v("Button", (560, top, 960, top + 100), text="Save", clickable=True),
    ]


def whole_window(panel: V, *, clickable: bool = True) -> V:
    """The activity's content: one full-size container (a tap on it outside the panel dismisses)."""
    return v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), panel),
             clickable=clickable)  # fmt: skip


def bottom_panel() -> V:
    title = v("TextView", (60, 1500, 1020, 1580), text="New reminder")
    return v("ViewGroup", (0, 1440, W, NAV_TOP), title, *buttons(2100))


def centred_panel(desc: str = "") -> V:
    title = v("TextView", (140, 1000, 940, 1080), text="Sync contacts?")
    return v("FrameLayout", (100, 900, 980, 1500), title, *buttons(1350), desc=desc)


def test_a_window_that_is_a_sheet_is_a_sheet() -> None:
    screen = screen_with(whole_window(bottom_panel()))
    assert kinds(screen) == [K.APP, K.BOTTOM_SHEET] and screen.has_dialog
    # Without a tap-outside container it is a page that happens to end in a panel.
    assert kinds(screen_with(whole_window(bottom_panel(), clickable=False))) == [K.APP]


def test_a_window_that_is_a_dialog_is_one_when_it_says_so() -> None:
    assert kinds(screen_with(whole_window(centred_panel(desc="Dialog")))) == [K.APP, K.DIALOG]
    # A centred block in a clickable wrapper is also a form page that hides the keyboard on a tap outside.
    assert kinds(screen_with(whole_window(centred_panel()))) == [K.APP]


def test_a_container_with_page_content_drawn_beside_it_is_no_window_of_its_own() -> None:
    """A bar after the container (drawn over it) is the page's: the container is the page's body."""
    bar = v(
        "LinearLayout",
        (0, 2200, W, NAV_TOP),
        v("TextView", (0, 2200, 540, NAV_TOP), text="Home", clickable=True),
    )
    page = v("FrameLayout", (0, STATUS_BAR, W, NAV_TOP), whole_window(bottom_panel()), bar)
    assert kinds(screen_with(page)) == [K.APP]


def flutter_dialog() -> V:
    """A Flutter route: the dialog deep in full-size semantics views, its barrier ('Dismiss') beside."""
    panel = v("View", (105, 961, 975, 1512), v("View", (168, 1024, 912, 1108), desc="Cancel the visit?"),
              v("Button", (481, 1321, 668, 1447), desc="No", clickable=True),
              v("Button", (689, 1318, 912, 1449), desc="Yes", clickable=True))  # fmt: skip
    route = v("View", (0, 0, W, H), v("View", (0, 0, W, H), v("View", (0, 136, W, 2337), panel)))
    barrier = v("View", (0, 0, W, H), desc="Dismiss", clickable=True)
    return v("View", (0, 0, W, H), route, barrier)


def test_a_flutter_dialog_beside_its_barrier_is_a_dialog() -> None:
    root = v(
        "FrameLayout",
        (0, 0, W, H),
        v("FrameLayout", (0, 0, W, H), flutter_dialog(), rid="android:id/content"),
    )
    screen = build_screen(dump(root))
    assert [layer.kind for layer in screen.layers] == [K.APP, K.DIALOG]
    assert {"No", "Yes"} <= {m.label for m in screen.marks}


def test_the_system_share_sheet_is_a_sheet() -> None:
    sheet = v("FrameLayout", (0, 0, W, H), v("TextView", (42, 1258, 291, 1321), text="Sharing text"),
              v("FrameLayout", (901, 1476, 1027, 1602), desc="Copy text", clickable=True),
              pkg="com.android.intentresolver")  # fmt: skip
    assert [layer.kind for layer in build_screen(dump(sheet)).layers] == [K.BOTTOM_SHEET]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("adhd_buddy__new_reminder_sheet.xml", K.BOTTOM_SHEET),
        ("tiktok__contacts_sync_dialog.xml", K.DIALOG),
        ("ustabul__cancel_appointment_dialog_flutter_tr.xml", K.DIALOG),
        ("android_intentresolver__share_sheet.xml", K.BOTTOM_SHEET),
    ],
)
def test_real_dialogs_and_sheets_alone_in_their_window(name: str, kind: K) -> None:
    screen = screen_of(name)
    assert screen.has_dialog and screen.top_layer.kind is kind


def drawn_drawer(scrim_desc: str) -> V:
    """A drawer drawn without DrawerLayout (React Navigation, Compose): the page and a full-size scrim
    beneath, the drawer after them against the left edge."""
    scrim = v("Button", (0, STATUS_BAR, W, NAV_TOP), desc=scrim_desc, clickable=True)
    page = v(
        "ViewGroup",
        (0, STATUS_BAR, W, NAV_TOP),
        v("Button", (900, 2100, 1040, 2240), desc="Add", clickable=True),
    )
    rows = [v("Button", (53, 560 + 150 * i, 881, 700 + 150 * i), desc=name, clickable=True)
            for i, name in enumerate(("Home", "Budgets", "Settings"))]  # fmt: skip
    drawer = v("ViewGroup", (0, STATUS_BAR, 933, NAV_TOP), *rows)
    return v(
        "ViewGroup",
        (0, STATUS_BAR, W, NAV_TOP),
        v("ViewGroup", (0, STATUS_BAR, W, NAV_TOP), scrim, page),
        drawer,
    )


def test_a_drawer_drawn_over_a_scrim_that_closes_it_is_a_drawer() -> None:
    screen = screen_with(drawn_drawer("Close drawer"))
    assert kinds(screen) == [K.APP, K.DRAWER]
    assert [m.label for m in screen.marks] == ["Home", "Budgets", "Settings"]  # the page beneath is covered
    # A full-size clickable view that does not say it closes anything is the page's (a map): no drawer.
    assert kinds(screen_with(drawn_drawer(""))) == [K.APP]


def test_a_real_drawer_drawn_without_drawer_layout() -> None:
    screen = screen_of("household_budget__drawer_open_ko.xml")
    assert [layer.kind for layer in screen.layers if layer.kind is K.DRAWER] == [K.DRAWER]
    assert all(mark.layer is K.DRAWER for mark in screen.marks)
    assert not any(
        layer.kind is K.DRAWER for layer in screen_of("google_maps__search_results_side_panel.xml").layers
    )
