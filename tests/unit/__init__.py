"""Unit tests: pure functions and in-process pieces; no server, no browser."""
