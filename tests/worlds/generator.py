"""`generate(seed) -> World`: one app assembled from building blocks, its clean twin and bug twins.

Everything is drawn from one `random.Random(seed)`, in a fixed order, so a seed always gives the same
app. The app has a home screen, maybe onboarding pages before it, maybe bottom tabs and a side menu, and
several content blocks (a form, a search page, settings...) whose entries sit on home, on the last tab
or in the side menu. Each feature's path is the way to its block's entry (skip the welcome pages, open
the tab or the menu) followed by the block's own steps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import forms, lists, navigation, onboarding, pages, panels, state
from .blocks import Block, Context
from .bugs import BugSite, broken
from .truth import Bug, Feature, Step, Twin, World
from .words import LANGUAGES, THEMES, Words

CONTENT_BLOCKS: dict[str, Callable[[Context], Block]] = {
    "form": forms.form,
    "login_wall": forms.login_wall,
    "sheet": panels.sheet,
    "permission": panels.permission,
    "long_list": lists.long_list,
    "long_page": lists.long_page,
    "webview": pages.webview,
    "search": pages.search,
    "favourites": state.favourites,
    "settings": state.settings,
}
# Blocks whose paths come back to their host screen and tap there again, or open a dialog over it: they
# need a screen, not the side menu.
SCREEN_HOSTED = frozenset({"favourites", "sheet"})
BLOCKS_PER_APP = (4, 6)
MAX_BUG_TWINS = 4
MAX_STEPS = 60
COLORS = ("#1A73E8", "#E53935", "#43A047", "#FB8C00", "#8E24AA", "#00897B", "#F4511E", "#3949AB")


@dataclass
class _Frame:
    """The screens every block hangs on: home, the last tab (`me`, used with tabs), the side menu; and
    the ways there from a fresh launch."""

    words: Words
    package: str
    home: dict[str, Any]
    me: dict[str, Any]
    launch: str = navigation.HOME
    prefix: list[Step] = field(default_factory=list)  # from a fresh launch to home
    menu_step: Step | None = None
    drawer: Block | None = None
    tabs: Block | None = None
    nav_blocks: list[tuple[Block, list[Step]]] = field(default_factory=list)

    @property
    def home_words(self) -> str:
        return self.words.t("首页", "the home screen")

    def context(self, index: int, host: str, place: str, in_drawer: bool = False) -> Context:
        host_words = self.home_words if host == navigation.HOME else place
        return Context(self.words, index, self.package, host, place, in_drawer, host_words=host_words)


def generate(seed: int) -> World:
    """The world of `seed`, a number >= 0 (deterministic: the same seed gives the same world)."""
    if seed < 0:
        raise ValueError(f"a world's seed is a number >= 0, got {seed}")
    rng = random.Random(seed)
    lang = LANGUAGES[rng.randrange(len(LANGUAGES))]
    theme = sorted(THEMES)[rng.randrange(len(THEMES))]
    words = Words(rng, lang, theme)
    app_name = words.choice(words.app_names())
    package = f"com.worlds.s{seed}.{theme}"
    has_onboarding, has_tabs, has_drawer = (rng.random() < 0.5 for _ in range(3))
    kinds = rng.sample(sorted(CONTENT_BLOCKS), rng.randint(*BLOCKS_PER_APP))
    frame = _frame(words, package, app_name, has_onboarding, has_tabs, has_drawer)
    content = _place(rng, frame, kinds)
    model: dict[str, Any] = {
        "app": {
            "package": package,
            "name": app_name,
            "launch": frame.launch,
            "version": "3.2.1",
            "color": COLORS[rng.randrange(len(COLORS))],
        },
        "device": {"locale": lang},
        "variables": {},
        "screens": [frame.home],
        "dialogs": [],
    }
    features, sites = _assemble(model, frame, content)
    if has_onboarding:
        for found in features:
            found.start = (
                "the welcome pages of the first launch"
                if found.module == "onboarding"
                else words.t(
                    "首页（首次打开会先显示引导页）", "home screen (welcome pages show on first launch)"
                )
            )
    spec_base = {
        "app": {
            "name": app_name,
            "package": package,
            "description": _description(words, kinds),
            "virtual": "app.yaml",
        },
        "defaults": {"max_steps": MAX_STEPS},
    }
    clean = Twin("clean", model, {**spec_base, "features": [f.spec_entry() for f in features]})
    by_name = {f.name: f for f in features}
    twins = []
    for n, (site, module, offset) in enumerate(_choose_sites(rng, sites), 1):
        bug: Bug = site.bug(module, offset)
        spec = {**spec_base, "features": [by_name[site.feature].spec_entry()]}
        twins.append(Twin(f"bug{n}-{site.kind}", broken(model, site), spec, bug))
    kinds_all = [b.kind for b, _ in frame.nav_blocks] + kinds
    return World(seed, app_name, package, lang, kinds_all, features, clean, twins)


def _frame(
    words: Words, package: str, app_name: str, has_onboarding: bool, has_tabs: bool, has_drawer: bool
) -> _Frame:
    """Home, the welcome pages, the side menu and the tabs, as the seed chose them."""
    home: dict[str, Any] = {
        "id": navigation.HOME,
        "activity": ".ui.MainActivity",
        "title": app_name,
        "up": False,
        "elements": [],
    }
    me: dict[str, Any] = {
        "id": "nav_me",
        "activity": ".ui.MeFragment",
        "title": words.t("我的", "Me"),
        "up": False,
        "elements": [{"class": "TextView", "id": "nav_me_name", "text": words.t("未登录用户", "Guest")}],
    }
    frame = _Frame(words, package, home, me)
    if has_onboarding:
        block, frame.launch, skip = onboarding.onboarding(
            frame.context(90, navigation.HOME, frame.home_words)
        )
        frame.nav_blocks.append((block, []))
        frame.prefix = [skip]
    if has_drawer:
        frame.drawer, frame.menu_step = navigation.drawer(
            frame.context(91, navigation.HOME, frame.home_words)
        )
        frame.nav_blocks.append((frame.drawer, frame.prefix))
        home["elements"].extend(frame.drawer.entries)
    welcome = words.t(f"欢迎来到{app_name}", f"Welcome to {app_name}")
    home["elements"].append(
        {"class": "TextView", "id": "nav_welcome_text", "style": "title", "text": welcome}
    )
    if has_tabs:
        frame.tabs = navigation.tabs(frame.context(92, navigation.HOME, frame.home_words), me)
        frame.nav_blocks.append((frame.tabs, frame.prefix))
    return frame


Placed = tuple[Block, list[Step], dict[str, Any], dict[str, Any] | None]


def _place(rng: random.Random, frame: _Frame, kinds: list[str]) -> list[Placed]:
    """Build each content block where the seed puts it: (block, the way to its entry, its host screen,
    the side menu's dialog when its entry is there)."""
    words, placed = frame.words, list[Placed]()
    for index, kind in enumerate(kinds, 1):
        in_drawer = frame.drawer is not None and kind not in SCREEN_HOSTED
        hosts = ["home"] + (["drawer"] if in_drawer else []) + (["me"] if frame.tabs is not None else [])
        host = hosts[rng.randrange(len(hosts))]
        if host == "drawer":
            assert frame.menu_step is not None and frame.drawer is not None
            ctx = frame.context(index, navigation.HOME, words.t("侧边菜单", "the side menu"), in_drawer=True)
            way = [*frame.prefix, frame.menu_step]
            placed.append((CONTENT_BLOCKS[kind](ctx), way, frame.home, frame.drawer.dialogs[0]))
        elif host == "me":
            ctx = frame.context(index, frame.me["id"], words.t("「我的」页", "the Me tab"))
            way = [*frame.prefix, navigation.tap(words.t("我的", "Me"))]
            placed.append((CONTENT_BLOCKS[kind](ctx), way, frame.me, None))
        else:
            ctx = frame.context(index, navigation.HOME, frame.home_words)
            placed.append((CONTENT_BLOCKS[kind](ctx), frame.prefix, frame.home, None))
    return placed


def _assemble(
    model: dict[str, Any], frame: _Frame, content: list[Placed]
) -> tuple[list[Feature], list[tuple[BugSite, str, int]]]:
    """Put every block into `model`; the features (their paths from a fresh launch) and the bug sites
    (with the block's kind and the number of steps before the block's own)."""
    features: list[Feature] = []
    sites: list[tuple[BugSite, str, int]] = []

    def add(block: Block, way: list[Step]) -> None:
        model["variables"].update(block.variables)
        model["screens"].extend(s for s in block.screens if s is not frame.me)
        model["dialogs"].extend(block.dialogs)
        for found in block.features:
            found.path = [*way, *found.path]
            features.append(found)
        sites.extend((site, block.kind, len(way)) for site in block.sites)

    for block, way in frame.nav_blocks:
        add(block, way)
    for block, way, screen, menu in content:
        (menu["elements"] if menu is not None else screen["elements"]).extend(block.entries)
        screen["elements"].extend(block.host_extras)
        add(block, way)
    if frame.tabs is not None:
        frame.home["elements"].extend(frame.tabs.entries)
        model["screens"].append(frame.me)
    _check_labels(model)
    return features, sites


def _choose_sites(
    rng: random.Random, sites: list[tuple[BugSite, str, int]]
) -> list[tuple[BugSite, str, int]]:
    """Up to MAX_BUG_TWINS sites, of as many kinds as there are, each breaking another feature."""
    order = list(sites)
    rng.shuffle(order)
    chosen: list[tuple[BugSite, str, int]] = []
    for distinct_kinds in (True, False):
        for entry in order:
            site = entry[0]
            taken_kinds = {s.kind for s, _, _ in chosen}
            taken_features = {s.feature for s, _, _ in chosen}
            if len(chosen) == MAX_BUG_TWINS or site.feature in taken_features:
                continue
            if distinct_kinds and site.kind in taken_kinds:
                continue
            chosen.append(entry)
    return chosen


def _description(words: Words, kinds: list[str]) -> str:
    return (
        words.t(f"一个{words.thing()}应用", f"a {words.thing(True)} app")
        + f" ({', '.join(k.replace('_', ' ') for k in kinds)})"
    )


def _check_labels(model: dict[str, Any]) -> None:
    """Each clickable label is unique on its screen or dialog (paths tap by label)."""
    for holder in [*model["screens"], *model["dialogs"]]:
        seen: set[str] = set()
        stack = list(holder.get("elements", []))
        while stack:
            element = stack.pop()
            stack.extend(element.get("children", []))
            label = element.get("text") or element.get("desc")
            if (
                label
                and (element.get("on_tap") is not None or element.get("clickable"))
                and "when" not in element
            ):
                assert label not in seen, f"{holder['id']}: two elements labelled {label!r}"
                seen.add(label)
