"""Start a private rspamd on a free loopback port with its own config directory.

For tests, benchmarks and `mailmoat report`: the stock Debian rules (/etc/rspamd), one normal
worker, no controller or proxy, and the modules that need the network (RBLs, fuzzy hashes,
ASN lookups, and SPF/DKIM/DMARC checks, which need DNS: the receiving server's own
Authentication-Results are read instead) off; DNS points at a closed loopback port. The compiled
pattern cache lives in `cache_dir` and makes the next start quick.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mailmoat.spam.rspamd import RspamdClient

STOCK_CONFDIR = Path("/etc/rspamd")
NETWORK_MODULES = ("rbl", "fuzzy_check", "asn", "emails", "surbl", "url_reputation", "spf",
                   "dkim", "dmarc", "arc", "hfilter", "mx_check", "greylist", "ratelimit",
                   "replies", "neural", "reputation", "phishing", "dcc", "razor", "pyzor")
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "mailmoat-rspamd-cache"
START_TIMEOUT = 300.0  # the first start compiles the rule patterns: minutes on a busy host

_CONFIG = """\
.include "$CONFDIR/common.conf"
options {{
    pidfile = "$RUNDIR/rspamd.pid";
    .include "$CONFDIR/options.inc"
    hs_cache_dir = "{cache}";
    dns {{ nameserver = ["127.0.0.1:1"]; timeout = 0.2s; retransmits = 1; }}
}}
logging {{ type = "file"; filename = "$LOGDIR/rspamd.log"; level = "error"; }}
worker "normal" {{
    bind_socket = "127.0.0.1:{port}";
    .include "$CONFDIR/worker-normal.inc"
    count = 1;
}}
"""


class RspamdMissing(RuntimeError):
    """rspamd is not installed, or did not come up."""


def available() -> bool:
    return shutil.which("rspamd") is not None and STOCK_CONFDIR.is_dir()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def private_rspamd(cache_dir: Path = DEFAULT_CACHE,
                   start_timeout: float = START_TIMEOUT) -> Iterator[RspamdClient]:
    """A running rspamd for the `with` block; stopped (its process, by id) afterwards."""
    binary = shutil.which("rspamd")
    if binary is None or not STOCK_CONFDIR.is_dir():
        raise RspamdMissing("rspamd is not installed (apt-get install -y rspamd)")
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mailmoat-rspamd-") as tmp:
        conf = Path(tmp)
        port = _free_port()
        (conf / "rspamd.conf").write_text(_CONFIG.format(port=port, cache=cache_dir))
        (conf / "local.d").mkdir()
        for module in NETWORK_MODULES:
            (conf / "local.d" / f"{module}.conf").write_text("enabled = false;\n")
        variables = {"CONFDIR": STOCK_CONFDIR, "LOCAL_CONFDIR": conf, "RUNDIR": conf,
                     "DBDIR": conf, "LOGDIR": conf}
        command = [binary, "-f", "-i", "-c", str(conf / "rspamd.conf")]
        for name, value in variables.items():
            command += ["--var", f"{name}={value}"]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        client = RspamdClient(f"http://127.0.0.1:{port}")
        try:
            deadline = time.monotonic() + start_timeout
            while not client.ping():
                if process.poll() is not None:
                    log = conf / "rspamd.log"
                    tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
                    raise RspamdMissing(f"rspamd exited with {process.returncode}: {tail}")
                if time.monotonic() > deadline:
                    raise RspamdMissing(f"rspamd did not answer within {start_timeout:.0f} s")
                time.sleep(0.5)
            yield client
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
