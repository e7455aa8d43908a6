"""Sign-in, sessions, CSRF, throttling and per-user scoping, against a real store."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import select

import mailmoat.entrypoints.web.security.auth as auth
from mailmoat.accounts.secrets import load_key_ring
from mailmoat.demo import import_demo
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from mailmoat.store.tables.web import SessionRow
from tests.support.webhelpers import PASSWORD, make_user, sign_in

OTHER = b"From: bob-friend@example.org\nTo: bob@example.org\nSubject: for bob only\n\nsecret\n"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = open_store(f"sqlite:///{tmp_path / 'auth.db'}")
    import_demo(store)
    make_user(store, "ann", ["local"])
    return store


@pytest.fixture
def app(store: Store):  # type: ignore[no-untyped-def]
    return create_app(store, setup_token="the-setup-token")


def test_pages_need_sign_in_and_api_answers_401(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    for path in ("/", "/lane/PUSH", "/message/1", "/settings", "/status", "/approvals"):
        reply = client.get(path, follow_redirects=False)
        assert reply.status_code == 303 and reply.headers["location"].startswith("/login")
    for path in ("/api/lanes", "/api/messages/1", "/api/status", "/api/settings"):
        assert client.get(path).status_code == 401


def test_password_is_argon2id_and_wrong_password_refused(store: Store, app) -> None:  # type: ignore[no-untyped-def]
    user = Repos(store, sealer=load_key_ring()).users.get("ann")
    assert user is not None and user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash
    client = TestClient(app)
    reply = client.post("/api/session", json={"username": "ann", "password": "wrong one!"})
    assert reply.status_code == 401
    assert client.post("/api/session", json={"username": "nobody", "password": "x"}
                       ).status_code == 401
    good = client.post("/api/session", json={"username": "ann", "password": PASSWORD})
    assert good.status_code == 200 and good.json()["account"] == "local"


def test_session_cookie_flags_and_only_hash_stored(store: Store, app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app, base_url="https://testserver")
    reply = client.post("/api/session", json={"username": "ann", "password": PASSWORD})
    cookie = reply.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" in cookie
    token = re.search(r"mm_session=([^;]+)", cookie).group(1)  # type: ignore[union-attr]
    with store.sessions() as s:
        stored = list(s.scalars(select(SessionRow.token_hash)))
    assert token not in stored and len(stored) == 1
    plain = TestClient(app).post("/api/session", json={"username": "ann", "password": PASSWORD})
    assert "Secure" not in plain.headers["set-cookie"]  # plain http on 127.0.0.1


def _all_routes(routes: list) -> list[APIRoute]:  # type: ignore[type-arg]
    """Every APIRoute, including those in included routers (however FastAPI nests them)."""
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        nested = getattr(route, "original_router", None)
        if nested is not None:
            found.extend(_all_routes(nested.routes))
    return found


def test_every_state_changing_route_refuses_a_missing_or_wrong_csrf_token(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    csrf = sign_in(client, "ann")
    unsafe = [(method, route.path) for route in _all_routes(app.routes)
              for method in route.methods - {"GET", "HEAD"}]
    assert len(unsafe) >= 20
    exempt = ("/login", "/api/session", "/setup", "/n/{token}", "/api/links/{token}")
    checked = 0
    for method, path in unsafe:
        if path in exempt and not (path == "/api/session" and method == "DELETE"):
            continue
        url = path.replace("{message_id}", "1").replace("{action_id}", "x")
        for headers in ({}, {"X-CSRF-Token": "forged"}):
            reply = client.request(method, url, headers=headers, data={"lane": "QUEUE"})
            assert reply.status_code == 403, (method, path, reply.status_code)
        checked += 1
    assert checked >= 18
    # ... and the right token passes the guard.
    ok = client.post("/message/1/move", data={"lane": "QUEUE", "csrf": csrf})
    assert ok.status_code == 200


def test_cross_origin_post_is_refused_even_with_token(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    csrf = sign_in(client, "ann")
    reply = client.post("/api/messages/1/move", json={"lane": "QUEUE"},
                        headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"})
    assert reply.status_code == 403


def test_login_form_needs_its_csrf_cookie_and_api_login_needs_json(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    reply = client.post("/login", data={"username": "ann", "password": PASSWORD,
                                        "csrf": "guess"}, follow_redirects=False)
    assert reply.status_code == 403
    form = client.post("/api/session", data={"username": "ann", "password": PASSWORD})
    assert form.status_code == 415


def test_login_is_throttled_after_repeated_failures(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    codes = [client.post("/api/session", json={"username": "ann", "password": f"nope {i}"}
                         ).status_code for i in range(7)]
    assert codes[:5] == [401] * 5 and codes[-1] == 429
    # Even the right password waits now: a guesser learns nothing from a late success.
    late = client.post("/api/session", json={"username": "ann", "password": PASSWORD})
    assert late.status_code == 429 and int(late.headers["retry-after"]) > 0
    page = client.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    form = client.post("/login", data={"username": "ann", "password": PASSWORD, "csrf": token})
    assert form.status_code == 429 and "Too many failed sign-ins" in form.text


def test_second_user_cannot_read_or_change_first_users_mail(store: Store, app) -> None:  # type: ignore[no-untyped-def]
    make_user(store, "bob", ["bob"])
    bob_mid = store.ingest(OTHER, "eml", account="bob").message_id
    ann_ids = [m["id"] for m in store.list_messages("PUSH")]
    bob = TestClient(app)
    csrf = sign_in(bob, "bob")
    for mid in ann_ids:
        assert bob.get(f"/message/{mid}").status_code == 404
        assert bob.get(f"/message/{mid}/trace").status_code == 404
        assert bob.get(f"/api/messages/{mid}").status_code == 404
        assert bob.post(f"/api/messages/{mid}/move", json={"lane": "SILENT"},
                        headers={"X-CSRF-Token": csrf}).status_code == 404
        assert bob.post(f"/api/messages/{mid}/images", json={"allow": True},
                        headers={"X-CSRF-Token": csrf}).status_code == 404
    assert bob.get("/api/lanes").json()["counts"]["PUSH"] == 0
    assert "checkout is down" not in bob.get("/").text
    assert bob.get(f"/message/{bob_mid}").status_code == 200
    assert bob.post("/api/account", json={"account": "local"},
                    headers={"X-CSRF-Token": csrf}).status_code == 404
    ann = TestClient(app)
    sign_in(ann, "ann")
    assert ann.get(f"/message/{bob_mid}").status_code == 404
    assert all(store.get_message(mid)["lane"] == "PUSH" for mid in ann_ids)  # type: ignore[index]


def test_sign_out_and_password_change_end_sessions(store: Store, app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    csrf = sign_in(client, "ann")
    other = TestClient(app)
    sign_in(other, "ann")
    client.post("/logout", data={"csrf": csrf})
    assert client.get("/api/lanes").status_code == 401
    assert other.get("/api/lanes").status_code == 200
    web = Repos(store, sealer=load_key_ring())
    user = web.users.get("ann")
    assert user is not None
    web.users.set_password(user.id, auth.hash_password("another long password"))
    assert other.get("/api/lanes").status_code == 401


def test_setup_link_creates_the_first_user_once(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'fresh.db'}")
    client = TestClient(create_app(store, setup_token="one-time"))
    assert client.get("/setup?token=wrong").status_code == 404
    short = client.post("/setup", data={"token": "one-time", "username": "me",
                                        "password": "short", "password2": "short"})
    assert short.status_code == 400 and "at least 10" in short.text
    made = client.post("/setup", data={"token": "one-time", "username": "me",
                                       "password": PASSWORD, "password2": PASSWORD})
    assert made.status_code == 200 and "Firewall" in made.text  # signed in, on the firewall
    assert client.get("/setup?token=one-time").status_code == 404  # used up
    again = TestClient(create_app(store, setup_token="one-time")).post(
        "/setup", data={"token": "one-time", "username": "eve", "password": PASSWORD,
                        "password2": PASSWORD})
    assert again.status_code == 404
    assert Repos(store, sealer=load_key_ring()).users.count() == 1


def test_sign_in_redirects_only_to_local_paths(app) -> None:  # type: ignore[no-untyped-def]
    client = TestClient(app)
    page = client.get("/login?next=//evil.example/x")
    assert 'name="next" value="/"' in page.text
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    reply = client.post("/login", data={"username": "ann", "password": PASSWORD, "csrf": token,
                                        "next": "https://evil.example/"},
                        follow_redirects=False)
    assert reply.headers["location"] == "/"
