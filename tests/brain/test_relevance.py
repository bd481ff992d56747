from hypothesis import given
from hypothesis import strategies as st

from pytest_fairy.perception.relevance import overlap, tokens


def test_latin_words_are_whole_lowercase_words_without_stop_words():
    assert tokens("Add to Cart") == {"add", "cart"}
    assert overlap("Shopping cart", tokens("add it to the cart")) == 1


def test_chinese_is_compared_by_bigrams():
    topic = tokens("麦乐送点餐功能: 浏览菜单, 加入购物车")
    assert overlap("购物车", topic) == 2
    assert overlap("设置", topic) == 0
    assert "车" in tokens("车")


@given(st.text())
def test_a_label_overlaps_itself_fully(label):
    assert overlap(label, tokens(label)) == len(tokens(label))
