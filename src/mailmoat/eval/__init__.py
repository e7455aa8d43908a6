"""Evals: the public sets, floors and baselines, the delta eval, the adversarial corpus and
the AgentDojo bridge.

runner floors baseline delta   metrics on an eval set, committed floors, stored baselines
compare                        model comparison on an eval set (tokens, cost)
adversarial/                   hostile emails in families, and what they may not achieve
agentdojo_bridge agentdojo_calls   AgentDojo's workspace suite through the action layer

May import: core/, store/ and the other feature packages. Never services/ or entrypoints/
(the `mailmoat eval`/`report` commands and services/eval_report.py compose them).
"""
