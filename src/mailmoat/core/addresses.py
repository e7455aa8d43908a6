"""Address headers (From, To, Cc, Reply-To) as (display name, addr-spec) pairs.

The stdlib's address parser walks a header character by character in Python; on real
mail it was about a fifth of parsing a message. Most address headers use only the plain
forms: `local@domain` and `Display Name <local@domain>` (the name bare words or one
quoted string), comma-separated. `_plain_pairs` reads exactly those with one regular
expression and gives up on anything else (comments, groups, routes, escapes, empty
items), which then takes the stdlib parser. tests/unit/test_core_addresses.py holds the two
to the same answers on generated headers and on every header of the SpamAssassin corpus.
"""

from __future__ import annotations

import re
from email.utils import getaddresses, parseaddr

# The parser's own alphabet: its whitespace is only space, tab, CR and LF (a no-break
# space is part of a word), and these are its specials. An addr-spec here holds no
# whitespace of any kind: the parser drops a part of one that `str.strip` would empty.
_WS = "[ \\t\\r\\n]"
_ATOM = r"[^\s\"(),.:;<>@\[\]\\]+"
_WORD = r"[^ \t\r\n\"(),:;<>@\[\]\\]+"  # a word of a display name may hold dots
_SPEC = rf"{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*"
_PLAIN_ITEM = re.compile(
    rf"{_WS}*(?:"
    rf"(?:\"(?P<quoted>[^\"\\\r\n]*)\"|(?P<words>{_WORD}(?:{_WS}+{_WORD})*))?{_WS}*<(?P<routed>{_SPEC})>"
    rf"|(?P<bare>{_SPEC})"
    rf"){_WS}*(?:,|$)"
)
_SPACES = re.compile(f"{_WS}+")


def _plain_pairs(raw: str) -> list[tuple[str, str]] | None:
    pairs: list[tuple[str, str]] = []
    pos = 0
    while pos < len(raw):
        found = _PLAIN_ITEM.match(raw, pos)
        if found is None or found.end() == pos:
            return None
        pos = found.end()
        if found["bare"] is not None:
            pairs.append(("", found["bare"]))
        elif found["quoted"] is not None:
            pairs.append((found["quoted"], found["routed"]))
        else:
            pairs.append((" ".join(_SPACES.split(found["words"] or "")), found["routed"]))
    return pairs or None


def address_pairs(raw: str) -> list[tuple[str, str]]:
    """Every (name, addr-spec) of an address-list header, as `email.utils.getaddresses`
    reads it. May raise whatever the stdlib parser raises on hostile input."""
    plain = _plain_pairs(raw)
    return plain if plain is not None else getaddresses([raw])


def single_address(raw: str) -> tuple[str, str]:
    """The (name, addr-spec) of a one-address header (From), as `email.utils.parseaddr`
    reads it; a header of several addresses is left to parseaddr, whose answer for those
    differs between Python releases."""
    plain = _plain_pairs(raw)
    return plain[0] if plain is not None and len(plain) == 1 else parseaddr(raw)
