"""The multi-machine topology as plain processes, and the chaos run over it.

Real parts only: PostgreSQL and RabbitMQ (already running), one mail-devel process per
account (IMAP with IDLE and kept keywords, SMTP), 2 `mailmoat up` web processes, 3 `mailmoat
worker` processes and `mailmoat scheduler`. While mail is fed in, a random worker is
SIGKILLed every few seconds (its whole process group: the machine died) and replaced.
The figures come from the servers and the database: mail on each IMAP server with its lane
keyword, stored messages and their decision ledger, the outbox, and the lease grant record.
Used by tests/test_jobs_chaos.py (small) and bench/bench_chaos.py (full size).
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.imap_fixtures import make_message
from tests.support.mailserver import MailServer, free_port, wait_for_port

SRC = Path(__file__).resolve().parents[2] / "src"
STUCK_AFTER = 45.0
# How long after a kill the run keeps waiting for the killed holder's accounts to be granted
# again (the claim is 60 s): a run that settles sooner still measures every resume.
RESUME_WAIT = 75.0


@dataclass(frozen=True)
class ChaosSize:
    accounts: int = 3
    mails: int = 150  # per account, loaded before the start
    sends: int = 10  # approved sends from the first account
    kills: int = 6  # at least this many worker SIGKILLs
    kill_every: float = 3.0
    feed_every: float = 0.5  # one new mail to a random account this often while killing
    workers: int = 3
    webs: int = 2
    settle_timeout: float = 150.0


@dataclass
class Figures:
    accounts: int = 0
    mails_on_servers: int = 0
    mails_stored: int = 0
    mails_unmarked: int = 0
    mails_laned_twice: int = 0  # the three below together: not exactly one stored decision
    mails_stored_twice: int = 0
    mails_undecided: int = 0
    mails_decided_twice: int = 0
    sends: int = 0
    sends_delivered_once: int = 0
    sends_duplicated: int = 0
    sends_missing: int = 0
    kills: int = 0
    kills_during_sync: int = 0
    resume_seconds: list[float] = field(default_factory=list)
    never_resumed: int = 0
    grants: int = 0
    overlapping_grants: int = 0
    wall_seconds: float = 0.0
    web_ok: int = 0

    def lines(self) -> list[str]:
        rs = self.resume_seconds
        return [
            f"accounts {self.accounts}, mails on the servers {self.mails_on_servers}, "
            f"stored {self.mails_stored}, without lane mark {self.mails_unmarked}, "
            f"not laned exactly once {self.mails_laned_twice} (stored twice "
            f"{self.mails_stored_twice}, without a decision {self.mails_undecided}, "
            f"decided twice or more {self.mails_decided_twice})",
            f"approved sends {self.sends}: delivered once {self.sends_delivered_once}, "
            f"twice or more {self.sends_duplicated}, missing {self.sends_missing}",
            f"worker SIGKILLs {self.kills}, of them during a sync {self.kills_during_sync}; "
            f"resumed after: max {max(rs, default=0):.1f} s, median "
            f"{statistics.median(rs) if rs else 0:.1f} s, never {self.never_resumed}",
            f"sync lease grants {self.grants}, overlapping {self.overlapping_grants}; "
            f"web processes answering {self.web_ok}; wall {self.wall_seconds:.0f} s",
        ]


def _bulk_load(server: MailServer, start: int, count: int, tag: str) -> None:
    client = server.imap()
    try:
        for i in range(start, start + count):
            client.append("INBOX", make_message(i, subject=f"{tag} mail {i}"))
    finally:
        client.logout()


def _server_state(server: MailServer) -> tuple[list[str], int]:
    """Message-IDs in INBOX, and how many lack a $Moat lane keyword."""
    client = server.imap()
    try:
        client.select_folder("INBOX", readonly=True)
        uids = client.search(["ALL"])
        if not uids:
            return [], 0
        data = client.fetch(uids, ["FLAGS", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
        ids, unmarked = [], 0
        for uid in uids:
            flags = [f.decode() if isinstance(f, bytes) else str(f) for f in data[uid][b"FLAGS"]]
            if sum(f.startswith("$Moat") for f in flags) != 1:
                unmarked += 1
            header = data[uid][b"BODY[HEADER.FIELDS (MESSAGE-ID)]"].decode(errors="replace")
            ids.append(header.split(":", 1)[1].strip() if ":" in header else "")
        return ids, unmarked
    finally:
        client.logout()


class Topology:
    """The processes of one deployment; every one started here is stopped here."""

    def __init__(self, env: dict[str, str], tmp: Path) -> None:
        self.env = env
        self.tmp = tmp
        self.procs: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.web_ports: list[int] = []

    def _start(self, args: list[str], name: str) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}-{len(self.procs)}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen([sys.executable, "-m", "mailmoat", *args], env=self.env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(proc)
        return proc

    def start_worker(self) -> subprocess.Popen[bytes]:
        proc = self._start(["worker", "--workers", "2", "--watch", "100", "--poll", "5",
                            "--grace", "10"], "worker")
        self.workers.append(proc)
        return proc

    def start(self, webs: int, workers: int, sync_every: float = 5.0) -> None:
        self._start(["scheduler", "--sync-every", str(sync_every), "--outbox-every", "3",
                     "--notify-every", "0", "--heal-every", "0"], "scheduler")
        for _ in range(webs):
            port = free_port()
            self._start(["up", "--port", str(port)], "web")
            self.web_ports.append(port)
        for _ in range(workers):
            self.start_worker()

    def kill_worker(self, proc: subprocess.Popen[bytes]) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        self.workers.remove(proc)

    def web_answering(self) -> int:
        ok = 0
        for port in self.web_ports:
            try:
                wait_for_port(port, timeout=60)
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=10) as r:
                    ok += r.status == 200
            except OSError:
                pass
        return ok

    def stop(self) -> list[int | None]:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        codes = []
        for proc in self.procs:
            try:
                codes.append(proc.wait(timeout=30))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                codes.append(proc.wait(timeout=10))
        return codes


def run_chaos(size: ChaosSize, pg_url: str, broker_url: str, queue: str, tmp: Path,
              say: Callable[[str], object] = print) -> Figures:
    from sqlalchemy import func, select

    from mailmoat.accounts.registry import AccountSettings, Submission, add_account
    from mailmoat.accounts.secrets import encode_key, load_key_ring, new_key
    from mailmoat.act.service import ActionService
    from mailmoat.services.bootstrap import open_store
    from mailmoat.services.leases import overlaps
    from mailmoat.store.leases import all_leases, grants
    from mailmoat.store.tables.act import OutboxRow
    from mailmoat.store.tables.messages import LedgerRow, MessageRow

    started = time.monotonic()
    fig = Figures(accounts=size.accounts, sends=size.sends)
    key = encode_key(new_key())
    os.environ["MAILMOAT_SECRET_KEY"] = key
    servers = [MailServer(keywords=True).start() for _ in range(size.accounts)]
    topo: Topology | None = None
    stop_feed = threading.Event()
    try:
        loaders = [threading.Thread(target=_bulk_load, args=(s, 0, size.mails, f"a{n}"))
                   for n, s in enumerate(servers)]
        for t in loaders:
            t.start()
        for t in loaders:
            t.join()
        store = open_store(pg_url)
        ring = load_key_ring()
        names = [f"acct{n}" for n in range(size.accounts)]
        for n, (name, server) in enumerate(zip(names, servers, strict=True)):
            submission = (Submission(host=server.host, port=server.smtp_port, tls="plain",
                                     sent_folder="INBOX", server_files_sent=True)
                          if n == 0 else None)
            add_account(store, ring, AccountSettings(
                name=name, host=server.host, port=server.imap_port, username=server.user,
                tls="plain", submission=submission), server.password)
        service = ActionService(store.engine)
        for i in range(size.sends):
            p = service.propose(names[0], {"action": "send_email", "to": "ana@client.example",
                                           "subject": f"chaos send {i}", "body": f"send {i}\n"},
                                "sam", "cli")
            service.approve(p["id"], "sam")
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("MAILMOAT_") or k == "MAILMOAT_SECRET_KEY"}
        env.update({"MAILMOAT_DATABASE_URL": pg_url, "MAILMOAT_BROKER_URL": broker_url,
                    "MAILMOAT_QUEUE_NAME": queue, "MAILMOAT_PARSE_WORKERS": "0",
                    "MAILMOAT_OUTBOX_LEASE": "15", "XDG_DATA_HOME": str(tmp / "data"),
                    "PYTHONPATH": f"{SRC}{os.pathsep}{env.get('PYTHONPATH', '')}"})
        topo = Topology(env, tmp)
        topo.start(size.webs, size.workers)
        fed = Counter[int]()

        def feed() -> None:
            rng = random.Random(7)
            while not stop_feed.wait(size.feed_every):
                n = rng.randrange(size.accounts)
                servers[n].deliver(make_message(10_000 + fed[n], subject=f"a{n} late {fed[n]}"))
                fed[n] += 1

        feeder = threading.Thread(target=feed, daemon=True)
        time.sleep(3.0)  # the workers connect and the first syncs begin
        feeder.start()
        rng = random.Random(11)
        killed: list[tuple[str, float]] = []
        while fig.kills < size.kills:
            time.sleep(size.kill_every * rng.uniform(0.5, 1.0))
            # A random worker, among those syncing right now when any is: those kills are
            # the ones that test the leases. On a quiet machine a pass over a few new mails
            # takes a fraction of a second, so look for one for up to half a period more.
            look_until = time.monotonic() + size.kill_every * 0.5
            while True:
                live = [lease for lease in all_leases(store, "sync:") if lease.token is not None]
                syncing = [p for p in topo.workers
                           if any(f":{p.pid}:" in (lease.holder or "") for lease in live)]
                if syncing or time.monotonic() >= look_until:
                    break
                time.sleep(0.02)
            victim = rng.choice(syncing or topo.workers)
            held = [lease.name.split(":", 1)[1] for lease in live
                    if f":{victim.pid}:" in (lease.holder or "")]
            when = time.time()
            topo.kill_worker(victim)
            killed.extend((account, when) for account in held)
            fig.kills += 1
            fig.kills_during_sync += bool(held)
            say(f"kill {fig.kills}: worker {victim.pid} held {held or 'no sync'}")
            topo.start_worker()
        stop_feed.set()
        feeder.join()
        say("kills done; waiting for every mail to be stored and marked, every send done")
        deadline = time.monotonic() + size.settle_timeout
        last: tuple[int, ...] = ()
        unchanged_since = time.monotonic()
        while True:
            states = [_server_state(s) for s in servers]
            on_servers = sum(len(ids) for ids, _ in states)
            unmarked = sum(u for _, u in states)
            with store.sessions() as session:
                stored = session.scalar(select(func.count(MessageRow.id))) or 0
                outbox = Counter(session.scalars(select(OutboxRow.state)))
            settled = (stored == on_servers and unmarked == 0
                       and outbox.get("done", 0) == size.sends)
            now_state = (on_servers, stored, unmarked, outbox.get("done", 0))
            if now_state != last:
                last, unchanged_since = now_state, time.monotonic()
            # Everything stored and sent, and nothing changed for STUCK_AFTER seconds (more
            # than the scheduler's sync period and a lease): what is left unmarked stays so.
            stuck = (stored == on_servers and outbox.get("done", 0) == size.sends
                     and time.monotonic() - unchanged_since > STUCK_AFTER)
            # A kill just before the mail settled: its accounts are taken up again only once
            # the dead holder's lease expires, so wait for that (bounded) before measuring.
            record = grants(store, "sync:")
            awaiting = [account for account, when in killed
                        if time.time() - when < RESUME_WAIT
                        and not any(g.name == f"sync:{account}" and g.acquired_at > when
                                    for g in record)]
            if ((settled or stuck) and not awaiting) or time.monotonic() > deadline:
                break
            time.sleep(2)
        fig.mails_on_servers, fig.mails_stored, fig.mails_unmarked = on_servers, stored, unmarked
        with store.sessions() as session:
            per_message = Counter(session.scalars(select(LedgerRow.message_id)))
            fig.mails_decided_twice = sum(1 for c in per_message.values() if c != 1)
            fig.mails_undecided = stored - len(per_message)  # stored but never laned
            # Every subject on the servers is unique: a subject stored twice is a mail
            # stored twice.
            subjects_stored = Counter(session.execute(
                select(MessageRow.account, MessageRow.subject)).all())
        fig.mails_stored_twice = sum(c - 1 for c in subjects_stored.values() if c > 1)
        fig.mails_laned_twice = (fig.mails_decided_twice + fig.mails_undecided
                                 + fig.mails_stored_twice)
        subjects: Counter[str] = Counter()
        client = servers[0].imap()
        try:
            client.select_folder("INBOX", readonly=True)
            uids = client.search(["SUBJECT", "chaos send"])
            if uids:
                for data in client.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (SUBJECT)]"]).values():
                    raw = data[b"BODY[HEADER.FIELDS (SUBJECT)]"].decode(errors="replace")
                    subjects[raw.split(":", 1)[1].strip()] += 1
        finally:
            client.logout()
        fig.sends_delivered_once = sum(1 for i in range(size.sends)
                                       if subjects[f"chaos send {i}"] == 1)
        fig.sends_duplicated = sum(1 for c in subjects.values() if c > 1)
        fig.sends_missing = sum(1 for i in range(size.sends) if subjects[f"chaos send {i}"] == 0)
        record = grants(store, "sync:")
        fig.grants = len(record)
        fig.overlapping_grants = len(overlaps(record)) + len(overlaps(grants(store, "watch:")))
        for account, when in killed:
            later = [g.acquired_at for g in record
                     if g.name == f"sync:{account}" and g.acquired_at > when]
            if later:
                fig.resume_seconds.append(min(later) - when)
            else:
                fig.never_resumed += 1
        fig.web_ok = topo.web_answering()
    finally:
        stop_feed.set()
        if topo is not None:
            topo.stop()
        for server in servers:
            server.stop()
        os.environ.pop("MAILMOAT_SECRET_KEY", None)
    fig.wall_seconds = time.monotonic() - started
    for line in fig.lines():
        say(line)
    return fig


def assert_sound(fig: Figures, size: ChaosSize) -> None:
    """Every guarantee but the lane marks (assert_marked): see tests/test_jobs_chaos.py."""
    assert fig.kills >= size.kills
    assert fig.kills_during_sync >= 1, fig.lines()  # the leases were really tested
    assert fig.mails_on_servers >= size.accounts * size.mails + size.sends
    assert fig.mails_stored == fig.mails_on_servers, fig.lines()
    assert fig.mails_laned_twice == 0, fig.lines()
    assert fig.sends_delivered_once == size.sends, fig.lines()
    assert fig.sends_duplicated == 0 and fig.sends_missing == 0, fig.lines()
    assert fig.overlapping_grants == 0, fig.lines()
    assert fig.never_resumed == 0, fig.lines()
    assert max(fig.resume_seconds, default=0.0) <= 60.0, fig.lines()
    assert fig.web_ok == size.webs, fig.lines()



def assert_marked(fig: Figures) -> None:
    assert fig.mails_unmarked == 0, fig.lines()
