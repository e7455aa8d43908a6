"""The adversarial corpus: hostile emails written for mailmoat, in families.

corpus        the hostile emails, each with what it must not achieve
containment   runs them through the cascade and the action gate; what got through
obedient      a scorer that does whatever the email says, to prove the policy still holds

May import: core/, store/, judge/, act/. Never services/ or entrypoints/.
"""
