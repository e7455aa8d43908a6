"""Sender rules and pins, derived from the corrections ledger. Pure: events in, rules out.

A *rule* is learned: the last RULE_MIN_CORRECTIONS lane changes a person made for one
sender all named the same lane. It may only promote (PUSH, QUEUE, MEETING — the policy's
PROMOTING_RULE_LANES); two corrections to SILENT or INFO make no rule, because only a
person's explicit pin may hide a sender (invariant 4). A *pin* is that explicit act.

Why "the last N agree" and not "N ever agreed": a newer, different correction is a person
disagreeing with the rule, so the rule lapses at once; and removing a rule is an event too,
so corrections before a removal never count again — removal survives a restart. Removing
the rule for a key withdraws every earlier lane change that counted for that key, for every
key and every learner: removing `ann@acme.example` also takes her corrections out of the
`acme.example` domain rule they helped make (and out of few-shot examples and the learned
scorer's training). An undo withdraws the lane change it names. A withdrawn correction
counts for nothing (`standing`).

A sender is keyed by address, and also by domain when the domain belongs to one
organisation (see core/public_domains.py). The address key wins over the domain key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import PROMOTING_RULE_LANES
from mailmoat.core.public_domains import is_public_domain

RULE_MIN_CORRECTIONS = 2


class CorrectionKind(StrEnum):
    LANE_CHANGE = "lane_change"  # a person moved a message to another lane
    APPROVAL = "approval"  # a person approved a pending action
    REJECTION = "rejection"  # ... or rejected it
    DISMISSAL = "dismissal"  # a person dismissed a notification
    PIN = "pin"  # a person pinned a sender (address or domain) to a lane
    UNPIN = "unpin"
    RULE_REMOVED = "rule_removed"  # a person removed a learned rule
    UNDO = "undo"  # a person took back one of their lane changes (`withdraws` names it)


MESSAGE_KINDS = frozenset(
    {CorrectionKind.LANE_CHANGE, CorrectionKind.APPROVAL, CorrectionKind.REJECTION,
     CorrectionKind.DISMISSAL}
)
SENDER_KINDS = frozenset({CorrectionKind.PIN, CorrectionKind.UNPIN, CorrectionKind.RULE_REMOVED})


class Scope(StrEnum):
    ADDRESS = "address"
    DOMAIN = "domain"


class InvalidSenderKey(ValueError):
    """Not an address or a domain a rule or pin can name."""


@dataclass(frozen=True, slots=True, order=True)
class SenderKey:
    scope: Scope
    value: str  # lower-case address or domain

    def __str__(self) -> str:
        return self.value


def normalize_address(address: str) -> str:
    return address.strip().lower()


def domain_of(address: str) -> str:
    return normalize_address(address).rpartition("@")[2]


def parse_key(text: str) -> SenderKey:
    """An address (has an @) or an organisation's domain; public mail domains are refused."""
    value = normalize_address(text)
    if not value or any(c.isspace() for c in value) or len(value) > 500:
        raise InvalidSenderKey(f"not an address or domain: {text!r}")
    if "@" in value:
        local, _, domain = value.rpartition("@")
        if not local or not domain:
            raise InvalidSenderKey(f"not an address: {text!r}")
        return SenderKey(Scope.ADDRESS, value)
    if "." not in value:
        raise InvalidSenderKey(f"not a domain: {text!r}")
    if is_public_domain(value):
        raise InvalidSenderKey(
            f"{value} is a public mail domain shared by strangers; name an address instead"
        )
    return SenderKey(Scope.DOMAIN, value)


def keys_for(address: str) -> tuple[SenderKey, ...]:
    """The keys a sender's mail is judged under, most specific first."""
    address = normalize_address(address)
    if not address:
        return ()
    domain = domain_of(address)
    keys = [SenderKey(Scope.ADDRESS, address)]
    if domain and not is_public_domain(domain):
        keys.append(SenderKey(Scope.DOMAIN, domain))
    return tuple(keys)


@dataclass(frozen=True, slots=True)
class Event:
    """One row of the corrections ledger, as the pure functions see it.

    Message events (lane change, approval, rejection, dismissal) carry the message's sender
    and count for its address key and its domain key. Sender events (pin, unpin, rule
    removed) carry `target`, the one key they name.
    """

    id: int
    kind: CorrectionKind
    address: str = ""
    lane: Lane | None = None
    target: SenderKey | None = None
    withdraws: int | None = None  # for an undo: the id of the lane change it takes back

    def matches(self, key: SenderKey) -> bool:
        if self.target is not None:
            return self.target == key
        if key.scope is Scope.ADDRESS:
            return normalize_address(self.address) == key.value
        return domain_of(self.address) == key.value and not is_public_domain(key.value)


@dataclass(frozen=True, slots=True)
class Rule:
    key: SenderKey
    lane: Lane
    correction_ids: tuple[int, ...]  # the corrections it came from, oldest first


@dataclass(frozen=True, slots=True)
class Pin:
    key: SenderKey
    lane: Lane
    event_id: int


def removed_by(change: Event, removals: Iterable[Event]) -> bool:
    """True when a later rule removal names a key this lane change counted for."""
    return change.kind is CorrectionKind.LANE_CHANGE and any(
        r.id > change.id and r.target is not None and change.matches(r.target)
        for r in removals)


def standing(events: Iterable[Event]) -> list[Event]:
    """The events still in force: undos removed, the lane changes they withdrew with them,
    and the lane changes a later rule removal took back (see the module docstring).
    Everything that learns from the ledger reads it through this."""
    events = list(events)
    withdrawn = {e.withdraws for e in events if e.kind is CorrectionKind.UNDO}
    removals = [e for e in events if e.kind is CorrectionKind.RULE_REMOVED]
    return [e for e in events if e.kind is not CorrectionKind.UNDO and e.id not in withdrawn
            and not (removals and removed_by(e, removals))]


def _ordered(events: Iterable[Event], key: SenderKey) -> list[Event]:
    return sorted((e for e in standing(events) if e.matches(key)), key=lambda e: e.id)


def derive_rule(
    events: Iterable[Event], key: SenderKey, threshold: int = RULE_MIN_CORRECTIONS
) -> Rule | None:
    """The rule for one key, or None. See the module docstring for the reasoning."""
    if threshold < 2:
        raise ValueError("a rule needs at least two corrections: one is an opinion")
    relevant = _ordered(events, key)
    removed = [n for n, e in enumerate(relevant) if e.kind is CorrectionKind.RULE_REMOVED]
    if removed:
        relevant = relevant[removed[-1] + 1 :]
    changes = [e for e in relevant if e.kind is CorrectionKind.LANE_CHANGE and e.lane]
    if not changes:
        return None
    lane = changes[-1].lane
    streak: list[Event] = []
    for event in reversed(changes):
        if event.lane != lane:
            break
        streak.append(event)
    if len(streak) < threshold or lane not in PROMOTING_RULE_LANES:
        return None  # too few, conflicting, or a hiding lane: learning never hides
    assert lane is not None
    return Rule(key, lane, tuple(e.id for e in reversed(streak)))


def derive_pin(events: Iterable[Event], key: SenderKey) -> Pin | None:
    """The pin on one key: the last pin/unpin event for it decides."""
    last = None
    for event in _ordered(events, key):
        if event.kind in (CorrectionKind.PIN, CorrectionKind.UNPIN):
            last = event
    if last is None or last.kind is CorrectionKind.UNPIN or last.lane is None:
        return None
    return Pin(key, last.lane, last.id)


class KeyedEvents:
    """Standing events grouped under every key they count for: one pass over the ledger
    answers for many senders (a sync batch asks for hundreds, the rules page for all)."""

    def __init__(self, events: Iterable[Event]) -> None:
        self.groups: dict[SenderKey, list[Event]] = {}
        for event in standing(events):
            keys = (event.target,) if event.target is not None else keys_for(event.address)
            for key in keys:
                self.groups.setdefault(key, []).append(event)

    def sorted_groups(self) -> list[tuple[SenderKey, list[Event]]]:
        return sorted(self.groups.items())

    def rule_for(self, address: str, threshold: int = RULE_MIN_CORRECTIONS) -> Rule | None:
        """The rule that applies to mail from `address`: the address rule, else the domain's."""
        if not self.groups:
            return None
        for key in keys_for(address):
            rule = derive_rule(self.groups.get(key, ()), key, threshold)
            if rule is not None:
                return rule
        return None

    def pin_for(self, address: str) -> Pin | None:
        """The pin that applies to mail from `address`: the address pin, else the domain's."""
        if not self.groups:
            return None
        for key in keys_for(address):
            pin = derive_pin(self.groups.get(key, ()), key)
            if pin is not None:
                return pin
        return None


def rule_for(
    events: Sequence[Event], address: str, threshold: int = RULE_MIN_CORRECTIONS
) -> Rule | None:
    return KeyedEvents(events).rule_for(address, threshold)


def pin_for(events: Sequence[Event], address: str) -> Pin | None:
    return KeyedEvents(events).pin_for(address)


def all_rules(events: Sequence[Event], threshold: int = RULE_MIN_CORRECTIONS) -> list[Rule]:
    groups = KeyedEvents(events).sorted_groups()
    rules = (derive_rule(group, key, threshold) for key, group in groups)
    return [r for r in rules if r is not None]


def all_pins(events: Sequence[Event]) -> list[Pin]:
    pins = (derive_pin(group, key) for key, group in KeyedEvents(events).sorted_groups())
    return [p for p in pins if p is not None]
