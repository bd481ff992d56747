"""Tidying what allure-pytest writes, once the session is over, so an item's page says each thing once.

- Since pytest 9.1 every fixture carries a finalizer of pytest's own that allure-pytest wraps but pytest
  never calls through the wrapper: each fixture gets an after-entry `fairy_device::<lambda>` with no
  status, shown as *unknown* (allure-python issue #918, unfixed in 2.16). Those entries go.
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
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_fairy.report.atomic import write_json

DROPPED_LABELS = frozenset({"host", "thread"})
# Where the plugin's verdict exceptions live: their class path prefixes allure-pytest's message.
OUTCOME_MODULE = "pytest_fairy.plugin.outcomes."
# A feature item's failure text (plugin/items.py) begins with its verdict; its pointers to the report's
# steps begin so.
VERDICT_WORDS = ("app defect: ", "inconclusive: ")
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
    afters = container.get("afters")
    if not isinstance(afters, list):
        return False
    kept = [a for a in afters if not _phantom(a)]
    container["afters"] = kept
    return len(kept) != len(afters)


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
