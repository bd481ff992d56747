"""What the explorer is told about one feature of a spec: its `Target` (where to go, within which
budgets) and its `Mission` (what decides the verdict, which risky actions it may take)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_fairy.explore.decisions import Brain
from pytest_fairy.explore.login import LOGIN_FEATURE, Login
from pytest_fairy.explore.mission import Mission
from pytest_fairy.explore.policy import RiskPolicy
from pytest_fairy.explore.target import Target, goal_inputs
from pytest_fairy.spec.model import Feature, OracleKind, Spec
from pytest_fairy.spec.secrets import Secrets, as_placeholders

# Done-when texts worth steering towards: the offline brain scores elements that mention them higher.
HINT_KINDS = frozenset({OracleKind.VISIBLE, OracleKind.CHECKED})
# A feature's wall-clock budget when its spec sets none.
DEFAULT_WALL_SECONDS = 600.0


def target_of(spec: Spec, feature: Feature, *, max_steps: int | None = None) -> Target:
    """The target of `feature`; `max_steps` (the run's --fairy-max-steps) overrides the spec's."""
    settings = feature.effective()
    hints = tuple(o.value for o in feature.done_when if o.kind in HINT_KINDS and o.value)
    return Target(
        app_name=spec.app.name,
        package=spec.app.package,
        feature=feature.name,
        goal=as_placeholders(feature.goal),
        description=spec.app.description,
        start=as_placeholders(feature.start),
        launch_activity=spec.app.launch_activity,
        sub_features=tuple(feature.sub_features),
        done_hints=hints,
        keep_checked=tuple(o.value for o in feature.done_when if o.kind is OracleKind.CHECKED and o.value),
        allowed_risks=settings.allow,
        max_steps=max_steps or settings.max_steps,
        wall_seconds=settings.budget.wall_seconds or DEFAULT_WALL_SECONDS,
        token_budget=settings.budget.tokens,
        cost_budget=settings.budget.cost_usd,
        reset=settings.reset.value if settings.reset is not None else None,
        secrets=spec.secrets,
        inputs=_inputs(settings.inputs, feature.goal),
    )


def _inputs(given: Sequence[tuple[str, str]], goal: str) -> tuple[tuple[str, str], ...]:
    """The spec's test data, then what the goal gives for the fields it does not name (`goal_inputs`)."""
    named = {field.casefold() for field, _ in given}
    quoted = [(field, value) for field, value in goal_inputs(goal) if field.casefold() not in named]
    return tuple((field, as_placeholders(value)) for field, value in (*given, *quoted))


def mission_of(spec: Spec, feature: Feature) -> Mission:
    """The mission of `feature`: its oracles and its risk policy (the spec's risky words included)."""
    settings = feature.effective()
    return Mission(
        done_when=feature.done_when,
        must_not=settings.must_not,
        policy=RiskPolicy(allowed=settings.allow, forbidden=settings.forbid, extra_words=spec.risky_words),
        after=feature.after,
    )


def login_of(spec: Spec, secrets: Secrets, brain: Callable[[Sequence[str]], Brain]) -> Login | None:
    """The spec's login, ready to sign in: its steps (or goal) with placeholders for the secrets; `brain`
    makes the brain that signs in from the steps (empty for a goal: the run's own kind of brain)."""
    login = spec.login
    if login is None:
        return None
    steps = tuple(as_placeholders(line) for line in login.steps)
    goal = as_placeholders(login.goal) or "sign in: " + "; ".join(steps)
    target = Target(
        app_name=spec.app.name,
        package=spec.app.package,
        feature=LOGIN_FEATURE,
        goal=goal,
        description=spec.app.description,
        launch_activity=spec.app.launch_activity,
        done_hints=tuple(o.value for o in login.done_when if o.kind in HINT_KINDS and o.value),
        max_steps=login.max_steps,
        reset="none",  # the launch before it reset the app already
        secrets=spec.secrets,
    )
    policy = RiskPolicy(extra_words=spec.risky_words)
    return Login(target, Mission(done_when=login.done_when, policy=policy), lambda: brain(steps), secrets)
