"""`python -m pytest_fairy.report.allure_merge -o OUT RESULTS...`: the Allure results of several runs of one
suite (the shards of a CI job, each on its own runner) in one folder, for one report.

A run's `--alluredir` holds uuid-named result, container and attachment files, which never collide across
runs, and one `environment.properties` that every run writes under that name (allure_environment.py).
Copied into one folder, the last one copied wins: the other runs' devices, apps and sessions are gone from
the report's Metadata. Allure 3 given several folders (`allure generate a b`) keeps only the last one's
too. Here the files are copied and the environments merged as the processes of one run merge theirs:
each key lists every run's values, each once.

An item belongs to one run: an Allure history id (one feature item) with results in two of the folders
means the shards overlapped (runners that split with different durations files), and the merge stops,
naming the items, rather than show one run's result as a retry of the other's. Retries within one run
(`--fairy-retries`) stay. A file found in several folders (a copy of one folder, the environment's lock
file) is copied once when its bytes are the same everywhere, and stops the merge when they differ.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from pytest_fairy.errors import FairyError, UsageError
from pytest_fairy.report.allure_environment import AllureEnvironment, read_properties, write_properties
from pytest_fairy.report.atomic import write_text

RESULT_SUFFIX = "-result.json"
VALUES_SEPARATOR = ", "  # between the values of one key, as AllureEnvironment writes them


def merge_results(sources: Sequence[Path], target: Path) -> int:
    """Copy the results of `sources` into `target` (new or empty), their environments merged; the number
    of result files copied. A UsageError, before anything is written, when the folders cannot be merged."""
    if target.is_dir() and any(target.iterdir()):
        raise UsageError(f"{target} is not empty: merge into a new folder")
    files: dict[str, Path] = {}
    environments: list[Path] = []
    for source in sources:
        if not source.is_dir():
            raise UsageError(f"{source}: no such folder")
        for path in sorted(source.iterdir()):
            if path.name == AllureEnvironment.FILE:
                environments.append(path)
            elif path.name not in files:
                files[path.name] = path
            elif path.read_bytes() != files[path.name].read_bytes():
                raise UsageError(f"{path.name} differs between {files[path.name].parent} and {source}")
    _refuse_overlap(files)
    target.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        shutil.copy2(path, target / name)
    write_text(target / AllureEnvironment.FILE, write_properties(merged_environment(environments)))
    return sum(name.endswith(RESULT_SUFFIX) for name in files)


def merged_environment(files: Sequence[Path]) -> dict[str, str]:
    """The keys of every `environment.properties` in `files`, each with the values of all, in order, once."""
    merged: dict[str, list[str]] = {}
    for path in files:
        for key, value in read_properties(path).items():
            known = merged.setdefault(key, [])
            for one in value.split(VALUES_SEPARATOR):
                if one not in known:
                    known.append(one)
    return {key: VALUES_SEPARATOR.join(values) for key, values in merged.items()}


def _refuse_overlap(files: dict[str, Path]) -> None:
    """An item's results in two runs' folders (each file once: a copy of one is the same result)."""
    runs: dict[str, dict[Path, str]] = {}  # history id -> the folders with its results -> its name
    for name, path in files.items():
        if name.endswith(RESULT_SUFFIX):
            result = json.loads(path.read_text(encoding="utf-8"))
            runs.setdefault(result["historyId"], {})[path.parent] = result["fullName"]
    twice = sorted(
        f"{next(iter(found.values()))} ({', '.join(str(folder) for folder in found)})"
        for found in runs.values()
        if len(found) > 1
    )
    if twice:
        raise UsageError(
            f"{len(twice)} items have results in more than one folder: the runs overlapped (shards must "
            f"split with the same durations file): {'; '.join(twice)}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_fairy.report.allure_merge",
        description="Merge the Allure results folders of several runs (shards) into one, environments "
        "merged, every item once. Example: python -m pytest_fairy.report.allure_merge -o allure-results "
        "shard-1/allure-results shard-2/allure-results",
    )
    parser.add_argument("results", nargs="+", type=Path, help="the runs' --alluredir folders")
    parser.add_argument("-o", "--output", required=True, type=Path, help="the folder to write: new or empty")
    args = parser.parse_args(argv)
    try:
        count = merge_results(args.results, args.output)
    except FairyError as exc:
        print(f"allure_merge: {exc}", file=sys.stderr)
        return 1
    print(f"{args.output}: {count} results from {len(args.results)} folders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
