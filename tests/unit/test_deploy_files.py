"""The deployment files against the code: compose.yaml (with `docker compose config` where a
docker engine exists, a structural check always) and the systemd units. Every command they
run is a real `mailmoat` command with real options, every MAILMOAT_* variable they set is one
the code reads, and no secret is written into them."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer.main
import yaml

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"MAILMOAT_[A-Z0-9_]*[A-Z0-9]")


def _cli() -> Any:
    from mailmoat.entrypoints.cli.main import app

    group = typer.main.get_command(app)
    assert hasattr(group, "commands")  # a command group (typer's own click)
    return group


def _check_command(argv: list[str]) -> None:
    """`argv` (after `mailmoat`) parses: the command exists and takes these options."""
    group = _cli()
    command = group.commands.get(argv[0])
    assert command is not None, f"no such command: mailmoat {argv[0]}"
    ctx = command.make_context(argv[0], list(argv[1:]), resilient_parsing=False)
    assert ctx.params is not None


def _documented() -> set[str]:
    return set(NAME.findall((ROOT / "docs" / "configuration.md").read_text()))


def test_compose_file_is_well_formed_and_runs_real_commands() -> None:
    text = (ROOT / "compose.yaml").read_text()
    spec = yaml.safe_load(text)
    services = spec["services"]
    assert {"postgres", "rabbitmq", "web1", "web2", "worker", "scheduler", "proxy"} <= set(
        services)
    volumes = set(spec.get("volumes", {}))
    for name, service in services.items():
        assert "image" in service or "build" in service, name
        for dep in service.get("depends_on", {}):
            assert dep in services, f"{name} depends on unknown {dep}"
        for mount in service.get("volumes", []):
            assert mount.split(":")[0] in volumes, f"{name}: undeclared volume {mount}"
        if service.get("build") == ".":
            _check_command([str(a) for a in service["command"]])
            env = service["environment"]
            assert set(NAME.findall(" ".join(env))) <= _documented()
            assert "MAILMOAT_BROKER_URL" in env and "MAILMOAT_DATABASE_URL" in env
    # Secrets come from .env, never from this file: each is a required substitution.
    for secret in ("POSTGRES_PASSWORD", "RABBITMQ_PASSWORD", "MAILMOAT_SECRET_KEY"):
        assert re.search(r"\$\{" + secret + r":\?", text), secret
    assert not re.search(r"(PASSWORD|SECRET_KEY):\s+[^$\s{]", text)
    # Workers get longer to stop than their own grace for the jobs in hand.
    worker = services["worker"]
    grace = float(worker["command"][worker["command"].index("--grace") + 1])
    assert float(worker["stop_grace_period"].rstrip("s")) > grace
    assert (ROOT / "Dockerfile").read_text().count("ENTRYPOINT [\"mailmoat\"]") == 1


def _has_compose() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_compose(), reason="no docker compose on this host")
def test_docker_compose_config_accepts_it(tmp_path: Path) -> None:  # pragma: no cover
    env = tmp_path / ".env"
    env.write_text("POSTGRES_PASSWORD=x\nRABBITMQ_PASSWORD=y\nMAILMOAT_SECRET_KEY=z\n")
    subprocess.run(["docker", "compose", "-f", str(ROOT / "compose.yaml"), "--env-file",
                    str(env), "config", "-q"], check=True)


def test_systemd_units_run_real_commands() -> None:
    units = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
    assert [u.name for u in units] == ["mailmoat-scheduler.service",
                                       "mailmoat-web@.service", "mailmoat-worker@.service"]
    for unit in units:
        parser = configparser.ConfigParser(strict=True, interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(unit.read_text())
        service = parser["Service"]
        assert service["EnvironmentFile"] == "/etc/mailmoat/mailmoat.env"
        argv = shlex.split(service["ExecStart"].replace("%i", "8025"))
        assert argv[0].endswith("/mailmoat")
        _check_command(argv[1:])
        assert parser["Install"]["WantedBy"] == "multi-user.target"
        assert service["KillSignal"] == "SIGTERM"
    example = (ROOT / "deploy" / "mailmoat.env.example").read_text()
    assert set(NAME.findall(example)) <= _documented()
