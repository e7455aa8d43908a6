"""The ingress pipeline's notification hook: new PUSH and MEETING mail runs the notifier.

The notifier itself (rules, dedup, rate limits, digest) is `notify.dispatch.notify_account`;
this only decides when to call it. The web page's address for the links in a notification
comes from MAILMOAT_BASE_URL (default: the address `mailmoat up` serves on).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.mail.ingress import Arrival
from mailmoat.notify.dispatch import notify_account
from mailmoat.store.repos import Repos

log = logging.getLogger(__name__)
NOTIFYING_LANES = frozenset({"PUSH", "MEETING"})
DEFAULT_BASE_URL = "http://127.0.0.1:8025"


def base_url() -> str:
    return os.environ.get("MAILMOAT_BASE_URL", DEFAULT_BASE_URL)


class NotifyOnArrival:
    def __init__(self, store: Any, url: str | None = None) -> None:
        self.repos = Repos(store, sealer=load_key_ring())
        self.url = url or base_url()

    def on_decided(self, arrival: Arrival) -> None:
        # Quiet lanes never notify; the notifier's own log stops a second send of the same
        # message when several arrive in one pass.
        if arrival.lane in NOTIFYING_LANES:
            report = notify_account(self.repos, arrival.account, self.url)
            log.info("notify %s: sent %s, held %s", arrival.account, report.sent, report.held)
