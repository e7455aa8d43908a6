"""The daily digest, composed: the store's last 24 hours and the approvals waiting, the pure
note (notify/digest.py), and delivery through the account's notification channels (its
Apprise URLs, `mailto://` for email, and Web Push). It never goes through SMTP itself:
only the guarded executor reaches an account's SMTP server (SECURITY.md S-ACT-7).

Once a day per account and local date: the first sender claims `digest:<account>:<date>`
(a row the database keeps once), so several workers, or a hand-run `mailmoat notify digest
--send`, never send it twice. Off until the person sets `daily_digest_hour`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from mailmoat.act.service import ActionService
from mailmoat.notify.channels import Note
from mailmoat.notify.digest import (
    LIST_LIMIT,
    LISTED_LANES,
    Digest,
    DigestInput,
    Filed,
    Waiting,
    build_digest,
    daily_digest_due,
)
from mailmoat.notify.dispatch import deliver
from mailmoat.notify.settings import AccountNotifySettings
from mailmoat.services.bootstrap import key_ring
from mailmoat.services.leases import holder_name
from mailmoat.store import leases
from mailmoat.store.messages import Store
from mailmoat.store.repos import Repos

SPAN = timedelta(hours=24)
CLAIM_KEPT = timedelta(days=2)  # a day's claim outlives the day (no second send on a retry)


@dataclass(frozen=True)
class DigestOutcome:
    account: str
    digest: Digest | None
    sent: bool
    why: str  # what happened, for the log and the command line


def compose(store: Store, account: str, base_url: str, now: datetime | None = None,
            repos: Repos | None = None) -> Digest | None:
    """The note for the last 24 hours, or None when there is nothing to say."""
    now = now or datetime.now(UTC)
    repos = repos or Repos(store, sealer=key_ring())
    counts, listed = repos.summaries.arrivals(account, now - SPAN, now, LISTED_LANES, LIST_LIMIT)
    waiting = [Waiting(a["id"], a["action"], a["to"], a["subject"])
               for a in ActionService(store.engine).list(account, "pending", limit=LIST_LIMIT + 1)]
    return build_digest(DigestInput(
        account, int(SPAN.total_seconds() // 3600), counts,
        [Filed(m["id"], m["lane"], m["from_addr"], m["subject"] or "") for m in listed],
        waiting), base_url)


def send_digest(store: Store, account: str, base_url: str, now: datetime | None = None,
                scheduled: bool = True) -> DigestOutcome:
    """Send today's digest once. `scheduled`: only when due by the account's settings (the
    hook every worker runs); False: now, whatever the hour (`notify digest --send`)."""
    now = now or datetime.now(UTC)
    repos = Repos(store, sealer=key_ring())
    settings = AccountNotifySettings.load(repos.settings.get(account))
    local_now = now.astimezone(ZoneInfo(settings.notify.timezone))
    if scheduled and not daily_digest_due(local_now, settings.notify.daily_digest_hour,
                                          settings.notify.rules().quiet_hours):
        return DigestOutcome(account, None, False, "not due")
    digest = compose(store, account, base_url, now, repos)
    if digest is None:
        return DigestOutcome(account, None, False, "nothing to say")
    if not settings.notify.apprise_urls and not repos.push.subscriptions(account):
        return DigestOutcome(account, digest, False, "no notification channel: add an Apprise "
                             "URL (mailto://, ntfy://, ...) in Settings or subscribe a browser")
    stamp = now.timestamp()
    claim = f"digest:{account}:{local_now.date().isoformat()}"
    if not leases.take(store, None, claim, holder_name("digest"), uuid.uuid4().hex, stamp,
                       stamp + CLAIM_KEPT.total_seconds()):
        return DigestOutcome(account, digest, False, "already sent today")
    ok = deliver(repos, settings, account, Note(digest.title, digest.body, digest.url))
    return DigestOutcome(account, digest, ok, "sent" if ok else "no channel accepted it")


def send_due_digests(store: Store, base_url: str, now: datetime | None = None
                     ) -> list[DigestOutcome]:
    """The schedule hook: every account whose digest is due now gets it (once a day)."""
    from mailmoat.accounts.registry import list_accounts

    names = sorted({a.name for a in list_accounts(store)} | set(store.accounts()))
    return [send_digest(store, name, base_url, now) for name in names]
