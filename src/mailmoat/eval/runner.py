"""Run a labelled eval set through the cascade and compute the metrics that matter.

Set format (the Klorn JSON in ../shared/eval/klorn): {"items": [{id, from, subject, snippet,
body?, labels?, label, labelV2?, accept?}]}. The expected lane is `labelV2` when present,
else `label`; the old AUTO label counts as QUEUE (automation is a flag, not a lane). An item
may carry `accept`, a list of lanes that all count as right.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formataddr, parseaddr
from pathlib import Path
from typing import Any

from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.message import Message, message_from_fields, parse_message
from mailmoat.core.policy import Facts
from mailmoat.core.trace import Trace
from mailmoat.judge.cascade import Scorer, classify

LANES: tuple[Lane, ...] = tuple(Lane)


class EvalSetError(ValueError):
    """The file is not an eval set this runner can read."""


@dataclass(frozen=True, slots=True)
class EvalItem:
    id: str
    message: Message
    expected: Lane
    accept: frozenset[Lane]
    facts: Facts = Facts()
    category: str = ""  # the human label in sets that carry one (the development set)


# Two identical human corrections make a sender rule (the learning design); the eval sets
# record human overrides per sender as `senderPrior` with kind "override".
RULE_MIN_OVERRIDES = 2


def facts_from_context(context: Any) -> Facts:
    """Map an eval item's recorded sender history onto the facts the policy reads.

    Only world-anchored history is used (counts of messages, replies, human overrides, read
    behaviour); free-text traits are ignored, as message content would be.
    """
    if not isinstance(context, dict):
        return Facts()
    prior = context.get("senderPrior") or {}
    facts = context.get("senderFacts") or {}
    history = facts.get("tierHistory") or {}
    engagement = facts.get("engagement") or {}
    reads = facts.get("readBehavior") or {}
    rule_lane = None
    if prior.get("kind") == "override" and int(prior.get("count") or 0) >= RULE_MIN_OVERRIDES:
        try:
            rule_lane = _lane(prior.get("tier"), "senderPrior")
        except EvalSetError:
            rule_lane = None
    total_reads = int(reads.get("total") or 0)
    return Facts(
        rule_lane=rule_lane,
        messages_received=sum(int(v or 0) for v in history.values()),
        replies_sent=int(engagement.get("outboundCount") or 0),
        human_corrections=int(facts.get("manualOverrides") or 0),
        read_rate=(int(reads.get("read") or 0) / total_reads) if total_reads else None,
    )


@dataclass(frozen=True, slots=True)
class ItemResult:
    id: str
    expected: Lane
    predicted: Lane
    correct: bool
    source: str
    features: dict[str, float]
    phishing: tuple[str, ...] = ()  # the phishing flag's reasons, when the mail is flagged


@dataclass(frozen=True, slots=True)
class LaneStats:
    precision: float | None
    recall: float | None
    support: int


@dataclass(frozen=True, slots=True)
class EvalReport:
    name: str
    total: int
    accuracy: float
    lanes: dict[str, LaneStats]
    urgent_total: int
    urgent_hits: int
    hidden_predicted: int  # items predicted SILENT
    hidden_correct: int  # ... that were expected SILENT
    violations: list[dict[str, str]]
    items: list[ItemResult] = field(default_factory=list)

    @property
    def urgent_recall(self) -> float | None:
        return self.urgent_hits / self.urgent_total if self.urgent_total else None

    @property
    def hidden_precision(self) -> float | None:
        return self.hidden_correct / self.hidden_predicted if self.hidden_predicted else None

    def as_dict(self, with_items: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "set": self.name,
            "total": self.total,
            "accuracy": self.accuracy,
            "per_lane": {
                lane: {"precision": s.precision, "recall": s.recall, "support": s.support}
                for lane, s in self.lanes.items()
            },
            "urgent_recall": self.urgent_recall,
            "urgent": {"expected": self.urgent_total, "in_push": self.urgent_hits},
            "hidden_lane_precision": self.hidden_precision,
            "violations": self.violations,
            "phishing_flagged": sum(bool(r.phishing) for r in self.items),
        }
        if with_items:
            out["items"] = [
                {
                    "id": r.id,
                    "expected": r.expected.value,
                    "predicted": r.predicted.value,
                    "correct": r.correct,
                    "source": r.source,
                    "features": r.features,
                    "phishing_flag": bool(r.phishing),
                    "phishing_reasons": list(r.phishing),
                }
                for r in self.items
            ]
        return out


def _lane(value: Any, where: str) -> Lane:
    text = str(value).upper()
    if text == "AUTO":
        return Lane.QUEUE
    try:
        return Lane(text)
    except ValueError as exc:
        raise EvalSetError(f"{where}: unknown lane {value!r}") from exc


def load_items(path: Path, use_context: bool = True) -> list[EvalItem]:
    if not path.is_file():  # a directory, or a pipe that would block the read
        raise EvalSetError(f"{path} is not an eval set: not a regular file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise EvalSetError(f"{path} is not an eval set: not UTF-8 text (a binary file?)"
                           ) from exc
    except json.JSONDecodeError as exc:
        raise EvalSetError(f"{path} is not an eval set: not JSON ({exc.msg}, line "
                           f"{exc.lineno})") from exc
    except (OSError, ValueError) as exc:
        raise EvalSetError(f"cannot read {path}: {exc}") from exc
    raw_items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(raw_items, list):
        raise EvalSetError(f"{path}: expected an object with an 'items' list")
    items: list[EvalItem] = []
    for n, raw in enumerate(raw_items):
        where = f"{path.name} item {n}"
        if not isinstance(raw, dict) or ("label" not in raw and "labelV2" not in raw):
            raise EvalSetError(f"{where}: needs 'label' or 'labelV2'")
        expected = _lane(raw.get("labelV2") or raw["label"], where)
        accept = frozenset([expected, *(_lane(a, where) for a in raw.get("accept", []))])
        if "to" in raw or "headers" in raw:
            message = _parsed(raw, where)
        else:
            message = message_from_fields(
                sender=str(raw.get("from", "")),
                subject=str(raw.get("subject", "")),
                snippet=str(raw.get("snippet", "")),
                body=str(raw.get("body", "") or ""),
                labels=tuple(str(x) for x in raw.get("labels", []) or []),
            )
        facts = facts_from_context(raw.get("context")) if use_context else Facts()
        items.append(EvalItem(str(raw.get("id", n)), message, expected, accept, facts,
                              str(raw.get("category", ""))))
    return items


_FOLDED = re.compile(r"\r?\n(?=[ \t])")


def _parsed(raw: dict[str, Any], where: str) -> Message:
    """An item with recipients or extra headers (Authentication-Results, List-Id ...) is
    written out as RFC 822 and read by the real parser, as mail from a server would be."""
    mail = EmailMessage()
    headers = raw.get("headers") or {}
    if not isinstance(headers, dict):
        raise EvalSetError(f"{where}: 'headers' must be an object")
    try:
        _set_address(mail, "From", str(raw.get("from", "")))
        if raw.get("to"):
            _set_address(mail, "To", str(raw["to"]))
        mail["Subject"] = str(raw.get("subject", ""))
        for name, value in headers.items():
            # a header copied folded from a mail's source is the same header unfolded
            # (RFC 5322 2.2.3); a line break not followed by whitespace stays an error
            mail[str(name)] = _FOLDED.sub("", str(value))
        mail.set_content(str(raw.get("body", "") or raw.get("snippet", "") or ""))
    except (ValueError, TypeError) as exc:
        raise EvalSetError(f"{where}: cannot build the message: {exc}") from exc
    labels = tuple(str(x) for x in raw.get("labels", []) or [])
    return parse_message(bytes(mail), labels=labels)


def _set_address(mail: EmailMessage, name: str, value: str) -> None:
    """Set an address header. The standard library's header parser fails on some display
    names a mail server passes as they are (".MU Domain Renewal Services <...>" raises an
    AttributeError inside `email._header_value_parser`): the display name is then quoted,
    which reads back as the same name and address."""
    try:
        mail[name] = value
    except (AttributeError, IndexError):
        display, address = parseaddr(value)
        if not address:
            raise ValueError(f"{name} {value!r} is not an address") from None
        mail[name] = formataddr((display, address))


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def evaluate(
    name: str,
    items: Sequence[EvalItem],
    judge: Callable[[Message, Facts], Trace] | None = None,
    scorers: Sequence[Scorer] = (),
) -> EvalReport:
    """Classify every item and compute the report. `judge` overrides the default cascade."""
    run = judge or (lambda m, f: classify(m, f, scorers=scorers))
    results: list[ItemResult] = []
    for item in items:
        trace = run(item.message, item.facts)
        predicted = trace.decision.lane
        results.append(
            ItemResult(
                id=item.id,
                expected=item.expected,
                predicted=predicted,
                correct=predicted in item.accept,
                source=trace.source,
                features=trace.features.as_dict(),
                phishing=tuple(trace.evidence.get("phishing_reasons", ()))
                if trace.evidence.get("phishing_flag") else (),
            )
        )
    lanes: dict[str, LaneStats] = {}
    for lane in LANES:
        predicted_here = [r for r in results if r.predicted == lane]
        expected_here = [r for r in results if r.expected == lane]
        lanes[lane.value] = LaneStats(
            precision=_ratio(sum(r.correct for r in predicted_here), len(predicted_here)),
            recall=_ratio(sum(r.predicted == lane for r in expected_here), len(expected_here)),
            support=len(expected_here),
        )
    violations = [
        {"id": r.id, "expected": r.expected.value, "predicted": r.predicted.value}
        for r in results
        if (r.expected == Lane.PUSH and r.predicted in HIDDEN_LANES)
        or (r.expected == Lane.SILENT and r.predicted == Lane.PUSH)
    ]
    urgent = [r for r in results if r.expected == Lane.PUSH]
    silent = [r for r in results if r.predicted == Lane.SILENT]
    return EvalReport(
        name=name,
        total=len(results),
        accuracy=sum(r.correct for r in results) / len(results) if results else 0.0,
        lanes=lanes,
        urgent_total=len(urgent),
        urgent_hits=sum(r.predicted == Lane.PUSH for r in urgent),
        hidden_predicted=len(silent),
        hidden_correct=sum(r.expected == Lane.SILENT for r in silent),
        violations=violations,
        items=results,
    )
