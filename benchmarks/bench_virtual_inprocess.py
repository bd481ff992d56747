"""Median time of a hierarchy dump and a screenshot of the in-process virtual device.

    /work/venv/bin/python benchmarks/bench_virtual_inprocess.py [calls]

Latency simulation is off, so the figures are the device's own cost. Dynamic text ({counter}, {price})
changes every observation, so screenshots of those screens are drawn afresh each time (no cache hit);
the static screen shows what the frame cache saves. Compare with the wire front's benchmark.
"""

from __future__ import annotations

import sys
from pathlib import Path

from timing import median_ms

from fairy_virtual import VirtualDevice
from pytest_fairy.perception.hierarchy import parse_hierarchy

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CALLS = 50


def tap_label(device: VirtualDevice, label: str) -> None:
    for window in reversed(parse_hierarchy(device.dump_hierarchy())):
        for node in window.iter():
            if label in (node.text, node.short_id):
                device.tap(*node.bounds.center)
                return
    raise LookupError(label)


def scenarios() -> list[tuple[str, VirtualDevice]]:
    food = VirtualDevice(ROOT / "example_suites" / "food", latency=False)
    food.launch("com.mcdonalds.gma.cn")
    delivery = VirtualDevice(ROOT / "example_suites" / "food", latency=False)
    delivery.launch("com.mcdonalds.gma.cn")
    tap_label(delivery, "麦乐送")  # the delivery page with its time dialog over it
    notes = VirtualDevice(ROOT / "example_suites" / "notes", latency=False)
    notes.launch("com.example.notes")
    for field, text in (("et_username", "alice"), ("et_password", "pw")):
        tap_label(notes, field)
        notes.type_text(text)
    tap_label(notes, "登录")  # the 200-note list
    static = VirtualDevice(ROOT / "example_suites" / "notes", latency=False)
    static.launch("com.example.notes")  # the login screen: no dynamic text
    return [
        ("food home", food),
        ("food delivery+dialog", delivery),
        ("notes list", notes),
        ("notes login (static)", static),
    ]


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CALLS
    print(f"in-process virtual device, median of {calls} calls")
    print(f"{'screen':<24}{'dump ms':>10}{'screenshot ms':>16}{'shot/dump':>11}")
    for name, device in scenarios():
        dump = median_ms(device.dump_hierarchy, calls, warm=False)
        shot = median_ms(device.screenshot, calls, warm=False)
        print(f"{name:<24}{dump:>10.2f}{shot:>16.2f}{shot / dump:>11.1f}")


if __name__ == "__main__":
    main()
