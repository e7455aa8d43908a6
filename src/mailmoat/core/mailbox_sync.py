"""Pure decisions for IMAP sync: where a folder stands and which UIDs to fetch next.

The rule that makes resume safe: a UID counts as done only once its message *and* its
location are stored. Backfill works from the set of UIDs the server has minus the UIDs we
stored, so a crash anywhere means the next pass fetches exactly what is missing — no gap,
and no duplicate because messages are unique per content hash.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class FolderStart(StrEnum):
    FRESH = "fresh"  # never synced: backfill below the current UIDNEXT
    RESYNC = "resync"  # UIDVALIDITY changed: old UIDs mean nothing, backfill again
    CONTINUE = "continue"  # same UIDVALIDITY: incremental above the high-water mark


@dataclass(frozen=True, slots=True)
class FolderState:
    uidvalidity: int
    high_uid: int  # every UID above this is new to us
    backfill_done: bool = False
    highest_modseq: int | None = None


def folder_start(stored: FolderState | None, uidvalidity: int) -> FolderStart:
    if stored is None:
        return FolderStart.FRESH
    if stored.uidvalidity != uidvalidity:
        return FolderStart.RESYNC
    return FolderStart.CONTINUE


def start_state(uidvalidity: int, uidnext: int) -> FolderState:
    """A fresh (or reset) folder: anything at or above UIDNEXT arrives incrementally."""
    return FolderState(uidvalidity=uidvalidity, high_uid=max(uidnext - 1, 0))


def backfill_order(on_server: Iterable[int], stored: Iterable[int], high_uid: int) -> list[int]:
    """UIDs still to backfill, newest first (a higher UID arrived later)."""
    done = set(stored)
    return sorted((u for u in on_server if u <= high_uid and u not in done), reverse=True)


def new_uids(on_server: Iterable[int], high_uid: int) -> list[int]:
    """UIDs above the high-water mark, oldest first. (`N:*` always returns the last
    message even when its UID is below N, hence the filter.)"""
    return sorted(u for u in on_server if u > high_uid)


def batches(uids: list[int], size: int) -> list[list[int]]:
    return [uids[i : i + size] for i in range(0, len(uids), size)]


def backoff_delay(attempt: int, base: float = 1.0, cap: float = 60.0) -> float:
    """Seconds to wait before reconnect attempt `attempt` (0-based): doubling, capped."""
    return float(min(cap, base * (2 ** max(attempt, 0))))


def vanished_uids(responses: Iterable[bytes], known: Iterable[int]) -> set[int]:
    """The UIDs of `known` that QRESYNC VANISHED responses name (RFC 7162: a UID set after
    an optional `(EARLIER)`, for example `(EARLIER) 3,5:9`). ValueError when malformed."""
    ranges: list[tuple[int, int]] = []
    for data in responses:
        text = data.decode("ascii").strip()
        if text.upper().startswith("(EARLIER)"):
            text = text[len("(EARLIER)"):].strip()
        for part in text.split(","):
            low, _, high = part.strip().partition(":")
            first, last = int(low), int(high or low)  # no "*" in VANISHED: UIDs are known
            ranges.append((min(first, last), max(first, last)))
    ranges.sort()
    starts = [first for first, _ in ranges]
    # A running maximum of the ends: a UID is inside some range iff it is at most the
    # largest end among the ranges starting at or below it.
    reach: list[int] = []
    for _, last in ranges:
        reach.append(max(last, reach[-1]) if reach else last)
    out: set[int] = set()
    for uid in known:
        i = bisect_right(starts, uid) - 1
        if i >= 0 and uid <= reach[i]:
            out.add(uid)
    return out
