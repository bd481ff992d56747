"""Coverage in tests: screens built from compact dumps, and actions recorded on them as the loop does."""

from __future__ import annotations

from core_dumps import V, dump, v, window

from pytest_fairy.explore.coverage import Coverage
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.state import StateId, identify
from pytest_fairy.perception.screen import Screen, build_screen

PKG = "com.shop"
RV = "androidx.recyclerview.widget.RecyclerView"


def look(*windows: V, activity: str = "a.Main") -> tuple[StateId, Screen]:
    screen = build_screen(dump(*windows), activity=activity, package=PKG)
    return identify(screen), screen


def page(title: str, *views: V) -> V:
    return window(PKG, v("TextView", title, id="toolbar_title"), *views)


def button(label: str, **flags: bool) -> V:
    return v("Button", label, id=f"btn_{abs(hash(label)) % 10_000}", clickable=True, **flags)


def key(screen: Screen, label: str, kind: str = "tap") -> str:
    mark = next(m for m in screen.marks if m.label == label or m.node.short_id == label)
    return f"{kind}|{mark.ref}||"


def act(
    cov: Coverage,
    step: int,
    before: tuple[StateId, Screen],
    label: str,
    kind: OutcomeKind,
    after: tuple[StateId, Screen],
    action: str = "tap",
) -> None:
    cov.saw(*after, in_app=True)
    words = f"{action} {label}"
    screens = (before[1], after[1])
    cov.acted(step, before[0], key(before[1], label, action), words, Outcome(words, kind), after[0], screens)


def start(
    *windows: V, activity: str = "a.Main", cov: Coverage | None = None
) -> tuple[Coverage, tuple[StateId, Screen]]:
    """A coverage (`cov`, default a plain one) that saw the screen of `windows` first."""
    cov = cov or Coverage()
    here = look(*windows, activity=activity)
    cov.saw(*here, in_app=True)
    return cov, here
