"""Perception: from a hierarchy dump and a screenshot to what the explorer and the brain see."""
