"""Learning over a Store: record corrections, read rules, pins, facts and few-shot examples,
and train the learned scorer. Every write is one transaction; nothing is ever rewritten."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailmoat.core.facts import (
    READ_RATE,
    ReadRateSettings,
    SenderFacts,
    SenderHistory,
    sender_facts,
)
from mailmoat.core.fewshot import MAX_EXAMPLES, Example, select_examples
from mailmoat.core.lanes import Lane
from mailmoat.core.message import parse_message
from mailmoat.core.relabel import relabelled
from mailmoat.core.rules import (
    RULE_MIN_CORRECTIONS,
    CorrectionKind,
    Pin,
    Rule,
    SenderKey,
    all_pins,
    all_rules,
    derive_pin,
    derive_rule,
    normalize_address,
    parse_key,
)
from mailmoat.core.signals import detect_signals
from mailmoat.learn import ledger
from mailmoat.learn.history import load_sender_facts
from mailmoat.learn.model import Labelled, LinearModel, featurize
from mailmoat.learn.scorer import LearnedScorer
from mailmoat.learn.training import CORRECTION_WEIGHT, training_examples
from mailmoat.store.messages import Store, replace_decision
from mailmoat.store.tables.learn import CorrectionRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow

MESSAGE_ONLY = (CorrectionKind.APPROVAL, CorrectionKind.REJECTION, CorrectionKind.DISMISSAL)


class LearningError(ValueError):
    """A request learning cannot carry out; the message says why. Nothing was written."""


class NotFound(LearningError):
    """The message, rule or pin named does not exist."""


def parse_lane(value: str) -> Lane:
    try:
        return Lane(value.strip().upper())
    except ValueError as exc:
        choices = ", ".join(lane.value for lane in Lane)
        raise LearningError(f"unknown lane {value!r}; choose one of {choices}") from exc


def _key(text: str) -> SenderKey:
    try:
        return parse_key(text)
    except ValueError as exc:
        raise LearningError(str(exc)) from exc


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class RuleView:
    rule: Rule
    corrections: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.rule.key.value,
            "scope": self.rule.key.scope.value,
            "lane": self.rule.lane.value,
            "cites": list(self.rule.correction_ids),
            "corrections": self.corrections,
        }


def pin_dict(pin: Pin) -> dict[str, Any]:
    return {"key": pin.key.value, "scope": pin.key.scope.value, "lane": pin.lane.value,
            "event": pin.event_id}


def _apply_human_lane(
    session: Session, decision: DecisionRow, lane: Lane, actor: str, correction_id: int,
    now: datetime,
) -> None:
    """The message now sits where the person put it (core/relabel.py, the one relabel rule);
    the trace cites the correction."""
    replace_decision(session, decision, relabelled(decision.trace, lane, actor, correction_id),
                     actor, now)


class Learning:
    def __init__(
        self,
        store: Store,
        account: str = "local",
        rule_threshold: int = RULE_MIN_CORRECTIONS,
        read_rate: ReadRateSettings = READ_RATE,
        scorer: LearnedScorer | None = None,
    ) -> None:
        self.store = store
        self.account = account
        self.rule_threshold = rule_threshold
        self.read_rate = read_rate
        self.scorer = scorer  # when set, every lane change teaches it at once


    # -- writes ---------------------------------------------------------------------------

    def correct(self, message_id: int, lane: str | Lane, actor: str, note: str = "") -> int:
        """A person moves a message to `lane`: ledger row with the trace it corrects, the
        message's current decision replaced, the decision ledger appended. Returns the id."""
        chosen = lane if isinstance(lane, Lane) else parse_lane(lane)
        now = _now()
        with self.store.sessions.begin() as session:
            message, decision = self._message(session, message_id)
            if decision.lane == chosen.value:
                raise LearningError(f"message {message_id} is already in {chosen.value}")
            corrected = dict(decision.trace)
            row = ledger.append(
                session, self.account,
                ledger.NewCorrection(
                    kind=CorrectionKind.LANE_CHANGE, actor=actor, message_id=message_id,
                    sender=message.from_addr, lane=chosen, shown_lane=decision.lane,
                    trace=corrected, note=note,
                ),
                now,
            )
            _apply_human_lane(session, decision, chosen, actor, row.id, now)
            raw, labels = message.raw, tuple(message.labels or ())
            correction_id = row.id
        if self.scorer is not None:
            parsed = parse_message(raw, labels=labels)
            example = Labelled(featurize(parsed, detect_signals(parsed)), chosen,
                               CORRECTION_WEIGHT, corrected=True)
            self.scorer.model.partial_fit([example])
        return correction_id

    def withdraw(self, session: Session, message_id: int, undone: dict[str, Any],
                 actor: str) -> int | None:
        """A person undid the decision `undone` (a trace); when a lane change of theirs put it
        there, append an undo naming that correction, so rules, few-shot examples and the
        learned scorer stop counting it. Runs in the caller's transaction (the undo's own)."""
        correction = undone.get("correction")
        if not isinstance(correction, int):
            return None  # not a person's lane change (a pin's re-filing, say): nothing to take back
        message = session.get(MessageRow, message_id)
        if message is None or message.account != self.account:
            return None
        row = ledger.append(
            session, self.account,
            ledger.NewCorrection(kind=CorrectionKind.UNDO, actor=actor, message_id=message_id,
                                 sender=message.from_addr, shown_lane=undone.get("lane"),
                                 trace=undone, withdraws=correction),
            _now(),
        )
        return row.id

    def record(self, message_id: int, kind: CorrectionKind, actor: str, note: str = "") -> int:
        """An approval, rejection or dismissal about one message, with its current trace."""
        if kind not in MESSAGE_ONLY:
            raise LearningError(f"{kind.value} is not recorded this way")
        with self.store.sessions.begin() as session:
            message, decision = self._message(session, message_id)
            row = ledger.append(session, self.account,
                                ledger.about_message(kind, actor, message, decision, note),
                                _now())
            return row.id

    def pin(self, key: str, lane: str | Lane, actor: str, note: str = "") -> Pin:
        """Only this — a person's explicit pin — can send a sender to SILENT."""
        target = _key(key)
        chosen = lane if isinstance(lane, Lane) else parse_lane(lane)
        with self.store.sessions.begin() as session:
            row = ledger.append(
                session, self.account,
                ledger.NewCorrection(kind=CorrectionKind.PIN, actor=actor, target=target,
                                     lane=chosen, note=note),
                _now(),
            )
            return Pin(target, chosen, row.id)

    def unpin(self, key: str, actor: str) -> Pin:
        target = _key(key)
        with self.store.sessions.begin() as session:
            pin = derive_pin(self._events(session, target), target)
            if pin is None:
                raise NotFound(f"{target.value} is not pinned")
            ledger.append(
                session, self.account,
                ledger.NewCorrection(kind=CorrectionKind.UNPIN, actor=actor, target=target),
                _now(),
            )
            return pin

    def remove_rule(self, key: str, actor: str) -> Rule:
        """Undo a learned rule. Corrections before the removal never count again."""
        return self.remove(key, actor)[0]

    def remove(self, key: str, actor: str) -> tuple[Rule, list[Rule]]:
        """Undo a learned rule: the rule, and the other rules that lapsed with it because
        they stood on the same corrections (removing an address's rule can take its
        organisation's domain rule with it, and a domain's its addresses')."""
        target = _key(key)
        with self.store.sessions.begin() as session:
            rule = derive_rule(self._events(session, target), target, self.rule_threshold)
            if rule is None:
                raise NotFound(f"no learned rule for {target.value}")
            before = self._all_rules(session)
            ledger.append(
                session, self.account,
                ledger.NewCorrection(kind=CorrectionKind.RULE_REMOVED, actor=actor,
                                     target=target),
                _now(),
            )
            after = {r.key for r in self._all_rules(session)}
            lapsed = [r for r in before if r.key not in after and r.key != target]
            return rule, lapsed

    # -- reads ----------------------------------------------------------------------------

    def rules(self) -> list[RuleView]:
        with self.store.sessions() as session:
            rows = ledger.rows(session, self.account)
        events = [ledger.to_event(r) for r in rows]
        by_id = {r.id: r for r in rows}
        return [
            RuleView(rule, [ledger.as_dict(by_id[i]) for i in rule.correction_ids])
            for rule in all_rules(events, self.rule_threshold)
        ]

    def rule(self, key: str) -> tuple[RuleView | None, Pin | None]:
        target = _key(key)
        with self.store.sessions() as session:
            rows = self._rows(session, target)
        events = [ledger.to_event(r) for r in rows]
        rule = derive_rule(events, target, self.rule_threshold)
        by_id = {r.id: r for r in rows}
        view = None if rule is None else RuleView(
            rule, [ledger.as_dict(by_id[i]) for i in rule.correction_ids]
        )
        return view, derive_pin(events, target)

    def pins(self) -> list[Pin]:
        with self.store.sessions() as session:
            events = [ledger.to_event(r) for r in ledger.rows(session, self.account)]
        return all_pins(events)

    def corrections(self, sender: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        with self.store.sessions() as session:
            rows = (ledger.rows(session, self.account) if sender is None
                    else ledger.rows_for_senders(session, self.account, [sender]))
        return [ledger.as_dict(r) for r in rows[-limit:]]

    def lane(self, message_id: int) -> Lane:
        """The lane a message sits in now."""
        with self.store.sessions() as session:
            return Lane(self._message(session, message_id)[1].lane)

    def facts(self, address: str, now: datetime | None = None) -> SenderFacts:
        address = normalize_address(address)
        moment = now or _now()
        with self.store.sessions() as session:
            found = load_sender_facts(session, self.account, [address], moment,
                                      self.read_rate, self.rule_threshold)
        return found.get(address) or sender_facts(address, SenderHistory(), moment)

    def examples(self, sender: str, text: str, limit: int = MAX_EXAMPLES) -> list[Example]:
        """Few-shot examples for a message from `sender` reading `text` (see core/fewshot)."""
        with self.store.sessions() as session:
            # The columns an example needs, not whole rows: each row's stored trace is
            # most of its size, and this runs for every message the judge reads.
            found = session.execute(
                select(CorrectionRow.id, CorrectionRow.sender_addr, CorrectionRow.shown_lane,
                       CorrectionRow.lane, MessageRow.subject, MessageRow.snippet)
                .join(MessageRow, MessageRow.id == CorrectionRow.message_id)
                .where(CorrectionRow.account == self.account,
                       CorrectionRow.kind == CorrectionKind.LANE_CHANGE.value)
                .order_by(CorrectionRow.id)
            ).all()
            undone = ledger.withdrawn(session, self.account)
        pool = [
            Example(cid, sender, subject, snippet, Lane(shown) if shown else None, Lane(lane))
            for cid, sender, shown, lane, subject, snippet in found
            if lane and cid not in undone
        ]
        return select_examples(sender, text, pool, limit)

    def training_set(self) -> list[Labelled]:
        """Corrected messages labelled with the person's lane (weighted up), and messages the
        person read and left alone labelled with their current lane, oldest first."""
        with self.store.sessions() as session:
            return training_examples(session, self.account)

    def train_scorer(self, seed: int = 0, epochs: int = 5) -> LearnedScorer:
        """Train from the store's history, then keep learning from each new correction."""
        model = LinearModel()
        model.fit(self.training_set(), epochs=epochs, seed=seed)
        self.scorer = LearnedScorer(model)
        return self.scorer

    # -- helpers --------------------------------------------------------------------------

    def _message(self, session: Session, message_id: int) -> tuple[MessageRow, DecisionRow]:
        message = session.get(MessageRow, message_id)
        decision = session.get(DecisionRow, message_id)
        if message is None or decision is None or message.account != self.account:
            raise NotFound(f"no message {message_id}")
        return message, decision

    def _all_rules(self, session: Session) -> list[Rule]:
        events = [ledger.to_event(r) for r in ledger.rows(session, self.account)]
        return all_rules(events, self.rule_threshold)

    def _rows(self, session: Session, key: SenderKey) -> Sequence[CorrectionRow]:
        return ledger.rows(session, self.account, [key])

    def _events(self, session: Session, key: SenderKey) -> list[Any]:
        return [ledger.to_event(r) for r in self._rows(session, key)]
