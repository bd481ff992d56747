"""tests/maestro_flows.py, the Maestro subset that runs exported flows on virtual twins: it reads selectors
and commands as Maestro's docs define them, so a flow it passes or fails says something about the export."""

from __future__ import annotations

from pathlib import Path

import pytest
from maestro_flows import FlowFailed, NotSupported, run_flow

from fairy_virtual import VirtualDevice

UNTUNED = Path(__file__).resolve().parents[1] / "untuned"
HEAD = "appId: com.example.xiandaojia\n---\n- launchApp:\n    appId: com.example.xiandaojia\n    clearState: true\n"
# tests/untuned/missing_screen: 我的订单 opens 我的收藏; its clean twin opens the orders.
ORDERS = HEAD + "- tapOn:\n    id: com\\.example\\.xiandaojia:id/nav_mine\n- tapOn: 我的订单\n"


def device(name: str) -> VirtualDevice:
    return VirtualDevice(UNTUNED / name, latency=False)


def test_a_flow_fails_where_the_bug_shows_and_passes_on_the_fixed_app() -> None:
    flow = ORDERS + "- assertNotVisible:\n    text: .*我的收藏.*\n"
    with pytest.raises(FlowFailed, match=r"command 4 \(assertNotVisible\).*still visible"):
        run_flow(flow, device("missing_screen"))
    run_flow(flow, device("missing_screen_clean"))


def test_text_and_id_match_the_whole_value() -> None:
    with pytest.raises(FlowFailed, match="no view matches"):
        run_flow(HEAD + "- tapOn: 我的订\n", device("missing_screen_clean"))
    with pytest.raises(FlowFailed, match="no view matches"):
        run_flow(HEAD + "- tapOn:\n    id: nav_mine\n", device("missing_screen_clean"))
    run_flow(HEAD + "- tapOn:\n    id: .*nav_mine\n- assertVisible: 我的订单\n", device("missing_screen_clean"))


def test_a_toast_is_visible_text() -> None:
    flow = "appId: com.example.youxuan\n---\n- launchApp\n- tapOn: 限时秒杀\n- assertVisible: 下一场 20:00 开始\n"
    run_flow(flow, device("catalog_below_fold"))


def test_a_parameter_not_given_fails_and_commands_outside_the_subset_are_refused() -> None:
    with pytest.raises(FlowFailed, match=r"\$\{PASS\} was not given"):
        run_flow(ORDERS + "- inputText: ${PASS}\n", device("missing_screen_clean"))
    with pytest.raises(NotSupported, match="runScript"):
        run_flow(HEAD + "- runScript: x.js\n", device("missing_screen_clean"))
