"""A CalDAV gateway that takes bearer tokens: in front of a real Radicale (which knows only
passwords), it lets through requests that carry an accepted `Authorization: Bearer` token,
forwarding them with the Radicale user's password, and answers 401 to anything else. It
records the Authorization headers it saw, so a test can tell what the client sent."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

from tests.support.radicale_server import PASSWORD, USER, Radicale

PASSED_HEADERS = ("Content-Type", "Depth", "If-Match", "If-None-Match", "Prefer")
RETURNED_HEADERS = ("Content-Type", "ETag", "Location", "DAV")


class BearerGateway:
    def __init__(self, radicale: Radicale, tokens: set[str]) -> None:
        self.tokens = tokens
        self.seen: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _any(self) -> None:
                auth = self.headers.get("Authorization", "")
                owner.seen.append(auth)
                length = int(self.headers.get("Content-Length", 0) or 0)
                body = self.rfile.read(length) if length else b""
                if not (auth.startswith("Bearer ") and auth[7:] in owner.tokens):
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Bearer realm="test"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                headers = {h: self.headers[h] for h in PASSED_HEADERS if self.headers.get(h)}
                answer = requests.request(self.command, radicale.base + self.path, data=body,
                                          headers=headers, auth=(USER, PASSWORD), timeout=20)
                self.send_response(answer.status_code)
                for h in RETURNED_HEADERS:
                    if h in answer.headers:
                        self.send_header(h, answer.headers[h])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = _any
            do_MKCALENDAR = do_POST = _any

            def log_message(self, *_args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
