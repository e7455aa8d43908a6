"""The eval runner and the accuracy floors of the local scorer on the public sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.cli.main import app
from mailmoat.eval.runner import EvalSetError, evaluate, facts_from_context, load_items

KLORN = Path(__file__).resolve().parents[3] / "shared" / "eval" / "klorn"
JUDGE_SET = KLORN / "judge-eval-set.json"
runner = CliRunner()


def write_set(tmp_path: Path, items: list[dict[str, object]]) -> Path:
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"items": items}), encoding="utf-8")
    return path


def test_label_rules(tmp_path: Path) -> None:
    path = write_set(
        tmp_path,
        [
            {"id": "a", "from": "x@y.example", "subject": "s", "snippet": "", "label": "AUTO"},
            {"id": "b", "from": "x@y.example", "subject": "s", "snippet": "", "label": "QUEUE",
             "labelV2": "INFO"},
            {"id": "c", "from": "x@y.example", "subject": "s", "snippet": "", "label": "PUSH",
             "accept": ["QUEUE"]},
        ],
    )
    items = load_items(path)
    assert [i.expected for i in items] == [Lane.QUEUE, Lane.INFO, Lane.PUSH]
    assert items[2].accept == {Lane.PUSH, Lane.QUEUE}


def test_bad_set_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(EvalSetError):
        load_items(bad)
    with pytest.raises(EvalSetError, match="unknown lane"):
        load_items(write_set(tmp_path, [{"from": "a", "subject": "b", "label": "LOUD"}]))
    result = runner.invoke(app, ["eval", str(bad)])
    assert result.exit_code == 2
    assert "error" in result.output


def test_a_display_name_the_standard_parser_trips_on_still_loads(tmp_path: Path) -> None:
    # the standard library raises an AttributeError on a display name opening with "."
    path = write_set(tmp_path, [
        {"id": "a", "from": ".NZ Renewals <renew@nz-renewals.net>",
         "to": "Ana <ana@harbour.net>", "subject": "Renewal", "body": "Due next month.",
         "label": "QUEUE", "headers": {"Authentication-Results": "mx.harbour.net; spf=pass"}},
    ])
    message = load_items(path)[0].message
    assert (message.from_name, message.from_addr) == (".NZ Renewals", "renew@nz-renewals.net")


def test_a_header_copied_folded_is_read_unfolded(tmp_path: Path) -> None:
    received = ("from mail.harbour.net (mail.harbour.net [192.0.2.7])\n\tby mx.harbour.net "
                "with ESMTPS; Mon, 6 May 2030 08:02:11 -0400")
    path = write_set(tmp_path, [
        {"id": "a", "from": "Ana <ana@harbour.net>", "to": "Bo <bo@harbour.net>",
         "subject": "s", "body": "b", "label": "QUEUE",
         "headers": {"Received": received,
                     "Authentication-Results": "mx.harbour.net;\n spf=pass "
                                               "smtp.mailfrom=harbour.net"}},
    ])
    message = load_items(path)[0].message
    assert "spf=pass" in message.auth_results
    # a line break that folds nothing is still a clear error
    broken = write_set(tmp_path, [{"id": "a", "from": "a@b.example", "subject": "s",
                                   "label": "QUEUE", "headers": {"X-Note": "one\ntwo"}}])
    with pytest.raises(EvalSetError, match="cannot build the message"):
        load_items(broken)


def test_metrics_and_violations_are_computed(tmp_path: Path) -> None:
    path = write_set(
        tmp_path,
        [
            # Clear marketing labelled PUSH: predicted SILENT is a safety violation.
            {"id": "v", "from": "Shop <deals@mail.shop.example>", "subject": "70% off sale",
             "snippet": "shop now", "label": "PUSH"},
            {"id": "ok", "from": "Shop <deals@mail.shop.example>", "subject": "70% off sale",
             "snippet": "shop now", "label": "SILENT"},
        ],
    )
    report = evaluate("t", load_items(path))
    assert report.total == 2
    assert report.accuracy == 0.5
    assert report.urgent_total == 1 and report.urgent_hits == 0
    assert report.hidden_predicted == 2 and report.hidden_correct == 1
    assert report.violations == [{"id": "v", "expected": "PUSH", "predicted": "SILENT"}]
    result = runner.invoke(app, ["eval", str(path)])
    assert result.exit_code == 1  # a violation fails the run


def test_context_maps_only_world_facts() -> None:
    facts = facts_from_context(
        {
            "senderPrior": {"tier": "PUSH", "count": 3, "kind": "override"},
            "senderFacts": {"tierHistory": {"PUSH": 3, "QUEUE": 1}, "manualOverrides": 3,
                            "readBehavior": {"read": 1, "total": 4},
                            "engagement": {"outboundCount": 2}},
            "senderTraits": [{"factValue": "we have worked together for years"}],
        }
    )
    assert facts.rule_lane == Lane.PUSH
    assert (facts.messages_received, facts.replies_sent, facts.human_corrections) == (4, 2, 3)
    assert facts.read_rate == 0.25
    single = facts_from_context({"senderPrior": {"tier": "PUSH", "count": 1, "kind": "override"}})
    assert single.rule_lane is None  # one correction makes no rule
    history = facts_from_context({"senderPrior": {"tier": "SILENT", "count": 9, "kind": "history"}})
    assert history.rule_lane is None  # history is not a human override


@pytest.mark.skipif(not JUDGE_SET.exists(), reason=f"public eval set not found at {JUDGE_SET}")
def test_local_scorer_floor_on_public_judge_set() -> None:
    """The goal of the decision-core issue; a floor that may only be raised."""
    report = evaluate(JUDGE_SET.name, load_items(JUDGE_SET))
    assert report.accuracy >= 0.85
    assert report.urgent_hits >= 11
    assert report.violations == []
    assert report.hidden_precision == 1.0


@pytest.mark.skipif(not JUDGE_SET.exists(), reason=f"public eval set not found at {JUDGE_SET}")
def test_cli_eval_json_and_min_accuracy() -> None:
    result = runner.invoke(app, ["eval", str(JUDGE_SET), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["items"]) == 56
    assert {"id", "expected", "predicted", "source", "features"} <= set(data["items"][0])
    strict = runner.invoke(app, ["eval", str(JUDGE_SET), "--min-accuracy", "0.999"])
    assert strict.exit_code == 1
