"""Text the reports quote on one line: a label, a reason, a message, its breaks and runs of spaces
folded, cut to fit with an ellipsis when a limit is given. Shared by the Allure steps, the tree picture
and its layout, the build-to-build diff and the exported reproductions."""

from __future__ import annotations


def one_line(text: str, limit: int | None = None) -> str:
    text = " ".join(text.split())
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"
