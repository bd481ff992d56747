"""The one timing helper the benchmark scripts share (they run as `python benchmarks/NAME.py`, so this
module is importable as `timing`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(call: Callable[[], object], runs: int, *, warm: bool = True) -> float:
    """Median wall milliseconds of `runs` calls; one call first, unmeasured, to warm caches."""
    if warm:
        call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)
