"""The application layer, the only place that composes feature packages with the store:
bootstrap (the one way to open the store, scorers, key ring, transports), ingest
(parse -> facts -> classify -> save), the sync pass (sync + notify + meeting proposals +
AUTO sweep + outbox), meeting (the MEETING context, proposals, and meeting_sweep: proposals
made after sync and by the AUTO sweep, never approved unattended),
relabel (the one human relabel), imports (mail from disk), jobs (the bodies every job runner
runs), leases (holding a lease in the database with a heartbeat), watchers (IDLE watch pools
sharded by leases), mailbox_setup (the web's step-by-step account test and first sync).

May import: the feature packages, store/, core/. Never entrypoints.
"""
