"""Evidence: a "never saw" failure stands on one step whose outcome contradicts the feature, on an element
the feature's words point to. Each rule has a test here that fails when the rule is deleted."""

from __future__ import annotations

from core_coverage import PKG, RV, act, button, key, look, page, start
from core_dumps import v, window

from pytest_fairy.explore.coverage import Coverage
from pytest_fairy.explore.decisions import Outcome, OutcomeKind
from pytest_fairy.explore.naming import names
from pytest_fairy.explore.state import StateId
from pytest_fairy.explore.vocabulary import asks_empty
from pytest_fairy.perception.screen import Screen

FEATURE = ["visible: 已是最新版本", "检查更新"]


def field(hint: str, text: str = "") -> object:
    return v("EditText", text or hint, id=f"et_{abs(hash(hint)) % 10_000}")


def box(label: str, checked: bool) -> object:
    return v("CheckBox", label, id="cb_agree", checkable=True, clickable=True, checked=checked)


def test_a_button_the_feature_names_that_changed_nothing_is_the_evidence() -> None:
    cov, settings = start(page("设置", button("清除缓存"), button("检查更新")))
    act(cov, 1, settings, "清除缓存", OutcomeKind.NO_CHANGE, settings)
    act(cov, 2, settings, "检查更新", OutcomeKind.NO_CHANGE, settings)
    act(cov, 3, settings, "检查更新", OutcomeKind.NO_CHANGE, settings)  # tried again: no more proof
    assert str(cov.evidence(FEATURE)) == "step 2 (tap 检查更新 on 设置) changed nothing"


def test_a_button_the_feature_does_not_name_is_no_evidence() -> None:
    cov, settings = start(page("设置", button("清除缓存"), button("检查更新")))
    act(cov, 1, settings, "清除缓存", OutcomeKind.NO_CHANGE, settings)
    assert cov.evidence(FEATURE) is None


def test_a_tap_that_opened_the_screen_its_label_names_is_no_evidence() -> None:
    cov, help_page = start(page("How can we help?", button("Contact support"), button("FAQ")))
    form = look(page("Contact support", field("Your email"), button("Submit")), activity="a.Contact")
    act(cov, 1, help_page, "Contact support", OutcomeKind.NEW_STATE, form)
    assert cov.evidence(["visible: Ticket #4711 created", "contact support and submit a ticket"]) is None


def test_a_tap_that_opened_the_screen_a_sibling_names_is_the_evidence() -> None:
    cov, mine = start(page("我的", button("我的订单"), button("我的收藏"), button("设置")))
    favourites = look(page("我的收藏", v("TextView", "暂无收藏", id="empty")), activity="a.Fav")
    act(cov, 1, mine, "我的订单", OutcomeKind.NEW_STATE, favourites)
    found = cov.evidence(["查看历史订单：我的 → 我的订单"])
    assert str(found) == "step 1 (tap 我的订单 on 我的) opened 我的收藏 instead, which '我的收藏' names"


def test_the_confirm_of_a_dialog_that_went_back_to_a_page_another_element_opens_is_no_wrong_screen() -> None:
    """A dialog's button (Remove, 删除, Log out) names an act, not a screen: once the dialog is gone the app
    goes wherever it goes next, the list it came from, which a tab opens too."""
    cov, today = start(page("Today", button("Cities")))
    cities = look(page("Cities", button("Lisbon"), button("Madrid")), activity="a.Cities")
    lisbon = look(page("Lisbon", button("Remove city")), activity="a.City")
    confirm = window(PKG, v("TextView", "Remove Lisbon?", id="message"), button("Cancel"), button("Remove"), bounds=(100, 800, 980, 1600))
    asking = look(page("Lisbon", button("Remove city")), confirm, activity="a.City")
    act(cov, 1, today, "Cities", OutcomeKind.NEW_STATE, cities)
    act(cov, 2, cities, "Lisbon", OutcomeKind.NEW_STATE, lisbon)
    act(cov, 3, lisbon, "Remove city", OutcomeKind.NEW_STATE, asking)
    act(cov, 4, asking, "Remove", OutcomeKind.STATE_CHANGED, cities)
    assert cov.evidence(["remove Lisbon from saved cities: open Lisbon, tap Remove city, confirm with Remove"]) is None


def test_an_item_of_a_dialogs_list_that_opened_the_screen_another_element_opens_is_the_evidence() -> None:
    """A dialog of navigation items (a menu drawn as a dialog): each item names a screen, unlike its buttons."""
    cov, home = start(page("每日新闻", button("设置"), button("导航")))
    settings = look(page("设置", button("关于每日新闻")), activity="a.Settings")
    about = look(page("关于每日新闻", v("TextView", "版本 3.2.0", id="version")), activity="a.About")
    menu = window(PKG, v("TextView", "浏览历史", id="nav_history", clickable=True), v("TextView", "意见反馈", id="nav_feedback", clickable=True), bounds=(100, 800, 980, 1600))
    opened = look(page("每日新闻", button("设置"), button("导航")), menu)
    act(cov, 1, home, "设置", OutcomeKind.NEW_STATE, settings)
    act(cov, 2, settings, "关于每日新闻", OutcomeKind.NEW_STATE, about)
    cov.acted(3, about[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), home[0], (about[1], home[1]))
    act(cov, 4, home, "导航", OutcomeKind.NEW_STATE, opened)
    act(cov, 5, opened, "意见反馈", OutcomeKind.NEW_STATE, about)
    assert str(cov.evidence(["feedback from the drawer: 意见反馈"])) == (
        "step 5 (tap 意见反馈 on 每日新闻) opened 关于每日新闻 instead, which '关于每日新闻' on 设置 opens"
    )


def test_a_tab_that_opened_the_me_tabs_screen_is_the_evidence() -> None:
    """`Me` is all function words, and still the name of its tab and its screen."""
    cov, home = start(page("BookNook", button("Home"), button("Inbox"), button("Me")))
    me = look(page("Me", v("TextView", "Reading goals", id="goals"), button("Home"), button("Inbox"), button("Me")), activity="a.Me")
    act(cov, 1, home, "Inbox", OutcomeKind.NEW_STATE, me)
    assert str(cov.evidence(["tabs - open the Inbox tab", "visible: No new messages yet"])) == (
        "step 1 (tap Inbox on BookNook) opened Me instead, which 'Me' names"
    )


def test_a_screen_its_label_names_is_its_own_though_a_sibling_names_it_too() -> None:
    cov, account = start(page("Account", button("Orders"), button("Returns")))
    orders = look(page("Orders & returns", v("TextView", "No orders yet", id="empty")), activity="a.Orders")
    act(cov, 1, account, "Orders", OutcomeKind.NEW_STATE, orders)
    assert cov.evidence(["open my orders"]) is None


def test_a_screen_titled_otherwise_than_its_label_but_named_by_no_sibling_is_no_evidence() -> None:
    cov, home = start(page("首页", button("我的"), button("分类")))
    profile = look(page("个人中心", button("设置")), activity="a.Profile")
    act(cov, 1, home, "我的", OutcomeKind.NEW_STATE, profile)
    assert cov.evidence(["我的 → 设置 shows 版本号"]) is None


def test_the_tab_of_the_screen_it_is_on_changing_nothing_is_no_evidence() -> None:
    cov, mine = start(page("我的", button("我的订单"), button("我的")))
    act(cov, 1, mine, "我的", OutcomeKind.NO_CHANGE, mine)
    assert cov.evidence(["我的 → 我的订单"]) is None


def test_a_submit_with_a_field_left_empty_is_no_evidence_and_says_so() -> None:
    cov, form = start(page("Contact support", field("Your name"), button("Submit ticket")))
    act(cov, 1, form, "Submit ticket", OutcomeKind.NO_CHANGE, form)
    words = ["visible: Ticket created", "submit a support ticket"]
    assert cov.evidence(words) is None
    assert cov.unknown(words) == ["'Submit ticket' on Contact support tried only with 'Your name' empty"]


def test_a_submit_with_its_box_unticked_is_no_evidence() -> None:
    cov, form = start(page("Contact", field("Your name"), box("I agree", False), button("Submit ticket")))
    filled = look(page("Contact", field("Your name", "qa"), box("I agree", False), button("Submit ticket")))
    act(cov, 1, form, "Your name", OutcomeKind.CONTENT_CHANGED, filled, action="type")
    act(cov, 2, filled, "Submit ticket", OutcomeKind.NO_CHANGE, filled)
    assert cov.evidence(["submit a ticket"]) is None
    assert cov.unknown(["submit a ticket"]) == [
        "'Submit ticket' on Contact tried only with 'I agree' unticked"
    ]


def test_a_submit_tried_with_several_incomplete_forms_counts_the_combinations_left() -> None:
    """Two inputs, so four combinations: two tried (both fields empty; the name typed, the box still
    unticked), neither with all set - two left, and the box was unticked every time."""
    cov, form = start(page("Contact", field("Your name"), box("I agree", False), button("Submit ticket")))
    filled = look(page("Contact", field("Your name", "qa"), box("I agree", False), button("Submit ticket")))
    act(cov, 1, form, "Submit ticket", OutcomeKind.NO_CHANGE, form)
    act(cov, 2, form, "Your name", OutcomeKind.CONTENT_CHANGED, filled, action="type")
    act(cov, 3, filled, "Submit ticket", OutcomeKind.NO_CHANGE, filled)
    assert cov.evidence(["submit a ticket"]) is None
    assert cov.unknown(["submit a ticket"]) == [
        "'Submit ticket' on Contact tried with 2 of the 4 combinations of its 2 inputs, never with all set "
        "('I agree' unticked each time): 2 left"
    ]


def test_a_submit_with_its_form_set_that_changed_nothing_is_the_evidence() -> None:
    cov, form = start(page("Contact", field("Your name"), box("I agree", False), button("Submit ticket")))
    ready = look(page("Contact", field("Your name", "qa"), box("I agree", True), button("Submit ticket")))
    act(cov, 1, form, "Your name", OutcomeKind.CONTENT_CHANGED, ready, action="type")
    act(cov, 2, ready, "Submit ticket", OutcomeKind.NO_CHANGE, ready)
    assert str(cov.evidence(["submit a ticket"])) == "step 2 (tap Submit ticket on Contact) changed nothing"
    assert cov.unknown(["submit a ticket"]) == []


def test_a_toast_is_something_a_tap_did() -> None:
    cov, settings = start(page("设置", button("检查更新")))
    toasted = look(page("设置", button("检查更新")))
    toasted[1].toasts = ("已是最新版本",)
    act(cov, 1, settings, "检查更新", OutcomeKind.NO_CHANGE, toasted)
    assert cov.evidence(FEATURE) is None


def test_a_toast_still_showing_from_the_tap_before_may_be_this_taps_own_again() -> None:
    """A second `Follow` shows `Followed` once more while the first one's toast is still up: the screens
    before and after are alike, and still the tap did what it does."""
    rows = [v("Button", "Follow", id=f"btn_follow{n}", clickable=True) for n in (1, 2)]
    followed = look(page("Search", *rows))
    followed[1].toasts = ("Followed",)
    cov, results = start(page("Search", *rows))
    act(cov, 1, results, "btn_follow1", OutcomeKind.NO_CHANGE, followed)
    act(cov, 2, followed, "btn_follow2", OutcomeKind.NO_CHANGE, followed)
    assert cov.evidence(["visible: Gardening Weekly", "Follow"]) is None


def test_an_error_after_a_set_form_is_the_evidence() -> None:
    cov, form = start(page("Contact", button("Submit ticket")))
    failed = look(
        page("Contact", v("TextView", "Something went wrong, try again", id="err"), button("Submit ticket"))
    )
    act(cov, 1, form, "Submit ticket", OutcomeKind.CONTENT_CHANGED, failed)
    found = cov.evidence(["submit a ticket"])
    assert str(found) == "step 1 (tap Submit ticket on Contact) showed 'Something went wrong, try again'"


def test_an_error_already_on_screen_is_not_what_a_tap_showed() -> None:
    stale = v("TextView", "Last sync failed", id="banner")
    cov, inbox = start(page("Inbox", stale, button("Sync now")))
    synced = look(page("Inbox", stale, v("TextView", "3 new", id="count"), button("Sync now")))
    act(cov, 1, inbox, "Sync now", OutcomeKind.CONTENT_CHANGED, synced)
    assert cov.evidence(["sync the inbox now"]) is None


def test_an_error_after_made_up_credentials_is_no_evidence() -> None:
    empty = v("EditText", "Password", id="et_pwd", password=True)
    typed = v("EditText", "••••••••", id="et_pwd", password=True)
    cov, _ = start(page("Sign in", field("Email"), empty, button("Sign in")))
    signed_out = look(page("Sign in", field("Email", "qa@example.com"), typed, button("Sign in")))
    refused = look(page("Sign in", v("TextView", "Sign in failed", id="err"), button("Sign in")))
    act(cov, 1, signed_out, "Sign in", OutcomeKind.CONTENT_CHANGED, refused)
    assert cov.evidence(["sign in and see the inbox"]) is None


def test_a_switch_changing_nothing_is_no_evidence() -> None:
    cov, settings = start(
        page("设置", v("Switch", "检查更新", id="sw_update", checkable=True, clickable=True))
    )
    act(cov, 1, settings, "检查更新", OutcomeKind.NO_CHANGE, settings)
    assert cov.evidence(FEATURE) is None


def test_the_save_of_a_dialog_an_element_the_feature_names_opened_belongs_to_the_feature() -> None:
    cov, tasks = start(page("My tasks", button("Add task"), button("Settings")))
    dialog_window = window(
        PKG, v("EditText", "Title", id="et_title"), button("Save"), bounds=(100, 800, 980, 1600)
    )
    adding = look(page("My tasks", button("Add task"), button("Settings")), dialog_window)
    typed_window = window(
        PKG, v("EditText", "Buy milk", id="et_title"), button("Save"), bounds=(100, 800, 980, 1600)
    )
    typed = look(page("My tasks", button("Add task"), button("Settings")), typed_window)
    act(cov, 1, tasks, "Add task", OutcomeKind.NEW_STATE, adding)
    act(cov, 2, adding, "et_title", OutcomeKind.CONTENT_CHANGED, typed, action="type")
    act(cov, 3, typed, "Save", OutcomeKind.NO_CHANGE, typed)
    assert (
        str(cov.evidence(["visible: 3 tasks", "add a task"]))
        == "step 3 (tap Save on My tasks) changed nothing"
    )
    # A Save the feature's way never opened is not the feature's.
    assert cov.evidence(["visible: dark theme", "turn on the dark theme in settings"]) is None
    # Nor one opened by an element the feature shares a word with but does not name.
    assert cov.evidence(["visible: (edited)", "rename a task: tap it, type a title, tap Rename"]) is None


def test_a_tap_that_opened_the_screen_another_element_is_named_for_and_led_to_is_the_evidence() -> None:
    cov, home = start(page("每日新闻", button("导航"), button("设置")))
    drawer = look(page("每日新闻", button("导航"), button("设置"), button("意见反馈")), activity="a.Drawer")
    settings = look(page("设置", button("关于每日新闻"), button("每日新闻")), activity="a.Settings")
    about = look(page("关于每日新闻", button("首页")), activity="a.About")
    act(cov, 1, home, "设置", OutcomeKind.NEW_STATE, settings)
    act(cov, 2, settings, "关于每日新闻", OutcomeKind.NEW_STATE, about)
    act(cov, 3, home, "导航", OutcomeKind.NEW_STATE, drawer)
    act(cov, 4, drawer, "意见反馈", OutcomeKind.STATE_CHANGED, about)
    found = cov.evidence(["send feedback: 意见反馈 from the drawer"])
    assert str(found) == (
        "step 4 (tap 意见反馈 on 每日新闻) opened 关于每日新闻 instead, which '关于每日新闻' on 设置 opens"
    )


def test_the_apps_first_screen_is_no_wrong_screen_whatever_leads_there() -> None:
    """A home button and a logo named for the app alike lead to the app's first screen."""
    cov, home = start(page("每日新闻", button("设置")))
    settings = look(page("设置", button("每日新闻"), button("关于")), activity="a.Settings")
    about = look(page("关于", button("首页")), activity="a.About")
    act(cov, 1, home, "设置", OutcomeKind.NEW_STATE, settings)
    act(cov, 2, settings, "每日新闻", OutcomeKind.STATE_CHANGED, home)
    act(cov, 3, home, "设置", OutcomeKind.STATE_CHANGED, settings)
    act(cov, 4, settings, "关于", OutcomeKind.NEW_STATE, about)
    act(cov, 5, about, "首页", OutcomeKind.STATE_CHANGED, home)
    assert cov.evidence(["go back to 首页 from 关于"]) is None


HELP = page("客服与帮助", v("TextView", "热门问题", id="web_title"), button("如何修改绑定手机号？"), button("如何开具发票？"))


def answer(heading: str, body: str) -> tuple[StateId, Screen]:
    """A help article in a WebView: the same title as the list of questions, its own heading."""
    return look(page("客服与帮助", v("TextView", heading, id="a_title"), v("TextView", body, id="a_body")), activity="a.Answer")


def test_a_link_opening_the_article_a_sibling_names_under_the_same_title_is_the_evidence() -> None:
    cov, help_page = start(HELP)
    invoices = answer("发票说明", "订单完成后 30 天内可开具发票。")
    act(cov, 1, help_page, "如何修改绑定手机号？", OutcomeKind.NEW_STATE, invoices)
    words = ["帮助页面能回答「如何修改绑定手机号？」", "visible: 修改手机号说明"]
    assert cov.evidence(words) is None  # one link, one article: nothing to tell it by
    act(cov, 3, help_page, "如何开具发票？", OutcomeKind.STATE_CHANGED, invoices)
    assert str(cov.evidence(words)) == (
        "step 1 (tap 如何修改绑定手机号？ on 客服与帮助) opened '发票说明' instead, "
        "which '如何开具发票？' on 客服与帮助 opens"
    )
    # The feature changed the app's data since: the step is unknown again, and no error of ours.
    switch = v("Switch", "绑定手机号", id="sw_bind", checkable=True, clickable=True)
    settings = look(page("设置", switch), activity="a.Settings")
    switched = look(page("设置", v("Switch", "绑定手机号", id="sw_bind", checkable=True, clickable=True, checked=True)), activity="a.Settings")
    act(cov, 4, help_page, "如何开具发票？", OutcomeKind.STATE_CHANGED, settings)
    act(cov, 5, settings, "绑定手机号", OutcomeKind.CONTENT_CHANGED, switched)
    assert cov.evidence(words) is None


def test_two_links_to_an_article_whose_heading_shares_words_with_both_is_no_evidence() -> None:
    cov, help_page = start(HELP)
    both = answer("修改手机号与开具发票", "两件事都在「我的」里办理。")
    act(cov, 1, help_page, "如何修改绑定手机号？", OutcomeKind.NEW_STATE, both)
    act(cov, 3, help_page, "如何开具发票？", OutcomeKind.STATE_CHANGED, both)
    assert cov.evidence(["帮助页面能回答「如何修改绑定手机号？」", "visible: 修改手机号说明"]) is None


def test_a_submit_that_stayed_on_its_page_opened_no_wrong_screen() -> None:
    """The form shows an error line (a new layout: another state) but its title stays: the page did not
    change, though an element elsewhere is named for it."""
    cov, home = start(page("Helpdesk", button("Report a problem")))
    form = look(page("Report a problem", box("I agree", False), button("Submit ticket")), activity="a.Form")
    refused = look(
        page("Report a problem", v("TextView", "Please agree", id="err"), box("I agree", False), button("Submit ticket")),
        activity="a.Form",
    )
    act(cov, 1, home, "Report a problem", OutcomeKind.NEW_STATE, form)
    act(cov, 2, form, "Submit ticket", OutcomeKind.NEW_STATE, refused)
    act(cov, 3, home, "Report a problem", OutcomeKind.STATE_CHANGED, refused)  # it keeps its error line
    assert cov.evidence(["report a problem and submit the ticket"]) is None


def test_a_step_taken_before_the_feature_changed_the_apps_data_is_no_evidence_until_tried_again() -> None:
    """Checkout does nothing while the cart is empty: tried before 加入购物车, it proves nothing."""
    cov, cart = start(page("购物车", button("去结算"), button("逛逛")))
    product = look(page("商品详情", button("加入购物车")), activity="a.Product")
    added = look(page("商品详情", button("加入购物车"), v("TextView", "已加入", id="added")), activity="a.Product")
    words = ["加入购物车 then 去结算", "visible: 订单确认"]
    act(cov, 1, cart, "去结算", OutcomeKind.NO_CHANGE, cart)
    assert str(cov.evidence(words)) == "step 1 (tap 去结算 on 购物车) changed nothing"
    act(cov, 2, cart, "逛逛", OutcomeKind.NEW_STATE, product)
    act(cov, 3, product, "加入购物车", OutcomeKind.CONTENT_CHANGED, added)
    assert cov.evidence(words) is None
    assert cov.unknown(words) == [
        "'去结算' on 购物车 changed nothing at step 1, before step 3 (tap 加入购物车) changed the app's data, "
        "and was not tried since"
    ]
    act(cov, 5, cart, "去结算", OutcomeKind.NO_CHANGE, cart)
    assert str(cov.evidence(words)) == "step 5 (tap 去结算 on 购物车) changed nothing"


def test_a_button_dead_on_both_sides_of_a_change_of_data_stays_the_evidence_after_more_changes() -> None:
    """收藏 on 洱海 does nothing, before and after 黄山 was saved: the data did not explain it, so saving
    more items afterwards does not make it unknown again. Tried once before a change only, it would."""
    words = ["收藏的「洱海」出现在我的收藏里", "visible: 洱海"]

    def detail(title: str, saved: bool = False) -> Screen:
        shown = [v("TextView", "已收藏", id="saved")] if saved else []
        return look(page(title, button("收藏"), *shown), activity="a.Detail")

    cov, browse = start(page("发现目的地", button("洱海"), button("黄山"), button("泰山")))
    erhai, huangshan, taishan = detail("洱海"), detail("黄山"), detail("泰山")
    act(cov, 1, browse, "洱海", OutcomeKind.NEW_STATE, erhai)
    act(cov, 2, erhai, "收藏", OutcomeKind.NO_CHANGE, erhai)
    act(cov, 3, browse, "黄山", OutcomeKind.NEW_STATE, huangshan)
    act(cov, 4, huangshan, "收藏", OutcomeKind.CONTENT_CHANGED, detail("黄山", saved=True))
    assert cov.evidence(words) is None  # tried before a change only: unknown
    act(cov, 5, erhai, "收藏", OutcomeKind.NO_CHANGE, erhai)
    act(cov, 6, browse, "泰山", OutcomeKind.NEW_STATE, taishan)
    act(cov, 7, taishan, "收藏", OutcomeKind.CONTENT_CHANGED, detail("泰山", saved=True))
    # the try after the change, whose replay goes through it
    assert str(cov.evidence(words)) == "step 5 (tap 收藏 on 洱海) changed nothing"


def test_a_change_of_data_the_feature_does_not_name_leaves_the_evidence_standing() -> None:
    cov, settings = start(page("设置", button("检查更新"), v("Switch", "消息通知", id="sw_push", checkable=True, clickable=True)))
    switched = look(page("设置", button("检查更新"), v("Switch", "消息通知", id="sw_push", checkable=True, clickable=True, checked=True)))
    act(cov, 1, settings, "检查更新", OutcomeKind.NO_CHANGE, settings)
    act(cov, 2, settings, "消息通知", OutcomeKind.CONTENT_CHANGED, switched)
    assert str(cov.evidence(FEATURE)) == "step 1 (tap 检查更新 on 设置) changed nothing"


def test_a_switch_sharing_one_word_with_the_feature_is_no_change_of_its_data() -> None:
    notify = v("Switch", "订单状态通知", id="sw_order", checkable=True, clickable=True)
    cov, mine = start(page("我的", button("我的订单"), button("我的收藏"), button("设置")))
    favourites = look(page("我的收藏", v("TextView", "暂无收藏", id="empty")), activity="a.Fav")
    settings = look(page("设置", notify), activity="a.Settings")
    switched = look(page("设置", v("Switch", "订单状态通知", id="sw_order", checkable=True, clickable=True, checked=True)), activity="a.Settings")
    act(cov, 1, mine, "我的订单", OutcomeKind.NEW_STATE, favourites)
    act(cov, 2, mine, "设置", OutcomeKind.NEW_STATE, settings)
    act(cov, 3, settings, "订单状态通知", OutcomeKind.CONTENT_CHANGED, switched)
    assert cov.evidence(["查看历史订单：我的 → 我的订单"]) is not None


def test_a_feature_asking_for_an_empty_form_is_not_known_from_filled_submits() -> None:
    cov, form = start(page("预约挂号", field("就诊人姓名"), button("提交预约")))
    filled = look(page("预约挂号", field("就诊人姓名", "qa_tester"), button("提交预约")))
    done = look(page("预约成功", v("TextView", "预约成功", id="ok")), activity="a.Done")
    act(cov, 1, form, "就诊人姓名", OutcomeKind.CONTENT_CHANGED, filled, action="type")
    act(cov, 2, filled, "提交预约", OutcomeKind.NEW_STATE, done)
    words = ["visible: 请填写就诊人姓名", "预约挂号：不填写任何内容，直接点 提交预约"]
    assert cov.unknown(words) == ["'提交预约' on 预约挂号 never tried with its form empty, as the feature asks"]
    assert cov.unknown(["visible: 预约成功", "预约挂号：填写姓名，提交预约"]) == []


def test_a_sign_in_screen_is_no_wrong_screen() -> None:
    """A signed-out app leads anything to its login wall, which its own Sign in button names."""
    cov, home = start(page("TripNest", button("Member center"), button("Sign in")))
    wall = look(page("Sign in to continue", field("Username"), button("Sign in")), activity="a.Login")
    act(cov, 1, home, "Member center", OutcomeKind.NEW_STATE, wall)
    act(cov, 3, home, "Sign in", OutcomeKind.STATE_CHANGED, wall)
    assert cov.evidence(["Member center shows after signing in"]) is None


def test_an_element_naming_the_screen_it_stays_on_is_not_the_one_that_screen_belongs_to() -> None:
    cov, home = start(page("Home", button("Member center")))
    account = look(page("Account overview", button("Account overview"), button("Refresh")), activity="a.Account")
    refreshed = look(
        page("Account overview", v("TextView", "updated", id="t"), button("Account overview"), button("Refresh")),
        activity="a.Account",
    )
    act(cov, 1, home, "Member center", OutcomeKind.NEW_STATE, refreshed)
    act(cov, 2, home, "Member center", OutcomeKind.STATE_CHANGED, account)
    act(cov, 3, account, "Account overview", OutcomeKind.NEW_STATE, refreshed)
    assert cov.evidence(["open the Member center"]) is None


def test_an_error_on_the_sign_in_screen_a_tap_led_to_is_no_evidence() -> None:
    """A wrong password typed earlier leaves the login wall saying so: the next tap that leads there shows
    it, which proves nothing about the element tapped."""
    cov, home = start(page("小象优品", button("会员中心")))
    password = v("EditText", "密码", id="et_pwd", password=True)
    wall = look(page("登录", v("TextView", "账号或密码错误", id="err"), field("账号"), password, button("登录")), activity="a.Login")
    act(cov, 1, home, "会员中心", OutcomeKind.NEW_STATE, wall)
    assert cov.evidence(["会员中心 shows after signing in"]) is None


def test_a_search_that_shows_nothing_for_the_runs_own_query_is_no_evidence() -> None:
    cov, search = start(page("搜索菜谱", field("输入菜名"), button("查找")))
    typed = look(page("搜索菜谱", field("输入菜名", "测试内容 test input"), button("查找")))
    act(cov, 1, search, "输入菜名", OutcomeKind.CONTENT_CHANGED, typed, action="type")
    act(cov, 2, typed, "查找", OutcomeKind.NO_CHANGE, typed)
    assert cov.evidence(["search - find 麻婆豆腐: type 麻婆豆腐 and tap 查找"]) is None


def test_a_way_out_opens_what_the_back_stack_holds_never_a_wrong_screen() -> None:
    cov, home = start(page("Wanderly", button("All destinations"), button("Event sign-up")))
    places = look(page("All destinations", button("Paris")), activity="a.Places")
    form = look(page("Details", button("Navigate up"), button("Submit")), activity="a.Form")
    act(cov, 1, home, "All destinations", OutcomeKind.NEW_STATE, places)
    act(cov, 2, home, "Event sign-up", OutcomeKind.NEW_STATE, form)
    act(cov, 3, form, "Navigate up", OutcomeKind.STATE_CHANGED, places)
    assert cov.evidence(["submit Event sign-up: fill it in, go up"]) is None


def night(checked: bool) -> object:
    return v("Switch", "Night reading mode", id="sw_night", checkable=True, clickable=True, checked=checked)


def test_a_setting_shown_the_other_way_when_the_run_came_back_is_lost() -> None:
    cov, library = start(page("Library", button("Settings")))
    settings = look(page("Settings", night(False)), activity="a.Settings")
    turned = look(page("Settings", night(True)), activity="a.Settings")
    act(cov, 1, library, "Settings", OutcomeKind.NEW_STATE, settings)
    act(cov, 2, settings, "Night reading mode", OutcomeKind.CONTENT_CHANGED, turned)
    cov.acted(3, turned[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), library[0], (turned[1], library[1]))
    cov.acted(4, library[0], key(library[1], "Settings"), "tap Settings", Outcome("tap Settings", OutcomeKind.STATE_CHANGED), settings[0], (library[1], settings[1]))
    found = cov.evidence(["turn on night reading mode and keep it"])
    assert str(found) == "step 4 (tap Settings on Library) showed 'Night reading mode' off again, though step 2 turned it on"


def test_an_option_of_a_group_shown_unchosen_when_the_run_came_back_is_no_lost_setting() -> None:
    """A day chip filtering a schedule, a sort order: one choice of several, which a page opened afresh
    may well reset. Only a switch or box the run turned on or off is a setting the app must keep."""

    def thursday(checked: bool) -> object:
        return v("RadioButton", "Thu", id="chip_thu", checkable=True, clickable=True, checked=checked)

    cov, home = start(page("Home", button("Schedule")))
    schedule = look(page("Schedule", thursday(False)), activity="a.Schedule")
    chosen = look(page("Schedule", thursday(True)), activity="a.Schedule")
    act(cov, 1, home, "Schedule", OutcomeKind.NEW_STATE, schedule)
    act(cov, 2, schedule, "Thu", OutcomeKind.CONTENT_CHANGED, chosen)
    cov.acted(3, chosen[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), home[0], (chosen[1], home[1]))
    act(cov, 4, home, "Schedule", OutcomeKind.STATE_CHANGED, schedule)
    assert cov.evidence(["On the Schedule tab pick Thu, then book Spin Express"]) is None


def test_a_switch_the_page_itself_turned_back_is_not_lost() -> None:
    """Reset to defaults turns it off on the page it is on, by design: lost means lost across a visit."""
    cov, settings = start(page("Settings", night(False), button("Reset to defaults")))
    turned = look(page("Settings", night(True), button("Reset to defaults")))
    act(cov, 1, settings, "Night reading mode", OutcomeKind.CONTENT_CHANGED, turned)
    act(cov, 2, turned, "Reset to defaults", OutcomeKind.CONTENT_CHANGED, settings)
    assert cov.evidence(["turn on night reading mode"]) is None


def test_a_search_page_whose_field_says_nothing_of_searching_still_asks_for_a_query() -> None:
    cov, search = start(page("Search books", field("Title or author"), button("Go")))
    typed = look(page("Search books", field("Title or author", "qa_tester"), button("Go")))
    act(cov, 1, search, "Title or author", OutcomeKind.CONTENT_CHANGED, typed, action="type")
    act(cov, 2, typed, "Go", OutcomeKind.NO_CHANGE, typed)
    assert cov.evidence(["search books: type Dune and tap Go"]) is None


def test_a_box_of_a_form_unticked_when_the_run_came_back_is_no_lost_setting() -> None:
    """A form may start afresh each time it opens: its boxes are not settings the app must keep."""
    cov, home = start(page("Home", button("Feedback")))
    form = look(page("Feedback", field("Your message"), box("I agree", False)), activity="a.Form")
    ticked = look(page("Feedback", field("Your message"), box("I agree", True)), activity="a.Form")
    act(cov, 1, home, "Feedback", OutcomeKind.NEW_STATE, form)
    act(cov, 2, form, "I agree", OutcomeKind.CONTENT_CHANGED, ticked)
    cov.acted(3, ticked[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), home[0], (ticked[1], home[1]))
    act(cov, 4, home, "Feedback", OutcomeKind.STATE_CHANGED, form)
    assert cov.evidence(["send feedback: agree to the terms, keep it"]) is None


def covered(
    words: str, given: list[tuple[str, str]], *windows: object
) -> tuple[Coverage, tuple[StateId, Screen]]:
    """`start`, for a feature about `words` whose spec gives the test data `given` (field name, value)."""
    return start(*windows, cov=Coverage(words=words, inputs=given))


def test_an_empty_submit_the_feature_asks_for_that_changed_nothing_is_the_evidence() -> None:
    words = "预约挂号：不填写任何内容，直接点 提交预约 请填写就诊人姓名"
    cov, form = covered(words, [], page("预约挂号", field("就诊人姓名"), field("手机号码"), button("提交预约")))
    act(cov, 1, form, "提交预约", OutcomeKind.NO_CHANGE, form)
    assert str(cov.evidence([words])) == "step 1 (tap 提交预约 on 预约挂号) changed nothing"
    # A feature that does not ask for it: an empty form may be the app asking for its fields.
    cov, form = covered("预约挂号：填写后提交预约", [], page("预约挂号", field("就诊人姓名"), button("提交预约")))
    act(cov, 1, form, "提交预约", OutcomeKind.NO_CHANGE, form)
    assert cov.evidence(["预约挂号：填写后提交预约"]) is None


def test_an_empty_form_the_feature_wants_refused_going_on_to_another_page_is_the_evidence() -> None:
    words = "在 收货地址 中点 新增收货地址，什么都不填，直接点 保存；应提示 请填写收货人"
    form = page("新增收货地址", field("收货人"), field("手机号"), button("保存"))
    listed = look(page("收货地址", v("TextView", "共 2 个收货地址", id="count")), activity="a.List")
    for expects, evidence in ((["请填写收货人"], True), (["收货地址已保存"], False)):
        cov, here = start(form, cov=Coverage(words=words, expects=expects))
        act(cov, 1, here, "保存", OutcomeKind.NEW_STATE, listed)
        found = cov.evidence([words])
        if evidence:  # the page it went on to is told by a text the form never showed, not by 收货地址
            assert str(found) == (
                "step 1 (tap 保存 on 新增收货地址) took the empty form and went on to 收货地址 ('共 2 个收货地址')"
            )
            assert found is not None and str(found.against) == (
                "tapping '保存' on the empty form keeps it there, not '共 2 个收货地址'"
            )
        else:  # a feature that does not want the empty form refused: going on may be right
            assert found is None
    # A thanks page under the form's own title is another page too: another activity.
    cov, here = start(form, cov=Coverage(words=words, expects=["请填写收货人"]))
    thanks = look(page("新增收货地址", v("TextView", "提交成功，我们会尽快联系您", id="thanks")), activity="a.Done")
    act(cov, 1, here, "保存", OutcomeKind.NEW_STATE, thanks)
    assert "went on to 新增收货地址 ('提交成功，我们会尽快联系您')" in str(cov.evidence([words]))
    # Another empty form met on the way, which neither its title nor its commit ties to the feature.
    cov, other = start(page("修改昵称", field("昵称"), button("确定")), cov=Coverage(words=words, expects=["请填写收货人"]))
    act(cov, 1, other, "确定", OutcomeKind.NEW_STATE, listed)
    assert cov.evidence([words]) is None
    # The errors shown, or a way out of the form (取消), is no empty form taken.
    cov, here = start(page("新增收货地址", field("收货人"), button("取消"), button("保存")), cov=Coverage(words=words, expects=["请填写收货人"]))
    act(cov, 1, here, "取消", OutcomeKind.NEW_STATE, listed)
    refused = look(page("新增收货地址", field("收货人"), button("保存"), v("TextView", "请填写收货人", id="err")))
    act(cov, 2, here, "保存", OutcomeKind.CONTENT_CHANGED, refused)
    assert cov.evidence([words]) is None


def test_a_search_on_the_specs_input_that_finds_nothing_is_the_evidence() -> None:
    words = "search the shop for the fruit Search products banana"
    empty = v("TextView", "No results for your search", id="tv_empty")
    for given, evidence in (([("Search products", "banana")], True), ([], False)):
        cov, search = covered(words, given, page("Search", field("Search products"), button("Search")))
        typed = look(page("Search", field("Search products", "banana"), button("Search")))
        none = look(page("Search", field("Search products", "banana"), button("Search"), empty))
        act(cov, 1, search, "Search products", OutcomeKind.CONTENT_CHANGED, typed, action="type")
        act(cov, 2, typed, "Search", OutcomeKind.CONTENT_CHANGED, none)
        found = cov.evidence([words])
        if evidence:
            assert str(found) == (
                "step 2 (tap Search on Search) found nothing for the spec's input ('No results for your search')"
            )
        else:  # a query the run made up may well find nothing
            assert found is None


def test_a_value_made_up_for_one_field_is_not_the_specs_data_for_another() -> None:
    """The spec gives `qa_tester` for 账号; a form's 姓名 holding the same name, made up, holds none of the
    spec's data: its 确认提交, on a page the feature does not name, is not the feature's."""
    words = "用账号 qa_tester 登录，看到会员中心"
    failed = v("TextView", "提交失败，请稍后再试", id="err")
    for name, evidence in (("账号", True), ("姓名", False)):
        cov, form = covered(words, [("账号", "qa_tester")], page("活动报名", field(name), button("确认提交")))
        typed = look(page("活动报名", field(name, "qa_tester"), button("确认提交")))
        act(cov, 1, form, name, OutcomeKind.CONTENT_CHANGED, typed, action="type")
        act(cov, 2, typed, "确认提交", OutcomeKind.CONTENT_CHANGED, look(page("活动报名", field(name, "qa_tester"), failed, button("确认提交"))))
        found = cov.evidence(["visible: 会员等级：黄金会员", words])
        assert (str(found) == "step 2 (tap 确认提交 on 活动报名) showed '提交失败，请稍后再试'") is evidence, found


def test_a_submit_named_like_its_forms_title_that_changed_nothing_is_the_evidence() -> None:
    """Not the tab of its screen: `Create account` on `Create your account` commits the form."""
    cov, here = start(page("Create your account", box("I agree", True), button("Create account")))
    act(cov, 1, here, "Create account", OutcomeKind.NO_CHANGE, here)
    assert str(cov.evidence(["create account: join with a name"])) == (
        "step 1 (tap Create account on Create your account) changed nothing"
    )


def test_a_submit_that_changed_nothing_right_after_it_showed_its_errors_is_no_evidence() -> None:
    """The empty form's first submit showed the errors; the second finds them there already."""
    words = "预约到店：什么都不填直接点 确认提交"
    cov, form = covered(words, [], page("预约到店", field("姓名"), button("确认提交")))
    errors = look(page("预约到店", field("姓名"), button("确认提交"), v("TextView", "请填写必填项", id="err")))
    act(cov, 1, form, "确认提交", OutcomeKind.CONTENT_CHANGED, errors)
    act(cov, 2, errors, "确认提交", OutcomeKind.NO_CHANGE, errors)
    assert cov.evidence([words]) is None


def test_a_field_that_may_be_left_empty_asks_for_no_empty_form() -> None:
    assert asks_empty("预约到店：什么都不填直接点「确认提交」")
    assert asks_empty("submit the empty form and see the errors")
    assert not asks_empty("预约到店表单能提交成功（姓名填“陈静”，邮箱可不填）")
    assert not asks_empty("sign up; the phone number can be left empty")


def test_an_error_an_earlier_step_showed_is_not_what_a_later_tap_showed() -> None:
    """The form still shows the error its submit showed when the run opens it again: not the opening's."""
    error = v("TextView", "Something went wrong. Try again", id="err")
    cov, home = start(page("Helpdesk", button("Report a problem")))
    form = look(page("Report a problem", box("I agree", False), button("Submit ticket")), activity="a.Form")
    failed = look(page("Report a problem", box("I agree", False), button("Submit ticket"), error), activity="a.Form")
    act(cov, 1, home, "Report a problem", OutcomeKind.NEW_STATE, form)
    act(cov, 2, form, "Submit ticket", OutcomeKind.CONTENT_CHANGED, failed)  # unticked: no evidence
    cov.acted(3, failed[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), home[0], (failed[1], home[1]))
    act(cov, 4, home, "Report a problem", OutcomeKind.STATE_CHANGED, failed)
    assert cov.evidence(["submit a ticket: Report a problem, Submit ticket"]) is None


def test_a_row_whose_number_differs_names_no_screen() -> None:
    assert not names("商品 24", "商品 23")
    assert not names("商品 10", "商品详情")
    assert names("商品 23", "商品 23")
    assert names("我的订单", "我的订单")


def test_an_error_after_the_specs_own_credentials_is_the_evidence() -> None:
    """A tester's real username and password refused: sign-in is broken. Made-up ones prove nothing."""
    user, password = field("Username"), v("EditText", "Password", id="et_pwd", password=True)
    wall = page("Sign in", user, password, button("Sign in"))
    busy = v("TextView", "Sign-in failed: the server is busy, try again later", id="busy")
    filled = page("Sign in", field("Username", "zhang.wei"), v("EditText", "••••", id="et_pwd", password=True), button("Sign in"))
    for inputs, evidence in (([("Username", "zhang.wei"), ("Password", "Dr1ve")], True), ([], False)):
        cov, first = start(wall, cov=Coverage(words="sign in to the private page", inputs=inputs))
        typed = look(filled)
        refused = look(page("Sign in", field("Username", "zhang.wei"), v("EditText", "••••", id="et_pwd", password=True), button("Sign in"), busy))
        act(cov, 1, first, "Username", OutcomeKind.CONTENT_CHANGED, typed, action="type")
        act(cov, 2, typed, "Sign in", OutcomeKind.CONTENT_CHANGED, refused)
        found = cov.evidence(["visible: Private page", "sign in to the private page"])
        assert (str(found) == "step 2 (tap Sign in on Sign in) showed 'Sign-in failed: the server is busy, try again later'") is evidence, found


def test_the_ok_that_closes_an_error_alert_changes_no_data() -> None:
    """Sign-in, opened by the element the feature names, refuses the tester's own credentials in an
    alert. Its OK commits nothing (though OK on that page belongs to the feature), so the refusal stays
    the evidence."""
    user, password = field("Username"), v("EditText", "Password", id="et_pwd", password=True)
    inputs = [("Username", "zhang.wei"), ("Password", "Dr1ve")]
    words = ["visible: Member level", "open Member center and sign in"]
    cov, home = start(page("Me", button("Member center")), cov=Coverage(inputs=inputs))
    wall = look(page("Sign in", user, password, button("Sign in")), activity="a.Login")
    filled = page("Sign in", field("Username", "zhang.wei"), v("EditText", "••••", id="et_pwd", password=True), button("Sign in"))
    typed = look(filled, activity="a.Login")
    alert = window(PKG, v("TextView", "Sign-in failed: the server is busy", id="message"), button("OK"), bounds=(100, 800, 980, 1600))
    refused = look(filled, alert, activity="a.Login")
    act(cov, 1, home, "Member center", OutcomeKind.NEW_STATE, wall)
    act(cov, 2, wall, "Username", OutcomeKind.CONTENT_CHANGED, typed, action="type")
    act(cov, 3, typed, "Sign in", OutcomeKind.NEW_STATE, refused)
    act(cov, 4, refused, "OK", OutcomeKind.STATE_CHANGED, typed)
    assert str(cov.evidence(words)) == "step 3 (tap Sign in on Sign in) showed 'Sign-in failed: the server is busy'"


def test_the_accept_button_of_an_agreement_the_feature_names_belongs_to_the_feature() -> None:
    """`I agree` shares no word with "Accept the Terms of Service", but it commits the page that the
    feature's `Terms of Service` opened: it doing nothing is the evidence."""
    cov, home = start(page("Yummly", button("Terms of Service"), button("Saved items")))
    terms = look(page("Terms of Service", v("TextView", "1. Use of the service", id="clause"), button("I agree")), activity="a.Terms")
    act(cov, 1, home, "Terms of Service", OutcomeKind.NEW_STATE, terms)
    act(cov, 2, terms, "I agree", OutcomeKind.NO_CHANGE, terms)
    words = ["visible: You accepted the Terms of Service", "Accept the Terms of Service"]
    assert str(cov.evidence(words)) == "step 2 (tap I agree on Terms of Service) changed nothing"


def test_the_search_button_of_a_form_holding_the_specs_input_belongs_to_the_feature() -> None:
    """`查找` shares no word with the goal; the search field holds the spec's own query, so the button that
    runs it is the feature's, and the error it showed is the evidence. With a query of the run's own, or
    a button that neither commits nor searches, it is not."""
    words = ["visible: 找到 3 条“丽江古城”的结果", "搜索“丽江古城”能找到结果"]
    failed = page("搜索目的地", v("TextView", "加载失败，请稍后重试", id="err"))
    for query, label, evidence in (("丽江古城", "查找", True), ("测试内容", "查找", False), ("丽江古城", "清空", False)):
        blank = page("搜索目的地", field("输入目的地名称"), button(label))
        typed = page("搜索目的地", field("输入目的地名称", query), button(label))
        cov, first = start(blank, cov=Coverage(inputs=[("输入目的地名称", "丽江古城")]))
        filled = look(typed)
        act(cov, 1, first, "输入目的地名称", OutcomeKind.CONTENT_CHANGED, filled, action="type")
        act(cov, 2, filled, label, OutcomeKind.NEW_STATE, look(failed, activity="a.Error"))
        found = cov.evidence(words)
        assert (str(found) == f"step 2 (tap {label} on 搜索目的地) showed '加载失败，请稍后重试'") is evidence, found


def test_what_tells_a_wrong_screen_apart_is_its_content_not_its_way_out() -> None:
    """The exported check asserts a text only the wrong screen showed is not shown: `转到上一层级` is on
    every page but the first, the right one too."""
    cov, mine = start(page("我的", button("我的订单"), button("我的收藏")))
    up = v("ImageButton", desc="转到上一层级", id="up", clickable=True)
    favourites = look(page("我的收藏", up, v("TextView", "暂无收藏", id="empty")), activity="a.Fav")
    act(cov, 1, mine, "我的订单", OutcomeKind.NEW_STATE, favourites)
    found = cov.evidence(["查看历史订单：我的 → 我的订单"])
    assert found is not None and found.against is not None and found.against.shown == "暂无收藏"


def test_a_submit_refused_or_failing_keeps_nothing_and_the_first_failure_stays_the_evidence() -> None:
    """tests/unseen/helpdesk_ticket: with every input set, Submit shows a server error; the run then
    unticks the box (Submit refused), ticks it again (the error again). Neither the refused submit nor the
    failing ones changed the app's data, so the first failure stays the evidence; and the page after the
    error line appeared keeps the hints its fields showed at first sight."""
    subject, details = field("Subject"), field("Describe the problem")
    server = v("TextView", "Something went wrong. The ticket was not created.", id="server")
    refused = v("TextView", "Please fill in the subject and tick the consent box", id="form")

    def form(*extra: object, ticked: bool = True, typed: bool = True) -> tuple[StateId, Screen]:
        inputs = (field("Subject", "Printer"), field("Describe the problem", "Jams")) if typed else (subject, details)
        return look(page("Report a problem", *inputs, box("I agree", ticked), *extra, button("Submit ticket")), activity="a.Ticket")

    cov, first = start(page("Report a problem", subject, details, box("I agree", False), button("Submit ticket")), activity="a.Ticket")
    act(cov, 1, first, "Subject", OutcomeKind.CONTENT_CHANGED, form(ticked=False), action="type")
    act(cov, 2, form(ticked=False), "cb_agree", OutcomeKind.CONTENT_CHANGED, form())
    act(cov, 3, form(), "Submit ticket", OutcomeKind.NEW_STATE, form(server))
    act(cov, 4, form(server), "cb_agree", OutcomeKind.CONTENT_CHANGED, form(server, ticked=False))
    act(cov, 5, form(server, ticked=False), "Submit ticket", OutcomeKind.NEW_STATE, form(refused, ticked=False))
    act(cov, 6, form(refused, ticked=False), "cb_agree", OutcomeKind.CONTENT_CHANGED, form(refused))
    act(cov, 7, form(refused), "Submit ticket", OutcomeKind.STATE_CHANGED, form(server))
    words = ["visible: Ticket #4711 created", "Report a problem: fill in the Subject, tick I agree, tap Submit ticket"]
    assert str(cov.evidence(words)) == (
        "step 3 (tap Submit ticket on Report a problem) showed 'Something went wrong. The ticket was not created.'"
    )
    later = cov.at(7)
    assert later is not None and later.facts.unset == ()


def test_a_button_that_finishes_its_page_names_no_screen_and_opens_no_wrong_one() -> None:
    """`I agree` on a policy page goes back to the page it came from, which a tab named `Me` opens too:
    accepting names no screen, so that is not 'opened Me instead'."""
    cov, home = start(page("Wanderly", button("Me"), button("Help")))
    me = look(page("Me", button("Privacy Policy"), button("Settings")), activity="a.Me")
    policy = look(page("Privacy Policy", button("I agree")), activity="a.Policy")
    act(cov, 1, home, "Me", OutcomeKind.NEW_STATE, me)
    act(cov, 2, me, "Privacy Policy", OutcomeKind.NEW_STATE, policy)
    act(cov, 3, policy, "I agree", OutcomeKind.STATE_CHANGED, me)
    assert cov.evidence(["read the help answer once you agree to the privacy policy"]) is None


def test_a_save_back_on_the_page_a_sibling_tab_names_is_no_wrong_screen() -> None:
    cov, edit = start(page("Edit profile", button("Save"), button("Profile")))
    profile = look(page("Profile", button("Edit profile")), activity="a.Profile")
    act(cov, 1, edit, "Save", OutcomeKind.NEW_STATE, profile)
    assert cov.evidence(["save the profile"]) is None


def test_a_validation_message_for_the_specs_own_data_is_the_evidence() -> None:
    """`Invalid phone number` for the tester's own phone number: the form's check is broken. For a value
    the explorer made up, a working app says the same."""
    wall = page("Delivery details", field("Full name"), field("Phone number"), button("Confirm details"))
    given = [("Full name", "Alex Morgan"), ("Phone number", "5550123456")]
    for inputs, evidence in ((given, True), ([], False)):
        cov, first = start(wall, cov=Coverage(words="fill in the delivery details", inputs=inputs))
        typed = look(page("Delivery details", field("Full name", "Alex Morgan"), field("Phone number", "5550123456"), button("Confirm details")))
        refused = look(page("Delivery details", field("Full name", "Alex Morgan"), field("Phone number", "5550123456"), v("TextView", "Invalid phone number", id="err"), button("Confirm details")))
        act(cov, 1, first, "Full name", OutcomeKind.CONTENT_CHANGED, typed, action="type")
        act(cov, 2, typed, "Confirm details", OutcomeKind.CONTENT_CHANGED, refused)
        found = cov.evidence(["visible: Deliver to Alex Morgan", "fill in the delivery details and confirm them"])
        assert (str(found) == "step 2 (tap Confirm details on Delivery details) showed 'Invalid phone number'") is evidence, found


def test_a_submit_meeting_its_refusal_again_after_a_change_of_data_is_the_evidence_without_the_first() -> None:
    """Confirm refuses the tester's own phone number; a medicine is added to the cart (a change of data);
    back on the form, which still shows the error, Confirm changes nothing: it met the same refusal. That
    later tap is the evidence, an error as the first was, and its replay leaves out the earlier taps of
    Confirm that met it: a fixed app acts on them, and the walk would go elsewhere."""
    given = [("Full name", "Alex Morgan"), ("Phone number", "5550123456")]
    cov, wall = start(
        page("Delivery details", field("Full name"), field("Phone number"), button("Confirm details")),
        cov=Coverage(words="add a medicine to the cart, fill in the delivery details and confirm them", inputs=given),
    )
    typed = look(page("Delivery details", field("Full name", "Alex Morgan"), field("Phone number", "5550123456"), button("Confirm details")))
    refused = look(page("Delivery details", field("Full name", "Alex Morgan"), field("Phone number", "5550123456"), v("TextView", "Invalid phone number", id="err"), button("Confirm details")))
    product = look(page("Product details", button("Add to cart")), activity="a.Product")
    added = look(page("Product details", button("Add to cart"), v("TextView", "Added to cart", id="added")), activity="a.Product")
    act(cov, 1, wall, "Full name", OutcomeKind.CONTENT_CHANGED, typed, action="type")
    act(cov, 2, typed, "Confirm details", OutcomeKind.CONTENT_CHANGED, refused)
    act(cov, 3, refused, "Confirm details", OutcomeKind.NO_CHANGE, refused)
    cov.saw(*product, in_app=True)
    cov.acted(4, refused[0], "back|||", "back", Outcome("back", OutcomeKind.NEW_STATE), product[0], (refused[1], product[1]))
    act(cov, 5, product, "Add to cart", OutcomeKind.CONTENT_CHANGED, added)
    cov.saw(*refused, in_app=True)
    cov.acted(6, added[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), refused[0], (added[1], refused[1]))
    act(cov, 7, refused, "Confirm details", OutcomeKind.NO_CHANGE, refused)
    words = ["visible: Deliver to Alex Morgan", "add a medicine to the cart, fill in the delivery details and confirm them"]
    assert str(cov.evidence(words)) == "step 7 (tap Confirm details on Delivery details) showed 'Invalid phone number'"
    assert cov.log.same_before(7) == {2, 3}


def test_a_submit_that_opened_an_error_page_stays_the_evidence_when_it_does_so_again_after_a_change() -> None:
    """Confirm opens an error page under the form's own title; the run agrees to the membership rules (a
    change of data), then Confirm opens the error page again. A replay of the later tap cannot leave the
    first out of its walk (it left the form): the first is the evidence, and the shortest to replay."""
    words = "Book a visit: fill in your name, tick I agree and confirm"
    cov, home = start(page("Shelfie", button("Book a visit"), button("Membership Rules")), cov=Coverage(words=words))
    blank = look(page("Book a visit", field("Name"), button("Confirm")), activity="a.Form")
    form = look(page("Book a visit", field("Name", "Ann"), button("Confirm")), activity="a.Form")
    error = look(page("Book a visit", v("TextView", "Server error: 503 Service Unavailable", id="err")), activity="a.Error")
    rules = look(page("Membership Rules", button("I agree")), activity="a.Rules")
    act(cov, 1, home, "Book a visit", OutcomeKind.NEW_STATE, blank)
    act(cov, 2, blank, "Name", OutcomeKind.CONTENT_CHANGED, form, action="type")
    act(cov, 3, form, "Confirm", OutcomeKind.NEW_STATE, error)
    for step, (here, there) in enumerate(((error, form), (form, home)), start=4):
        cov.acted(step, here[0], "back|||", "back", Outcome("back", OutcomeKind.NEW_STATE), there[0], (here[1], there[1]))
    act(cov, 6, home, "Membership Rules", OutcomeKind.NEW_STATE, rules)
    act(cov, 7, rules, "I agree", OutcomeKind.NEW_STATE, home)
    act(cov, 8, home, "Book a visit", OutcomeKind.NEW_STATE, form)
    act(cov, 9, form, "Confirm", OutcomeKind.NEW_STATE, error)
    found = cov.evidence(["visible: Thanks! We received your request", words])
    assert str(found) == "step 3 (tap Confirm on Book a visit) showed 'Server error: 503 Service Unavailable'"


def test_a_tap_meets_no_refusal_of_its_own_that_another_element_or_an_earlier_page_showed() -> None:
    """Pay now shows `Payment failed`; Retry then changes nothing on the page that still shows it: Retry is
    dead, it was refused nothing. Nor is a tap that showed an error once, then changed nothing when its
    page showed another one, refused again."""
    failed = v("TextView", "Payment failed", id="failed")
    cov, checkout = start(page("Payments", button("Pay now"), button("Retry payment")))
    declined = look(page("Payments", button("Pay now"), button("Retry payment"), failed))
    offline = look(page("Payments", button("Pay now"), button("Retry payment"), failed, v("TextView", "Network error", id="net")))
    act(cov, 1, checkout, "Pay now", OutcomeKind.CONTENT_CHANGED, declined)
    act(cov, 2, declined, "Retry payment", OutcomeKind.NO_CHANGE, declined)
    act(cov, 3, declined, "Retry payment", OutcomeKind.CONTENT_CHANGED, offline)
    act(cov, 4, declined, "Retry payment", OutcomeKind.NO_CHANGE, declined)
    assert str(cov.at(2)) == "step 2 (tap Retry payment on Payments) changed nothing"
    assert str(cov.at(4)) == "step 4 (tap Retry payment on Payments) changed nothing"
    assert cov.log.same_before(4) == {2}


def destinations(*rows: str) -> tuple[StateId, Screen]:
    rv = v(RV, "", *(v("TextView", row, id=f"row_{i}", clickable=True) for i, row in enumerate(rows)), id="rv", scrollable=True)
    return look(page("Popular destinations", rv), activity="a.Catalog")


def test_a_row_the_feature_names_opening_the_page_its_plain_siblings_open_is_the_evidence() -> None:
    """`Award Winner: Kyoto` opened the Details page every plain row opens, which says nothing of it."""
    words = "scroll the list to 'Award Winner: Kyoto' and open it to read its Award Winner feature"
    cov, _ = start(page("Popular destinations", v(RV, "", id="rv", scrollable=True)), activity="a.Catalog", cov=Coverage(words=words))
    listed = destinations("Kyoto 12", "Havana 13", "Award Winner: Kyoto")
    details = look(page("Details", v("TextView", "No more details for this destination", id="text")), activity="a.Detail")
    kyoto_12 = look(page("Kyoto 12", v("TextView", "Kyoto in spring", id="text")), activity="a.City")
    cov.saw(*listed, in_app=True)
    act(cov, 1, listed, "Kyoto 12", OutcomeKind.NEW_STATE, kyoto_12)
    act(cov, 2, listed, "Award Winner: Kyoto", OutcomeKind.NEW_STATE, details)
    assert cov.evidence([words]) is None  # no sibling seen opening that page yet
    act(cov, 3, listed, "Havana 13", OutcomeKind.STATE_CHANGED, details)
    assert str(cov.evidence([words, "visible: Award Winner feature - all about Kyoto"])) == (
        "step 2 (tap Award Winner: Kyoto on Popular destinations) opened Details instead, which 'Havana 13' on "
        "Popular destinations opens"
    )


def test_a_row_whose_page_shows_another_rows_name_and_none_of_its_own_words_is_the_evidence() -> None:
    """`普拉提核心塑形` opened the course page of `战绳爆发力训练`, the row above it: no other row was tapped, the
    page says whose it is. A page that shows its own name too (the same coach's other course beside it)
    is its own."""
    words = "在课程列表里找到 普拉提核心塑形 并打开，查看它的课程介绍"
    listed = destinations("战绳爆发力训练", "普拉提核心塑形", "壶铃全身训练")
    cov, _ = start(page("燃动健身", v(RV, "", id="rv", scrollable=True)), activity="a.Main", cov=Coverage(words=words))
    cov.saw(*listed, in_app=True)
    other = look(page("课程详情", v("TextView", "战绳爆发力训练", id="name"), v("TextView", "教练：赵磊", id="coach")), activity="a.Course")
    act(cov, 1, listed, "普拉提核心塑形", OutcomeKind.NEW_STATE, other)
    assert str(cov.evidence([words])) == (
        "step 1 (tap 普拉提核心塑形 on Popular destinations) opened the 课程详情 of '战绳爆发力训练', another row, instead"
    )
    assert str(cov.at(1).against) == "tapping '普拉提核心塑形' does not open 战绳爆发力训练"

    cov, _ = start(page("燃动健身", v(RV, "", id="rv", scrollable=True)), activity="a.Main", cov=Coverage(words=words))
    cov.saw(*listed, in_app=True)
    own = look(page("课程详情", v("TextView", "普拉提核心塑形", id="name"), v("TextView", "战绳爆发力训练", id="next")), activity="a.Course")
    act(cov, 1, listed, "普拉提核心塑形", OutcomeKind.NEW_STATE, own)
    assert cov.evidence([words]) is None


def test_a_row_the_feature_does_not_name_or_a_page_that_says_what_it_opened_for_is_no_wrong_screen() -> None:
    """`Kyoto 12` is not the Kyoto the feature names (its number is not the feature's); a page that shows
    `Kyoto` is Kyoto's, whatever its siblings open."""
    words = "open Kyoto in Popular destinations"
    listed = destinations("Kyoto 12", "Havana 13", "Kyoto")
    details = look(page("Details", v("TextView", "No more details for this destination", id="text")), activity="a.Detail")
    kyoto = look(page("Details", v("TextView", "Kyoto: temples and gardens", id="text")), activity="a.Detail")
    cov, _ = start(page("Popular destinations", v(RV, "", id="rv", scrollable=True)), activity="a.Catalog", cov=Coverage(words=words))
    cov.saw(*listed, in_app=True)
    act(cov, 1, listed, "Kyoto 12", OutcomeKind.NEW_STATE, details)
    act(cov, 2, listed, "Havana 13", OutcomeKind.STATE_CHANGED, details)
    assert cov.evidence([words]) is None
    act(cov, 3, listed, "Kyoto", OutcomeKind.NEW_STATE, kyoto)
    act(cov, 4, listed, "Havana 13", OutcomeKind.STATE_CHANGED, kyoto)  # one page, its text aside
    assert cov.evidence([words]) is None


def test_a_banner_the_feature_names_opening_the_list_a_button_opens_too_is_no_wrong_screen() -> None:
    """The `Kyoto special` banner opens the catalog that `See all` opens: the way to Kyoto, not a list's
    row sent to the wrong page."""
    words = "open the Kyoto special from the home page"
    cov, home = start(page("GoPlaces", button("Kyoto special"), button("See all")), cov=Coverage(words=words))
    catalog = destinations("Havana 13", "Lisbon 14")
    act(cov, 1, home, "Kyoto special", OutcomeKind.NEW_STATE, catalog)
    act(cov, 2, home, "See all", OutcomeKind.STATE_CHANGED, catalog)
    assert cov.evidence([words]) is None


def test_the_allow_of_a_prompt_the_features_element_raised_is_the_features() -> None:
    """允许 on the location prompt 附近门店 raised opened the error page: that tap is the evidence. 附近门店,
    tapped again once allowed, opens the page still showing the error the Allow showed first."""
    words = "授权位置信息后能使用「附近门店」"
    cov, home = start(page("小象优品", button("附近门店"), button("我的")))
    prompt = look(page("小象优品", button("附近门店"), button("我的")), window("com.android.permissioncontroller", v("TextView", "允许访问位置信息？", id="msg"), button("允许"), button("拒绝")))
    failed = look(page("错误", v("TextView", "网络异常，请检查网络设置后重试", id="err")), activity="a.Error")
    act(cov, 1, home, "附近门店", OutcomeKind.NEW_STATE, prompt)
    act(cov, 2, prompt, "允许", OutcomeKind.NEW_STATE, failed)
    cov.acted(3, failed[0], "back|||", "back", Outcome("back", OutcomeKind.STATE_CHANGED), home[0], (failed[1], home[1]))
    act(cov, 4, home, "附近门店", OutcomeKind.STATE_CHANGED, failed)
    assert str(cov.evidence([words, "visible: 已为您找到 3 家附近门店"])) == "step 2 (tap 允许 on 小象优品) showed '错误'"
