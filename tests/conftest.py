"""Shared fixtures: real PostgreSQL and Redis on 127.0.0.1 when reachable (required in CI)."""

from __future__ import annotations

import importlib.util
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

# Property tests check behaviour, not speed: on a shared, busy machine (CI has two cores) a
# slow first draw or a slow example is the machine's, and speed goals live in bench/. A test
# that sets its own @settings keeps these unless it names them.
settings.register_profile("mailmoat", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mailmoat")

PG_ADMIN_URL = os.environ.get("MAILMOAT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
# The real IMAP + SMTP test server: the `mail_server` fixture for every test module.
pytest_plugins = [f"tests.support.{m}" for m in ("mailserver", "webhelpers", "dovecot",
                                                   "llama_server", "radicale_server",
                                                   "davical_server")]

IN_CI = os.environ.get("CI", "").lower() == "true"
SHARED = Path(__file__).resolve().parents[2] / "shared"
BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_script(name: str) -> ModuleType:
    """A script of bench/ (not a package) loaded as a module, for tests of its functions."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def require_service(name: str, host: str, port: int) -> None:
    """Skip outside CI when the service is down; in CI a missing service is a failure."""
    if _reachable(host, port):
        return
    message = f"{name} is not reachable on {host}:{port}"
    if IN_CI:
        pytest.fail(f"{message} (CI=true: this test must run)")
    pytest.skip(f"{message}; start it to run this test")


@pytest.fixture(autouse=True, scope="session")
def _own_key_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Receipts are MACs made with the key ring: tests use a key file of their own, never
    this machine's (a test may still put a key in the environment, which wins)."""
    from mailmoat.accounts.secrets import ENV_KEY_FILE

    if os.environ.get(ENV_KEY_FILE):
        yield
        return
    os.environ[ENV_KEY_FILE] = str(tmp_path_factory.mktemp("keys") / "secret.key")
    try:
        yield
    finally:
        os.environ.pop(ENV_KEY_FILE, None)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, uniquely named PostgreSQL schema; dropped afterwards."""
    require_service("PostgreSQL", "127.0.0.1", 5432)
    from sqlalchemy import create_engine, text

    schema = f"mm_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'mailmoat.db'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh embedded deployment for the `mailmoat` command: its own SQLite file and key
    file, and none of this machine's mailmoat settings (a broker, multi-user, a model)."""
    from mailmoat.accounts.secrets import ENV_KEY, ENV_KEY_FILE

    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in (ENV_KEY, "MAILMOAT_BROKER_URL", "MAILMOAT_MULTI_USER",
                 "MAILMOAT_LLM_BASE_URL", "MAILMOAT_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return url


RABBITMQ_URL = os.environ.get("MAILMOAT_TEST_RABBITMQ", "amqp://guest:guest@127.0.0.1:5672/%2F")


@pytest.fixture
def rabbitmq_queue() -> Iterator[tuple[str, str]]:
    """(broker URL, a fresh queue name) on the real RabbitMQ; its queues deleted afterwards."""
    require_service("RabbitMQ", "127.0.0.1", 5672)
    import pika

    name = f"mm-test-{uuid.uuid4().hex[:8]}"
    yield RABBITMQ_URL, name
    connection = pika.BlockingConnection(pika.URLParameters(RABBITMQ_URL))
    try:
        channel = connection.channel()
        for queue in (name, f"{name}-resume"):
            for suffix in ("", ".DQ", ".XQ"):
                channel.queue_delete(queue + suffix)
    finally:
        connection.close()


def table_indexes(url: str, table: str) -> set[str]:
    """The index names a table has now, read by a fresh engine (after a migration)."""
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    try:
        return {ix["name"] for ix in inspect(engine).get_indexes(table)}
    finally:
        engine.dispose()

# Starlette's TestClient calls the server "testserver"; the web app answers only to the
# names it is configured with (web/guard.py), so the tests configure that one.
os.environ.setdefault("MAILMOAT_ALLOWED_HOSTS", "testserver")
