"""Sender evidence and the phishing/scam flag (core/evidence.py), urgency in scope
(core/signals.py own_words / in_scope), and the claim PH-1: a phishing mail cannot reach
PUSH or AUTO, whatever its wording, facts or pins."""

from __future__ import annotations

import dataclasses

import pytest
import re2  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.core.evidence import junk_marks, read_evidence, registrable
from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import score_local
from mailmoat.core.message import parse_message
from mailmoat.core.patterns import matcher
from mailmoat.core.policy import Facts
from mailmoat.core.signals import detect_signals, in_scope, own_words
from mailmoat.judge.cascade import classify

ME = "Dana Kim <dana@acme-corp.com>"


def mail(sender: str, subject: str, body: str, *, to: str = ME, html: str | None = None,
         **headers: str) -> bytes:
    lines = [f"From: {sender}", f"To: {to}", f"Subject: {subject}",
             "Message-ID: <m1@example.org>"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    if html is None:
        return ("\n".join([*lines, "Content-Type: text/plain; charset=utf-8", "", body])
                ).encode()
    return ("\n".join([*lines, "MIME-Version: 1.0",
                       'Content-Type: multipart/alternative; boundary="b"', "", "--b",
                       "Content-Type: text/plain", "", body, "--b", "Content-Type: text/html",
                       "", html, "--b--", ""])).encode()


def ev(raw: bytes):  # type: ignore[no-untyped-def]
    return read_evidence(parse_message(raw))


FAIL = "mx.acme-corp.com; spf=fail smtp.mailfrom=paypal.com; dkim=none; dmarc=fail"


# -- receipt evidence ------------------------------------------------------------------------


def test_authentication_results_are_read_from_the_topmost_header() -> None:
    # The receiving server prepends its header; one the sender wrote sits below it.
    raw = (f"Authentication-Results: {FAIL}\n".encode()
           + mail("PayPal <service@paypal.com>", "Hi", "hello",
                  Authentication_Results="forged; spf=pass; dkim=pass; dmarc=pass"))
    e = ev(raw)
    assert (e.spf, e.dkim, e.dmarc) == ("fail", "none", "fail")
    assert e.auth_failed
    # ARC's copy is read when there is no Authentication-Results at all.
    arc = mail("a <a@b.com>", "Hi", "x", ARC_Authentication_Results="i=1; mx; dmarc=pass")
    assert ev(arc).dmarc == "pass"


@pytest.mark.parametrize(("name", "value", "spam"), [
    ("X-Spam-Flag", "YES", True), ("X-Spam-Status", "Yes, score=9.1", True),
    ("X-Spam-Status", "No, score=-1.0", False), ("X-Rspamd-Action", "add header", True),
    ("X-Rspamd-Action", "no action", False), ("X-Spam", "yes", True),
])
def test_the_servers_spam_verdict(name: str, value: str, spam: bool) -> None:
    raw = mail("a <a@b.com>", "Hi", "x").replace(b"Subject:", f"{name}: {value}\nSubject:"
                                                  .encode())
    message = parse_message(raw)
    assert read_evidence(message).server_spam is spam
    assert detect_signals(message).spam_verdict is spam


def test_junk_keywords_and_folders_become_labels() -> None:
    assert junk_marks(("\\Seen", "$Junk"), "INBOX") == ("$Junk",)
    assert junk_marks((), "INBOX/Junk") == ("\\Junk",)
    assert junk_marks((), "[Gmail].Spam") == ("\\Junk",)
    assert junk_marks(("\\Seen",), "INBOX") == ()
    message = parse_message(mail("a <a@b.com>", "Hi", "x"), labels=junk_marks((), "Junk"))
    assert read_evidence(message).server_spam


def test_same_organisation_needs_an_authenticated_match() -> None:
    plain = mail("Priya <priya@acme-corp.com>", "Hi", "x")
    assert not ev(plain).same_org  # To and From are the sender's to write
    signed = mail("Priya <priya@eu.acme-corp.com>", "Hi", "x",
                  Authentication_Results="mx; spf=pass; dkim=pass; dmarc=pass")
    assert ev(signed).same_org
    gmail = mail("Jo <jo@gmail.com>", "Hi", "x", to="me@gmail.com",
                 Authentication_Results="mx; dmarc=pass")
    assert not ev(gmail).same_org  # a public domain is not an organisation


def test_registrable_domain() -> None:
    assert registrable("mail.news.example.co.uk") == "example.co.uk"
    assert registrable("em.dell.com") == "dell.com"
    assert registrable("naver.com") == "naver.com"


# -- the phishing flag: several independent shapes ------------------------------------------


@pytest.mark.parametrize(("sender", "body", "reason"), [
    ("PayPal <service@paypa1-secure.com>", "hello", "look-alike domain of paypal"),
    ("Support <help@rnicrosoft-login.com>", "hello", "look-alike domain of microsoft"),
    ("Netflix <info@billing-center.com>", "hello", "display name claims netflix"),
    ("KB국민은행 <kb@kb-verify.com>", "hello", "display name claims 국민은행"),
])
def test_strong_sender_shapes_flag_on_their_own(sender: str, body: str, reason: str) -> None:
    e = ev(mail(sender, "Notice", body))
    assert e.flagged
    assert any(reason in r for r in e.reasons())


def test_a_brand_that_fails_dmarc_is_flagged() -> None:
    e = ev(mail("Apple <appleid@apple.com>", "Locked", "hello",
                Authentication_Results=FAIL))
    assert e.flagged and any("fails DMARC" in r for r in e.reasons())
    # The same mail passing authentication from the brand's own domain is not.
    ok = ev(mail("Apple <appleid@apple.com>", "Locked", "hello",
                 Authentication_Results="mx; spf=pass; dkim=pass; dmarc=pass"))
    assert not ok.flagged


def test_link_text_naming_one_domain_and_pointing_at_another() -> None:
    html = '<p>Sign in at <a href="https://wf-verify.example.net/x">www.wellsfargo.com</a></p>'
    e = ev(mail("Bank <notice@bank-notices.com>", "Restricted", "see html", html=html))
    assert any("link text names wellsfargo.com but points at example.net" in r
               for r in e.reasons())
    assert e.flagged


def test_credential_request_with_a_link_elsewhere() -> None:
    body = "Please verify your account within 24 hours: https://secure-check.net/login"
    e = ev(mail("IT <it@acme-corp.com>", "Mailbox", body))
    assert e.flagged and any("credential request with a link" in r for r in e.reasons())
    # The same words linking to the sender's own domain are one shape, not a flag.
    own = ev(mail("IT <it@acme-corp.com>", "Mailbox",
                  "Please verify your account: https://sso.acme-corp.com/login"))
    assert not own.flagged and own.weight == 1


def test_weak_shapes_flag_only_together() -> None:
    one = ev(mail("Lotto <claims@lotto-winners.com>", "Hello", "You have won the jackpot."))
    assert not one.flagged
    two = ev(mail("Lotto <claims@lotto-winners.xyz>", "Hello", "You have won the jackpot."))
    assert two.flagged  # + abused TLD
    three = ev(mail("Mr. Okoye <okoye.bank@gmail.com>", "Proposal",
                    "I need a foreign partner; you will receive 40% of USD 12,500,000."))
    assert three.flagged  # money talk + free mail posing as an institution


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("DHL <noreply@dhl.com>", "Delivered", "Your parcel was delivered today."),
    ("Google <no-reply@accounts.google.com>", "Security alert",
     "New sign-in on Mac. If this was you, you don't need to do anything."),
    ("Priya Raman <priya@acme-corp.com>", "Prod is down",
     "Checkout returns 500s. Can you join the bridge now? https://meet.google.com/abc"),
    ("Amazon <store-news@amazon.de>", "Deals", "Top deals, up to 35% off."),
])
def test_real_mail_from_real_domains_is_not_flagged(sender: str, subject: str,
                                                    body: str) -> None:
    assert not ev(mail(sender, subject, body)).flagged


def test_documentation_domains_are_not_judged_by_brand() -> None:
    # Scrubbed data sets replace domains with *.example: that says nothing about a sender.
    assert not ev(mail("LinkedIn <messages@domain-1.example>", "News", "x")).flagged


# -- urgency in scope --------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "nothing urgent, just sharing", "this is not urgent", "no rush at all",
    "for urgent matters contact my assistant", "if anything is urgent, ping noah",
    "in case of emergency call the desk", "urgent questions please contact finance",
    "긴급한 문의는 당직자에게", "급하지 않습니다",
    "for anything urgent regarding transport after 10 pm, call the desk",
    "if this is a system-down emergency, please call 1-800-555-0137",
])
def test_negated_and_conditional_urgency_is_out_of_scope(text: str) -> None:
    scoped = in_scope(text.encode())
    for word in (b"urgent", b"emergency", "긴급".encode(), "급하".encode()):
        assert word not in scoped or text.startswith("no rush")


@pytest.mark.parametrize("text", [
    "only ring me if the shed's on fire.", "call me if there's a flood in the cellar.",
    "text us unless the power is out at the depot.",
])
def test_when_to_ring_the_sender_is_a_condition_not_an_event(text: str) -> None:
    scoped = in_scope(text.encode())
    for word in (b"fire", b"flood", b"power is out"):
        assert word not in scoped, scoped


def test_explicit_urgency_stays_in_scope() -> None:
    assert in_scope(b"this is urgent, the site is down") == b"this is urgent, the site is down"


def test_quotes_signatures_and_footers_are_not_the_senders_words() -> None:
    body = "Forwarding for context.\n\n> On Mon, Carlos wrote:\n> URGENT: reply now!"
    assert own_words(body) == "Forwarding for context.\n\n"
    assert "urgent" not in own_words("Done.\n--\nCarlos\nFor urgent matters call").lower()
    assert own_words("Thanks\n\nSent from my iPhone") == "Thanks\n\n"


def test_a_sign_off_line_ends_the_senders_words() -> None:
    # what follows a sign-off on a line of its own is the signature ("bis Samstag" is the
    # guest's stay, not a day to act by)
    body = "Wasser tropft aus der Lampe. Was sollen wir tun?\n\nViele Grüße\nTom\n(bis Samstag)"
    assert own_words(body) == "Wasser tropft aus der Lampe. Was sollen wir tun?\n\n"
    assert own_words("Call me.\n\nKind regards,\nAl\nOn leave Friday") == "Call me.\n\n"
    # a sign-off inside a sentence is no signature
    assert "Friday" in own_words("Best regards to Jo; she is back Friday.")


def test_the_senders_words_go_on_below_a_forward_they_closed() -> None:
    body = ("Forwarding the engineer's note.\n\n----- Forwarded message -----\nFrom: CE\n"
            "Hoses burst at 13:20.\n-----\n\nCan you deliver them by 20:00?\nRegards,\nG")
    own = own_words(body)
    assert "Can you deliver them by 20:00?" in own and "Hoses burst" not in own
    # an open forward (nothing closes it) still ends the sender's words
    assert own_words("See below.\n---------- Forwarded message ----------\nFrom: X\nHi") \
        == "See below.\n"


def test_quoted_urgency_does_not_push() -> None:
    raw = mail("Sophie <sophie@acme-corp.com>", "Fwd: quote",
               "Forwarding for context, nothing needed.\n\n> On Mon, Carlos wrote:\n"
               "> URGENT: the client needs the quote today! Respond immediately.")
    assert classify(parse_message(raw)).decision.lane is not Lane.PUSH


@pytest.mark.parametrize("headers", [
    {"Auto_Submitted": "auto-replied"}, {"X_Autoreply": "yes"}, {},
])
def test_auto_replies_never_push(headers: dict[str, str]) -> None:
    raw = mail("Rachel <rachel@law.example.com>", "Automatic reply: URGENT filing",
               "I am out of the office until Monday. For urgent matters call my assistant "
               "immediately.", **headers)
    trace = classify(parse_message(raw))
    assert trace.signals.auto_reply
    assert trace.decision.lane is not Lane.PUSH


def test_a_list_reply_is_a_visible_record_and_a_newsletter_is_not() -> None:
    reply = mail("Martin <m@pg.example.org>", "Re: [pgsql] vacuum",
                 "No - long transactions block vacuum. Check pg_stat_activity.",
                 List_Id="<pgsql-general.lists.postgresql.org>", Precedence="list")
    trace = classify(parse_message(reply))
    assert trace.signals.list_discussion and trace.decision.lane is Lane.INFO
    promo = mail("Shop <news@mail.shop.com>", "50% off sale", "Shop now, limited time deals.",
                 List_Id="<news.shop.com>", List_Unsubscribe="<https://shop.com/u>")
    assert classify(parse_message(promo)).decision.lane is Lane.SILENT


def test_a_bare_question_mark_is_not_a_direct_ask() -> None:
    promo = parse_message(mail("HubSpot <team@hubspot.example.com>",
                               "Are you making these 5 sales mistakes?", "Download the ebook."))
    assert not detect_signals(promo).personal
    ask = parse_message(mail("Jake <jake@friends.example.com>", "Saturday",
                             "Hey, are you up for climbing on Saturday?"))
    assert detect_signals(ask).personal


def test_the_matcher_agrees_with_the_binding() -> None:
    pattern = r"\b(?:urgent|asap)\b|긴급"
    ours, theirs = matcher(pattern), re2.compile(pattern)
    for text in ("urgent", "not urgently", "긴급 공지", "", "asap!", "nothing"):
        data = text.encode()
        assert ours.search(data) == (theirs.search(data) is not None)


# -- PH-1: a phishing mail cannot reach PUSH or AUTO -------------------------------------------

PHISH = mail("PayPal Security <j.smith@paypa1-secure.com>",
             "URGENT: Verify your account within 1 hour to prevent suspension",
             "Action required immediately: your account is suspended. Verify your identity "
             "now: https://paypa1-secure.com/verify", Authentication_Results=FAIL)


# The same lure with no link: the scorer's own rule (an account asked for behind a link is a
# lure's script, urgency 0.5) does not apply, so the flag alone keeps it out of PUSH.
PHISH_NO_LINK = mail("PayPal Security <j.smith@paypa1-secure.com>",
                     "URGENT: Verify your account within 1 hour to prevent suspension",
                     "Action required immediately: your account is suspended. Verify your "
                     "identity now by replying with your password.",
                     Authentication_Results=FAIL)


def test_ph1_an_urgent_phishing_mail_is_queued_not_pushed() -> None:
    trace = classify(parse_message(PHISH_NO_LINK))
    assert trace.features.urgency >= 0.7  # it is worded as urgent ...
    assert trace.decision.lane is Lane.QUEUE  # ... and still not pushed, nor hidden
    assert trace.decision.branch == "suspect"
    assert not trace.decision.auto_eligible
    assert trace.evidence["phishing_flag"] and trace.evidence["phishing_reasons"]
    assert trace.as_dict()["evidence"]["phishing_reasons"]


@settings(max_examples=150, deadline=None)
@given(pin=st.none() | st.sampled_from(list(Lane)), rule=st.none() | st.sampled_from(list(Lane)),
       replies=st.integers(0, 50), score=st.none() | st.floats(-10, 30))
def test_ph1_no_facts_make_a_phishing_mail_push_or_auto(pin: Lane | None, rule: Lane | None,
                                                        replies: int,
                                                        score: float | None) -> None:
    facts = Facts(pinned_lane=pin, rule_lane=rule, replies_sent=replies, messages_received=99,
                  spam_score=score)
    decision = classify(parse_message(PHISH), facts).decision
    assert decision.lane is not Lane.PUSH
    assert not decision.auto_eligible


def test_ph1_a_model_saying_urgent_and_trusted_cannot_push_a_flagged_mail() -> None:
    from mailmoat.core.features import Features
    from mailmoat.core.local_scorer import Scored

    class Fooled:
        name = "fooled"

        def score(self, message, signals, facts):  # type: ignore[no-untyped-def]
            return Scored(Features(confidence=1.0, sender_trust=1.0, reversibility=1.0,
                                   urgency=1.0), "model says urgent", "llm:fooled")

    trace = classify(parse_message(PHISH), Facts(replies_sent=5), scorers=[Fooled()])
    assert trace.source == "llm:fooled"
    assert trace.decision.lane is Lane.QUEUE and not trace.decision.auto_eligible


def test_scorer_sees_the_flag_as_low_trust() -> None:
    message = parse_message(PHISH)
    signals = detect_signals(message)
    assert signals.phishing
    assert score_local(message, signals).features.sender_trust <= 0.1
    assert dataclasses.replace(signals, phishing=False) != signals


# -- cold contacts (issue 22: spam written as a person) --------------------------------------

COLD = ("Pat Lee <pat@orbit-ventures.com>", "Urgent: please call me today",
        "Dear Friend,\nI need your help urgently. Please call me today.\nPat")


def test_one_bulk_shape_in_a_cold_mail_keeps_a_stranger_out_of_push() -> None:
    e = ev(mail(*COLD))
    assert e.unsolicited and not e.spam_shaped and e.cold_unsolicited
    assert "a greeting that names no one" in e.as_dict()["spam_reasons"]
    trace = classify(parse_message(mail(*COLD)))
    assert trace.decision.lane is Lane.QUEUE  # visible, never hidden
    assert trace.signals.cold_unsolicited and trace.evidence["cold_unsolicited"]
    # History the mail cannot author lifts it: someone the user has written to pushes.
    assert classify(parse_message(mail(*COLD)), Facts(replies_sent=2)).decision.lane is Lane.PUSH


def test_the_same_words_answering_a_thread_or_naming_the_reader_still_push() -> None:
    threaded = mail(*COLD, In_Reply_To="<earlier@acme-corp.com>")
    assert not ev(threaded).cold_unsolicited
    assert classify(parse_message(threaded)).decision.lane is Lane.PUSH
    named = mail(COLD[0], COLD[1], COLD[2].replace("Dear Friend", "Dear Dana"))
    assert not ev(named).unsolicited
    assert classify(parse_message(named)).decision.lane is Lane.PUSH


def test_replies_to_another_domain_is_a_shape_but_not_on_a_list() -> None:
    raw = mail("Pat <pat@orbit-ventures.com>", "Hello", "See you.",
               Reply_To="deals@other-example-shop.com")
    assert "replies go to another domain" in ev(raw).as_dict()["spam_reasons"]
    listed = mail("Pat <pat@orbit-ventures.com>", "Hello", "See you.",
                  Reply_To="team@lists.other-example.org", List_Id="<team.lists.other-example.org>")
    assert "replies go to another domain" not in ev(listed).as_dict()["spam_reasons"]
    same = mail("Pat <pat@orbit-ventures.com>", "Hello", "x", Reply_To="p@mail.orbit-ventures.com")
    assert not ev(same).unsolicited


def test_a_mail_built_from_fields_with_no_recipients_is_not_sent_to_itself() -> None:
    from mailmoat.core.message import Message

    e = read_evidence(Message(from_addr="kelly@bigcustomer.com", from_name="Kelly",
                              subject="Production is down", body_text="Need help now."))
    assert not any("its own address" in r for r in e.as_dict()["spam_reasons"])  # type: ignore[union-attr]


def test_an_opt_out_line_with_no_list_headers_is_a_bulk_shape() -> None:
    body = "Pat here. Can you call me today about the offer?\n\nYou can unsubscribe at any time."
    raw = mail("Pat Lee <pat@orbit-ventures.com>", "Your options", body)
    assert "an opt-out line with no list headers" in ev(raw).as_dict()["spam_reasons"]
    assert classify(parse_message(raw)).decision.lane is Lane.QUEUE  # a stranger: no PUSH
    # A list or a bulk sender that writes its headers: the line has something behind it.
    listed = mail("Pat Lee <pat@orbit-ventures.com>", "Your options", body,
                  List_Id="<news.orbit-ventures.com>")
    assert "an opt-out line with no list headers" not in ev(listed).as_dict()["spam_reasons"]
    plain = mail("Pat Lee <pat@orbit-ventures.com>", "Your options", body.split("\n\n")[0])
    assert not ev(plain).unsolicited


@pytest.mark.parametrize("line", [
    "To stop receiving these emails click here.",
    "If you no longer wish to receive our offers, reply STOP.",
    "Pour ne plus recevoir nos offres, répondez STOP.",
    "Si no desea recibir más comunicaciones, responda con BAJA.",
    "Para deixar de a receber, clique aqui.",
    "Afmelden voor deze nieuwsbrief? Stuur ons een mail.",
    "Medicalstore – cancellati dalla newsletter",
    "Για διαγραφή απαντήστε ΔΙΑΓΡΑΦΗ.",
    "Harpidetza kentzeko, sakatu hemen.",
    "Aby wypisać się z listy, kliknij tutaj.",
])
def test_an_opt_out_line_in_more_words_is_a_bulk_shape(line: str) -> None:
    body = f"Autumn offer: 25% off all trolleys until 31 October.\n\n{line}"
    raw = mail("Anna Costa <anna@medshop-pro.example>", "25% off trolleys", body)
    assert "an opt-out line with no list headers" in ev(raw).as_dict()["spam_reasons"]


@pytest.mark.parametrize("line", ["If you wish to be taken off our list, write to us.",
                                  "Reply and you will be removed from our mailing list.",
                                  "To be deleted from this database send a blank mail."])
def test_removal_instructions_are_an_unsolicited_mail_disclaimer(line: str) -> None:
    raw = mail("Pat Lee <pat@orbit-ventures.com>", "Your options", f"Hello.\n\n{line}")
    assert "an unsolicited-mail disclaimer" in ev(raw).as_dict()["spam_reasons"]


def test_a_feed_robot_is_an_automated_sender() -> None:
    """An RSS-to-mail feed forwards headlines; their urgent words are the news', not the
    reader's (issue 22: news items were most of the corpus ham in PUSH)."""
    item = ("Critical satellites could be hacked", "A critical flaw was found today.\n"
            "http://news.example.org/item/1")
    for sender in ("rssfeeds@news.example.org", "feeds@news.example.org"):
        raw = mail(f"<{sender}>", *item)
        assert detect_signals(parse_message(raw)).automated_sender
        assert classify(parse_message(raw)).decision.lane is not Lane.PUSH
    person = mail("Ann Lee <ann@news.example.org>", *item)
    assert not detect_signals(parse_message(person)).automated_sender


def test_a_services_alert_with_an_opt_out_line_still_pushes() -> None:
    """Notices from a service's robot address carry an opt-out line, often with no list
    headers (mail built from fields has none): not the bulk shape, so an outage pushes."""
    raw = mail("Acme Monitoring <alerts@acme-monitor.com>", "Production API is down",
               "The checkout API is down since 09:12. Please respond immediately.\n\n"
               "Manage notification preferences or unsubscribe: https://acme-monitor.com/p")
    assert not ev(raw).unsolicited
    assert classify(parse_message(raw)).decision.lane is Lane.PUSH


def test_a_stranger_touting_a_penny_stock_does_not_push() -> None:
    # A stock pump shouts "URGENT BUY" at strangers; the touting is an unsolicited shape, so
    # the urgency of a sender the user never wrote to does not interrupt.
    body = ("HOT PICK OF THE YEAR\nAcme Drilling Corp. (OTCBB: ACDR)\nURGENT BUY: $ .17\n"
            "We target serious gains with a 700% investment return.")
    raw = mail("Shanelle <kqpfs@switzerland.example>", "This stock rumored to fly", body)
    evidence = ev(raw)
    assert "money or offer bait" in [r.partition(":")[2] for r in evidence.unsolicited]
    assert classify(parse_message(raw)).decision.lane is not Lane.PUSH
    calm = ev(mail("Priya <priya@acme-corp.com>", "Q3 numbers",
                   "Our stock price held up this quarter; see the board deck."))
    assert not calm.unsolicited
    # "work from home" in Korean is the same bait; a clock time ("make 8:30") is none
    side_job = ev(mail("리뷰알바 <job@sidejob-team.example>", "재택부업 안내",
                       "하루 30분 재택 부업, 일당 10만원 지급."))
    assert "money or offer bait" in [r.partition(":")[2] for r in side_job.unsolicited]
    late = ev(mail("Ines <ines@mora-dental.example>", "late", "I won't make 8:30, sorry."))
    assert not late.unsolicited
    tips = ev(mail("VIP 주식연구소 <vip@freemail.example>", "[무료초대] 리딩방",
                   "지난달 평균 수익률 312%, 원금 보장 프로그램."))
    assert "money or offer bait" in [r.partition(":")[2] for r in tips.unsolicited]
    # what a seller guarantees is bait; a forwarder's "not guaranteed" is not
    grant = ev(mail("Grants Desk <desk@eu-grant-desk.net>", "Grant up to 1.2M EUR",
                    "Apply now: 100% approval guaranteed, guaranteed income for your farm."))
    assert "money or offer bait" in [r.partition(":")[2] for r in grant.unsolicited]
    late_doc = ev(mail("Dock office <ops@quayside-cargo.net>", "VGM missing",
                       "A late-doc exception is not guaranteed; the last guaranteed delivery "
                       "slot is tonight."))
    assert not late_doc.unsolicited


# -- issue 22, third pass: shapes found on mail written blind (src/mailmoat/eval/sets/
# blind-set.json); each test uses its own words, not the set's. ---------------------------

OWN = "Dana Kim <dana@acme-corp.com>"


def test_a_domain_borrowing_the_readers_own_organisation_is_flagged() -> None:
    cousin = ev(mail("Payroll Team <payroll@acme-corp-hr.com>", "Your new payslip",
                     "Your payslip is ready."))
    assert cousin.flagged
    assert any("reader's own organisation" in r for r in cousin.reasons())
    # The organisation's own name under another ending is not judged (acme-corp.de).
    sister = ev(mail("Jonas <jonas@acme-corp.de>", "Lunch", "Lunch on Friday?"))
    assert not sister.flagged and not sister.phishing
    # one letter added or dropped ("acme-corpp") is the same trick
    for typo in ("acme-corpp.com", "acme-crp.com"):
        assert ev(mail(f"Dana Kim <ceo@{typo}>", "Payment today", "Are you free?")).flagged


@pytest.mark.parametrize("domain", ["paypal.com.account-check.ru", "agency.go.kr.cc"])
def test_a_domain_wearing_another_domains_ending_is_flagged(domain: str) -> None:
    found = ev(mail(f"Notice <notice@{domain}>", "Notice", "Read the attached notice."))
    assert found.flagged
    assert not ev(mail("Mail <x@mail.example.co.uk>", "Hi", "Hello")).phishing


def test_a_name_dressed_with_account_words_keeps_a_stranger_out_of_push() -> None:
    raw = mail("Gusto Payroll <alerts@gusto-employee-login.com>", "Direct deposit changed",
               "Your bank details were changed. Cancel the change immediately: "
               "https://gusto-employee-login.com/cancel")
    found = ev(raw)
    assert any("dressed with account words" in r for r in found.reasons())
    assert found.cold_unsolicited
    assert classify(parse_message(raw)).decision.lane is not Lane.PUSH
    # a company's domain is its name: no shape
    assert not ev(mail("Gusto <news@gusto.com>", "Hello", "Hi")).phishing


def test_a_government_name_from_a_commercial_domain_with_a_threat_is_flagged() -> None:
    raw = mail("Federal Revenue Office <cases@revenue-settlements.com>", "Last notice",
               "An arrest warrant has been issued. Call us today to avoid prosecution.")
    assert ev(raw).flagged
    real = ev(mail("IRS <alerts@irs.gov>", "Notice", "Your return was received."))
    assert not real.phishing


def test_an_authenticated_counterparty_asking_to_confirm_details_may_still_push() -> None:
    auth = ("mx.acme-corp.com; spf=pass smtp.mailfrom=lawfirm.example.net; dkim=pass; "
            "dmarc=pass header.from=lawfirm.example.net")
    raw = mail("Ruth Okafor <ruth@lawfirm.example.net>", "Closing today - call me",
               "Before we release the funds at 3pm I need you to confirm the account "
               "details by phone.", Authentication_Results=auth)
    found = ev(raw)
    assert found.weight == 1 and not found.cold_unsolicited
    assert classify(parse_message(raw)).decision.lane is Lane.PUSH


def test_a_bec_excuse_from_free_mail_keeps_a_stranger_out_of_push() -> None:
    raw = mail("Marco Bellini <marco.bellini.work@gmail.com>", "payment today",
               "Our company email is having problems so I write from my personal address. "
               "Please pay invoice 4411 today to our new account, the old one is closed.")
    found = ev(raw)
    assert found.cold_unsolicited
    assert classify(parse_message(raw)).decision.lane is not Lane.PUSH


def test_a_name_wearing_a_government_ending_is_flagged() -> None:
    assert ev(mail("Refund Office <notice@tax-refund.uk-gov.com>", "Refund",
                   "You have a refund waiting.")).flagged


def test_a_colleagues_mail_with_no_subject_is_not_a_cold_contact() -> None:
    raw = mail("Ben <ben@acme-corp.com>", "",
               "The gate alarm is beeping and security will call the police in 10 mins "
               "unless a keyholder resets it. Can you come down?")
    assert not ev(raw).cold_unsolicited
    assert classify(parse_message(raw)).decision.lane is Lane.PUSH
    # nor one shouting its subject: a colleague in a hurry, not bulk mail
    shouted = mail("Micha Roth <micha@acme-corp.com>", "OVEN 2 DEAD!!! call me",
                   "Oven 2 won't light, we can't bake the hospital order by 6. Call me.")
    assert not ev(shouted).spam_shaped
    assert classify(parse_message(shouted)).decision.lane is Lane.PUSH



def test_a_colleague_telling_of_money_is_not_a_cold_contact() -> None:
    # a colleague reports a ransom note or a big wire: the money is the matter, not a lure
    ransom = mail("Nate <nate@acme-corp.com>", "shared drive - files encrypted",
                  "Every file on the S: drive is encrypted and a note asks for bitcoin. I think "
                  "we must shut the network down before the 2pm shipment. Need you to decide.")
    assert not ev(ransom).cold_unsolicited
    assert classify(parse_message(ransom)).decision.lane is Lane.PUSH
    # the same words from a stranger keep their weight
    stranger = mail("Nate <nate@other-firm.net>", "shared drive - files encrypted",
                    "Every file on the S: drive is encrypted and a note asks for bitcoin. I "
                    "think we must shut the network down before the 2pm shipment. Need you "
                    "to decide.")
    assert ev(stranger).cold_unsolicited


def test_an_own_systems_name_in_capitals_is_not_a_cold_contact() -> None:
    # a plant's own alarm system, named and shouting in capitals, from the reader's domain
    alarm = mail("ACME SCADA <scada-alerts@acme-corp.com>",
                 "[ALARM P1] BOILER 2 FEED PRESSURE LOW - B2-PT04",
                 "*** PRIORITY 1 ALARM ***\n\nTag: B2-PT04 (boiler 2 feed pressure)\nValue: "
                 "3.1 bar, limit LOW-LOW 4.0 bar\nState: ACTIVE - UNACKNOWLEDGED\n\n"
                 "Operator action required.")
    assert "1:a shouted display name" in ev(alarm).unsolicited
    assert not ev(alarm).cold_unsolicited
    assert classify(parse_message(alarm)).decision.lane is Lane.PUSH
    # the same from outside the reader's organisation is a cold contact
    outside = mail("ACME SCADA <scada-alerts@acme-monitoring.net>",
                   "[ALARM P1] BOILER 2 FEED PRESSURE LOW - B2-PT04",
                   "*** PRIORITY 1 ALARM ***\n\nTag: B2-PT04 (boiler 2 feed pressure)\n"
                   "Value: 3.1 bar, limit LOW-LOW 4.0 bar\nState: ACTIVE - UNACKNOWLEDGED\n\n"
                   "Operator action required.")
    assert ev(outside).cold_unsolicited
    assert classify(parse_message(outside)).decision.lane is not Lane.PUSH


def test_a_meeting_lure_from_a_stranger_is_not_scheduled() -> None:
    # MEETING starts the calendar loop's proposals: a sender who may not interrupt is not
    # scheduled either (a dressed domain offering a meeting link).
    raw = mail("Zoom <no-reply@zoom-meeting-invites.example>", "You missed a meeting",
               "You missed 'Board review'. Reschedule here: https://zoom-meeting-invites.example/r")
    trace = classify(parse_message(raw))
    assert trace.signals.scheduling and trace.signals.cold_unsolicited
    assert trace.decision.lane is Lane.QUEUE


def test_a_banks_initials_are_not_a_shouted_name() -> None:
    assert not ev(mail("HSBC UK <alerts@hsbc.co.uk>", "Payment", "Did you pay?")).unsolicited
    assert ev(mail("JOHN DOE WINNER <x@y.example>", "Hi", "Hello")).unsolicited


def test_a_lone_request_to_confirm_details_is_a_lure_only_where_auth_could_vouch() -> None:
    body = "Please confirm the account details for the wire before 3pm today."
    bare = ev(mail("Tomas <tomas@harbor.example.net>", "Wire today", body))
    assert bare.weight == 1 and not bare.cold_unsolicited  # no Authentication-Results
    auth = "mx.acme-corp.com; spf=pass smtp.mailfrom=harbor.example.net; dmarc=none"
    unvouched = ev(mail("Tomas <tomas@harbor.example.net>", "Wire today", body,
                        Authentication_Results=auth))
    assert unvouched.cold_unsolicited


def test_a_title_alone_from_free_mail_is_not_a_lure() -> None:
    # A patient writing as "Mrs Ann Lee" is a person; "Mr. Okoye" with money talk still
    # flags (test_weak_shapes_flag_only_together), and a role name is still a lure.
    person = ev(mail("Mrs Ann Lee <ann.lee1949@btinternet.com>", "my crown",
                     "The crown came loose this morning and it hurts. Can someone call me?"))
    assert not person.lure and not person.cold_unsolicited
    role = ev(mail("Payroll Office <payroll.office@gmail.com>", "salary",
                   "Please confirm your bank details for this month's salary."))
    assert role.lure


def test_a_quick_task_from_a_free_mail_boss_is_a_lure() -> None:
    found = ev(mail("Dr. Ruth Hale <dr.ruthhale.office@gmail.com>", "are you around",
                    "Are you around? I need a quick task for me done before noon."))
    assert found.lure and found.cold_unsolicited


PASS_GMAIL = "mx.google.com; spf=pass smtp.mailfrom=gmail.com; dkim=pass header.d=gmail.com; " \
             "dmarc=pass header.from=gmail.com"


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # business email compromise: changed account details, a "personal address", a boss in a
    # meeting (Korean), a club collecting money from a free-mail address
    ("Nora Vale <nora@vale-conveyancing.example>", "URGENT: updated client account details",
     "Please use the updated client account details below for today's completion."),
    ("Sam Ortiz <sam.ortiz.work@gmail.com>", "new number",
     "It's my personal email, locked out of work. Can you text me? Need something urgent."),
    ("김도윤 <doyoon.kim.office@gmail.com>", "팀장님 확인 부탁",
     "지금 미팅 중이라 통화가 힘듭니다. 거래처 입금 계좌가 변경됐으니 오늘 송금 부탁드립니다."),
    ("Harbour Rowing Club <harbourrowing.funds@gmail.com>", "Regatta fees",
     "We urgently need £80 per rower today. Please send to account 11-22-33 / 44556677."),
])
def test_business_email_compromise_shapes_keep_a_stranger_out_of_push(
        sender: str, subject: str, body: str) -> None:
    found = ev(mail(sender, subject, body, Authentication_Results=PASS_GMAIL))
    assert found.lure and found.cold_unsolicited, found.reasons()


def test_a_mailbox_quota_lure_from_a_dressed_domain_is_flagged() -> None:
    found = ev(mail("CampusMail Admin <admin@campusmail-quota.net>",
                    "Mailbox storage limit reached",
                    "Your mailbox has exceeded the storage quota. Increase your quota at "
                    "http://campusmail-quota.net/up or mail stops tonight."))
    assert found.weight >= 1 and found.cold_unsolicited


def test_a_renewal_to_cancel_by_phone_is_a_callback_lure() -> None:
    lure = ev(mail("Shieldy Antivirus <billing@shieldy-billing.net>", "Renewal receipt",
                   "Your Shieldy Total plan renewed for $349.00. If you did not authorise "
                   "this charge, call our refund desk on +1 (877) 555-0144 today."))
    assert "a charge to cancel by phone" in lure.reasons() and lure.flagged
    # A surgery's reminder and a bank's card alert name a phone too; neither is the shape.
    for sender, body in (
            ("Elm Dental <bookings@elmdental.example>",
             "Your check-up is on Monday at 9:10. If you need to cancel, please call us on "
             "020 7946 0555."),
            ("Harbor Bank <alerts@harborbank.example>",
             "A card payment of $42.10 was made. If you did not make this payment, call the "
             "number on the back of your card.")):
        assert "a charge to cancel by phone" not in ev(mail(sender, "Notice", body)).reasons()
    # a brand's own domain, authenticated, writing as the brand: its fraud desk
    body = ("A card payment of $980.00 was approved. If you did not make this payment, call "
            "us on +1 (800) 555-0100.")
    auth = ("mx.acme-corp.com; spf=pass smtp.mailfrom=paypal.com; dkim=pass; dmarc=pass "
            "header.from=paypal.com")
    own = ev(mail("PayPal <service@paypal.com>", "Payment", body, Authentication_Results=auth))
    assert "a charge to cancel by phone" not in own.reasons()
    assert "a charge to cancel by phone" in ev(
        mail("PayPal <service@paypal-billing.net>", "Payment", body)).reasons()


def test_a_renewal_receipt_from_free_mail_with_a_callback_is_flagged() -> None:
    found = ev(mail("Guardly Security <guardly.billing.team@gmail.com>", "Order confirmation",
                    "Your plan has been auto-renewed. Amount charged: $389.00. To cancel and "
                    "get a refund call +1 (866) 555-0101."))
    assert "a receipt or renewal from a free-mail address" in found.reasons() and found.flagged
    # A company's own receipt is not that shape.
    own = ev(mail("Guardly <billing@guardly.example>", "Order confirmation",
                  "Your plan has been renewed. Amount charged: $39.00."))
    assert "a receipt or renewal from a free-mail address" not in own.reasons()


def test_a_person_named_like_a_brand_is_not_that_brand() -> None:
    person = ev(mail("Chase Okoro <chase@okoro-homes.com>", "closing", "Can you sign by noon?"))
    assert not any("display name claims" in r for r in person.reasons())
    for name in ("Chase Fraud Team", "Chase", "Microsoft Teams"):
        found = ev(mail(f"{name} <alerts@{name.split()[0].lower()}-alerts-secure.com>",
                        "notice", "Please review your account."))
        assert any("display name claims" in r for r in found.reasons()), name


def test_a_hurried_subject_alone_with_no_link_is_no_cold_contact() -> None:
    hurried = ev(mail("Tom Agar <tom.agar@gmail.com>", "", "Water is pouring in, come now."))
    assert not hurried.cold_unsolicited
    linked = ev(mail("Tom Agar <tom.agar@gmail.com>", "", "See http://x-deals.example/now"))
    assert linked.cold_unsolicited


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # a landlord's "new bank" from free mail to a free-mail tenant: two gmail addresses are
    # strangers, not one organisation
    ("Ray Dunn <ray.dunn.lettings@gmail.com>", "rent", "We've changed our bank, please pay "
                                                       "January rent to the account below."),
    ("Ana Ruiz <ana.ruiz.office@gmail.com>", "staff gifts", "I'm stuck in a meeting. Can you "
                                                            "buy 5 Apple vouchers and send me "
                                                            "the codes?"),
    ("Leo Marsh <leo.marsh.mayor@gmail.com>", "are you free", "I need a task for me done "
                                                              "discreetly. Reply asap."),
    ("Paul Ode <paul.ode.docs@gmail.com>", "translation job", "I will pay by cheque; my "
                                                              "accountant overpaid, so please "
                                                              "refund the difference."),
    # the buyer's cheque, part of it passed on to a carrier or a consultant of theirs
    ("Rev. Tom Hale <tom.hale.parish@gmail.com>", "restoration work",
     "We will pay in advance by cheque. You will simply transfer £2,000 to him once the cheque "
     "is deposited: our consultant."),
    ("Compras Textil <compras.textil.sur@gmail.com>", "pedido grande",
     "Pagaremos con cheque. Por favor transfiera la parte del transporte al transportista."),
    # a guaranteed return, in English and Korean
    ("Vine Capital <vine.capital.desk@gmail.com>", "your wealth plan",
     "Invest in vineyard land with a GUARANTEED 18% annual return. Book a call today."),
    ("투자센터 <invest.center.kr@gmail.com>", "[안내] 원금 보장 상품",
     "연 20% 수익 보장, 원금 보장 상품을 오늘 안내드립니다."),
    # a romance opener: a profile and a smile, a soldier far away
    ("James Wilson <dr.james.wilson.un@gmail.com>", "hello dear",
     "I saw your profile and your beautiful smile caught my eye. I am a doctor on a UN "
     "peacekeeping mission."),
    ("제임스 <james.army.doc@gmail.com>", "안녕하세요",
     "링크드인에서 프로필을 보고 따뜻한 미소에 마음이 끌렸습니다. 저는 미군 군의관입니다."),
    # a buyer on a military mission, the carrier paid out of the reader's money
    ("Capitaine Marc <marc.olivier.militaire@gmail.com>", "votre annonce",
     "Je suis en mission militaire à Djibouti. Je vous paie via PayPal avec les frais de "
     "transport que vous reverserez au transporteur."),
    # a stranger presenting a big buyer
    ("Ocean Harvest <oceanharvest.trading@gmail.com>", "inquiry: 40 mt frozen shrimp",
     "Good day. We are Ocean Harvest Trading Ltd, Hong Kong, seafood importer for restaurant "
     "chains. We have urgent need for 40 MT."),
    ("Compras <compras.importadora.mx@gmail.com>", "pedido 8 contenedores",
     "Somos un grupo importador de México. Queremos 8 contenedores de canela."),
    # a payment to a customs agent of theirs, directly
    ("Álvaro <afidalgo.compras@gmail.com>", "pago sobreestadía",
     "Os pedimos que hagáis el pago directamente a nuestro agente de aduanas en Portugal."),
    # a fee paid first, named before the amount
    ("이민상담 <visa.center.kr@gmail.com>", "영주권 급행",
     "상담 예약금 $2,500을 먼저 송금해 주시면 변호사가 배정됩니다."),
    # a relative who must not be phoned, in Dutch; a bank card's expiry from a look-alike
    ("Marc <marc.peeters.63@gmail.com>", "probleem hier",
     "Ik zit vast in Portugal en heb vandaag 2.300 euro nodig. Kunt ge het overschrijven naar "
     "deze IBAN? Niet bellen, ik kan nu niet praten."),
    # a recruiter's deposit per candidate; a "bug bounty" asked for before the details
    ("CarePlus Staffing <placements@careplus-staffing.net>", "nurses available now",
     "We have 8 registered nurses ready for immediate placement. A refundable placement "
     "deposit of $2,000 per nurse reserves them, on a first-paid basis."),
    ("White Hat <whitehat.reports.sec@gmail.com>", "critical bug in your site",
     "I found a critical vulnerability in your website. I will share the details after you "
     "confirm the bounty amount."),
    ("KBC Kaartendienst <kaart@kbc-kaartbeheer.net>", "Uw bankkaart verloopt",
     "Uw bankkaart verloopt binnenkort. Vraag vandaag nog een nieuwe kaart aan: "
     "https://kbc-kaartbeheer.net/aanvraag"),
])
def test_more_scam_shapes_keep_a_free_mail_stranger_out_of_push(
        sender: str, subject: str, body: str) -> None:
    found = ev(mail(sender, subject, body, to="Kim Roe <kim.roe@gmail.com>"))
    assert found.lure and found.cold_unsolicited, found.reasons()


def test_a_customer_id_and_password_asked_for_is_a_credential_request() -> None:
    found = ev(mail("Reefer Line eDocs <edocs@reefer-docs.example>", "Approve express release",
                    "Approve via https://reefer-docs.example/approve\nLogin with your Pacífico "
                    "Reefer Line customer ID and password."))
    assert "asks for credentials or account details" in found.reasons()
    for words in ("Deberá introducir su usuario, contraseña y el código SMS.",
                  "Saisissez votre identifiant et votre mot de passe."):
        assert "asks for credentials or account details" in ev(
            mail("PCS <soporte@pcs-portal.example>", "acceso", words)).reasons(), words
    # a portal telling its own user where to sign in, with no such ask, is no shape
    calm = ev(mail("Reefer Line eDocs <edocs@reefer-docs.example>", "Your B/L is ready",
                   "Your bill of lading is ready in the eDocs portal."))
    assert "asks for credentials or account details" not in calm.reasons()


def test_a_password_expiry_from_outside_the_readers_organisation_is_a_lure() -> None:
    shape = "a password, bank card or certificate expiry from outside the reader's organisation"
    body = "Your network password expires in 1 day. Update it: https://{d}/reset"
    outside = ev(mail("Island Health IT <it@islandhealth-ca.net>", "Password expires",
                      body.format(d="islandhealth-ca.net"), to="Ann <ann@islandhealth.net>"))
    assert shape in outside.reasons() and outside.cold_unsolicited, outside.reasons()
    korean = ev(mail("그룹웨어 관리자 <admin@dongbang-gw.net>", "[그룹웨어] 비밀번호 만료",
                     "비밀번호가 내일 만료됩니다. http://dongbang-gw.net/extend",
                     to="박재훈 <jh.park@dongbang.net>"))
    assert shape in korean.reasons()
    # the reader's own IT, authenticated, and a ship's safety certificate are no such shape
    own_auth = ("mx.islandhealth.net; spf=pass smtp.mailfrom=islandhealth.net; dkim=pass; "
                "dmarc=pass header.from=islandhealth.net")
    own = ev(mail("Island Health IT <it@islandhealth.net>", "Password expires",
                  body.format(d="islandhealth.net"), to="Ann <ann@islandhealth.net>",
                  Authentication_Results=own_auth))
    assert shape not in own.reasons()
    ship = ev(mail("Hans <h.vermeulen@maritime-survey.net>", "certificate",
                   "The safety certificate of the vessel expires tonight at 23:59."))
    assert shape not in ship.reasons()


def test_a_colleague_asking_to_confirm_a_bank_change_by_phone_is_not_a_lure() -> None:
    # the finance team, before today's remittance: "please confirm it by phone, directly"
    raw = mail("정수진 <sujin.jung@haedeul.net>",
               "라크사베르그 계좌 변경 건 - 오늘 15시 송금 전 확인 부탁",
               "거래처에서 입금계좌가 변경됐다는 메일이 왔습니다. "
               "새 계좌로 송금 예정인데, 과장님이 현지에서 "
               "전화로 직접 확인해 주실 수 있을까요?",
               to="박서연 <seoyeon.park@haedeul.net>")
    assert not ev(raw).flagged, ev(raw).reasons()
    assert classify(parse_message(raw)).decision.lane is Lane.PUSH


@pytest.mark.parametrize(("sender", "body"), [
    ("Andres <andres.tidewater@gmail.com>", "Our company email was hacked last week. Someone "
     "sent clients a new bank account in Miami. It's false, we never changed banks."),
    ("Mia Ross <mia.ross@keel-supply.net>", "We received an email from your address asking us "
     "to pay to a new account instead of the usual one. Please confirm."),
    ("박준혁 <jh.park@dongil-build.net>",
     "동일판넬 본사에 확인한 결과 계좌 변경 요청은 보낸 적이 없다고 합니다. "
     "홍콩 계좌로 송금된 건 반환 요청이 필요합니다."),
])
def test_a_warning_about_a_bank_change_is_not_the_redirection(sender: str, body: str) -> None:
    found = ev(mail(sender, "bank details", body))
    assert "money redirected to a new account" not in found.reasons()


def test_a_scottish_or_welsh_government_domain_is_a_governments() -> None:
    found = ev(mail("Fish Health Inspectorate <fhi.aberdeen@gov.scot>", "PCR result",
                    "Please call today about the designation."))
    assert not any("government body" in r for r in found.reasons()), found.reasons()


def test_a_place_named_court_is_no_court_of_law() -> None:
    # a care home, a hotel or a block of flats named "... Court" claims no government body
    found = ev(mail("Ballasalla Court Care Home <nursing@ballasallacourtcare.co.uk>",
                    "Your mum - a fall this morning", "Could you come in this afternoon?"))
    assert not any("government body" in r for r in found.reasons()), found.reasons()
    # a court of law by its kind, from a commercial domain, still does
    found = ev(mail("County Court Enforcement <notices@court-fines-payment.net>",
                    "Unpaid fine", "Pay the outstanding fine today."))
    assert any("government body" in r for r in found.reasons()), found.reasons()


@pytest.mark.parametrize("sender", [
    "Federal Bank Trade Services <tradeservices@federalbank.co.in>",
    "Chena Federal Credit Union <fraudalerts@chenafcu.net>",
    "Mesilla Valley Bank Treasury Services <treasury@mesillavalleybank.net>",
    "Harbourside Customs Brokers <roz@harbourcustoms.com.au>",
    "Ynys Customs Services <clearance@ynyscustoms.co.uk>",
])
def test_a_business_named_with_a_state_word_claims_no_government_body(sender: str) -> None:
    # a bank's treasury desk, a bank or credit union called "Federal", a customs broker
    found = ev(mail(sender, "Outgoing wire on hold", "Please call before 3:00 pm today."))
    assert not any("government body" in r for r in found.reasons()), found.reasons()


@pytest.mark.parametrize("sender", [
    "HM Treasury Refunds <refunds@hmt-refund-online.net>",
    "Federal Contractor Registration Desk <registration@federal-contractor-registry.net>",
    "HM Revenue & Customs <refunds@hmrc-taxrefund-online.net>",
    "EAEU Customs Enforcement Unit <enforcement@eaeu-customs-kz.net>",
])
def test_the_states_treasury_customs_or_a_federal_body_still_claims_one(sender: str) -> None:
    found = ev(mail(sender, "Refund", "Your refund is waiting."))
    assert any("government body" in r for r in found.reasons()), found.reasons()


def test_the_uk_police_domain_is_a_governments() -> None:
    found = ev(mail("Police Scotland Control <fwi.control@scotland.police.uk>",
                    "Road closed", "Call the control room now."))
    assert not any("government body" in r for r in found.reasons()), found.reasons()


def test_a_brand_word_naming_a_place_is_no_brand() -> None:
    found = ev(mail("Chase County Sheriff's Office Dispatch <dispatch@chasecountyso.org>",
                    "Cattle trailer rollover - request vet", "Deputy requests a vet ASAP."))
    assert not any("chase" in r for r in found.reasons()), found.reasons()
    # the bank's own name from another domain still claims the brand
    found = ev(mail("Chase Fraud Team <alerts@chase-fraud-desk.net>", "Card locked",
                    "Verify your account now."))
    assert any("claims chase" in r for r in found.reasons()), found.reasons()
    # and a credit union's name that bank phish wear
    found = ev(mail("Navy Federal Credit Union <alerts@navyfederal-securemember.com>",
                    "Your debit card has been restricted", "Verify your card details now."))
    assert any("claims navy federal" in r for r in found.reasons()), found.reasons()


def test_a_buyer_who_asks_the_seller_to_pay_a_third_party_is_the_overpayment_fraud() -> None:
    found = ev(mail("Sgt. Daniel Brooks <sgt.danielbrooks.us@gmail.com>",
                    "Catering for 200 soldiers",
                    "Our approved vendor supplies the tables, so you will need to pay them "
                    "$4,200 and we will include it in the card payment to you."))
    assert "money paid over the price, to pass on to a third party" in found.reasons()
    found = ev(mail("Mrs Bharti <bharti.events.uk@gmail.com>", "Catering enquiry",
                    "My client will pay by company cheque in advance, including the hall hire "
                    "fee - you will then pay the hall directly by bank transfer."))
    assert "money paid over the price, to pass on to a third party" in found.reasons()


def test_a_boss_who_cannot_talk_on_the_phone_and_wants_a_payment_handled_is_secretive() -> None:
    found = ev(mail("Principal Andrew Kirkwood <andrew.kirkwood.principal@gmail.com>",
                    "Are you available?",
                    "I need you to handle a payment for me quickly today. It's a confidential "
                    "matter and I cannot discuss it on the phone."))
    assert "secrecy or pressure to act alone" in found.reasons()


@pytest.mark.parametrize("sender", [
    "Sun Li <sunli@qihang-edu.cn>", "Ragna <ragna@breidfjord-net.is>",
    "Office <office@bundang-gu-edu.kr>",
])
def test_a_school_or_network_named_in_its_own_countrys_domain_wears_no_ending(
        sender: str) -> None:
    found = ev(mail(sender, "Flight diverted", "Please call me when you see this."))
    assert not any("another domain's ending" in r for r in found.reasons()), found.reasons()


@pytest.mark.parametrize("sender", [
    "Kent State <bursar@kentstate-edu.us>", "UPU <notice@upu-edu-my.com>",
    "IRS <refund@irs-gov.kr>", "Fort Pitt <it@fortpitt-edu.net>",
])
def test_an_ending_worn_over_another_one_is_still_a_shape(sender: str) -> None:
    found = ev(mail(sender, "Refund", "Your refund is waiting."))
    assert any("another domain's ending" in r for r in found.reasons()), found.reasons()


def test_a_company_that_moved_its_banking_redirects_money() -> None:
    found = ev(mail("Boland Fibre Accounts <accounts@bolandfibre-billing.net>",
                    "Change of banking details",
                    "Boland Fibre has moved its banking to a new provider. Kindly make payment "
                    "to the account below."))
    assert "money redirected to a new account" in found.reasons()


def test_a_toll_brand_from_another_domain_is_claimed() -> None:
    found = ev(mail("Linkt <notice@linkt-tollnotice.com>", "Unpaid toll - final notice",
                    "Pay now to avoid a penalty notice: https://linkt-tollnotice.com/pay"))
    assert any("claims linkt" in r for r in found.reasons()), found.reasons()


def test_a_user_id_and_transaction_password_asked_for_is_a_credential_request() -> None:
    found = ev(mail("FedNet Corporate <fednet-alerts@fednet-corp.in>", "re-KYC pending",
                    "Complete online re-KYC using your FedNet Corporate ID, User ID and "
                    "transaction password: https://fednet-corp.in/rekyc"))
    assert any("credential" in r for r in found.reasons()), found.reasons()


def test_public_health_from_a_commercial_domain_claims_a_government_body() -> None:
    found = ev(mail("Ottawa Public Health <inspections@oph-foodsafety-portal.com>",
                    "Inspection report available", "An outstanding fine must be reviewed."))
    assert any("government body" in r for r in found.reasons()), found.reasons()


@pytest.mark.parametrize("told", [
    "Please call us on the number on the back of your business card.",
    "Call Treasury Services at the number printed on your treasury agreement. Do not use "
    "contact details contained in any email from the beneficiary.",
])
def test_a_banks_hold_on_a_wire_is_what_it_warns_of(told: str) -> None:
    # a bank holding a wire to changed bank details tells the reader to check it apart: the
    # wire and the new account are the attack it reports, not a redirection it asks for
    body = ("A wire transfer of $86,420.00 was submitted to a beneficiary account that differs "
            "from the account you have paid before. We have placed it on hold. " + told)
    found = ev(mail("Harbor Bank Fraud Prevention <fraud@harborbank.example.com>",
                    "Wire hold - action needed today", body))
    assert not found.lure, found.reasons()


def test_a_parcel_fee_from_a_dressed_courier_domain_is_flagged() -> None:
    found = ev(mail("Swift Post <parcels@swiftpost-redelivery.net>", "Parcel held",
                    "A redelivery fee of £1.20 is required: https://swiftpost-redelivery.net/p"))
    assert found.flagged, found.reasons()


def test_a_person_mentioning_time_away_after_a_question_is_not_an_auto_reply() -> None:
    person = ev(mail("Wei Lo <wei@lo-translate.example>", "rates 2027",
                     "Hi Ana,\nCan you confirm the new rate is ok? Also I'm away 20-27 Dec."))
    assert not person.auto_reply
    ooo = ev(mail("Wei Lo <wei@lo-translate.example>", "Re: is the draft ready?",
                  "Hello, I'm away until 7 January. Thanks!"))
    assert ooo.auto_reply
    # the Korean words too ("on leave", "away"): once written as bytes RE2 read as Latin-1
    for words in ("안녕하세요. 현재 휴가 중입니다. 1월 7일에 복귀합니다.",
                  "부재중입니다. 급한 일은 사무실로 연락 주세요."):
        assert ev(mail("이지은 <jieun@lo-translate.example>", "Re: 견적", words)).auto_reply
    # "부재중" is a missed call too: a fleet alarm's "customer: 3 missed calls" is no reply
    assert not ev(mail("차량관제 <gps-alert@rent.example>", "[관제경보] 반납지연",
                       "차량번호: 12허4581\n고객 연락: 3회 부재중, 문자 미확인")).auto_reply


@pytest.mark.parametrize(("sender", "to"), [
    # one letter swapped in the reader's own domain, or in the name the sender shows
    ("IT Helpdesk <it@northwind-marlne.com>", "Tom <tom@northwind-marine.com>"),
    ("Harlowe Trade <credit@harIowe.co.uk>", "Dave <dave@brennan.example>"),
])
def test_a_domain_one_letter_off_is_flagged(sender: str, to: str) -> None:
    found = ev(mail(sender, "Account on hold", "Please settle today via the link below.",
                    to=to))
    assert found.flagged, found.reasons()


def test_one_letter_off_is_not_an_added_letter_nor_a_short_name() -> None:
    from mailmoat.core.evidence import one_letter_off
    assert one_letter_off("wolseiey", "wolseley") and one_letter_off("marlne", "marine")
    assert not one_letter_off("jsmith", "smith") and not one_letter_off("acme", "acne")
    found = ev(mail("Jon Smith <jon@jsmith.com>", "hello", "See you Tuesday."))
    assert not found.reasons()


@pytest.mark.parametrize(("body", "shape"), [
    ("Please send the distribution to our new escrow account below rather than the usual "
     "account.", "money redirected to a new account"),
    ("We have problems with booking sites, so we only accept bank transfer directly.",
     "payment or fee request"),
    ("Our wire instructions changed last week; please use the details below.",
     "money redirected to a new account"),
    ("Notre compte est bloqué, merci de l'envoyer sur le compte de ma sœur.",
     "money redirected to a new account"),
    # a salary account moved, a change of bank, an account closed for a restructuring, "not
    # the usual account" in Korean, the originals sent to a new agent
    ("I've moved my salary account to TymeBank. Could you forward the new details to payroll?",
     "money redirected to a new account"),
    ("Due to an internal restructuring and change of bank, all payments must be made to the "
     "following account.", "money redirected to a new account"),
    ("Our head office account is closed for restructuring. Kindly remit the refund to our "
     "Hong Kong account.", "money redirected to a new account"),
    ("이번 건은 기존 계좌가 아닌 아래 해외 정산 계좌로 부탁드려요.",
     "money redirected to a new account"),
    ("Could you please courier the original bills of lading to our new customs agent directly?",
     "money redirected to a new account"),
    ("Adjuntamos la factura de la publicación de su establecimiento en la guía 2027.",
     "a registry or listing nobody ordered"),
    # silence taken for a signature: a directory's "renewal"
    ("Your entry is due for renewal. By not objecting within 7 days you accept the renewal.",
     "a registry or listing nobody ordered"),
])
def test_more_payment_redirections_are_shapes(body: str, shape: str) -> None:
    found = ev(mail("Ava Pike <ava@pike-holdings.example>", "payment", body))
    assert shape in found.reasons()


@pytest.mark.parametrize(("sender", "body"), [
    ("Mia Lowe <mia.lowe.travel@gmail.com>", "I've been mugged in Porto and lost my wallet and "
     "phone. Can you wire me £700 for a hotel?"),
    ("윤서 <yunseo.new.mail@gmail.com>",
     "폰 고장나서 이 메일로 연락해요. 이 계좌로 먼저 보내주실 수 있어요? 전화는 지금 못받아요."),
])
def test_a_friend_in_distress_asking_for_money_is_a_lure(sender: str, body: str) -> None:
    found = ev(mail(sender, "help", body, to="Dana <dana@studio.example>"))
    assert found.lure and found.cold_unsolicited, found.reasons()


def test_a_boss_stuck_on_a_call_with_email_playing_up_is_a_lure() -> None:
    found = ev(mail("Kirsty Bell <kirsty.bell.branch@gmail.com>", "quick favour",
                    "Can you sign off £1,800 to the account below today? Stuck on a call and "
                    "my work email is playing up.", to="Gareth <gareth@union.example>"))
    assert found.lure and found.cold_unsolicited, found.reasons()


# -- nineteenth pass: scams that reached PUSH with no flag (docs/results.md) ------------------
AUTH_PASS = "mx.reader.example; spf=pass smtp.mailfrom={d}; dkim=pass header.d={d}; dmarc=none"


@pytest.mark.parametrize("body", [
    "Bitte beachten Sie unsere neue Bankverbindung ab der nächsten Rechnung.",
    "Notre banque a changé : merci d'utiliser notre nouveau RIB pour le solde.",
    "Le informamos de nuestros nuevos datos bancarios para el próximo pago.",
    "Please make the advance to my daughter's account instead, routing and account below.",
    "I paid £900 into your account by mistake, please send it back to this account today.",
    "The cheque will be for more than the amount, please send the rest to my driver.",
])
def test_money_redirected_to_a_new_account_flags_on_its_own(body: str) -> None:
    found = ev(mail("Lena Voss <lena@voss-metall.example>", "Zahlung", body,
                    Authentication_Results=AUTH_PASS.format(d="voss-metall.example")))
    assert found.flagged and "money redirected to a new account" in found.reasons()


@pytest.mark.parametrize("body", [
    "A company applied to register quarrytop as their internet keyword and .cn domain names."
    " Please confirm whether they are your partner.",
    "Your mark GLASSWING requires publication in our register. Amount due EUR 1,980. This is"
    " not an official fee of any trademark office.",
    "Please find the invoice for your annual listing in the Northern Clinics Directory, "
    "payment due in 10 days.",
])
def test_a_registry_or_listing_nobody_ordered_flags(body: str) -> None:
    found = ev(mail("Registry Desk <desk@tm-index.example.net>", "Notice", body,
                    Authentication_Results=AUTH_PASS.format(d="tm-index.example.net")))
    assert found.flagged and "a registry or listing nobody ordered" in found.reasons()


def test_a_genuine_invoice_from_a_known_supplier_is_not_a_registry_scam() -> None:
    found = ev(mail("Accounts <accounts@hillside-timber.example>", "Invoice 4471",
                    "Invoice 4471 for the oak boards delivered Tuesday is attached. Payment due"
                    " in 30 days as usual."))
    assert not found.reasons()


@pytest.mark.parametrize(("sender", "domain"), [
    ("Spotify <no-reply@spotify-billing.net>", "spotify-billing.net"),
    ("쿠팡 <order@coupang-refund.shop>", "coupang-refund.shop"),
    ("삼성카드 <card@samsungcard-event.co>", "samsungcard-event.co"),
])
def test_more_brands_are_read_in_display_names(sender: str, domain: str) -> None:
    found = ev(mail(sender, "Notice", "Please check your order.",
                    Authentication_Results=AUTH_PASS.format(d=domain)))
    assert found.flagged and any("display name claims" in r for r in found.reasons())


def test_a_brand_in_its_own_name_domain_without_headers_is_one_shape_not_a_flag() -> None:
    # An export with no Authentication-Results: a brand's marketing domain and a phisher's
    # look the same, and nothing recorded who sent it.
    found = ev(mail("쿠팡 <news@coupang-mail.co.kr>", "(광고) 오늘의 특가", "최대 70% 할인"))
    assert found.weight == 1 and not found.flagged
    with_headers = ev(mail("쿠팡 <news@coupang-mail.co.kr>", "(광고) 오늘의 특가", "최대 70% 할인",
                           Authentication_Results=AUTH_PASS.format(d="coupang-mail.co.kr")))
    assert with_headers.flagged
    # a misspelt brand is no brand's, headers or not
    assert ev(mail("PayPal <service@paypa1-secure.com>", "hello", "hello")).flagged


def test_a_brand_that_is_a_place_name_is_not_read_inside_domains() -> None:
    found = ev(mail("Parish Clerk <clerk@little-norton-pc.org.uk>", "Mud on the lane",
                    "Could you ask your drivers to keep the lane clear on Friday?"))
    assert not any("look-alike" in r for r in found.reasons())
    assert ev(mail("Norton Billing <billing@renewal-desk.net>", "Renewed", "Your plan renewed."
                   )).flagged  # the display name still counts


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # a documentation domain is no brand's look-alike
    ("Etsy <transaction@etsy.example.com>", "You made a sale", "Order 3319 is ready to ship."),
    # a brand's own two-letter domain is not a rented ending (ae.com, uk.com)
    ("British Airways <ba.bookings@email.ba.com>", "Your booking", "Booking reference XK7P2L."),
    # the other domains brands send from: a card arm, a product, a notification domain
    ("신한카드 <alert@shinhancard.com>", "[신한카드] 해외 승인 알림", "해외 승인 1건이 있습니다."),
    ("Microsoft OneDrive <no-reply@onedrive.com>", "Files restored", "Your files are restored."),
    ("국세청 홈택스 <noreply@hometax.go.kr>", "전자세금계산서 발급", "발급 내역을 알려드립니다."),
    ("Dropbox <no-reply@dropboxmail.com>", "Shared with you", "A folder was shared with you."),
    # a company's initials that read as a short brand with a letter swapped ("vlsa", "visa")
    ("Markus <markus@vlsa-navarra.net>", "Sequence gap", "The line stops at 15:40 today."),
    # a list discussing authentication names a user name and a password, asks for neither
    ("Dave <dave@lug-members.net>", "Re: SMTP auth and mutt",
     "It would be crap if the auth details (username, password) had to be hardcoded into "
     "sendmail.cf. See http://www.postfix.org/ for how it does it."),
])
def test_a_brands_own_or_a_documentation_domain_is_not_a_shape(sender: str, subject: str,
                                                                  body: str) -> None:
    assert not ev(mail(sender, subject, body)).reasons()


def test_a_link_borrowing_the_readers_organisation_name_flags() -> None:
    found = ev(mail("Al Grant <al.grant.team@outlook.com>", "rota",
                    "Open the rota here: https://northfell-rescue-org.sharedfiles.app/rota",
                    to="Fiona <fiona@northfell-rescue.org.uk>"))
    assert found.flagged and any("dressed in the name northfell-rescue" in r
                                 for r in found.reasons())
    # a service hosting its customer under the exact name is not borrowing it
    tenant = ev(mail("Desk <support@helpdesk.example.net>", "ticket",
                     "See https://northfell-rescue.tickets.app/t/4", to=
                     "Fiona <fiona@northfell-rescue.org.uk>"))
    assert not any("dressed in the name" in r for r in tenant.reasons())


def test_a_link_dressing_the_senders_own_name_with_account_words_flags() -> None:
    found = ev(mail("Riverside Juniors <secretary@riverside-juniors.org.uk>", "Subs",
                    "Pay online: https://riverside-juniors-payments.co/pay",
                    to="Parent <parent@gmail.com>"))
    assert found.flagged
    # the sender's own events site is not an account word
    events = ev(mail("Riverside Juniors <secretary@riverside-juniors.org.uk>", "Fixtures",
                     "Fixtures: https://riverside-juniors-events.org/list",
                     to="Parent <parent@gmail.com>"))
    assert not any("dressed in the name" in r for r in events.reasons())


def test_a_stranded_friend_who_can_only_email_is_flagged() -> None:
    found = ev(mail("Bea Owens <bea.owens.arch@gmail.com>", "sorry to ask",
                    "My bag was stolen with my cards and passport in Lisbon. Could you lend me"
                    " £600? I can only email at the moment.", to="Tom <tom@studio.example>"))
    assert found.flagged, found.reasons()


def test_a_korean_selected_loan_offer_is_a_windfall_shape() -> None:
    found = ev(mail("지원센터 <loan@support-fund.example>", "[안내] 저금리 대환대출 대상자 선정",
                    "대상자로 선정되셨습니다. 오늘 마감"))
    assert "prize, inheritance or windfall" in found.reasons()


def test_a_colleague_warning_of_changed_wire_instructions_is_not_flagged() -> None:
    from mailmoat.judge.cascade import classify
    raw = mail("Victor Hale <victor@hale-law.example>", "Wire instructions changed?? - Elm St",
               "The buyer's bank rang: they got an email 'from us' with a new account number. "
               "We sent no such email. The wire is queued for 11am; they need a partner's "
               "written confirmation within the hour.", to="Dana <dana@hale-law.example>")
    trace = classify(parse_message(raw))
    assert not trace.evidence["phishing_flag"] and trace.decision.lane is Lane.PUSH
    # the same words from outside the firm are a redirection lure
    outside = ev(raw.replace(b"victor@hale-law.example", b"victor@hale-law-escrow.example"))
    assert outside.flagged


def test_a_council_warning_of_enforcement_from_a_government_domain_is_not_a_lure() -> None:
    body = ("Please stop work on the roof today; continuing would breach the consent and "
            "enforcement action will follow. Please call me before 4pm.")
    council = ev(mail("Nia Hart <nia.hart@conservation.county.gov.uk>", "Works must stop", body))
    assert not council.reasons() and not council.cold_unsolicited
    stranger = ev(mail("Nia Hart <nia.hart@county-enforcement.example>", "Works must stop",
                       body))
    assert "threat of legal action or seizure" in stranger.reasons()


@pytest.mark.parametrize(("sender", "body", "reason"), [
    ("Procurement <buy@gulf-trading-llc.ae.com>", "We want 500 tonnes monthly.",
     "a domain wearing another domain's ending"),
    ("University IT <it-service@leeds-ac-uk.help>", "Validate your account by 23:59 today.",
     "a domain wearing another domain's ending"),
    ("Alan Hart <alan.hart.invest@outlook.com>", "Our AI-driven crypto arbitrage fund returned "
     "4.2% weekly. Shall I open your account?", "prize, inheritance or windfall"),
    ("Relief Appeal <relief.appeal@gmail.com>", "Can you make a donation? We have no charity "
     "account yet, so please transfer to our coordinator's personal account.",
     "a donation by bank transfer"),
    ("Zosia <zosia.n@gmail.com>", "Telefon mi padł, możesz mi wygenerować kod BLIK i przesłać "
     "tutaj?", "gift cards or wire"),
    ("Kundenservice <service@karten-hilfe.example>", "Bitte bestätigen Sie Ihre Identität mit "
     "Ihren Zugangsdaten: https://karten-hilfe.example/login", "credential"),
    # an advance fee: paid first to unlock money promised to the reader
    ("Hugo Marsh <hugo@marsh-family-office.example>", "We will invest GBP 400,000 in your "
     "studio. Our compliance needs an escrow setup fee of GBP 2,900, refunded at closing.",
     "payment or fee request"),
    ("박지영 매니저 <jy.park@home-side-job.example>", "첫 미션 완료 시 3만원 지급. 고수익 미션은 "
     "일정 금액 예치 후 참여 가능합니다.", "payment or fee request"),
    # a refund asked to another card than the one charged
    ("Ruth Ames <ruth.ames@mailbox-one.example>", "You charged me twice. My card was "
     "cancelled, so please refund it to my son's card instead: 4556 0000 1111 2222.",
     "money redirected"),
    # the overpaying buyer who wants the forwarder paid from the extra
    ("Nina Valli <nina@valli-interiors.example>", "Please charge an extra EUR 3,900 on the "
     "card and pay the forwarder directly by bank transfer.", "to pass on to a third party"),
    # "if you did not order this, cancel now" in Korean: the callback lure
    ("쇼핑몰 고객센터 <cs@shop-cs.example>", "결제금액: 1,190,000원. 본인이 주문하지 "
     "않으셨다면 아래 고객센터로 즉시 취소 신청해 주세요. 070-0000-0000",
     "a charge to cancel by phone"),
    # a second-hand seller asking for the deposit first
    ("판매자 <seller77@freemail.example>", "전자칠판 계약금 먼저 보내주시면 바로 발송해 "
     "드릴게요.", "payment or fee request"),
    # a threat with a word between: "to avoid listing suspension", "avoid further penalties"
    ("StayHub Partners <partner@stayhub-partners.example>", "A guest filed a complaint. Sign "
     "in and respond within 24 hours to avoid listing suspension.", "threat of legal action"),
    ("Registrar <filing@registrar-filings.example>", "Your statement is overdue. File within "
     "7 days to avoid further penalties.", "threat of legal action"),
    # the boss's "private one": a private address asked to be used
    ("Ruth Adeyemi <ruth.adeyemi@freemail.example>", "Could you send me the subject log as "
     "Excel to this address? It's my private one, sorry, just for today.", "secrecy"),
    # a Spanish bank's words: a card number and the internet key asked for
    ("Banco Sur <alertas@bancosur-pagos.example>", "Deberá ingresar su número de tarjeta y "
     "su clave de internet para anular la operación.", "credentials"),
    # a link that downloads an archive: how malware is handed over
    ("Claims Desk <claims@image-rights.example>", "Pay the licence fee within 5 days. The "
     "evidence can be downloaded here: https://image-rights.example/case/4411.zip",
     "a link to download an archive"),
    # the overpaying buyer, the amount named: "wire the $2,400 to the driver"
    ("Robert <robert.events@mailbox-one.example>", "I will pay by card including $2,400 "
     "extra. Once the charge clears, wire the $2,400 to the driver.", "to pass on to a third"),
    # the seller who cannot show the goods: a deposit first, to beat other buyers
    ("Andrea <andrea.boats@freemail.example>", "Many buyers are interested, so please send a "
     "20% deposit to hold the boat.", "payment or fee request"),
    ("모집팀 <job@sidejob-team.example>", "업무 보증금 5만 원 입금 후 바로 시작하세요.",
     "payment or fee request"),
    # a government body's name from a commercial domain
    ("U.S. Department of Agriculture <payments@farm-disbursement.net>", "Your payment is "
     "approved.", "a government body's name"),
    ("FDA Registration Renewal Services <renewals@food-facility-registrar.net>", "Renew your "
     "food facility registration.", "a government body's name"),
    # a national body or a register by its kind
    ("Companies House <enforcement@companieshouse-filings.net>", "A late filing penalty of "
     "GBP 750 has been issued.", "a government body's name"),
    ("National Maritime Center <credentialing@uscg-nmc-renewal.org>", "Your credential "
     "renewal fee is outstanding.", "a government body's name"),
    # a card approval "to report if it was not you", in Korean: the callback lure
    ("해외결제 승인알림 <card.approval@freemail.example>", "해외승인 USD 980.00. 본인 사용이 "
     "아닌 경우 즉시 고객센터로 연락 바랍니다. 02-0000-0000", "a charge to cancel by phone"),
    # an overpayment to send back, in Korean
    ("강민석 <mskang@freemail.example>", "예약금 40만원 대신 실수로 400만원을 이체했어요. 차액 "
     "360만원을 돌려주실 수 있을까요?", "money redirected"),
    # "speak to no one about it"
    ("Geschäftsführung <ceo.office@freemail.example>", "Ich brauche heute noch eine "
     "Überweisung. Sprechen Sie mit niemandem darüber.", "secrecy"),
    # a relative's account; a bank "changed for tax reasons"; "write only to this address"
    ("Alhaji <alhaji.m@freemail.example>", "Please do the refund today to my cousin's account "
     "below, my own account is blocked.", "money redirected"),
    ("Javier <jruiz@ebro-export.example>", "Por un cambio de entidad bancaria, transfiera el "
     "anticipo a la siguiente cuenta. No utilice la cuenta anterior.", "money redirected"),
    ("Claire <c.fabre@parfums-sud.example>", "Merci d'écrire uniquement à cette adresse, notre "
     "messagerie habituelle est en migration.", "secrecy"),
    # the phone turned away: a hijacked friend, a look-alike client
    ("Achieng <achieng.o@freemail.example>", "My bag was stolen, can you send 25,000 to the "
     "hotel manager? Please don't call my number, it's gone. Just reply here.", "secrecy"),
    ("Naomi <n.fujita@kikuyo-hr.net>", "Please send the passport scans by 17:00. I am "
     "travelling and cannot take calls.", "secrecy"),
    ("Kerstin <k.albers@hotelbedarf.net>", "Bitte liefern Sie an die neue Adresse. Ich bin "
     "diese Woche nur per Mail erreichbar.", "secrecy"),
    # the befriending scam's opener
    ("Grace <grace.invest88@freemail.example>", "Is this still your email? Oh sorry, it seems "
     "I have the wrong address... Maybe we can be friends?", "wrong-address opener"),
    # the registry's fine print; the licence audit's court threat; the reader's name worn
    # by another domain in the From address
    ("Central Registry <registratie@central-register.net>", "Annual registration of your "
     "company data. Payment of this offer implies acceptance of our conditions. This "
     "registration is not mandatory.", "registry"),
    ("Compliance <compliance@licence-audit.net>", "To avoid legal proceedings you may settle "
     "the matter out of court by paying USD 14,900.", "threat"),
    ("Mail Administrator <no-reply@studio-nz.mailquota.net>", "Your mailbox has reached its "
     "quota.", "wears the reader's organisation's name"),
    # an advance fee in Spanish
    ("Khalid <k.trading@trade-mail.net>", "Nuestro agente gestiona el registro por 850 € "
     "(tasa única).", "payment or fee request"),
    # "selected as a beneficiary farm", in Korean
    ("지원센터 <support@farm-subsidy.net>", "고랭지 채소 긴급지원금 대상 농가로 선정되었습니다.",
     "windfall"),
    # can't phone, in a meeting, don't tell anyone: in Italian, Romanian and Portuguese
    ("Papà <papa.ufficio@freemail.net>", "Sono in riunione con il notaio e non posso "
     "telefonare. Non dirlo ancora a tuo fratello.", "secrecy"),
    ("Director <director.firma@freemail.net>", "Sunt într-o ședință și nu pot să vorbesc. "
     "Am nevoie de un transfer azi.", "secrecy"),
    ("Diretor <diretor@freemail.net>", "Estou numa reunião e não posso atender. Preciso de "
     "uma transferência hoje.", "secrecy"),
    # out of reach and keeping the others out of it
    ("Megan <megan@studio-north.net>", "I'm boarding for Toronto. Can you approve the first "
     "milestone today? Don't loop in finance yet.", "secrecy"),
    # a sign-in with the company address asked for; a deposit to release a gift
    ("Park <jhpark@timber-trade.net>", "Please confirm by signing in with your company email "
     "below.", "credentials"),
    ("Trust <donations@boat-trust.net>", "The recipient must pay a once-off clearance deposit "
     "of USD 1,250.", "payment or fee request"),
    # a bank's verification asked for, in Polish
    ("Bank <powiadomienia@bank-biznes-konto.net>", "Prosimy o weryfikację danych w ciągu 24 "
     "godzin. Zweryfikuj konto.", "credentials"),
    # Portuguese: a Pix to a stranger's key, the "new e-mail" relative, court costs by Pix
    ("Davi <davi.novo@freemail.net>", "mãe esse é meu email novo, perdi meu celular. manda um "
     "pix pra chave do pai do meu amigo.", "secrecy"),
    ("Escritório <escritorio.adv@freemail.net>", "Para liberação é necessário o recolhimento "
     "das custas de desarquivamento via PIX.", "payment or fee request"),
    # French: pay the invoice on the following account
    ("Forages <forages@freemail.net>", "Merci d'effectuer le paiement de la facture sur le "
     "compte suivant, suite au changement de compte.", "money redirected"),
    # Italian: the bank details varied
    ("Mirco <m.corradi@scatole-ime.net>", "Oggetto: variazione coordinate bancarie. Vi "
     "preghiamo di eseguire il pagamento sul nuovo conto.", "money redirected"),
    # an order to be delivered to a new warehouse
    ("Claire <c.dumont@maison-meuble.net>", "Nous avons besoin de 240 canapés, livraison à "
     "notre nouvel entrepôt partenaire à Rouen.", "goods sent to a new address"),
    # Greek: in a meeting, can't talk, a new account; Swahili: a processing fee, the PIN
    ("Διευθυντής <gd.nafsolp@freemail.net>", "Είμαι σε σύσκεψη και δεν μπορώ να μιλήσω. Θέλω "
     "να γίνει μια πληρωμή σήμερα.", "secrecy"),
    ("Λογιστήριο <logistirio@kalymnos-supply.net>", "Σας παρακαλούμε η πληρωμή να γίνει στον "
     "νέο λογαριασμό της εταιρείας μας.", "money redirected"),
    ("Mikopo <mikopo.haraka@freemail.net>", "Mkopo wako umeidhinishwa. Lipa ada ya usindikaji "
     "ya KSh 1,500 kwanza.", "payment or fee request"),
    ("Huduma <huduma@pesa-huduma-ke.net>", "Akaunti yako imesimamishwa. Thibitisha taarifa "
     "zako na PIN yako hapa.", "credentials"),
    # a fee before the money, in Spanish, Korean and Japanese
    ("Peritos <tramites@peritos-agrarios.net>", "Para cobrar el adelanto debe abonar la tasa de "
     "tramitación de 90 € por transferencia.", "payment or fee request"),
    ("지원센터 <help@fund-center.net>", "신속 심사를 위해 보증료를 선납하셔야 합니다.",
     "payment or fee request"),
    ("事務局 <jimu@ringyo-shien.net>", "登録手数料（72,000円）を下記口座にお振込ください。",
     "payment or fee request"),
    # a third party paid out of a card charge: the booking overpayment fraud
    ("Ahmed <ahmed.trips@freemail.net>", "Our driver will collect USD 2,000 from you after the "
     "card payment, he only accepts bank transfer.", "payment or fee request"),
    # a flatmate's account, the old number gone; kept confidential; far below the market
    ("Lena <lena.k@freemail.net>", "Bitte überweise 650 € auf das Konto von meiner "
     "Mitbewohnerin.", "money redirected"),
    ("Lena <lena.k@freemail.net>", "Die alte Nummer geht nicht, schreib mir bitte nur hier.",
     "secrecy"),
    ("Rachel <r.donnelly@northgate-sports.net>", "Please treat this as confidential until the "
     "review is closed and wire the settlement by Friday.", "secrecy"),
    ("김대성 <ds.kim@freemail.net>", "외부에는 알리지 말아 주세요. 구좌는 금요일 마감입니다.",
     "secrecy"),
    ("Seller <sales@urea-stock.net>", "Urea 46% at 30% below market price, 24 tonnes left.",
     "windfall"),
    # a Japanese CEO in a meeting who wants gift cards
    ("仲宗根 <nakasone.h@freemail.net>", "会議中で電話に出られません。Apple ギフトカードを"
     "1万円分×5枚購入して番号を送ってください。", "gift cards"),
    # Dutch: the "new number" child, money to someone else's account
    ("Sanne <sanne.2009@freemail.net>", "Hoi pap, dit is mijn nieuwe nummer, mijn telefoon is "
     "kapot.", "secrecy"),
    ("Sanne <sanne.2009@freemail.net>", "Kun je 870 euro overmaken op de rekening van mijn "
     "vriendin?", "money redirected"),
    # a deposit to lock a bargain others want, money to a person's phone wallet, a fee passed
    # on to an agent from the reader's account, a proforma kept from the buyer's own office
    ("Brokers <leases@quota-brokers.net>", "Several boats are interested; the first to send "
     "the escrow deposit by Friday gets the quota.", "payment or fee request"),
    ("Release Desk <release.desk@freemail.net>", "Please pay the surcharge by MoMo to the "
     "release officer on 0506 555 000 today.", "payment or fee request"),
    ("Margaret <margaret.e@freemail.net>", "The transfer includes the agent's fee, which I ask "
     "you to forward to the agent once the money is in your account.", "payment or fee request"),
    ("Purchasing <purchasing@vac-eu-hub.net>", "Please send your proforma only to this "
     "address, our Eindhoven office is not involved in this project.", "secrecy"),
    # what the sign-in page will take
    ("Portal <noreply@export-portal.net>", "You will need your exporter username, password and "
     "the one-time code sent to your phone.", "credentials"),
    # Croatian CEO fraud: no one may know, from my private mail, don't call
    ("Damir <damir.uprava@freemail.net>", "Trebam uslugu, ali diskretno, još nitko u firmi ne "
     "smije znati. Pišem s privatnog maila, nemoj zvati.", "secrecy"),
    # a consignee changed; a guaranteed buy-back; a driver who takes no cards; a personal
    # mail and a bargain others want (Spanish); a dedicated account and "ne pas contacter";
    # "통화는 어렵고 메일로만"
    ("Kelvin <kelvin@seafood-hk.net>", "For the next shipment please change the consignee to "
     "our new partner and release the original AWB to them.", "goods sent to a new address"),
    ("Cask Partners <invest@cask-partners.net>", "Average growth of 12% a year with a "
     "guaranteed buy-back after five years.", "windfall"),
    ("Stephen <cycletours@freemail.net>", "The agent adds R18,500 for the bike transport, to "
     "pay the driver in cash, as the driver does not accept cards.", "payment or fee request"),
    ("Rocío <rocio.g@freemail.net>", "Te escribo desde mi correo personal. La propietaria "
     "pide una fianza hoy.", "secrecy"),
    ("Rocío <rocio.g@freemail.net>", "La propietaria tiene varias personas interesadas y pide "
     "una fianza hoy.", "payment or fee request"),
    ("Comptabilité <compta@caoutchouc-dome.net>", "Merci de régler sur notre compte dédié aux "
     "refacturations.", "money redirected"),
    ("Comptabilité <compta@caoutchouc-dome.net>", "Merci de ne pas contacter Mme Garnier à ce "
     "sujet.", "secrecy"),
    ("정 대표 <ceo.jung@freemail.net>", "출장 중이라 통화는 어렵고 메일로만 연락해요.", "secrecy"),
    # the landlord abroad; a price far below the index against an advance; goods loaded on
    # funds still to arrive; "contesta solo a esta dirección"; a Portuguese portal's password
    ("Brandon <bk.rentals@freemail.net>", "I am working abroad so I cannot show the apartment "
     "in person; the keys will be mailed to you after the deposit.", "payment or fee request"),
    ("Kevin <sales@lithium-trade.net>", "USD 6,850/MT, 38% below the current index, 50% T/T "
     "advance to secure the cargo.", "payment or fee request"),
    ("Carlos <compras@pescados-import.net>", "Adjunto el justificante SWIFT. Cargue los camiones "
     "mañana; los fondos llegarán en 48-72 h.", "goods sent to a new address"),
    ("Iria <compras@lacteas-norte.net>", "Para agilizar, contesta solo a esta dirección.",
     "secrecy"),
    # Finnish CEO fraud and a bank's look-alike: gift cards, "in a meeting and can't phone",
    # "confirm your identity"
    ("Kari <kari.office@freemail.net>", "Voisitko ostaa 10 kpl Google Play -lahjakortteja?",
     "gift cards"),
    ("Kari <kari.office@freemail.net>", "Olen palaverissa koko päivän enkä pysty soittamaan.",
     "secrecy"),
    ("Pankki <asiakaspalvelu@pankki-verkko.net>", "Voit avata tunnukset vahvistamalla "
     "henkilöllisyytesi alla olevasta linkistä.", "credentials"),
    ("Balcão <notificacoes@agri-balcao.net>", "Confirme os dados até às 23:59 de hoje. "
     "Necessitará da senha de acesso ao portal.", "credentials"),
    # money "sent by mistake" to send back, in French; payments only to the new account, in
    # Italian; a refundable retainer first; a job paid by the day, hired over Telegram
    ("Voyages <voyages.ecole@freemail.net>", "Suite à une erreur de virement, pourriez-vous nous "
     "rembourser la différence ?", "money redirected"),
    ("Amministrazione <amm@forniture-sud.net>", "I pagamenti vanno effettuati esclusivamente "
     "sul nuovo conto indicato.", "money redirected"),
    ("Evelyn <evelyn@seed-partners.net>", "The company's share of the due diligence retainer is "
     "USD 8,500, fully refundable against the first tranche.", "payment or fee request"),
    ("Jobs <hr@review-jobs.net>", "Earn RM 150 - RM 300 daily. Add our HR coordinator on "
     "Telegram to start.", "windfall"),
    # the landlord who cannot show the flat and posts the keys, in Korean
    ("민석 <rent.qt@freemail.net>", "직접 보여드릴 수는 없고, 보증금을 보내주시면 열쇠를 택배로 "
     "보내드립니다.", "payment or fee request"),
    # "Überweisung" opens with "Ü", where RE2's ASCII "\\b" does not stand
    ("Hilfswerk <hilfe.flut@freemail.net>", "Bitte spenden Sie jetzt per Überweisung für die "
     "Flutopfer.", "donation"),
    # don't call, the phone is dead, another mailbox: German, Italian, French, Spanish,
    # Finnish and Swedish, and the Galician "lost my phone"
    ("Ute <ute.brandt@freemail.net>", "Kannst du die Rechnung heute begleichen? Ruf nicht an, "
     "ich bin in der Besprechung.", "secrecy"),
    ("Zia <zia.carla@freemail.net>", "Fammi il bonifico entro stasera. Non chiamarmi, il "
     "telefono mi si è scaricato.", "secrecy"),
    ("Paul <paul.mercier@freemail.net>", "Je t'écris de ma boîte perso. Tu peux faire le "
     "virement avant midi ?", "secrecy"),
    ("Mikko <mikko.uusi@freemail.net>", "Moi, tää on mun uus numero ja sposti. Älä soita "
     "vanhaan, maksa lasku tänään.", "secrecy"),
    ("Olle <olle.berg@freemail.net>", "Hej farmor, detta är min nya mejl. Ring inte, jag har "
     "ingen täckning.", "secrecy"),
    ("Papá <papa.novo@freemail.net>", "Filla, perdín o móbil. Manda 200 € a esta conta e non "
     "lle digas nada a túa nai.", "secrecy"),
])
def test_more_scam_shapes_are_read(sender: str, body: str, reason: str) -> None:
    found = ev(mail(sender, "Hello", body, to="Aroha <aroha@studio.example>"))
    assert any(reason in r for r in found.reasons()), found.reasons()


def test_a_name_dressed_with_german_account_words_is_a_shape() -> None:
    found = ev(mail("Sparkasse <kundenservice@sparkasse-kartensperre.de>", "Karte gesperrt",
                    "Bitte schalten Sie Ihre Karte frei."))
    assert any("dressed with account words" in r for r in found.reasons())
    # a savings bank's own regional domain is not dressed
    own = ev(mail("Sparkasse Freiburg <kartenservice@sparkasse-freiburg.de>", "Zahlung",
                  "Bitte bestätigen Sie die Zahlung in der App."))
    assert not any("dressed" in r for r in own.reasons())


OWN_PASS = ("mx.acme-corp.com; spf=pass smtp.mailfrom=acme-corp.com; dkim=pass "
            "header.d=acme-corp.com; dmarc=pass header.from=acme-corp.com")


def test_an_urgent_alarm_from_the_readers_own_authenticated_systems_pushes() -> None:
    subject, body = ("[EMERGENCY] Cold store 2 at 9 C", "Cold store 2: temperature 9.1 C, "
                     "limit 5 C.\n\nAutomated message.")
    own = mail("Plant monitor <noreply@acme-corp.com>", subject, body,
               Authentication_Results=OWN_PASS)
    assert classify(parse_message(own)).decision.lane is Lane.PUSH
    # the same robot's words from outside the organisation are a notice, not an interruption
    other = mail("Plant monitor <noreply@coldwatch.example>", subject, body,
                 Authentication_Results=OWN_PASS.replace("acme-corp.com", "coldwatch.example"))
    assert classify(parse_message(other)).decision.lane is not Lane.PUSH
    # and a claim of the reader's domain that is not authenticated is no one's own systems
    claimed = mail("Plant monitor <noreply@acme-corp.com>", subject, body)
    assert classify(parse_message(claimed)).decision.lane is not Lane.PUSH


@pytest.mark.parametrize(("sender", "body", "reason"), [
    # the fake-cheque buyer: more than the price, the rest to pass on once it clears
    ("Sam Reed <sam.reed@mailbox-one.example>", "I will pay by cheque for the lessons and "
     "include extra money for my driver, which you will kindly transfer to him after it "
     "clears.", "to pass on to a third party"),
    ("Lee <lee.buyer@seamail.example>", "Payment by card in full, with our agent's fee in it. "
     "Kindly forward that amount to the agent once the card clears.",
     "to pass on to a third party"),
    # a register's fee nobody ordered, told in other words
    ("EU VAT Register <office@vat-register.example>", "Your company is listed in the European "
     "VAT Number Register. Annual publication fee: EUR 1,195.", "nobody ordered"),
    ("Biz Directory <renewals@biz-directory.example>", "Your business listing in the Online "
     "Directory is due for annual renewal. Amount: $899.", "nobody ordered"),
    # the boss who cannot call, in German
    ("Martin <martin.k@posteo-mail.example>", "Ich sitze im Termin und kann nicht telefonieren. "
     "Bitte behandle das vertraulich.", "secrecy"),
])
def test_scam_shapes_of_the_twenty_first_pass_are_read(sender: str, body: str,
                                                       reason: str) -> None:
    found = ev(mail(sender, "Hello", body, to="Aroha <aroha@studio.example>"))
    assert any(reason in r for r in found.reasons()), found.reasons()


def test_a_buyer_paying_the_price_or_a_register_named_alone_is_no_shape() -> None:
    plain = ev(mail("Kim <kim@buyer.example>", "Order", "We will pay the invoice by transfer "
                    "and our driver will collect on Friday.", to="Aroha <aroha@studio.example>"))
    assert not plain.reasons()
    register = ev(mail("Council <licensing@council.example>", "Register",
                       "Your premises are on the food register; the renewal of your "
                       "licence is due in May.",
                       to="Aroha <aroha@studio.example>"))
    assert not any("nobody ordered" in r for r in register.reasons())


def test_a_name_dressed_with_payout_or_file_words_is_a_shape() -> None:
    found = ev(mail("DeskHive Billing <billing@deskhive-payouts.com>", "Payouts paused",
                    "Verify your account to release them."))
    assert any("dressed with account words" in r for r in found.reasons())


def test_the_readers_name_under_another_ending_weighs_only_beside_a_lures_shape() -> None:
    body = ("Je vais avoir besoin de votre aide pour un règlement aujourd'hui. Merci de ne pas "
            "en parler en interne, c'est soumis à une clause de confidentialité.")
    lure = ev(mail("Bertrand <b.allard@tramaline.com>", "Opération", body,
                   to="Julien <julien@tramaline.fr>"))
    assert lure.flagged, lure.reasons()
    # a sister company writing from its own ending, with no lure's shape, is no shape
    sister = ev(mail("Javier <javier@tramaline.es>", "Cargo devuelto",
                     "El cargo de mayo ha sido devuelto, ¿puedes revisarlo hoy?",
                     to="Julien <julien@tramaline.fr>"))
    assert not sister.reasons()



def test_a_name_with_accents_or_joined_letters_is_read_in_its_dressed_domain() -> None:
    # "Øresund" is spelt "oresund" in a domain; before, the name never met its domain
    found = ev(mail("Øresund Bank <security@oresundbank-login.example>", "New sign-in",
                    "Block access now."))
    assert any("dressed with account words" in r for r in found.reasons()), found.reasons()
    accented = ev(mail("Crédit Rhône <alerte@creditrhone-securite.example>", "Accès",
                       "Confirmez votre identité."))
    assert any("dressed with account words" in r for r in accented.reasons())


def test_the_readers_own_authenticated_systems_naming_a_brand_are_no_brand_claim() -> None:
    # "Studio UPS" is the power supply's monitor, not the courier
    subject, body = ("UPS ON BATTERY - mains failure, 11 min remaining",
                     "Utility power failure, running on battery. Load 64 %.")
    own = mail("Studio UPS <ups-monitor@acme-corp.com>", subject, body,
               Authentication_Results=OWN_PASS)
    assert not ev(own).reasons()
    assert classify(parse_message(own)).decision.lane is Lane.PUSH
    # the same name from outside, or not authenticated, is still a brand claim
    claimed = mail("Studio UPS <ups-monitor@acme-corp.com>", subject, body)
    assert any("claims ups" in r for r in ev(claimed).reasons())


@pytest.mark.parametrize(("body", "windfall"), [
    ("Sgt Brooks here. I hold $4.5 million in a trunk box and need a trustworthy person.", True),
    ("You have won EUR 850,000 in the Euro Millions draw.", True),
    # a business's own big figures and words are no windfall
    ("The ship's agent says you won't need the certificate; cover is 10 million per event.",
     False),
    ("Please check the beneficiary name and account on the payment instruction.", False),
])
def test_a_windfall_is_money_promised_not_a_big_figure(body: str, windfall: bool) -> None:
    found = ev(mail("Pat Lee <pat@partner.example>", "Hello", body,
                    to="Aroha <aroha@studio.example>"))
    assert any("windfall" in r for r in found.reasons()) is windfall, found.reasons()



def test_a_name_dressed_with_spanish_account_words_is_a_shape() -> None:
    found = ev(mail("BBVA <alertas@bbva-confirmaciones.example>", "Confirme la operación",
                    "Si usted no reconoce esta operación, ingrese para anularla."))
    assert any("dressed with account words" in r for r in found.reasons()), found.reasons()


def test_github_is_a_brand_read_in_display_names() -> None:
    found = ev(mail("GitHub <security@githubsecurity-alerts.net>", "Unusual sign-in",
                    "Verify your account."))
    assert any("claims github" in r for r in found.reasons()), found.reasons()


def test_a_brands_own_notice_closing_with_why_you_received_it_is_not_a_cold_contact() -> None:
    body = ("Suspicious login and a new forwarding rule on your account. You received this email "
            "because you are an administrator of this account.")
    own = mail("Google Workspace <workspace-noreply@google.com>", "Security alert", body,
               Authentication_Results="mx.example.org; spf=pass smtp.mailfrom=google.com; "
               "dkim=pass header.d=google.com; dmarc=pass header.from=google.com")
    assert not ev(own).cold_unsolicited
    # the same words from a stranger's domain keep the shape
    other = mail("Account Team <alerts@account-notices.net>", "Security alert", body,
                 Authentication_Results="mx.example.org; spf=pass smtp.mailfrom=account-notices"
                 ".net; dkim=pass header.d=account-notices.net; dmarc=pass "
                 "header.from=account-notices.net")
    assert ev(other).cold_unsolicited


def _auth_pass(domain: str) -> str:
    return (f"mx.acme-corp.com; spf=pass smtp.mailfrom={domain}; dkim=pass header.d={domain}; "
            f"dmarc=pass header.from={domain}")


_TAKEOVER = ("Google detected a suspicious login to dana@acme-corp.com from an unusual "
             "location. Since then the account has sent 312 messages to external recipients "
             "and a new mail forwarding rule was created. Review the user's activity in the "
             "Admin console.")


def test_ph4_an_incident_told_by_the_provider_itself_pushes_only_when_authenticated() -> None:
    subject = "Alert: Suspicious login and new mail forwarding rule - dana@acme-corp.com"
    own = mail("Google Workspace Alerts <google-workspace-alerts-noreply@google.com>", subject,
               _TAKEOVER, Authentication_Results=_auth_pass("google.com"))
    assert ev(own).brand_verified
    trace = classify(parse_message(own))
    assert trace.signals.brand_verified
    assert trace.decision.lane is Lane.PUSH
    # the same words: from a look-alike that passes for itself, as a spoof failing DMARC,
    # and with no Authentication-Results at all (nothing vouches for the sender) ...
    lookalike = mail("Google Workspace Alerts <alerts@workspace-admin-alerts.net>", subject,
                     _TAKEOVER, Authentication_Results=_auth_pass("workspace-admin-alerts.net"))
    spoof = mail("Google Workspace Alerts <google-workspace-alerts-noreply@google.com>",
                 subject, _TAKEOVER, Authentication_Results=FAIL.replace("paypal", "google"))
    bare = mail("Google Workspace Alerts <google-workspace-alerts-noreply@google.com>",
                subject, _TAKEOVER)
    for raw in (lookalike, spoof, bare):
        assert not ev(raw).brand_verified
        assert classify(parse_message(raw)).decision.lane is not Lane.PUSH
    # ... and a brand's own domain under another brand's name vouches for neither
    worn = mail("PayPal Security <alerts@google.com>", subject, _TAKEOVER,
                Authentication_Results=_auth_pass("google.com"))
    assert not ev(worn).brand_verified


_GOOGLE = "Google Workspace Alerts <google-workspace-alerts-noreply@google.com>"
_DEFENDER = "Microsoft Defender <defender-noreply@microsoft.com>"
_QUOTING = ("Alert: Suspicious inbox forwarding rule. User: dana@acme-corp.com. 214 messages "
            "sent to external recipients with the subject 'Updated payment instructions - "
            "new bank account'.")


@pytest.mark.parametrize(("sender", "subject", "body", "lane"), [
    # an attempt the provider blocked: kept in sight, not pushed
    (_GOOGLE, "Alert: Suspicious login blocked for dana@acme-corp.com",
     "We blocked a sign-in attempt to dana@acme-corp.com that looked suspicious. The attempt "
     "used the correct password, but came from an unusual location.", Lane.QUEUE),
    ("Google Workspace <workspace-noreply@google.com>",
     "Security alert: suspicious sign-in prevented", "Someone tried to sign in to "
     "dana@acme-corp.com with your password from a device you don't usually use. We blocked "
     "the attempt.", Lane.QUEUE),
    # a mailbox made to forward outside the organisation, in other words, still pushes
    (_GOOGLE, "Alert: Gmail forwarding rule to external address - dana@acme-corp.com",
     "A user setting change was detected that forwards mail outside your organization. "
     "Forwarding address: dana.finance@mailbox.net", Lane.PUSH),
    ("Microsoft 365 <no-reply@microsoft.com>",
     "Alert: Creation of forwarding/redirect rule - dana@acme-corp.com",
     "Details: New inbox rule forwards messages containing \"payment\", \"invoice\" to an "
     "external address and marks them as read.", Lane.PUSH),
    # the lure's subject quoted by the brand's own alert is the attack it reports
    (_DEFENDER, "High-severity alert: Suspicious inbox forwarding rule", _QUOTING, Lane.PUSH),
])
def test_ph4_a_providers_own_notice_pushes_an_incident_not_a_blocked_attempt(
        sender: str, subject: str, body: str, lane: Lane) -> None:
    domain = sender.rpartition("@")[2].rstrip(">")
    raw = mail(sender, subject, body, Authentication_Results=_auth_pass(domain))
    assert not ev(raw).flagged
    assert classify(parse_message(raw)).decision.lane is lane


def test_ph4_a_look_alike_quoting_a_redirection_keeps_its_shape() -> None:
    other = mail("Microsoft Defender <defender@defender-alerts-center.net>",
                 "High-severity alert: Suspicious inbox forwarding rule", _QUOTING,
                 Authentication_Results=_auth_pass("defender-alerts-center.net"))
    assert classify(parse_message(other)).decision.lane is not Lane.PUSH


_EXTRANET = ("You have 1 unread message from a guest about reservation #LB-8841207: \"I was "
             "charged twice, please check urgently.\"\n\nPlease log in to the extranet to reply "
             "within 24 hours, or your response score drops.\n\n"
             "https://harbourbeds-partnerhub.com/extranet/login")


def test_an_ask_to_sign_in_through_a_link_is_a_lures_shape() -> None:
    lure = mail("HarbourBeds Extranet <guest-messages@harbourbeds-partnerhub.com>",
                "New guest message - reply within 24 h", _EXTRANET)
    evidence = ev(lure)
    assert "asks to sign in through a link" in evidence.reasons()
    assert evidence.cold_unsolicited
    assert classify(parse_message(lure)).decision.lane is not Lane.PUSH
    # in other languages too
    for words in ("Connectez-vous à votre espace client :", "Accedi al portale per confermare:",
                  "Melden Sie sich im Portal an:", "아래 링크에서 로그인하여 확인하세요."):
        other = mail("Portal <notices@harbour-portal.net>", "Notice",
                     f"{words}\nhttps://harbour-portal.net/p")
        assert "asks to sign in through a link" in ev(other).reasons(), words


def test_a_sign_in_shape_needs_an_ask_and_a_link() -> None:
    # trouble reported, not an ask; the word as a noun; a page's menu line; no link at all
    for body in ("Since this morning I can't log in to the portal at https://portal.example.net "
                 "- can you reset it?",
                 "Login server down since 19:02. Dashboard: https://grafana.example.net/d/login",
                 "Top Stories\nhttps://news.example.net/story\n-\nSign In\nNews Home",
                 "Please log in to the extranet to reply to the guest today."):
        got = ev(mail("Desk <desk@harbour-portal.net>", "Portal", body))
        assert "asks to sign in through a link" not in got.reasons(), body


def test_a_sign_in_ask_from_the_readers_own_organisation_or_a_brand_is_no_shape() -> None:
    own = mail("IT Desk <it@acme-corp.com>", "Password change today",
               "Please log in to https://sso.acme-corp.com/password and change it today.",
               Authentication_Results=_auth_pass("acme-corp.com"))
    assert "asks to sign in through a link" not in ev(own).reasons()
    brand = mail("Google <no-reply@accounts.google.com>", "Critical security alert",
                 "Someone has your password. Sign in to review the activity: "
                 "https://accounts.google.com/activity",
                 Authentication_Results=_auth_pass("google.com"))
    assert "asks to sign in through a link" not in ev(brand).reasons()


def test_a_sign_in_link_makes_an_account_details_ask_a_lure() -> None:
    # asking to confirm account details alone, with no authentication results, is what a
    # counterparty writes before a wire; with a sign-in page behind a link it is a lure
    body = ("We blocked an outgoing transfer. Confirm your account details to release it. "
            "Please log in here before 18:00: https://harbourbk.net/login")
    assert ev(mail("Harbour Bank <alerts@harbourbk.net>", "Transfer held", body)).lure
    # (the same ask with no sign-in page is no lure by itself)
    assert not ev(mail("Harbour Bank <alerts@harbourbk.net>", "Transfer held",
                       body.partition(" Please")[0])).lure


@pytest.mark.parametrize("sender", [
    "Banca Ventosa <avvisi@bancaventosa-sicurezza.it>",
    "Kaarthuis <klantendienst@kaarthuis-kaartbeheer.com>",
    "Fjordpost <varsel@fjordpost-melding.com>",
    "Caixa Serrana <suporte@caixaserrana-seguranca.com>"])
def test_a_name_dressed_with_account_words_in_other_languages(sender: str) -> None:
    found = ev(mail(sender, "Notice", "Please read the notice in your account."))
    assert any("dressed with account words" in r for r in found.reasons()), sender


@pytest.mark.parametrize(("body", "reason"), [
    ("Dobrý den, od příštího měsíce prosím plaťte na nové číslo účtu CZ65 0800 0000 1920 "
     "0014 5399.", "money redirected to a new account"),
    ("Jsem na jednání a nemůžu telefonovat. Nikomu to neříkej.",
     "secrecy or pressure to act alone"),
    ("Vyhrál jste 50 000 Kč v naší soutěži!", "prize, inheritance or windfall"),
    ("Na odblokovanie zásielky uhraďte poplatok za doručenie 2,90 EUR.",
     "payment or fee request"),
    ("Kúpte prosím tri darčekové karty po 100 EUR a pošlite mi kódy.", "gift cards or wire"),
])
def test_czech_and_slovak_scam_shapes(body: str, reason: str) -> None:
    found = ev(mail("Pan Horák <horak@stavby-morava.cz>", "Dotaz", body))
    assert reason in found.reasons(), found.reasons()


def test_czech_credentials_asked_behind_a_link() -> None:
    found = ev(mail("Banka <info@banka-overeni.net>", "Účet",
                    "Ověřte svůj účet a zadejte heslo: https://banka-overeni.net/login"))
    assert "asks for credentials or account details" in found.reasons(), found.reasons()


@pytest.mark.parametrize(("subject", "body"), [
    ("Auto: Re: is tomorrow's run going ahead?", "Thank you for your email. Our office is open "
     "Monday to Friday."),
    ("Acknowledgement of receipt - case 2031-77", "Automatic acknowledgement\n\nYour "
     "notification has been received."),
    ("[Ticket #118] Received", "Hello,\n\nthis is an automatic confirmation that we have "
     "received your request."),
])
def test_automatic_acknowledgements_are_auto_replies(subject: str, body: str) -> None:
    assert ev(mail("Desk <desk@service.example>", subject, body)).auto_reply
    # a person's "Auto:" about cars is no auto-reply
    assert not ev(mail("Ann <ann@x.example>", "Auto: which one do we buy?", "Any views?")
                  ).auto_reply


@pytest.mark.parametrize("body", [
    "A new invoice has arrived. To download the invoice, log in: https://e-invoices.example/in",
    "All appointments were cancelled. Companies must log in before 18:00 today: "
    "https://terminal-appts.example/login",
    "새 결재 요청이 도착했습니다. https://approval-portal.example/view (그룹웨어 계정으로 로그인 "
    "필요)",
])
def test_a_sign_in_ask_after_a_comma_a_must_or_in_korean_is_read(body: str) -> None:
    assert "asks to sign in through a link" in ev(mail("Portal <portal@portal.example>",
                                                        "New document", body)).reasons()
    # trouble reported is still no ask: "I can't log in"
    assert "asks to sign in through a link" not in ev(mail(
        "Ann <ann@portal.example>", "VPN", "Since this morning, I can't log in to the VPN: "
        "https://vpn.example")).reasons()


@pytest.mark.parametrize(("body", "shape"), [
    ("Prosimy o aktualizację danych do 19.06: https://zwrot-urzad.example/dane",
     "credential request"),
    ("Our consultants guarantee approval. We only need a 5 % advisory fee upfront.",
     "payment or fee request"),
    ("We are finalising a confidential acquisition. Anna is not informed and should not be "
     "until next week. I count on your discretion.", "secrecy or pressure to act alone"),
    ("Mummy its me, im using my friends ipad. dont tell dad", "secrecy or pressure to act alone"),
])
def test_more_lure_words_are_read(body: str, shape: str) -> None:
    reasons = ev(mail("X <x@stranger.example>", "Hello", body)).reasons()
    assert any(reason.startswith(shape) for reason in reasons)


def test_a_surcharge_is_no_money_sent_back() -> None:
    # "pay the extra $380" to have a loader brought over is a price, not an overpayment
    surcharge = ev(mail("Dusty <dusty@plowing.example>", "Road drifted shut",
                        "Do you want me to pay the extra $380 to have the loader over now?"))
    assert not any(r.startswith("money redirected") for r in surcharge.reasons())
    # sending the difference on is still the overpayment script
    overpaid = ev(mail("Buyer <buyer@mail.example>", "Payment",
                       "Once it clears, please send the difference back to our driver."))
    assert any(r.startswith("money redirected") for r in overpaid.reasons())


def test_a_care_homes_domain_is_no_account_word() -> None:
    reasons = ev(mail("Care Home <nursing@lesvardes-care.example>", "Your mum",
                      "Your mum had a fall this morning. Could you meet her at A&E?")).reasons()
    assert not any("account words" in r for r in reasons)
    # an extranet dressed on a brand's name still is
    dressed = ev(mail("Roomvista Partner Support <partner@roomvista-extranet.example>", "Payout",
                      "Your payout is waiting.")).reasons()
    assert any("account words" in r for r in dressed)


def test_an_alarms_capitals_are_no_shouted_subject() -> None:
    alarm = ev(mail("SCADA <alarms@scada.example>", "ALARM UNACK 20 MIN: COMP-2 OIL TEMP HIGH",
                    "Compressor 2 shut down. Acknowledge the alarm."))
    assert "a shouted subject" not in alarm.reasons() and not alarm.unsolicited
    pitch = ev(mail("Deals <deals@shop.example>", "HUGE SAVINGS ON EVERYTHING TODAY",
                    "Buy now."))
    assert any("shouted subject" in u for u in pitch.unsolicited)


def test_a_change_in_the_senders_banking_redirects_money() -> None:
    found = ev(mail("Harbourside Timber <ar@harbourside-timber.net>", "Overdue: invoice 7731",
                    "Invoice 7731 is now 21 days overdue. Due to a change in our banking, "
                    "please make payment today to the account below."))
    assert "money redirected to a new account" in found.reasons()


def test_a_disclaimer_about_bank_changes_redirects_nothing() -> None:
    found = ev(mail("Corran Legal <office@corranlegal.net>", "Your file",
                    "Please find the draft attached. Corran Legal will never notify you of a "
                    "change to our bank details by email."))
    assert "money redirected to a new account" not in found.reasons()


def test_a_korean_relative_writing_from_a_new_number_is_a_secrecy_shape() -> None:
    found = ev(mail("민지 <minji.lee22@webmail-kr.net>", "엄마 나야",
                    "엄마 나야 폰이 물에 빠져서 새 번호로 연락해. 급하게 100만원만 보내줘."))
    assert "secrecy or pressure to act alone" in found.reasons(), found.reasons()


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Lena <lena.albers.neu@webmail-de.net>", "Hallo Mama, das ist meine neue Mail",
     "Mein Handy ist kaputt. Kannst du heute eine Rechnung für mich bezahlen?"),
    ("Jules <jules.martin2009@webmail-fr.net>", "Papa c'est ma nouvelle adresse",
     "J'ai cassé mon téléphone. Tu peux me faire un virement aujourd'hui ?"),
    ("Ania <ania.k@webmail-pl.net>", "Mamo, to mój nowy numer",
     "Telefon wpadł mi do wody. Możesz mi dziś zapłacić rachunek?"),
])
def test_a_relative_telling_a_new_address_is_the_secrecy_shape(
        sender: str, subject: str, body: str) -> None:
    assert "secrecy or pressure to act alone" in ev(mail(sender, subject, body)).reasons()


@pytest.mark.parametrize("sender", [
    "Daniel Okoro <d.okoro.purchasing@gmail.com>",
    "Rob Hayes <rhayes.corporategifts@outlook.com>",
    "Crew Welfare <crewwelfare.pacificstar@gmail.com>",
])
def test_a_business_role_in_a_free_mail_local_part_is_posing(sender: str) -> None:
    found = ev(mail(sender, "Order request", "Please send your best price for 1,800 cases."))
    assert "free-mail address posing as an institution or role" in found.reasons()


@pytest.mark.parametrize("sender", [
    "Jean-Pierre <jp.legall56@gmail.com>", "Oliver Grant <oliver.grant@gmail.com>",
])
def test_a_persons_free_mail_name_is_no_role(sender: str) -> None:
    found = ev(mail(sender, "Saturday", "Are you still coming on Saturday?"))
    assert "free-mail address posing as an institution or role" not in found.reasons()


@pytest.mark.parametrize(("subject", "body"), [
    ("FINAL NOTICE: truck warranty", "The factory warranty on your 2021 pickup has expired. "
     "Call 1-877-555-0142 today to reactivate coverage."),
    ("Coverage notice", "This is the last attempt to reach you before your file is closed. "
     "Press 1 or call us back."),
])
def test_the_warranty_robocall_is_a_charge_by_phone(subject: str, body: str) -> None:
    found = ev(mail("Auto Coverage Desk <notice@coverage-desk.net>", subject, body))
    assert "a charge to cancel by phone" in found.reasons()


@pytest.mark.parametrize("body", [
    "Your loan may be forgiven in full. A document preparation fee of $249 applies.",
    "We can have the negative review removed before it goes live for a one-time fee of $350.",
    "You have an unpaid toll of $3.10 from 04/02. Settle it online: https://tolls.net/p",
])
def test_a_fee_for_what_costs_nothing_is_a_payment_ask(body: str) -> None:
    found = ev(mail("Relief Desk <help@relief-desk.net>", "Your file", body))
    assert "payment or fee request" in found.reasons()


@pytest.mark.parametrize("body", [
    "Pankkijärjestelyjen vuoksi tilinumeromme on muuttunut. Maksakaa laskut uudelle tilille.",
    "Vi har bytt bank. Betala fakturan till vårt nya kontonummer.",
])
def test_a_new_account_in_finnish_or_swedish_is_money_redirected(body: str) -> None:
    found = ev(mail("Laskutus <laskutus@huolto-oy.net>", "Tilinumero", body))
    assert "money redirected to a new account" in found.reasons()


def test_a_warranty_in_a_product_note_is_no_robocall() -> None:
    body = "Your dishwasher's manufacturer warranty covers parts for two years from delivery."
    found = ev(mail("Kitchen Shop <orders@kitchenshop.net>", "Your order", body))
    assert "a charge to cancel by phone" not in found.reasons()


@pytest.mark.parametrize("sender", [
    "Ohio Dept. of Natural Resources <permits@ohiodnr-permits.net>",
    "Sotsiaalministeerium <toetus@peretoetus-info.net>",
    "Министерство финансов <info@minfin-vozvrat.net>",
])
def test_a_ministry_or_a_dept_by_name_from_a_commercial_domain_is_an_authority_posing(
        sender: str) -> None:
    found = ev(mail(sender, "Your permit", "Your renewal is due."))
    assert any("a government body's name from a non-government domain" in r
               for r in found.reasons())


def test_a_private_service_saying_it_is_not_the_government_is_flagged() -> None:
    body = ("ANNUAL REPORT FEE PAST DUE. Amount due: $225.00. Remit online today. Compliance "
            "Filing Services is a private company and is not affiliated with any government "
            "agency.")
    found = ev(mail("State Business Filings <notice@statebizfilings.net>", "Past due", body))
    assert "a private service's notice dressed as a government's" in found.reasons()
    assert found.flagged


def test_a_russian_ask_to_confirm_identity_or_card_is_a_credential_request() -> None:
    body = "Для получения выплаты подтвердите свою личность и введите данные банковской карты."
    found = ev(mail("Выплаты <pay@vyplata-info.net>", "Компенсация", body))
    assert "asks for credentials or account details" in found.reasons()


@pytest.mark.parametrize("body", [
    "Thank you for your order! Total charged: $1,249.00. If you did not place this order, click "
    "below within 24 hours to cancel: https://shop-orders.net/cancel?o=1",
    "The guest cancelled. You must confirm the refund within 24 hours to avoid a penalty: "
    "https://stay-partner.net/refund?r=2",
])
def test_a_charge_to_undo_behind_a_link_is_a_shape(body: str) -> None:
    found = ev(mail("Orders <orders@shop-orders.net>", "Order confirmed", body))
    assert "a charge or a cancellation to undo behind a link" in found.reasons()


def test_a_charge_to_undo_with_a_failed_authentication_is_flagged() -> None:
    body = ("Order #771 confirmed. Total charged: $980.00. If you did not place this order, "
            "click here to cancel: https://orders-desk.net/cancel")
    raw = mail("Orders Desk <orders@orders-desk.net>", "Order confirmed", body,
               Authentication_Results="mx.acme-corp.com; spf=fail smtp.mailfrom=orders-desk.net")
    assert ev(raw).flagged


def test_a_payment_to_an_account_today_in_korean_is_a_payment_ask() -> None:
    body = "아래 인쇄소 계좌로 오늘 중 송금 부탁드립니다. 금액: 1,200,000원"
    found = ev(mail("윤재석 <js.yoon@haedam-demo.net>", "선결제 요청", body))
    assert "payment or fee request" in found.reasons()


@pytest.mark.parametrize(("body", "reason"), [
    ("Tere emme, see on mu uus number. Kas saad mulle 150 eurot kanda? Ära helista.",
     "secrecy or pressure to act alone"),
    ("Olen praegu nõukogu koosolekul. Osta kohe 4 kinkekaarti à 100 €, saada koodid siia.",
     "gift cards or wire"),
])
def test_the_new_number_relative_and_gift_cards_in_estonian(body: str, reason: str) -> None:
    found = ev(mail("Mia <mia.k.2031@gmail.com>", "Emme", body))
    assert reason in found.reasons()


def test_viewing_only_after_the_deposit_is_a_payment_ask() -> None:
    body = ("The seller agreed 18,000. A 30% deposit must be paid by bank transfer today. "
            "Viewing is possible only after the deposit.")
    found = ev(mail("Auction Desk <desk@plantauctions.net>", "Re: excavator lot 44", body))
    assert "payment or fee request" in found.reasons()


# -- the sixty-fifth pass (docs/results.md): each reason is absent at the judge before it
# (763651e), so each case can fail.

@pytest.mark.parametrize(("sender", "body", "reason"), [
    # the tech-support scam: an infected computer, a support line to call
    ("Windows Security Centre <alert@win-defense-help.example>",
     "Our system detected 3 critical threats on your computer. Do not shut down your "
     "computer. Call our certified support technicians immediately: +44 20 0000 0917.",
     "an infected computer and a support line to call"),
    # a relative's dead phone, and the money to go to another account
    ("Kate W <katew.1984@gmail.com>",
     "It's Kate, writing from my work email as my phone is dead. They need a deposit of "
     "£4,800 before 5pm. Please send it straight to the hospital's account below.",
     "a stranded traveller asking for money"),
    # Swahili: my phone is broken; send money (KES) to this number
    ("John Gathee <jgathee.chair@gmail.com>",
     "Simu yangu imeharibika. Tuma KES 185,000 kwa namba hii leo, nitakueleza baadaye.",
     "a stranded traveller asking for money"),
    # Marathi and Turkish gift cards
    ("अध्यक्ष <adhyaksha.mandal@gmail.com>",
     "शिक्षकांसाठी ₹ २,००० ची १५ गिफ्ट कार्डे आजच घ्यायची आहेत. कोड स्क्रॅच करून फोटो पाठवा.",
     "gift cards or wire"),
    ("Genel Müdür <gm.ofis.2033@gmail.com>",
     "Toplantıdayım. 10 adet hediye kartı alıp kodlarını bana gönderir misin?",
     "gift cards or wire"),
    # a free-mail address named as a billing officer
    ("PSPCL Billing Officer <pspcl.billing.ldh@gmail.com>",
     "Your electricity connection will be cut tonight. Call our officer at once.",
     "free-mail address posing as an institution or role"),
])
def test_the_sixty_fifth_pass_shapes(sender: str, body: str, reason: str) -> None:
    found = ev(mail(sender, "Important", body))
    assert reason in found.reasons()


def test_an_infected_computer_told_by_the_readers_own_it_desk_is_no_scam() -> None:
    body = ("Malware was detected on your laptop this morning. Do not shut down your computer; "
            "call the helpdesk on 4410 so we can clean it.")
    found = ev(mail("IT Desk <it@acme-corp.com>", "Your laptop", body))
    assert "an infected computer and a support line to call" not in found.reasons()


def test_a_password_and_a_code_from_an_authenticator_is_a_credential_ask() -> None:
    body = ("All accounts must re-enrol their MFA device today: "
            "https://acme-identity.example/sso/enrol. You will need your SSO password and a "
            "code from your current authenticator.")
    found = ev(mail("Acme SSO <sso@acme-identity.example>", "Action required", body))
    assert "asks for credentials or account details" in found.reasons()
    # "identity" and "sso" are account words: the name dressed in them on another domain
    assert any(r.startswith("the sender's name dressed with account words")
               for r in found.reasons())


@pytest.mark.parametrize(("sender", "body", "reason"), [
    # the "digital arrest" script's first report: a case filed, laundering, a video call
    ("Courier Enforcement Cell <cell@courier-cell.example>",
     "A parcel in your name was intercepted. An FIR has been registered and your ID is linked "
     "to money laundering. Join a video call with the investigating officer within 2 hours.",
     "threat of legal action or seizure"),
    ("Courier Enforcement Cell <cell@courier-cell.example>",
     "Do not disclose this to anyone including family.", "secrecy or pressure to act alone"),
    # a Korean bank's whole security card asked for
    ("새솔은행 보안센터 <security@saesol-alert.example>",
     "해외 IP 로그인이 감지되었습니다. 아래 링크에서 보안카드 번호 전체를 입력하십시오.",
     "a bank's whole security card asked for"),
])
def test_the_sixty_fifth_pass_shapes_read_on_the_never_tuned_round(
        sender: str, body: str, reason: str) -> None:
    assert reason in ev(mail(sender, "Notice", body)).reasons()


@pytest.mark.parametrize(("subject", "body"), [
    ("Odpowiedź automatyczna: Zamówienie", "Dzień dobry, jestem na urlopie do 20.01. W pilnych "
     "sprawach proszę o kontakt z biurem."),
    ("Zamówienie rękawic", "Dzień dobry, przebywam na urlopie do 20.01. W pilnych sprawach "
     "proszę o kontakt z biurem obsługi."),
])
def test_a_polish_out_of_office_reply_is_an_auto_reply(subject: str, body: str) -> None:
    assert ev(mail("Marta Kubiak <m.kubiak@rekawice.example>", subject, body)).auto_reply


@pytest.mark.parametrize("body", [
    "Double your data this week! Ukuze uyeke ukuthola izikhangiso, phendula ngo-STOP.",
    "Special offer: 10 GB free. Text STOP to 45000.",
    "Offre spéciale : envoyez STOP au 36180.",
])
def test_a_text_stop_line_is_an_opt_out(body: str) -> None:
    from mailmoat.core.evidence import OPT_OUT

    assert OPT_OUT.search(body.lower().encode())
    assert not OPT_OUT.search(b"non-stop flights to Durban, stop at 12:00")


@pytest.mark.parametrize(("sender", "body", "reason"), [
    # a fake regulator's extortion in Hindi: a police case, and "this is confidential"
    ("सतर्कता अधिकारी <vigilance.cell.2033@gmail.com>",
     "आज शाम 5 बजे तक जवाब नहीं मिला तो पुलिस केस दर्ज होगा। यह गोपनीय है।",
     "threat of legal action or seizure"),
    ("सतर्कता अधिकारी <vigilance.cell.2033@gmail.com>", "यह गोपनीय है, किसी को मत बताना।",
     "secrecy or pressure to act alone"),
    ("सतर्कता अधिकारी <vigilance.cell.2033@gmail.com>", "तुरंत इस नंबर पर बात करें।",
     "free-mail address posing as an institution or role"),
])
def test_hindi_threats_secrecy_and_an_officer_on_free_mail(
        sender: str, body: str, reason: str) -> None:
    assert reason in ev(mail(sender, "नोटिस", body)).reasons()


def test_a_turkish_out_of_office_reply_is_an_auto_reply() -> None:
    body = ("Merhaba, 30 Ocak - 3 Şubat tarihleri arasında yıllık izindeyim. Acil talepler için "
            "Burcu Kalkan ile iletişime geçebilirsiniz.")
    found = ev(mail("Nuri Özer <nuri.ozer@hastane.example>", "Otomatik yanıt: Teklif", body))
    assert found.auto_reply


@pytest.mark.parametrize(("subject", "token"), [
    ("no water in building - CSSD", False),  # a label after a dash
    ("Re: HPLC: CCTV", False),
    ("Save on ink cartridges                 KJHGF", True),  # a padded spam token
])
def test_capitals_after_a_dash_are_a_label_not_a_token(subject: str, token: bool) -> None:
    reasons = ev(mail("Ann Lee <ann.lee@clinic.example>", subject, "See above.")).unsolicited
    assert any("tracking token" in r for r in reasons) is token


@pytest.mark.parametrize(("name", "domain", "dressed"), [
    ("Ingwe Armed Response - Control Room", "ingwe-security.example", False),  # its trade
    ("HomeGuard Alarm", "homeguard-security.example", False),
    ("SMBC Card Security", "smbc-card-security.example", True),  # a bank's name dressed
    ("LémanHost Webmail", "lemanhost-webmail.example", True),
])
def test_a_guarding_companys_security_domain_is_not_dressed(
        name: str, domain: str, dressed: bool) -> None:
    from mailmoat.core.evidence import dressed_name_domain

    assert dressed_name_domain(name, domain) is dressed


@pytest.mark.parametrize(("subject", "token"), [
    ("RE: container delay - PO 77310", False),  # a purchase order's number
    ("Settlement held for merchant ID 902114", False),
    ("Ticket # 481230", False),
    ("Your picks for this week 84512963", True),  # a number no label names
])
def test_a_labelled_reference_number_is_no_tracking_token(subject: str, token: bool) -> None:
    reasons = ev(mail("Ann Lee <ann.lee@clinic.example>", subject, "See above.")).unsolicited
    assert any("tracking token" in r for r in reasons) is token


@pytest.mark.parametrize(("sender", "body"), [
    ("Refund Desk <refunds@desk-help.example>",
     "To receive your refund, download AnyDesk and share the nine-digit code with our agent."),
    ("विद्युत सेवा <bill@vidyut-help.example>",
     "कनेक्शन आज रात कट जाएगा। क्विक सपोर्ट ऐप डाउनलोड करें और भुगतान करें।"),
])
def test_a_remote_control_app_to_install_flags_a_strangers_mail(sender: str, body: str) -> None:
    found = ev(mail(sender, "Notice", body))
    assert "a remote-control app to install" in found.reasons() and found.flagged


def test_a_colleagues_remote_support_session_is_not_flagged() -> None:
    body = "Before the call, please install TeamViewer from the software centre so I can help."
    found = ev(mail("IT Desk <it@acme-corp.com>", "Laptop check", body))
    assert not found.flagged


@pytest.mark.parametrize(("sender", "body", "reason"), [
    # Turkish: a fee to pay into the account below
    ("Tescil Merkezi <bildirim@tescil-merkezi.example>",
     "İtiraz ücreti olan 4.200 TL'yi aşağıdaki hesaba yatırmanız gerekmektedir.",
     "payment or fee request"),
    # Marathi: fill in the OTP and the ATM card number
    ("पीक विमा <pikvima.help@gmail.com>",
     "भरपाई मंजूर झाली आहे. खालील लिंकवर एटीएम कार्ड क्रमांक आणि otp भरा.",
     "asks for credentials or account details"),
    # Punjabi: "this is my new email", don't tell mum
    ("Preet <preet.k.2034@gmail.com>", "ਇਹ ਮੇਰਾ ਨਵਾਂ ਈਮੇਲ ਹੈ। ਮੰਮੀ ਨੂੰ ਨਾ ਦੱਸਿਓ।",
     "secrecy or pressure to act alone"),
    # Korean: a visa fee paid first, refunded in full when hired
    ("글로벌잡스 <recruit@global-jobs.example>",
     "비자 사전심사 비용 300유로를 먼저 납부하셔야 하며, 합격 시 전액 환급됩니다.",
     "payment or fee request"),
    # Malay: bank in the processing fee to the account below
    ("Bantuan Prihatin <bantuan.prihatin@gmail.com>",
     "Sila bank-in yuran proses RM 30 ke akaun di bawah.", "payment or fee request"),
    # French: confirm your identity at once
    ("Banque Pro <securite@banque-pro-alerte.example>",
     "Validez votre identité immédiatement pour éviter le blocage de votre carte.",
     "asks for credentials or account details"),
    # Malay: log in to your bank account through our portal
    ("Portal Bantuan <daftar@bantuan-portal.example>",
     "Sila log masuk ke akaun perbankan anda melalui portal kami.",
     "asks for credentials or account details"),
    # goods to be confiscated under an act
    ("Customs Release Unit <release@customs-release.example>",
     "Pay today or the goods will be confiscated under the Customs Act.",
     "threat of legal action or seizure"),
])
def test_the_sixty_seventh_pass_lures(sender: str, body: str, reason: str) -> None:
    assert reason in ev(mail(sender, "Notice", body)).reasons()


@pytest.mark.parametrize(("sender", "body", "reason"), [
    # Hungarian: identify yourself at the link below
    ("OTP Bank <ugyfel@otp-biztonsag.example>",
     "A korlátozás feloldásához azonosítsa magát az alábbi linken.",
     "asks for credentials or account details"),
    # Hungarian: my phone broke, this is my new number, delete the old one
    ("Ábel <abel.uj2032@gmail.com>", "Elromlott a telefonom, ez az új számom, a régit töröld.",
     "secrecy or pressure to act alone"),
    # Hungarian: the "Domain Registration Centre" and its renewal fee
    ("Domain Központ <szamla@domain-kozpont.example>",
     "A Domain Regisztrációs Központ értesíti: domainje lejár, a megújítási díj 389 EUR.",
     "a registry or listing nobody ordered"),
    # Gujarati: send it to the account below today
    ("કેતન <ketan.help@gmail.com>", "ઓપરેશન માટે ₹૨,૮૦,૦૦૦ નીચેના ખાતામાં આજે મોકલો.",
     "payment or fee request"),
    # Gujarati: tell no one
    ("Lucky Draw <draw@kbc-lucky.example>", "ઇનામ મેળવવા ફી ભરો. આ વાત કોઈને કહેશો નહીં.",
     "secrecy or pressure to act alone"),
    # Urdu: log in at the link to restore the account
    ("نور بینک <alert@noor-bank-help.example>", "اکاؤنٹ بحال کرنے کے لیے لنک پر لاگ ان کریں۔",
     "asks for credentials or account details"),
    # Urdu: a registration fee into the account given in this mail
    ("ویلفیئر فنڈ <fund@welfare-fund.example>",
     "120 پاؤنڈ رجسٹریشن فیس اس ای میل میں دیے گئے اکاؤنٹ میں جمع کرائیں۔",
     "payment or fee request"),
    # Urdu: no need to tell anyone
    ("مسجد کمیٹی <masjid.help@gmail.com>",
     "آج ہی 300 پاؤنڈ اس اکاؤنٹ میں بھیج دیں۔ کسی کو بتانے کی ضرورت نہیں۔",
     "secrecy or pressure to act alone"),
    # Latvian: this is my new email, don't write to dad
    ("Elza <elza.k.2020@gmail.com>", "Mammu, šis ir mans jaunais e-pasts. Neraksti tētim.",
     "secrecy or pressure to act alone"),
    # Macedonian: this is my new address, my phone was stolen
    ("Дејан <dejan.j.munchen@gmail.com>",
     "Кристина, ова ми е нова адреса, телефонот ми го украдоа.",
     "secrecy or pressure to act alone"),
    # Albanian: I'm in a meeting and can't talk; buy top-up cards and send me the codes
    ("Agron Sula <agron.sula.drejtor@gmail.com>",
     "Jam në mbledhje dhe nuk mund të flas. Më dërgo kodet me foto.",
     "secrecy or pressure to act alone"),
    ("Agron Sula <agron.sula.drejtor@gmail.com>", "Bli 10 karta rimbushjeje dhe më dërgo kodet.",
     "gift cards or wire"),
    # Macedonian: I'm in a meeting and can't talk; pay the advance today
    ("Благоја <blagoja.t@gmail.com>",
     "На состанок сум и не можам да зборувам. Платете го авансот денеска.",
     "secrecy or pressure to act alone"),
])
def test_the_sixty_eighth_pass_lures(sender: str, body: str, reason: str) -> None:
    assert reason in ev(mail(sender, "Notice", body)).reasons()


@pytest.mark.parametrize(("sender", "body"), [
    ("Power Billing <billing@power-notice.example>",
     "Your supply will be disconnected tonight at 9 pm. Call our officer on this number: "
     "0700 555."),
    ("மின் அலுவலகம் <office@eb-notice.example>",
     "இன்றிரவு உங்கள் மின் இணைப்பு துண்டிக்கப்படும். இந்த எண்ணில் தொடர்பு கொள்ளவும்."),
])
def test_a_cut_off_with_a_number_in_the_mail_to_call_is_a_lure(sender: str, body: str) -> None:
    reasons = ev(mail(sender, "Notice", body)).reasons()
    assert "a service cut off unless a number in the mail is called" in reasons


def test_a_suppliers_cut_off_notice_naming_its_own_line_is_not_that_lure() -> None:
    body = ("Your account is 60 days overdue and your supply will be disconnected on 3 March. "
            "Pay online or call us on the number printed on your bill.")
    reasons = ev(mail("Power Co <billing@powerco.example>", "Overdue", body)).reasons()
    assert "a service cut off unless a number in the mail is called" not in reasons


def test_a_dropped_phone_and_money_to_an_account_is_the_new_number_relative() -> None:
    body = ("Hi mum, I dropped my phone so I'm writing from a friend's laptop. Can you send £240 "
            "to the shop's account for the repair? Sort code 11-22-33.")
    found = ev(mail("Ella <ella.newmail.77@gmail.com>", "its me", body))
    assert "a stranded traveller asking for money" in found.reasons()
    # a relative's broken phone alone asks for nothing
    alone = ev(mail("Ella <ella.newmail.77@gmail.com>", "its me",
                    "I dropped my phone, so use this address until Friday. Love you."))
    assert "a stranded traveller asking for money" not in alone.reasons()


def test_an_organisations_numbered_address_is_not_generated_to_itself() -> None:
    auth = "mx.college.example; spf=pass smtp.mailfrom=college.example; dkim=pass; dmarc=pass"
    raw = mail("P. Dinesh <24uph052@college.example>", "Bus broke down",
               "Madam, the bus broke down; please tell the exam hall.",
               to="Asha <asha@college.example>", Authentication_Results=auth)
    assert not any("generated" in r for r in ev(raw).reasons())
    stranger = mail("P. Dinesh <24uph052@mailbox-x.example>", "Bus broke down",
                    "Madam, the bus broke down; please tell the exam hall.")
    assert any("generated" in r for r in ev(stranger).reasons())


@pytest.mark.parametrize(("greeting", "nameless"), [
    ("Dear Sir,", False),  # a business letter's greeting to the one reader
    ("Dear Madam,", False),
    ("Dear Sir/Madam,", True),
    ("Dear Customer,", True),
])
def test_a_bare_dear_sir_names_the_reader(greeting: str, nameless: bool) -> None:
    body = f"{greeting}\n\nThe container for booking TUT/0211 will be stuffed at 4 pm today."
    reasons = ev(mail("Arun <ops@arun-shipping.example>", "Stuffing today", body)).unsolicited
    assert any("names no one" in r for r in reasons) is nameless


def test_a_legal_punishable_offence_threat_and_a_campaign_mailbox() -> None:
    body = "Use of the mark after suspension is a punishable offence. Remit the penalty today."
    assert "threat of legal action or seizure" in ev(
        mail("Licensing Cell <cell@mark-licence.example>", "Suspended", body)).reasons()
    from mailmoat.core.evidence import robot_address

    assert robot_address("kampanya") and robot_address("campaigns")
    assert not robot_address("kamala")


@pytest.mark.parametrize(("subject", "body"), [
    ("Balasan automatik: Sebut harga", "Terima kasih. Ini ialah balasan automatik. Untuk perkara "
     "segera, sila hubungi pejabat."),
    ("Permohonan diterima", "Terima kasih. Ini adalah balasan automatik; permohonan anda akan "
     "diproses."),
])
def test_a_malay_automatic_reply_is_an_auto_reply(subject: str, body: str) -> None:
    assert ev(mail("Sekretariat <sekretariat@pesta.example>", subject, body)).auto_reply


@pytest.mark.parametrize(("body", "bait"), [
    ("So sorry, the tram stopped and I won't make the 16h30 pickup.", False),  # a clock
    ("Work from your sofa and make $500 a day!", True),
    ("Make 5k a month with our system.", True),
])
def test_money_bait_is_a_sum_not_a_clock(body: str, bait: bool) -> None:
    reasons = ev(mail("Chloe <chloe.d@gmail.com>", "pickup", body)).unsolicited
    assert any("bait" in r for r in reasons) is bait


def test_a_company_named_by_its_trade_is_not_dressed() -> None:
    from mailmoat.core.evidence import dressed_name_domain

    assert not dressed_name_domain("RadioVet Services", "radiovet-services.example")
    assert dressed_name_domain("NovaBank", "novabank-services.example")  # a word it lacks
    assert dressed_name_domain("NovaBank Support", "novabank-support.example")


def test_dear_consignee_names_no_one() -> None:
    body = "Dear Consignee,\n\nYour shipment is held at the airport."
    reasons = ev(mail("Cargo <cargo@release-desk.example>", "Held", body)).unsolicited
    assert any("names no one" in r for r in reasons)
