"""The local scorer: features with no model, in English and Korean."""

from __future__ import annotations

import pytest

from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.local_scorer import ASK_CHARS, score_local
from mailmoat.core.message import message_from_fields
from mailmoat.core.signals import URGENCY_CHARS, detect_signals, own_words
from mailmoat.judge.cascade import classify


def lane_of(sender: str, subject: str, body: str = "", labels: tuple[str, ...] = ()) -> Lane:
    message = message_from_fields(sender=sender, subject=subject, body=body, labels=labels)
    return classify(message).decision.lane


@pytest.mark.parametrize(
    ("sender", "subject", "body"),
    [
        ("Ana <ana@client.example>", "Server is down", "Checkout fails for every customer."),
        ("Ben <ben@fund.example>", "Need the signed form today", "Please send it before 5pm."),
        ("김민수 <minsu@corp.example>", "[긴급] 서버 장애", "지금 바로 확인 부탁드립니다."),
        ("이영희 <yh@corp.example>", "계약서 오늘까지 서명 부탁드립니다", "첨부 확인해 주세요."),
    ],
)
def test_strong_urgency_reaches_push(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) == Lane.PUSH


@pytest.mark.parametrize(
    ("sender", "subject", "body"),
    [
        ("Shop <deals@mail.shop.example>", "Flash sale: 60% off", "Shop now. Limited time."),
        ("올리브 <news@olive.example>", "[광고] 오늘만 특가", "회원님만을 위한 혜택"),
        ("Digest <newsletter@digest.example>", "Your weekly roundup", "Top stories this week"),
    ],
)
def test_clear_marketing_is_silent(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) == Lane.SILENT


def test_promotional_pressure_is_not_urgency() -> None:
    message = message_from_fields(
        sender="Shop <deals@shop.example>", subject="Sale ends today! 50% off", body="Shop now"
    )
    scored = score_local(message, detect_signals(message))
    assert scored.features.urgency < 0.2


def test_phish_dressed_as_promotion_is_never_hidden() -> None:
    lane = lane_of(
        "Rewards <promo@mail.bank-rewards.example>",
        "URGENT: your account is suspended, exclusive offer inside",
        "Act immediately to restore access and claim your reward.",
    )
    assert lane not in HIDDEN_LANES


def test_delivery_record_with_a_time_word_is_info() -> None:
    lane = lane_of("CJ <noreply@logistics.example>", "배송 완료 안내", "오늘 오후 배송 완료")
    assert lane == Lane.INFO


def test_meeting_time_is_not_a_deadline() -> None:
    lane = lane_of(
        "Mina <mina@partner.example>",
        "Reschedule: tomorrow's sync",
        "Can we move tomorrow's sync to Friday? Zoom link stays the same.",
    )
    assert lane == Lane.MEETING


def test_urgent_words_deep_in_a_newsletter_do_not_push() -> None:
    body = "Stories this week.\n" + ("filler text about startups. " * 60) + "Act immediately!"
    lane = lane_of("Indie <person@news.example>", "What's new this week", body)
    assert lane != Lane.PUSH


def test_empty_message_is_unsure_and_visible() -> None:
    message = message_from_fields(sender="", subject="")
    trace = classify(message)
    assert trace.features.confidence < 0.5
    assert trace.decision.lane == Lane.QUEUE


@pytest.mark.parametrize(
    ("sender", "subject", "body"),
    [
        # cold sales outreach: a stranger offering a demo, an audit or a call
        ("Lena Brook <lena@quotaforge.example>", "Idea for your sales team",
         "We help agencies close 30% more deals. Can I get you a quick demo on Thursday?"),
        ("Omar at Rankly <omar@rankly.example>", "About your site",
         "I found three things slowing your homepage. Can I send you a free report?"),
        ("박지훈 <jh.park@solutions.example>", "협업 제안드립니다",
         "귀사에 맞는 무료 컨설팅을 제안드립니다. 편하신 시간 알려주세요."),
    ],
)
def test_a_strangers_sales_pitch_is_a_record(sender: str, subject: str, body: str) -> None:
    message = message_from_fields(sender=sender, subject=subject, body=body)
    trace = classify(message)
    assert trace.signals.cold_pitch
    assert trace.decision.lane == Lane.INFO


def test_a_prospective_client_asking_for_a_call_is_not_a_pitch() -> None:
    message = message_from_fields(
        sender="Claire Dumont <claire@maison-dumont.example>", subject="New project",
        body="We liked your work for our partners. Would you be open to a call next week "
             "about a new website? Could you walk us through your process?")
    trace = classify(message)
    assert not trace.signals.cold_pitch
    assert trace.decision.lane not in HIDDEN_LANES


def test_a_promotion_with_no_list_headers_is_not_in_the_queue() -> None:
    # Mail built from fields (no List-Unsubscribe, no Precedence): the offer's own wording and
    # a role address say it is a promotion.
    lane = lane_of("Casa Verde <members@casaverde.example>", "A little thank-you",
                   "Take EUR 15 off your next visit: book now using code THANKS15.")
    assert lane in (Lane.SILENT, Lane.INFO)


@pytest.mark.parametrize(("subject", "body"), [
    # trouble told in plain words, with a request or a near time (no "urgent" anywhere)
    ("freezer", "The freezer in the lab has failed and the samples are warming. Can you "
                "get someone from facilities over?"),
    ("mum", "Grandad fell on the stairs, we are at the hospital. Call me when you see this."),
    ("approval needed", "The supplier payment must be approved before 16:30 or the "
                        "shipment is released to another buyer. Please approve it."),
])
def test_plain_trouble_with_a_request_pushes(subject: str, body: str) -> None:
    assert lane_of("Lee Park <lee@partner.example>", subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # a request due days away is something to answer, not an interruption
    ("review please", "Could you review the draft and send comments by Thursday?"),
    # the sender says it can wait, whatever the subject says
    ("URGENT", "Whenever you have a moment next week, could you look at the slides? No rush."),
    # an incident that is over
    ("Re: smoke alarm", "False alarm - burnt toast. Everyone is accounted for, back inside."),
    # a service's name, not an event
    ("Holiday hours", "Our office is closed on Monday. Emergency support remains available."),
    # trouble denied
    ("Re: the fall", "She is fine, nothing broken, home now."),
])
def test_calm_mail_with_trouble_words_does_not_push(subject: str, body: str) -> None:
    assert lane_of("Lee Park <lee@partner.example>", subject, body) is not Lane.PUSH


def test_a_formal_deadline_days_away_still_pushes() -> None:
    assert lane_of("Kim <kim@fund.example>", "Signed documents due Friday",
                 "The signed documents are due this Friday; please send them.") is Lane.PUSH


def test_real_trouble_outweighs_a_relaxed_subject() -> None:
    assert lane_of("Sam <sam@corp.example>", "when you get a sec",
                 "Checkout is down for all customers. I need your sign-off to roll back "
                 "now. Can you reply?") is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("printers", "All three label printers at the depot went offline and couriers are queued "
                 "up outside. Can someone from IT come over?"),
    ("patient", "Your 9:40 has arrived and is short of breath and unwell. Shall I call 999?"),
    ("oops", "I clicked a weird link in a 'payroll' email and entered my password five "
             "minutes ago. What should I do?"),
])
def test_trouble_happening_now_pushes(subject: str, body: str) -> None:
    assert lane_of("Ana Ruiz <ana@depot.example>", subject, body) is Lane.PUSH


def test_a_replys_subject_is_the_threads_not_the_senders() -> None:
    # The sender's own words say it is done; the subject was written for the first mail.
    assert lane_of("Ana Ruiz <ana@depot.example>", "Re: URGENT: filing due today by 6pm",
                 "Filed at 17:20, receipt is in the shared folder.") is not Lane.PUSH


def test_promotional_prices_and_upsells_are_not_in_the_queue() -> None:
    for subject, body in (("Winter sun", "Fly to Faro from £29. Book by Sunday. Terms apply."),
                          ("Go Pro", "Upgrade to Premium this week only. Cancel anytime.")):
        lane = lane_of("Skylark <offers@skylark-air.example>", subject, body)
        assert lane in (Lane.SILENT, Lane.INFO), subject


@pytest.mark.parametrize(("subject", "body"), [
    ("DRINGEND: Anlage steht", "Die Linje 2 steht seit heute früh. Bitte sofort melden."),
    ("Urgente: pedido bloqueado", "El pedido está bloqueado en aduana, necesito tu firma hoy."),
])
def test_urgency_in_other_languages_pushes(subject: str, body: str) -> None:
    assert lane_of("Kai Vogt <kai@werk.example>", subject, body) is Lane.PUSH


def test_a_sender_who_says_it_is_not_urgent_is_believed_over_an_incident_word() -> None:
    assert lane_of("Jin <jin@client.example>", "장애 대응 계약 문의",
                 "야간 장애 대응이 포함되는지 궁금합니다. 급하지 않으니 이번 달 안에만 "
                 "회신 주세요.") is not Lane.PUSH


def test_friday_end_of_day_is_days_away() -> None:
    assert lane_of("Ida <ida@corp.example>", "headcount",
                 "Finance needs headcount asks by Friday EOD. Can you send yours?") \
        is not Lane.PUSH


def test_a_call_to_action_is_not_urgency() -> None:
    assert lane_of("Ira <ira@staffing.example>", "Drivers",
                 "Six drivers available immediately. Order now!") is not Lane.PUSH


def test_a_plain_newsletter_and_a_german_offer_are_not_in_the_queue() -> None:
    for sender, subject, body in (
            ("The Daily Wire <newsletter@dailywire.example>", "Markets, weather, a llama",
             "Diesel fell 3 cents. Enjoying it? Forward to a friend. Unsubscribe"),
            ("Papier Haus <info@papierhaus.example>", "Frühjahrsaktion",
             "10 % Rabatt auf alles, nur bis Montag. Jetzt Muster sichern! Abmelden")):
        assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO), subject


def test_a_duration_is_not_a_deadline_and_a_reply_prefix_is_not_a_request() -> None:
    # "22 hours of QA" is how long something took; "RE:" is not the sender asking anything.
    assert lane_of("Hugo <hugo@client.example>", "Invoice query",
                 "The invoice has 22 hours for QA. Could you send a breakdown?") \
        is not Lane.PUSH
    assert lane_of("Jun <jun@corp.example>", "RE: customs",
                 "The parts cleared customs this morning, delivery this afternoon.") \
        is not Lane.PUSH


def test_trouble_with_a_question_to_the_reader_pushes() -> None:
    assert lane_of("Mia <mia@bistro.example>", "tills down",
                 "All tills froze at noon and card readers are not taking payments. "
                 "Do you have the support number?") is Lane.PUSH


# -- issue 22, eighth pass (blind-set-5 and -6 misses; each test in its own words) ---------

@pytest.mark.parametrize(("subject", "body"), [
    # a clock time with no other day named is today's
    ("forklift", "The hire forklift goes back at 4:15. Can you sign the damage sheet first?"),
    ("boarding", "Gate closes 6pm and I still have no visa letter, can you email it?"),
    ("stock call", "Mill needs a yes/no on the extra 20 tonnes by 11, price holds till then"),
])
def test_a_clock_time_today_with_a_request_pushes(subject: str, body: str) -> None:
    assert lane_of("Ola <ola@works.example>", subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("quiz night", "Quiz is on Saturday at 7:30, can you bring the buzzers?"),
    ("reviews", "Reviews close on 14 March at 5pm. Could you add your notes?"),
    ("Re: our catch-up", "If Tuesday doesn't work for you, could we try Wednesday 9:30?"),
])
def test_a_clock_time_on_another_day_does_not_push(subject: str, body: str) -> None:
    assert lane_of("Ola <ola@works.example>", subject, body) is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("flat 4", "Water is pouring through the kitchen light in flat 4. Can you send a plumber?"),
    ("Tom", "Tom has a fever and a rash since this morning, the nursery asks if you can "
            "collect him."),
    ("EDR", "Ransomware detected on the finance share, files being encrypted. Isolate it?"),
    ("gate 3", "Our driver is sat at gate 3, they refused the booking. What do I tell him?"),
    ("scanner", "The parcel scanner won't boot and 40 customers are waiting in the queue. "
                "Who can help?"),
])
def test_trouble_of_other_kinds_with_a_request_pushes(subject: str, body: str) -> None:
    assert lane_of("Ana <ana@depot.example>", subject, body) is Lane.PUSH


def test_a_reply_written_below_the_quote_is_read() -> None:
    body = ("> Did the boiler service go OK?\n\n"
            "No - the boiler has failed and the basement is flooding. Can you call the "
            "engineer?\n")
    assert lane_of("Bo <bo@estate.example>", "Re: boiler", body) is Lane.PUSH


def test_an_incident_already_resolved_is_a_record_even_with_a_clock_time() -> None:
    assert lane_of("Ken <ken@council.example>", "RE: P2 printing",
                 "Resolved at 10:05, the print queue was restarted. Closing the ticket.\n\n"
                 "> printers are down since 09:30") is not Lane.PUSH


def test_a_marketing_errand_is_not_a_request() -> None:
    # "Call the number below" is a call to action sent to everyone, not an errand.
    assert lane_of("Quotes <quotes@insure.example>", "cover for less",
                 "Compare cover in minutes today. Call the number below for a quote.") \
        is not Lane.PUSH


def test_a_strangers_pitch_borrowing_incident_words_does_not_push() -> None:
    assert lane_of("Lee Park <lee@shieldworks.example>", "Schools are ransomware targets",
                 "Hi Jo,\nWe help schools like yours prepare for ransomware. Would a free "
                 "assessment today help? Can you reply with a time?") is not Lane.PUSH


def test_trouble_on_a_list_is_the_posters() -> None:
    from mailmoat.core.message import parse_message
    raw = (b"From: Kai <kai@users.example>\r\nTo: dev@lists.example\r\n"
           b"Subject: Re: build broken\r\nList-Id: <dev.lists.example>\r\n"
           b"Message-ID: <b@users.example>\r\nIn-Reply-To: <a@users.example>\r\n\r\n"
           b"The build has failed on arm64 right now, can anyone look?\r\n")
    assert classify(parse_message(raw)).decision.lane is not Lane.PUSH


def test_trouble_with_a_horizon_of_days_is_not_an_interruption() -> None:
    assert lane_of("Ivo <ivo@shipping.example>", "pallet 7",
                 "Pallet 7 is held at the port, the label is missing. Can you send a new one? "
                 "Otherwise it goes back in 14 days.") is not Lane.PUSH


def test_a_venue_closed_tonight_is_not_a_resolved_incident() -> None:
    assert lane_of("Gym <coach.li@rowing.example>", "Tonight's session cancelled",
                 "The boathouse is closed tonight after a power cut, no session at 6. Can "
                 "you tell the other parents?") is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Kettle & Co <sales@kettleco.example>", "Winter offer",
     "Extra 15% on all kettles this week, free delivery over £30."),
    ("Expo North <invite@exponorth.example>", "You're invited",
     "Secure your stand at Expo North 2027. Only 12 places left."),
    ("Radar Insights <info@radar.example>", "Free report",
     "Download your complimentary copy of the 2027 freight outlook."),
    ("Maison Lune <newsletter@maisonlune.example>", "Soldes d'hiver",
     "Profitez de -25% sur les manteaux, offre valable jusqu'à lundi."),
    ("바른식품 <sales@barun.example>", "시식 이벤트",
     "신제품 샘플 무료 제공 중입니다. 참가 신청 받아요."),
])
def test_promotions_in_plain_mail_from_a_role_sender_are_not_in_the_queue(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO), subject


def test_a_sales_desk_answering_a_question_stays_visible() -> None:
    assert lane_of("Kettle & Co <sales@kettleco.example>", "your quote",
                 "Here is the quote for 40 kettles you asked for. Can you confirm the "
                 "delivery address?") not in HIDDEN_LANES


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Ola Berg <ola@bergbygg.example>", "Re: your order",
     "The tiles are on backorder until March. Would you like us to swap them for the grey "
     "ones, or wait?"),
    ("AP Team <ap@lindqvist.example>", "Invoice 4411 query",
     "We cannot match invoice 4411 to an order. Please provide the PO number."),
])
def test_a_person_asking_about_an_invoice_or_order_stays_in_the_queue(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) not in HIDDEN_LANES


def test_property_for_sale_is_not_a_promotion() -> None:
    # An out-of-office answering "Contract for sale" is an auto-reply, a record.
    assert lane_of("Ines Roy <ines@roylaw.example>", "Automatic reply: Re: Contract for sale",
                 "I am on leave until Monday 5 January. For urgent matters please call "
                 "the office.") is Lane.INFO


def test_a_deadline_clock_in_spanish_with_trouble_pushes() -> None:
    assert lane_of("Luis Mora <luis@transmora.example>", "Camión bloqueado en aduana",
                 "El camión está retenido en aduana. Necesitamos el DUA antes de las 17:00 "
                 "o pasa la noche allí.") is Lane.PUSH


def test_a_role_word_inside_the_address_makes_a_promotion_a_record() -> None:
    assert lane_of("Listings Pro <agent-offers@listingspro.example>", "Boost your listings",
                 "Upgrade to Featured and get 3x more views. Limited-time bundle pricing.") \
        in (Lane.SILENT, Lane.INFO)


def test_a_free_readiness_assessment_is_a_pitch_that_does_not_push() -> None:
    sender = "Vera Cole <vera@shieldsec.example>"
    body = ("Hi Ann,\nShieldSec offers a free 30-minute ransomware readiness assessment for "
            "local government. Would next week work?\nVera, Account Executive")
    from mailmoat.core.message import message_from_fields as mff
    assert detect_signals(mff(sender=sender, subject="Is your council ready?", body=body)
                          ).cold_pitch
    assert lane_of(sender, "Is your council ready?", body) is not Lane.PUSH


def test_a_promotion_shouting_only_about_its_offer_is_a_record() -> None:
    # The seller's pressure, no account words: INFO (a record, not SILENT); a phish dressed
    # as a promotion stays visible (test_phish_dressed_as_promotion_is_never_hidden).
    assert lane_of("Trailhead Gear <deals@mail.trailhead.example>",
                 "URGENT: your 30% code expires tonight",
                 "Last chance! 30% off boots ends tonight. Shop now. Unsubscribe") is Lane.INFO


@pytest.mark.parametrize(("subject", "body"), [
    ("Minutes", "Minutes of the team meeting on 3 June are on the drive. Main point: the move "
                "slips to July."),
    ("off Friday", "I'm off Friday, Mo covers the rota. Retro meeting at 2pm is unchanged."),
    ("정리", "어제 회의에서 정한 대로 2안으로 진행합니다."),
])
def test_a_meeting_reported_is_not_a_meeting_to_schedule(subject: str, body: str) -> None:
    assert lane_of("Kim <kim@works.example>", subject, body) is not Lane.MEETING


@pytest.mark.parametrize(("subject", "body"), [
    ("call", "Could we have a call on Tuesday at 11am?"),
    ("catch-up", "Let's have a catch-up meeting next week, Wednesday 3pm?"),
    ("미팅", "다음 주 화요일 오후 3시에 미팅 가능하세요?"),
])
def test_a_meeting_proposed_is_scheduling(subject: str, body: str) -> None:
    assert lane_of("Kim <kim@partner.example>", subject, body) is Lane.MEETING


# -- issue 22, ninth pass (blind-set-7 misses; blind-set-8 kept unread) -------------------

@pytest.mark.parametrize(("subject", "body"), [
    ("chiller", "The walk-in chiller quit overnight, it's 9C inside and still rising. Do we "
                "move the stock to the van? need to decide in like 15 min"),
    ("arrivée tardive", "Notre train est annulé, nous arriverons vers minuit. Est-ce que "
                        "quelqu'un sera là ? Nous partons dans 30 minutes."),
    ("front page", "The newsletter went out with the wrong price on the front page. You need "
                   "to approve the correction before more people see it."),
    ("accidente", "Un trabajador se cortó el brazo en la nave 2, ya va a urgencias. "
                  "¿Qué hacemos con el parte?"),
    ("배포", "배포 후 결제 성공률이 95에서 60으로 떨어졌어요. 롤백 여부 결정 필요합니다. "
            "10분 내로 답 주세요."),
])
def test_trouble_told_other_ways_pushes(subject: str, body: str) -> None:
    assert lane_of("Rui <rui@firm.example>", subject, body) is Lane.PUSH


def test_a_reply_y_or_n_is_an_action() -> None:
    from mailmoat.core.message import message_from_fields as mff
    m = mff(sender="Harbor Bank <alerts@harborbank.example>", subject="Card payment paused",
            body="We paused a card payment of £800 because it looks unusual. Reply Y if this "
                 "was you or N if not.")
    signals = detect_signals(m)
    assert signals.action_requested and signals.security_alert


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Kozue Studio <news@kozue.example>", "【期間限定】",
     "今だけ！年間プランが40%オフ。配信停止はこちら"),
    ("Trade Awards <events@tradeawards.example>", "Awards 2027",
     "Entries now open! Entry fee £150. Shortlisting closes soon."),
    ("Pattern Hub <hello@patternhub.example>", "Your free goods",
     "Grab 5 free textures this week before Monday."),
])
def test_more_promotions_are_records(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO), subject


@pytest.mark.parametrize("body", [
    "Hi Dr Moss, loved your paper. Could I show you a 10-minute demo?",
    "Hi Ana, we help small clinics get 20 new patients a month. Quick 15 min next week?",
])
def test_more_cold_pitches_are_records(body: str) -> None:
    assert lane_of("Pat Lowe <pat@growthlab.example>", "idea", body) in (Lane.INFO,
                                                                          Lane.SILENT)


def test_a_phone_number_after_call_us_on_is_not_a_meeting() -> None:
    assert lane_of("Linen Co <accounts@linenco.example>", "Payment received",
                 "We confirm receipt of £900. If anything looks wrong, please call us on "
                 "01632 960 771.") is not Lane.MEETING


# -- issue 22, tenth pass (blind-set-9 and -10 misses; blind-set-8 and -11 kept unread) ----

@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Ops Monitor <monitor@coldchain.example>", "ALARM: Freezer 3 temp HIGH",
     "Sensor: Freezer 3 / Reading: -9C (threshold -18C) / Acknowledged: NO"),
    ("Ivo Brandt <ivo@waterworks.example>", "main break on Oak St",
     "Main break at Oak & 5th, 60 homes without water. Need your ok to open the hall."),
    ("Noor Aziz <noor.aziz@outlook.example>", "they changed the locks",
     "My landlord changed the locks while I was out, my daughter's medicine is inside. "
     "What can I do?"),
    ("Hana Park <hana@logi.example>", "Re: 센터 서버",
     "배차 서버 접속이 안돼서 기사님들 30명이 대기중입니다. 당직 번호 알려주세요."),
    ("Mamá <mama.ruiz@correo.example>", "llámame",
     "El abuelo se ha caído y está en el hospital. Llámame en cuanto leas esto."),
])
def test_trouble_from_the_tenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject"), [
    ("Rosa Lind <rosa.lind@gmail.com>", ""),
    ("Tom Agar <tom.agar@gmail.com>", "WATER COMING THROUGH THE CEILING"),
])
def test_a_person_in_a_hurry_without_links_may_still_push(sender: str, subject: str) -> None:
    body = ("Water is pouring through the ceiling of flat 2 and nobody upstairs is answering. "
            "Can you send someone now?")
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_an_evacuation_lifted_is_a_record() -> None:
    assert lane_of("Sgt Ola Berg <oberg@townpd.example>", "river update",
                 "River crested at 3am, 8 inches over the road in two spots. Evacuation "
                 "lifted at 7am. Full report later.") is not Lane.PUSH


def test_an_early_registration_offer_is_a_record_and_a_recording_ready_is_not_marketing() -> None:
    assert lane_of("Expo West <events@expowest.example>", "Early registration",
                   "Early registration for the 2027 convention is open: save on passes "
                   "until Friday. Unsubscribe") in (Lane.SILENT, Lane.INFO)
    from mailmoat.core.message import message_from_fields as mff
    assert not detect_signals(mff(sender="Meet <no-reply@meet.example>",
                                  subject="Cloud recording is now available",
                                  body="Your recording of Intro call is now available.")
                              ).marketing


def test_a_bank_holding_a_payment_and_asking_to_confirm_in_its_app_pushes() -> None:
    assert lane_of("Northbank <help@northbank.example>", "Did you make this payment?",
                   "We've paused a payment of £2,100.00 because it looks unusual. Please open "
                   "the Northbank app to confirm or decline it.") is Lane.PUSH


# -- issue 22, eleventh pass (blind-set-8 and -11 misses; blind-set-12 and -13 kept unread) -

@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Ian Vale <ian.vale@gmail.example>", "Rufus", "Sorry to email, the phone just rings out. "
     "Rufus has vomited five times since lunchtime and won't get up."),
    ("Alerts <alerts@ops.shop.example>", "[ALARM] api 5xx", "State change: OK -> ALARM. "
     "Threshold crossed: 5xx 21% > 20%. On-call ack pending 10m."),
    ("Kim Lo <kim@heatco.example>", "payroll", "The bank won't release the payroll file "
     "without your approval. Cut off is 3pm or nobody gets paid till Tuesday."),
    ("Jo Marsh <jo@hullworks.example>", "inspector", "The class inspector showed up early, "
     "sitting in reception asking for the stability file. He's leaving at 11."),
    ("Ops Desk <ops@water.example>", "FW: chlorine alarm", "FYI and need your go: the "
     "detector hit 3 ppm, building evacuated. Need an answer in next 15 min."),
    ("Eli <eli.k@gmail.example>", "mum", "are you picking me up or is dad?? everyone left "
     "and coach is waiting with me. phone is at 3%"),
])
def test_trouble_from_the_eleventh_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Rowan Trade <trade@rowanpaper.example>", "Restock", "Pre-order the spring range now: "
                                                          "free shipping on orders over £200."),
    ("Wedding Hub <suppliers@weddinghub.example>", "Boost your listing",
     "Boost your listing before wedding season: double points on every upgrade."),
])
def test_trade_and_supplier_mailboxes_sending_offers_are_records(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO)


# -- issue 22, twelfth pass (blind-set-12 and -13 misses; blind-set-14 and -15 kept unread) -

@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Nia Cole <nia@cyclefix.example>", "battery!!", "The swollen pack on the bench is smoking, "
     "everyone out. Do we call the fire brigade?"),
    ("Sam <sam.b@icloud.example>", "mum", "missed the last bus and my phone's on 4%, can u "
     "get me?"),
    ("Duty Officer <duty@harbour.example>", "MV Tern", "Engine failure off buoy 3, drifting "
     "towards the shoal. Need your decision on the tug now."),
    ("Ops <ops@hostco.example>", "db unreachable", "Production database unreachable for 2 "
     "hours. I need an engineer on a call in the next 30 minutes."),
    ("Kestrel Bank <alerts@kestrelbank.example>", "Card alert", "We've placed a temporary "
     "hold on your card after a payment attempt. Please confirm whether you made it."),
    ("Lena <lena@vinos.example>", "reserva", "La naviera cierra el booking hoy a las 17h. "
     "Confirma por favor."),
])
def test_trouble_from_the_twelfth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize("body", [
    "Could you confirm headcount by Tuesday? Breakfast is now at 2am.",  # due days away
    "Are you OK going to 65, or should I hold at 62?",  # a number, not an hour
    # the request names its own day; "this morning" and a clock time are other matters'
    "The PO came in this morning. Could you confirm the production slot by Friday?",
    "The tour leaves the distillery by 13:15. Can you send the final numbers by 4 December?",
    "Grüße aus Berlin, heute sogar mit Sonne! Könntest du mir bis Donnerstag die Zahlen "
    "schicken?",
    "방금 송금했습니다. 경위서는 금요일까지 보내 주세요.",
    # trouble told as background to a request due another day; either of two days
    "Jordan is stuck in Minneapolis, his flight was cancelled. Could you send me the marks "
    "by Friday?",
    "Second cut on the river fields, same as last year? Let me know tonight or tomorrow so I "
    "can line up the contractor.",
])
def test_a_clock_time_with_a_days_away_request_or_a_number_does_not_push(body: str) -> None:
    assert lane_of("Luca <luca@catering.example>", "menu", body) is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("update on Tom", "He's home from hospital, it was low blood sugar. Incident form filed."),
    ("Re: Ticket 4411", "Confirmed we're stable since 03:10. Closing this on our side."),
])
def test_trouble_that_is_over_is_a_record(subject: str, body: str) -> None:
    assert lane_of("Jo Pike <jo@gym.example>", subject, body) is not Lane.PUSH


# -- issue 22, thirteenth pass (blind-set-14 and -15 misses; -16 and -17 kept unread) --------

@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Ana Ruiz <ana@vuelos.example>", "el avión", "Hay un charco de aceite bajo el motor y "
     "tiene vuelo a las 15:00. ¿Lo cancelo?"),
    ("Lena Maier <lena@moden.example>", "Verteiler", "Der Newsletter ist im offenen CC an "
     "18.000 Kunden gegangen. Was machen wir jetzt?"),
    ("Kai Obi <kai@sparks.example>", "Re: Re: rota", "I got zapped on site, my hand is "
     "tingling. Someone needs to lock the site."),
    ("Wei Chen <wei.chen@chenhome.example>", "", "Half the house has no power and the outlet is "
     "hot to touch. Is that normal?"),
    ("田中 <tanaka@expo.example>", "【至急】本日の時間変更",
     "本日の出演時間が14:30に変更です。13:45までにお越しください。"),
    ("Fraud Desk <alerts@harborbank.example>", "Did you attempt a $900 purchase?",
     "We declined a $900.00 purchase on your card. Reply YES if it was you or NO if not."),
])
def test_trouble_from_the_thirteenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_call_us_now_in_an_advert_is_not_an_ask() -> None:
    assert lane_of("Weedman <jh@shop.example>", "Call us now, our stash is the best",
                   "Now open seven days a week! 2 for 1 for a limited time only.") \
        is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Tienda Vuelo <ventas@tiendavuelo.example>", "Ofertas de Navidad",
     "Ofertas en auriculares y chalecos hasta el domingo."),
    ("Tread Co <promotions@treadco.example>", "Dealer rebate", "Winter tyre rebate: $40 "
                                                              "per set this month."),
])
def test_more_role_senders_with_offers_are_records(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO)


# -- issue 22, fourteenth pass (blind-set-16 and -17 misses; -18 and -19 kept unread) -------

def test_a_formal_deadline_on_a_calendar_date_is_something_to_answer() -> None:
    # "due this Friday" still pushes (test_a_formal_deadline_days_away_still_pushes);
    # "submit by 18 December" or "deadline 15 Dec" is a date to plan for.
    for body in ("Reviews are due in the HR system by Friday 18 December. Can you submit?",
                 "Deadline for questions 11 Dec, submission 8 Jan. Bid or no bid by Monday?"):
        assert lane_of("Kay <kay@corp.example>", "deadline", body) is not Lane.PUSH, body


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Ollie Reed <ollie.r@icloud.example>", "gran are u home", "i missed the bus and mum's "
     "phone is off. can you pick me up? its getting dark"),
    ("Hana Ellis <hana.e@mail-box.example>", "about Dad", "Don't panic, Dad's been taken into "
     "the Royal, they think he had a mild stroke. Can you get a taxi there?"),
    ("Nurse Team <nurses@surgery.example>", "needlestick", "Jade had a needlestick from a used "
     "needle. Who does she go to?"),
    ("Lisa Carr <lisa.carr@careteam.example>", "walked off site", "6 of us have walked out, "
     "no heating in the lounge. Can you call the manager?"),
])
def test_trouble_from_the_fourteenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


# -- issue 22, fifteenth pass (blind-set-18 and -19 misses; -20 to -23 kept unread) ---------

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # a need told at the start of a sentence, with a near time or trouble
    ("Duty Desk <duty@ferryline.example>", "MV Corran engine fault", "Port engine fault on the "
     "Corran. Need a relief vessel or a decision to cancel by 16:30z."),
    ("Mo <mo@deli.example>", "card reader", "Card reader down since 11, only cash now. Need "
     "the account password to reset it."),
    # something that needs doing, within the hour
    ("Inspector <j.bell@county.example>", "scaffold on Keel St", "The scaffold on Keel St is "
     "blocking the footpath with no signs. This needs sorting within the hour."),
    # animals out, and the sender asks where the reader is
    ("Ewan <ewan@farm.example>", "sheep", "The sheep are out on the main road, gate left open. "
     "where are you"),
    # someone taken to hospital by paramedics, and a call asked for
    ("Pat <pat@cafe.example>", "customer", "The paramedics are with the customer now. Could "
     "you ring me straight back?"),
    # a fault in French with a call-back asked for
    ("Léa <lea@gite.example>", "Voiture", "Nous sommes bloqués à Dijon, la voiture est en "
     "panne. Peux-tu nous rappeler ?"),
    # Korean: work halted today, attendance requested this afternoon
    ("박현우 <hw.park@build.example>", "현장 작업 중단", "오늘 오전 작업이 중단됐습니다. 오후 3시 "
     "현장 회의 참석 요청드립니다."),
    # an FYI that also carries an incident and a request within hours
    ("Ops <ops@airline.example>", "FYI crew hours", "FYI the first officer will breach duty "
     "limits tonight. Need a replacement within the next 2 hrs."),
])
def test_trouble_from_the_fifteenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # "until 2pm" describes a plan when another day is named, not a deadline
    ("Boxing Day plan", "Could the kids stay with me on the 26th until 3pm, then with you?"),
    # "a deposit now or in the new year?" is a question, not "now"
    ("Re: summer club", "Could you book Sam for both weeks? Do you want payment now or in "
     "March?"),
    # a plan named "emergency", not an emergency
    ("Flood plan review", "Could you look over our village emergency plan before 20 January?"),
    # "today or tomorrow" can wait a day
    ("agenda", "Can you confirm the agenda? Need to circulate it today or tomorrow."),
    # urgency taken back by its own sender
    ("Re: pump", "All sorted now, ignore my urgent one earlier."),
    # Korean "in the afternoon" of next week
    ("면접 일정", "다음주 수요일 오후 중에 가능하신 시간 알려주세요."),
])
def test_plans_and_retractions_from_the_fifteenth_pass_do_not_push(subject: str,
                                                                   body: str) -> None:
    assert lane_of("Kim <kim@corp.example>", subject, body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Rota App <hello@rota.example>", "Your team will love it", "Try it free for 30 days. "
     "No credit card needed."),
    ("Signs Ltd <marketing@signs.example>", "New range", "Our LED signs are in stock with "
     "introductory pricing this month."),
    ("Trainers <courses@train.example>", "Spring cohort", "Only a few places remain. Book by "
     "the 12th to secure the early rate."),
    ("Horse Weekly <subs@horseweekly.example>", "A gift for riders", "12 issues for £12, "
     "then £5 a month."),
    ("Camera Shop <ofertas@camaras.example>", "Black Friday", "Descuentos en objetivos."),
    # a free period and a sales week; an Italian course's offer with its opt-out line
    ("Kestrel <team@kestrel-status.net>", "Your customers noticed the outage first",
     "Cyber Week: 3 months free on the Team plan.\nUnsubscribe"),
    ("Formazione <corsi@formazione-sud.net>", "Corso ecografia in emergenza",
     "Ultimi 6 posti disponibili. Iscriviti ora.\nPer non ricevere più le nostre comunicazioni "
     "clicca qui."),
])
def test_promotions_from_the_fifteenth_pass_are_records(sender: str, subject: str,
                                                        body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO)


# -- issue 22, sixteenth pass (blind-set-20 and -21 misses; -22 and -23 kept unread) --------

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # an emergency service called is an event now, asked or not
    ("Sun <sun@kitchen.example>", "kitchen", "Fire brigade called, we are all outside."),
    ("최민호 <mh@site.example>", "현장", "작업자가 넘어져서 119 불렀습니다."),
    # a gas smell, alone
    ("Joe <joe@fitout.example>", "gas", "We nicked something behind the oven, strong gas smell."),
    # a monitor's alarm that repeats until someone acknowledges it
    ("Kiln Monitor <alerts@kilnworks.example>", "ALARM kiln 2", "Kiln 2 over temperature. "
     "This alarm repeats every 10 minutes until acknowledged."),
    # a stolen van and a question what to tell the customer
    ("Ray <ray@vanhire.example>", "yard", "Van 4 has been stolen overnight. What do you want me "
     "to tell the customer"),
    # a Korean leak and a parent who cannot reach their child
    ("관리실 <office@tower.example>", "누수", "천장에서 물이 새고 있습니다. "
     "30분 후 차단기를 내립니다. 컴퓨터를 옮겨주셔야 합니다."),
    ("민지 엄마 <mj.mom@inbox.example>", "민지", "민지가 연락이 안되네요. 학원에 아직 있나요?"),
    # Spanish smoke and a call for the fire service
    ("Ana <ana@dron.example>", "batería", "Una batería está echando humo. ¿Llamo a los bomberos?"),
    # a part needed before a time today, and "ring me"
    ("Gary <gary@boilers.example>", "boiler", "The heat exchanger is cracked. I need a PO number "
     "before 2pm today to get the part."),
    ("Sian <sian@camp.example>", "river", "The low field will be under water tonight. We "
     "should move the tents, ring me."),
])
def test_trouble_from_the_sixteenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # an incident named in a claim answered within weeks
    ("Claims <claims@insure.example>", "your claim", "Regarding the incident on 3 March, please "
     "send the photos and the police report within 30 days."),
    # a record's name, not an event
    ("Renewals <renewals@insure.example>", "renewal", "Please send your incident log summary "
     "for the year by 30 November."),
    # a broken thing that is closed, with no further action
    ("Maria <maria@coop.example>", "Re: complaint closed", "The glass was broken at the "
     "customer's end. No further action needed on your side."),
    # urgency taken back in the subject
    ("Ken <ken@shop.example>", "URGENT-ish (not really)", "Low on wire, order before Friday?"),
    # frozen food is not a frozen screen
    ("Buyer <buyer@import.example>", "enquiry", "Could you quote frozen squid, 2 containers a "
     "month?"),
    # a payment that has not arrived is not someone who has arrived
    ("Sue <sue@inbox.example>", "deposit", "Nothing has arrived yet. Could you please check?"),
    # a job the helpdesk marked completed
    ("Helpdesk <helpdesk@council.example>", "Job 100 completed", "Job 100 (lights not working) "
     "has been marked completed by the engineer."),
])
def test_records_from_the_sixteenth_pass_do_not_push(sender: str, subject: str,
                                                     body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_a_donation_asked_by_bank_transfer_is_a_lure() -> None:
    message = message_from_fields(
        sender="Flood Appeal <give@flood-appeal.example>", subject="Families need you TODAY",
        body="Please donate today by bank transfer, sort code 01-02-03, account 12345678.")
    trace = classify(message)
    assert "a donation by bank transfer" in trace.evidence["phishing_reasons"]
    assert trace.decision.lane is not Lane.PUSH


# -- issue 22, seventeenth pass (blind-set-22 and -23 misses; -24 and -25 kept unread) ------

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # an alarm that repeats, from the reader's own monitor
    ("Bilge Monitor <alerts@bilge.example>", "HIGH water level", "Pump running 40 min. "
     "This alert will repeat every 15 minutes."),
    # a fire panel that has alerted the fire service, in German
    ("BMA <bma@werk.example>", "ALARM Halle 1", "Meldung: FEUER. Status: Feuerwehr alarmiert."),
    # an automated notice that says act now and asks for it
    ("가마경보 <alert@kiln.example>", "[경보] 1호 가마", "온도 이상 상승. 즉시 현장 확인이 "
     "필요합니다. 전원 차단기를 내려 주세요."),
    # broken down on a hard shoulder, what do we do
    ("Gill <gill@family.example>", "car", "We're on the hard shoulder, the brakes went. What do "
     "we do?"),
    # an animal not moving, a question
    ("Amy <amy@rescue.example>", "incubator", "The incubator tripped, the cubs are cold and not "
     "moving. Do I feed them?"),
    # a go/no-go wanted tonight
    ("Sam <sam@school.example>", "trip", "Wind is up. I need a go/no-go from you by 8pm tonight."),
    # human remains found on site
    ("Shona <shona@dig.example>", "plot 6", "We've found human bones in the strip. Do I call "
     "the coroner?"),
    # a boat taking on water, Spanish: please send someone
    ("Marina <oficina@marina.example>", "GAVINA", "Entra agua en la embarcación. Por favor, "
     "envíe a alguien con llaves."),
    # a French skipper in the emergency room, someone must be found for 9h30
    ("Marc <marc@voile.example>", "sortie", "Je suis aux urgences depuis cette nuit. Les "
     "clients arrivent à 9h30, il faut trouver quelqu'un."),
    # Korean: a wildfire near the house, and a customer not answering after a faulty repair
    ("박영수 <ys@inbox.example>", "산불", "뒷산에 산불 났대. 어머니 약 챙길 거 있으면 연락해"),
    ("민호 <minho@garage.example>", "쏘나타", "브레이크 볼트를 안 조인 것 같아요. 고객님이 "
     "전화를 안받으세요. 어떻게 하죠"),
    # a tow asked for while stranded with flights tomorrow
    ("Rachel <rachel@inbox.example>", "engine", "The engine won't start and we are on the "
     "mooring. Is there a tow or another boat?"),
])
def test_trouble_from_the_seventeenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_next_of_kin_details_asked_in_an_emergency_are_not_an_inheritance_story() -> None:
    message = message_from_fields(
        sender="Beth <beth@dig.example>", subject="ambulance called",
        body="Dennis collapsed, we've called an ambulance. I need his next of kin details.")
    trace = classify(message)
    assert not trace.evidence["phishing_reasons"]
    assert trace.decision.lane is Lane.PUSH
    scam = message_from_fields(
        sender="Barrister Obi <obi@law.example>", subject="your late relative",
        body="I wish to present you as the next of kin to our late client.")
    assert classify(scam).evidence["phishing_reasons"]


# -- issue 22, eighteenth pass (blind-set-24 and -25 misses; -26 and -27 kept unread) -------

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # a person asking twice over, with trouble
    ("Nia <nia@bakery.example>", "oven", "The oven display is blank and it smashed a tray. "
     "Has the engineer been booked??"),
    # a monitor still in alarm
    ("Temp Watch <alerts@tempwatch.example>", "ALARM cold room 2", "Reading 9.1C. In alarm "
     "since 05:40. Acknowledge in the app to stop repeat alerts."),
    ("Studio Monitor <monitor@radio.example>", "SILENCE DETECTED", "Silence on input 1 since "
     "06:10, 00:20:00 and continuing."),
    # French: act without delay, before 17h today
    ("Service <ddpp@prefecture.example>", "Résultat non conforme", "Vous devez bloquer les lots "
     "sans délai et nous transmettre la liste avant 17h aujourd'hui."),
    # German: an ambulance here, come or call
    ("Leon <leon@escape.example>", "Krankenwagen", "Ein Spieler hatte einen Asthmaanfall, der "
     "Krankenwagen ist da. Kannst du herkommen?"),
    # Spanish: the van towed, tell me what to do
    ("Marco <marco@truck.example>", "la troca", "Se llevaron la troca con la grúa. El evento "
     "empieza a las 11. Dime qué hago"),
    # a bird flown off at a show, a question where to meet
    ("Tom <tom@falconry.example>", "lost her", "She has flown off over the church, telemetry "
     "dead. Can you bring the spare receiver?"),
    # a tree across the line this afternoon
    ("Rhodri <rhodri@railway.example>", "tree down", "Big tree down across both rails at "
     "mile 2. Suggest we cancel this afternoon."),
    # Korean: hives after medicine today; a leak in the warehouse and a forklift needed
    ("하늘 엄마 <sky.mom@inbox.example>", "두드러기", "오늘 아침 약 먹고 두드러기가 올라왔어요. "
     "병원을 가야하는지 모르겠어요."),
    ("창고 <warehouse@audio.example>", "누수", "창고 천장에서 물새요. "
     "장비 옮길 지게차 필요합니다."),
])
def test_trouble_from_the_eighteenth_pass_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_a_list_post_or_a_robot_asking_twice_over_does_not_push() -> None:
    # the doubled question mark is a person's: a news feed's "what would he say??" is not
    assert lane_of("Feed <webmaster@news.example>", "News update", "The team could not find a "
                   "way to compromise. What would the fans say??") is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # "I'm away the week after" is a person planning, not an out-of-office reply
    ("dates", "Thank you for your message. I could do Tuesday at 11. I'm away the week after. "
     "Let me know what the family prefer."),
    # a customer asking for a refund is not a receipt
    ("refund", "The car park was closed when we arrived. I'd like a full refund please for "
     "order HC-1182."),
    # a complaint or a claim in the first person, without "you" or "?"
    ("Complaint - tour on 24 October", "We were on your coast tour on 24 October. The lunch "
     "was cold and the pool stop was 15 minutes. We paid £89 each. I expect a partial refund "
     "and an explanation."),
    ("Refund request - booking MDP-5512", "We saw no whales on the 14:00 trip. Your website "
     "says sighting guarantee. I would like to know how this works."),
    # ... and in the first person plural
    ("Refund request - site P5", "We stayed two nights and the showers in the camp kitchen "
     "were cold. We'd like a 50% refund of our $116."),
])
def test_people_writing_from_the_eighteenth_pass_are_not_hidden(subject: str, body: str) -> None:
    assert lane_of("Elin <elin@inbox.example>", subject, body) not in HIDDEN_LANES


# -- nineteenth pass (docs/results.md) ---------------------------------------------------------
def test_someone_at_the_door_who_can_wait_only_minutes_pushes() -> None:
    # the subject names another day; the limit on the wait is now all the same
    assert lane_of("Rob Hale <rob@hale-haulage.example>", "RE: Sunday market stock",
                   "Our van is at your gate now and nobody is there to let him in. He can "
                   "wait 15 min max, then he leaves for the next drop.") is Lane.PUSH


def test_a_court_writing_dear_sir_or_madam_is_not_bulk_mail() -> None:
    body = ("Dear Sir/Madam,\n\nThe hearing in case 4471 has been moved to today at 15:00. "
            "Parties must confirm attendance by reply.")
    assert lane_of("Listing Office <listings@county-courts.gov.uk>", "Hearing moved",
                   body) is Lane.PUSH
    # the same letter from a domain no government holds stays out of PUSH
    assert lane_of("Listing Office <listings@county-courts-notice.com>", "Hearing moved",
                   body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Rocío <rocio@talleres-vega.example>", "Persiana rota",
     "La persiana del local está rota y no cierra. Necesitamos que venga alguien con la llave "
     "lo antes posible."),
    ("Dr. Jana Roth <roth@klinik-nord.example>", "Lieferung fehlt",
     "Die zugesagte Lieferung ist nicht eingegangen. Bitte um sofortige Rückmeldung."),
    ("Pond Monitor <monitor@koi-house.example>", "ALERT: pond 2 oxygen",
     "Dissolved oxygen: 3.1 mg/l (threshold 5.0 mg/l)\nTrend: falling"),
    ("Rack Monitor <ups@archive-hall.example>", "UPS rack B",
     "UPS rack B on battery since 14:02. Runtime left 9 min."),
    ("Piet <piet@linnen-dienst.example>", "van broke down",
     "Van 2 broke down at the ring road exit. Can someone bring the small van for the hospital "
     "load?"),
    ("Léa <lea@salle-des-fetes.example>", "fuite salle B",
     "De l'eau coule du plafond de la salle B pendant le cours. Je fais évacuer ?"),
    ("박지민 <jimin@dojang.example>", "수련생 부상",
     "수련생이 손을 다쳤어요. 지혈하고 있는데 계속 피가 나요. "
     "병원으로 가는 중인데 부모님께 어떻게 할까요?"),
    ("Gary <gary@sparks-electrical.example>", "dryer",
     "The dryer casing is scorched and smells hot. I've isolated it. Need you to tell me if I "
     "can take it out, I'm on site till 2.\n\nGary"),
    ("Lucía <lucia@escuela.example>", "Se ha inundado el baño de la primera planta",
     "Se ha roto la cisterna y el agua está saliendo al pasillo. ¿Puedes llamar al fontanero?"),
    ("Tess <tess@films.example>", "wrong lens mount - crew call in 1 hr",
     "The lenses don't fit the body. Can you get an adapter to the set?"),
    ("Ray <ray@roofing.example>", "Tomas on the Ash St job",
     "Tomas got dizzy on the roof and threw up. He's not making sense. I'm calling 911 now. "
     "Can you call his wife?"),
    ("Niall <niall@radio.example>", "we've been told to leave",
     "The street has been cordoned off, a suspicious package by the bus stop. We were "
     "told to leave the building. Someone needs to stop the choir coming in. Ring me."),
    ("Iker <iker@bateas.example>", "la lancha no arranca",
     "Xoán, el motor no arranca y estamos amarrados a la batea con el viento subiendo. "
     "¿Puedes mandar a Andrés con la lancha?"),
    ("Technik <technik@saal.example>", "Rohr im Foyer",
     "In der Nacht ist ein Rohr in der Decke geplatzt, das Wasser steht im Foyer. Kannst du "
     "entscheiden, was wir mit dem Vorverkauf machen?"),
    ("Kasse <kasse@saal.example>", "Terminal Kasse 2",
     "Das Kartenterminal geht seit 17:40 nicht mehr. Einlass ist heute um 19:00, soll ich die "
     "Hotline anrufen?"),
    ("윤말순 <malsoon.yoon@hanmir.example>", "가게 뒤에서 연기나요",
     "사장님 가게 뒤 환풍기에서 연기가 계속 나요. 타는 냄새도 나요. 빨리 와 보세요."),
    ("윤말순 <malsoon.yoon@hanmir.example>", "수도 터졌어요",
     "마당 수도가 터져서 물이 골목으로 흘러요. 빨리 좀 나와 보세요."),
    ("관제센터 <alarm@security.example>", "[관제] 화재감지 발생 - 2층 건조실",
     "발생시각 02:13, 열감지기 동시 감지. 출동요원 배치, 119 자동 신고."),
    # a clock time is not money bait ("I won't make 8:30" is no "make 500 a week")
    ("Dr Ines Mora <ines@mora-dental.example>", "train cancelled",
     "Train cancelled at Linz, I won't make 8:30. Please call Mr Pohl now and tell him to "
     "wait in reception. Call me if problem."),
    # what happened minutes ago is happening now; a person missing is trouble
    ("Walt <walt@ditch-company.example>", "truck in the canal",
     "A pickup went into the canal about twenty minutes ago and one man is unaccounted for. "
     "Can you drop the gates from the office?"),
    ("Ops <ops@water-north.example>", "hospital supply",
     "The hospital reports low pressure on the upper floors. We need a yes on the tankers "
     "before the 14:00 theatre list."),
    ("Luc <luc@charpente-nord.example>", "inspecteur",
     "L'inspecteur veut le plan de sécurité signé d'ici une heure, sinon il arrête le chantier. "
     "Tu peux lui envoyer ?"),
    ("Rogelio <rogelio@apiarios-sur.example>", "camión",
     "Se descompuso el camión en la carretera con las colmenas al sol. ¿Llamo a otro "
     "transportista?"),
    ("Petra <petra@baeckerei-korn.example>", "Anna im Krankenhaus",
     "Anna ist im Krankenhaus. Wer übernimmt ab 12 die Kasse?"),
    # "tonight or tomorrow morning" offers a slot; it does not say the matter can wait
    ("Hannah <hannah@mailbox-one.example>", "wrong dress delivered - wedding tomorrow 3pm",
     "The dress you delivered is two sizes too big and the wedding is tomorrow at 3pm. We can "
     "come to the shop tonight or tomorrow morning. Please call me."),
    # Korean: "call me" / "pick up", "tell me quickly"; a surprise inspection at 3 today
    ("지은 <jieun@hanmir.example>", "아빠 응급실",
     "언니 아빠 응급실 왔어 전화 좀 받아"),
    ("박현수 <hs.park@nongjang.example>", "냉동창고",
     "냉동창고 지금 영하 5도까지 올라갔어요. 물건 옮길지 빨리 말해줘요."),
    # a closed road is no resolved ticket; a permission requested is an ask
    ("Night desk <radio@guard-co.example>", "post 9 no contact",
     "The guard at post 9 missed the 02:00 and 03:00 radio checks. The patrol went but the "
     "road is closed by police. Request permission to send the standby guard."),
    # what the sender needs, said outright, in four languages
    ("Kim <kim@yarn-studio.example>", "moth larvae in lot 311",
     "We found larvae in two cartons and the launch is tomorrow at 9am. I need to know "
     "tonight whether you can air-ship clean yarn."),
    ("Dr. Bauer <bauer@frucht-werk.example>", "Noroviren Charge 2731",
     "In Charge 2731 wurden Noroviren nachgewiesen. Ich benötige von Ihnen bis heute 15:00 Uhr "
     "die vollständige Rückverfolgung."),
    ("Alejo <alejo@quinua-andes.example>", "techo del almacén",
     "Se cayó parte del techo con la nevada. Necesito autorización para contratar diez "
     "personas hoy mismo."),
    ("Claire <claire@laiterie-nord.example>", "Lot 0612",
     "Notre direction doit décider avant 17h aujourd'hui d'un retrait. J'ai besoin de votre "
     "position écrite avant 15h."),
    # plant that has stopped, in other words
    ("Piotr <piotr@grzyby-farm.example>", "halls cooling",
     "The heating is offline in halls 5 and 6 and they are cooling fast. Can you come?"),
    ("Toni <toni@tartufi-shop.example>", "small cold room",
     "The cold room shows 11°C, at midnight it was 2°C. The compressor is not running. London "
     "pickup is 13:00. Do I call the service?"),
    ("Jürgen <juergen@klavier-transport.example>", "Bühne hängt",
     "Goran hat sich die Hand eingeklemmt und blutet stark. Ruf bitte an."),
    # an authority's order with a time today: a flash flood is trouble, not a receipt
    ("Visitor Centre <operations@rum-park.example>", "Flash flood warning",
     "A flash flood warning is in force this afternoon. Camps in low wadis must move guests to "
     "higher ground before 15:00 today. Confirm receipt by reply."),
    # "please:" and a list of what to do; French "merci de la signer"; Spanish "necesitamos hoy"
    ("Dr Mensah <mensah@fish-lab.example>", "preliminary TiLV result",
     "The preliminary result for block B is positive. Until we confirm, please:\n- do not move "
     "any live fish off the site,\n- stop all fingerling sales.\nA truck is loading this "
     "morning."),
    ("Fulbert <fulbert@transit-port.example>", "procuration 2028",
     "Sans ce document avant 18h, la déclaration ne peut pas être déposée et les véhicules "
     "resteront au port. Merci de la signer et de nous l'envoyer scannée."),
    ("Calidad <calidad@turron-sur.example>", "vidrio en lote 2805",
     "Hemos encontrado vidrio en el lote 2805 y parado la línea. Necesitamos hoy mismo su plan "
     "de acción."),
    # a routine matter's subject ("inspection") does not calm trouble due today
    ("최과장 <choi@gongjang.example>", "HACCP 점검",
     "방금 식약청 전화 왔는데 오늘 오후 2시에 불시 점검 나온대요. 발효실 온도 이탈 기록 빠져 "
     "있으면 큰일이에요."),
    # responders called or on their way: the trouble is happening now, asked or not
    ("Rodrigo <rodrigo@globos-altos.net>", "aterrizaje - pasajera herida",
     "La cesta ha volcado al aterrizar. Una pasajera no puede apoyar el tobillo. Ya viene la "
     "ambulancia del 112."),
    ("Peter <peter@lakeside-camp.net>", "store room",
     "There is smoke from the store behind the kitchen. I have called fire brigade, they are "
     "asking for directions."),
    ("김 기사 <kim@jeju-rent.net>", "차량 화재",
     "주차장에서 엔진룸 연기 나서 소방차 출동했습니다. 손님은 다 내렸습니다."),
    ("Chuy <chuy@huerta-norte.net>", "casa B",
     "Huele muy fuerte a gas en la cocina. Sacamos a todos afuera. ¿A quién llamamos?"),
    ("Nate <nate@diestamp.net>", "shared drive",
     "Every file on the S: drive has been encrypted overnight, a ransom note on each "
     "desktop."),
    # asks in more words: "sag mir heute noch, ob", "알려주시면 감사하겠습니다"
    ("Jörg <joerg@naturkosmetik.net>", "Charge 2810 - Schimmel",
     "Schimmel in der Charge 2810. Die Palette wird morgen um 7 Uhr verladen. Bitte sag mir "
     "heute noch, ob wir sie stoppen sollen."),
    ("정재훈 <jh@sewon-em.net>", "공항 2차 심사",
     "2차 심사실로 넘어왔고 지금 3시간 넘게 대기 중입니다. 귀국 조치 얘기를 합니다. 휴대폰 곧 못 "
     "쓰게 할 것 같습니다. 변호사님 번호도 알려주시면 감사하겠습니다."),
    # the common emergencies, each with an ask, in the languages the judge reads
    ("Somchai <somchai@bamboo-works.net>", "fire on hill behind culm yard",
     "There is fire on the hill behind the culm yard, moving down with the wind. Can I call "
     "the workers back to cut a firebreak?"),
    ("Idrissa <idrissa@psma-projet.net>", "accident route - voiture renversée",
     "La voiture s'est renversée sur la piste, Cheikh est blessé au bras. Est-ce que j'appelle "
     "l'assurance maintenant ?"),
    ("Jonas <jonas@loop-riders.net>", "Katrin nicht zurück",
     "Katrin ist seit gestern Abend nicht zurückgekommen, kein Kontakt. Kannst du mir die "
     "GPS-Daten vom Motorrad schicken?"),
    # a person crushed, a vessel adrift or taking water, and the same in Portuguese
    ("Night dispatch <dispatch@pantanal-barges.net>", "Jefferson - hand",
     "Jefferson's hand was crushed between the barges 40 km downriver. Can you authorise the "
     "speedboat from Ladário?"),
    ("Captain <captain@delta-bend.net>", "Hollis Creel steering",
     "Lost steering above the bridge, both anchors down and we are still dragging. Do you want "
     "the assist boat sent?"),
    ("Marcos <marcos@projeto-mamore.net>", "Gilvan",
     "O Gilvan não voltou da ronda e o rádio está mudo desde as 15h. Por favor, me diga se "
     "chamo a polícia."),
    # a person burned; a decision wanted by a time, in German and French
    ("Yannis <yannis@karamitsos-distillery.net>", "still 2",
     "Stelios was badly burned on his arm at still 2. Can you call his wife?"),
    ("Jens <jens@hanse-import.net>", "Partie LK-27-06: Cadmium-Wert",
     "Der Cadmium-Wert der Partie LK-27-06 liegt über dem Grenzwert. Der Spediteur braucht "
     "Ihre Anweisung heute bis 16 Uhr."),
    ("Claire <claire@parfums-grasse.net>", "Lot 26-112 bergaptène",
     "Le lot 26-112 est hors spécification, 40 fois le certificat. La ligne démarre à 14h : "
     "il nous faut votre décision avant 14h."),
    # a Spanish question without its "¿": "Lo llamo?"
    ("Efraín <efrain.m@freemail.net>", "Rogelio bloque 7",
     "Rogelio se cayó junto a la máquina, está vomitando y habla raro. Usted dijo que para "
     "estas cosas se llama al 911. Lo llamo? Estamos en el bloque 7."),
    ("Joseph <joseph@fruit-pack.net>", "CR3",
     "Cold room 3 is reading 11.4 C and the compressor trips again. The technician is not "
     "picking phone. Should I move the pallets to CR1?"),
    # an authority's order, from a robot, addressed to those who must act
    ("Town Alerts <noreply@alerts.hayriver-town.net>", "EVACUATION ORDER - Vale Island - "
     "effective immediately", "An evacuation order is now in effect for Vale Island. An ice "
     "jam has released and water is rising. Residents must leave now."),
    # a carrier's hold on the reader's own shipment
    ("Parcel Express <noreply@parcel-express.net>", "Action required today: shipment held by "
     "customs", "Your shipment is held by customs. It will be returned to the sender unless an "
     "itemised invoice is provided."),
    # a high-severity alert naming suspicious email forwarding
    ("Microsoft 365 <o365alerts@microsoft.com>", "High-severity alert: Suspicious email "
     "forwarding activity", "A mailbox in your organisation is forwarding mail to an external "
     "address."),
    # a forwarder's "not guaranteed" is no seller's promise (no bulk shape from a stranger)
    ("Dock office <ops@quayside-cargo.net>", "Booking QC-2231 - VGM missing - cut-off 13:00 "
     "TODAY", "The line still has no VGM for booking QC-2231. Document cut-off is 13:00 today. "
     "I need the signed VGM before 12:30; a late-doc exception is not guaranteed."),
    # a fall and a ride to hospital, in French and Korean as in English
    ("Josée <josee@camp-tracadie.net>", "ton père",
     "Ton père est tombé du toit en pelletant, ta mère a appelé le 911. Appelle-moi dès que tu "
     "vois ça."),
    ("오현석 <hs.oh@dasom-seed.net>", "소장님",
     "소장님, 아침에 시내에서 넘어졌습니다. 발목 골절 같다고 합니다. 와 주실 수 있나요?"),
    # the commonest words in Italian, Romanian, Portuguese and Ukrainian
    ("Luca <luca@caseificio-valle.net>", "cella frigo",
     "La cella frigo 2 non funziona, siamo a 11 gradi. Puoi chiamare il tecnico oggi?"),
    ("Ionuț <ionut@ferma-deltei.net>", "tractor",
     "Vasile a căzut de pe remorcă, l-a luat ambulanța la spital. Te rog sună-mă acum."),
    ("Rita <rita@quinta-serra.net>", "armazém",
     "O armazém está alagado e a bomba não funciona. Pode ligar ao eletricista hoje?"),
    ("Олена <olena@agro-volyn.net>", "склад",
     "На складі пожежа, пожежники вже їдуть. Будь ласка, зателефонуй мені терміново."),
    # Portuguese: a gas smell and what to do; an alarm told NOT resolved; Italian alarm
    ("Marina <marina@pousada-leste.net>", "cheiro de gás na cozinha",
     "Marina to sentindo cheiro forte de gás desde que troquei o botijão. O que eu faço?"),
    ("Farmácia <alarmes@hospital-mar.net>", "ALARME: Refrigerador FARM-REF-03 11,4 °C",
     "ALARME DE TEMPERATURA - NÃO RESOLVIDO. Leitura atual: 11,4 °C há 47 minutos."),
    ("Monitor <monitor@agrumi-coop.net>", "[ALLARME] CELLA 3 - Temperatura alta",
     "ALLARME ATTIVO - livello 2, nessuna presa in carico dopo 30 min."),
    # a red warning, in Portuguese and Italian, as "severe weather warning" in English
    ("Avisos <avisos@meteo-instituto.net>", "AVISO VERMELHO - Chuva forte - Benguela",
     "Aviso vermelho: chuva forte e persistente, risco elevado de cheias rápidas nas zonas "
     "baixas."),
    # Polish gas and a call asked for; a son not come home, in Ukrainian
    ("Agnieszka <a.hrycaj@szkola-hrub.net>", "sala gimnastyczna",
     "Zapach gazu w sali gimnastycznej, dzieci wyprowadzone na boisko. Zadzwoń do mnie."),
    ("Оксана <oksana@volyn-zerno.net>", "син",
     "Мій син Богдан не прийшов додому з училища. Будь ласка, зателефонуй мені."),
    # a Korean clock time with no other day named is today's
    ("통관팀 <customs@hanul-parts.net>", "수출신고 반려",
     "수출신고가 반려되었습니다. 수정된 인보이스를 3시까지 보내주셔야 선적 가능합니다. "
     "부탁드립니다."),
    # an alarm centre's notice stamped with a date, asking for a keyholder: happening now
    ("Northgate Monitoring <centre@northgate-monitoring.net>",
     "ALARM: SPRINKLER FLOW - Zone 2 - Lakeside Joinery",
     "EVENT: SPRINKLER WATERFLOW\nTIME: 03/11 04:52:10\nFire service dispatched.\n"
     "A keyholder is requested on site. Please call the centre on 0161 555 0199 and quote event "
     "55120."),
    # Greek and Swahili: a fire and an ambulance, a fall, asked for now
    ("Νίκος <nikos@agia-marina-villas.net>", "Φωτιά στο οικόπεδο δίπλα",
     "Κατερίνα, έχει πιάσει φωτιά στο οικόπεδο δίπλα στις βίλες. Πάρε με τώρα."),
    ("ΓΙΑΝΝΗΣ <giannis@lefka-ori-tours.net>", "ΠΕΣΕ Ο ΟΔΗΓΟΣ",
     "ΕΠΕΣΕ Ο ΟΔΗΓΟΣ ΣΤΟ ΜΟΝΟΠΑΤΙ, ΧΡΕΙΑΖΟΜΑΣΤΕ ΑΣΘΕΝΟΦΟΡΟ. ΠΑΡΑΚΑΛΩ ΠΑΡΕ ΤΗΛΕΦΩΝΟ."),
    ("Baraka <baraka@kilifi-boats.net>", "mvuvi ameumia",
     "Mzee, mvuvi mmoja ameumia vibaya kwenye boti. Tunahitaji gari la wagonjwa sasa hivi. "
     "Tafadhali nipigie."),
    # what happened told first, the ask at the end, past the first 600 characters
    ("Hélène <helene@conserverie-lozere.net>", "Lot d'hier et créneau d'aujourd'hui",
     "Bonjour Paul,\nComme je l'ai dit au téléphone à votre chef d'équipe, sur le lot d'hier "
     "(le camion de 18h40, 14 tonnes) nous avons refusé trois tonnes pour des fruits abîmés "
     "par la chaleur. Le bon de réception avec les photos suivra dès que la qualité l'aura "
     "signé, avec les numéros de palettes et les températures relevées au quai. Notre ligne a "
     "de la place pour vos fruits aujourd'hui jusqu'à 16h00. Les fruits qui arrivent après "
     "ne pourront pas entrer dans l'équipe de l'après-midi et, avec la chaleur annoncée pour "
     "le week-end, je ne les garderai pas en chambre froide. La direction m'a dit clairement "
     "que si nous n'atteignons pas le tonnage prévu cette semaine, la dernière semaine de la "
     "saison ira à un autre producteur.\nMerci de me confirmer avant 12h00 combien de tonnes "
     "vous apportez et à quelle heure part le camion.\nHélène"),
    # what others wait for from the reader, by a time today
    ("Dev <dev@harbourside-foods.net>", "Swollen jars in the Leeds stores",
     "Anna,\nNine complaints since this morning about swollen jars, all from lot 0412. The "
     "store buyers want to know by 4pm today whether you are pulling the lot.\nDev"),
    ("Kofi <kofi@ridgeview-dairy.net>", "silo 3 result",
     "Result for silo 3 is over the limit. The line has been fed from it since 06:30 and is "
     "still running. Production is waiting for your decision.\nKofi"),
    # Basque, Arabic and Moroccan Arabic in Latin letters: hurt, fallen, fire, asked for now
    ("Jon <jon@arrantzale-elkartea.net>", "Mikel erori da",
     "Mikel erori da kaian eta zauritu egin da. Anbulantzia behar dugu, deitu iezadazu orain."),
    ("سعيد <said@souss-serres.net>", "حريق في المخزن",
     "اندلع حريق في مخزن الأسمدة الآن. من فضلك اتصل بي فورا."),
    ("Youssef <youssef@tamri-surf.net>", "Karim tah",
     "Karim tah f lmouja w mjrouh f rasso, ddinah l sbitar. 3afak 3ayet lia daba."),
    # Japanese: a worker collapsed, an ambulance, asked for now; Spanish "les pedimos"
    ("工場長 <kojo@satsuma-shochu.net>", "従業員が倒れました",
     "蒸留室で従業員が倒れ、意識がありません。救急車を呼びました。すぐに連絡をください。"),
    ("Parque <admin@parque-merida.net>", "Cierre por tormenta antes de las 13:00",
     "Protección Civil pide suspender labores antes de las 13:00 por inundación. Les pedimos "
     "confirmar a más tardar a las 10:00 cuántas unidades saldrán."),
    # Dutch: a fall and the hospital, asked for today
    ("Kees <kees@oesterij-yerseke.net>", "Piet gevallen op de kade",
     "Piet is op de kade gevallen en ligt in het ziekenhuis. Kun je vandaag de verzekering "
     "bellen? Bel me."),
    # an address, a road junction and a blood pressure are no dates
    ("Hannah <hannah@lettings-desk.net>", "water through the ceiling",
     "Water is pouring through the kitchen ceiling at flat 2, 14 Marlowe Road. Can you send a "
     "plumber?"),
    ("Tess <tess@harbourview-units.net>", "water through the ceiling at 4/18 Shore Rd",
     "The tenant at 4/18 Shore Rd says water is pouring through the ceiling from the flat "
     "above. Can you get a plumber there??"),
    ("Ion <ion@delta-clinic.net>", "pacient cu dureri in piept",
     "Pacientul are dureri in piept, TA 90/60, transpirat. Can you call the ambulance "
     "dispatcher for him?"),
    # Croatian: no water since dawn and a decision asked; a fault with a clock time
    ("Dino <dino@pansion-lavanda.net>", "nema vode",
     "Od 6:10 nema vode u cijeloj zgradi, pumpa je ugašena. Trebam tvoje OK za cisternu."),
    ("Roko <roko@trajekti-brac.net>", "skeneri",
     "Od 7:45 ne radi prodaja karata, red na gatu raste. Što da radimo s ukrcajem?"),
    # European Portuguese: a clock time after "às", the power failed, "diz-me"
    ("Zé <ze@lota-norte.net>", "câmara frigorífica",
     "Falhou a luz às 02:50 e o gerador não arranca. A câmara está a aquecer. Diz-me o que "
     "faço."),
    # a vehicle off the road, a fridge's reading, livestock on the road, a machine rolled
    # ("drive back up" is no service back up), a response required by a time; Irish
    ("Bonnie <bonnie@district-buses.net>", "Bus 7 in ditch",
     "Slid off at the curve, back end in the ditch, 11 kids on board. Can you send the spare "
     "bus?"),
    ("Martina <martina@surgery-north.net>", "vaccine fridge",
     "The vaccine fridge was showing 11.8 C when I came in. Do we cancel the clinic?"),
    ("Jim <jim@croft-south.net>", "ewes",
     "Your ewes are on the main road by the bend, two cars nearly hit them. Can you come?"),
    ("Dusty <dusty@ski-area.net>", "Cat 2",
     "Cat 2 rolled onto its side at 2:40, leaking hydraulic fluid toward the creek. I can't "
     "drive back up. Somebody needs to decide if we call the Forest Service now."),
    ("Agency <ops@ship-agency.net>", "Seafarer refused entry",
     "The seafarer was refused leave to enter at 12:50 today. Agent response required by "
     "15:30."),
    ("Seán <sean@feirm-eisc.net>", "Iasc marbh",
     "Tá 340 iasc marbh againn inniu ag cliabháin 4 agus 5. An bhféadfá glaoch orm?"),
    # "mar 1,5 m" is the sea, not the first of March; "Da otkažem?"; "Was sollen wir tun?"
    ("Rui <rui@baleias-pico.net>", "Cachalote II parado",
     "O motor de bombordo não arranca, estamos a derivar. Mar 1,5 m. Preciso da Baleia Branca "
     "para nos rebocar."),
    ("Martina <martina@ambulanta-vodice.net>", "frižider s cjepivima",
     "Frižider s cjepivima pišti, na displeju 11,4 °C. U 8 imamo cijepljenja. Da otkažem?"),
    ("Matthias <m.krueger@segeln-nord.net>", "Motor überhitzt",
     "Der Anker slippt, der Motor ist überhitzt und ausgegangen. Was sollen wir tun?"),
    # Finnish and Swedish: a clock time "klo 04.52", not working, a decision needed; burns
    ("Jari <jari@kaivos-pohjoinen.net>", "Tuloilman lämmitin laukesi",
     "Lämmitin laukesi klo 04.52 eikä käynnisty. Ulkona -38. Tarvitaan päätös, soita minulle."),
    ("Erik <erik@montage-nord.net>", "Olycka vid ugn 2",
     "En montör fick brännskador för tio minuter sedan, ambulansen är på väg. Kan du komma "
     "till ugn 2 nu?"),
    # "pas avant jeudi" is when a part comes, not when the answer is due
    ("Luc <luc@moulage-nord.net>", "Chaudière B-1 en panne",
     "La chaudière B-1 est en panne en plein cycle, la pièce n'arrive pas avant jeudi. J'ai "
     "besoin de ton go pour louer une chaudière."),
    # a weather service's amber warning, as its red one
    ("Met Office <warnings@weather-alerts.net>", "Amber wind warning: today 15:00 - 06:00",
     "Gusts of 70-80 mph likely. Road, bridge and ferry closures likely."),
    # French: water coming out since this morning and a question put to the reader; a
    # clock written "08h40"
    ("Jean-Yves <jy.morvan@orange-mail.net>", "de l'eau sort sous la porte du garage",
     "Il y a de l'eau qui sort sous la porte du garage depuis ce matin. Vous pouvez venir ou "
     "m'envoyer quelqu'un ?"),
    ("Capitainerie <capitainerie@port-keroman.net>", "KORNOG – aussière rompue",
     "Une personne de votre armement doit se présenter à bord avant la pleine mer de 08h40. "
     "Merci de nous confirmer qui intervient."),
    # Malay: bitten by a snake, no antivenom, please send the letter; Rioplatense Spanish:
    # the pump burnt out, tell me what to do
    ("Suparman <suparman@tiang-agro.net>", "Pekerja dipatuk ular Blok 11",
     "Pekerja dipatuk ular di Blok 11 pukul 10.20 pagi. Klinik tiada antivenom. Tolong hantar "
     "surat jaminan ke hospital."),
    ("Raúl <rtechera@batovi-ganado.net>", "corrales sin agua",
     "Se quemó la bomba del pozo 2 y los corrales 6 al 11 están sin agua, hace 36 grados. "
     "Decime qué hago."),
    # a cold room's reading in French; cows on the road and "mandá a alguien" (RE2's "\\b"
    # does not stand after "á"); "bitte ... Bescheid" by a time
    ("Nolwenn <nolwenn.m@orange-mail.net>", "chambre froide",
     "La chambre froide est à 9 °C et le compresseur s'arrête tout seul. Tu connais le "
     "frigoriste, il peut venir par le bateau de 11h ?"),
    ("Nelly <nelly.s@freemail.net>", "las vacas tuyas en la 17",
     "Se cayó el alambrado y hay 30 vacas tuyas en la ruta 17, no hay luz y pasan camiones. "
     "Mandá a alguien o avisá a la caminera vos."),
    ("Annette <a.seidel@weinhaus.net>", "Falsche Lieferung",
     "Die Lieferung ist falsch, die Verkostung ist morgen um 18 Uhr. Bitte geben Sie mir bis "
     "15 Uhr Bescheid, ob Sie heute noch nachliefern."),
    # "à la dérive" opens with an accented letter, outside RE2's ASCII "\\b"
    ("Yann <yann@peche-groix.net>", "le Santez",
     "Le Santez est à la dérive devant Groix, moteur HS. Tu peux appeler le CROSS ?"),
    # a reading still getting worse
    ("Marta <marta@finca-lucero.net>", "el sótano",
     "El agua del sótano ya llega a 10 cm y subiendo. ¿Apago la caldera?"),
    ("Jonas <jonas@halle-nord.net>", "Keller",
     "Das Wasser im Keller steht bei 20 cm und steigt. Kannst du den Notdienst anrufen?"),
    # Danish and Norwegian
    ("Søren <soren@havnelager.net>", "Kølerummet",
     "Kølerummet virker ikke og temperaturen stiger. Kan du ringe til teknikeren i dag?"),
    ("Kari <kari@fjordbuss.net>", "Bussen",
     "Bussen har kjørt av veien ved Vik. Ingen er skadet, men vi trenger en ny buss med en "
     "gang. Gi beskjed!"),
    ("Lars <lars@byggeriet.net>", "Kranen",
     "Det haster: kranen skal flyttes inden for en time. Ring til mig."),
    # cues that recur across independently written sets: someone has just phoned, a call
    # finds no one, "send someone"
    ("Ruth <ruth@kestrel-freight.net>", "Truck 4",
     "The depot just called: truck 4 is blocking the loading bay. Can you move the afternoon "
     "slot?"),
    ("Pablo <pablo@finca-olmo.net>", "la cosechadora",
     "El taller me acaba de llamar, la cosechadora no estará lista. ¿Qué hacemos con el "
     "contratista?"),
    ("Nina <nina@harbourkitchens.net>", "Mum",
     "Mum's mobile goes straight to voicemail since she left the clinic. Can you ring the "
     "ward?"),
    ("Ian <ian@westfield-care.net>", "Room 12",
     "No answer from the night nurse on room 12. Can you check on Mrs Dale?"),
    ("Ola <ola@riverside-rentals.net>", "Flat 3",
     "The tenant in flat 3 says the ceiling is dripping. Please send someone."),
    ("김과장 <kim@hanul-trade.co.kr>", "선적 서류",
     "금일 18시까지 선적 서류 확인 부탁드립니다. 통관이 막혀 있습니다."),
    # words ending in an accented letter, read as whole words (RE2's "\\b" is ASCII-only)
    ("Hugo <hugo@chantier-lebrun.net>", "Karim",
     "Karim est tombé de l'échafaudage, il est blessé. Tu peux appeler sa femme ?"),
    ("Ewa <ewa@schronisko-hala.net>", "Jan",
     "Jan zaginął w górach. Czy możesz zadzwonić do GOPR?"),
    ("Herr Vogt <vogt@kranverleih-sued.net>", "Kran 3",
     "Der Kran 3 ist umgekippt. Rufen Sie mich bitte an."),
    ("Rosa <rosa@finca-tejo.net>", "Manuel",
     "Manuel va en la ambulancia con Pedro. ¿Puedes avisar a su mujer?"),
    # a clock time today said as a limit, in four languages
    ("Claire <claire@transports-morel.net>", "Dédouanement lot 44",
     "Le transitaire doit avoir la facture corrigée avant 15h aujourd'hui, sinon le conteneur "
     "part sans dédouanement."),
    ("Jens <jens@spedition-alt.net>", "Zollpapiere",
     "Der Zoll braucht die korrigierte Rechnung bis heute 17 Uhr, sonst bleibt der Container "
     "stehen."),
    ("Marta <marta@exportes-sol.net>", "Certificado",
     "La naviera necesita el certificado antes de las 17:00 de hoy o el contenedor no embarca."),
    ("Tom <tom@harbourfresh.net>", "Health cert",
     "The vet office needs the corrected health certificate by 12:00 today or the load misses "
     "the ferry."),
    # laughter does not take trouble out of a mail
    ("Lee <lee.h@freemail.net>", "flat",
     "haha no joke, the pipe burst and the kitchen is flooding right now. Can you come over?"),
    # German's polite and familiar imperatives are asks; "within the next 10 minutes" is now
    ("Jonas Petersen <j.petersen@nordlicht-reisen.net>", "Pier 1: Busse",
     "Ich stehe an Pier 1. Bitte sagen Sie mir innerhalb der nächsten 10 Minuten, ob die Busse "
     "kommen."),
    ("Markus <m.brandl@feinkost-brandl.net>", "Charge TS-26/44",
     "Ich habe deinen Anruf verstanden. Bitte schick mir heute das Laborergebnis."),
    # stuck, in French, read as a whole word ("bloqués" ends in an accented letter)
    ("Moustapha <m.gueye@transit-diasse.net>", "palettes",
     "Le camion est bloqué, le chauffeur attend. Pouvez-vous appeler la douane ?"),
    # French imperatives and "merci de vous rendre" are asks; "in less than an hour" is near;
    # a plane taking on water is trouble
    ("Hatem <hatem.z@freemail.net>", "L'eau monte",
     "L'oued a débordé, l'eau monte dans la rue. Réponds vite."),
    ("École Kairouan <ecole.kairouan@freemail.net>", "Youssef",
     "Votre fils est tombé pendant la récréation. Merci de vous rendre directement aux "
     "urgences."),
    ("Seb <seb@gannet-air.net>", "GCX au quai",
     "Le Beaver a pris l'eau au quai. J'ai besoin que tu m'autorises la grue."),
    ("Tom <tom@harbourfresh.net>", "ferry",
     "The ramp is jammed and the ferry leaves in less than an hour. Can you call the port?"),
    # deadline words in Spanish, French and German with today's clock time
    ("Secretaría <secretaria@bandera-concha.net>", "Licencias pendientes",
     "Faltan dos licencias. El plazo termina hoy a las 14:00."),
    ("Petra Lenz <p.lenz@lenz-transporte.net>", "Zulassung",
     "Die Zulassung des Anhängers läuft heute ab. Ohne sie darf er morgen nicht fahren."),
    # Spanish: water getting in, someone who has to open
    ("Gladys <gladys.v@freemail.net>", "agua en su bodega",
     "Está entrando agua a su bodega por la pared. Alguien tiene que abrir para sacar las "
     "cajas."),
    # Dutch as Flanders writes it: "kunt ge", "bel mij terug aub", "10u40", "vóór 14u"
    ("Pieter <pieter@bakkerij-maes.net>", "oven",
     "De grote oven is uitgevallen en het deeg staat klaar. Kunt ge vanmorgen nog een "
     "technieker sturen?"),
    ("Els <els@kinderopvang-zon.net>", "kelder",
     "Er loopt water binnen in de kelder van de opvang, al een half uur. Bel mij terug aub, we "
     "vinden de hoofdkraan niet."),
    ("Koen <koen@transport-dewilde.net>", "camion aan de grens",
     "Onze chauffeur zit vast aan de grens sinds 6u, de papieren zijn tegengehouden. Laat ons "
     "iets weten vóór 14u."),
    ("Sara <sara@apotheek-noord.net>", "koelkast vaccins",
     "De vaccinkoelkast staat op 14 graden sinds vanochtend, er is geen stroom op dat "
     "stopcontact. Wat moet ik doen met de vaccins?"),
    ("Jef <jef@vishandel-noord.net>", "koelcel",
     "De koelcel is uitgevallen. Moet ik de vis weggooien?"),
    # French as Quebec writes it: "depuis 9 h 40", a car on the shoulder
    ("Guy <guy.fortin@transport-fortin.net>", "arrêté au poste de pesée",
     "Le camion est immobilisé au poste de pesée depuis 9 h 40. Peux-tu m'envoyer un autre "
     "chauffeur avec le 12?"),
    ("Line <line.pelletier@videotron.net>", "ça cogne dans la roue",
     "Je me suis mise sur l'accotement, ça cogne à l'arrière depuis le changement de pneus. "
     "Est-ce que je peux continuer?"),
    # people at the door, "please catch them"
    ("Dana <dana.reyes@gmail.com>", "door code",
     "Sorry, I changed the door code. Your cleaners say they're standing at the back door in "
     "the rain. Can you pass them the new code?"),
    ("Rob <rob@floorsbyrob.net>", "don't send the crew",
     "The varnish is still wet at the Elm St job. Please catch your crew before they get there "
     "this morning."),
    # a robot's notice of trouble at the reader's own place, today (not an account's)
    ("Harbour Propane <no-reply@harbourpropane.net>", "Leak found at your tank",
     "During this morning's delivery our driver found a leak at your tank regulator and closed "
     "the main valve. Do not use your kitchen appliances until our technician visits today."),
    # (forty-fifth pass) Italian, Spanish, German and Japanese asks, near times and trouble
    ("Segreteria <segreteria@scuolamontale.net>", "Luca – febbre",
     "Buongiorno, Luca ha la febbre a 38,9 e ha mal di testa. Le chiediamo di venire a "
     "prenderlo appena possibile."),
    ("Dario <dario@trasportiverdi.net>", "modulo firmato",
     "Mi serve la firma sul modulo doganale entro mezz'ora che il corriere riparte."),
    ("Franco <franco.pinna@tiscalinet.net>", "casa vostra",
     "Sono Franco, il vicino: è scattato l'allarme da voi e la porta sul retro sembra "
     "forzata. Chiamo i carabinieri o vieni?"),
    ("Pepe <pepe@frutasdelvalle.net>", "cámara 2",
     "La cámara frigorífica se ha parado y no rearma, estamos a 9 grados. Dime algo y llamo "
     "al técnico."),
    ("Jonas <jonas.weber@windpark-nord.net>", "Call mit dem Kunden",
     "Wir sind alle im Call und warten auf dich. Bitte jetzt einwählen, der Kunde muss bald "
     "los."),
    ("保健室 <hoken@kita-shogakko.net>", "お迎えのお願い",
     "保健室です。娘さんが38.4度の熱を出しています。できるだけ早めにお迎えをお願いします。"),
    ("Timo <timo@muehle-ahrens.net>", "Linie 3",
     "Moin, auf Linie 3 ist der Antriebsriemen gerissen. Der Spediteur lädt um 14 Uhr. "
     "Sollen wir ihn anrufen und verschieben oder Linie 1 umstellen?"),
    ("Familie Roth <roth.familie@mailbox-web.net>", "Ferienwohnung",
     "Im Bad läuft Wasser aus der Decke und jetzt ist der Strom weg. Bitte kommen Sie oder "
     "sagen Sie uns, was wir tun sollen."),
    ("Prüfstelle <pruefung@aufzug-pruefstelle.net>", "Betriebsverbot Aufzug 2",
     "Bei der heutigen Prüfung wurden Schäden am Tragseil festgestellt. Der Betrieb ist ab "
     "sofort untersagt. Bitte stellen Sie sicher, dass der Aufzug heute nicht mehr fährt."),
    ("Josée <josee@garderie-soleil.net>", "Panne",
     "Ça fait 30 minutes qu'on n'a plus de courant et il fait froid. Est-ce qu'on évacue les "
     "enfants vers la salle paroissiale?"),
    ("Lorena <lorena@frigorificosur.net>", "lote 118 - frenar contenedor",
     "El laboratorio acaba de confirmar un positivo en el lote 118. El contenedor sale en el "
     "buque de esta noche: hay que sacarlo antes del cierre."),
    ("Banco Atlântico <comex@bancoatlantico.net>", "Transferência retida",
     "A transferência recebida encontra-se retida para verificação. Para crédito hoje, "
     "deverá enviar até às 14h00 cópia da fatura comercial."),
    ("Tehdaspäivystys <paivystys@tehdas-pohjola.net>", "VAARATIEDOTE",
     "Tehtaalla on tapahtunut kaasuvuoto. Toimikaa näin heti: kaikki sisälle ja sulkekaa "
     "ilmanvaihto."),
    ("Jouni <jouni@kotiposti-lappi.net>", "kämpällä",
     "Häkävaroitin alkoi piipata puoli tuntia sitten ja Oskari oksensi äsken. Soitanko 112 "
     "vai tuotko auton tienpäähän?"),
    # Galician: a burst hose and water coming in, what do I do; an inspector today, can you
    ("Brais <brais@estaleiro-norte.net>", "bomba parada",
     "Rebentou a mangueira da bomba e hai auga na sala de máquinas. Que fago?"),
    ("Uxía <uxia@queixeria-norte.net>", "Inspección",
     "O inspector vén hoxe ás 11:00. Podes deixar preparados os rexistros?"),
    # Finnish and Swedish: fell, come if you can; as soon as possible; call me now; call at once
    ("Aino <aino@kotiposti-pohjoinen.net>", "isä",
     "Isä kaatui pihalla ja lonkka on kipeä, ambulanssi on tulossa. Tule jos pääset."),
    ("Skolsköterskan <skoterska@skola-norr.net>", "Olle 3B",
     "Olle har feber 39 och har kräkts. Han behöver hämtas så snart som möjligt."),
    ("Mats <mats@gruvservice-norr.net>", "Ring mig", "Ring mig nu. Det gäller nattskiftet."),
    ("Santeri <santeri@koiratarha.net>", "valjakko",
     "Valjakko lähti omille teilleen järven jäälle. Soita heti kun näet."),
    # Korean: collapsed, in the emergency room, call as soon as you see this; the coach
    # leaves in 30 minutes, what shall we do
    ("지혜 <jihye@family-mail.net>", "아빠",
     "언니 아빠가 등산하다가 쓰러지셔서 지금 응급실이야. 보면 바로 전화해 010-5550-0000"),
    ("민재 <minjae@tour-desk.net>", "수하물",
     "언니 공항이에요. 단체 수하물 절반이 안 나왔어요. 버스는 30분 뒤에 출발한대요. "
     "어떻게 할까요?"),
    # a machine's alarm naming itself in capitals: an intrusion, a Finnish fire alarm, a
    # French frost alert in brackets
    ("GuardLink ARC <arc@guardlink-arc.net>", "INTRUSION - Yard 2 - keyholder required",
     "ALARM EVENT\nSite: Yard 2\nEvent: intrusion confirmed in zone 4.\nPolice on site."),
    ("Paloilmoitin <paloilmoitin@hotelli-tunturi.net>",
     "PALOHÄLYTYS 3.12 / KRS 3 - siirretty hätäkeskukseen",
     "Ilmaisin 3.12, kerros 3. Tila: siirretty hätäkeskukseen."),
    ("VitiSonde <alertes@vigne-sonde.net>", "[ALERTE GEL] Parcelle 4 : -1,6 °C",
     "Station parcelle 4 : -1,6 °C mesurés à 03:50."),
    # the ask written below a forward the sender closed
    ("Gina <gina@terminal-desk.net>", "hoses for crane 2",
     "Forwarding the chief engineer's request.\n\n----- Forwarded message -----\nFrom: Chief "
     "Engineer\nHoses burst on crane 2.\n-----\n\nCan you make and deliver them before 20:00 "
     "tonight?\n\nRegards,\nGina"),
])
def test_trouble_and_asks_in_more_words_push(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


# A letter of a few paragraphs that tells what happened first and asks at its close, past
# the first URGENCY_CHARS of its own words and within ASK_CHARS
_TERMINAL = "Tomas Berg <t.berg@nordic-tankers.example>"
_PUMP_TOLD = (
    "our loading master reports that pump 3 on jetty B lost pressure during the night shift "
    "and the seal on the discharge side is weeping oil. We isolated it and moved the hoses to "
    "pump 4, which is slower, so the MT Solvik has taken on only 2,100 of the 3,400 tonnes "
    "booked for your account. The surveyor has been informed and the figures are in the "
    "attached ullage report.\n\nPump 4 can finish the parcel, but only if we extend the berth "
    "window, and the harbour office charges the extra hours to the cargo owner. The other "
    "option is to sail with the part cargo and ship the rest on the next call in ten days.")
_PUMP_ASK = ("I need your go-ahead for the extension before 15:00 today, otherwise the master "
             "sails with what is on board.")


def _letter(greeting: str, told: str, ask: str) -> str:
    return f"{greeting}\n\n{told}\n\n{ask}\n\nBest regards\nTomas Berg\nTerminal operations"


def test_a_letters_closing_ask_is_read_with_its_time() -> None:
    body = _letter("Dear Ms Varga,", _PUMP_TOLD, _PUMP_ASK)
    assert URGENCY_CHARS < len(own_words(body)) <= ASK_CHARS
    assert lane_of(_TERMINAL, "Pump 3 on the quay", body) is Lane.PUSH
    # "bis heute 14:00 Uhr" is today's limit, so an ask for "Ende nächster Woche" in the same
    # mail is one item of it, not the request's own later day
    body = _letter(
        "Sehr geehrter Herr Diaz,",
        "heute früh haben wir den Container geöffnet. An einem Drittel der Ballen sehen wir "
        "Schimmel, die Feuchte liegt bei 18 % statt der vereinbarten 12 %. Fotos anbei. Unsere "
        "Linie 2 läuft ab morgen mit genau dieser Faser.\n\nIch muss bis heute 14:00 Uhr mit der "
        "Planung entscheiden, ob wir die Linie umstellen. Dafür brauche ich von Ihnen die "
        "Feuchteprotokolle vom Verladetag, eine Aussage, ob Sie eine Ersatzlieferung per "
        "Luftfracht bis Ende nächster Woche stellen können, und Ihr Einverständnis, dass ein "
        "Sachverständiger die Ballen morgen ansieht. Die Versicherung hat schon nach der "
        "Vertragsnummer gefragt, und der Spediteur will wissen, wohin der leere Container geht.",
        "Bitte rufen Sie mich an.")
    assert URGENCY_CHARS < len(own_words(body)) <= ASK_CHARS
    assert lane_of("Katrin Wolff <k.wolff@filzwerk.example>", "Ballen mit Schimmel",
                   body) is Lane.PUSH


def test_a_letters_closing_ask_for_another_day_is_not_pushed() -> None:
    body = _letter(
        "Dear Ms Varga,",
        "thank you for the call this morning. As promised, here is where we stand on the June "
        "berth schedule for jetty B. The MT Solvik is planned for the 9th, the MT Kaarna for "
        "the 17th, and the third parcel is still open because the refinery has not confirmed "
        "its volumes. The surveyor's rates go up by four percent from July, which we have "
        "already put into the new price sheet, and the harbour office is moving its night "
        "shift to a new rota.\n\nWe would also like to try the new hose sets on the first "
        "call, if you have no objection, and we can show your inspector how they are tested.",
        "Could you send your comments by Friday 12 June? Nothing needs deciding before then.")
    assert URGENCY_CHARS < len(own_words(body)) <= ASK_CHARS
    assert lane_of(_TERMINAL, "Berth schedule for June", body) is not Lane.PUSH


def test_only_a_letter_is_read_to_its_close() -> None:
    """A text that greets no one (a report, a bulletin, a pitch) keeps the first
    URGENCY_CHARS: the same close under a report's title does not push."""
    body = _letter("LOADING REPORT - JETTY B", _PUMP_TOLD, _PUMP_ASK)
    assert URGENCY_CHARS < len(own_words(body)) <= ASK_CHARS
    trace = classify(message_from_fields(sender=_TERMINAL, subject="Pump 3 on the quay",
                                         body=body))
    # the rules read nothing in the close; the word model reads further and may push it on
    # its own reading (core/word_model.py), which the reason then names alone
    assert trace.decision.lane is not Lane.PUSH or trace.scorer_reason.startswith(
        "the word model reads urgency")


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Lea <lea@crane-hire.example>", "URGENT!!! team dinner",
     "Pick the venue for the 19th please! No pressure, I book at the end of next week."),
    ("Camille <camille@atelier-deco.example>", "URGENT : maquettes",
     "Merci pour les maquettes. Pas d'urgence, la fin de la semaine prochaine c'est parfait."),
    ("Marcus <marcus@harbour-hotel.example>", "Contract renewal",
     "Finance want the emergency call-out terms in writing before the renewal on 1 July. Can "
     "you send a quote in the next couple of weeks?"),
    ("Gareth <gareth@brokers.example>", "Fleet schedule",
     "Can you confirm the anti-collision systems are serviced, by the 16th?"),
    ("Ms Byrne <byrne@school.example>", "A talk for 4th class?",
     "Would you come in for 30-40 minutes one morning in June? We can't pay much but the "
     "children would love it."),
    ("Ben <ben@thatchers.example>", "Re: Harry fell",
     "Wrist is broken, clean break, cast for six weeks. He's home now. I'll fill in the "
     "accident book tomorrow."),
    ("Hall <hall@village.example>", "Booking",
     "The hall seats 30 (max 35) for your evening on the 14th. Can you confirm numbers?"),
    # the sender says no action is needed, in other words
    ("Lan <lan@tailor-shop.example>", "stock count done",
     "Stock count finished today after the water went down. Two bolts were wet, now drying. "
     "No need to do anything, just so you know."),
    ("Graham <graham@duthie-accounts.example>", "VAT return filed",
     "The VAT return was filed this morning; the payment is collected on the 7th, so please "
     "make sure the account has funds. Nothing else needed from you."),
    # a notice's condition is not trouble told: "if this wasn't you, ... compromised"
    ("Account team <account-security@accountprotection.contoso.net>", "New sign-in",
     "We noticed a new sign-in to your account. If this was you, you can safely ignore this "
     "email. If this wasn't you, your account has been compromised. Please review your recent "
     "activity."),
    # "for emergencies, call the duty manager" in Korean
    ("윤대표 <yoon@tour-office.example>", "[공지] 오늘 오후 휴무",
     "오늘 오후는 건물 점검으로 사무실 휴무입니다. 긴급 상황은 비상 당번에게 연락 바랍니다."),
    # "by end of day Friday" is days away, as "by Friday EOD" is
    ("Heather <heather@steel-mill.net>", "Quote request - 12 barges, week of May 3",
     "Could you quote 12 barges of coil to Memphis? We need to firm up with the mill by Monday, "
     "so a reply by end of day Friday would be great."),
    # a campfire, a fire in the news, a part "missing" are no emergency
    ("Lucie <lucie@camp-erable.net>", "Congé samedi",
     "Amira peut prendre mon groupe pour le dernier feu de camp. Est-ce que je pourrais partir "
     "vendredi soir ?"),
    ("Hans <hans@nut-import.net>", "Q2 offer",
     "We heard about the fire at Ziguinchor, we hope nobody was hurt. Could you send your offer "
     "for new crop by Friday?"),
    ("Ana <ana@client.net>", "Invoice 2024-118",
     "The PO number is missing on invoice 2024-118. Could you send a corrected invoice?"),
    # a warning about fraud in someone's name is advice, not the reader's incident
    ("Helen Gosling <helen@greenhollow.net>", "To all managers: fraud attempts using my name",
     "A few of you have received messages from a gmail address using my name asking for "
     "favours. These are not from me. If in doubt, ring me."),
    # a news feed's critical story addresses no one
    ("Feeds <rssfeeds@news-digest.net>", "Critical US satellites could be hacked",
     "Military communications could be jammed and satellites destroyed, a new study warns."),
    # a robot's trouble with a card to re-enter is a lure's script
    ("Ferry Line <support@ferry-line-booking.net>", "Action required: payment failed",
     "We were unable to process the payment for your reservation. Please re-enter your card "
     "details within 12 hours or the reservation is cancelled."),
    # a German disclaimer's "sofort" is not the sender's urgency
    ("Hausverwaltung Sonnenhalde <info@hv-sonnenhalde.net>", "Termine für die Feuerstättenschau",
     "Bitte senden Sie uns zwei bis drei Terminvorschläge. Wenn Sie nicht der richtige Adressat "
     "sind, informieren Sie bitte sofort den Absender und löschen Sie diese E-Mail."),
    # a matter closed, in Korean: "조치 완료", "이 건 종결합니다"
    ("박상우 <sw.park@haeon-wind.net>", "RE: [긴급] 나셀 빌지 수위 상승",
     "소장님, 오늘 올라가서 확인했는데 누수 아니었습니다. 센서 커넥터에 결로가 들어간 것이고 "
     "이 건 종결합니다."),
    ("김다은 <de.kim@segang-cast.net>", "2월 안전보건 월간 보고",
     "법인장님, 월간 보고 공유드립니다. 긴급 소화기 교체 건은 지적사항 조치 완료입니다."),
    # said not to be urgent, or over, in Italian and Romanian
    ("Giulia <giulia@studio-alpino.net>", "preventivo",
     "Ciao, quando puoi mandami il preventivo per la baita. Non è urgente, con calma."),
    ("Mihai <mihai@service-agro.net>", "pompa",
     "Pompa de la ferma 2 a avut o problemă aseară, dar este rezolvată. Totul e în regulă."),
    # a date in figures is a date; "(현재 61%)" is a figure's date, not now
    ("기획팀 <plan@hanul-parts.net>", "[요청] 2028 예산 초안 제출 (10/8까지)",
     "법인장님, 현지 인력 비율(현재 61%)을 반영해 예산 초안을 10/8까지 제출 부탁드립니다."),
    ("인사팀 <hr@hanul-parts.net>", "휴가 신청 (10/11~10/29) 승인 부탁드립니다",
     "이번 주까지 휴가 신청 승인 부탁드립니다."),
    # a Korean clock time is today's only when no other day is named, as in English
    ("품질팀 <qa@hanul-parts.net>", "[요청] 8D 보고서 - 3/15(월)까지",
     "팀장님, 기공 불량 8D 보고서를 3/15(월) 오전 9시까지 공유 부탁드립니다."),
    # an incident past, named in a request due on another day: the request is the matter
    ("Priya <priya@harbour-brokers.net>", "Pallet truck incident 14/05 - claim papers",
     "Dear Tom,\nFor the insurer, please send the witness statements and the repair invoice "
     "by Thursday 22 May. The adjuster visits once the file is complete.\nPriya"),
    ("Jonas <jonas@ridge-hydro.net>", "board pack",
     "Board meets on the 9th. I need your page by Monday: the open permits, the turbine "
     "outage report and headcount. Two pages max.\nJ."),
    ("Tom <tom@ondina-yachts.net>", "Snag list from the handover",
     "Luca,\nTwelve snags from the handover, mostly paint and trim. None critical.\nCould we "
     "book three days in March to clear them?\nTom"),
    # Greek and Swahili urgency denied: "not urgent", "no rush"
    ("Ελένη <eleni@chania-linen.net>", "τιμολόγιο Απριλίου",
     "Γιάννη, δεν είναι επείγον. Όποτε μπορείς στείλε μου το τιμολόγιο του Απριλίου."),
    ("Amina <amina@watamu-crafts.net>", "ankara",
     "Habari, hakuna haraka. Tafadhali nitumie ankara ya mwezi uliopita ukipata nafasi."),
    # trouble that is a request's background, answered by a calendar date days away
    ("Owen <owen@harbour-lets.net>", "Unit 4 boiler",
     "The boiler in unit 4 failed last week and the tenant is using heaters. Can you send the "
     "repair quote by 24 October?"),
    ("Sun <sun@ridge-clinic.net>", "autoclave",
     "Our autoclave broke down on Monday. Could you quote a replacement before the 15th, please?"),
    # "nothing you need to do", "no hay prisa hoy", and a Greek "now" that is a head count's
    ("Mira <mira@seoul-ingredients.net>", "Visa approved",
     "Great news: my permit was approved this morning. I start on Monday 5 October as planned. "
     "There is nothing you need to do. Could you tell Edurne I said thanks?"),
    ("Marta <marta@conservas-vigo.net>", "Campaña de Navidad",
     "¿Me pasas precio para dos contenedores? No hay prisa hoy, pero si me lo puedes mandar "
     "antes del 2 de octubre lo presento en el comité."),
    ("Νίκος <nikos@kos-hotels.net>", "Πλάνο προσωπικού",
     "Για τη συνάντηση της Δευτέρας χρειάζομαι το πλάνο προσωπικού: πόσοι είμαστε τώρα και "
     "πόσοι θέλουμε από 1/6. Στείλε μου ό,τι έχεις μέχρι Κυριακή."),
    # what to do in an emergency, an emergency exit, a Japanese out-of-office's urgent line
    ("대사관 <consul@embassy-notice.net>", "[공지] 연휴 기간 휴관 안내",
     "연휴 기간 중 민원실은 휴관합니다. 긴급 상황 시 24시간 긴급연락처로 연락 바랍니다."),
    ("Syndicat <info@planteurs-sud.net>", "Rappel : saison sèche",
     "En cas de départ de feu dans une parcelle, appelez le 18 immédiatement puis prévenez "
     "le syndicat."),
    ("Auditor <audit@social-compliance.net>", "Audit findings",
     "Findings requiring a corrective action plan: the emergency exit in building B is "
     "partly blocked by fabric rolls. Please send the plan by 30 October."),
    ("物流 <export@kyushu-logi.net>", "【自動返信】夏季休業のお知らせ",
     "8月13日から16日まで休業いたします。緊急のご連絡は当番携帯までお願いいたします。"),
    # "for urgent matters" in Dutch and German out-of-office replies
    ("Ans <ans@zeeuwse-bouw.net>", "Afwezig",
     "Ik ben tot maandag afwezig. Voor dringende zaken kunt u bellen met het kantoor."),
    ("Andreas <a.vogt@kaelte-service.net>", "Abwesend",
     "Ich bin bis Montag nicht im Büro. In dringenden Fällen wenden Sie sich an die Zentrale."),
    # a Japanese notice: a clock time the day before a date is not today's
    ("組合 <jimu@kansho-kumiai.net>", "搬入開始のご案内",
     "搬入開始日：8月27日（木）。台風の接近がある場合は、前日15時までにご連絡いたします。"
     "何かございましたらお問い合わせください。"),
    # a holiday ("عطلة") is not a fault ("عطل"), nor membership ("الانخراط") now ("الآن")
    ("ميناء <port@agadir-port.net>", "إعلان: توقيت العمل خلال العطلة",
     "تبقى المصالح مفتوحة خلال عطلة العيد، ويرجى تجديد الانخراط قبل نهاية الشهر."),
    # "not urgent" in German and French outweighs the trouble told, as "no rush" does; and
    # it is read as far as the asks, at the end of a long mail
    ("Jörg <joerg@lager-nord.net>", "Drucker",
     "Das ist nicht dringend, aber der Drucker im Lager ist kaputt. Kannst du mal schauen?"),
    ("Camille <camille@ecole-agro.net>", "Attestation de stage",
     "Bonjour, j'espère que la ferme n'a pas eu trop de dégâts avec l'incendie de la semaine "
     "dernière. " + "Pour l'école, il me faut l'attestation avec les dates du stage et une "
     "courte évaluation de mon travail sur le verger et au chai. " * 5 + "Tu peux me "
     "l'envoyer ? Rien d'urgent aujourd'hui !"),
    # Croatian: a fire-season offer ("protupožarne") is not a fire; "nije hitno"; trouble
    # denied ("nitko nije ostao bez vode") in a report of a pump replaced
    ("Armature <prodaja@armature-jadran.net>", "Ponuda hidranata",
     "Za pripremu protupožarne sezone nudimo hidrante iz skladišta. Javite se za ponudu."),
    ("Ivo <ivo@marina-kastela.net>", "servis",
     "Nije hitno, ali klima na brodu Luna ne radi. Možeš li naručiti servisera za idući "
     "tjedan?"),
    ("Mario <mario@vodovod-jug.net>", "Re: alarm crpna stanica",
     "Samo da znaš: Duje je zamijenio termičku zaštitu u 00:40. Nitko nije ostao bez vode."),
    # European Portuguese: "not needed to do anything", a time range of availability
    ("Artur <artur@coop-leite.net>", "Re: silo 2",
     "O técnico esteve cá das 21h às 23h30, o compressor parou mas o silo está estável desde "
     "a 01:10. Não precisas de fazer nada."),
    # a drill named by its code or said outright; a named class ("critical equipment");
    # skin exposed to the cold; a near time denied; a status date
    ("Safety <safety@ridge-hospital.net>", "Code Pink drill - Thursday 10:30",
     "Staff will search their areas and report to the incident commander. Questions: "
     "emergency management coordinator, ext 2210."),
    ("안전팀 <safety@hanul-plant.net>", "[공지] 대피 훈련 - 경보 울려도 실제 상황 아님",
     "2/3(수) 14:00 훈련입니다. 경보가 울리면 즉시 대피하십시오."),
    ("Campus <news@plains-college.net>", "Campus closed Tuesday",
     "Research staff with live animals or critical equipment: follow your unit's plan."),
    ("County <alerts@rimrock-county.net>", "Extreme cold this week",
     "Frostbite on exposed skin in as little as 10 minutes. Limit time outdoors."),
    ("Nate <nate@ski-patrol.net>", "patrol overtime",
     "Not a today thing, but can you tell me whether I can keep overtime open?"),
    ("Hanna <hanna@koulu-pohjoinen.net>", "Ilmoitus",
     "Hei, ei kiirettä, mutta kopiokone ei toimi. Voitko tilata huollon ensi viikolla?"),
    ("Proteção Civil <info@protecao-ilhas.net>", "Informação à população - sismo sentido",
     "Verifiquem se as plantas de emergência e os pontos de encontro estão visíveis."),
    ("영사관 <notice@consulate-split.net>", "[안전공지] 하절기 산불 유의사항",
     "해안 지역은 산불 위험이 매우 높습니다. 긴급전화 112 / 소방 193."),
    ("Sabine <s.kuehn@reisen-nord.net>", "Rooming List",
     "Stand heute: 12 Doppelzimmer, 2 Einzelzimmer. Bitte bestätigen Sie uns die Zimmer."),
    # a planned interruption is a notice; an emergency surgeon is a job; a drill announced in
    # the subject (its body tells the drill's scenario: "emergency", "evacuate")
    ("Hydro <outages@coast-hydro.net>", "Planned outage: Bay Rd - Tuesday 9:00 AM to 1:00 PM",
     "Planned power outage to replace poles. Please plan ahead and turn off equipment."),
    ("James <james.w@freemail.net>", "Hello from a fellow doctor",
     "As an emergency surgeon myself I know those nights. Write to me on WhatsApp?"),
    ("EHS <ehs@semikon-plant.net>", "Fire evacuation drill - Thursday 5 Nov, 10:00",
     "When the alarm sounds, leave immediately by the nearest emergency exit. Wardens report "
     "to the assembly point within 5 minutes."),
    ("Direzione <dirsan@ospedale-nord.net>", "Esercitazione maxi-emergenza 18/03",
     "Scenario: incidente con 30 feriti, attivazione immediata del piano alle ore 13:00."),
    # a readiness plan and accident records named in Malay, sent for a date ("sebelum
    # 30/10"); a French request for this week
    ("Rosman <rosman@tiang-agro.net>", "Kesiapsiagaan banjir - hantar sebelum 30/10",
     "Sila hantar pelan kesiapsiagaan banjir dan rekod kemalangan 2026. Tolong ye tahun ni."),
    ("Hugo <hugo@maison-lestrade.net>", "Re: attestation bancaire",
     "Merci pour votre appel de cette nuit. Pouvez-vous me l'envoyer cette semaine ?"),
    # "available to move in at once" is an offer, not urgency
    ("민석 <rent.qt@freemail.net>", "원룸 당장 입주 가능",
     "원룸 주 280달러, 당장 입주 가능합니다. 관심 있으시면 연락 주세요."),
    # Danish: an out-of-office reply's "for urgent matters", and "not urgent"
    ("Mette <mette@kontoret.net>", "Autosvar: Møde",
     "Tak for din mail. Jeg er på ferie til 3. januar. I hastende sager kontakt kontoret."),
    ("Mette <mette@kontoret.net>", "Frokost",
     "Ikke hastende: vil du med til frokost i dag?"),
    # "송금일" (the remittance's date) holds "금일" (today) but is no near time
    ("하나은행 <noreply@kebhana.co.kr>", "[하나은행] 해외송금 처리 완료 안내",
     "고객님, 요청하신 해외송금이 처리되었습니다.\n\n송금일: 2027.01.28\n송금액: USD 2,400.00\n\n"
     "본 메일은 발신전용입니다. 문의사항은 고객센터로 연락주시기 바랍니다."),
    # a cheerful note with a near time and a question: an invitation or news
    ("Tom <tom.b@freemail.net>", "tonight",
     "Can you bring the speakers tonight? Party starts at 8 haha"),
    ("Mia <mia.k@freemail.net>", "Sunday", "Are you coming to lunch today? Mum made lasagne ❤"),
    ("Ana <ana.ruiz@freemail.net>", "¡aprobé!",
     "¡Aprobé el examen de conducir hoy! 🎉 ¿Cenamos esta noche para celebrarlo?"),
    # German "bitten" is "to ask", not a bite
    ("Petra Sommer <p.sommer@kaese-handel.net>", "Anfrage Zertifikate",
     "Hallo Herr Lenz, wir bitten Sie um die aktuellen Zertifikate für die "
     "Reblochon-Lieferung. Können Sie diese senden?"),
    # (Korean laughter is matched folded: "ㅎ" becomes the leading jamo "ᄒ")
    ("지은 <jieun.park@freemail.net>", "오늘", "오늘 저녁 7시까지 와줘~ 생일 파티야 ㅎㅎ"),
    ("Mum <mum.hale@freemail.net>", "tonight",
     "Can you pick up Gran's prescription on your way tonight? Love you x"),
    # what arrived today tells when it came, not a limit
    ("Katrin <katrin.brandt@posteo.net>", "Hose ist da",
     "Die Hose ist heute angekommen und passt perfekt. Bitte schick uns kurz den Betrag."),
    ("Ana Lopez <ana@fields-qa.net>", "samples",
     "The samples arrived today in good condition. Could you send the spec sheet?"),
    # a Korean notice to many, so tagged in its subject: a consulate's safety notice, "for
    # reference", a community's news
    ("주캐나다대사관 <consular@embassy-korea.net>", "[안전공지] 산불 관련 재외국민 안전 유의 안내",
     "산불이 확산 중입니다. 현지 당국의 대피 지시가 있으면 즉시 따르시기 바랍니다."),
    ("김 과장 <kim@haedeul.net>", "[참고] 지난주 긴급 가스 공급 중단 건 - 후속 정리",
     "긴급 조치는 완료되었습니다. 참고 부탁드립니다."),
    # a seller's deadline is the seller's pressure
    ("Congreso <inscripciones@cic-congreso.net>", "Últimos días de inscripción",
     "El plazo de inscripción con tarifa reducida termina el 15 de diciembre. Inscríbase ya."),
    # "en ce moment" is "these days" as often as "right now"
    ("Claire <claire.dubreuil@orange.net>", "Échange de taille",
     "Est-ce que vous avez un M en gris en stock en ce moment ? Sinon je peux attendre."),
    # Dutch: a hospital named (not someone in it), an incident's review, a closure lifted
    ("Kine Centrum <afspraken@kine-centrum.net>", "afspraken na de operatie",
     "Na het ontslag uit het ziekenhuis komen we drie keer per week. Gelieve ons te laten "
     "weten welk moment u verkiest."),
    ("Hilde <hilde@wzc-linde.net>", "Evaluatie incident medicatie",
     "We willen het incident van vorige week samen evalueren. Kan je dinsdag om 14u of "
     "donderdag om 10u?"),
    ("Waterweg <berichten@waterweg-info.net>", "stremming brug opgeheven",
     "De stremming door een defect aan de brug is opgeheven. Vanaf 11u20 is de doorvaart "
     "opnieuw normaal. Gelieve dit door te geven aan uw schippers."),
    # a duration, "3 h 40 m", is no clock time: the incident note asked for is paperwork
    ("Sam <sam@pastures-co.net>", "bookings and an incident note",
     "Our logger shows the reefer was off power for 3 h 40 m on the 18th. Can you send me an "
     "incident note for the QA file with the bookings for 25/05?"),
    # what may happen to a car left out tonight is a rule's consequence, not a car towed
    # "no hay urgencia", "당장 ... 할 일은 없고", "지금 당장 안 와도 돼": urgency said away
    ("Vicente <vicente@alfombras-levante.net>", "packing list y certificados",
     "Necesitamos el packing list y el certificado de seguro. No hay urgencia extrema, el "
     "barco llega a mediados de julio."),
    ("김태현 <thkim@polar-lab.net>", "RE: 시료 반출",
     "자료 잘 받았어요. 반출 서류는 방금 접수됐어요. 당장 민지 씨가 따로 할 일은 없고, 허가 나오면 "
     "다시 연락할게요."),
    ("정수진 <sujin.j@naver.net>", "언니 아빠 시술 끝났어",
     "시술 잘 끝났대. 지금 당장 안 와도 될 것 같아. 내일 일반병실로 옮긴대."),
    # an incident as the subject of a report due another day
    ("Sajan <sajan@port-ops.net>", "Incident report IR-0604",
     "Further to yesterday's meeting, please submit the following for incident IR-0604 (the "
     "hoist brake overheating):\n\n1. The incident report in the port's format\n2. A root "
     "cause analysis\n\nDeadline: Monday 7 June, 17:00."),
    ("Town of Elm Bay <noreply@elmbay.net>", "Parking ban tonight",
     "A parking ban is in effect tonight from 11 p.m. on all town streets. Vehicles left on "
     "the street may be ticketed and towed at your expense."),
    # (forty-fifth pass) "ab sofort" is "as of now"; a code's lifetime; "특이사항 없음";
    # "ce n'est pas grave"; "today or tomorrow" asked as either
    ("Nordbank <kontoauszug@nordbank-direkt.net>", "Ihr Kontoauszug steht bereit",
     "Ihr Kontoauszug für März steht ab sofort in Ihrem Postfach bereit. Bitte melden Sie "
     "sich wie gewohnt in der App an."),
    ("IT <it@ourfirm.net>", "Sign-in code",
     "A sign-in was started for your account at 10:05 today. Your code is 552 901. It "
     "expires in 10 minutes."),
    ("민호 <minho@hyunjangteam.net>", "오늘 현장 보고",
     "오늘 현장 보고드립니다. 점심 식당 에어컨 고장이라 옆 식당으로 옮겼어요. 특이사항 없음."),
    ("Yves <yves@maree-bretonne.net>", "Facture 2231",
     "Suite à mon appel de ce matin : pouvez-vous vérifier la facture 2231 et nous faire un "
     "avoir ? Ce n'est pas grave, ça arrive."),
    ("Ines <ines@hotelalba.net>", "Allotment",
     "Could you please confirm today or tomorrow how many rooms you will use in August?"),
    ("Einkauf <einkauf@sonnenreisen-katalog.net>", "Ihr Hotel im Katalog",
     "Ihr Hotel ist ab sofort in unserem Sommerkatalog zu finden. Fehler teilen Sie uns "
     "bitte bis Ende Mai mit."),
    ("Pilar <pilar@fundacionvalle.net>", "Línea 2 en marcha",
     "La línea 2 funciona desde esta mañana; a Yurena le operaron un dedo, está en casa. No "
     "hay que hacer nada más por ahora."),
    ("Klaus <klaus.schaefer@webpost-mail.net>", "Mama nach der OP",
     "Die Operation ist gut verlaufen, Mama ist heute schon wieder ganz die Alte. Kannst du mir "
     "bis Ende nächster Woche sagen, welche Reha du besser findest?"),
    ("Sarah <sarah@crosswalks-tours.net>", "FYI: group arrives a day later (rebooked, no action "
     "needed)",
     "The group's coach broke down and they missed their connection; we moved their hotel "
     "this morning. Could you check today that the luggage list shows rev. 3?"),
    ("IT Support <it@brightpath-staffing.net>", "Laptop incident",
     "The stolen laptop was remotely wiped at 14:12 yesterday; the disk was encrypted, so no "
     "data was reachable. Ticket closed."),
    ("Trent <trent.vickers82@freemail-box.net>", "Driver position",
     "I saw your ad for van drivers. Is a regular licence enough for the 15-seat vans? I'm "
     "available to start right away."),
    # a near time said away, or not the reader's: nothing to do right now, neither needed
    # today, the sender's own plan for today, no need to reply, nothing needs your action
    ("Rohit <rohit@medora-ops.net>", "Draft RCA",
     "Draft RCA for last week's outage attached. Nothing for you to do right now; read it "
     "before the review call."),
    ("Noel <noel@snowline-tours.net>", "Half-term allocation",
     "Two changes for half-term, neither needed today, but could you confirm the seats?"),
    ("Bradley <bradley@aero-brokers.net>", "Buyer for your aircraft",
     "My client would like to buy your aircraft. Please send the logbooks and I will send the "
     "letter of intent today."),
    ("Laura <laura@bridge-crew.net>", "Kehl job wrapped",
     "The job is done. The police stopped us at the bridge but let us go. Photos are on the "
     "drive. No need to reply."),
    ("Ramp <ramp@ground-ops.net>", "Turnaround report",
     "Short report from today's turnaround: two no-show passengers, their bags offloaded. "
     "Nothing needs your action."),
    ("Jana <jana@welcome-dinner.net>", "Welcome dinner",
     "Can we bring our own wine to Friday's dinner? Let me know when you can today or "
     "tomorrow morning."),
    # money kept safe is no payment held; a centre's name is no emergency
    ("Martin <martin@reserve-capital.net>", "Reserve placements",
     "Funds are held in trust, with monthly statements to council. Can we present to your "
     "council?"),
    ("Duty Office <duty@airport-ops.net>", "Exercise on 9 Feb",
     "Please nominate a manager for the emergency coordination centre during the exercise."),
    # "in urgent cases call ..." in Finnish, in a clinic's automatic receipt
    ("Klinikka <vastaanotto@elainklinikka.net>", "Vastaanotettu: rokotukset",
     "Kiitos viestistäsi! Vastaamme arkisin klo 8-16. Kiireellisissä tapauksissa soita "
     "päivystykseen."),
    # a robot from outside asking for the account behind a link, under a threat
    ("Supplier Portal <no-reply@buyer-suppliers.net>",
     "Action required: your supplier account will be deactivated",
     "Accounts not confirmed by 9 June will be deactivated and open orders put on hold. Log in "
     "to confirm your company and bank details: https://buyer-suppliers.net/srm"),
    # a seller's pitch: "Call now!!!"
    ("IDs <ids@license-world.net>", "Get your license",
     "Need a new driver's licence? No tests, no questions. Call now!!! 1-770-555-0100"),
])
def test_named_things_and_calm_words_do_not_push(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("공구나라 <ad@toolnara.example>", "(광고) [긴급] 전동공구 특가 오늘 자정 마감",
     "(광고) 긴급 특가! 임팩트 드릴 세트 최대 35%\n오늘 자정까지!\n수신거부 080-000-0000"),
    ("Rank Rocket <hello@rankrocket.example>", "Your shop on page one",
     "We help small makers rank higher. Get a free audit today.\nUnsubscribe"),
    ("PackRight <sales@packright.example>", "Prices rise 1 March",
     "Jars go up 6% on 1 March. Stock up now and lock in current pricing!\nUnsubscribe"),
    ("LedgerLite <news@mail.ledgerlite.example>", "Get paid faster",
     "Send invoices in seconds. Try LedgerLite invoicing today.\nUnsubscribe"),
    ("스타트업 행사 <event@startup-events.example>", "[초대] 데모데이 - 얼리버드 마감 임박!",
     "얼리버드 등록 마감 임박! 지금 신청하세요."),
])
def test_a_sellers_own_pressure_is_a_record_not_the_queue(sender: str, subject: str,
                                                          body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.SILENT, Lane.INFO)


def test_a_members_bulletin_is_not_taken_for_a_promotion() -> None:
    lane = lane_of("Guild Bulletin <bulletin@masons-guild.example>", "Guild Bulletin: May",
                   "In this issue: new safety rules, training dates, and the AGM.\nYou are "
                   "receiving this as a member. Unsubscribe")
    assert lane is not Lane.SILENT


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Banco Norte <avisos@mail.banconorte.example>", "Código de verificación",
     "Su código de verificación para la operación de 920,00 € es: 551 204. No lo comparta."),
    ("Skyways <bookings@email.skyways.example>", "Change to your flight SK201",
     "Booking reference: QW7P2L. Your flight SK201 now departs at 18:40 (was 18:10). Manage "
     "my booking"),
])
def test_a_code_or_a_schedule_change_is_a_visible_record(sender: str, subject: str,
                                                         body: str) -> None:
    assert lane_of(sender, subject, body) not in (Lane.SILENT, Lane.PUSH)


def test_a_robots_deadline_today_with_a_loss_is_no_sellers_closing_soon() -> None:
    # "마감 임박" (closing soon) is a seller's phrase, but a grant system's unsent report due
    # at 18:00 today, or the grant is lost, is the reader's own deadline: never hidden. The
    # word model may raise it to PUSH (a near time alone, read as urgent: the blind sets
    # label a payroll cut-off or a chargeback due today from a robot urgent)
    lane = lane_of("지원사업 관리시스템 <noreply@grant-system.example>",
                   "[마감 임박] 정산보고서 미제출 안내 (오늘 18:00 마감)",
                   "정산보고서가 아직 제출되지 않았습니다. 제출 마감: 오늘 18:00. 미제출 시 "
                   "하반기 지원금 교부가 취소될 수 있습니다.")
    assert lane in (Lane.PUSH, Lane.QUEUE)


def test_urgent_wording_for_another_day_waits_unless_trouble_comes_with_it() -> None:
    assert lane_of("Facilities <facilities@depot.example>", "URGENT: fire alarm test Thursday",
                   "Reminder: the weekly alarm test runs Thursday 10:00 as usual.") is not Lane.PUSH
    assert lane_of("Jo <jo@depot.example>", "URGENT: roof leaking since Thursday",
                   "Water is pouring into bay 3, can you send someone?") is Lane.PUSH


def test_a_disclaimer_or_a_footer_warning_is_not_the_senders_urgency() -> None:
    body = ("Please confirm whether you wish to proceed by 18 December.\n\nRegards,\nMartin\n\n"
            "If you received this in error please notify the sender immediately and delete it. "
            "URGENT: we will never change our bank details by email.")
    assert lane_of("Martin <martin@lettings.example>", "Lease renewal", body) is not Lane.PUSH


def test_a_bank_holding_a_payment_and_asking_if_it_was_you_pushes() -> None:
    body = ("We've held a payment of £2,480.00 to KESTREL TRADING from your account ending "
            "4410 at 10:02 today.\n\nIf you made it, approve it in the app. If not, call the "
            "number on the back of your card.")
    assert lane_of("Harbour Bank <alerts@alerts.harbourbank.example>",
                   "Did you make this payment?", body) is Lane.PUSH
    # the same words from a look-alike of a known bank stay queued (flagged)
    assert lane_of("Barclays <alerts@barclays-secure-alerts.com>",
                   "Did you make this payment?", body) is Lane.QUEUE


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("카드사 <alert@card.example>", "[카드] 해외 결제 승인 보류 안내",
     "고객님 카드로 해외 가맹점 결제가 시도되어 승인을 보류했습니다. "
     "일시: 03/19 02:47. 본인이 아닌 경우 즉시 고객센터로 연락 주세요."),
    ("Cave Monitor <alarme@fromagerie.example>", "ALARME cave 1",
     "ALARME NON ACQUITTÉE\nValeur : 13,8 °C (seuil haut : 12,0 °C)"),
    ("화재수신반 <panel@apt.example>", "[화재경보] 12층 복도 감지기 작동",
     "[자동발송] 화재수신반 이벤트 알림\n위치: 12층 복도\n상태: 미확인"),
    ("Tomek <tomek@magazyn.example>", "awaria",
     "Marta, wózek uderzył w regał w hali A. Czy możesz przyjechać dzisiaj?"),
])
def test_alarms_and_bank_holds_in_more_languages_push(sender: str, subject: str,
                                                      body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Kommandant <kommandant@ff-dorf.example>", "WG: DRINGEND Kaminbrand – Abschluss",
     "Zur Info: der Einsatz ist abgeschlossen. Von unserer Seite keine weiteren Maßnahmen."),
    ("Amanda <amanda@commons.example>", "Thanks!",
     "The lot was perfect this morning even after the overnight snow. No need to reply!"),
])
def test_closed_incidents_and_thanks_in_more_words_do_not_push(sender: str, subject: str,
                                                               body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_a_korean_offer_event_is_a_promotion_but_a_system_event_is_not() -> None:
    assert lane_of("태블릿코리아 <event@tablet.example>", "신제품 체험 이벤트",
                   "체험 이벤트 신청하고 혜택 받으세요") in (Lane.SILENT, Lane.INFO)


def test_urgent_wording_about_something_over_does_not_push() -> None:
    assert lane_of("Kommandant <kommandant@ff-dorf.example>", "DRINGEND: Kaminbrand Stadler",
                   "Der Einsatz ist abgeschlossen, der Kamin ist geprüft.") is not Lane.PUSH
    assert lane_of("Ops <ops@plant.example>", "URGENT: line 2 outage",
                   "The outage is resolved, root cause in the report.") is not Lane.PUSH
    # still urgent when the sender asks for something now
    assert lane_of("Ops <ops@plant.example>", "URGENT: line 2",
                   "Line 1 is resolved but line 2 is still stopped. Can you come now?") \
        is Lane.PUSH


def test_urgent_wording_in_the_senders_own_name_is_not_urgency() -> None:
    body = ("Hi Fiona,\n\nPlease find quote Q-2291 attached for the pump. Lead time is 3-4 "
            "weeks. Could you send a PO number so we can order?\n\nRegards,\nWorkshop Team\n"
            "Emergency Fleet Services Ltd")
    sender = "Emergency Fleet Services <workshop@emergencyfleetservices.example>"
    assert lane_of(sender, "Quote Q-2291 - PO required", body) is not Lane.PUSH
    # the same name does not hide an emergency the sender reports (a failed pump alone, in a
    # quote with a lead time of weeks, the word model reads as a request: core/word_model.py)
    reported = body.replace("Please find", "Emergency: the pump failed this morning and the "
                            "tank is overflowing onto the forecourt. Please call me now. Find")
    assert lane_of(sender, "Quote Q-2291 - PO required", reported) is Lane.PUSH


@pytest.mark.parametrize(("subject", "pushed"), [
    ("FIRE ALARM: Unit 4 - Zone 5 smoke detector", True),
    ("PUMP FAULT – Borehole 2 – dry-run protection tripped", True),
    ("[DOWN] shop.example is not responding", True),
    ("ALARMA: Temperatura cámara 5 fuera de rango", True),
    ("ALARM CLEARED: Unit 4 - Zone 5", False),
    ("[UP] shop.example is back up", False),
    ("Job Alert: 5 new jobs for you", False),
    ("PRICE ALERT: flights to Rome", False),
    ("ALERT: unusual sign-in to your account", False),
    ("HIGH WIND WARNING 1-6 PM: gusts at 2 of your sites", True),
    ("DOWN: shop.example/checkout - HTTP 503", True),
    ("WARNING. Mail Delayed: Re: your post", False),
    ("FINAL WARNING: unpaid balance", False),
])
def test_a_machines_alarm_in_capitals_pushes_its_all_clear_and_a_sellers_alert_do_not(
        subject: str, pushed: bool) -> None:
    lane = lane_of("Monitoring <alerts@monitoring.example>", subject,
                   "Site: Unit 4\nTime: 03:12\nAutomated message.")
    assert (lane is Lane.PUSH) is pushed


@pytest.mark.parametrize(("subject", "body"), [
    ("[RESOLVED] CRITICAL: availability sync failure - Hotel Sul",
     "Incident report - RESOLVED\nSeverity: CRITICAL\nStart: 02:10 UTC\nEnd: 02:45 UTC\n"
     "Updates to 3 channels stopped for 35 minutes. No overbookings were detected."),
    ("[OK] DC01 - RAID 5 rebuild completed, all disks online",
     "*** RECOVERY ***\nHost: DC01\nState: OK (was CRITICAL for 31h 48m)\nAck by: on-call"),
])
def test_a_status_that_says_the_trouble_is_over_does_not_push(subject: str, body: str) -> None:
    assert lane_of("Status <status@monitor-desk.example>", subject, body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Translators Forum <forum@lists.translators.example>", "[TF] Digest, Vol 112, Issue 9",
     "Today's Topics:\n\n   1. Re: glossary for legal texts (Min)\n   2. Rates for game "
     "strings (Paul)\n\nTo unsubscribe, send a message to forum-leave@lists.translators.example"),
    ("Growers Circle <news@growers.example>", "Circle News - April: harvest, workshop, AGM",
     "APRIL NEWSLETTER\n\nHarvest wrap: most members finished picking.\n\nYou are receiving "
     "this because you are a member of the Growers Circle. Manage your subscription."),
    # a forum's digest of its members' posts, named in the subject
    ("Beekeepers Forum <forum@beeforum.example>", "[Beeforum] Weekly digest - 4 new topics",
     "1. Varroa counts after the oxalic treatment? (Jan) - 6 replies\n2. Selling: 10 frames, "
     "Lincoln (Sue)\n\nRead and reply on the forum: https://beeforum.example\nYou get this "
     "digest because you are subscribed. Unsubscribe: https://beeforum.example/u"),
    ("한인 목공 모임 <noreply@woodcafe.example>", "[목공 모임] 주간 다이제스트",
     "이번 주 인기글\n1. 원목 식탁 오일 마감 질문 (댓글 5)\n2. 중고 대패 팝니다\n\n수신거부: "
     "https://woodcafe.example/u"),
    # an association's letter to its members in French and in Dutch, with an opt-out line
    ("Club Alpin de Savoie <lettre@cas-savoie.example>", "Lettre de mars : sorties et assemblée",
     "Chers membres,\n\nSortie raquettes le 14 mars, assemblée générale le 28.\n\nPour ne "
     "plus recevoir cette lettre, répondez STOP."),
    ("Ondernemers Veere <info@ov-veere.example>", "Nieuwsbrief maart",
     "Ledenavond op donderdag 20 maart.\n\nU ontvangt deze nieuwsbrief als lid van de "
     "vereniging. Uitschrijven"),
    # an association writing to its members, who answer on the list
    ("Gorge Winegrowers <info@gorge-growers.net>", "[GW] Ice storm prep: irrigation lines",
     "East wind event expected Thursday. Drain drip lines, heat tape on exposed cellar "
     "lines.\n\nMembers with spare generators, post here.\n- GW board"),
])
def test_a_digest_or_a_newsletter_sent_to_members_is_a_visible_record(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) in (Lane.INFO, Lane.QUEUE)


def test_a_shops_newsletter_is_still_silent() -> None:
    assert lane_of("Shop <news@shop.example>", "Spring newsletter: 20% off everything",
                   "Shop now: 20% off everything this week.\n\nUnsubscribe") is Lane.SILENT
    # a loyalty programme's members are its customers; and an opt-out line in French
    assert lane_of("Hôtels Lumière <news@hotels-lumiere.example>", "Camille, -20 % ce printemps",
                   "Jusqu'au 30 avril, -20 % sur vos séjours. Points doublés pour les membres "
                   "Gold.\n\nRéserver maintenant\n\nPour vous désinscrire, cliquez ici.") \
        is Lane.SILENT
    # a digest of stories picked for the reader gathers no list's posts
    assert lane_of("Readwell <updates@readwell.example>", "Your stories digest, picked for you",
                   "Top stories from writers you follow, summarized.\n\nUnsubscribe") \
        is Lane.SILENT


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Owen <owen@bank.example>", "Annual facility review",
     "Could I come out to the farm for an hour in September? Any weekday morning works."),
    ("Vicent <vicent@coop.example>", "Auditoría el 12 de marzo",
     "Para que lo sepas: la auditoría será el 12 de marzo, empiezan a las 8:30. ¿Puedes estar "
     "localizable?"),
    ("Henri <henri@chateau.example>", "Enlèvement des caisses",
     "Les caisses sont prêtes depuis lundi. Pouvez-vous confirmer la date ? Ouvert de 8h à 12h."),
    ("이지훈 <jh@family.example>", "자동차 보험 갱신",
     "참고로 오늘 자동차 보험 갱신했어. 작년 접촉사고 때문에 조금 올랐어."),
])
def test_another_month_day_or_an_fyi_in_more_words_does_not_push(sender: str, subject: str,
                                                                  body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_an_associations_own_promotion_to_its_members_is_still_a_promotion() -> None:
    lane = lane_of("Tourism Alliance <events@tourism-alliance.example>",
                   "Early bird: Tourism Week conference",
                   "Secure your place at the conference. Early bird rates end 15 January.\n"
                   "Book now\nYou are receiving this as a member. Manage your preferences.")
    assert lane is Lane.SILENT


@pytest.mark.parametrize(("subject", "body"), [
    ("ALERT: cold room 2 temperature HIGH", "Cold room 2: 9.4 C (limit 5 C) and rising.\n"
     "This alert repeats every 10 minutes until resolved."),
    ("[DOWN] shop.example/checkout", "Monitor is down since 10:01.\nYou will receive a new "
     "alert when the monitor is back up."),
])
def test_a_fix_still_to_come_is_not_the_trouble_over(subject: str, body: str) -> None:
    assert lane_of("Monitoring <alerts@monitoring.example>", subject, body) is Lane.PUSH
    # the same alarm once it says it is over
    over = "The alarm is resolved: back to 4.1 C at 10:40."
    assert lane_of("Monitoring <alerts@monitoring.example>", subject, over) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # a broken dryer already replaced is news, not trouble
    ("관리인 <manager@house.example>", "203호 드라이기 교체했어요",
     "203호 드라이기가 고장나서 새 걸로 교체했어요. 영수증은 책상에 두었어요. 확인해 "
     "주세요."),
    # "-면 안 된다" is "must not", not "it does not work"
    ("고객 <customer@mail.example>", "들기름 유통기한 문의드려요",
     "유통기한이 지나면 먹으면 안 된다고 들었는데 지금 있는 병은 괜찮을까요? 답 주세요."),
])
def test_a_repair_done_or_a_must_not_is_no_trouble(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_a_providers_planned_outage_notice_is_a_visible_record() -> None:
    """A utility's notice, sent with list headers, of a planned interruption of the reader's
    own supply is a record of the service (INFO), neither an incident nor noise."""
    notice = message_from_fields(
        sender="Coast Hydro <outages@coast-hydro.net>",
        subject="Planned outage: Bay Rd - Tuesday 9:00 AM to 1:00 PM",
        body="Planned power outage to replace poles. Please plan ahead.",
        list_unsubscribe="<https://coast-hydro.net/u>")
    assert classify(notice).decision.lane is Lane.INFO


def test_a_desk_that_asks_in_urgent_words_is_no_promotion() -> None:
    """A reservations desk holding rooms for the reader's stranded group until 5pm is not
    selling, though "5 rooms left" is a seller's phrase; the same desk's offer is."""
    desk = ("Flights are cancelled and your group is in our lobby. We have 5 rooms left "
            "tonight. Please confirm the 4 rooms before 5pm, urgently.")
    assert lane_of("Reservations <reservations@lakefront-hotel.net>", "Group - rooms held "
                   "till 5pm", desk) is Lane.PUSH
    offer = "Only 5 rooms left for New Year! Book now and save 20%."
    assert lane_of("Reservations <reservations@lakefront-hotel.net>", "New Year offer",
                   offer) in (Lane.SILENT, Lane.INFO)


def test_a_test_or_a_drill_announced_does_not_push() -> None:
    body = ("Fire alarm testing on Thursday 09:00-11:00: the alarm will sound several times. "
            "Please do not evacuate unless told to. Can you let your team know?")
    assert lane_of("Facilities <facilities@campus.example>", "Fire alarm testing Thursday",
                   body) is not Lane.PUSH
    # the alarm going off for real still pushes, and so does a subject asking whether it is
    # a drill
    real = "The fire alarm is going off in block B and we are evacuating. Can you call me?"
    assert lane_of("Facilities <facilities@campus.example>", "Fire alarm", real) is Lane.PUSH
    assert lane_of("Leila <leila@school.net>", "lockdown drill?? or real",
                   "Is the alarm real? Nobody told us of a drill today. Confirm asap.") is Lane.PUSH


def test_a_diver_missing_pushes() -> None:
    assert lane_of("Ronel <ronel@divecentre.example>", "Balicasag - diver missing CALL ME",
                   "One of the guests did not surface with his buddy. Coast guard informed. "
                   "CALL ME") is Lane.PUSH


def test_a_person_at_a_mailbox_provider_named_mail_is_not_bulk() -> None:
    # "mail.dk" is a provider's own domain, not a sending subdomain ("mail.shop.example")
    person = message_from_fields(sender="Henrik <henrik@mail.dk>", subject="Water in 2.th",
                                 body="Water is coming through my ceiling. Are you home?")
    assert not detect_signals(person).bulk
    shop = message_from_fields(sender="Shop <deals@mail.shop.example>", subject="Sale",
                               body="20% off this week.")
    assert detect_signals(shop).bulk


@pytest.mark.parametrize(("subject", "body"), [
    ("Claim documents for your mother's hospital stay",
     "For the claim after your mother was in hospital we still need the discharge summary. "
     "Could you send it?"),
    ("보일러 교체 견적 문의", "지난주 보일러 고장으로 교체 견적을 받고 싶습니다. 가능한 "
     "날짜 알려주실 수 있나요?"),
    ("Sinistre n° 27-04418 – pièces manquantes",
     "Suite à l'effraction, la police nous a transmis le procès-verbal. Pourriez-vous nous "
     "envoyer les factures des objets volés ?"),
])
def test_trouble_told_about_a_routine_matter_does_not_push(subject: str, body: str) -> None:
    assert lane_of("Office <office@partner.example>", subject, body) is not Lane.PUSH


def test_a_sellers_words_take_a_deadline_only_from_bulk_mail() -> None:
    # a person's mail that borrows a seller's words keeps its deadline (something to answer,
    # in sight); only bulk mail's deadline is the seller's pressure
    words = ("Early-bird registration",
             "Early-bird rate: the deadline for your speaker registration is 15 March.")
    person = classify(message_from_fields(sender="Conference Office <office@coastal-conf.net>",
                                          subject=words[0], body=words[1]))
    assert person.features.urgency == 0.5 and person.decision.lane is Lane.QUEUE
    bulk = classify(message_from_fields(sender="Conference Office <office@coastal-conf.net>",
                                        subject=words[0], body=words[1],
                                        list_unsubscribe="<mailto:leave@coastal-conf.net>"))
    assert bulk.features.urgency < 0.5


def test_a_routine_subject_that_tells_trouble_itself_still_pushes() -> None:
    body = "The pipe under the sink burst again. Can you send someone? Claim 26-4471."
    assert lane_of("Mrs Hale <hale@home.example>", "water still coming in - claim 26-4471",
                   body) is Lane.PUSH
    # a bare "request" names no routine matter: an approval asked while the app crashes
    assert lane_of("정우성 <ws.jung@studio.example>", "핫픽스 배포 승인 요청",
                   "일부 기기에서 강제종료 발생 중입니다. 배포 승인만 해주시면 바로 올릴게요.") \
        is Lane.PUSH


# -- twenty-ninth pass (docs/results.md) -------------------------------------------------------


def test_a_bank_hold_telling_the_reader_to_check_apart_is_not_a_lure() -> None:
    body = ("We have held a transfer of EUR 48,600.00 to a new beneficiary account, added today. "
            "This pattern is common in invoice-redirection fraud. Please call our fraud desk "
            "before 15:00 today and verify the new account details with your supplier using a "
            "phone number you already hold, not one given in the e-mail that requested the "
            "change.")
    message = message_from_fields(sender="MedBank Fraud Prevention <fraud@medbank-mt.net>",
                                  subject="Payment on hold - please contact us before 15:00 today",
                                  body=body)
    trace = classify(message)
    assert not trace.evidence.get("phishing_flag")
    assert trace.decision.lane is Lane.PUSH
    # the same words with a link to follow are not a warning
    linked = message_from_fields(sender="MedBank Fraud Prevention <fraud@medbank-mt.net>",
                                 subject="Payment on hold", body=body + " Verify here: "
                                 "https://medbank-verify.net/hold")
    assert classify(linked).decision.lane is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # "suspicious activity: mail forwarding rule added", from the provider's own robot: in
    # sight (QUEUE), not a record (INFO)
    ("Alert: Suspicious mail forwarding rule added",
     "Suspicious activity: a filter was created that forwards messages containing 'invoice' "
     "to an external address and marks them as read."),
    # a no-action line that holds only on its condition is no "no action needed"
    ("Security alert: new sign-in and mail forwarding rule on claire@stone.org",
     "A new sign-in to your Google Account was detected, and a new filter was created that "
     "forwards messages containing invoice to an external address. Time: Thursday, 25 February "
     "2027. If this was you, you don't need to do anything. If not, we'll help you secure your "
     "account. You received this email to let you know about important changes to your "
     "Google Account and services."),
])
def test_a_providers_notice_of_an_account_incident_is_not_filed_away(subject: str,
                                                                    body: str) -> None:
    lane = lane_of("Workspace Alerts <workspace-alerts-noreply@google.com>", subject, body)
    assert lane not in HIDDEN_LANES


@pytest.mark.parametrize("body", [
    "We got an email in your name with a new bank account for invoice 4471. Is this really "
    "from you?? Our AP team pays at 2pm EST today, please confirm before then.",
    "법인장님, 계좌 변경 메일 받았는데 이 메일 보내신 거 맞으세요? 오늘 3시에 송금 "
    "마감입니다. 확인 부탁드립니다.",
    # the payee's own denial
    "WE DID NOT CHANGE OUR BANK. If you received a letter with new account details, it is "
    "fraud: please stop any payment to us today and call me.",
    # the fraud named as what is happening to someone: the money words are what it warns of
    "Dad got a call saying his account was used in a crime and he must move his savings to a "
    "safe account. It's a scam. He is at the bank now, please call him before 4pm today.",
    "오빠, 엄마가 검찰청이라는 데서 전화 받고 안전계좌로 3천만원 보내러 은행 갔어. 보이스피싱"
    "이야. 은행 4시에 닫으니까 지금 바로 엄마한테 전화해줘.",
])
def test_a_wary_customer_asking_whether_a_bank_change_is_genuine_is_not_a_lure(body: str) -> None:
    message = message_from_fields(sender="Buyer <ap@buyer-co.net>", subject="new bank account?",
                                  body=body)
    trace = classify(message)
    assert not trace.evidence.get("phishing_flag")
    assert trace.decision.lane is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # customs clearance, and a mine-clearance charity's name, are no clearance sale
    ("Express Couriers <noreply@express-couriers.net>", "Import charges due for your shipment",
     "Import charges are due: EUR 58.34 (VAT and customs clearance fee). Pay with your waybill "
     "number or at delivery. You received this notification because you are the consignee."),
    ("GrantHub Notifications <notifications@granthub.net>", "Approval needed: Q1 report",
     "A report of Highland Ordnance Clearance waits for your approval by 12 April. You're "
     "receiving this notification because you are an approver in the workspace."),
])
def test_a_clearance_that_is_no_sale_is_not_silenced(sender: str, subject: str,
                                                      body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.SILENT


def test_a_polish_clock_time_needs_its_hour_written_as_one() -> None:
    # "do 14:00", "do godz. 14" are Polish deadlines; English "won't do 24 bit depth" is none
    def urgency(body: str) -> float:
        message = message_from_fields(sender="Greg <greg@linux-users.net>", subject="sis630",
                                      body=body)
        return score_local(message, detect_signals(message)).features.urgency
    assert urgency("The card won't do 24 bit depth. How do I start it in 16 bit?") < 0.5
    assert urgency("Ciężarówki stoją na granicy. Potrzebuję decyzji do 14:00.") >= 0.7


def test_a_call_to_action_in_portuguese_or_italian_is_no_time_pressure() -> None:
    # "ative agora", "acquista subito" are a seller's, as "order now" is (out of scope)
    for body in ("Propriedades do Programa Genius recebem mais reservas. Ative agora descontos "
                 "de 10% para hóspedes Genius.",
                 "Nuova collezione autunno: acquista subito e ricevi la spedizione gratuita."):
        message = message_from_fields(sender="Partner <news@partner-hub.net>",
                                      subject="Programa Genius", body=body)
        assert score_local(message, detect_signals(message)).features.urgency < 0.5


# Czech and Slovak, with and without their accents
@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Jan Novák <jan@pekarna-dvorak.cz>", "Linka 3",
     "Linka 3 stojí, nefunguje chlazení. Prosím zavolejte mi, potřebujeme rozhodnutí do "
     "14:00."),
    ("Petra <petra@vinarstvi-hora.cz>", "URGENTNÍ: výpadek proudu",
     "Celá hala je bez proudu, přijďte prosím okamžitě."),
    ("Marek <marek@stavby-tatry.sk>", "Žeriav",
     "Žeriav na stavbe sa pokazil, porucha hydrauliky. Môžete dnes poslať technika?"),
    ("Eva <eva@farma-luka.cz>", "Krávy",
     "Kravy utekly na silnici, hori seno u stodoly. Zavolej mi hned ted!"),
])
def test_czech_and_slovak_urgency_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Jan Novák <jan@pekarna-dvorak.cz>", "Faktura",
     "Dobrý den, prosím o zaslání faktury do pátku. Nespěchá."),
    ("Jana <jana@ucetni-brno.cz>", "Porada",
     "Pro informaci: zítra v 10:00 bude porada. Není to naléhavé."),
    ("Ivana <ivana@skola-zilina.sk>", "Výlet",
     "Môžete potvrdiť účasť na výlete do piatku? Nie je to súrne."),
])
def test_czech_and_slovak_calm_or_later_requests_do_not_push(sender: str, subject: str,
                                                              body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_a_czech_out_of_office_is_an_automatic_reply() -> None:
    lane = lane_of("Tomáš <tomas@firma-hodonin.cz>", "Automatická odpověď: Re: objednávka",
                   "Jsem mimo kancelář do 20. 4. V naléhavých případech volejte +420 777 123 "
                   "456.")
    assert lane is Lane.INFO


def test_a_clock_time_or_a_version_number_is_no_czech_date() -> None:
    # "kl 8.15." is a clock time and "4.2.0" a version, not a day of a month
    lane = lane_of("Signe <signe@bageri-aarhus.dk>", "Ingen fløde",
                   "Fløden kom ikke, 400 boller mangler fyld. Kommunen henter kl 8.15. Ring "
                   "til mig inden kl 6.30.")
    assert lane is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Birgitte <birgitte@hjemmepleje-vest.dk>", "Strømsvigt",
     "Der er strømsvigt i hele byen siden ca. 01.30. Hans iltapparat kører ikke uden strøm. "
     "Kan du ringe til ham?"),
    ("Anneli <anneli@kiosk-haparanda.se>", "kortterminalerna",
     "Kortterminalen säger offline sedan 10:50 och kön går ut genom dörren. Kan du ringa "
     "KassaNord?"),
])
def test_trouble_since_a_clock_time_is_now(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize("subject", [
    "Fwd: URGENT lice notice - resolved", "RE: URGENT panne terminaux de paiement – résolu",
    "Kühlhaus 2 ausgefallen (behoben)"])
def test_a_subject_ending_in_resolved_does_not_push(subject: str) -> None:
    body = ("URGENT: the payment terminals are down since 10:50, please call the provider "
            "immediately.")
    assert lane_of("Nadia <nadia@velo-rhone.fr>", subject, body) is not Lane.PUSH
    # the same mail with the trouble still on pushes
    assert lane_of("Nadia <nadia@velo-rhone.fr>", "URGENT panne terminaux", body) is Lane.PUSH


def test_korean_currently_is_now_only_where_trouble_is_told() -> None:
    # "현재 품절" (out of stock at present) with a request: a state, not now
    assert lane_of("하나반상 <order@hanabansang.example>", "[주문 확인] 3월 2차 주문",
                   "고춧가루 1kg x 10 → 현재 품절, 4월 초 입고 예정입니다. 대체 상품으로 "
                   "보내드려도 될지 회신 부탁드립니다.") is not Lane.PUSH
    # "현재 표류 중" (drifting now) after an engine-room fire: now
    assert lane_of("김선장 <captain@mayong.example>", "기관실 화재",
                   "기관실 화재로 엔진 정지, 현재 항구 남서쪽 6해리에서 표류 중입니다. "
                   "예인선 수배 부탁드립니다.") is Lane.PUSH


def test_a_korean_sprain_is_trouble() -> None:
    assert lane_of("보건교사 <nurse@school.example>", "체육시간 부상",
                   "체육시간에 민준이가 오른쪽 발목을 접질렸습니다. 현재 보건실에서 냉찜질 "
                   "중이나 붓기가 심하고 통증을 호소합니다. 데리러 와 주실 수 있을까요?"
                   ) is Lane.PUSH


def test_korean_minutes_ago_since_is_now() -> None:
    # "30분 전부터": since thirty minutes ago; not "출항 15분 전까지", before a departure
    assert lane_of("정유진 <yujin@starfall.example>", "결제 오류 문의 폭주",
                   "팀장님, 30분 전부터 결제하면 '상품 지급 실패'가 뜬다는 문의가 200건 넘게 "
                   "들어왔어요. 공지 문구 확인 부탁드립니다.") is Lane.PUSH
    assert lane_of("크루즈 <reservations@cruise.example>", "[예약 확인] 1월 15일 크루즈",
                   "예약해 주셔서 감사합니다. 출항 15분 전까지 선착장에 도착해 주세요."
                   ) is not Lane.PUSH


def test_a_no_action_phrase_asks_nothing() -> None:
    # "nothing you need to do" holds the words "you need to": it is no ask, so the broken
    # gate it reports as dealt with does not push
    body = ("Gate motor was broken this morning; the engineer replaced it at 10:20 and it "
            "runs again. Nothing you need to do.")
    assert lane_of("Tom <tom@depot.example>", "Yard gate", body) is not Lane.PUSH
    # the same report with a real ask pushes
    asked = body.replace("Nothing you need to do.", "You need to sign his job sheet today.")
    assert lane_of("Tom <tom@depot.example>", "Yard gate", asked) is Lane.PUSH


@pytest.mark.parametrize("opening", [
    "For your records:", "Til orientering:", "Ter info:", "För kännedom:",
    "Tylko informacja:", "Rien à faire de ton côté :"])
def test_for_your_records_in_several_languages_is_no_action(opening: str) -> None:
    body = (f"{opening} the boiler failed at 06:10, the fitter came at 08:00 and the heating "
            "has been back since 09:30.")
    assert lane_of("Ian <ian@school.example>", "Boiler", body) is not Lane.PUSH
    # "Request for Information" is a request's name, not the Swedish "för information"
    assert lane_of("Unit <rfi@regulator.example>", "Request for Information - due today 16:00",
                   "The deadline for the Request for Information is today at 16:00. Please "
                   "submit it through the portal.") is Lane.PUSH


def test_a_request_due_another_day_is_no_deadline_now() -> None:
    # the other party's deadline is beside a request due Thursday
    assert lane_of("HR <hr@firm.example>", "Candidate feedback by Thursday?",
                   "The candidate has another offer with a deadline next Monday. Could you send "
                   "me your feedback by Thursday?") is not Lane.PUSH


def test_a_day_and_month_is_no_clock_time() -> None:
    # "by 31.12" is the 31st of December, not a time today
    assert lane_of("Bilkontroll <paminnelse@bilkontroll.example>", "Inspection due by 31.12",
                   "Your car must pass its inspection by 31.12. After the deadline a fee is "
                   "charged. Book online or call us.") is not Lane.PUSH
    # a time of day with the deadline still pushes
    assert lane_of("Bilkontroll <paminnelse@bilkontroll.example>", "Inspection due by 16:30",
                   "Your car must pass its inspection by 16:30. After the deadline a fee is "
                   "charged. Book online or call us.") is Lane.PUSH


def test_korean_hours_before_a_departure_is_no_time_now() -> None:
    # "출발 1시간 전까지": by an hour before departure (a rule), not an hour ago
    assert lane_of("항공사 <no-reply@air.example>", "[온라인 체크인] 12/19 출발",
                   "온라인 체크인이 시작되었습니다. 출발 1시간 전까지 수하물 위탁을 완료해 "
                   "주세요.") is not Lane.PUSH


def test_immediately_thought_of_you_is_no_urgency() -> None:
    assert lane_of("Aine <aine@mail.example>", "saw the storm on the news",
                   "I saw the storm on the news and immediately thought of you! Are you all "
                   "ok?") is not Lane.PUSH


def test_an_emergency_tax_code_is_a_name() -> None:
    assert lane_of("Pawel <pawel@works.example>", "my payslip - emergency tax?",
                   "My payslip shows an emergency tax code. Can you check it?") is not Lane.PUSH


def test_a_notice_that_says_it_was_sent_automatically_is_a_robots() -> None:
    body = ("Weekly pipeline summary\nOpen: 27\nActivities overdue: 4\n\nOpen the CRM to update "
            "your forecast before Friday's meeting.\nThis e-mail is sent automatically.")
    message = message_from_fields(sender="CRM <crm@firm.example>", subject="Weekly summary",
                                  body=body)
    assert detect_signals(message).automated_sender
    assert classify(message).decision.lane is not Lane.PUSH
    person = message_from_fields(sender="Eva <eva@firm.example>", subject="Weekly summary",
                                 body="Activities overdue: 4. Update your forecast before Friday.")
    assert not detect_signals(person).automated_sender


def test_an_account_asked_for_behind_a_link_by_any_stranger_does_not_push() -> None:
    # not only a robot's address: "payments@" asking for bank details behind a link, with a
    # 48-hour threat, is a lure's script (kept in sight, QUEUE)
    body = ("Your area payment of £6,842.00 is ready to be released. Please confirm your bank "
            "details within 48 hours to avoid the payment being cancelled: "
            "https://gov-ruralsupport.example/claim/confirm")
    assert lane_of("Rural Support <payments@gov-ruralsupport.example>",
                   "Your 2029 area payment - confirm bank details", body) is Lane.QUEUE
    # a terminal's "log in and re-confirm ... before 18:00 today" behind a link, the same
    assert lane_of("Gateway Terminal <notices@gateway-terminal.example>",
                   "Your gate appointments have been CANCELLED",
                   "All gate appointments were cancelled. Companies must log in and re-confirm "
                   "their appointments before 18:00 today or lose their slots: "
                   "https://gateway-terminal.example/appt/login") is Lane.QUEUE
    # the same ask with no link to follow keeps its time pressure
    assert lane_of("Gateway Terminal <notices@gateway-terminal.example>",
                   "Your gate appointments have been CANCELLED",
                   "All gate appointments were cancelled. Companies must log in and re-confirm "
                   "their appointments before 18:00 today or lose their slots.") is Lane.PUSH


def test_a_reading_falling_and_a_consignment_held_are_trouble() -> None:
    # (no near time: the trouble itself, with the ask, pushes)
    assert lane_of("Kev <kev@harbour.example>", "Linkspan 2",
                   "Linkspan 2 hydraulic pressure dropping slowly, 180 bar now. Can you ring "
                   "harbour control?") is Lane.PUSH
    assert lane_of("Ray <ray@customs-air.example>", "Air shipment",
                   "Your shipment is on hold at the cargo terminal. Can you send the signed "
                   "invoice?") is Lane.PUSH
    # a project on hold is no consignment held
    assert lane_of("Ray <ray@customs-air.example>", "Extension",
                   "The extension project is on hold until March. Can you send the revised "
                   "plan?") is not Lane.PUSH


def test_a_security_action_asked_of_the_owner_is_an_ask() -> None:
    assert lane_of("CERT <cert@firm.example>", "Exposed credential",
                   "A valid access key of yours was posted publicly. It must be rotated within "
                   "2 hours (by 16:40). Please rotate it and confirm in the ticket.") is Lane.PUSH


def test_an_alert_sent_to_an_areas_subscribers_does_not_push() -> None:
    body = ("GALE WARNING: south winds 35 kt, gusts to 45 kt, heavy rain tonight.\n\nYou "
            "subscribed to marine alerts for: South Sound. Manage alerts or unsubscribe.")
    assert lane_of("Marine Alerts <alerts@weather.example>", "GALE WARNING", body) is not Lane.PUSH
    # the same warning at the reader's own place still pushes
    owned = body.replace("heavy rain tonight.", "heavy rain tonight. Your moorings at "
                         "Berth 4 are in the warned area: evacuate the pontoon now.")
    assert lane_of("Marine Alerts <alerts@weather.example>", "GALE WARNING", owned) is Lane.PUSH


def test_a_banks_notice_that_the_readers_payment_waits_today_pushes_without_a_link() -> None:
    body = ("Your BACS submission has been rejected.\nValue: £287,604.18\nReason: daily limit "
            "exceeded.\n\nTo have it processed on time, the file must be resubmitted before "
            "21:00 today. Please log in to Business Online from your usual bookmark.")
    sender = "Mercia Bank <noreply@merciabank.example>"
    assert lane_of(sender, "BACS submission rejected", body) is Lane.PUSH
    # the same words with a link to follow are a lure's script: kept in sight, not pushed
    linked = body.replace("from your usual bookmark.", "here: https://mercia-bank-login.example")
    assert lane_of(sender, "BACS submission rejected", linked) is not Lane.PUSH
    # a robot's reminder with no payment stopped stays a reminder
    assert lane_of(sender, "Statement available", "Your statement is available today before "
                   "21:00 in Business Online.") is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("Pete - tractor", "Pete slipped off the trailer step and can't stand, the ambulance is "
     "taking him to the county hospital. Meet us there."),
    ("kitchen sink", "There is water spraying from under the kitchen sink and it's not "
     "stopping. Where is the main??"),
    ("fuel dock", "The fuel hose split while filling a boat, diesel went into the water and a "
     "sheen is spreading. Do you want me to call the harbour master?"),
])
def test_plain_emergencies_told_with_an_ask_push(subject: str, body: str) -> None:
    assert lane_of("Deb <deb@cabins.example>", subject, body) is Lane.PUSH


def test_what_is_fine_in_a_story_of_trouble_does_not_end_it() -> None:
    body = ("The waves came over the seawall at 1am and flooded bures 1-6; everyone accounted "
            "for. A guest has had chest pain for 40 minutes. Can you call the health centre?")
    assert lane_of("Seini <seini@resort.example>", "Seawall breached, guest chest pain",
                   body) is Lane.PUSH
    # a reply's subject is the thread's: the trouble there may be what the body ends
    assert lane_of("Seini <seini@resort.example>", "Re: seawall breached",
                   "Wall repaired, all guests back in their bures, everyone accounted for. "
                   "Back to normal.") is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # a clock time and a question in any language: the sender asks the reader, now
    ("daklijst gebouw B", "Ingrid, een stuk van de daklijst hangt los. Om 10:15 begint de "
     "pauze. Zullen we de leerlingen via de hoofdingang laten gaan?"),
    ("pokój 4", "W pokoju 4 kapie woda na łóżko. Goście przyjeżdżają o 15:00. Przenieść ich "
     "do pokoju 2?"),
])
def test_a_persons_question_with_a_time_today_pushes(subject: str, body: str) -> None:
    assert lane_of("Gerrit <gerrit@school.example>", subject, body) is Lane.PUSH


def test_a_question_asks_only_from_a_person_and_only_today() -> None:
    body = "De lift staat stil. Om 10:15 komt de monteur. Zullen we de trap nemen?"
    assert lane_of("Gerrit <gerrit@school.example>", "lift", body) is Lane.PUSH
    # a robot's question is no one asking the reader
    assert lane_of("Lift monitor <noreply@lift-monitor.example>", "lift", body) is not Lane.PUSH
    # another day named: the question is for then
    later = body.replace("Om 10:15", "Donderdag om 10:15").replace("staat stil", "wordt "
                                                                    "gekeurd")
    assert lane_of("Gerrit <gerrit@school.example>", "lift", later) is not Lane.PUSH
    # a web address's query is no question
    assert lane_of("Gerrit <gerrit@school.example>", "lift", "Om 10:15 komt de monteur, zie "
                   "https://lift.example/plan?id=4 voor het plan.") is not Lane.PUSH


def test_a_decimal_is_no_clock_time() -> None:
    body = ("They were 0.99 clues cancelled out by 0.01 clues. Are there any header lines "
            "left in your corpus?")
    assert lane_of("Guido <guido@python.example>", "test sets?", body) is not Lane.PUSH
    # the hour after midnight, written as such, still is
    assert lane_of("Guido <guido@python.example>", "release", "The build breaks by 00.30. "
                   "Can you revert the change?") is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Jo <jo.penhall@mail.example>", "saw the fire on the news - you ok?",
     "Just saw the island fire on the news and the smoke over the bay. Are you and the lodge "
     "ok?? Message me when you can."),
    ("수빈 <subin@mail.example>", "괜찮아?? 뉴스 봤어",
     "산불 뉴스 계속 나와. 너네 집 근처 아니야? 다 괜찮은 거지?"),
])
def test_trouble_seen_on_the_news_is_news(sender: str, subject: str, body: str) -> None:
    # the sender asks after the reader about an event the news told: no emergency of theirs
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_the_news_does_not_hide_a_time_pressed_ask() -> None:
    body = ("Saw in the news that the dockers strike on 13-14 July. Your 4 containers are due "
            "then: can you tell me by 11:00 today whether to move them to the earlier ship?")
    assert lane_of("Ria <ria@forwarder.example>", "Dockers strike - your containers",
                   body) is Lane.PUSH


def test_a_robots_host_marks_a_robot() -> None:
    body = ("The City has declared a Snow Emergency. Day 1 begins 9 PM Wednesday: do not park "
            "on either side of a Snow Emergency Route. You signed up for Snow Emergency alerts.")
    assert lane_of("City <snowemergency@notify.city.example.gov>", "SNOW EMERGENCY declared",
                   body) is not Lane.PUSH


def test_not_in_a_rush_is_calm() -> None:
    body = ("First trial order would be around 300 units, arriving January. Could you give me "
            "a rough idea of duty and VAT on that compared to what we pay now? Not in a rush - "
            "end of next week is fine, we're presenting to the board on the 5th.")
    assert lane_of("Lukas <lukas@cycles.example>", "e-bikes - duty?", body) is not Lane.PUSH


def test_urgent_wording_for_a_dated_day_with_its_hours_is_for_that_day() -> None:
    body = ("ACTION REQUIRED - UPCOMING DEADLINE. Proposals must be routed with all approvals "
            "by Tuesday, April 1, 2031, 5:00 PM. No exceptions will be made.")
    assert lane_of("Sponsored Programs <osp@university.example>", "REMINDER: seed grant "
                   "routing deadline April 1", body) is not Lane.PUSH


def test_a_subject_that_ends_found_tells_the_search_is_over() -> None:
    body = ("Update: police found Harold at the bus shelter at 03:55. He is back in his room. "
            "Obs are OK. Incident form done, you can read it when you come in.")
    assert lane_of("Marites <marites@care.example>", "RE: Harold not in his room - FOUND",
                   body) is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("[P1] checkout latency - you are primary on-call",
     "PAGE - PRIORITY P1. Fleet p99 latency above 180 ms for 10 min. Acknowledge within 15 "
     "min or this escalates to secondary. Reply ACK to acknowledge."),
    ("*** ALARM *** PS-2: HIGH WET WELL / PUMP 1 FAIL",
     "Station PS-2. HIGH WET WELL 8.9 ft, overflow at 10.2 ft. Acknowledge via the portal."),
])
def test_a_pagers_own_words_tell_an_incident(subject: str, body: str) -> None:
    assert lane_of("Ops Alerting <alerts@ops-alerting.example>", subject, body) is Lane.PUSH


def test_a_relatives_news_that_the_operation_went_well_is_news() -> None:
    body = ("언니, 시술 잘 끝났어. 혈관 막힌 거 뚫었고 의사가 빨리 와서 다행이래. 지금 "
            "중환자실에 계신데 말도 조금씩 하셔. 너무 걱정하지 마. 내일 아침에 영상통화 하자.")
    assert lane_of("수경 <sookyung@mail.example>", "엄마 시술 잘 끝났어", body) is not Lane.PUSH


def test_a_clock_on_a_dated_other_day_does_not_make_a_past_incident_now() -> None:
    # a review of an incident, proposed for another dated day at a time: that day's time
    body = ("The partners would like to sit down with you for a review of the January incident "
            "and what we do differently. Would Tuesday 18 Feb at 2pm at our office work? "
            "Please bring the written report.")
    assert lane_of("Helen <helen@quill-accountants.com.au>", "post-incident review",
                   body) is not Lane.PUSH
    # trouble told with that stamp is the event itself
    body = ("CODE ORANGE (External Mass Casualty) activated at 18:52, Saturday 7 November. "
            "Incident: an express bus overturned, fire and rescue on scene, first ambulances "
            "due 19:20. ED head please report to ED as incident commander.")
    assert lane_of("Command Centre <command.centre@hospital.com.my>",
                   "CODE ORANGE ACTIVATED 18:52 - bus crash", body) is Lane.PUSH


def test_advice_to_act_now_is_an_ask() -> None:
    body = ("Samples from this morning show microcystin at 61 ug/L at your intake. I'd strongly "
            "advise you to stop pumping lough water into the tanks now. I'll be back out at "
            "4pm to resample.")
    assert lane_of("Dr Orla Hegarty <orla@loughwater.org>", "Toxin levels at the intake",
                   body) is Lane.PUSH


def test_a_deadlines_clock_on_a_dated_other_day_is_that_days() -> None:
    body = ("We can offer you an extra Saturday sweep on 14 Dec (collection 16:00, trailer on "
            "bay by 11:00). Can you let me know by close of play Wednesday 27th?")
    assert lane_of("Tariq <tariq@parcelgrid.co.uk>", "Peak collections: Saturday 14th sweep?",
                   body) is Lane.QUEUE
    # today named: the clock is today's
    body = ("The export permit expired. The airline needs the new one before 15:00 today, "
            "Monday 3 March, or the lobster misses the flight. Can you sign it?")
    assert lane_of("Ming <ming@seafood-export.com.au>", "Permit for tonight's flight",
                   body) is Lane.PUSH


def test_a_driver_who_can_wait_until_a_clock_time_waits_today() -> None:
    body = ("Our driver is now at the campus for the nitrogen delivery, and the access road is "
            "closed. He can wait until 11:30. If no one can open the fences, the next free slot "
            "is Thursday 20 April. Please call the driver directly.")
    assert lane_of("Planning <planning@cryogas.nl>", "Delivery - driver cannot reach tank",
                   body) is Lane.PUSH


def test_an_order_to_leave_now_is_urgent() -> None:
    body = ("Smoke is really thick over the back fence now. They're saying leave now if you're "
            "not prepared to defend. Are you home?")
    assert lane_of("Nell <nell.k@bigpond.com>", "fire", body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("Seemeeu port engine", "Port engine overheating, I shut it down. Please ask port control "
     "to have the pilot boat standby to tow us in."),
    ("Hoedjie II", "Her stern lines have parted in the surge and she's swinging on the bow "
     "line. Someone needs to get the workboat out, please."),
    ("HOLD batch 30-114", "Dissolved oxygen is out of spec on 4 of 6 samples. Can you call "
     "Tafelberg before they load it?"),
])
def test_a_machine_overheating_a_boat_adrift_or_a_batch_out_of_spec_is_trouble(
        subject: str, body: str) -> None:
    assert lane_of("Bradley <bradley@hoedjiesmarine.co.za>", subject, body) is Lane.PUSH


@pytest.mark.parametrize("calm", [
    "It's not for today.", "Cuando puedas me contestas, no es para hoy.",
    "Whenever you're out this way next is fine.", "It doesn't have to be today.",
])
def test_an_ask_said_not_to_be_for_today_is_calm(calm: str) -> None:
    body = f"Can you send me the overdue list today? I'm in till 1. {calm}"
    assert lane_of("Amber <amber@downslogic.com.au>", "overdue list", body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Resident Portal <noreply@parkwood-living.com>", "Maintenance request #PV-20931 received",
     "Your maintenance request has been received. Category: roof / ceiling leak. Priority: "
     "Emergency. Our after-hours emergency technician will be dispatched."),
    ("Cyber Cover <incidents@cybercover-claims.com.au>", "Incident acknowledged - INC-77120",
     "Your incident notification has been received. Incident: suspected ransomware. The "
     "responder will call within 2 hours. Please do not delete logs."),
])
def test_the_receipt_of_the_readers_own_report_is_no_interruption(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_a_person_telling_trouble_now_about_an_invoice_link_is_no_receipt() -> None:
    body = ("Rocco and Trent both just rang asking about an email I sent them this morning with "
            "a 'shared invoice' link. I didn't send anything. Trent said he clicked it and put "
            "his password in. About 200 of them have gone out since 7am and more are going "
            "out now.")
    assert lane_of("Bronwyn <bronwyn@tenthillcreek.com.au>", "people getting emails from me",
                   body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("yard gate", "Tried ringing you. The pallet racking in bay 3 has collapsed onto the "
     "forklift and the aisle is blocked."),
    ("camión 9", "Te escribo porque no contestas el teléfono. El camión se volcó en la 33 y "
     "hay diésel en la cuneta."),
    ("창고", "전화를 안 받으셔서 메일 드립니다. 창고 지붕에서 누수가 심하고 정전이 됐습니다."),
])
def test_trouble_told_by_someone_who_could_not_reach_the_reader_is_urgent(
        subject: str, body: str) -> None:
    # no question and no request: the failed call is the ask
    assert lane_of("Dana <dana@riverbendfreight.net>", subject, body) is Lane.PUSH


def test_a_stranger_who_says_they_could_not_reach_you_is_no_person_asking() -> None:
    body = ("We tried to reach you by phone about your listing. An accident report was filed "
            "against your profile and it will be removed in 48 hours.")
    assert lane_of("Listings Team <support@bizlistings-review.net>",
                   "Your business profile will be removed", body) is not Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("Bố bị ngất", "Con ơi, bố bị ngất ngoài vườn, mẹ đã gọi xe cứu thương. Con gọi cho mẹ "
     "liền nha."),
    ("Kho bị ngập", "Nước tràn vào kho, mấy bao gạo ướt hết. Anh về liền được không?"),
])
def test_vietnamese_trouble_with_an_ask_is_urgent(subject: str, body: str) -> None:
    assert lane_of("Hoa <hoa.tran@saigonmail.net>", subject, body) is Lane.PUSH


def test_vietnamese_news_of_a_flood_without_an_ask_is_not_urgent() -> None:
    body = "Ở nhà mưa suốt, đường ngập tới đầu gối. Ba con vẫn khỏe. Thương con."
    assert lane_of("Mẹ <me.nguyen@saigonmail.net>", "thư của mẹ", body) is not Lane.PUSH


def test_a_korean_call_that_did_not_connect_makes_trouble_an_ask() -> None:
    body = "통화가 안 돼서 메일 드립니다. 2층 배관이 터져서 물이 새고 있습니다."
    assert lane_of("박기사 <park@hanul-sisul.net>", "2층 배관", body) is Lane.PUSH


def test_a_condition_about_an_emergency_of_some_kind_is_out_of_scope() -> None:
    body = ("Thanks for the rota. Can you send the May version when it's ready? If this is "
            "about a livestock emergency, ring the clinic on 580 555 0101.")
    assert lane_of("Kit <kit.moreno@prairievets.net>", "May rota", body) is not Lane.PUSH


def test_out_on_a_call_with_no_signal_is_an_automatic_reply() -> None:
    body = ("I'm out on a site visit with no signal until about 4 PM. For anything urgent "
            "please call the office.")
    message = message_from_fields(sender="Jo <jo.banks@ridgeline-survey.net>",
                                  subject="Re: boundary pegs", body=body)
    trace = classify(message)
    assert trace.signals.auto_reply and trace.decision.lane is not Lane.PUSH


@pytest.mark.parametrize("subject", [
    "Weekly on-call report: Ridgeway Systems (3 - 9 Feb)",
    "Daily summary - Harrow Grain - all sites",
])
def test_a_periodic_report_is_no_interruption(subject: str) -> None:
    body = ("Incidents: 9 (SEV1: 2, SEV2: 3). Outages: 1 critical. Mean time to resolve: 48m. "
            "View the full report in the dashboard.")
    assert lane_of("Reports <reports@pagerline.net>", subject, body) is not Lane.PUSH


def test_a_periodic_report_whose_subject_tells_trouble_now_still_interrupts() -> None:
    subject = "Monthly filing report rejected by the regulator - resubmit today by 17:00"
    body = "The filing was rejected for 2 funds. Please resubmit today by 17:00."
    assert lane_of("Ops <ops@kestrelfunds.net>", subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("Weekly sync report - Harrow Comfort",
     "Sync ran at 02:00. 3 bookings were rescheduled and the calendar is updated."),
    ("Daily dispatch summary - Tue 11 Feb",
     "Jobs: 22. Rescheduled: 3 (customer request). Tomorrow's first call 07:30."),
])
def test_a_periodic_report_of_rescheduled_bookings_is_no_scheduling(
        subject: str, body: str) -> None:
    message = message_from_fields(sender="Dispatch <dispatch@harrowcomfort.net>",
                                  subject=subject, body=body)
    trace = classify(message)
    assert not trace.signals.scheduling and trace.decision.lane is not Lane.MEETING


def test_a_meeting_request_is_still_scheduling() -> None:
    body = "Can we meet Thursday at 10:00 to go over the dispatch numbers?"
    message = message_from_fields(sender="Lee <lee@harrowcomfort.net>",
                                  subject="Dispatch numbers - meeting Thursday?", body=body)
    assert detect_signals(message).scheduling


@pytest.mark.parametrize("subject", [
    "Growers' Bulletin - October: AGM moved, field day rescheduled",
    "[RVG] Digest: water meeting, road repairs, field day",
    "Minutes - staff meeting 31 May",
    "[한인회] 9월 뉴스레터: 가을 세미나 일정",
])
def test_a_bulletin_a_digest_or_minutes_is_no_scheduling(subject: str) -> None:
    body = ("The AGM is moved to Thursday 14 October at 7pm. The field day is rescheduled to "
            "the 21st. Please put both in your calendar.")
    message = message_from_fields(sender="News <news@rivervalleygrowers.net>",
                                  subject=subject, body=body)
    assert not detect_signals(message).scheduling


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("IT Service Desk <no-reply@fernvale-college.net>", "Password changed for your account",
     "The password for your account was changed at 08:47. If you made this change, no action "
     "is needed. If you did not change your password, contact the IT Service Desk "
     "immediately."),
    ("Help Desk <no-reply@tidewater-sd.net>", "Your password was changed",
     "Your password was changed at 3:12 PM. If you made this change, you don't need to do "
     "anything. If you didn't, contact the Technology Help Desk right away."),
    ("한빛은행 <alert@hanbit-bank.net>", "[한빛은행] 새로운 기기에서 로그인되었습니다",
     "새로운 기기에서 로그인이 확인되었습니다. 본인이 맞다면 별도 조치는 필요 없습니다. "
     "본인이 아닌 경우 앱 보안센터에서 즉시 비밀번호를 변경해 주세요."),
])
def test_an_account_change_notice_with_a_did_not_condition_is_no_interruption(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is not Lane.PUSH


def test_a_renewal_that_says_call_if_you_did_not_authorise_keeps_its_ask() -> None:
    body = ("Your annual protection plan renewed today for $399.99. If you did not authorize "
            "this charge, call our billing department immediately at 1-808-555-0139.")
    # (read as out of scope, the ask is gone and the fake renewal is filed as a receipt, INFO)
    lane = lane_of("Billing <billing@secureplan-renewals.net>", "Renewal receipt #88213", body)
    assert lane is Lane.QUEUE


@pytest.mark.parametrize("now", ["it's 11:20.", "It's now 17:55,", "its 5:40am and"])
def test_the_time_now_told_with_a_request_is_near(now: str) -> None:
    body = (f"Your driver was due here at 11 with the trays for 80 guests. {now} Please call "
            "me on 405 555 0163.")
    assert lane_of("Rachel <rachel.dunn@prairiemail.net>", "where is the food", body) is Lane.PUSH


@pytest.mark.parametrize("figure", ["it's 4.3 t, about 4.2 m long", "it's 2,400 for the course"])
def test_a_figure_after_its_is_no_time_now(figure: str) -> None:
    body = f"Could you give me a price for the crossing? {figure}. No hurry, next month is fine."
    assert lane_of("Ida <ida.berg@fjordpost.net>", "price question", body) is not Lane.PUSH


def test_a_pit_caved_in_with_a_near_time_is_trouble() -> None:
    body = ("The trench on the Hollis job caved in about 30 min ago. Nobody is under it but the "
            "gas main is exposed. Send the shoring crew now.")
    assert lane_of("Dale <dale@hollisexcavation.net>", "trench", body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("Kevätretki", "Bussi lähtee koululta klo 8.30. Ilmoittakaa ti 18.3. mennessä, pääseekö "
     "lapsenne mukaan?"),
    ("Vereinsfahrt", "Abfahrt um 7.00 Uhr am Busbahnhof. Könnt ihr uns bis 21.3. sagen, wer "
     "mitfährt?"),
    ("Juniorturnering", "Samling vid hallen kl 9.15. Kan ni svara senast fre 14.3. om ni kan "
     "köra?"),
])
def test_a_dotted_date_to_come_makes_the_clock_that_days(subject: str, body: str) -> None:
    # "klo 8.30" is the trip's time on "ti 18.3.", not a time pressing today
    assert lane_of("Heli <heli.koski@vanhempainyhdistys.net>", subject, body) is not Lane.PUSH


@pytest.mark.parametrize("stamp", ["Eingang: 10.03.2031", "under clause 14.2."])
def test_a_dotted_stamp_or_clause_is_no_day_to_come(stamp: str) -> None:
    body = (f"URGENT: the cold room at Halle 3 is at 14 C and rising ({stamp}). Call me "
            "immediately.")
    assert lane_of("Jonas <jonas.weber@kuehlhaus-weber.net>", "Kühlraum", body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Nils <nils@varvsservice.net>", "hall 3", "Vattnet rinner in genom taket och det droppar på "
     "elskåpet. Ska jag bryta strömmen?"),
    ("Marja <marja.niemi@kotiposti.net>", "äitisi", "Äitisi ei avaa ovea eikä vastaa puhelimeen, "
     "vaikka valot ovat päällä. Onko sinulla avainta?"),
    ("Toni <toni@hallipalvelut.net>", "öljyvuoto", "Trukista on valunut öljyä lattiakaivoon. "
     "Tilaanko imuauton?"),
    ("Rosa <rosa.mendez@correo-norte.net>", "las sirenas", "Están sonando las sirenas en el "
     "pueblo. ¿Dónde dejamos a los niños?"),
    ("Pete <pete@harbourmarine.co.uk>", "workshop", "Water is dripping onto the fuse board from "
     "the roof. Do I switch the mains off?"),
])
def test_trouble_told_in_swedish_finnish_spanish_and_english_with_a_question_pushes(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_finnish_and_this_is_not_urgent_is_calm() -> None:
    body = ("En halua valittaa turhaan eikä tämä ole kiireellinen asia, mutta naapurin koira "
            "haukkuu öisin. Voiko isännöitsijä puhua hänelle?")
    assert lane_of("Aino <aino@kotiposti.net>", "Koira B 12", body) is not Lane.PUSH


def test_whenever_you_get_a_sec_is_relaxed() -> None:
    body = ("Two boxes of brake pads came in for you this morning, no PO. Where should they "
            "go? Whenever you get a sec.")
    assert lane_of("Marco <marco@depotparts.net>", "boxes", body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Gail <gail@meadowhoney.net>", "your tractor", "Your sprayer is on the strip next to my "
     "bee yard right now. Tell your driver to stop."),
    ("Rick Olsen <rick.olsen@statesafety.net>", "boiler inspection", "The boiler at the pool "
     "failed inspection today. I need to talk to you before the 4 pm opening."),
    ("Northgate Alarm Centre <dispatch@northgatealarms.net>", "Low temperature alarm",
     "Zone 3 plant room LOW TEMP 2 C. Keyholders did not answer. Please attend the premises "
     "or call 0800 555 0190 to acknowledge."),
])
def test_an_ask_to_have_something_done_now_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_water_dripping_from_the_ceiling_in_finnish_pushes() -> None:
    body = "Keittiön katosta tippuu vettä lampun kohdalta. Voitteko tulla katsomaan?"
    assert lane_of("Ville <ville.laine@kotiposti.net>", "vesivahinko", body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Jörg <joerg@kellerbau-nord.net>", "Keller", "Der Keller ist überschwemmt, das Wasser "
     "steht schon am Sicherungskasten. Soll ich den Strom abstellen?"),
    ("Lan <lan.nguyen@thuhuong.net>", "bố", "Bố bị đột quỵ sáng nay, đang ở bệnh viện. "
     "Con về nhà ngay được không?"),
])
def test_trouble_words_starting_with_a_letter_ascii_does_not_know(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    ("Joulun tarjoukset", "Kahvinkeittimet jopa -35 %. Katso kaikki tarjoukset. Peru tilaus"),
    ("Talvirenkaat", "Kitkarenkaat nyt -20 % hinnalla. Tarjous voimassa 30.11. asti. Peru tilaus"),
])
def test_a_finnish_shop_offer_is_marketing(subject: str, body: str) -> None:
    assert lane_of("Kodinkone Kauppa <uutiset@kodinkonekauppa.net>", subject,
                   body) in HIDDEN_LANES


def test_a_suppliers_quote_in_finnish_is_not_marketing() -> None:
    body = ("Hei Satu, liitteenä tarjous ikkunaremontista. Voimmeko sopia katselmuksen ensi "
            "viikolle?")
    assert lane_of("Pekka <pekka@ikkunapojat.net>", "Tarjous: ikkunat", body) not in HIDDEN_LANES


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Nell <nell.harper@ridgeline.net>", "your porch", "A line from the pole is lying across "
     "your porch rail and it keeps sparking. Can you call the power company?"),
    ("Ron Tate <ron@tatepaving.net>", "hit a service line", "We nicked a gas service at the "
     "curb and gas is blowing. Can you get out here?"),
    ("Joanne <joanne.pike@maildrop.net>", "Liam", "Liam skidded off the road on Route 9. Can "
     "you pick him up from the Shell station?"),
    ("Maya <maya.r@homeplace.net>", "I think it's starting", "I've been having contractions, "
     "about 7 minutes apart. Can you come home?"),
])
def test_a_live_wire_gas_escaping_a_car_off_the_road_or_labour_with_an_ask_pushes(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_need_you_or_another_person_somewhere_is_an_ask() -> None:
    body = "Pump 2 has failed and the wet well is rising. I need you or Dale at the station."
    assert lane_of("Cole <cole@rivertownwater.net>", "lift station 3", body) is Lane.PUSH


def test_a_weight_with_a_thousands_comma_is_no_clock_time() -> None:
    body = ("They posted the bridge at 23,000 and the fuel truck won't cross. Can the town do "
            "anything?")
    assert lane_of("Ed <ed.farrow@millcreeknet.net>", "bridge posting", body) is Lane.QUEUE


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Aivar <aivar.tamm@postkast.net>", "rõhk kukkus", "Pumbajaamas rõhk kukkus ja torust "
     "tuleb vett. Helista mulle kohe."),
    ("Kadri <kadri.lepp@postkast.net>", "ema", "Ema kukkus trepil, kiirabi viis ta EMO-sse. "
     "Kas sa saad tulla?"),
    ("Pavel <pavel.orlov@yandex.net>", "трасса", "Машина заглохла на трассе, нужен эвакуатор. "
     "Что делать?"),
])
def test_trouble_in_estonian_and_russian_with_an_ask_pushes(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_a_colleague_said_to_be_on_leave_is_no_out_of_office_reply() -> None:
    body = ("차장님, 김 과장님 휴가 중이라 제가 대신 연락드립니다. 오늘 오후 3시까지 검사 "
            "성적서가 필요합니다. 확인 즉시 전화 부탁드립니다.")
    assert lane_of("이수진 <sujin.lee@hanbit-foods.net>", "[긴급] 출하 보류 - 오늘 중 회신",
                   body) is Lane.PUSH


def test_told_to_go_back_inside_is_no_trouble_over() -> None:
    body = ("The porch light shorted and it's sparking. I told the guests to go back inside. "
            "Can you call an electrician?")
    assert lane_of("Tom <tom.reyes@mailbox.net>", "re: guests", body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("SCADA <scada@kyte-demo.net>", "[KRIITILINE] pump P1 trip",
     "KRIITILINE ALARM. Pump P1 seiskus. Kinnita vastuvõtt."),
    ("Pavel <pavel.orlov@yandex.net>", "трасса", "Машина заглохла на трассе, мороз. Нужен "
     "эвакуатор."),
    ("Chuy <chuy.l@correo.net>", "pila 7", "Se descompuso el aireador de la pila 7 y los peces "
     "están boqueando. Ven rápido."),
    ("Kayla <kayla@harborfreight-demo.net>", "LOI for the container", "The ramp will pull the "
     "box off the 3:00 train with a signed letter. I need it back by 1:15 pm or they won't "
     "hold it."),
])
def test_estonian_critical_a_russian_need_a_spanish_come_quickly_an_item_needed_back_push(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_a_daily_report_tagged_in_brackets_is_a_periodic_report() -> None:
    body = ("Sites online: 40/40. Availability 97.1 % (incident INC-77 03:10-04:02). Open "
            "faults: none.")
    assert lane_of("Monitor <noreply@monitor.gridco-demo.net>",
                   "[Daily] Network availability report 04.03", body) is not Lane.PUSH


def test_estonian_not_urgent_is_calm() -> None:
    # ("täna", today, and an ask would interrupt)
    body = "Kas sa saaksid täna eelarve üle vaadata? Pole kiire."
    assert lane_of("Kadri <kadri.lepp@postkast.net>", "eelarve", body) is Lane.QUEUE


def test_thanks_for_today_is_no_time_now() -> None:
    body = ("Thank you and your team for today, everything ran on time. Can your operator "
            "prepare the still image for the 24th?")
    assert lane_of("Riin <riin@events-demo.net>", "Feedback", body) is Lane.QUEUE


def test_a_24_hour_time_without_a_colon_is_a_clock_time() -> None:
    body = ("The culvert on Ridge Rd washed out and the road is closed. I need a supervisor on "
            "site by 0630 to sign the detour plan.")
    assert lane_of("Dale <dale@ridgecounty-roads.net>", "washout on Ridge Rd", body) is Lane.PUSH


def test_a_freephone_number_is_no_clock_time() -> None:
    body = "The culvert washed out. Please call the depot at 0800 555 0190 about the detour plan."
    assert lane_of("Dale <dale@ridgecounty-roads.net>", "washout", body) is Lane.QUEUE


@pytest.mark.parametrize(("subject", "body"), [
    ("Talvejoped -30%", "Kõik talvejoped -30%. Pakkumine kehtib kuni 15.02. Loobu uudiskirjast"),
    ("Rehvivahetus soodushinnaga", "Rehvivahetus soodushinnaga 39 €. Ei soovi enam kirju? Loobu "
     "siit."),
])
def test_an_estonian_shop_offer_is_marketing(subject: str, body: str) -> None:
    assert lane_of("Talvepood <uudised@talvepood.net>", subject, body) in HIDDEN_LANES


def test_an_estonian_suppliers_quote_is_not_marketing() -> None:
    body = ("Tere Toomas, lisatud hinnapakkumine liivaautode kohta. Pakkumine kehtib 30 päeva. "
            "Kas sobib?")
    assert lane_of("Priit <priit@teehooldus.net>", "Hinnapakkumine", body) not in HIDDEN_LANES


@pytest.mark.parametrize(("sender", "subject", "body"), [
    ("Carol <carol.pike@homemail.net>", "Mom", "Mom passed about an hour ago at the house. The "
     "hospice nurse is here. Please let us know when someone can come for her tonight."),
    ("Fire Prevention <inspector@harborfire-district.net>", "Harbor Theatre - blocked exit",
     "At tonight's inspection the queue was blocking the east exit door. This must be "
     "corrected before the 8:00 pm show."),
])
def test_let_us_know_and_a_demand_with_its_deadline_ask(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_norwegian_leke_to_play_is_no_estonian_leak() -> None:
    body = "Barna vil leke hos oss etter skolen. Kan du hente dem?"
    assert lane_of("Kari <kari.berg@epost-demo.net>", "barna", body) is Lane.QUEUE


# -- the sixty-second to sixty-fourth passes (docs/results.md): each case is QUEUE or INFO
# at the judge before them (9689449), so each can fail.

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # Georgian: wine leaked from a jar, the cellar flooded; call me, please
    ("Nika <nika@vinery.example>", "მარანში გაჟონვაა",
     "ქვევრიდან ღვინო გაჟონა, სარდაფი დატბორა. დამირეკე, გთხოვ."),
    # Kannada: an accident on line 2, someone taken to hospital; please call
    ("Ravi <ravi@plant.example>", "ಅಪಘಾತ - ಲೈನ್ 2",
     "ಲೈನ್ 2 ರಲ್ಲಿ ಅಪಘಾತ ಆಗಿದೆ, ಒಬ್ಬರನ್ನು ಆಸ್ಪತ್ರೆಗೆ ಕರೆದುಕೊಂಡು ಹೋಗಿದ್ದೇವೆ. ದಯವಿಟ್ಟು ಕರೆ ಮಾಡಿ."),
    # Serbian in Cyrillic: URGENT, a pipe burst in the warehouse; call me at once
    ("Marko <marko@firma.example>", "ХИТНО: пукла цев у магацину",
     "Пукла је цев у магацину, вода тече по роби. Позови ме одмах."),
    # Afrikaans: the main pipe burst, water over the stock; call me at once, please
    ("Koos <koos@plaas.example>", "Pyp gebars in die stoor",
     "Die hoofpyp in die stoor het gebars en die water loop oor die voorraad. "
     "Bel my asseblief dadelik."),
    # a sensor's reading over its threshold; the reader's flight cancelled
    ("Monitor <alerts@sensors.example>", "CO2 above threshold - meeting room 4",
     "CO2 level 2,400 ppm, above threshold (1,500 ppm) for 20 minutes. Ventilation unit 2 "
     "not responding."),
    ("Airline <noreply@flyair.example>", "Your flight FA 212 to Oslo has been cancelled",
     "We are sorry: your flight FA 212 from Rome to Oslo tomorrow at 07:10 has been "
     "cancelled. Choose a new flight or a refund in Manage booking."),
])
def test_trouble_in_the_passes_new_words_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


def test_a_customer_asking_about_an_order_without_you_is_not_a_receipt() -> None:
    lane = lane_of("Tom Baker <tom.baker@gmail.com>", "Order #5521 - lamp arrived cracked",
                   "Hi, my order #5521 arrived today and the lamp base is cracked. Would it be "
                   "possible to send a new one?")
    assert lane is Lane.QUEUE


def test_the_digital_arrest_script_does_not_push() -> None:
    lane = lane_of("Cyber Cell <notice@cyber-cell.example>", "Your SIM will be blocked in 2 hours",
                   "Your number has been reported for illegal activity. Your case will be "
                   "transferred to the police unless you call the officer on +91 00000 00000 "
                   "immediately.")
    assert lane is not Lane.PUSH and lane not in HIDDEN_LANES


# -- the sixty-fifth pass (docs/results.md): Turkish, Marathi and Hindi. Each pushing case
# is QUEUE at the judge before it (763651e), so each can fail.

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # Turkish: water coming through the ceiling; can you come?
    ("Ahmet Şahin <ahmet.sahin@example.com>", "Tavandan su geliyor!",
     "Banyomuzun tavanından su damlıyor, sigortayı kapattım. Siz gelebilir misiniz?"),
    # Turkish in capitals ("ACİL" folds to "i" and a combining dot): a fault, the power cut
    ("OSB Enerji <enerji@osb-yonetim.example>", "ACİL: trafo merkezinde arıza",
     "Bugün saat 10:12'de arıza meydana geldi, elektrik kesildi. Lütfen jeneratörleri "
     "kontrol edin."),
    # Marathi: father slipped in the bathroom and was taken to hospital; let me know
    ("माधव <madhav.d@example.com>", "बाबा बाथरूममध्ये पडले",
     "आज सकाळी बाबा घसरून पडले. आम्ही त्यांना हॉस्पिटलमध्ये नेले आहे. कृपया लगेच कळवा."),
    # Hindi: a fire in the warehouse, please call at once
    ("राजेश <rajesh@godown.example>", "गोदाम में आग",
     "गोदाम में आग लगी है, दमकल बुला ली है। कृपया तुरंत फोन करें।"),
])
def test_turkish_marathi_and_hindi_trouble_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # Marathi: grandmother ("आजी", which opens with "आज", today) is coming on Sunday
    ("आजी येत आहे", "आजी रविवारी येणार आहे. कृपया तिच्यासाठी खोली तयार ठेवा."),
    # Marathi: anger ("संताप", which ends with "ताप", a fever) in a book club's note
    ("पुस्तक चर्चा", "या कादंबरीतला नायकाचा संताप खूप छान लिहिला आहे. पुढच्या महिन्यात भेटू."),
])
def test_marathi_words_inside_longer_words_do_not_push(subject: str, body: str) -> None:
    assert lane_of("स्नेहा <sneha@example.com>", subject, body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # Polish: I cannot get through; no heating at father's, minus 24 tonight
    ("Halina Mróz <halina.mroz@poczta.example>", "Tata - nie ma ogrzewania",
     "Piszę, bo nie mogę się dodzwonić. U Pana Henryka zgasł piec, w domu jest 9 stopni. "
     "Niech Pani zadzwoni do niego."),
    # isiZulu: a burst main flooding the road; please call me now
    ("Mandla Khumalo <mandla@civils.example>", "Ipayipi eliqhumile",
     "Ipayipi elikhulu liqhumile, amanzi agcwele umgwaqo. Ngicela ungifonele manje."),
    # Telugu: water is coming into the cellar, the ambulances are inside; please tell me
    ("Ravi Kumar <ravi.kumar@hospital.example>", "సెల్లార్‌లో మళ్లీ నీళ్లు",
     "సెల్లార్ పార్కింగ్‌లో మళ్లీ నీళ్లు వస్తున్నాయి. రెండు అంబులెన్సులు లోపలే ఉన్నాయి. దయచేసి "
     "చెప్పండి."),
])
def test_polish_isizulu_and_telugu_trouble_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # Turkish "acil" naming the emergency department, an emergency plan, express delivery
    ("Kış dönemi acil servis yoğunluğu hakkında", "Son bir haftada acil servis başvurularımız "
     "%40 artmıştır. Ek nöbet listesi uygulanacaktır."),
    ("Jeneratör yakıt anlaşması - teklifler", "Üç teklif geldi: acil teslim 6 saat garantili. "
     "Cuma gününe kadar hangisini seçelim?"),
])
def test_turkish_acil_naming_a_department_or_a_delivery_does_not_push(
        subject: str, body: str) -> None:
    assert lane_of("Burcu Kalkan <burcu@hastane.example>", subject, body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # Hindi: the generator is burning, come quickly and tell me (the danda closes the word)
    ("Vikram Singh <vikram@coldstore.example>", "जनरेटर में आग",
     "भैया, जनरेटर से धुआँ निकल रहा है और बिजली पूरी बंद है। जल्दी बताइए।"),
    # Hindi: the bank wants the form by 3 o'clock; please sign and send it
    ("Meera Tiwari <meera@mills.example>", "फ़ॉर्म 3 बजे तक चाहिए",
     "बैंक वालों को फ़ॉर्म 3 बजे तक चाहिए। कृपया साइन करके भेज दीजिए।"),
    # Punjabi: the tanker overturned; come at once
    ("Harjit Kaur <harjit@transport.example>", "ਟੈਂਕਰ ਪਲਟ ਗਿਆ",
     "ਹਾਈਵੇ ਤੇ ਟੈਂਕਰ ਪਲਟ ਗਿਆ ਹੈ। ਤੁਰੰਤ ਆ ਜਾਓ।"),
    # Tamil: the line has stopped, not working; can you tell me by 3 o'clock?
    ("K. Ravi <ravi@pumps.example>", "லைன் நின்றுவிட்டது",
     "மெஷின் வேலை செய்யவில்லை. 3 மணிக்குள் என்ன செய்வது என்று சொல்லுங்கள்."),
    # Turkish: announce it to the staff at once; we must decide within an hour
    ("Ahmet Kılınç <ahmet@ilaclama.example>", "Depo 3 - kimse girmesin",
     "Depo 3'te ilaçlama başladı. Personele hemen duyurun, bir saat içinde karar vermemiz lazım."),
    # a cloud provider's alert: a key published in a public repository, act now
    ("Nimbus Security <security-alerts@nimbus.example>", "Action required: key exposed publicly",
     "An access key for your account was published in a public code repository on 3 May. "
     "Please rotate it now."),
])
def test_the_sixty_seventh_pass_urgency_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("subject", "body"), [
    # a seller's "call today" and an approval "in 48 hours" are no deadline of the reader's
    ("सोलर पैनल पर 30% छूट", "आज ही कॉल करें। 48 घंटे में मंज़ूरी। ऑफ़र 31 मार्च तक।"),
    # "for" ("के लिए") ends in the polite imperative's letters and asks nothing
    ("मीटिंग के नोट्स", "अगले हफ़्ते की मीटिंग के लिए नोट्स संलग्न हैं। कोई जल्दी नहीं है।"),
])
def test_hindi_sellers_today_and_a_bare_for_do_not_push(subject: str, body: str) -> None:
    assert lane_of("Seva Solar <offers@seva-solar.example>", subject, body) is not Lane.PUSH


# -- the sixty-eighth pass (docs/results.md): Hungarian, Gujarati and Urdu. Each pushing case
# is QUEUE at the judge before it (0eb536e), so each can fail.

@pytest.mark.parametrize(("sender", "subject", "body"), [
    # Hungarian: a fire in the dryer, the firefighters are here; call me
    ("Papp Dániel <daniel.papp@malom.example>", "tűz a szárítóban",
     "A szárítóban tűz van, a tűzoltók már itt vannak. Kérlek hívj fel."),
    # Hungarian: the system closes at midnight today, three invoices missing; please send them
    ("Halmi Judit <halmi.judit@alap.example>", "Elszámolás",
     "A rendszer ma éjfélkor lezár, és még hiányzik három számla. Kérem, küldje el őket."),
    # Hungarian: dad fell, the ambulance took him to hospital; call me
    ("Anyu <anyu.kovacs@posta.example>", "Apád elesett",
     "Apád elesett a kertben, a mentő bevitte a kórházba. Hívj fel amint tudsz."),
    # Gujarati: a gas smell in the kitchen, the valve is shut; please phone
    ("ભરત <bharat@rasoi.example>", "રસોડામાં ગેસની વાસ",
     "રસોડામાં ગેસની વાસ આવે છે, મેં વાલ્વ બંધ કર્યો છે. કૃપા કરીને ફોન કરો."),
    # Gujarati: the parcel is held at customs; send the invoice by 5 o'clock (Gujarati digit)
    ("કેતન <ketan@courier.example>", "પાર્સલ કસ્ટમમાં",
     "પાર્સલ કસ્ટમમાં રોકી રાખ્યું છે. ૫ વાગ્યા સુધીમાં ઇન્વૉઇસ મોકલો."),
    # Urdu: the uncle has just phoned, mother is in hospital; please tell me
    ("عمران <imran@family.example>", "امی",
     "ابھی ماموں کا فون آیا ہے، امی ہسپتال میں داخل ہیں۔ براہ کرم بتائیں۔"),
])
def test_the_sixty_eighth_pass_urgency_pushes(sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("body", "pushed"), [
    # Hungarian: "not urgent" outweighs this afternoon's ask
    ("Nem sürgős, de kérlek nézd meg ma délután a számlát.", False),
    ("Kérlek nézd meg ma délután a számlát.", True),
    # Hungarian "heti" (weekly) after "múlt" (last) is no Finnish "heti" (at once)
    ("A múlt heti szállítás még nem jött meg. Kérem hívjon vissza.", False),
    ("A szállítás még nem jött meg, heti. Kérem hívjon vissza.", True),
    # Portuguese "câmara" (the council) holds no Hungarian "mára" (by today)
    ("I phoned the câmara twice. Could you tell me when it will be removed?", False),
    ("I phoned them today twice. Could you tell me when it will be removed?", True),
])
def test_hungarian_words_read_only_where_they_are_hungarian(body: str, pushed: bool) -> None:
    assert (lane_of("Kiss Anna <anna@iroda.example>", "Számla", body) is Lane.PUSH) is pushed


@pytest.mark.parametrize(("sender", "subject", "body"), [
    # Latvian: the power is gone, the kitchen is not working; please call
    ("Jānis Ozols <janis@viesnica.example>", "Elektrība",
     "Elektrība pazuda 02:05, virtuve nestrādā. Lūdzu piezvani."),
    # Lithuanian: the freezer is not working, the meat is thawing; call
    ("Rasa <rasa@sodyba.example>", "šaldiklis", "Didysis šaldiklis neveikia, mėsa tirpsta. "
     "Paskambink."),
    # Slovenian: the power went out in the whole hall; please call at once
    ("Andrej <andrej@stol.example>", "Stiskalnica",
     "Zmanjkalo elektrike v celi hali. Prosim, pokliči takoj."),
    # Albanian: the boiler is not working, 9 degrees in the classrooms; please come today
    ("Arben <arben@shkolla.example>", "Kaldaja",
     "Kaldaja nuk punon, në klasa janë 9 gradë. Ju lutem ejani sot."),
    # Bulgarian: after the crash the van stands on the motorway; please call
    ("Ради <radi@farma.example>", "Катастрофа на Тракия",
     "След катастрофата колата стои на магистралата. Моля, обади се."),
    # Macedonian: the pipe burst, water runs into the rooms; come at once
    ("Ана <ana@hotel.example>", "Пукна цевка",
     "Пукна цевката во бањата, тече вода во собите. Дојдете веднаш."),
    # Bulgarian: inspectors at the gate; can you come within 30 minutes?
    ("М. <m@farma.example>", "На портала са",
     "На портала са двама инспектори. Можеш ли да дойдеш до 30 минути?"),
    # Macedonian: the boiler won't start; I need an answer before 7 o'clock
    ("Зоран <zoran@uciliste.example>", "Котелот не пали",
     "Котелот не тргнува, во училниците има 9 степени. Ми треба одговор пред 7 часот."),
    # Slovenian: part of the roof caved in, a cow breathes hard, firefighters on the way
    ("Špela <spela@kmetija.example>", "hlev",
     "Udrl se je del strehe, krava težko diha. Gasilci so na poti. Prosim pridite."),
    # Latvian: the captain wants to finish loading tonight; I need your decision
    ("Sergejs <sergejs@osta.example>", "krāns",
     "Kapteinis grib pabeigt iekraušanu šovakar. Vajag tavu lēmumu."),
])
def test_baltic_slovenian_albanian_bulgarian_macedonian_trouble_pushes(
        sender: str, subject: str, body: str) -> None:
    assert lane_of(sender, subject, body) is Lane.PUSH


@pytest.mark.parametrize(("sender", "body", "pushed"), [
    # "not urgent" in Latvian and Bulgarian outweighs the ask; without it, "urgent" pushes
    ("Jānis Ozols <janis@viesnica.example>", "Nav steidzami, bet lūdzu piezvani par rēķinu.",
     False),
    ("Jānis Ozols <janis@viesnica.example>", "Steidzami, lūdzu piezvani par rēķinu.", True),
    ("Ради <radi@farma.example>", "Не е спешно, но моля обади се за фактурата.", False),
    ("Ради <radi@farma.example>", "Спешно, моля обади се за фактурата.", True),
])
def test_latvian_and_bulgarian_urgency_denied_does_not_push(sender: str, body: str,
                                                             pushed: bool) -> None:
    assert (lane_of(sender, "Rēķins", body) is Lane.PUSH) is pushed


def test_a_macedonian_time_range_on_thursday_is_no_near_deadline() -> None:
    # "од 9 до 12 часот" (from 9 to 12 o'clock) on Thursday: when, not a limit
    body = ("Би сакала со 4-б да го посетиме музејот во четврток од 9 до 12 часот. "
            "Ви треба одобрение?")
    assert lane_of("Ивана <ivana@uciliste.example>", "Посета на музеј", body) is not Lane.PUSH


@pytest.mark.parametrize(("sender", "subject", "body", "pushed"), [
    # Turkish: fell in the playground and is dizzy; can you come to school?
    ("Ayşe Öğretmen <ayse@okul.example>", "Efe - revir",
     "Efe teneffüste bahçede düştü, başı dönüyor. Okula gelebilir misiniz?", True),
    # Turkish: the paint oven raised an alarm and shut itself down; can you come?
    ("Tarık <tarik@fabrika.example>", "Fırın",
     "Boya fırını alarm verdi ve kendini kapattı. Ne yapalım, gelebilir misiniz?", True),
    # Turkish: the factory's power was cut; an invoice "kesildi" (issued) is no trouble
    ("Muhasebe <muhasebe@firma.example>", "Fatura",
     "Fabrikanın elektriği kesildi. Kontrol edip onaylayabilir misiniz?", True),
    ("Muhasebe <muhasebe@firma.example>", "Fatura",
     "Mart faturanız kesildi. Kontrol edip onaylayabilir misiniz?", False),
])
def test_turkish_falls_stops_and_cuts(sender: str, subject: str, body: str,
                                      pushed: bool) -> None:
    assert (lane_of(sender, subject, body) is Lane.PUSH) is pushed


def test_a_sellers_call_now_in_turkish_does_not_push() -> None:
    body = ("Kiralık ısıtıcılarda şok fiyatlar! Teklif için hemen arayın. Listeden çıkmak için "
            "tıklayın.")
    assert lane_of("IsıPro <bilgi@isipro.example>", "Şok fiyatlar", body) is not Lane.PUSH
