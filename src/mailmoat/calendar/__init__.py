"""Calendars: linked CalDAV collections (password, bearer token or OAuth), free/busy-only
CalDAV calendars (busy periods only) and read-only ICS feeds (registry with sealed secrets),
incremental sync into the store (sync-token, else ctag/ETag), the user's busy view for slot
checks, and idempotent writes by UID. No CLI, no jobs.

May import: core/, store/ and accounts/ (secrets, and oauth for access tokens). Never
services/ or entrypoints/.
"""
