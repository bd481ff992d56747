"""The offline brain's retries: the feature's elements tried before a change of the app's data are tried
again after it, once per change, for a few changes."""

from __future__ import annotations

from pytest_fairy.brain.retries import MAX_ROUNDS, Retries


def test_a_commit_that_did_something_reopens_the_features_elements_but_itself() -> None:
    retries = Retries()
    retries.tried("cart", "tap|checkout")
    retries.tried("product", "tap|add")
    assert retries.after("加入购物车", toggle=False, did_something=True, key="tap|add") == {"cart": {"tap|checkout"}}
    assert retries.after("加入购物车", toggle=False, did_something=True, key="tap|add") == {}  # nothing since


def test_no_change_of_data_reopens_nothing() -> None:
    retries = Retries()
    retries.tried("cart", "tap|checkout")
    assert retries.after("逛逛", toggle=False, did_something=True, key="tap|browse") == {}  # no data word
    assert retries.after("Save", toggle=False, did_something=False, key="tap|save") == {}  # did nothing
    assert retries.after("Dark mode", toggle=True, did_something=True, key="tap|dark") == {"cart": {"tap|checkout"}}


def test_only_a_few_changes_reopen_anything() -> None:
    retries = Retries()
    for _ in range(MAX_ROUNDS):
        retries.tried("list", "tap|save")
        assert retries.after("Save", toggle=False, did_something=True, key="tap|other") == {"list": {"tap|save"}}
    retries.tried("list", "tap|save")
    assert retries.after("Save", toggle=False, did_something=True, key="tap|other") == {}


def test_a_keep_word_that_opened_a_page_of_another_title_changed_no_data() -> None:
    """`我的收藏` opens the favourites: it holds the keep word 收藏 but keeps nothing, so the elements tried
    before it stay tried and no round is spent. 收藏 on a product's page (same title) keeps it."""
    retries = Retries()
    retries.tried("home", "tap|favourites")
    assert retries.after("我的收藏", toggle=False, did_something=True, key="tap|fav", left_page=True) == {}
    assert retries.after("收藏", toggle=False, did_something=True, key="tap|save") == {"home": {"tap|favourites"}}
