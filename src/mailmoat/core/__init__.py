"""Pure functions and value types. Nothing in here does I/O, reads a clock or touches a DB.

message features signals policy local_scorer   a message, its numbers and signals, the policy
word_model word_weights   the local scorer's second reader: a trained word model, its weights
facts rules fewshot relabel   sender facts, rule and pin keys, few-shot choice, the relabel rule
receipts hashing outbox actions recipients address_guard   approvals bound to exact bytes
untrusted text words addresses public_domains   email text as data
autonomy lane_actions mailbox_sync lanes trace records   modes, server actions, sync state
leases schedule   who may take a lease and when; which periodic jobs are due
explain   one line in plain words for why a message is in its lane, from its trace

May import: nothing from mailmoat outside core/ (checked by import-linter).
"""
