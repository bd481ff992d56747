"""The session store's files, key by key: a record's new field reaches them only when the format says so,
and a later run reads a result of this format, of the unversioned one, and refuses any other."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.errors import FairyError
from pytest_fairy.explore.decisions import Origin, Usage
from pytest_fairy.explore.guard import VerdictKind
from pytest_fairy.explore.oracles import Finding
from pytest_fairy.explore.record import StepRecord
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.replay.regression import BaselineError, load_baseline
from pytest_fairy.report.store import SessionStore, item_folder_name, new_session_id, slug
from pytest_fairy.report.store_format import (
    SCHEMA,
    STEP_KEYS,
    VERSION,
    FormatError,
    findings_of,
    step_line,
    usage_document,
)


def test_every_field_of_a_step_record_has_its_key_in_the_steps_file() -> None:
    # A field added to StepRecord fails here until the format writes it (and says whether that is a new
    # version); the screenshot is written as its file's name.
    assert set(STEP_KEYS) == {f.name for f in fields(StepRecord)}


def test_a_step_line_writes_its_keys_in_order_with_enums_as_their_values() -> None:
    record = StepRecord(
        step=3,
        state="state_main_1",
        title="首页",
        screen_text="…",
        action="tap [2] 去结算",
        reasoning="r",
        guard=VerdictKind.WARN,
        origin=Origin.ESCAPE,
        usage=Usage(calls=1, input_tokens=10),
    )
    line = step_line(record, "step-003.webp")
    assert tuple(line) == STEP_KEYS
    assert line["guard"] == "warn" and line["origin"] == "escape" and line["screenshot"] == "step-003.webp"
    assert line["usage"] == usage_document(Usage(calls=1, input_tokens=10))
    json.dumps(line)  # plain JSON, no dataclass or enum left in it


def test_findings_are_read_from_this_version_and_from_the_unversioned_format() -> None:
    finding = {"kind": "crash", "message": "FATAL EXCEPTION: main", "evidence": "at Cart.pay"}
    expected = [Finding("crash", "FATAL EXCEPTION: main", "at Cart.pay")]
    assert findings_of({"schema": SCHEMA, "version": VERSION, "findings": [finding]}) == expected
    assert findings_of({"verdict": "failed", "findings": [finding]}) == expected


@pytest.mark.parametrize(
    "document",
    [{"schema": SCHEMA, "version": VERSION + 1, "findings": []}, {"schema": "other", "version": VERSION}],
)
def test_a_result_of_another_format_is_refused_saying_which(document: dict[str, object]) -> None:
    with pytest.raises(FormatError, match="is not a result this pytest_fairy reads") as caught:
        findings_of(document)
    assert isinstance(caught.value, FairyError)


@pytest.mark.parametrize("naming", [item_folder_name, slug], ids=["item folder", "written before digests"])
def test_a_baseline_of_another_format_is_a_clear_baseline_error(
    tmp_path: Path, naming: Callable[[str], str]
) -> None:
    """Found by the item's folder name, or by the name sessions had before folders carried a digest."""
    item = "test_food.yaml::coupons"
    folder = tmp_path / naming(item)
    folder.mkdir()
    (folder / "tree.json").write_text(FeatureTree().to_json(), "utf-8")
    (folder / "result.json").write_text(
        json.dumps({"schema": SCHEMA, "version": 99, "findings": []}), "utf-8"
    )
    with pytest.raises(BaselineError, match=r"result.json: unreadable findings: .*version 99"):
        load_baseline(tmp_path, item)


def _item(root: Path, name: str, package: str, feature: str) -> None:
    (root / name).mkdir()
    (root / name / "tree.json").write_text(FeatureTree().to_json(), "utf-8")
    target = {"schema": SCHEMA, "version": 1, "target": {"package": package, "feature": feature}}
    (root / name / "target.json").write_text(json.dumps(target), "utf-8")


def test_a_baseline_item_is_found_by_app_and_feature_only_when_one_item_ran_that_feature(
    tmp_path: Path,
) -> None:
    _item(tmp_path, "a", "com.food", "coupons")
    _item(tmp_path, "b", "com.food", "delivery")
    _item(tmp_path, "c", "com.notes", "coupons")
    found = load_baseline(
        tmp_path, "elsewhere/test_food.yaml::coupons", package="com.food", feature="coupons"
    )
    assert found is not None and found.folder == tmp_path / "a"
    assert load_baseline(tmp_path, "x.yaml::coupons", package="com.shop", feature="coupons") is None
    _item(tmp_path, "d", "com.food", "coupons")  # two specs ran it: which one is meant cannot be told
    assert load_baseline(tmp_path, "x.yaml::coupons", package="com.food", feature="coupons") is None


def _sessions(root: Path, names: list[str]) -> None:
    for name in names:
        (root / "sessions" / name / "item-1a2b3c4d").mkdir(parents=True)


def test_the_store_keeps_the_newest_sessions_this_ones_included(tmp_path: Path) -> None:
    names = [f"20261126_1000{n:02d}_000000" for n in range(6)]
    _sessions(tmp_path, names)
    store = SessionStore(tmp_path, "20261126_120000_000000")
    removed = store.prune(3)
    assert sorted(p.name for p in removed) == names[:4]
    assert sorted(p.name for p in (tmp_path / "sessions").iterdir()) == names[4:]
    assert store.prune(0) == [] and SessionStore(tmp_path / "none", "x").prune(3) == []


@given(
    st.integers(1_700_000_000, 1_900_000_000), st.lists(st.integers(0, 2 * 10**9), min_size=2, max_size=20)
)
def test_session_ids_sort_by_name_as_they_were_made(second: int, offsets: list[int]) -> None:
    """Also within one second: two runs started a moment apart."""
    ids = [new_session_id(second * 10**9 + offset) for offset in sorted(offsets)]
    assert ids == sorted(ids)


def test_pruning_never_removes_the_baseline_being_compared_against(tmp_path: Path) -> None:
    names = [f"20261126_1000{n:02d}_000000" for n in range(4)]
    _sessions(tmp_path, names)
    baseline = tmp_path / "sessions" / names[0] / "item-1a2b3c4d"  # an item folder inside the oldest
    SessionStore(tmp_path, "20261126_120000_000000").prune(1, spare=baseline)
    assert sorted(p.name for p in (tmp_path / "sessions").iterdir()) == [names[0]]
