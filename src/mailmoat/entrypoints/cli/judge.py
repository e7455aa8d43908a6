"""The judge's CLI commands (`status`, `heal`) and the LLM branch of `eval`."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from mailmoat.entrypoints.cli import common
from mailmoat.judge.config import ConfigError, LLMConfig

if TYPE_CHECKING:

    from mailmoat.eval.runner import EvalItem
    from mailmoat.store.messages import Store

console = common.console


def _config() -> LLMConfig:
    return common.llm_config()


def _store() -> Store:
    return common.open_store()


def _money(value: float | None) -> str:
    return "no cap" if value is None else f"${value:.4f}"


def status(
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
    check: bool = typer.Option(True, "--check/--no-check", help="probe each provider"),
) -> None:
    """Show the configured LLM providers, their health, cooldowns, budget and metering."""
    from mailmoat.judge.status import judge_status

    config = _config()
    store = _store()
    data = judge_status(config, store.engine, check=check)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    if not data["configured"]:
        console.print("LLM judge: [yellow]not configured[/yellow] — the local scorer decides "
                      "(set MAILMOAT_LLM_BASE_URL and MAILMOAT_LLM_MODEL, see docs/judge.md)")
    for p in data["providers"]:
        backoff = f", backed off until {p['backoff']}" if p["backoff"] else ""
        console.print(f"[bold]{p['name']}[/bold] {p['base_url']}  key: {p['api_key']}  "
                      f"health: {p['health']}{backoff}")
        for m in p["models"]:
            cooldown = m["cooldown"]
            rate = ("free (local)" if p["local"]
                    else "${:.3g}/${:.3g} per Mtok".format(*m["rate_per_mtok"]))
            if m["rate_is_default"]:
                rate += " (no rate row: conservative default)"
            held = f"{cooldown['reason']} until {cooldown['until']}" if cooldown else "ready"
            console.print(f"  {m['model']}: {held}; {rate}")
    if data["escalation"]:
        esc = data["escalation"]
        console.print(f"escalation (low-confidence tail only): {esc['provider']}/{esc['model']}")
    b, u = data["budget"], data["usage_today"]
    console.print(f"budget {b['day']}: global {_money(b['spent_global_usd'])} of "
                  f"{_money(b['global_daily_usd'])}, user {b['user']} "
                  f"{_money(b['spent_user_usd'])} of {_money(b['user_daily_usd'])}")
    for row in b["per_user"]:  # one per mail account that used the model today
        held = "  [yellow]cap reached: local scorer[/yellow]" if row["cap_reached"] else ""
        console.print(f"  user {row['user']}: {row['calls']} answers, "
                      f"{_money(row['spent_usd'])} of {_money(b['user_daily_usd'])}, "
                      f"{row['calls_blocked']} held back{held}")
    if b["cap_reached"]:
        console.print("[yellow]budget cap reached: the judge has degraded to the local scorer "
                      "(classification continues)[/yellow]")
    ratio = u["metering_ratio"]
    console.print(f"today: {u['calls']} answers, {u['prompt_tokens']} prompt + "
                  f"{u['completion_tokens']} completion tokens, metered {_money(u['cost_usd'])}, "
                  f"metering ratio {'n/a' if ratio is None else f'{ratio:.3f}'}, "
                  f"{b['calls_blocked_today']} calls held back by the budget")
    console.print(f"degraded decisions (local scorer stood in): {data['degraded_decisions']}")


def heal(
    batch: int = typer.Option(50, help="messages per batch"),
    max_batches: int = typer.Option(20, help="batches per run"),
) -> None:
    """Re-judge degraded decisions no person has touched, through the model path."""
    from mailmoat.judge.heal import heal as run_heal
    from mailmoat.services.bootstrap import model_scorers, scorers_for

    store = _store()
    try:
        scorers = model_scorers(scorers_for(store.engine))
    except ConfigError as exc:
        console.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc
    if not scorers:
        console.print("no LLM configured: nothing to heal with")
        raise typer.Exit(1)
    report = run_heal(store, scorers, batch=batch, max_batches=max_batches)
    console.print(f"re-judged {report.rejudged} ({len(report.lanes_changed)} changed lane), "
                  f"left {report.skipped_human} a person decided, "
                  f"{'provider still down' if report.still_degraded else 'done'}")


def llm_eval(path: Path, items: list[EvalItem], models: list[str], as_json: bool) -> None:
    """`mailmoat eval SET --scorer llm [--model M ...]`: one row per model."""
    from mailmoat.eval.compare import compare_models

    config = _config()
    if not config.configured and not models:
        console.print("[red]error:[/red] no LLM configured (see docs/judge.md)")
        raise typer.Exit(2)
    store = _store()
    try:
        runs = compare_models(path.name, items, config, store.engine, models)
    except ConfigError as exc:
        console.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc
    # Like the local run: any safety violation fails the command, whichever model made it.
    violated = any(r.report.violations for r in runs)
    if as_json:
        typer.echo(json.dumps([r.as_dict() for r in runs], indent=2, ensure_ascii=False))
        if violated:
            raise typer.Exit(1)
        return
    table = Table("model", "acc", "urgent", "hidden", "viol", "prompt tok", "out tok",
                  "$/1k mail", "degraded")

    def pct(v: float | None) -> str:
        return "—" if v is None else f"{v:.1%}"

    for r in runs:
        rep = r.report
        table.add_row(r.model, pct(rep.accuracy), pct(rep.urgent_recall),
                      pct(rep.hidden_precision), str(len(rep.violations)),
                      str(r.median_prompt_tokens), str(r.median_completion_tokens),
                      f"{r.cost_per_1000:.4f}", f"{r.degraded}/{rep.total}")
    console.print(f"[bold]{path.name}[/bold]: {len(items)} items. urgent = urgent recall, "
                  "hidden = hidden-lane precision, viol = safety violations, tokens are "
                  "medians per email, degraded = emails the model did not answer")
    console.print(table)
    if violated:
        for r in runs:
            for v in r.report.violations:
                console.print(f"  [red]{r.model} {v['id']}[/red]: expected {v['expected']}, "
                              f"got {v['predicted']}")
        raise typer.Exit(1)



HEAL_EVERY_S = 300.0


def start_heal_thread(store: Store, every_s: float = HEAL_EVERY_S) -> threading.Event | None:
    """While `up` serves, re-judge degraded decisions every few minutes (when a model is
    configured). A daemon thread: it dies with the server and holds no state of its own;
    setting the returned event stops it."""
    from mailmoat.judge.heal import heal as run_heal
    from mailmoat.services.bootstrap import model_scorers

    models = model_scorers(store.scorers)
    if not models:
        return None
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(every_s):
            try:
                run_heal(store, models)
            except Exception:  # a failed sweep must not take the server down
                logging.getLogger(__name__).exception("heal sweep failed")

    thread = threading.Thread(target=loop, name="mailmoat-heal", daemon=True)
    thread.start()
    return stop
