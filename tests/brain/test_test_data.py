"""What the offline brain types: the spec's test data where a field is named by it, else a plausible value
of the field's kind; never the word of the field itself."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy import load_spec
from pytest_fairy.brain.candidates import Focus, best, find_candidates
from pytest_fairy.brain.field_values import text_for
from pytest_fairy.explore.action import ActionKind
from pytest_fairy.explore.briefing import target_of
from pytest_fairy.explore.target import Target, goal_inputs
from pytest_fairy.perception.screen import Mark
from tests.claude import synthetic
from tests.perception.builder import v
from tests.perception.real_screens.corpus import screen_of as screen_of_dump
from tests.screens import button, screen_of


def field(text: str = "", rid: str = "", desc: str = "") -> Mark:
    screen = screen_of(v("EditText", (40, 200, 1040, 350), text=text, rid=rid, desc=desc, clickable=True,
                         focusable=True))
    (mark,) = [m for m in screen.marks if m.node.editable]
    return mark


def target(inputs: tuple[tuple[str, str], ...] = (), done: tuple[str, ...] = (), goal: str = "g") -> Target:
    return Target(app_name="Shop", package="com.example.shop", feature="f", goal=goal, done_hints=done,
                  inputs=inputs)


def test_a_field_named_by_the_specs_input_gets_its_value() -> None:
    given_ = (("Search products", "banana"), ("Quantity", "12"))
    assert text_for(field("Search products"), target(given_)) == "banana"
    assert text_for(field("search PRODUCTS"), target(given_)) == "banana"  # case aside
    assert text_for(field(rid="et_quantity"), target((("quantity", "12"),))) == "12"  # within its id


def test_a_name_met_whole_wins_over_one_within_a_longer_name() -> None:
    given_ = (("name", "Zhang Wei"), ("user name", "zwei"))
    assert text_for(field("User name"), target(given_)) == "zwei"
    assert text_for(field("Full name"), target(given_)) == "Zhang Wei"


def test_of_names_within_a_fields_name_the_longest_wins_whatever_their_order() -> None:
    given_ = (("金额", "100"), ("新金额", "80"))
    assert text_for(field("输入新金额（留空不改）"), target(given_)) == "80"
    assert text_for(field("输入金额"), target(given_)) == "100"
    assert text_for(field("Amount to add"), target((("amount", "5"), ("Amount to", "7")))) == "7"


def test_an_empty_input_keeps_the_field_empty() -> None:
    assert text_for(field("Name"), target((("Name", ""),))) == ""


def test_without_an_input_a_field_gets_a_value_of_its_kind() -> None:
    assert text_for(field("Email address"), target()) == "qa@example.com"
    assert text_for(field("Quantity"), target()) == "2"
    assert text_for(field("数量"), target()) == "2"
    assert text_for(field("Your name"), target()) == "qa_tester"


def test_a_value_of_its_kind_is_in_the_screens_language() -> None:
    assert text_for(field("Title"), target(), chinese=False) == "Test title"
    assert text_for(field("标题"), target()) == "测试标题 test"
    assert text_for(field("Notes"), target(), chinese=False) == "Test input"
    assert fields_offered("", (), label="Notes") == ["Test input"]  # an English screen: English text
    assert fields_offered("", (), label="备注") == ["测试内容 test input"]


def test_a_search_without_an_input_types_what_the_goal_quotes_never_what_the_done_when_waits_for() -> None:
    # Typed into the field, the done-when's own text would be on screen as if the app had shown it.
    assert text_for(field("Search products"), target(goal="type 'banana' and tap Go")) == "banana"
    assert text_for(field("搜索商品"), target(goal="搜索“红烧肉”能找到结果")) == "红烧肉"
    quoted = target(goal="find 'Banana · $0.30 each'", done=("Banana · $0.30 each",))
    assert text_for(field("Search"), quoted) == "f"  # the feature's first word, not the quote
    assert text_for(field("Search"), target(goal="find oranges")) == "f"


@given(st.text(min_size=1, max_size=12).filter(str.strip), st.text(max_size=12))
def test_an_input_named_exactly_as_the_field_is_always_typed(name: str, value: str) -> None:
    assert target(((name, value),)).input_for(name) == value
    assert target(((name, value),)).input_for(f"  {name.upper()}  ") in (value, None)


def fields_offered(text: str, wanted: tuple[tuple[str, str], ...], label: str = "") -> list[str]:
    """What the offline brain would type on a page holding one field that shows `text` (or, empty, its
    hint `label`) and a Save button."""
    screen = screen_of(v("EditText", (40, 200, 1040, 350), text=text or label, rid="et_name" if not label else "",
                         clickable=True, focusable=True), button("Save", 2))
    ctx = replace(synthetic.context(1, screen=screen), target=target(wanted))
    found = find_candidates(ctx, Focus.of(ctx.target), {}, {})
    return [c.action.text or "" for c in found if c.action.kind is ActionKind.TYPE]


def test_a_field_already_holding_what_would_be_typed_is_not_typed_again() -> None:
    assert fields_offered("Name", (("Name", "Zhang Wei"),)) == ["Zhang Wei"]
    assert fields_offered("Zhang Wei", (("et_name", "Zhang Wei"),)) == []


def test_a_field_holding_more_than_the_value_is_typed_into() -> None:
    # Typing replaces what a field holds: a city field prefilled with `上海市浦东新区` is not the spec's `上海`.
    assert fields_offered("上海市浦东新区", (("et_name", "上海"),)) == ["上海"]


def test_a_field_holding_the_specs_own_data_is_not_typed_into_though_its_name_is_gone() -> None:
    # A refused sign-in keeps what was typed, and the field's hint `Username` no longer shows: the field
    # is not a new one to fill with a made-up name (`test.userqa_tester`).
    assert fields_offered("test.user", (("Username", "test.user"),)) == []
    assert fields_offered("someone", (("Username", "test.user"),)) == ["qa_tester"]


def test_a_forms_check_box_is_ticked_with_its_fields_before_the_submit() -> None:
    """`I agree to the terms` is part of filling the form, not a toggle left until every page is seen:
    a submit tried with it unticked teaches nothing."""

    def offered(checked: bool) -> list[tuple[str, bool]]:
        screen = screen_of(
            v("EditText", (40, 200, 1040, 350), text="Zhang Wei", rid="et_name", clickable=True, focusable=True),
            v("CheckBox", (40, 400, 1040, 520), text="I agree to the terms", rid="cb_agree", clickable=True,
              checkable=True, checked=checked),
            button("Submit", 3),
        )
        ctx = replace(synthetic.context(1, screen=screen), target=target((("et_name", "Zhang Wei"),)))
        found = sorted(find_candidates(ctx, Focus.of(ctx.target), {}, {}), key=lambda c: -c.score)
        return [(c.why, c.toggle) for c in found]

    first, *_ = offered(checked=False)
    assert first == ("tick 'I agree to the terms' with the form's fields", False)
    # Ticked already: unticking it is a toggle like any other, after the submit.
    assert offered(checked=True)[0][0].startswith("unexplored element 'Submit'")


def test_a_form_the_feature_asks_submitted_empty_has_nothing_filled_or_chosen() -> None:
    """"什么都不填，直接点 保存": its fields, its box and its choice still to make (`所在地区：请选择`) are left
    as they are; the submit is what is tried."""
    screen = screen_of(
        v("EditText", (40, 200, 1040, 350), text="收货人", rid="et_name", clickable=True, focusable=True),
        button("所在地区：请选择", 2),
        button("保存", 3),
    )

    def offered(goal: str) -> list[str]:
        ctx = replace(synthetic.context(1, screen=screen), target=target(goal=goal))
        return [c.why for c in sorted(find_candidates(ctx, Focus.of(ctx.target), {}, {}), key=lambda c: -c.score)]

    assert offered("新增收货地址，什么都不填，直接点 保存") == ["unexplored element '保存' matching the feature (relevance 6)"]
    assert offered("新增收货地址，填好后点 保存")[0].startswith("fill '收货人'")


def test_an_element_named_by_another_form_of_the_goals_word_is_tried_first() -> None:
    """"Read the archived booking": of a side menu's items, Archive is the one the goal's words point to."""
    screen = screen_of(*(button(label, row) for row, label in enumerate(("Inbox", "Sent", "Spam", "Archive"))))
    ctx = replace(synthetic.context(1, screen=screen), target=target(goal="read the archived booking"))
    found = find_candidates(ctx, Focus.of(ctx.target), {}, {})
    assert best(found).why == "unexplored element 'Archive' resembling the feature's words"


def test_a_feature_that_asks_for_a_refusal_has_the_refusing_choice_tried_first() -> None:
    screen = screen_of(button("Allow", 0), button("Don't allow", 1))

    def first(goal: str) -> str:
        ctx = replace(synthetic.context(1, screen=screen), target=target(goal=goal))
        return best(find_candidates(ctx, Focus.of(ctx.target), {}, {})).why

    assert first("Tap Scan and deny the camera: the app explains why").startswith("unexplored element 'Don't allow'")
    assert first("点「扫一扫」，拒绝相机权限").startswith("unexplored element 'Don't allow'")
    assert first("Tap Scan and take a photo").startswith("unexplored element 'Allow'")


def test_a_checked_radio_row_is_not_tapped_again() -> None:
    """A radio row is one mark for the row and its RadioButton (perception's one mark per control): the
    checked one, like a checked RadioButton, does nothing when tapped, and is no candidate."""
    screen = screen_of_dump("android_phone__preferred_network_type.xml")
    ctx = replace(synthetic.context(1, screen=screen), target=target())
    offered = {c.ref for c in find_candidates(ctx, Focus.of(ctx.target), {}, {})}
    radios = [m for m in screen.marks if m.node.checkable]
    assert radios and all(m.node.short_class == "LinearLayout" for m in radios)
    assert {m.ref for m in radios if not m.node.checked} <= offered
    assert not {m.ref for m in radios if m.node.checked} & offered


def test_a_goal_gives_test_data_for_the_fields_it_names() -> None:
    assert goal_inputs("活动报名表单能提交成功（姓名填“王芳”，手机号填“13912345678”，邮箱可不填）") == (
        ("姓名", "王芳"),
        ("手机号", "13912345678"),
    )
    assert goal_inputs("在搜索框输入「香蕉」，点搜索") == (("搜索框", "香蕉"),)
    assert goal_inputs("type 'banana' into the Search products field and see it listed") == (
        ("Search products", "banana"),
    )
    assert goal_inputs('Enter "ann@example.com" in Email, then tap Join') == (("Email", "ann@example.com"),)
    # A quote that names what to tap or see is no test data.
    assert goal_inputs("点击“确认提交”，看到“提交成功”") == ()
    assert goal_inputs("open 'Award Winner: Kyoto' and read it") == ()


def test_the_specs_inputs_come_first_and_the_goal_fills_in_the_fields_they_do_not_name(tmp_path: Path) -> None:
    spec = tmp_path / "test_form.yaml"
    spec.write_text(
        "app: {name: Form, package: com.example.form}\n"
        "features:\n"
        "  - name: sign up\n"
        "    goal: 姓名填“王芳”，手机号填“13912345678”\n"
        "    inputs: {手机号: '13800000000'}\n",
        encoding="utf-8",
    )
    loaded = load_spec(spec)
    inputs = target_of(loaded, loaded.features[0]).inputs
    assert inputs == (("手机号", "13800000000"), ("姓名", "王芳"))
    assert text_for(field("姓名（必填）"), replace(target(), inputs=inputs)) == "王芳"
