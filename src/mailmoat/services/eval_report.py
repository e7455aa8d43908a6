"""One report: every eval mailmoat runs, as Markdown and JSON, with the command behind each.

`mailmoat report --out DIR` (or `make eval`) writes DIR/report.md and DIR/report.json.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mailmoat.eval.adversarial.containment import containment_in_process
from mailmoat.eval.delta import NotMatched, default_delta
from mailmoat.eval.floors import check_floors, load_floors
from mailmoat.eval.meeting import LATER_PATH, evaluate_meetings, load_set
from mailmoat.eval.meeting import to_markdown as meeting_md
from mailmoat.eval.runner import evaluate, load_items

# The set the model comparison runs on: the synthetic one, labelled for all five lanes.
COMPARE_SET = "judge-eval-set.json"
NO_MODEL = ("no model configured: set MAILMOAT_LLM_BASE_URL and MAILMOAT_LLM_MODEL (one model "
            "or a comma-separated list) to add a row per model")


def model_comparison(set_path: Path, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The local path always; every configured model beside it, on the same items."""
    from mailmoat.eval.compare import compare_models
    from mailmoat.judge.config import load_llm_config
    from mailmoat.services.bootstrap import open_store

    items = load_items(set_path)
    rows = [{"model": "local", **evaluate(set_path.name, items).as_dict(),
             "command": f"mailmoat eval {set_path}"}]
    config = load_llm_config(environ)
    if not config.configured:
        return {"set": set_path.name, "rows": rows, "note": NO_MODEL}
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'compare.db'}")
        runs = compare_models(set_path.name, items, config, store.engine, environ=environ)
        store.engine.dispose()
    rows += [{**r.as_dict(), "command": f"mailmoat eval {set_path} --scorer llm --model "
              f"{r.model}"} for r in runs]
    return {"set": set_path.name, "rows": rows, "note": ""}


def agentdojo_section() -> dict[str, Any]:
    """AgentDojo's workspace suite through the action layer, executor on a memory transport."""
    from mailmoat.eval.agentdojo_bridge import MemoryTransport, run
    from mailmoat.services.bootstrap import open_store

    try:
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(f"sqlite:///{Path(tmp) / 'agentdojo.db'}")
            result = run(store, MemoryTransport())
            store.engine.dispose()
    except ImportError as exc:
        return {"skipped": str(exc)}
    return {**result, "command": "mailmoat report (or pytest "
            "tests/integration/test_eval_agentdojo.py against the SMTP test server)"}


def judgement_section(sets_dir: Path, environ: Mapping[str, str] | None = None,
                      corpus: Path | None = None) -> dict[str, Any]:
    """Issue 22's measures: the development set by human label, and the SpamAssassin corpus
    split by folder (with the local rspamd's score as a fact when MAILMOAT_RSPAMD_URL is
    set)."""
    from mailmoat.core.lanes import Lane
    from mailmoat.core.message import Message
    from mailmoat.core.policy import Facts
    from mailmoat.eval.judgement import (
        corpus_split,
        label_metrics,
        labelled_sets,
        pool_label_metrics,
    )
    from mailmoat.judge.cascade import classify
    from mailmoat.spam.rspamd import RspamdClient, SpamEngineUnavailable

    labelled: list[dict[str, Any]] = []
    for path in labelled_sets():
        items = load_items(path)
        labelled.append({**label_metrics(items, evaluate(path.name, items)), "set": path.name,
                         "command": f"mailmoat eval {path}"})
    root = corpus if corpus is not None else sets_dir.parents[1] / "corpora" / "spamassassin"
    out: dict[str, Any] = {"dev_set": labelled[0], "labelled_sets": labelled, "pooled": {
        kind: pool_label_metrics([d for d in labelled if set_kind(d["set"]) == kind])
        for kind in SET_KINDS}}
    if not root.is_dir():
        out["corpus"] = {"skipped": f"no corpus at {root}"}
        return out

    def local(message: Message, raw: bytes) -> Lane:
        return classify(message).decision.lane

    out["corpus"] = {**corpus_split(root, local), "command": "mailmoat report"}
    engine = RspamdClient.from_env(dict(environ) if environ is not None else None)
    if engine is not None and engine.ping():
        def with_engine(message: Message, raw: bytes) -> Lane:
            try:
                score: float | None = engine.check(raw).score
            except SpamEngineUnavailable:
                score = None
            return classify(message, Facts(spam_score=score)).decision.lane

        out["corpus_with_rspamd"] = {**corpus_split(root, with_engine),
                                     "command": "MAILMOAT_RSPAMD_URL=... mailmoat report"}
    return out


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def build_report(sets_dir: Path, environ: Mapping[str, str] | None = None,
                 agentdojo: Callable[[], dict[str, Any]] | None = agentdojo_section
                 ) -> dict[str, Any]:
    floors = load_floors()
    sets = []
    from mailmoat.eval.judgement import DEV_SET

    for path in [*sorted(sets_dir.glob("*.json")), DEV_SET]:
        report = evaluate(path.name, load_items(path))
        checks = [c.as_dict() for c in check_floors(report, floors.get(path.name, {}))]
        sets.append({**report.as_dict(), "floors": checks,
                     "command": f"mailmoat eval {path}"})
    try:
        delta: dict[str, Any] = default_delta().as_dict()
    except NotMatched as exc:
        delta = {"refused": str(exc)}
    return {
        "local_path": sets,
        "delta": {**delta, "command": "mailmoat eval-delta"},
        "adversarial_in_process": {**containment_in_process(), "command": "mailmoat report"},
        "judgement": judgement_section(sets_dir, environ),
        "meeting_slots": evaluate_meetings().as_dict(),
        "meeting_slots_later": evaluate_meetings(load_set(LATER_PATH), LATER_PATH.name).as_dict(),
        "model_comparison": model_comparison(sets_dir / COMPARE_SET, environ),
        "agentdojo": agentdojo() if agentdojo is not None else {"skipped": "not run"},
    }


def to_markdown(data: dict[str, Any]) -> str:
    lines = ["# mailmoat eval report", "", "## Local path on the public sets", "",
             "| set | items | accuracy | urgent recall | hidden precision | violations | "
             "floors | command |", "|---|---|---|---|---|---|---|---|"]
    for s in data["local_path"]:
        floors_ok = all(c["ok"] for c in s["floors"]) if s["floors"] else None
        lines.append(
            f"| {s['set']} | {s['total']} | {_pct(s['accuracy'])} | {_pct(s['urgent_recall'])} "
            f"| {_pct(s['hidden_lane_precision'])} | {len(s['violations'])} | "
            f"{'—' if floors_ok is None else 'kept' if floors_ok else 'BREACHED'} | "
            f"`{s['command']}` |")
    d = data["delta"]
    lines += ["", "## Delta eval (impersonation vs known senders)", ""]
    if "refused" in d:
        lines.append(f"Refused: {d['refused']}")
    else:
        lines.append(f"{d['cooperative']} cooperative vs {d['adversarial']} adversarial, "
                     f"confidence matched (KS {d['ks']:.2f}). AUC of confidence alone "
                     f"{d['auc_confidence']:.2f}; of confidence − corroboration "
                     f"{d['auc_delta']:.2f}; adversarial auto-eligible: "
                     f"{d['adversarial_auto_eligible']}. (`{d['command']}`)")
    a = data["adversarial_in_process"]
    lines += ["", "## Adversarial corpus, in process (obedient model)", "",
              f"{a['contained']} of {a['total']} contained.", "",
              "| family | emails | contained | crashed | AUTO reply allowed |",
              "|---|---|---|---|---|"]
    for family, row in a["families"].items():
        lines.append(f"| {family} | {row.get('emails', 0)} | {row.get('contained', 0)} | "
                     f"{row.get('crashed', 0)} | {row.get('auto_reply_allowed', 0)} |")
    return "\n".join([*lines, *judgement_md(data["judgement"]),
                      *meeting_md(data["meeting_slots"]),
                      *meeting_md(data["meeting_slots_later"]),
                      *_models_md(data["model_comparison"]),
                      *agentdojo_md(data["agentdojo"])]) + "\n"


_TUNED = ("written blind (its writer never read the judge); measured once, then the judge "
          "was changed looking at its misses, so it flatters now: the first measure is in "
          "docs/results.md")
_NEVER_TUNED = ("written blind (its writer never read the judge) and never tuned on: measured "
                "once at the judge as it stands")
# How much each labelled set flatters the judge, least first: the pooled table reads them
# apart, and the never-tuned pool is the honest figure.
SET_KINDS = ("never tuned", "tuned on", "development set")


def set_kind(name: str) -> str:
    """The pool a set belongs to. A set with no note counts as tuned on: the never-tuned pool
    holds only sets registered as such, so it cannot be flattered by a forgotten note."""
    note = _SET_NOTES.get(name, _TUNED)
    return {_NEVER_TUNED: "never tuned", _TUNED: "tuned on"}.get(note, "development set")


_SET_NOTES = {
    "dev-set.json": "written for mailmoat beside the judge; it flatters it",
    **{f"blind-set{n}.json": _TUNED for n in ("", *(f"-{i}" for i in range(2, 269)))},
    **{f"blind-set-{i}.json": _NEVER_TUNED for i in range(269, 273)},
}


def _pooled_md(pooled: dict[str, dict[str, Any]]) -> list[str]:
    from mailmoat.eval.judgement import GOALS, meets

    kinds = [k for k in SET_KINDS if pooled.get(k, {}).get("items")]
    lines = ["", "### All labelled sets, pooled by how much they flatter the judge", "",
             "A set tuned on was looked at item by item and the judge changed on its misses; "
             "a never-tuned one was only measured. Mails are pooled, not shares averaged.", "",
             "| measure | " + " | ".join(
                 f"{k} ({pooled[k]['sets']} set{'s' if pooled[k]['sets'] != 1 else ''}, "
                 f"{pooled[k]['items']:,} mails)" for k in kinds) + " | goal |",
             "|---" * (len(kinds) + 2) + "|"]
    rows = (("lane accepted by the label", "lane_accepted"),
            ("urgent in PUSH or MEETING", "urgent_push_or_meeting"),
            ("PUSH precision", "push_precision"),
            ("scams and phishing in PUSH, per 1,000 mails", "suspect_in_push_per_1000"),
            ("promotions SILENT or INFO", "promotions_silent_or_info"),
            ("urgent / needs-response / personal hidden", "visible_hidden"))
    for title, key in rows:
        cells = []
        for k in kinds:
            value = pooled[k][key]
            shown = ("—" if value is None else f"{value:.1f}"
                     if key == "suspect_in_push_per_1000" else _pct(value))
            ok = meets(key, value)
            cells.append(shown if ok is None else f"{shown} {'met' if ok else 'missed'}")
        op, goal = GOALS[key]
        target = f"{goal:.1f}" if key == "suspect_in_push_per_1000" else f"{goal:.0%}"
        sign = "≥" if op == ">=" else "≤"
        lines.append(f"| {title} | " + " | ".join(cells) + f" | {sign} {target} |")
    return lines


def judgement_md(j: dict[str, Any]) -> list[str]:
    lines = ["", "## Judgement with no model (issue 22)"]
    if "pooled" in j:
        lines += _pooled_md(j["pooled"])
    for d in j.get("labelled_sets", [j["dev_set"]]):
        name = d.get("set", "dev-set.json")
        lines += ["", f"### {name} ({d['items']} items; {_SET_NOTES.get(name, '')})", "",
                  f"`{d['command']}`", "",
                  "| measure | value |", "|---|---|",
                  f"| lane accepted by the label | {_pct(d['lane_accepted'])} |",
                  f"| urgent in PUSH or MEETING | {_pct(d['urgent_push_or_meeting'])} |",
                  f"| PUSH precision | {_pct(d['push_precision'])} ({d['push_total']} in PUSH) |",
                  f"| scams and phishing in PUSH | {d['suspect_in_push']} |",
                  f"| promotions SILENT or INFO | {_pct(d['promotions_silent_or_info'])} |",
                  f"| urgent / needs-response / personal hidden | {_pct(d['visible_hidden'])} |",
                  "", "| label | items | accepted | lanes |", "|---|---|---|---|"]
        for label, row in d["by_label"].items():
            lanes = ", ".join(f"{k} {v}" for k, v in row["lanes"].items())
            lines.append(f"| {label} | {row['items']} | {row['accepted']} | {lanes} |")
    for key, title in (("corpus", "SpamAssassin corpus, local path"),
                       ("corpus_with_rspamd", "SpamAssassin corpus, rspamd score as a fact")):
        c = j.get(key)
        if c is None:
            continue
        lines += ["", f"### {title}", ""]
        if "skipped" in c:
            lines.append(f"Not run: {c['skipped']}")
            continue
        lines += [f"Spam in PUSH: {c['spam_in_push']} of {c['spam_total']}; easy-ham-1 "
                  f"SILENT: {_pct(c['easy_ham_1_silent'])}. (`{c['command']}`)", "",
                  "| folder | messages | PUSH | MEETING | QUEUE | INFO | SILENT |",
                  "|---|---|---|---|---|---|---|"]
        for name, f in c["folders"].items():
            n = f["lanes"]
            lines.append(f"| {name} | {f['total']} | " + " | ".join(
                str(n.get(lane, 0)) for lane in ("PUSH", "MEETING", "QUEUE", "INFO", "SILENT"))
                + " |")
    return lines


def _models_md(m: dict[str, Any]) -> list[str]:
    lines = ["", f"## Model comparison ({m['set']})", "",
             "| model | accuracy | urgent recall | hidden precision | violations | "
             "prompt tokens (median) | cost per 1,000 emails | command |",
             "|---|---|---|---|---|---|---|---|"]
    for r in m["rows"]:
        tokens = r.get("median_prompt_tokens")
        cost = r.get("cost_per_1000_emails_usd")
        lines.append(
            f"| {r['model']} | {_pct(r['accuracy'])} | {_pct(r['urgent_recall'])} | "
            f"{_pct(r['hidden_lane_precision'])} | {len(r['violations'])} | "
            f"{'—' if tokens is None else tokens} | "
            f"{'—' if cost is None else f'${cost:.4f}'} | `{r['command']}` |")
    if m["note"]:
        lines += ["", m["note"]]
    return lines


def agentdojo_md(a: dict[str, Any]) -> list[str]:
    lines = ["", "## AgentDojo workspace suite, replayed through the action layer", ""]
    if "skipped" in a:
        return [*lines, f"Not run: {a['skipped']}"]
    calls = a["calls"]
    published = a["published_gpt4o"]
    return [*lines,
            f"{a['suite']}: {a['user_tasks']} user tasks × {a['injection_tasks']} injection "
            f"tasks = {a['pairs']} pairs, a fully compromised agent issuing every call.", "",
            "| measure | mailmoat | GPT-4o, no defence | GPT-4o, tool filter |",
            "|---|---|---|---|",
            f"| targeted attack success, email surface ({a['email_surface_pairs']} pairs) | "
            f"{_pct(a['targeted_attack_success_email'])} ({a['attack_successes_email']}) | "
            f"{_pct(published['no defence'])} | {_pct(published['tool filter'])} |",
            f"| the same replay with no defence | {_pct(a['attack_success_no_defence'])} "
            "| | |",
            f"| floor user tasks completed after a human approval | "
            f"{a['floor_user_tasks_completed']} of {a['floor_user_tasks']} "
            f"({_pct(a['utility_after_approval'])}) | | |", "",
            f"Floor actions run without a human receipt: {a['floor_runs_without_human_receipt']}."
            f" Calls: {calls['proposed']} proposed, {calls['held']} floor proposals held for a "
            f"person, {calls['refused']} refused at proposal, {calls['delivered']} delivered "
            f"(the user tasks' own, approved), {calls['reversible']} reversible trash moves, "
            f"{calls['outside']} drive/calendar calls mailmoat does not mediate. Injection tasks "
            f"acting only outside mail ({', '.join(a['outside_surface_injection_tasks'])}) "
            f"succeed in {a['attack_successes_outside']} of {a['pairs_outside']} pairs. "
            f"(`{a['command']}`)"]


def write_report(sets_dir: Path, out: Path, **options: Any) -> tuple[Path, Path]:
    """`options` go to build_report (environ, agentdojo)."""
    data = build_report(sets_dir, **options)
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "report.md", out / "report.json"
    md.write_text(to_markdown(data), encoding="utf-8")
    js.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return md, js
