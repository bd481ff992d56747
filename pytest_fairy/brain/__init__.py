"""Brains: what decides the next action, the plan and whether a feature is done.

Owns: the implementations of the `Brain` protocol (defined with the loop, in
`pytest_fairy.explore.decisions`): the offline brain (a deterministic systematic explorer, no LLM), the
scripted brain (a list of actions, for tests and plain Python), and the Claude brain (the anthropic SDK:
settings, request shaping and sending, tool schemas, answer parsing, the bounded context, the follow-up
queue, prices). anthropic errors become `BrainError` here and go no further.
May import: `errors`, `spec`, `devices`, `perception`, `explore`. The anthropic SDK is imported only by the
Claude brain's modules, so an offline run never pays for it.
"""
