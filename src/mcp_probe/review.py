"""Which tools a probe must not call until a person says so (pure).

A dry run in CI should only touch tools that read. A tool is marked for review, and written
disabled into the sidecar, when any of these says it may do more:
- its name has a word that mutates (create, delete, send, update, toggle...), administers
  (admin, permission, role, shutdown...), exports (export, dump, backup, download...) or
  inspects the environment (env, secret, credential, config, process...);
- its description speaks of environment variables, credentials or secrets, or of exporting;
- its annotations say it is destructive, not read-only (an explicit `readOnlyHint: false`), or
  that it reaches an open world outside the server (`openWorldHint: true`).
The reasons are kept so the person deciding sees why. A read-only hint never clears a name
that says otherwise: hints are the server's self-report.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

MUTATING = frozenset({
    "create", "add", "insert", "update", "upsert", "set", "put", "patch", "edit", "modify",
    "write", "save", "store", "delete", "del", "remove", "rm", "drop", "destroy", "purge",
    "erase", "clear", "reset", "wipe", "truncate", "send", "post", "publish", "submit", "forward",
    "reply", "move", "mv", "rename", "copy", "cp", "archive", "trash", "label", "tag", "untag",
    "mark", "flag", "upload", "execute", "exec", "run", "invoke", "call", "kill", "stop", "start",
    "restart", "deploy", "install", "uninstall", "toggle", "enable", "disable", "approve",
    "reject", "accept", "decline", "assign", "unassign", "merge", "push", "commit", "transfer",
    "pay", "charge", "refund", "book", "schedule", "cancel", "snooze", "subscribe", "unsubscribe",
    "invite", "share", "unshare", "lock", "unlock", "append", "replace", "import", "sync",
    "apply",
})
ADMIN = frozenset({
    "admin", "administer", "sudo", "superuser", "root", "permission", "permissions", "role",
    "roles", "grant", "revoke", "acl", "shutdown", "reboot", "migrate", "migration", "provision",
    "impersonate", "billing", "quota",
})
EXPORT = frozenset({
    "export", "exports", "dump", "backup", "download", "exfiltrate", "bulk", "gzip", "zip", "tar",
    "compress", "snapshot",
})
ENVIRONMENT = frozenset({
    "env", "envs", "environ", "environment", "getenv", "printenv", "secret", "secrets",
    "credential", "credentials", "token", "tokens", "password", "passwords", "passwd", "key",
    "keys", "apikey", "config", "configuration", "settings", "process", "processes", "proc",
    "system", "sysinfo", "whoami", "hostname", "shell", "filesystem",
})
_DESCRIPTION_RES = (
    ("environment-inspection", re.compile(
        r"\b(environment variables?|env vars?|credentials?|secrets?|api keys?|passwords?)\b",
        re.IGNORECASE)),
    ("export", re.compile(r"\b(export(s|ing)?|dumps?|backs? up|exfiltrat\w*)\b", re.IGNORECASE)),
)


def words(name: str) -> list[str]:
    """The words of a tool name: `createEntities` / `create_entities` / `get-env` alike."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def review_reasons(name: str, description: str | None, annotations: Mapping[str, Any] | None
                   ) -> list[str]:
    """Why this tool needs a person before a probe may call it; empty when it only reads."""
    reasons: list[str] = []
    ws = words(name)
    for category, vocabulary in (
        ("mutating", MUTATING),
        ("admin", ADMIN),
        ("export", EXPORT),
        ("environment-inspection", ENVIRONMENT),
    ):
        hits = [w for w in ws if w in vocabulary]
        if hits:
            reasons.append(f"{category}: name has {hits[0]!r}")
    text = description or ""
    for category, rx in _DESCRIPTION_RES:
        m = rx.search(text)
        if m and not any(r.startswith(category) for r in reasons):
            reasons.append(f"{category}: description mentions {m.group(0)!r}")
    ann = annotations or {}
    if ann.get("destructiveHint") is True and ann.get("readOnlyHint") is not True:
        reasons.append("mutating: annotated destructiveHint")
    if ann.get("readOnlyHint") is False:
        reasons.append("mutating: annotated readOnlyHint false")
    if ann.get("openWorldHint") is True:
        reasons.append("open-world: annotated openWorldHint (reaches outside the server)")
    return reasons
