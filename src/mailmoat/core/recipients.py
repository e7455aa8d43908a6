"""Checks on who a message would go to: what the approval view flags for a person to see.

Normalisation itself is `core.receipts.normalize_recipient` (one address, NFC, IDNA, lower
case). These functions only *describe* risks; the executor's hard rules live in receipts.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from mailmoat.core.receipts import PayloadError, normalize_recipient, unicode_domain

# Characters that read like ASCII letters in common fonts (a small, explicit table).
_CONFUSABLE = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "і": "i",
        "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ո": "n", "ս": "u",
        "0": "o", "1": "l", "ı": "i", "ℓ": "l", "ｍ": "m",
    }
)


@dataclass(frozen=True, slots=True)
class RecipientFlags:
    address: str
    mixed_script: bool = False  # the domain mixes scripts (Latin + Cyrillic, ...)
    non_ascii_domain: bool = False  # an IDN: fine, but worth a look
    lookalike_of: str | None = None  # a known domain this one imitates
    display_name_mismatch: bool = False  # the display name shows a different address
    # What the mail (or the proposer) said, when encoding changed it beyond letter case:
    # full-width letters mapped, a character dropped, another domain than the one shown.
    rewritten_from: str | None = None

    @property
    def any(self) -> bool:
        return bool(
            self.mixed_script
            or self.non_ascii_domain
            or self.lookalike_of
            or self.display_name_mismatch
            or self.rewritten_from
        )


def rewritten(said: str, goes_to: str) -> bool:
    """True when the address a message goes to is not, letter case aside, the one that was
    written: what IDNA2003 did to `faß` (-> `fass`), or a mapping of look-alike forms."""
    written = unicodedata.normalize("NFC", said).strip()
    local, _, domain = goes_to.rpartition("@")
    return written.lower() != f"{local}@{unicode_domain(domain)}".lower()


def _scripts(text: str) -> set[str]:
    scripts = set()
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            scripts.add(name.split(" ")[0] if name else "UNKNOWN")
    return scripts


def skeleton(domain: str) -> str:
    """A rough visual skeleton: confusables mapped to ASCII, NFKC, lower case."""
    folded = unicodedata.normalize("NFKC", domain).lower().translate(_CONFUSABLE)
    return folded.replace("rn", "m").replace("vv", "w")


# Below this many letters in a domain's first label, one edit reaches too many innocent
# neighbours (acme / acne) to be worth a flag.
_MIN_TYPO_LABEL = 6


def one_edit_apart(a: str, b: str) -> bool:
    """True when `b` is `a` with one letter left out, added, changed, or two neighbours
    swapped: the typosquats a skeleton cannot see (luesparrowtech for bluesparrowtech)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    if len(a) < len(b):  # one insertion in b
        return a[start:] == b[start + 1:]
    if a[start + 1:] == b[start + 1:]:  # one substitution
        return True
    i = start  # else two neighbours swapped
    return i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]


def _imitates(shape: str, known: str) -> bool:
    target = skeleton(known)
    if shape == target:
        return True
    return len(known.split(".", 1)[0]) >= _MIN_TYPO_LABEL and one_edit_apart(shape, target)


def check_recipient(
    address: str, display_name: str = "", known_domains: frozenset[str] = frozenset(),
    said: str | None = None,
) -> RecipientFlags:
    """Flags for one recipient. Raises PayloadError when it is not one valid address.
    `said`: the address as the mail (or the proposer) wrote it, when known."""
    raw_domain = unicodedata.normalize("NFC", address).strip().rpartition("@")[2].lower()
    normalized = normalize_recipient(address)
    ascii_domain = normalized.rpartition("@")[2]
    lookalike = None
    if known_domains and ascii_domain not in known_domains:
        shape = skeleton(raw_domain)
        for known in sorted(known_domains):
            if raw_domain != known and _imitates(shape, known):
                lookalike = known
                break
    shown = display_name.lower()
    mismatch = "@" in shown and normalized not in shown
    return RecipientFlags(
        address=normalized,
        mixed_script=len(_scripts(raw_domain.replace(".", ""))) > 1,
        non_ascii_domain=ascii_domain.startswith("xn--") or ".xn--" in ascii_domain,
        lookalike_of=lookalike,
        display_name_mismatch=mismatch,
        rewritten_from=said if said is not None and rewritten(said, normalized) else None,
    )


__all__ = ["PayloadError", "RecipientFlags", "check_recipient", "rewritten", "skeleton"]
