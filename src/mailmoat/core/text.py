"""Text helpers shared by the parser, the signals and the scorers."""

from __future__ import annotations

import html
import re
import unicodedata

import nh3

_WS = re.compile(r"\s+")
_HSPACE = re.compile(r"[^\S\n]+")
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x034F, 0x180E], None
)


def normalize_space(text: str) -> str:
    return _WS.sub(" ", text).strip()


def snippet(text: str, limit: int) -> str:
    """`normalize_space(text)[:limit]`, reading only as much of `text` as that needs.

    Collapsing whitespace is local, so a prefix of the text normalizes to a prefix of the
    whole text's normal form: once it yields more than `limit` characters, the rest of a
    (up to 64 KiB) body cannot change them."""
    head = normalize_space(text[: limit * 4])
    return head[:limit] if len(head) > limit else normalize_space(text)[:limit]


def strip_invisible(text: str) -> str:
    """Remove zero-width and soft-hyphen characters an attacker can hide inside words."""
    return text.translate(_INVISIBLE)


def fold(text: str) -> str:
    """Lower-case, NFKC-normalised, invisible-free text for matching (not for display)."""
    return unicodedata.normalize("NFKC", strip_invisible(text)).casefold()


# Block-level tags become line breaks before the markup is stripped. `[^<>]` (not `[^>]`)
# stops each attempt at the next "<": with `[^>]*`, a part of "<p<p<p..." and no ">" made
# every attempt scan to the end, quadratic time (minutes for one 512 KiB part).
_BLOCK_TAG = re.compile(
    r"<\s*/?\s*(?:p|div|br|tr|li|h[1-6]|table|section|blockquote)\b[^<>]*>", re.IGNORECASE
)
_HIDDEN_CONTENT = frozenset({"script", "style", "head", "title", "noscript", "template"})


def html_to_text(markup: str) -> str:
    """Readable plain text from HTML: scripts and styles dropped, blocks become lines.

    nh3 (a Rust HTML parser) does the stripping: the pure-Python HTMLParser cost a third
    of all parsing time on real mail.
    """
    marked = _BLOCK_TAG.sub("\n", markup)
    try:
        stripped = nh3.clean(marked, tags=set(), clean_content_tags=set(_HIDDEN_CONTENT))
    except Exception:
        stripped = re.sub(r"<[^<>]*>", " ", marked)
    text = _HSPACE.sub(" ", html.unescape(stripped))
    return "\n".join(line for line in (raw.strip() for raw in text.splitlines()) if line)
