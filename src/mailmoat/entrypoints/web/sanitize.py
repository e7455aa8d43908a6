"""Mail HTML made safe to show: nh3 strips scripts, handlers, styles and unknown tags; remote
images (and every tracking pixel) are dropped unless the person allowed that sender; links
keep their real target, which the page prints beside each one.

Pure: bytes or text in, safe text out. The page's Content-Security-Policy blocks remote loads
a second time, so a sanitizer miss still cannot fetch anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import nh3

# The parser's hardened MIME walk (caps, elision, defect handling) finds the text/html parts.
from mailmoat.core.message import parse_message_with_html

TAGS = set(nh3.ALLOWED_TAGS) - {"area", "map"}
ATTRIBUTES = {tag: set(attrs) - {"cite"} for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items()}
URL_SCHEMES = {"http", "https", "mailto", "data", "cid"}
SAFE_DATA_IMAGES = ("data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp")
PIXEL_MAX = 2  # an image this small (either side, in px) is a beacon, not content
MAX_HTML_CHARS = 2_000_000


@dataclass(slots=True)
class SafeHtml:
    html: str
    blocked_images: int = 0
    links: list[str] = field(default_factory=list)


def html_parts(raw: bytes) -> list[str]:
    """The text/html parts of a message, decoded; [] when there are none or it will not parse."""
    return list(parse_message_with_html(raw)[1])


def _is_remote(url: str) -> bool:
    lowered = url.strip().lower()
    return lowered.startswith(("http:", "https:", "//")) or "://" in lowered


_NUMBER = re.compile(r"\s*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))\s*([a-z%]*)")
# CSS absolute units in px; a relative unit (%, em, vw) says nothing about the real size.
_UNIT_PX = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54,
            "mm": 96 / 25.4, "q": 96 / 101.6}
_HIDING = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)"
    r"|opacity\s*:\s*(?:0*\.0[0-9]*|0+)\s*(?:;|!|$)|(?:^|;)\s*clip(?:-path)?\s*:"
    r"|(?:^|;)\s*(?:left|top|right|bottom|margin-left|text-indent)\s*:\s*-[0-9]{3,}",
    re.IGNORECASE)
_STYLE_SIDE = re.compile(r"(?:^|;)\s*(?:max-)?(width|height)\s*:\s*([^;]*)", re.IGNORECASE)


def css_px(value: str) -> float | None:
    """A width/height as an HTML attribute or CSS value, in px: "1", "1.0", "1px", "1pt",
    "0.5", "1;" all parse; None when it names no absolute size ("auto", "50%", "")."""
    found = _NUMBER.match(value.lower())
    if found is None:
        return None
    unit = _UNIT_PX.get(found.group(2))
    return None if unit is None else float(found.group(1)) * unit


def is_pixel(attrs: dict[str, str | None]) -> bool:
    """An image no person would see: either side at most PIXEL_MAX px, or hidden by style."""
    style = attrs.get("style") or ""
    if _HIDING.search(style):
        return True
    sides = [attrs.get("width") or "", attrs.get("height") or ""]
    sides += [m.group(2) for m in _STYLE_SIDE.finditer(style)]
    return any((px := css_px(side)) is not None and px <= PIXEL_MAX for side in sides)


class _PixelFinder(HTMLParser):
    """Collects the src of images that are tracking pixels, in HTML already serialised by the
    cleaner (so this parser reads the same tree the cleaner built)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pixels: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "img" and values.get("src") and is_pixel(values):
            self.pixels.add(values["src"] or "")


# The pixel pass keeps the attributes that size or hide an image; its output is never shown.
_FIND_ATTRIBUTES = {**ATTRIBUTES, "img": {*ATTRIBUTES.get("img", set()), "style", "width",
                                          "height", "src"}}


def sanitize_html(html: str, allow_remote_images: bool = False) -> SafeHtml:
    result = SafeHtml(html="")
    pixels: set[str] = set()
    if allow_remote_images:
        finder = _PixelFinder()
        finder.feed(nh3.clean(html[:MAX_HTML_CHARS], tags=TAGS, attributes=_FIND_ATTRIBUTES,
                              url_schemes=URL_SCHEMES))
        pixels = finder.pixels

    def keep(tag: str, attr: str, value: str) -> str | None:
        if tag == "img" and attr == "src":
            lowered = value.strip().lower()
            if lowered.startswith("data:"):
                return value if lowered.startswith(SAFE_DATA_IMAGES) else None
            if _is_remote(value) and allow_remote_images and value not in pixels:
                return value
            result.blocked_images += 1  # remote but not allowed, a pixel, cid: or relative
            return None
        if tag == "a" and attr == "href":
            if value.strip().lower().startswith("data:"):
                return None
            result.links.append(value)
        return value

    result.html = nh3.clean(
        html[:MAX_HTML_CHARS],
        tags=TAGS,
        attributes=ATTRIBUTES,
        attribute_filter=keep,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    return result
