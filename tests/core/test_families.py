"""State families: a shop's 300 product pages are a handful of states, not 300, while pages that differ
in layout, activity or dialog stay apart. benchmarks/bench_families.py prints the figures."""

from __future__ import annotations

import pytest

from pytest_fairy.explore.families import FAMILY_LIMIT, Families
from pytest_fairy.explore.state import StateId, identify, layout_of
from pytest_fairy.explore.tree import FeatureTree
from pytest_fairy.perception.screen import Screen, build_screen
from tests.perception.catalogue import detail_page, list_page


def detail(k: int, activity: str = ".DetailActivity") -> Screen:
    return build_screen(detail_page(k), activity=activity)


def seen(families: Families, screen: Screen) -> StateId:
    return families.canonical(identify(screen), layout_of(screen))


def test_three_hundred_named_products_are_at_most_three_detail_states() -> None:
    families = Families()
    raw = {identify(detail(k)).key for k in range(300)}
    kept = {seen(families, detail(k)).key for k in range(300)}
    assert len(raw) == 300, "the products differ by name, price and description: 300 states unfolded"
    assert len(kept) == FAMILY_LIMIT
    assert families.size(seen(families, detail(0))) == 300


def test_the_first_pages_of_a_family_stay_states_of_their_own_then_fold_into_the_first() -> None:
    families = Families(limit=2)
    first, second, third = (seen(families, detail(k)) for k in (1, 2, 3))
    assert len({first.key, second.key, third.key}) == 2 and third.key == first.key
    # Folded, it keeps a content of its own: the tree counts it as a variant of the first page.
    assert third.content_hash != first.content_hash
    tree = FeatureTree()
    for step, state in enumerate((first, third)):
        tree.record(step, None, None, state, "product", False)
    assert len(tree.states) == 1 and len(tree.states[first.key].contents) == 2


def test_a_promotion_badge_on_some_products_keeps_them_in_the_family() -> None:
    families = Families(limit=1)
    plain, promoted = detail(1), detail(5)  # every fifth product shows 限时折扣
    assert layout_of(plain) != layout_of(promoted)
    assert seen(families, plain).key == seen(families, promoted).key


@pytest.mark.parametrize(
    "other",
    [
        lambda: build_screen(list_page(0), activity=".DetailActivity"),  # another layout
        lambda: detail(7, activity=".CartActivity"),  # another activity
    ],
    ids=["layout", "activity"],
)
def test_pages_of_another_layout_or_activity_are_not_folded(other: object) -> None:
    families = Families(limit=1)
    seen(families, detail(1))
    screen = other()  # type: ignore[operator]
    assert seen(families, screen).key == identify(screen).key


def test_a_page_with_a_dialog_is_not_folded_into_one_without() -> None:
    families = Families(limit=1)
    plain = identify(detail(1))
    with_dialog = StateId(plain.activity, "other", "dlg", "c")
    families.canonical(plain, layout_of(detail(1)))
    assert families.canonical(with_dialog, layout_of(detail(2))) == with_dialog


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Families(limit=0)
    with pytest.raises(ValueError, match="fraction"):
        Families(similarity=1.5)


def test_pages_whose_views_are_tagged_with_the_items_index_share_a_layout() -> None:
    """A detail page per item, its views' ids ending in the item's index (`m5_save0`, `m5_save1`): one
    layout, as a detail page per product with shared ids is."""

    def tagged(k: int) -> Screen:
        page = detail_page(k).replace('id/tv_name"', f'id/tv_name{k}"').replace('id/btn_add"', f'id/btn_add{k}"')
        return build_screen(page, activity=".DetailActivity")

    assert layout_of(tagged(2)) == layout_of(tagged(3)) == layout_of(tagged(14))
    assert layout_of(tagged(2)) != layout_of(detail(2))
