"""Conditions (`when: logged_in and cart_count > 0`), calculations (`calc: {balance: balance - amount}`)
and dynamic text tokens (`{clock}`, `{price}`).

Conditions are a small, safe subset of Python expressions over the app's variables: names, constants
(negative numbers too), `and` / `or` / `not`, comparisons. Calculations are arithmetic over numbers and
variables: `+ - * /` and brackets; text typed into a field counts as the number it reads as. Both are
checked when the model loads, so a misspelt variable is a load error, not a screen that silently never
shows.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache

from fairy_virtual.model import Scalar
from pytest_fairy.errors import UsageError


class ExpressionError(UsageError):
    """A condition or a text token that cannot be understood."""


_ALLOWED = (
    ast.Expression,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.Name,
    ast.Load,
    ast.Constant,
)


def _parse(text: str, what: str) -> ast.Expression:
    try:
        return ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"{what} {text!r} is not valid: {exc.msg}") from exc


@cache
def _compile(text: str) -> ast.Expression:
    tree = _parse(text, "condition")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ExpressionError(
                f"condition {text!r} uses {type(node).__name__}; allowed: names, constants, "
                "and / or / not, comparisons"
            )
        if not isinstance(node, ast.UnaryOp) or not isinstance(node.op, ast.USub):
            continue
        if not (isinstance(node.operand, ast.Constant) and _number(node.operand.value)):
            raise ExpressionError(f"condition {text!r} negates something other than a number (write -50)")
    return tree


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def condition_names(text: str) -> set[str]:
    """The variables a condition reads. Raises ExpressionError when it is not a valid condition."""
    return {n.id for n in ast.walk(_compile(text)) if isinstance(n, ast.Name)}


def misordered(text: str, declared: Mapping[str, Scalar]) -> str:
    """What in the condition orders a text with a number (`<`, `<=`, `>`, `>=`), by the variables'
    declared values, which a run could only fail on; "" when nothing does."""

    def kind(node: ast.expr) -> str:
        if isinstance(node, ast.UnaryOp):
            return "number"
        value = node.value if isinstance(node, ast.Constant) else declared.get(getattr(node, "id", ""))
        if isinstance(value, str):
            return "text"
        return "number" if _number(value) else ""

    for node in ast.walk(_compile(text)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
            sign = _ORDERING.get(type(op))
            if sign and {kind(left), kind(right)} == {"text", "number"}:
                return f"{ast.unparse(left)} {sign} {ast.unparse(right)}"
    return ""


_ORDERING: dict[type[ast.cmpop], str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def evaluate(text: str | None, variables: Mapping[str, Scalar]) -> bool:
    """Whether a condition holds; no condition always holds."""
    if text is None:
        return True
    return bool(_eval(_compile(text).body, variables))


def _eval(node: ast.expr, variables: Mapping[str, Scalar]) -> Scalar:
    match node:
        case ast.Constant(value=bool() | int() | float() | str() as value):
            return value
        case ast.Name(id=name):
            return variables[name]
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return not _eval(operand, variables)
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() | float() as number)):
            return -number  # a negative number (`balance < -50`); nothing else is negated
        case ast.BoolOp(op=ast.And(), values=values):
            return all(_eval(v, variables) for v in values)
        case ast.BoolOp(op=ast.Or(), values=values):
            return any(_eval(v, variables) for v in values)
        case ast.Compare(left=left, ops=ops, comparators=rights):
            current = _eval(left, variables)
            for op, right_node in zip(ops, rights, strict=True):
                right = _eval(right_node, variables)
                if not _compare(op, current, right):
                    return False
                current = right
            return True
    raise ExpressionError(f"cannot evaluate {ast.dump(node)}")


def _compare(op: ast.cmpop, left: Scalar, right: Scalar) -> bool:
    try:
        match op:
            case ast.Eq():
                return left == right
            case ast.NotEq():
                return left != right
            case ast.Lt():
                return left < right  # type: ignore[operator]
            case ast.LtE():
                return left <= right  # type: ignore[operator]
            case ast.Gt():
                return left > right  # type: ignore[operator]
            case ast.GtE():
                return left >= right  # type: ignore[operator]
    except TypeError as exc:
        raise ExpressionError(f"cannot compare {left!r} with {right!r}") from exc
    raise ExpressionError(f"unsupported comparison {type(op).__name__}")


# ---- calculations -----------------------------------------------------------------------------

_ARITHMETIC = (
    ast.Expression,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.UnaryOp,
    ast.USub,
    ast.Name,
    ast.Load,
    ast.Constant,
)


@cache
def _compile_calculation(text: str) -> ast.Expression:
    tree = _parse(text, "calculation")
    for node in ast.walk(tree):
        if not isinstance(node, _ARITHMETIC) or (isinstance(node, ast.Constant) and not _number(node.value)):
            raise ExpressionError(
                f"calculation {text!r} uses {type(node).__name__}; allowed: numbers, variables, "
                "+ - * / and brackets"
            )
    return tree


def calculation_names(text: str) -> set[str]:
    """The variables a calculation reads. Raises ExpressionError when it is not a valid calculation."""
    return {n.id for n in ast.walk(_compile_calculation(text)) if isinstance(n, ast.Name)}


def calculate(text: str, variables: Mapping[str, Scalar]) -> int | float | None:
    """The calculation's value; None when a variable it reads holds no number (text typed into a field
    that does not read as one: the app cannot use it) or it divides by zero."""
    return _arithmetic(_compile_calculation(text).body, variables)


def _arithmetic(node: ast.expr, variables: Mapping[str, Scalar]) -> int | float | None:
    match node:
        case ast.Constant(value=int() | float() as number):
            return number
        case ast.Name(id=name):
            return as_number(variables[name])
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            value = _arithmetic(operand, variables)
            return None if value is None else -value
        case ast.BinOp(left=left, op=op, right=right):
            a, b = _arithmetic(left, variables), _arithmetic(right, variables)
            if a is None or b is None:
                return None
            match op:
                case ast.Add():
                    return a + b
                case ast.Sub():
                    return a - b
                case ast.Mult():
                    return a * b
                case ast.Div():
                    return a / b if b else None
    raise ExpressionError(f"cannot calculate {ast.dump(node)}")


def typed_like(declared: Scalar, value: int | float) -> Scalar:
    """A calculation's result as a variable declared `declared` holds it: in a text variable, its digits
    as `{var:...}` shows a number (`250`, `12.5`); else the number."""
    return shown(value) if isinstance(declared, str) else value


# Text a number field takes: digits with an optional sign and decimal point.
NUMBER_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def as_number(value: Scalar) -> int | float | None:
    """A number, or text that reads as one the way a number field takes it (`250`, `-12.5`, `.5`); None
    for anything else (`abc`, `1_000`, `1e3`, `nan`: text Python would read, a phone's keypad would not)."""
    if _number(value):
        return value  # type: ignore[return-value]
    if isinstance(value, str) and NUMBER_TEXT.fullmatch(text := value.strip()):
        return float(text) if "." in text else int(text)
    return None


# ---- dynamic text -------------------------------------------------------------------------------

TOKEN = re.compile(r"\{(\w+)(?::([^{}]*))?\}")
TOKENS = ("clock", "date", "counter", "price", "ago", "var", "i")

PRICE_JITTER = 0.15  # {price:25} shows 25 +- 15 %, as promotions and surge pricing move it
DEFAULT_PRICE = 20.0
DEFAULT_CURRENCY = "¥"
AGO_STEP_PER_ROW = 37  # minutes between consecutive rows of a list showing {ago}


@dataclass(frozen=True, slots=True)
class TextContext:
    """What dynamic tokens read: the observation number, the wall clock, variables, the list row."""

    frame: int
    now: datetime
    variables: Mapping[str, Scalar]
    locale: str = "en"
    seed: int = 0
    row: int | None = None
    currency: str = DEFAULT_CURRENCY

    def with_row(self, row: int) -> TextContext:
        return replace(self, row=row)


def check_tokens(text: str, variables: Mapping[str, Scalar]) -> None:
    """Raise ExpressionError for an unknown token or a {var:NAME} of an undeclared variable."""
    for match in TOKEN.finditer(text):
        name, arg = match.group(1), match.group(2)
        if name not in TOKENS:
            raise ExpressionError(f"unknown text token {{{name}}} in {text!r}; known: {', '.join(TOKENS)}")
        if name == "var" and arg is not None and ":" in arg and arg.split(":", 1)[0] in variables:
            raise ExpressionError(
                f"{{var:{arg}}}: a variable shows as it is, with no format; keep the text to show in a "
                f"text variable written by `set`"
            )
        if name == "var" and arg not in variables:
            raise ExpressionError(f"{{var:{arg}}} names no declared variable")
        if name == "price" and arg is not None:
            try:
                float(arg)
            except ValueError as exc:
                raise ExpressionError(f"{{price:{arg}}}: the base price must be a number") from exc


def expand(text: str, ctx: TextContext) -> str:
    """The text as shown at this observation. Texts without a brace are returned as they are."""
    if "{" not in text:
        return text
    return TOKEN.sub(lambda m: _token(m.group(1), m.group(2), m.start(), text, ctx), text)


def _token(name: str, arg: str | None, position: int, text: str, ctx: TextContext) -> str:
    if name == "clock":
        return ctx.now.strftime("%H:%M")
    if name == "date":
        return ctx.now.strftime("%Y-%m-%d")
    if name == "counter":
        return str(ctx.frame)
    if name == "i":
        return str(ctx.row if ctx.row is not None else 0)
    if name == "var":
        value = ctx.variables.get(arg or "", "")
        return shown(value)
    if name == "price":
        base = float(arg) if arg else DEFAULT_PRICE
        digest = hashlib.blake2b(
            f"{ctx.seed}/{ctx.frame}/{ctx.row}/{position}/{text}".encode(), digest_size=4
        ).digest()
        factor = 1 + PRICE_JITTER * (int.from_bytes(digest, "big") / 0xFFFFFFFF * 2 - 1)
        decimals = 1 if ctx.currency == DEFAULT_CURRENCY else 2  # ¥26.3, as the yuan is shown; $26.30
        return f"{ctx.currency}{base * factor:.{decimals}f}"
    if name == "ago":
        # Grows with each observation (time passes) and down a list (older entries further down).
        return _ago(1 + ctx.frame + AGO_STEP_PER_ROW * (ctx.row or 0), ctx.locale)
    raise ExpressionError(f"unknown text token {{{name}}}")


def _ago(minutes: int, locale: str) -> str:
    for size, zh, en in ((1440, "天", "day"), (60, "小时", "hour"), (1, "分钟", "minute")):
        if minutes >= size:
            n = minutes // size
            return f"{n}{zh}前" if locale == "zh" else f"{n} {en}{'s' if n > 1 else ''} ago"
    return "刚刚" if locale == "zh" else "just now"


# Decimals a number is shown with, at most: what a phone's formatting would show of 0.1 + 0.2.
SHOWN_DECIMALS = 9


def shown(value: Scalar) -> str:
    """A value as `{var:...}` shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        value = round(value, SHOWN_DECIMALS)
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)
