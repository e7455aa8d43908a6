"""`mailmoat up` still serves once it binds its own socket first: a real process on the port
MAILMOAT_PORT names answers HTTP, and a second `up` on the same port is refused at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from tests.support.mailserver import free_port, wait_for_port

SRC = Path(__file__).resolve().parents[2] / "src"


def test_up_serves_on_mailmoat_port_and_a_second_up_is_refused(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAILMOAT_")}
    env.update({"MAILMOAT_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}",
                "MAILMOAT_PORT": str(port), "XDG_DATA_HOME": str(tmp_path / "data"),
                "MAILMOAT_KEY_FILE": str(tmp_path / "secret.key"),
                "PYTHONPATH": f"{SRC}{os.pathsep}{env.get('PYTHONPATH', '')}"})
    first = subprocess.Popen([sys.executable, "-m", "mailmoat", "up"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)
    try:
        wait_for_port(port, timeout=60)
        response = httpx.get(f"http://127.0.0.1:{port}/login", timeout=30)
        assert response.status_code == 200
        second = subprocess.run([sys.executable, "-m", "mailmoat", "up"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert f"port {port} on 127.0.0.1 is already in use" in " ".join(second.stderr.split())
        assert "mailmoat is up" not in second.stdout
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.wait(timeout=30)
    out = first.stdout.read().decode() if first.stdout else ""
    assert f"mailmoat is up: http://127.0.0.1:{port}/" in out
