"""The common shape of a building block (`Block`), what it is built in (`Context`), and the small
element and page makers every block uses.

A block is one structure of real apps (a form, a search page, a settings page...): its entry elements
placed where the generator puts it (the home screen, a tab, the side menu), its own screens, dialogs and
variables, its features with their paths and done-when conditions, and the bugs it can carry. Paths of a
block start where its entry is on screen; the generator puts the way there in front.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .bugs import BugSite
from .truth import Feature, Step
from .words import Words

Element = dict[str, Any]

ERROR_TEXTS = {
    "zh": (
        "加载失败，请稍后重试（错误码 500）",
        "服务器开小差了，请稍后再试",
        "网络异常，请检查网络设置后重试",
    ),
    "en": (
        "Something went wrong (error 500)",
        "Couldn't load this page. Try again later.",
        "Server error: 503 Service Unavailable",
    ),
}


@dataclass
class Context:
    """Where a block is built: the app's words, its number (ids start `m<index>_`), the screen its entry
    sits on or over (`host`: its status lines go there, Back returns there) and how a person names that
    place (`place`, e.g. `首页` or `the side menu`)."""

    words: Words
    index: int
    package: str
    host: str
    place: str
    in_drawer: bool = False
    # How a person names the screen Back returns to from the block's pages (where its status lines show).
    host_words: str = ""

    def id(self, name: str) -> str:
        return f"m{self.index}_{name}"

    def t(self, zh: str, en: str) -> str:
        return self.words.t(zh, en)

    def pick(self, zh: tuple[str, ...], en: tuple[str, ...]) -> str:
        return self.words.pick(zh, en)

    def coin(self) -> bool:
        return self.words.rng.random() < 0.5

    def error_text(self) -> str:
        return self.words.choice(ERROR_TEXTS[self.words.lang])


@dataclass
class Block:
    """What one building block adds to an app (see the module docstring)."""

    kind: str
    entries: list[Element]
    screens: list[dict[str, Any]] = field(default_factory=list)
    dialogs: list[dict[str, Any]] = field(default_factory=list)
    variables: dict[str, Any] = field(default_factory=dict)
    host_extras: list[Element] = field(default_factory=list)
    features: list[Feature] = field(default_factory=list)
    sites: list[BugSite] = field(default_factory=list)


def entry(ctx: Context, name: str, label: str, effects: list[Any]) -> Element:
    """A clickable entry: a card-like row on a screen, a plain row in the side menu."""
    style = "plain" if ctx.in_drawer else "card"
    return {
        "class": "TextView",
        "id": ctx.id(name),
        "text": label,
        "clickable": True,
        "style": style,
        "height": 130 if ctx.in_drawer else 150,
        "on_tap": effects,
    }


def button(
    ctx: Context, name: str, label: str, effects: list[Any], primary: bool = True, **extra: Any
) -> Element:
    found: Element = {"class": "Button", "id": ctx.id(name), "text": label, "on_tap": effects}
    if primary:
        found["style"] = "primary"
    found.update(extra)
    return found


def text(ctx: Context, name: str, words: str, **extra: Any) -> Element:
    return {"class": "TextView", "id": ctx.id(name), "text": words, **extra}


def page(
    ctx: Context, name: str, activity: str, title: str, elements: list[Element], **extra: Any
) -> dict[str, Any]:
    """A screen of the block; `activity` is the class name (`FeedbackActivity`)."""
    return {"id": ctx.id(name), "activity": f".ui.{activity}", "title": title, "elements": elements, **extra}


def error_page(ctx: Context, name: str, title: str, words: str) -> dict[str, Any]:
    """The page a broken action opens instead of its result: the title of the page meant, an error."""
    return page(
        ctx,
        name,
        "ErrorActivity" + str(ctx.index),
        title,
        [
            {
                "class": "ImageView",
                "id": ctx.id(name + "_icon"),
                "desc": ctx.t("错误", "Error"),
                "height": 260,
            },
            text(ctx, name + "_text", words),
        ],
    )


def error_alert(ctx: Context, name: str, words: str) -> dict[str, Any]:
    """An alert a broken action shows instead of its result, with an OK button that closes it."""
    return {
        "id": ctx.id(name),
        "title": ctx.t("提示", "Error"),
        "message": words,
        "elements": [button(ctx, name + "_ok", ctx.t("知道了", "OK"), ["close"], primary=False)],
    }


def status(ctx: Context, name: str, words: str, when: str) -> Element:
    """A line on the host screen that tells what the block did (shown only while `when` holds)."""
    return {"class": "TextView", "id": ctx.id(name), "text": words, "style": "caption", "when": when}


def feature(
    ctx: Context,
    kind: str,
    name: str,
    goal: str,
    done_when: list[dict[str, str]],
    path: list[Step],
    max_steps: int | None = None,
    inputs: dict[str, str] | None = None,
) -> Feature:
    return Feature(
        name=name, module=kind, goal=goal, done_when=done_when, path=path, max_steps=max_steps, inputs=inputs
    )
