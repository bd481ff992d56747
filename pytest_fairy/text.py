"""Text quoted and cut to fit: on one line (a label, a reason, a message: its breaks and runs of spaces
folded, an ellipsis where it was cut), or keeping its lines (a screen's text for a prompt, a mark saying
it was cut). Shared by every layer that quotes what a screen or a run said."""

from __future__ import annotations

ELLIPSIS = "…"


def one_line(text: str, limit: int | None = None) -> str:
    """`text` on one line, at most `limit` characters (the last an ellipsis when it was cut)."""
    text = " ".join(text.split())
    return text if limit is None or len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


def cut(text: str, limit: int, mark: str = ELLIPSIS) -> str:
    """`text` with its lines, at most `limit` characters, ending in `mark` when it was cut."""
    text = text.strip()
    return text if len(text) <= limit else text[: max(0, limit - len(mark))] + mark
