"""The one eval report: every section present, numbers from real runs, JSON and Markdown agree."""

from __future__ import annotations

import json
from pathlib import Path

from mailmoat.services.eval_report import NO_MODEL, model_comparison, write_report
from tests.conftest import SHARED
from tests.support.llm_server import LLMServer

SETS = SHARED / "eval" / "klorn"


def test_report_writes_every_section(tmp_path: Path) -> None:
    # AgentDojo's section has its own test (test_eval_agentdojo.py): it takes a minute and a half.
    md, js = write_report(SETS, tmp_path, environ={}, agentdojo=None)
    data = json.loads(js.read_text())
    assert {s["set"] for s in data["local_path"]} >= {"judge-eval-set.json",
                                                       "real-eval-set.json"}
    judge = next(s for s in data["local_path"] if s["set"] == "judge-eval-set.json")
    assert judge["floors"] and all(c["ok"] for c in judge["floors"])
    assert data["delta"]["auc_delta"] >= 0.95
    adversarial = data["adversarial_in_process"]
    assert adversarial["total"] >= 150 and adversarial["contained"] == adversarial["total"]
    text = md.read_text()
    for heading in ("Local path", "Delta eval", "Adversarial corpus"):
        assert heading in text
    assert f"{adversarial['contained']} of {adversarial['total']} contained" in text
    assert "Model comparison" in text and NO_MODEL in text
    assert data["model_comparison"]["rows"][0]["model"] == "local"
    meeting = data["meeting_slots"]
    assert meeting["total"] >= 80 and meeting["events_from_unsure"] == 0
    assert "Meeting slots, deterministic path (no model): meeting-slots.json" in text
    assert data["meeting_slots_later"]["wrong_events"] == 0
    assert f"{meeting['exact']} of {meeting['slot_items']} slots exact" in text
    # issue 22: every labelled set, the blind-written ones beside the development set
    labelled = {s["set"]: s for s in data["judgement"]["labelled_sets"]}
    assert {"dev-set.json", "blind-set.json"} <= set(labelled)
    assert labelled["blind-set.json"]["items"] >= 250
    assert "### blind-set.json" in text and "### dev-set.json" in text
    # pooled by how much each set flatters the judge: mails summed, never a set counted twice
    from mailmoat.services.eval_report import SET_KINDS, set_kind

    pooled = data["judgement"]["pooled"]
    assert set(pooled) == set(SET_KINDS)
    for kind in SET_KINDS:
        mine = [d for d in labelled.values() if set_kind(d["set"]) == kind]
        assert pooled[kind]["sets"] == len(mine)
        assert pooled[kind]["items"] == sum(d["items"] for d in mine)
    assert pooled["development set"]["sets"] == 1 and pooled["tuned on"]["sets"] >= 100
    assert sum(p["items"] for p in pooled.values()) == sum(d["items"] for d in labelled.values())
    assert "### All labelled sets, pooled by how much they flatter the judge" in text
    assert f"tuned on ({pooled['tuned on']['sets']} sets" in text


def test_model_comparison_has_a_row_per_configured_model_beside_the_local_path() -> None:
    with LLMServer() as llm:
        environ = {"MAILMOAT_LLM_BASE_URL": llm.base_url,
                   "MAILMOAT_LLM_MODEL": "scripted-a,scripted-b"}
        table = model_comparison(SETS / "judge-eval-set.json", environ)
        asked = {str(r.json.get("model")) for r in llm.chat_requests()}
    assert [r["model"] for r in table["rows"]] == ["local", "scripted-a", "scripted-b"]
    assert asked == {"scripted-a", "scripted-b"}
    assert table["note"] == ""
    for row in table["rows"][1:]:
        assert row["total"] == table["rows"][0]["total"]
        assert row["median_prompt_tokens"] > 0 and row["degraded"] == 0
        assert row["command"].endswith(f"--scorer llm --model {row['model']}")


def test_report_command_defaults_to_the_public_sets_beside_the_checkout() -> None:
    # `mailmoat report` with no --sets reads ../shared/eval/klorn: the default must name the
    # folder the tests read (it once pointed inside src/ after the CLI moved a level down).
    from mailmoat.entrypoints.cli.main import DEFAULT_EVAL_SETS

    assert DEFAULT_EVAL_SETS.resolve() == SETS.resolve()
    assert any(DEFAULT_EVAL_SETS.glob("*.json"))
