"""When the recorded way to a screen is gone: cached replay stops asking instead of exploring anew.

A rebuilt app may drop a screen the recording went through (a dialog no longer opens). Replay takes the
recorded action on an unchanged screen and lands past the dropped screens; with no decision recorded for
where it landed, cached replay would hand the rest of the feature to the LLM, which explores for it until
its budget is spent. The build-to-build diff calls those screens gone; so does replay, and it stops there,
when the recording says so for sure (`way_gone`):

- the action just taken was the recorded one, replayed on the very screen it was recorded on (the same
  state, found on the recorded path or by screen): where it leads now is where the recorded way goes in
  this build;
- the recording's next step was taken right after it (no escape or return step in between, which are not
  recorded), so its screen is where that action led when it was recorded;
- the screen reached is not that one and does not look like it (activity, title, dialog or not), so it is
  not that screen changed: that screen is no longer on the way;
- the screen reached looks like a screen the recording reached later: the way now skips the screens in
  between. A screen the recording never saw may be a new step on the way (a new dialog, a login): the LLM
  is asked, as for any changed screen.

It is checked only where no recorded decision fits the screen reached: a screen the app now skips that the
feature did not need (a welcome dialog) leaves a screen whose recorded decision replays.
"""

from __future__ import annotations

from pytest_fairy.explore.decisions import NoRecordedDecision
from pytest_fairy.replay.recording import RecordedStep

NAMED = 6  # gone screens named in the reason


class WayGone(NoRecordedDecision):
    """The recorded way to some screens is gone: the item ends inconclusive, naming them, without asking."""


def look(state_key: str, title: str) -> tuple[str, str, bool]:
    """What the build-to-build diff pairs a changed screen by: activity, title, a dialog or not."""
    parts = state_key.split("|")
    return parts[0], title, len(parts) > 2 and bool(parts[-1])


def way_gone(steps: list[RecordedStep], taken: int, here: RecordedStep) -> str:
    """Why the recorded way is gone, or "" when the recording does not say so for sure. `taken`: the index in
    `steps` of the recorded step whose action, replayed on the screen it was recorded on, led to `here`
    (where no recorded decision fits)."""
    if not 0 <= taken < len(steps) - 1:
        return ""
    before, expected = steps[taken], steps[taken + 1]
    if expected.step != before.step + 1:
        return ""
    reached = look(here.state, here.title)
    if reached == look(expected.state, expected.title):
        return ""  # that screen changed, it is not gone
    later = next(
        (n for n in range(taken + 2, len(steps)) if look(steps[n].state, steps[n].title) == reached), None
    )
    if later is None:
        return ""  # a screen the recording never saw: a new step on the way, perhaps
    gone = list(dict.fromkeys(_named(step) for step in steps[taken + 1 : later]))
    shown = ", ".join(gone[:NAMED]) + (f" and {len(gone) - NAMED} more" if len(gone) > NAMED else "")
    action = before.decision.action if before.decision is not None else None
    what = f"'{action.kind} {action.label}'" if action is not None and action.label else "the recorded action"
    return (
        f"the recorded way is gone: {what} on {before.state_name} now leads to {_named(here)}, past "
        f"{shown}, which the recording went through; cached replay does not explore for them anew "
        "(--fairy-no-cache does)"
    )


def _named(step: RecordedStep) -> str:
    return f'{step.state_name} "{step.title}"' if step.title else step.state_name
