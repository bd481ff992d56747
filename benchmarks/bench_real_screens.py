"""Perception on real phones' screens: mark recall and modal recognition over the corpus of public dumps
(tests/perception/real_screens), per dump and in total, with the time to understand each screen.

    python benchmarks/bench_real_screens.py

Recall: of the actionable elements a person sees (expected.yaml), how many got a mark. Marks on expected:
of the marks, how many cover one of those (the rest are extra marks, harmless but noise for the model).
Targets (tests/perception/test_real_screens.py): recall >= 95% over the corpus, >= 50% on every dump,
every real dialog / sheet / popup / shade modal, nothing else.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.perception.real_screens.corpus import measure, names, screen_of  # noqa: E402


def main() -> None:
    rows = []
    print(f"{'dump':54} {'recall':>12} {'marks':>6} {'on exp.':>8} {'modal':>7} {'seen':>6} {'ms':>6}")
    for name in names():
        started = time.perf_counter()
        screen_of(name)
        elapsed = (time.perf_counter() - started) * 1000
        m = measure(name)
        rows.append(m)
        seen = ("ok" if m.modal_ok else "WRONG") if not m.window_only else "(alone)"
        print(
            f"{name[:54]:54} {m.found:>4}/{m.expected:<4} {m.recall:>4.0%} {m.marks:>5} "
            f"{m.marks_on_expected:>8} {m.modal:>7} {seen:>7} {elapsed:>5.1f}"
        )
    found, wanted = sum(m.found for m in rows), sum(m.expected for m in rows)
    marks, on_expected = sum(m.marks for m in rows), sum(m.marks_on_expected for m in rows)
    modal = [m for m in rows if m.modal != "none" and not m.window_only]
    false_modal = [m for m in rows if m.modal == "none" and m.has_dialog]
    print(f"\n{len(rows)} dumps of {len({n.split('__')[0] for n in names()})} apps")
    print(f"recall over the corpus: {found}/{wanted} = {found / wanted:.1%} (target >= 95%)")
    print(f"lowest recall on a dump: {min(m.recall for m in rows):.0%} (target >= 50%)")
    print(f"marks covering an expected element: {on_expected}/{marks} = {on_expected / marks:.1%}")
    print(f"real modal surfaces recognised: {sum(m.modal_ok for m in modal)}/{len(modal)}; "
          f"screens wrongly taken for a dialog: {len(false_modal)}")


if __name__ == "__main__":
    main()
