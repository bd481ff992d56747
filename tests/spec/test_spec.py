"""The spec loader: a valid file round-trips into the models; every kind of broken file gives one
`path:line: reason` that points at the offending key, item or feature."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_fairy.explore.briefing import mission_of
from pytest_fairy.spec.loader import load_spec
from pytest_fairy.spec.model import (
    DEFAULT_COST_USD,
    DEFAULT_MAX_STEPS,
    DEFAULT_WALL_SECONDS,
    Defaults,
    Feature,
    Oracle,
    OracleKind,
    Spec,
    SpecBudget,
    SpecError,
)

VALID = """\
app:
  name: 麦当劳
  package: com.mcdonalds.gma.cn
  description: fast-food ordering app
  launch_activity: .MainActivity
  virtual: models/mcd.yaml
defaults:
  max_steps: 30
  budget: {tokens: 200000, cost_usd: 1.0, wall_seconds: 600}
  forbid: [payment, delete_account]
risky_words:
  payment: [结账]
  share: [分享到]
features:
  - name: delivery ordering
    goal: "麦乐送点餐功能: browse the menu, choose a product, add it to the cart"
    start: home screen
    sub_features: [menu browsing, product options, delivery time]
    max_steps: 40
    budget: {cost_usd: 2.5}
    done_when:
      - visible: 购物车
      - activity: .CartActivity
      - state: cart
      - checked: 预约送餐
    must_not:
      - crash
      - anr
      - visible: 网络异常
      - text_matches: "Exception|错误码"
      - logcat_matches: "E/Network"
    allow: [payment]
    tags: [smoke, ordering]
  - name: coupons
    goal: look at the coupons
    forbid: [share]
"""


def write(tmp_path: Path, text: str, name: str = "shop.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path: Path) -> SpecError:
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    return caught.value


@pytest.fixture
def valid(tmp_path: Path) -> Path:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "mcd.yaml").write_text("screens: {}\n", encoding="utf-8")
    return write(tmp_path, VALID)


def test_valid_spec_round_trips(valid: Path) -> None:
    spec = load_spec(valid)
    assert spec.path == valid
    assert spec.app.name == "麦当劳" and spec.app.package == "com.mcdonalds.gma.cn"
    assert spec.app.launch_activity == ".MainActivity"
    assert spec.app.virtual == (valid.parent / "models" / "mcd.yaml").resolve()
    assert spec.risky_words == {"payment": ("结账",), "share": ("分享到",)}
    ordering, coupons = spec.features
    assert (ordering.name, ordering.line, ordering.path) == ("delivery ordering", 15, valid)
    assert (coupons.name, coupons.line) == ("coupons", 34)
    assert ordering.sub_features == ("menu browsing", "product options", "delivery time")
    assert [str(o) for o in ordering.done_when] == [
        "visible: 购物车",
        "activity: .CartActivity",
        "state: cart",
        "checked: 预约送餐",
    ]
    assert [o.kind for o in ordering.must_not] == [
        OracleKind.CRASH,
        OracleKind.ANR,
        OracleKind.VISIBLE,
        OracleKind.TEXT_MATCHES,
        OracleKind.LOGCAT_MATCHES,
    ]
    assert ordering.tags == ("smoke", "ordering")
    assert spec.feature("coupons") is coupons


def test_features_inherit_defaults_and_may_override(valid: Path) -> None:
    ordering, coupons = load_spec(valid).features
    own = ordering.effective()
    assert own.max_steps == 40
    assert own.budget == SpecBudget(tokens=200000, cost_usd=2.5, wall_seconds=600.0)
    # The feature's own allow lifts the inherited forbid of payment; delete_account stays forbidden.
    assert own.allow == {"payment"} and own.forbid == {"delete_account"}
    inherited = coupons.effective()
    assert inherited.max_steps == 30
    assert inherited.budget == SpecBudget(tokens=200000, cost_usd=1.0, wall_seconds=600.0)
    # A feature's forbid replaces nothing it does not name: the defaults' forbid list still applies.
    assert inherited.allow == frozenset() and inherited.forbid == {"payment", "delete_account", "share"}


def test_inputs_are_text_by_field_the_features_over_the_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL_HEAD
        + textwrap.dedent("""\
        defaults:
          inputs: {Email: qa@example.com, Quantity: 2}
        features:
          - name: x
            goal: g
            inputs:
              Quantity: 12
              Coupon: ${COUPON}
              Note: ''
        """),
    )
    spec = load_spec(path)
    assert spec.features[0].effective().inputs == (
        ("Email", "qa@example.com"),
        ("Quantity", "12"),
        ("Coupon", "${COUPON}"),
        ("Note", ""),
    )
    assert spec.secrets == ("COUPON",)


def test_defaults_must_not_joins_each_features_own(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL_HEAD
        + textwrap.dedent("""\
        defaults:
          must_not: [crash, {text_matches: '(?i)error \\d+'}]
        features:
          - name: x
            goal: g
            must_not: [anr, crash]
        """),
    )
    spec = load_spec(path)
    (feature,) = spec.features
    assert [str(o) for o in feature.effective().must_not] == ["anr", "crash", r"text_matches: (?i)error \d+"]
    assert mission_of(spec, feature).must_not == feature.effective().must_not


def test_builtin_defaults_without_a_defaults_section(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        app: {name: Shop, package: com.example.shop}
        features:
          - {name: browse, goal: look around, budget: {tokens: 5000}}
        """,
    )
    spec = load_spec(path)
    assert spec.defaults == Defaults()
    settings_ = spec.features[0].effective()
    assert settings_.max_steps == DEFAULT_MAX_STEPS
    builtin = SpecBudget(tokens=5000, cost_usd=DEFAULT_COST_USD, wall_seconds=DEFAULT_WALL_SECONDS)
    assert settings_.budget == builtin
    assert settings_.allow == frozenset() and settings_.forbid == frozenset()


def test_feature_forbid_drops_an_inherited_allow(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        app: {name: Shop, package: com.example.shop}
        defaults: {allow: [send, logout]}
        features:
          - {name: chat, goal: chat, forbid: [send]}
        """,
    )
    settings_ = load_spec(path).features[0].effective()
    assert settings_.allow == {"logout"} and settings_.forbid == {"send"}


def test_models_build_in_code_too() -> None:
    feature = Feature.model_validate(
        {"name": "f", "goal": "g", "done_when": [{"visible": "购物车"}], "must_not": ["crash"]}
    )
    assert feature.done_when == (Oracle(kind=OracleKind.VISIBLE, value="购物车"),)
    assert feature.must_not == (Oracle(kind=OracleKind.CRASH),)
    assert feature.line == 0 and feature.effective().max_steps == DEFAULT_MAX_STEPS
    spec = Spec.model_validate({"app": {"name": "A", "package": "a.b"}, "features": [feature]})
    with pytest.raises(KeyError, match="no feature 'nope'"):
        spec.feature("nope")


MINIMAL_HEAD = """\
app:
  name: Shop
  package: com.example.shop
"""

# (file text, expected line, expected reason)
BROKEN = {
    "yaml syntax": (
        MINIMAL_HEAD + "features:\n  - name: a\n    goal: [unclosed\n",
        7,
        "YAML syntax error: while parsing a flow sequence: expected ',' or ']', but got '<stream end>'",
    ),
    "bad indentation": (
        MINIMAL_HEAD + "features:\n  - name: a\n   goal: b\n",
        6,
        "YAML syntax error: bad indentation: 'goal' starts in column 4, which lines up with none of the keys "
        "above it (columns 1 and 5); keys of one mapping start in the same column, indented with spaces",
    ),
    "value with colon space": (
        MINIMAL_HEAD + "features:\n  - name: x\n    start: home\n    goal: open Settings: Dark mode\n",
        7,
        "YAML syntax error: the value of 'goal' contains ': ', which YAML reads as the start of another key; "
        'put the value in quotes: goal: "open Settings: Dark mode"',
    ),
    "indented more than the line above": (
        MINIMAL_HEAD + "features:\n  - name: a\n    goal: b\n    start: s\n      done_when: [x]\n",
        8,
        "YAML syntax error: bad indentation: 'done_when' is indented more than the line above it (line 7), so "
        "YAML reads it as part of that line's value; indent it like the keys it belongs with",
    ),
    "tab in the indentation": (
        MINIMAL_HEAD + "features:\n  - name: a\n\tgoal: b\n",
        6,
        "YAML syntax error: a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)",
    ),
    "empty file": ("", 1, "empty spec: expected a mapping with 'app' and 'features'"),
    "only comments": ("# nothing yet\n\n", 1, "empty spec: expected a mapping with 'app' and 'features'"),
    "top level is a list": (
        "\n- app\n- features\n",
        2,
        "the top level must be a mapping with 'app' and 'features', got a list",
    ),
    "top level is text": (
        "hello\n",
        1,
        "the top level must be a mapping with 'app' and 'features', got text 'hello'",
    ),
    "unknown key in a feature": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    done_whn:\n      - visible: a\n",
        7,
        "unknown key 'done_whn' in feature 'x' (did you mean 'done_when'?)",
    ),
    "unknown key at top level": (
        MINIMAL_HEAD + "featurs:\n  - name: x\n    goal: g\n",
        4,
        "unknown key 'featurs' at top level (did you mean 'features'?)",
    ),
    "unknown key, nothing close": (
        MINIMAL_HEAD + "  colour: red\nfeatures:\n  - {name: x, goal: g}\n",
        4,
        "unknown key 'colour' in app",
    ),
    "unknown key in a feature's budget": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    budget:\n      token: 5\n",
        8,
        "unknown key 'token' in budget of feature 'x' (did you mean 'tokens'?)",
    ),
    "wrong type: text for an integer": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    max_steps: many\n",
        7,
        "wrong type for 'max_steps' in feature 'x': expected an integer, got text 'many'",
    ),
    "wrong type: number for text": (
        MINIMAL_HEAD + "features:\n  - name: 2024\n    goal: g\n",
        5,
        "wrong type for 'name' in feature 1: expected text, got the number 2024 (put it in quotes)",
    ),
    "wrong type: mapping for a list": (
        MINIMAL_HEAD + "features:\n  name: x\n  goal: g\n",
        4,
        "wrong type for 'features' at top level: expected a list, got a mapping",
    ),
    "wrong type: text for a feature": (
        MINIMAL_HEAD + "features:\n  - {name: x, goal: g}\n  - just text\n",
        6,
        "wrong type for item 2 in features: expected a mapping, got text 'just text'",
    ),
    "not positive": (
        MINIMAL_HEAD + "defaults:\n  max_steps: 0\nfeatures:\n  - {name: x, goal: g}\n",
        5,
        "'max_steps' in defaults must be greater than 0, got the number 0",
    ),
    "missing goal": (
        MINIMAL_HEAD + "features:\n  - name: x\n    start: home\n",
        5,
        "missing required key 'goal' in feature 'x'",
    ),
    "missing app.package": (
        "app:\n  name: Shop\nfeatures:\n  - {name: x, goal: g}\n",
        1,
        "missing required key 'package' in app",
    ),
    "missing features": (MINIMAL_HEAD, 1, "missing required key 'features' at top level"),
    "empty features": (
        MINIMAL_HEAD + "features: []\n",
        4,
        "'features' at top level must not be empty, got a list",
    ),
    "empty goal": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: ''\n",
        6,
        "'goal' in feature 'x' must not be empty, got text ''",
    ),
    "bad package": (
        "app:\n  name: Shop\n  package: shop\nfeatures:\n  - {name: x, goal: g}\n",
        3,
        "'shop' is not an Android package name in app (like com.example.shop)",
    ),
    "name with ::": (
        MINIMAL_HEAD + "features:\n  - name: a::b\n    goal: g\n",
        5,
        "'a::b' must be one line without '::' in feature 'a::b' (it becomes part of the pytest item id)",
    ),
    "bad tag": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    tags: [smoke test]\n",
        7,
        "tag 'smoke test' is not a valid marker name in tags of feature 'x' (letters, digits and _ only)",
    ),
    "duplicate feature names": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n  - name: y\n    goal: g\n"
        "  - name: x\n    goal: h\n",
        9,
        "duplicate feature name 'x' (first on line 5)",
    ),
    "duplicate key": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    goal: h\n",
        7,
        "duplicate key 'goal' (first on line 6)",
    ),
    "unknown oracle kind": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    done_when:\n      - visble: 购物车\n",
        8,
        "unknown oracle kind 'visble' in done_when of feature 'x' (did you mean 'visible'?)",
    ),
    "crash as a done condition": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    done_when:\n      - visible: a\n"
        "      - crash\n",
        9,
        "'crash' is not a condition for being done in done_when of feature 'x' (it belongs in must_not)",
    ),
    "two conditions in one item": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    done_when:\n      - visible: a\n"
        "        activity: .B\n",
        8,
        "one condition per done_when item, got 'visible', 'activity' in done_when of feature 'x' "
        "(give each its own '- ' line)",
    ),
    "oracle without its value": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    done_when:\n      - visible:\n",
        8,
        "'visible' needs text, got nothing in done_when of feature 'x' (write '- visible: <text>')",
    ),
    "bare kind with a value": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    must_not:\n      - anr: yes\n",
        8,
        "'anr' takes no value in must_not of feature 'x' (write '- anr')",
    ),
    "bad regex": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    must_not:\n      - crash\n"
        "      - text_matches: 'Error(code'\n",
        9,
        "bad regular expression 'Error(code' for text_matches: missing ), unterminated subpattern at "
        "position 5 in must_not of feature 'x'",
    ),
    "unknown risky category": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    allow:\n      - send\n      - paymnt\n",
        9,
        "unknown risky-action category 'paymnt' in feature 'x' (did you mean 'payment'?)",
    ),
    "unknown risky category in defaults": (
        MINIMAL_HEAD + "defaults:\n  forbid: [teleport]\nfeatures:\n  - {name: x, goal: g}\n",
        5,
        "unknown risky-action category 'teleport' in defaults (known: payment, purchase, delete, "
        "delete_account, uninstall, send, logout, call)",
    ),
    "category both allowed and forbidden": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    allow: [send]\n    forbid: [send]\n",
        8,
        "'send' is both allowed and forbidden in feature 'x'",
    ),
    "bad category name in risky_words": (
        MINIMAL_HEAD + "risky_words:\n  Share It: [分享]\nfeatures:\n  - {name: x, goal: g}\n",
        5,
        "bad category name 'Share It' in risky_words: use lower-case letters, digits and _",
    ),
    "missing app model": (
        MINIMAL_HEAD + "  virtual: models/nope.yaml\nfeatures:\n  - {name: x, goal: g}\n",
        4,
        "app model 'models/nope.yaml' not found (looked for {dir}/models/nope.yaml)",
    ),
    "key that is not text": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    3: three\n",
        7,
        "key the number 3 must be text (a name)",
    ),
    "bad date scalar": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: 2024-13-45\n",
        6,
        "bad value '2024-13-45': month must be in 1..12",
    ),
    "input that is a list": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    inputs:\n      Search: [banana, apple]\n",
        8,
        "an input is the text to type into its field, got a list in inputs of feature 'x' (like 'Search "
        "products: banana'; an empty '' leaves the field empty)",
    ),
    "inputs that are a list": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    inputs: [banana]\n",
        7,
        "wrong type for 'inputs' in feature 'x': expected a mapping, got a list",
    ),
    "unknown after": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    done_when: [{checked: Dark}]\n"
        "    after: relunch\n",
        8,
        "wrong type for 'after' in feature 'x': expected 'back_and_return' or 'relaunch', got text 'relunch'",
    ),
    "after without done_when": (
        MINIMAL_HEAD + "features:\n  - name: x\n    goal: g\n    after: relaunch\n",
        7,
        "'after' checks the done_when again, and there is none in feature 'x' (add a done_when)",
    ),
    "recursive alias": (
        MINIMAL_HEAD + "features: &f\n  - name: x\n    goal: g\n    sub_features: *f\n",
        4,
        "recursive alias: a value contains itself",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_broken_spec_points_at_the_line(tmp_path: Path, case: str) -> None:
    text, line, reason = BROKEN[case]
    path = tmp_path / "shop.yaml"
    path.write_text(text, encoding="utf-8")
    error = error_of(path)
    reason = reason.format(dir=tmp_path)
    assert (error.line, error.reason) == (line, reason)
    assert error.path == path
    first, *others = str(error).splitlines()
    assert first == f"{path}:{line}: {reason}"
    assert all(other.startswith(f"{path}:") for other in others)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(MINIMAL_HEAD.encode() + "features:\n  - {name: caf\xe9, goal: g}\n".encode("latin-1"))
    error = error_of(path)
    assert (error.line, error.reason) == (5, "not UTF-8 text (byte 0xe9 at offset 70)")


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + (MINIMAL_HEAD + "features:\n  - {name: x, goal: g}\n").encode())
    assert load_spec(path).features[0].line == 5


def test_missing_file(tmp_path: Path) -> None:
    error = error_of(tmp_path / "absent.yaml")
    assert error.line == 1 and error.reason.startswith("cannot read the spec: ")


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 9)]
    path = write(tmp_path, "\n".join(levels) + "\n")
    assert "spec too large" in error_of(path).reason


def test_first_problem_in_the_file_is_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL_HEAD
        + """\
        features:
          - name: a
            goal: g
            max_steps: -1
          - name: b
        """.replace("        ", ""),
    )
    error = error_of(path)
    assert error.line == 7
    assert error.reason == "'max_steps' in feature 'a' must be greater than 0, got the number -1"
    assert str(error).splitlines() == [
        f"{path}:7: 'max_steps' in feature 'a' must be greater than 0, got the number -1",
        f"{path}:8: missing required key 'goal' in feature 'b'",
    ]


TOKENS = [*"ab:-[]{}&*!|>#'\"\n ,?%@`\t购0.", "app", "features", "name", "goal", "\n  ", "\n    - "]
YAMLISH = st.lists(st.sampled_from(TOKENS), max_size=60).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=YAMLISH)
def test_arbitrary_text_gives_a_spec_or_a_spec_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_spec(path)
    except SpecError as error:
        assert all(line.startswith(f"{path}:") for line in str(error).splitlines())


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["crash", "visible", "payment", "com.a.b", "x::y"]),
)
KEYS = st.sampled_from(
    [
        "app",
        "name",
        "package",
        "features",
        "goal",
        "done_when",
        "must_not",
        "allow",
        "forbid",
        "budget",
        "tokens",
        "defaults",
        "virtual",
        "tags",
        "visible",
        "crash",
        "risky_words",
        "max_steps",
        "zz",
    ]
)
DOCS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=DOCS)
def test_arbitrary_structures_give_a_spec_or_a_spec_error(tmp_path: Path, doc: object) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    try:
        spec = load_spec(path)
    except SpecError as error:
        assert all(line.startswith(f"{path}:") for line in str(error).splitlines()) and error.line >= 1
    else:
        assert spec.features


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


def _mutated(doc: dict, path: tuple[object, ...], action: str, new: object) -> object:
    if not path:
        return new
    *parents, last = path
    holder: object = doc
    for part in parents:
        holder = holder[part]  # type: ignore[index]
    if action == "delete":
        del holder[last]  # type: ignore[attr-defined]
    elif action == "rename" and isinstance(holder, dict):
        holder[f"{last}x"] = holder.pop(last)
    else:
        holder[last] = new  # type: ignore[index]
    return doc


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_valid_specs_give_a_spec_or_a_spec_error(tmp_path: Path, data: st.DataObject) -> None:
    doc = yaml.safe_load(VALID.replace("  virtual: models/mcd.yaml\n", ""))
    path = data.draw(st.sampled_from(_paths(doc)))
    action = data.draw(st.sampled_from(["delete", "rename", "replace"]))
    mutant = _mutated(doc, path, action, data.draw(DOCS))
    spec_path = tmp_path / "mutant.yaml"
    spec_path.write_text(yaml.safe_dump(mutant, allow_unicode=True), encoding="utf-8")
    try:
        load_spec(spec_path)
    except SpecError as error:
        assert all(line.startswith(f"{spec_path}:") for line in str(error).splitlines()) and error.line >= 1


def test_the_documented_example_loads(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[2] / "docs" / "spec-format.md").read_text(encoding="utf-8")
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "mcd.yaml").write_text("screens: {}\n", encoding="utf-8")
    spec = load_spec(write(tmp_path, example))
    ordering, coupons = spec.features
    assert ordering.effective().allow == {"payment"} and ordering.effective().forbid == {"delete_account"}
    assert coupons.effective().forbid == {"payment", "delete_account"}
    assert spec.risky_words["share"] == ("分享到", "share to")


def test_the_readmes_spec_loads(tmp_path: Path) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    example = readme.split("## A spec", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "app.yaml").write_text("screens: {}\n", encoding="utf-8")
    spec = load_spec(write(tmp_path, example))
    search, dark = spec.features[1:]
    assert search.effective().inputs == (("搜索菜品", "麦辣鸡腿堡"),)
    assert dark.after == "relaunch"


def test_anchors_and_merge_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL_HEAD
        + """\
        x-base: &base {goal: shared goal, tags: [smoke]}
        features:
          - <<: *base
            name: a
          - <<: *base
            name: b
            goal: own goal
        """.replace("        ", ""),
    )
    first, second = load_spec(path).features
    assert (first.name, first.goal, first.tags, first.line) == ("a", "shared goal", ("smoke",), 6)
    assert (second.name, second.goal, second.tags, second.line) == ("b", "own goal", ("smoke",), 8)


def test_a_merged_mapping_met_twice_through_an_alias(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL_HEAD
        + """\
        x-base: &base {goal: shared goal}
        x-feature: &feature {<<: *base, name: a, goal: own}
        features: [*feature]
        """.replace("        ", ""),
    )
    assert load_spec(path).features[0].goal == "own"


def test_documented_error_messages_are_the_real_ones() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "spec-format.md").read_text(encoding="utf-8")
    block = doc.split("## Error messages", 1)[1].split("```", 2)[1]
    real = {(line, reason.format(dir="/suite")) for _, line, reason in BROKEN.values()}
    real.add((5, "not UTF-8 text (byte 0xe9 at offset 70)"))  # test_not_utf8_names_the_line
    documented = [
        (int(n), reason.strip())
        for _, n, reason in (line.split(":", 2) for line in block.strip().splitlines())
    ]
    assert len(documented) > 10
    assert [entry for entry in documented if entry not in real] == []
