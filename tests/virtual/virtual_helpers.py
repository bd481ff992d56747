"""Helpers of the virtual device tests: where the example apps are, and finding views in a dump."""

from __future__ import annotations

from pathlib import Path

from fairy_virtual import VirtualDevice
from pytest_fairy.perception.hierarchy import Node, parse_hierarchy

ROOT = Path(__file__).resolve().parents[2]
FOOD = ROOT / "example_suites" / "food"
NOTES = ROOT / "example_suites" / "notes"
FOOD_PACKAGE = "com.mcdonalds.gma.cn"
NOTES_PACKAGE = "com.example.notes"


def nodes(device: VirtualDevice) -> list[Node]:
    """Every node of a fresh dump, topmost window first."""
    return [n for window in reversed(parse_hierarchy(device.dump_hierarchy())) for n in window.iter()]


def find(device: VirtualDevice, label: str) -> Node:
    """The first node (topmost window first) whose text, content-desc or id name is `label`."""
    for node in nodes(device):
        if label in (node.text, node.content_desc, node.short_id):
            return node
    raise LookupError(f"nothing labelled {label!r} on screen")


def tap(device: VirtualDevice, label: str) -> None:
    device.tap(*find(device, label).bounds.center)


def texts(device: VirtualDevice) -> list[str]:
    return [n.text for n in nodes(device) if n.text]
