"""The atomic writer (pytest_fairy.report.atomic) on its own: whole files or none, whole lines or none,
and an OSError said as an ArtifactError naming the file."""

from __future__ import annotations

import errno
import os
import pickle
from pathlib import Path

import pytest

from pytest_fairy.errors import ArtifactError
from pytest_fairy.report import atomic


@pytest.fixture
def full(monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that takes half of a write, then is full."""

    def half(handle: int, data: bytes) -> None:
        os.write(handle, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_put", half)


def test_a_file_is_written_whole(tmp_path: Path) -> None:
    atomic.write_json(tmp_path / "a.json", {"步": 1})
    atomic.append_line(tmp_path / "s.jsonl", "{}")
    atomic.append_line(tmp_path / "s.jsonl", "[]")
    assert (tmp_path / "a.json").read_text(encoding="utf-8") == '{\n  "步": 1\n}'
    assert (tmp_path / "s.jsonl").read_text(encoding="utf-8") == "{}\n[]\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "s.jsonl"]


def test_a_failed_write_leaves_the_old_file_or_none(tmp_path: Path, full: None) -> None:
    (tmp_path / "old.json").write_text("{}", encoding="utf-8")
    for name in ("old.json", "new.json"):
        with pytest.raises(ArtifactError) as raised:
            atomic.write_json(tmp_path / name, {"x": "y" * 1000})
        assert (
            raised.value.as_reason()
            == f"artifacts: could not write {tmp_path / name}: No space left on device"
        )
    assert [p.name for p in tmp_path.iterdir()] == ["old.json"]
    assert (tmp_path / "old.json").read_text(encoding="utf-8") == "{}"


def test_a_failed_append_leaves_no_half_line_and_no_empty_file(tmp_path: Path, full: None) -> None:
    (tmp_path / "old.jsonl").write_text("{}\n", encoding="utf-8")
    for name in ("old.jsonl", "new.jsonl"):
        with pytest.raises(ArtifactError):
            atomic.append_line(tmp_path / name, '{"step": 2}')
    assert [p.name for p in tmp_path.iterdir()] == ["old.jsonl"]
    assert (tmp_path / "old.jsonl").read_text(encoding="utf-8") == "{}\n"


def test_a_folder_that_cannot_be_made_is_an_artifact_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(ArtifactError, match="could not write .*file/sub: "):
        atomic.make_folder(tmp_path / "file" / "sub")
    with pytest.raises(ArtifactError, match="Not a directory"):
        atomic.check_writable(tmp_path / "file" / "sub")
    atomic.check_writable(tmp_path / "not" / "yet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_error_travels_between_processes() -> None:
    error = pickle.loads(pickle.dumps(ArtifactError(Path("/a/b.json"), "Read-only file system")))
    assert (error.path, error.reason, str(error)) == (
        "/a/b.json",
        "Read-only file system",
        "could not write /a/b.json: Read-only file system",
    )


def test_after_a_failed_write_an_items_store_keeps_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The explorer ends the item on the first failure; a step told after that (the last action's, from
    the loop's cleanup) is neither written nor raised, so the item ends on the first reason."""
    from pytest_fairy.explore.decisions import Plan
    from pytest_fairy.explore.record import StepRecord
    from pytest_fairy.explore.screenshot import StepScreenshot
    from pytest_fairy.explore.target import Target
    from pytest_fairy.report.store import ItemStore

    store = ItemStore(tmp_path / "item")
    store.start(Target(app_name="a", package="p", feature="f", goal="g"), Plan(root="r"))
    record = StepRecord(
        step=1,
        state="s",
        title="t",
        screen_text="",
        action="back",
        reasoning="",
        screenshot=StepScreenshot.ready(b"webp"),
    )
    real = atomic._put
    monkeypatch.setattr(
        atomic, "_put", lambda handle, data: (_ for _ in ()).throw(OSError(errno.EROFS, "ro"))
    )
    with pytest.raises(ArtifactError, match="steps.jsonl: ro"):  # the line first, on the loop's thread
        store.step(record)
    monkeypatch.setattr(atomic, "_put", real)  # even with room again, the late step is not kept
    store.step(record)
    assert store.failed is not None and "steps.jsonl" in str(store.failed)
    assert sorted(p.name for p in (tmp_path / "item").iterdir()) == ["target.json"]
