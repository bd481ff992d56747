"""Where the terminal says an item is: its spec's path relative to the folder pytest was started in,
without `..` chains.

pytest shows a node id relative to the invocation folder by joining the rootdir and the id's path and
walking from one folder to the other without normalising: a spec outside the rootdir, run from a third
folder, reads `../project/../specs/test_x.yaml::feature` in its FAILED line and under `-v`. pytest has no
hook for those lines; `Config.cwd_relative_nodeid` is the one place they are made, so this module wraps
it, for spec files only, and only where the shorter path names the very same file (a symlinked folder on
the way keeps pytest's path). It takes a str (pytest 8) or a `NodeId` with a `path` (pytest 9); the
contract test in tests/plugin/test_node_ids_and_failure_lines.py runs pytest's own short summary.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SPEC_SUFFIXES = (".yaml", ".yml")


def shown_path(config: pytest.Config, path: str) -> str:
    """`path` (relative to the rootdir) relative to where pytest was started, normalised."""
    try:
        return Path(os.path.relpath(config.rootpath / path, config.invocation_params.dir)).as_posix()
    except ValueError:  # another drive (Windows)
        return (config.rootpath / path).as_posix()


def shown_nodeid(config: pytest.Config, nodeid: str) -> str:
    """A node id as the terminal shows it: `<shown path>::<feature>`."""
    path, sep, rest = nodeid.partition("::")
    return f"{shown_path(config, path)}{sep}{rest}"


def install(config: pytest.Config) -> None:
    """Wrap `config.cwd_relative_nodeid` so that spec items' lines read `../specs/x.yaml::f`."""
    original: Callable[[Any], Any] = config.cwd_relative_nodeid

    def cwd_relative_nodeid(nodeid: Any) -> Any:
        shown = original(nodeid)
        path = shown if isinstance(shown, str) else getattr(shown, "path", None)
        if not isinstance(path, str):
            return shown
        file, sep, rest = path.partition("::")
        if ".." not in Path(file).parts or not file.endswith(SPEC_SUFFIXES):
            return shown
        invoked = config.invocation_params.dir
        shorter = os.path.relpath(invoked / file, invoked)
        if shorter == file or not _same_file(invoked / file, invoked / shorter):
            return shown
        cleaner = Path(shorter).as_posix() + sep + rest
        return cleaner if isinstance(shown, str) else dataclasses.replace(shown, path=cleaner)

    config.cwd_relative_nodeid = cwd_relative_nodeid  # type: ignore[method-assign]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
