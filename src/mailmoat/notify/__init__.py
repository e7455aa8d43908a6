"""Notifications: pure rules (rules.py), signed links (signing.py), channels and dispatch.

rules      who is notified about what, when (a pure decision)
dispatch   runs the rules over new mail and sends through the channels
channels   Apprise URLs and web push; keys  link-signing and VAPID keys
settings   the per-account notification settings as the web forms take them
hook       the arrival hook a sync pass calls

May import: core/, store/. Never act/, judge/, services/ or entrypoints/.
"""
