"""--fairy-artifacts-policy and the step screenshots on disk: kept, kept for failures only, or none; and
one file for the session store and the Allure results. Run with pytester on the example apps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.specs import CHECK_FOR_UPDATES, DELIVERY_TIME, FOOD_APP_BLOCK, NOTES_APP_BLOCK

# One item that passes (food: delivery time) and one that fails (notes: the crash of "check for updates").
PASSES = FOOD_APP_BLOCK + DELIVERY_TIME
FAILS = NOTES_APP_BLOCK + CHECK_FOR_UPDATES
IMAGES = (".webp", ".png", ".jpg")


def run(suite: pytest.Pytester, *args: str) -> dict[str, Path]:
    """Both specs run with `args` and --alluredir; each item's store folder, by feature name."""
    (suite.path / "test_food.yaml").write_text(PASSES, encoding="utf-8")
    (suite.path / "test_notes.yaml").write_text(FAILS, encoding="utf-8")
    ran = suite.runpytest("-p", "no:xdist", "--alluredir", "allure-results", *args)
    assert ran.parseoutcomes() == {"passed": 1, "failed": 1}
    (session,) = [p for p in (suite.path / ".fairy" / "sessions").iterdir() if p.is_dir()]
    return {
        "passed": next(p for p in session.iterdir() if "delivery" in p.name),
        "failed": next(p for p in session.iterdir() if "check_for_updates" in p.name),
    }


def step_lines(item: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (item / "steps.jsonl").read_text(encoding="utf-8").splitlines()]


def screenshots(item: Path) -> list[str]:
    return sorted(p.name for p in item.iterdir() if p.name.startswith("step-") and p.suffix in IMAGES)


def allure_images(suite: pytest.Pytester) -> dict[str, list[dict[str, str]]]:
    """Each Allure test's image attachments (its steps' and its own), by test name."""
    found: dict[str, list[dict[str, str]]] = {}
    for path in (suite.path / "allure-results").glob("*-result.json"):
        result = json.loads(path.read_text(encoding="utf-8"))
        attachments = [a for step in result["steps"] for a in step["attachments"]] + result["attachments"]
        found[result["name"]] = [a for a in attachments if a["type"].startswith("image/")]
    return found


def test_on_keeps_every_step_screenshot_as_one_file_for_the_store_and_allure(suite: pytest.Pytester) -> None:
    items = run(suite)
    results = suite.path / "allure-results"
    for item in items.values():
        lines = step_lines(item)
        assert [line["screenshot"] for line in lines] == screenshots(item) and lines
    images = allure_images(suite)
    for name, item in (("delivery time", items["passed"]), ("check for updates", items["failed"])):
        steps = [a for a in images[name] if a["name"].startswith("step ")]
        assert len(steps) == len(screenshots(item))
        for attachment, shot in zip(steps, screenshots(item), strict=True):
            stored, attached = (item / shot).stat(), (results / attachment["source"]).stat()
            # One inode, two names: the bytes are on disk once (pytester's tmp folder is one filesystem).
            assert (stored.st_dev, stored.st_ino) == (attached.st_dev, attached.st_ino)
            assert stored.st_nlink == 2
    assert (items["failed"] / "final.webp").exists()


def test_retain_on_failure_deletes_a_passed_items_screenshots_and_keeps_a_failed_ones(
    suite: pytest.Pytester,
) -> None:
    items = run(suite, "--fairy-artifacts-policy", "retain-on-failure")
    passed, failed = items["passed"], items["failed"]
    assert screenshots(passed) == [] and not (passed / "final.webp").exists()
    assert step_lines(passed), "steps.jsonl stays"
    assert (passed / "tree.png").exists() and (passed / "result.json").exists()
    assert screenshots(failed) and [line["screenshot"] for line in step_lines(failed)] == screenshots(failed)
    assert (failed / "final.webp").exists()
    images = allure_images(suite)
    assert [a["name"] for a in images["delivery time"]] == ["feature tree", "progress over the steps"]
    assert any(a["name"].startswith("step 1 screenshot") for a in images["check for updates"])
    # No attachment file left behind for the passed item: every image file is one Allure names.
    named = {a["source"] for found in images.values() for a in found}
    on_disk = {p.name for p in (suite.path / "allure-results").iterdir() if p.suffix in IMAGES}
    assert on_disk == named


def test_off_writes_no_screenshot_but_the_steps_and_the_tree(suite: pytest.Pytester) -> None:
    suite.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfairy_artifacts_policy = off\n"
        "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    items = run(suite)
    for item in items.values():
        assert step_lines(item) and all(line["screenshot"] == "" for line in step_lines(item))
        assert sorted(p.name for p in item.iterdir() if p.suffix in IMAGES) == ["progress.png", "tree.png"]
    images = allure_images(suite)
    assert {name: [a["name"] for a in found] for name, found in images.items()} == {
        "delivery time": ["feature tree", "progress over the steps"],
        "check for updates": ["feature tree", "progress over the steps"],
    }
    assert not any(p.suffix in {".webp", ".jpg"} for p in (suite.path / "allure-results").iterdir())


@pytest.mark.parametrize(
    "args", [("--fairy-artifacts-policy", "sometimes"), ("-o", "fairy_artifacts_policy=always")]
)
def test_a_bad_policy_is_a_one_line_usage_error(suite: pytest.Pytester, args: tuple[str, ...]) -> None:
    result = suite.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    said = {
        "sometimes": "--fairy-artifacts-policy sometimes: expected one of on, retain-on-failure, off",
        "always": "ini key fairy_artifacts_policy: expected one of on, retain-on-failure, off, got 'always'",
    }
    result.stderr.fnmatch_lines([f"ERROR: {said[args[1].partition('=')[2] or args[1]]}"])
    assert "Traceback" not in result.stderr.str()
