"""The local scorer: the four features with no model at all.

It reads the deterministic signals plus a few kinds of evidence that hold across
languages — time pressure, explicit urgency, incidents, requests — and turns them into
numbers with fixed, documented weights. It is deliberately not a phrase list per lane: the
policy, not this file, picks lanes.

Evidence tiers for urgency:
  strong   explicit urgency (urgent, ASAP, action required, 긴급 ...), an incident (down,
           outage, failing), or a deadline word next to a near time (due Friday, deadline
           tomorrow, expires today), or a near time next to a request (need X today).
           -> 0.85: enough for PUSH when the sender is not bulk.
           Trouble told in plain words (failed, held, stuck, an alarm going off, someone
           hurt) with a request or a near time -> 0.8.
  moderate a near time or a deadline word alone, or a request due days away (tomorrow,
           a weekday) with no deadline word: something to answer, not to interrupt -> 0.5.
           So is urgent wording whose only date is another day ("URGENT: alarm test
           Thursday"), unless trouble, a security notice or a near time comes with it;
           urgent wording about something over ("resolved", "abgeschlossen") with no new
           ask or near time is 0.3.
  none     -> 0.15; "no action needed" / FYI caps urgency at 0.3.
A machine's alarm naming itself in capitals at the head of its subject ("FIRE ALARM: ...",
"PUMP FAULT - ...") is an incident, unless account words come with it.
A robot's urgent wording or deadline is a notice (0.5) unless it asks something, reports
trouble, or comes from the reader's own organisation, authenticated (`same_org`). A
provider's notice of an account incident is 0.5 (QUEUE), and 0.8 when the receiving server
authenticates it as the named brand's own domain (`brand_verified`) and the provider does not
say it blocked the attempt. Urgent
words in the sender's own name ("Emergency Fleet Services Ltd") are not read.
Only the subject and the opening of the body count as evidence (OPENING_CHARS).
Promotional pressure ("today only", "last chance") is not urgency: marketing mail gets 0.1;
0.3 with explicit urgency ("URGENT: 40% off ends tonight", a record: INFO, never SILENT);
0.5 when account words come with it (a security notice: a phish dressed as a promotion
stays in the queue).
A second reader, the word model (core/word_model.py), may overrule the rules at the far ends
only (`_second_reading`): a veto of urgency it all but rules out, a promotion of urgency it
is nearly sure of where the rules read nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from mailmoat.core.evidence import ACCOUNT_ASK, ALARM_SUBJECT, SIGN_IN_ASK
from mailmoat.core.features import Features
from mailmoat.core.message import Message
from mailmoat.core.patterns import (
    ARABIC,
    CYRILLIC,
    DEVANAGARI,
    GEORGIAN,
    GUJARATI,
    GURMUKHI,
    KANNADA,
    LATIN,
    TAMIL,
    PatternSet,
    ReadWhenAsked,
    alternatives,
    as_searched,
    greek,
    latin_words,
    matcher,
    script_words,
    word_ends,
)
from mailmoat.core.policy import THRESHOLDS
from mailmoat.core.signals import (
    PERIODIC_REPORT,
    URGENCY_CHARS,
    Signals,
    Texts,
    in_scope,
    read_texts,
)
from mailmoat.core.text import fold
from mailmoat.core.word_model import (
    PROMOTE_AT,
    PROMOTE_MIN_KNOWN,
    QUIET_VETO_AT,
    RAISE_AT,
    VETO_AT,
    VETO_MIN_KNOWN,
    Reading,
    read_urgency,
)

LOCAL_SOURCE = "local"

# Hungarian today: "ma" with a time of the day or a limit ("ma délután", "ma este", "ma 16
# óráig"), "még ma" (still today), "a mai napon"; "ma" alone is a syllable of too many
# other languages' words and names
_HU_TODAY = (r"ma (?:d[eé]lut[aá]n|d[eé]lel[oő]tt|este|[eé]jjel|[eé]jf[eé]l\w*|reggel|estig|"
             r"d[eé]lig|\d{1,2}(?:[:.]\d\d)? ?[oó]r\w*)|m[eé]g ma|a mai nap\w*")
_EXPLICIT_URGENT = alternatives(
    r"\b(?:urgent(?:ly)?|asap|immediately|emergency|action (?:required|needed)|time[- ]sensitive|"
    r"right away|as soon as possible|critical|high[- ]severity|severity:? (?:high|critical|page)|"
    r"immediate action|"
    r"dringend|sofort|umgehend|urgente|de inmediato|"
    r"inmediatamente|tout de suite|immédiatement|sans délai|sin demora|unverzüglich|"
    r"lo antes posible|cuanto antes|lo más pronto posible|dès que possible|au plus vite|"
    r"le plus vite possible|so schnell wie möglich|schnellstmöglich|sofortige[nr]?|"
    r"umgehende[nr]?|en urgence|pilne|pilnie|natychmiast|jak najszybciej)\b",
    # an order to get away: "residents must leave now", "evacuate now"
    r"\b(?:leave|evacuate|get out) now\b",
    r"긴급|급히|급합니다|즉시|당장|지금 바로|"
    # "빨리" with what is asked: answer, come, call, decide ... quickly
    r"빨리 (?:좀 )?(?:답|회신|확인|처리|부탁|와|오|나와|가 ?주|연락|전화|정해|결정|알려|보내|말해)",
    # "できるだけ早く", "なるべく早めに": as early as one can
    r"至急|緊急|大至急|早急に|すぐに|できるだけ早(?:く|め)|なるべく早(?:く|め)",
    # Italian, Romanian, Portuguese and Ukrainian/Russian: the commonest words ("\\b" is
    # ASCII-only in RE2: words ending in a letter with a diacritic sit outside it)
    r"\b(?:urgentemente|subito|immediatamente|il prima possibile|quanto prima|con urgenza|"
    r"appena possibile|"
    r"emergenza|imediat|de urgen[țţ]ă|c[âa]t mai (?:repede|curând|curand)|urgen[țţ]ă|"
    r"o mais (?:rápido|rapido|breve) possível|imediatamente|emergência)",
    r"терміново|негайно|невідкладно|якнайшвидше|срочно|немедленно|как можно скорее",
    # Greek and Swahili: urgent, at once, as soon as possible, an emergency
    greek("επείγον|επειγόντως|επείγουσα|επείγοντα|κατεπείγον|αμέσως|το συντομότερο|"
          "το γρηγορότερο|έκτακτη ανάγκη"),
    r"\b(?:haraka|dharura|upesi)\b",
    # Basque, Arabic and Moroccan Arabic written in Latin letters
    r"\b(?:premiazkoa|presazkoa|berehala|lehenbailehen|ahalik eta lasterren|dghya|degya|"
    r"bzerba|bzreba|daba daba)\b",
    r"عاجل|طارئ|فورا|فوراً|حالا|حالاً|في أقرب وقت|بأسرع وقت",
    # Dutch
    r"\b(?:spoed|met spoed|onmiddellijk|zo snel mogelijk|per direct|nu meteen)\b|\bz\.s\.m\.",
    # Croatian (and its neighbours), European Portuguese ("\\b" before ASCII letters only)
    r"\b(?:hitno|odmah|hitan slučaj|hitnu odluku|com urgência|o mais depressa possível)\b|"
    r"žurno|što prije|što hitnije|čim prije|čim vidiš",
    # Irish
    r"\b(?:práinneach|go práinneach|láithreach)\b|éigeandáil",
    r"\bkritičn(?:a|o|e|i|u) (?:vrijednost|stanje)\w*",
    # Finnish and Swedish ("tämä ei ole harjoitus": this is not a drill)
    r"\b(?:kiireellinen|kiireellisesti|kiireesti|välittömästi|pikaisesti|hätätilanne|"
    r"tämä ei ole harjoitus|this is not a drill|brådskande|omedelbart|akut|mahdollisimman pian|"
    r"så (?:snart|fort) som möjligt|snarast(?: möjligt)?|omgående)\b",
    # Estonian: urgent, urgently, critical, an emergency ("kiire" alone is also "fast")
    r"\b(?:kiireloomuli\w+|kiiresti|kriitiline|hädaolukor\w+)\b",
    # Galician: urgent, as soon as possible ("\\b" is ASCII-only: "axiña" ends outside it)
    r"\b(?:urxente\w*|urxencia|canto antes|o antes posible)\b|\b(?:o máis )?axiña(?:[^a-z]|$)",
    # Malay and Indonesian: at once, as soon as possible, an emergency
    r"\b(?:segera|dengan segera|secepat mungkin|secepatnya|sesegera mungkin|kecemasan|"
    r"darurat)\b",
    # Danish and Norwegian: it is urgent, at once, as soon as possible, an emergency, this is
    # not a drill
    r"\b(?:det haster|haster|hastende|omgående|hurtigst muligt?|snarest muligt?|"
    r"snarest|nødsituation|nødstilfælde|dette er ikke en øvelse)\b",
    # Czech and Slovak, with and without their accents (mail is often typed without them):
    # urgent, at once, as soon as possible, it's pressing ("spěchá"; not "nespěchá")
    latin_words(r"urgentn[ií]|urgentn[eě]|nal[eé]hav[eéáayý]|nal[eé]hav[eě]|"
                r"naliehav[eéáayý]|naliehavo|neodkladn[eěáayý]|bezodkladn[eěáayý]|"
                r"okam[zž]it[eě]|okam[zž]ite|ihned|co nejd[rř][ií]v(?:e)?|co nejrychleji|"
                r"co najsk[oô]r|co najr[yý]chlejšie|s[uú]rn[eéyýa]|sp[eě]ch[aá]|"
                r"hav[aá]rijn[ií]"),
    r"(?:^|[ \n(])čo (?:najsk[oô]r|najr[yý]chlejšie)",
    # Serbian (in Cyrillic; its Latin letters are in the Croatian line above), Afrikaans:
    # urgent, at once, as soon as possible, without delay, an emergency
    # (plain words: a consumed boundary before each costs the urgency pass a twentieth; "што
    # пре", as soon as, alone is also "нешто пре", something before)
    r"хитно|хитан|одмах|што пре могуће|што хитније|без одлагања|što pre moguće|"
    r"\b(?:sto pre moguce|bez odlaganja|onmiddellik|dadelik|so gou moontlik|noodgeval)\b",
    # Kannada and Georgian: urgent, at once, as soon as possible, an emergency ("right now",
    # "ახლავე", "ಈಗಲೇ", and "immediately", "ತಕ್ಷಣ", are as often a lure's or a thank-you's)
    r"ತುರ್ತು|ಕೂಡಲೇ|ಆದಷ್ಟು ಬೇಗ|"
    r"სასწრაფო|დაუყოვნებლივ|რაც შეიძლება მალე|საგანგებო|გადაუდებ",
    # Turkish: urgently, "URGENT:", very urgent, at once, without delay, as soon as possible
    # ("ACİL" folds to "aci", a combining dot above and "l": "İ" casefolds to two code
    # points). Not "acil" alone: it names the emergency department, an emergency plan and
    # express delivery ("acil servis", "acil durum planı", "acil teslim") as often.
    "\\bac(?:i|i\u0307)len\\b|\\bac(?:i|i\u0307)l ?[:!]|(?:çok|\\bcok) ac(?:i|i\u0307)l\\b|"
    "\\bac(?:i|i\u0307)l (?:olarak|dönüş|cevap|yanıt)|"
    r"\b(?:derhal|ivedi(?:lik|likle)?|en kısa sürede|en kısa zamanda|bekletmeden)\b",
    # ... and "hemen", at once, with what is asked ("hemen duyurun", "yazar mısın hemen"; not
    # "hemen hemen", almost, nor a seller's "hemen arayın", call now, unless it is "me")
    r"\bhemen (?:dön|dönün|gel|gelin|yaz|yazın|duyur|duyurun|bildir|bildirin|haber ver|"
    r"haber verin)\b|\b(?:beni hemen|hemen beni) ara|\b(?:yazar|arar|döner|gelir) "
    r"m[ıi]s[ıi]n(?:[ıi]z)? hemen\b",
    # Urdu: urgent, as soon as possible, an emergency (its "فوراً" is the Arabic one above)
    word_ends("فوری|جلد از جلد|ایمرجنسی", ARABIC),
    # Gujarati: urgent, immediately, an emergency, at once, as soon as possible, come quickly
    word_ends("તાત્કાલિક|અરજન્ટ|ઇમરજન્સી|ઈમરજન્સી|તરત|તરત જ|બને એટલું જલદી|બને તેટલું જલદી|"
              "જલદી આવો|જલ્દી આવો|જલદી આવી જાઓ|જલ્દી આવી જાઓ", GUJARATI),
    # Tamil: urgent, urgently, immediately
    "அவசரம்|அவசரமாக|உடனடியாக",
    # Marathi and Hindi: urgently, at once, as soon as possible, an emergency
    word_ends("तातडीने|तातडीचे|तातडीची|तातडीचा|ताबडतोब|लवकरात लवकर|आणीबाणी|तुरंत|फौरन|"
              "अत्यावश्यक|जल्द से जल्द|जितनी जल्दी हो सके|आपातकाल|"
              # Hindi "जल्दी", quickly, with what is asked: come, tell, call, send, decide
              "जल्दी (?:से )?(?:आ जाइए|आ जाइये|आ जाओ|आइए|आइये|आओ|बताइए|बताइये|बताएं|बताओ|"
              "फोन करें|फोन करो|\u092b\u093cोन करें|\u092b\u093cोन करो|भेजिए|भेजो|पहुँचो|"
              "पहुंचो|पहुँचिए|पहुंचिए)", DEVANAGARI),
    # Punjabi: at once, immediately, as soon as possible, quickly come / tell / call
    word_ends("ਤੁਰੰਤ|ਫੌਰਨ|ਫ਼ੌਰਨ|ਜਿੰਨੀ ਜਲਦੀ ਹੋ ਸਕੇ|ਜਲਦੀ ਤੋਂ ਜਲਦੀ|ਜਲਦੀ (?:ਆ ਜਾਓ|ਆਓ|ਦੱਸੋ|"
              "ਫੋਨ ਕਰੋ|ਫ਼ੋਨ ਕਰੋ)", GURMUKHI),
    # Latvian, Lithuanian, Slovenian and Albanian: urgent, urgently, at once, without delay,
    # as soon as possible, an emergency
    latin_words(r"steidzami|steidzams|steidzama|nekav[eē]joties|t[uū]l[iī]t|p[eē]c iesp[eē]jas "
                r"[aā]tr[aā]k|skubiai|skubus|skubi|nedelsiant|kuo (?:skubiau|grei[cč]iau)|nujno|"
                r"nujna|nujen|takoj|brez odla[sš]anja|urgjent|urgjente|menj[eë]her[eë]|"
                r"sa m[eë] shpejt|emergjenc\w*"),
    # Bulgarian and Macedonian: urgently, urgent, at once, immediately, as soon as possible
    script_words("спешно|спешен|спешна|спешни|незабавно|веднага|възможно най-скоро|итно|итна|"
                 "итен|веднаш|што поскоро|најбрзо што", CYRILLIC),
    # Hungarian: urgent, urgently, at once, immediate, right away, without delay, as soon as
    # possible, an emergency (not "sürgősségi", the emergency ward: trouble, `_TROUBLE`)
    latin_words(r"s[uü]rg[oő]s|s[uü]rg[oő]sen|azonnal|azonnali|r[oö]gt[oö]n|halad[eé]ktalanul|"
                r"min[eé]l el[oő]bb|min[eé]l hamarabb|mihamarabb|mi[eé]l[oő]bb|v[eé]szhelyzet"),
    # isiZulu and Telugu: urgently, it is urgent, at once
    r"\b(?:ngokushesha|kuyaphuthuma|kuphuthuma|ngokuphuthumayo|masinyane)\b",
    # ("వెంటనే", at once, is as often a lure's: "pay at once or the power is cut")
    r"అత్యవసర|తొందరగా",
)
_INCIDENT = alternatives(
    r"\b(?:is down|went down|are down|outage|failing|broken|not working|incident|sev ?[12]|"
    r"data loss|breach|unusual transaction|unauthori[sz]ed|fraud|suspicious (?:activity|"
    r"sign-?in|log-?in|forwarding|inbox rule|(?:e-?)?mail forwarding|transaction)|"
    # a mailbox made to forward mail out: "a new forwarding address was added"
    r"forward\w* (?:\w+ ){0,3}(?:to (?:an? )?external|outside (?:your|the) (?:organi[sz]ation|"
    r"domain|company))|suspicious (?:\w+ ){0,2}(?:forwarding|inbox rules?|e-?mail sending)|"
    r"forwards? messages [^.\n]{0,80}?to an external (?:address|mailbox|recipient)|"
    r"creation of (?:a )?(?:forwarding|redirect)(?:/redirect)? rule|"
    # a red warning, as "severe weather warning" in English
    r"aviso vermelho|alerta vermelho|allerta rossa|avviso di burrasca|alert[ăa] ro[șş]ie|"
    r"cod ro[șş]u|alerte rouge|vigilance rouge|alerta roja|rote warnung|"
    r"(?:forwarding address|forwarding rule|inbox rule|mail filter) (?:was |has been )?(?:added|"
    r"created|set up)|(?:filter|rule) (?:was )?created that forwards|flash floods?|"
    r"(?:can'?t|cannot|unable to) "
    r"(?:reach|connect|access|log ?in|sign ?in|ship|deliver)|stopped working|leaked|"
    # something exposed (not "frostbite on exposed skin", "not cold-exposed for long")
    r"(?:data|credentials?|passwords?|keys?|records|database|bucket|files|information|secrets?|"
    r"tokens?|details|server|port|share|folder) (?:\w+ )?(?:was |were |been |is |are |got )?"
    r"(?:publicly )?exposed|exposed (?:to|on) the (?:internet|web|public)|"
    r"(?:has|have|had) been exposed|"
    # a secret found in public: "published in a public code repository", "exposed publicly"
    r"(?:published|found|pushed|committed|leaked) (?:to|in|on) (?:a )?public (?:code )?"
    r"(?:repositor(?:y|ies)|repo|github)|exposed publicly|publicly (?:exposed|accessible)|"
    r"costing us|(?:is|are) (?:stuck|on the (?:phone|line)|(?:waiting )?(?:at reception|"
    r"in the lobby|downstairs|outside))|ransomware|malware (?:detected|found|alert)|"
    r"(?:under|active) attack|acknowledged:? no|unacknowledged|not acknowledged|"
    # a pager's own words: "acknowledge within 15 min or this escalates", "(no ACK)"
    r"acknowledge (?:within|in) \d+ ?min\w*|escalat\w* to (?:the )?(?:secondary|next|level 2|"
    r"backup)|\(no ack\)|you are (?:the )?(?:primary|secondary) on-?call|(?:state|status|"
    r"상태):? down|(?:held|paused|blocked|stopped) (?:a |your |this |the )?(?:card )?(?:payment|"
    r"transaction)|we(?:'ve| have) held it|state change:? ok ?-?> ?alarm|threshold crossed|"
    r"ack(?:nowledgement)? pending|(?:placed|put) (?:a )?(?:temporary )?hold on (?:your|the)|"
    r"declined (?:a|your|this) (?:[$£€]?[\d,.]+ )?(?:transaction|payment|purchase)|"
    r"double[- ]charged|charged twice|duplicate (?:debit|charge|"
    r"payment)s?|completed with errors|danger to life|severe (?:flood|weather|storm) warning|"
    r"amber (?:wind |rain |snow |ice |weather |heat )?warning|"
    r"(?:called|rang|rung|phoned|dialled) (?:999|911|112|the fire brigade|an ambulance)|"
    r"(?:fire brigade|ambulance|paramedics) (?:called|(?:is |are )?on (?:the|its|their) way)|"
    r"gas (?:smell|leak)|smell of gas|until (?:it is |it's )?acknowledged|(?:alert|alarm|alerta|"
    r"alarma|alarme) (?:will |se )?repe\w+ (?:every|cada|toutes)|in alarm since|alarm for \d+|"
    r"stop repeat\w* alerts|and continuing|silence detected|off[- ]air|feuerwehr alarmiert|"
    r"pompiers "
    r"(?:appelés|prévenus)|bomberos (?:avisados|llamados)|"
    # responders called or coming, in the sender's words: the trouble is happening now
    r"(?:called|rang|phoned|dialled|alerted) (?:the )?(?:fire ?brigade|fire department|"
    r"fire service|paramedics|coast ?guard|mrcc|rescue (?:centre|center|service))|"
    r"(?:ambulance|fire ?brigade|fire (?:department|service|crews?|engines?)|paramedics|"
    r"coast ?guard|rescue (?:boat|helicopter|team)) (?:is |are |has |have )?(?:been )?"
    r"(?:called|alerted|coming|arriving|arrived|en route|on (?:site|scene|the scene))|"
    r"(?:viene|vienen|llega|llegan|ya viene|está en camino|están en camino) (?:la |una |los )?"
    r"(?:ambulancia|bomberos)|(?:ambulancia|bomberos)(?: del 112)? (?:viene|vienen|llega|llegan|"
    r"en camino|de camino)|(?:llamé|llamamos|he llamado|hemos llamado) (?:al|a la|a los) "
    r"(?:112|911|ambulancia|bomberos)|(?:pompiers|samu) (?:arrivent|sont en route|sont sur place|"
    r"sont là|en route)|(?:appelé|prévenu) (?:les pompiers|le samu|le 15|le 18|le 112)|"
    r"(?:feuerwehr|rettungswagen|notarzt|krankenwagen|rettungsdienst) (?:ist |sind )?(?:schon )?"
    r"(?:verständigt|gerufen|unterwegs|kommt|kommen|vor ort|im einsatz)|"
    r"(?:habe|haben) (?:die feuerwehr|den (?:notarzt|rettungswagen|krankenwagen)|die 112) "
    r"(?:alarmiert|gerufen|verständigt)|"
    # a gas smell, and files encrypted by ransomware
    r"(?:huele|olor) (?:muy )?(?:fuerte )?a gas|fuga de gas|fuite de gaz|odeur de gaz|"
    r"sent le gaz|gasgeruch|riecht (?:stark )?nach gas|gasleck|(?:files?|drives?|servers?|"
    r"everything|pcs?|computers?) (?:\w+ )?(?:(?:is|are|has been|have been|got|were|was) )?"
    r"(?:all )?encrypted|"
    r"ransom (?:note|demand)|(?:is|are) currently "
    r"down|degraded mode|(?:raid|volume|array|pool) (?:\w+ )?(?:is )?(?:now )?degraded|"
    # a monitor's reading with the limit it crossed: "31.4 C (limit 27 C)"
    r"(?:\d|high|low|hoch|haut|alto)\s?\S{0,5} \((?:limit|threshold|set ?point|alarm at|seuil|"
    r"grenzwert|l[ií]mite|umbral)(?: (?:haut|bas|high|low|alto|bajo|max|min|oben|unten))? ?:? "
    r"[<>]?-?\d+|non acquitt\w+|nicht quittiert|unquittiert|sin reconocer|"
    r"(?:smoke|fire|flame|heat|water|leak|intrusion|intruder|gas|co) (?:was |has been )?"
    r"detected|"
    # the reader's flight cancelled: "Your flight SK 341 ... has been cancelled"
    r"your flight (?:[^.\n]{0,60} )?(?:has been|was|is) cancel+ed|flight cancel+ed|"
    # a certificate expiring within hours: "EXPIRING IN 6 HOURS: TLS certificate for ..."
    # (not "in 24 hours": a lure's deadline)
    r"(?:certificate|cert|tls|ssl)[^\n]{0,40}expir\w* (?:in|within) (?:[1-9]|1[0-2]) ?"
    r"(?:hours?|hrs?)|expir\w* (?:in|within) (?:[1-9]|1[0-2]) ?(?:hours?|hrs?)\b[^\n]{0,40}"
    r"\b(?:certificate|cert|tls|ssl)|"
    # a sensor's reading over its limit: "Indoor PM2.5 above threshold", "sensors over
    # threshold"
    r"(?:above|over|exceed(?:s|ed|ing)?) (?:the |its |alarm |alert )?thresholds?|"
    r"(?:on|sur|auf|en) (?:battery|batterie|batería)"
    r"(?: power)?|relay:? no response)\b",
    r"장애|먹통|접속 불가|오류 발생|이상 ?거래|부정 ?사용|의심 ?거래|랜섬웨어|"
    r"가스 ?(?:냄새|누출|샘)|"
    r"119(?:를|에)? ?(?:불렀|신고했)|산불|불이 ?났|불났|\[[^\]]{0,12}경보\]|"
    r"경보 ?(?:발생|울림|울려|울리|지속)|"
    r"\d+ ?분 ?지속|(?:임계치|기준치|설정치) ?초과|상태: ?미확인|"
    r"(?:화재|연기|열|가스|누수|침입) ?감지|"
    r"(?:소방차|구급차|소방관|구조대|해경)(?:가|이|를|도)? ?(?:출동|도착|오고|왔|불렀|부름)|"
    r"119 ?(?:출동|불러|에 신고|신고)",
    # help arrived: "les pompiers sont là" ("là" ends in an accented letter: `script_words`)
    script_words(r"(?:pompiers|samu|gendarmes) (?:sont|est) là", LATIN),
)
# An hour and its minutes, "14:30", "9.30", "00.01"; not a decimal, "0.01"
_HOUR_MINUTE = r"(?:(?:[01]?\d|2[0-3]):[0-5]\d|(?:0\d|1\d?|2[0-3]?|[3-9])\.[0-5]\d)"
# A deadline's clock time: "by 5pm", "before 11:00", "until 19:00" (its own pattern of
# `_NEAR_SET`: on a dated other day it is that day's, `_dated_clock`)
_NEAR_CLOCK_WORDS = (r"(?:by|before) \d{1,2}(?::\d\d)?\s?(?:am|pm)|(?:by|before|until|till) "
                     + _HOUR_MINUTE + r"(?:z|utc|lt)?")
_NEAR_TIME = alternatives(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|eod|end of (?:the )?day|"
    r"within (?:the )?(?:next )?(?:\d+|an?|one|two) minutes?|within (?:the )?(?:next )?"
    r"(?:[1-9]|1[0-2]|an?|one|two) hours?|"
    + _NEAR_CLOCK_WORDS + r"|(?:by|before|until) end of (?:the )?day|"
    r"in (?:an|one|[1-9]|1[0-2]) (?:hours?|hrs?)|within the hour|(?:in|within) the next hour|"
    r"in (?:the next )?\d+ minutes|(?:join|call|approve|come|respond|reply|"
    r"fix|send) (?:\w+ ){0,2}now|"
    r"(?:in|within) (?:the )?"
    r"(?:next )?\d+ ?min(?:ute)?s?|when you see this|as soon as you (?:can|see|get|read)|"
    r"(?:in|within) the next (?:few|couple of) (?:minutes|hours)|close of business|cob|"
    r"straight away|right now|on hold (?:with|for)|(?:is|are) (?:waiting|queued) (?:up )?"
    r"(?:outside|downstairs|in reception|at reception)|queued up|has arrived|"
    r"(?:is|are) (?:here (?:now|early|already)|already here)|can (?:only )?wait (?:another |for "
    r")?(?:\d+|ten|fifteen|twenty|thirty) ?min\w*|can (?:only )?wait (?:until|till) "
    r"\d{1,2}(?:[:.]\d\d)?|\d+ ?min(?:ute)?s? max(?:imum)?|"
        r"(?:by|before) \d{1,2} (?:or|otherwise|today|tonight)|\d+ more minutes|"
    r"hoy|esta (?:tarde|mañana|noche)|ahora mismo|heute|aujourd'?hui|ce (?:soir|matin)|"
    r"dzisiaj|teraz)\b|\bdziś",
    r"\bnow\?",
    # Turkish: before or until a clock time ("17:00'den önce", "16:00'ya kadar"), within a
    # few hours
    r"(?:^|\D)" + _HOUR_MINUTE + r"'?[a-z]{0,3} (?:önce|kadar)\b|\b(?:[1-9]|1[0-2]) saat "
    r"(?:içinde|içerisinde)|\b(?:bir|yarım) saat (?:içinde|içerisinde)\b|\b(?:bugün |bu )?"
    r"(?:akşama|öğlene) kadar\b",
    # Urdu: this evening, tonight, by this afternoon, by N o'clock, within the hour; someone
    # has just phoned ("ابھی ہسپتال سے فون آیا")
    r"آج (?:شام|رات|دوپہر)|(?:^|\D)\d{1,2} بجے (?:تک|سے پہلے)|ایک گھنٹے (?:میں|کے اندر)|"
    r"ابھی (?:[^ .\n]+ ){0,3}(?:فون آیا|فون آیا ہے|کال آئی)",
    # Gujarati: by N o'clock (in either digits), this evening or tonight, by this evening,
    # within the hour or half an hour
    r"(?:^|[^0-9૦-૯])[0-9૦-૯]{1,2}(?:[:.][0-9૦-૯]{2})? "
    r"વાગ્યા (?:સુધીમાં|પહેલાં)|આજે (?:સાંજે|રાત્રે|બપોરે|સાંજ સુધીમાં|રાત સુધીમાં|બપોર સુધીમાં)|"
    r"આજ સાંજ સુધીમાં|એક કલાકમાં|અડધા કલાકમાં",
    # Tamil: by N o'clock, by tonight or this evening, within today, within an hour
    r"(?:^|\D)\d{1,2}(?:[:.]\d\d)? மணிக்குள்|இன்று (?:இரவுக்குள்|மாலைக்குள்|மதியத்துக்குள்|"
    r"மதியத்திற்குள்)|இன்றைக்குள்|ஒரு மணி நேரத்துக்குள்|ஒரு மணி நேரத்திற்குள்|"
    r"அரை மணி நேரத்தில்",
    # Hindi, Marathi and Punjabi: by this evening, by tonight, by noon, right now, by or
    # before a clock hour ("4 बजे तक", "5 बजे से पहले", "4 वाजेपर्यंत", "4 ਵਜੇ ਤੱਕ"). Not
    # "आज ही", "आजच", "ਅੱਜ ਹੀ", today itself: a seller's "call today" as often ("आज ही कॉल
    # करें"); those are `_TODAY`'s
    word_ends("आज (?:शाम|रात|दोपहर|सुबह) तक|अभी तुरंत|अभी के अभी|आज संध्याकाळपर्यंत|"
              "आज रात्रीपर्यंत|आज दुपारपर्यंत|"
              # within N hours; "अभी", now, with what is asked ("अभी व्हाट्सऐप पर भेजिए")
              "(?:^|\\D)(?:[1-9]|1[0-2]) घंटे (?:में|के अंदर|के भीतर)|(?:^|\\D)(?:[1-9]|1[0-2]) तासात|"
              "अभी (?:[^ .\\n]+ ){0,3}(?:भेजिए|भेजो|आइए|आओ|बताइए|बताओ|कीजिए|करो|पहुँचो|पहुंचो)|"
              "(?:^|\\D)\\d{1,2}(?:[:.]\\d\\d)? बजे (?:तक|से पहले)|(?:^|\\D)\\d{1,2}(?:[:.]\\d\\d)? "
              "(?:वाजेपर्यंत|वाजण्यापूर्वी|वाजेच्या आत)", DEVANAGARI),
    word_ends("ਅੱਜ (?:ਸ਼ਾਮ|ਰਾਤ|ਦੁਪਹਿਰ) ਤੱਕ|ਹੁਣੇ ਹੀ|(?:^|\\D)\\d{1,2} ਵਜੇ (?:ਤੱਕ|ਤੋਂ ਪਹਿਲਾਂ)",
              GURMUKHI),
    # "need you here now." - not "a deposit now or in the new year?"
    r"\b(?:please|can you|could you|need)[^.?!\n]* now(?:[.!,;:)\n]|$| (?:please|pls|if|before|"
    r"so|and|while|or else)\b)",
    # ("금일" is today, but not inside "송금일", "입금일", "출금일": a remittance's, a deposit's,
    # a withdrawal's date)
    r"오늘|(?:^|[^송입출])금일|당일|지금 (?:바로|당장|자리에|사무실)|"
    r"\d+ ?분 ?(?:안에|내에|이내|내로|안으로|뒤에?|후에?)|보면 바로|보는 대로|보시면 바로|"
    r"바로 (?:전화|연락|문자|와)|本日|今日|今夜|今晩|今すぐ|ただちに|直ちに|"
    # ("1시간 전까지": by an hour before something, a rule for a later time, not an hour ago)
    r"(?:\A|\D)(?:[1-9]|1[0-2]) ?시간 ?전(?:[^까]|$)|(?:\A|\D)\d{1,2} ?분 ?전부터|"
    r"(?:\A|\D)(?:[1-9]|1[0-2]) ?시간 ?(?:안에|내에|이내|째)|"
    r"방금",
    r"\b(?:oggi|stasera|stamattina|stanotte|entro oggi|entro (?:un'ora|mezz'ora)|tra \d+ "
    r"minuti|azi|ast[ăa]zi|in seara asta|chiar acum|in \d+ minute|hoje|hoje à noite|esta "
    r"noite|agora mesmo|agora|neste momento|adesso|in questo momento)\b|\bdisear[ăa]|"
    r"(?:^|[^a-z])în seara asta|(?:^|[^a-z])într-o oră",
    r"сьогодні|сегодня|прямо зараз|прямо сейчас|через \d+ (?:хвилин|минут)",
    # (a bare "τώρα" is a bare "now": "how many we are now")
    greek("σήμερα|απόψε|τώρα αμέσως|με τώρα|έλα τώρα|ελάτε τώρα|αυτή τη στιγμή|"
          "σε λίγα λεπτά|σε μία ώρα|μέσα στη μέρα|μέσα στην ημέρα")
    + r"|" + greek("σε ") + r"\d+ " + greek("λεπτά"),
    r"\b(?:leo (?:hii|jioni|asubuhi|usiku|mchana|saa|kabla)|usiku huu|jioni hii|sasa hivi|"
    r"hivi sasa|ndani ya (?:saa|dakika)|(?:ya|kwa|hadi|mpaka) leo)\b",
    r"\b(?:gaur|gaurko|gaur gauean|orain|oraintxe|daba|lyoum|lyouma|had l3chiya|had lil)\b",
    r"اليوم|الليلة|هذا المساء|الآن|خلال ساعة|خلال \d+ دقيقة|بعد قليل",
    r"\b(?:vandaag|vanavond|vanochtend|vanmiddag|vannacht|binnen het uur|binnen \d+ minuten)\b",
    # Dutch as Flanders writes it too: this morning, this afternoon, at once, within an hour
    # or a quarter, in an hour ("nu" alone is "now" in any clause, as "en ce moment" is not)
    r"\b(?:vanmorgen|vannamiddag|deze (?:voormiddag|namiddag|middag|ochtend|avond)|vandaag nog|"
    r"zo meteen|meteen|binnen (?:een|het|[1-9]|1[0-2]) (?:uur|kwartier)|over (?:een|[1-9]|"
    r"1[0-2]) uur|over (?:een|\d+) (?:kwartier|minuten)|binnen (?:enkele|\d+) minuten)\b",
    r"\b(?:danas|jutros|noćas|večeras|za sat vremena|u roku od sat vremena|"
    r"u (?:sljedećih|iduć\w+) \d+ minuta|za \d+ minuta|do kraja dana|daqui a \d+ minutos|"
    r"daqui a (?:uma|1) hora)\b|\besta manhã",
    r"\b(?:inniu|anocht|anois)\b|(?:^|[^\w])ó mhaidin\b",
    r"\b(?:tänä yönä|tunnin sisällä|\d+ minuutin sisällä)|\b(?:tänään|tänä (?:aamuna|iltana)|"
    r"juuri nyt|heti|idag|ikväll|i kväll|i natt|nu direkt|genast|(?:ring|kom|svara) (?:mig |hit "
    r")?nu)\b",
    # Estonian: today, tonight, at once, within the hour or N minutes
    r"\b(?:täna|täna õhtul|kohe|otsekohe|viivitamatult|tunni jooksul|\d+ min(?:uti)? jooksul)\b",
    # Galician: today, tonight, right now
    r"\b(?:hoxe|esta noite|agora mesmo|xa mesmo)\b",
    # French "dans l'heure", "cet après-midi"; Malay and Indonesian today, now, this evening
    # (RE2's "\\b" is ASCII-only: a word ending in "é" stands outside a "\\b...\\b" group)
    r"\b(?:dans l'heure|cet après-midi|cette nuit|ce midi|d'ici (?:ce soir|"
    r"midi)|hari ini|sekarang|sekarang juga|petang ini|pagi ini|malam ini|malam ni|"
    r"dalam (?:\d+|satu|sejam) (?:jam|minit|menit))\b|\bdans la journée",
    # Danish and Norwegian: today, tonight, this morning, this afternoon, right now, at once,
    # within the hour
    r"\b(?:i dag|i aften|i kveld|i nat|i natt|i morges|i eftermiddag|i ettermiddag|lige nu|"
    r"med det samme|med en gang|inden for en time|innen en time|inden for \d+ minutter|innen "
    r"\d+ minutter)\b",
    # Czech and Slovak: today, tonight, this morning, by the end of the day, within the hour,
    # in N minutes, right now
    latin_words(r"dnes|dneska|dnes ve[cč]er|dnes r[aá]no|dnes odpoledne|do konce dne|"
                r"do konca d[nň]a|do hodiny|b[eě]hem hodiny|za hodinu|za p[uů]l hodiny|"
                r"za \d+ minut|do \d+ minut|te[dď] hned|hned te[dď]|teraz hne[dď]|"
                r"hne[dď] teraz|do ve[cč]era|do poledne|do obeda"),
    # someone has just phoned: the news is of now ("the broker just called", "hat eben
    # angerufen", "방금 전화")
    r"\b(?:just (?:called|rang|phoned|rung)|has just (?:called|rung|phoned)|(?:me )?acaba de "
    r"llamar(?:me)?|vient de (?:m'appeler|appeler|téléphoner)|hat (?:gerade|eben) angerufen|ha "
    r"appena chiamato|acabou de ligar)\b|방금 전화",
    # "send someone": someone is needed there, now
    r"\bsend (?:someone|somebody)\b",
    # in less than an hour, in English and French (not "en ce moment": "these days" as often
    # as "right now")
    r"\b(?:in (?:less than|under) an hour|within less than an hour|dans moins d'une heure|"
    r"en moins d'une heure)\b",
    # within minutes or a few hours, in German, Spanish and French ("innerhalb der nächsten
    # 10 Minuten", "en los próximos 30 minutos", "d'ici une heure")
    r"\b(?:innerhalb (?:der nächsten |von )?(?:\d+|einer|zwei|zehn|zwanzig|dreissig) "
    r"(?:minuten|stunden?)|in (?:den nächsten )?(?:\d+|zehn|zwanzig|dreissig) minuten|"
    r"(?:en los próximos|dentro de) (?:\d+|diez|veinte|treinta) minutos|dentro de una hora|"
    r"en (?:la próxima|una) hora|(?:dans|d'ici) (?:les )?(?:\d+|dix|vingt|trente) minutes|"
    r"d'ici une heure)\b",
    # Finnish and Swedish: a moment ago ("puoli tuntia sitten", "äsken", "för en halvtimme
    # sedan", "nyss")
    r"\b(?:(?:puoli|\d+) (?:tuntia|minuuttia) sitten|tunti sitten|hetki sitten|för en "
    r"(?:halvtimme|timme|stund) sedan|för \d+ minuter sedan|nyss)\b|(?:^|[^a-z])äsken\b",
    # Latvian, Lithuanian, Slovenian and Albanian: tonight, this evening, within the hour,
    # right now
    latin_words(r"tagad pat|stundas laik[aā]|pusstundas laik[aā]|dabar pat|per valand[aą]|"
                r"nocoj|drevi|v eni uri|v pol ure|sonte|brenda (?:nj[eë] )?or[eë]s?|"
                r"brenda nj[eë] ore"),
    r"(?:^|[ \n(])(?:šovakar|šonakt|šįvakar|šiąnakt)",
    # Bulgarian and Macedonian: tonight, this evening, by the end of the day, within the hour
    script_words("довечера|тази вечер|тази нощ|до края на деня|в рамките на час|вечерва|"
                 "оваа вечер|до крајот на денот|во рок од еден час|днес след обяд|днес следобед|"
                 "до края на днешния ден|до \\d+ минути|днес до \\d{1,2}|пред \\d{1,2} часот",
                 CYRILLIC),
    # Hungarian: today with a time of the day or a limit ("ma délután", "ma 16 óráig"), by
    # today, within the hour or a few hours, within N minutes
    latin_words(_HU_TODAY + r"|mára|(?:egy|f[eé]l|k[eé]t|h[aá]rom|[1-9]|1[0-2]) ?[oó]r[aá]n "
                r"bel[uü]l|\d+ percen bel[uü]l"),
    # German "bitte jetzt dazuschalten", "wir warten auf dich" (the call is on, now); not
    # "wir warten auf Ihre Antwort", nor a hotel's "wir warten auf Sie"
    r"\b(?:bitte (?:\w+ )?jetzt|jetzt sofort|(?:wir )?warten auf (?:dich|euch))\b",
)
# A clock time, hours and minutes, something going on since this morning: today's, unless
# the mail names another day ("Sunday at 10:00", "the 24th ... by 6").
_CLOCK = alternatives(
    # (a time of day, not a date: "by 31.12" is a day and month; nor a decimal: "cancelled
    # out by 0.01", `_HOUR_MINUTE`)
    r"\b(?:\d{1,2}(?:[:.]\d\d)? ?(?:am|pm|o'? ?clock)|(?:at|by|before|until|till|from) "
    r"(?:the )?" + _HOUR_MINUTE + r"|"
    # a moment ago: what happened minutes or an hour ago is happening now
    r"(?:\d+|a few|twenty|thirty|ten|fifteen|an|one|two) (?:min(?:ute)?s?|hours?) ago|"
    r"il y a (?:\d+|une) (?:min(?:ute)?s?|heures?)|hace (?:\d+|una|un) (?:min(?:uto)?s?|horas?)|"
    r"vor (?:\d+|einer) (?:min(?:ute[n]?)?|stunden?)|d'ici (?:une|1) heure|"
    r"(?:by|before|until|till) (?:[01]?\d|2[0-3])(?: (?:he|she|they|we|i|"
    r"it|or|and|so|if|latest|at the latest|please|pls))|(?:in|within) (?:like |about |around |"
    r"(?:the )?next )?"
    r"\d+ ?min(?:ute)?s?|\d+ ?min(?:ute)?s? or|dans \d+ ?min(?:utes)?|en \d+ ?minutos|in \d+ ?"
    r"minuten|(?:by|before|until) (?:noon|midday|lunch"
    r"(?:time)?)|half an hour|half hour|(?:in|within|next) (?:the next )?(?:[1-9]|1[0-2]) ?"
    r"(?:h|hrs?)|"
    # something going on for hours or since this morning: it is happening now
    r"(?:for|in the (?:last|past)|over the (?:last|past)) (?:about |nearly |almost |over )?"
    r"(?:\d+|an|one|two|three) (?:hours?|hrs?|minutes?|mins?)|since (?:last night|this morning|"
    r"lunch(?:time)?|early)|\d+ ?mins? (?:out|away)|antes de las? \d{1,2}(?:h|[:.]\d\d)?|"
    r"(?:bis|vor) \d{1,2}(?:[:.]\d\d)? ?uhr|(?:bis|vor) " + _HOUR_MINUTE + r"|"
    r"d'ici \d{1,2} ?h|"
    r"hasta las? \d{1,2}(?:h|[:.]\d\d)?|"
    r"avant \d{1,2} ?h)\b",
    r"(?:^|\s)à \d{1,2} ?h\d*",
    # French as Quebec writes it: "9 h 40" (not a duration, "3 h 40 m"), "depuis 9 h",
    # "avant midi"
    r"\b\d{1,2} h [0-5]\d(?:[.,;:)!?\n]|$| [^m\s])|\b(?:(?:depuis|dès) \d{1,2} ?h\d*|"
    r"(?:avant|d'ici) midi)\b",
    r"\b(?:a las \d{1,2}(?:[:.]\d\d)?|um \d{1,2}(?:[:.]\d\d)? ?uhr|(?:leaves|"
    r"departs|closes|opens|starts|lands|arrives|boards) (?:at )?\d{1,2}[:.]\d\d)\b",
    # a 24-hour time written without a colon, as services write it: "by 0630", "1400 hrs"
    # (a bare "by 2030" is as often a year: only a leading zero or "hrs" says a time)
    # (nor "at 0800 555 0190", a freephone number: a word or the clause's end must follow)
    r"\b(?:by|before|until|at) 0\d[0-5]\d(?:[.,;!?)\n]| [a-z]|$)|\b(?:[01]\d|2[0-3])[0-5]\d ?"
    r"(?:hrs|hours)\b",
    # "since 8," - a bare hour where the clause ends (no \\b after punctuation)
    r"\bsince (?:~|about |around )?\d{1,2}(?:[:.]\d\d)? ?(?:am|pm)?(?:[ ,.;!?)\n]|$)",
    r"오전 중|오후 중|\d+시까지|\d+시 ?전에",
    r"\b(?:entro le (?:ore )?\d{1,2}|prima delle (?:ore )?\d{1,2}|alle (?:ore )?\d{1,2}[:.]"
    r"\d\d|până la (?:ora )?\d{1,2}|pana la (?:ora )?\d{1,2}|inainte de ora \d{1,2}|"
    r"até às \d{1,2}|ate as \d{1,2})\b|(?:^|[^a-z])înainte de ora \d",
    r"до \d{1,2}[:.]\d\d|до \d{1,2} (?:години|годин|часов|часа)",
    # Greek "μέχρι τις 3", "στις 14:00"; Swahili "kabla ya saa tano" (the hour of the day)
    greek("(?:μέχρι|έως|πριν) τις ") + r"\d{1,2}|" + greek("στις ") + r"\d{1,2}[:.]\d\d",
    r"\b(?:kabla ya|hadi|mpaka|ifikapo) saa \w+",
    r"\d{1,2} ?時(?: ?\d{1,2} ?分)?(?:まで|前)",
    r"\b(?:voor|vóór|om) \d{1,2}(?:[:.]\d\d)? ?uur\b|\b(?:voor|om) \d{1,2}[:.]\d\d\b",
    # Flemish "10u40", "om 15u", "vóór 16u", "tot 18u"; "sinds 6u"; minutes or an hour ago
    r"\b\d{1,2}u\d\d\b|\b(?:om|tegen|voor|vóór|tot|vanaf|sinds|rond) \d{1,2} ?u\b|"
    r"\b(?:tegen|tot|vanaf|sinds|rond) \d{1,2}[:.]\d\d\b|\b(?:\d+|een paar|enkele) minuten "
    r"geleden\b|\been (?:half )?uur geleden\b|\b(?:al|sinds) (?:\d+|een|twee|drie) (?:uur|"
    r"minuten)\b|\bal een half uur\b|\bsinds (?:vanmorgen|vanochtend|vannacht|gisteravond)\b",
    r"(?:قبل|حتى|على) الساعة \d{1,2}|\b\d{1,2}(?:[:.]\d\d)?(?:ak|etan) (?:baino lehen|arte)\b",
    # Polish: "do 14:00", "do godz. 14", "przed 14:00", "od godz. 12" (never a bare "do 24",
    # which is English too)
    r"\b(?:(?:do|przed|od) godz(?:iny|iną|\.)? ?\d{1,2}|(?:do|przed|od) \d{1,2}[:.]\d\d)\b",
    # "by 11," "at 3." - a bare hour where the clause ends ("at 23,000 lb" is a number)
    r"\b(?:at|by|before|until|till) (?:[01]?\d|2[0-3])(?:,(?:\D|$)|[;!?)\n]|\.\s|\.?$)",
    # Croatian "u 10:52", "od 5:30", "do 10:15", "do podne"; Portuguese "às 03:40",
    # "desde as 10:15", "pelas 16h"
    r"\b(?:od|do|prije|oko|nakon) \d{1,2}(?:[:.]\d\d| ?h)\b|(?:^|\s)u \d{1,2}(?:[:.]\d\d| ?h)\b|"
    r"\bdo podne\b|"
    r"(?:^|\s)(?:às|pelas|antes das|até às|por volta das) \d{1,2}[:h.]\d\d|"
    r"\bdesde (?:as|às) \d{1,2}(?:[:h.]\d\d|h)",
    r"\bseit (?:ca\. |etwa |über )?\d+ (?:minuten|stunden)\b|\bseit (?:ca\. |etwa )?\d{1,2}"
    r"(?:[:.]\d\d)? uhr\b",
    # since a clock time: "down since 06:20", "sinds 03:10", "siden 01.30", "sedan 10:50",
    # "depuis 7h40", "desde las 6:15", "dalle 5:30"
    r"\b(?:since|sinds|siden|sedan|depuis|desde las?|dalle(?: ore)?|dalle) (?:kl\.? |ca\.? |ca |"
    r"about |around |approx\.? )?\d{1,2}(?:[:.]\d\d|h\d\d|h)\b",
    # Finnish "klo 15.40", Swedish "kl. 14.00"
    r"\b(?:klo|kl\.?) \d{1,2}(?:[.:]\d\d)?\b",
    # Czech and Slovak "ve 14:00", "o 9.30", "nejpozději do 12:00", "v 15 hod", "před 20 minutami"
    r"(?:^|\s)(?:v|ve|o|kolem|okolo|p[rř]ed|po) \d{1,2}[:.]\d\d\b|\b\d{1,2}(?:[:.]\d\d)? ?hod\b|"
    r"(?:^|\s)p[rř]ed \d+ (?:minutami|hodinami)|(?:^|\s)pred \d+ min[uú]tami",
    # French "16h30", "08h40"; Malay "pukul 10.20 pagi", "jam 6 petang", "sebelum 6 petang"
    # ("sebelum 30/10" is a date)
    r"\b\d{1,2}h\d\d\b|\b(?:pukul|jam) \d{1,2}(?:[.:]\d\d)?\b|\b(?:sebelum|selepas) (?:pukul |"
    r"jam )?\d{1,2}(?:[.:]\d\d)? ?(?:pagi|petang|malam|tengah hari|ptg|pg)\b",
)
# Days named in Italian, Romanian, Portuguese and Ukrainian/Russian (as in _OTHER_DAY).
_OTHER_DAY_MORE = (
    r"(?:\b(?:lune|marte|mercole|giove|vener)dì|\b(?:sabato|domenica|domani|dopodomani|la "
    r"prossima settimana|m[âa]ine|mar[țţt]i|miercuri|joi|vineri|s[ăa]pt[ăa]m[âa]na viitoare|"
    r"jutro|poniedzia\w+|wtorek|wtorku|czwart\w+|sobot\w+|niedziel\w+|w przyszłym tygodniu|"
    r"segunda-feira|ter[çc]a-feira|quarta-feira|quinta-feira|sexta-feira|semana que vem)\b"
    r"|\b(?:s[âa]mb[ăa]t[ăa]|duminic[ăa]|amanhã)"
    r"|завтра|понеділ|вівтор|четвер|п'ятниц|субот|неділ|понедельник|вторник|пятниц|суббот|"
    r"воскресен|наступного тижня|следующей неделе|"
    + greek("αύριο|μεθαύριο|δευτέρα|τρίτη|τετάρτη|πέμπτη|παρασκευή|σάββατο|κυριακή|"
            "επόμενη εβδομάδα") +
    r"|\b(?:kesho|keshokutwa|jumatatu|jumanne|jumatano|alhamisi|ijumaa|jumamosi|jumapili|"
    r"wiki ijayo|bihar|etzi|astelehen\w*|astearte\w*|asteazken\w*|ostegun\w*|ostiral\w*|"
    r"larunbat\w*|igande\w*|datorren astean|ghedda|ghda|esok|lusa|besok|isnin|selasa|rabu|"
    r"khamis|jumaat|sabtu|ahad|minggu depan)\b"
    r"|明日|明後日|前日|来週|[月火水木金土日]曜|\d{1,2}月 ?\d{1,2}日|"
    r"\b(?:morgen(?:ochtend|middag|avond| vroeg)|maandag|dinsdag|woensdag|donderdag|vrijdag|"
    r"zaterdag|zondag|volgende week)\b|"
    r"غدا|غداً|بعد غد|الاثنين|الثلاثاء|الأربعاء|الخميس|الجمعة|السبت|الأحد|الأسبوع المقبل|"
    r"الأسبوع القادم)")
# A month by its name or its short form, a whole word ("14 Marlowe Road", "junction 12" and
# "deck 3" name none)
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
# A day and a month in figures, either way round ("24/9", "9/24"; not "90/60", a blood
# pressure, nor "19/21", two ages)
_DAY_MONTH = (r"(?:(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])|(?:0?[1-9]|1[0-2])/"
              r"(?:0?[1-9]|[12]\d|3[01]))")
# A day and a month in figures with dots, as most of Europe writes them, when it is a day
# to come: after a short weekday or "by" ("pe 14.11.", "Sa. 22.11.", "bis 14.11.2031", "до
# 05.12.") or before "by" in Finnish ("20.11. mennessä"). Alone it is as often a stamp of
# what happened ("Eingang: 10.03.2025", "Probenahme 10.07.") or a clause ("clause 14.2.").
# The month is 1 to 12 with a dot after it: "klo 8.15", "3.4.0" or "10.1.1.1" are none.
_DOTTED_DAY = r"(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:(?:19|20)?\d\d)?"
_DOTTED_DATE = (r"(?:^|[^\w])(?:ma|ti|ke|to|pe|la|su|mo|di|mi|do|fr|sa|so|mån|tis|ons|tors?|"
                r"fre|lör|sön|bis|by|until|till|before|due|до|пн|вт|ср|чт|пт|сб|вс)\.?,? "
                + _DOTTED_DAY + r"(?:[^\d.]|$)|(?:^|[^\w.,:/])" + _DOTTED_DAY
                + r" (?:mennessä|asti\b|saakka\b)")
# "Tomorrow" in Hungarian (with its case endings), Latvian, Lithuanian, Slovenian, Albanian,
# Bulgarian, Macedonian and Gujarati: another day (`_OTHER_DAY`) and tomorrow (`_TOMORROW`)
_TOMORROW_MORE = alternatives(latin_words(r"holnap\w*|rīt|rytoj|jutri|nes[eë]r"),
                              script_words("утре", CYRILLIC), "આવતીકાલ")
_OTHER_DAY = alternatives(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|tomorrow|next week|weekend|"
    r"end of (?:the )?week|"
    r"\d{1,2}(?:st|nd|rd|th)|" + _MONTH + r" \d{1,2}|\d{1,2} " + _MONTH + "|"
    + _DAY_MONTH + "|"
    # a month as when something happens ("in September"; not "may" or "march", which are
    # verbs too; "from January" is a consequence's date), and days and dates in French,
    # German and Spanish
    r"in (?:early |late |mid-?)?(?:january|february|april|june|july|august|september|october|"
    r"november|december)|"
    r"lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|montag|dienstag|mittwoch|"
    r"donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|jueves|viernes|sábado|domingo|"
    r"\d{1,2} de (?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|"
    r"noviembre|diciembre)|\d{1,2}(?:er)? (?:janvier|février|mars|avril|mai|juin|juillet|août|"
    r"septembre|octobre|novembre|décembre)|\d{1,2}\. (?:januar|februar|märz|april|mai|juni|"
    r"juli|august|september|oktober|november|dezember))\b",
    r"내일|모레|다음 ?주|(?:월|화|수|목|금|토|일)요일|\d+월 ?\d+일|\d+월 ?(?:초|중순|말|\w+ ?주)",
    _OTHER_DAY_MORE,
    r"\b(?:sutra|prekosutra|ponedjelj\w+|utor(?:ak|ka|kom)|srijed[aiu]|petak|petka|"
    r"subot[aiu]|nedjelj[aiu]|sljedeći tjedan|idući tjedan|sljedećeg tjedna|idućeg tjedna)\b|"
    r"četvrt(?:ak|ka|kom)\b",
    # a day of a month in Croatian and Portuguese: "7. svibnja", "23 de outubro", "no dia 23"
    r"\b\d{1,2}\. ?(?:siječnja|veljače|ožujka|travnja|svibnja|lipnja|srpnja|kolovoza|rujna|"
    r"listopada|studenoga?|prosinca)|\b\d{1,2} de (?:janeiro|fevereiro|março|abril|maio|junho|"
    r"julho|agosto|setembro|outubro|novembro|dezembro)\b|\b(?:no|do|de|o) dia \d{1,2}\b",
    r"\b(?:huomenna|ylihuomenna|maanantai\w*|tiistai\w*|keskiviikko\w*|torstai\w*|"
    r"perjantai\w*|sunnuntai\w*|ensi viikolla|imorgon|i morgon|måndag|tisdag|onsdag|torsdag|"
    r"fredag|nästa vecka)\b",
    _TOMORROW_MORE,
    # Bulgarian and Macedonian weekdays (not "среда", Bulgarian for an environment)
    script_words("понеделник|вторник|сряда|четврток|четвъртък|петок|петък|сабота|събота|"
                 "недела|неделя", CYRILLIC),
    # Gujarati: the weekdays, next week
    "સોમવાર|મંગળવાર|બુધવાર|ગુરુવાર|શુક્રવાર|શનિવાર|રવિવાર|આવતા અઠવાડિયે",
    # Hungarian: the weekdays (with their case endings), next week
    latin_words(r"h[eé]tf[oő]\w*|kedd\w*|szerd[aá]\w*|cs[uü]t[oö]rt[oö]k\w*|"
                r"p[eé]ntek\w*|szombat\w*|vas[aá]rnap\w*|j[oö]v[oő] h[eé]t\w*"),
    # Czech and Slovak: the weekdays, next week, a date "15. 4." or "15. dubna"
    latin_words(r"pond[eě]l[ií]|pondelok|pondelka|pondelku|utery|utorok|"
                r"utorka|st[rř]eda|st[rř]edu|st[rř]edy|ctvrtek|ctvrtka|stvrtok|"
                r"stvrtka|p[aá]tek|p[aá]tku|piatok|piatka|sobota|sobotu|ned[eě]le|ned[eě]li|"
                r"nede[lľ]a|nede[lľ]u|p[rř][ií][sš]t[ií] t[yý]den|bud[uú]ci t[yý][zž]de[nň]|"
                r"z[ií]tra|zajtra|poz[ií]t[rř][ií]|pozajtra"),
    r"(?:^|[ \n(])(?:úter[yý]|čtvrt(?:ek|ka)|štvrt(?:ok|ka))",
    # (the figures spaced, as Czech writes them: "8.15." is a clock time, "4.2.0" a version)
    r"\b\d{1,2}\. (?:\d{1,2}\.(?:[^\d.]|$)|ledna|února|unora|března|brezna|dubna|května|"
    r"kvetna|června|cervna|července|cervence|srpna|září|zari|října|rijna|listopadu|prosince|januára|"
    r"februára|marca|apríla|mája|júna|júla|augusta|septembra|októbra|novembra|decembra)",
)
# A question or an ask put to the reader: "would you", "is there any way", "do we ...?",
# a "you ...?" question, the Korean question endings.
# German verbs of a request, in the polite imperative with "Sie" (`_ASK`); not "pay" or
# "transfer", which a lure asks (nor does "please pay" count in English)
_SIE_VERB = (r"kommen|schicken|senden|sagen|geben|prüfen|überprüfen|rufen|informieren|"
             r"entscheiden|helfen|stoppen|klären|unterschreiben|veranlassen|kontaktieren|"
             r"übernehmen|sorgen|organisieren|holen|bringen|teilen|schauen|sperren")
_ASK = alternatives(
    # (Spanish "I need:" before a list: after ":" RE2's "\\b" finds no word end)
    r"\bnecesit(?:o|amos):",
    r"\b(?:can you|could you|would you|can u|could u|let (?:me|us) know|what do you think|"
    # a demand with its deadline elsewhere: "this must be corrected before the 9:00 pm show"
    r"must be (?:corrected|fixed|removed|resolved|repaired|replaced|cleared|moved|completed|"
    r"submitted|signed|returned|renewed|collected) (?:before|by|today|within|tonight|"
    r"immediately)|"
    r"(?:advise|urge) you to|your "
    r"thoughts|is there any way|any chance|please review|yes ?/ ?no|yes or no|"
    r"what do (?:i|we) do|(?:is|are) (?:anyone|someone|somebody)|(?:can|could) (?:someone|"
    r"anyone|somebody)|(?:need|want) (?:you|someone|somebody) to|you (?:just |only )?(?:need|"
    r"have|will need) to|need (?:it|this|them) (?:back|signed|returned)|pls|plz|please "
    r"(?:someone|somebody|anyone)|need (?:you|someone|somebody) or \w+ to|"
    r"need (?:an? )?(?:answer|decision|reply|yes)|now,? (?:please|pls)|est-ce qu(?:e\b|')|"
    r"pouvez-vous|pourriez-vous|merci de (?:répondre|confirmer|rappeler|nous)|veuillez "
    r"(?:nous|me) (?:rappeler|contacter|appeler|joindre|téléphoner)|können sie|"
    r"könnten sie|bitte (?:rufen|melden|antworten|bestätigen)|me llamas|puedes|podéis|"
    r"puede usted|qué hacemos|(?:must|need to|are required to) (?:confirm|reply|respond|attend|"
    r"submit|provide|pay|sign|upload|call)|anyone (?:spare|free|available|around)|llámame|"
    r"appelle-moi|rappelle-moi|ruf mich (?:an|zurück)|(?:we|i) (?:still )?need (?:the|your) "
    r"\w+|without your (?:approval|sign-?off|ok|okay|go-?ahead|signature|say-?so|permission|"
    r"consent|authori[sz]ation)|por favor|confirma|"
    r"needs? the signed|please (?:have|make sure|ensure|prepare|arrange)|"
    # where to come: "meet us there", "get down to the bridge"
    r"meet (?:us|me) (?:there|at the)|get down to the|"
    # a security action asked of the owner: "please rotate the key", "please revoke it" (not
    # "please reset your password", a notice's "if this wasn't you")
    r"please (?:rotate|revoke|isolate|disable|disconnect)|"
    # others to be reached by the reader: "please contact them before 16:00" (not "please
    # contact us", a notice's boilerplate)
    r"please (?:\w+ )?(?:contact|call|phone|notify|inform|warn) (?:them|him|her|all|each|every|"
    r"the (?:passengers|guests|customers|clients|crew|drivers|families|parents))|"
    r"need (?:a|an) \w+ (?:out|"
    r"here|over|on site|today|now)|need it (?:gone|moved|fixed|sorted|looked at)|call (?:mom|mum|"
    r"dad|him|her)|someone (?:needs|has) to|was (?:machen|tun) wir|was soll ich|"
    r"is (?:that|this|it) (?:normal|ok|okay|safe|dangerous)|wer (?:kann|macht)|\bwer übernimmt|"
    # what the sender needs from the reader, said outright
    r"(?:i|we) need (?:from you|to know|the following)|(?:i|we) need to (?:speak|talk) (?:with|to) "
    r"you|"
    # what the reader is to have done: "tell your pilot to stop", "please attend the
    # premises" (a monitoring centre's keyholder call)
    r"tell (?:your|the) \w+ to (?:stop|move|leave|come|call|turn|shut|hold|wait)|please attend "
    r"(?:the )?(?:premises|site|property|building|scene|address)|"
    # ... or what others wait for: "the buyers want to know by 4pm whether", "they need
    # within the next two hours", "has asked whether to stop the line", "she wants to meet you"
    r"(?:need|needs|want|wants) to know|(?:i|we|they|he|she) (?:also |still )?(?:need|needs|"
    r"want|wants) to (?:meet you|hear from you|see you)|needs? within|(?:wait(?:ing|s)?|"
    r"hold(?:ing)?) (?:on |for )your (?:decision|answer|call|reply|ok|okay|go-?ahead|"
    r"instructions?|approval)|asked whether to|need from you|(?:i|we) (?:would like|'d like) "
    r"to know|someone (?:should|must)|request(?:ing)? (?:your )?(?:permission|"
    r"approval|authori[sz]ation)|(?:ich|wir) (?:benötige|benötigen|brauche|brauchen) (?:von "
    r"ihnen|von dir|bis|sofort|dringend|heute)|wir müssen (?:heute|sofort|jetzt|bis)|"
    r"necesit(?:o|amos) (?:de (?:ti|usted|vos)|vuestr[oa]s?|su|tu|autorizaci[oó]n)|"
    r"necesit(?:o|amos) (?:hoy|ya|urgente|antes)|merci de m'(?:appeler|"
    r"envoyer|confirmer)|merci de (?:bien vouloir |me |le |la |les |nous )?(?:rappeler|signer|"
    r"envoyer|transmettre|confirmer|valider|répondre|prévenir|vérifier)|vous devez|"
    r"ruf (?:bitte )?(?:sofort |gleich )?an|"
    r"request (?:\w+ )?assistance|"
    r"call the number on the back|(?:who|what|where|how|when) (?:does|do|should|can|shall|will|"
    r"could) (?:she|he|they)\b|where are you|(?:ring|call|phone|text) me|(?:what|how) do you "
    r"want (?:me|us) to|you (?:may|might) (?:want|need) to|get (?:up |over |down |back )?here|"
    r"needed (?:by|before|asap|today|now)|merci de (?:venir|passer|contacter|appeler)|(?:we|i) "
    r"(?:still )?need (?:a|an) \w+ (?:number|code|decision|answer|reply|sign-?off)|go ?/ ?no-?go|"
    r"go or no-?go|if you can (?:get|send|sign|confirm|call|ring)|il faut|necesito que|"
    r"do (?:you|u) want (?:me|us) to|where(?:'s| is| are) (?:the|my|our)|kannst du|könntest du|"
    r"qué hago|(?:le|les|te) (?:pedimos|pido|rogamos|ruego)|favor de|se solicita|"
    # a decision or an answer wanted by a time, in German, French and Spanish
    r"(?:entscheidung|anweisung|anweisungen|freigabe|rückmeldung|stellungnahme|bestätigung) "
    r"(?:bis|vor|noch heute|heute)|(?:décision|réponse|confirmation|validation|instructions?) "
    r"(?:avant|d'ici|aujourd'hui|ce matin|ce soir)|(?:decisión|respuesta|confirmación|"
    r"autorización|instrucciones) (?:antes de|hoy|para hoy|hasta)|"
    r"(?:bitte )?sag(?:en sie)? (?:mir|uns) (?:bitte )?(?:heute|bis|sofort|gleich|noch|ob|"
    r"bescheid|wie|was)|gib (?:mir|uns) (?:bitte )?bescheid|geben sie (?:mir|uns) (?:bitte )?"
    r"bescheid|proszę (?:o|pana|panią|cię)|czy (?:możesz|może pan|może pani|"
    r"mógłbyś|mogłabyś)|necesit(?:o|amos|an) que|hace falta que|falta (?:tu|su) (?:firma|ok|"
    r"visto bueno|aprobaci[oó]n)|j'ai besoin que|il me faut|j'ai besoin d'une (?:réponse|"
    r"décision)|brauche(?:n)? (?:dich|sie|ihre)|"
    r"bitte um (?:\w+ )?(?:rückmeldung|antwort|bestätigung)|j'ai besoin (?:de (?:votre|vos|"
    r"ton|ta|tes)|aujourd'hui)|"
    r"must be (?:made safe|removed|repaired|fixed|cleared|secured)|peux-tu|"
    r"pourrais-tu|tu peux|needs? (?:to be )?"
    r"(?:rectif\w+|fix\w*|sort\w*|doing|done|mov\w+|remov\w+|clear\w*|replac\w+|resolv\w+|"
    r"check\w*|looking at))\b",
    # German's polite imperative, "please" and the verb with "Sie" ("Bitte kommen Sie",
    # "Bitte schicken Sie mir", "Teilen Sie uns bitte mit"), or the familiar one ("bitte schick
    # mir"): a request, as "please send" is (not "bitte beachten Sie", a notice's "please note",
    # nor a notice's "die Rechnung senden Sie bitte an ...", where to send it)
    rf"\b(?:bitte (?:\w+ ){{0,2}}(?:{_SIE_VERB}) sie|(?:{_SIE_VERB}) sie (?:(?:mir|uns) bitte|"
    r"bitte (?:sofort|gleich|heute|umgehend|schnell)))\b|"
    r"\bbitte (?:\w+ )?(?:komm|"
    r"schick|sag|ruf|gib|hilf|prüf|schau|melde dich|meld dich|bring|hol|kümmer dich)\b",
    # French imperatives at a sentence's start ("Réponds vite", "Venez", "Préviens-moi") or
    # with "-moi"/"-nous" anywhere, and "merci de vous rendre ..." (a school's "please go to")
    r"(?:\A|\n|[.!?] )(?:svp,? |s'il (?:te|vous) pla[iî]t,? )?(?:réponds|répondez|rappelez|"
    r"appelez|venez|viens|préviens|prévenez|envoie|envoyez|confirme|confirmez|contacte|"
    r"contactez)(?:-moi|-nous)?(?:$|[^\pL\pN_-])|\b(?:envoie|envoyez|confirme|confirmez|"
    r"préviens|prévenez|appelez|rappelez)-(?:moi|nous)\b|\bmerci de (?:bien vouloir )?(?:vous|"
    r"nous|me) (?:rendre|présenter|rappeler|contacter|appeler)\b",
    # Spanish imperatives with their pronoun ("avísale", "contésteme", "llámenme", "ayúdenos")
    # and someone who has to act ("alguien tiene que abrir")
    r"\b(?:avísa(?:me|le|nos)|avíse(?:me|le|nos)|avísenme|contésta(?:me|nos)|contéste(?:me|nos)|"
    r"contéstenme|llámeme|llámenme|llámanos|mánda(?:me|nos)|mánde(?:me|nos)|envía(?:me|nos)|"
    r"envíe(?:me|nos)|confírma(?:me|nos)|confírme(?:me|nos)|dígame|díganme|escríbeme|"
    r"respónde(?:me|nos)|respónda(?:me|nos)|ayúda(?:me|nos)|ayúde(?:me|nos)|ayúdenos|"
    r"alguien (?:tiene|tendría) que|alguien debe)\b",
    # an errand told outright, at the start of a sentence: "Ask Dr Hale to cover."
    r"(?:\A|\n|[.!] )(?:please |pls )?(?:pull|bring|tell|ask|cancel|ring|grab|fetch) (?:the|"
    r"them|it|me|him|her|this|that|all|everyone|someone)\b",
    # a need told outright: "Need the Square login", "Need a replacement captain by 18:00"
    r"(?:\A|\n|[.!?] )need (?:a |an |the |your |some |someone |somebody )?\w",
    r"\bor not\?|\bplease:",
    # the sender asks what to do, in Spanish or French: "¿Llamo a alguien?", "Je fais évacuer ?"
    r"¿(?:llamo|aviso|cierro|cancelo|lo hago)|\b(?:lo|la|los|las|le|les|te) (?:llamo|llevo|aviso|"
    r"mando|paro|cierro)\?|\bje (?:fais|laisse|ferme|appelle|annule)"
    r"(?: [^ ?\n]+){0,3} ?\?",
    # "Where's the folder??": a doubled question mark on where or who is a person asking, now
    r"\b(?:where|who)[^.?!\n]{0,60}\?\?",
    # a question put to the reader or asking what to do, read to the sentence's end as one
    # pattern: several patterns each waiting for a "?" multiply the DFA's states
    r"(?:\b(?:you|(?:what|where|how|when|should|shall|is|are|do|does|did|can|could|will|"
    r"would) (?:i|we|you|u)|(?:what|where|how|when|who) (?:can|should|do|shall|will|could) "
    r"(?:i|we)|who (?:has|can|is|knows|else)|(?:is|are) there|can|could)\b|¿)[^.?!\n]*\?",
    # Italian, Romanian, Portuguese and Ukrainian/Russian: please, can you, I need, call me
    r"\b(?:per favore|per piacere|puoi|potresti|potete|potreste|mi serve|ci serve|ho bisogno|"
    r"abbiamo bisogno|chiamami|richiamami|fammi sapere|mi faccia sapere|dimmi|cosa facciamo|"
    r"che facciamo|che faccio|v[ăa] rog|te rog|po[țţt]i|pute[țţt]i|ne trebuie|am nevoie|avem "
    r"nevoie|sun[ăa]-m[ăa]|suna[țţt]i-m[ăa]|spune-mi|anun[țţt][ăa]-m[ăa]|ce facem|ce fac|"
    r"confirma[țţt]i|pode|podes|poderia|preciso|precisamos|me liga|liga-me|ligue|me avis[ae]|"
    r"me (?:diga|fala)|liga pra mim|consegue|tem como|o que (?:eu )?fa[çc]o|o que fazemos|"
    r"autoriza|chiamate|mi richiami|bisogna|dobbiamo|decida|decidi|confermi|ci dica|"
    r"mi dica|serve (?:la|il|una|un) (?:sua|tua|vostra)?|"
    # Italian asks to "tu" and "Lei" (tell me, send me again, can you manage, we ask you to,
    # are you coming?) and German "bitte jetzt einwählen": please, now
    r"mi (?:dici|rimandi|mandi|confermi|chiami|richiami)|riesci a|riuscite a|"
    r"(?:le|vi|ti) chied(?:iamo|o) di|(?:la|vi|ti) preg(?:hiamo|o) di (?:richiam|chiam|contatt|"
    r"ven|pass|conferm|invi|mand)\w*|bitte (?:\w+ )?(?:jetzt|sofort))\b|"
    r"\b(?:vieni|venite|passi|passate)\?",
    r"\b(?:potrzebuj[eę]\w*|zadzwoń|zadzwon|daj(?:cie)? znać|prosimy o|proszę (?:pilnie|o "
    r"pilny|natychmiast)|co robimy|co mam zrobić|czy mo[żz]emy)",
    r"будь ласка|пожалуйста|прошу|можете|можеш|зателефонуй|подзвон|позвон|потрібно|нужно|"
    r"нужен|нужна|помогите|перезвони|треба|що робити|что делать|підтвердіть|подтвердите",
    # Estonian: please, call (me), let me know, confirm, can you; Spanish "what do I do",
    # "come quickly"
    r"\b(?:palun|helista(?:ge)?|anna(?:ge)? teada|kinnita(?:ge)?|kas (?:sa|te) (?:saad|saate|"
    r"saaksid|saaksite))\b|\bkas (?:sa|te) v(?:õ|o)iksi(?:d|te)\b|\b(?:qu[eé] hago|ven(?:te)? "
    r"(?:r[aá]pido|ya|pronto|cuanto antes))\b",
    # Greek and Swahili: please, can you, I need, call me, let me know, what do we do
    greek("παρακαλώ|μπορείς|μπορείτε|θα μπορούσατε|θα μπορούσες|χρειάζομαι|χρειαζόμαστε|"
          "πάρε με|πάρτε με|τηλεφώνησέ μου|τηλεφωνήστε μου|ενημερώστε με|ενημέρωσέ με|"
          "πείτε μου|πες μου|τι κάνουμε|τι να κάνω|επιβεβαιώστε|επιβεβαίωσε"),
    r"\b(?:tafadhali|naomba|tunaomba|nipigie|tupigie|nijulishe|tujulishe|unaweza|mnaweza|"
    r"nahitaji|tunahitaji|tufanye nini|nifanye nini|nisaidie|tusaidie|thibitisha)\b",
    # a Greek question ends in ";" (the Greek question mark, made ";" by folding); someone needed
    r"\p{Greek};|" + greek("χρειάζεται|χρειάζονται|ζητά|ζητάει|έγκριση από σένα"),
    # Basque, Arabic and Moroccan Arabic: please, call me, tell me, I need, can you, what do
    # we do, a question to the reader
    r"\b(?:mesedez|deitu iezadazu|deitu (?:iezaguzu|lehenbailehen)|esan iezadazu|behar dut|"
    r"behar dugu|ahal duzu|zer egin|3afak|afak|3ayet li|3iyet lia|3ayto lia|3ayeti lia|wach "
    r"(?:t9der|momkin|nta|nti|n3ayet)|goul lia|qoul lia|khbarni|khbrini)\b",
    r"من فضلك|المرجو|يرجى|أرجو|نرجو|اتصل بي|اتصلي بي|أحتاج|نحتاج|هل يمكنك|هل يمكن|ماذا نفعل|"
    r"أخبرني|أخبريني|هل [^.؟\n]*؟",
    r"(?:니|까|요|죠)\?|(?:해 ?주(?:세요|실 수)|부탁드립니다|어떻게 생각|가능할까요|결정 ?필요|"
    r"답 ?주시면|회신 기다립니다|(?:알려|보내|와|봐|전화해|연락해) ?주세요|いただけますでしょうか|"
    r"(?:ご)?(?:確認|判断|指示|連絡|返信)(?:を)?(?:ください|下さい|お願い)|どうすれば|どうしますか|"
    # Dutch: can you, please, call me, let me know, we need, what do we do
    r"\b(?:kun je|kunt u|kan je|kan jij|wil je|wilt u|graag|bel me|bel mij|laat (?:me|het) "
    r"weten|(?:ik|we|wij) (?:heb|hebben) (?:\w+ )?nodig|wat moeten we|wat doen we|alsjeblieft|"
    r"alstublieft|bevestig)\b|"
    # ... and as Flanders writes it: can you (all), would you, please, let us know, call us
    # (back), get in touch, send me, tell me, give a sign, what must I do
    r"\b(?:kunt (?:ge|gij|u|jij|je)|kunde|kunnen jullie|kan (?:iemand|u)|zou (?:je|jij|u)|zoudt "
    r"ge|wil (?:jij|u)|willen jullie|gelieve|aub|laat (?:ons|mij|me|iets|het|even) (?:\w+ )?"
    r"weten|bel (?:me|mij|ons|even|dan|terug)|(?:bel|belt) (?:ons|mij|me) (?:\w+ )?terug|"
    r"terugbellen|neem (?:\w+ )?contact (?:met \w+ )?op|contacteer|stuur (?:me|mij|ons|even)|"
    r"zeg (?:me|mij|ons) |geef (?:me|mij|ons) (?:\w+ )?(?:door|een seintje)|geef (?:een|even "
    r"een) seintje|bevestig (?:uw|je|jouw|even|aub|ons)|graag (?:een )?(?:bevestiging|"
    r"antwoord|reactie|bericht)|wat moet ik|wij vragen u)\b|"
    # (a question ends in "?", where no "\\b" follows)
    r"\bmoet ik (?:\w+ ){0,3}\w+\?|\ba\.u\.b\.|"
    r"いかがでしょうか|してください|して下さい|"
    r"ください|お願いします|(?:지시|조치|확인|회신) ?바랍니다|(?:전화|연락) ?(?:좀 )?"
    r"해 ?줘|(?:수정|처리|확인|승인)(?:이|가)? ?(?:필요|되어야|해야)|"
    r"주실 수 있나요|주시면 감사(?:하겠|드리겠)|요청(?:합니다|드립니다|드려요)|"
    r"주셔야 (?:합니다|해요|할 것 같)|"
    r"어떻게 (?:하죠|해요|할까요|하지)|"
    r"있으면 연락해|빨리요|주시면 됩니다|전화 ?(?:좀|받아)|"
    # the informal "can you ...?", "call / text me", "give (me your view) within ..."
    r"수 있어\?|수 있니\?|(?:문자|카톡|전화|연락) ?(?:좀 )?(?:줘|줄래|해줘|해요|주세요)"
    r"(?:[^가-힣]|$)|(?:의견|답변?|회신|결정|연락)(?:을|를)? (?:\S+ ){0,3}주세요|"
    r"(?:인원|사람|지게차|장비|도움|손) ?(?:이|가)? ?필요합니다)",
    # Croatian: I need (your decision), tell me, call me, what do we do, shall I ...
    r"\b(?:trebam|treba mi|trebamo li|moram znati?|javi (?:mi|se|odmah)|javite|zovi me|nazovi|"
    r"nazovite|molim te|molim vas|možeš li|možete li|mozes li|reci mi|recite mi|odgovori|"
    r"odgovorite|jel|je li|da li|zovem li|gasim li|zovemo li|kako da)\b|"
    r"(?:^|[^a-z])(?:šta ćemo|šta da|što da|što radimo|što ćemo)|"
    # European Portuguese: tell me, decide, do you have five minutes, can you
    r"\b(?:diz-me|diga-me|decidas|decides|precisas|autorizas|confirmas|consegues|"
    r"tens \d+ minutos|que faço|o que faço)\b",
    # a response asked for by a time: "agent response required by 15:30"
    r"\b(?:response|reply|answer|decision|confirmation|approval|instructions?) (?:is |are )?"
    r"(?:required|needed) by\b",
    # Irish: could you, please, call me, tell me
    r"\ban bhféadfá|\b(?:an bhféadfadh|an féidir leat|an féidir libh|le do thoil|cuir glaoch|"
    r"glaoigh orm|abair liom|cuir scéal)\b",
    # Croatian "Da otkažem?" (shall I cancel?), "moramo odlučiti" (we must decide); German
    # "was sollen wir tun?"
    r"(?:^|[.!?\n] *)da (?:li )?\w+[^.?!\n]{0,60}\?|\b(?:moramo|trebamo|treba) odlučiti\b|"
    r"\bodlučite\b|\bwas (?:sollen|soll) (?:wir|ich) (?:jetzt )?(?:tun|machen)\b|"
    r"\bwas (?:tun|machen) wir\b|\bsoll ich (?:\w+ )?(?:anrufen|rufen)\b|"
    # German "Sollen wir verschieben oder ...?", "Ruf ihn bitte gleich an", "Bitte die
    # Ordner bereitlegen", "Brauche bis 9:00 eine Entscheidung"
    r"\b(?:soll|sollen) (?:ich|wir) [^.?!\n]*\?|"
    r"\bruf (?:ihn|sie|ihr|den|die) (?:bitte )?(?:sofort |gleich )?an\b|"
    r"\bbitte [^.?!\n]{0,60}\b(?:bereitlegen|bereithalten|vorbereiten|zurückrufen|"
    r"freigeben)\b|\b(?:brauche|brauchen) (?:\w+ ){0,3}(?:eine )?entscheidung\b",
    # what must be done, in Spanish, Portuguese and Italian: "hay que sacarlo", "deberá
    # tener", "solicitamos que confirme", "é preciso", "basta che lo firmi"
    # ("\\b" is ASCII-only: the words ending or starting in "á", "ão", "é" sit outside it)
    # (not "no hay que hacer nada", nothing to do; not a third person's "tiene que")
    r"(?:^|[^o\s]\s|(?:^|[^n])o\s)hay que\b|"
    r"\b(?:hace falta (?:la|el|un|una)|deberán|tienes que|"
    r"tenés que|solicitamos que|tens de|tem de|temos de|basta che|devi|dovete)\b|"
    r"\b(?:deberá|deverá|deverão)(?:[^a-z]|$)|(?:^|[^a-z])é preciso\b",
    # Finnish: the plural imperative ("Toimikaa näin", "sulkekaa ilmanvaihto") and a question
    # opening with "-ko"/"-kö" ("Soitanko 112 vai tuotko auton?"); not a noun's partitive
    # ("kelkkaa", "ruokaa": a double "k" or an "o"/"u" before the ending)
    r"(?:^|[^a-zäöå])[a-zäö]{2,}[aeiylnrstäö](?:kaa|kää)(?:[^a-zäöå]|$)|"
    r"(?:^|[.!?\n] *)[a-zäö]{3,}(?:ko|kö)[^a-zäöå][^.?!\n]*\?",
    # Finnish and Swedish: can you, I need, a decision needed, call me, tell me, what do we do
    r"\b(?:pystytkö|pitääkö|päätä)|\b(?:voitko|voisitko|voitteko|voisitteko|tarvitsen|tarvitsemme|tarvitaan|"
    r"soita (?:minulle|mulle)|soittakaa|ilmoita|kerro|mitä teemme|mitä tehdään|"
    r"saako|kan du|kan ni|kunde du|vi behöver|jag behöver|ring mig|hör av dig|meddela|"
    r"vad gör vi|vad ska vi göra|tule|tulkaa|soita|kom hit|kom (?:direkt|nu|genast)|ring oss|"
    r"svara)\b",
    # Galician: call me, let me know, tell me, can you, what do I tell them, what do I do
    r"\b(?:chámame|chámeme|chamádeme|avísame|avíseme|dígame|podes|poderías|pode vostede|"
    r"que lles digo|que fago|que facemos|necesito que)(?:[^a-z]|$)",
    # French: a question put to the reader ("Tu peux me donner ton accord ?", "Vous pouvez
    # venir ?"), tell me, what do I do; Rioplatense Spanish: tell me, send someone, I need to
    # know
    r"(?:\b(?:tu|vous) (?:as|avez|peux|pouvez|pourrais|pourriez|es|êtes|sais|savez|veux|voulez|"
    r"préfères|préférez|connais|connaissez)|\b(?:as-tu|avez-vous|peux-tu|sais-tu|savez-vous|"
    r"veux-tu|voulez-vous))[^.?!\n]*\?|\b(?:dis-moi|dites-moi|on fait quoi|je fais quoi|"
    r"je mets quoi|veuillez|je vous prie de|appelez-moi|tiens-moi au courant|tenez-moi au "
    r"courant|decime|decinos|avisame|avisanos|llamame|mandame|confirmame|necesito saber|"
    r"necesitamos saber|vi preghiamo di|la preghiamo di|ti prego)\b"
    r"|\b(?:avisá|mandá|confirmá|dime (?:qué|algo|si|cómo|cuándo))|\bbitte (?:\w+ ){0,6}bescheid\b",
    # Malay and Indonesian: can you send, please help, please give instructions, I am waiting
    r"\b(?:boleh (?:tak |\w+ )?(?:\w+ )?(?:hantar|tolong|bantu|call|telefon|hubungi|bagi|beri|"
    r"sahkan|datang|balas|maklumkan|bawa)|sila (?:\w+ )?(?:hubungi|hantar|beri|sahkan|balas|"
    r"maklumkan|telefon)|tolong|mohon|minta (?:\w+ )?(?:hantar|sahkan|maklum)|saya tunggu "
    r"arahan|perlu (?:encik|puan|dr|tuan|cik)|apa (?:perlu|patut|nak) (?:saya|kami|kita) buat|"
    r"(?:call|telefon|hubungi) saya|bisa (?:tolong|kirim|bantu)|harap (?:segera )?(?:hubungi|"
    r"kirim|balas))\b",
    # Danish and Norwegian: can you, will you, call me, let me know, what do we do, I need,
    # please answer, confirm, help
    r"\b(?:kan i|kan dere|vil du|vil i|ring til mig|ring meg|ring til meg|giv besked|gi "
    r"beskjed|sig til|si ifra|hvad gør vi|hva gjør vi|jeg har brug for|vi har brug for|jeg "
    r"trenger|vi trenger|svar venligst|svar snarest|bekræft|bekreft|hjælp|hjelp)\b",
    # Czech and Slovak: please (with what is asked), can you, I need, call me, let me know,
    # confirm, send, approve, decide, what do we do, get in touch, come
    latin_words(r"pros[ií]m (?:v[aá]s |t[eě] |[tť]a )?(?:o |potvr|po[sš]l|zavol|schv|rozhod|"
                r"ozv|dej|daj|p[rř]ij|pri[dď]|kontakt|informuj|zkontroluj|skontroluj|zajist|"
                r"vy[rř]e[sš]|odpov|napi[sš]|pom|zastav|vypn|za[rř]i[dď]|zru[sš])\pL*|"
                r"m[uů][zž]ete|m[uů][zž]e[sš]|m[oô][zž]ete|m[oô][zž]e[sš]|mohl[a]? bys(?:te)?|"
                r"mohli byste|mohli by ste|pot[rř]ebuji|pot[rř]ebujeme|potrebujem|potrebujeme|"
                r"zavolejte mi|zavolej mi|zavolajte mi|zavolaj mi|dejte mi v[eě]d[eě]t|"
                r"dej mi v[eě]d[eě]t|dajte mi vedie[tť]|daj mi vedie[tť]|potvr[dď]te|"
                r"po[sš]lete|po[sš]lite|schvalte|schv[aá][lľ]te|rozhodn[eě]te|rozhodnite|"
                r"co m[aá]me d[eě]lat|co m[aá]m d[eě]lat|co m[aá]me robi[tť]|"
                r"co m[aá]m robi[tť]|ozv[eě]te se|ozvi se|ozvite sa|ozvi sa|p[rř]ijďte|"
                r"prijdite|pri[dď]te"),
    r"(?:^|[ \n(])čo m[aá]m(?:e)? robi[tť]",
    # German: call me (the polite form)
    r"\brufen sie (?:mich |uns )?(?:bitte )?(?:sofort |umgehend |gleich )?an\b",
    # Vietnamese: can you ...?, right away please, call me at once, please call / answer /
    # confirm / tell / send
    r"được không\s*\?|\bliền (?:nha|nhe|nghen)\b|\bliền nhé(?:[^\pL\pN_]|$)|"
    r"\bgọi (?:cho )?\pL+ (?:liền|ngay|gấp)\b|"
    r"\b(?:làm ơn|vui lòng) (?:gọi|trả lời|xác nhận|báo|gửi)\b",
    # Serbian in Cyrillic: please, let me know, call (me), I need, can you, tell me, answer
    # (each word's end is read, not its start, which would cost the asks' pass a tenth)
    word_ends("молим те|молим вас|јави ми|јавите|позови|позовите|треба ми|можеш ли|можете ли|"
              "реци ми|одговори", CYRILLIC),
    # Afrikaans: please, can you, let me know, call me, I need you, shall I
    r"\b(?:asseblief|kan jy|kan u|laat my weet|bel my|skakel my|ek het jou nodig|moet ek)\b",
    # Kannada: please, let (me) know, call, tell (whole words: "ತಿಳಿಸಿ", let me know, begins
    # "ತಿಳಿಸಿದ್ದೇನೆ", I have let you know); Georgian: please, call me, tell me, let me know,
    # can you, write to me (the asking forms: "დამირეკა" is "he called me")
    word_ends("ದಯವಿಟ್ಟು|ತಿಳಿಸಿ|ಕರೆ ಮಾಡಿ|ಫೋನ್ ಮಾಡಿ|ಹೇಳಿ", KANNADA),
    r"გთხოვ|დამირეკე|მითხარი|მითხარით|შემატყობინე|შეგიძლია|მომწერე",
    # Turkish: please, call me, let me know, get back to me, what shall we do, and the
    # question to "you" ("gelebilir misiniz?", can you come; "arar mısın?", will you call)
    r"\b(?:lütfen|beni arayın|beni ara|haber verin|haber ver|bana dönün|bana dön|ne yapalım|"
    r"ne yapayım|ne yapmamız gerek|(?:karar|onay(?:ınız|iniz|ı)?|cevap) (?:lazım|gerek\w*)|"
    r"gelmesi lazım|gelmeniz (?:lazım|gerek\w*))\b|\bm(?:ı|i|u|ü)s(?:ı|i|u|ü)n(?:(?:ı|i|u|ü)z)?\b",
    # ... and "we / you must ..." ("karar vermemiz lazım", "çıkarmanız gerekiyor")
    r"m(?:a|e)(?:m[ıi]z|n[ıi]z) (?:lazım|gerek|şart)",
    # Urdu: please, tell (me), call, come, can you? (with the Arabic question mark too)
    word_ends("براہ کرم|بتائیں|بتا دیں|بتا دینا|کال کریں|فون کریں|آ جاؤ|آ جائیں", ARABIC),
    "(?:سکتی|سکتے) (?:ہو|ہیں)[?؟]",
    # Gujarati: please, send, tell (me), let (me) know, call, come, can you?, help
    word_ends("કૃપા કરીને|મોકલો|મોકલી આપો|મોકલજો|મોકલી દેજો|કહેજો|કહેજે|જણાવો|જણાવજો|"
              "ફોન કરો|ફોન કરજો|આવી જાઓ|આવી જજો|શકશો\\?|શકીશ\\?|મદદ કરો", GUJARATI),
    # Tamil: please, can you?, tell (me), call, let (me) know, send, come
    word_ends("தயவுசெய்து|முடியுமா\\?|சொல்லுங்கள்|சொல்லுங்க|போன் செய்யுங்கள்|அழையுங்கள்|"
              "தெரிவிக்கவும்|தெரியப்படுத்துங்கள்|அனுப்புங்கள்|வாருங்கள்|வாங்க", TAMIL),
    # Marathi and Hindi: please, let me know, call, tell me, what shall I do, come at once
    word_ends("कृपया|कळवा|कळवावे|फोन करा|सांगा|काय करू|काय करायचं|काय करावं|लगेच या|बताइए|"
              "बताएं|बताओ|फोन करें|फोन करो|कॉल करें|क्या करें|जल्दी आइए|"
              "\u092b\u093cोन करें|\u092b\u093cोन करो|"
              # Hindi's polite imperative: do, give, take, come, go, send, keep, see (to
              # it), call in ("कर दीजिए", "आ जाइए", "भेज दीजिये")
              "कीजिए|कीजिये|दीजिए|दीजिये|लीजिए|लीजिये|आइए|आइये|जाइए|जाइये|भेजिए|भेजिये|"
              "रखिए|रखिये|देखिए|देखिये|बुलाइए|बुलाइये|करवाइए|भिजवाइए|पहुँचिए|पहुंचिए|"
              # and the familiar one (do, reach, send, tell), and a question whether "you"
              # can ("आप आ सकते हैं?", can you come?)
              "करो|पहुँचो|पहुंचो|भेज दो|भेज देना|बता दो|बता देना|"
              "सकते हैं\\?|सकती हैं\\?|सकोगे\\?|सकेंगे\\?", DEVANAGARI),
    # Punjabi: please, tell (me), call, come, let (me) know
    word_ends("ਕਿਰਪਾ ਕਰਕੇ|ਦੱਸੋ|ਦੱਸਿਓ|ਫੋਨ ਕਰੋ|ਫ਼ੋਨ ਕਰੋ|ਆ ਜਾਓ|ਆਓ ਜੀ|ਭੇਜੋ|ਕਰ ਦਿਓ", GURMUKHI),
    # Latvian, Lithuanian, Slovenian and Albanian: please, call (me), answer, can you, let
    # (me) know, what do we do, come
    latin_words(r"l[uū]dzu|piezvani|piezvaniet|zvani|zvaniet|atbildi|atbildiet|vai (?:j[uū]s )?"
                r"var(?:i|at)|dod(?:iet)? zi[nņ]u|ko dar[iī]t|ko dar[aā]m|pra[sš]au|"
                r"paskambink(?:ite)?|skambink(?:ite)?|atsakyk(?:ite)?|ar gal(?:i|ite)|"
                r"ka daryti|prane[sš]k(?:ite)?|atva[zž]iuok(?:ite)?|prosim|pokli[cč]i|"
                r"pokli[cč]ite|sporo[cč]i(?:te)?|javi(?:te)? se|ali lahko|kaj naj|pridi(?:te)?|"
                r"ju lutem|t[eë] lutem|m[eë] telefono|telefononi|m[eë] (?:thoni|thuaj)|"
                r"na duh(?:en|et)|ejani|eja|mund t[eë]|vajag (?:tavu|j[uū]su|tevi|j[uū]s)|saki|"
                r"uzraksti|koga naj|va[zž]iuok"),
    r"(?:^|[ \n(])(?:nāc|lėk)",
    r"(?:^|[ \n(])(?:ką daryti|çfarë të bëjmë)",
    # Bulgarian and Macedonian: please, call (me), tell me, can you, what do we do, come
    script_words("моля|обади се|обадете се|звънни|звъннете|кажи ми|кажете ми|можеш ли|"
                 "можете ли|какво да правим|ела|елате|ве молам|те молам|ве молиме|јави се|"
                 "јавете се|ѕвони|што да правиме|дојди|дојдете|да или не\\?|да ми кажеш|"
                 "ми трябва|ми треба|треба твое|треба ваше|јавете ми се|јави ми се|"
                 "што правиме", CYRILLIC),
    # Hungarian: please (I ask you), call (me), tell me, come, could you, do you approve,
    # decide, send, help, let me know, answer, what do we do
    latin_words(r"k[eé]rem|k[eé]rlek|k[eé]rn[eé]m|h[ií]vj(?:on)?(?: fel)?|h[ií]vjatok|"
                r"sz[oó]lj(?:on)?|gyere|gyertek|j[oö]jj(?:enek|[oö]n)?|tudn[aá]l|tudn[aá]tok|"
                r"tudn[aá]|j[oó]v[aá]hagyod|j[oó]v[aá]hagyja|d[oö]nts(?:d el|[oö]n)?|k[uü]ldd|"
                r"k[uü]ldj[eé]tek|seg[ií]ts|jelezd|jelezze|v[aá]laszolj|mit csin[aá]ljunk|"
                r"mit tegy[uü]nk"),
    r"(?:^|[ \n(])(?:írj|írjon|értesíts)",
    # isiZulu: please (I ask), call me, tell me, let me know, answer; Telugu: please, tell
    # me, call, come, let (me) know
    r"\b(?:ngicela|ungifonele|ngifonele|ngitshele|ungitshele|ungazise|ngazise|uphendule)\b",
    r"దయచేసి|చెప్పండి|ఫోన్ చేయండి|కాల్ చేయండి|తెలియజేయండి|రండి",
)
# "by Friday EOD" is days away, not the end of today.
_WEEKDAY_EOD = alternatives(r"\b(?:monday|tuesday|wednesday|thursday|friday) (?:eod|end of "
                            r"(?:the )?day|cob|close of business)\b",
                            # the weekday after: "a reply by end of day Friday"
                            r"\b(?:eod|end of (?:the )?day|cob|close of business),? (?:on )?"
                            r"(?:monday|tuesday|wednesday|thursday|friday)\b",
                            r"(?:월|화|수|목|금)요일 ?(?:오전|오후)? ?\d+시까지")
# A deadline days away (tomorrow, a weekday, the end of the week): something to answer,
# not an interruption. With a request it is some time pressure (0.5), never PUSH alone.
_SOON = alternatives(
    r"\b(?:tomorrow|within (?:the )?(?:next )?(?:\d+|an?|one|two) days?|(?:by|before|until) "
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|end of (?:the )?week)|"
    r"this (?:monday|tuesday|wednesday|thursday|friday))\b",
    r"내일|이번 주 ?(?:안|내|까지)",
)
# A request's own deadline on another day: "let me know by Friday", "bis Donnerstag, 4. März"
# (an ask, not the sender's promise: "we will confirm by Wednesday")
_ASKED_BY = (r"(?:(?:^|[.!?,;:\n] *|\b(?:please|pls|kindly|can|could|would|you|to|and|then|"
             r"just) )(?:let (?:me|us) know|reply|respond|get back to (?:me|us)|confirm|send|"
             r"return|sign|approve|submit|book|pay|decide|answer) (?:\w+ ){0,4}|(?:need|want) "
             r"(?:it|this|that|them|these|those|your \w+|an? \w+) |(?:a decision|an answer|a reply|"
             r"your (?:answer|reply|decision|confirmation|feedback|comments?)) )")
_DUE_OTHER_DAY = alternatives(
    _ASKED_BY + r"(?:by|before|no later than|not later than) (?:(?:this|next|the) )?"
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|next week|end of (?:the |next )?week|"
    r"\d{1,2}(?:st|nd|rd|th)|" + _MONTH + r" \d{1,2}|\d{1,2}(?:st|nd|rd|th)? " + _MONTH + r")",
    r"\b(?:bis|bis zum|bis spätestens|spätestens (?:am|bis)) (?:(?:kommenden|nächsten) )?"
    # ("bis Ende nächster Woche", "bis Ende des Monats": a day to come)
    r"(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|nächste woche|ende (?:der|"
    r"dieser|nächster|der nächsten|kommender) woche|ende (?:des|nächsten) monats|"
    r"\d{1,2}\. ?(?:\d{1,2}\.|januar|februar|märz|april|mai|juni|juli|august|september|oktober|"
    r"november|dezember))",
    # (French and Spanish with what is asked: "pas avant jeudi" is when a part comes)
    r"\b(?:répondre|confirmer|envoyer|renvoyer|retourner|signer|valider|transmettre|me dire|"
    r"nous dire|faire savoir|une réponse|votre réponse|ta réponse|ton retour|votre retour)"
    r"(?: [\w']+){0,4} (?:d'ici|avant) (?:le )?(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|"
    r"dimanche|la semaine prochaine|\d{1,2}(?:er)? (?:janvier|février|mars|avril|mai|juin|"
    r"juillet|août|septembre|octobre|novembre|décembre))",
    r"\b(?:répondre|confirmer|envoyer|renvoyer|retourner|signer|valider|transmettre|me dire|"
    r"nous dire|faire savoir)(?: [\w']+){0,4} (?:cette semaine|dans la semaine|d'ici (?:la )?fin "
    r"de (?:la )?semaine)",
    r"\b(?:confirmar|enviar|mandar|responder|contestar|firmar|decirme|avisarme|revisarlo|"
    r"una respuesta|tu respuesta|su respuesta)(?: \w+){0,4} "
    r"(?:antes del?|para el) (?:próximo )?(?:lunes|martes|miércoles|jueves|viernes|"
    r"sábado|domingo|\d{1,2} de (?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|"
    r"octubre|noviembre|diciembre))",
    r"(?:(?:월|화|수|목|금|토|일)요일|\d+월 ?\d+일|\d{1,2}/\d{1,2}|다음 ?주 ?\S*)(?:\([^)]*\))? ?"
    r"까지 (?:\S+ ){0,2}(?:회신|답|알려|보내|확인|제출|결정|주시)",
)
# A horizon of days or weeks: "returned after 10 days", "10 working days to respond".
_DAYS_AWAY = alternatives(r"\b(?:(?:in|after|within) (?:\d+|a few|two|three|several) (?:days|"
                          r"weeks)|\d+ (?:working|business) days|next week)\b",
                          r"\d+ ?일 ?(?:이내|안에|내에|후)|다음 ?주")
# a clock time today said as a limit: "before 14:00 today", "avant 15h aujourd'hui", "bis
# heute 17 Uhr", "antes de las 17:00 de hoy", "entro le 12 di oggi" (a deadline, and today)
_TODAY_LIMIT = (
    r"\b(?:(?:by|before) \d{1,2}(?:[:.]\d\d)? ?(?:am|pm)? today|today (?:by|before) \d{1,2}|"
    r"avant \d{1,2} ?h\d* aujourd'hui|aujourd'hui avant \d{1,2} ?h|bis heute,? \d{1,2}"
    r"(?:[:.]\d\d)? ?uhr|heute bis \d{1,2}|hoy antes de las? \d{1,2}|antes de las? \d{1,2}"
    r"(?:[:.]\d\d)? (?:de )?hoy|entro le (?:ore )?\d{1,2}(?:[:.]\d\d)? di oggi|oggi entro le)")
_DEADLINE = alternatives(
    r"\b(?:deadline|due|expires?|expiring|closes|closing|cutoff|cut-off|last day|"
    r"moved up|overdue|final notice|late fee|cut ?off|(?:entries|applications|registration|"
    r"submissions|bids|window|portal|bookings?) close[sd]?|frist\w*|bis spätestens)\b",
    r"마감|기한|만료|까지",
    r"\b(?:scadenza|scade|termenul|expira|prazo)\b|\bexpiră|термін|срок|дедлайн",
    # the same in Spanish, French, German and Portuguese: a deadline, it expires, at the latest
    r"\b(?:plazo|vence|vencen|vencimiento|caduca|fecha límite|a más tardar|date limite|expire|"
    r"expirera|au plus tard|dernier délai|spätestens|fällig|läuft (?:heute |morgen )?ab|"
    r"vencimento)\b|(?:^|[^\pL\pN_])échéance",
    # Dutch: at the latest, it expires, the due date; without an answer by then ...
    r"\b(?:uiterlijk|ten laatste|vervalt|verloopt|vervaldag|vervaldatum|zonder (?:uw |jouw |je )?"
    r"(?:antwoord|reactie|bevestiging|tegenbericht))\b",
    # Bulgarian and Macedonian: at the latest
    script_words("най-късно|најдоцна", CYRILLIC),
    # Hungarian: a deadline, at the latest, it expires, it falls due
    latin_words(r"hat[aá]rid[oő]\w*|legk[eé]s[oő]bb|lej[aá]r\w*|esed[eé]kes\w*"),
    # Czech and Slovak: a time limit, at the latest, the due date, it expires
    latin_words(r"lh[uů]t[aěeyu]|lehot[aeyu]|uz[aá]v[eě]rk[aeyu]|uz[aá]vierk[aeyu]|"
                r"splatnost|splatnos[tť]|nejpozd[eě]ji|najnesk[oô]r|vypr[sš][ií]|"
                r"kon[cč][ií] platnost"),
    # what happens if the time passes: "à défaut, le navire sera maintenu au port"
    r"\b(?:faute de quoi|sans quoi|failing which|failing that|de lo contrario|en caso "
    r"contrario|andernfalls|in mancanza|altrimenti)\b|(?:^|[^\w])à défaut\b",
    _TODAY_LIMIT,
)
_NO_ACTION = alternatives(
    r"\b(?:no (?:further )?action (?:is )?(?:needed|required)|fyi|for your information|"
    r"just sharing|no need to (?:reply|respond|answer|do anything)|just so you know|"
    r"if (?:this|it) was you|(?:you can|please) (?:safely )?ignore this (?:e-?mail|message|"
    r"notice)|"
    r"nothing (?:else |more |further )?(?:is )?(?:needed|required) (?:from|of) you|"
    r"nothing (?:else |more |further )?(?:that )?you (?:need|have) to do|"
    r"nothing (?:else |more |here )?needs your (?:action|attention|input|reply|response)|"
    r"nothing (?:else |more )?for you to do|"
    # ("Maßnahmen" is read folded, "massnahmen": a pattern's "ß" never matches)
    r"nothing to do|keine weiteren massnahmen|kein handlungsbedarf|aucune action (?:n'est )?"
    r"(?:requise|nécessaire)|no (?:es necesario|hace falta) (?:hacer nada|que haga)|para que lo "
    r"sepas|pour (?:votre |ton )?information|zur (?:info|kenntnis)(?:nahme)?)\b",
    r"참고용|참고로|조치 (?:불필요|필요 없)|조치할 (?:건|것|필요)(?:은|는)? 없|따로 할 (?:일|건|것)"
    r"(?:은|는)? 없|"
    # a report's "특이사항 없음": nothing out of the ordinary
    r"특이 ?사항(?:은|이)? 없",
    r"\b(?:per conoscenza|solo per informazione|nessuna azione richiesta|spre [șş]tiin[țţ][ăa]|"
    r"nu este necesar[ăa] nicio ac[țţ]iune|para (?:seu )?conhecimento|nenhuma a[çc][ãa]o "
    r"necess[áa]ria|não (?:é preciso|é necessário|precisas? de|precisa) fazer (?:mais )?nada|"
    r"ne trebate (?:ništa|nista) (?:poduzimati|poduzeti|raditi)|nije potrebno (?:ništa|nista))|"
    r"для інформації|для сведения",
    greek("για ενημέρωση|για την ενημέρωσή σας|δεν χρειάζεται καμία ενέργεια"),
    r"\bkwa taarifa (?:yako|yenu)\b",
    # Czech and Slovak: for your information, nothing to do
    latin_words(r"pro (?:va[sš]i )?informaci|na v[eě]dom[ií]|pre (?:va[sš]u )?inform[aá]ciu|"
                r"na vedomie|nen[ií] (?:pot[rř]eba|nutn[eé]) nic d[eě]lat|"
                r"netreba ni[cč] robi[tť]|nie je potrebn[eé] ni[cč] robi[tť]"),
    # English "for your records"; Dutch, Nordic, Polish and French "for your information" and
    # "you need not do anything"
    latin_words(r"for your records|ter (?:info|informatie|kennisname)|til (?:din |dykkar |"
                r"deres |jeres )?(?:orientering|informasjon|info)|f[oö]r (?:din )?k[aä]nnedom|"
                r"för (?:din )?information|(?:du|vi|dere|de|i) (?:trenger|treng|beh[oö]ver|"
                r"beh[oø]ver) (?:ikke|ikkje|inte) (?:gj[oø]re|gjere|g[oø]re|g[oö]ra) (?:noe|noko|"
                r"n[aå]got|noget)|tylko (?:dla )?informac(?:ja|ji)|do wiadomo[sś]ci|nie musisz "
                r"nic robi[cć]|rien [aà] faire (?:de (?:ton|votre) c[oô]t[eé]|pour (?:toi|vous))"),
)
# The sender says it can wait: this outweighs an "URGENT" subject, not real trouble told in
# the body ("login is down ... when you get a sec").
_RELAXED = alternatives(
    # (not "whenever you say": the sender is ready, the reader decides now)
    r"\b(?:whenever (?:you (?:can|like|want|wish|prefer|have (?:a|the) (?:moment|minute|time|"
    r"chance)|have time|get (?:a|the) chance|are free|'re free|are ready|'re ready|get round to "
    r"it)|(?:it'?s |is )?convenient|it suits|suits you|works for you)|"
    r"when(?:ever)? you (?:get|have) a (?:sec|second|minute|moment|chance)|at your "
    r"(?:earliest )?(?:convenience|leisure)|low priority|"
    r"no pressure)\b",
    # "it's not serious" in French, Spanish, Italian and German (trouble told still counts)
    r"\b(?:ce n'est pas grave|c'est pas grave|no es grave|non (?:è|e) grave|(?:ist )?nicht "
    r"(?:so )?schlimm)(?:[^a-z]|$)",
    r"편하실 때",
    # "today or tomorrow" is either; "tonight or tomorrow morning" offers a slot, and "when you
    # can today or tomorrow morning" asks for no particular one
    r"\b(?:today|tonight) or tomorrow(?:$|[^ a-z]| (?:is|are|works|would|please|if|latest|at "
    r"the latest|so|and|how|what|which|whether|when|who)\b)|\bwhen(?:ever)? you can,? (?:today|"
    r"tonight) or tomorrow\b",
    # Czech and Slovak: when you have time, whenever it suits you
    latin_words(r"a[zž] bude[sš] m[ií]t [cč]as|a[zž] budete m[ií]t [cč]as|ke[dď] bude[sš] "
                r"ma[tť] [cč]as|ke[dď] budete ma[tť] [cč]as|"
                r"kdykoli(?:v)? se (?:v[aá]m|ti) to hod[ií]"),
)
# A cheerful register: laughter, hearts, a party, love, in the sender's own words ("she passed!!
# 🎉", "오늘 저녁 먹자 ㅎㅎ", "jajaja"). A near time with a question is then an invitation or
# news, not an interruption, unless trouble, an incident or urgent words are told too.
# ("lol" is not here: people write it about trouble too, "dog is being good but not for long
# lol"; nor "jaja", which is also "eggs".)
_CHEERFUL = alternatives(
    "[\U0001F600-\U0001F606\U0001F60A\U0001F60D\U0001F618\U0001F602\U0001F923"
    "\U0001F970\U0001F973\U0001F389\U0001F38A\u2764\U0001F495\U0001F496\U0001F499-"
    "\U0001F49C\U0001F9E1]",
    # (written as matched: folding turns the compatibility jamo "ㅋ" into the leading "ᄏ")
    r"\^\^|" + fold("ㅋㅋ|ㅎㅎ"),
    r"\b(?:ha(?:ha)+|jaja(?:ja)+|hihi|xoxo|kkkk+)\b",
    # love said outright
    r"\b(?:love you|love ya|luv you|te quiero|te amo|je t'aime|hab dich lieb|ti voglio "
    r"bene)\b|사랑해",
)
# The sender says outright it is not urgent: this outweighs everything but explicit urgency
# of its own. Read before negations are taken out of scope ("no rush" is one).
_CALM = matcher(alternatives(
    r"\b(?:no rush|no hurry|not (?:actually |really |that |so )?urgent|nothing urgent|not "
    r"time[- ]sensitive|not in (?:a|any) (?:rush|hurry)|there'?s no (?:rush|hurry)|"
    # not today's: "it's not for today", "doesn't have to be today", "whenever you're out
    # this way next is fine"
    r"(?:not|isn'?t|is not) for today|(?:doesn'?t|does not|don'?t|do not) (?:have|need) to be "
    r"(?:today|now|this week)|whenever you(?:'re| are)? (?:\w+ ){0,4}is fine)\b",
    # French, Spanish and German: "rien d'urgent", "no hay prisa", "eilt nicht"
    r"\b(?:pas d'urgence|rien ne presse|rien d'urgent|pas (?:très |si )?urgent|(?:sin|no hay|no "
    r"corre) prisa|no es para hoy|sin urgencia|no hay (?:\w+ )?urgencia|no es urgente|"
    r"nada urgente|keine eile|"
    r"eilt nicht|nicht "
    r"(?:so |sehr )?dringend)\b",
    # (Korean: "no need to come right now", "지금 당장 안 와도 될 것 같아")
    r"급하지 않|급하진 않|천천히|안 (?:와도|오셔도|해도|하셔도) (?:돼|될|됩니다|되|괜찮)",
    r"\b(?:nessuna fretta|con calma|non (?:è|e) urgente|nu (?:e|este) urgent|f[ăa]r[ăa] "
    r"grab[ăa]|nu e grab[ăa]|sem pressa|não é urgente)|не терміново|не срочно|не горить",
    greek("δεν είναι επείγον|δεν βιάζομαι|δεν βιάζεται|χωρίς βιασύνη|όποτε μπορείς|"
          "όποτε μπορείτε"),
    r"\b(?:si (?:jambo la )?haraka|hakuna haraka|bila haraka|ez da premiazkoa|ez dago "
    r"presarik|presarik gabe|machi mosta3jal|geen haast|niet dringend|geen spoed)\b|"
    r"ليس عاجلا|ليس عاجلاً|غير مستعجل|لا داعي للاستعجال",
    r"\b(?:nije hitno|ništa hitno|nista hitno|nije žurno)\b|nema žurbe|bez žurbe",
    r"\b(?:ei kiire|ei ole kiire|ingen brådska|inte bråttom|pole kiire|pole kiiret|kiiret pole|"
    r"(?:ei ole|pole) kiireloomuline)",
    r"\b(?:ikke hastende|haster ikke|ingen hast|ingen hastverk|ikke akut|ikke akutt)\b",
    # Latvian, Lithuanian, Slovenian, Albanian: not urgent, no hurry
    latin_words(r"nav steidzami|nesteidzas|neskubu|neskubama|ni nujno|se ne mudi|"
                r"nuk [eë]sht[eë] urgjent|nuk ka nxitim|s'ka nxitim"),
    # Bulgarian and Macedonian: not urgent, no hurry
    script_words("не е спешно|няма бързане|не е итно|нема брзање", CYRILLIC),
    # Hungarian: not urgent, no hurry, it can wait
    latin_words(r"nem s[uü]rg[oő]s|nem siet[oő]s|nincs siets[eé]g|r[aá][eé]r|r[aá][eé]rsz|nem "
                r"kell sietni"),
    # Czech and Slovak: no hurry, it's not urgent, nothing urgent, without haste
    latin_words(r"nesp[eě]ch[aá]|nen[ií] (?:to )?(?:nijak |v[uů]bec )?(?:urgentn[ií]|"
                r"nal[eé]hav[eé])|nic (?:urgentn[ií]ho|nal[eé]hav[eé]ho)|bez sp[eě]chu|"
                r"nie je (?:to )?(?:nijako |v[oô]bec )?(?:urgentn[eé]|s[uú]rne|naliehav[eé])|"
                r"nepon[aá]h[lľ]a|ni[cč] s[uú]rne|ni[cč] urgentn[eé]")))
# Trouble told in plain words: something failed, someone is hurt, a payment is held. Less
# sure than an incident (a fire drill, a story about last year's outage), it counts only
# with a request or a near time ("the AC has failed ... need a yes/no").
_TROUBLE = alternatives(
    # (a phone's charge: after "%" RE2's "\\b" finds no word end)
    r"\b(?:phone|battery) is (?:at|on) \d+ ?%|\bphones? (?:is |'?s )?(?:on|at) \d+ ?%",
    r"\b(?:alarm (?:went|is going|going) off|fire alarm|(?:has|have|just) (?:failed|died|crashed|"
    r"stopped|collapsed)|died|"
    r"ambulance|(?:taken|rushed|admitted) to (?:the )?hospital|in "
    r"hospital|at the hospital|(?:not|isn'?t|aren'?t|no one|nobody"
    r"(?: from \w+)?) "
    r"(?:answering|picking up|picking (?:the )?phone|responding|picks up)|(?:didn'?t|did not|"
    r"hasn'?t|has not|haven'?t|"
    r"have not) (?:been )?(?:run|paid|arrived|gone out|shipped|started)|"
    r"stuck|stranded|won'?t make it|(?:temp|temperature) (?:is )?(?:\d+|reading|rising|"
    r"climbing|going up)|unaccounted for|se descompuso|"
    # water or fuel escaping, an animal or a load loose, a person slipped
    r"(?:water|it'?s|is) (?:spraying|gushing|pouring) (?:from|out|in|through|into|everywhere)|"
    r"(?:isn'?t|is not|won'?t|not) stopping|took off without|(?:diesel|fuel|oil) (?:went )?"
    r"in(?:to)? the water|sheen (?:spreading|on the water)|slipped (?:off|and fell|on the)|"
    r"overboard|adrift|lines? (?:have |has )?parted|overheat(?:ing|ed)|out of spec(?:ification)?|"
    # a reading going the wrong way, a consignment stopped on its way
    r"(?:pressure|voltage|oil level|water level) (?:is )?(?:dropping|falling|still falling)|"
    r"on hold at (?:the )?(?:\w+ ){0,2}(?:terminal|customs|port|border|airport|warehouse)|"
    r"(?:is|are) not (?:running|cooling|heating|starting)|(?:isn'?t|aren'?t|won'?t|doesn'?t) "
    r"(?:running|cooling|heating|start|turn on)|"
    r"roll ?back|(?:can'?t|cannot|unable to) (?:log ?in|make it|get in|release|get "
    r"through|print|pay|open)|we(?:'ll| will) lose|(?:has |have )?stopped (?:\w+ing|working)|"
    r"(?:lines?|phones?|power|internet|wi-?fi|network|systems?|servers?|site|scanners?|tills?|pos|"
    r"boilers?|heating|pumps?|compressors?|chillers?|freezers?|generators?|lifts?|elevators?|"
    r"e-?mail|vpn|portal|website|app) (?:is |are |went |has gone |have gone )?(?:down|dead|"
    r"offline)|power (?:is )?out|no power|lost power|leak(?:ing|s)?|flood(?:ed|ing)|spill|"
    r"collision|caved in|cave-in|tipped over|keeled over|(?:an|the|a) accident|"
    r"(?:is |it'?s |water )?dripping (?:in|into|onto|on|through|from|down)|sirens? (?:is |are )?"
    r"(?:going off|sounding|wailing)|"
    r"accident (?:on|at|in)|crash(?:ed)?|injur(?:ed|y|ies)|"
    r"unwell|breathless|collapsed|"
    r"unconscious|chest pain|"
    r"(?:call(?:ed|ing)?|ring(?:ing)?|rang|dial(?:led|ling|ing)?|phon(?:e|ed|ing)) "
    r"(?:999|911|112)|thr(?:ew|own) up|not making sense|(?:told|asked|ordered) (?:\w+ )?to "
    r"(?:leave|evacuate) (?:the|our) (?:building|site|premises|area)|cordoned off|suspicious "
    r"(?:object|package|device|parcel)|"
    r"police|beeping|locked out|clicked (?:on )?"
    r"(?:a|an|something|the) (?:bad|suspicious|dodgy|weird|link)|(?:entered|typed|put) (?:in )?"
    r"(?:my|his|her|their) (?:password|"
    r"credentials|details)|"
    r"(?:got|been|was|were) (?:hacked|phished|breached)|wrong (?:warehouse|address|client|"
    r"customer|recipient|person|account|patient)|sent (?:\w+ ){0,3}(?:by mistake|to the "
    r"wrong)|rolling back|froze|(?:is|are|has|have|got|'s|went) (?:\w+ )?frozen|frozen "
    r"(?:screen|card|account|pipes?|solid)|not taking (?:payments|cards|orders|calls)|is dead|"
    r"stopped overnight|i'?m sick|throwing up|can'?t stand|arrested|detained|in custody|"
    r"broke(?:n)? down|fuite|dégât des eaux|inond\w+|en panne|coule du plafond|"
    r"wasserschaden|rohrbruch|evakuier\w+|liegen ?geblieben|inundaci\w+|"
    r"fuga de agua|evacu[ae]\w*|averiad[oa]s?|avería|cifrad[oa]s|chiffrés|verschlüsselt|"
    r"szpital\w*|karetk\w+|złamani\w+|wypadek|wypadku|awari\w+|pożar\w*|zalani\w+|"
    r"nie działa|uderzy\w+|"
    # Polish: gas, smoke, hurt, fallen, unconscious, not answering, missing, stopped, held
    r"zapach gazu|czuć gaz|\bdym\b|rann[ya]|nieprzytomn\w+|nie odpowiada|"
    r"wstrzyma\w+|blokad\w+|brak salda|"
    # Polish: no heating, water or power; the furnace went out
    r"nie ma (?:ogrzewania|wody|prądu)|brak (?:ogrzewania|wody|prądu)|(?:piec|kocioł) "
    r"(?:\w+ )?zgas\w*|zgas\w* (?:piec|kocioł)|"
    r"evacuat\w+|gas (?:smell|leak)|smell of gas|(?:renew\w*|renewal|backup|payment|deploy\w*|"
    r"build|job|sync|import|upload|charge) failed|expired (?:at|overnight|this morning|today|"
    r"last night)|"
    # water and buildings
    r"water (?:is )?(?:still )?(?:pouring|coming|everywhere|leaking|running|through)|"
    r"pouring (?:in|through|out|down)|burst (?:pipe|main)|(?:hit|caught|damaged|struck) "
    r"(?:a|the) (?:water|gas) (?:main|pipe)|ceiling (?:is |has )?(?:collapsed|leaking|coming down)|"
    # a body in trouble
    r"swell(?:ing|ed)|fever|temperature of \d|bleeding|allergic reaction|anaphyla\w+|a&e|"
    r"emergency room|hard to (?:breathe|swallow)|can'?t breathe|fainted|seizure|heart attack|"
    r"fractured?|broken (?:arm|leg|wrist|ankle|hip)|concussion|"
    # a machine that will not, a door that will not open, a person waiting on it
    r"(?:won'?t|doesn'?t|does not|didn'?t|isn'?t|wasn'?t) (?:log ?in|start|open|load|boot|"
    r"connect|print|turn on)\w*|(?:rejected|refused|declined|blocked|held|"
    r"retained|impounded|seized) (?:at|by|in)|(?:has|have|'?s|'?ve) been (?:\w+ )?(?:waiting|"
    r"sat|sitting|standing|queu\w+)|(?:\d+|several|many|a few) (?:people|customers|groups|"
    r"patients|guests|buyers|drivers|trucks|lorries|callers) (?:\w+ )?(?:waiting|outside|queu\w+|"
    r"stuck|in the queue)|(?:is|are) (?:\w+ )?(?:upset|furious|angry|distressed)|(?:is|are) "
    r"(?:still )?(?:sat|sitting|stood|standing|queu\w+) (?:at|in|outside|on|by)|(?:'re|'s) "
    r"(?:still )?(?:standing|sitting|waiting|stuck) (?:at|in|outside|on|by)|(?:is|are) "
    r"(?:still )?waiting (?:at|outside|downstairs|in reception|in the lobby)|(?:just |has |"
    r"have )?arrived unannounced|(?:is|are) (?:in|at) reception|turned up|paramedics?|"
    # animals out: "horses loose on the road", "the cows are out on the lane"
    r"(?:horses?|pon(?:y|ies)|cows?|cattle|calves|sheep|ewes|yowes|lambs|dogs?|animals?|"
    r"livestock) (?:\w+ )?(?:loose|escaped|got out)|(?:are|is|got) (?:out|loose) on the (?:\w+ )?"
    r"(?:road|lane|motorway|track)|(?:horses?|cows?|cattle|calves|sheep|ewes|yowes|lambs|"
    r"livestock) (?:\w+ ){0,3}on (?:the|da|a) (?:\w+ )?(?:road|highway|motorway)|"
    # a vehicle off the road; a fridge's reading out of range
    r"slid off|(?:went|ran|came) off the road|in (?:the|a) ditch|rolled (?:over|on(?:to)? "
    r"(?:its|their) side)|tipped over|(?:fridge|freezer|cold room|cooler|chiller)[^.\n]{0,40}"
    r"(?:showing|reading|read|is at|was at|peaked at|went (?:above|over|up to)) -?\d+|"
    r"compromised|hacked|encrypted (?:files|drives)|"
    r"(?:hvac|heating|cooling|a/?c|air ?con\w*|cooler|freezer|fridge|boiler|pump|generator|"
    r"compressor|chiller|lift|elevator) (?:\w+ )?(?:went out|quit|died|failed|stopped|is out|"
    r"broke)|(?:and|still) (?:climbing|rising)|rising \d|wrong (?:photo|picture|guy|name|price|"
    r"amount|version|file|invoice|dose|item|figure)|accidente|se cort[óo]|lesionad[oa]|"
    r"accident du travail|verletzt|unfall|blutet|eingeklemmt|gestürzt|trapped|"
    r"(?:homes?|houses?|residents|customers|we|they|site|building) (?:are |is )?(?:now )?without "
    r"(?:water|power|heat\w*|electricity|internet)|main break|water main|changed the locks|"
    r"locked (?:me|us|them|him|her) out|evict\w*|(?:passengers|customers|patients|guests|drivers|"
    r"students|kids|children|people|buyers|callers) (?:are |still )?(?:waiting|stranded|stuck)|"
    r"(?:is|are) at (?:your|the|our) (?:dock|gate|door|site|entrance|depot) now|se ha caído|"
    r"(?:está|esta) en el hospital|est à l'hôpital|im krankenhaus|"
    r"vomit\w*|diarrh\w*|not eaten|(?:won'?t|isn'?t|not) eating|lethargic|(?:phone|line) (?:just )?"
    r"rings out|won'?t (?:release|process|accept|pay)|suspended (?:departures|flights|operations|"
    r"service|trains|sailings)|(?:sitting|waiting|sat) (?:in|at) (?:reception|the lobby|the "
    r"front desk)|showed up|(?:is|are) waiting (?:with|for) (?:me|us)|"
    r"(?:nobody|no one) came|everyone (?:has )?left|smoking|on fire|caught fire|fire "
    r"brigade|everyone out|missed the last (?:bus|train|ferry|tram)|"
    r"(?:both|all) (?:offline|down|dead)|coming thr(?:u|ough)|(?:nobody|no one) answers|"
    r"servers? (?:are |is )?(?:off|offline)|(?:engine|hydraulic|power|brake|steering|pump) "
    r"(?:failure|fault)|drifting|aground|capsiz\w*|blocking the (?:channel|road|entrance|gate|"
    r"exit)|across (?:my|the|our) (?:gate|drive|driveway|entrance)|unreachable|off sick|called in "
    r"sick|standstill|jackknif\w+|(?:brakes?|steering|engine|power) (?:went|has gone|is) (?:soft|"
    r"out|dead)|(?:smoke|fire|intruder|gas|co) alarm|(?:burnt|burning) smell|smell of burning|"
    r"keeps? tripping|hot to (?:the )?touch|zapped|electrocuted|(?:got|been) shocked|tingling|"
    r"won'?t budge|doesn'?t match|(?:cc|to) instead of bcc|in (?:the )?open cc|im offenen cc|"
    r"falschen? (?:verteiler|empfänger)|charco de aceite|(?:threw|throwing) (?:a |an )?(?:code|"
    r"error)|missed the (?:last )?(?:bus|train|ferry|tram|flight)|(?:had|having|suffered) a "
    r"(?:mild |minor |suspected )?stroke|taken into (?:the )?\w+|(?:has |have )?(?:shifted|sunk|"
    r"subsided)|"
    r"needle ?stick|(?:been|was|got|were|is|has|have|dog|snake) bitten|bitten (?:by|on)|"
    r"sacked|(?:been )?fired|laid off|walked (?:out|off site)|no "
    r"heat(?:ing)?|(?:completely|totally) (?:down|dead|offline)|overdue (?:walkers|hikers|"
    r"climbers|vessel|boat)|missing (?:walkers?|hikers?|person|child|resident|patient|divers?|"
    r"swimmers?|climbers?|skiers?|kids?|boy|girl)|(?:diver|swimmer|child|kid|boy|girl|skier|"
    r"climber) (?:is |still )?missing|sos (?:declared|activated|triggered|alert)|"
    r"retenid[oa]|(?:está|están|estamos|quedó) bloquead[oa]s?|no funciona|averiad[oa]|"
    r"herid[oa]|fiebre|fièvre|fieber|(?:echando|sale|saliendo) humo|bomberos|pompiers|"
    r"feuerwehr|(?:se )?ha ca[ií]do|guardia civil|stolen|broken into|break-?in|burglar\w*|"
    r"jimmied|forced (?:open|the (?:lock|door|gate|window))|cut the (?:padlock|lock|chain)|"
    r"smashed|clipped|reversed into|backed into|crashed into|gone missing|went missing|"
    r"flown off|flew off|gone over the|hors service|ne (?:re)?démarre (?:pas|plus)|"
    r"krankenwagen|polizei|notarzt|\w*anfall|lässt sich nicht|geht nicht auf|panik|piept|"
    r"feueralarm|(?:was|were|got|been|being|getting) towed|towed away|grúa|"
    r"(?:gives?|returns?|getting|shows?) (?:a |an )?(?:404|500|503)|tree "
    r"(?:down|fell|fallen|came down)|(?:came|brought|blown|fell) (?:\w+ )?down|(?:generator|"
    r"genny|engine|power|fridge|freezer|pump) (?:\w+ )?(?:cut out|quit|died)|"
    r"hard shoulder|accotement|(?:camion|véhicule|autobus|bateau|navire) (?:est )?"
    r"immobilis|broken down|\btripped\b|(?:not|isn'?t|stopped) (?:moving|breathing)|human "
    r"(?:remains|bones?|skull|femur)|aux urgences|en urgencias|feuer\b|incendi[eo]|no contesta\w*|"
    r"garrea|dragging (?:her |its |the )?anchor|(?:towards|onto|on) the rocks|"
    r"hacia las rocas|"
    r"(?:entra|entrada de) agua|taking on water|prend l'eau|"
    r"(?:caught|hit|struck|nicked|severed|cut through) (?:a|the|an) (?:\w+ )?(?:duct|cable|pipe|"
    r"main|gas line|power line)|"
    r"(?:rung|rang|called) (?:101|111|000|the police)|"
    # help on its way: "the brigade is on the way", "ambulance is coming"
    r"(?:fire brigade|brigade|ambulance|paramedics|fire engines?|firefighters|police) (?:is |are "
    r")?(?:on (?:the|their|its) way|coming|en route)|(?:there'?s|there is) a fire\b|"
    r"se ha (?:roto|inundado|caído|quemado)|inundad[oa]s?|(?:está|sigue) saliendo (?:el )?agua|"
    r"el agua (?:está|sigue) saliendo|tropft|durch die decke|"
    r"(?:taking|taken|took|driving|drove|rushing|rushed) (?:him|her|them) (?:in|to (?:the )?(?:a&e|"
    r"hospital|er|emergency|doctor|vets?|gp|walk-in|minor injuries))|(?:gearbox|clutch|tyre|tire) "
    r"(?:failure|fault|blew|blown)|(?:\d+|two|three|four|several|some) (?:\w+ )?dead\b|(?:da|dio|"
    r"tira) (?:un )?error|personne ne répond|"
    r"geplatzt|undicht|fehlgeschlagen|geht (?:seit [\d:.]+ (?:uhr )?)?nicht mehr|springt "
    r"nicht an|startet nicht|no (?:arranca|enciende)|sangr(?:a|ando)|salvamento|(?:en|la|une) crue|"
    r"interrompu\w*|"
    r"ausgefallen|funktioniert "
    r"(?:nicht|gar nicht)|geht nicht|en panne|ne fonctionne (?:pas|plus))\b",
    r"(?:\A|[^면\s]\s?|[^면]\s)안 ?(?:된다|되는|돼요|됩니다)|"
    r"롤백|응급|입원|화재|사고|멈췄|멈춰|먹통|고장|정전|누수|유출|"
    r"강제 ?종료|튕기|떨어졌|비정상 ?로그인|안 ?돼서|안 ?되고|대기 ?중|도착 ?안|"
    r"연락(?:이|도)? ?안 ?되|해킹|로그인이? 안|아직 안 ?왔|밀치|큰소리|알람 ?발생|"
    r"잘못 ?(?:들어가|나가|입력|표시|설정)|급락|발생 ?중|다운됐|터졌|"
    r"잘못 (?:발송|보냈|보내|나갔)|큰일|물이 (?:새|뚝뚝|떨어|차)|안 ?받(?:아요|네요|으)|"
    r"안 ?(?:돌아|돔)|물 ?새|두드러기|병원(?:을|에)? ?가야|"
    r"(?:물|기름|유압|오일)(?:이|가)? ?새|사용 ?중지|동물병원|응급실|"
    r"중단(?:됐|되었|됨)|작업 ?중지|"
    r"쓰러|넘어졌|골절|분실|도난|탑승 ?(?:불가|거부)|"
    r"119(?:에|를|가) ?(?:신고|불러|연락|출동)?|119 ?(?:신고|불러|출동)|"
    r"깔렸|끼었|끼임|베였|다쳤|다치셨|피가 ?(?:나|안 ?멈|멈추지)|접질|삐었|붓기가 ?심|"
    r"지혈|병원(?:으로|에)? ?(?:가는|이송|실려|데려)|연기가? ?(?:계속 )?(?:나|올라)|타는 ?냄새|"
    r"소방서|(?:통화|연결) ?(?:연결 )?안 ?(?:됨|돼|되)",
    # The common emergencies in each language the judge reads: a fire, a person hurt or
    # missing, a vehicle overturned, a roof gone, water rising.
    r"\b(?:(?:bush|grass|field|forest|hill|scrub|brush|house|kitchen|engine[- ]room|chimney|"
    r"electrical|vehicle|truck) ?fires?|(?:is |are |caught |set )?on fire|fire (?:is |has )?"
    r"(?:on|in|near|behind|moving|spreading|coming|heading|approaching|jumped|crossed)|smoke "
    r"(?:is )?(?:coming|pouring|from|over|everywhere)|embers|flames|electrocuted|passed out|"
    r"not breathing|(?:rolled|overturned|flipped) (?:over|on|in|off)|roof (?:\w+ )?(?:blown "
    r"off|torn off|collapsed|caved in|gave way)|water (?:is )?rising|"
    r"no (?:radio )?(?:contact|word) (?:from|with|since)|"
    r"incendie|en feu|feu (?:dans|sur|près|derrière) (?:le|la|les|l')|de la fumée|flammes|"
    r"urgences|malaise|inconsciente?|"
    # a ride to hospital, as "taken to hospital" in English
    r"(?:amène|amènent|emmène|emmènent|transporte|transportent) à "
    r"l'hôpital|(?:appelé|appelle) le 911|l'eau monte|"
    r"disparue?s?|pas de (?:contact|nouvelles)|"
    r"brennt|flammen|verletzt\w*|notaufnahme|bewusstlos|zusammengebrochen|unfall|"
    r"umgekippt|eingestürzt|wasser steigt|vermisst|nicht zurück\w*|"
    r"kein kontakt|incendio|se (?:está )?quemando|(?:hay|sale|mucho) humo|herid[oa]s?|urgencias|"
    r"desmay\w+|"
    r"electrocutad[oa]|accidente|volcad[oa]|el agua (?:sube|está "
    r"subiendo)|desaparecid[oa]s?|no (?:ha )?(?:vuelto|regresado)|sin contacto|"
    # a person crushed or buried, a vessel aground, adrift or taking water, oil on the water
    r"crushed|(?:was|got|been|badly|severely) burn(?:ed|t)|trapped (?:in|under|by|inside)|"
    r"dug out|aground|adrift|taking (?:on )?"
    r"water|capsized|lost (?:steering|propulsion)|oil (?:sheen|on the water)|"
    r"prend l'eau|eingeklemmt|gequetscht|verschüttet|aplastad[oa]|"
    r"atrapad[oa]|a la deriva|haciendo agua|encallad[oa]|"
    # Portuguese, the commonest emergencies
    r"ferid[oa]s?|acidente|incêndio|pegando fogo|não (?:voltou|retornou)|socorro|afundando|"
    r"fazendo água|vazamento|esmagad[oa])\b",
    r"불길|실종|의식(?:이)? ?없|부상(?:자|을|당)|열이 ?(?:39|40|41)|고열|표류|좌초|침수|매몰",
    # Italian, Romanian and Portuguese: fire, smoke, hurt, fallen, an ambulance, the hospital,
    # unconscious, not answering, missing, trapped, flooded, a gas leak, not working
    r"\b(?:fuoco|fumo|ferit[oaie]|infortun\w+|incidente|(?:è|e) caduto|(?:è|e) caduta|"
    r"caduto|ambulanza|pronto soccorso|ospedale|svenut[oa]|privo di sensi|priva di sensi|"
    r"non risponde|dispers[oa]|intrappolat[oa]|schiacciat[oa]|allagat[oa]|allagamento|"
    r"fuga di gas|non funziona|guasto|bloccat[oaie]|crollat[oa]|evacuazione|evacuare|"
    r"incendiu|r[ăa]ni[țţt]\w*|a c[ăa]zut|ambulan[țţ]\w*|ambulanta\b|ambulantei\b|spital\w*|"
    r"incon[șş]tient\w*|"
    r"le[șş]inat\w*|nu r[ăa]spunde|disp[ăa]rut\w*|inundat\w*|inunda[țţ]ie|explozie|"
    r"miros de gaz|scurgere de gaz|nu func[țţ]ioneaz[ăa]|s-a pr[ăa]bu[șş]it|a luat foc|"
    r"accident (?:grav|rutier|de munc[ăa])|a avut un accident|caiu|desmaiou|ambulância|"
    r"inconsciente|vazamento de gás|não funciona|tombou|capotou|machucad[oa]|sangr\w+|"
    r"cheiro (?:forte )?de gás|fogo|sendo levad[oa]|afogand\w+|alagad[oa]|inundad[oa]|"
    r"entrando (?:na|no|em)|sem energia|queda de energia|parou|ferma|fermo a|non parte|"
    r"in avaria|avaria|scalda|perde (?:acqua|olio|gas)|"
    # an alarm gone off, a break-in, a theft; a machine stopped in Spanish; a fever
    r"(?:s'est|se sont|me suis|nous sommes|on s'est) fait (?:voler|cambrioler|agresser)|"
    r"cambriol\w+|(?:a|ont) été volée?s?|plus de courant|coupure de courant|"
    r"scattat[oa] l'allarme|l'allarme (?:è )?scattat[oa]|forzat[aeio]|scasso|effrazione|"
    r"hanno rubato|rubat[aeio]|febbre (?:a |di )?(?:3[89]|4[01])|se ha (?:parado|roto)|"
    r"ha saltado (?:el|la)|no rearma)",
    # German: the power gone, water coming in, a smell of burning or gas, smoke, a machine
    # stopped or torn, a break-in, stuck on a roof
    r"\b(?:strom (?:ist )?(?:weg|aus)|kein strom|stromausfall|wasser (?:läuft|tropft|kommt)|"
    r"läuft wasser|riecht (?:\w+ )?(?:verbrannt|nach gas|nach rauch)|gasgeruch|"
    r"rauchentwicklung|qualm\w*|stehen ?geblieben|steht still|gerissen|geplatzt|eingebrochen|"
    r"einbruch|gestohlen|geklaut|gestürzt|hingefallen|steckt fest|sitzt fest|"
    r"festgefahren|kann nicht (?:mehr )?runter|abkochgebot|betriebsverbot|(?:ist|wird|sind|"
    r"werden)\s+(?:\w+\s+)?(?:untersagt|gesperrt|verboten))\b",
    # (a fullwidth "．" is folded to ".")
    r"(?:3[89]|4[01])\.\d ?度",
    r"пожежа|пожар|поранен|ранен|травм|аварія|авария|дтп|впав|впала|упал|швидк[аоу] "
    r"допомог|скорую|лікарн|больниц|без свідомості|без сознания|не відповідає|не отвечает|"
    r"зник(?:ла|ли|лий)? |пропал|затоплен|витік|утечк|вибух|взрыв|не працює|не работает|"
    r"не прийш(?:ов|ла)|не поверну(?:вся|лася)|не вернул(?:ся|ась)|не приш(?:ёл|ел|ла)|"
    r"нема(?:є)? (?:опалення|світла|води)|нет (?:отопления|света|воды)|заглох|замерзл|"
    r"эвакуатор|телефон садится|прорвал[оа]",
    # Estonian: an accident, a failure, fell, a fracture, a fire, burning, leaking, flooded,
    # the ambulance, the emergency room, hurt
    # (not "leke", which is also Norwegian and Danish "to play")
    r"\b(?:avarii\w*|rike|rikke\w*|kukkus|luumurd|tulekahju|põleb|lekib|lekkis|uputus|"
    r"kiirabi|emo-?sse|emos|vigastat\w+|vigastus\w*)\b",
    # Spanish: "I called 911"
    r"\b(?:ya )?llam[eé] al (?:911|112)\b",
    # Japanese: fire, smoke, hurt, collapsed, unconscious, an ambulance, taken to hospital,
    # missing, can't reach, flooded, leaking, broken down, a power cut, an accident
    r"火事|火災|煙が|けが|怪我|負傷|倒れ|意識が(?:ない|なく)|救急車|搬送|骨折|出血|行方不明|"
    r"連絡が(?:取れ|つか)ない|浸水|漏れ|故障|停電|止まっ|動かない|事故|やけど|火傷",
    # Vietnamese: the emergency room, an ambulance, the fire brigade, fainted, fell, a stroke,
    # chest pain, short of breath, admitted to hospital, called 911, an accident, hurt, on fire,
    # a power cut, flooded, water pouring in, not running, a leak, a theft, died, stuck,
    # bleeding
    script_words(r"cấp cứu|xe cứu thương|cứu h(?:ỏa|oả)|ngất|bị té|té ngã|bị ngã|đột quỵ|đau ngực|"
    r"khó thở|nhập viện|gọi 911|tai nạn|bị thương|đang cháy|cháy nhà|hỏa hoạn|mất điện|"
    r"cúp điện|ngập|nước tràn|tràn vào|không chạy|rò rỉ|bị trộm|mất trộm|qua đời|mất rồi|"
    r"bị kẹt|chảy máu", LATIN),
    # Dutch ("brand" and "storing" alone are English words too)
    r"\b(?:er is brand|uitslaande brand|rookontwikkeling|rook|gewond|gevallen|"
    r"(?:in|naar) (?:het |'t )?ziekenhuis|bewusteloos|neemt niet op|vermist|overstroomd|"
    r"ondergelopen|lekkage|lekt|"
    r"werkt niet|een storing|storing (?:in|aan|bij|op)|storingsmelding|kapot|ongeluk|ongeval|"
    r"gaslucht|gaslek|stroomstoring|vastgelopen)\b",
    # ... held, blocked, burst, water running, sick, feverish, stolen, broken into, forced,
    # shut down, out of order, stuck, no power or water, the fire brigade or the police, a
    # life in danger, a collision, hacked, an alarm gone off, not arrived (not an outbreak:
    # a circular about one is a notice, and English reads none)
    r"\b(?:geblokkeerd|tegengehouden|gesprongen|(?:het )?water (?:loopt|staat|komt|stroomt|"
    r"druppelt)|loopt (?:\w+ )?binnen|misselijk|koorts|overgeven|gestolen|inbraak\w*|"
    r"ingebroken|opengebroken|geforceerd|stilgelegd|ligt stil|stilgevallen|uitgevallen|valt "
    r"(?:steeds )?uit|defect|in panne|zit(?:ten)? vast|geen (?:stroom|water|verwarming|"
    r"elektriciteit)|zonder (?:stroom|water|verwarming)|brandweer|politie|ziekenwagen|"
    r"spoedgevallen|spoedopname|levensbedreigend|vergiftig\w*|allergische "
    r"reactie|bloedt|ingestort|omgewaaid|omgevallen|aanrijding|botsing|gehackt|alarm (?:gaat|"
    r"ging|is) af|afgegaan|co-melder|co melder|rookmelder|koolmonoxide|wateroverlast|"
    r"stormschade|onwel|flauwgevallen|reageert niet|ademt niet|niet (?:aangekomen|geleverd|"
    r"opgedaagd|komen opdagen)|oververhit|ontsnapt|losgebroken|gebeten|versleuteld|"
    r"(?:temperatuur|temp) (?:loopt op|stijgt|is gestegen))\b",
    # Greek and Swahili: fire, smoke, hurt, fallen, an ambulance, the hospital, fainted,
    # unconscious, not answering, missing, trapped, flooded, a leak, not working, an accident
    greek("φωτιά|πυρκαγιά|καπνός|καπνούς|τραυματ|έπεσε|ασθενοφόρο|εκαβ|νοσοκομείο|λιποθύμ|"
          "αναίσθητ|δεν απαντά|αγνοείται|αγνοούνται|εγκλωβισμ|παγιδευμ|πλημμύρ|διαρροή|"
          "δεν λειτουργεί|δεν δουλεύει|χάλασε|κατέρρευσε|εκκένωση|ατύχημα|τροχαίο|αιμορραγ|"
          "πόνο στο στήθος|πόνος στο στήθος|αναποδογύρισε|μπάζει νερά|προσάραξε|ακυβέρνητ|"
          "βυθίζεται|μυρίζει γκάζι"),
    r"\b(?:moto (?:umewaka|mkubwa|unawaka|umezuka)|kuna moto|imeshika moto|inaungua|"
    r"imeungua|moshi|ameumia|wameumia|amejeruhiwa|wamejeruhiwa|majeruhi|ameanguka|hospitali|"
    r"gari la wagonjwa|ambulensi|amezimia|hajitambui|hapokei simu|amepotea|wamepotea|hajarudi|"
    r"hawajarudi|mafuriko|imevuja|inavuja|uvujaji|haifanyi kazi|imeharibika|ajali|damu nyingi|"
    r"anavuja damu|imepinduka|inazama|gesi inavuja)\b",
    # Basque, Arabic and Moroccan Arabic: fire, smoke, hurt, fallen, an ambulance, the
    # hospital, unconscious, not answering, missing, flooded, a leak, not working, an accident
    r"\b(?:sutea|su hartu|zauritu\w*|erori da|erori egin|anbulantzia|ospitale\w*|konorterik "
    r"gabe|konortea galdu|ez du erantzuten|desagertu\w*|uholde\w*|ez dabil|ez dabiltza|hautsi "
    r"da|istripu\w*|larrialdi\w*|l3afya|tahet|tah|mjrou7|mjrouh|sbitar|spitar|ma khdamach|"
    r"mkhasra|ghre9|ghr9)\b",
    # (no bare "عطل", a fault, which begins "عطلة", a holiday; nor "إسعاف", which begins
    # "الإسعافات الأولية", first aid)
    r"حريق|اندلع|دخان|مصاب|إصابة|جرح|سقط|سقطت|سيارة (?:ال)?إسعاف|المستشفى|مستعجلات|فقد الوعي|"
    r"مغمى عليه|لا يجيب|لا يرد|لا ترد|مفقود|فيضان|تسرب|لا يعمل|معطل|تعطل|حادث|انهار|انهيار|"
    r"نزيف|تسمم|اختناق",
    # Croatian: not working, a fault, leaking, burst, no water or power, fire, bleeding,
    # hurt, fallen, missing, flooded, gas smell, an alarm gone off, stopped, not answering,
    # the hospital, an ambulance, firefighters, an accident, stuck, broken
    r"\b(?:ne radi|ne rade|kvar|kvara|u kvaru|curi|procurio|procurila|puklo|pukla|"
    r"pukao|nema vode|nema struje|nema grijanja|bez struje|bez vode|pozar|vatra|vatru|gori|"
    r"krvari|krvarenje|ozlijeđen\w*|ozljed\w+|pao je|pala je|je pao|je pala|nestao|nestala|"
    r"nestalo|nestali|poplav\w+|miris plina|curenje plina|proradio (?:je )?alarm|"
    r"alarm (?:je )?proradio|pišti|ugašen|ugasio|ugasila|stao je|je stao|stala je|je stala|"
    r"ne javlja|ne javljaju|ne odgovara|bolnic\w+|vatrogas\w+|nesreca|zaglavi\w*|"
    r"slomio|slomila|slomljen\w*|onesviješten\w*|bez svijesti|ne diše|vuče sidro|"
    r"sidro (?:ne drži|klizi))\b|nesreć[aeiu]|hitn(?:a|u|oj) pomo[ćc]|puknuć[ea]|"
    # a fire ("požar"), not fire prevention ("protupožarni")
    r"(?:^|[^\w\-čćšžđ])požar(?:a|u|om|e|i)?(?:[^\wčćšžđ]|$)|"
    # European Portuguese: a leak, broken down, won't start, not answering, no power,
    # the power failed, gone down, tested positive, missing, adrift, on fire, flooded
    r"\b(?:fuga de (?:água|agua|gás|gas)|avariou|avariad[oa]s?|não arranca|não pega|"
    r"não pegou|não atende|não responde|sem luz|falhou a luz|falha de (?:luz|energia|corrente)|"
    r"foi abaixo|deu positivo|desaparecid[oa]s?|a derivar|a arder|está a arder|inundado|"
    r"inundada|a sangrar|sem notícias)\b",
    # Irish: fell, hurt, sick, the hospital, an ambulance, a fire, dead, missing, broken,
    # leaking, pain
    r"\b(?:thit siad|gortaithe|tinn|ospidéal|otharcharr|dóiteán|marbh|"
    r"ar iarraidh|briste|ag sceitheadh|pian)\b",
    # German: overheated, gone out, dragging, adrift; Korean: the temperature keeps rising
    r"\b(?:(?:ist|sind) ausgegangen|slippt|treiben ab|treibt ab|vertrieben|undicht|"
    r"läuft voll|sinkt)\b|온도(?:가)? ?(?:계속 )?(?:올라|상승)|계속 (?:올라가|상승)",
    # Finnish and Swedish: not working, won't start, not answering, not come back, broken, a
    # fault, tripped, stalled, hurt, dead, an accident, a leak, a fire, smoke, a burst pipe, a
    # power cut, an ambulance, the hospital, frozen, down, burns
    r"\b(?:ei toimi|ei käynnisty|ei vastaa|ei ole tullut|ei palannut|ei ole palannut|rikki|"
    r"vikaantui|laukesi|sammui|loukkaantu\w+|kuollu\w+|kuolleita|onnettomuu\w+|vuotaa|"
    r"vuoto|tulipalo|savua|putkirikko|sähkökatko|ambulanssi|sairaala\w*|jäätyi|jäätyny\w+|"
    r"alhaalla|kadonnut|kadoksissa|tajuton|brännskad\w+|olycka|ambulans\w*|sjukhus\w*|"
    r"det brinner|läcker|fungerar inte|har gått sönder|försvunnen|skadad|kaatui|kaatunut|"
    r"har vält|välte|vattnet rinner|rinner in|det droppar|inbrott|strömavbrott|"
    r"tippuu vett|vettä tippuu|vuotanut|valunut|murto|murrettu|murtauduttu|"
    r"eikä vastaa|eikä avaa|ei avaa ovea|"
    r"jumissa|jumiin|karkuteill|tie poikki|i diket|sitter fast|står still|ligger nere|"
    r"(?:terminalerna|systemet|kassan|nätet) (?:är )?nere)\b|"
    # a Finnish compound of a leak ("dieselvuoto", "vesivuoto"); Spanish sirens, a tornado
    # warning
    r"[a-zäö]vuoto\b|\b(?:sirenas|aviso de tornado|alerta de tornado)\b",
    # words that start with a letter RE2's ASCII "\\b" does not know: it sees no word start
    # after a space ("évacuation", "überschwemmt", "är nere")
    r"(?:^|[^\pL\pN_])(?:évacu\pL*|überschwemm\pL*|überfallen|är nere)",
    # Galician: burst, spilled, fire, hurt, not working, won't start, broken down, stopped,
    # listing, sinking, flooded, won't arrive
    r"\b(?:rebentou|rompeu|caeu (?:aceite|auga|gasóleo)|lume|ferid[oa]s?|non funciona|"
    r"non arranca|avariad[oa]|está parad[oa]|quedou parad[oa]|escorando|afundindo|"
    r"inundad[oa]|non chega)\b",
    # French: under water, water coming out, a pipe burst, stuck in the mud, broken, not
    # answering, smells of burning, smoking, melted, taken on water, sinking, overflowed, on
    # fire; Rioplatense Spanish: burnt out, smoke, no
    # water or power, the cows on the road, won't start
    # (words ending or starting in an accented letter stand outside "\\b")
    r"\b(?:sous l'eau|de l'eau qui (?:sort|coule|rentre|entre|passe)|l'eau (?:monte|passe "
    r"par-dessus|rentre|entre)|ne décroche (?:pas|plus)|sur répondeur|a fondu|salió humo|"
    r"(?:está|se está|sigue) (?:entrando|cayendo|saliendo) (?:el |mucha )?agua|está "
    r"rebosando|se (?:desbordó|desborda|está desbordando)|"
    r"(?:a|ont|avait) pris l'eau|en train de (?:couler|sombrer|caler)|(?:a|ont|est|sont) "
    r"débordée?s?|(?:a|ont) pris feu|(?:il )?y a le feu|"
    r"sin (?:agua|luz)|no hay (?:agua|luz)|no arranca|en la ruta|jadeando)\b|\b(?:(?:a|ont) "
    r"pété|a lâché|(?:est|sont) (?:planté|embourbé|enlisé)|sent le brûlé|se (?:nos |me |"
    r"le |les )?(?:quemó|cortó|cayó|rompió|averió|derrumbó)|volcó|(?:dans le|au) fossé|toit "
    r"(?:\w+ )?(?:arraché|effondré|a cédé)|thit (?:sé|sí)|gortú)|ça fume|s'arrête tout seul|"
    r"(?:^|[^\w])(?:à la dérive|à deriva|überschlagen|überhitzt)"
    # a cold room's reading: "la chambre froide est à 9 °C", "la cámara marca 11 grados"
    r"|\b(?:chambre froide|frigo|congélateur|cámara(?: de frío)?|heladera|cella frigorifera|"
    r"frigorifero) (?:[\w']+ ){0,3}(?:est à|à|marca|segna|indica) -?\d",
    # Malay and Indonesian: flood, fire, injured, unconscious, an accident, an ambulance,
    # missing, not back, cannot be reached, broken, leaking, cut off, trapped, sinking, a
    # landslide, bitten by a snake
    r"\b(?:banjir|kebakaran|terbakar|cedera|tercedera|luka parah|pengsan|tidak sedarkan diri|"
    r"kemalangan|kecelakaan|ambulans|hilang|belum (?:balik|pulang|sampai)|tak (?:dapat|boleh) "
    r"(?:dihubungi|hubungi)|tidak dapat dihubungi|tak berjawab|tidak berjawab|rosak|bocor|"
    r"terputus|tiada (?:bekalan|elektrik|air)|tidak berfungsi|tak berfungsi|air (?:naik|masuk)|"
    r"terperangkap|terkandas|tenggelam|karam|hanyut|tanah runtuh|pokok tumbang|sesak nafas|"
    r"dipatuk ular|terjatuh|melecur)\b",
    # a reading that is still getting worse: "pulpa a 18,6 °C y subiendo", "3 inches and
    # rising", "l'eau ... et ça monte", "계속 올라가요"
    r"\b(?:and (?:still )?(?:rising|climbing)|still (?:rising|climbing)|(?:y|sigue|siguen) "
    r"subiendo|et (?:ça )?monte|und steigt|steigt weiter|e sta salendo|e continua a salire|"
    r"(?:e|et) augmente)\b|계속 올라|올라가고 있",
    # Danish and Norwegian: not working, won't start, not answering, the power is out, flooded,
    # leaking, broken, stuck, hurt, fell, missing, off the road, a fire, an ambulance, hospital
    r"\b(?:virker ikke|fungerer ikke|starter ikke|svarer ikke|tager ikke telefonen|tar ikke "
    r"telefonen|strømmen er gået|strømmen er borte|strømafbrydelse|strømbrudd|ingen strøm|"
    r"oversvømme\w*|lækker|lekker|i stykker|sidder fast|sitter fast|kommet til skade|skadet|"
    r"er faldet|har falt|savnet|forsvundet|ikke kommet hjem|kørt af vejen|kjørt av veien|i "
    r"grøften|i grøfta|det brænder|det brenner|brann|ambulanse|sygehus\w*|sykehus\w*)\b",
    # Czech and Slovak: not working, won't start, not answering, a fault, a breakdown, an
    # outage, no power, water leaking, a leak, a fire, burning, smoke, hurt, fell, an
    # ambulance, the hospital, flooded, stuck, lost, missing, an accident, the line stopped,
    # frozen, burst, broken, stolen, broken into
    latin_words(r"nefunguje|nefunguj[ií]|nefunguj[uú]|nejede|nesp[uú]st[ií]|nenasko[cč][ií]|"
                r"neodpov[ií]d[aá]|neodpoved[aá]|nebere telefon|nedv[ií]ha|porucha|poruchu|"
                r"hav[aá]ri[eiu]|v[yý]padek|v[yý]padok|nejde proud|nen[ií] proud|nie je pr[uú]d|"
                r"bez proudu|bez pr[uú]du|te[cč]e voda|te[cč]ie voda|un[ií]k[aá]|unik|"
                r"po[zž][aá]r|po[zž]iar|ho[rř][ií]|kou[rř][ií]|dym[ií]|zran[eě]n[yýaáéií]|"
                r"zranen[yýaáéí]|spadl[ao]?|spadol|z[aá]chranka|z[aá]chranku|sanitk[au]|"
                r"nemocnic[ieu]|zaplaven[oéaáý]|zatopen[oéaáý]|uv[ií]zl[ao]?|uviazol|uviazla|"
                r"zasekl[ao]?|zaseknut[yýaáé]|pohřešuje|nezv[eě]stn[yýaáí]|nehod[ayu]|"
                r"stoj[ií] linka|linka stoj[ií]|zamrzl[oa]?|prasklo|praskla|praskl[eé] potrub[ií]|"
                r"ukradli|ukraden[yýaáé]|vykraden[oéaá]|vloupal\pL*|vl[aá]mal\pL*"),
    r"(?:^|[ \n(])únik",
    # calls that find no one ("no answer", "goes straight to voicemail"); chest pain
    r"\bno answer\b|\b(?:goes|going|went|go) (?:straight |directly )?to voice ?mail|\bchest "
    r"pains?\b",
    # a live wire, gas escaping, a car off the road, a birth starting
    r"\b(?:(?:is |it'?s |are |keeps? |started )sparking|sparks? (?:flying|coming)|gas (?:is )?"
    r"(?:blowing|escaping|hissing)|(?:cable|wire|power line)s? (?:has |have |had )?(?:come|came|"
    r"fallen|blown) down|(?:live|downed) (?:wire|cable|power line)s?|(?:spun|skidded|slid) "
    r"(?:out|off|into)|went off the road|into the guardrail|having contractions)\b",
    # French and Polish words that start or end with an accented letter, as whole words
    # (`script_words`: RE2's "\\b" is ASCII-only): hurt, fainted, electrocuted, taken to, fell,
    # a vehicle overturned, lying on its side, collapsed, not back, crushed, caught,
    # evacuated; fallen, missing, overturned, not arrived, standing still; stuck
    script_words(r"blessée?s?|évanouie?s?|électrisée?s?|électrocutée?s?|transportée?s? à|"
                 r"(?:est|s'est|sont) tombée?s?|(?:voiture|camion|véhicule|bus|car) (?:\w+ )?"
                 r"(?:renversée?|accidentée?)|couchée? sur le (?:côté|flanc)|s'est effondrée?|"
                 r"pas (?:encore )?(?:rentrée?s?|revenue?s?)|écrasée?s?|coincée?s?|évacu[a-zà-ɏ]*|"
                 r"upadła?|zagin[ąę]ł[a-zà-ɏ]*|przewróci[a-zà-ɏ]*|nie dojechał[a-zà-ɏ]*|stoją|"
                 # stuck: "sont bloqués", "bloquée à la frontière" (in the "\\b" group
                 # above, an ASCII "\\w" never took the "é": it never matched)
                 r"(?:est|sont|suis|sommes|reste|restent) bloqu[a-zà-ɏ]*|bloquée?s? (?:au|en|"
                 r"dans)", LATIN),
    r"\bambulancias?\b",
    # someone fell: off, down, from, at the end of a sentence; not "fell in love" (a
    # stranger's opener), not "prices fell sharply" (German "bitten" is "to ask", so the English
    # bite needs its verb or "by" above)
    r"\bfell(?: (?:off|down|over|from|on|onto|into|in (?:the|a)|and|out|through (?:the|a)|while|"
    r"trying|at|backwards|badly|hard|yesterday|today|this morning|last night)\b| ?[.,;:!)\n]|$)",
    # Serbian (its Latin letters where they differ from Croatian's, above, and Cyrillic): hurt,
    # fainted, no heating, a crash; not working, a fault, leaking, burst, no water or power,
    # fire, burning, bleeding, fallen, missing, flooded, a gas smell, the hospital, firemen,
    # an accident, stuck, broken, not answering, an ambulance
    # (Cyrillic as whole words: "гори", burning, begins "гориво", fuel)
    r"\b(?:povređen\w*|povreda|onesvešćen\w*|nema grejanja|udes|udesu)\b",
    script_words(r"не ради|не раде|квар[ауе]?|цури|пукла|пукао|нема воде|нема струје|"
                 r"нема грејања|пожар[ауе]?|гори|крвари|повређен[аио]?|пао је|пала је|нестао|"
                 r"нестала|поплав[аеуи]|мирис гаса|болниц[аиуе]|ватрогас[а-џ]*|несрећ[аеиу]|"
                 r"заглав[а-џ]*|сломио|сломила|онесвешћен[аио]?|хитна помоћ|не јавља|"
                 r"не одговара", CYRILLIC),
    # Afrikaans: not working, broken, a leak, on fire, the fire brigade, an ambulance, the
    # hospital, an accident, hurt, fainted, missing, flooded, no water or power, a gas leak,
    # not answering
    # (not "lek" alone: "lekë" is Albania's money, and RE2's "\\b" stands before the "ë")
    r"\b(?:werk nie|is stukkend|lekkasie|aan die brand|brandweer|ambulans|hospitaal|"
    r"ongeluk|beseer|flou geword|vermis|oorstroom\w*|geen water|geen krag|sonder krag|"
    r"gaslek|ruik gas|antwoord nie|tel nie op)\b",
    # Kannada: an accident, fire, a leak, the hospital, an ambulance, injured, bleeding,
    # missing, not working, stuck, fainted, no power, a flood, not picking up (not "ಗಾಯ",
    # a wound, which begins "ಗಾಯಕ", a singer; not "ರಕ್ತ", blood, as in a blood test)
    r"ಅಪಘಾತ|ಬೆಂಕಿ|ಸೋರಿಕೆ|ಆಸ್ಪತ್ರೆ|ಆಂಬುಲೆನ್ಸ್|ಗಾಯಗೊಂಡ|ಗಾಯವಾಗಿ|ರಕ್ತಸ್ರಾವ|ಕಾಣೆಯಾ|ಕೆಲಸ ಮಾಡುತ್ತಿಲ್ಲ|"
    r"ಸಿಕ್ಕಿಹಾಕಿ|"
    r"ಪ್ರಜ್ಞೆ ತಪ್ಪಿ|ಕರೆಂಟ್ ಇಲ್ಲ|ವಿದ್ಯುತ್ ಇಲ್ಲ|ಪ್ರವಾಹ|ಎತ್ತುತ್ತಿಲ್ಲ",
    # Georgian: an accident or breakdown, fire, a leak, the hospital, an ambulance, hurt,
    # bleeding, lost, not working, stuck, fainted, no power or water, flooded, a gas smell,
    # not answering, fell
    r"ავარი|ხანძარ|გაჟონ|საავადმყოფო|სასწრაფო დახმარება|დაშავ|სისხლდენ|დაიკარგა|არ მუშაობს|"
    r"გაიჭედა|გონება დაკარგა|დენი არ არის|შუქი არ არის|წყალი არ არის|დატბორ|გაზის სუნი|"
    r"არ პასუხობს|დაეცა",
    # Turkish: a fault, fire, smoke, a leak, water coming in, an accident, hurt, burnt, in or
    # to hospital, an ambulance, 112 called, fainted, bleeding, gone missing, collapsed or
    # crashed, toppled, not working, the power cut, no power or water, an earthquake, frozen,
    # not answering, the phone off, cannot reach, stranded (with and without the letters
    # mail typed on a foreign keyboard drops: "ariza", "calismiyor")
    latin_words(r"ar[ıi]za|yang[ıi]n|duman|s[ıi]z[ıi]nt[ıi]|s[ıi]zd[ıi]|su bas|su geliyor|"
    r"su damlıyor|kaza(?:ya|da|s[ıi]|y[ıi])?|yaral[ıi]|yaraland[ıi]|yand[ıi]|yan[ıi]k|"
    r"hastanede|hastaneye (?:kald[ıi]r|götür|sevk)|ambulans|112'?(?:yi|ye)? arad[ıi]|"
    r"bay[ıi]ld[ıi]|kanama|kayboldu|calism[ıi]yor|cokt[uü]|devrildi|y[ıi]k[ıi]ld[ıi]|"
    r"elektrik kesildi|elektrik yok|su yok|deprem|dondu|açm[ıi]yor|cevap vermiyor|"
    r"telefonu kapal[ıi]|ulaşam[ıi]yorum|ulaşamad[ıi]m|mahsur|patla\w*|su gir\w*|"
    r"yolu? kapal[ıi]|yol kapand[ıi]|hastane[\w']* kald[ıi]r\w*|"
    # ... fell, stopped, scalded, to or at the emergency room, to hospital now, dizzy,
    # swollen, did not come on, an alarm went off and it shut itself down; the power, water,
    # gas or internet cut (not "fatura kesildi", an invoice issued)
    r"d[uü][sş]t[uü]|durdu|ha[sş]land[ıi]|acile|acilde|hastaneye (?:gidiyor|g[oö]t[uü]r[uü]yor\w*|"
    r"getirdik)|ba[sş][ıi] d[oö]n[uü]yor|[sş]i[sş]ti|devreye girmedi|alarm[ıi]? verdi|kendini "
    r"kapatt[ıi]|(?:elektri\S*|suyu?|do[gğ]algaz\S*|internet\S*) (?:\S+ ){0,2}kesildi"),
    script_words("çalışmıyor|çalışmıyordu|çöktü|çöktüler", LATIN),
    # Marathi and Hindi: an accident, hurt, fainted, a fire, in or to hospital, an
    # ambulance, burst, a leak, no water or power, vomiting, a fever, not picking up,
    # missing, broken down, a flood, hail (whole words where a longer word ends with one:
    # "ताप", fever, ends "संताप", anger)
    word_ends("अपघात|दुर्घटना|हादसा|जखमी|घायल|बेशुद्ध|बेहोश|आग लागली|आग लागल|आग लगी|"
              "आग लग गई|वणवा|हॉस्पिटलमध्ये|हॉस्पिटलला|रुग्णालयात|दवाखान्यात|अस्पताल में|"
              "अस्पताल ले|म्ब्युलन्स|रुग्णवाहिका|एम्बुलेंस|एंबुलेंस|फुटला|फुटले|फुटली|गळती|"
              "पाणी नाही|पाणी संपल|पाणी संपत|पानी नहीं|वीज नाही|वीज गेली|लाईट गेली|बिजली नहीं|"
              "बिजली गई|चक्कर येऊन|बुखार|फोन लागत नाही|फोन बंद|फोन उचलत नाही|बेपत्ता|लापता|"
              "बंद पडल|बंद पडले|खराब हो गया|खराब हो गई|काम नहीं कर रहा|काम नहीं कर रही|टूट गया|"
              "बाढ\u093c|गारपीट|नुकसान झाल|"
              # Hindi: breathless, chest pain, taken ill, overturned, burnt out, smoke, the
              # power gone
              "साँस फूल|सांस फूल|सीने में दर्द|सीने में भारीपन|तबीयत (?:बहुत )?(?:खराब|"
              "ख\u093cराब|बिगड़)|पलट गई|पलट गया|पलटी|जल गया|जल गई|धुआँ|धुआं|"
              "बिजली (?:पूरी )?बंद", DEVANAGARI),
    script_words("ताप|पूर|उलटी|उल्टी", DEVANAGARI),
    # Latvian, Lithuanian, Slovenian and Albanian: a fire, an accident, fell, the hospital,
    # an ambulance, not working, not answering, the power gone, water leaking, flooded, a
    # burst pipe, stolen, hurt, stuck, a roof caved in
    latin_words(r"ugunsgr[eē]ks|negad[iī]jums|nokrita|slimn[iī]c\w*|[aā]tr[aā] pal[iī]dz[iī]ba|"
                r"nestr[aā]d[aā]|neatbild|elektr[iī]ba pazuda|nav elektr[iī]bas|tek [uū]dens|"
                r"applūdis|plīsa|nozagts|av[aā]rij\w*|atsl[eē]dz[aā]s|gaisras|nukrito|"
                r"ligonin\w*|greitoji|neveikia|nedirba|neatsiliepia|dingo elektra|"
                r"teka vanduo|u[zž]liejo|tr[uū]ko vamzdis|pavog[eė]|pavogta|susi[zž]eid[eė]|"
                r"su[zž]eist\w*|po[zž]ar|nesre[cč]a|je padel|je padla|bolni[sš]nic\w*|"
                r"re[sš]eval\w*|ne dela|ne deluje|ni elektrike|zmanjkalo elektrike|te[cč]e voda|"
                r"poplav\w*|po[cč]ila cev|ukraden\w*|po[sš]kodoval\w*|se ne oglasi|zjarr|"
                r"aksident|u rr[eë]zua|spital\w*|ambulanc[aë]\w*|nuk punon|iku drita|uji hyri|"
                r"u prish|u thye|e thyer|i thyer|vodh[eë]n|u vodh|nuk p[eë]rgjigjet|u plagos"),
    latin_words(r"neatsiliepi|atitr[uū]ko|gelb[eė]tojai|gasilc\w*|te[zž]k[oe] diha|te[cč]e kri|"
                r"udrl\w*|krvavi|po[cč]ilo|brez elektrike|uzkrita|l[iī]st iek[sš][aā]"),
    r"(?:^|[ \n(])(?:įklimpo|įlūž\S*|ūdens tek|ātrā palīdzība)",
    # Bulgarian and Macedonian: a fire, a crash, fell, the hospital, an ambulance, not
    # working, not answering, no power, water leaking, flooded, burst, stolen, hurt, broken
    # down, the emergency ward
    script_words("пожар|катастрофа|падна|болница|болницата|линейка|линейката|не работи|"
                 "не отговаря|няма ток|тече вода|наводнение|спукан|спукана|откраднат|откраднаха|"
                 "пострада|пострадал|на авария|брза помош|не одговара|нема струја|"
                 "пукна|украден|повреден|ургентен|ургентниот|несреќа|вода влиза|влиза вода|"
                 "разкъсан|разкъсано|не тргнува|се лизна", CYRILLIC),
    # Hungarian: a fire, burnt down, the firefighters, fell, hurt, an accident, an ambulance
    # or its crew, the hospital, the emergency ward, unconscious, bleeding, vomited, dizzy,
    # broke down, not working, stopped, no power or water, water coming in, a burst pipe,
    # flooded, stolen, broken into, missing, not picking up, cannot reach, torn loose, frozen
    latin_words(r"t[uű]z van|t[uű]z [uü]t[oö]tt ki|kigyulladt|le[eé]gett|t[uű]zolt[oó]k?|"
                r"elesett|megs[eé]r[uü]lt|s[eé]r[uü]lt|baleset\w*|mentő(?:t|k|vel|s|sök)?|"
                r"k[oó]rh[aá]z\w*|s[uü]rg[oő]ss[eé]gi\w*|eszm[eé]letlen|"
                r"v[eé]rzik|v[eé]rzett|h[aá]nyt|sz[eé]d[uü]l|lerobbant|elromlott|"
                r"nem m[uű]k[oö]dik|le[aá]llt|nincs [aá]ram|nincs v[ií]z|be[aá]zott|be[aá]z[aá]s|"
                r"cs[oő]t[oö]r[eé]s|el[aá]rasztott\w*|ellopt[aá]k|bet[oö]rtek|elt[uű]nt|"
                r"nem veszi fel|nem veszed fel|nem [eé]rlek el|nem [eé]rtelek el|elszakadt|"
                r"megfagy\w*|sziv[aá]r(?:og|g[aá]s)\w*|cs[oö]p[oö]g"),
    r"(?:^|[ \n(])(?:ég a|égett|áramszünet|áramkimaradás)",
    # Urdu: in hospital, an accident, a fire, stopped, not working, no power or water,
    # unconscious, hurt, an ambulance, fell
    "ہسپتال میں|حادثہ|حادثے|آگ لگ|بند ہو گیا|بند ہو گئی|کام نہیں کر رہا|کام نہیں کر رہی|"
    "بجلی نہیں|پانی نہیں|بے ہوش|زخمی|ایمبولینس|گر گئے|گر گئی|گر گیا",
    # Gujarati: a fire, a gas smell or leak, an accident, in hospital, an ambulance, fell,
    # hurt, unconscious, not working, stopped, no power, flooded, stuck, a theft
    "આગ લાગી|ગેસની વાસ|ગેસ લીક|અકસ્માત|હોસ્પિટલમાં|એમ્બ્યુલન્સ|પડી ગયા|પડી ગયાં|પડી ગઈ|"
    "પડી ગયો|ઈજા|ઇજા|બેભાન|કામ નથી કરતું|કામ નથી કરતો|બંધ પડી ગયું|બંધ થઈ ગયું|લાઈટ નથી|"
    "લાઈટ ગઈ|પાણી ભરાઈ ગયું|અટકી ગયું|અટક્યું|ચોરી થઈ|લીકેજ",
    # Tamil: an accident, in hospital, an ambulance, no power or water, not picking up the
    # phone, not working, stopped, a leak, caught fire, fainted, hurt
    "விபத்து|விபத்தில்|மருத்துவமனையில்|ஆம்புலன்ஸ்|கரண்ட் இல்லை|கரண்ட் போச்சு|மின்சாரம் இல்லை|"
    "தண்ணீர் இல்லை|போன் எடுக்கவில்லை|வேலை செய்யவில்லை|நின்றுவிட்டது|கசிவு|தீப்பிடித்த|"
    "மயங்கி|காயம்",
    # isiZulu: the police, an ambulance, in hospital, hurt, fell, burst, broken, not
    # working, not arrived, switched off, flooded, stolen, a fire; Telugu: water coming
    # in, going under, stuck, an accident, the hospital, an ambulance, a fire, no power
    r"\b(?:amaphoyisa|i-?ambulensi|esibhedlela|sesibhedlela|ulimele|balimele|limele|uwile|"
    r"iqhumile|liqhumile|aphukile|liphukile|iphukile|awasebenzi|akasebenzi|ayisebenzi|"
    r"akafikanga|ayizanga|icishiwe|icishekile|amanzi agcwele|ntshontsh\w*|umlilo|uyasha)\b",
    r"నీళ్లు వచ్చ|మునిగిపో|ఆగిపోయ|ప్రమాదం|ఆసుపత్రి|హాస్పిటల్|అంబులెన్స|మంటలు|"
    r"కరెంట్ లేదు|కరెంటు లేదు",
)
# An incident that is over is a record, not an interruption.
_RESOLVED = alternatives(r", back inside\b",
                         r"\b(?:resolved|postmortem|post-mortem|(?:is|was|has been) (?:fixed|"
                         r"restored)|(?:ticket|case|issue|incident|alert|it) (?:is|was|has been) "
                         r"closed|(?:ticket|case|incident) closed|back (?:online|to normal|"
                         r"in service)|(?:is|are|was|were|everyone|all|safely|now|'s|'re) "
                         r"back inside|(?:is|are|was|"
                         r"were|came|comes?|now|it'?s|we'?re|they'?re|all) back up|"
                         r"all good|all sorted|sorted now|repaired|reverted|"
                         r"marked (?:as )?(?:complete|completed|"
                         r"resolved|closed|done|fixed)|"
                         r"(?:working|running) (?:again|fine|now)|"
                         r"false alarm|all clear|(?:evac\w*|warning|alert|order|closure) "
                         r"(?:has been |was |is )?lifted|lifted the (?:evac\w*|warning|alert|"
                         r"order|closure)|stood down|stand down|stable (?:since|"
                         r"again|now)|closing (?:this|the ticket)|home from (?:the )?hospital|"
                         r"(?:everyone|all) (?:is |are )?(?:safe|"
                         r"accounted for)|restored|post-incident|incident (?:closed|form filed|"
                         r"report filed)|discharged|write-?up|(?:he|she|they)(?:'s| is| are) "
                         r"(?:now )?(?:back )?home|abgeschlossen|erledigt|behoben|résolu|"
                         r"rétabli|solucionado|resuelto|restablecido)\b|복구 완료|해결(?:됨|되었)|"
                         r"완료(?:했|되|됐)|(?:교체|수리)(?:했|됐|되었|완료)|"
                         # "조치 완료", "이 건 종결합니다": done, and the matter closed
                         r"(?:조치|처리|복구|수리|교체) 완료|종결(?:합니다|했|됐|되었|처리)|"
                         # discharged, the operation went well, arrived safely
                         r"퇴원(?:하셨|했|하였)|(?:수술|시술)(?:이|은|는)? 잘 끝났|"
                         r"무사히 (?:도착|끝났|나왔)|"
                         r"\b(?:risolt[oa]|ripristinat[oa]|tutto a posto|falso allarme|"
                         r"rezolvat[ăa]?|remediat[ăa]?|alarm[ăa] fals[ăa]|resolvido|"
                         r"resolvida)\b|вирішено|решено|усунено|устранено|відновлено|"
                         r"восстановлено|"
                         + greek("λύθηκε|επιλύθηκε|αποκαταστάθηκε|διορθώθηκε|"
                                 "επισκευάστηκε|ψευδής συναγερμός")
                         + r"|\b(?:imetatuliwa|imerekebishwa|tatizo limeisha|"
                         r"imeshughulikiwa|konpondu (?:da|dugu)|konponduta)\b"
                         r"|تم حل|تم إصلاح|تم الإصلاح|عاد للعمل"
                         r"|\b(?:opgelost|verholpen|hersteld|opgeheven|(?:is|zijn) (?:weer|"
                         r"opnieuw) (?:normaal|in orde|bereikbaar|beschikbaar)|loos alarm|"
                         r"evaluatie (?:van )?(?:het )?incident|nabespreking)\b"
                         # Croatian and European Portuguese
                         r"|\b(?:riješeno|riješen|popravljeno|popravljen|proradilo|radi opet|"
                         r"opet radi|sve je u redu|resolvido|resolvida|reposta|encerrad[oa]|"
                         r"est[áa] est[áa]vel|est[áa]vel desde|voltou ao normal|"
                         r"normalizad[oa]|(?:foi|está|esta) controlad[oa]|sob control[oe]|"
                         r"ponovno radi|radi normalno|normalno radi|popravio|popravila|"
                         r"popravili|zamijenio|zamijenila|zamijenili|zamijenjen[aio]?)\b")
# A Korean subject that opens on a notice's tag: "[공지]" (notice), "[안전공지]" (a consulate's
# safety notice to all its nationals), "[참고]" (for reference), "[공유]" (shared), "[...소식]"
# (news): a notice to many, read as a record, not an interruption (none of the ~170 labelled
# mails so tagged is urgent)
_NOTICE_TAG = r"\A\[(?:[^\]\n]{0,20} )?(?:공지|안전공지|참고|공유|[^\]\n]{0,20}소식)\]"
_PROMO_PRESSURE = alternatives(r"오늘만|today only|ends (?:soon|today|tonight)|sale ends|nur heute|"
                               r"heute nur|solo hoy|hoy solo|aujourd'?hui seulement|"
                               r"seulement aujourd'?hui|early[- ]bird|últimos días|última "
                               r"oportunidad|tarifa reducida|dernière chance|tarif réduit|"
                               r"frühbucher",
                               # a seller's own pressure in a pitch: "Call now!!!", "today's
                               # special", "order today!", "in 30 minutes or less"
                               r"\b(?:call (?:us )?now ?!|today'?s special|order (?:now|today) ?!|"
                               r"(?:buy|get|try|grab) (?:\w+ ){0,5}(?:now|today) ?!|act now|"
                               r"(?:in|within) \d+ minutes or less|while supplies last|"
                               r"limited time offer)")
# (not "last chance" nor "les 21 derniers jours": a customer's ultimatum, an inspector's
# count of days)
# A warning about fraud in someone's name ("fraud attempts using my name", "phishing emails
# claiming your mailbox is full", "these are not from me"): advice, not an event to act on,
# unless trouble of the reader's own, urgent wording or a near time comes with it. (Not "we
# will never ask for your PIN": a bank's genuine fraud alert says that too.)
_FRAUD_WARNING = alternatives(
    r"\b(?:(?:fraud|phishing|scam|fake|spoofed?|fraudulent) (?:attempts?|e-?mails?|messages?|"
    r"calls?|texts?|invoices?|websites?)|(?:are|is|were) not from (?:me|us))\b",
    r"(?:피싱|사칭|스미싱) ?(?:메일|문자|전화|시도)")
# The sender tried to reach the reader by phone and could not ("tried ringing you", "your
# phone goes to voicemail", "no contestas el teléfono", "전화를 안 받으셔서", "gọi con không
# được"): a person writing now because a call found no one. (Not "we don't answer the phone":
# a scammer's excuse; not "he's not answering": a third party's trouble, `_TROUBLE`.)
_UNREACHED = alternatives(
    r"\btried (?:ringing|calling|phoning|to (?:call|ring|phone|reach|get hold of)) (?:you|ya)\b|"
    r"\b(?:you'?re|you are|ur|u r|youre) not (?:answering|picking up)\b|\byou (?:didn'?t|did "
    r"not|don'?t) (?:answer|pick up) (?:your|the) (?:phone|mobile|cell)\b|\byour (?:phone|mobile|"
    r"cell)(?: is)? (?:goes|is going|went|keeps going|going) (?:straight )?to voice ?mail|\bcan'?t "
    r"get (?:hold of|through to) you\b|\bcould(?:n'?t| not) (?:reach|get hold of|get through "
    r"to) you\b|\btried your (?:phone|mobile|cell)\b|\bno (?:me )?contestas\b|\bno (?:me )?"
    r"contesta(?:s|ste)? el (?:tel[ée]fono|celular|m[óo]vil)|\bno coges el\b|\bn[ãa]o (?:me )?"
    r"atendes?\b|\btu ne r[ée]ponds pas\b|\bvous ne r[ée]pondez pas\b|\bgehst nicht (?:ran|"
    r"ans)\b|\berreiche dich nicht\b|\bnon rispondi\b|\bje neemt niet op\b",
    r"전화(?:를)? ?안 ?받|통화가 ?안 ?(?:돼|되어|되)서|電話に出(?:ない|られない)|"
    r"gọi[^.\n]{0,30}không được",
    # Ukrainian and Russian: I cannot get through to you by phone
    r"не (?:можу|могу|змогла|змогли|зміг|смогла|смог|смогли) (?:до (?:вас|тебе) )?"
    r"(?:додзвонитис[яь]|дозвонитьс[яь])(?: до (?:вас|тебе))?|"
    r"(?:до вас|до тебе) не (?:додзвонитис[яь]|додзвонитись)",
    # Turkish, Marathi and Hindi: you are not answering your phone, I could not reach you
    r"\btelefon(?:unuzu|unu)? açm[ıi]yorsun|\b(?:size|sana) ulaşam[ıi]|"
    # Polish: I cannot get through (by phone)
    r"\bnie (?:mogę|moglam|mogłam|mogłem|moglem|możemy) się (?:do (?:pani|pana|ciebie) )?"
    r"dodzwoni|"
    "(?:तुझा|तुमचा) फोन (?:लागत नाही|बंद|उचलत नाही)|आपका (?:फोन|\u092b\u093cोन) नहीं (?:लग|उठ)")
_TODAY = alternatives(r"\b(?:today|oggi|azi|ast[ăa]zi|hoje|vandaag|vanavond)\b|오늘|сьогодні|"
                      r"сегодня",
                      greek("σήμερα|απόψε"),
                      r"\b(?:leo (?:hii|jioni|asubuhi|usiku|mchana)|(?:hadi|mpaka) leo|gaur|"
                      r"lyoum|lyouma)\b|اليوم|الليلة",
                      r"\b(?:danas|večeras|noćas)\b",
    r"\b(?:inniu|anocht)\b",
    r"\b(?:tänään|tänä (?:aamuna|iltana)|idag|ikväll|i kväll)\b|\btänä yönä",
                      r"\b(?:hari ini|petang ini|pagi ini|malam ini|malam ni)\b",
    r"\b(?:i dag|i aften|i kveld|i nat|i natt|i morges)\b",
    latin_words(r"dnes|dneska|dnes ve[cč]er|dnes r[aá]no"),
    # Serbian in Cyrillic, Afrikaans, Kannada and Georgian: today, tonight, this morning
    r"данас|вечерас|ноћас",
    r"\b(?:vandag|vanaand|vanoggend)\b|ಇಂದು|ಇವತ್ತು|ಈ ರಾತ್ರಿ|ದಿನವೇ",
    # ("დღეს", today, begins "დღესასწაული", a feast day: the word's end is read, not its
    # start, which would cost the urgency pass more)
    word_ends("დღეს|დღესვე|ამაღამ", GEORGIAN),
    # Turkish, Marathi and Hindi: today, this evening, this morning, tonight ("आज", today,
    # opens "आजी", a grandmother, and "आजार", an illness: its end is read)
    r"\bbugün|\bbu (?:akşam|sabah|gece)\b",
    word_ends("आज|आजच|आजचा|आजची|आजचे|आजचं|आत्ता", DEVANAGARI),
    word_ends("ਅੱਜ|ਅੱਜ ਹੀ|ਹੁਣੇ", GURMUKHI),
    word_ends("இன்று|இன்றே|இன்னைக்கு|இப்போது", TAMIL),
    # Urdu: today (not "آجائیں", come, which it opens)
    word_ends("آج", ARABIC),
    # Gujarati: today (not "આજકાલ", nowadays), this evening, tonight
    word_ends("આજે|આજ|આજની|આજનું|આજના", GUJARATI),
    # Latvian, Lithuanian, Slovenian, Albanian, Bulgarian and Macedonian: today
    latin_words(r"danes|sot"), r"(?:^|[ \n(])(?:šodien|šiandien)",
    script_words("днес|денес|денеска", CYRILLIC),
    # Hungarian (`_HU_TODAY`)
    latin_words(_HU_TODAY),
    # isiZulu and Telugu: today, this morning
    r"\b(?:namhlanje|namuhla)\b|ఈరోజు|ఈ రోజు|ఇవాళ",
    _TODAY_LIMIT,
)
# A drill said to be no real event
_NOT_REAL = alternatives(r"\b(?:this is (?:only )?(?:a|an) (?:drill|exercise)|not a real "
                         r"(?:emergency|alarm|fire|event))\b",
                         r"실제 ?상황(?:이)? ?(?:아님|아닙니다|이 아니)",
                         # Serbian, Afrikaans, Georgian, Kannada: this is a drill, a mock drill
                         r"\b(?:ovo je (?:samo )?vežba|dit is (?:slegs )?'n oefening)\b|"
                         r"ово је (?:само )?вежба|ეს სწავლებაა|ಅಣಕು ಕವಾಯತು")
_NOT_REAL_ALONE = matcher(_NOT_REAL)
# A test or a drill announced: the alarm it names is not going off ("Fire alarm testing
# Thursday 09:00", "evacuation drill", 소방훈련, "simulacro").
_DRILL = alternatives(
    r"\b(?:(?:fire|smoke|alarm|evacuation|generator|siren|sprinkler|emergency lighting)s? "
    r"(?:alarm |system )?(?:test|tests|testing|drill|drills|exercise)|fire drill|testing (?:of )?"
    r"the (?:fire )?alarms?|feueralarm-?(?:test|probe)|probealarm|exercice d'évacuation|"
    r"simulacro|brandoefening|ontruimingsoefening|(?:evakuaciona|protivpožarna) vežba|"
    r"vežba evakuacije|"
    # a hospital's or a school's coded or named drill, and the drill said outright
    r"code \w+ (?:drill|exercise)|(?:lockdown|shelter-in-place|active shooter|tornado|"
    r"earthquake|tsunami|spill|hazmat|mass casualty|evacuation|emergency) (?:drill|exercise)s?)\b",
    r"(?:소방|화재|대피|민방위|모의|비상|재난) ?훈련|"
    # Serbian in Cyrillic and Georgian: an evacuation or fire drill
    r"евакуациона вежба|противпожарна вежба|ხანძრის სწავლება|საევაკუაციო სწავლება|"
    r"(?:경보|비상벨|화재경보기?) ?(?:시험|점검|테스트)",
    # the same announced in Italian, French, German, Spanish, Portuguese, Malay, Finnish,
    # Swedish and Croatian
    r"\b(?:esercitazion[ei]|prov[ae] di evacuazione|simulazione di (?:emergenza|evacuazione|"
    r"incendio)|exercice (?:incendie|d'alerte|de confinement|de sécurité)|(?:räumungs|"
    r"evakuierungs|alarm|brandschutz|feuerwehr|notfall)übung|simulado de (?:incêndio|"
    r"evacuação|emergência)|latihan (?:kebakaran|kecemasan|evakuasi|pemindahan|banjir)|"
    r"poistumisharjoitus|utrymningsövning|brandövning|vježb[ae] evakuacije)",
    _NOT_REAL)
_DRILL_ALONE = matcher(_DRILL)
# "not a drill" in a subject is the opposite of a drill announced, and "drill or real?" is
# no announcement
_DRILL_DENIED = matcher(r"\b(?:not|non è|no es|kein|keine|pas|ei ole|bukan) (?:a |an |un'|una |"
                        r"un |ein |eine |une )?(?:drill|exercise|test|esercitazione|übung|"
                        r"simulacro|exercice|harjoitus|latihan)|훈련(?:이)? ?아님|훈련이 아닙"
                        # or asks whether it is one: "lockdown drill?? or real"
                        r"|\?|\b(?:real|echt|reale|réel)\b|실제")


def _drill_announced(subject: str) -> bool:
    """The subject names a drill or a test ("Fire evacuation drill - Thursday 5 Nov, 10:00",
    "Esercitazione maxi-emergenza 18/03"): the mail announces it, and its urgent words are
    the drill's scenario."""
    searched = as_searched(subject)
    return _DRILL_ALONE.search(searched) and not _DRILL_DENIED.search(searched)
_TOMORROW = alternatives(r"\b(?:tomorrow|domani|m[âa]ine|kesho|bihar|ghedda)\b|\bamanhã|내일|"
                         r"завтра|غدا|غداً|明日", greek("αύριο"), r"\bsutra\b",
    r"\b(?:huomenna|imorgon|i morgon)\b", r"\b(?:esok|besok)\b",
    r"\bi morgen\b",
    latin_words(r"z[ií]tra|zajtra"),
    _TOMORROW_MORE, "કાલ સુધીમાં|કાલે સવારે",  # (Gujarati: by tomorrow, tomorrow morning)
)
_DATE = alternatives(rf"\b\d{{1,2}}(?:st|nd|rd|th)? {_MONTH}\b",
                     # (not a figure with decimals: "mar 1,5 m" is the sea's swell)
                     rf"\b{_MONTH} \d{{1,2}}(?:[^\w,.]|[,.](?:\D|$)|$)",
                     # "by the 15th", "the 3rd at 10:00"; not "the 2nd floor"
                     r"\bthe \d{1,2}(?:st|nd|rd|th)(?:$|[,.;:!?)\n]| (?:of|at|by|in|and|or|to|"
                     r"please|latest|deadline|is|was|will|would|works|morning|afternoon|evening|"
                     r"night)\b)",
                     # a date in figures ("10/8까지", "by 3/15") and in Korean ("10월 8일")
                     # in figures where a date is written: after "by", "on", "due" ... or
                     # before 까지 or a Korean weekday ("3/15(월)"); "at 7/22 Bay Rd" is a flat
                     r"(?:\b(?:by|on|until|till|before|from|due|dated|for|through|since|the|of|"
                     r"eta|now|le|du|au|el|al|del|am|bis|vom|ab|seit|il|até|do|od) |[(\[]|^|\n)"
                     + _DAY_MONTH + r"\b|"
                     + _DAY_MONTH + r" ?(?:까지|\((?:월|화|수|목|금|토|일)\))|\d+월 ?\d+일|"
                     r"\d{1,2}月 ?\d{1,2}日",
                     # in Croatian and Portuguese ("7. svibnja", "23 de outubro")
                     r"\b\d{1,2}\. ?(?:siječnja|veljače|ožujka|travnja|svibnja|lipnja|srpnja|"
                     r"kolovoza|rujna|listopada|studenoga?|prosinca)|\b\d{1,2} de (?:janeiro|"
                     r"fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|"
                     r"dezembro)\b",
                     # in Malay ("30 Okt", "sebelum 30/10")
                     r"\b\d{1,2} (?:januari|februari|mac|april|mei|jun|julai|ogos|september|"
                     r"oktober|november|disember|okt|dis|sep|ogo)\b|\b(?:sebelum|pada|hingga|"
                     r"sehingga|mulai) " + _DAY_MONTH + r"\b")
# The sender's words are read by five sets of the patterns above. Trouble and the asks, each
# full of optional words and sentence tails, multiply the DFA states of one set with all the
# others: on mail not read before, two sets cost half of one (bench/bench_local.py). So do
# incidents (a monitor's reading and its limit), clock times and near times: three sets, the
# two of them and the rest, take a third fewer instructions over the corpus than one
# (bench/judgement_instructions.py; docs/results.md).
_INCIDENT_SET = PatternSet({"incident": _INCIDENT, "clock": _CLOCK})
# Korean "currently": now when trouble is told ("현재 표류 중", "현재 바닥 수위 10cm"), a
# state of things otherwise ("현재 품절", "현재 입원 중", "현재 초안"); "(현재 61%)" is a
# figure's date
_PRESENT = r"(?:^|[^(])현재 [^\d\s(]"
# (the near times less a deadline's clock time, which the set names apart)
_NEAR_UNCLOCKED = _NEAR_TIME.replace(_NEAR_CLOCK_WORDS + "|", "", 1)
if _NEAR_UNCLOCKED == _NEAR_TIME:  # the clock words moved: "near" would read them twice
    raise RuntimeError("_NEAR_TIME no longer holds _NEAR_CLOCK_WORDS as one alternative")
# the time now, told: "it's 11:20", "it's now 17:55", "its 5:40am" (a person waiting, late or
# stuck writes the clock as it reads; "it's 4.3 t" and "it's 2,400 for the course" are no time)
_NOW_CLOCK = (r"\bits? ?'?s? (?:now |already |nearly |almost |just )?(?:[01]?\d|2[0-3])[:.][0-5]\d"
              r"\s?(?:am|pm)?(?: now)?(?:[ .,!;)]|$)")
_NEAR_SET = PatternSet({"near": alternatives(_NEAR_UNCLOCKED, _NOW_CLOCK),
                        "near_clock": rf"\b(?:{_NEAR_CLOCK_WORDS})\b",
                        "present": _PRESENT})


def _dated_clock(found: frozenset[str], same_org: bool) -> frozenset[str]:
    """`found` with a deadline's clock time ("near_clock") read: a near time, unless the mail
    dates another day and names no today ("collection 14 Dec, trailer on bay by 11:00", "bids
    due Friday the 21st by 2 pm"): the clock is that day's. With today or tomorrow named, or
    from the reader's own organisation, it stays near ("action needed by 12:00" from IT)."""
    if "date" in found and "other_day" in found and not (
            "today" in found or "tomorrow" in found or same_org):
        return found  # a time to keep, no near one (`_urgency`: some time pressure)
    return found | _NEAR_NAME
_URGENCY_SET = PatternSet({"explicit": _EXPLICIT_URGENT, "deadline": _DEADLINE,
                           "no_action": _NO_ACTION,
                           "resolved": _RESOLVED, "promo_pressure": _PROMO_PRESSURE,
                           "today": _TODAY, "tomorrow": _TOMORROW, "date": _DATE,
                           "soon": _SOON, "drill": _DRILL,
                           "relaxed": _RELAXED, "cheerful": _CHEERFUL,
                           "weekday_eod": _WEEKDAY_EOD,
                           "other_day": _OTHER_DAY,
                           "days_away": _DAYS_AWAY, "doubled_question": r"\?\?",
                           "due_other_day": _DUE_OTHER_DAY,
                           "fraud_warning": _FRAUD_WARNING, "notice_tag": _NOTICE_TAG,
                           "unreached": _UNREACHED, "dotted_day": _DOTTED_DATE})
# A day to come in dotted figures dates the mail's clock times, as a written date does
# ("lähtö klo 7.00 ... la 22.11."); urgent words keep theirs: a grid operator's "KIIREELLINEN
# ... ke 2.12. klo 07.45-10.00" is that morning's, and no day in figures says otherwise.
_DATED = frozenset({"date", "other_day"})
# Trouble and the asks are a set each as well: in one set their sentence tails built twice
# the DFA states on mail not read before (93 against 27 + 15 us a text on the corpus). Each is
# read only when `_urgency` asks (`ReadWhenAsked`): trouble in a fifth of the corpus, the
# asks in five sixths.
# A bank's or a payroll robot's notice that the reader's own payment is stopped or waits for
# them ("Your BACS submission has been rejected", "A payment is awaiting your authorisation",
# "Payroll funding failed"): with a time today and no link to follow (a bank sends the
# reader to the usual bookmark; a lure to its own link), it is the reader's trouble, no
# reminder.
_MONEY_WAITING = matcher(
    r"\b(?:payments?|payroll|salary|salaries|transfers?|(?:payment |transfer |salary )?files?|"
    r"batch|submission|(?:payment )?orders?|debit|funding|direct deposits?) (?:\w+ ){0,3}?(?:has "
    r"been |have been |was |were |is |are )?(?:rejected|returned|declined|failed|not (?:be )?"
    r"(?:executed|processed|paid))\b|\b(?:awaiting|waiting for|pending) (?:your |the second |"
    r"second |a second )?(?:signature|authori[sz]ation|authori[sz]er|approval)\b|\bunable to "
    r"(?:withdraw|collect|debit|process) (?:the )?(?:funds|payment|payroll)\b")
# Trouble seen on the news ("Just saw the fire on the news, are you ok??", "뉴스 봤어",
# "aux infos"): the sender tells what the news told, an event somewhere, and asks after the
# reader; no incident or trouble of the reader's own. A time pressed with an ask still is
# ("saw in the news the dockers strike ... tell me by 11").
_NEWS_SET = PatternSet({"news": alternatives(
    r"\b(?:(?:saw|seen|watching|watched|heard|read|see|seeing) (?:\w+ ){0,4}?(?:on|in) the "
    r"(?:news|tv|telly|radio)|(?:on|in) the news (?:about|that|this)|news (?:about|of) the "
    r"(?:fire|fires|flood|floods|storm|quake|earthquake))\b",
    r"뉴스(?:에서|로|를|에)? ?(?:[^\s.!?]+ )?(?:봤|보고|보니|봐|나와|나오|나왔)",
    greek("ειδήσεις"),
    r"\b(?:(?:im|in den) nachrichten|in het nieuws|op het nieuws|al telegiornale|nelle notizie|"
    r"en las noticias|en el noticiero|aux (?:nouvelles|infos|informations)|nos noticiários|"
    r"no telejornal)\b")})
_TROUBLE_SET = PatternSet({"trouble": _TROUBLE})
_ASK_SET = PatternSet({"ask": _ASK})
_NO_ACTION_ALONE = matcher(_NO_ACTION)
# A subject that says outright nothing is to be done (not a bare "FYI": "FYI ... need a
# replacement within 2 hrs" still asks)
_NO_ACTION_SUBJECT = matcher(r"\bno (?:action|reply|response) (?:is )?(?:needed|required|"
                             r"necessary)\b|\bnothing (?:to do|needed)\b|\bno need to (?:act|"
                             r"reply|respond|do anything)\b")
# "If this was you, you don't need to do anything": no action only on that condition
_IF_YOU = re.compile(rb"\bif (?:this|it|that) (?:was|is) (?:really )?you\b[^.\n]*|\bif you "
                     rb"(?:did|made|requested|recogni[sz]e|authori[sz]ed) (?:this|that|it|the "
                     rb"change|this change|this sign-?in)\b[^.\n]*")
_RESOLVED_ALONE = matcher(_RESOLVED)
# Restoration still to come is not a resolution: "this alert repeats until resolved", "you
# will receive a new alert when the monitor is back up", "power will be restored at 14:00".
_PENDING_FIX = re.compile(
    rb"\b(?:when|until|till|once|as soon as|unless|if not)\b[^.\n]{0,40}?\b(?:back (?:up|online|"
    rb"to normal|in service)|restored|resolved|fixed|repaired)\b|\b(?:will|should|is expected "
    rb"to) be (?:restored|resolved|fixed|repaired|back)\b"
    # a repair not done: "the dyke is still not repaired"
    rb"|\b(?:not|never|isn'?t|hasn'?t|wasn'?t|haven'?t|aren'?t) (?:yet |been |fully |properly )?"
    rb"(?:repaired|fixed|restored|resolved)\b"
    # the same denied in Portuguese, Italian and Romanian: "NÃO RESOLVIDO", "non risolto"
    + "|\\bn\u00e3o (?:foi )?(?:resolvid|reparad|consertad)|\\bnon (?:ancora |è stato )?"
      "(?:risolt|riparat)|\\bnu (?:a fost )?(?:rezolvat|reparat)".encode())
_EXPLICIT_ALONE = matcher(_EXPLICIT_URGENT)
# Something that arrived today tells when it came, not a limit: "the trousers arrived today",
# "ist heute angekommen", "llegó hoy" (a near time elsewhere in the mail still counts, and so
# does the arrival when trouble is told with it: "arrived this morning, held at customs")
_ARRIVED_TODAY = matcher(
    r"\b(?:arrived|came in|came|got here|was delivered|were delivered|turned up) (?:safely |"
    r"(?:here|in) )?(?:today|this morning)\b|\bheute (?:morgen |früh )?(?:gut |bei uns |hier )?"
    r"(?:angekommen|eingetroffen|geliefert|zugestellt)\b|\b(?:llegó|llegaron) hoy\b")
_NEAR_ALONE = matcher(_NEAR_TIME)
# The reader addressed or told what to do: "your shipment is held", "residents must leave
# now", "action required" (a news feed's "satellites could be hacked" addresses no one).
# The reader's own place or thing named ("your tank", "votre réservoir"), or the residents
# told to leave (`_YOURS`); with "you" and "action required" besides, the reader addressed
# (`_YOU`). "you've been stuck in traffic" in a feed addresses the reader but is no one's.
_OWNED = (r"your|yours|votre|vos|ihr|ihre|ihren|su envío|sus|residents|must (?:leave|evacuate)|"
          r"leave (?:the area|now|immediately)|evacuate (?:now|immediately)")
_OWNED_KO = r"귀하|고객님|주민 ?여러분|대피하"
_YOU = matcher(alternatives(
    rf"\b(?:you|vous|sie müssen|usted|action (?:required|needed)|{_OWNED})\b", _OWNED_KO))
_YOURS = matcher(alternatives(rf"\b(?:{_OWNED})\b", _OWNED_KO))
# A broadcast says whom it is sent to: those who follow an area or a station ("You subscribed
# to marine alerts for: ...", "You receive this alert because you follow the location ...")
_SUBSCRIBED = matcher(
    r"\byou(?:'re| are)? (?:have )?(?:subscribed|signed up) (?:to|for) (?:\w+ ){0,3}(?:alerts?|"
    r"warnings?|notifications?)\b|\byou (?:receive|are receiving|get) this (?:alert|warning|"
    r"notification|e-?mail|message) because you (?:follow|subscribed|signed up|are subscribed)")



# An attempt the provider stopped: "we blocked a sign-in attempt", "the attempt was
# prevented" (nothing got in; the incident branch keeps it in sight, QUEUE).
_AVERTED = matcher(alternatives(
    r"\b(?:blocked|stopped|prevented|denied) (?:a|an|the|this) (?:suspicious |unusual )?"
    r"(?:sign-?in|log-?in|access|attempt)(?: attempt)?|\b(?:sign-?in|log-?in) (?:was )?"
    r"(?:prevented|blocked)\b|\b(?:sign-?in|log-?in|access) attempt (?:was |"
    r"has been )?(?:blocked|stopped|prevented|denied)\b|"
    r"\b(?:anmeldeversuch|zugriffsversuch) (?:wurde )?(?:blockiert|verhindert)|"
    r"\btentative de connexion (?:a été )?bloquée|\bintento de inicio de sesión (?:fue )?"
    r"bloqueado", r"로그인 시도를 ?(?:차단|막았)"))


@dataclass(frozen=True, slots=True)
class Scored:
    features: Features
    reason: str
    source: str = LOCAL_SOURCE


def _never() -> bool:
    return False


# What tells an incident is now, not another day's: a near time, a clock time, today,
# tomorrow, an alarm's subject; on a dated other day, its clock time is that day's
_NOW_MARKS = frozenset({"near", "clock", "today", "tomorrow", "alarm_subject"})
_NOW_MARKS_DATED = _NOW_MARKS - {"clock"}


def _urgency(found: frozenset[str], s: Signals, trouble_told: Callable[[], bool],
             asked: Callable[[], bool], no_action: bool = False,
             calm: bool = False, routine: Callable[[], bool] = _never,
             account_ask: Callable[[], bool] = _never,
             addressed: Callable[[], bool] = _never,
             averted: Callable[[], bool] = _never,
             not_real: Callable[[], bool] = _never,
             owned: Callable[[], bool] = _never,
             linked_account_ask: Callable[[], bool] = _never,
             subscribed: Callable[[], bool] = _never,
             money_waiting: Callable[[], bool] = _never) -> tuple[float, str]:
    """`found`: the names of the patterns of `_URGENCY_SET`, `_INCIDENT_SET` and `_NEAR_SET`
    that match the sender's words in scope (and "alarm_subject": a machine's alarm names
    itself in the subject, `ALARM_SUBJECT`; "cleared_subject": the subject says it is over,
    `_CLEARED_SUBJECT`; "question": a "?" closes a sentence where the asks are read,
    `_QUESTION`; "near_clock": a deadline's clock time, `_dated_clock`); `trouble_told` and
    `asked`: whether `_TROUBLE` (less what the news told, `_NEWS_SET`) and `_ASK` match them,
    called only where the answer can change the outcome (`ReadWhenAsked`); `calm`: the
    sender says outright it is not urgent ("no rush",
    "급하지 않으니"); `not_real`: the mail says a drill is no real event ("this is a drill",
    "실제 상황 아님") or its subject announces the drill (`_drill_announced`), asked only
    when a drill and urgent words are both found; `owned`: the mail names the reader's own
    place or thing (`_YOURS`: "your tank", "residents must leave"), asked only of a robot's
    trouble with a near time; `linked_account_ask`: the mail asks for the account or a sign-in
    and gives a link to follow (`ACCOUNT_ASK` or `SIGN_IN_ASK`, and a web address), asked only
    of mail from outside the reader's organisation that is not a list's or a bulk sender's;
    `subscribed`: the mail says it is sent to those who follow an area (`_SUBSCRIBED`), asked
    only of a robot's or a bulk sender's urgent wording or incident; `money_waiting`: a robot
    says the reader's own payment is stopped or waits for them, with no link to follow
    (`_MONEY_WAITING`), asked only of a robot's time pressure or trouble.

    Every condition is the same yes/no as when all three sets were read first; the cheap
    operands come first in each, so the two sets are asked for only when they decide."""
    if s.auto_reply:
        return 0.1, "automatic reply"
    if "cleared_subject" in found:
        # the subject's own word that it is over ("[RESOLVED]", "[OK]"), whatever clock
        # times the report gives
        return 0.3, "a status notice that the trouble is over"
    explicit = "explicit" in found
    if "drill" in found and (not explicit or not_real()):
        # "URGENT ... evacuate immediately" in a drill's own instructions: the drill is
        # said to be no real event ("this is a drill", "실제 상황 아님")
        return 0.15, "a test or a drill announced"
    if calm and not explicit:
        return 0.15, "the sender says it is not urgent"
    if "notice_tag" in found:
        return 0.3, "a notice to many, so tagged in its subject"
    incident = "incident" in found and not (not explicit and "resolved" in found)
    # a clock time on a dated other day is that day's ("the review of the January incident:
    # Tuesday 18 Feb at 2pm?"), unless today is named or trouble is told ("CODE ORANGE
    # activated at 18:52, Saturday 7 November ... ambulances")
    now_marks = _NOW_MARKS_DATED if (
        incident and "date" in found and "other_day" in found and "today" not in found
        and not trouble_told()
    ) else _NOW_MARKS
    if incident and not explicit and "days_away" in found and "near" not in found:
        # "documents about the incident, within 30 days": a record to answer, not an event now
        incident = False
    if incident and not explicit and "other_day" in found and found & {"deadline", "date"} and not (
            found & now_marks
            or s.automated_sender or s.security_alert or s.marketing):
        # "the incident report, deadline Monday 7 June": a task dated another day, the
        # incident its subject (a robot's or an account's notice still tells it now; in
        # marketing an incident never pushes, and this rule is not for it)
        incident = False
    if incident and not explicit and "other_day" in found and not (
            # "send the claim papers for the forklift incident by Friday": a person's request
            # due another day, the incident its background (an alarm's or a robot's notice
            # stamped with a date, or any near time, still tells it now)
            found & now_marks
            or s.automated_sender or s.security_alert) and (s.action_requested or asked()):
        incident = False
    if s.marketing:
        if not (explicit or incident):
            return 0.1, ""
        if s.security_alert:
            # Account words behind the urgency: it may be a phish, so it stays in sight
            # (QUEUE). Bulk shapes alone ("(광고) [긴급] ... 수신거부") are the seller's.
            return 0.5, "promotion with urgent wording and account words"
        # "Last chance: 40% off ends tonight" is the seller's pressure: a record (INFO).
        return 0.3, "promotion with urgent wording"
    # A clock time is today's unless another day is named; in a mail saying the trouble is
    # over ("Resolved at 09:22") it is when that happened.
    near = ("near" in found and not ("weekday_eod" in found and "today" not in found)) or (
        "clock" in found and ("today" in found or not found & {"other_day", "soon", "days_away"})
        and "resolved" not in found) or ("present" in found and trouble_told())
    deadline = "deadline" in found
    resolved = "resolved" in found

    def _robots_trouble() -> bool:
        """An authority's or a carrier's notice telling trouble ("EVACUATION ORDER ... leave
        now", "held by customs"), not a lure's script (trouble with an account or payment
        ask: "payment failed, update your card")."""
        return trouble_told() and addressed() and not account_ask()

    def request() -> bool:
        """The mail asks something of the reader (not merely "Re:" in its subject). A
        person's question asks in any language ("Zullen we ...?", "Przenieść ich?"), when the
        mail names a clock time and no other day, or tells trouble: a question put to the
        reader about now. In a robot's, a list's, a seller's or a stranger's mail it asks
        nothing; in a cheerful note it is an invitation."""
        return s.action_requested or asked() or (
            # "I've tried your phone twice, so email as well": a person writing because a
            # call found no one wants the reader back
            "unreached" in found and _a_persons_mail(s)) or (
            # "Has it gone to print??": a person asking twice over; a robot or a list post
            # is not
            "doubled_question" in found and not (s.automated_sender or s.bulk
                                                 or s.list_discussion or s.marketing)) or (
            "question" in found and _a_persons_mail(s) and "other_day" not in found
            and "cheerful" not in found and ("clock" in found or trouble_told()))

    if "promo_pressure" in found and not (explicit or incident):
        near = False
        # a seller's deadline in bulk mail is the seller's pressure ("early-bird rate ends 15
        # December"); a person's mail keeps its deadline, so that it is never filed away
        deadline = deadline and not s.bulk
    if s.scheduling and not (explicit or incident or deadline):
        # "tomorrow's sync" is when the meeting is, not a deadline.
        near = near and "today" in found and request()
    if s.transactional and not (deadline or request() or (
            _a_persons_mail(s) and trouble_told())):
        # "delivered this afternoon" records when something happened; it asks for nothing.
        # A person telling trouble now is no receipt ("about 200 of them gone out since 7am
        # ... more are going out now", about a "shared invoice" link).
        near = False
    # "FYI and need your go": trouble with a request outweighs a bare FYI.
    if (no_action or "no_action" in found) and not (
            explicit or (not resolved and (incident or trouble_told()) and request())):
        return 0.3 if near else 0.15, "no action needed"
    if ("relaxed" in found or calm) and not (incident or trouble_told()):
        return 0.3 if near else 0.15, "the sender says it can wait"
    if explicit and resolved and not (near or "clock" in found or request()):
        # "DRINGEND ... Einsatz abgeschlossen": the urgency was, and is over
        return 0.3, "urgent wording about something over"
    if s.brand_verified and s.security_alert and (incident or explicit) and not (
            resolved or averted()):
        # an account's incident told by its provider, from the provider's own domain and
        # authenticated (evidence the words cannot forge): a look-alike or a spoof is no
        # `brand_verified`
        return 0.8, "an authenticated provider's notice of an incident"
    if explicit and not incident and "other_day" in found and not (
            near or ("clock" in found and ("date" not in found or s.same_org))
            or "today" in found
            or "tomorrow" in found or s.security_alert or trouble_told()):
        # "URGENT: fire alarm test Thursday 10:00": the sender's own date says it is not now;
        # with a date, its clock is the date's ("ACTION REQUIRED ... by Tuesday, April 1,
        # 5:00 PM"), except from the reader's own organisation ("Action needed by noon" from
        # IT, about a rule found "since 12/3")
        return 0.5, "urgent wording for another day"
    if "fraud_warning" in found and not (explicit or near or trouble_told()):
        return 0.15, "a warning about fraud attempts"
    if (not (s.same_org or s.brand_verified or s.bulk or s.list_discussion)
            and linked_account_ask()):
        # anyone from outside the reader's organisation asking for the account or a sign-in
        # behind a link ("confirm your bank details within 48 hours: https://..."): the
        # lure's own script, whoever's address it comes from. Kept in sight (QUEUE), never an
        # interruption. A bank's real fraud alert names no link to follow ("call the number
        # on your card"); a provider's own notice is `brand_verified`, a colleague's
        # `same_org`; a list's or a bulk sender's words are the list's
        return 0.5, "an account or a sign-in asked for behind a link, from outside"
    if explicit or incident:
        if s.list_discussion:
            return 0.5, "list discussion with urgent wording"
        if (s.bulk or s.automated_sender) and subscribed() and not owned():
            # a warning sent to all who follow an area ("You subscribed to marine alerts for:
            # South Puget Sound"): the area's news, not trouble at the reader's own place
            return 0.5, "an alert sent to an area's subscribers"
        if s.bulk and not (s.security_alert or s.personal or incident):
            # Sent to a list: "URGENT, please help!" is the poster's urgency, not the reader's.
            return 0.5, "list mail with urgent wording"
        if s.automated_sender and not (s.security_alert or incident or s.same_org
                                       or request() or _robots_trouble()):
            return 0.5, "automated notice with urgent wording"
        if s.security_alert and s.automated_sender and not explicit and not request():
            # an account's incident told by its provider ("suspicious sign-in", "a
            # forwarding rule was added"): kept in sight (QUEUE), not filed as a record
            return 0.5, "security notice of an incident"
        return 0.85, "explicit urgency"
    # A formal deadline (due, expires, cutoff) days away is still a deadline; a request
    # answered by Friday is not an interruption.
    # A formal deadline (due, expires, cutoff) tomorrow or this week is an interruption; one
    # on a calendar date ("by 18 Dec", "the 15th") is something to answer.
    # "could you send the figures by Thursday 4 March" (and greetings "from sunny Berlin
    # today"): the request names its own day, another one; a near time elsewhere in the mail
    # is another matter's, unless the sender says today
    asked_later = "due_other_day" in found and not (explicit or incident or "today" in found)
    timed = (near and not asked_later and (deadline or request())) or (
        deadline and not asked_later and (
            "tomorrow" in found or ("soon" in found and "date" not in found)))
    # (the asks before trouble: with no near time, trouble counts only with a request, and
    # the asks' set is the cheaper of the two)
    trouble = (not resolved
               and (near or (
                   # "held at customs ... returned after 10 days": days away
                   "days_away" not in found and "due_other_day" not in found and not (
                       "date" in found and not found & {"today", "tomorrow", "clock",
                                                        "alarm_subject"})
                   and request()))
               and trouble_told())
    if timed or trouble:
        if s.list_discussion:
            return 0.5, "list discussion with time pressure"
        if s.bulk and not s.security_alert:
            return 0.5, "bulk mail with time pressure"
        if s.automated_sender and not (s.action_requested or s.same_org or (
                trouble_told() and owned() and not account_ask()) or money_waiting()):
            # (a robot telling trouble at the reader's own place or thing, "a leak at your
            # tank", "residents must leave", is no reminder; a feed's "you've been stuck in
            # traffic" is not the reader's)
            return 0.5, "automated reminder"
        if timed:
            if "cheerful" in found and not trouble:
                # laughter or hearts with a near time and a question: an invitation or news
                return 0.5, "a cheerful note with time pressure"
            return 0.8, "time pressure with a request"
        if not near and routine():
            # "Claim documents for the burst pipe?", "boiler repair quote": the subject says
            # what the mail is for, and the trouble in it is the matter's background
            return 0.5, "trouble told about a routine matter"
        return 0.8, "trouble with a request"
    if near or deadline or "soon" in found or ("near_clock" in found and not s.transactional):
        # (a dated other day's clock time, `_dated_clock`, is a time to keep, no near one; in
        # a receipt or a delivery notice it records when, as a near time there does)
        return 0.5, "some time pressure"
    if s.security_alert:
        return 0.4, "security notice"
    return 0.15, ""


# The receipt of something the reader sent ("Your maintenance request has been received",
# "We've received your claim", "your incident notification has been received"): the reader
# raised the matter; the mail tells it arrived, whatever it is about (kept in sight, never an
# interruption)
_ACKNOWLEDGED = matcher(
    r"\byour (?:\w+ ){0,2}(?:request|report|ticket|notification|claim|submission|enquiry|"
    r"inquiry|message) (?:has been|was|is) (?:received|logged|acknowledged|registered)\b|\bwe"
    r"(?:'ve| have) received your (?:\w+ ){0,2}(?:request|report|ticket|notification|claim|"
    r"submission|enquiry|inquiry)\b")
_ACKNOWLEDGED_CAP = 0.5
# A periodic report (`PERIODIC_REPORT`): a record of a period, whatever incidents it counts,
# unless the subject itself tells something now ("Monthly regulatory report rejected - today
# is the last day")
_SUBJECT_NOW = frozenset({"explicit", "today", "near", "incident", "alarm_subject"})


def _sender_trust(s: Signals) -> float:
    if s.marketing or s.spam_verdict or s.phishing:
        return 0.05
    if s.unsolicited:
        return 0.1
    if s.list_discussion:
        return 0.4
    if s.same_org:
        return 0.75
    if s.bulk and not (s.transactional or s.security_alert or s.action_requested):
        return 0.15
    if s.automated_sender:
        return 0.3
    return 0.6


def _confidence(s: Signals, urgency: float, has_text: bool) -> float:
    if not has_text:
        return 0.3
    if s.marketing:
        return 0.9
    if urgency >= 0.8:
        return 0.8
    if s.scheduling or s.transactional or s.auto_reply or s.list_discussion:
        return 0.8
    if s.bulk:
        return 0.7
    return 0.6


def _reversibility(s: Signals) -> float:
    if s.marketing or s.bulk:
        return 0.95
    if s.transactional or s.automated_sender:
        return 0.9
    return 0.8


_ANSWERS = re.compile(r"^\s*(?:re|fw|fwd|aw|wg|sv|tr|답장|회신|전달)\s*:", re.IGNORECASE)
OPENING_CHARS = URGENCY_CHARS  # the sender's first words (core/signals.py `Texts`)
ASK_CHARS = 900  # where the asks are read (`score_local`; docs/results.md)


@functools.lru_cache(maxsize=512, typed=True)  # a few dozen combinations of the weights above
def _features(confidence: float, sender_trust: float, reversibility: float,
              urgency: float) -> Features:
    """The features of these weights: one frozen, checked value for each combination,
    instead of the four checks again for every message."""
    return Features(confidence=confidence, sender_trust=sender_trust,
                    reversibility=reversibility, urgency=urgency)


def _has_text(folded_subject: str, subject: str, own: str) -> bool:
    """Whether the text urgency is read in holds more than whitespace. The folded subject
    begins it: a subject with a word answers without folding the rest again."""
    return bool(folded_subject.strip()) or bool(
        fold(f"{subject}\n{own[:OPENING_CHARS]}").strip())


_ALARMED = frozenset({"incident", "alarm_subject"})
# A subject saying the trouble is over: "[RESOLVED] CRITICAL: sync failure",
# "[OK] KESS-DC01 - RAID 5 rebuild completed", "** RECOVERY Service Alert", "ALARM CLEARED:"
_CLEARED_SUBJECT = re.compile(
    r"\s*(?:\*\* ?)?(?:\[(?:RESOLVED|RECOVERY|RECOVERED|OK|UP|CLEARED|CLOSED|ALL CLEAR)\]|"
    r"(?:RESOLVED|RECOVERY|RECOVERED|CLEARED|ALL CLEAR|(?:ALARM|ALERT) CLEARED)\b\s*[:\-–]?)")
# ... or that ends saying so, after a dash, a colon or a bracket: "Fwd: URGENT lice notice -
# resolved", "RE: URGENT panne terminaux – résolu", "Kühlhaus 2 (behoben)", "RE: resident
# not in his room - FOUND"
_CLEARED_AT_END = re.compile(
    r"[-–—:(\[|]\s*(?:now |all )?(?:resolved|fixed|solved|all clear|cleared|back (?:up|online|"
    r"to normal)|found(?: safe(?: and well)?)?|located|safe and well|(?:all|everyone) safe|"
    r"résolu|résolue|réglé|rétabli|resuelto|resuelta|solucionado|risolto|risolta|"
    r"resolvido|resolvida|behoben|erledigt|gelöst|opgelost|verholpen|løst|löst|ratkaistu|"
    r"vyřešeno|vyriešené|odstraněno|해결(?:됨|완료)?|복구 ?완료|정상화)\s*[)\]]?\s*$",
    re.IGNORECASE)
_CLEARED = frozenset({"cleared_subject"})
# A subject that names a routine matter: a claim, a quote, an inspection, a form, a
# schedule (in English, French, German, Spanish and Korean). Not a bare "request" or
# "enquiry" (요청, 문의): "hotfix approval request" names no matter, only an ask.
_ROUTINE_SUBJECT = re.compile(
    r"\b(?:claims?|insurance|insurer|quote|quotation|estimate|inspection|questionnaire|renewal|"
    r"schedule|dates?|forms?|application|sinistre|déclaration|devis|assurance|"
    r"renouvellement|formulaire|schadensmeldung|angebot|versicherung|antrag|siniestro|"
    r"presupuesto|cotización|solicitud)\b|보험|청구|서류|견적|점검|신청서|일정|협의")
_ROUTINE_SETS = (_URGENCY_SET, _INCIDENT_SET, _TROUBLE_SET)
_RESOLVED_NAME = frozenset({"resolved"})
_NEAR_NAME = frozenset({"near"})
_INCIDENT_NAME = frozenset({"incident"})
_WEB_ADDRESS = matcher(r"https?://|\bwww\.")
_NO_ACTION_NAME = frozenset({"no_action"})


def _without_no_action(text: bytes, no_action: bool) -> bytes:
    """`text` less its no-action phrases, where one was found: "nothing you need to do" asks
    nothing, though "you need to" is an ask's words."""
    return _NO_ACTION_ALONE.sub(b" ", text) if no_action else text


def _no_action_in(text: bytes) -> bool:
    """Whether `text` says no action is needed, other than on a condition: "If this was you,
    you don't need to do anything" says nothing of the alert as a whole (the condition is
    looked for only where a no-action phrase is)."""
    if not _NO_ACTION_ALONE.search(text):
        return False
    return not _IF_YOU.search(text) or bool(_NO_ACTION_ALONE.search(_IF_YOU.sub(b" ", text)))
_WORD = re.compile(r"[^\W\d_]{3,}")


def _without_senders_name(scoped: bytes, from_name: str, from_addr: str) -> bytes | None:
    """`scoped` with the sender's own name cut out, when that name holds urgent wording
    ("Emergency Fleet Services Ltd", `urgentcare-clinic.co.uk`): a company's name in its
    signature is not an event. A run of two or more words that are all part of the
    sender's display name or domain, one of them urgent, is the name. None when the name
    holds no urgent wording (the text stands as it is)."""
    name = fold(f"{from_name} {from_addr.rpartition('@')[2]}")
    if not _EXPLICIT_ALONE.search(as_searched(name)):
        return None
    text = scoped.decode("utf-8", "surrogatepass")
    words = [w for w in _WORD.finditer(text) if w.group(0) in name]
    cuts: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []
    for word in [*words, None]:
        if word is not None and run and text[run[-1].end():word.start()] in (" ", "-", ", "):
            run.append(word)
            continue
        if len(run) > 1 and any(_EXPLICIT_ALONE.search(as_searched(w.group(0))) for w in run):
            cuts.append((run[0].start(), run[-1].end()))
        run = [word] if word is not None else []
    if not cuts:
        return None
    for start, end in reversed(cuts):
        text = f"{text[:start]} {text[end:]}"
    return as_searched(text)


# A letter's first line greets someone: a short line ending in a comma or an exclamation
# mark ("Dear Mr Han,", "Moin Jana,", "Hola a todos!", "지훈 씨,"), in any language
_SALUTATION = re.compile(r"\s*[^\n]{1,60}[,!][ \t]*\n")


# A "?" that closes a sentence (not one inside a web address: "plan?id=4")
_QUESTION = re.compile(rb"\?(?:\s|$)")


def _a_persons_mail(s: Signals) -> bool:
    """Nothing marks the mail as a robot's, a list's, a seller's or an unsolicited one."""
    return not (s.automated_sender or s.bulk or s.marketing or s.list_discussion
                or s.unsolicited or s.cold_unsolicited or s.spam_verdict or s.phishing
                or s.auto_reply)


_READ_URGENT = THRESHOLDS.push_urgency  # what the rules read as urgent (enough for PUSH)
_PROMOTED = 0.8  # the tier of trouble told: PUSH, when the policy's guards allow it
_VETOED = 0.5  # the tier of a near time alone: something to answer (QUEUE), not to interrupt
# The rules' readings of a near time alone, which the word model may raise to `_PROMOTED`:
# the words around the time ("the pump is booked for 6", "bearing temperature rising") are
# what the rules were never given, and what the model reads
_RAISABLE = frozenset({"some time pressure", "automated reminder"})


def _second_reading(urgency: float, why: str, read: Callable[[], Reading], s: Signals,
                    quiet: bool) -> tuple[float, str]:
    """The word model (core/word_model.py) against the rules, at the far ends only, each
    time after reading enough words it knows. Mail the rules read as urgent that the model
    all but rules out is something to answer, unless it is a security notice (whether that
    is real is the sender evidence's to say, not the words'); where the mail also says it
    needs no action or can wait (`quiet`: "No action needed from you", "Nothing for you to
    do"), odds that merely lean against urgency are enough (QUIET_VETO_AT). Mail the rules
    read nothing in that the model reads as urgent with near certainty is urgent, unless it
    is a promotion, a list post, cold bulk mail, a stranger's pitch, or says it can wait
    (`quiet`). Mail the rules read a near time in and nothing more (`_RAISABLE`: a time with
    no ask or trouble found, or a robot's reminder) is urgent when the model reads it so at
    RAISE_AT, with the same exceptions and a security notice's (whether that is real is the
    sender evidence's to say). Anything else the rules decide alone. `read` is called only
    when the model may act."""
    if urgency >= _READ_URGENT:
        if s.security_alert:
            return urgency, why
        model = read()
        if model.urgent <= (QUIET_VETO_AT if quiet else VETO_AT) and (
                model.known >= VETO_MIN_KNOWN):
            return _VETOED, f"{why}; but the word model reads no urgency (p {model.urgent:.2f})"
        return urgency, why
    if quiet or s.marketing or s.list_discussion or s.unsolicited or (
            s.cold_unsolicited or s.cold_pitch):
        return urgency, why
    if why in _RAISABLE and not s.security_alert:
        model = read()
        if model.urgent >= RAISE_AT and model.known >= PROMOTE_MIN_KNOWN:
            return _PROMOTED, f"{why}; the word model reads urgency (p {model.urgent:.2f})"
        return urgency, why
    if why:
        return urgency, why
    model = read()
    if model.urgent >= PROMOTE_AT and model.known >= PROMOTE_MIN_KNOWN:
        return _PROMOTED, f"the word model reads urgency (p {model.urgent:.2f})"
    return urgency, why


def score_local(message: Message, signals: Signals, texts: Texts | None = None) -> Scored:
    """Urgency is read in the sender's own words (no quoted reply, signature or footer) with
    negated and conditional urgency removed (core/signals.py `own_words`, `in_scope`). A
    reply's or a forward's subject was written for the mail it answers ("Re: URGENT - server
    down" on "fixed, all good"): when the sender wrote words of their own, they alone count.
    `texts`: `read_texts(message)`, when the caller has it (the signals read them too)."""
    if texts is None:
        texts = read_texts(message)
    words = texts.own[:OPENING_CHARS]
    if _ANSWERS.match(message.subject) and words.strip():
        folded = fold(f"\n{words}")
        searched = as_searched(folded)
        scoped = in_scope(searched)
        has_text = bool(folded.strip())
        asks_said = asks_in = scoped
    else:  # the subject and the first words: the texts' own
        searched, scoped = texts.first_said, texts.first_scoped
        has_text = _has_text(texts.subject, message.subject, texts.own)
        # A person who first tells what happened asks at the end ("... I need you to confirm
        # by 12:00 how many kilos"): the asks are read further than the urgency
        if len(texts.own) <= URGENCY_CHARS:
            asks_said = asks_in = scoped
        else:
            asks_said = as_searched(fold(f"{message.subject}\n{texts.own[:ASK_CHARS]}"))
            asks_in = in_scope(asks_said)
            if len(texts.own) <= ASK_CHARS and _a_persons_mail(signals) and (
                    _SALUTATION.match(texts.own)):
                # ... and when such a mail ends there, all of it is read: "I need your decision
                # before 14:00 today" or "by Friday, no decision before then" closes what the
                # first lines told. A pitch, a robot's notice, a list post or a text that greets
                # no one (a report, a bulletin) keeps the first URGENCY_CHARS: a "call now!!!"
                # further down is the seller's, "crews will inspect the banks today" the
                # authority's own plan
                searched, scoped = asks_said, asks_in
    read = scoped  # where urgency is read: the text in scope, less the sender's own name
    found = _URGENCY_SET.found(read) | _INCIDENT_SET.found(read) | _NEAR_SET.found(read)
    if "explicit" in found and message.from_addr:
        unnamed = _without_senders_name(scoped, message.from_name, message.from_addr)
        if unnamed is not None:
            read = unnamed
            found = (_URGENCY_SET.found(read) | _INCIDENT_SET.found(read)
                     | _NEAR_SET.found(read))
    if "dotted_day" in found and "explicit" not in found:
        found = found | _DATED
    if "near_clock" in found:
        found = _dated_clock(found, signals.same_org)
    if "resolved" in found and _PENDING_FIX.search(read) and not _RESOLVED_ALONE.search(
            _PENDING_FIX.sub(b" ", read)):
        found = found - _RESOLVED_NAME
    if "resolved" in found and not _ANSWERS.match(message.subject) and _TROUBLE_SET.found(
            as_searched(texts.subject)) and not _RESOLVED_ALONE.search(
            as_searched(texts.subject)):
        # a new mail's subject tells trouble not over ("Seawall breached, guest chest pain"):
        # what the body says is fine ("everyone accounted for") is part of the story, not its
        # end (a reply's subject is the thread's: "Re: battery smoking" over "back to normal")
        found = found - _RESOLVED_NAME
    told = ReadWhenAsked(_TROUBLE_SET, read)
    # (read only where an incident or trouble is found: most mail tells neither)
    on_the_news = ReadWhenAsked(_NEWS_SET, read)
    if "incident" in found and on_the_news():
        # the news's incident, told to ask after the reader
        found = found - _INCIDENT_NAME

    def trouble_told() -> bool:
        """Trouble told, and not the news's."""
        return told() and not on_the_news()
    if "near" in found and _ARRIVED_TODAY.search(read) and not trouble_told() and not (
            _NEAR_ALONE.search(_ARRIVED_TODAY.sub(b" ", read))):
        # what arrived today, with no trouble told: when it came, not a limit
        found = found - _NEAR_NAME
    if not signals.security_alert and ALARM_SUBJECT.match(message.subject):
        found |= _ALARMED
    if _CLEARED_SUBJECT.match(message.subject) or _CLEARED_AT_END.search(message.subject):
        found |= _CLEARED
    # "no action needed" is itself negated urgency, gone from the text in scope.
    if "no_action" in found and not _no_action_in(read):
        found = found - _NO_ACTION_NAME
    no_action = "no_action" in found or (scoped is not searched and _no_action_in(searched))
    calm = (scoped is not searched and bool(_CALM.search(searched))) or (
        asks_in is not asks_said and bool(_CALM.search(asks_said))) or (
        # "FYI - revised arrival (already rebooked, no action needed)": the subject itself
        # says so, and the trouble told below is what was already dealt with
        no_action and bool(_NO_ACTION_SUBJECT.search(as_searched(texts.subject))))
    def routine() -> bool:
        """The subject names a routine matter and tells no trouble or urgency itself."""
        if not _ROUTINE_SUBJECT.search(texts.subject):
            return False
        subject = as_searched(texts.subject)
        return not any(found_in & {"explicit", "incident", "trouble"}
                       for found_in in (p.found(subject) for p in _ROUTINE_SETS))

    if _QUESTION.search(read if read is not scoped else asks_in):
        found = found | {"question"}
    urgency, why = _urgency(found, signals, trouble_told,
                            ReadWhenAsked(_ASK_SET, _without_no_action(
                                read if read is not scoped else asks_in, no_action)),
                            no_action, calm, routine,
                            lambda: ACCOUNT_ASK.search(read), lambda: _YOU.search(read),
                            lambda: _AVERTED.search(read),
                            lambda: bool(_NOT_REAL_ALONE.search(read)
                                         or _drill_announced(texts.subject)),
                            lambda: _YOURS.search(read),
                            lambda: bool(ACCOUNT_ASK.search(read) or SIGN_IN_ASK.search(
                                texts.opening)) and _WEB_ADDRESS.search(
                                texts.opening),
                            lambda: _SUBSCRIBED.search(texts.footer),
                            lambda: bool(_MONEY_WAITING.search(read))
                            and not _WEB_ADDRESS.search(texts.opening))
    if urgency >= _ACKNOWLEDGED_CAP and _ACKNOWLEDGED.search(read):
        urgency, why = _ACKNOWLEDGED_CAP, "an acknowledgement of the reader's own request"
    if urgency >= _ACKNOWLEDGED_CAP and PERIODIC_REPORT.match(message.subject):
        subject = as_searched(texts.subject)
        if not ((_URGENCY_SET.found(subject) | _INCIDENT_SET.found(subject)) & _SUBJECT_NOW
                or _TROUBLE_SET.found(subject)):
            urgency, why = _ACKNOWLEDGED_CAP, "a periodic report"
    urgency, why = _second_reading(
        urgency, why, lambda: read_urgency(texts.scoped.decode("utf-8", "replace")), signals,
        no_action or calm)
    features = _features(_confidence(signals, urgency, has_text),
                         _sender_trust(signals), _reversibility(signals), urgency)
    parts = [p for p in (why, ", ".join(signals.names())) if p]
    return Scored(features=features, reason="; ".join(parts) or "no strong signals")
