"""Which step screenshots a run keeps: the artifact policy, as pytest-playwright words it."""

from __future__ import annotations

from enum import Enum


class ArtifactPolicy(Enum):
    """`--fairy-artifacts-policy`: what the session store and Allure keep of the step screenshots.

    ON keeps every step's screenshot. RETAIN_ON_FAILURE writes them as the item runs (a killed run still
    leaves them) and deletes them when its exploration passes. OFF writes none; `steps.jsonl`, the trees and
    the result are written under every policy."""

    ON = "on"
    RETAIN_ON_FAILURE = "retain-on-failure"
    OFF = "off"

    def writes(self) -> bool:
        return self is not ArtifactPolicy.OFF

    def keeps(self, passed: bool) -> bool:
        """Whether the screenshots of an item that ended so stay on disk."""
        return self is ArtifactPolicy.ON or (self is ArtifactPolicy.RETAIN_ON_FAILURE and not passed)
