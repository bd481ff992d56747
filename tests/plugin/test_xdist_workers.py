"""The contract of pytest-xdist that plugin/xdist_workers.py relies on (checked on pytest-xdist 3.8):
workers get a `workerinput` dict set in `pytest_configure_node`. On an upgrade that changes them, this fails first, naming what changed.
(tests/plugin/test_sigterm.py's xdist run checks what a SIGTERM then does.)"""

from __future__ import annotations

import inspect

from xdist import newhooks
from xdist.workermanage import WorkerController


def test_a_worker_is_configured_with_a_workerinput_dict() -> None:
    assert hasattr(newhooks, "pytest_configure_node"), "xdist has no pytest_configure_node hook any more"
    assert "self.workerinput" in inspect.getsource(WorkerController.__init__), "no workerinput on a node"
