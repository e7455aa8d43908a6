"""Calendar: CalDAV, ICS and free slots for the MEETING lane's cross-check (being filled).

May import: core/ and store/. Never services/ or entrypoints/; no CLI and no jobs.
"""
