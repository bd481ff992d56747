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


# A sign-up form whose goal gives the data in its own words; the submit fails on this build.
SIGN_UP = """
app: {name: 活动, package: com.example.signup, launch: home}
variables: {name: '', phone: ''}
screens:
  - id: home
    activity: .HomeActivity
    title: 活动
    up: false
    elements:
      - {id: tv_sign_up, text: 活动报名, on_tap: [{go: form}]}
      - {id: tv_news, text: 活动新闻, on_tap: [{go: news}]}
  - id: form
    activity: .FormActivity
    title: 活动报名
    elements:
      - {class: EditText, id: et_name, hint: 姓名（必填）, var: name}
      - {class: EditText, id: et_phone, hint: 手机号（必填）, var: phone}
      - {class: Button, id: btn_submit, text: 确认提交, on_tap: [{when: "name != '' and phone != ''", go: failed}]}
  - id: failed
    activity: .ErrorActivity
    title: 活动报名
    elements:
      - {text: 提交失败，请稍后重试}
  - id: done
    activity: .DoneActivity
    title: 报名成功
    elements:
      - {text: 提交成功，我们会尽快联系您}
  - id: news
    activity: .NewsActivity
    title: 活动新闻
    elements:
      - {text: 暂无新闻}
"""
SIGN_UP_SPEC = """
app: {name: 活动, package: com.example.signup, virtual: app.yaml}
features:
  - name: 报名
    goal: 活动报名表单能提交成功（姓名填“王芳”，手机号填“13912345678”）
    max_steps: 30
    done_when:
      - visible: 提交成功，我们会尽快联系您
"""


def test_a_submit_failing_with_the_data_the_goal_gives_fails_the_feature(tmp_path: Path) -> None:
    """The goal's 姓名填“王芳” is the tester's own data, as `inputs` would be: the submit that fails with it is
    the evidence; the build whose submit works passes."""
    sink = Recorded()
    broken = explore_inline(tmp_path, SIGN_UP, SIGN_UP_SPEC, sinks=[sink])
    assert broken.verdict.value == "failed", (broken.reason, [step.action for step in sink.steps])
    assert "确认提交 on 活动报名) showed '提交失败，请稍后重试'" in broken.reason, broken.reason
    assert any("'王芳'" in step.action for step in sink.steps)
    working = explore_inline(tmp_path, SIGN_UP.replace("go: failed}", "go: done}"), SIGN_UP_SPEC)
    assert working.verdict.value == "passed", working.reason
