"""The product finds the simulator by its entry point, on first use, and says what to do without one."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fairy.devices.simulator import GROUP, LazySimulator, find_simulator
from pytest_fairy.errors import UsageError

FOOD = Path(__file__).resolve().parents[2] / "example_suites" / "food"


def test_the_virtual_simulator_is_registered_and_runs_an_app_model() -> None:
    simulator = find_simulator("virtual")
    simulator.load(FOOD)
    device = simulator.open_device(FOOD, "virtual-1")
    device.launch("com.mcdonalds.gma.cn")
    assert device.serial == "virtual-1" and "com.mcdonalds.gma.cn" in device.dump_hierarchy()


def test_a_broken_app_model_is_a_usage_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "app.yaml").write_text("app: {package: com.x, name: x, launch: home}\nscreens: []\n", "utf-8")
    with pytest.raises(UsageError, match=r"app\.yaml"):
        find_simulator("virtual").load(tmp_path)


def test_a_simulator_not_installed_is_looked_for_only_when_used_and_says_so() -> None:
    lazy = LazySimulator("no-such-simulator")  # a run on real devices builds one and never uses it
    with pytest.raises(UsageError, match=f"no simulator named 'no-such-simulator' is installed .*{GROUP}"):
        lazy.load(FOOD)
