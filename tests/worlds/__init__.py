"""Generated test worlds: seeded virtual apps with the structures of real apps, whose generator knows
each feature's true answer.

    from worlds import generate, write        # tests/ is on sys.path in this repository's test runs

    world = generate(7)                       # the same seed, the same world, byte for byte
    world.clean                               # Twin: the app that works (app model + spec)
    world.bugs                                # Twins: the same app with one seeded bug each
    world.features                            # Feature: name, module, goal, done_when, path (the truth)
    twin.bug                                  # Bug: kind, feature, bug_at, step, detail
    write(world, folder)                      # app.yaml + test_world7.yaml per twin

The parts: `words` (themes and labels, Chinese and English), `blocks` (the shape of a building block),
`onboarding`, `navigation`, `lists`, `pages`, `forms`, `panels` and `state` (the blocks), `bugs` (bug sites and the edits that seed them),
`generator` (assembling an app), `truth` (the answers), `writer` (files), `walker` (walking a path on a
`VirtualDevice`).
"""

from .generator import generate
from .truth import BUG_KINDS, Bug, Feature, Step, Twin, World
from .writer import write

__all__ = ["BUG_KINDS", "Bug", "Feature", "Step", "Twin", "World", "generate", "write"]
