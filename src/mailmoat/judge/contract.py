"""The judge's output contract, validated here and nowhere else (pure).

The model must return a JSON object with exactly `confidence`, `sender_trust`,
`reversibility`, `urgency` (finite numbers in [0, 1]) and `reason` (a string). Anything else
is rejected: missing or extra keys (a `lane` key included), booleans, strings, NaN, infinity,
numbers outside [0, 1]. Markdown code fences around the object are tolerated, and so is a
reason longer than 12 words, which is cut to 12 words (it is shown to a person, never read
by the policy).
"""

from __future__ import annotations

import json
import math
import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError

from mailmoat.core.features import Features

MAX_REASON_WORDS = 12
MAX_REPLY_CHARS = 4_000

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)

Unit = Annotated[StrictFloat | StrictInt, Field(ge=0, le=1, allow_inf_nan=False)]


class ContractViolation(ValueError):
    """The reply is not the contract's JSON object; the message says why (no reply text)."""


# The same contract as a JSON Schema, for servers that can constrain decoding to one
# (llama.cpp's server reads `schema` inside a json_object response_format). Opt-in per
# provider (`json_schema_hint`): OpenAI-style APIs reject the extra key.
CONTRACT_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        **{name: {"type": "number", "minimum": 0, "maximum": 1}
           for name in ("confidence", "sender_trust", "reversibility", "urgency")},
        "reason": {"type": "string", "maxLength": 100},
    },
    "required": ["confidence", "sender_trust", "reversibility", "urgency", "reason"],
    "additionalProperties": False,
}


class JudgeReply(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    confidence: Unit
    sender_trust: Unit
    reversibility: Unit
    urgency: Unit
    reason: Annotated[str, Field(max_length=1_000)]


def strip_fences(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1) if match else text


def _reject_constant(name: str) -> float:
    raise ContractViolation(f"non-finite number {name} in reply")


def parse_reply(text: str | None) -> tuple[Features, str]:
    """Validate one model reply; return the features and a reason of at most 12 words."""
    if not text or not text.strip():
        raise ContractViolation("empty reply")
    if len(text) > MAX_REPLY_CHARS:
        raise ContractViolation(f"reply longer than {MAX_REPLY_CHARS} characters")
    body = strip_fences(text.strip())
    try:
        data = json.loads(body, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ContractViolation(f"not a JSON object ({exc.msg} at char {exc.pos})") from exc
    if not isinstance(data, dict):
        raise ContractViolation(f"expected a JSON object, got {type(data).__name__}")
    try:
        reply = JudgeReply.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['type']}" for e in exc.errors()
        )
        raise ContractViolation(f"reply breaks the contract: {problems}") from exc
    numbers = {
        "confidence": float(reply.confidence),
        "sender_trust": float(reply.sender_trust),
        "reversibility": float(reply.reversibility),
        "urgency": float(reply.urgency),
    }
    if not all(math.isfinite(v) for v in numbers.values()):  # belt and braces
        raise ContractViolation("non-finite number in reply")
    words = reply.reason.split()
    return Features(**numbers), " ".join(words[:MAX_REASON_WORDS])
