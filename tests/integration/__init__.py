"""Integration tests against real servers: mail-devel IMAP/SMTP, Dovecot, PostgreSQL, Redis,
the llama.cpp model server, uvicorn."""
