"""A step screenshot on disk once: the first sink writes it, the next hard-links that file.

The session store and the Allure results each need the step's screenshot under their own name; where
both folders are on one filesystem the second name is a hard link to the first file (one inode, the bytes
on disk once), else a copy. Both go through `pytest_fairy.report.atomic`: a name holds the whole picture
or nothing.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pytest_fairy.explore.screenshot import StepScreenshot
from pytest_fairy.report import atomic


def place(screenshot: StepScreenshot, path: Path) -> None:
    """Put `screenshot`'s bytes at `path`: a link to where a sink put them before, else written whole.
    Raises ArtifactError when neither works. Waits for the encoding (call it from `when_ready`)."""
    with screenshot.lock:
        first = screenshot.first_file
        if first is None or not link(first, path):
            atomic.write_bytes(path, screenshot.data())
        if first is None or not first.exists():
            screenshot.first_file = path


def link(source: Path, path: Path) -> bool:
    """Make `path` a hard link to `source`, replacing what was there; False where links cannot be made
    (another filesystem, a filesystem without them, `source` gone): the caller writes a copy."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(handle)
        os.unlink(temporary)
    except OSError:
        return False
    try:
        os.link(source, temporary)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return False
    return True
