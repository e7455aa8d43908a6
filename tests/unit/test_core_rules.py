"""Sender rules and pins from the corrections ledger: the threshold, conflicts, removal,
address vs domain keys, and that a derived rule never names a hiding lane."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import PROMOTING_RULE_LANES
from mailmoat.core.public_domains import is_public_domain
from mailmoat.core.rules import (
    CorrectionKind,
    Event,
    InvalidSenderKey,
    Scope,
    SenderKey,
    all_pins,
    all_rules,
    derive_pin,
    derive_rule,
    keys_for,
    parse_key,
    pin_for,
    rule_for,
    standing,
)

ANN = "ann@acme.example"
BOB = "bob@acme.example"
ANN_KEY = SenderKey(Scope.ADDRESS, ANN)
ACME = SenderKey(Scope.DOMAIN, "acme.example")


def moved(n: int, lane: Lane, sender: str = ANN) -> Event:
    return Event(n, CorrectionKind.LANE_CHANGE, address=sender, lane=lane)


def removed(n: int, key: SenderKey = ANN_KEY) -> Event:
    return Event(n, CorrectionKind.RULE_REMOVED, target=key)


def undone(n: int, withdraws: int, sender: str = ANN) -> Event:
    return Event(n, CorrectionKind.UNDO, address=sender, withdraws=withdraws)


def test_an_undo_withdraws_the_correction_it_names_and_nothing_else() -> None:
    two = [moved(1, Lane.PUSH), moved(2, Lane.PUSH)]
    assert derive_rule(two, ANN_KEY) is not None
    assert derive_rule([*two, undone(3, withdraws=2)], ANN_KEY) is None
    # A third correction after the undo makes the rule again, citing the standing ones only.
    rule = derive_rule([*two, undone(3, withdraws=2), moved(4, Lane.PUSH)], ANN_KEY)
    assert rule is not None and rule.correction_ids == (1, 4)
    assert standing([*two, undone(3, withdraws=2)]) == [two[0]]


@given(st.lists(st.tuples(st.booleans(), st.integers(1, 40)), max_size=30))
def test_standing_drops_exactly_the_undos_and_what_they_withdrew(raw: list) -> None:
    events = [undone(n, w) if is_undo else moved(n, Lane.PUSH)
              for n, (is_undo, w) in enumerate(raw, start=1)]
    kept = standing(events)
    withdrawn = {e.withdraws for e in events if e.kind is CorrectionKind.UNDO}
    assert all(e.kind is CorrectionKind.LANE_CHANGE and e.id not in withdrawn for e in kept)
    assert len(kept) == sum(1 for e in events
                            if e.kind is CorrectionKind.LANE_CHANGE and e.id not in withdrawn)


def test_one_correction_makes_no_rule() -> None:
    assert derive_rule([moved(1, Lane.PUSH)], ANN_KEY) is None


def test_two_identical_corrections_make_a_rule_citing_both() -> None:
    rule = derive_rule([moved(1, Lane.PUSH), moved(2, Lane.PUSH)], ANN_KEY)
    assert rule is not None
    assert (rule.lane, rule.correction_ids) == (Lane.PUSH, (1, 2))


def test_two_conflicting_corrections_make_no_rule() -> None:
    assert derive_rule([moved(1, Lane.PUSH), moved(2, Lane.QUEUE)], ANN_KEY) is None


def test_a_newer_disagreement_lapses_the_rule_and_a_new_streak_makes_another() -> None:
    events = [moved(1, Lane.PUSH), moved(2, Lane.PUSH), moved(3, Lane.QUEUE)]
    assert derive_rule(events, ANN_KEY) is None
    rule = derive_rule([*events, moved(4, Lane.QUEUE)], ANN_KEY)
    assert rule is not None and (rule.lane, rule.correction_ids) == (Lane.QUEUE, (3, 4))


def test_order_is_by_ledger_id_not_by_list_position() -> None:
    rule = derive_rule([moved(3, Lane.MEETING), moved(1, Lane.PUSH), moved(2, Lane.MEETING)],
                       ANN_KEY)
    assert rule is not None and rule.correction_ids == (2, 3)


@pytest.mark.parametrize("lane", [Lane.SILENT, Lane.INFO])
def test_corrections_to_a_hidden_lane_never_make_a_rule(lane: Lane) -> None:
    events = [moved(n, lane) for n in range(1, 6)]
    assert derive_rule(events, ANN_KEY) is None
    assert rule_for(events, ANN) is None


def test_other_kinds_do_not_count_toward_a_rule() -> None:
    events = [
        moved(1, Lane.PUSH),
        Event(2, CorrectionKind.APPROVAL, address=ANN),
        Event(3, CorrectionKind.DISMISSAL, address=ANN),
    ]
    assert derive_rule(events, ANN_KEY) is None


def test_removal_is_final_for_the_corrections_before_it() -> None:
    events = [moved(1, Lane.PUSH), moved(2, Lane.PUSH), removed(3)]
    assert derive_rule(events, ANN_KEY) is None
    assert derive_rule([*events, moved(4, Lane.PUSH)], ANN_KEY) is None
    rule = derive_rule([*events, moved(4, Lane.PUSH), moved(5, Lane.PUSH)], ANN_KEY)
    assert rule is not None and rule.correction_ids == (4, 5)


def test_threshold_is_configurable_but_never_one() -> None:
    events = [moved(1, Lane.PUSH), moved(2, Lane.PUSH)]
    assert derive_rule(events, ANN_KEY, threshold=3) is None
    assert derive_rule([*events, moved(3, Lane.PUSH)], ANN_KEY, threshold=3) is not None
    with pytest.raises(ValueError):
        derive_rule(events, ANN_KEY, threshold=1)


def test_organisation_domain_learns_across_colleagues_address_wins() -> None:
    events = [moved(1, Lane.PUSH, ANN), moved(2, Lane.PUSH, BOB)]
    assert derive_rule(events, ANN_KEY) is None  # one each
    domain_rule = derive_rule(events, ACME)
    assert domain_rule is not None and domain_rule.correction_ids == (1, 2)
    carol = rule_for(events, "carol@acme.example")
    assert carol is not None and carol.key == ACME
    both = [*events, moved(3, Lane.QUEUE, ANN), moved(4, Lane.QUEUE, ANN)]
    ann = rule_for(both, ANN)
    assert ann is not None and (ann.key, ann.lane) == (ANN_KEY, Lane.QUEUE)


def test_public_domains_never_make_a_domain_rule() -> None:
    events = [moved(1, Lane.PUSH, "x@gmail.com"), moved(2, Lane.PUSH, "y@gmail.com")]
    assert rule_for(events, "z@gmail.com") is None
    assert all_rules(events) == []
    assert keys_for("x@gmail.com") == (SenderKey(Scope.ADDRESS, "x@gmail.com"),)
    assert is_public_domain("GMail.com.") and is_public_domain("eu.proton.me")
    assert not is_public_domain("acme.example") and not is_public_domain("gmail.com.evil.example")


def test_parse_key() -> None:
    assert parse_key(" Ann@ACME.example ") == ANN_KEY
    assert parse_key("acme.example") == ACME
    for bad in ("", "gmail.com", "no-dot", "a b@c.d", "@acme.example", "ann@"):
        with pytest.raises(InvalidSenderKey):
            parse_key(bad)


def test_pins_last_event_wins_and_address_pin_beats_domain_pin() -> None:
    events = [
        Event(1, CorrectionKind.PIN, lane=Lane.SILENT, target=ACME),
        Event(2, CorrectionKind.PIN, lane=Lane.PUSH, target=ANN_KEY),
    ]
    assert pin_for(events, BOB) is not None and pin_for(events, BOB).lane is Lane.SILENT
    assert pin_for(events, ANN) is not None and pin_for(events, ANN).lane is Lane.PUSH
    events.append(Event(3, CorrectionKind.UNPIN, target=ANN_KEY))
    assert derive_pin(events, ANN_KEY) is None
    assert pin_for(events, ANN) is not None and pin_for(events, ANN).lane is Lane.SILENT
    assert {p.key for p in all_pins(events)} == {ACME}


# -- the asymmetry, on the rules alone ------------------------------------------------------

SENDERS = [ANN, BOB, "eve@gmail.com"]
KEYS = [SenderKey(Scope.ADDRESS, s) for s in SENDERS] + [ACME]
event_st = st.one_of(
    st.builds(lambda s, lane: (CorrectionKind.LANE_CHANGE, s, lane, None),
              st.sampled_from(SENDERS), st.sampled_from(list(Lane))),
    st.builds(lambda k, s: (k, s, None, None),
              st.sampled_from([CorrectionKind.APPROVAL, CorrectionKind.REJECTION,
                               CorrectionKind.DISMISSAL]), st.sampled_from(SENDERS)),
    st.builds(lambda key: (CorrectionKind.RULE_REMOVED, "", None, key), st.sampled_from(KEYS)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(event_st, max_size=30), st.integers(2, 4))
def test_no_sequence_of_corrections_derives_a_hiding_rule(raw: list, threshold: int) -> None:
    events = [Event(n, kind, address=s, lane=lane, target=key)
              for n, (kind, s, lane, key) in enumerate(raw, 1)]
    for rule in all_rules(events, threshold):
        assert rule.lane in PROMOTING_RULE_LANES
        assert len(rule.correction_ids) >= threshold
        cited = [e for e in events if e.id in rule.correction_ids]
        assert {e.lane for e in cited} == {rule.lane}
    for sender in SENDERS:
        rule = rule_for(events, sender, threshold)
        assert rule is None or rule.lane in PROMOTING_RULE_LANES


pin_st = st.builds(lambda key, lane: (CorrectionKind.PIN, "", lane, key),
                   st.sampled_from(KEYS), st.sampled_from(list(Lane)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(event_st, pin_st), max_size=30), st.integers(2, 3))
def test_all_rules_and_pins_agree_with_asking_each_key(raw: list, threshold: int) -> None:
    """The one-pass grouping behind the rules page finds exactly what asking key by key does."""
    events = [Event(n, kind, address=s, lane=lane, target=key)
              for n, (kind, s, lane, key) in enumerate(raw, 1)]
    rules = [derive_rule(events, key, threshold) for key in sorted(KEYS)]
    pins = [derive_pin(events, key) for key in sorted(KEYS)]
    assert all_rules(events, threshold) == [r for r in rules if r is not None]
    assert all_pins(events) == [p for p in pins if p is not None]


ADDRESSES = [ANN, BOB, "Ann@Acme.Example", "carol@gmail.com", "dan@sub.acme.example", ""]
TARGETS = [ANN_KEY, ACME, SenderKey(Scope.DOMAIN, "gmail.com"),
        SenderKey(Scope.ADDRESS, "carol@gmail.com")]
LEDGER_EVENT = st.one_of(
    st.builds(lambda kind, sender, lane: (kind, sender, lane, None),
              st.sampled_from([CorrectionKind.LANE_CHANGE, CorrectionKind.APPROVAL]),
              st.sampled_from(ADDRESSES), st.sampled_from(list(Lane))),
    st.builds(lambda kind, key, lane: (kind, "", lane, key),
              st.sampled_from([CorrectionKind.PIN, CorrectionKind.UNPIN,
                               CorrectionKind.RULE_REMOVED]),
              st.sampled_from(TARGETS), st.sampled_from(list(Lane))),
    st.builds(lambda sender, n: (CorrectionKind.UNDO, sender, None, n),
              st.sampled_from(ADDRESSES), st.integers(1, 30)),
)


def _events(raw: list) -> list[Event]:
    out = []
    for n, (kind, sender, lane, extra) in enumerate(raw, start=1):
        if kind is CorrectionKind.UNDO:
            out.append(Event(n, kind, address=sender, withdraws=extra))
        else:
            out.append(Event(n, kind, address=sender, lane=lane, target=extra))
    return out


@settings(max_examples=300)
@given(st.lists(LEDGER_EVENT, max_size=30))
def test_rules_and_pins_by_key_match_the_scan_over_every_event(raw: list) -> None:
    """`rule_for` and `pin_for` look in the events grouped by key; the definition scans every
    event for each of the sender's keys. Both must name the same rule and pin."""
    events = _events(raw)
    for sender in ADDRESSES:
        scanned_rule = next((r for k in keys_for(sender)
                             if (r := derive_rule(events, k)) is not None), None)
        scanned_pin = next((p for k in keys_for(sender)
                            if (p := derive_pin(events, k)) is not None), None)
        assert rule_for(events, sender) == scanned_rule
        assert pin_for(events, sender) == scanned_pin
