"""The plugin as a user meets it: collection, options, verdicts, reports. Run with pytester."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_fairy.plugin.options import read_config
from tests.specs import CHECK_FOR_UPDATES, DELIVERY_TIME, FOOD_APP_BLOCK, NOTES_APP_BLOCK, UNREACHABLE

ROOT = Path(__file__).resolve().parents[2]
APPS = ROOT / "example_suites"


def write(pytester: pytest.Pytester, name: str, text: str) -> Path:
    path = pytester.path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


FOOD_SPEC = (
    FOOD_APP_BLOCK
    + DELIVERY_TIME
    + """\
    tags: [smoke]
  - name: coupons
    goal: 优惠券：订阅领券提醒
    allow: [purchase]
    done_when:
      - visible: 已订阅领券提醒
"""
)

NOTES_DEFECT = NOTES_APP_BLOCK + CHECK_FOR_UPDATES + UNREACHABLE


def test_features_become_items_named_after_the_spec(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["test_food.yaml::delivery time", "test_food.yaml::coupons"])


def test_passing_suite_with_header_and_summary(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest()
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "fairy: device virtual (in-process); brain offline (no ANTHROPIC_API_KEY set); model -; artifacts *",
            "*fairy exploration summary*",
            "test_food.yaml::coupons: passed: * steps, * states, * transitions, 0 loops escaped, *s",
        ]
    )


def test_tags_are_markers(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest("-m", "smoke")
    result.assert_outcomes(passed=1, deselected=1)


def test_verbose_prints_a_line_per_step(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest("-v", "-k", "delivery")
    result.stdout.fnmatch_lines(["    step 1: tap [[]*] * -> state_*", "    step 2: *"])


def test_defect_fails_and_budget_is_broken_not_green(suite: pytest.Pytester) -> None:
    write(suite, "test_notes.yaml", NOTES_DEFECT)
    result = suite.runpytest("--junitxml=junit.xml")
    assert result.parseoutcomes() == {"failed": 1, "inconclusive": 1}
    result.stdout.fnmatch_lines(
        [
            "app defect: app crashed: java.lang.NullPointerException*",
            "at test_notes.yaml:6, feature 'check for updates'",
            "*FATAL EXCEPTION: main*",
            "inconclusive: step budget of 2 spent*",
            "at test_notes.yaml:10, feature 'unreachable'",
        ]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    junit = (suite.path / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<failure") == 1 and junit.count("<error") == 1, "inconclusive is not a failure"
    assert 'name="fairy" value="failed: ' in junit


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "app:\n  name: x\n  package: com.x\nfeatures:\n  - name: a\n    goal: b\n    done_whn: []\n",
            "test_bad.yaml:7: unknown key 'done_whn' in feature 'a' (did you mean 'done_when'?)",
        ),
        ("app:\n  name: x\n  package: com.x\nfeatures:\n  - name: a\n", "test_bad.yaml:5: *goal*"),
        ("app: [\n", "test_bad.yaml:*: YAML syntax error*"),
        ("", "test_bad.yaml:1: *empty*"),
        (
            "app:\n  name: x\n  package: com.x\n  virtual: nowhere.yaml\nfeatures:\n  - name: a\n    goal: b\n",
            "test_bad.yaml:4: *nowhere.yaml*",
        ),
        (
            "app:\n  name: x\n  package: com.x\nfeatures:\n  - name: a\n    goal: b\n  - name: a\n    goal: c\n",
            "test_bad.yaml:7: *duplicate*",
        ),
    ],
    ids=["unknown-key", "missing-goal", "yaml-syntax", "empty", "missing-app-model", "duplicate-feature"],
)
def test_broken_spec_is_a_one_line_collection_error(suite: pytest.Pytester, text: str, expected: str) -> None:
    write(suite, "test_bad.yaml", text)
    result = suite.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*ERROR collecting test_bad.yaml*", f"*{expected}"])
    result.stdout.no_fnmatch_line("*Traceback*")
    result.stdout.no_fnmatch_line("*pydantic*")


def test_not_utf8_spec(suite: pytest.Pytester) -> None:
    (suite.path / "test_bad.yaml").write_bytes("app:\n  name: 麦当劳\n".encode("gbk"))
    result = suite.runpytest()
    result.stdout.fnmatch_lines(["*test_bad.yaml:*UTF-8*"])


def test_broken_spec_fails_alone_with_continue_on_collection_errors(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "test_bad.yaml", "app: {name: x, package: com.x}\nfeatures: []\n")
    result = suite.runpytest("--continue-on-collection-errors", "-k", "coupons")
    result.assert_outcomes(passed=1, errors=1)


def test_broken_app_model_is_the_specs_collection_error(suite: pytest.Pytester) -> None:
    write(
        suite,
        "bad/app.yaml",
        "app:\n  package: com.x\n  name: x\n  launch: home\nscreens:\n  - id: home\n    colour: red\n",
    )
    write(
        suite,
        "test_x.yaml",
        "app:\n  name: x\n  package: com.x\n  virtual: bad/app.yaml\nfeatures:\n  - name: a\n    goal: b\n",
    )
    result = suite.runpytest()
    result.stdout.fnmatch_lines(["*test_x.yaml: app.virtual: invalid app model*", "*bad/app.yaml:7:*"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--fairy-brain", "gpt"],
            "*--fairy-brain gpt: expected one of offline, claude, replay",
        ),
        (["--fairy-brain", "claude"], "*--fairy-brain claude needs an API key: set ANTHROPIC_API_KEY*"),
        (
            ["--fairy-device", "emulator-5554", "--fairy-adb", "127.0.0.1:1"],
            "*--fairy-device emulator-5554: no adb server answers at 127.0.0.1:1*",
        ),
        (["--fairy-max-steps", "0"], "*--fairy-max-steps 0: expected a whole number, at least 1*"),
        (["--fairy-confirm", "-1"], "*--fairy-confirm -1: expected a whole number, 0 or more"),
    ],
)
def test_bad_options_are_usage_errors(
    suite: pytest.Pytester, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])


def test_confirm_option_sets_the_replays_of_a_defect(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    config = suite.parseconfig("--fairy-confirm", "3")
    assert read_config(config).explorer.confirm == 3
    suite.makeini("[pytest]\nfairy_confirm = 0\n")
    assert read_config(suite.parseconfig()).explorer.confirm == 0
    assert read_config(suite.parseconfig("--fairy-confirm", "2")).explorer.confirm == 2  # the option wins


def test_max_steps_option_overrides_the_spec(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    result = suite.runpytest("--fairy-max-steps", "1", "-k", "delivery")
    assert result.parseoutcomes() == {"inconclusive": 1, "deselected": 1}
    result.stdout.fnmatch_lines(["*inconclusive: step budget of 1 spent*"])


def test_session_store_keeps_every_step(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    suite.runpytest("-k", "delivery").assert_outcomes(passed=1)
    sessions = suite.path / ".fairy" / "sessions"
    index = [json.loads(line) for line in (sessions / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(index) == 1 and index[0]["brain"] == "offline"
    (item,) = [p for p in (sessions / index[0]["session"]).iterdir() if p.is_dir()]
    steps = [json.loads(line) for line in (item / "steps.jsonl").read_text(encoding="utf-8").splitlines()]
    assert steps and all((item / s["screenshot"]).read_bytes().startswith(b"RIFF") for s in steps)
    result = json.loads((item / "result.json").read_text(encoding="utf-8"))
    assert result["verdict"] == "passed" and result["steps"] == len(steps)
    assert (
        json.loads((item / "tree.json").read_text(encoding="utf-8"))["schema"] == "pytest_fairy.feature_tree"
    )
    assert (item / "tree.png").read_bytes().startswith(b"\x89PNG")
    assert (item / "final.webp").read_bytes().startswith(b"RIFF")


def test_allure_results_hold_a_step_with_a_screenshot_per_exploration_step(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "test_notes.yaml", NOTES_DEFECT)
    ran = suite.runpytest("--alluredir", "allure-results")
    assert ran.parseoutcomes() == {"passed": 2, "failed": 1, "inconclusive": 1}
    results = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in (suite.path / "allure-results").glob("*-result.json")
    ]
    by_name = {r["name"]: r for r in results}
    assert {by_name[n]["status"] for n in ("delivery time", "coupons")} == {"passed"}
    assert by_name["check for updates"]["status"] == "failed"
    finals = [
        a
        for a in by_name["check for updates"]["attachments"]
        if a["name"].startswith("final screen (failed)")
    ]
    assert len(finals) == 1 and "apperrordialog" in finals[0]["name"]
    assert by_name["unreachable"]["status"] == "broken", "inconclusive must never look like a plain failure"
    delivery = by_name["delivery time"]
    labels = {(label["name"], label["value"]) for label in delivery["labels"]}
    assert {("epic", "麦当劳"), ("story", "delivery time"), ("tag", "smoke")} <= labels
    assert delivery["steps"] and all(step["name"][0].isdigit() for step in delivery["steps"])
    for step in delivery["steps"]:
        pngs = [a for a in step["attachments"] if a["type"] == "image/webp"]
        assert len(pngs) == 1 and (suite.path / "allure-results" / pngs[0]["source"]).stat().st_size > 2_000
    names = {a["name"] for a in delivery["attachments"]}
    assert {"feature tree", "feature tree (json)", "summary"} <= names


def test_xdist_two_workers(suite: pytest.Pytester) -> None:
    write(suite, "test_food.yaml", FOOD_SPEC)
    write(suite, "test_notes.yaml", NOTES_DEFECT)
    result = suite.runpytest_subprocess("-n", "2", "-p", "xdist")
    assert result.parseoutcomes() == {"passed": 2, "failed": 1, "inconclusive": 1}
    result.stdout.fnmatch_lines(["*fairy exploration summary*", "*test_food.yaml::coupons: passed*"])
    sessions = [p for p in (suite.path / ".fairy" / "sessions").iterdir() if p.is_dir()]
    assert len(sessions) == 1, "both workers write into the controller's session"
    assert len([p for p in sessions[0].iterdir() if p.is_dir()]) == 4


def test_fixtures_serve_plain_python_tests_and_hooks(suite: pytest.Pytester) -> None:
    suite.makeconftest(
        """
        from pathlib import Path
        import pytest
        from pytest_fairy.brain.scripted import ScriptedBrain

        STEPS = []

        @pytest.fixture
        def fairy_app_model():
            return Path(__file__).parent / "notes" / "app.yaml"

        @pytest.fixture
        def fairy_brain():
            return ScriptedBrain(["type 用户名 = qa", "type 密码 = secret", "tap 登录"])

        def pytest_fairy_step(item, record):
            STEPS.append(record.action)

        def pytest_fairy_finished(item, result):
            item.user_properties.append(("hooked", str(len(STEPS))))
        """
    )
    suite.makepyfile(
        """
        from pytest_fairy.explore.target import Target

        def test_login(fairy_explorer, fairy_device):
            result = fairy_explorer.explore(Target(app_name="随手记", package="com.example.notes",
                                                   feature="login", goal="log in"))
            assert result.verdict == "passed", result.reason
            assert result.steps == 3
            assert fairy_device.current_app().activity.endswith("MainActivity")
        """
    )
    suite.runpytest().assert_outcomes(passed=1)


def test_settle_time_is_zero_on_the_virtual_device_and_configurable(suite: pytest.Pytester) -> None:
    suite.makepyfile(
        """
        def test_settle(fairy_config, request):
            assert fairy_config.explorer.settle_seconds == float(request.config.getoption("--settle"))
        """
    )
    suite.makeconftest('def pytest_addoption(parser):\n    parser.addoption("--settle")\n')
    suite.runpytest("--settle", "0").assert_outcomes(passed=1)
    suite.runpytest("--settle", "0.25", "-o", "fairy_settle_seconds=0.25").assert_outcomes(passed=1)
    result = suite.runpytest("--settle", "0", "-o", "fairy_settle_seconds=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*fairy_settle_seconds: expected seconds, 0 or more*"])
