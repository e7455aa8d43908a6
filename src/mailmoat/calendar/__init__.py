"""Calendars: linked CalDAV collections and read-only ICS feeds (registry with sealed
secrets), incremental sync into the store (sync-token, else ctag/ETag), the user's busy view
for slot checks, and idempotent writes by UID. No CLI, no jobs.

May import: core/, store/ and accounts/ (secrets only). Never services/ or entrypoints/.
"""
