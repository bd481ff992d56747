"""Typing fills a field with the spec's value, whatever it held: a prefilled field (the city a profile
already has) holds the spec's data after the step, not that data after what was there."""

from __future__ import annotations

from pathlib import Path

from tests.explorer.inline_apps import Recorded, explore_inline

APP = """
app: {name: 资料, package: com.example.profile, launch: profile}
variables: {city: 北京, saved: ''}
screens:
  - id: profile
    activity: .ProfileActivity
    title: 编辑资料
    up: false
    elements:
      - {class: EditText, id: et_city, hint: 城市, var: city}
      - {class: Button, id: btn_save, text: 保存, on_tap: [{set: {saved: "{var:city}"}}]}
      - {id: tv_saved, text: "已保存：{var:saved}", when: "saved != ''"}
"""
SPEC = """
app: {name: 资料, package: com.example.profile, virtual: app.yaml}
features:
  - name: change the city
    goal: type the city and save it
    inputs: {et_city: 上海}  # the hint 城市 does not show over a prefilled field
    max_steps: 10
    done_when:
      - visible: 已保存：上海
"""


def test_a_prefilled_field_holds_the_specs_value_once_typed(tmp_path: Path) -> None:
    sink = Recorded()
    result = explore_inline(tmp_path, APP, SPEC, sinks=[sink])
    assert result.verdict.value == "passed", (result.reason, [step.action for step in sink.steps])
    assert "已保存：北京上海" not in str([step.screen_text for step in sink.steps])
