"""The daily digest end to end: a real store, real Apprise (json://) to a receiver on
loopback. Off until an hour is set, once a day whoever sends it (the schedule hook or
`mailmoat notify digest --send`), SILENT mail only as a count, no message body."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from typer.testing import CliRunner

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.act.service import ActionService
from mailmoat.entrypoints.cli.main import app
from mailmoat.notify.settings import AccountNotifySettings
from mailmoat.services.digest import send_digest, send_due_digests
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from tests.integration.test_notify_dispatch import (  # noqa: F401  (fixtures)
    configure,
    import_demo,
    receiver,
    store,
)
from tests.support.act_support import send_payload

runner = CliRunner()


def _silent(db: Store) -> list[dict[str, str]]:
    return db.list_messages("SILENT", account="local")


def test_the_scheduled_digest_goes_once_a_day_and_never_names_silent_mail(
        store: Store, receiver) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    now = datetime.now(UTC) + timedelta(minutes=1)
    configure(web, url, daily_digest_hour=now.hour)
    import_demo(store)
    proposal = ActionService(store.engine).propose("local", send_payload(), "sam", "cli")

    if now.hour > 0:
        before = send_due_digests(store, "https://mm.example", now - timedelta(hours=1))
        assert [o.why for o in before] == ["not due"] and rec.hooks == []
    sent = send_due_digests(store, "https://mm.example", now)
    assert [o.sent for o in sent] == [True]
    assert len(rec.hooks) == 1
    hook = rec.hooks[0]
    assert hook["title"] == "mailmoat daily (local): 1 to approve, 16 new"
    body = hook["message"]
    assert f"https://mm.example/actions/{proposal['id']}" in body
    assert "Your receipt from Acme Hosting #1042" in body  # INFO is listed ...
    assert "Amount paid" not in body and "Visa ending" not in body  # ... without its body
    silenced = _silent(store)
    assert len(silenced) == 3 and f"Silenced: {len(silenced)}" in body
    for m in silenced:
        assert m["subject"] not in body and m["from_addr"] not in body

    # later the same day: the hour's last second, not "+30 minutes" (after 23:29 UTC that is
    # tomorrow, when the digest is due again only at its hour)
    again = send_due_digests(store, "https://mm.example", now.replace(minute=59, second=59))
    assert [o.why for o in again] == ["already sent today"] and len(rec.hooks) == 1
    tomorrow = send_due_digests(store, "https://mm.example", now + timedelta(days=1))
    assert [o.sent for o in tomorrow] == [True] and len(rec.hooks) == 2


def test_off_by_default_and_quiet_when_empty(store: Store, receiver) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    configure(web, url)  # a channel, but no hour: no daily digest
    import_demo(store)
    assert AccountNotifySettings.load(web.settings.get("local")).notify.daily_digest_hour is None
    assert [o.why for o in send_due_digests(store, "https://h")] == ["not due"]
    configure(web, url, daily_digest_hour=0)
    late = datetime.now(UTC) + timedelta(days=3)  # the demo mail is days old by then
    assert send_digest(store, "local", "https://h", late).why == "nothing to say"
    assert rec.hooks == []


def test_cli_prints_schedules_and_sends_once(store: Store, receiver, monkeypatch) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    rec, url = receiver
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", str(store.engine.url))
    web = Repos(store, sealer=load_key_ring())
    import_demo(store)
    printed = runner.invoke(app, ["notify", "digest", "--base-url", "https://mm.example"])
    assert printed.exit_code == 0, printed.output
    assert "Silenced: 3" in printed.output and "https://mm.example/lane/SILENT" in printed.output
    no_channel = runner.invoke(app, ["notify", "digest", "--send"])
    assert no_channel.exit_code == 1 and "no notification channel" in no_channel.output
    configure(web, url)
    scheduled = runner.invoke(app, ["notify", "digest", "--at", "7"])
    assert scheduled.exit_code == 0 and "every day from 07:00 UTC" in scheduled.output
    settings = AccountNotifySettings.load(web.settings.get("local")).notify
    assert settings.daily_digest_hour == 7 and settings.apprise_urls  # the rest kept
    first = runner.invoke(app, ["notify", "digest", "--send"])
    assert first.exit_code == 0 and "sent the daily digest" in first.output
    second = runner.invoke(app, ["notify", "digest", "--send"])
    assert "already sent today" in second.output
    assert len(rec.hooks) == 1
    off = runner.invoke(app, ["notify", "digest", "--off"])
    assert off.exit_code == 0 and "daily digest off" in off.output
    assert AccountNotifySettings.load(web.settings.get("local")).notify.daily_digest_hour is None


def test_the_settings_page_turns_the_digest_on_at_an_hour_and_off_again(
        store: Store, receiver) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Off by default; the hour chosen on the settings page is the one the schedule hook
    reads (a real Apprise delivery follows); "never" turns it off again."""
    from fastapi.testclient import TestClient

    from mailmoat.entrypoints.web.app import create_app
    from tests.support.webhelpers import sign_in

    rec, url = receiver
    web = Repos(store, sealer=load_key_ring())
    configure(web, url)
    import_demo(store)
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    page = client.get("/settings").text
    assert '<option value="off" selected>never (off)</option>' in page
    assert 'id="digest-no-channel"' not in page  # an Apprise URL is set

    now = datetime.now(UTC) + timedelta(minutes=1)
    assert [o.why for o in send_due_digests(store, "https://mm.example", now)] == ["not due"]
    saved = client.post("/settings/digest", data={"csrf": csrf, "hour": str(now.hour)},
                        follow_redirects=False)
    assert saved.status_code == 303 and saved.headers["location"].endswith("done=digest_saved")
    settings = AccountNotifySettings.load(web.settings.get("local"))
    assert settings.notify.daily_digest_hour == now.hour
    assert settings.notify.apprise_urls  # the other notification settings stay
    assert f'<option value="{now.hour}" selected>' in client.get("/settings").text
    assert [o.sent for o in send_due_digests(store, "https://mm.example", now)] == [True]
    assert len(rec.hooks) == 1

    # Saving the notification form keeps the digest hour.
    client.post("/settings/notify", data={"csrf": csrf, "timezone": "UTC"})
    assert AccountNotifySettings.load(
        web.settings.get("local")).notify.daily_digest_hour == now.hour
    off = client.post("/settings/digest", data={"csrf": csrf, "hour": "off"},
                      follow_redirects=False)
    assert off.headers["location"].endswith("done=digest_off")
    assert AccountNotifySettings.load(web.settings.get("local")).notify.daily_digest_hour is None
    # Refused: an hour out of range, a non-ASCII digit, no CSRF token.
    for bad in ("24", "-1", "７"):
        assert client.post("/settings/digest", data={"csrf": csrf, "hour": bad}
                           ).status_code == 422
    assert client.post("/settings/digest", data={"hour": "7"}).status_code == 403
    assert AccountNotifySettings.load(web.settings.get("local")).notify.daily_digest_hour is None
