"""Learning from what people do (docs/learning.md).

ledger   the append-only corrections ledger in the database
history  sender facts for ingest, and who the user wrote to
model    the hashed-feature linear model; scorer  the learned scorer for the cascade
service  `Learning`: one object over a Store for corrections, rules, pins, facts, few-shot
training live   training sets from corrections, the live learned scorer

May import: core/ and store/. Never judge/, act/, services/ or entrypoints/ (the
`mailmoat rules` and `correct` commands live in entrypoints/cli/learn.py). Nothing is
imported here.
"""
