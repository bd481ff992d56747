"""App models are refused, one `file:line` each, for bounds that are inverted or off the model's screen
and for bytes that are not UTF-8 - never with a traceback, in the loader and in a pytest run."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairy_virtual import AppModelError, load_app_model, parse_app_model

MODEL = """\
app:
  package: com.example.t
  name: T
  launch: home
device:
  size: [720, 1280]
screens:
  - id: home
    activity: .HomeActivity
    elements:
      - text: a
        bounds: {bounds}
dialogs:
  - id: sheet
    elements:
      - text: b
        bounds: {dialog}
"""  # the screen element's bounds are on line 12, the dialog element's on line 17

INSIDE = "[0, 0, 720, 1280]"


def problems_of(bounds: str = INSIDE, dialog: str = INSIDE) -> list[str]:
    with pytest.raises(AppModelError) as caught:
        parse_app_model(MODEL.format(bounds=bounds, dialog=dialog), "m.yaml")
    return caught.value.problems


def test_bounds_on_the_screen_up_to_its_edges_are_accepted() -> None:
    model = parse_app_model(MODEL.format(bounds="[10, 20, 700, 1280]", dialog=INSIDE), "m.yaml")
    assert model.screens[0].elements[0].bounds == (10, 20, 700, 1280)
    assert parse_app_model(MODEL.format(bounds="[0, 0, 0, 0]", dialog=INSIDE), "m.yaml")


@pytest.mark.parametrize("bounds", ["[500, 20, 400, 100]", "[10, 300, 100, 200]"])
def test_inverted_bounds_are_refused_at_their_line(bounds: str) -> None:
    (problem,) = problems_of(bounds)
    assert problem.startswith("m.yaml:12: screens.0.elements.0.bounds: ")
    assert "inverted" in problem and bounds.replace(" ", "") in problem.replace(" ", "")


@pytest.mark.parametrize(
    "bounds", ["[0, 1200, 720, 1300]", "[-10, 0, 100, 100]", "[700, 0, 1080, 100]", "[0, -5, 10, 10]"]
)
def test_bounds_off_the_models_screen_are_refused_at_their_line(bounds: str) -> None:
    (problem,) = problems_of(bounds)
    assert problem.startswith("m.yaml:12: screens.0.elements.0.bounds: ")
    assert "outside the 720x1280 screen (`device.size`)" in problem


def test_dialog_elements_are_held_to_the_screen_too() -> None:
    (problem,) = problems_of(dialog="[0, 0, 1080, 2400]")
    assert problem.startswith("m.yaml:17: dialogs.0.elements.0.bounds: ") and "outside" in problem


def test_a_file_that_is_not_utf8_is_one_line_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "app.yaml"
    path.write_bytes("app:\n  name: 麦当劳\n".encode("gbk"))
    with pytest.raises(AppModelError) as caught:
        load_app_model(tmp_path)
    assert caught.value.problems == [f"{path}:2: not UTF-8 (byte 0xc2 at column 9); save the file as UTF-8"]
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_the_column_counts_characters_not_bytes(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_bytes("app:\n  package: x\n  name: 麦当".encode() + b"\xff")
    with pytest.raises(AppModelError) as caught:
        load_app_model(path)
    (problem,) = caught.value.problems
    assert problem == f"{path}:3: not UTF-8 (byte 0xff at column 11); save the file as UTF-8"


def test_a_utf8_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "app.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + MODEL.format(bounds=INSIDE, dialog=INSIDE).encode("utf-8"))
    assert load_app_model(path).app.name == "T"
    path.write_bytes(b"\xef\xbb\xbfapp: \xff\n")  # the mark is no column an editor shows
    with pytest.raises(AppModelError, match=r"app.yaml:1: not UTF-8 \(byte 0xff at column 6\)"):
        load_app_model(path)


SPEC = "app:\n  name: x\n  package: com.x\n  virtual: {model}\nfeatures:\n  - name: a\n    goal: b\n"


def test_broken_app_models_fail_their_own_specs_collection_with_one_line(pytester: pytest.Pytester) -> None:
    (pytester.path / "gbk").mkdir()
    (pytester.path / "gbk" / "app.yaml").write_bytes("app:\n  name: 麦当劳\n".encode("gbk"))
    (pytester.path / "wide").mkdir()
    (pytester.path / "wide" / "app.yaml").write_text(
        MODEL.format(bounds="[0, 0, 1080, 100]", dialog=INSIDE), encoding="utf-8"
    )
    (pytester.path / "test_gbk.yaml").write_text(SPEC.format(model="gbk/app.yaml"), encoding="utf-8")
    (pytester.path / "test_wide.yaml").write_text(SPEC.format(model="wide/app.yaml"), encoding="utf-8")
    result = pytester.runpytest("--continue-on-collection-errors", "-p", "no:cacheprovider")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines_random(
        [
            "*test_gbk.yaml: app.virtual: invalid app model*",
            "*gbk/app.yaml:2: not UTF-8 (byte 0xc2 at column 9); save the file as UTF-8",
            "*test_wide.yaml: app.virtual: invalid app model*",
            "*wide/app.yaml:12: screens.0.elements.0.bounds: bounds * lie outside the 720x1280 screen*",
        ]
    )
    assert "Traceback" not in result.stdout.str() and "UnicodeDecodeError" not in result.stdout.str()
