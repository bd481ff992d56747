"""SIGTERM ends a run as Ctrl-C does.

CI systems send SIGTERM on a timeout or a cancel, and by default it kills the process at once: no JUnit,
no result for the item under way, its device lease left for other hosts to wait out. While the plugin is
configured, SIGTERM raises KeyboardInterrupt in the main thread instead, so pytest ends the run as
interrupted, as on Ctrl-C: the session finishes and its reports and JUnit are written.
A handler that someone else installed is left as it is.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType


class TermAsInterrupt:
    def __init__(self) -> None:
        self.installed = False

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signal handlers can only be set from the main thread
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return
        signal.signal(signal.SIGTERM, _interrupt)
        self.installed = True

    def uninstall(self) -> None:
        if self.installed and signal.getsignal(signal.SIGTERM) is _interrupt:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        self.installed = False


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt("SIGTERM: the run was asked to stop")
