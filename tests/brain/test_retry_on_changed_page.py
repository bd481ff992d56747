"""A change of the app's data may turn a page the feature went through into another state (My loans,
once reminders are on, says so above the loans): the feature's elements tried there before the change are
the page's still, and are tried again on it, so that a button that stayed dead after the change is
evidence against the app."""

from __future__ import annotations

from pathlib import Path

from tests.explorer.inline_apps import Recorded, explore_inline

APP = """
app: {name: CityLib, package: com.example.loans, launch: home}
variables: {reminders: false, renewed: false}
screens:
  - id: home
    activity: .HomeActivity
    title: CityLib
    up: false
    elements:
      - {id: tv_loans, text: My loans, on_tap: [{go: loans}]}
      - {id: tv_settings, text: Settings, on_tap: [{go: settings}]}
  - id: loans
    activity: .LoansActivity
    title: My loans
    elements:
      - {text: Reminders are on, when: reminders}
      - {id: row_loan_1, text: The Hobbit · Due 2026-12-04, on_tap: [{go: loan}]}
      - {id: row_loan_2, text: Sapiens · Due 2026-12-09, on_tap: [{go: loan}]}
  - id: loan
    activity: .LoanActivity
    title: Loan
    elements:
      - {text: Due 2026-12-04, when: not renewed}
      - {text: Due 2026-12-18, when: renewed}
      - {class: Button, id: btn_renew, text: Renew loan, on_tap: [{set: {renewed: true}}]}
  - id: settings
    activity: .SettingsActivity
    title: Settings
    elements:
      - {class: Switch, id: sw_reminders, text: Due date reminders, var: reminders}
"""
# Renew loan does nothing, whatever the settings.
DEAD_RENEW = APP.replace(
    "{class: Button, id: btn_renew, text: Renew loan, on_tap: [{set: {renewed: true}}]}",
    "{class: Button, id: btn_renew, text: Renew loan}",
)
# Renew loan works only once reminders are on: what it did before the change says nothing.
RENEW_AFTER_REMINDERS = APP.replace(
    "on_tap: [{set: {renewed: true}}]}", "on_tap: [{when: reminders, set: {renewed: true}}]}"
)
SPEC = """
app: {name: CityLib, package: com.example.loans, virtual: app.yaml}
features:
  - name: renew a loan
    goal: in My loans, open the loan of The Hobbit and renew it; its due date moves to 2026-12-18
    max_steps: 40
    done_when:
      - visible: Due 2026-12-18
"""


def explored(tmp_path: Path, app: str) -> tuple[str, str, list[tuple[str, str]]]:
    sink = Recorded()
    result = explore_inline(tmp_path, app, SPEC, sinks=[sink])
    return result.verdict.value, result.reason, [(s.title, s.action or "") for s in sink.steps]


def test_a_button_dead_before_and_after_the_change_fails_the_feature(tmp_path: Path) -> None:
    verdict, reason, steps = explored(tmp_path, DEAD_RENEW)
    renews = [n for n, step in enumerate(steps) if step == ("Loan", "tap [2] Renew loan")]
    toggled = steps.index(("Settings", "tap [2] Due date reminders"))
    assert renews[0] < toggled < renews[-1], steps  # tried again on the loans page the change made
    assert verdict == "failed", reason
    assert "Renew loan" in reason, reason


def test_a_button_that_works_after_the_change_passes(tmp_path: Path) -> None:
    verdict, reason, steps = explored(tmp_path, RENEW_AFTER_REMINDERS)
    assert verdict == "passed", (reason, steps)
