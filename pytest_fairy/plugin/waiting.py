"""A line for the person at the terminal while an item waits for a busy device, as it happens.

`waiting for emulator-5554, held by pid 18844 on ci-7 (gw0) (3 waiting)`: written past pytest's output
capture (which would hold it until the item ends). In a plain run it goes through the terminal reporter;
an xdist worker's stdout goes nowhere (execnet keeps it for itself), so a worker writes to its stderr,
which xdist leaves attached to the terminal, with the worker's id in front.
"""

from __future__ import annotations

import contextlib
import sys

import pytest


class WaitingLine:
    """The pool's `say`: one line to the user's terminal, from the controller or from a worker."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        workerinput = getattr(config, "workerinput", None)
        self.worker: str = workerinput.get("workerid", "") if workerinput else ""

    def __call__(self, line: str) -> None:
        # Looked up now: the reporter and the capture are registered after this plugin's configure.
        plugins = self.config.pluginmanager
        capture = plugins.get_plugin("capturemanager")
        reporter = plugins.get_plugin("terminalreporter")
        released = capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext()
        with released:
            if reporter is not None and not self.worker:
                reporter.write_line(line)
                reporter.flush()  # now, also when the terminal is a pipe (CI logs)
                return
            prefix = f"[{self.worker}] " if self.worker else ""
            sys.stderr.write(f"{prefix}{line}\n")
            sys.stderr.flush()
