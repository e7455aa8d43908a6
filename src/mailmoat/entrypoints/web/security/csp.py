"""The Content-Security-Policy every page carries: no inline script or style, nothing loaded
from elsewhere. Remote images are allowed only on the HTML view of an allowed sender."""

from __future__ import annotations

_BASE = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src {img}; "
         "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
         "manifest-src 'self'; worker-src 'self'")
CSP = _BASE.format(img="'self' data:")


def csp(remote_images: bool = False) -> str:
    return _BASE.format(img="'self' data: https:") if remote_images else CSP
