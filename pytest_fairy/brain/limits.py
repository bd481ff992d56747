"""How much of a run one message to the model may carry: the named limits of the context and the memory."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ContextLimits:
    """How much of each part of the run goes into one message."""

    recent_k: int = 6  # the last K transitions shown verbatim
    max_milestones: int = 8
    image_long_edge: int = 1024
    jpeg_quality: int = 80
    max_screen_chars: int = 6000
    max_section_chars: int = 2000  # recent states, tree summary, plan steps, guard evidence
    max_story_chars: int = 8000  # the explorer's story handed to the summary
    max_note_chars: int = 240  # the words of a step the brain did not decide, beside its transition

    def __post_init__(self) -> None:
        positive = (
            "recent_k",
            "max_milestones",
            "image_long_edge",
            "max_screen_chars",
            "max_section_chars",
            "max_note_chars",
        )
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"ContextLimits.{name} must be positive, got {getattr(self, name)}")
