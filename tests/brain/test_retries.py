"""The offline brain's retries: the feature's elements tried before a change of the app's data are tried
again after it, once per change, for a few changes."""

from __future__ import annotations

from pytest_fairy.brain.offline import OfflineBrain
from pytest_fairy.brain.retries import MAX_ROUNDS, Retries, refused
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from tests.claude import synthetic
from tests.perception.builder import v
from tests.screens import button, screen_of


def test_a_commit_that_did_something_reopens_the_features_elements_but_itself() -> None:
    retries = Retries()
    retries.tried("cart", "tap|checkout")
    retries.tried("product", "tap|add")
    assert retries.after("加入购物车", toggle=False, did_something=True, key="tap|add") == {
        "cart": {"tap|checkout"}
    }
    assert retries.after("加入购物车", toggle=False, did_something=True, key="tap|add") == {}  # nothing since


def test_no_change_of_data_reopens_nothing() -> None:
    retries = Retries()
    retries.tried("cart", "tap|checkout")
    assert retries.after("逛逛", toggle=False, did_something=True, key="tap|browse") == {}  # no data word
    assert retries.after("Save", toggle=False, did_something=False, key="tap|save") == {}  # did nothing
    assert retries.after("Dark mode", toggle=True, did_something=True, key="tap|dark") == {
        "cart": {"tap|checkout"}
    }


def test_only_a_few_changes_reopen_anything() -> None:
    retries = Retries()
    for _ in range(MAX_ROUNDS):
        retries.tried("list", "tap|save")
        assert retries.after("Save", toggle=False, did_something=True, key="tap|other") == {
            "list": {"tap|save"}
        }
    retries.tried("list", "tap|save")
    assert retries.after("Save", toggle=False, did_something=True, key="tap|other") == {}


def test_a_keep_word_that_opened_a_page_of_another_title_changed_no_data() -> None:
    """`我的收藏` opens the favourites: it holds the keep word 收藏 but keeps nothing, so the elements tried
    before it stay tried and no round is spent. 收藏 on a product's page (same title) keeps it."""
    retries = Retries()
    retries.tried("home", "tap|favourites")
    assert retries.after("我的收藏", toggle=False, did_something=True, key="tap|fav", left_page=True) == {}
    assert retries.after("收藏", toggle=False, did_something=True, key="tap|save") == {
        "home": {"tap|favourites"}
    }


def test_a_refused_submit_reopens_nothing_and_spends_no_round() -> None:
    retries = Retries()
    retries.tried("cart", "tap|checkout")
    for _ in range(MAX_ROUNDS):
        assert retries.after("Confirm", toggle=False, did_something=True, key="tap|ok", refused=True) == {}
    assert retries.after("Save", toggle=False, did_something=True, key="tap|save") == {
        "cart": {"tap|checkout"}
    }


def test_a_submit_is_refused_when_an_error_or_a_validation_message_shows_anew() -> None:
    form = screen_of(button("Confirm", 1))

    def after(message: str) -> object:
        return screen_of(v("TextView", (40, 100, 1040, 180), text=message), button("Confirm", 1))

    assert refused(form, after("Invalid email address"))
    assert refused(form, after("Something went wrong"))
    assert not refused(form, after("Thanks for joining"))
    assert not refused(after("Invalid email address"), after("Invalid email address"))  # shown before


def test_the_offline_brain_takes_a_refused_submit_for_no_change_of_data() -> None:
    """The brain tells its retries what the screen after its action showed: a refusal reopens nothing."""
    form = screen_of(
        v("EditText", (40, 100, 1040, 180), text="ann@example.com", clickable=True), button("Confirm", 1)
    )
    error = screen_of(v("TextView", (40, 300, 1040, 380), text="Invalid email address"), button("Confirm", 1))
    saved = screen_of(v("TextView", (40, 300, 1040, 380), text="Saved"), button("Confirm", 1))
    for after, reopened in ((error, False), (saved, True)):
        brain = OfflineBrain()
        brain._retries.tried("cart", "tap|checkout")
        brain._last_tried = ("Confirm", False, "tap|confirm", form)
        brain._retry(
            synthetic.context(2, screen=after, last=Outcome("tap Confirm", OutcomeKind.CONTENT_CHANGED))
        )
        assert brain._frontier.reopened("cart", "tap|checkout") is reopened
