"""Facts: what the screens before and after one action show about it - the element's kind (`Control`),
its form and what the form holds, the texts, error, toast and screen its outcome showed. The evidence
rules (explore/evidence.py) read a step's contradiction of its feature from these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pytest_fairy.explore.naming import names
from pytest_fairy.explore.state import DIALOG_KINDS, IGNORED_KINDS
from pytest_fairy.explore.target import input_named
from pytest_fairy.explore.vocabulary import (
    COMMIT_WORDS,
    FINISHING_WORDS,
    LEAVING_LABELS,
    NOTHING_FOUND_WORDS,
    QUERY_WORDS,
    is_error,
    refuses,
    says,
)
from pytest_fairy.perception.hierarchy import Node
from pytest_fairy.perception.layers import LayerKind
from pytest_fairy.perception.reading import reading_order
from pytest_fairy.perception.refs import list_row
from pytest_fairy.perception.relevance import overlap, tokens
from pytest_fairy.perception.screen import Mark, Screen

# How much of an error text a verdict quotes.
ERROR_QUOTED = 60


class Control(StrEnum):
    """What kind of element an action was taken on."""

    BUTTON = "button"  # tapped to make something happen
    OPTION = "option"  # a check box, switch or radio button: tapping it changes only itself
    FIELD = "field"  # a text field
    OTHER = "other"  # a list, or no element (back, a restart)


@dataclass(frozen=True, slots=True)
class Facts:
    """What the screens before and after one action show about it."""

    control: Control = Control.OTHER
    # The form inputs not set when it was taken: `'Email' empty`, `'I agree' unticked`.
    unset: tuple[str, ...] = ()
    inputs: int = 0  # how many inputs (fields and check boxes) its form has
    emptied: bool = False  # its form was empty, as the feature asks (`facts_of`)
    # Its form was empty, as the feature asks, to see it refused; it went on to another page instead, with
    # no error: a text of that page no text of the form holds (what a replay, or an export, looks for).
    accepted: str = ""
    spec_data: bool = False  # a field of its form held a value of the spec's inputs
    on_form: bool = False  # its page has text fields: a box ticked there is the form's, kept on submit
    credentials: bool = False  # a password field was on its screen, or on the one it led to
    query: bool = False  # its screen asks for a query (a search field): the run's own words may find nothing
    searched: bool = False  # its screen asks for a query, and a field holds the spec's test data
    nothing_found: str = ""  # a new text of its outcome saying that nothing was found
    # A way out (Navigate up, 返回, 关闭), a button that finishes its page (I agree, Save, 确定), or a
    # dialog's button that closed it (Remove, 删除, Log out: an act, not a screen): it names no screen, and
    # goes wherever the back stack says, so where it leads is never a wrong screen.
    leaving: bool = False
    # The labels of the other elements a person could use there, but its fields (what they show is input).
    siblings: tuple[str, ...] = ()
    error: str = ""  # error text (or an error toast) that its outcome showed and the screen before did not
    showing: tuple[str, ...] = ()  # the error texts its screen showed already (a refusal still standing)
    toast: str = ""  # a toast its outcome showed
    toasting: bool = False  # a toast showed after it, new or not (the same toast, shown again, looks alike)
    dialog: bool = False  # it led to a dialog
    acknowledged: bool = False  # it closed a dialog that told of a failure (the OK of an error alert)
    # A text of the screen it led to that the screen before did not show: what tells that screen apart
    # (its title may be a tab's label on every page too; a way out, `Navigate up`, is on every page).
    arrived: str = ""
    retitled: bool = False  # it led to a screen of another title: away from the page, not a change on it
    away: bool = False  # it led to another page: of another title, or another activity under one title
    here: bool = False  # the element names the screen it is on (a selected tab): tapping it may do nothing
    in_list: str = ""  # the list it is a row of (its id, else its class): "" when it is no list's row
    echoed: bool = False  # the screen it led to shows a word of its label
    row_shown: str = ""  # another row of its list whose label that screen shows (and none of its words)


def facts_of(
    acted_on: Screen,
    ref: str,
    reached: Screen,
    blanks: Sequence[str],
    inputs: Sequence[tuple[str, str]] = (),
    empty: bool = False,
    refusing: bool = False,
) -> Facts:
    """The facts of the action on the element `ref` of `acted_on` that led to `reached`; `blanks` are the
    texts its page's fields showed when the page was first seen, in reading order; `inputs`, the spec's
    test data by field name (a field holding one of its values was typed from the spec, not made up);
    `empty`, the feature asks for its form submitted empty (a form with every field empty is then set as
    asked); `refusing`, to see it refused (its done-when shows the refusal: `请填写收货人`)."""
    marks = usable(acted_on)
    fields = fields_of(marks)
    unset = unset_inputs(marks, blanks)
    fields_unset = unset_inputs(marks, blanks, boxes=False)
    emptied = empty and bool(fields_unset) and len(fields_unset) == len(fields)
    if emptied:
        unset = ()  # every field empty, as the feature asks
    mark = next((m for m in marks if m.ref == ref), None)
    new_toasts = [t for t in reached.toasts if t not in acted_on.toasts]
    texts = seen_texts(reached)
    shown = shown_anew(acted_on, reached)
    tester = _all_given(marks, blanks, inputs)  # every field holds the spec's own test data
    errors = [t for t in shown if refuses(t, tester)]
    found_none = [t for t in shown if any(w in t.casefold() for w in NOTHING_FOUND_WORDS)]
    label = mark.label.strip().casefold() if mark is not None else ""
    asks = _asks_query_on(acted_on, marks, mark)
    holds_given = _holds_given(fields, blanks, inputs)
    searched = asks and holds_given
    closed = acted_on.has_dialog and not reached.has_dialog
    taken = emptied and refusing and not errors and mark is not None and says(label, COMMIT_WORDS)
    return Facts(
        control=_control(mark),
        unset=unset,
        inputs=len(fields) + sum(1 for m in marks if _box(m.node)),
        emptied=emptied,
        accepted=_went_on(acted_on, reached) if taken else "",
        spec_data=holds_given,
        on_form=bool(fields),
        credentials=not tester and any(m.node.password for m in (*marks, *usable(reached))),
        query=asks and not searched,
        searched=searched,
        nothing_found=found_none[0][:ERROR_QUOTED] if found_none else "",
        leaving=_leaving(label) or says(label, FINISHING_WORDS) or (closed and _of_a_dialog(mark)),
        siblings=tuple(m.label for m in marks if m is not mark and m.label and not m.node.editable),
        error=errors[0][:ERROR_QUOTED] if errors else "",
        showing=tuple(t[:ERROR_QUOTED] for t in seen_texts(acted_on) if refuses(t, tester)),
        arrived=next((t for t in texts if t in shown and t != reached.title and not _leaving(t)), ""),
        toast=new_toasts[0] if new_toasts else "",
        toasting=bool(reached.toasts),
        dialog=reached.has_dialog and not acted_on.has_dialog,
        acknowledged=closed and any(map(is_error, seen_texts(acted_on, dialog=True))),
        retitled=reached.title != acted_on.title,
        away=reached.title != acted_on.title or reached.activity != acted_on.activity,
        here=mark is not None and (mark.node.selected or _tab_of(mark.label, acted_on.title)),
        in_list=_list_of(mark),
        echoed=(echoed := mark is not None and bool(overlap(mark.label, tokens(" ".join(texts))))),
        row_shown=_row_shown(marks, mark, texts) if not echoed else "",
    )


def usable(screen: Screen) -> list[Mark]:
    """The elements a person could act on: a dialog's own while one is up; never keyboard or system UI."""
    marks = [m for m in screen.marks if m.layer not in IGNORED_KINDS and m.node.enabled]
    if screen.has_dialog:
        marks = [m for m in marks if m.layer in DIALOG_KINDS]
    return marks


def field_texts(screen: Screen) -> tuple[str, ...]:
    """What the screen's text fields show, in reading order: on a page's first sight, their hints."""
    return tuple(node.text for node in fields_of(usable(screen)))


def unset_inputs(marks: Sequence[Mark], blanks: Sequence[str], *, boxes: bool = True) -> tuple[str, ...]:
    """The inputs of a form not set: fields empty or showing what they showed at first sight, check boxes
    unticked (unless not `boxes`)."""
    fields = fields_of(marks)
    first = list(blanks) if len(blanks) == len(fields) else [""] * len(fields)
    pairs = zip(fields, first, strict=True)
    unset = [f"'{f.text or f.short_id or 'a field'}' empty" for f, b in pairs if f.text in ("", b)]
    unset += [f"'{m.label}' unticked" for m in marks if boxes and _box(m.node) and not m.node.checked]
    return tuple(unset)


def _asks_query_on(screen: Screen, marks: Sequence[Mark], mark: Mark | None) -> bool:
    """A search form: its title, one of its fields or the button itself asks for a query."""
    named = any(word in screen.title.casefold() for word in QUERY_WORDS)
    fields = any(_asks_query(node) for node in fields_of(marks))
    return named and bool(fields_of(marks)) or fields or _asks_query(mark.node if mark else None)


def _asks_query(node: Node | None) -> bool:
    if node is None:
        return False
    words = f"{node.text} {node.content_desc} {node.short_id}".casefold()
    return any(word in words for word in QUERY_WORDS)


def _tab_of(label: str, title: str) -> bool:
    """A label naming the screen it is on, like the tab of that screen: not a commit button, which may
    share its form's title (`Create account` on `Create your account`)."""
    return names(label, title) and not says(label, COMMIT_WORDS)


def _all_given(marks: Sequence[Mark], blanks: Sequence[str], inputs: Sequence[tuple[str, str]]) -> bool:
    """Whether the spec's inputs name every field of the form (by its hint at first sight, its id): what
    was typed is the tester's own, a password too, not made up."""
    fields = fields_of(marks)
    return bool(fields) and all(value for value in _named_inputs(fields, blanks, inputs))


def _holds_given(fields: Sequence[Node], blanks: Sequence[str], inputs: Sequence[tuple[str, str]]) -> bool:
    """Whether a field holds the spec's test data for that very field (`qa_tester` made up for a name is
    not the spec's account); by value alone when the fields' hints at first sight are not known."""
    if len(blanks) != len(fields):
        given = {value for _, value in inputs if value}
        return any(node.text in given for node in fields if node.text)
    named = _named_inputs(fields, blanks, inputs)
    return any(node.text and node.text == value for node, value in zip(fields, named, strict=True))


def _named_inputs(
    fields: Sequence[Node], blanks: Sequence[str], inputs: Sequence[tuple[str, str]]
) -> list[str | None]:
    """The spec's test data for each field, by its hint at first sight (when known) and its id."""
    hints = list(blanks) if len(blanks) == len(fields) else [""] * len(fields)
    return [
        input_named(inputs, hint, node.resource_id, node.short_id, node.content_desc)
        for node, hint in zip(fields, hints, strict=True)
    ]


def fields_of(marks: Sequence[Mark]) -> list[Node]:
    return reading_order([m.node for m in marks if m.node.editable])


def _box(node: Node) -> bool:
    return node.checkable and "CheckBox" in node.class_name


def _list_of(mark: Mark | None) -> str:
    row = list_row(mark.node) if mark is not None else None
    return "" if row is None or row.parent is None else row.parent.resource_id or row.parent.class_name


def _row_shown(marks: Sequence[Mark], mark: Mark | None, texts: Sequence[str]) -> str:
    """The label of another row of `mark`'s list that `texts` (the screen it led to) show; ""."""
    in_list = _list_of(mark)
    if not in_list:
        return ""
    rows = {m.label for m in marks if m is not mark and m.label and _list_of(m) == in_list}
    return next((text for text in texts if text in rows), "")


def _of_a_dialog(mark: Mark | None) -> bool:
    """`mark` is a button of a dialog (an alert's Remove, a confirm's OK): not an item of a menu, a sheet,
    a drawer or a dialog's list, which may each name a screen."""
    if mark is None or mark.layer not in (LayerKind.DIALOG, LayerKind.SYSTEM_DIALOG):
        return False
    return mark.node.push_button


def _control(mark: Mark | None) -> Control:
    if mark is None:
        return Control.OTHER
    node = mark.node
    if node.editable:
        return Control.FIELD
    if node.checkable:
        return Control.OPTION
    if node.clickable or node.long_clickable:
        return Control.BUTTON
    return Control.OTHER


def shown_anew(acted_on: Screen, reached: Screen) -> list[str]:
    """The texts and toasts `reached` shows that `acted_on`, the screen before the action, did not."""
    before = {*seen_texts(acted_on), *acted_on.toasts}
    return [t for t in (*seen_texts(reached), *reached.toasts) if t not in before]


def seen_texts(screen: Screen, dialog: bool = False) -> list[str]:
    """The texts a person sees, in order; `dialog`: only the dialog's in front."""
    return [
        text
        for layer in screen.layers
        if layer.kind not in IGNORED_KINDS and (not dialog or layer.kind in DIALOG_KINDS)
        for node in layer.nodes()
        if node.visible and (text := (node.text or node.content_desc).strip())
    ]


def _went_on(form: Screen, reached: Screen) -> str:
    """A text of `reached`, another page than the `form` (of another title or activity; not a dialog over
    it), that no text of the form holds: `共 2 个收货地址`, not `收货地址` inside `新增收货地址`. "" when it
    is no other page, or has none."""
    if reached.title == form.title and reached.activity == form.activity or reached.has_dialog:
        return ""
    held = [text.casefold() for text in (*seen_texts(form), *field_texts(form))]
    apart = (t for t in seen_texts(reached) if len(t) > 1 and not _leaving(t))
    return next((t[:ERROR_QUOTED] for t in apart if not any(t.casefold() in h for h in held)), "")


def _leaving(text: str) -> bool:
    return text.strip().casefold() in LEAVING_LABELS
