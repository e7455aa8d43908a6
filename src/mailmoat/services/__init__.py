"""The application layer, the only place that composes feature packages with the store:
bootstrap (the one way to open the store, scorers, key ring, transports), ingest
(parse -> facts -> classify -> save), the sync pass (sync + notify + AUTO sweep + outbox),
relabel (the one human relabel), imports (mail from disk).

May import: the feature packages, store/, core/. Never entrypoints.
"""
