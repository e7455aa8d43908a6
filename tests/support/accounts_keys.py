"""A throwaway sealing key in this process's environment, inherited by the processes it
starts (for benchmarks and topology tests that run `mailmoat` subprocesses)."""

from __future__ import annotations

import os


def use_fresh_key() -> str:
    from mailmoat.accounts.secrets import encode_key, new_key

    key = encode_key(new_key())
    os.environ["MAILMOAT_SECRET_KEY"] = key
    return key
