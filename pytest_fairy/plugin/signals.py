"""SIGTERM ends a run as Ctrl-C does.

CI systems send SIGTERM on a timeout or a cancel, and by default it kills the process at once: no JUnit,
no result for the item under way, its device lease left for other hosts to wait out. While the plugin is
configured, SIGTERM raises KeyboardInterrupt in the main thread instead: the item under way ends
inconclusive, saying it was interrupted, and pytest ends the run as interrupted, its reports written.

Under xdist the controller runs no item: a SIGTERM to it stops the scheduling of further items and is
passed on to the workers (`xdist_workers.py`), each of which ends its item as above; the controller then
ends the run with their reports. A second SIGTERM stops the controller at once. A handler that someone
else installed is left as it is.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType

STOP = "SIGTERM: the run was asked to stop"


class TermAsInterrupt:
    """`pass_on`: stops the run's other processes' scheduling and signals them (True), or finds none to
    (False: this process is the one to interrupt)."""

    def __init__(self, pass_on: Callable[[], bool] | None = None) -> None:
        self.installed = False
        self.pass_on = pass_on
        self._passed_on = False

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signal handlers can only be set from the main thread
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return
        signal.signal(signal.SIGTERM, self._on_term)
        self.installed = True

    def uninstall(self) -> None:
        if self.installed and signal.getsignal(signal.SIGTERM) == self._on_term:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        self.installed = False

    def _on_term(self, signum: int, frame: FrameType | None) -> None:
        if self._passed_on or self.pass_on is None or not self.pass_on():
            raise KeyboardInterrupt(STOP)
        self._passed_on = True
