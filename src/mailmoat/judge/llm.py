"""The LLM scorer: walks the provider/model chain and returns the four features.

Per message: build the prompt; for each provider (in order) and each of its models (in
order) that is not cooling down: answer from the cache if this exact prompt was judged by
this model before; otherwise check the budget with a pre-bill estimate, call the model
(temperature 0, `response_format` json_object), validate the reply ourselves, and true the
ledger up with the real token counts. Failures are classified (`failures.py`) into "skip
this model" and "skip this provider". When nothing answers, `ScorerUnavailable` is raised
and the cascade lets the local scorer decide (source `local:degraded`).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from mailmoat.core.features import Features
from mailmoat.core.fewshot import Example
from mailmoat.core.hashing import sha256_hex
from mailmoat.core.local_scorer import Scored
from mailmoat.core.message import Message
from mailmoat.core.policy import THRESHOLDS, Facts
from mailmoat.core.signals import Signals
from mailmoat.judge.cascade import ScorerUnavailable
from mailmoat.judge.config import LLMConfig, ProviderConfig, RateRow
from mailmoat.judge.contract import CONTRACT_SCHEMA, ContractViolation, parse_reply
from mailmoat.judge.failures import MODEL_COOLDOWN, Classified, Failure, classify_status
from mailmoat.judge.pricing import cost_usd, rate_for
from mailmoat.judge.prompt import (
    PROMPT_VERSION,
    build_messages,
    estimate_tokens,
    prompt_token_bound,
)
from mailmoat.judge.state import JudgeState, Usage, endpoint, model_key, provider_key

if TYPE_CHECKING:  # the SDK loads on the first model call, not with every command
    import openai

log = logging.getLogger(__name__)
T = TypeVar("T")

BUDGET = "budget"
MISSING_KEY = "missing_key"
PLACEHOLDER_KEY = "not-needed"  # local servers ignore the key; the SDK insists on one


def utcnow() -> datetime:
    return datetime.now(UTC)


def cache_key(model: str, chat: Sequence[Mapping[str, str]], max_tokens: int,
              server: str = "") -> str:
    """A verdict belongs to the model *at that endpoint*: the same model name behind another
    base URL (another provider, a local build) is another model."""
    return sha256_hex({"v": PROMPT_VERSION, "model": model, "endpoint": server,
                       "chat": list(chat), "max_tokens": max_tokens})


@dataclass(frozen=True, slots=True)
class Judged(Generic[T]):
    value: T  # Features for the scorer, a draft for the drafter
    reason: str
    provider: str
    model: str


@dataclass(frozen=True, slots=True)
class ReplyContract(Generic[T]):
    """What a call asks for and how its reply is validated: the judge's four numbers, or
    (act/drafter.py) a reply draft. Same providers, fallback, budget and cache for both."""

    schema: dict[str, object]  # sent to servers that take a schema hint (llama.cpp)
    parse: Callable[[str | None], tuple[T, str]]  # raises ContractViolation
    dump: Callable[[T, str], dict[str, Any]]  # into the reply cache
    load: Callable[[dict[str, Any]], tuple[T, str]]  # out of it; raises on a bad entry
    max_tokens: int | None = None  # None: the config's max_completion_tokens


def _load_scores(reply: dict[str, Any]) -> tuple[Features, str]:
    return Features(**reply["features"]), str(reply["reason"])


SCORES: ReplyContract[Features] = ReplyContract(
    schema=CONTRACT_SCHEMA,
    parse=parse_reply,
    dump=lambda features, reason: {"features": features.as_dict(), "reason": reason},
    load=_load_scores,
)


@dataclass(frozen=True, slots=True)
class _Step:
    """One call's result: an answer or a failure, whether to call again, what it cost."""

    outcome: Judged[Any] | Attempt | None
    retry: str = ""  # "": done; "again": bad output, one more try; "wait": a short 429
    wait_s: float = 0.0
    classified: Classified | None = None
    cost: float = 0.0


@dataclass(frozen=True, slots=True)
class Attempt:
    """Why one model did not answer; kept for `ScorerUnavailable` and the tests."""

    provider: str
    model: str
    failure: str
    detail: str = ""


@dataclass
class LLMJudge:
    """A `Scorer` for the cascade. One instance serves one user: the mail account whose
    spend it books (per-user cap) and whose past corrections it shows as examples."""

    config: LLMConfig
    state: JudgeState
    user: str = "local"
    # (account, message) -> that account's corrections relevant to the message (few-shot)
    examples: Callable[[str, Message], Sequence[Example]] | None = None
    now: Callable[[], datetime] = utcnow
    sleep: Callable[[float], None] = time.sleep
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    name: str = "llm"
    # This instance's calls, when a caller wants them (eval, tests); None in long-running
    # processes, where the llm_usage table is the record and a list would only grow.
    usage_log: list[Usage] | None = None
    attempts: list[Attempt] = field(default_factory=list)  # the last message's failures
    _clients: dict[str, openai.OpenAI] = field(default_factory=dict, repr=False)

    # -- the Scorer protocol ---------------------------------------------------------------

    def for_account(self, account: str) -> LLMJudge:
        """This judge serving `account` (see `cascade.classify`); clients, state, the usage
        log and the configuration are shared with this instance."""
        return self if account == self.user else replace(self, user=account, attempts=[])

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        chat = build_messages(message, facts, self._examples(message), self.config.body_chars)
        self.attempts = []
        try:
            judged = self.walk(chat)
            if judged is not None:
                judged = self._escalate(chat, judged)
        except Exception as exc:
            # Whatever goes wrong in here, the message still gets a lane (invariant 6).
            log.exception("LLM judge failed")
            raise ScorerUnavailable(f"judge error: {type(exc).__name__}") from exc
        if judged is None:
            summary = "; ".join(f"{a.provider}/{a.model}: {a.failure}" for a in self.attempts)
            raise ScorerUnavailable(f"no model answered ({summary or 'no models configured'})")
        return Scored(judged.value, judged.reason, source=f"llm:{judged.model}")

    def _examples(self, message: Message) -> Sequence[Example]:
        if self.examples is None:
            return ()
        try:
            return self.examples(self.user, message)
        except Exception:
            # Examples sharpen an answer; without them the model still answers.
            log.exception("few-shot examples unavailable for %s", self.user)
            return ()

    def walk(self, chat: list[dict[str, str]],
             contract: ReplyContract[Any] = SCORES) -> Judged[Any] | None:
        """Try every provider's chain in order; None when nothing answered."""
        for provider in self.config.providers:
            now = self.now()
            held = self.state.cooling(provider_key(provider), now)
            if held is not None:
                self.attempts.append(Attempt(provider.name, "*", "provider_backoff"))
                continue
            if provider.api_key_env and not self.environ.get(provider.api_key_env):
                # A provider that needs a key nobody set would only answer 401: skip it.
                self.attempts.append(Attempt(provider.name, "*", MISSING_KEY))
                continue
            for model in provider.models:
                if self.state.cooling(model_key(provider, model), now) is not None:
                    self.attempts.append(Attempt(provider.name, model, "cooldown"))
                    continue
                result = self.try_model(provider, model, chat, contract)
                if isinstance(result, Judged):
                    return result
                self.attempts.append(result)
                if result.failure == Failure.PROVIDER_DOWN:
                    break  # the rest of this provider's chain is behind the same outage
        return None

    def _escalate(self, chat: list[dict[str, str]], first: Judged) -> Judged:
        """Ask the stronger model only about the low-confidence tail, never about all mail."""
        esc = self.config.escalation
        if esc is None or first.value.confidence >= THRESHOLDS.min_confidence:
            return first
        if (esc.provider, esc.model) == (first.provider, first.model):
            return first
        provider = self.config.provider(esc.provider)
        now = self.now()
        if (self.state.cooling(provider_key(provider), now) is not None
                or self.state.cooling(model_key(provider, esc.model), now) is not None):
            return first
        result = self.try_model(provider, esc.model, chat)
        return result if isinstance(result, Judged) else first

    # -- one model -------------------------------------------------------------------------

    def try_model(
        self, provider: ProviderConfig, model: str, chat: list[dict[str, str]],
        contract: ReplyContract[Any] = SCORES,
    ) -> Judged[Any] | Attempt:
        max_tokens = contract.max_tokens or self.config.max_completion_tokens
        key = cache_key(model, chat, max_tokens, endpoint(provider))
        hit = self.state.cached(key)
        if hit is not None:
            try:
                value, reason = contract.load(hit.reply)
                self._record(provider, model, "cached", hit.prompt_tokens,
                             hit.completion_tokens, False, 0.0, None, 0)
                return Judged(value, reason, provider.name, model)
            except (KeyError, TypeError, ValueError):
                log.warning("ignoring a malformed cache entry for %s", model)
        rate = rate_for(model, provider.is_local, self.config.pricing).rate
        # The most one call can cost: every prompt token at most one byte of the prompt
        # (plus the template's framing), every completion token allowed.
        bound = cost_usd(rate, prompt_token_bound(chat), max_tokens)
        outcome = self._call_with_retries(provider, model, chat, rate, key, contract,
                                          max_tokens, bound)
        if isinstance(outcome, Attempt) and outcome.failure == Failure.BAD_OUTPUT:
            self._cool_if_always_bad(provider, model)
        return outcome

    def _cool_if_always_bad(self, provider: ProviderConfig, model: str) -> None:
        """A model that broke the contract for the last `bad_output_streak` messages (two
        calls each) rests for `bad_output_cooldown_s`; one odd answer costs nothing more."""
        calls = 2 * self.config.bad_output_streak
        now = self.now()
        streak = self.state.failing_streak(provider.name, model, Failure.BAD_OUTPUT,
                                           now - timedelta(hours=1), calls)
        if streak >= calls:
            self.state.cool(model_key(provider, model), self.config.bad_output_cooldown_s,
                            Failure.BAD_OUTPUT, now)

    def _book(self, bound: float) -> tuple[str, datetime] | None:
        """Reserve `bound` before a call; None when it could cross a cap (the call must not
        be made). A free call books nothing ("")."""
        started = self.now()
        if bound <= 0:
            return "", started
        caps = self.config.budget
        call_id = self.state.reserve(self.user, bound, started, caps.global_daily_usd,
                                     caps.user_daily_usd)
        return None if call_id is None else (call_id, started)

    def _call_with_retries(
        self, provider: ProviderConfig, model: str, chat: list[dict[str, str]],
        rate: RateRow, key: str, contract: ReplyContract[Any], max_tokens: int, bound: float,
    ) -> Judged[Any] | Attempt:
        """Every call (a retry included) is booked on its own before it is made and trued up
        to what the provider reported after, so no call starts that could cross a cap."""
        bad_output_left, waits_left = 1, 1
        while True:
            booking = self._book(bound)
            if booking is None:
                self._record(provider, model, BUDGET, 0, 0, False, 0.0, None, 0)
                return Attempt(provider.name, model, BUDGET, "daily cap reached")
            call_id, started = booking
            cost = 0.0
            try:
                step = self._one_call(provider, model, chat, rate, key, contract, max_tokens)
                cost = step.cost
            finally:
                if call_id:
                    self.state.true_up(self.user, call_id, bound, cost, started, self.now())
            if step.retry == "wait" and waits_left:
                waits_left -= 1
                self.sleep(step.wait_s)
                continue
            if step.retry == "again" and bad_output_left:
                bad_output_left -= 1
                continue
            if step.retry == "wait" and step.classified is not None:
                self._apply(provider, model, step.classified)
            assert step.outcome is not None
            return step.outcome

    def _one_call(
        self, provider: ProviderConfig, model: str, chat: list[dict[str, str]],
        rate: RateRow, key: str, contract: ReplyContract[Any], max_tokens: int,
    ) -> _Step:
        import openai

        t0 = time.monotonic()
        try:
            # The SDK types messages and response_format as TypedDicts; ours are plain dicts
            # of the same shape, built and checked here.
            response = self._client(provider).chat.completions.create(  # type: ignore[call-overload]
                model=model,
                messages=chat,
                temperature=0,
                max_tokens=max_tokens,
                response_format=_response_format(provider, contract.schema),
            )
        except openai.APIStatusError as exc:
            classified = classify_status(exc.status_code, exc.body,
                                         dict(exc.response.headers), self.now())
            self._record(provider, model, classified.failure, 0, 0, False, 0.0, None, _ms(t0))
            attempt = Attempt(provider.name, model, classified.failure, f"HTTP {exc.status_code}")
            if (classified.failure == Failure.RATE_LIMIT
                    and classified.retry_after_s is not None
                    and classified.retry_after_s <= self.config.max_inline_wait_s):
                return _Step(attempt, retry="wait", wait_s=classified.retry_after_s,
                             classified=classified)
            self._apply(provider, model, classified)
            return _Step(attempt)
        except openai.APIConnectionError as exc:  # includes timeouts
            self._record(provider, model, Failure.PROVIDER_DOWN, 0, 0, False, 0.0, None, _ms(t0))
            self._apply(provider, model, Classified(Failure.PROVIDER_DOWN))
            return _Step(Attempt(provider.name, model, Failure.PROVIDER_DOWN,
                                 type(exc).__name__))
        except (openai.OpenAIError, ValueError) as exc:  # a 200 that is not a completion
            self._record(provider, model, Failure.BAD_OUTPUT, 0, 0, False, 0.0, None, _ms(t0))
            return _Step(Attempt(provider.name, model, Failure.BAD_OUTPUT, type(exc).__name__),
                         retry="again")
        prompt_tokens, completion_tokens, estimated, billed = _usage(response, chat)
        cost = cost_usd(rate, prompt_tokens, completion_tokens)
        content = _content(response)
        try:
            value, reason = contract.parse(content)
        except ContractViolation as exc:
            self._record(provider, model, Failure.BAD_OUTPUT, prompt_tokens, completion_tokens,
                         estimated, cost, billed, _ms(t0))
            return _Step(Attempt(provider.name, model, Failure.BAD_OUTPUT, str(exc)),
                         retry="again", cost=cost)
        self._record(provider, model, "ok", prompt_tokens, completion_tokens, estimated, cost,
                     billed, _ms(t0))
        self.state.remember(key, model, contract.dump(value, reason), prompt_tokens,
                            completion_tokens, self.now())
        # A model that answers is healthy: drop a stale hold on its provider.
        self.state.clear(provider_key(provider))
        return _Step(Judged(value, reason, provider.name, model), cost=cost)

    def _apply(self, provider: ProviderConfig, model: str, classified: Classified) -> None:
        now = self.now()
        failure = classified.failure
        if failure in MODEL_COOLDOWN:
            self.state.cool(model_key(provider, model),
                            self.config.cooldown_hours * 3600, failure, now)
        elif failure == Failure.RATE_LIMIT:
            wait = classified.retry_after_s
            self.state.cool(model_key(provider, model),
                            wait if wait is not None else self.config.rate_limit_default_s,
                            failure, now)
        elif failure == Failure.PROVIDER_DOWN:
            backoff = max(self.config.provider_backoff_s, classified.retry_after_s or 0.0)
            self.state.cool(provider_key(provider), backoff, failure, now)

    def _client(self, provider: ProviderConfig) -> openai.OpenAI:
        import openai

        slot = f"{provider.name}|{endpoint(provider)}"
        client = self._clients.get(slot)
        if client is None:
            key = (self.environ.get(provider.api_key_env) if provider.api_key_env else None)
            client = openai.OpenAI(base_url=provider.base_url, api_key=key or PLACEHOLDER_KEY,
                                   timeout=provider.timeout_s, max_retries=0)
            self._clients[slot] = client
        return client

    def _record(self, provider: ProviderConfig, model: str, outcome: str, prompt: int,
                completion: int, estimated: bool, cost: float, billed: float | None,
                latency_ms: int) -> None:
        usage = Usage(provider.name, model, str(outcome), prompt, completion, estimated, cost,
                      billed, latency_ms)
        if self.usage_log is not None:
            self.usage_log.append(usage)
        self.state.record_usage(self.user, usage, self.now())


def _response_format(provider: ProviderConfig, schema: dict[str, object]) -> dict[str, Any]:
    if provider.json_schema_hint:
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


def _ms(t0: float) -> int:
    return int((time.monotonic() - t0) * 1000)


def _content(response: Any) -> str | None:
    choices = getattr(response, "choices", None) or []
    if not choices:
        return None
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None)
    return content if isinstance(content, str) else None


def _usage(response: Any, chat: list[dict[str, str]]) -> tuple[int, int, bool, float | None]:
    """Token counts from the response; estimated (and flagged) when the server sent none."""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    billed = getattr(usage, "cost", None)  # OpenRouter reports what it billed
    billed = float(billed) if isinstance(billed, int | float) and billed >= 0 else None
    if isinstance(prompt, int) and isinstance(completion, int):
        return prompt, completion, False, billed
    text = _content(response) or ""
    return estimate_tokens(chat), int(len(text) / 3.5) + 1, True, billed
