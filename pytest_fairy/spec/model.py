"""The spec's schema: the typed, validated objects a YAML feature spec becomes. The format is
docs/spec-format.md; reading a file is spec/loader.py.

The pydantic models are the schema. Their validators raise `PydanticCustomError`s of type "fairy" whose
reason names the problem; the loader adds where it is (`path:line`) and turns it into one `SpecError`.
`Feature.effective()` resolves a feature's limits and risk permissions over the spec's `defaults`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictFloat,
    StrictInt,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pytest_fairy.errors import UsageError
from pytest_fairy.spec.risk import CATEGORY_NAME
from pytest_fairy.spec.secrets import referenced
from pytest_fairy.spec.wording import shown, suggest

DEFAULT_MAX_STEPS = 30
DEFAULT_TOKENS = 200_000
DEFAULT_COST_USD = 1.0
DEFAULT_WALL_SECONDS = 600.0

_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")


class SpecError(UsageError):
    """A spec file that cannot be used. `str()` is `path:line: reason`, ready for the user: one line per
    problem, the first one first (`line` and `reason` are its), then the file's others (`more`)."""

    def __init__(self, path: Path, line: int, reason: str, more: Sequence[tuple[int, str]] = ()) -> None:
        self.path, self.line, self.reason = path, line, reason
        self.problems: tuple[tuple[int, str], ...] = ((line, reason), *more)
        super().__init__("\n".join(f"{path}:{at}: {why}" for at, why in self.problems))


def _fail(reason: str, hint: str = "") -> PydanticCustomError:
    # The reason names the problem; the translator adds where it is, then the hint.
    return PydanticCustomError("fairy", "{reason}", {"reason": reason, "hint": hint})


def _one_line(text: str) -> str:
    if "\n" in text or "::" in text:
        raise _fail(f"{text!r} must be one line without '::'", " (it becomes part of the pytest item id)")
    return text


def _package(text: str) -> str:
    if not _PACKAGE.fullmatch(text):
        raise _fail(f"{text!r} is not an Android package name", " (like com.example.shop)")
    return text


def _tag(text: str) -> str:
    if not text.isidentifier():
        raise _fail(f"tag {text!r} is not a valid marker name", " (letters, digits and _ only)")
    return text


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Name = Annotated[Text, AfterValidator(_one_line)]
Package = Annotated[Text, AfterValidator(_package)]
Tag = Annotated[Text, AfterValidator(_tag)]
Category = Annotated[Text, StringConstraints(pattern=f"^{CATEGORY_NAME.pattern}$")]
Positive = Annotated[StrictInt, Field(gt=0)]


def _input_value(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise _fail(
            f"an input is the text to type into its field, got {shown(value)}",
            " (like 'Search products: banana'; an empty '' leaves the field empty)",
        )
    return str(value)


# Test data: the text to type, by the field it goes into (its label, hint or resource id).
Inputs = dict[Name, Annotated[str, BeforeValidator(_input_value)]]
PositiveNumber = Annotated[StrictFloat, Field(gt=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OracleKind(StrEnum):
    VISIBLE = "visible"
    NOT_VISIBLE = "not_visible"
    ACTIVITY = "activity"
    STATE = "state"
    CHECKED = "checked"
    TEXT_MATCHES = "text_matches"
    LOGCAT_MATCHES = "logcat_matches"
    CRASH = "crash"
    ANR = "anr"
    # Screens of the --fairy-baseline run that this run no longer reaches (checked once, at the end).
    LOSE_SCREENS = "lose_screens"


BARE_KINDS = frozenset({OracleKind.CRASH, OracleKind.ANR, OracleKind.LOSE_SCREENS})
REGEX_KINDS = frozenset({OracleKind.TEXT_MATCHES, OracleKind.LOGCAT_MATCHES})
DONE_KINDS = frozenset(OracleKind) - BARE_KINDS - {OracleKind.LOGCAT_MATCHES}
DEFECT_KINDS = frozenset(OracleKind)


class Oracle(_Model):
    """One condition on what the explorer sees: `visible: 购物车`, `activity: .CartActivity`, `crash`."""

    kind: OracleKind
    value: str = ""

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.value}" if self.value else self.kind.value


def _oracle_parser(field: str, allowed: frozenset[OracleKind]) -> Callable[[Any], Any]:
    def parse(item: Any) -> Any:
        if isinstance(item, Oracle):
            kind, value = item.kind.value, item.value or None
        elif isinstance(item, str):
            kind, value = item, None
        elif isinstance(item, dict) and len(item) == 1:
            ((kind, value),) = item.items()
        elif isinstance(item, dict) and item:
            keys = ", ".join(repr(k) for k in item)
            raise _fail(f"one condition per {field} item, got {keys}", " (give each its own '- ' line)")
        else:
            raise _fail(f"a {field} item must be 'kind: value' or a bare kind, got {shown(item)}")
        if kind not in DEFECT_KINDS:
            hint = suggest(str(kind), sorted(k.value for k in allowed))
            raise _fail(f"unknown oracle kind {kind!r}", hint)
        kind = OracleKind(kind)
        if kind not in allowed:
            raise _fail(f"{kind.value!r} is not a condition for being done", " (it belongs in must_not)")
        if kind in BARE_KINDS:
            if value is not None:
                raise _fail(f"{kind.value!r} takes no value", f" (write '- {kind.value}')")
            return {"kind": kind}
        if not isinstance(value, str) or not value.strip():
            got = "nothing" if value is None else shown(value)
            raise _fail(f"{kind.value!r} needs text, got {got}", f" (write '- {kind.value}: <text>')")
        if kind in REGEX_KINDS:
            try:
                re.compile(value)
            except re.error as exc:
                raise _fail(f"bad regular expression {value!r} for {kind.value}: {exc}") from exc
        return {"kind": kind, "value": value}

    return parse


DoneCondition = Annotated[Oracle, BeforeValidator(_oracle_parser("done_when", DONE_KINDS))]
DefectCondition = Annotated[Oracle, BeforeValidator(_oracle_parser("must_not", DEFECT_KINDS))]


class SpecBudget(_Model):
    """Caps for one feature's exploration; a key left out is inherited (defaults, then built-in)."""

    tokens: Positive | None = None
    cost_usd: PositiveNumber | None = None
    wall_seconds: PositiveNumber | None = None

    def over(self, base: SpecBudget) -> SpecBudget:
        """This budget's keys, the missing ones taken from `base`."""
        return base.model_copy(update=self.model_dump(exclude_none=True))


BUILTIN_BUDGET = SpecBudget(
    tokens=DEFAULT_TOKENS, cost_usd=DEFAULT_COST_USD, wall_seconds=DEFAULT_WALL_SECONDS
)


class App(_Model):
    name: Text
    package: Package
    description: str = ""
    launch_activity: Text | None = None
    # Relative to the spec file in YAML; the loader makes it absolute and checks that it exists.
    virtual: Path | None = None


class Reset(StrEnum):
    """What is cleared before each item: `data` (the app's data, as `adb shell pm clear`: every item starts
    from a freshly installed app, whatever ran before it) or `none` (the app keeps its data, a login too)."""

    DATA = "data"
    NONE = "none"


class After(StrEnum):
    """What a feature's done-when must hold again after (`keeping` in the explorer): leaving its screen by
    Back and coming back the way it came, or a relaunch of the app with its data kept."""

    BACK_AND_RETURN = "back_and_return"
    RELAUNCH = "relaunch"


class Defaults(_Model):
    max_steps: Positive | None = None
    reset: Reset | None = None
    budget: SpecBudget | None = None
    forbid: tuple[Category, ...] | None = None
    allow: tuple[Category, ...] | None = None
    inputs: Inputs = {}
    must_not: tuple[DefectCondition, ...] = ()


@dataclass(frozen=True, slots=True)
class FeatureSettings:
    """A feature's limits and risk permissions with defaults applied: what the explorer runs with."""

    max_steps: int
    budget: SpecBudget
    allow: frozenset[str]
    forbid: frozenset[str]
    reset: Reset | None = None  # None: the device's default (data on the virtual device, none on a phone)
    inputs: tuple[tuple[str, str], ...] = ()  # the spec's `defaults.inputs`, then the feature's over them
    must_not: tuple[Oracle, ...] = ()  # the feature's own, then the spec's `defaults.must_not`


class Feature(_Model):
    name: Name
    goal: Text
    start: str = ""
    sub_features: tuple[Text, ...] = ()
    max_steps: Positive | None = None
    budget: SpecBudget | None = None
    done_when: tuple[DoneCondition, ...] = ()
    must_not: tuple[DefectCondition, ...] = ()
    allow: tuple[Category, ...] | None = None
    forbid: tuple[Category, ...] | None = None
    reset: Reset | None = None
    tags: tuple[Tag, ...] = ()
    inputs: Inputs = {}
    after: After | None = None

    @field_validator("after")
    @classmethod
    def _after_needs_done_when(cls, after: After | None, info: ValidationInfo) -> After | None:
        if after is not None and not info.data.get("done_when"):
            raise _fail("'after' checks the done_when again, and there is none", " (add a done_when)")
        return after

    _path: Path = PrivateAttr(default=Path("<spec>"))
    _line: int = PrivateAttr(default=0)
    _defaults: Defaults = PrivateAttr(default_factory=Defaults)

    @property
    def path(self) -> Path:
        """The spec file this feature comes from."""
        return self._path

    @property
    def line(self) -> int:
        """The 1-based line of the feature's first key in its spec file (0 when not loaded from a file)."""
        return self._line

    def effective(self) -> FeatureSettings:
        """Settings resolved feature -> spec `defaults` -> built-in defaults.

        A feature's own `allow` lifts an inherited `forbid` and its own `forbid` drops an inherited
        `allow`; the two never overlap in the result.
        """
        defaults = self._defaults
        budget = BUILTIN_BUDGET
        for layer in (defaults.budget, self.budget):
            budget = layer.over(budget) if layer is not None else budget
        own_allow, own_forbid = set(self.allow or ()), set(self.forbid or ())
        allow = own_allow | (set(defaults.allow or ()) - own_forbid)
        forbid = own_forbid | (set(defaults.forbid or ()) - own_allow)
        return FeatureSettings(
            max_steps=self.max_steps or defaults.max_steps or DEFAULT_MAX_STEPS,
            budget=budget,
            allow=frozenset(allow - forbid),
            forbid=frozenset(forbid),
            reset=self.reset or defaults.reset,
            inputs=tuple({**defaults.inputs, **self.inputs}.items()),
            must_not=tuple(dict.fromkeys((*self.must_not, *defaults.must_not))),
        )


LOGIN_MAX_STEPS = 20
SCRIPT_VERBS = ("tap", "long_tap", "type", "scroll", "back", "enter", "restart")


def _script_line(line: Any) -> Any:
    verb = line.split(maxsplit=1)[0] if isinstance(line, str) and line.strip() else ""
    if isinstance(line, str) and verb not in SCRIPT_VERBS:
        raise _fail(f"a login step starts with one of {', '.join(SCRIPT_VERBS)}, got {line!r}")
    return line


class Login(_Model):
    """The spec's `login:`: how to sign in (`steps`, done in order without a brain, in the scripted
    brain's words; or a `goal` the brain explores) and how to tell the app is signed in (`done_when`).
    `${NAME}` in them is an environment variable whose value stays secret (`secrets.py`)."""

    steps: tuple[Annotated[Text, BeforeValidator(_script_line)], ...] = ()
    goal: str = ""
    done_when: tuple[DoneCondition, ...] = Field(min_length=1)
    max_steps: Positive = LOGIN_MAX_STEPS

    @model_validator(mode="after")
    def _steps_or_goal(self) -> Login:
        if bool(self.steps) == bool(self.goal.strip()):
            raise _fail("login needs either 'steps' (done in order) or a 'goal' (explored), not both")
        return self

    @property
    def secrets(self) -> tuple[str, ...]:
        """The environment variables it names: `${SHOP_PASSWORD}` -> SHOP_PASSWORD."""
        return referenced([*self.steps, self.goal])


class Spec(_Model):
    app: App
    defaults: Defaults = Defaults()
    features: tuple[Feature, ...] = Field(min_length=1)
    risky_words: dict[Category, tuple[Text, ...]] = {}
    login: Login | None = None

    _path: Path = PrivateAttr(default=Path("<spec>"))
    # The line of each value in the spec file, by its location: ("app", "package") -> 3.
    _lines: dict[tuple[str | int, ...], int] = PrivateAttr(default_factory=dict)

    @property
    def path(self) -> Path:
        return self._path

    def line_of(self, *loc: str | int) -> int:
        """The 1-based line of the value at `loc` in the spec file (`spec.line_of("app", "package")`), or of
        the nearest enclosing value the file has (a key left to its default); 1 when not read from a file."""
        while loc and loc not in self._lines:
            loc = loc[:-1]
        return self._lines.get(loc, 1)

    @property
    def secrets(self) -> tuple[str, ...]:
        """The environment variables the spec names as secrets (`${NAME}`): in its login, and in the
        features' goals, starts and inputs (a coupon code, a card number the feature must type)."""
        login = [*self.login.steps, self.login.goal] if self.login is not None else []
        inputs = [*self.defaults.inputs.values(), *(v for f in self.features for v in f.inputs.values())]
        return referenced([*login, *inputs, *(text for f in self.features for text in (f.goal, f.start))])

    def feature(self, name: str) -> Feature:
        for feature in self.features:
            if feature.name == name:
                return feature
        raise KeyError(f"no feature {name!r} in {self._path} (it has {[f.name for f in self.features]})")
