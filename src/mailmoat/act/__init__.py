"""Acting on mail, behind a person's approval (docs/authority.md).

service     `ActionService`: propose, edit, approve (mints the receipt), reject, list, show
executor    the guarded executor: claims outbox rows, re-checks the receipt, sends exactly once
reversible  approved reversible actions (archive, move, label...) applied on the IMAP server
auto        the AUTO sweep: confidence canaries into triage, unattended work in AUTO mode
drafter     AUTO's reply drafter on the LLM judge
modes triage snoozes audit recording errors   the smaller pieces those share

May import: core/, store/, judge/ (the drafter), mail/ (transport types), accounts/, learn/.
Never services/ or entrypoints/; no CLI, no jobs (entrypoints/ holds those).
"""
