"""Text quoted on one line: a label, a reason, a message, its breaks and runs of spaces folded, cut to fit
with an ellipsis when a limit is given. Shared by every layer that quotes what a screen or a run said."""

from __future__ import annotations

ELLIPSIS = "…"


def one_line(text: str, limit: int | None = None) -> str:
    """`text` on one line, at most `limit` characters (the last an ellipsis when it was cut)."""
    text = " ".join(text.split())
    return text if limit is None or len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS
