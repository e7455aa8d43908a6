"""A real Dovecot IMAP server for tests, with the extensions mail-devel lacks (CONDSTORE,
QRESYNC, keywords, MOVE, UIDPLUS, IDLE).

Debian's `dovecot-imapd` binary runs under its own configuration in a private directory on
a loopback port: no system service, no /etc/dovecot, users from a passwd-file in that
directory, Maildir storage there too, plain-text login allowed (loopback only). Outside CI
the fixture skips when Dovecot is not installed; with CI=true it must run (`.ci/run`
installs it).
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.mailserver import HOST, LoopbackImap, wait_for_port

IN_CI = os.environ.get("CI", "").lower() == "true"

_CONFIG = """\
protocols = imap
listen = {host}
base_dir = {base}/run
state_dir = {base}/state
instance_name = mailmoat-test-{port}
log_path = {base}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal_user}
default_internal_group = {internal_group}
default_login_user = {login_user}
first_valid_uid = {first_uid}
mail_location = maildir:{base}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {base}/users
}}
service imap-login {{
  inet_listener imap {{
    address = {host}
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
protocol imap {{
  mail_max_userip_connections = 50
}}
namespace inbox {{
  inbox = yes
  # Archive, trash and sent under names mailmoat would not guess: found only by their RFC 6154
  # attributes (LIST shows them once the person's client created the folders).
  mailbox "Archived Mail" {{
    special_use = \\Archive
  }}
  mailbox "Deleted Items" {{
    special_use = \\Trash
  }}
  mailbox "Outgoing Copies" {{
    special_use = \\Sent
  }}
}}
"""


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or next(
        (p for p in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if os.access(p, os.X_OK)),
        None)


def _accounts() -> tuple[str, str, str, int, int]:
    """(internal user, its group, login user, mail uid, mail gid). As root, Dovecot's own
    unprivileged users run the services and `nobody` owns the mail (Dovecot refuses mail
    access as UID 0); as anyone else, that user runs everything."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        return me.pw_name, grp.getgrgid(me.pw_gid).gr_name, me.pw_name, me.pw_uid, me.pw_gid
    internal = "dovecot" if _user_exists("dovecot") else "nobody"
    login = "dovenull" if _user_exists("dovenull") else "nobody"
    mail = pwd.getpwnam("nobody")
    return (internal, grp.getgrgid(pwd.getpwnam(internal).pw_gid).gr_name, login,
            mail.pw_uid, mail.pw_gid)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@dataclass
class Dovecot(LoopbackImap):
    """Handle on a running Dovecot; `user`/`password` log in over plain IMAP on loopback."""

    base: Path | None = None
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Dovecot:
        binary = dovecot_binary()
        if binary is None:
            raise FileNotFoundError("dovecot is not installed (apt-get install dovecot-imapd)")
        # Not pytest's tmp_path: that is private to the test user, and as root the mail
        # processes run as `nobody`, which must reach the Maildir.
        self.base = Path(tempfile.mkdtemp(prefix="mm-dovecot-"))
        self.base.chmod(0o755)
        internal, internal_group, login, uid, gid = _accounts()
        for sub in ("run", "state", "mail"):
            (self.base / sub).mkdir()
        os.chown(self.base / "mail", uid, gid)
        home = self.base / "mail" / self.user
        (self.base / "users").write_text(
            f"{self.user}:{{PLAIN}}{self.password}:{uid}:{gid}::{home}::\n")
        config = self.base / "dovecot.conf"
        config.write_text(_CONFIG.format(
            host=HOST, base=self.base, port=self.imap_port, internal_user=internal,
            internal_group=internal_group, login_user=login, first_uid=min(uid, 500)))
        self.process = subprocess.Popen(
            [binary, "-F", "-c", str(config)], stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, start_new_session=True)
        try:
            wait_for_port(self.imap_port, timeout=20)
        except TimeoutError:
            log = self.log()
            self.stop()
            raise RuntimeError(f"dovecot did not start:\n{log}") from None
        return self

    def log(self) -> str:
        if self.base is None:
            return ""
        path = self.base / "dovecot.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None
        if self.base is not None:
            shutil.rmtree(self.base, ignore_errors=True)
            self.base = None


@pytest.fixture
def dovecot() -> Iterator[Dovecot]:
    if dovecot_binary() is None:
        message = "dovecot is not installed (apt-get install dovecot-imapd)"
        if IN_CI:
            pytest.fail(f"{message}; CI=true: the Dovecot tests must run")
        pytest.skip(f"{message}; the CONDSTORE/QRESYNC tests need it")
    server = Dovecot().start()
    try:
        yield server
    finally:
        server.stop()
