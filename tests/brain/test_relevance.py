from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.perception.relevance import forms, loose_overlap, overlap, tokens, with_forms


def test_latin_words_are_whole_lowercase_words_without_stop_words():
    assert tokens("Add to Cart") == {"add", "cart"}
    assert overlap("Shopping cart", tokens("add it to the cart")) == 1


def test_a_label_of_function_words_alone_keeps_them():
    assert tokens("Me") == {"me"}  # the tab, and the screen it opens
    assert tokens("About me") == {"about"}
    assert overlap("Me", tokens("show me my orders")) == 0


def test_chinese_is_compared_by_bigrams():
    topic = tokens("麦乐送点餐功能: 浏览菜单, 加入购物车")
    assert overlap("购物车", topic) == 2
    assert overlap("设置", topic) == 0
    assert "车" in tokens("车")


@given(st.text())
def test_a_label_overlaps_itself_fully(label):
    assert overlap(label, tokens(label)) == len(tokens(label))


def test_an_english_word_matches_the_base_form_its_ending_was_added_to():
    assert loose_overlap("Archive", with_forms(tokens("read the archived booking"))) == 1
    assert loose_overlap("Saved recipes", with_forms(tokens("save a recipe"))) == 2
    assert loose_overlap("Check for updates", with_forms(tokens("update the app"))) == 1
    assert loose_overlap("Copy link", with_forms(tokens("the link is copied"))) == 2
    assert overlap("Archive", tokens("read the archived booking")) == 0  # the strict match stays strict


def test_words_whose_ending_is_no_inflection_stand_alone():
    assert loose_overlap("New note", with_forms(tokens("read the news"))) == 0
    assert loose_overlap("Set", with_forms(tokens("open settings"))) == 0  # settings is no form of set
    assert forms("搜索") == {"搜索"}


@given(st.text())
def test_the_loose_match_finds_at_least_what_the_strict_one_does(label):
    assert loose_overlap(label, with_forms(tokens(label))) >= overlap(label, tokens(label))
