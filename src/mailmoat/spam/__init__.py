"""A local spam engine as an optional fact source: an rspamd client (`rspamd.py`) and the
helper that starts a private rspamd for tests and benchmarks (`server.py`).

May import: core/ only. Never services/ or entrypoints/.
The engine's score becomes `Facts.spam_score`; mailmoat works without it.
"""
