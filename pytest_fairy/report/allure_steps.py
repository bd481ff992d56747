"""The one place pytest_fairy drives allure-pytest's steps through allure_commons' internals.

`allure.step()` takes no parameters and cannot hold an attachment written later, so a step of an
exploration is opened and closed through the hooks it wraps (`plugin_manager.hook.start_step` /
`stop_step`, which take `params`), and a screenshot encoded off the loop is added to the open step's
attachment list in allure-pytest's reporter (the `allure_logger` of its listener, found among
allure_commons' plugins) before its file is written. Checked on allure-pytest 2.16;
tests/report/test_allure_contract.py is the contract, and fails on an upgrade that changes these.
"""

from __future__ import annotations

from typing import Any

from allure_commons import plugin_manager
from allure_commons.model2 import Attachment as AllureAttachment
from allure_commons.reporter import AllureReporter
from allure_commons.utils import uuid4

__all__ = ["AllureAttachment", "close_step", "new_attachment", "open_step", "step_attachments"]


def open_step(title: str, params: dict[str, str]) -> str:
    """Open a step titled `title`, its parameters shown inside it; its uuid."""
    uuid = uuid4()
    plugin_manager.hook.start_step(uuid=uuid, title=title, params=params)
    return uuid


def close_step(uuid: str, title: str, failure: BaseException | None) -> None:
    """Close the step `uuid`, failed by `failure` if any."""
    plugin_manager.hook.stop_step(
        uuid=uuid,
        title=title,
        exc_type=type(failure) if failure is not None else None,
        exc_val=failure,
        exc_tb=None,
    )


def step_attachments(uuid: str) -> list[AllureAttachment] | None:
    """The attachment list of allure-pytest's open step `uuid`; None when allure-pytest is not reporting."""
    for plugin in plugin_manager.get_plugins():
        reporter: Any = getattr(plugin, "allure_logger", None)
        if isinstance(reporter, AllureReporter):
            item = reporter.get_item(uuid)
            if item is not None and hasattr(item, "attachments"):
                return item.attachments  # type: ignore[no-any-return]
    return None


def new_attachment(name: str, mime: str, extension: str) -> AllureAttachment:
    """An attachment entry whose file (its `source`, in the results folder) is written by the caller."""
    return AllureAttachment(source=f"{uuid4()}-attachment.{extension}", name=name, type=mime)
