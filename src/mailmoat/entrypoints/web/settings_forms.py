"""Checks for the settings forms (AUTO guidelines and cap, per-lane server actions): pure
functions that turn submitted text into values or a FormError saying what to change."""

from __future__ import annotations

import re
from collections.abc import Mapping

from mailmoat.core.ids import ascii_int
from mailmoat.core.lane_actions import HOME_FOLDER, LaneAction, LaneActions
from mailmoat.core.lanes import Lane

MAX_GUIDELINES = 4000
MAX_DAILY_CAP = 1000
MAX_KEYWORD = 64
MAX_FOLDER = 200
# An IMAP keyword is an atom (RFC 3501 §9): printable ASCII without atom-specials, and a
# leading backslash would name a system flag (\Deleted, \Seen), which a lane must never set.
KEYWORD_PATTERN = rf"^[!#$&'+,\-./0-9:;<=>?@A-Z\[^_`a-z|}}~]{{1,{MAX_KEYWORD}}}$"
_KEYWORD = re.compile(KEYWORD_PATTERN)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029]")


class FormError(ValueError):
    """A submitted value that cannot be saved; the message tells the person what to change."""


def check_guidelines(text: str) -> str:
    cleaned = text.replace("\r\n", "\n").strip()
    if len(cleaned) > MAX_GUIDELINES:
        raise FormError(f"the AUTO guidelines are {len(cleaned)} characters; "
                        f"keep them under {MAX_GUIDELINES}")
    if _CONTROL.search(cleaned.replace("\n", "").replace("\t", "")):
        raise FormError("the AUTO guidelines contain control characters; type plain text")
    return cleaned


def check_daily_cap(text: str) -> int:
    cap = ascii_int(text.strip(), 0, 10**9)
    if cap is None:
        shown = text.strip()[:20]
        raise FormError(f"the daily cap must be a whole number between 0 and {MAX_DAILY_CAP}"
                        f" (ASCII digits), not {shown!r}")
    if not 0 <= cap <= MAX_DAILY_CAP:
        raise FormError(f"the daily cap must be between 0 and {MAX_DAILY_CAP}")
    return cap


def _keyword(lane: Lane, text: str) -> str | None:
    value = text.strip()
    if not value:
        return None
    if not _KEYWORD.match(value):
        raise FormError(f"{lane.value} keyword {value[:40]!r}: use letters, digits and $-._ "
                        f"only, no spaces, at most {MAX_KEYWORD} characters (e.g. $MoatQueue)")
    return value


def _folder(lane: Lane, text: str) -> str | None:
    value = text.strip()
    if not value:
        return None
    if len(value) > MAX_FOLDER or _CONTROL.search(value):
        raise FormError(f"{lane.value} folder: at most {MAX_FOLDER} printable characters")
    if value.upper() == HOME_FOLDER:
        raise FormError(f"{lane.value} folder: leave it empty to keep mail in {HOME_FOLDER}")
    return value


def parse_lane_actions(form: Mapping[str, str]) -> LaneActions:
    """Fields `keyword_<LANE>`, `folder_<LANE>`, `mark_read_<LANE>` for every lane.

    Two lanes may not share a keyword or a folder: the server state would no longer say which
    lane a message is in, and a person's move in their own client could not be read back."""
    lanes: dict[Lane, LaneAction] = {}
    for lane in Lane:
        lanes[lane] = LaneAction(
            keyword=_keyword(lane, form.get(f"keyword_{lane.value}", "")),
            folder=_folder(lane, form.get(f"folder_{lane.value}", "")),
            mark_read=form.get(f"mark_read_{lane.value}", "") in ("1", "on", "true"),
        )
    for attr in ("keyword", "folder"):
        seen: dict[str, Lane] = {}
        for lane, action in lanes.items():
            value = getattr(action, attr)
            if value is None:
                continue
            other = seen.setdefault(value.lower(), lane)
            if other != lane:
                raise FormError(f"{other.value} and {lane.value} share the {attr} {value!r}; "
                                "each lane needs its own")
    return LaneActions(lanes)
