"""Exploration: the loop, and everything it remembers and decides by rule.

Owns: the target and mission of one feature; actions and how they are carried out; state identity (the
structure hash with dynamic text filtered, the dialog layer); the feature tree; the loop guard and the
budgets; oracles, the risk policy and the verdict; the step records and the result; the `Brain` protocol
and the messages that cross it; and the `Explorer` whose loop ties them together.
May import: `errors`, `spec`, `devices` (the protocols), `perception`. Brains implement the protocol from
above; nothing here imports a brain, a report or the plugin.
"""
