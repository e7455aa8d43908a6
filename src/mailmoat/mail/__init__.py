"""Mail in and out: parsing into the store, IMAP sync, SMTP transport.

importer     .eml files, directories, Maildir and mbox from disk
imap runner  connecting (TLS, XOAUTH2), one pass or for good with IDLE
sync         one sync pass over an account's folders (CONDSTORE/QRESYNC when offered)
parse_pool   parsing and perceiving in worker processes while the next batch is fetched
server_actions ingress   lane actions on the server; the notification hook's interface
smtp         the SMTP + IMAP transport the executor sends through

May import: core/, store/, accounts/, judge/ (perception in the parse pool), learn/.
Never act/, notify/, services/ or entrypoints/.
"""
