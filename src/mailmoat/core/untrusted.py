"""Wrap text from email as untrusted data before any model sees it.

An attacker who can write `</untrusted_content>` into a message could end the wrapper and
talk to the model as the system. So before wrapping, every string that *could be read* as
a wrapper tag is removed — by a model, which reads loosely — not only the exact spelling:
upper/lower case, whitespace, `/` or `\\` or attributes inside the tag, HTML entities
(`&lt;`, `&#60;`, `&#x3c;`, nested `&amp;lt;`), full-width and look-alike angle brackets,
invisible characters (format characters, combining marks, Hangul fillers) inside the name,
and any punctuation, dash or space in place of `_`. What is left cannot open or close the wrapper
because no bracket survives next to the tag name, in any of those spellings.
"""

from __future__ import annotations

import html
import re
import unicodedata

TAG = "untrusted_content"

# Characters a reader might take for "<" or ">".
_LT = "<\uff1c\u2039\u3008\u27e8\u2329\u276e\u276c\u2770\u29fc\u02c2\u1438\u16b2\ufe64"
_GT = ">\uff1e\u203a\u3009\u27e9\u232a\u276f\u276d\u2771\u29fd\u02c3\u1433\ufe65"
# Between the two words a reader may see any punctuation, space or dash ("untrusted-content",
# "untrusted.content", "untrusted · content"): anything but a letter, digit or bracket.
_SEP = rf"(?:[^\w{_LT}{_GT}]|_)*"
_NAME = rf"untrusted{_SEP}content"
_NAME_RX = re.compile(_NAME, re.IGNORECASE)
# No word boundary after the name: "<untrusted_contentX" is close enough to fool a reader.
_TAG_RX = re.compile(rf"[{_LT}][\s/\\]*{_NAME}[^{_LT}{_GT}]*[{_GT}]?", re.IGNORECASE)
# A bare tag name with no bracket is harmless; one with a bracket on either side is not.
_HALF_RX = re.compile(rf"[/\\]?\s*{_NAME}\b[\s/\\]*[{_GT}]", re.IGNORECASE)
# Last resort when removal does not settle: no bracket and no "&" means no tag at all.
_BRACKET_RX = re.compile(rf"[{_LT}{_GT}&]")
_MAX_PASSES = 8

# Hangul fillers render as nothing but are letters, not format characters.
_FILLERS = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0})
_DROP_CATEGORIES = frozenset({"Cf", "Mn", "Me"})


class _DropInvisible(dict[int, int | None]):
    """A str.translate table that drops invisible code points, filled in as they are met."""

    def __missing__(self, cp: int) -> int | None:
        drop = cp in _FILLERS or unicodedata.category(chr(cp)) in _DROP_CATEGORIES
        self[cp] = None if drop else cp
        return self[cp]


_DROP = _DropInvisible()


def _canonical(text: str) -> str:
    """The spelling a model would 'see': entities decoded, invisibles gone, NFKC.

    The steps feed each other (NFKC turns "＆ｌｔ；" into "&lt;", removing an invisible
    character can complete an entity), so they repeat until nothing changes.
    """
    out = text
    for _ in range(_MAX_PASSES):
        decoded = out
        while (step := html.unescape(decoded)) != decoded:  # nested: &amp;lt;
            decoded = step
        # NFKD first so combining marks come apart from their base ("≮" is "<" + U+0338).
        bare = unicodedata.normalize("NFKD", decoded).translate(_DROP)
        updated = unicodedata.normalize("NFKC", bare)
        if updated == out:
            return out
        out = updated
    return _BRACKET_RX.sub(" ", out)


def strip_wrapper_tags(text: str) -> str:
    """Remove anything that reads as an opening or closing wrapper tag, in any spelling."""
    canonical = _canonical(text)
    if not _NAME_RX.search(canonical):
        return text  # fast path: the original is kept byte for byte
    cleaned = canonical
    # Removal can splice a new tag together ("<untr<untrusted_content>usted_content>",
    # "&l<untrusted_content>t;"), so remove and re-canonicalise until stable.
    for _ in range(_MAX_PASSES):
        updated = _canonical(_HALF_RX.sub("", _TAG_RX.sub("", cleaned)))
        if updated == cleaned:
            return cleaned
        cleaned = updated
    return _BRACKET_RX.sub(" ", cleaned)


def _attr(value: str) -> str:
    return re.sub(r"[^a-z0-9_.:-]", "_", value.lower())[:40] or "unknown"


def wrap_untrusted(text: str, source: str) -> str:
    """`<untrusted_content source="...">text</untrusted_content>` with the text defanged."""
    body = strip_wrapper_tags(text)
    return f'<{TAG} source="{_attr(source)}">\n{body}\n</{TAG}>'
