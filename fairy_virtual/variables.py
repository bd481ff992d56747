"""What an effect does to the app's variables: `set` (text may use tokens), `inc`, `calc`. A value takes
the declared variable's type: `"17"` set into an int variable is 17, `"false"` into a boolean is false,
a calculation's result or a radio's `value: 50` in a text variable is its digits as shown (`250`,
`12.5`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping

from fairy_virtual.expr import as_number, calculate, shown, typed_like
from fairy_virtual.model import Effect, Scalar

VARIABLE_ACTIONS = frozenset({"set", "inc", "calc"})


def change(
    effect: Effect,
    variables: MutableMapping[str, Scalar],
    declared: Mapping[str, Scalar],
    expand: Callable[[str], str],
) -> None:
    """Apply `effect` (one of `VARIABLE_ACTIONS`) to `variables`; `declared`: their initial values, which
    tell their types; `expand`: text with its tokens (`{i}`, `{var:NAME}`) filled in."""
    for name, value in (effect.set or {}).items():
        variables[name] = coerce(declared.get(name), expand(value) if isinstance(value, str) else value)
    for name, amount in (effect.inc or {}).items():
        current = variables.get(name, 0)
        assert isinstance(current, int | float)
        variables[name] = current + amount
    for name, text in (effect.calc or {}).items():
        result = calculate(text, variables)
        if result is not None:  # a value it cannot read as a number: the app leaves the variable be
            variables[name] = typed_like(declared[name], result)


def coerce(declared: Scalar | None, value: Scalar) -> Scalar:
    """`value` as a variable declared `declared` holds it: text that reads as one into a number or a
    boolean variable (`"17"`, `"12.5"`, also into one declared `0`, `"false"`), a number or a boolean into a
    text variable as shown."""
    if isinstance(declared, str) and not isinstance(value, str):
        return shown(value)
    if not isinstance(value, str) or declared is None or isinstance(declared, str):
        return value
    if isinstance(declared, bool):
        return {"true": True, "false": False}.get(value.strip(), value)
    number = as_number(value)
    return value if number is None else number  # a whole-number variable takes `12.5` too, as calc's does
