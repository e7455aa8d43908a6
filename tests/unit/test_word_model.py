"""The word model of urgency (core/word_model.py) and how the local scorer uses it."""

from __future__ import annotations

import math
from email.message import EmailMessage

import pytest

from mailmoat.core import word_model
from mailmoat.core.local_scorer import _second_reading
from mailmoat.core.message import parse_message
from mailmoat.core.signals import Signals
from mailmoat.core.word_model import (
    PROMOTE_AT,
    PROMOTE_MIN_KNOWN,
    QUIET_VETO_AT,
    RAISE_AT,
    READ_CHARS,
    VETO_AT,
    VETO_MIN_KNOWN,
    Reading,
    read_urgency,
    terms,
)
from mailmoat.core.word_weights import BIAS, WEIGHTS
from mailmoat.judge.cascade import classify
from tests.conftest import bench_script


def _mail(subject: str, body: str, sender: str = "Dana Pike <dana@pike-works.example>",
          headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "Sam Reyes <sam@reyes-home.example>"
    mail["Subject"] = subject
    for name, value in (headers or {}).items():
        mail[name] = value
    mail.set_content(body)
    return parse_message(mail.as_bytes())


def test_terms_are_words_of_two_letters_and_adjacent_pairs() -> None:
    assert terms("kiln 2 is over temperature") == {
        "kiln", "is", "over", "temperature", "kiln is", "is over", "over temperature"}


def test_terms_read_only_the_first_read_chars() -> None:
    text = "calm " * (READ_CHARS // 5) + "explosion"
    assert "explosion" not in terms(text)
    assert "explosion" in terms(text[-40:])


def test_reading_is_the_logistic_of_the_idf_weighted_sum() -> None:
    said = "the kiln is over temperature and the burner will not shut off"
    known = [WEIGHTS[t] for t in terms(said) if t in WEIGHTS]
    assert known, "the sample text should hold known terms"
    z = BIAS + sum(w for w, _ in known) / math.sqrt(sum(i for _, i in known))
    reading = read_urgency(said)
    assert reading.known == len(known)
    assert reading.urgent == pytest.approx(1 / (1 + math.exp(-z)))


def test_a_text_with_no_known_term_gets_the_prior() -> None:
    reading = read_urgency("qqzv xxyzzq")
    assert reading == Reading(pytest.approx(1 / (1 + math.exp(-BIAS))), 0)
    assert reading.urgent < 0.5  # most mail is not urgent


def test_the_weights_are_a_trained_model() -> None:
    assert len(WEIGHTS) >= 1000
    assert all(math.isfinite(w) and i >= 1.0 for w, i in WEIGHTS.values())  # idf >= 1
    assert math.isfinite(BIAS)


def test_the_model_reads_trouble_and_a_pitch_apart() -> None:
    trouble = read_urgency("the kiln at line 2\nkiln 2 is over temperature and the burner "
                           "will not shut off from the panel. dave is on the floor with it "
                           "now. please come down.")
    pitch = read_urgency("brightwell + shipwise\ntom, i'll keep this short. we help 3pls like "
                         "brightwell reduce empty miles by 18% on average. three questions: "
                         "are you tracking empty running today? who owns route optimisation? "
                         "if yes to any, i'll send a calendar link.")
    assert trouble.urgent >= PROMOTE_AT
    assert pitch.urgent <= VETO_AT and pitch.known >= VETO_MIN_KNOWN


def _training_script():  # type: ignore[no-untyped-def]
    return bench_script("train_word_model")


def test_training_cuts_text_with_the_models_own_terms() -> None:
    assert _training_script().terms is word_model.terms


def test_training_never_sees_a_set_registered_never_tuned() -> None:
    from mailmoat.eval.judgement import labelled_sets
    from mailmoat.services.eval_report import set_kind

    never = {p.name for p in labelled_sets() if set_kind(p.name) == "never tuned"}
    used = {p.name for p in _training_script().training_sets()}
    assert never, "the never-tuned pool should not be empty"
    assert used and not used & never
    assert "dev-set.json" in used


URGENT, CALM = 0.85, 0.15


@pytest.mark.parametrize(("urgency", "why", "reading", "signals", "expected"), [
    # the veto: the rules read urgency, the model rules it out having read enough
    (URGENT, "explicit urgency", Reading(0.01, VETO_MIN_KNOWN), Signals(), 0.5),
    (URGENT, "explicit urgency", Reading(0.01, VETO_MIN_KNOWN - 1), Signals(), URGENT),
    (URGENT, "explicit urgency", Reading(VETO_AT + 0.01, 80), Signals(), URGENT),
    # whether a security notice is real is for the sender evidence to say, not the words
    (URGENT, "explicit urgency", Reading(0.01, 80), Signals(security_alert=True), URGENT),
    # the promotion: the model reads urgency where the rules read nothing
    (CALM, "", Reading(PROMOTE_AT, PROMOTE_MIN_KNOWN), Signals(), 0.8),
    (CALM, "", Reading(PROMOTE_AT, PROMOTE_MIN_KNOWN - 1), Signals(), CALM),
    (CALM, "", Reading(PROMOTE_AT - 0.01, 30), Signals(), CALM),
    # ... not where the rules read something and judged it ("a status notice that the
    # trouble is over", urgent wording for another day)
    (0.3, "a status notice that the trouble is over", Reading(0.99, 30), Signals(), 0.3),
    (0.5, "urgent wording for another day", Reading(0.99, 30), Signals(), 0.5),
    # the raise: the rules read a near time alone, the model reads urgency at RAISE_AT
    (0.5, "automated reminder", Reading(RAISE_AT, PROMOTE_MIN_KNOWN), Signals(), 0.8),
    (0.5, "some time pressure", Reading(RAISE_AT, PROMOTE_MIN_KNOWN), Signals(), 0.8),
    (0.5, "some time pressure", Reading(RAISE_AT - 0.01, 80), Signals(), 0.5),
    (0.5, "some time pressure", Reading(0.99, PROMOTE_MIN_KNOWN - 1), Signals(), 0.5),
    (0.5, "some time pressure", Reading(0.99, 30), Signals(security_alert=True), 0.5),
    (0.5, "some time pressure", Reading(0.99, 30), Signals(list_discussion=True), 0.5),
    (0.5, "automated reminder", Reading(0.99, 30), Signals(cold_unsolicited=True), 0.5),
    (0.5, "some time pressure", Reading(0.99, 30), Signals(marketing=True), 0.5),
    (CALM, "", Reading(0.99, 30), Signals(marketing=True), CALM),
    (CALM, "", Reading(0.99, 30), Signals(list_discussion=True), CALM),
    (CALM, "", Reading(0.99, 30), Signals(cold_unsolicited=True), CALM),
    (CALM, "", Reading(0.99, 30), Signals(cold_pitch=True), CALM),
    (CALM, "", Reading(0.99, 30), Signals(unsolicited=True), CALM),
])
def test_second_reading_acts_only_at_the_far_ends(
        urgency: float, why: str, reading: Reading, signals: Signals, expected: float) -> None:
    assert _second_reading(urgency, why, lambda: reading, signals, False)[0] == expected


def test_mail_that_says_it_needs_no_action_is_vetoed_at_lower_odds() -> None:
    # odds that lean against urgency veto only where the mail says it can wait
    lean = Reading(QUIET_VETO_AT, VETO_MIN_KNOWN)
    assert VETO_AT < QUIET_VETO_AT
    assert _second_reading(URGENT, "explicit urgency", lambda: lean, Signals(), True)[0] == 0.5
    assert _second_reading(URGENT, "explicit urgency", lambda: lean, Signals(), False)[0] == (
        URGENT)
    assert _second_reading(URGENT, "explicit urgency", lambda: Reading(QUIET_VETO_AT + 0.01, 80),
                           Signals(), True)[0] == URGENT
    assert _second_reading(URGENT, "explicit urgency", lambda: Reading(0.01, VETO_MIN_KNOWN - 1),
                           Signals(), True)[0] == URGENT
    assert _second_reading(URGENT, "explicit urgency", lambda: lean,
                           Signals(security_alert=True), True)[0] == URGENT


def test_an_fyi_about_urgency_already_dealt_with_is_not_pushed() -> None:
    """'Urgent tickets ... have been answered. Nothing for you to do.': the rules read the
    urgent word, the mail says there is nothing to do, and the model leans against urgency
    (above VETO_AT): queued, the model named."""
    trace = classify(_mail("Server room outage last night - all back (FYI)",
                           "Hi team,\n\nJust so you know: the server room lost cooling at 02:00 "
                           "and two hosts shut down. Everything was back by 04:30 and the "
                           "backups ran. Urgent tickets from overnight have been answered."
                           "\n\nNothing for you to do.\n\nLee",
                           sender="Lee Park <lee@reyes-home.example>"))
    assert trace.decision.lane.value == "QUEUE"
    assert "but the word model reads no urgency" in trace.scorer_reason


def test_no_promotion_for_mail_that_says_it_can_wait() -> None:
    assert _second_reading(CALM, "", lambda: Reading(0.99, 30), Signals(), True)[0] == CALM
    assert _second_reading(0.5, "some time pressure", lambda: Reading(0.99, 30), Signals(),
                           True)[0] == 0.5


def test_the_model_is_read_only_when_it_may_act() -> None:
    def never() -> Reading:
        raise AssertionError("read")

    assert _second_reading(CALM, "", never, Signals(marketing=True), False)[0] == CALM
    assert _second_reading(URGENT, "x", never, Signals(security_alert=True), False)[0] == URGENT


def test_trouble_the_rules_miss_is_pushed_with_the_model_named() -> None:
    trace = classify(_mail("The kiln at line 2", "Kiln 2 is over temperature and the burner "
                           "will not shut off from the panel. Dave is on the floor with it "
                           "now. Please come down."))
    assert trace.decision.lane.value == "PUSH"
    assert "the word model reads urgency" in trace.scorer_reason


_POUR = ("Concrete pour tomorrow - cement still not here",
         "Sam,\n\nIt's 2:15 now. Your counter told me this morning the truck with the 80 bags "
         "would be on site by 1 at the latest. The pump is booked for 7 tomorrow morning and "
         "the crew is already paid for. If the cement isn't here by 5 we lose the pour and the "
         "pump deposit.\n\nDana")


def test_a_near_time_the_model_reads_as_urgent_is_raised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules read a near time alone in a builder's complaint (no ask, no trouble word
    they know); the model reads the words around it as urgent: PUSH, both named."""
    trace = classify(_mail(*_POUR))
    assert trace.decision.lane.value == "PUSH"
    assert trace.scorer_reason.startswith("some time pressure; the word model reads urgency")
    # ... and with a model that reads it below RAISE_AT, the rules' reading stands
    import mailmoat.core.local_scorer as local_scorer
    monkeypatch.setattr(local_scorer, "read_urgency", lambda text: Reading(RAISE_AT - 0.01, 50))
    assert classify(_mail(*_POUR)).decision.lane.value == "QUEUE"


def test_a_short_urgent_notice_is_not_overruled() -> None:
    """Two lines are too few words for the model to overrule the rules (Klorn's "Action
    required: confirm your interview slot", which the model alone would not push)."""
    trace = classify(_mail("Action required: confirm your interview slot",
                           "Please confirm your interview time within 24 hours.",
                           sender="Y Combinator <partner@ycombinator.com>"))
    assert trace.decision.lane.value == "PUSH"
    assert "word model" not in trace.scorer_reason


def test_a_phished_mail_the_model_reads_as_urgent_is_never_pushed() -> None:
    """The model only moves urgency: the policy's guards still stand before PUSH."""
    trace = classify(_mail(
        "The kiln at line 2", "Kiln 2 is over temperature and the burner will not shut off "
        "from the panel. Dave is on the floor with it now. Please come down.",
        sender="Line 2 <alerts@kiln-monitor.example>",
        headers={"Authentication-Results": "mx.example; spf=fail smtp.mailfrom=kiln-monitor."
                 "example; dkim=fail; dmarc=fail header.from=kiln-monitor.example",
                 "X-Spam-Flag": "YES"}))
    assert trace.decision.lane.value != "PUSH"
