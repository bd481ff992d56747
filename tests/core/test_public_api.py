"""The public face: `from pytest_fairy import ...` gives every name users need, cheaply, and the docs use it."""

from __future__ import annotations

import ast
import importlib
import itertools
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import pytest_fairy

ROOT = Path(__file__).resolve().parents[2]
OPTIONS_DOC = ROOT / "docs" / "options.md"
PUBLIC_NAMES = [name for name in pytest_fairy.__all__ if name != "__version__"]


@pytest.mark.parametrize("name", PUBLIC_NAMES)
def test_every_public_name_is_the_object_of_its_home_module(name: str) -> None:
    value = getattr(pytest_fairy, name)
    home = importlib.import_module(value.__module__)
    assert getattr(home, name) is value, (
        f"pytest_fairy.{name} is not {value.__module__}.{name}: point _HOMES and the TYPE_CHECKING import "
        "in pytest_fairy/__init__.py at the module that defines it"
    )


def test_the_lazy_table_and_the_type_checking_imports_agree() -> None:
    """mypy and IDEs read the TYPE_CHECKING imports, users get the lazy table, linters and `import *` read
    __all__: all three must say the same."""
    tree = ast.parse(Path(pytest_fairy.__file__).read_text(encoding="utf-8"))
    checked = {
        alias.asname or alias.name: node.module
        for block in tree.body
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert checked == pytest_fairy._HOMES, (
        "pytest_fairy/__init__.py: a name was added to, moved in or removed from one of _HOMES and the "
        "`if TYPE_CHECKING:` imports but not the other"
    )
    assert sorted(PUBLIC_NAMES) == sorted(pytest_fairy._HOMES), (
        "pytest_fairy/__init__.py: __all__ and _HOMES name different things: list each public name in both"
    )


def test_dir_lists_the_public_names_and_unknown_names_fail_as_usual() -> None:
    assert set(pytest_fairy.__all__) <= set(dir(pytest_fairy))
    assert pytest_fairy.__version__
    with pytest.raises(AttributeError, match="no attribute 'Explorr'"):
        getattr(pytest_fairy, "Explorr")  # noqa: B009
    assert not hasattr(pytest_fairy, "explorer"), "modules are not part of the public face"


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    shown = f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", shown], check=True, capture_output=True, text=True).stdout
    return set(out.split())


def test_importing_pytest_fairy_imports_nothing_else_of_it() -> None:
    loaded = _loaded_after("import pytest_fairy")
    assert sorted(m for m in loaded if m.startswith("pytest_fairy")) == ["pytest_fairy"]
    loaded = _loaded_after("import pytest_fairy.errors")
    ours = sorted(m for m in loaded if m.startswith("pytest_fairy"))
    assert ours == ["pytest_fairy", "pytest_fairy.errors"], (
        "the error tree must stay importable by every layer without dragging the others in"
    )


def test_offline_names_do_not_import_the_anthropic_sdk() -> None:
    """The SDK takes seconds to import: offline runs never pay for it, nor does configuring Claude."""
    offline = [name for name in PUBLIC_NAMES if name != "ClaudeBrain"]
    loaded = _loaded_after(f"from pytest_fairy import {', '.join(offline)}")
    assert "anthropic" not in loaded
    assert "pytest_fairy.brain.claude" not in loaded


def _python_blocks(markdown: str) -> list[str]:
    return [textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", markdown, re.DOTALL)]


def test_the_options_doc_imports_from_the_public_face_only() -> None:
    for block in _python_blocks(OPTIONS_DOC.read_text(encoding="utf-8")):
        inner = re.findall(r"(?:from|import) (pytest_fairy\.\S+)", block)
        assert not inner, f"docs/options.md imports {inner}: use `from pytest_fairy import ...`"


def test_the_options_doc_examples_run_on_the_virtual_device(pytester: pytest.Pytester) -> None:
    """The plain Python test of docs/options.md, with its hooks example as the conftest, passes as written."""
    blocks = _python_blocks(OPTIONS_DOC.read_text(encoding="utf-8"))
    plain = next(b for b in blocks if "def test_" in b)
    conftest = next(b for b in blocks if b.startswith("# conftest.py"))
    (pytester.path / "apps" / "notes").mkdir(parents=True)
    shutil.copy(ROOT / "example_suites" / "notes" / "app.yaml", pytester.path / "apps" / "notes" / "app.yaml")
    pytester.makeini(
        "[pytest]\nfairy_artifacts = .fairy\nfilterwarnings = ignore::pytest.PytestAssertRewriteWarning\n"
    )
    pytester.makeconftest(conftest)
    pytester.makepyfile(test_login=plain)
    pytester.runpytest().assert_outcomes(passed=1)


def test_the_package_docstring_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = pytest_fairy.__doc__ or ""
    lines = doc.split("::\n", 1)[1].splitlines()
    indented = itertools.takewhile(lambda line: not line or line.startswith("    "), lines)
    example = textwrap.dedent("\n".join(indented))
    assert "from pytest_fairy import" in example
    monkeypatch.chdir(ROOT)  # the example names example_suites/ relative to the repository
    exec(compile(example, "pytest_fairy.__doc__", "exec"), {})
    verdict = capsys.readouterr().out.split()[0]
    assert verdict in {"passed", "failed", "inconclusive"}
