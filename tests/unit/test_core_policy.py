"""The policy: every branch, the branch order, each threshold at and just below its bound,
the hidden-lane urgency guard, auto_eligible, and describe_policy() == what runs."""

from __future__ import annotations

import dataclasses
import math
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.core.features import FEATURE_NAMES, Features, InvalidFeatures
from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.policy import (
    BRANCH_ORDER,
    POLICY_VERSION,
    THRESHOLDS,
    Facts,
    Thresholds,
    decide,
    describe_policy,
)
from mailmoat.core.signals import Signals

PROPS = settings(max_examples=300, deadline=None)
JUST_BELOW = 1e-9


def feats(c: float = 0.8, t: float = 0.5, r: float = 0.5, u: float = 0.3) -> Features:
    return Features(confidence=c, sender_trust=t, reversibility=r, urgency=u)


NONE = Signals()
SCHED = Signals(scheduling=True)
TRANS = Signals(transactional=True)
# Features that, with no signals and no facts, satisfy the SILENT branch.
NOISE = feats(c=0.9, t=0.1, r=0.95, u=0.1)
URGENT = feats(c=0.9, t=0.5, r=0.5, u=0.9)


# -- each branch ---------------------------------------------------------------------------


def test_branch_order_is_the_documented_one() -> None:
    assert BRANCH_ORDER == (
        "pin", "suspect", "rule", "unsure", "push", "silent", "meeting", "info", "queue",
    )


@pytest.mark.parametrize("lane", list(Lane))
def test_pin_sets_the_lane(lane: Lane) -> None:
    d = decide(feats(u=0.1), NONE, Facts(pinned_lane=lane))
    assert (d.lane, d.branch) == (lane, "pin")


@pytest.mark.parametrize("lane", [Lane.PUSH, Lane.QUEUE, Lane.MEETING])
def test_promoting_rule_sets_the_lane(lane: Lane) -> None:
    d = decide(NOISE, TRANS, Facts(rule_lane=lane))
    assert (d.lane, d.branch) == (lane, "rule")


@pytest.mark.parametrize("lane", [Lane.SILENT, Lane.INFO])
def test_hiding_rule_is_ignored(lane: Lane) -> None:
    for f, s in [(feats(), NONE), (NOISE, NONE), (feats(), TRANS), (URGENT, NONE)]:
        with_rule = decide(f, s, Facts(rule_lane=lane))
        without = decide(f, s, Facts())
        assert with_rule == without
        assert with_rule.branch != "rule"


def test_unsure_branch() -> None:
    d = decide(feats(c=0.3), NONE)
    assert (d.lane, d.branch) == (Lane.QUEUE, "unsure")


def test_push_branch() -> None:
    d = decide(URGENT, NONE)
    assert (d.lane, d.branch) == (Lane.PUSH, "push")


def test_silent_branch() -> None:
    d = decide(NOISE, NONE)
    assert (d.lane, d.branch) == (Lane.SILENT, "silent")


def test_meeting_branch_and_its_marketing_exception() -> None:
    d = decide(feats(), SCHED)
    assert (d.lane, d.branch) == (Lane.MEETING, "meeting")
    webinar = decide(feats(), Signals(scheduling=True, marketing=True))
    assert (webinar.lane, webinar.branch) == (Lane.INFO, "info")  # a promotion: a record
    pitch = decide(feats(), Signals(scheduling=True, cold_pitch=True))  # "book a demo"
    assert (pitch.lane, pitch.branch) == (Lane.INFO, "info")
    # A promotion shouting urgency may be a phish dressed as one: it stays in the queue.
    shouted = decide(feats(u=0.5), Signals(scheduling=True, marketing=True))
    assert (shouted.lane, shouted.branch) == (Lane.QUEUE, "queue")
    webinar_receipt = decide(feats(), Signals(scheduling=True, marketing=True, transactional=True))
    assert (webinar_receipt.lane, webinar_receipt.branch) == (Lane.INFO, "info")


def test_info_branch() -> None:
    d = decide(feats(u=0.2), TRANS)
    assert (d.lane, d.branch) == (Lane.INFO, "info")
    # A person on a mailing list and an automatic reply are calm records too.
    for s in (Signals(list_discussion=True), Signals(auto_reply=True)):
        assert (decide(feats(u=0.2), s).lane, decide(feats(u=0.2), s).branch) == (
            Lane.INFO, "info")
    assert decide(feats(u=0.5), Signals(list_discussion=True)).lane == Lane.QUEUE


PHISH = Signals(phishing=True)


def test_suspect_branch_keeps_a_flagged_mail_visible() -> None:
    for f in (URGENT, NOISE, feats(), feats(c=0.1)):
        d = decide(f, PHISH)
        assert (d.lane, d.branch) == (Lane.QUEUE, "suspect")
        assert not d.auto_eligible


def test_suspect_beats_rule_and_push() -> None:
    assert decide(URGENT, PHISH, Facts(rule_lane=Lane.PUSH)).branch == "suspect"
    assert decide(URGENT, Signals(phishing=True, urgent_wording=True)).lane == Lane.QUEUE


@pytest.mark.parametrize("signals", [Signals(phishing=True), Signals(spam_verdict=True),
                                     Signals(unsolicited=True), Signals(auto_reply=True),
                                     Signals(cold_unsolicited=True)])
def test_a_pin_to_push_does_not_push_what_may_not_interrupt(signals: Signals) -> None:
    # A spoofed pinned sender, a server spam verdict, a spam-shaped or auto-replied mail.
    d = decide(URGENT, signals, Facts(pinned_lane=Lane.PUSH))
    assert d.lane == Lane.QUEUE


def test_push_needs_a_sender_nothing_speaks_against() -> None:
    for s in (Signals(spam_verdict=True), Signals(unsolicited=True), Signals(auto_reply=True),
              Signals(cold_unsolicited=True)):
        assert decide(URGENT, s).lane == Lane.QUEUE
    # History the model cannot author: someone the user wrote to is not a bulk stranger.
    assert decide(URGENT, Signals(unsolicited=True), REPLIED).lane == Lane.PUSH
    assert decide(URGENT, Signals(cold_unsolicited=True), REPLIED).lane == Lane.PUSH
    # A stranger's sales pitch borrowing incident words does not interrupt (issue 22).
    assert decide(URGENT, Signals(cold_pitch=True)).lane == Lane.QUEUE
    assert decide(URGENT, Signals(cold_pitch=True), REPLIED).lane == Lane.PUSH
    assert decide(URGENT, Signals(phishing=True), REPLIED).lane == Lane.QUEUE
    at = THRESHOLDS.spam_engine_no_push
    assert decide(URGENT, NONE, Facts(spam_score=at)).lane == Lane.QUEUE
    assert decide(URGENT, NONE, Facts(spam_score=at - JUST_BELOW)).lane == Lane.PUSH
    assert decide(URGENT, NONE, Facts(spam_score=None)).lane == Lane.PUSH


def test_queue_is_the_default() -> None:
    d = decide(feats(), NONE)
    assert (d.lane, d.branch) == (Lane.QUEUE, "queue")
    # Signals the policy does not branch on change nothing.
    other = Signals(urgent_wording=True, automated_sender=True, bulk=True, personal=True,
                    security_alert=True, action_requested=True)
    assert decide(feats(), other).lane == Lane.QUEUE


# -- branch order: for each adjacent pair, a case where both match and the earlier wins ----


def test_pin_beats_rule() -> None:
    d = decide(feats(), NONE, Facts(pinned_lane=Lane.INFO, rule_lane=Lane.PUSH))
    assert (d.lane, d.branch) == (Lane.INFO, "pin")


def test_pin_beats_everything_below_it() -> None:
    for f, s in [(feats(c=0.1), NONE), (URGENT, NONE), (NOISE, NONE), (feats(), SCHED),
                 (feats(), TRANS)]:
        assert decide(f, s, Facts(pinned_lane=Lane.MEETING)).branch == "pin"


def test_rule_beats_unsure_and_push() -> None:
    assert decide(feats(c=0.1), NONE, Facts(rule_lane=Lane.MEETING)).lane == Lane.MEETING
    assert decide(URGENT, NONE, Facts(rule_lane=Lane.QUEUE)).lane == Lane.QUEUE


def test_unsure_beats_push_silent_meeting_info() -> None:
    low = 0.5 - JUST_BELOW
    # With push_confidence lowered, a low-confidence urgent message matches push too.
    loose = Thresholds(push_confidence=0.0)
    assert decide(feats(c=low, u=1.0), NONE, thresholds=loose).branch == "unsure"
    assert decide(feats(c=low, t=0.0, r=1.0, u=0.0), NONE).branch == "unsure"
    assert decide(feats(c=low), SCHED).branch == "unsure"
    assert decide(feats(c=low, u=0.0), TRANS).branch == "unsure"


def test_push_beats_silent() -> None:
    # With the default thresholds push (u >= 0.7) and silent (u < 0.2) cannot both match,
    # so widen silent to make the order observable.
    wide = Thresholds(silent_max_urgency=1.01)
    d = decide(feats(c=0.9, t=0.0, r=1.0, u=0.9), NONE, thresholds=wide)
    assert (d.lane, d.branch) == (Lane.PUSH, "push")


def test_push_beats_meeting_and_info() -> None:
    assert decide(URGENT, SCHED).branch == "push"
    wide = Thresholds(info_max_urgency=1.01)
    assert decide(URGENT, TRANS, thresholds=wide).branch == "push"


def test_silent_beats_meeting_and_info() -> None:
    assert decide(NOISE, SCHED).branch == "silent"
    assert decide(NOISE, TRANS).branch == "silent"


def test_meeting_beats_info() -> None:
    d = decide(feats(u=0.1), Signals(scheduling=True, transactional=True))
    assert (d.lane, d.branch) == (Lane.MEETING, "meeting")


# -- thresholds: exactly at and just below ------------------------------------------------


def test_min_confidence_boundary() -> None:
    assert decide(feats(c=0.5), NONE).branch == "queue"
    assert decide(feats(c=0.5 - JUST_BELOW), NONE).branch == "unsure"


def test_push_boundaries() -> None:
    assert decide(feats(c=0.7, u=0.7), NONE).lane == Lane.PUSH
    assert decide(feats(c=0.7, u=0.7 - JUST_BELOW), NONE).lane == Lane.QUEUE
    assert decide(feats(c=0.7 - JUST_BELOW, u=0.7), NONE).lane == Lane.QUEUE
    assert decide(feats(c=1.0, u=1.0), NONE).lane == Lane.PUSH


def test_silent_boundaries() -> None:
    assert decide(feats(c=0.9, t=0.2 - JUST_BELOW, r=0.9 + JUST_BELOW, u=0.2 - JUST_BELOW),
                  NONE).lane == Lane.SILENT
    assert decide(feats(c=0.9, t=0.2, r=0.95, u=0.1), NONE).lane == Lane.QUEUE
    assert decide(feats(c=0.9, t=0.1, r=0.95, u=0.2), NONE).lane == Lane.QUEUE
    assert decide(feats(c=0.9, t=0.1, r=0.9, u=0.1), NONE).lane == Lane.QUEUE
    assert decide(feats(c=0.5, t=0.0, r=1.0, u=0.0), NONE).lane == Lane.SILENT


def test_info_boundary() -> None:
    assert decide(feats(u=0.5 - JUST_BELOW), TRANS).lane == Lane.INFO
    assert decide(feats(u=0.5), TRANS).lane == Lane.QUEUE


# -- the hidden-lane urgency guard --------------------------------------------------------


@pytest.mark.parametrize("lane", sorted(HIDDEN_LANES))
def test_urgent_mail_pinned_to_a_hidden_lane_stays_visible(lane: Lane) -> None:
    d = decide(feats(c=0.5, u=0.7), NONE, Facts(pinned_lane=lane))
    assert (d.lane, d.branch) == (Lane.QUEUE, "pin")
    assert "urgent" in d.reason


@pytest.mark.parametrize("lane", sorted(HIDDEN_LANES))
def test_guard_boundaries(lane: Lane) -> None:
    pin = Facts(pinned_lane=lane)
    assert decide(feats(c=0.5, u=0.7 - JUST_BELOW), NONE, pin).lane == lane
    assert decide(feats(c=0.5 - JUST_BELOW, u=0.7), NONE, pin).lane == lane


def test_guard_applies_to_a_computed_hidden_lane() -> None:
    wide = Thresholds(info_max_urgency=1.01)
    d = decide(feats(c=0.6, u=0.8), TRANS, thresholds=wide)
    assert (d.lane, d.branch) == (Lane.QUEUE, "info")
    wide_silent = Thresholds(silent_max_urgency=1.01, push_confidence=0.95)
    d = decide(feats(c=0.6, t=0.0, r=1.0, u=0.8), NONE, thresholds=wide_silent)
    assert (d.lane, d.branch) == (Lane.QUEUE, "silent")


def test_guard_leaves_visible_pins_alone() -> None:
    assert decide(URGENT, NONE, Facts(pinned_lane=Lane.MEETING)).lane == Lane.MEETING


# -- auto_eligible -------------------------------------------------------------------------

ELIGIBLE = feats(c=0.85, t=0.5, r=0.85, u=0.5 - JUST_BELOW)
REPLIED = Facts(replies_sent=1)


def test_auto_eligible_when_every_condition_holds() -> None:
    assert decide(ELIGIBLE, NONE, REPLIED).auto_eligible
    assert decide(ELIGIBLE, SCHED, REPLIED).auto_eligible  # MEETING
    assert decide(ELIGIBLE, NONE, Facts(replies_sent=7)).auto_eligible


@pytest.mark.parametrize(
    "change",
    [
        {"reversibility": 0.85 - JUST_BELOW},
        {"confidence": 0.85 - JUST_BELOW},
        {"urgency": 0.5},
        {"sender_trust": 0.5 - JUST_BELOW},
    ],
)
def test_auto_eligible_feature_boundaries(change: dict[str, float]) -> None:
    f = dataclasses.replace(ELIGIBLE, **change)
    d = decide(f, NONE, REPLIED)
    assert d.lane == Lane.QUEUE
    assert not d.auto_eligible


def test_auto_eligible_needs_observed_replies() -> None:
    assert not decide(ELIGIBLE, NONE, Facts()).auto_eligible
    # History the user never answered does not count, nor do corrections or read rate.
    lots = Facts(replies_sent=0, messages_received=500, human_corrections=9, read_rate=1.0)
    assert not decide(ELIGIBLE, NONE, lots).auto_eligible


@pytest.mark.parametrize(
    ("facts", "signals", "lane"),
    [
        (Facts(pinned_lane=Lane.PUSH, replies_sent=3), NONE, Lane.PUSH),
        (Facts(pinned_lane=Lane.INFO, replies_sent=3), NONE, Lane.INFO),
        (Facts(pinned_lane=Lane.SILENT, replies_sent=3), NONE, Lane.SILENT),
        (Facts(replies_sent=3), TRANS, Lane.INFO),
    ],
)
def test_auto_eligible_only_in_queue_or_meeting(facts: Facts, signals: Signals,
                                                lane: Lane) -> None:
    d = decide(ELIGIBLE, signals, facts)
    assert d.lane == lane
    assert not d.auto_eligible


def test_auto_eligible_through_a_pin_or_rule_to_queue() -> None:
    assert decide(ELIGIBLE, NONE, Facts(pinned_lane=Lane.QUEUE, replies_sent=1)).auto_eligible
    assert decide(ELIGIBLE, NONE, Facts(rule_lane=Lane.MEETING, replies_sent=1)).auto_eligible


# -- describe_policy ------------------------------------------------------------------------


def test_describe_policy_is_immutable() -> None:
    snap = describe_policy()
    assert isinstance(snap, MappingProxyType)
    with pytest.raises(TypeError):
        snap["version"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        snap["thresholds"]["min_confidence"] = 0.0  # type: ignore[index]
    assert isinstance(snap["branch_order"], tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        THRESHOLDS.min_confidence = 0.0  # type: ignore[misc]


def test_describe_policy_matches_the_running_defaults() -> None:
    snap = describe_policy()
    assert dict(snap["thresholds"]) == dataclasses.asdict(THRESHOLDS)
    assert snap["branch_order"] == BRANCH_ORDER
    assert snap["version"] == POLICY_VERSION == decide(feats(), NONE).policy_version
    # The values the issue asks for.
    expected = {
        "min_confidence": 0.5, "push_urgency": 0.7, "push_confidence": 0.7,
        "silent_max_trust": 0.2, "silent_max_urgency": 0.2, "silent_min_reversibility": 0.9,
        "info_max_urgency": 0.5, "auto_min_reversibility": 0.85, "auto_min_confidence": 0.85,
        "auto_max_urgency": 0.5, "auto_min_trust": 0.5, "auto_min_replies_sent": 1,
        "spam_engine_no_push": 6.0,  # rspamd's stock "add header" score (issue 22)
    }
    assert dict(snap["thresholds"]) == expected


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(Thresholds)])
def test_every_threshold_is_part_of_the_version(name: str) -> None:
    changed = dataclasses.replace(THRESHOLDS, **{name: getattr(THRESHOLDS, name) + 0.01})
    snap = describe_policy(changed)
    assert snap["version"] != POLICY_VERSION
    assert snap["thresholds"][name] == getattr(changed, name)
    assert decide(feats(), NONE, thresholds=changed).policy_version == snap["version"]


def test_decide_follows_the_thresholds_it_is_given() -> None:
    strict = Thresholds(min_confidence=0.9)
    assert decide(feats(c=0.8), NONE).branch == "queue"
    assert decide(feats(c=0.8), NONE, thresholds=strict).branch == "unsure"
    eager = Thresholds(push_urgency=0.3, push_confidence=0.3)
    assert decide(feats(c=0.6, u=0.3), NONE, thresholds=eager).lane == Lane.PUSH
    assert describe_policy(strict) == describe_policy(Thresholds(min_confidence=0.9))
    # The default snapshot does not move when another instance is described.
    assert describe_policy()["thresholds"]["min_confidence"] == 0.5


def test_string_lanes_in_facts_are_normalised() -> None:
    d = decide(feats(), NONE, Facts(rule_lane="PUSH"))  # type: ignore[arg-type]
    assert d.lane is Lane.PUSH
    assert d.as_dict()["lane"] == "PUSH"
    with pytest.raises(ValueError):
        Facts(pinned_lane="LOUD")  # type: ignore[arg-type]


# -- property-based -------------------------------------------------------------------------

unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
# Concentrate examples around every threshold, where mistakes live.
edges = st.sampled_from([0.0, 0.1, 0.2, 0.5, 0.7, 0.85, 0.9, 1.0]).flatmap(
    lambda x: st.sampled_from([x, max(0.0, x - JUST_BELOW), min(1.0, x + JUST_BELOW)])
)
score = st.one_of(unit, edges)
features = st.builds(Features, confidence=score, sender_trust=score, reversibility=score,
                     urgency=score)
signals = st.builds(Signals, **{f.name: st.booleans() for f in dataclasses.fields(Signals)})
lanes = st.none() | st.sampled_from(list(Lane))
facts = st.builds(
    Facts,
    pinned_lane=lanes,
    rule_lane=lanes,
    messages_received=st.integers(0, 50),
    replies_sent=st.integers(0, 3),
    human_corrections=st.integers(0, 5),
    read_rate=st.none() | unit,
    spam_score=st.none() | st.sampled_from([-2.0, 0.0, 5.99, 6.0, 15.0]) | st.floats(-5, 30),
)
raw_value: st.SearchStrategy[Any] = st.one_of(
    st.floats(),  # NaN and both infinities included
    st.integers(min_value=-(10**400), max_value=10**400),
    st.booleans(),
    st.text(max_size=5),
    st.none(),
    st.just([0.5]),
)


@PROPS
@given(raw=st.dictionaries(st.sampled_from(FEATURE_NAMES), raw_value), s=signals, fa=facts)
def test_no_feature_vector_ever_makes_decide_raise(raw: dict[str, Any], s: Signals,
                                                   fa: Facts) -> None:
    try:
        f = Features.from_raw(raw)
    except InvalidFeatures:
        return
    for name in FEATURE_NAMES:
        value = getattr(f, name)
        assert isinstance(value, float) and math.isfinite(value) and 0.0 <= value <= 1.0
    d = decide(f, s, fa)
    assert d.lane in set(Lane)
    assert d.branch in BRANCH_ORDER


low = st.one_of(st.floats(0.0, 0.5, exclude_max=True), st.just(0.5 - JUST_BELOW))
high_urgency = st.one_of(st.floats(0.7, 1.0), st.just(0.7))
enough_confidence = st.one_of(st.floats(0.5, 1.0), st.just(0.5))


@PROPS
@given(f=features, c=low, s=signals, fa=facts)
def test_low_confidence_never_hides_without_a_pin(f: Features, c: float, s: Signals,
                                                  fa: Facts) -> None:
    f = dataclasses.replace(f, confidence=c)
    fa = dataclasses.replace(fa, pinned_lane=None)
    assert decide(f, s, fa).lane not in HIDDEN_LANES


@PROPS
@given(f=features, u=high_urgency, c=enough_confidence, s=signals, fa=facts)
def test_urgent_mail_never_hides_under_any_facts(f: Features, u: float, c: float, s: Signals,
                                                 fa: Facts) -> None:
    f = dataclasses.replace(f, urgency=u, confidence=c)
    assert decide(f, s, fa).lane not in HIDDEN_LANES


@PROPS
@given(f=features, s=signals, fa=facts, rule=st.sampled_from(list(Lane)))
def test_a_learned_rule_never_yields_silent(f: Features, s: Signals, fa: Facts,
                                            rule: Lane) -> None:
    fa = dataclasses.replace(fa, pinned_lane=None, rule_lane=rule)
    d = decide(f, s, fa)
    if s.phishing:
        assert (d.lane, d.branch) == (Lane.QUEUE, "suspect")
    elif rule in {Lane.PUSH, Lane.QUEUE, Lane.MEETING}:
        pushed_anyway = rule is Lane.PUSH and (
            s.spam_verdict or s.auto_reply
            or ((s.unsolicited or s.cold_unsolicited or s.cold_pitch) and fa.replies_sent == 0)
            or (fa.spam_score is not None and fa.spam_score >= THRESHOLDS.spam_engine_no_push))
        assert (d.lane, d.branch) == (Lane.QUEUE if pushed_anyway else rule, "rule")
    else:
        assert d == decide(f, s, dataclasses.replace(fa, rule_lane=None))
        assert d.branch != "rule"


@PROPS
@given(f=features, s=signals, fa=facts)
def test_auto_eligible_implies_every_condition(f: Features, s: Signals, fa: Facts) -> None:
    d = decide(f, s, fa)
    if d.auto_eligible:
        assert d.lane in {Lane.QUEUE, Lane.MEETING}
        assert f.reversibility >= 0.85 and f.confidence >= 0.85
        assert f.urgency < 0.5 and f.sender_trust >= 0.5
        assert fa.replies_sent >= 1
        assert not (s.phishing or s.spam_verdict)


@PROPS
@given(f=features, s=signals, fa=facts)
def test_a_flagged_mail_is_never_push_never_auto_never_hidden_unless_pinned(
        f: Features, s: Signals, fa: Facts) -> None:
    s = dataclasses.replace(s, phishing=True)
    d = decide(f, s, fa)
    assert d.lane is not Lane.PUSH and not d.auto_eligible
    if fa.pinned_lane is None:
        assert d.lane is Lane.QUEUE


@PROPS
@given(f=features, s=signals, fa=facts)
def test_push_only_for_a_sender_nothing_speaks_against(f: Features, s: Signals,
                                                      fa: Facts) -> None:
    if decide(f, s, fa).lane is Lane.PUSH:
        assert not (s.phishing or s.spam_verdict or s.auto_reply)
        assert not (s.unsolicited or s.cold_unsolicited or s.cold_pitch) or fa.replies_sent >= 1
        assert fa.spam_score is None or fa.spam_score < THRESHOLDS.spam_engine_no_push


def reference_decide(f: Features, s: Signals, fa: Facts, t: Thresholds) -> tuple[Lane, str, bool]:
    """The table in docs/policy.md, read from describe_policy(t) rather than from `t`."""
    snap = describe_policy(t)["thresholds"]
    no_push = (s.phishing or s.spam_verdict
               or ((s.unsolicited or s.cold_unsolicited or s.cold_pitch) and fa.replies_sent == 0)
               or s.auto_reply
               or (fa.spam_score is not None and fa.spam_score >= snap["spam_engine_no_push"]))
    if fa.pinned_lane is not None:
        lane, branch = fa.pinned_lane, "pin"
    elif s.phishing:
        lane, branch = Lane.QUEUE, "suspect"
    elif fa.rule_lane in (Lane.PUSH, Lane.QUEUE, Lane.MEETING):
        lane, branch = fa.rule_lane, "rule"
    elif f.confidence < snap["min_confidence"]:
        lane, branch = Lane.QUEUE, "unsure"
    elif (f.urgency >= snap["push_urgency"] and f.confidence >= snap["push_confidence"]
          and not no_push):
        lane, branch = Lane.PUSH, "push"
    elif (f.sender_trust < snap["silent_max_trust"] and f.urgency < snap["silent_max_urgency"]
          and f.reversibility > snap["silent_min_reversibility"]):
        lane, branch = Lane.SILENT, "silent"
    elif s.scheduling and not (s.marketing or s.cold_pitch or no_push):
        lane, branch = Lane.MEETING, "meeting"
    elif ((s.transactional or s.list_discussion or s.auto_reply or s.marketing or s.cold_pitch)
          and f.urgency < snap["info_max_urgency"]):
        lane, branch = Lane.INFO, "info"
    else:
        lane, branch = Lane.QUEUE, "queue"
    if (lane in (Lane.INFO, Lane.SILENT) and f.urgency >= snap["push_urgency"]
            and f.confidence >= snap["min_confidence"]):
        lane = Lane.QUEUE
    if lane is Lane.PUSH and no_push:
        lane = Lane.QUEUE
    auto = (
        lane in (Lane.QUEUE, Lane.MEETING)
        and not (s.phishing or s.spam_verdict)
        and f.reversibility >= snap["auto_min_reversibility"]
        and f.confidence >= snap["auto_min_confidence"]
        and f.urgency < snap["auto_max_urgency"]
        and f.sender_trust >= snap["auto_min_trust"]
        and fa.replies_sent >= snap["auto_min_replies_sent"]
    )
    return lane, branch, auto


thresholds = st.builds(
    Thresholds,
    **{
        f.name: (st.integers(0, 3) if f.name == "auto_min_replies_sent"
                 else st.floats(-5, 30) if f.name == "spam_engine_no_push" else unit)
        for f in dataclasses.fields(Thresholds)
    },
)


@settings(max_examples=500, deadline=None)
@given(f=features, s=signals, fa=facts, t=st.one_of(st.just(THRESHOLDS), thresholds))
def test_decide_is_exactly_the_described_policy(f: Features, s: Signals, fa: Facts,
                                                t: Thresholds) -> None:
    d = decide(f, s, fa, t)
    assert (d.lane, d.branch, d.auto_eligible) == reference_decide(f, s, fa, t)
    assert d.policy_version == describe_policy(t)["version"]
