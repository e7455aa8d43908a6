"""Text helpers shared by the parser, the signals and the scorers."""

from __future__ import annotations

import html
import re
import unicodedata
from html.parser import HTMLParser

_WS = re.compile(r"\s+")
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x034F, 0x180E], None
)


def normalize_space(text: str) -> str:
    return _WS.sub(" ", text).strip()


def strip_invisible(text: str) -> str:
    """Remove zero-width and soft-hyphen characters an attacker can hide inside words."""
    return text.translate(_INVISIBLE)


def fold(text: str) -> str:
    """Lower-case, NFKC-normalised, invisible-free text for matching (not for display)."""
    return unicodedata.normalize("NFKC", strip_invisible(text)).casefold()


class _TextExtractor(HTMLParser):
    _BLOCK = frozenset({"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "table", "section"})
    _SKIP = frozenset({"script", "style", "head", "title", "noscript", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skip_depth += 1
        elif tag in self._BLOCK:
            self.chunks.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skip_depth:
            self._skip_depth -= 1
        elif tag in self._BLOCK:
            self.chunks.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self.chunks.append(data)


def html_to_text(markup: str) -> str:
    """Readable plain text from HTML: scripts and styles dropped, blocks become lines."""
    parser = _TextExtractor()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:
        return normalize_space(html.unescape(re.sub(r"<[^>]*>", " ", markup)))
    lines = (normalize_space(line) for line in "".join(parser.chunks).splitlines())
    return "\n".join(line for line in lines if line)
