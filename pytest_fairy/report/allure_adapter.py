"""The one place pytest_fairy reaches past allure-pytest's public API: its steps, and the files it writes.

**Steps, through allure_commons' internals.** `allure.step()` takes no parameters and cannot hold an
attachment written later, so a step of an exploration is opened and closed through the hooks it wraps
(`plugin_manager.hook.start_step` / `stop_step`, which take `params`), and a screenshot encoded off the loop
is added to the open step's attachment list in allure-pytest's reporter (the `allure_logger` of its
listener, found among allure_commons' plugins) before its file is written. A step is written once, when
its outcome is known; the step a failed verdict names is only known when the exploration ends, so its
status is set then on the step the reporter keeps (`fail_step`), as allure-pytest's own `stop_step`
would have set it. A retried item's earlier try is closed as its listener closes a test (`close_test`:
the listener's `_cache` of node ids to result uuids), so each try is a result of its own.

**Files, tidied once the session is over**, so an item's page says each thing once:
- Since pytest 9.1 every fixture carries a finalizer of pytest's own that allure-pytest wraps but pytest
  never calls through the wrapper: each fixture gets an after-entry `fairy_device::<lambda>` with no
  status, shown as *unknown* (an allure-pytest bug, unfixed in 2.16). Those entries go.
- pytest_fairy's own fixtures (`fairy_config`, `fairy_device`, ..., and pytest's `pytestconfig` they
  use) are set-up and tear-down entries of every item, shown before its first step: plumbing, not the
  app's test. Those that passed go; one that failed stays, it says why the item could not run.
- The `host` and `thread` labels name the CI runner's container and a thread id: no use to a reader of
  an app's test report (the environment section names the devices). They go.
- A failed item's message was `pytest_fairy.plugin.outcomes.AppDefect: app crashed: ...` and its trace
  began with the same text again: the message is now the verdict, its reason and the step to read
  (`app defect: app crashed: ...` / `(seen after step 21: see the report step ...)`), the trace where the
  feature is and the evidence.
- Allure 3 shows a failed item's error at the top of its page and again in its timeline: inside the
  step whose message is the item's (the error in its context, the step's own message not shown), else
  after the last step, on its own. The step that showed the defect is given the item's message and trace,
  so the second showing is where the defect happened (allure3's web-awesome `bodyItems.ts`) and the
  step's own wording of the same reason goes.
Files are rewritten atomically; a file that cannot be read as allure-pytest's JSON is left as it is.

Checked on allure-pytest 2.16; tests/report/test_allure_contract.py is the contract of the internals and
fails on an upgrade that changes them, tests/report/test_allure_tidy.py that of the files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from allure_commons import plugin_manager
from allure_commons.model2 import Attachment as AllureAttachment
from allure_commons.reporter import AllureReporter
from allure_commons.utils import uuid4
from allure_pytest.utils import get_status, get_status_details

from pytest_fairy.report.atomic import write_json

__all__ = [
    "AllureAttachment",
    "close_step",
    "close_test",
    "fail_step",
    "new_attachment",
    "open_step",
    "step_attachments",
    "step_result",
    "tidy",
]


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


def close_test(nodeid: str) -> None:
    """Write and forget allure-pytest's result of the test `nodeid` now, as its listener does when pytest
    says the test is over (`pytest_runtest_logfinish`): the next run of the same item (a retry) starts a
    result of its own, with the same history id. Nothing when allure-pytest is not reporting."""
    for plugin in plugin_manager.get_plugins():
        cache, reporter = getattr(plugin, "_cache", None), getattr(plugin, "allure_logger", None)
        if isinstance(reporter, AllureReporter) and cache is not None:
            uuid = cache.pop(nodeid)
            if uuid:
                reporter.close_test(uuid)


def step_result(uuid: str) -> Any | None:
    """allure-pytest's record of the open step `uuid`, which stays in its test's steps once closed; None
    when allure-pytest is not reporting."""
    for plugin in plugin_manager.get_plugins():
        reporter: Any = getattr(plugin, "allure_logger", None)
        if isinstance(reporter, AllureReporter):
            item = reporter.get_item(uuid)
            if item is not None and hasattr(item, "attachments"):
                return item
    return None


def step_attachments(step: Any | None) -> list[AllureAttachment] | None:
    """The attachment list of allure-pytest's record of a step (`step_result`); None without one."""
    return None if step is None else step.attachments  # type: ignore[no-any-return]


def fail_step(step: Any, failure: BaseException) -> None:
    """Mark a closed step (`step_result`) as showing `failure`, as closing it with the failure would have."""
    step.status = get_status(failure)
    step.statusDetails = get_status_details(type(failure), failure, None)


def new_attachment(name: str, mime: str, extension: str) -> AllureAttachment:
    """An attachment entry whose file (its `source`, in the results folder) is written by the caller."""
    return AllureAttachment(source=f"{uuid4()}-attachment.{extension}", name=name, type=mime)


DROPPED_LABELS = frozenset({"host", "thread"})
# Where the plugin's verdict exceptions live: their class path prefixes allure-pytest's message.
OUTCOME_MODULE = "pytest_fairy.plugin.outcomes."
# A feature item's failure text (plugin/items.py) begins with its verdict; its pointers to the report's
# steps begin so.
VERDICT_WORDS = ("app defect: ", "inconclusive: ")
OWN_FIXTURE_PREFIX = "fairy_"
PYTEST_FIXTURES_USED = frozenset({"pytestconfig"})  # by pytest_fairy's fixtures
POINTERS = ("(seen after step ", "(the run ended after step ")


def tidy(results: Path) -> int:
    """Tidy every result and container file in `results`; how many files were rewritten."""
    changed = 0
    for path in sorted(results.glob("*-container.json")):
        changed += _rewrite(path, _tidy_container)
    for path in sorted(results.glob("*-result.json")):
        changed += _rewrite(path, _tidy_result)
    return changed


def _rewrite(path: Path, tidy_one: Any) -> int:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    if not isinstance(data, dict) or not tidy_one(data):
        return 0
    write_json(path, data)
    return 1


def _tidy_container(container: dict[str, Any]) -> bool:
    changed = False
    for part in ("befores", "afters"):
        entries = container.get(part)
        if isinstance(entries, list):
            kept = [e for e in entries if not _phantom(e) and not _plumbing(e)]
            changed = changed or len(kept) != len(entries)
            container[part] = kept
    return changed


def _plumbing(entry: Any) -> bool:
    """A set-up or tear-down of pytest_fairy's own fixtures (`fairy_device`, `fairy_device::1`) that
    passed and holds nothing to read."""
    if not isinstance(entry, dict) or entry.get("status") != "passed":
        return False
    fixture = str(entry.get("name", "")).split("::", 1)[0]
    plumbing = fixture.startswith(OWN_FIXTURE_PREFIX) or fixture in PYTEST_FIXTURES_USED
    return plumbing and not entry.get("steps") and not entry.get("attachments")


def _phantom(after: Any) -> bool:
    """pytest's own finalizer, wrapped and never closed: `<fixture>::<lambda>` without a status."""
    return (
        isinstance(after, dict)
        and str(after.get("name", "")).endswith("::<lambda>")
        and "status" not in after
    )


def _tidy_result(result: dict[str, Any]) -> bool:
    changed = False
    labels = result.get("labels")
    if isinstance(labels, list):
        kept = [
            label for label in labels if not (isinstance(label, dict) and label.get("name") in DROPPED_LABELS)
        ]
        changed = len(kept) != len(labels)
        result["labels"] = kept
    details = result.get("statusDetails")
    if not isinstance(details, dict) or not str(details.get("message", "")).startswith(OUTCOME_MODULE):
        return changed
    lines = str(details.get("trace", "")).splitlines()
    if not lines or not lines[0].startswith(VERDICT_WORDS):
        return changed  # a plain test's traceback: allure-pytest's own text stays
    # The message: the verdict and its reason, and the step the report should be read at; the trace: where
    # the feature is and the evidence, each once.
    said = [lines[0], *(line for line in lines[1:] if line.startswith(POINTERS))]
    details["message"] = "\n".join(said)
    details["trace"] = "\n".join(line for line in lines[1:] if not line.startswith(POINTERS))
    failing = _failing_step(result)
    if failing is not None:
        failing["statusDetails"] = {"message": details["message"], "trace": details["trace"]}
    return True


def _failing_step(result: dict[str, Any]) -> dict[str, Any] | None:
    """The last top-level step that failed: the exploration step that showed the app defect."""
    steps = result.get("steps")
    failed = (
        [s for s in steps if isinstance(s, dict) and s.get("status") == "failed"]
        if isinstance(steps, list)
        else []
    )
    return failed[-1] if failed else None
