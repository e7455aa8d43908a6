"""The development set (issue 22) and its measures: well-formed, every item explained, the
label metrics computed from real runs, the CLI and the web page show the phishing flag."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.cli.main import app
from mailmoat.eval.floors import check_floors, load_floors
from mailmoat.eval.judgement import (
    DEV_SET,
    GOALS,
    corpus_split,
    label_metrics,
    meets,
    pool_label_metrics,
)
from mailmoat.eval.runner import evaluate, load_items
from mailmoat.store import Store

runner = CliRunner()


def test_the_development_set_is_large_varied_and_explained() -> None:
    data = json.loads(DEV_SET.read_text(encoding="utf-8"))
    items = data["items"]
    assert len(items) >= 200
    assert len({i["id"] for i in items}) == len(items)
    kinds = Counter(i["category"] for i in items)
    assert set(kinds) == {"urgent", "needs-response", "personal", "fyi", "promotion", "scam",
                          "phishing", "auto-reply", "notification", "list"}
    assert sum(i["lang"] == "ko" for i in items) >= 20
    assert all(len(i["note"]) >= 10 for i in items)
    phishing = [i for i in items if i["category"] == "phishing"]
    with_auth = [i for i in phishing if "Authentication-Results" in i.get("headers", {})]
    assert 0 < len(with_auth) < len(phishing)


def test_label_metrics_hold_the_committed_floors() -> None:
    items = load_items(DEV_SET)
    report = evaluate(DEV_SET.name, items)
    m = label_metrics(items, report)
    assert m["items"] == len(items)
    assert m["suspect_in_push"] == 0 and m["visible_hidden"] == 0.0
    by_label = m["by_label"]
    assert sum(row["items"] for row in by_label.values()) == len(items)
    assert all(c.ok for c in check_floors(report, load_floors()[DEV_SET.name]))
    flagged = [r for r in report.items if r.phishing]
    assert flagged and all(r.predicted is Lane.QUEUE for r in flagged)


def test_pooled_figures_are_those_of_the_union_not_an_average_of_shares() -> None:
    items = load_items(DEV_SET)
    # two unequal parts: the smaller one's shares must not weigh as much as the larger's
    parts = [items[:40], items[40:]]
    found = [label_metrics(p, evaluate("part", p)) for p in parts]
    pooled = pool_label_metrics(found)
    whole = label_metrics(items, evaluate("whole", items))
    for key in ("items", "lane_accepted", "urgent_push_or_meeting", "push_precision",
                "push_total", "suspect_in_push", "promotions_silent_or_info",
                "visible_hidden"):
        assert pooled[key] == pytest.approx(whole[key]), key
    assert pooled["sets"] == 2
    assert pooled["suspect_in_push_per_1000"] == whole["suspect_in_push"] * 1000 / len(items)
    assert pool_label_metrics([])["lane_accepted"] is None


def test_goals_are_read_the_right_way_round() -> None:
    assert meets("lane_accepted", 0.80) and not meets("lane_accepted", 0.79)
    assert meets("visible_hidden", 0.01) and not meets("visible_hidden", 0.011)
    assert meets("suspect_in_push_per_1000", 6.0) and not meets("suspect_in_push_per_1000", 7)
    assert meets("push_total", 5) is None and meets("lane_accepted", None) is None
    assert set(GOALS) <= set(pool_label_metrics([]))


def test_corpus_split_counts_lanes_per_folder(tmp_path: Path) -> None:
    for folder, n in (("spam-x", 2), ("easy-ham-1", 3)):
        (tmp_path / folder).mkdir()
        for k in range(n):
            (tmp_path / folder / f"{k}.eml").write_bytes(
                f"From: a{k}@b.example.org\nSubject: s{k}\n\nhello\n".encode())
    seen: list[bytes] = []

    def judge(message, raw):  # type: ignore[no-untyped-def]
        seen.append(raw)
        return Lane.PUSH if message.subject == "s0" else Lane.SILENT

    split = corpus_split(tmp_path, judge)
    assert split["spam_in_push"] == 1 and split["spam_total"] == 2
    assert split["easy_ham_1_silent"] == 2 / 3
    assert len(seen) == 5


# Ratchets on the public SpamAssassin corpus with no model and no spam engine (issue 22;
# docs/results.md): spam in PUSH and list discussion silenced, raised as the judge improves.
SPAM_IN_PUSH_CEILING = 0
EASY_HAM_1_SILENT_CEILING = 0.30


def test_the_spamassassin_corpus_holds_its_ratchets() -> None:
    from mailmoat.judge.cascade import classify

    corpus = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "spamassassin"
    if not corpus.is_dir():
        pytest.skip("the SpamAssassin corpus is not in ../shared")
    split = corpus_split(corpus, lambda message, raw: classify(message).decision.lane)
    assert split["spam_total"] > 1800
    assert split["spam_in_push"] <= SPAM_IN_PUSH_CEILING
    assert split["easy_ham_1_silent"] <= EASY_HAM_1_SILENT_CEILING
    # Flagged or cold mail stays visible: easy ham still reaches PUSH where a person is urgent.
    assert split["folders"]["easy-ham-1"]["push"] > 0


def test_eval_cli_prints_label_metrics_and_the_flag() -> None:
    result = runner.invoke(app, ["eval", str(DEV_SET), "--json", "--no-floors"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["labels"]["items"] == len(data["items"])
    flagged = [i for i in data["items"] if i["phishing_flag"]]
    assert flagged and all(i["phishing_reasons"] for i in flagged)
    assert data["phishing_flagged"] == len(flagged)


PHISH = (b"From: PayPal <service@paypa1-secure.com>\nTo: ann@example.com\n"
         b"Subject: URGENT: verify your account now\nMessage-ID: <p1@paypa1-secure.com>\n"
         b"Authentication-Results: mx.example.com; spf=fail; dmarc=fail\n\n"
         b"Your account is suspended. Verify your identity now: https://paypa1-secure.com/v\n")


def test_classify_json_trace_carries_the_flag_and_its_reasons(tmp_path: Path) -> None:
    path = tmp_path / "phish.eml"
    path.write_bytes(PHISH)
    result = runner.invoke(app, ["classify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.output)
    assert trace["lane"] == "QUEUE" and trace["branch"] == "suspect"
    assert trace["signals"]["phishing"] is True
    assert trace["evidence"]["phishing_flag"] is True
    assert trace["evidence"]["dmarc"] == "fail"
    assert any("look-alike" in r for r in trace["evidence"]["phishing_reasons"])


def test_the_message_page_shows_why_a_mail_is_flagged(client: TestClient,
                                                      store: Store) -> None:
    mid = store.ingest(PHISH, "eml").message_id
    page = client.get(f"/message/{mid}").text
    assert "Possible phishing or scam" in page
    assert "look-alike domain of paypal" in page
    trace = client.get(f"/message/{mid}/trace").text
    assert "Sender evidence" in trace and "fail" in trace
    ham = store.ingest(b"From: Bob <bob@example.org>\nSubject: lunch\n\nlunch?\n", "eml")
    assert "Possible phishing" not in client.get(f"/message/{ham.message_id}").text


def test_the_tuning_and_held_out_halves_are_fixed_and_even() -> None:
    from mailmoat.eval.judgement import half

    keys = [f"spam-1/{n:05}.eml" for n in range(2000)]
    halves = [half(k) for k in keys]
    assert halves == [half(k) for k in keys]  # the same on every call
    assert set(halves) == {"tuning", "held-out"}
    assert 900 < halves.count("tuning") < 1100
    assert half("judge-eval-set:eval-001") == half("judge-eval-set:eval-001")


def test_corpus_split_keeps_only_the_selected_half(tmp_path: Path) -> None:
    (tmp_path / "spam-x").mkdir()
    for k in range(4):
        (tmp_path / "spam-x" / f"{k}.eml").write_bytes(b"From: a@b.example.org\n\nhi\n")
    split = corpus_split(tmp_path, lambda m, raw: Lane.QUEUE,
                         select=lambda key: key.endswith(("0.eml", "1.eml")))
    assert split["spam_total"] == 2


def test_only_sets_registered_as_never_tuned_are_pooled_as_such() -> None:
    from mailmoat.services.eval_report import set_kind

    assert set_kind("blind-set-133.json") == "tuned on"  # measured once, then tuned on
    assert set_kind("blind-set-141.json") == "tuned on"
    assert set_kind("blind-set-145.json") == "tuned on"
    assert set_kind("blind-set-149.json") == "tuned on"
    assert set_kind("blind-set-153.json") == "tuned on"  # read in the forty-eighth pass
    assert set_kind("blind-set-157.json") == "tuned on"  # read in the forty-ninth pass
    assert set_kind("blind-set-164.json") == "tuned on"
    assert set_kind("blind-set-165.json") == "tuned on"  # measured once, then read
    assert set_kind("blind-set-168.json") == "tuned on"
    assert set_kind("blind-set-169.json") == "tuned on"  # measured, then read in the fiftieth
    assert set_kind("blind-set-172.json") == "tuned on"
    assert set_kind("blind-set-173.json") == "tuned on"  # measured, then read (fifty-first)
    assert set_kind("blind-set-176.json") == "tuned on"
    assert set_kind("blind-set-177.json") == "tuned on"  # measured, then read (fifty-second)
    assert set_kind("blind-set-180.json") == "tuned on"
    assert set_kind("blind-set-181.json") == "tuned on"  # measured, then read (fifty-third)
    assert set_kind("blind-set-184.json") == "tuned on"
    assert set_kind("blind-set-189.json") == "tuned on"  # measured, then read (fifty-fifth)
    assert set_kind("blind-set-192.json") == "tuned on"
    assert set_kind("blind-set-193.json") == "tuned on"  # measured, then read (fifty-sixth)
    assert set_kind("blind-set-196.json") == "tuned on"
    assert set_kind("blind-set-197.json") == "tuned on"  # measured, then tuned (fifty-seventh)
    assert set_kind("blind-set-200.json") == "tuned on"
    assert set_kind("blind-set-201.json") == "tuned on"  # measured, then read (fifty-ninth)
    assert set_kind("blind-set-212.json") == "tuned on"
    assert set_kind("blind-set-213.json") == "tuned on"  # measured, then read (sixtieth)
    assert set_kind("blind-set-216.json") == "tuned on"
    assert set_kind("blind-set-217.json") == "tuned on"  # measured, then read (sixty-first)
    assert set_kind("blind-set-220.json") == "tuned on"
    assert set_kind("blind-set-221.json") == "tuned on"  # measured, then read (sixty-second)
    assert set_kind("blind-set-224.json") == "tuned on"
    assert set_kind("blind-set-225.json") == "tuned on"  # measured, then read (sixty-third)
    assert set_kind("blind-set-228.json") == "tuned on"
    assert set_kind("blind-set-229.json") == "tuned on"  # measured, then read (sixty-fourth)
    assert set_kind("blind-set-232.json") == "tuned on"
    assert set_kind("blind-set-233.json") == "tuned on"  # measured, then read (sixty-fifth)
    assert set_kind("blind-set-236.json") == "tuned on"
    assert set_kind("blind-set-237.json") == "tuned on"  # measured, then read (sixty-sixth)
    assert set_kind("blind-set-240.json") == "tuned on"
    assert set_kind("blind-set-241.json") == "tuned on"  # measured, then read (sixty-sixth)
    assert set_kind("blind-set-244.json") == "tuned on"
    assert set_kind("blind-set-245.json") == "tuned on"  # measured, then read (sixty-sixth)
    assert set_kind("blind-set-248.json") == "tuned on"
    assert set_kind("blind-set-249.json") == "tuned on"  # measured, then read (sixty-seventh)
    assert set_kind("blind-set-252.json") == "tuned on"
    assert set_kind("blind-set-253.json") == "tuned on"  # measured, then read (sixty-seventh)
    assert set_kind("blind-set-256.json") == "tuned on"
    assert set_kind("blind-set-257.json") == "tuned on"  # measured, then read (sixty-seventh)
    assert set_kind("blind-set-260.json") == "tuned on"
    assert set_kind("blind-set-261.json") == "tuned on"  # measured, then read (sixty-eighth)
    assert set_kind("blind-set-264.json") == "tuned on"
    assert set_kind("blind-set-265.json") == "tuned on"  # measured at two judges (sixty-ninth)
    assert set_kind("blind-set-268.json") == "tuned on"
    assert set_kind("blind-set-269.json") == "never tuned"
    assert set_kind("blind-set-272.json") == "never tuned"
    assert set_kind("blind-set-50.json") == "tuned on"
    assert set_kind("dev-set.json") == "development set"
    assert set_kind("blind-set-999.json") == "tuned on"  # no note: never the honest pool
