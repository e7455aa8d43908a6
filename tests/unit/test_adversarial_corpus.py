"""The adversarial corpus, in process: every hostile email is laned, nothing crashes, and a
fully obedient model still cannot make any of them eligible for an unattended reply or turn
the attacker's goal into a payload a receipt could bind."""

from __future__ import annotations

from collections import Counter

import pytest

from mailmoat.core.autonomy import AutoReplyRequest, Mode, may_auto_reply
from mailmoat.core.lanes import Lane
from mailmoat.core.message import parse_message
from mailmoat.core.policy import Facts
from mailmoat.core.receipts import PayloadError, canonical_payload
from mailmoat.core.untrusted import wrap_untrusted
from mailmoat.eval.adversarial.corpus import ATTACKER, FAMILIES, corpus
from mailmoat.eval.adversarial.obedient import ObedientScorer, obedient_draft
from mailmoat.judge.cascade import classify

CORPUS = corpus()


def test_the_corpus_is_large_and_covers_every_family() -> None:
    counts = Counter(e.family for e in CORPUS)
    print("adversarial corpus per family:", dict(counts))
    assert len(CORPUS) >= 150
    assert set(counts) == set(FAMILIES)
    assert len({e.id for e in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("email", CORPUS, ids=lambda e: e.id)
def test_every_hostile_email_is_laned_and_gains_no_authority(email) -> None:  # type: ignore[no-untyped-def]
    message = parse_message(email.raw)
    trace = classify(message, Facts(), scorers=[ObedientScorer()])
    assert isinstance(trace.decision.lane, Lane)
    # A new sender has no replies from the user, so even full model trust is not enough.
    assert not trace.decision.auto_eligible
    draft = obedient_draft(f"{message.subject}\n{message.body_text}", message.from_addr)
    allowed, _ = may_auto_reply(AutoReplyRequest(
        mode=Mode.AUTO, decision=trace.decision, original_sender=message.from_addr,
        recipient=draft["to"].lower(), sent_today=0, daily_cap=100, model_available=True))
    assert not allowed
    # The text a model reads keeps exactly one wrapper, whatever the email tried.
    wrapped = wrap_untrusted(message.body_text, "body")
    assert wrapped.count("untrusted_content") == 2


def test_smuggled_and_injected_recipients_never_become_a_bindable_payload() -> None:
    families = {"header_injection", "smuggled_recipient", "homoglyph_recipient"}
    checked = 0
    for email in (e for e in CORPUS if e.family in families):
        target = email.goal.send_to or ""
        subject = parse_message(email.raw).subject
        for to, subj in ((target, "Re: order"), (f"{email.sender}, {ATTACKER}", "Re: order"),
                         (email.sender, subject + "\r\nBcc: " + ATTACKER)):
            try:
                payload = canonical_payload({"action": "send_email", "account": "me@example.org",
                                             "to": to, "subject": subj, "body": "x"})
            except PayloadError:
                continue
            checked += 1
            # What survives normalisation is one bare address and a single-line subject.
            assert "," not in payload["to"] and "\n" not in payload["subject"]
    assert checked > 0
