"""The docs a user reads stay true to the repository: every relative link leads to a file that is there
(and to a heading that is there), and the advice a newcomer tripped on is given where it is needed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted([REPO / "README.md", REPO / "benchmarks" / "README.md", *(REPO / "docs").glob("*.md")])
LINK = re.compile(r"\[[^\]]*\]\((?!https?://|mailto:)([^)\s]+)\)")


def anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    found = set()
    for heading in re.findall(r"^#+\s+(.+)$", markdown, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    broken = []
    for target in LINK.findall(text):
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
            broken.append(f"{target}: no such heading")
    assert not broken, broken


def test_no_doc_points_at_a_design_file_that_is_not_in_the_repository() -> None:
    for doc in DOCS:
        assert "DESIGN.md" not in doc.read_text(encoding="utf-8"), doc


def test_where_k_is_documented_it_says_it_is_pytests_expression_grammar() -> None:
    text = (REPO / "docs" / "spec-format.md").read_text(encoding="utf-8")
    assert "`-k`, which takes pytest's expression grammar" in text
    assert "`-k 'delivery and time'`" in text and "is a syntax error" in text
