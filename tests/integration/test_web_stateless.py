"""`mailmoat up` as several stateless web processes behind a proxy: two real `mailmoat up`
processes on one PostgreSQL. A session made on one is valid on the other, its CSRF token is
checked by the other, sign-out on one ends it everywhere, failed sign-ins on one throttle the
other, and the one-time setup link printed by either works on both."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.mailserver import free_port, wait_for_port

SRC = Path(__file__).resolve().parents[2] / "src"


def _up(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "mailmoat", "up", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)


def _setup_token(proc: subprocess.Popen[bytes]) -> str:
    assert proc.stdout is not None
    for _ in range(50):
        line = proc.stdout.readline().decode(errors="replace")
        found = re.search(r"setup\?token=(\S+)", line)
        if found:
            return found.group(1)
        if not line:
            break
    raise AssertionError("no setup link printed")


@pytest.mark.postgres
def test_two_web_processes_share_sessions_csrf_throttle_and_setup(
        tmp_path: Path, pg_url: str) -> None:
    from mailmoat.entrypoints.web.security.auth import hash_password
    from mailmoat.services.bootstrap import open_store
    from mailmoat.store.repos import Repos

    env = {k: v for k, v in os.environ.items() if not k.startswith("MAILMOAT_")}
    env.update({"MAILMOAT_DATABASE_URL": pg_url, "XDG_DATA_HOME": str(tmp_path / "data"),
                "MAILMOAT_KEY_FILE": str(tmp_path / "secret.key"),
                "PYTHONPATH": f"{SRC}{os.pathsep}{env.get('PYTHONPATH', '')}"})
    open_store(pg_url)  # migrated once, before both start
    ports = [free_port(), free_port()]
    procs = [_up(port, env) for port in ports]
    try:
        tokens = [_setup_token(p) for p in procs]
        for port in ports:
            wait_for_port(port, timeout=60)
        a, b = (httpx.Client(base_url=f"http://127.0.0.1:{p}", timeout=30) for p in ports)
        # One link, accepted by both processes (it lives in the database).
        assert tokens[0] == tokens[1]
        assert b.get(f"/setup?token={tokens[0]}").status_code == 200
        assert a.get("/setup?token=wrong").status_code == 404
        Repos(open_store(pg_url)).users.create("sam", hash_password("correct horse 9"),
                                                 ["local"])
        assert b.get(f"/setup?token={tokens[0]}").status_code == 404  # done once a user exists

        signed = a.post("/api/session", json={"username": "sam",
                                              "password": "correct horse 9"})
        assert signed.status_code == 200, signed.text
        csrf = signed.json()["csrf_token"]
        jar = "; ".join(f"{k}={v}" for k, v in signed.cookies.items())
        cookies = {"Cookie": jar}
        assert b.get("/api/session", headers=cookies).json()["username"] == "sam"
        assert b.delete("/api/session", headers=cookies).status_code == 403  # no CSRF token
        assert b.delete("/api/session",
                        headers={**cookies, "X-CSRF-Token": "x" + csrf}).status_code == 403
        assert b.delete("/api/session",
                        headers={**cookies, "X-CSRF-Token": csrf}).status_code == 204
        assert a.get("/api/session", headers=cookies).status_code == 401  # ended everywhere

        codes = [a.post("/api/session", json={"username": "sam", "password": f"no {i}"}
                        ).status_code for i in range(6)]
        assert codes[:5] == [401] * 5
        throttled = b.post("/api/session", json={"username": "sam",
                                                 "password": "correct horse 9"})
        assert throttled.status_code == 429 and int(throttled.headers["Retry-After"]) > 0
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
