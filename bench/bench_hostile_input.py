"""Hostile input sizes (issue 17, items 7 and 8): figures, not a test.

    PYTHONPATH=src python bench/bench_hostile_input.py [--mails 10] [--mail-mb 50]

1. A 1 MB and a 3 MB Content-Type parameter list: parse time (was 13-32 s and 175 s).
2. `mailmoat import` of N mails of M MB each (one attachment each): wall time and the peak
   RSS of the import process (goal: <= 300 MB whatever the mails).
3. `mailmoat classify` of one 30 MB mail: wall time and peak RSS (goals: <= 2 s, <= 150 MB).
   The process's own baseline (an import of one small mail, a classify of a small mail) is
   printed next to it, so the share the big mail adds is visible.

Each measured command runs in its own process; peak RSS is that child's ru_maxrss.
"""

from __future__ import annotations

import argparse
import base64
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mailmoat.core.message import parse_message

ROOT = Path(__file__).resolve().parents[1]


def param_bomb(size: int) -> bytes:
    params = "".join(f"; p{i}=v" for i in range(size // 6 + 1))[:size]
    return (f"From: a@b.example\r\nSubject: params\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: multipart/mixed; boundary=zz{params}\r\n\r\n"
            f"--zz\r\nContent-Type: text/plain; charset=utf-8{params}\r\n\r\nhello\r\n"
            f"--zz--\r\n").encode()


def big_mail(total_mb: float, n: int) -> bytes:
    blob = base64.encodebytes(os.urandom(int(total_mb * 1024 * 1024 * 3 / 4)))
    return (f"From: Sender {n} <s{n}@corp.example>\r\nTo: me@example.org\r\n"
            f"Subject: big file {n}\r\nDate: Thu, 3 Dec 2026 09:00:00 +0000\r\n"
            f"Message-ID: <big{n}@corp.example>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: multipart/mixed; boundary=BB\r\n\r\n--BB\r\n"
            f"Content-Type: text/plain\r\n\r\nThe file you asked for, part {n}.\r\n--BB\r\n"
            f"Content-Type: application/octet-stream\r\n"
            f"Content-Disposition: attachment; filename=file{n}.bin\r\n"
            f"Content-Transfer-Encoding: base64\r\n\r\n").encode() + blob + b"--BB--\r\n"


def run(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) and output of `python -m mailmoat ARGS`, alone."""
    # VmHWM, not ru_maxrss: Linux carries a parent's ru_maxrss across fork and exec.
    code = ("import sys\nfrom mailmoat.entrypoints.cli.main import app\n"
            "try:\n    app(sys.argv[1:], standalone_mode=False)\nfinally:\n"
            "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
            "    print('PEAK_KB', hwm[0].split()[1], file=sys.stderr)\n")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - t0
    peak = [line for line in done.stderr.splitlines() if line.startswith("PEAK_KB")]
    if done.returncode != 0 or not peak:
        raise SystemExit(f"{args} failed:\n{done.stdout}\n{done.stderr[-2000:]}")
    return wall, int(peak[-1].split()[1]) / 1024, done.stdout


INLINE = """
import sys, time
from pathlib import Path
from mailmoat.core.message import parse_message
from mailmoat.judge.cascade import classify
def status(key):
    return int([l for l in open('/proc/self/status') if l.startswith(key)][0].split()[1]) / 1024
classify(parse_message(b"From: a@b.example\\r\\nSubject: warm\\r\\n\\r\\nhi\\r\\n"))
before = status('VmRSS')
t0 = time.perf_counter()
trace = classify(parse_message(Path(sys.argv[1]).read_bytes()))
took = time.perf_counter() - t0
print(f"{took:.2f} s, +{status('VmHWM') - before:.0f} MB over the loaded process "
      f"({before:.0f} MB), lane {trace.as_dict()['lane']}")
"""


def run_inline(path: Path, env: dict[str, str]) -> tuple[float, float, str]:
    done = subprocess.run([sys.executable, "-c", INLINE, str(path)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return 0.0, 0.0, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mails", type=int, default=10)
    parser.add_argument("--mail-mb", type=float, default=50)
    parser.add_argument("--classify-mb", type=float, default=30)
    opts = parser.parse_args()

    for size in (1_000_000, 3_000_000):
        raw = param_bomb(size)
        t0 = time.perf_counter()
        message = parse_message(raw)
        took = time.perf_counter() - t0
        print(f"parse, {size // 1_000_000} MB Content-Type parameter list: {took:.3f} s "
              f"(body {message.body_text!r}, {len(message.truncations)} truncation notes)")

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"),
               "MAILMOAT_CONFIG": str(base / "none.toml")}
        (base / "none.toml").write_text("")
        small = base / "small"
        small.mkdir()
        (small / "one.eml").write_bytes(b"From: a@b.example\r\nSubject: hi\r\n\r\nhello\r\n")
        folder = base / "big"
        folder.mkdir()
        for n in range(opts.mails):
            (folder / f"{n}.eml").write_bytes(big_mail(opts.mail_mb, n))
        env_small = {**env, "MAILMOAT_DATABASE_URL": f"sqlite:///{base / 'small.db'}"}
        wall0, peak0, _ = run(["import", str(small)], env_small)
        env_big = {**env, "MAILMOAT_DATABASE_URL": f"sqlite:///{base / 'big.db'}"}
        wall, peak, out = run(["import", str(folder)], env_big)
        total = sum(p.stat().st_size for p in folder.iterdir()) / 1024 / 1024
        print(f"import, {opts.mails} mails x {opts.mail_mb:.0f} MB ({total:.0f} MB): "
              f"{wall:.1f} s, peak RSS {peak:.0f} MB (goal <= 300; one small mail: "
              f"{peak0:.0f} MB, {wall0:.1f} s)")
        print("  " + " ".join(out.split()[-12:]))

        one = base / "classify.eml"
        one.write_bytes(big_mail(opts.classify_mb, 99))
        wall0, peak0, _ = run(["classify", str(small / "one.eml")], env_small)
        wall, peak, out = run(["classify", str(one)], env_small)
        print(f"classify, one {opts.classify_mb:.0f} MB mail: {wall:.2f} s, peak RSS "
              f"{peak:.0f} MB (goals <= 2 s, <= 150 MB; a small mail: {wall0:.2f} s, "
              f"{peak0:.0f} MB)")
        print("  " + out.splitlines()[0] if out else "")
        wall, peak, out = run_inline(one, env_small)
        print(f"classify, one {opts.classify_mb:.0f} MB mail, the work alone (file read, parse,"
              f" classify, in a process with mailmoat loaded): {out}")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
