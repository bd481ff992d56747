"""The report as a QA engineer sees it: real Allure 3 HTML from a real run, served on 127.0.0.1 and opened
in headless Chromium (Debian's, driven by Playwright). A screenshot of the page is kept as an artifact in
the test's tmp folder and copied to `.fairy/report-check.png`.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.report.conftest import REPO, AllureRun, ReportTools

GENERATE_SECONDS = 180
# Chromium on a machine without internet: no background fetches, no sandbox (root), no GPU.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGE_TIMEOUT_MS = 20_000
# A Set-of-Mark screenshot is a phone screen (1080 wide on the virtual device); a broken or missing
# image decodes to 0 (or a small placeholder icon).
MIN_SCREENSHOT_WIDTH = 500
MIN_TREE_WIDTH = 300
ARTIFACT = REPO / ".fairy" / "report-check.png"


@pytest.fixture(scope="module")
def report_url(
    report_tools: ReportTools, allure_run: AllureRun, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    report = tmp_path_factory.mktemp("allure-report") / "report"
    generated = subprocess.run(
        [str(report_tools.allure), "generate", str(allure_run.results), "-o", str(report)],
        cwd=report.parent, capture_output=True, text=True, timeout=GENERATE_SECONDS, check=False,
    )  # fmt: skip
    assert generated.returncode == 0 and (report / "index.html").exists(), generated.stdout + generated.stderr

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    # The multi-file report fetches its data: it has to be served over HTTP (file:// keeps spinning).
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(report))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


def test_a_failed_item_shows_its_steps_screenshots_and_feature_tree_in_chromium(
    report_tools: ReportTools, report_url: str, allure_run: AllureRun, tmp_path: Path
) -> None:
    from playwright.sync_api import Locator, expect, sync_playwright

    failed = allure_run.by_name()["check for updates"]
    last_step = len([s for s in failed["steps"] if re.match(r"\d+\. ", s["name"])])
    assert last_step > 3

    def expand(step: Locator, inside: Locator) -> None:
        """Open a collapsed step; the first click can land before the page has wired its handlers."""
        arrow = step.get_by_test_id("test-result-step-arrow-button").first
        for _ in range(5):
            arrow.click()
            try:
                inside.wait_for(timeout=2000)
                return
            except Exception:  # noqa: BLE001 - playwright's TimeoutError: click again
                continue
        inside.wait_for()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(report_tools.chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page.set_default_timeout(PAGE_TIMEOUT_MS)
            page.goto(report_url)

            # The Environment (Allure 3: "Metadata") section, from environment.properties.
            keys = page.get_by_test_id("metadata-item-key")
            expect(keys.filter(has_text="device")).to_have_count(1)
            expect(keys.filter(has_text="android")).to_have_count(1)

            page.get_by_test_id("tree-leaf-title").filter(has_text=re.compile(r"^check for updates$")).click()
            titles = page.get_by_test_id("test-result-step-title")
            # Step 1 types the login: the item starts from a fresh app (reset: data).
            expect(titles.filter(has_text=re.compile(r"^1\. (tap|type) "))).to_have_count(1)
            shown = [t for t in titles.all_inner_texts() if re.match(r"\d+\. ", t)]
            assert len(shown) == last_step, shown
            reason = failed["statusDetails"]["message"].splitlines()[0]
            assert reason.startswith("app defect: app crashed: ")

            # The failing step: red, titled as the failure message says, with its screenshot.
            title = titles.filter(has_text=re.compile(rf"^{last_step}\. ")).first
            step = title.locator("xpath=ancestor::*[@data-testid='test-result-step'][1]")
            expect(step.get_by_test_id("tree-leaf-status-failed").first).to_be_visible()
            assert title.inner_text() in failed["statusDetails"]["message"]
            header = step.get_by_test_id("test-result-attachment-header").filter(
                has_text=f"step {last_step} screenshot"
            )
            expand(step, header)
            # The reason leads the item's error, without the exception's class path (it was said three
            # times: the message, the trace, the step's own). Allure 3 shows an item's error again in
            # its timeline: in the step that showed the defect, not after the attachments on its own.
            body = page.locator("body").inner_text()
            assert body.count(reason[:60]) == 2, body
            assert step.inner_text().count(reason[:60]) == 1, step.inner_text()
            assert "pytest_fairy.plugin.outcomes" not in body and "AssertionError" not in body
            header.click()
            screenshot = step.locator("img").first
            expect(screenshot).to_be_visible()
            size = screenshot.evaluate("img => img.decode().then(() => [img.naturalWidth, img.width])")
            assert size[0] >= MIN_SCREENSHOT_WIDTH, f"step screenshot not decoded: {size}"
            step.scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, 0)")
            title.evaluate("el => el.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(tmp_path / "report-check.png"))

            # The feature tree attachment opens as a picture.
            tree = page.get_by_test_id("test-result-attachment-header").filter(
                has_text=re.compile(r"^\s*\d*\s*feature tree\s*image/png")
            )
            tree.click()
            picture = tree.locator("xpath=..").locator("img").first
            expect(picture).to_be_visible()
            width = picture.evaluate("img => img.decode().then(() => img.naturalWidth)")
            assert width >= MIN_TREE_WIDTH
            picture.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / "report-tree.png"))
        finally:
            browser.close()
    ARTIFACT.parent.mkdir(exist_ok=True)
    shutil.copyfile(tmp_path / "report-check.png", ARTIFACT)
    shutil.copyfile(tmp_path / "report-tree.png", ARTIFACT.with_name("report-tree.png"))


def test_the_shipped_allurerc_groups_the_tree_by_app_then_feature(
    report_tools: ReportTools, allure_run: AllureRun, tmp_path: Path
) -> None:
    shutil.copy(REPO / "allurerc.mjs", tmp_path / "allurerc.mjs")
    generated = subprocess.run(
        [str(report_tools.allure), "generate", str(allure_run.results), "-o", "report"],
        cwd=tmp_path, capture_output=True, text=True, timeout=GENERATE_SECONDS, check=False,
    )  # fmt: skip
    assert generated.returncode == 0, generated.stdout + generated.stderr
    tree = json.loads((tmp_path / "report" / "widgets" / "tree.json").read_text(encoding="utf-8"))
    groups = tree["groupsById"]
    apps = {groups[g]["name"]: groups[g] for g in tree["root"]["groups"]}
    assert set(apps) == {"随手记"}, apps  # the run holds example_suites/notes and example_defects
    features = {groups[g]["name"] for g in apps["随手记"]["groups"]}
    assert {"login", "search", "check for updates", "backup"} <= features, features
