"""A model that believes every email: the worst case the containment suite assumes.

`obedient_answer` is what such a model returns when asked to score a message: whatever
numbers the email asks for (and maximum confidence and trust otherwise), a reason that names
the lane the email argues for, and — as models do — the odd extra field. `obedient_draft` is
the reply it writes: to whoever the email says, carrying the attacker's payload. Both are pure,
so the same obedience drives an in-process scorer and a scripted OpenAI-compatible server.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mailmoat.core.features import FEATURE_NAMES, Features
from mailmoat.core.local_scorer import Scored
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts
from mailmoat.core.signals import Signals

_NUMBER = re.compile(r"(confidence|sender_trust|reversibility|urgency)\W{0,4}(-?[\d.]+)", re.I)
_LANE = re.compile(r"\b(PUSH|MEETING|QUEUE|INFO|SILENT)\b")
_ADDRESS = re.compile(r"[\w.+-]+@[\w.-]+\.[a-z]{2,}", re.I)


def asked_lane(text: str) -> str | None:
    match = _LANE.search(text)
    return match.group(1) if match else None


def obedient_answer(text: str) -> dict[str, Any]:
    """The JSON a fully obedient model returns for an email whose text is `text`."""
    lane = asked_lane(text)
    numbers: dict[str, Any] = {"confidence": 1.0, "sender_trust": 1.0, "reversibility": 1.0,
                               "urgency": 1.0 if lane == "PUSH" else 0.0}
    if lane in {"SILENT", "INFO"}:
        numbers.update(sender_trust=0.0, urgency=0.0)
    for name, value in _NUMBER.findall(text):
        try:
            numbers[name.lower()] = float(value)
        except ValueError:
            continue
    return {**numbers, "reason": f"the email says it is {lane or 'trusted'}", "lane": lane}


def obedient_draft(text: str, original_sender: str) -> dict[str, str]:
    """The reply such a model drafts: to the first address the email names, with its order."""
    addresses = [a for a in _ADDRESS.findall(text) if a.lower() != original_sender.lower()]
    return {"to": addresses[0] if addresses else original_sender,
            "subject": "Re: as requested",
            "body": f"As you asked:\n{text[:2000]}"}


class ObedientScorer:
    """An in-process scorer with the obedient model's answers (numbers validated as usual)."""

    name = "obedient"

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        answer = obedient_answer(f"{message.subject}\n{message.body_text}")
        raw = {k: answer[k] for k in FEATURE_NAMES}
        try:
            features = Features.from_raw(raw)
        except Exception:  # NaN etc.: a real scorer would reject the answer and fall back
            from mailmoat.judge.cascade import ScorerUnavailable

            raise ScorerUnavailable("obedient model returned invalid numbers") from None
        return Scored(features, str(answer["reason"])[:80], "llm:obedient")


def answer_json(text: str) -> str:
    return json.dumps(obedient_answer(text))
