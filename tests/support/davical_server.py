"""A real scheduling CalDAV server for tests: DAViCal (Debian package `davical`, RFC 6638
scheduling: schedule outbox, VFREEBUSY requests) run by PHP's built-in web server on a random
loopback port, with its own fresh database in the test PostgreSQL. No web server or service
is installed or started system-wide; the database is dropped afterwards.

DAViCal reads its configuration only from /etc/davical/<SERVER_NAME>-conf.php (or
config.php). The router script below sets SERVER_NAME, only while DAViCal looks for that
file, to a relative path that leads from /etc/davical to this test's own folder, and the
test's config puts the real name back; nothing under /etc is written.

Outside CI the fixture skips when DAViCal or PHP is not installed; with CI=true it must run
(.ci/run installs davical and php-cli)."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HTDOCS = Path("/usr/share/davical/htdocs")
CREATE_DB = Path("/usr/share/davical/dba/create-database.sh")
IN_CI = os.environ.get("CI", "").lower() == "true"
USERS = {"alice": "alice-dav-pw", "bob": "bob-dav-pw"}  # user -> password
DOMAIN = "example.test"  # each user's calendar address is mailto:<user>@example.test

ROUTER = """<?php
// Every request under /caldav.php goes to DAViCal with PATH_INFO set, as Apache would.
$_SERVER['SERVER_NAME'] = '{config_name}';
$uri = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (strncmp($uri, '/caldav.php', 11) === 0) {{
  $_SERVER['SCRIPT_NAME'] = '/caldav.php';
  $rest = substr($uri, 11);
  $_SERVER['PATH_INFO'] = $rest === '' ? '/' : $rest;
  chdir('{htdocs}');
  include '{htdocs}/caldav.php';
  return true;
}}
return false;
"""

CONFIG = """<?php
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$c->domain_name = '127.0.0.1';
$c->pg_connect[] = 'host={host} port={port} dbname={db} user=davical_app';
$c->enable_scheduling = true;
$c->admin_email = 'admin@{domain}';
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} (CI=true: this test must run; .ci/run installs it)")
    pytest.skip(f"{what}: apt-get install davical php-cli php-pgsql to run this test")


class DAViCal:
    def __init__(self, root: Path, pg_host: str, pg_port: int, pg_user: str) -> None:
        self.root = root
        self.db = f"davical_t{secrets.token_hex(4)}"
        self.env = {**os.environ, "PGHOST": pg_host, "PGPORT": str(pg_port),
                    "PGUSER": pg_user, "USER": pg_user,
                    "PGOPTIONS": "--client-min-messages=warning",
                    "TMPDIR": str(root)}  # create-database.sh leaves a note file there
        made = subprocess.run(["bash", str(CREATE_DB), self.db, secrets.token_hex(8)],
                              env=self.env, capture_output=True, text=True, timeout=120)
        if made.returncode != 0:
            raise RuntimeError(f"DAViCal database not created: {made.stdout}{made.stderr}")
        rows = ", ".join(f"(TRUE, current_date, current_date, '{u}', '**{p}', '{u.title()}', "
                         f"'{u}@{DOMAIN}')" for u, p in USERS.items())
        self.psql(
            "INSERT INTO usr (active, email_ok, updated, username, password, fullname, email)"
            f" VALUES {rows};"
            "INSERT INTO principal (type_id, user_no, displayname, default_privileges) "
            "SELECT 1, user_no, fullname, privilege_to_bits(ARRAY['caldav:read-free-busy',"
            f"'caldav:schedule-deliver']) FROM usr WHERE username IN "
            f"({', '.join(repr(u) for u in USERS)});")
        name = "davical"
        relative = "../.." + str(root / name)  # /etc/davical/../../<root>/davical-conf.php
        (root / f"{name}-conf.php").write_text(CONFIG.format(
            host=pg_host, port=pg_port, db=self.db, domain=DOMAIN))
        (root / "router.php").write_text(ROUTER.format(config_name=relative,
                                                       htdocs=HTDOCS))
        self.port = _free_port()
        self.log = open(root / "php.log", "wb")  # noqa: SIM115
        php = shutil.which("php")
        assert php is not None
        self.proc = subprocess.Popen(
            [php, "-S", f"127.0.0.1:{self.port}", "-t", str(HTDOCS), str(root / "router.php")],
            stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        else:
            self.stop()
            raise RuntimeError(f"php did not start: {(root / 'php.log').read_text()}")
        for user in USERS:
            self.make_calendar(user, "calendar")

    def psql(self, sql: str) -> str:
        done = subprocess.run(["psql", "-qXAt", "-v", "ON_ERROR_STOP=1", "-c", sql, self.db],
                              env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(done.stderr)
        return done.stdout

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/caldav.php"

    def calendar_url(self, user: str) -> str:
        return f"{self.base}/{user}/calendar/"

    def make_calendar(self, user: str, name: str) -> str:
        import requests

        url = f"{self.base}/{user}/{name}/"
        response = requests.request("MKCALENDAR", url, auth=(user, USERS[user]), timeout=10)
        assert response.status_code in (201, 405), response.text
        return url

    def put_event(self, user: str, uid: str, body: str) -> None:
        """A VEVENT (its lines in `body`) in the user's calendar, as their own client would."""
        import requests

        ics = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\n"
               f"UID:{uid}\r\nDTSTAMP:20261130T000000Z\r\n{body}END:VEVENT\r\n"
               "END:VCALENDAR\r\n")
        r = requests.put(f"{self.calendar_url(user)}{uid}.ics", data=ics.encode(),
                         auth=(user, USERS[user]), timeout=10,
                         headers={"Content-Type": "text/calendar"})
        assert r.status_code in (201, 204), r.text

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        subprocess.run(["dropdb", "--if-exists", self.db], env=self.env, capture_output=True,
                       timeout=60)


@pytest.fixture(scope="module")
def davical(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DAViCal]:
    from sqlalchemy.engine import make_url

    from tests.conftest import PG_ADMIN_URL, require_service

    if not (HTDOCS / "caldav.php").exists() or not CREATE_DB.exists():
        _missing("DAViCal is not installed")
    if shutil.which("php") is None or shutil.which("psql") is None:
        _missing("php-cli or the PostgreSQL client is not installed")
    pg = make_url(PG_ADMIN_URL)
    require_service("PostgreSQL", pg.host or "127.0.0.1", pg.port or 5432)
    server = DAViCal(tmp_path_factory.mktemp("davical"), pg.host or "127.0.0.1",
                     pg.port or 5432, pg.username or "postgres")
    try:
        yield server
    finally:
        server.stop()
