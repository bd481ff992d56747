"""Perception on real phones' screens: mark recall, mark precision and modal recognition over the corpus of
138 public dumps of 113 apps (tests/perception/real_screens), per dump and in total, for the whole corpus,
the tuned split and the held-out split, with the time to understand each screen.

    python benchmarks/bench_real_screens.py

Recall: of the actionable elements a person sees (expected.yaml), how many got a mark. Precision: of the
marks, how many cover one of those (the rest are extra marks, noise for the model). The held-out split
(heldout.txt, rows marked `H`) is never used to tune perception rules; whoever changes a rule looks at the
tuned split's misses only.
Targets: recall >= 98% and precision >= 92% over the whole corpus and over the held-out split, no dump under
60% recall, every real dialog / sheet / popup / shade modal (dialogs dumped alone included), nothing else.
The tests' thresholds (tests/perception/test_real_screens.py) hold the current level, not these targets.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.perception.real_screens.corpus import (  # noqa: E402
    SPLITS,
    Measured,
    heldout_names,
    measure,
    names,
    screen_of,
    summarise,
)

RECALL_TARGET = 0.98
PRECISION_TARGET = 0.92
DUMP_RECALL_TARGET = 0.60


def _row(m: Measured, held: bool, elapsed: float) -> str:
    seen = ("ok" if m.modal_ok else "WRONG") if not m.window_only else ("alone" if m.has_dialog else "ALONE?")
    return (
        f"{'H' if held else ' '} {m.name[:54]:54} {m.found:>4}/{m.expected:<4} {m.recall:>4.0%} {m.marks:>5} "
        f"{m.marks_on_expected:>8} {m.modal:>7} {seen:>7} {elapsed:>5.1f}"
    )


def _split_lines(split: str, measured: list[Measured]) -> list[str]:
    s = summarise(measured)
    apps = len({m.name.split("__")[0] for m in measured})
    wrong = ", ".join(s.false_modal) or "none"
    return [
        f"{split}: {s.dumps} dumps of {apps} apps",
        f"  recall: {s.found}/{s.expected} = {s.recall:.1%} (target >= {RECALL_TARGET:.0%})",
        f"  precision (marks covering an expected element / marks): {s.marks_on_expected}/{s.marks} = "
        f"{s.precision:.1%} (target >= {PRECISION_TARGET:.0%})",
        f"  lowest recall on a dump: {s.lowest_recall:.0%} ({s.lowest_dump}; "
        f"target >= {DUMP_RECALL_TARGET:.0%})",
        f"  dialogs / popups dumped alone recognised: {s.alone_recognised}/{s.alone}",
        f"  modal surfaces (dialog, sheet, popup, shade) recognised: {s.modal_recognised}/{s.modal}",
        f"  screens wrongly taken for a dialog: {len(s.false_modal)} ({wrong})",
    ]


def main() -> None:
    held = set(heldout_names())
    measured: dict[str, Measured] = {}
    print(f"  {'dump':54} {'recall':>12} {'marks':>6} {'on exp.':>8} {'modal':>7} {'seen':>7} {'ms':>6}")
    for name in names():
        started = time.perf_counter()
        screen_of(name)
        elapsed = (time.perf_counter() - started) * 1000
        measured[name] = measure(name)
        print(_row(measured[name], name in held, elapsed))
    print("\nH: held-out split (heldout.txt)")
    for split, listed in SPLITS.items():
        print()
        print("\n".join(_split_lines(split, [measured[name] for name in listed()])))


if __name__ == "__main__":
    main()
