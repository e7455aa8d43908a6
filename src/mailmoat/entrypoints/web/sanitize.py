"""Mail HTML made safe to show: nh3 strips scripts, handlers, styles and unknown tags; remote
images (and every tracking pixel) are dropped unless the person allowed that sender; links
keep their real target, which the page prints beside each one.

Pure: bytes or text in, safe text out. The page's Content-Security-Policy blocks remote loads
a second time, so a sanitizer miss still cannot fetch anything.
"""

from __future__ import annotations

import email
from dataclasses import dataclass, field
from html.parser import HTMLParser

import nh3

# The parser's hardened MIME walk (caps, defect handling) finds the text/html parts.
from mailmoat.core.message import _POLICY, MAX_RAW_BYTES, _Collector, _walk

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
    acc = _Collector()
    try:
        msg = email.message_from_bytes(raw[:MAX_RAW_BYTES], policy=_POLICY)
        _walk(msg, acc, 0)
    except Exception:  # a tree the parser cannot walk shows as plain text only
        return []
    return [h for h in acc.html if h.strip()]


def _is_remote(url: str) -> bool:
    lowered = url.strip().lower()
    return lowered.startswith(("http:", "https:", "//")) or "://" in lowered


class _PixelFinder(HTMLParser):
    """Collects the src of images declared tiny (tracking pixels) in already-clean HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pixels: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "img":
            return
        values = dict(attrs)
        for side in ("width", "height"):
            size = (values.get(side) or "").strip().lower().removesuffix("px")
            if size.isdigit() and int(size) <= PIXEL_MAX and values.get("src"):
                self.pixels.add(values["src"] or "")


def sanitize_html(html: str, allow_remote_images: bool = False) -> SafeHtml:
    result = SafeHtml(html="")
    pixels: set[str] = set()
    if allow_remote_images:
        finder = _PixelFinder()
        finder.feed(nh3.clean(html[:MAX_HTML_CHARS], tags=TAGS, attributes=ATTRIBUTES,
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
