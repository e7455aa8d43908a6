"""The notifier end to end: real Apprise (json://) and real Web Push (pywebpush, VAPID,
aes128gcm) to receivers served by uvicorn on loopback; the rules decide, the log dedups."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from fastapi import FastAPI, Request, Response
from fastapi.testclient import TestClient

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.demo import demo_messages
from mailmoat.entrypoints.web.app import create_app
from mailmoat.notify.dispatch import notify_account
from mailmoat.notify.keys import vapid
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from tests.support.webhelpers import live_server, make_user

NEW_PUSH = b"From: ops@example.org\nTo: me@example.org\nSubject: outage again: urgent\n\n" \
           b"Production is down, please respond asap, customers cannot pay.\n"


@dataclass
class Receiver:
    hooks: list[dict[str, Any]] = field(default_factory=list)
    pushes: list[tuple[dict[str, str], bytes]] = field(default_factory=list)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/hook")
        async def hook(request: Request) -> dict[str, str]:
            self.hooks.append(await request.json())
            return {"ok": "yes"}

        @app.post("/push/{sub}")
        async def push(request: Request, sub: str) -> Response:
            self.pushes.append((dict(request.headers), await request.body()))
            return Response(status_code=201)

        @app.post("/gone/{sub}")
        async def gone(sub: str) -> Response:
            return Response(status_code=410)

        return app


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, str]]:
    rec = Receiver()
    with live_server(rec.app()) as server:
        yield rec, server.url


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = open_store(f"sqlite:///{tmp_path / 'notify.db'}")
    make_user(store, "ann", ["local"])
    return store


def import_demo(store: Store) -> None:
    """The demo mailbox as if it had just arrived: its Date headers say today. (Its own
    dates are days old, and old mail never notifies: notify/rules.py arrival_time.)"""
    from email.utils import format_datetime

    from mailmoat.store.messages import Incoming

    today = format_datetime(datetime.now(UTC)).encode()
    store.ingest_many([Incoming(re.sub(rb"(?m)^Date: [^\r\n]*", b"Date: " + today, raw),
                                "demo", folder="INBOX") for raw in demo_messages()])


def configure(web: Repos, url: str, **notify: Any) -> None:
    host = url.removeprefix("http://")
    web.settings.save("local", {"mode": "SUGGEST", "notify": {
        "apprise_urls": [f"json://{host}/hook"], **notify}})


def test_rate_limit_dedup_and_digest_over_real_apprise(store: Store, receiver) -> None:  # type: ignore[no-untyped-def]
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    configure(web, url)
    import_demo(store)  # 3 PUSH + 2 MEETING, all fresh
    now = datetime.now(UTC)
    first = notify_account(web, "local", "http://127.0.0.1:8025", now=now)
    assert len(first.sent) == 3 and len(first.held) == 2  # three per ten minutes
    assert len(rec.hooks) == 3
    assert all(h["title"].startswith(("[PUSH]", "[MEETING]")) for h in rec.hooks)
    assert "/n/" in rec.hooks[0]["message"]  # later and mute links ride along

    again = notify_account(web, "local", "http://127.0.0.1:8025", now=now + timedelta(minutes=1))
    assert again.sent == [] and len(rec.hooks) == 3  # nothing twice; still rate limited

    # An hour later the held ones are no longer fresh: they arrive once, as a digest.
    later = notify_account(web, "local", "http://127.0.0.1:8025", now=now + timedelta(hours=1))
    assert later.sent == [] and sorted(later.digest) == sorted(first.held)
    assert len(rec.hooks) == 4 and rec.hooks[-1]["title"] == "mailmoat: 2 held back"
    assert notify_account(web, "local", "x", now=now + timedelta(hours=2)).digest == []
    assert len(rec.hooks) == 4


def test_quiet_hours_hold_then_digest(store: Store, receiver) -> None:  # type: ignore[no-untyped-def]
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    now = datetime.now(UTC)
    start = (now - timedelta(minutes=5)).strftime("%H:%M")
    end = (now + timedelta(minutes=20)).strftime("%H:%M")
    configure(web, url, quiet_hours=[{"start": start, "end": end}])
    import_demo(store)
    held = notify_account(web, "local", "http://h", now=now)
    assert held.sent == [] and len(held.held) == 5 and rec.hooks == []
    after = notify_account(web, "local", "http://h", now=now + timedelta(minutes=45))
    assert len(after.digest) == 5 and len(rec.hooks) == 1
    assert "5 held back" in rec.hooks[0]["title"]


def test_signed_mute_link_stops_that_sender(store: Store, receiver) -> None:  # type: ignore[no-untyped-def]
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    configure(web, url)
    mid = store.ingest(NEW_PUSH, "eml").message_id
    assert store.get_message(mid)["lane"] == "PUSH"  # type: ignore[index]
    notify_account(web, "local", "http://testserver")
    mute = re.search(r"Mute sender: http://testserver(/n/\S+)", rec.hooks[0]["message"])
    assert mute is not None
    client = TestClient(create_app(store))  # not signed in: the signature is the credential
    confirm = client.get(mute.group(1))
    assert confirm.status_code == 200 and "Mute this sender?" in confirm.text
    assert web.senders.muted("local") == frozenset()  # a GET (link scanner) changes nothing
    done = client.post(mute.group(1))
    assert done.status_code == 200 and "muted" in done.text
    assert web.senders.muted("local") == {"ops@example.org"}
    tampered = mute.group(1)[:-3] + ("AAA" if not mute.group(1).endswith("AAA") else "BBB")
    assert client.post(tampered).status_code == 400
    assert client.post("/api/links/not-a-token").status_code == 404
    second = store.ingest(NEW_PUSH + b"\nsecond time\n", "eml").message_id
    report = notify_account(web, "local", "http://testserver")
    assert report.skipped[second] == "sender muted" and len(rec.hooks) == 1


def test_later_link_snoozes_and_reminds(store: Store, receiver) -> None:  # type: ignore[no-untyped-def]
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    configure(web, url)
    mid = store.ingest(NEW_PUSH, "eml").message_id
    notify_account(web, "local", "http://testserver")
    later = re.search(r"Later: http://testserver(/n/\S+)", rec.hooks[0]["message"])
    assert later is not None
    reply = TestClient(create_app(store)).post("/api/links" + later.group(1)[2:])
    assert reply.status_code == 200 and "two hours" in reply.json()["done"]
    due = datetime.now(UTC) + timedelta(hours=2, minutes=1)
    report = notify_account(web, "local", "http://testserver", now=due)
    assert mid in report.digest and "outage again" in rec.hooks[-1]["message"]


def _subscription(endpoint: str) -> tuple[ec.EllipticCurvePrivateKey, bytes, dict[str, Any]]:
    key = ec.generate_private_key(ec.SECP256R1())
    auth = b"0123456789abcdef"
    point = key.public_key().public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    return key, auth, {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(auth)}}


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _verify_vapid(headers: dict[str, str], web: Repos, audience: str) -> None:
    """The push carries a JWT signed (ES256) by our VAPID key, for the push service's origin."""
    scheme, _, rest = headers["authorization"].partition(" ")
    jwt = rest.split(",")[0].removeprefix("t=").strip()
    assert scheme.lower() in ("webpush", "vapid")
    head, claims, sig = jwt.split(".")
    assert json.loads(_unb64(claims))["aud"] == audience
    raw = _unb64(sig)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    vapid(web.secrets).public_key.verify(der, f"{head}.{claims}".encode(),
                                         ec.ECDSA(hashes.SHA256()))


def test_web_push_is_encrypted_vapid_signed_and_gone_endpoints_tolerated(
        store: Store, receiver) -> None:  # type: ignore[no-untyped-def]
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    web.settings.save("local", {"notify": {}})
    user = web.users.get("ann")
    assert user is not None
    key, auth, sub = _subscription(f"{url}/push/1")
    web.push.add(user.id, "local", sub["endpoint"], sub["keys"]["p256dh"],
                  sub["keys"]["auth"])
    _k2, _a2, dead = _subscription(f"{url}/gone/2")
    web.push.add(user.id, "local", dead["endpoint"], dead["keys"]["p256dh"],
                  dead["keys"]["auth"])
    store.ingest(NEW_PUSH, "eml")
    report = notify_account(web, "local", "http://testserver")
    assert len(report.sent) == 1 and len(rec.pushes) == 1
    headers, body = rec.pushes[0]
    assert headers["content-encoding"] == "aes128gcm"
    _verify_vapid(headers, web, url)
    assert b"outage" not in body  # encrypted on the wire
    plain = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth,
                                        version="aes128gcm"))
    assert plain["title"].startswith("[PUSH]") and "outage again" in plain["body"]
    assert plain["mute"].startswith("http://testserver/n/")
    assert [s["endpoint"] for s in web.push.subscriptions("local")] == [sub["endpoint"]]


def test_notify_command_runs_the_dispatcher(tmp_path: Path, receiver,  # type: ignore[no-untyped-def]
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from mailmoat.entrypoints.cli.main import app as cli

    rec, url = receiver
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", db)
    store = open_store(db)
    configure(Repos(store, sealer=load_key_ring()), url)
    store.ingest(NEW_PUSH, "eml")
    first = CliRunner().invoke(cli, ["notify", "run"])
    assert first.exit_code == 0 and "sent 1" in first.output
    again = CliRunner().invoke(cli, ["notify", "run"])
    assert "sent 0" in again.output and len(rec.hooks) == 1
