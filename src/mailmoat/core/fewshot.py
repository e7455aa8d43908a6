"""Few-shot selection: which past corrections to show a model next to a new message. Pure.

Up to MAX_EXAMPLES corrections, in tiers: the same sender first, then the same organisation
domain (never a public mail domain: strangers there teach nothing), then similar content
(word overlap). Newest first within a tier. The examples' subject and snippet are email
text: whoever puts them in a prompt must wrap them as untrusted like any other mail text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from mailmoat.core.features import Features
from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.public_domains import is_public_domain
from mailmoat.core.rules import domain_of, normalize_address
from mailmoat.core.untrusted import wrap_untrusted
from mailmoat.core.words import words

MAX_EXAMPLES = 5
MIN_SIMILARITY = 0.15  # Jaccard over word sets; below this, content is not "similar"


@dataclass(frozen=True, slots=True)
class Example:
    correction_id: int
    sender: str
    subject: str
    snippet: str
    shown_lane: Lane | None  # what the firewall decided
    corrected_lane: Lane  # what the person chose
    why: str = ""  # "same sender" | "same domain" | "similar content", set on selection


def _similarity(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def _tagged(example: Example, why: str) -> Example:
    return Example(
        example.correction_id, example.sender, example.subject, example.snippet,
        example.shown_lane, example.corrected_lane, why,
    )


def select_examples(
    sender: str,
    text: str,
    corrections: Sequence[Example],
    limit: int = MAX_EXAMPLES,
) -> list[Example]:
    """Pick up to `limit` corrections relevant to a message from `sender` reading `text`."""
    address = normalize_address(sender)
    domain = domain_of(address)
    org_domain = domain if domain and not is_public_domain(domain) else ""
    newest = sorted(corrections, key=lambda e: e.correction_id, reverse=True)
    chosen: list[Example] = []
    taken: set[int] = set()

    def take(example: Example, why: str) -> None:
        if len(chosen) < limit and example.correction_id not in taken:
            chosen.append(_tagged(example, why))
            taken.add(example.correction_id)

    for example in newest:
        if address and normalize_address(example.sender) == address:
            take(example, "same sender")
    if org_domain:
        for example in newest:
            if domain_of(example.sender) == org_domain:
                take(example, "same domain")
    if len(chosen) < limit:
        mine = set(words(text))
        scored = [
            (_similarity(mine, set(words(f"{e.subject} {e.snippet}"))), e)
            for e in newest
            if e.correction_id not in taken
        ]
        scored = [(s, e) for s, e in scored if s >= MIN_SIMILARITY]
        scored.sort(key=lambda pair: (-pair[0], -pair[1].correction_id))
        for _, example in scored:
            take(example, "similar content")
    return chosen


def render_examples(examples: Sequence[Example]) -> str:
    """The examples as prompt text: lanes and reasons in the clear, each example's mail text
    wrapped as untrusted (it is email, and may try to speak to the model)."""
    blocks = []
    for n, e in enumerate(examples, 1):
        shown = e.shown_lane.value if e.shown_lane else "unknown"
        head = (f"Past correction {n} ({e.why or 'relevant'}): the firewall chose {shown}; "
                f"the person moved it to {e.corrected_lane.value}.")
        mail = wrap_untrusted(e.subject + "\n" + e.snippet, "example")
        blocks.append(f"{head}\n{mail}")
    return "\n\n".join(blocks)


# What a person says about a message by moving it to a lane, as the four numbers a scorer
# reads (a model is shown these, never a lane name). Each row lands in its lane through
# `core.policy.decide` with margin; MEETING and INFO also need their content signal
# (scheduling, transactional), which is the policy's to detect, not the model's.
IMPLIED: Mapping[Lane, Features] = MappingProxyType({
    Lane.PUSH: Features(confidence=0.9, sender_trust=0.8, reversibility=0.3, urgency=0.9),
    Lane.MEETING: Features(confidence=0.8, sender_trust=0.7, reversibility=0.6, urgency=0.6),
    Lane.QUEUE: Features(confidence=0.8, sender_trust=0.6, reversibility=0.7, urgency=0.5),
    Lane.INFO: Features(confidence=0.8, sender_trust=0.3, reversibility=0.9, urgency=0.1),
    Lane.SILENT: Features(confidence=0.9, sender_trust=0.0, reversibility=1.0, urgency=0.0),
})


def implied_features(lane: Lane) -> Features:
    """The numbers a person implied by putting a message in `lane`."""
    return IMPLIED[lane]


def teaches_model(example: Example) -> bool:
    """Only corrections toward a visible lane are shown to a model. A person hiding one
    message says nothing a model may generalise from: shown as numbers, it would teach the
    model to hide that sender's (or domain's) next mail, and only a pin may silence a
    sender (invariant 4; learned rules obey the same limit)."""
    return example.corrected_lane not in HIDDEN_LANES


def model_examples(examples: Sequence[Example], limit: int = MAX_EXAMPLES) -> list[Example]:
    """The first `limit` examples a model may see, in selection order. A repeat of one
    already kept (same sender, subject and lane: a recurring notice corrected each time)
    would show the model the same lines twice, so it gives way to the next example."""
    kept: list[Example] = []
    seen: set[tuple[str, str, Lane]] = set()
    for e in examples:
        key = (normalize_address(e.sender), e.subject.strip(), e.corrected_lane)
        if teaches_model(e) and key not in seen and len(kept) < limit:
            kept.append(e)
            seen.add(key)
    return kept
