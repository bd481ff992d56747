"""A form that refuses the tester's own data (`Invalid email address` for the spec's input): the refusal
is the evidence, and, as it kept nothing, no change of the app's data that would send the explorer back
over the feature's elements (brain/retries.py)."""

from __future__ import annotations

from pathlib import Path

from tests.explorer.inline_apps import Recorded, explore_inline

APP = """
app: {name: Letters, package: com.example.letters, launch: home}
variables: {joined: false, refused: false, email: ''}
screens:
  - id: home
    activity: .HomeActivity
    title: Letters
    up: false
    elements:
      - {id: tv_list, text: Mailing list, on_tap: [{go: form}]}
      - {id: tv_archive, text: Mailing list archive, on_tap: [{go: archive}]}
  - id: form
    activity: .ListActivity
    title: Mailing list
    elements:
      - {class: EditText, id: et_email, hint: Email, var: email}
      - {text: Invalid email address, when: refused}
      - {text: You are on the list, when: joined}
      - {class: Button, id: btn_confirm, text: Confirm, on_tap: [{set: {refused: true}}]}
  - id: archive
    activity: .ArchiveActivity
    title: Mailing list archive
    elements:
      - {text: No issues yet}
"""
SPEC = """
app: {name: Letters, package: com.example.letters, virtual: app.yaml}
features:
  - name: join the mailing list
    goal: open Mailing list, type the email and confirm to join the mailing list
    inputs: {Email: ann@example.com}
    max_steps: 30
    done_when:
      - visible: You are on the list
"""


def test_a_form_refusing_the_specs_own_data_fails_the_feature(tmp_path: Path) -> None:
    sink = Recorded()
    result = explore_inline(tmp_path, APP, SPEC, sinks=[sink])
    assert result.verdict.value == "failed", (result.reason, [step.action for step in sink.steps])
    assert "showed 'Invalid email address'" in result.reason, result.reason
