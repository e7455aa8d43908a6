"""The notifier's imperative shell: read fresh PUSH/MEETING mail and the account's settings,
ask the pure rules what to do, send, and log it so nothing notifies twice.

Sync calls it for new PUSH/MEETING mail (`notify.hook.NotifyOnArrival`); `mailmoat notify
run` calls it by hand (digests, "later" links coming due).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from mailmoat.notify.channels import Note, send_apprise, send_webpush
from mailmoat.notify.keys import link_key, vapid
from mailmoat.notify.rules import (
    Candidate,
    History,
    Verdict,
    arrival_time,
    decide_notification,
    digest_due,
    digest_text,
)
from mailmoat.notify.settings import AccountNotifySettings
from mailmoat.notify.signing import LinkClaim, sign_link
from mailmoat.store.repos import Repos

LINK_LIFETIME = timedelta(hours=24)
LATER_DELAY = timedelta(hours=2)


@dataclass(slots=True)
class Report:
    sent: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    skipped: dict[int, str] = field(default_factory=dict)
    digest: list[int] = field(default_factory=list)


def _links(repos: Repos, base_url: str, account: str, message_id: int,
           now: datetime) -> tuple[str, str, str]:
    key = link_key(repos.secrets)
    expires = int((now + LINK_LIFETIME).timestamp())
    later = sign_link(key, LinkClaim("later", account, message_id, expires))
    mute = sign_link(key, LinkClaim("mute", account, message_id, expires))
    base = base_url.rstrip("/")
    return f"{base}/message/{message_id}", f"{base}/n/{later}", f"{base}/n/{mute}"


def deliver(repos: Repos, settings: AccountNotifySettings, account: str, note: Note) -> bool:
    ok = send_apprise(settings.notify.apprise_urls, note)
    subs = repos.push.subscriptions(account)
    if subs:
        gone = send_webpush(subs, note, vapid(repos.secrets))
        repos.push.forget(gone)
        ok = ok or len(gone) < len(subs)
    return ok


def notify_account(repos: Repos, account: str, base_url: str,
                   now: datetime | None = None) -> Report:
    now = now or datetime.now(UTC)
    settings = AccountNotifySettings.load(repos.settings.get(account))
    local_now = now.astimezone(ZoneInfo(settings.notify.timezone))
    rules = settings.notify.rules(repos.senders.muted(account))
    report = Report()
    # "later" links put a message back in line (for the next digest) once their time comes.
    for entry in repos.notifications.entries(account, kinds=["later"]):
        if entry["due_at"] and entry["due_at"] <= now:
            repos.notifications.forget(account, entry["message_id"], "later")
            repos.notifications.forget(account, entry["message_id"], "sent")
            repos.notifications.log(account, entry["message_id"], "held", "later")
    log = repos.notifications.entries(account, since=now - timedelta(days=2))
    notified = frozenset(e["message_id"] for e in log if e["kind"] in ("sent", "digested"))
    sends = [e["created_at"] for e in log if e["kind"] == "sent"]

    candidates = repos.notifications.fresh_candidates(account, since=now - rules.fresh_for)
    for row in candidates:
        verdict, why = decide_notification(
            Candidate(row["id"], row["lane"], row["from_addr"],
                      arrival_time(row["created_at"], row["date"]), row["seen"]),
            rules, History(notified, tuple(sends)), local_now)
        if verdict is Verdict.SKIP:
            report.skipped[row["id"]] = why
            continue
        if verdict is Verdict.HOLD:
            repos.notifications.log(account, row["id"], "held", why)
            report.held.append(row["id"])
            continue
        # Claim first: the unique row is what stops a second worker sending it again.
        if not repos.notifications.log(account, row["id"], "sent", row["lane"]):
            report.skipped[row["id"]] = "already notified"
            continue
        url, later, mute = _links(repos, base_url, account, row["id"], now)
        title = f"[{row['lane']}] {row['from_name'] or row['from_addr']}"
        deliver(repos, settings, account, Note(title, row["subject"] or "(no subject)", url,
                                              later, mute))
        sends.append(now)
        report.sent.append(row["id"])

    held = [e for e in repos.notifications.entries(account, kinds=["held"])
            if e["message_id"] not in notified and e["message_id"] not in report.sent]
    held_ids = list(dict.fromkeys(e["message_id"] for e in held))
    if digest_due(len(held_ids), rules, History(notified, tuple(sends)), local_now):
        summaries = [s for s in (repos.summaries.get(m, account) for m in held_ids) if s]
        title, body = digest_text([(s["lane"], s["from_addr"], s["subject"]) for s in summaries])
        deliver(repos, settings, account, Note(title, body, base_url.rstrip("/") + "/"))
        for mid in held_ids:
            repos.notifications.log(account, mid, "digested")
            repos.notifications.forget(account, mid, "held")
        report.digest = held_ids
    return report
