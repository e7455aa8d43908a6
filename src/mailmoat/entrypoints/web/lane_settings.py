"""Per-lane server actions of the signed-in account, read and written where mail/ reads them
(the account's row, through accounts/registry.py). Only IMAP accounts have a server to act on;
imported mail ("local") has none, so the page says so instead of offering a form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import Request

from mailmoat.accounts.registry import AccountError, get_account, update_lane_actions
from mailmoat.core.lane_actions import LaneActions
from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web.settings_forms import FormError


def lane_actions_of(request: Request, account: str) -> LaneActions | None:
    try:
        return get_account(request.app.state.store, account).lane_actions
    except AccountError:
        return None


def save_lane_actions(request: Request, account: str, actions: LaneActions) -> None:
    try:
        update_lane_actions(request.app.state.store, account, actions)
    except AccountError:
        raise FormError(f"{account!r} has no mail server to act on") from None


def lane_rows(actions: LaneActions) -> list[dict[str, Any]]:
    return [{"lane": lane.value, "keyword": actions.for_lane(lane).keyword or "",
             "folder": actions.for_lane(lane).folder or "",
             "mark_read": actions.for_lane(lane).mark_read} for lane in Lane]


def lane_rows_from_form(form: Mapping[str, str]) -> list[dict[str, Any]]:
    """What the person typed, to show again next to the error."""
    return [{"lane": lane.value, "keyword": form.get(f"keyword_{lane.value}", ""),
             "folder": form.get(f"folder_{lane.value}", ""),
             "mark_read": f"mark_read_{lane.value}" in form} for lane in Lane]
