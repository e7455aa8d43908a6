"""Mail accounts: settings, secrets sealed at rest, OAuth token exchange.

registry   the accounts table as AccountSettings: add, list, get, remove, re-seal
secrets    the key ring (MAILMOAT_SECRET_KEY or the key file) that seals passwords and tokens
oauth      XOAUTH2 token refresh
presets    provider settings and short recipes for the web page that adds an account

May import: core/ and store/. Never other feature packages, services/ or entrypoints/.
"""
