"""Invariant 4, property-based: no sequence of corrections, learned rules or learned weights
lands a message in SILENT (or any hidden lane the static path would not choose) unless a
person pinned that sender. A pin, and only a pin, silences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.message import Message, message_from_fields
from mailmoat.core.policy import Facts
from mailmoat.core.rules import CorrectionKind, Event, Scope, SenderKey, pin_for, rule_for
from mailmoat.core.signals import detect_signals
from mailmoat.judge.cascade import classify
from mailmoat.learn.model import LANES, Labelled, LinearModel, featurize
from mailmoat.learn.scorer import LearnedScorer

PROPS = settings(max_examples=250, deadline=None)
SENDERS = ["ann@acme.example", "bob@acme.example", "deals@shop.example", "eve@gmail.com"]
SUBJECTS = [
    "50% off flash sale today only",
    "Weekly newsletter: top stories",
    "URGENT: production is down",
    "Your receipt for order #1234",
    "Can we meet tomorrow at 3pm?",
    "Quick question about the draft",
    "Last chance: exclusive deals inside",
    "",
]
BODIES = ["Shop now and save. Unsubscribe here.", "Please reply when you can.",
          "Payment received, thank you.", "", "Limited time offer, free shipping."]
LIST_HEADERS = ["", "<https://shop.example/unsub>"]

message_st = st.builds(
    lambda sender, subject, body, unsub: message_from_fields(
        sender=sender, subject=subject, body=body, list_unsubscribe=unsub
    ),
    st.sampled_from(SENDERS), st.sampled_from(SUBJECTS), st.sampled_from(BODIES),
    st.sampled_from(LIST_HEADERS),
)
KEYS = [SenderKey(Scope.ADDRESS, s) for s in SENDERS] + [SenderKey(Scope.DOMAIN, "acme.example")]
learned_event_st = st.one_of(
    st.tuples(st.just(CorrectionKind.LANE_CHANGE), st.sampled_from(SENDERS),
              st.sampled_from(list(Lane)), st.none()),
    st.tuples(st.sampled_from([CorrectionKind.APPROVAL, CorrectionKind.REJECTION,
                               CorrectionKind.DISMISSAL]),
              st.sampled_from(SENDERS), st.none(), st.none()),
    st.tuples(st.just(CorrectionKind.RULE_REMOVED), st.just(""), st.none(),
              st.sampled_from(KEYS)),
)


def _events(raw: list[tuple]) -> list[Event]:
    return [Event(n, kind, address=sender, lane=lane, target=key)
            for n, (kind, sender, lane, key) in enumerate(raw, 1)]


def _static_lane(message: Message) -> Lane:
    """What the firewall decides with nothing learned: the local scorer, no facts."""
    return classify(message, Facts()).decision.lane


def _learned_lane(message: Message, events: list[Event], model: LinearModel) -> Lane:
    pin = pin_for(events, message.from_addr)
    rule = rule_for(events, message.from_addr)
    facts = Facts(
        pinned_lane=None if pin is None else pin.lane,
        rule_lane=None if rule is None else rule.lane,
        human_corrections=len(events),
    )
    scorer = LearnedScorer(model, min_probability=0.0, min_corrections=0)
    return classify(message, facts, scorers=[scorer]).decision.lane


@PROPS
@given(message_st, st.lists(learned_event_st, max_size=25), st.data())
def test_nothing_learned_hides_a_message_the_static_path_shows(
    message: Message, raw: list[tuple], data: st.DataObject
) -> None:
    # Arbitrary learned weights on exactly the features this message has.
    buckets = featurize(message, detect_signals(message))
    rows = st.lists(st.floats(-60, 60, allow_nan=False), min_size=len(LANES),
                    max_size=len(LANES))
    model = LinearModel(weights={b: data.draw(rows) for b in buckets}, updates=10_000)
    lane = _learned_lane(message, _events(raw), model)
    static = _static_lane(message)
    if lane in HIDDEN_LANES:
        assert lane == static, f"learning hid a {static.value} message in {lane.value}"


@PROPS
@given(message_st, st.lists(learned_event_st, max_size=25),
       st.lists(st.tuples(message_st, st.sampled_from(list(Lane))), max_size=12),
       st.integers(0, 2**32 - 1))
def test_training_on_any_labels_never_hides_what_the_static_path_shows(
    message: Message, raw: list[tuple], labelled: list[tuple[Message, Lane]], seed: int
) -> None:
    model = LinearModel()
    model.fit([Labelled(featurize(m, detect_signals(m)), lane, 3.0) for m, lane in labelled],
              epochs=3, seed=seed)
    lane = _learned_lane(message, _events(raw), model)
    if lane in HIDDEN_LANES:
        assert lane == _static_lane(message)


@PROPS
@given(message_st, st.lists(learned_event_st, max_size=15), st.sampled_from(list(Lane)))
def test_a_pin_on_another_sender_changes_nothing_here(
    message: Message, raw: list[tuple], lane: Lane
) -> None:
    others = [k for k in KEYS if k.value not in (message.from_addr, message.from_domain)]
    events = _events(raw)
    events += [Event(len(events) + n + 1, CorrectionKind.PIN, lane=lane, target=key)
               for n, key in enumerate(others)]
    learned = _learned_lane(message, events, LinearModel())
    if learned in HIDDEN_LANES:
        assert learned == _static_lane(message)


def test_a_human_pin_does_silence_a_sender_the_static_path_shows() -> None:
    message = message_from_fields(sender="ann@acme.example", subject="Quick question",
                                  body="Could you look at this when you have a minute?")
    assert _static_lane(message) not in HIDDEN_LANES
    pin = Event(1, CorrectionKind.PIN, lane=Lane.SILENT,
                target=SenderKey(Scope.ADDRESS, "ann@acme.example"))
    assert _learned_lane(message, [pin], LinearModel()) is Lane.SILENT
    corrections = [Event(n, CorrectionKind.LANE_CHANGE, address="ann@acme.example",
                         lane=Lane.SILENT) for n in range(1, 6)]
    assert _learned_lane(message, corrections, LinearModel()) not in HIDDEN_LANES
