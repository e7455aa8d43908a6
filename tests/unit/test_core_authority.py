"""Pure authority rules: the action table, recipient flags, the AUTO gate and canaries."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.actions import FLOOR, REVERSIBLE, ActionType, is_floor
from mailmoat.core.autonomy import (
    AutoReplyRequest,
    Mode,
    canary,
    may_auto_reply,
    may_run_unattended,
    observed_trust,
    policy_identity,
)
from mailmoat.core.features import Features
from mailmoat.core.lanes import Lane
from mailmoat.core.policy import Decision, Facts
from mailmoat.core.receipts import FLOOR_ACTIONS, PayloadError
from mailmoat.core.recipients import check_recipient, one_edit_apart


def test_action_table_partitions_every_action() -> None:
    assert REVERSIBLE.isdisjoint(FLOOR)
    assert set(ActionType) == REVERSIBLE | FLOOR
    assert {a.value for a in FLOOR} == set(FLOOR_ACTIONS)
    assert is_floor("send_email") and is_floor("delete_permanent")
    assert not is_floor("trash") and not is_floor("archive")
    assert is_floor("some_new_action")  # unknown is treated as irreversible


def decision(lane: Lane = Lane.QUEUE, eligible: bool = True) -> Decision:
    return Decision(lane=lane, reason="r", auto_eligible=eligible, branch="queue")


def request(**overrides: object) -> AutoReplyRequest:
    values: dict[str, object] = {
        "mode": Mode.AUTO,
        "decision": decision(),
        "original_sender": "ana@client.example",
        "recipient": "ana@client.example",
        "sent_today": 0,
        "daily_cap": 5,
        "model_available": True,
    }
    values.update(overrides)
    return AutoReplyRequest(**values)  # type: ignore[arg-type]


def test_auto_reply_allowed_only_when_every_switch_is_on() -> None:
    assert may_auto_reply(request()) == (True, "eligible")
    refusals = [
        request(mode=Mode.SUGGEST),
        request(model_available=False),
        request(decision=decision(eligible=False)),
        request(decision=decision(lane=Lane.PUSH)),
        request(decision=decision(lane=Lane.SILENT)),
        request(recipient="mallory@evil.example"),
        request(original_sender="", recipient=""),
        request(sent_today=5),
    ]
    for req in refusals:
        allowed, reason = may_auto_reply(req)
        assert not allowed, req
        assert reason


def test_unattended_runs_only_reversible_actions_in_auto() -> None:
    assert may_run_unattended(Mode.AUTO, action_is_floor=False)
    assert not may_run_unattended(Mode.AUTO, action_is_floor=True)
    assert not may_run_unattended(Mode.SUGGEST, action_is_floor=False)
    assert policy_identity("work") == "auto:work"


def test_canary_flags_confident_strangers() -> None:
    trusted = Features(confidence=0.95, sender_trust=0.9, reversibility=0.9, urgency=0.1)
    # High confidence, would be eligible on numbers, but no history: canary.
    assert canary(trusted, decision(eligible=False), Facts()) is not None
    # Same numbers with real history: no canary.
    history = Facts(replies_sent=4, messages_received=10)
    assert canary(trusted, decision(eligible=True), history) is None
    assert observed_trust(history) == 0.9
    calm = Features(confidence=0.6, sender_trust=0.3, reversibility=0.9, urgency=0.1)
    assert canary(calm, decision(eligible=False), Facts()) is None


@pytest.mark.parametrize(
    ("address", "flag"),
    [
        ("ceo@аcme.example", "mixed_script"),  # Cyrillic a
        ("ceo@bücher.example", "non_ascii_domain"),
    ],
)
def test_recipient_flags(address: str, flag: str) -> None:
    flags = check_recipient(address)
    assert getattr(flags, flag)
    assert flags.any


def test_lookalike_and_display_name_tricks() -> None:
    known = frozenset({"acme.example"})
    for fake in ("boss@acrne.example", "boss@acme.examp1e", "boss@аcme.example"):
        assert check_recipient(fake, known_domains=known).lookalike_of == "acme.example", fake
    assert check_recipient("b@0acme.example", known_domains=known).lookalike_of is None
    plain = check_recipient("ana@acme.example", display_name="Ana", known_domains=known)
    assert not plain.any
    spoof = check_recipient("x@evil.example", display_name="ana@acme.example")
    assert spoof.display_name_mismatch


def test_one_edit_typosquats_of_a_long_known_domain_are_flagged() -> None:
    known = frozenset({"bluesparrowtech.com", "acme.example"})
    for fake in ("luesparrowtech.com", "bluesparowtech.com", "blluesparrowtech.com",
                 "bluesparrovtech.com", "bluseparrowtech.com"):
        assert check_recipient(f"x@{fake}", known_domains=known).lookalike_of == \
            "bluesparrowtech.com", fake
    # Two edits away, or a short name where one edit is an ordinary other word: no flag.
    for other in ("lusparrowtech.com", "acne.example", "sparrowtech.com"):
        assert check_recipient(f"x@{other}", known_domains=known).lookalike_of is None, other


@given(st.text(alphabet="abcdef", max_size=8), st.text(alphabet="abcdef", max_size=8))
def test_one_edit_apart_agrees_with_edit_distance(a: str, b: str) -> None:
    def distance(x: str, y: str) -> int:  # optimal string alignment, the slow obvious way
        d = [[i + j if not i * j else 0 for j in range(len(y) + 1)] for i in range(len(x) + 1)]
        for i in range(1, len(x) + 1):
            for j in range(1, len(y) + 1):
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                              d[i - 1][j - 1] + (x[i - 1] != y[j - 1]))
                if i > 1 and j > 1 and x[i - 1] == y[j - 2] and x[i - 2] == y[j - 1]:
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        return d[len(x)][len(y)]

    assert one_edit_apart(a, b) == (distance(a, b) == 1)


def test_recipient_must_be_one_clean_address() -> None:
    for bad in ("a@b.example, c@d.example", "a@b.example\r\nBcc: x@y.example", "nobody"):
        with pytest.raises(PayloadError):
            check_recipient(bad)
