"""Wrap text from email as untrusted data before any model sees it.

An attacker who can write `</untrusted_content>` into a message could end the wrapper and
talk to the model as the system. So before wrapping, every string that *could be read* as
a wrapper tag is removed — by a model, which reads loosely — not only the exact spelling:
upper/lower case, whitespace or attributes inside the tag, HTML entities (`&lt;`, `&#60;`,
`&#x3c;`), full-width and look-alike angle brackets, zero-width characters or soft hyphens
inside the name, and `-`/space in place of `_`. What is left cannot open or close the
wrapper because the only `<` that survives next to the tag name is gone.
"""

from __future__ import annotations

import html
import re
import unicodedata

from mailmoat.core.text import strip_invisible

TAG = "untrusted_content"

# Characters a reader might take for "<" or ">".
_LT = "<\uff1c\u2039\u3008\u27e8\u2329\u276e\u02c2\u1438\u16b2\ufe64"
_GT = ">\uff1e\u203a\u3009\u27e9\u232a\u276f\u02c3\u1433\ufe65"
_NAME = r"/?\s*untrusted[\s_\-\u2010-\u2015\uff3f]*content\b"
_TAG_RX = re.compile(rf"[{_LT}]\s*{_NAME}[^{_LT}{_GT}]*[{_GT}]?", re.IGNORECASE)
# A bare tag name with no bracket is harmless; one with a bracket on either side is not.
_HALF_RX = re.compile(rf"{_NAME}\s*[{_GT}]", re.IGNORECASE)


def _canonical(text: str) -> str:
    """The spelling a model would 'see': entities decoded, invisibles gone, NFKC."""
    out = text
    # Entities can be nested (&amp;lt;): decode until nothing changes. Every change makes
    # the text strictly shorter, so this ends.
    while (decoded := html.unescape(out)) != out:
        out = decoded
    return unicodedata.normalize("NFKC", strip_invisible(out))


def strip_wrapper_tags(text: str) -> str:
    """Remove anything that reads as an opening or closing wrapper tag, in any spelling."""
    canonical = _canonical(text)
    if not re.search(r"untrusted[\s_\-\u2010-\u2015\uff3f]*content", canonical, re.IGNORECASE):
        return text  # fast path: the original is kept byte for byte
    cleaned = canonical
    # Removal can splice a new tag together ("<untr<untrusted_content>usted_content>"), so
    # repeat until stable; every pass that changes anything shortens the text.
    while (updated := _HALF_RX.sub("", _TAG_RX.sub("", cleaned))) != cleaned:
        cleaned = updated
    return cleaned


def _attr(value: str) -> str:
    return re.sub(r"[^a-z0-9_.:-]", "_", value.lower())[:40] or "unknown"


def wrap_untrusted(text: str, source: str) -> str:
    """`<untrusted_content source="...">text</untrusted_content>` with the text defanged."""
    body = strip_wrapper_tags(text)
    return f'<{TAG} source="{_attr(source)}">\n{body}\n</{TAG}>'
