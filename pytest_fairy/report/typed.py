"""What a move types, for an exported test: literal text, and the environment variables that hold what is
never written down (a spec's secret, typed as its placeholder `{{NAME}}`; text typed into a password
field that no secret names, which the step's words show masked and the export reads from
`FAIRY_TYPED_<step>`)."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_fairy.explore.action import MASK, ActionKind
from pytest_fairy.explore.reproduction import Move, Reproduction
from pytest_fairy.spec.secrets import PLACEHOLDER


@dataclass(frozen=True, slots=True)
class Piece:
    text: str  # literal text, or the name of the environment variable that holds it
    from_env: bool = False


def into_password(move: Move) -> bool:
    """The move typed into a password field: its words show the text masked (`Action.describe`)."""
    return move.kind is ActionKind.TYPE and MASK in move.words


def typed(move: Move, step: int) -> tuple[Piece, ...]:
    """The text of a type move, in pieces; `step` numbers the move in its way."""
    text = move.action.text or ""
    if into_password(move) and not PLACEHOLDER.search(text):
        return (Piece(f"FAIRY_TYPED_{step}", from_env=True),)
    pieces: list[Piece] = []
    last = 0
    for found in PLACEHOLDER.finditer(text):
        if found.start() > last:
            pieces.append(Piece(text[last : found.start()]))
        pieces.append(Piece(found.group(1), from_env=True))
        last = found.end()
    if last < len(text) or not pieces:
        pieces.append(Piece(text[last:]))
    return tuple(pieces)


def environment(reproduction: Reproduction) -> tuple[str, ...]:
    """The environment variables an exported test of `reproduction` reads, in the order it types them."""
    names = (
        piece.text
        for i, move in enumerate(reproduction.way.moves, start=1)
        if move.kind is ActionKind.TYPE
        for piece in typed(move, i)
        if piece.from_env
    )
    return tuple(dict.fromkeys(names))


def run_line(reproduction: Reproduction, command: str) -> str:
    """`command` as a shell line that names every variable the test needs: `ANDROID_SERIAL=<serial>
    FAIRY_TYPED_2=... python -m pytest test_x.py`."""
    return " ".join(
        ["ANDROID_SERIAL=<serial>", *(f"{name}=..." for name in environment(reproduction)), command]
    )
