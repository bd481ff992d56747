"""Each virtual app model is parsed once per run (per xdist worker): collection checks it, the device
runs it, and both use the same parsed model."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.specs import DELIVERY_TIME, FOOD_APP_BLOCK

COUPONS = """\
  - name: coupons
    goal: 优惠券：订阅领券提醒
    allow: [purchase]
    done_when:
      - visible: 已订阅领券提醒
"""

# Counts the parses of every process (each xdist worker is one) in parses-<pid>.txt, a line per parse.
# It wraps the loader's parse_app_model, under any path that reads a model file; restored at the end,
# as an in-process run shares the module with the test.
COUNTING_CONFTEST = """
import os

from fairy_virtual import loader


def pytest_configure(config):
    parse = loader.parse_app_model

    def counted(text, name="<app model>"):
        with open(config.rootpath / f"parses-{os.getpid()}.txt", "a", encoding="utf-8") as out:
            out.write(name + "\\n")
        return parse(text, name)

    loader.parse_app_model = counted
    config.add_cleanup(lambda: setattr(loader, "parse_app_model", parse))
"""


@pytest.mark.parametrize("workers", [0, 2], ids=["in-process", "xdist"])
def test_two_specs_on_one_app_model_parse_it_once(suite: pytest.Pytester, workers: int) -> None:
    (suite.path / "test_delivery.yaml").write_text(FOOD_APP_BLOCK + DELIVERY_TIME, encoding="utf-8")
    (suite.path / "test_coupons.yaml").write_text(FOOD_APP_BLOCK + COUPONS, encoding="utf-8")
    suite.makeconftest(COUNTING_CONFTEST)
    result = suite.runpytest_subprocess("-n", str(workers), "-p", "xdist") if workers else suite.runpytest()
    result.assert_outcomes(passed=2)
    food = (suite.path / "food" / "app.yaml").resolve()
    counts = {
        path.name: [Path(name).resolve() for name in path.read_text(encoding="utf-8").splitlines()]
        for path in suite.path.glob("parses-*")
    }
    # Every process that collected parsed food/app.yaml once: for both specs' collection and the device.
    assert counts and all(parsed == [food] for parsed in counts.values()), counts
    assert len(counts) == max(workers, 1)
