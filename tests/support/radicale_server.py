"""A real CalDAV server for tests: Radicale on a random loopback port with a temporary
storage folder and one htpasswd user. Started per test module, stopped after."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

USER, PASSWORD = "alice", "radicale-test-password"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _command() -> list[str]:
    exe = shutil.which("radicale")
    if exe:
        return [exe]
    try:
        import radicale  # noqa: F401
    except ImportError:
        pytest.skip("Radicale is not installed (apt-get install radicale, or pip install "
                    "radicale)")
    return [sys.executable, "-m", "radicale"]


def put_event(collection_url: str, uid: str, ics: str) -> None:
    """Store `ics` as <collection>/<uid>.ics, as another calendar client would."""
    import requests

    r = requests.put(f"{collection_url}{uid}.ics", data=ics.encode(), auth=(USER, PASSWORD),
                     timeout=10, headers={"Content-Type": "text/calendar"})
    assert r.status_code in (201, 204), r.text


class Radicale:
    def __init__(self, root: Path, command: list[str] | None = None) -> None:
        """`command`: another Radicale to run (default: the installed one)."""
        self.root = root
        self.port = _free_port()
        users = root / "users"
        users.write_text(f"{USER}:{PASSWORD}\n")
        users.chmod(0o600)
        self.log = open(root / "radicale.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*(command or _command()), "--server-hosts", f"127.0.0.1:{self.port}",
             "--storage-filesystem-folder", str(root / "collections"),
             "--auth-type", "htpasswd", "--auth-htpasswd-filename", str(users),
             "--auth-htpasswd-encryption", "plain", "--logging-level", "warning"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"Radicale did not start: {(root / 'radicale.log').read_text()}")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def make_calendar(self, name: str) -> str:
        """MKCALENDAR a collection for the user; returns its URL."""
        import requests

        url = f"{self.base}/{USER}/{name}/"
        response = requests.request("MKCALENDAR", url, auth=(USER, PASSWORD), timeout=10)
        assert response.status_code in (201, 405), response.text
        return url

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def radicale(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Radicale]:
    server = Radicale(tmp_path_factory.mktemp("radicale"))
    try:
        yield server
    finally:
        server.stop()
