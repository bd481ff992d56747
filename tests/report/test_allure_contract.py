"""The contract of allure_commons and allure-pytest that report/allure_adapter.py relies on (checked on
allure-pytest 2.16): the step hooks and their arguments, the reporter's open items, its place on the
listener, the attachment model, the step's status fields and how the listener fills them. On an upgrade that changes them, this fails first, naming what changed.
(tests/report's real runs check what the report then shows.)"""

from __future__ import annotations

import inspect

from allure_commons import _hooks, plugin_manager
from allure_commons.model2 import Attachment, Status
from allure_commons.model2 import TestStepResult as StepResult
from allure_commons.reporter import AllureReporter
from allure_pytest.listener import AllureListener

from pytest_fairy.report.allure_adapter import fail_step, new_attachment


def test_the_step_hooks_take_what_the_adapter_passes() -> None:
    for name, wanted in (("start_step", ("uuid", "title", "params")), ("stop_step", ("uuid", "exc_type", "exc_val"))):
        assert hasattr(plugin_manager.hook, name), f"allure_commons has no {name} hook any more"
        parameters = inspect.signature(getattr(_hooks.AllureUserHooks, name)).parameters
        missing = [p for p in wanted if p not in parameters]
        assert not missing, f"allure_commons' {name} hook no longer takes {missing}"


def test_the_reporter_is_found_on_the_listener_and_hands_out_its_open_items() -> None:
    assert "allure_logger" in inspect.getsource(AllureListener.__init__), (
        "allure-pytest's listener no longer keeps its reporter as `allure_logger`"
    )
    assert callable(getattr(AllureReporter, "get_item", None)), "AllureReporter.get_item is gone"


def test_an_attachment_entry_names_its_file_its_title_and_its_type() -> None:
    entry = new_attachment("step 3 screenshot", "image/webp", "webp")
    assert isinstance(entry, Attachment)
    assert (entry.name, entry.type) == ("step 3 screenshot", "image/webp")
    assert entry.source.endswith("-attachment.webp")


def test_a_closed_step_is_failed_as_the_listener_would_have_failed_it() -> None:
    assert "get_status(exc_val)" in inspect.getsource(AllureListener.stop_step), (
        "allure-pytest's listener no longer sets a step's status with allure_pytest.utils.get_status"
    )
    step = StepResult(name="2. tap [5] Pay", status=Status.PASSED)
    fail_step(step, AssertionError("never saw: visible: paid"))
    assert step.status == Status.FAILED
    assert step.statusDetails is not None and "never saw: visible: paid" in step.statusDetails.message
