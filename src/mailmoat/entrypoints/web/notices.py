"""The notices a page may show after a redirect (`/…?done=<code>`): codes, never text.

A link anyone can send (`/?done=Your+account+is+locked,+call+…`) must not put words in the
page's trusted notice box. A code is a name from `NOTICES` and at most two arguments from a
closed vocabulary (lane names, autonomy modes); anything else shows no notice at all.
"""

from __future__ import annotations

import re

from mailmoat.core.lanes import Lane

NOTICES: dict[str, str] = {
    "moved": "moved to {0}",
    "moved_many": "moved the ticked messages to {0} (urgent mail stays visible)",
    "moved_urgent": "moved to {0}: urgent mail stays visible, so {1} was not allowed",
    "moved_no_push": "moved to {0}: evidence speaks against this sender, so PUSH was not allowed",
    "pinned": "sender pinned to {0}",
    "pinned_urgent": "sender pinned to {0}; this message is urgent and went to {1}",
    "pinned_no_push": ("sender pinned to {0}; evidence speaks against this message's sender, "
                       "so it went to {1}"),
    "undone": "undone: back in {0}",
    "nothing_to_undo": "nothing to undo",
    "marked_read": "marked read",
    "marked_unread": "marked unread",
    "images_allowed": "images allowed for this sender",
    "images_blocked": "images blocked for this sender",
    "approved": "approved",
    "proposed": "proposed: nothing happens until you approve it",
    "send_recorded": "recorded as arrived: nothing is sent",
    "send_queued": "queued to send again: the same approved bytes, once",
    "rejected": "rejected",
    "account_switched": "account switched",
    "account_added": "account added: its password is sealed; test it, then start the first sync",
    "account_removed": "account removed: its sealed password is gone, stored mail stays",
    "sync_started": "first sync started",
    "demo_removed": "the demo mailbox is out of your view (its mail stays stored, unshown)",
    "mode_saved": "mode {0} saved",
    "lane_actions_saved": "lane actions saved",
    "notifications_saved": "notifications saved",
    "digest_saved": "daily digest saved: it goes out once a day from the hour you chose",
    "digest_off": "daily digest off",
    "rule_pinned": "pinned to {0}",
    "unpinned": "pin removed",
    "rule_removed": "learned rule removed",
    "rules_removed": "learned rule removed; the rules learned from the same corrections "
                     "went with it",
}
WORDS = frozenset({*(lane.value for lane in Lane), "SUGGEST", "AUTO"})
_CODE = re.compile(r"([a-z_]{1,40})((?:\.[A-Z]{1,10}){0,2})")


def notice_code(name: str, *args: str) -> str:
    """The code for a notice; refuses (ValueError) a name or an argument outside the table."""
    if name not in NOTICES or any(a not in WORDS for a in args):
        raise ValueError(f"no such notice: {name} {args}")
    return ".".join((name, *args))


def notice_text(code: str) -> str:
    """The text for a code from a URL; "" for anything that is not exactly a known code."""
    found = _CODE.fullmatch(code or "")
    if found is None or found.group(1) not in NOTICES:
        return ""
    args = [a for a in found.group(2).split(".") if a]
    template = NOTICES[found.group(1)]
    if any(a not in WORDS for a in args) or template.count("{") != len(args):
        return ""
    return template.format(*args)
