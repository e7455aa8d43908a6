"""How long mcp-probe takes on the npm reference servers over stdio: `init` (connect, list,
write) and a probe run (initialize, list, validate, the sidecar calls), per round and median.

    .venv/bin/python bench/bench_probe.py --rounds 3

Needs `npm ci --prefix tools/mcp-servers`. server-everything's 10-second demo operation is
trimmed to one second in the sidecar (as the tests do), so the figure is the probe's own cost
plus that one second.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp_probe.cli import main as probe

REPO = Path(__file__).resolve().parents[1]
SERVERS = REPO / "tools" / "mcp-servers" / "node_modules" / "@modelcontextprotocol"
TARGETS = {
    "server-everything": f"node {SERVERS / 'server-everything' / 'dist' / 'index.js'} stdio",
    "server-memory": f"node {SERVERS / 'server-memory' / 'dist' / 'index.js'}",
}


def run(argv: list[str]) -> tuple[int, float]:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        code = probe(argv)
    return code, time.perf_counter() - start


def one_round(name: str, target: str, work: Path) -> tuple[float, float, dict]:
    config = work / "mcp-probe.config.json"
    argv = ["init", "--config", str(config), "--target", target, "--lock-tools", "--force"]
    if name == "server-memory":
        argv += ["--env", f"MEMORY_FILE_PATH={work / 'memory.jsonl'}"]
    code, init_s = run(argv)
    if code != 0:
        raise SystemExit(f"init failed on {name} (exit {code})")
    sidecar = work / ".mcp-probe.json"
    doc = json.loads(sidecar.read_text())
    if "trigger-long-running-operation" in doc["tools"]:
        doc["tools"]["trigger-long-running-operation"]["arguments"] = {"duration": 1, "steps": 1}
        sidecar.write_text(json.dumps(doc))
    receipt = work / "receipt.json"
    code, probe_s = run(["--config", str(config), "--receipt-file", str(receipt)])
    if code != 0:
        raise SystemExit(f"the probe failed on {name} (exit {code})")
    return init_s, probe_s, json.loads(receipt.read_text())["servers"][0]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    if not SERVERS.exists():
        sys.exit("run `npm ci --prefix tools/mcp-servers` first")
    for name, target in TARGETS.items():
        inits, probes, handshakes = [], [], []
        for _ in range(a.rounds):
            with tempfile.TemporaryDirectory() as tmp:
                init_s, probe_s, server = one_round(name, target, Path(tmp))
            inits.append(init_s)
            probes.append(probe_s)
            handshakes.append(server["steps"][0]["durationMs"])
        calls = [c for c in server["calls"] if c["status"] == "pass"]
        print(f"{name}: {server['catalog']['toolCount']} tools, {len(calls)} calls per run; "
              f"init median {statistics.median(inits):.2f} s "
              f"({', '.join(f'{x:.2f}' for x in inits)}); probe median "
              f"{statistics.median(probes):.2f} s ({', '.join(f'{x:.2f}' for x in probes)}); "
              f"initialize median {statistics.median(handshakes):.0f} ms")


if __name__ == "__main__":
    main()
