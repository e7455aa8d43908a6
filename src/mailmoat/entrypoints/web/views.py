"""What each page shows, as plain data: the HTML pages and the JSON API both call these, so
the API offers exactly what the pages do. Every function takes the account it may read."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import HTTPException, Path
from pydantic import BeforeValidator
from sqlalchemy import func, select

from mailmoat.act.snoozes import snoozed
from mailmoat.core.ids import MAX_ID, ascii_int
from mailmoat.core.lanes import Lane
from mailmoat.core.policy import describe_policy
from mailmoat.entrypoints.web.sanitize import sanitize_html
from mailmoat.judge.config import ConfigError, load_llm_config
from mailmoat.judge.status import judge_status
from mailmoat.learn.service import Learning
from mailmoat.services.bootstrap import model_scorers
from mailmoat.store.messages import Store
from mailmoat.store.repos import Repos
from mailmoat.store.tables.act import ActionRow, OutboxRow

# Display order: what may interrupt first, the hidden lanes last and out of the way.
LANE_ORDER: tuple[Lane, ...] = (Lane.PUSH, Lane.MEETING, Lane.QUEUE, Lane.INFO, Lane.SILENT)
LANE_BLURB = {
    Lane.PUSH: "worth interrupting now",
    Lane.MEETING: "scheduling",
    Lane.QUEUE: "review on your own time",
    Lane.INFO: "records: receipts, confirmations, status",
    Lane.SILENT: "noise: recorded, never shown unless you look",
}
FRONT_PAGE_ROWS = {Lane.PUSH: 20, Lane.MEETING: 20, Lane.QUEUE: 30}
PAGE_SIZE = 50


def _ascii_digits(value: object) -> object:
    # pydantic alone reads " 12", "+12", "1_2" and "12.0" as 12; an id is ASCII digits only.
    if isinstance(value, str) and ascii_int(value, 0, 10**10) is None:
        raise ValueError("an id is written in ASCII digits only")
    return value


# Ids fit the database's integer column; anything larger, or not plain ASCII digits, is a
# clean 422, not a driver overflow.
MessageId = Annotated[int, Path(ge=1, le=MAX_ID), BeforeValidator(_ascii_digits)]
ActionId = MessageId


def parse_lane(value: str) -> Lane:
    try:
        return Lane(value.upper())
    except ValueError as exc:
        raise HTTPException(404, f"no such lane: {value}") from exc


def _snoozed(store: Store, account: str) -> set[int]:
    """Snoozed mail stays out of every list and count until it wakes (act/snoozes.py)."""
    return set(snoozed(store, account, datetime.now(UTC)))


def counts(store: Store, account: str) -> dict[str, int]:
    raw = store.lane_counts(account, hide=_snoozed(store, account))
    return {lane.value: int(raw.get(lane.value, 0)) for lane in LANE_ORDER}


def lane_messages(store: Store, account: str, lane: str, limit: int,
                  offset: int = 0) -> list[dict[str, Any]]:
    return store.list_messages(lane, account=account, limit=limit, offset=offset,
                               hide=_snoozed(store, account))


def firewall(store: Store, account: str,
             rows: Callable[[str, int], list[dict[str, Any]]] | None = None
             ) -> list[dict[str, Any]]:
    """Each lane with its count and newest rows (`rows(lane, limit)`; the API's default:
    lane_messages, with the numbers)."""
    numbers = counts(store, account)
    rows = rows or (lambda lane, limit: lane_messages(store, account, lane, limit))
    return [
        {
            "lane": lane.value,
            "blurb": LANE_BLURB[lane],
            "count": numbers[lane.value],
            "hidden": lane not in FRONT_PAGE_ROWS,
            "messages": rows(lane.value, FRONT_PAGE_ROWS[lane])
            if lane in FRONT_PAGE_ROWS and numbers[lane.value] else [],
        }
        for lane in LANE_ORDER
    ]


def message(store: Store, repos: Repos, account: str, message_id: int,
            want_html: bool = False) -> dict[str, Any]:
    """One message for display. 404 (never 403) for another account's id: no probing."""
    # One parse for the fields, the stale check and the HTML parts.
    item = store.get_message(message_id, account=account, with_html=True)
    if item is None:
        raise HTTPException(404, "no such message")
    prefs = repos.senders.prefs(account, item["from_addr"])
    parts = item.pop("html_parts")
    safe = sanitize_html("\n<hr>\n".join(parts), prefs.allow_images) if parts else None
    pinned = None
    if "@" in item["from_addr"]:  # pins are learn/'s (sender facts), not a web preference
        found = Learning(store, account=account).facts(item["from_addr"]).pinned_lane
        pinned = found.value if found is not None else None
    item["sender_prefs"] = {"pinned_lane": pinned, "allow_images": prefs.allow_images,
                            "muted": prefs.muted}
    item["has_html"] = bool(parts)
    # The plain-text view drops hrefs, so the real targets are listed in both views.
    item["links"] = safe.links if safe else []
    item["html"] = None if safe is None or not want_html else {
        "html": safe.html, "blocked_images": safe.blocked_images}
    return item


def trace(store: Store, account: str, message_id: int) -> dict[str, Any]:
    item = store.get_message(message_id, account=account)
    if item is None:
        raise HTTPException(404, "no such message")
    return {
        "id": item["id"],
        "subject": item["subject"],
        "from_addr": item["from_addr"],
        "lane": item["lane"],
        "stale": item["stale"],
        "trace": item["trace"],
        "current_policy_version": describe_policy()["version"],
        "history": [{k: v for k, v in entry.items() if k != "trace"}
                    | {"reason": entry["trace"].get("reason", ""),
                       "source": entry["trace"].get("source", "")}
                    for entry in store.ledger(message_id)],
    }


def status(store: Store, repos: Repos, account: str, approvals_pending: int) -> dict[str, Any]:
    health = repos.decisions.health(account)
    total = health["total"]
    scorers = [getattr(s, "name", type(s).__name__) for s in store.scorers]
    return {
        "scorers": scorers or ["local"],
        "scorer_health": "model configured" if model_scorers(store.scorers)
        else "local scorer only (no model)",
        "decisions": total,
        "degraded": health["degraded"],
        "degraded_share": (health["degraded"] / total) if total else 0.0,
        "sources": {k.removeprefix("source:"): v for k, v in health.items()
                    if k.startswith("source:")},
        "policy_version": describe_policy()["version"],
        "lanes": counts(store, account),
        "approvals_pending": approvals_pending,
        **judge_figures(store, account),
        "queue_depth": _outbox_depth(store, account),
    }


def _dollars(amount: float) -> str:
    return "nothing" if amount <= 0 else (
        "less than a cent" if amount < 0.005 else f"${amount:,.2f}")


def scorer_words(scorers: list[str], model: bool, judge: dict[str, Any] | None) -> str:
    """Which scorer decides, as a sentence (the status page)."""
    learned = ("learned" in scorers and " What you taught it (your moves and pins) is learned "
               "on this machine too.")
    if not model:
        return ("The local scorer on this machine decides every message: no language model "
                "is configured, so no mail leaves this machine and nothing is spent."
                + (learned or ""))
    names = [f"{m['model']} ({p['name']}{', on this machine' if p['local'] else ''})"
             for p in (judge or {}).get("providers", []) for m in p["models"][:1]]
    which = names[0] if names else "a language model"
    return (f"A language model reads each message: {which}. When it cannot be reached or "
            "today's budget is spent, the local scorer on this machine decides instead."
            + (learned or ""))


def budget_words(budget: dict[str, Any]) -> str:
    """Today's model spending against the daily limits, as a sentence."""
    def limit(cap: float | None) -> str:
        return "no daily limit is set" if cap is None else f"the daily limit is {_dollars(cap)}"

    text = (f"Today {_dollars(budget['spent_global_usd'])} spent on the model for all "
            f"accounts ({limit(budget['global_daily_usd'])}), "
            f"{_dollars(budget['spent_user_usd'])} for this account "
            f"({limit(budget['user_daily_usd'])}).")
    if budget["cap_reached"]:
        text += " The limit is reached: the local scorer decides until the day ends (UTC)."
    return text


def judge_figures(store: Store, account: str) -> dict[str, Any]:
    """Budget use and the metering ratio from judge/ (None: no model configured), and which
    scorer decides, in words."""
    scorers = [getattr(s, "name", type(s).__name__) for s in store.scorers]
    model = bool(model_scorers(store.scorers))
    try:
        config = load_llm_config()
    except ConfigError as exc:
        return {"budget": f"config error: {exc}", "metering_ratio": None,
                "scorer_words": scorer_words(scorers, model, None),
                "budget_words": f"The model settings cannot be read: {exc}"}
    if not config.configured:
        return {"budget": None, "metering_ratio": None,
                "scorer_words": scorer_words(scorers, model, None),
                "budget_words": "Nothing: no language model is configured."}
    figures = judge_status(config, store.engine, user=account, check=False)
    b = figures["budget"]

    def money(spent: float, cap: float | None) -> str:
        return f"${spent:.4f}" + (f" of ${cap:.2f}" if cap is not None else " (no cap)")

    text = (f"today: {money(b['spent_global_usd'], b['global_daily_usd'])} in all, "
            f"{money(b['spent_user_usd'], b['user_daily_usd'])} for this account"
            + ("; cap reached, the local scorer decides" if b["cap_reached"] else ""))
    ratio = figures["usage_today"].get("metering_ratio")
    return {"budget": text, "metering_ratio": None if ratio is None else f"{ratio:.3f}",
            # The configuration is what the workers run, whatever this process holds.
            "scorer_words": scorer_words(scorers, True, figures),
            "budget_words": budget_words(b)}


def _outbox_depth(store: Store, account: str) -> int:
    """Approved floor actions waiting for the guarded executor."""
    with store.sessions() as session:
        return int(session.scalar(
            select(func.count()).select_from(OutboxRow).join(
                ActionRow, ActionRow.id == OutboxRow.action_id)
            .where(ActionRow.account == account, OutboxRow.state == "queued")) or 0)
