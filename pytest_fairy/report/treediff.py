"""What changed between two builds: this run's feature tree against a baseline run's, and its picture.

Screens are the tree's states. A state whose key (activity + structure + dialog hashes) is in both trees
is the same screen, unchanged. A state only in the baseline that this run reaches the same way - from
the same (or the same changed) screen by the same action, or failing that as the only screen with its
activity, title and dialog flag - is that screen *changed* (its structure differs); what is left is
*gone* (in the baseline only) or *added* (in this run only). Transitions are compared per (screen,
action): gone, added, or changed (the action now leads elsewhere). New crashes are crash / ANR findings
this run has and the baseline had not.

`TreeDiff.to_dict()` is the JSON attached to the report (`schema` = "pytest_fairy.tree_diff", version 1).
"""

from __future__ import annotations

import io
import math
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from pytest_fairy.explore.tree import FeatureTree, StateInfo
from pytest_fairy.perception.fonts import font
from pytest_fairy.text import one_line

SCHEMA = "pytest_fairy.tree_diff"
SCHEMA_VERSION = 1
NAMES_SHOWN = 6  # screens named per kind in a terminal line; the JSON has all of them


@dataclass(frozen=True, slots=True)
class DiffScreen:
    key: str
    name: str
    title: str
    activity: str
    is_dialog: bool

    @classmethod
    def of(cls, info: StateInfo) -> DiffScreen:
        return cls(info.key, info.name, info.title, info.activity, info.is_dialog)

    def __str__(self) -> str:
        return f'{self.name} "{self.title}"' if self.title else self.name


@dataclass(frozen=True, slots=True)
class ChangedScreen:
    before: DiffScreen
    after: DiffScreen


@dataclass(frozen=True, slots=True)
class DiffTransition:
    """`source --action--> target` in baseline names; `was` is the old target of a changed one."""

    source: str
    action: str
    target: str
    was: str = ""


@dataclass(frozen=True)
class TreeDiff:
    added: tuple[DiffScreen, ...] = ()
    gone: tuple[DiffScreen, ...] = ()
    changed: tuple[ChangedScreen, ...] = ()
    unchanged: int = 0
    transitions_added: tuple[DiffTransition, ...] = ()
    transitions_gone: tuple[DiffTransition, ...] = ()
    transitions_changed: tuple[DiffTransition, ...] = ()
    new_crashes: tuple[str, ...] = ()
    # For the picture: current key -> baseline key of every screen in both (changed ones included).
    matched: dict[str, str] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not (
            self.added or self.gone or self.changed or self.new_crashes
            or self.transitions_added or self.transitions_gone or self.transitions_changed
        )  # fmt: skip

    def headline(self) -> str:
        if self.clean:
            return f"no change ({self.unchanged} screens as in the baseline)"
        return (
            f"screens: {len(self.changed)} changed, {len(self.added)} added, {len(self.gone)} gone, "
            f"{self.unchanged} unchanged; transitions: {len(self.transitions_changed)} changed, "
            f"{len(self.transitions_added)} added, {len(self.transitions_gone)} gone; "
            f"{len(self.new_crashes)} new crashes"
        )

    def lines(self) -> list[str]:
        """The headline, then the screens by kind and the new crashes, for the terminal and the report."""
        lines = [self.headline()]
        for label, names in (
            ("changed", [str(c.after) for c in self.changed]),
            ("added", [str(s) for s in self.added]),
            ("gone", [str(s) for s in self.gone]),
            ("new crash", list(self.new_crashes)),
        ):
            if names:
                more = f", ... {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
                lines.append(f"  {label}: " + ", ".join(names[:NAMES_SHOWN]) + more)
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "summary": self.headline(),
            "screens": {
                "changed": [{"before": asdict(c.before), "after": asdict(c.after)} for c in self.changed],
                "added": [asdict(s) for s in self.added],
                "gone": [asdict(s) for s in self.gone],
                "unchanged": self.unchanged,
            },
            "transitions": {
                "changed": [asdict(t) for t in self.transitions_changed],
                "added": [asdict(t) for t in self.transitions_added],
                "gone": [asdict(t) for t in self.transitions_gone],
            },
            "new_crashes": list(self.new_crashes),
        }


def diff_trees(
    baseline: FeatureTree,
    current: FeatureTree,
    *,
    baseline_crashes: Iterable[str] = (),
    current_crashes: Iterable[str] = (),
) -> TreeDiff:
    matched = {key: key for key in current.states if key in baseline.states}
    unchanged = len(matched)
    _match_by_route(baseline, current, matched)
    _match_by_look(baseline, current, matched)
    taken = set(matched.values())
    changed = tuple(
        ChangedScreen(DiffScreen.of(baseline.states[old]), DiffScreen.of(current.states[new]))
        for new, old in matched.items()
        if new != old
    )
    added = tuple(DiffScreen.of(info) for key, info in current.states.items() if key not in matched)
    gone = tuple(DiffScreen.of(info) for key, info in baseline.states.items() if key not in taken)
    t_added, t_gone, t_changed = _transitions(baseline, current, matched)
    known = set(baseline_crashes)
    crashes = tuple(dict.fromkeys(c for c in current_crashes if c not in known))
    return TreeDiff(added, gone, changed, unchanged, t_added, t_gone, t_changed, crashes, matched)


def _edges(tree: FeatureTree) -> dict[tuple[str, str], list[str]]:
    """(from, action_key) -> the states it led to, in the order first seen."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for t in tree.transitions:
        targets = found[(t.from_key, t.action_key)]
        if t.to_key not in targets:
            targets.append(t.to_key)
    return found


def _match_by_route(baseline: FeatureTree, current: FeatureTree, matched: dict[str, str]) -> None:
    """Pair a new screen with a lost one entered the same way (same origin, same action), to a fixpoint;
    the first screens of both runs are paired the same way."""
    old_edges = _edges(baseline)
    while True:
        taken = set(matched.values())
        pairs: list[tuple[str, str]] = []
        if baseline.path and current.path:
            pairs.append((current.path[0], baseline.path[0]))
        for t in current.transitions:
            origin = matched.get(t.from_key)
            if origin is not None:
                candidates = [k for k in old_edges.get((origin, t.action_key), []) if k not in taken]
                if len(candidates) == 1:
                    pairs.append((t.to_key, candidates[0]))
        progress = False
        for new, old in pairs:
            if new not in matched and old not in taken:
                matched[new] = old
                taken.add(old)
                progress = True
        if not progress:
            return


def _match_by_look(baseline: FeatureTree, current: FeatureTree, matched: dict[str, str]) -> None:
    def look(info: StateInfo) -> tuple[str, str, bool]:
        return info.activity, info.title, info.is_dialog

    taken = set(matched.values())
    lost: dict[tuple[str, str, bool], list[str]] = defaultdict(list)
    for key, info in baseline.states.items():
        if key not in taken:
            lost[look(info)].append(key)
    new: dict[tuple[str, str, bool], list[str]] = defaultdict(list)
    for key, info in current.states.items():
        if key not in matched:
            new[look(info)].append(key)
    for face, keys in new.items():
        if len(keys) == 1 and len(lost.get(face, [])) == 1:
            matched[keys[0]] = lost[face][0]


def _transitions(
    baseline: FeatureTree, current: FeatureTree, matched: dict[str, str]
) -> tuple[tuple[DiffTransition, ...], tuple[DiffTransition, ...], tuple[DiffTransition, ...]]:
    def name(key: str) -> str:
        info = baseline.states.get(key) or current.states.get(key)
        return info.name if info else key

    old = _edges(baseline)
    new: dict[tuple[str, str], list[str]] = defaultdict(list)
    for (source, action), targets in _edges(current).items():
        mapped = new[(matched.get(source, source), action)]
        mapped.extend(t for t in (matched.get(k, k) for k in targets) if t not in mapped)
    added = [
        DiffTransition(name(s), a, name(t)) for (s, a), ts in new.items() if (s, a) not in old for t in ts
    ]
    gone = [
        DiffTransition(name(s), a, name(t)) for (s, a), ts in old.items() if (s, a) not in new for t in ts
    ]
    changed = [
        DiffTransition(name(s), a, ", ".join(map(name, new[(s, a)])), ", ".join(map(name, ts)))
        for (s, a), ts in old.items()
        if (s, a) in new and set(new[(s, a)]) != set(ts)
    ]
    return tuple(added), tuple(gone), tuple(changed)


# ------------------------------------------------------------------------------------------ picture


@dataclass(frozen=True, slots=True)
class DiffStyle:
    box_width: int = 230
    box_height: int = 54
    gap_x: int = 50
    gap_y: int = 70
    margin: int = 30
    header: int = 56
    per_row: int = 5
    min_width: int = 900  # room for the headline
    font_size: int = 14
    colours: tuple[tuple[str, str, str], ...] = (
        # kind, fill, border
        ("unchanged", "#f1f3f4", "#9aa0a6"),
        ("changed", "#fef7e0", "#f29900"),
        ("added", "#e6f4ea", "#188038"),
        ("gone", "#fce8e6", "#d93025"),
    )


def render_diff_png(
    diff: TreeDiff, baseline: FeatureTree, current: FeatureTree, style: DiffStyle | None = None
) -> bytes:
    """Both trees in one picture, baseline names: grey unchanged, amber changed, green added, red gone;
    arrows coloured the same way. Rows by BFS depth from the first screen, as the tree picture does."""
    style = style or DiffStyle()
    kinds, edges = _union(diff, baseline, current)
    rows = _diff_rows(list(kinds), edges, baseline.path[:1] or current.path[:1], style.per_row)
    columns = max((len(row) for row in rows), default=1)
    width = max(2 * style.margin + columns * (style.box_width + style.gap_x), style.min_width)
    height = 2 * style.margin + style.header + len(rows) * (style.box_height + style.gap_y)
    image = Image.new("RGB", (width, max(height, 160)), "white")
    draw = ImageDraw.Draw(image)
    look = {kind: (fill, border) for kind, fill, border in style.colours}
    draw.text((style.margin, style.margin), "build-to-build diff: " + diff.headline(), fill="#202124",
              font=font(style.font_size + 1))  # fmt: skip
    legend_x = style.margin
    for kind, fill, border in style.colours:
        draw.rectangle(
            (legend_x, style.margin + 26, legend_x + 16, style.margin + 40), fill=fill, outline=border
        )
        draw.text((legend_x + 22, style.margin + 25), kind, fill="#202124", font=font(style.font_size - 2))
        legend_x += 120
    where: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows):
        for c, key in enumerate(row):
            x = style.margin + c * (style.box_width + style.gap_x)
            y = style.margin + style.header + r * (style.box_height + style.gap_y)
            where[key] = (x, y)
    for (source, target), kind in edges.items():
        if source in where and target in where and source != target:
            _arrow(draw, where[source], where[target], look[kind][1], style)
    infos = {**baseline.states, **{diff.matched.get(k, k): v for k, v in current.states.items()}}
    for key, (x, y) in where.items():
        fill, border = look[kinds[key]]
        draw.rectangle((x, y, x + style.box_width, y + style.box_height), fill=fill, outline=border, width=2)
        info = infos[key]
        draw.text(
            (x + 8, y + 6), one_line(info.title or info.name, 20), fill="#202124", font=font(style.font_size)
        )
        draw.text((x + 8, y + 30), one_line(info.name, 32), fill="#5f6368", font=font(style.font_size - 4))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _union(
    diff: TreeDiff, baseline: FeatureTree, current: FeatureTree
) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """Every screen (by baseline key where matched) and edge of both trees, with its kind."""
    changed = {c.before.key for c in diff.changed}
    kinds = {key: "changed" if key in changed else "unchanged" for key in baseline.states}
    kinds.update({s.key: "gone" for s in diff.gone})
    kinds.update({s.key: "added" for s in diff.added})
    old = {(t.from_key, t.to_key) for t in baseline.transitions}
    new = {
        (diff.matched.get(t.from_key, t.from_key), diff.matched.get(t.to_key, t.to_key))
        for t in current.transitions
    }
    edges = {e: "unchanged" for e in old & new}
    edges.update({e: "gone" for e in old - new})
    edges.update({e: "added" for e in new - old})
    return kinds, edges


def _diff_rows(
    keys: list[str], edges: dict[tuple[str, str], str], start: list[str], per_row: int
) -> list[list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for source, target in edges:
        out[source].append(target)
    depth: dict[str, int] = {}
    for root in [*start, *keys]:
        if root in depth or root not in keys:
            continue
        # A screen not reachable from the first one starts a new layer below what is drawn so far.
        depth[root] = max(depth.values(), default=-1) + 1
        queue = deque([root])
        while queue:
            key = queue.popleft()
            for nxt in out[key]:
                if nxt not in depth:
                    depth[nxt] = depth[key] + 1
                    queue.append(nxt)
    rows: list[list[str]] = []
    for level in sorted(set(depth.values())):
        members = [k for k in keys if depth.get(k) == level]
        rows.extend(members[i : i + per_row] for i in range(0, len(members), per_row))
    return rows


def _arrow(
    draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], colour: str, style: DiffStyle
) -> None:
    ax, ay = a[0] + style.box_width / 2, a[1] + style.box_height
    bx, by = b[0] + style.box_width / 2, b[1]
    if b[1] <= a[1]:  # back up the tree or across a row: leave from the top
        ay, by = a[1], b[1] + style.box_height
    draw.line((ax, ay, bx, by), fill=colour, width=2)
    angle = math.atan2(by - ay, bx - ax)
    head = [(bx, by)] + [(bx - 9 * math.cos(angle + s), by - 9 * math.sin(angle + s)) for s in (-0.4, 0.4)]
    draw.polygon(head, fill=colour)
