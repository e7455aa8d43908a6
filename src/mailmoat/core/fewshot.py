"""Few-shot selection: which past corrections to show a model next to a new message. Pure.

Up to MAX_EXAMPLES corrections, in tiers: the same sender first, then the same organisation
domain (never a public mail domain: strangers there teach nothing), then similar content
(word overlap). Newest first within a tier. The examples' subject and snippet are email
text: whoever puts them in a prompt must wrap them as untrusted like any other mail text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mailmoat.core.lanes import Lane
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
