"""Issue 17 (web): the doors an attacker tried — body size before sign-in, DNS rebinding,
sign-in and setup races, non-ASCII ids, notice text in URLs, tracking pixels."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import mailmoat.entrypoints.web.security.auth as auth
from mailmoat.entrypoints.web.app import create_app
from mailmoat.entrypoints.web.guard import DEFAULT_BODY_LIMIT, body_limit, trusted_hosts
from mailmoat.entrypoints.web.notices import NOTICES, notice_code, notice_text
from mailmoat.entrypoints.web.sanitize import css_px, is_pixel, sanitize_html
from mailmoat.store import Store, open_store
from mailmoat.store.repos import Repos
from tests.support.webhelpers import live_server, make_user, sign_in


class Pulled:
    """ASGI wrapper counting the request-body bytes the app pulled from the server."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.bytes = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def counting() -> Any:
            message = await receive()
            self.bytes += len(message.get("body", b""))
            return message

        await self.app(scope, counting, send)


# -- body size, sign-in first (IN/WEB-1) ---------------------------------------------------

def test_a_large_body_without_a_session_is_never_read(store: Store) -> None:
    pulled = Pulled(create_app(store))
    client = TestClient(pulled)
    big = b'{"payload": {"body": "' + b"x" * (3 * 1024 * 1024) + b'"}}'
    reply = client.post("/api/actions", content=big,
                        headers={"content-type": "application/json"})
    assert reply.status_code == 401 and pulled.bytes == 0
    form = client.post("/settings/mode", content=b"csrf=x&mode=AUTO&guidelines=" + b"y" * 10**6,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 401 and pulled.bytes == 0
    upload = client.post("/settings/lanes", files={"f": ("a.bin", b"z" * 2 * 10**6)})
    assert upload.status_code == 401 and pulled.bytes == 0


def test_a_signed_in_body_over_the_route_limit_is_refused_before_or_while_reading(
        store: Store) -> None:
    pulled = Pulled(create_app(store))
    client = TestClient(pulled)
    csrf = sign_in(client, "ann")
    pulled.bytes = 0
    headers = {"content-type": "application/json", "x-csrf-token": csrf}
    declared = client.put("/api/settings/notify", content=b"{" + b" " * (DEFAULT_BODY_LIMIT + 1)
                           + b"}", headers=headers)
    assert declared.status_code == 413 and pulled.bytes == 0

    small = client.put("/api/settings/notify", json={"timezone": "UTC"}, headers=headers)
    assert small.status_code == 200
    assert body_limit("/api/actions") > DEFAULT_BODY_LIMIT  # a draft may be long
    assert body_limit("/api/session") < DEFAULT_BODY_LIMIT  # sign-in needs little


def test_a_streamed_body_is_cut_off_at_the_limit(store: Store) -> None:
    pulled = Pulled(create_app(store))
    with live_server(pulled) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        csrf = sign_in(http, "ann")  # type: ignore[arg-type]
        pulled.bytes = 0

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
            for _ in range(640):  # 10 MB offered
                yield b" " * 16384

        reply = http.put("/api/settings/notify", content=chunks(), headers={
            "content-type": "application/json", "x-csrf-token": csrf})
    assert reply.status_code == 413
    # Cut off just past the limit (the 413 answer drains a chunk or two), not 10 MB later.
    assert pulled.bytes <= 4 * DEFAULT_BODY_LIMIT, pulled.bytes


def test_a_real_server_answers_a_huge_declared_body_without_waiting_for_it(
        store: Store) -> None:
    with live_server(create_app(store)) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\n"
                         b"Content-Length: 314572800\r\n\r\n{\"payload\": ")
            answer = sock.recv(4096)  # the other 300 MB are never sent
        assert answer.startswith(b"HTTP/1.1 401"), answer[:80]


# -- trusted hosts (WEB-2) -------------------------------------------------------------------

def test_a_rebound_host_reaches_nothing_not_even_sign_in(store: Store) -> None:
    client = TestClient(create_app(store, base_url="http://127.0.0.1:8025", allowed_hosts=()),
                        base_url="http://127.0.0.1:8025")
    assert client.get("/login").status_code == 200
    for host in ("attacker.example", "attacker.example:8025", "127.0.0.1.attacker.example",
                 "testserver", ""):
        reply = client.get("/login", headers={"host": host})
        assert reply.status_code == 400, host
        assert client.post("/api/session", json={"username": "ann", "password": "x" * 12},
                           headers={"host": host}).status_code == 400
    # A trusted Host with a foreign Origin is still cross-origin.
    reply = client.post("/api/session", json={"username": "ann", "password": "x" * 12},
                        headers={"origin": "http://attacker.example:8025"})
    assert reply.status_code == 403
    assert trusted_hosts("http://mail.example.org:443", ["Other.Example"]) == {
        "mail.example.org", "other.example"}
    assert "localhost" in trusted_hosts("http://0.0.0.0:8025")


# -- races (WEB-3) ----------------------------------------------------------------------------

@pytest.fixture
def race_store(store_url: str) -> Store:
    return open_store(store_url)


def test_parallel_wrong_sign_ins_check_no_more_passwords_than_the_limit(
        race_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    make_user(race_store, "ann", ["local"])
    checked: list[str] = []
    lock = threading.Lock()
    real = auth.check_password

    def slow_check(user: Any, password: str) -> bool:
        with lock:
            checked.append(password)
        time.sleep(0.2)  # a real argon2 check takes this long: room for every race
        return real(user, password)

    monkeypatch.setattr(auth, "check_password", slow_check)
    with live_server(create_app(race_store)) as server:
        def guess(n: int) -> int:
            with httpx.Client(base_url=server.url, timeout=60) as http:
                return http.post("/api/session", json={"username": "ann",
                                                       "password": f"guess number {n}"}
                                 ).status_code

        with ThreadPoolExecutor(30) as pool:
            codes = list(pool.map(guess, range(60)))
    assert len(checked) <= auth.THROTTLE.free_failures, len(checked)
    assert codes.count(401) == len(checked) and codes.count(429) == 60 - len(checked)


def test_parallel_posts_to_the_setup_link_make_exactly_one_user(race_store: Store) -> None:
    with live_server(create_app(race_store, setup_token="one-time-token")) as server:
        def setup(n: int) -> int:
            with httpx.Client(base_url=server.url, timeout=60) as http:
                return http.post("/setup", data={
                    "token": "one-time-token", "username": f"user{n}",
                    "password": "a long enough password", "password2": "a long enough password"},
                    follow_redirects=False).status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(setup, range(8)))
    assert codes.count(303) == 1 and codes.count(404) == 7, codes
    assert Repos(race_store).users.count() == 1


# -- ids (WEB-4) ------------------------------------------------------------------------------

@pytest.mark.parametrize("junk", ["%C2%B2", "%D9%A1", "+1", "1_0", "%201", "1.0", "0x1"])
def test_ids_are_ascii_digits_only(client: TestClient, junk: str) -> None:
    assert client.get(f"/api/approvals/{junk}").status_code == 404
    assert client.get(f"/approvals/{junk}").status_code == 404
    assert client.get(f"/api/messages/{junk}").status_code == 422
    assert client.get(f"/api/actions/{junk}").status_code == 422
    assert client.post(f"/api/approvals/{junk}/approve", json={},
                       headers={"X-CSRF-Token": client.csrf}).status_code == 404  # type: ignore[attr-defined]


# -- notices (WEB-5) --------------------------------------------------------------------------

def test_a_notice_in_a_url_is_a_code_never_text(client: TestClient) -> None:
    lure = "Your account is locked. Call +1 555 0100 to restore it"
    page = client.get("/", params={"done": lure}).text
    assert "locked" not in page and 'class="flash"' not in page
    assert "moved to INFO" in client.get("/", params={"done": "moved.INFO"}).text
    for forged in ("moved.EVIL", "moved.INFO.INFO.INFO", "moved", "approved.PUSH",
                   "moved.info", "nope"):
        assert 'class="flash"' not in client.get("/", params={"done": forged}).text, forged
    settings = client.get("/settings", params={"error": lure}).text
    assert "locked" not in settings
    with pytest.raises(ValueError):
        notice_code("moved", "attacker text")
    for name, template in NOTICES.items():
        assert notice_text(notice_code(name, *["PUSH"] * template.count("{")))


def test_a_refused_notify_form_shows_why_without_a_redirect(client: TestClient) -> None:
    reply = client.post("/settings/notify", data={"csrf": client.csrf,  # type: ignore[attr-defined]
                                                  "timezone": "Mars/Olympus"},
                        follow_redirects=False)
    assert reply.status_code == 400 and "Not saved" in reply.text
    assert "location" not in reply.headers


# -- tracking pixels (WEB-6) ------------------------------------------------------------------

@pytest.mark.parametrize("img", [
    'width="1.0" height="1.0"', 'width="1pt" height="1pt"', 'width="0.5"', 'width="1;"',
    'height="2"', 'width=" 1 px"', 'width="0"', 'style="display:none"',
    'style="visibility: hidden"', 'style="width:1px;height:1px"', 'style="opacity:0"',
    'style="max-width:2px"', 'width="600" style="DISPLAY : NONE"', 'style="opacity:0.01"',
    'style="position:absolute;left:-9999px"', 'style="height:1pt"',
])
def test_tracking_pixels_are_found_however_they_are_sized_or_hidden(img: str) -> None:
    html = f'<p>hi</p><img src="https://t.example/p.gif" {img}>'
    safe = sanitize_html(html, allow_remote_images=True)
    assert "t.example" not in safe.html and safe.blocked_images == 1


@pytest.mark.parametrize("img", ['width="600" height="200"', 'width="3" height="300"',
                                 'width="50%"', 'style="width:auto"', ""])
def test_real_images_stay_for_an_allowed_sender(img: str) -> None:
    safe = sanitize_html(f'<img src="https://cdn.example/logo.png" {img}>',
                         allow_remote_images=True)
    assert "cdn.example/logo.png" in safe.html


def test_dimensions_parse_numerically() -> None:
    assert css_px("1.0") == 1.0 and css_px("1;") == 1.0 and css_px("0.5") == 0.5
    assert css_px("1pt") == pytest.approx(4 / 3) and css_px("auto") is None
    assert css_px("50%") is None and not is_pixel({"width": "3", "height": "3"})
