"""The `mailmoat` command. Thin: parse arguments, call into the layers, print."""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from mailmoat.core.message import parse_message
from mailmoat.core.policy import describe_policy
from mailmoat.entrypoints.cli import actions as actions_cli
from mailmoat.entrypoints.cli import agent as agent_cli
from mailmoat.entrypoints.cli import backup as backup_cli
from mailmoat.entrypoints.cli import calendar as calendar_cli
from mailmoat.entrypoints.cli import common
from mailmoat.entrypoints.cli import judge as judge_commands
from mailmoat.entrypoints.cli import learn as learn_cli
from mailmoat.entrypoints.cli import mail as cli_mail
from mailmoat.entrypoints.cli import mcp as mcp_cli
from mailmoat.entrypoints.cli import messages as messages_cli
from mailmoat.entrypoints.cli import notify as notify_cli
from mailmoat.entrypoints.cli import scheduler as scheduler_cli
from mailmoat.entrypoints.cli import users as users_cli

app = typer.Typer(help="mailmoat: an attention firewall for email.", no_args_is_help=True)


def _print_version(wanted: bool) -> None:
    if wanted:
        from mailmoat import __version__

        typer.echo(f"mailmoat {__version__} (Python {sys.version.split()[0]})")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="print the version and exit"),
) -> None:
    """mailmoat: an attention firewall for email."""


cli_mail.register(app)  # account, sync, worker
calendar_cli.register(app)  # calendar, meeting
scheduler_cli.register(app)  # scheduler
console = common.console
app.add_typer(learn_cli.app, name="rules")
app.command("correct")(learn_cli.correct)
# The public eval sets sit in ../shared beside a source checkout
# (this file is <checkout>/src/mailmoat/entrypoints/cli/main.py).
DEFAULT_EVAL_SETS = Path(__file__).resolve().parents[5] / "shared" / "eval" / "klorn"
app.command()(judge_commands.status)
app.command("list")(messages_cli.list_command)
app.command("show")(messages_cli.show_command)
app.command()(judge_commands.heal)


@app.command()
def policy() -> None:
    """Print the policy exactly as it runs: version, branch order, thresholds."""
    snapshot = describe_policy()
    console.print(f"[bold]policy[/bold] {snapshot['version']}")
    console.print("branch order: " + " -> ".join(snapshot["branch_order"]))
    table = Table("threshold", "value")
    for name, value in snapshot["thresholds"].items():
        table.add_row(name, str(value))
    console.print(table)


@app.command()
def classify(
    path: str = typer.Argument(..., help="an .eml file, or - for standard input"),
    account: str | None = typer.Option(
        None, "--account", help="judge as this account would on arrival: its pins, rules and "
        "sender facts (without it the file is judged alone)"),
    as_json: bool = typer.Option(False, "--json", help="print the decision trace as JSON"),
) -> None:
    """Classify one message and print its lane and decision trace."""
    from mailmoat.judge.cascade import classify as classify_message

    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        file = Path(path)
        if file.is_dir():
            console.print(f"[red]error:[/red] {escape(path)} is a directory: classify reads one "
                          f"message (an .eml file, or - for standard input). To judge a folder "
                          f"of mail, import it: mailmoat import {escape(path)}", soft_wrap=True)
            raise typer.Exit(2)
        if not file.is_file():
            console.print(f"[red]error:[/red] no such file: {escape(path)}")
            raise typer.Exit(2)
        raw = file.read_bytes()
    if account is None:
        d = classify_message(parse_message(raw), _engine_facts(raw),
                             scorers=common.cli_scorers()).as_dict()
    else:
        from mailmoat.services.ingest import judge_one

        d = judge_one(common.open_store(with_scorers=True), raw, account)
    if as_json:
        typer.echo(json.dumps(d, ensure_ascii=False, indent=2))
        return
    console.print(f"[bold]{d['lane']}[/bold]  {d['reason']}  (source: {d['source']})")
    console.print("features: " + ", ".join(f"{k}={v:.2f}" for k, v in d["features"].items()))
    on = [k for k, v in d["signals"].items() if v]
    console.print("signals: " + (", ".join(on) or "none"))
    console.print(f"auto_eligible: {d['auto_eligible']}   policy: {d['policy_version']}")
    if account is None:
        console.print("judged alone: no account's pins, rules or sender facts applied "
                      "(--account NAME applies them)")
    else:
        console.print(f"judged as account {account}: its pins, rules and sender facts applied")


def _engine_facts(raw: bytes) -> Any:
    """The local spam engine's score as a fact when MAILMOAT_RSPAMD_URL is set; without
    it (or with it down) the message is decided all the same."""
    from mailmoat.core.policy import Facts
    from mailmoat.spam.rspamd import RspamdClient, SpamEngineUnavailable

    engine = RspamdClient.from_env()
    if engine is None:
        return Facts()
    try:
        return Facts(spam_score=engine.check(raw).score)
    except SpamEngineUnavailable as exc:
        common.err.print(f"[yellow]spam engine skipped:[/yellow] {exc}")
        return Facts()


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


@app.command("eval")
def eval_command(
    path: Path = typer.Argument(..., help="an eval set in the Klorn JSON format"),
    as_json: bool = typer.Option(False, "--json", help="print JSON with per-item predictions"),
    min_accuracy: float | None = typer.Option(
        None, "--min-accuracy", help="exit non-zero below this accuracy (0-1)"
    ),
    context: bool = typer.Option(
        True, "--context/--no-context", help="use recorded sender history as facts"
    ),
    floors: bool = typer.Option(
        True, "--floors/--no-floors", help="check the committed ratchet floors for this set"
    ),
    baseline: Path | None = typer.Option(
        None, "--baseline", help="compare with a stored run: verdict flips, floor margins"
    ),
    save_baseline: Path | None = typer.Option(
        None, "--save-baseline", help="store this run as a baseline"
    ),
    ratchet: bool = typer.Option(
        False, "--ratchet", help="raise this set's committed floors to what this run achieves"
    ),
    scorer: str = typer.Option("local", "--scorer", help="local, or llm to compare models"),
    model: list[str] = typer.Option([], "--model", help="with --scorer llm: models to compare"),
) -> None:
    """Run an eval set through the cascade; exit non-zero on a missed floor or a violation."""
    from mailmoat.eval.runner import EvalSetError, evaluate, load_items

    try:
        items = load_items(path, use_context=context)
    except EvalSetError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    if scorer == "llm":
        return judge_commands.llm_eval(path, items, model, as_json)
    report = evaluate(path.name, items)
    labelled = any(i.category for i in items)
    if as_json:
        out = report.as_dict(with_items=True)
        if labelled:
            from mailmoat.eval.judgement import label_metrics

            out["labels"] = label_metrics(items, report)
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        console.print(f"[bold]{report.name}[/bold]: {report.total} items, "
                      f"accuracy {_pct(report.accuracy)}")
        table = Table("lane", "precision", "recall", "support")
        for lane, stats in report.lanes.items():
            table.add_row(lane, _pct(stats.precision), _pct(stats.recall), str(stats.support))
        console.print(table)
        console.print(f"urgent recall (expected PUSH in PUSH): {report.urgent_hits}/"
                      f"{report.urgent_total} = {_pct(report.urgent_recall)}")
        console.print(f"hidden-lane precision (SILENT predicted and expected): "
                      f"{report.hidden_correct}/{report.hidden_predicted} = "
                      f"{_pct(report.hidden_precision)}")
        console.print(f"safety-invariant violations: {len(report.violations)}")
        for v in report.violations:
            console.print(f"  [red]{v['id']}[/red]: expected {v['expected']}, "
                          f"got {v['predicted']}")
        flagged = [r for r in report.items if r.phishing]
        console.print(f"phishing/scam flag: {len(flagged)} items")
        for r in flagged[:20]:
            console.print(f"  {r.id} -> {r.predicted.value}: {'; '.join(r.phishing)}")
        if labelled:
            _print_labels(items, report)
    breached = _floors_and_baseline(report, floors, baseline, save_baseline, ratchet, as_json)
    failed = breached or bool(report.violations)
    if min_accuracy is not None and report.accuracy < min_accuracy:
        common.err.print(
            f"[red]accuracy {report.accuracy:.3f} is below --min-accuracy {min_accuracy}[/red]"
        )
        failed = True
    if failed:
        raise typer.Exit(1)


@app.command("eval-delta")
def eval_delta_command(
    as_json: bool = typer.Option(False, "--json", help="print the report as JSON"),
) -> None:
    """Delta eval: can sender history tell impersonators from the people they imitate?"""
    from mailmoat.eval.delta import NotMatched, default_delta

    try:
        report = default_delta()
    except NotMatched as exc:
        console.print(f"[red]refused:[/red] {exc}")
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(report.as_dict(), indent=2))
        return
    console.print(f"{report.cooperative} cooperative, {report.adversarial} adversarial; "
                  f"confidence matched (KS {report.ks:.2f}, mean gap {report.mean_gap:.2f})")
    console.print(f"AUC of confidence alone: {report.auc_confidence:.2f}; "
                  f"AUC of confidence − corroboration: {report.auc_delta:.2f}")
    console.print(f"adversarial items auto-eligible: {report.adversarial_auto_eligible}")


def _print_labels(items: Any, report: Any) -> None:
    from mailmoat.eval.judgement import label_metrics

    m = label_metrics(items, report)
    console.print(f"by human label: lane accepted {_pct(m['lane_accepted'])}; urgent in "
                  f"PUSH/MEETING {_pct(m['urgent_push_or_meeting'])}; PUSH precision "
                  f"{_pct(m['push_precision'])} of {m['push_total']}; scams/phishing in PUSH "
                  f"{m['suspect_in_push']}; promotions SILENT/INFO "
                  f"{_pct(m['promotions_silent_or_info'])}; visible mail hidden "
                  f"{_pct(m['visible_hidden'])}")
    table = Table("label", "items", "accepted", "lanes")
    for label, row in m["by_label"].items():
        table.add_row(label, str(row["items"]), str(row["accepted"]),
                      ", ".join(f"{k} {v}" for k, v in row["lanes"].items()))
    console.print(table)


@app.command("report")
def report_command(
    sets: Path = typer.Option(
        DEFAULT_EVAL_SETS, "--sets", help="folder of eval sets in the Klorn JSON format"
    ),
    out: Path = typer.Option(Path("artifacts/eval"), "--out", help="where to write the report"),
) -> None:
    """Write every eval (public sets, floors, delta, adversarial) to report.md and .json."""
    from mailmoat.services.eval_report import write_report

    if not sets.is_dir():
        console.print(f"[red]error:[/red] no eval sets folder at {sets}")
        raise typer.Exit(2)
    md, js = write_report(sets, out)
    console.print(f"wrote {md} and {js}")
    console.print(md.read_text(encoding="utf-8"))


def _floors_and_baseline(report: Any, floors: bool, baseline: Path | None,
                         save_baseline: Path | None, ratchet: bool, quiet: bool) -> bool:
    """Floors, baseline comparison and ratchet for one eval run; True when a floor is breached.

    A safety violation fails the run whatever the floors say; the violations floor only keeps
    a known one from becoming two.
    """
    from mailmoat.eval import baseline as baselines
    from mailmoat.eval.baseline import BaselineError, compare, load_baseline
    from mailmoat.eval.floors import FLOORS_FILE, check_floors, load_floors, ratcheted

    err = common.err
    committed = load_floors() if floors or ratchet else {}
    bounds = committed.get(report.name)
    failed = False
    if floors and bounds is not None:
        for check in check_floors(report, bounds):
            if not check.ok:
                failed = True
            if not quiet:
                mark = "ok" if check.ok else "[red]BREACHED[/red]"
                value = "—" if check.value is None else f"{check.value:.3f}"
                console.print(f"floor {check.metric}: {value} vs {check.bound} {mark}")
    if baseline is not None:
        try:
            comparison = compare(load_baseline(baseline), report, bounds)
        except BaselineError as exc:
            err.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from exc
        if quiet:
            err.print(json.dumps(comparison.as_dict(), ensure_ascii=False))
        else:
            console.print(f"verdict flips vs baseline: {len(comparison.flips)}")
            for flip in comparison.flips:
                tag = "fixed" if flip["fixed"] else "broken" if flip["broken"] else "moved"
                console.print(f"  {flip['id']}: {flip['was']} -> {flip['now']} "
                              f"(expected {flip['expected']}, {tag})")
            for m in comparison.floor_margins:
                console.print(f"  margin {m['metric']}: {m['baseline_margin']} -> {m['margin']}")
    if save_baseline is not None:
        baselines.save_baseline(report, save_baseline)
    if ratchet:
        committed[report.name] = ratcheted(committed, report)
        FLOORS_FILE.write_text(json.dumps(committed, indent=2) + "\n", encoding="utf-8")
        console.print(f"floors for {report.name} now {committed[report.name]}")
    return failed


@app.command("import")
def import_command(
    path: Path = typer.Argument(..., help=".eml file, directory, Maildir or mbox"),
) -> None:
    """Import mail from disk; importing the same messages twice adds nothing."""
    from mailmoat.mail.importer import ImportPathError, count_messages
    from mailmoat.services.imports import import_path

    store = common.open_store(with_scorers=True)
    try:
        with common.progress("importing", count_messages(path)) as meter:
            summary = import_path(store, path, on_progress=lambda n: meter.update(advance=n))
    except ImportPathError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    console.print(f"imported {summary.imported}, already present {summary.already_present}, "
                  f"skipped {len(summary.skipped)}, failed {len(summary.failed)}")
    _print_skipped(summary)
    for failure in summary.failed[:20]:
        console.print(f"  [yellow]{escape(failure.where)}[/yellow]: {escape(failure.error)}")
    if len(summary.failed) > 20:
        console.print(f"  … and {len(summary.failed) - 20} more failed")
    if summary.imported == summary.already_present == 0 and not summary.failed:
        console.print(f"nothing imported: {escape(str(path))} holds no mail mailmoat can read. "
                      "It reads .eml files (one message each), Maildir folders (with cur/, "
                      "new/ and tmp/), mbox files, and directories of those.")
    if summary.failed:
        raise typer.Exit(1)


def _print_skipped(summary: Any, examples: int = 3) -> None:
    """Skipped files, one line per reason with a count and the first few files."""
    if not summary.skipped:
        return
    console.print(f"skipped {len(summary.skipped)} (not mail, or not a regular file), "
                  "by reason:")
    for reason, where in summary.skipped_by_reason():
        shown = ", ".join(escape(w) for w in where[:examples])
        more = f", and {len(where) - examples} more" if len(where) > examples else ""
        console.print(f"  {len(where)} × {escape(reason)}: {shown}{more}", highlight=False,
                      soft_wrap=True)


PORT_ENV = "MAILMOAT_PORT"


@app.command()
def up(
    host: str = typer.Option("127.0.0.1", help="address to serve on"),
    port: int = typer.Option(8025, envvar=PORT_ENV, help="port to serve on"),
) -> None:
    """Migrate, import the demo mailbox when empty and no account is set up, then serve."""
    import uvicorn

    from mailmoat.demo import import_demo
    from mailmoat.entrypoints.cli.users import setup_link
    from mailmoat.entrypoints.web.app import create_app
    from mailmoat.services.agents import mount_mcp

    listener = _listen(host, port)  # before anything is announced: a taken port says so
    store = common.open_store(with_scorers=True)
    if store.count() == 0 and not _accounts_configured():
        results = import_demo(store)
        console.print(f"no account configured: imported {len(results)} demo messages")
    if not os.environ.get("MAILMOAT_BROKER_URL"):  # else the scheduler queues the heal
        judge_commands.start_heal_thread(store)
    counts = store.lane_counts()
    console.print("lanes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    token = setup_link(store, host, port)
    console.print(f"[bold]mailmoat is up:[/bold] http://{host}:{port}/")
    # With a broker the web process is stateless: workers and the scheduler do the rest.
    stop_sync = (cli_mail.start_background_sync()
                 if _accounts_configured() and not os.environ.get("MAILMOAT_BROKER_URL")
                 else None)
    try:
        app_ = create_app(store, setup_token=token, base_url=f"http://{host}:{port}")
        mount_mcp(app_, store, host)  # MCP for registered agents at /mcp (docs/mcp.md)
        uvicorn.Server(uvicorn.Config(app_, log_level="warning")).run(sockets=[listener])
    finally:
        listener.close()
        if stop_sync is not None:
            stop_sync()


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket `up` serves on, bound before anything is announced; a port in use
    (or not ours to take) exits 2 with the ways to choose another."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise common.fail(
            f"cannot serve on {host}: not an address this machine has ({exc})") from None
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
    try:
        listener.bind(address)
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        raise common.fail(_bind_refused(host, port, exc)) from None
    return listener


def _bind_refused(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        why = f"port {port} on {host} is already in use (another mailmoat up, or another program)"
    elif exc.errno == errno.EACCES:
        why = f"port {port} on {host} is not open to this user (ports below 1024 need root)"
    elif exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot serve on {host}: no network interface has that address"
    else:
        why = f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    free = _free_port(host, port)
    other = str(free) if free is not None else "PORT"
    return (f"{why}. Choose another port: mailmoat up --port {other}, or {PORT_ENV}={other}, "
            f"or make run PORT={other}")


def _free_port(host: str, after: int) -> int | None:
    """The first port after `after` that `host` can listen on now (a suggestion only)."""
    for candidate in range(after + 1, min(after + 21, 65536)):
        try:
            with socket.create_server((host, candidate)):
                return candidate
        except OSError:
            continue
    return None


def _accounts_configured() -> bool:
    return cli_mail.accounts_configured()


# Command groups, one line each (each module exposes `app = typer.Typer(...)`).
app.add_typer(users_cli.app, name="user")
app.add_typer(notify_cli.app, name="notify")
app.add_typer(actions_cli.app, name="actions")
app.add_typer(agent_cli.app, name="agent")
app.command("mcp")(mcp_cli.mcp)
app.command("backup")(backup_cli.backup)
app.command("restore")(backup_cli.restore)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
