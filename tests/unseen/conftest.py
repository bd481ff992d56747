"""The unseen apps: keep their spec files out of directory runs.

`pytest tests/unseen` runs only the Python walkthroughs; a spec runs when it is named on the command
line (`pytest tests/unseen/todo_tasks/test_todo_tasks.yaml`, or a node id inside it).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def _named_on_command_line(path: Path, config) -> bool:
    for arg in config.args:
        named = Path(str(arg).split("::", 1)[0])
        if not named.is_absolute():
            named = Path(config.invocation_params.dir) / named
        if named.resolve() == path:
            return True
    return False


def pytest_ignore_collect(collection_path: Path, config):
    path = Path(collection_path).resolve()
    spec = path.is_file() and path.name.startswith("test_") and path.suffix in (".yaml", ".yml")
    if spec and HERE in path.parents and not _named_on_command_line(path, config):
        return True
    return None
