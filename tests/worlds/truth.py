"""The answers a generated world carries: the steps of a path, each feature's truth, each bug, each twin.

A `World` is one generated app in several builds. The clean twin works: every feature of it can be
done, and `Feature.path` (the shortest way, from a fresh launch) reaches its done-when. Each bug twin is
the clean app with one seeded bug; walking the path of a feature the bug breaks shows the defect at the
step that acts on `Bug.bug_at`. These are plain data: the generator fills them, the writer writes the
twins out, the tests and the benchmark read them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .words import PASSWORDS

# What a correct tool may say about a feature of the clean twin: it works, so never "failed".
CLEAN_VERDICT = "passed"
# What a correct tool should say about a feature a bug breaks: an app defect.
BUG_VERDICT = "failed"

# The kinds of seeded bugs.
CRASH = "crash"  # the app crashes (on a submit, on opening a page, on the Nth visit)
DEAD = "dead_button"  # a button that does nothing at all
ERROR = "error_text"  # an error screen or error text instead of the result
WRONG_SCREEN = "wrong_screen"  # an element opens another screen than its label names
LOST_SETTING = "lost_setting"  # a switch that is off again after coming back
KEPT_NOTHING = "kept_nothing"  # a keep that says it kept, and its page of kept things stays empty
ACCEPTED_EMPTY = "accepted_empty"  # a form submitted empty goes on as if it were complete
BUG_KINDS = (CRASH, DEAD, ERROR, WRONG_SCREEN, LOST_SETTING, KEPT_NOTHING, ACCEPTED_EMPTY)
# What an exported reproduction reads from the environment: a value the run typed into a password field.
TYPED = re.compile(r"FAIRY_TYPED_\d+")
# Typed for a password where the feature gives none: the run typed a value of its own, which the app
# refused; a stand-in is refused too.
REFUSED_PASSWORD = "any-password"


@dataclass(frozen=True)
class Step:
    """One action of a path, in the words of the spec's scripted login steps.

    `tap`: tap the element whose text or content-desc is `label`; `scroll`: scroll the list on screen
    down until `label` shows (the next step taps it); `type`: tap the field showing `label` (its hint)
    and type `text`; `back`: the Back key; `restart`: stop the app and launch it again.
    """

    action: str
    label: str = ""
    text: str = ""

    def words(self) -> str:
        if self.action == "type":
            return f"type {self.label} = {self.text}"
        if self.action == "scroll":
            return f"scroll {self.label} down"
        return f"{self.action} {self.label}".strip()


def tap(label: str) -> Step:
    return Step("tap", label)


def scroll_to(label: str) -> Step:
    return Step("scroll", label)


def type_into(label: str, text: str) -> Step:
    return Step("type", label, text)


BACK = Step("back")
RESTART = Step("restart")


@dataclass
class Feature:
    """One feature of the spec and its truth on the clean twin.

    `path` goes from a fresh launch (app data cleared) to a screen where every `done_when` condition
    holds. `module` is the kind of building block the feature belongs to (`form`, `search`...).
    """

    name: str
    module: str
    goal: str
    done_when: list[dict[str, str]]
    path: list[Step]
    clean_verdict: str = CLEAN_VERDICT
    max_steps: int | None = None
    start: str = "home screen"
    inputs: dict[str, str] | None = None  # test data, as a tester writes it in the spec

    def spec_entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name, "goal": self.goal, "start": self.start}
        if self.max_steps is not None:
            entry["max_steps"] = self.max_steps
        if self.inputs:
            entry["inputs"] = dict(self.inputs)
        entry["done_when"] = [dict(c) for c in self.done_when]
        entry["must_not"] = ["crash", "anr"]
        return entry


@dataclass
class Bug:
    """One seeded bug: its kind, the feature it breaks, the label of the element whose action shows it.

    `step` is the index in that feature's path of the action on `bug_at` (the action after which the
    defect shows). `module` is the building block it sits in. `detail` says in words what goes wrong.
    """

    kind: str
    feature: str
    bug_at: str
    step: int
    module: str
    detail: str
    # wrong_screen: the activity the element opens instead; error_text: the error words shown; kept_nothing:
    # the empty-state text the page of kept things shows.
    shows: str = ""
    # Other elements whose action shows the same defect when taken instead (every row of a list whose
    # detail pages crash on a later visit, whichever row that visit opens).
    also_at: tuple[str, ...] = ()


@dataclass
class Twin:
    """One build of the app: `name` is `clean` or `bug-<n>-<kind>`; `app` is the app model (the data of
    app.yaml), `spec` the feature spec; `bug` is None on the clean twin."""

    name: str
    app: dict[str, Any]
    spec: dict[str, Any]
    bug: Bug | None = None

    def expected(self, feature: str) -> str:
        """The verdict a correct tool gives `feature` on this twin (`passed`: it works, never fail it)."""
        if self.bug is not None and self.bug.feature == feature:
            return BUG_VERDICT
        return CLEAN_VERDICT


@dataclass
class World:
    """One generated app: its seed, the clean twin, the bug twins (same seed, same layout, one bug
    each) and the truth of every feature."""

    seed: int
    name: str
    package: str
    locale: str
    modules: list[str]
    features: list[Feature]
    clean: Twin
    bugs: list[Twin] = field(default_factory=list)

    @property
    def twins(self) -> list[Twin]:
        return [self.clean, *self.bugs]

    def feature(self, name: str) -> Feature:
        for feature in self.features:
            if feature.name == name:
                return feature
        raise KeyError(name)

    def typed(self, feature: str, export: str) -> dict[str, str]:
        """The environment the exported reproduction `export` of `feature` reads what the run typed from:
        each `FAIRY_TYPED_n` it names, set to the password the feature signs in with (its inputs)."""
        values = (self.feature(feature).inputs or {}).values()
        password = next((value for value in values if value in PASSWORDS), REFUSED_PASSWORD)
        return {name: password for name in TYPED.findall(export)}

    def twin(self, name: str) -> Twin:
        for twin in self.twins:
            if twin.name == name:
                return twin
        raise KeyError(name)

    def bug_screens(self, twin: Twin) -> list[dict[str, Any]]:
        """The screens and dialogs of `twin` that differ from the clean twin's: where its bug sits."""
        clean = {h["id"]: h for h in [*self.clean.app["screens"], *self.clean.app["dialogs"]]}
        return [
            h
            for h in [*twin.app["screens"], *twin.app["dialogs"]]
            if h["id"] in clean and h != clean[h["id"]]
        ]
