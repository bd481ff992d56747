"""A YAML syntax error in the reader's words: what is wrong on which line, and how to fix it.

PyYAML words its errors as its parser sees them (`mapping values are not allowed here`, `expected <block
end>, but found '?'`). The three mistakes people make most are recognised from the error and the text
around it, and said plainly with the fix:
- a value containing `: ` (`goal: open Settings: Dark mode`): quote it, with the quoted line shown;
- inside `{ }`, a value holding a character YAML reads as syntax there (`{text: Where to?}`, `{text: a: b}`):
  quote it, the same way;
- a key indented more, or less, than the keys it belongs with: the columns it could line up with;
- a tab character: YAML indents with spaces only.
Anything else keeps PyYAML's own words. Shared by spec files (spec/loader.py) and app models
(fairy_virtual/loader.py), so both read the same.
"""

from __future__ import annotations

import re

import yaml

# A mapping key at the start of a line's content: `name:` followed by a space or the end of the line.
_KEY = re.compile(r"""([^\s#'"\[{-][^:#]*?|'[^']*'|"[^"]*"):(\s|$)""")
_ITEM = re.compile(r"-(\s+|$)")
# Inside `{ }`: a PyYAML complaint about a character in a value, and the key each value there follows.
_FLOW_CHAR = re.compile(r"expected ',' or '\}', but got '(.)'")
_FLOW_KEY = re.compile(r"[{,]\s*([^\s:,{}\[\]'\"][^:,{}\[\]]*?):\s")
_NEXT_FLOW_KEY = re.compile(r",\s*[^\s:,{}\[\]'\"][^:,{}\[\]]*?:\s")


def yaml_problem(exc: yaml.MarkedYAMLError, text: str) -> tuple[int, str]:
    """The 1-based line of `exc`, raised reading `text`, and what is wrong there, as one line."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    problem = " ".join(str(exc.problem or "").split())
    lines = text.splitlines()
    if exc.problem_mark is not None and exc.problem_mark.line < len(lines):
        hint = _hint(problem, lines, exc.problem_mark.line, exc.problem_mark.column)
        if hint:
            return line, f"YAML syntax error: {hint}"
    parts = [" ".join(str(part).split()) for part in (exc.context, exc.problem) if part]
    return line, f"YAML syntax error: {': '.join(parts) or 'cannot parse'}"


def _hint(problem: str, lines: list[str], row: int, column: int) -> str:
    here = lines[row]
    if "'\\t'" in problem:
        if not here[:column].strip():
            return "a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)"
        return f"a tab at column {column + 1}: YAML does not accept tabs there (use spaces)"
    if problem == "mapping values are not allowed here":
        return _colon_or_deeper(lines, row, column)
    flow = _FLOW_CHAR.fullmatch(problem)
    if flow is not None:
        return _flow_value(here, column, flow.group(1))
    starts_line = column == len(here) - len(here.lstrip(" "))
    if problem.startswith("expected <block end>") and starts_line:
        return _shallower(lines, row, column)
    return ""


def _colon_or_deeper(lines: list[str], row: int, column: int) -> str:
    """`: ` where YAML cannot start a key: inside a value (quote it), or a key indented under a value."""
    here = lines[row]
    start, key = _content(here)
    found = _KEY.match(here, start)
    if found is not None and found.end(1) < column:
        value = here[found.end() :].split(" #", 1)[0].strip()  # a comment stays outside the quotes
        return (
            f"the value of {key!r} contains ': ', which YAML reads as the start of another key; put the "
            f"value in quotes: {key}: {_quoted(value)}"
        )
    above = _previous(lines, row)
    where = f" (line {above + 1})" if above is not None else ""
    return (
        f"bad indentation: {key!r} is indented more than the line above it{where}, so YAML reads it as "
        "part of that line's value; indent it like the keys it belongs with"
    )


def _flow_value(here: str, column: int, char: str) -> str:
    """A value inside `{ }` holding `char` at `column`, which YAML reads as syntax there: quote it."""
    keys = list(_FLOW_KEY.finditer(here, 0, column))
    if not keys:
        return ""
    key = keys[-1]
    after = _NEXT_FLOW_KEY.search(here, column)
    end = after.start() if after is not None else here.rfind("}")
    value = here[key.end() : end if end > column else len(here)].strip()
    return (
        f"the value of {key.group(1)!r} contains {char!r}, which YAML reads as syntax inside {{ }}; put "
        f"the value in quotes: {key.group(1)}: {_quoted(value)}"
    )


def _quoted(value: str) -> str:
    return '"' + value + '"' if '"' not in value else "'" + value.replace("'", "''") + "'"


def _shallower(lines: list[str], row: int, column: int) -> str:
    """A key or list item that lines up with nothing that could hold it, listing what it could."""
    key_columns: set[int] = set()
    item_columns: set[int] = set()
    lowest = None
    for above in range(row - 1, -1, -1):
        text = lines[above]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        indent = len(text) - len(text.lstrip(" "))
        if lowest is not None and indent >= lowest:
            continue  # a sibling's nested line: not among the places this line can belong
        lowest = indent
        position = indent
        while (item := _ITEM.match(text, position)) is not None:
            item_columns.add(position + 1)
            position = item.end()
        if _KEY.match(text, position):
            key_columns.add(position + 1)
    is_item = _ITEM.match(lines[row], column) is not None
    what, columns = (
        ("the list item", item_columns) if is_item else (repr(_content(lines[row])[1]), key_columns)
    )
    kinds = "list items" if is_item else "keys"
    if not columns:
        return f"{what} in column {column + 1} fits none of the lines above it; check its indentation"
    return (
        f"bad indentation: {what} starts in column {column + 1}, which lines up with none of the {kinds} "
        f"above it (column{'s' if len(columns) > 1 else ''} {_listed(sorted(columns))}); {kinds} of one "
        f"{'list' if is_item else 'mapping'} start in the same column, indented with spaces"
    )


def _content(text: str) -> tuple[int, str]:
    """Where a line's content starts after its indentation and list dashes, and its key (or the text)."""
    position = len(text) - len(text.lstrip(" "))
    while (item := _ITEM.match(text, position)) is not None:
        position = item.end()
    found = _KEY.match(text, position)
    return position, (found.group(1).strip() if found else text[position:].strip())


def _previous(lines: list[str], row: int) -> int | None:
    for above in range(row - 1, -1, -1):
        if lines[above].strip() and not lines[above].lstrip().startswith("#"):
            return above
    return None


def _listed(columns: list[int]) -> str:
    shown = [str(c) for c in columns]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
