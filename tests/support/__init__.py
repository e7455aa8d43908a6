"""Test support: real servers (mailserver, dovecot, llama_server, llm_server), fixtures
(registered in tests/conftest.py through pytest_plugins) and helpers."""
