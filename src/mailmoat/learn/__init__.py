"""Learning from what people do (docs/learning.md).

ledger   the append-only corrections ledger in the database
history  sender facts for ingest, and who the user wrote to
model    the hashed-feature linear model; scorer  the learned scorer for the cascade
service  `Learning`: one object over a Store for corrections, rules, pins, facts, few-shot
cli      `mailmoat rules ...` and `mailmoat correct`

Nothing is imported here: the store imports `learn.history` while it loads.
"""
