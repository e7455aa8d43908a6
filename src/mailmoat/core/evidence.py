"""Sender evidence and the phishing/scam flag: what a mail's origin says, beside its words.

Two kinds of evidence, kept apart in the trace:

* Receipt evidence, written by the receiving side: SPF/DKIM/DMARC results from the topmost
  Authentication-Results (or ARC) header, the server's spam verdict (X-Spam-Flag,
  X-Spam-Status, X-Rspamd-Action, a $Junk/\\Junk keyword or a Junk folder handed in as a
  label), and whether the sender's domain is the recipient's own organisation. A sender can
  forge headers, so these only ever count *against* a mail: a "pass" never earns PUSH, a
  "fail" or a spam verdict takes PUSH away.
* Shapes of phishing and scams, several independent ones (docs/policy.md lists them with
  their weights): a credential/payment request with a link elsewhere; link text naming one
  domain that points at another; a brand in the display name from an unrelated domain;
  look-alike and digit-substituted domains; prize/inheritance/wire/gift-card money talk; a
  free-mail sender posing as an institution; generated local parts; abused TLDs. A mail whose
  shapes weigh `FLAG_WEIGHT` or more is flagged: it stays visible, never PUSH, never AUTO.

Pure: bytes already parsed into a Message in, an Evidence out. Every pattern is matched in
one RE2 Set pass over the folded subject and opening.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass

from mailmoat.core.message import Message, html_links
from mailmoat.core.patterns import PatternSet, alternatives, greek
from mailmoat.core.patterns import matcher as _matcher
from mailmoat.core.public_domains import is_public_domain
from mailmoat.core.text import fold

FLAG_WEIGHT = 2  # shapes adding up to this flag a mail
OPENING_CHARS = 1500


@dataclass(frozen=True, slots=True)
class Evidence:
    spf: str = ""  # pass / fail / softfail / neutral / none / ... ; "" when no header
    dkim: str = ""
    dmarc: str = ""
    same_org: bool = False  # From domain is a recipient's own (non-public) domain, auth not failed
    server_spam: bool = False  # the receiving server's filter called it spam / junk
    auto_reply: bool = False  # RFC 3834 auto-reply, X-Autoreply, or an out-of-office text
    phishing: tuple[str, ...] = ()  # the shapes found, each "weight:reason"
    weight: int = 0
    unsolicited: tuple[str, ...] = ()  # shapes of unsolicited bulk mail (spam), "weight:reason"
    spam_weight: int = 0
    threaded: bool = False  # the mail answers a thread (In-Reply-To or References)
    # One phishing shape that makes a cold contact: from outside the reader's domain (as
    # claimed, auth not failed), and more than an authenticated sender asking to confirm
    # account details (a counterparty before a wire does that too).
    lure: bool = False
    # Bulk shapes that make a cold contact: all of them, except the casual ones a colleague
    # writes too (no subject, a "Re:" with no thread) when the From domain is a recipient's
    # own, as claimed, with no authentication failure.
    cold_bulk: bool = False
    # The brand the display name claims, sending from that brand's own domain with DMARC
    # passing ("Google Workspace Alerts" from google.com): the brand itself, vouched for by
    # the receiving server, not by the mail's words.
    brand_verified: bool = False

    @property
    def auth_failed(self) -> bool:
        return self.dmarc == "fail" or (self.dmarc in ("", "none") and self.spf == "fail")

    @property
    def flagged(self) -> bool:
        return self.weight >= FLAG_WEIGHT

    @property
    def spam_shaped(self) -> bool:
        """Unsolicited bulk mail by its shape: never PUSH (the policy), may be silenced."""
        return self.spam_weight >= FLAG_WEIGHT

    @property
    def cold_unsolicited(self) -> bool:
        """One unsolicited shape, or one phishing shape from outside the reader's
        organisation, in a mail that answers no thread: a cold contact that looks like bulk
        mail or a lure. Not enough to silence or flag it; enough that a stranger's urgent
        wording does not interrupt (the policy asks for no history with the sender)."""
        return (self.cold_bulk or self.lure) and not self.threaded

    def reasons(self) -> tuple[str, ...]:
        return tuple(r.partition(":")[2] for r in self.phishing)

    def as_dict(self) -> dict[str, object]:
        return {
            "spf": self.spf, "dkim": self.dkim, "dmarc": self.dmarc,
            "same_org": self.same_org, "server_spam": self.server_spam,
            "auto_reply": self.auto_reply, "phishing_flag": self.flagged,
            "phishing_weight": self.weight, "phishing_reasons": list(self.reasons()),
            "spam_shaped": self.spam_shaped, "cold_unsolicited": self.cold_unsolicited,
            "spam_reasons": [r.partition(":")[2] for r in self.unsolicited],
            "brand_verified": self.brand_verified,
        }


# -- receipt evidence -------------------------------------------------------------------

_AUTH = re.compile(r"\b(spf|dkim|dmarc)\s*=\s*([a-z]+)", re.IGNORECASE)
_SPAM_YES = re.compile(r"^\s*(?:yes|true|spam)\b", re.IGNORECASE)
_RSPAMD_SPAM = frozenset({"reject", "add header", "rewrite subject", "soft reject"})
JUNK_LABELS = frozenset({"$junk", "\\junk", "junk", "spam", "[gmail]/spam", "category_spam"})
JUNK_FOLDERS = frozenset({"junk", "spam", "junk e-mail", "junk email", "bulk mail",
                          "스팸메일함", "스팸함", "spam mail"})


def junk_marks(flags: tuple[str, ...], folder: str | None) -> tuple[str, ...]:
    """The labels a server's junk verdict becomes: a $Junk/\\Junk keyword, or the folder the
    message sits in being a Junk folder. For the IMAP sync to hand to the parser."""
    marks = [f for f in flags if f.casefold() in JUNK_LABELS]
    if folder:
        leaf = folder.replace("\\", "/").rstrip("/").rpartition("/")[2]
        if leaf.rpartition(".")[2].strip().casefold() in JUNK_FOLDERS:
            marks.append("\\Junk")
    return tuple(dict.fromkeys(marks))


def _auth(results: str) -> tuple[str, str, str]:
    found: dict[str, str] = {}
    for method, value in _AUTH.findall(results[:4000]):
        method, value = method.lower(), value.lower()
        # Several DKIM signatures: any that passes counts as a pass.
        if method not in found or (method == "dkim" and value == "pass"):
            found[method] = value
    return found.get("spf", ""), found.get("dkim", ""), found.get("dmarc", "")


def _server_spam(message: Message) -> bool:
    for name, value in message.spam_headers:
        if name == "X-Rspamd-Action":
            if value.strip().lower() in _RSPAMD_SPAM:
                return True
        elif _SPAM_YES.match(value):
            return True
    return any(label.casefold() in JUNK_LABELS for label in message.labels)


_SECOND_LEVEL = frozenset({"co", "com", "net", "org", "ac", "go", "or", "ne", "gov", "edu"})


@functools.lru_cache(maxsize=8192)  # pure; a mailbox repeats its senders
def registrable(domain: str) -> str:
    """The organisation's domain: the last two labels, three under co.uk / co.kr style."""
    labels = domain.lower().strip(".").split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


# -- shapes -------------------------------------------------------------------------------

# Brand names people are phished with -> the registrable-domain names that really send for
# them. A brand in the display name from any other domain is a shape; so is a brand's name,
# after undoing digit and letter swaps, inside a domain that is not the brand's.
BRANDS: dict[str, tuple[str, ...]] = {
    "paypal": ("paypal",), "apple": ("apple", "icloud"), "apple id": ("apple", "icloud"),
    "icloud": ("apple", "icloud"),
    "microsoft": ("microsoft", "office", "outlook", "live", "office365", "microsoftonline",
                  "sharepointonline", "onmicrosoft", "hotmail", "onedrive"),
    "office 365": ("microsoft", "office", "office365", "microsoftonline"),
    "microsoft 365": ("microsoft", "office", "office365", "microsoftonline"),
    "office365": ("microsoft", "office", "office365"), "outlook": ("microsoft", "outlook"),
    "onedrive": ("microsoft", "live", "onedrive"), "sharepoint": ("microsoft", "sharepointonline"),
    "amazon": ("amazon", "amazonses", "amazonaws", "aws"), "netflix": ("netflix",),
    "google": ("google", "gmail", "youtube", "googlemail"), "gmail": ("google", "gmail"),
    "google workspace": ("google",), "docusign": ("docusign",), "dhl": ("dhl",),
    "fedex": ("fedex",), "ups": ("ups",), "usps": ("usps",), "chase": ("chase", "jpmorgan"),
    "wells fargo": ("wellsfargo", "wf"), "bank of america": ("bankofamerica", "bofa"),
    "citibank": ("citi", "citibank"), "hsbc": ("hsbc",), "barclays": ("barclays",),
    "coinbase": ("coinbase",), "binance": ("binance",), "metamask": ("metamask",),
    "facebook": ("facebook", "facebookmail", "meta"), "instagram": ("instagram", "facebookmail"),
    "linkedin": ("linkedin",), "dropbox": ("dropbox", "dropboxmail"),
    "adobe": ("adobe", "adobesign"),
    "github": ("github", "githubapp"), "gitlab": ("gitlab",),
    "irs": ("irs",), "western union": ("westernunion",), "moneygram": ("moneygram",),
    "ebay": ("ebay",), "steam": ("steampowered", "steamcommunity"), "visa": ("visa",),
    "mastercard": ("mastercard",), "american express": ("americanexpress", "aexp"),
    "naver": ("naver", "navercorp", "worksmobile"),
    "네이버": ("naver", "navercorp", "worksmobile"),
    "kakao": ("kakao", "kakaocorp", "daum", "kakaopay", "kakaowork"),
    "카카오": ("kakao", "kakaocorp", "daum", "kakaopay", "kakaowork"),
    "국민은행": ("kbstar", "kbfg", "kbcard"), "신한": ("shinhan", "shinhancard"),
    "우리은행": ("wooribank",),
    "국세청": ("nts", "hometax"), "우체국": ("epost", "koreapost"), "검찰": ("spo",),
    "spotify": ("spotify",), "zoom": ("zoom",), "slack": ("slack", "slackhq"),
    "whatsapp": ("whatsapp", "facebookmail"), "tiktok": ("tiktok",),
    "shopify": ("shopify", "shopifyemail"), "stripe": ("stripe",),
    "quickbooks": ("intuit", "quickbooks"), "intuit": ("intuit",), "xero": ("xero",),
    "revolut": ("revolut",), "royal mail": ("royalmail",), "evri": ("evri", "myhermes"),
    "dpd": ("dpd", "dpdlocal"), "parcelforce": ("parcelforce",),
    "canada post": ("canadapost", "postescanada", "canadapost-postescanada"),
    "auspost": ("auspost",),
    "australia post": ("auspost",), "norton": ("norton", "nortonlifelock"),
    "mcafee": ("mcafee",), "verizon": ("verizon", "verizonwireless"),
    "xfinity": ("xfinity", "comcast"), "comcast": ("comcast", "xfinity"),
    "vodafone": ("vodafone",), "natwest": ("natwest",), "monzo": ("monzo",),
    "capital one": ("capitalone",), "navy federal": ("navyfederal", "navyfcu"),
    "linkt": ("linkt",),
    "wetransfer": ("wetransfer",), "airbnb": ("airbnb",),
    "venmo": ("venmo",), "zelle": ("zellepay", "zelle"), "etsy": ("etsy",),
    "coupang": ("coupang",), "쿠팡": ("coupang",), "samsungcard": ("samsungcard",),
    "삼성카드": ("samsungcard",), "현대카드": ("hyundaicard",), "롯데카드": ("lottecard",),
    "하나은행": ("hanabank", "kebhana", "hanafn"), "농협": ("nonghyup", "nhbank"),
    "기업은행": ("ibk",), "토스": ("toss", "tossbank", "tosspayments"),
    "cj대한통운": ("cjlogistics",),
}
# Brands long enough to look for inside domains without matching ordinary words.
# Matched as a whole label or hyphen part only ("ups-track.com", never "meetups.com").
# Brands that are place names or words too ("little-norton-pc.org.uk") are read in
# display names only.
_PLACE_OR_WORD_BRANDS = frozenset({"norton", "zoom", "slack", "stripe"})
_DOMAIN_BRANDS = {b: d for b, d in BRANDS.items()
                  if b.isascii() and " " not in b and b not in _PLACE_OR_WORD_BRANDS}
# Documentation domains (RFC 2606, scrubbed data sets) say nothing about who sent a mail.
_RESERVED = (".example", ".invalid", ".test", ".localhost", "example.com", "example.org",
             "example.net")
_SWAPS = str.maketrans({"0": "o", "1": "i", "l": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                        "$": "s", "@": "a"})


def _skeleton(text: str) -> str:
    return text.lower().replace("rn", "m").replace("vv", "w").translate(_SWAPS)


_BRAND_SKELETONS = {_skeleton(b): b for b in _DOMAIN_BRANDS}


def one_letter_off(a: str, b: str) -> bool:
    """Two names of six letters or more that differ in one place, or read the same once
    look-alike letters are swapped ("halvorsen-marlne" for "halvorsen-marine", "wolseiey"
    for "wolseley"): a typo-squatted domain. Insertions are not counted ("jsmith" is not
    "smith")."""
    if a == b or len(a) < 6 or len(a) != len(b):
        return False
    return _skeleton(a) == _skeleton(b) or sum(x != y for x, y in zip(a, b, strict=True)) == 1
_BRAND_IN_NAME = re.compile(
    r"(?<![a-z0-9])(" + "|".join(re.escape(b) for b in sorted(
        (b for b in BRANDS if b.isascii()), key=len, reverse=True)) + r")(?![a-z])"
    r"|(" + "|".join(re.escape(b) for b in BRANDS if not b.isascii()) + ")")

ABUSED_TLDS = frozenset({
    "top", "xyz", "icu", "buzz", "cyou", "cfd", "sbs", "rest", "click", "link", "online",
    "site", "club", "work", "tk", "ml", "ga", "cf", "gq", "loan", "win", "bid", "date",
    "racing", "review", "stream", "download", "men", "party", "science", "trade", "accountant",
    "faith", "cricket", "monster", "quest", "zip", "mov", "country", "kim", "gdn", "pw",
})
_URL_HOST = re.compile(rb"(?:https?://|www\.)([a-z0-9][a-z0-9.-]{0,250}[a-z0-9])")
MAX_HOSTS = 12
_DOMAIN_IN_TEXT = re.compile(r"\b((?:[a-z0-9-]+\.)+(?:com|net|org|gov|edu|io|co|de|uk|kr|jp|"
                             r"fr|info|biz|us|app))\b")

_LEGAL_THREAT = "threat of legal action or seizure"
_CALLBACK = "a charge to cancel by phone"
_UNCHECKED = "with no authentication results to check"
# Named shapes matched in one RE2 Set pass. (name, weight, pattern)
_REGISTRY_SHAPE = "a registry or listing nobody ordered"
_REDIRECTED = "money redirected to a new account"
_DISCLAIMED = "an unsolicited-mail disclaimer"
_PAYMENT_ASK = "payment or fee request"
# what a mail that tells the reader to check a change apart warns of (`_CHECK_APART`)
# (and a wire the bank holds: "a wire transfer of $86,420.00 ... we have placed it on hold")
_GIFT_OR_WIRE = "gift cards or wire"
_WARNED_OF = frozenset({_REDIRECTED, _PAYMENT_ASK, _GIFT_OR_WIRE})
_SHAPES: tuple[tuple[str, int, str], ...] = (
    ("credential request", 1,
     r"\b(?:verify|confirm|validate|re-?validate|update|restore|unlock|secure|re-?activate|keep|"
     r"re-?enter|re-?submit)\b.{0,40}"
     r"\b(?:account|identity|password|login|log-?in|sign-?in|credentials?|billing|payment "
     r"(?:method|details|information)|card|wallet|mailbox|recovery phrase|details)\b"
     r"|\b(?:log ?in|sign ?in|logging in|signing in)\b.{0,30}\b(?:to (?:view|release|restore|"
     r"cancel|keep|confirm)|with your (?:company |work |business )?(?:credentials|account|"
     r"password|e-?mail))"
     r"|(?:recovery|seed) phrase|password (?:expir\w+|will expire)|mailbox (?:is )?full"
     r"|(?:mailbox|storage|quota) (?:has )?(?:exceeded|limit reached|almost full)|exceeded (?:the|"
     r"your) (?:storage|quota|mailbox)|increase your (?:quota|storage|mailbox)"
     r"|(?:your|the) (?:bank|account) (?:details|number|information)|bank account"
     r"|(?:card|account) (?:number|details) and"
     # what a sign-in page will ask for: "your username, password and the one-time code"
     r"|\byour (?:\w+ )?user ?name,? (?:and )?password\b|\b(?:with|using) your (?:\S+ ){0,6}"
     r"(?:customer|user|client|member|account) ?(?:id|number|name),? and (?:\w+ )?password\b"
     r"|\b(?:su|tu) usuario,? (?:y )?(?:su |tu )?contraseña\b|\bvotre identifiant et (?:votre )?"
     r"mot de passe\b|\b(?:ihren? )?benutzernamen? und (?:ihr )?passwort\b"
     r"|\byour (?:\w+ )?password,? and (?:the |your |a )?(?:\w+ )?"
     r"(?:one-time|otp|verification|sms|authenticator|security|mfa|2fa) (?:code|password)\b"
     r"|\byour (?:\w+ )?password,? and (?:a|the) code from\b"
     r"|비밀번호|계좌 ?번호|본인 ?(?:인증|확인)|인증하기|개인정보 입력"
     # the same asks in German, French, Spanish and Polish
     r"|\b(?:bestätigen sie (?:bitte )?ihre (?:identität|daten|zugangsdaten|kontodaten)|"
     r"(?:online-banking-)?zugangsdaten|confirmez votre identit|vos identifiants|"
     r"validez votre identit|vérifiez votre identit|"
     # Malay: log in to your (bank) account, verify your account or identity, the password
     r"log masuk ke akaun|log masuk (?:ke )?(?:perbankan|portal)|sahkan (?:akaun|identiti|"
     r"maklumat) anda|kata laluan|"
     r"(?:confirme|verifique) su (?:identidad|cuenta)|sus credenciales|datos de acceso|"
     r"clave (?:de internet|sms|secreta|de acceso)|"
     r"potwierdź (?:swoją )?tożsamo|dane logowania|zweryfikuj|weryfikacj\w+ (?:danych|konta)|"
     r"zaloguj si|potwierdź (?:dane|konto)|zaktualizuj (?:swoje )?dane|aktualizacj[aęi] "
     r"(?:danych|numeru (?:rachunku|konta))|"
     # Italian, Romanian and Portuguese
     r"verifica (?:i tuoi|i suoi) dati|conferma (?:i tuoi|i suoi) dati|accedi al tuo conto|"
     r"inserendo (?:le )?credenziali|verifichi la (?:sua|tua) identit|codice di conferma|"
     r"verific[ăa] datele|confirm[ăa] datele|autentific[ăa]-te|confirme (?:seus|os seus) dados|"
     r"verifique (?:sua|a sua) conta|fa[çc]a login|informe (?:seu|o seu) cpf|chave pix e o "
     r"c[óo]digo|senha de acesso|c[óo]digo (?:enviado )?por sms|confirme os dados banc[áa]rios|"
     # Finnish: confirm your identity, your online-bank credentials
     r"vahvista\w* henkilöllisyyte\w+|verkkopankkitunnu\w+)\b"
     # Greek and Swahili: confirm your details, the password, log in, your PIN
     r"|" + greek("επιβεβαιώστε τα στοιχεία|επαληθεύστε τα στοιχεία|κωδικό πρόσβασης|"
                  "κωδικός πρόσβασης|συνδεθείτε στον λογαριασμό|στοιχεία της κάρτας")
     + r"|\b(?:thibitisha (?:taarifa|akaunti|maelezo)|namba ya siri|pin (?:yako|ya m-?pesa)|"
     r"ingia kwenye akaunti)\b"
     # Urdu: log in, confirm your (account's) details, your PIN, the identity card number
     r"|لاگ ان کریں|(?:معلومات|اکاؤنٹ) کی (?:فوری )?تصدیق|اپنا پن|شناختی کارڈ نمبر"
     # Hungarian: identify yourself, log in, confirm your details or account, the password,
     # the card or sign-in details ("azonosítsa magát az alábbi linken")
     r"|\b(?:azonos[ií]tsa mag[aá]t|jelentkezzen be|er[oő]s[ií]tse meg (?:az )?(?:adatait|"
     r"fi[oó]kj[aá]t|szem[eé]lyazonoss[aá]g[aá]t|k[aá]rty[aá]j[aá]t)|jelszav\w*|"
     r"k[aá]rtyaadat\w*|bankk[aá]rtya-?adat\w*|bel[eé]p[eé]si adat\w*|friss[ií]tse (?:az )?"
     r"adatait)"
     # Czech and Slovak: verify your account or identity, your login details, enter the
     # password, the card number
     r"|\b(?:ov[eě][rř]te|overte|potvr[dď]te) (?:sv[uů]j|v[aá][sš]|sv[eé]|va[sš]e|svoje|svoj) "
     r"(?:[uú][cč]et|toto[zž]nost|toto[zž]nos[tť]|[uú]daje)|p[rř]ihla[sš]ovac[ií] [uú]daje|"
     r"prihlasovacie [uú]daje|zadejte (?:sv[eé] )?heslo|zadajte (?:svoje )?heslo|[cč][ií]slo "
     r"(?:platebn[ií] )?karty"
     # Russian: confirm your identity, account or card; the card's details; enter the password
     r"|подтвердите (?:свою |вашу )?(?:личность|учетную запись|учётную запись|аккаунт|карту|"
     r"данные)|данные (?:вашей |банковской )*карты|введите (?:свой |ваш )?(?:пароль|код)"
     # Afrikaans: the (new) password, your or our (new) bank details, confirm your details
     r"|\b(?:(?:nuwe |jou )?wagwoord|(?:jou|u|ons) (?:nuwe |opgedateerde )?bankbesonderhede|"
     r"bevestig (?:jou|u) besonderhede)\b"
     # Turkish: your card details, your password, verify your account, a secure payment
     # page, update your details
     # Hindi: KYC, the OTP, the card number, log in, verification to do; Polish: logging in
     r"|केवाईसी|kyc (?:अपडेट|update)|ओटीपी|otp तैयार|कार्ड नंबर|लॉगिन कर|सत्यापन कर"
     # Marathi and Hindi: the OTP to fill in, give or tell; the ATM card, the card's or the
     # account's number, the bank account, the Aadhaar number
     r"|otp (?:भरा|भरें|भरे|द्या|दें|दे|बताएं|बताइए|बताओ|सांगा|शेयर)|एटीएम कार्ड|atm कार्ड"
     r"|कार्ड क्रमांक|खाते क्रमांक|बँक खाते|बैंक खाता|खाता संख्या|आधार (?:क्रमांक|नंबर)"
     r"|\bzalogowani\w* się"
     r"|\b(?:kart bilgileri\w*|hesabınızı doğrula\w*|güvenli ödeme sayfa\w*|"
     r"bilgilerinizi güncelle\w*)|şifreniz"),
    ("goods sent to a new address", 1,
     # an order to deliver to a new warehouse or address: goods diverted in a customer's name
     r"\b(?:new|nouvel|nouveau|nouvelle|neue[nrs]?|nuev[oa]) (?:\w+ ){0,2}(?:warehouse|entrep|"
     r"lager|almac|delivery address|shipping address|adresse de livraison|lieferadresse|"
     r"direcci[oó]n de entrega)"
     # or a consignee changed and the original documents released to the new one
     r"|\bchange (?:the )?consignee\b|\bnew consignee\b|\brelease the original (?:awb|b/l|"
     r"bills? of lading|documents)\b|\bnuev[oa] plataforma log[íi]stica\b"
     # or goods loaded on a payment shown but not yet arrived ("the funds will arrive in 48-72
     # hours", a SWIFT copy attached)
     r"|\b(?:the )?funds will (?:arrive|reflect|clear|be credited) (?:in|within) \d+|\blos fondos "
     r"llegarán\b|\bles fonds arriveront\b"),
    (_PAYMENT_ASK, 1,
     r"\b(?:pay|send|transfer|wire)\b.{0,30}\b(?:fee|customs|charges?|processing|usd|eur)\b"
     r"|\b(?:clearance|release|registration|insurance|processing) deposit\b"
     # Portuguese: a Pix or court costs asked for, a release fee
     r"|\b(?:manda|mande|envie|envia|fa[çc]a|faz) (?:um |o )?pix\b|\b(?:via|no|por) pix\b"
     r"|\bcustas (?:de|do|processuais)\b|\btaxa de (?:libera[çc][ãa]o|desbloqueio|cadastro|"
     r"registro|inscri[çc][ãa]o)\b"
     r"|\bprocessing fee\b|\bcustoms fee\b|안전 ?계좌|이체하"
     # a fee to have something done for the reader that costs nothing: a loan's
     # "forgiveness" prepared, a bad review taken down, an unpaid toll's late fee
     r"|\bdocument preparation fee\b|\b(?:removed|taken down|deleted) (?:\w+ ){0,6}for a "
     r"(?:one-time |small )?fee\b|\bunpaid tolls?\b"
     r"|\bonly accept (?:a )?(?:bank transfer|wire)|\bbank transfer (?:only|directly)\b"
     r"|\b(?:delivery|redelivery|shipping|release|handling|courier|registration) fee\b"
     # a recruiter's deposit per candidate, paid first ("reserved on a first-paid basis"); a
     # stranger's "bug bounty" asked for before the details ("confirm the bounty amount")
     r"|\bplacement (?:deposit|fees?)\b|\bon a first[- ]paid basis\b|\b(?:confirm|agree|pay) "
     r"(?:the |a |my )?bounty\b|\bminimum bounty\b|\bbounty (?:amount|request|payment)\b"
     # the same fees in Spanish, French and German
     r"|\btasa (?:única|de registro|de inscripción|administrativa|de despacho)\b"
     r"|\bfrais (?:de dossier|d'inscription|d'enregistrement|de dédouanement|de déblocage)\b"
     r"|\b(?:bearbeitungs|registrierungs|freigabe|zoll)gebühr\b"
     r"|\b(?:tasa|cuota|comisión|gastos) de (?:tramitación|apertura|liberación|gestión urgente)"
     # a fee paid first in Korean and Japanese: "가입비를 선납", "手数料 ... お振込ください"
     r"|선납|(?:手数料|保証料|登録料)[^。\n]{0,40}振(?:り)?込"
     # a third party paid out of the reader's card charge: the overpayment fraud of bookings
     r"|\b(?:he|she|they|who) only accepts? (?:cash|transfers?|bank transfers?|wire)\b"
     r"|\bno acepta tarjetas\b|\b(?:does not|doesn'?t|do not|don'?t|will not|won'?t) "
     r"accept (?:credit )?cards\b|\b(?:collect|receive) [^.\n]{0,40} from you after\b"
     r"|\bpay [^.\n]{0,40} with the (?:surplus|excess|remaining|extra) (?:amount|money|funds)?\b"
     r"|\bcon el importe sobrante\b"
     # Greek and Swahili: a release or customs fee, "pay the processing fee"
     r"|" + greek("τέλη εκτελωνισμού|τέλος εκτελωνισμού|τέλος αποδέσμευσης|πληρώστε το τέλος")
     + r"|\b(?:lipa ada|ada ya (?:usindikaji|usajili|maombi|kutolewa|forodha|uhamisho))\b"
     # an advance fee: paid first to unlock money promised ("escrow setup fee ... refunded
     # at closing", "일정 금액 예치 후")
     r"|\b(?:set-?up|escrow|due[- ]diligence|activation|clearance|unlock(?:ing)?|withdrawal) "
     r"(?:fees?|retainers?)\b|\brefunded (?:at|on|upon) (?:closing|completion|signing)\b"
     r"|\bfully refundable against\b|예치 후|선입금"
    # a fee first: "5 % advisory fee upfront", "pay only 5% upfront", "an advance fee"
    r"|\b(?:up-?front|advance) (?:fees?|payments?|deposits?)\b|\b(?:fees?|deposits?) "
    r"(?:up-?front|in advance)\b|\bpay (?:only |just )?(?:\d+ ?% )?up-?front\b"
     r"|(?:계약금|예약금|보증금)(?:을|를|부터)? ?먼저|보증금[^.\n]{0,20}입금 ?후"
     # a deposit for a job, "refunded in full" later (the side-job task scam); a fee the
     # reader is to pay first, refunded with the first payment, in Turkish
     r"|(?:등록|가입|초기) ?보증금|보증금[^.\n]{0,20}(?:전액 )?환급"
     r"|ücret\w* siz öder|ücreti? (?:önceden|peşin) öde"
     # a fee to pay into the account below, in Turkish ("başvuru ücreti olan 6.800 TL'yi
     # aşağıdaki hesaba yatırmanız")
     r"|(?:ücret|bedel)\w*[^\n]{0,40}(?:hesab|iban)\w* yat[ıi]r"
     # ... to the account given below, in Tamil, Hindi and Marathi
     r"|கீழ்க்கண்ட கணக்கு|கீழே (?:உள்ள|கொடுத்துள்ள) கணக்கு|नीचे दिए (?:गए )?खाते|खालील खात्या"
     # ... and in Urdu (send or deposit it into this or the given account; a processing or
     # registration fee)
     r"|(?:اس|دیے گئے|نیچے دیے گئے) اکاؤنٹ میں (?:بھیج|جمع)|پروسیسنگ فیس|رجسٹریشن فیس"
     # ... and in Gujarati (the account below, send it to this account)
     r"|નીચેના ખાતામાં|નીચે આપેલા ખાતામાં|આ ખાતામાં મોકલ"
     r"|(?:계약금|예약금|보증금|상담료|수수료)[^.\n]{0,24}먼저 (?:송금|입금|보내)"
     # a fee paid first and "refunded in full when hired", in Korean; a processing or
     # registration fee banked in to the account below, in Malay
     r"|(?:비용|수수료|요금)[^.\n]{0,16}먼저 (?:납부|송금|입금)"
     r"|(?:합격|채용|입사) ?시 (?:전액 )?환급"
     r"|\byuran (?:proses|pemprosesan|pendaftaran|pengurusan)\b"
     r"|\bbank-?in (?:\w+ ){0,4}ke akaun"
     # the landlord who cannot show the flat and posts the keys once paid, in Korean
     r"|열쇠를 (?:택배|우편|등기)로|직접 보여(?:드릴|줄|드리지) 수(?:는|가)? 없"
     r"|\bwire me\b|\b(?:been |got )?mugged\b|계좌로 (?:먼저 |오늘 ?중(?:으로)? |바로 |즉시 )?"
     r"(?:보내|송금|입금)"
     r"|\blost my (?:wallet|passport|phone) and\b"
     # the seller who cannot show the goods: a deposit first, to beat other buyers
     r"|\b(?:viewing|inspection) (?:is )?(?:possible )?only after (?:the |a )?(?:deposit|"
     r"payment)\b"
     r"|\bdeposit to (?:hold|reserve|secure)\b|\bmany (?:buyers|people) (?:are )?(?:interested|"
     r"asking)\b|\bfirst (?:person|one|buyer) (?:who|to) (?:sends?|pays?|transfers?)\b"
     r"|\b(?:several|other|many) (?:boats|parties|buyers|clients|customers|people) (?:are )?"
     r"(?:also )?(?:interested|asking)\b|\bfirst to (?:send|pay|transfer|wire)\b|"
     r"\b(?:varias|muchas) personas interesadas\b|\botros interesados\b|"
     r"\b(?:many|several|other) (?:students|tenants|families|applicants) (?:are )?(?:also )?"
     r"interested\b|\b(?:tenho|há) mais (?:\d+ )?interessados\b|"
     # the landlord abroad: no viewing, the keys posted once the deposit is paid
     r"\b(?:cannot|can'?t|unable to) show (?:you )?(?:it|the (?:apartment|flat|house|property|"
     r"room)) in person\b|\bkeys (?:will be )?(?:mailed|posted|sent|couriered) (?:to you )?"
     r"(?:after|once)\b|\bnão posso mostrar o apartamento\b|\benvia-lhe as chaves\b|"
     # a price far below the market, held against an advance
     r"\b\d+ ?% below (?:the )?(?:current |assessed |market )*(?:index|market|price)\b|"
     r"\badvance to secure the (?:cargo|goods|stock|allocation|deal)\b|\bin escrow "
     r"with (?:our|us)\b|\bagainst \d+ ?% advance\b|\badvance (?:\w+ ){0,4}to lock\b"
     # money to a person's phone wallet, money passed on from the reader's account
     r"|\b(?:by|via) (?:momo|mobile money|m-?pesa) to\b|\bforward (?:it|this|the \w+(?: fee)?|"
     r"this amount) to (?:the|our|my|their) (?:agent|driver|transporter|shipper|mover)\b"
     # the buyer's cheque, part of it passed on to a carrier or a consultant of theirs (the
     # overpayment fraud): "transfer £6,500 to him once the cheque is deposited"
     r"|\b(?:transfer|wire|send|pay) (?:\w+ ){0,5}(?:directly )?to (?:the|our|my|his|their) "
     r"(?:carrier|shipper|transporter|mover|consultant|freight agent|shipping agent)\b"
     r"|\btransfi(?:era|eran|ere) (?:\w+ ){0,6}al transportista\b|\b(?:virer|verser) (?:\w+ )"
     r"{0,5}au transporteur\b|\bel pago directamente a (?:nuestro|el|su) (?:agente|transportista|"
     r"transitario|despachante)\b|\ble (?:paiement|virement) directement à (?:notre|votre|leur) "
     r"(?:agent|transporteur|transitaire)\b|\bdirekt an (?:unseren|ihren|den) (?:agenten|"
     r"spediteur|frachtführer)\b|\b(?:vous )?(?:reverserez|verserez|virerez) (?:\w+ ){0,3}au "
     r"transporteur\b|\btransfer (?:£|\$|€)?[\d,.]+ to (?:him|her|them) once\b"
     r"|\bonce the money is in your account\b"
     # Czech and Slovak: a delivery, customs or release fee to pay
     r"|\b(?:poplatek|poplatok) za (?:doru[cč]en|procle|vyd[aá]n|uvoln)|\bceln[ií] poplatek|"
     r"\bcolný poplatok|\b(?:zapla[tť]te|uhra[dď]te|uhra[dď]) (?:poplatek|poplatok|clo|dopravn)"),
    # A private filing service's fee notice dressed as the state's, saying so only in its small
    # print ("... is not affiliated with any government agency")
    ("a private service's notice dressed as a government's", 2,
     r"\bnot (?:affiliated|associated) with (?:any|the) (?:\w+ )?(?:government|state|federal|"
     r"county) (?:agency|agencies|entity|entities|office|department)\b"),
    # Money sent somewhere new on the sender's word: changed bank details, a payment to
    # another account than usual, an overpayment or a payment "made by mistake" to send
    # back. Genuine changes are checked by phone before money moves: never an interruption.
    (_REDIRECTED, 2,
     r"\b(?:change|changed) of bank details\b|\bnew (?:bank )?account (?:below|details)\b"
     # Finnish and Swedish: "tilinumeromme on muuttunut", "uudelle tilille", "vårt nya
     # kontonummer", "ändrade bankuppgifter"
     r"|\btilinumero\w* (?:on )?muut\w+|\buudelle tilille\b|\b(?:vårt|mitt) nya (?:kontonummer|"
     r"bankkonto|konto)\b|\bnya bankuppgifter\b|ändrade bankuppgifter\b"
     # "due to a change in our banking, please make payment today to: ..."
     r"|\bdue to (?:a |the )?change (?:in|of|to) (?:our|my|its) bank"
     r"|\b(?:changed|switched|moved) (?:our |my |its )?bank(?:s|ing)?\b|\bnew (?:\w+ )?account "
     r"below\b|\b(?:rather than|instead of) the usual account\b"
     r"|\b(?:his|her|my|our|their|this|that|a different|another|the new|\w+'s) (?:new )?"
     r"(?:bank )?(?:account|card) instead\b"
     r"|\b(?:wire|payment|bank(?:ing)?|remittance) (?:instructions|details) "
     r"(?:change|changed|update|updated)\b|\brefund the (?:difference|excess|balance)\b"
     # (money sent back or on: "send the difference back", "pay me back the extra"; not a
     # surcharge, "pay the extra $380 to have the loader over")
     r"|\boverpa(?:id|yment)\b|\b(?:send|wire|transfer|refund|return|pay) (?:me |us |him |her "
     r"|them )?(?:back )?the (?:rest|difference|balance|excess|remainder)\b"
     r"|\b(?:send|wire|transfer|refund|return) (?:me |us |him |her |them )?(?:back )?the extra\b"
     r"|\bpay (?:(?:me |us |him |her |them )(?:back )?|back )the extra\b"
     r"|\b(?:sent|paid|transferred) (?:[£$€]?[\d,.]+ )?(?:to you |into your "
     r"(?:\w+ )?account )?(?:by mistake|in error|accidentally)|\baccidentally (?:sent|paid|"
     r"transferred)\b|\bsend it back to (?:this|my|the following|our|the) (?:\w+ )?account\b"
     r"|\b(?:updated|new|changed) (?:\w+ )?(?:bank(?:ing)?|payment|wire|remittance|account) "
     r"(?:details|information|instructions)\b|\bnot the old (?:ones|details|account|bank)\b"
     r"|\b(?:changed|switched|new) banks?\b|\bnew (?:sort code|iban|account number)\b"
     r"|\bto our new account\b|\bthe old (?:one|account) is closed\b|계좌가? ?(?:변경|바뀌)"
     r"|실수로 [^.\n]{0,20}(?:이체|입금|송금)|차액[^.\n]{0,12}(?:돌려|환불|반환)"
     r"|\b(?:neue|geänderte) (?:bankverbindung|iban|kontoverbindung)\b|\b(?:bankverbindung|"
     r"kontoverbindung) (?:hat sich )?geändert\b"
     r"|\b(?:nouveaux?|nouvelles?) (?:coordonnées bancaires|rib|iban)\b"
     r"|\bchangement de (?:rib|coordonnées bancaires|banque|compte)\b|\bsur le compte suivant\b"
     r"|\bcambio de (?:entidad|banco)\b"
     # Portuguese, Italian, Romanian: a new account, the account changed
     r"|\b(?:nova conta|conta nova|novos dados banc[áa]rios|nuovo iban|nuove coordinate "
     r"bancarie|variazione (?:delle )?coordinate bancarie|nou cont|noul cont|iban nou)\b"
     r"|\bla cuenta anterior\b"
     # a relative's or a stranger's account, a refund to a new card, in other words
     r"|\ba la cuenta de (?:mi|su) (?:hermano|hermana|primo|prima|madre|padre|hijo|hija|amigo|"
     r"amiga|socio|esposa|esposo|marido|mujer|novio|novia)\b|\bauf das konto (?:von|meiner|"
     r"meines)\b|\brefund (?:\w+ ){0,3}to (?:my|a|the) new (?:card|account)\b"
     r"|\bsur le compte de (?:ma|mon|sa|son) (?:sœur|frère|mère|père|fils|fille|cousine?|mari|"
     r"femme|amie?|associée?|conjointe?)|\bsul conto di (?:mia|mio|sua|suo) (?:sorella|fratello|"
     r"madre|padre|figlia|figlio|cugina|cugino|moglie|marito)\b|\bna conta d[ao] (?:minha|meu) "
     r"(?:irmã|irmão|mãe|pai|filha|filho|prima|primo|esposa|marido)"
     r"|\b(?:op|naar) de rekening van\b|\bnieuwe? (?:rekeningnummer|iban|bankgegevens|"
     r"bankrekening)\b"
     # Greek and Swahili: a new account, the bank details changed
     r"|" + greek("νέο λογαριασμό|νέος λογαριασμός|νέο iban|νέα τραπεζικά στοιχεία|"
                  "αλλαγή τραπεζικών στοιχείων|άλλαξαν τα τραπεζικά")
     + r"|\b(?:akaunti mpya|namba mpya ya akaunti|tumebadilisha (?:benki|akaunti))\b"
     # a relative's account: "refund it to my cousin's account below, mine is blocked"
     r"|\b(?:to|into) (?:my|his|her|their|our) (?:\w+'s )?(?:cousin|brother|sister|wife|husband|"
     r"friend|uncle|aunt|son|daughter|mother|father|partner)'?s? (?:bank )?account\b"
     r"|\bcompte (?:dédié aux?|temporaire)|\bprivremeni račun|\bcuenta temporal\b"
     r"|\btemporary (?:bank )?account\b"
     # a salary account moved, a change of bank, an account closed for a restructuring or an
     # audit, "not the usual account but the one below" (in Korean)
     r"|\b(?:moved|changed|switched) (?:my|our) (?:salary|payroll|wages?) (?:bank )?account\b"
     r"|\bchange of bank\b|\b(?:account|bank) (?:is|was|has been|has) closed (?:the old |for |as "
     r"part of |due to )|\baccount is closed for\b|\btemporarily handled by (?:our|the) "
     r"\w+ (?:treasury )?account\b|\bcourier (?:the|all) original (?:bills? of lading|b/?ls?|"
     r"documents) to (?:our|the) new\b|\bto our new (?:customs )?(?:agent|driver|forwarder)\b"
     r"|기존 계좌가 아닌|기존 계좌 ?말고"
     # money sent by mistake, the difference to send back: "erreur de virement ...
     # rembourser la différence", "bonifico per errore", "transferi por engano"
     r"|\berreur de virement\b|\bvirement (?:effectué )?par erreur\b|\brembourser la "
     r"différence\b|\btrop-perçu\b|\bbonifico (?:effettuato )?per errore\b|\brestituire la "
     r"differenza\b|\btransferencia (?:realizada )?por error\b|\bdevolver la diferencia\b|"
     r"\btransferi por engano\b|\bdevolver a diferença\b|\bversehentlich (?:\w+ )?überwiesen\b"
     # payments to go only to a new account: "i pagamenti vanno effettuati esclusivamente sul
     # nuovo conto"
     r"|\b(?:sul|al) nuovo conto\b|\bnuovo conto (?:di accredito|corrente|bancario)\b"
     r"|\bnuevos? (?:datos bancarios|"
     r"cuenta bancaria|iban|número de cuenta)\b|\bcambio de (?:cuenta|datos) bancari[oa]s?\b"
     # Czech and Slovak: a new or changed account number, new bank details
     r"|\b(?:nov[eéyý]|nov[eé]ho|zm[eě]n[auy]|zmen[auy]|zm[eě]n[eě]n[eéyý]|zmenen[eéyý]) "
     r"(?:[cč][ií]sl[oa] (?:bankovn[ií]ho |bankov[eé]ho )?[uú][cč]tu|bankovn[ií](?:ho)? spojen[ií]|"
     r"bankov[eé](?:ho)? spojeni[ae])"
     # Afrikaans, Serbian (both scripts), Georgian and Kannada: a new account, new or changed
     # bank details
     r"|\b(?:(?:ons|my) nuwe (?:bank)?rekening|nuwe rekening|(?:opgedateerde|veranderde) "
     r"bankbesonderhede|novi (?:tekući |žiro )?račun|novog računa|promen[aeu] (?:broja )?računa)\b"
     r"|нови (?:текући |жиро )?рачун|новог рачуна|промен[аеу] (?:броја )?рачуна"
     r"|ახალ(?:ი|ზე) ანგარიშ|ანგარიში შეიცვალა|ಹೊಸ ಖಾತೆ|ಹೊಸ ಬ್ಯಾಂಕ್ ಖಾತೆ"),
    # Sold as an invoice or a warning, a registration nobody asked for: trademark
    # "publication", a directory listing, a Chinese "internet keyword" or domain claim.
    (_REGISTRY_SHAPE, 2,
     r"\binternet keywords?\b|\bdomain (?:name )?registration (?:cent(?:er|re)|service "
     r"company)\b|\bnot an official (?:\w+ )?(?:fee|invoice|bill)\b|\bthis is not an invoice\b"
     # (the same registration centre in Hungarian: "Domain Regisztrációs Központ")
     r"|\bdomain ?regisztr[aá]ci[oó]s k[oö]zpont"
     # the fine print of an offer dressed as an invoice
     r"|\bthis (?:registration|listing|entry|offer|publication) is not (?:mandatory|compulsory|"
     r"obligatory|an invoice)\b|\bpayment (?:of this (?:offer|invoice|form) )?(?:implies|"
     r"constitutes|means) (?:acceptance|agreement|an order)\b"
     r"|\b(?:publication|listing|entry|registration) (?:of your \w+ )?(?:in|into|on) (?:our|the) "
     r"(?:\w+ ){0,3}(?:register|registry|directory|database|catalogue)\b"
     # the same listing in Spanish, and the debtors' register it threatens
     r"|\bpublicaci[oó]n de su (?:empresa|establecimiento|negocio|hotel|comercio) en (?:la|el|"
     r"nuestra|nuestro) (?:gu[ií]a|directorio|cat[aá]logo|registro)|\bregistro de deudores\b"
     # silence taken for a signature: "by not objecting within 7 days you accept"
     r"|\bby not (?:objecting|responding|replying)\b[^.\n]{0,60}\b(?:accept|agree)"),
    ("prize, inheritance or windfall", 1,
     r"\b(?:inheritance|next of kin (?:to|of) (?:the |our |my )?(?:late|deceased)|as (?:the )?next "
     # the beneficiary of a windfall, not a payment's "beneficiary name" or "account"
     r"of kin|(?:named|made|sole|as) (?:the |a |his |her )?beneficiary|next beneficiary|"
     r"beneficiary (?:of|to) (?:the|an?|his|her|my|late)|lottery|jackpot|sweepstakes?|"
     r"won the|claim (?:your |the )?(?:prize|funds|reward|payment)|dormant account|airdrop|"
     r"compensation (?:fund|unit|payment)|unclaimed|(?:million|billion) (?:dollars|usd|euros?|"
     r"pounds)|(?:usd|us\$|\$|eur|€|£)\s?\d{1,3}(?:[,.]\d{3}){2,}|"
     r"donate .{0,30} (?:to|through) you|donate .{0,30} to your (?:organi[sz]ation|charity|"
     r"foundation|church|school)|foreign partner|business (?:proposal|assistance|"
     r"relationship)|urgent (?:business )?assistance|mutual benefit|transfer (?:of )?(?:the )?"
     r"funds|guaranteed (?:\d+(?:[.,]\d+)? ?% )?(?:(?:annual|monthly|weekly|yearly|fixed) )?"
     r"(?:returns?|profits?|buy-?back|income)|"
     r"(?:crypto|ai|forex|bitcoin)(?:-driven)? (?:\w+ )?"
     r"(?:trading|arbitrage|investment) (?:fund|bot|platform|programme|program))\b"
     # a job paid by the day for tasks, hired over a chat app: "earn RM 150 - RM 300 daily",
     # "add our HR coordinator on Telegram"
     r"|\b(?:earn|make|paid|get) (?:up to )?(?:rm|usd|us\$|\$|€|£|eur|inr|php|idr|₹)? ?\d[\d,.]* "
     r"?(?:[-–~]|to) ?(?:rm|\$|€|£|usd|eur)? ?\d[\d,.]* ?(?:a|per|every|each|/)? ?(?:day|daily)\b"
     r"|\bpaid (?:every|each) (?:day|evening|night)\b|\b(?:add|contact|message|text) (?:our|my|"
     r"the) (?:hr|recruit\w*|hiring|coordinator|mentor|assistant|supervisor|agent)\w* (?:\w+ ){0,3}"
     r"on (?:telegram|whatsapp)\b|\btelegram:? @\w+"
     # Malay: gold or crypto investment with a fixed or guaranteed return
     r"|\bpelaburan (?:emas|kripto|forex|digital)\b|\bpulangan (?:tetap|dijamin|\d+ ?%)"
     r"|\b\d+(?:[.,]\d+)? ?% (?:a |per )?(?:week|day|weekly|daily)\b"
     r"|\byou (?:have )?won(?:[ ,.!:;]|$)"
     # millions in a currency ("$4.5 million", "10 million dollars"; not "cover of 10 million");
     # "$" and "€" stand outside a \b group: there is no word boundary before them
     r"|(?:\b(?:usd|us\$|eur|dollars?|euros?|pounds?) ?|[$€£] ?)\d[\d,.]* million\b"
     r"|\b\d[\d,.]* million (?:dollars|usd|euros?|pounds)\b"
     r"|당첨|상속|환급 ?대상|대상(?:자|\s?\S{1,4}(?:로|으로))? ?선정"
     r"|(?:저금리|정부 ?지원|대환) ?대출"
     # goods far below their price: "30% below market price", "시세보다 30% 낮은"
     r"|\b\d+ ?% below (?:the )?market (?:price|value|rate)\b|시세보다 (?:약 )?\d+ ?% 낮은"
     # a guaranteed return in French, German, Spanish and Korean
     r"|\b(?:rendement|rentabilité) (?:annuel )?garanti|\bgarantierte (?:\w+ )?rendite|"
     r"\brendite (?:von )?(?:\d+ ?% )?garantiert|\brentabilidad (?:\w+ )?garantizada|"
     r"수익(?:률)? ?\d* ?%? ?보장|원금 ?보장"
     # Greek and Swahili: an inheritance, you have won, a lottery
     r"|" + greek("κληρονομιά|κερδίσατε|λαχείο")
     + r"|\b(?:umeshinda|urithi|bahati nasibu)\b"
     # Czech and Slovak: you have won, a winner, an inheritance
     r"|\b(?:vyhr[aá]l[ai]? jste|vyhrali ste|vyhrali jste|v[yý]herce|v[yý]herca|d[eě]dictv[ií]|"
     r"dedi[cč]stv[oa])"),
    (_GIFT_OR_WIRE, 1,
     r"\b(?:gift ?cards?|itunes cards?|steam cards?|western union|moneygram|wire transfer|"
     r"(?:amazon|apple|itunes|google play|steam) (?:gift )?(?:vouchers?|cards?|codes?)|"
     r"send me the codes|kod(?:u|em)? blik|blik code|lahjakort\w+|presentkort\w*|kinkekaar\w+|"
     r"bitcoin|btc|usdt|crypto(?:currency)? wallet|hediye ?kart\w*)\b"
     r"|기프트 ?카드|문화상품권|상품권 (?:구매|번호)|ギフトカード|ギフト券|プリペイドカード"
     # Hindi and Marathi: gift card(s)
     r"|गिफ्ट ?कार्ड"
     r"|\b(?:d[aá]rkov[eéoý]\w* (?:kart|poukaz)|dar[cč]ekov[eéoú]\w* (?:kart|poukaz))"
     # Albanian: top-up or gift cards, send me the codes
     r"|\b(?:karta (?:rimbushjeje|dhurat[eë])|m[eë] d[eë]rgo kodet|d[eë]rgom[eë] kodet)"),
    # A Korean bank's security card (보안카드) asked for whole: the banks say they never ask
    # for more than two of its numbers, and a lure asks for all of them
    ("a bank's whole security card asked for", 2,
     r"보안 ?카드[^.\n]{0,24}(?:전체|전부|모두|모든)|(?:전체|전부|모든) 보안 ?카드"),
    # A remote-control app to install, named or described ("download AnyDesk", "the Quick
    # Support app", "remote access software"): the refund, power-cut and tech-support
    # scams' way into the reader's computer or phone. A colleague's IT desk may ask it too:
    # from the reader's own organisation it weighs one, as every shape here does.
    ("a remote-control app to install", 2,
     r"\b(?:any ?desk|team ?viewer|quick ?support|rust ?desk|ultra ?viewer|air ?droid|"
     r"remote (?:access|desktop|control|support) (?:app|application|software|tool|program)s?|"
     r"screen[- ]?shar\w+ (?:app|application|software))\b"
     r"|एनीडेस्क|एनी डेस्क|टीम ?व्यूअर|क्विक ?सपोर्ट|रिमोट (?:एक्सेस|ऐप|एप)"
     r"|원격 ?(?:제어|지원) ?(?:앱|프로그램)|팀뷰어|애니데스크"),
    (_LEGAL_THREAT, 1,
     r"\b(?:arrest warrant|warrant (?:for|of|is pending|pending|has been issued)|legal "
     r"(?:action|proceedings) (?:will|against|may)|enforcement action|seizure of|"
     r"(?:lawsuit|criminal (?:charges|case)) (?:will|against|has been)|"
     r"avoid (?:(?:further|any|additional|the|your|account|listing|service) ){0,2}(?:arrest|"
     r"prosecution|legal (?:action|proceedings)|penalties|suspension|strike-?off|deactivation)|"
     r"settle (?:the matter |this )?out of court|"
     # "use of the mark after suspension is a punishable offence"; "the goods will be
     # confiscated"
     r"(?:is )?a punishable (?:offen[cs]e|crime)|(?:will|shall) be (?:confiscated|forfeited)|"
     # the "digital arrest" script: the case handed to the police unless the reader calls
     r"(?:case|matter|complaint|file) (?:will be |is being |has been )?(?:transferred|"
     r"forwarded|handed over|referred|escalated) to (?:the )?(?:police|cyber ?crime|crime "
     r"branch)|digital arrest"
     # the same script's first report: a case filed in the reader's name, their ID tied to
     # laundering, a video call with "the investigating officer"
     r"|(?:an )?fir (?:has been |was |is )?(?:registered|lodged|filed)|linked to (?:a )?money "
     r"laundering|video call with (?:the |an |our )?(?:investigating|police|cbi|customs|"
     r"narcotics) officer"
     # Malay: an arrest warrant, legal action will be taken
     r"|waran tangkap|tindakan undang-undang (?:akan|terhadap))\b"
     r"|체포|압류|법적 조치"
     # Hindi and Marathi: a police case, an FIR, arrest, a raid, accounts sealed; Turkish:
     # legal action, enforcement proceedings, seizure
     r"|पुलिस केस|एफआईआर|गिरफ्तार|छापा|सील कि|गुन्हा दाखल|अटक कर"
     r"|\b(?:yasal işlem|icra takibi|haciz)"),
    # A renewal or a charge the reader never made, to be cancelled by phoning the sender
    # ("call our refund desk"): the call is the lure (callback phishing).
    (_CALLBACK, 1,
     r"\b(?:refund|dispute|did not (?:authori[sz]e|make|request)|not authori[sz]ed by you|"
     r"cancel(?:lation)? (?:(?:the|this|your) )?(?:renewal|subscription|order|charge|payment|"
     r"plan))\b[^.\n]*\b(?:call|phone|ring|dial|contact our)\b[^.\n]*(?:\+?\d[\d ()-]{7,}|"
     r"helpline|help desk|refund desk|billing (?:department|desk|team))"
     r"|\bto cancel (?:call|phone|dial)\b[^.\n]*\d{3}"
     r"|\b(?:call|phone|ring|dial)\b[^.\n]*\b(?:for (?:a|your) refund|to dispute|refund desk|"
     r"billing (?:department|desk))"
     r"|(?:주문|결제|구매|신청|사용)하지 ?않(?:으셨다면|으신 경우|은 경우|았다면)"
     r"|본인 ?(?:사용|결제)(?:이|가)? ?아닌 ?경우"
     r"|본인 ?(?:사용|결제)(?:이|가)? ?아닐 ?(?:경우|시)"
     # the warranty robocall: "the factory warranty on your vehicle has expired ... final
     # notice ... call today before your file is closed"
     r"|\b(?:factory|vehicle|car|auto|extended|manufacturer'?s?) warranty (?:\w+ ){0,6}(?:has "
     r"expired|is (?:about to )?expir\w*|will expire|expiring)\b|\bbefore your file is closed\b"),
    # A stranger's "wrong address" opener that turns to friendship: how investment and
    # romance scams begin ("Is this still your email? ... maybe we can be friends").
    # A stranger drawn by the reader's profile or photo, or a soldier or doctor far away
    # and widowed: how romance scams open ("saw your profile ... your warm smile"); a buyer
    # on a military mission who sends a carrier is the same stranger selling distance.
    ("a stranger's romance opener or posting far away", 1,
     r"\b(?:saw|came across|found|noticed) your (?:profile|photos?|pictures?)\b[^.\n]{0,80}"
     r"\b(?:smile|beautiful|lovely|attract\w*|caught my (?:eye|attention)|friends?)\b|\byour "
     r"(?:beautiful|lovely|warm|kind|sweet) (?:smile|face|eyes)\b|\b(?:un )?peacekeeping "
     r"mission\b|\bdeployed (?:in|to) (?:syria|yemen|afghanistan|iraq|sudan|somalia)\b|"
     r"\blost my (?:wife|husband) (?:to|in) (?:cancer|an? accident|a car accident)\b"
     r"|\b(?:en mission (?:militaire|humanitaire)|on (?:a )?(?:military|peacekeeping) "
     r"(?:mission|deployment)|on an (?:offshore )?oil rig)\b"
     r"|프로필을 보고[^.\n]{0,60}(?:미소|마음|친구)|군의관|평화유지|아내를 (?:\S+ )?잃"),
    # A stranger presenting a big buyer: "we are a seafood importer in Hong Kong", "somos una
    # empresa importadora", "nous sommes un groupe de distribution": how the bulk-order and
    # advance-fee buyers open (75 scams among the labelled mails, 10 real enquiries, no urgent
    # mail); a real enquiry stays in the queue, where it belongs.
    ("a stranger introducing a big buyer", 1,
     r"\b(?:we are|we're|i represent|i am|somos|nous sommes|wir sind|siamo)\b[^.\n]{0,60}\b"
     r"(?:importers?|importing company|distributors?|wholesalers?|importadora|importador|"
     r"importateur|importeur|importatore|grossiste|mayorista|trading (?:co|company|ltd|llc))\b"),
    ("a stranger's wrong-address opener", 1,
     r"\b(?:is this still your (?:e-?mail|address|number)|(?:sorry|oh) (?:if )?(?:i|it seems i) "
     r"(?:have|got) the wrong (?:person|address|e-?mail|number)|maybe we (?:can|could) be "
     r"friends|(?:can|could) we be friends|you seem (?:like )?(?:a |such a )?(?:kind|nice|lovely|"
     r"sweet) person)\b"),
    ("secrecy or pressure to act alone", 1,
     r"\b(?:strictly confidential|keep this (?:confidential|between us)|email only|"
     r"i'?m in a meeting|do not (?:tell|share this)|are you at your desk|(?:from|on|to) my "
     r"(?:private|personal) (?:address|e-?mail|account)|(?:company|work|office) e-?mail is "
     r"(?:down|having (?:problems|issues)|not working|playing up|acting up)|(?:stuck|tied up) "
     r"(?:on|in) a (?:call|meeting)|(?:can'?t|cannot|can not|unable to) take (?:any )?(?:phone )?"
     r"(?:calls|a call)|(?:please )?(?:don'?t|do not) (?:call|phone|ring) me|"
     r"(?:only|just) (?:reachable|available|contactable) (?:by|via|on) e-?mail|"
     r"(?:not|isn'?t|won'?t be) (?:reachable|available|contactable) by phone|"
     r"(?:in a|at a) (?:conference|meeting) and can'?t|(?:can'?t|cannot|can not|unable to) "
     r"(?:talk|discuss|speak)(?: \w+){0,3} (?:on|by|over) the phone|(?:handle|process|make|"
     r"arrange|do) (?:a|an|this|the|one) (?:\w+ )?(?:payment|transfer|wire) for me|"
     r"(?:quick|small|little) (?:task|"
     r"favou?r|errand) for me|an? task for me|discreetly|(?:i'?m|i am) (?:\w+ )?in a meeting|"
     r"(?:this is|it'?s|here'?s) my (?:private|personal|new) "
     r"(?:address|e-?mail|account|number|one)|locked out of (?:my )?work|"
     r"can (?:only|just) (?:e-?mail|text|message)|can'?t get online|only e-?mail|"
     # out of reach and keeping the others out: "boarding, no wifi", "don't loop in finance"
     r"(?:don'?t|do not) (?:loop in|cc|copy in|involve|mention (?:this|it) to)|(?:don'?t|do "
     r"not) (?:disclose|reveal|discuss) (?:this |it )?(?:to|with) anyone|keep (?:this|it) "
     r"(?:quiet|to yourself)|(?:i'?m|i am) (?:now |just )?(?:boarding|about to board)|"
     r"boarding (?:now|my flight|a flight)|about to board|"
     r"no (?:wifi|wi-fi|signal|reception) for)\b"
     # Hungarian: this is my new email or number, delete the old one, don't call (me)
     r"|(?:^|[ \n(])[uú]j (?:e-?mail(?:em|c[ií]mem)?|sz[aá]mom|telefonsz[aá]mom)\b"
     r"|\ba r[eé]git t[oö]r[oö]ld\b|\bne h[ií]vj(?:on)?\b"
     # the same in German, French and Spanish
     r"|\b(?:(?:bitte )?(?:behandle|behandeln sie) (?:das|dies) vertraulich|mit niemandem|"
     r"ohne (?:das thema |es |dies )?intern zu besprechen|telefonisch nicht erreichbar|"
     r"nur per (?:e-?)?mail|diskret|vertrauliche (?:übernahme|transaktion|angelegenheit)|"
     r"kann (?:gerade )?"
     r"nicht telefonieren|bin (?:gerade |noch )?(?:im|in einem) (?:termin|meeting)|"
     r"(?:merci de )?ne pas en parler|uniquement à cette adresse|messagerie (?:habituelle )?est "
     r"en (?:migration|panne|maintenance)|je ne peux pas (?:appeler|téléphoner|parler)|"
     r"(?:je suis )?en réunion et|no puedo (?:hablar|llamar|atender)|no me llames|"
     r"ne m'appelle pas|ne pas m'appeler|estoy en una reunión|"
     r"con (?:total )?discreción|(?:desde|de) mi correo (?:personal|privado)|(?:contesta|"
     r"responde|escribe)(?:me)? solo a esta (?:dirección|cuenta)|(?:merci de |"
     r"veuillez )?ne pas contacter|ne contactez pas)\b"
     # (RE2's \b is ASCII: a word ending in "é" stands outside the group above)
     r"|confidentialité"
     # "Please don't call, I am in the cleanroom", "don't call my number, it's gone"
     r"|\b(?:don'?t|do not) (?:call|phone|ring)(?: me| my (?:\w+ )?(?:number|phone|mobile|cell))?"
     r"(?:[,.!;]| (?:i'?m|i am|it'?s|as i|because|since|just))"
     r"|통화(?:가|는|도)? ?(?:어려|어렵|힘들|곤란)|메일로만|(?:회의|미팅) 중이라|이 메일로 연락|"
     r"폰(?:이)? ?고장|"
     # the "new number" relative: "폰 물에 빠져서 새 번호로 연락해", "폰 액정이 나가서"
     r"새 번호|폰(?:이)? ?(?:액정(?:이)? ?)?(?:물에 빠|깨져|나가서|박살)|"
     r"전화는? (?:지금 )?못 ?받"
     # Italian, Romanian, Portuguese: can't phone, in a meeting, don't tell anyone
     r"|\b(?:non posso (?:telefonare|chiamare|parlare|rispondere)|sono in riunione|non dirlo|"
     r"non parlarne|massima riservatezza|nu pot (?:s[ăa] )?(?:vorbesc|vorbi|r[ăa]spund|sun)|"
     r"sunt (?:[îi]n|intr-o|într-o) [șs]edin[țţt][ăa]|nu spune (?:nim[ăa]nui|nimic)|n[ãa]o posso "
     r"(?:ligar|falar|atender)|estou (?:numa|em) reuni[ãa]o|n[ãa]o conte a ningu[ée]m|"
     # the "new number" relative: "esse é meu email novo", "perdi meu celular", "não liga"
     r"(?:meu|esse [ée] (?:o )?meu) (?:e-?mail|n[úu]mero) novo|perdi (?:o )?meu celular|"
     r"n[ãa]o (?:me )?liga|"
     # ... in Spanish and Galician: "perdí el móvil", "perdín o móbil", "no le digas nada a
     # mamá", "non lle digas nada a túa nai" (not to tell a parent; "no le digas nada a Javi"
     # is a neighbour sparing a brother)
     r"perd[ií]n? (?:el |o |mi |meu )?m[óo](?:vil|bil)|(?:no le|non lle) digas nada a "
     r"(?:t[úu]a? )?(?:nai|mai|madre|mam[áa]|pai|padre|pap[áa])|"
     r"(?:mi|meu) (?:n[úu]mero|correo) novo|(?:mi|este es mi) (?:n[úu]mero|correo) nuevo)"
     # kept from the others: "treat this as confidential", "send your proforma only to this
     # address, our office is not involved"; the "new number" relative in German
     r"|\btreat (?:this|it) as (?:strictly )?confidential\b|\bcount on your discretion\b|"
    r"\b(?:is|are) not (?:yet )?informed (?:yet )?and should not\b|\b(?:using|on|from) my "
    r"friend'?s (?:phone|ipad|tablet|laptop|computer|e-?mail)\b|\b(?:don'?t|dont) tell "
    r"(?:dad|mum|mom|daddy|mummy|mommy|anyone)\b|\b(?:send|reply|write) (?:\w+ ){0,3}"
     r"only to this (?:e-?mail )?address\b|\bis not involved in this (?:project|order|deal)\b"
     r"|\bdie alte nummer (?:geht|funktioniert) nicht\b|\b(?:schreib|antworte)(?: mir)? "
     r"(?:bitte )?nur hier\b"
     # the relative's new address told outright: "this is my new email", "c'est ma nouvelle
     # adresse", "das ist meine neue Mail", "to mój nowy numer", "perdi o telemóvel", "dit is
     # mijn nieuwe mail"
     r"|\b(?:this is|here'?s|it'?s) my new (?:number|email|e-mail|mail|address)\b|\b(?:c'est|"
     r"voici) (?:ma|mon) nouve(?:lle|l|au) (?:adresse|mail|e-mail|numéro|courriel)|\bmeine neue "
     r"(?:mail|e-mail|nummer|handynummer)\b|\b(?:mój|moj) nowy (?:numer|mail|e-mail|adres)|"
     r"\bperdi o (?:telemóvel|telemovel|telefone)\b|\bmijn nieuwe (?:mail|e-?mailadres)\b"
     r"|(?:외부에|아무에게도|다른 사람에게)(?:는|도)? ?알리지 말|비밀로 (?:해|부탁)"
     # ... in Hindi and Punjabi: "this is my new email / number", "don't tell mum / anyone",
     # "don't phone"
     r"|(?:यह|ये) मेरा नया (?:ईमेल|नंबर|मेल)|(?:मम्मी|पापा|माँ|मां|किसी) को (?:मत|न|ना) बता"
     r"|ਮੇਰਾ ਨਵਾਂ (?:ਈਮੇਲ|ਨੰਬਰ|ਮੇਲ)|(?:ਮੰਮੀ|ਪਾਪਾ|ਮਾਂ|ਕਿਸੇ) ਨੂੰ (?:ਨਾ|ਨਹੀਂ) ਦੱਸ|ਫ਼ੋਨ ਨਾ ਕਰ|ਫੋਨ ਨਾ ਕਰ"
     r"|会議中|電話に出られ(?:ません|ない)|内密に"
     # German, Italian, French, Spanish, Finnish and Swedish: don't call me, my phone is dead
     # or broken, I write from another mailbox ("Ruf nicht an, ich bin in der Besprechung",
     # "non chiamarmi", "ma boîte perso", "älä soita vanhaan numeroon", "min nya mejl")
     r"|\b(?:ruf (?:mich )?(?:bitte )?nicht an|ich bin in (?:der|einer) besprechung|non "
     r"(?:chiamarmi|mi chiamare)|il telefono (?:mi )?si è scaricato|ti scrivo dal computer|"
     r"ma boîte perso|mon téléphone n'a plus de batterie|ne m'appelle pas|no me llames|mi "
     r"(?:móvil|teléfono) se (?:ha roto|ha estropeado|quedó sin batería)|"
     r"(?:mun|minun) uus(?:i)? (?:sposti|sähköposti|osoite|numero)|puhelin (?:hajos|hajosi|on "
     r"rikki)|ring inte|min nya (?:mejl|e-?post|adress|nummer)|mobilen är (?:trasig|sönder))"
     r"|(?:^|[^\pL\pN_])älä soita\b"
     # Dutch: "hoi pap, dit is mijn nieuwe nummer", the phone broken, in a meeting
     r"|\b(?:dit is mijn nieuwe? nummer|mijn nieuwe? nummer|mijn (?:telefoon|mobiel) is (?:kapot|"
     r"gevallen|gestolen|stuk)|ik zit in een (?:vergadering|meeting)|niet bellen|bel (?:me|mij) "
     r"niet|kan (?:nu )?(?:even )?niet (?:bellen|praten|telefoneren|opnemen)|zeg (?:niks|niets) "
     r"tegen|vertel (?:het|dit) aan niemand|niemand mag (?:het|dit) weten)\b"
     # Greek and Swahili: in a meeting, can't talk, don't tell anyone
     r"|" + greek("αυστηρά εμπιστευτικό|είμαι σε σύσκεψη|μην το συζητήσεις|μην το πεις|"
                  "δεν μπορώ να μιλήσω|στείλε μου μόνο εδώ")
     + r"|\b(?:niko kwenye mkutano|usimwambie mtu|siri kati yetu|siwezi kuongea|"
     r"usipige simu)\b"
     # Turkish, Hindi and Marathi: keep it secret, tell no one, I am in a meeting
     # Polish: I can't talk, a confidential matter, don't tell (anyone), at your computer?
     r"|\bnie mogę rozmawiać|\bsprawa poufna|\bnie mów (?:nikomu|na razie)|\bjesteś (?:teraz )?"
     r"przy komputerze"
     r"|\bgizli tut|\bkimseye (?:söyleme|bahsetme|anlatma)|\btoplantıdayım|गोपनीय|"
     r"किसी को (?:न|मत) बता|कोणालाही सांगू नका|गुप्त ठेव"
     # Urdu: no need to tell anyone, don't tell anyone
     r"|کسی کو (?:بتانے کی ضرورت نہیں|نہ بتائیں|مت بتانا|نہ بتانا)"
     # Gujarati: tell no one, don't tell mother; this is my new email or number
     r"|કોઈને (?:કહેશો|કહેતા|કહીશ|કહેતો|કહેતી) નહીં|(?:બા|મમ્મી|પપ્પા|મા)ને (?:કંઈ )?"
     r"(?:કહેશો|કહીશ|કહેતો|કહેતી|કહેતા) નહીં|(?:આ|મારો) નવો (?:ઈમેલ|ઇમેલ|ઇમેઇલ|નંબર)"
     # Croatian: discreetly, no one may know, from my private mail, can't talk on the phone,
     # don't call, in a meeting
     r"|\b(?:diskretno|ne smije (?:nitko |nitko u \w+ )?znati|ne spominji (?:to |ovo )?nikome|"
     r"nikome ne (?:govori|spominji)|pišem (?:ti |vam )?s privatn\w+|s privatnog (?:e-?)?maila|"
     r"s privatne adrese|ne mogu (?:se javljati|pričati?|razgovarati|govoriti)|nemoj (?:me )?"
     r"zvati|ne zovi|(?:na|u) sastanku sam|sam na (?:sastanku|sjednici)|na sjednici sam)\b"
     # Finnish and Swedish: in a meeting and can't phone, a confidential matter
     r"|\b(?:enkä (?:pysty|voi|pääse) (?:soittamaan|puhumaan|vastaamaan)|luottamuksellise\w+ "
     r"asia\w*|olen (?:palaverissa|kokouksessa|kokouksissa)|jag sitter i (?:ett )?möte|kan inte "
     r"prata i telefon)\b"
     # Czech and Slovak: strictly confidential, tell no one, I'm in a meeting, I can't phone
     r"|\b(?:p[rř][ií]sn[eě] d[uů]v[eě]rn|pr[ií]sne d[oô]vern|nikomu (?:to )?(?:ne[rř][ií]kej|"
     r"nehovor)|jsem na jedn[aá]n[ií]|som na rokovan[ií]|nem[uů][zž]u (?:te[dď] )?telefonovat|"
     r"nem[oô][zž]em (?:teraz )?telefonova)"
     # Estonian: my new number, the old number is gone, I'm in a meeting, my phone is on
     # silent, don't call
     r"|\b(?:(?:see|siin) on (?:mu|minu) uus (?:number|meil|e-?post|aadress)|vana numbrit? "
     r"pole enam|olen (?:praegu )?\S+ koosolekul|telefon on hääletu)\b"
     r"|(?:^|[^\pL\pN_])ära helista\b"
     # Latvian, Lithuanian, Slovenian and Albanian: my new email or number, don't tell dad or
     # anyone, I'm in a meeting and can't talk
     r"|\b(?:mans jaunais (?:e-pasts|numurs|telefons)|neraksti (?:t[eē]tim|mammai)|nesaki "
     r"(?:nevienam|t[eē]tim|mammai)|mano naujas (?:el\. pa[sš]tas|numeris)|niekam nesakyk|moj nov"
     r"(?:i)? (?:e-naslov|naslov|mail|e-mail)|moja nova (?:[sš]tevilka|e-po[sš]ta)|nikomur ne "
     r"povej|sem na sestanku|jam n[eë] mbledhje|nuk mund t[eë] flas|mos i thuaj askujt|"
     r"(?:emaili|numri) im i ri)\b"
     # Bulgarian and Macedonian: this is my new address or number, I'm in a meeting and can't
     # talk, tell no one
     r"|(?:това е новият ми|ова ми е нова|ова е мојот нов|ова е мојата нова) (?:имејл|имейл|"
     r"адреса|номер|број|мејл)|на (?:среща|състанок|состанок) съм|на состанок сум|не мога да "
     r"говоря|не можам да зборувам|не казвай на никого|не кажувај никому"),
)

_AUTO_REPLY_SUBJECT = re.compile(
    r"^(?:automatic reply|auto(?:matic)?[- ]?(?:reply|response)|autoreply|out of (?:the )?office|"
    r"ooo\b|auto:\s*(?:re|aw|sv|vs|antw|rif|r|res|odp)\s*:|réponse automatique|abwesenheit|"
    r"afwezig|respuesta automática|autosvar|frånvaro|"
    r"automaattinen vastaus|vastaanotettu\s*:|poissa toimistolta|automatiskt svar|"
    # Italian, Portuguese, Dutch, Polish, Czech, Slovak and Norwegian
    r"risposta automatica|fuori (?:ufficio|sede)|resposta autom[aá]tica|aus[eê]ncia|"
    r"automatisch antwoord|autoodpowied[zź]|odpowied[zź] automatyczna|nieobecno[sś][cć]|"
    r"automatick[aá] odpov[eě][dď]|otomatik yan[ıi]t|balasan automatik|"
    r"nep[rř][ií]tomnost|mimo kancel[aá][rř]|fravær|automatisk svar|"
    r"자동 ?(?:회신|응답)|\[자동 ?응답\]|부재중|"
    r"【?自動(?:返信|応答)】?|【?不在(?:通知|のお知らせ)】?)", re.IGNORECASE)
_AUTO_REPLY_WORDS = (
    # "away" with when it ends; "I'm away the week after" is a person planning
    rb"\b(?:i am|i'm|i will be) (?:currently )?(?:out of (?:the )?office|away (?:until|till|from|"
    rb"and (?:will|won't)|with (?:limited|no))|currently away|on (?:annual |"
    rb"parental |sick |business )?(?:leave|holiday|vacation|travel))|this is an automated "
    rb"(?:response|reply)|will (?:reply|respond) (?:when|on my return|as soon as i)|"
    rb"limited access to (?:e-?mail|my email)|"
    # "I'm out on a farm call with no signal until about 5 PM", "out in the fields most of this
    # week with limited reception"
    rb"(?:i am|i'm) out (?:on|at|in) [^.\n?]{1,40}? with (?:no|limited|little|patchy) "
    rb"(?:signal|reception|coverage|access)|this is an automatic (?:confirmation|"
    rb"acknowledge?ment)|automatic acknowledge?ment\b"
    # Polish: I am on leave, out of the office
    rb"|\b(?:jestem|przebywam) (?:obecnie )?(?:na urlopie|poza biurem)\b"
    # Turkish: I am on (annual) leave, out of the office
    + "|\\b(?:yıllık )?izindeyim|\\bofis dışındayım".encode()
    # Malay: this is an automatic reply
    + rb"|\bini (?:ialah|adalah) (?:balasan|jawapan) automatik\b"
    # (in UTF-8 as text: RE2 reads "\xed" in a pattern as the character U+00ED, not a byte)
    # "부재중" alone is also a missed call ("3회 부재중"): only said of oneself; "휴가 중이라"
    # is as often said of a colleague ("한 팀장님 휴가 중이라 제가 대신 연락드립니다"), so
    # the reason counts only with "저는", "제가" or "현재" before it
    + "|휴가 ?중(?:입니다|이오니)|(?:저는|제가|현재) 휴가 ?중(?:이라|이어서)"
    "|부재 ?중(?:입니다|이라|이어서|이오니| 안내)"
    r"|\[부재 ?중\]".encode())
_AUTO_REPLY_BODY = _matcher(_AUTO_REPLY_WORDS)


def _out_of_office(head: bytes) -> bool:
    """Out-of-office words in the first lines, not after a question the sender asked ("Can
    you confirm the rates? Also I'm away 24-31 Dec." is a person writing)."""
    start = _AUTO_REPLY_BODY.start(head)
    body = head.find(b"\n") + 1  # the subject line may answer a question ("Re: ...?")
    return start >= 0 and b"?" not in head[body:start]
_INSTITUTION_NAME = re.compile(
    r"\b(?:bank|barrister|attorney|lawyer|dr|mrs?|capt|department|dept|unit|office|board|"
    r"bureau|ministry|treasury|federal|agent|officer|ceo|director|manager|accounts? payable|"
    r"payroll|billing|"
    r"hr|recruitment|support|helpdesk|security|delivery|refund|tax|lottery|united nations|un|"
    r"club|committee|association|society|charity|foundation|fundraising|treasurer|pta|parish)\b"
    r"|국세청|검찰|수사관|은행|환급|공단|보험"
    # Hindi and Marathi: an officer, a department, vigilance, police, income tax, a council,
    # a bank; Turkish: a directorate, collections, a bank
    r"|अधिकारी|विभाग|सतर्कता|पुलिस|पोलीस|आयकर|काउंसिल|बैंक"
    r"|\b(?:müdürlüğü|müdürlük|başkanlığı|tahsilat|bankası)")


# The local parts robots send from (no-reply, alerts, feeds ...).
AUTOMATED_LOCAL = re.compile(
    r"^(?:no-?reply|do-?not-?reply|donotreply|notifications?|notify|alerts?|mailer(?:-daemon)?|"
    r"bounce[s]?|news(?:letter)?|marketing|promo(?:tions)?|deals|offers|info|updates?|"
    r"automated|system|billing|receipts?|orders?|shipping|tracking|support|hello|team|"
    r"account(?:s)?|service|security|mail|events?|crew|rewards|digest|rss\w*|feeds?|"
    r"subscriptions?|members?|membership|reservations?|bookings?|webinars?|community|"
    r"register|registration|jobs|careers|learn|learning|courses|academy|shop|store|tickets|"
    r"sales|subs|ads|advertising|ofertas|angebote|offres|promociones|growth|webmaster|postmaster|"
    r"business|invite|invitations?|visitors|promotion|partners?|offers|trade|suppliers?|e-?news|"
    r"ventas|vertrieb|growth|insights|e-?mail|"
    # a campaign's mailbox in English, Turkish, Portuguese, French, German and Polish
    r"campaigns?|kampanya|kampanyalar|campanhas?|campagnes?|kampagnen?|promocje|"
    r"messages?-noreply)\b|noreply|no-reply|"
    # a role word after a dot or a dash: agent-offers@, store-news@, uk.marketing@
    r"[._-](?:offers|promos?|promotions|deals|news|newsletters?|marketing)\b"
)


@functools.lru_cache(maxsize=8192)  # pure; a mailbox repeats its senders
def robot_address(local: str) -> bool:
    """The local part is one robots send from (no-reply, alerts, feeds ...)."""
    return bool(local and AUTOMATED_LOCAL.search(local))
_DIGIT_RUN = re.compile(r"\d+")
_CONSONANT_RUN = re.compile(r"[bcdfghjklmnpqrstvwxz]{6,}")
_REPLY_PREFIX = re.compile(r"^\s*(?:re|fw|fwd)\s*:", re.IGNORECASE)
_SPLIT_LABELS = re.compile(r"[.-]")


@functools.lru_cache(maxsize=8192)  # pure; a mailbox repeats its senders
def _looks_generated(local: str) -> bool:
    core = local.partition("+")[0]
    if len(core) < 8:
        return False
    digit_runs = len(_DIGIT_RUN.findall(core))
    digits = sum(map(str.isdigit, core))
    consonants = _CONSONANT_RUN.search(core) is not None
    return (digit_runs >= 2 and digits >= 3) or digits >= 5 or consonants


_CREDENTIALS_ONLY = "asks for credentials or account details"
# ... or dressed so in its local part: a business's role or trade on a free-mail address
# ("d.okoro.purchasing@gmail.com", "rhayes.corporategifts@outlook.com",
# "michelle.ward.cryptorecovery@", "crewwelfare.pacificstar@"): a company buys, ships and
# pays from its own domain
_ROLE_LOCAL = re.compile(
    r"purchas|procure|import|export|seafood|gifts|corporate|foundation|recruit|talent|eventos|"
    r"crypto|recovery|invest|finance|capital|ventures|holdings|logistic|shipping|cargo|consult|"
    r"agency|services|solutions|official|claims|welfare|attorney|barrister|refund|lottery|"
    r"award|donation|charity|relief|(?:^|[._-])(?:trade|legal)(?:$|[._-])|"
    # a company's head by title ("prezes.nadbrzeze@", "ceo.office@")
    # (not "md": a doctor signs so, "minjae.park.md@")
    r"(?:^|[._-])(?:ceo|prezes|chairman|president)(?:$|[._-])")
_POSING = "free-mail address posing as an institution or role"
# A title alone ("Mrs", "Dr") from free mail: a 419 letter's dress, and a patient's too.
_TITLE = re.compile(r"\A\W*(?:dr|mrs?|ms|miss|prof)\b\.?\s+(?!.*\b(?:bank|office|unit|board|"
                    r"department|director|manager|agent|attorney|lawyer|barrister)\b)")
_NO_SUBJECT = "no subject"
_NO_THREAD = "a reply that belongs to no thread"
_SHOUTED = "a shouted subject"
_BANGS = "!! or $$ in the subject"
# How a person in a hurry writes too ("WATER COMING THROUGH CEILING", no subject at all):
# alone, in a mail with no link, no cold contact.
_NAMELESS = "a greeting that names no one"
_HURRIED = frozenset({_NO_SUBJECT, _SHOUTED, _BANGS})
# A colleague's mail in a hurry ("OFEN 2 GEHT NICHT!!! ruf an", no subject) or a reply cut
# from its thread: none of these is bulk mail's shape from the reader's own organisation.
_CASUAL = _HURRIED | {_NO_THREAD}
# A colleague tells of money too ("USD 2,400,000 landed in suspense", "a ransom note asking
# for bitcoin"): from the reader's own organisation, as claimed, a money story is the
# matter of the mail, not a stranger's lure (its phishing shapes still count).
_MONEY_TOLD = frozenset({"prize, inheritance or windfall", _GIFT_OR_WIRE})
# An organisation names its own systems in capitals ("WBH SCADA", "IT HELPDESK"): from the
# reader's own organisation, as claimed, that is a name, not a pitch's shouting.
_SHOUTED_NAME = "a shouted display name"
_COLLEAGUE_WRITES = _CASUAL | _MONEY_TOLD | {_SHOUTED_NAME}


def _named(from_name: str) -> bool:
    """A person's or an office's name in From: two words, or a name in a script written
    without spaces (박서연); not none, not an address."""
    name = from_name.strip()
    return bool(name) and "@" not in name and (" " in name or not name.isascii())
_TLD_WORDS = frozenset({"com", "net", "org", "gov", "edu", "mil"})


_RENTED_ENDINGS = frozenset({
    "uk.com", "us.com", "eu.com", "de.com", "sa.com", "za.com", "cn.com", "ru.com", "br.com",
    "kr.com", "ae.com", "gb.com", "gb.net", "uk.net", "se.net", "hu.net", "in.net", "us.org",
    "ae.org", "jpn.com", "mex.com", "ar.com", "it.com"})


def wears_another_suffix(domain: str) -> bool:
    """A host that carries another domain's ending before its own ("paypal.com.verify.ru",
    "agency.or.kr.cc"): the name a reader sees first is not the one that owns the host."""
    labels = domain.lower().split(".")
    for i, label in enumerate(labels[:-2]):
        if label in _TLD_WORDS or (label in _SECOND_LEVEL and len(labels[i + 1]) == 2):
            return True
    # "trading-llc.ae.com": a country's code worn over .com, a name rented from a registry
    # that sells such endings (CentralNic's uk.com, us.com ...), not the country's own
    if len(labels) >= 3 and ".".join(labels[-2:]) in _RENTED_ENDINGS:
        return True
    # "kr-gov.com", "irs-gov.net": an ending worn as a hyphen part of the name; a country's
    # two-part ending too ("leeds-ac-uk.help", "hmrc-gov-uk.com")
    if len(labels) < 2:
        return False
    parts = labels[-2].split("-")
    if parts[-1] in _NAMED_ENDINGS and len(labels[-1]) == 2 and labels[-1] != "us" and not any(
            p in _TLD_WORDS for p in parts[1:-1]):
        # "qihang-edu.cn", "breidfjord-net.is": a school's or a network's name in its own
        # country's domain, not an ending worn over another one (the United States' schools
        # and universities are under .edu, not .us)
        parts = parts[:-1]
    return any(p in _TLD_WORDS for p in parts[1:]) or any(
        p in _SECOND_LEVEL and len(q) == 2 for p, q in itertools.pairwise(parts[1:]))


_NAMED_ENDINGS = frozenset({"edu", "net"})


# Words a phisher joins to a borrowed name to make a domain ("adp-employee-portal.com",
# "brand-secure-login.net"): what an account or a service is, never what a company is called.
_ACCOUNT_WORDS = frozenset({
    "secure", "security", "verify", "verification", "login", "signin", "logon", "account",
    "identity", "sso", "mfa",
    "accounts", "portal", "support", "service", "services", "update", "updates", "billing",
    "alert", "alerts", "notice", "notices", "refund", "refunds", "redeliver", "redelivery",
    "delivery", "invite", "invites", "meeting", "meetings", "online", "help", "helpdesk",
    # (not "care": a care home's name, "lesvardes-care")
    "center", "centre", "auth", "id", "wallet", "employee", "employees", "customer", "extranet",
    "renew", "renewal", "claim", "claims", "recovery", "unlock", "confirm", "docs", "document",
    "documents", "sign", "esign", "payment", "payments", "pay", "tracking", "track",
    "upgrade", "upgrades", "quota", "mailbox", "webmail", "storage", "renewals", "notify",
    "notification", "notifications", "invoice", "invoices", "bill", "bills", "statement",
    "statements", "payout", "payouts", "customers", "client", "clients", "files", "share",
    "sharing",
    # the same in German, French and Spanish ("sparkasse-kartensperre.de")
    "kartensperre", "sperre", "sicherheit", "konto", "kundenservice", "verifizierung",
    "freischalten", "securite", "compte", "renouvellement", "expiration",
    "seguridad", "cuenta", "verificacion", "pago", "pagos", "paiement", "zahlung", "kunden",
    # Turkish: payment, collections, security, verification, account, notification,
    # customer, support, invoice
    "odeme", "tahsilat", "guvenlik", "dogrulama", "hesap", "bildirim", "musteri", "destek",
    "fatura",
    # Polish: payments, payment, logging in, security, verification, account
    "platnosci", "platnosc", "logowanie", "bezpieczenstwo", "weryfikacja", "kyc",
    "cliente", "clientes", "confirmacion", "confirmaciones", "alertas", "avisos",
    "notificaciones", "verificaciones",
    # Italian, Dutch, the Nordic languages and Portuguese ("intesasanpaolo-sicurezza",
    # "belfius-kaartbeheer", "altinn-melding", "unicredit-avvisi")
    "sicurezza", "avvisi", "avviso", "notifiche", "servizi", "servizio", "pagamenti",
    "pagamento", "conto", "rinnovo", "rinnovi", "scadenza", "abilitazione", "accesso",
    "verifica", "beveiliging", "melding", "meldingen", "beheer", "kaartbeheer", "klantenservice",
    "betaling", "betalingen", "verificatie", "varsel", "sikkerhet", "sikkerhed", "netbank",
    "bankid", "seguranca", "conta", "notificacoes", "verificacao"})
_NAME_WORD = re.compile(r"[a-z0-9]{3,}")
# The words a guarding or alarm company names itself with (`dressed_name_domain`)
_GUARDING_WORDS = frozenset({"alarm", "alarms", "armed", "guard", "guards", "guarding",
                             "patrol", "patrols", "monitoring"})


_UNJOINED = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l",
                           "þ": "th", "ð": "d"})


def _latin_letters(folded: str) -> str:
    """A folded name as a domain spells it: accents dropped and joined letters written out
    ("øresund bank" -> "oresund bank", "müller" -> "muller"); a domain has no such
    letters, so a name with them never matched the domain it is dressed in."""
    if folded.isascii():
        return folded
    bare = unicodedata.normalize("NFKD", folded.translate(_UNJOINED))
    return "".join(c for c in bare if not unicodedata.combining(c))


# Account words that are also the trade of a company's own name ("... Services")
_TRADE_WORDS = frozenset({"service", "services", "solutions", "center", "centre"})


def dressed_name_domain(from_name: str, own: str) -> bool:
    """The display name's own word joined to account words in the domain: "ADP Payroll"
    from adp-employee-portal.com. A company's domain is its name; a phisher's borrows it."""
    parts = own.rpartition(".")[0].split("-") if own else []
    if len(parts) < 2:
        return False
    words = _NAME_WORD.findall(_latin_letters(fold(from_name)))
    named = set(words)
    named.add("".join(words))
    named.update(a + b for a, b in itertools.pairwise(words))  # "Royal Mail"
    account = {p for p in parts if p in _ACCOUNT_WORDS}
    if account <= {"security", "secure"} and named & _GUARDING_WORDS:
        # a guarding or alarm company's own domain ("HomeGuard Alarm" from
        # homeguard-security, "Ingwe Armed Response" from ingwe-security): its trade is security
        return False
    if account <= _TRADE_WORDS and account <= named:
        # the company's whole name as its domain ("RadioVet Services" from
        # radiovet-services, "Nordic Solutions" from nordic-solutions): a known brand so
        # dressed is the brand shapes' to judge
        return False
    return any(p in named for p in parts) and bool(account)



# Government bodies mail from government domains; "Tax Resolution Dept" from a .com does not.
_AUTHORITY_NAME = re.compile(
    r"\b(?:tax|revenue|irs|hmrc|police|ministry|public health|government|"
    r"immigration|social security|department of|dept\.? of|coast ?guard|u\.s\.|usda|uscis|"
    r"fema|\w*ministe?erium|"
    # words that name businesses too: a bank's treasury desk, "Federal Bank", a customs
    # broker; the state's own treasury, and customs or a federal body that is none of those
    r"(?:hm|his majesty'?s|her majesty'?s|us|the) treasury|treasury (?:department|board)|"
    r"federal(?! (?:bank|credit union|savings|express))|"
    r"customs(?! (?:brokers?|brokerage|broking|services|desk|agents?))|"
    r"fda|sam\.gov|noaa|osha|epa|cra|ato|"
    r"finanzamt|bundesamt|ministère|ministerio|agencia tributaria|"
    # a national body, a regulator, a licensing or registration office by its kind
    r"companies house|fmcsa|usdot|dvla|dmv|inspectorate|parks and wildlife|"
    r"national (?:\w+ ){0,2}(?:cent(?:er|re)|commission|office|registry|council)|"
    r"(?:privacy|trade|securities|maritime|transport|food) commission|"
    # a court of law by its kind or its office ("County Court", "Courts Service"); a care
    # home, a hotel or a block of flats named "... Court" is none
    r"(?:county|crown|magistrates'?|district|supreme|high|family|claims|superior|municipal|"
    r"circuit|probate|appeals?|traffic|juvenile|small claims) court|courts? (?:of|service|"
    r"services|administration|clerk|e-?filing|filings?|notices?|records)|"
    r"clerk of (?:the )?courts?)\b"
    r"|\b(?:kastam|imigresen|gümrük|vergi dairesi)\b|आयकर|सीमा शुल्क"
    r"|국세청|경찰|검찰|법원|관세청|공단|정부|지방자치|министерств")
_GOV_DOMAIN = re.compile(r"(?:^|\.)(?:gov|mil|gouv|gob|govt|go|gc|bund|europa)(?:\.[a-z]{2})?$"
                         r"|(?:^|\.)gov\.(?:scot|wales)$"
                         # the United Kingdom's police forces share one domain
                         r"|^police\.uk$")


def _hyphen_run(name: str, label: str) -> bool:
    """`name` is a run of whole hyphen parts of `label` ("acme-corp-hr": acme, corp, hr,
    acme-corp ...). Every hyphen of `label` parts it, so with one added at each end, such a
    run is exactly a piece of it between two hyphens: one substring search instead of
    making every run (tests/unit/test_core_judgement_speed.py holds the two equal)."""
    return f"-{name}-" in f"-{label}-"


def _one_letter_more(a: str, b: str) -> bool:
    """One of two names of six letters or more is the other with one letter added or
    dropped ("trans-wartaa" for "trans-warta"): how a domain bought to pass for the
    reader's own organisation is spelt."""
    if abs(len(a) - len(b)) != 1 or min(len(a), len(b)) < 6:
        return False
    long, short = (a, b) if len(a) > len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(long, short, strict=False)) if x != y),
             len(short))
    return long[:i] + long[i + 1:] == short


def imitates_own_org(own: str, recipients: set[str]) -> str | None:
    """The reader's organisation a sender's domain imitates, if any: the organisation's
    name as a label or hyphen part of another domain ("acme-payroll.com" writing to
    acme.io). The same name under another ending (acme.com, acme.co.uk) is not judged: one
    organisation often owns several. A subsidiary with a joined name ("acme-labs.com") is
    flagged too, and stays visible."""
    if not own or own in recipients:
        return None
    mine = own.partition(".")[0]
    for org in recipients:
        name = org.partition(".")[0]
        if len(name) < 4 or mine == name:
            continue
        if (one_letter_off(mine, name) or _one_letter_more(mine, name)) \
                and not is_public_domain(org):
            return org
        if _hyphen_run(name, mine) and not is_public_domain(org):
            return org
    return None


def same_name_elsewhere(own: str, recipients: set[str]) -> str | None:
    """The reader's organisation whose name a sender's domain holds under another ending
    (tramaline-angers.com writing to tramaline-angers.fr). One organisation often owns
    several endings, so this alone is no shape; with another shape (secrecy, changed bank
    details) it weighs 1 more: the CEO-fraud domain."""
    if not own or own in recipients or is_public_domain(own):
        return None
    mine = own.partition(".")[0]
    for org in recipients:
        if len(mine) >= 4 and org.partition(".")[0] == mine and not is_public_domain(org):
            return org
    return None


def dressed_link(host: str, own: str, recipients: set[str]) -> str | None:
    """The name a link's host borrows on another domain, if any: the reader's organisation's
    ("glencoe-mrt-org.sharepointdocs.app" in mail to glencoe-mrt.org.uk), or the sender's
    own dressed with account words ("riverside-juniors-payments.co" from
    riverside-juniors.org.uk). A label that is the name exactly is how a service hosts its
    customers ("acme.zendesk.com") and is not counted."""
    if "-" not in host:  # (most hosts: no label to dress)
        return None
    reg = registrable(host)
    if not reg or reg == own or reg in recipients:
        return None
    readers = {r.partition(".")[0] for r in recipients if not is_public_domain(r)}
    sender = own.partition(".")[0] if own and not is_public_domain(own) else ""
    for label in host.split("."):
        if "-" not in label:
            continue
        for name in readers:
            if len(name) >= 4 and label != name and _hyphen_run(name, label):
                return name
        if len(sender) >= 4 and label != sender and _hyphen_run(sender, label) and any(
                part in _ACCOUNT_WORDS for part in label.split("-")):
            return sender
    return None


def _url_hosts(text: bytes) -> list[bytes]:
    """`_URL_HOST.findall(text)`. A match starts where "http" or "www." does: the pattern
    is tried at those places only (`bytes.find`), in order, each search going on after the
    last match, as findall does; `re` would try it at every byte (twice the time)."""
    out: list[bytes] = []
    find, match = text.find, _URL_HOST.match
    at = find(b"http")  # the next place each literal starts, -1 when there is none
    www = find(b"www.")
    while at >= 0 or www >= 0:
        start = at if www < 0 or 0 <= at < www else www
        found = match(text, start)
        end = start + 1 if found is None else found.end()
        if found is not None:
            out.append(found.group(1))
        if 0 <= at < end:
            at = find(b"http", end)
        if 0 <= www < end:
            www = find(b"www.", end)
    return out


# A link that downloads an archive or a program: how malware is handed over ("evidence of
# the infringement: .../case-22819.zip"). Documents are shared as pages, not as files to run.
_ARCHIVE = "a link to download an archive or a program"
_ARCHIVE_LINK = _matcher(
    rb"(?:https?://|www\.)[^\s\"'<>]*\.(?:zip|rar|7z|exe|scr|iso|img|jar|js|vbs|bat|cmd|msi|"
    rb"lnk|apk)(?:[?#\"'\s<>)\]]|$)")

# A charge or a cancellation the reader never made, to be undone behind a link: "If you did
# not place this order, click below to cancel", "confirm the refund within 24 hours to avoid
# a penalty". A shop's real notice says so too, but from its own authenticated domain; this
# weighs one, so it flags a mail only beside another shape (a failed authentication, a
# look-alike)
_UNDO = "a charge or a cancellation to undo behind a link"
_UNDO_BEHIND_LINK = _matcher(
    rb"\bif (?:you|this) (?:did(?: not|n'?t)|was not you|wasn'?t you)[^.\n]{0,60}\b(?:click|tap|"
    rb"cancel|follow|use the link|visit)\b|\bconfirm (?:the |this |your )?refund\b")


def _target(href: str) -> bytes | None:
    """The host a link points at, if it names one."""
    m = _URL_HOST.search(href.lower().encode("utf-8", "replace"))
    return m.group(1) if m else None


def _hosts(opening: bytes, targets: list[bytes | None]) -> list[str]:
    """The distinct link hosts in the opening and the HTML anchors (`targets`: each
    anchor's `_target`), at most MAX_HOSTS."""
    found = dict.fromkeys(_url_hosts(opening))
    for host in targets:
        if host:
            found[host] = None
    return [h.decode("ascii", "replace") for h in list(found)[:MAX_HOSTS]]


def _quoted_anchors(message: Message) -> tuple[tuple[str, str], ...]:
    """The anchors of HTML quoted as plain text in the opening (eval sets). No "<a" or
    "<A" (html_links' own check) is where no "<" is: looking for one character is a
    memchr, for two a scan ten times longer."""
    head = message.body_text[:OPENING_CHARS]
    return html_links(head) if "<" in head else ()


@functools.lru_cache(maxsize=8192)  # pure; a mailbox repeats its senders
def _lookalike(domain: str, own: str) -> str | None:
    """The brand a domain imitates, if any: a brand's skeleton as a whole label or hyphen
    part of a domain that is not the brand's own. A brand of four letters or fewer counts
    spelt as it is: swapped letters make it a company's initials ("vlsa-navarra" is not
    "visa")."""
    for part in _SPLIT_LABELS.split(domain):
        brand = _BRAND_SKELETONS.get(_skeleton(part))
        if brand and (len(brand) > 4 or part == brand) and (
                own.partition(".")[0] not in BRANDS[brand]):
            return brand
    return None


_PRIZE_WORDS = frozenset({"giveaway", "giveaways", "prize", "prizes", "winner", "winners",
                          "reward", "rewards", "gift", "gifts", "free", "lottery", "bonus"})


def _brand_named(own: str, brand: str | None) -> bool:
    """`own`'s name holds the brand's own name spelt right ("coupang-mail"), joined to no
    account or prize word."""
    if not brand or not own:
        return False
    name = own.partition(".")[0]
    return any(b in name for b in BRANDS[brand]) and not any(
        part in _ACCOUNT_WORDS or part in _PRIZE_WORDS for part in name.split("-"))


_ADV = re.compile(r"^\s*(?:\[?adv\]?\s*[:\-]|\(?adv\)|\[?ad\]\s*:)", re.IGNORECASE)
# A per-recipient token spam tools append to subjects: "[c2971]", "... gxlqg", "33161186".
# (capitals after a dash, a colon or a slash are a subject's label, "no water - CSSD", not a
# token: spam pads its token with spaces after the words)
_SUBJECT_TOKEN = re.compile(
    r"(?:\[[a-z0-9]{4,10}\]|\(\s*[a-z0-9]{4,10}\s*\)|\s[a-z]{5,12}|\s\d{5,}|"
    r"(?<![-–:/])\s[A-Z]{4,12})\s*$")
_VOWEL = re.compile(r"[aeiouy]")
# A number that a label word names is a reference, not a token: "ETA Felixstowe - PO 88412",
# "settlement hold on merchant ID 448120", "Invoice no. 20331", "ticket #55120".
_REFERENCE_LABEL = re.compile(
    r"(?:\b(?:po|p\.o\.|id|no|nr|ref|reference|order|invoice|inv|ticket|case|claim|booking|"
    r"account|a/c|acct|merchant|job|quote|quotation|shipment|awb|container|policy|member|"
    r"customer|client|project|lot|batch|serial|contract|number|pnr|docket|complaint|request|"
    r"req|incident|rfq|grn|challan|bill|receipt|loan|application|registration|employee|emp|"
    r"tender|indent|permit|licen[cs]e|consignment|file|folio|unit|flat|plot|route|flight|"
    r"train|vehicle|tracking|dispatch|delivery|sample|patient|mrn|uhid|bed|room)\.?|#)"
    r"\s*[:#.]?\s*$", re.IGNORECASE)


def _subject_token(subject: str) -> re.Match[str] | None:
    """`_SUBJECT_TOKEN.search(subject)`, tried from the last three words only. A match runs
    to the end but for whitespace, and a token holds at most three words ("( c2971 )"), so
    none starts before the whitespace ahead of the third word from the end; the pattern
    looks at nothing before where it starts (no "^", "\\b" or look-behind), so searching from
    there finds the same match. `re` tries every position of the subject otherwise, most of
    the spam shapes' time (tests/unit/test_core_judgement_speed.py holds the two equal)."""
    words = subject.rsplit(None, 3)
    return _SUBJECT_TOKEN.search(subject, len(words[0]) if len(words) == 4 else 0)


_DISCLAIMER = (
    rb"\b(?:to be (?:removed|taken off|deleted)|(?:removed|taken off|deleted) (?:from|off) "
    rb"(?:our|the|this|my|all) (?:\w+ )?(?:list|database|mailings?)|removal instructions|"
    rb"remove in the subject|reply with (?:remove|"
    rb"\"?remove)|one[- ]time (?:mailing|e-?mail)|opt-?in list|this is not (?:spam|"
    rb"unsolicited)|not a spam|under bill s\.? ?1618|in compliance with|you (?:are receiving|"
    rb"received) this (?:e-?mail|message) because you|click here to be removed|to unsubscribe "
    rb"(?:from this list )?(?:reply|send|click))")
_MONEY_BAIT = (
    # (a sum, not a clock: "make $500 a day", "make 5k"; not "make the 16h30 pickup")
    r"\b(?:earn|make) (?:\$|extra|money|cash|[£€]?\d[\d,]*(?:k\b| ?(?:[£€$]|dollars|euros?|"
    r"pounds|usd|eur|gbp)|\+? ?(?:a|per|/) ?(?:day|week|month|hour)|\+|(?:,\d{3})+))"
    r"|\bwork (?:from|at) home\b"
    r"|재택 ?(?:부업|알바)|(?:일당|하루|일) ?\d+(?:~\d+)? ?만 ?원|수익률 ?\d{3,} ?%"
    r"|원금 ?보장|리딩방"
    r"|\bmortgage rates?\b"
    r"|\b(?:lowest|best) (?:rates?|prices?)\b|\bbad credit\b|\bcredit cards? (?:debt|"
    r"offer)|\bfree (?:quote|trial|gift|money|access)\b|\b100% (?:free|guaranteed|risk)"
    # "guaranteed" with what a seller guarantees; a forwarder's "not guaranteed" is none
    r"|\b(?:approval|income|returns?|profits?|results?|loans?|satisfaction) (?:is |are )?"
    r"guaranteed\b|\bguaranteed (?:income|returns?|profits?|approval|results?|loans?|cash|"
    r"winnings?)\b"
    r"|\bact now\b|\bviagra|\bweight loss\b|\bcasino\b|\bstock (?:alert|pick)s?"
    r"|\b(?:double|triple) your\b|\bcash bonus\b|\bpre-?approved\b|\bno credit check\b"
    # a stock pump: a penny stock touted to strangers
    r"|\b(?:otc ?bb|pink ?sheets|investor alert|hot (?:stock|pick)s?|stock tips?|penny "
    r"stocks?|ticker symbol)\b|\b\d{3,}% (?:investment )?(?:returns?|gains?|profits?)\b")

# An opt-out line: bulk mail carries one; so do legitimate notices sent with list headers.
_OPT_OUT = r"\bunsubscribe\b|opt[- ]out|manage (?:your )?(?:email )?preferences|수신 ?거부|" \
    r"配信停止|구독 (?:취소|해지)|\babmelden\b|\babbestellen\b|se désinscrire|désabonner|" \
    r"darse de baja|per non ricevere più|disiscriviti|(?:cancella|annulla)(?:re)? (?:l'|la )?" \
    r"iscrizione|descadastr|cancelar (?:a )?(?:inscrição|subscrição|assinatura)|" \
    r"berhenti melanggan|henti langganan|peruuta tilaus|avsluta prenumeration|" \
    r"peru (?:tilaus|uutiskirje)|et halua enää|" \
    r"loobu (?:siit|uudiskirjast|tellimusest)|uudiskirjast loobumiseks|sõnaga loobu|" \
    r"ei soovi enam (?:kirju|uudiskirja|pakkumisi)|" \
    r"stop receiving (?:these|this|our|future|further|e-?mails|messages|marketing)|" \
    r"(?:no longer|don'?t|do not) (?:wish|want) to receive|" \
    r"ne (?:plus|pas) recevoir|désinscri|\buitschrijven\b|\bafmelden\b|" \
    r"(?:no|dejar de) (?:desea |quiere )?recibir (?:más )?(?:nuestr|est|correo|mensaje|" \
    r"comunicac|ofert|e-?mail)|responda baja|não (?:deseja |quer )?receber mais|" \
    r"deixar de (?:a |o |as |os )?receber|cancell\w* dalla (?:newsletter|mailing|lista)|" \
    r"διαγραφ|harpidetza (?:kentze|ezeztat|utzi)|odjav(?:a|iti|ite)|dezabon|" \
    r"\bafmeld|\bavmeld|meld deg av|avregistrer|wypisa[cć] si[eę]|" \
    r"wypisz si[eę]|rezygnacja z subskrypcji|odhl[aá]sit|abonelikten [cç][iı]k|" \
    r"tidak (?:mahu|mau|ingin) (?:lagi )?menerima|jaso nahi ez|donar-se de baixa|" \
    r"no rebre m[eé]s|nicht mehr erhalten|keine (?:weiteren )?(?:e-?mails|newsletter) mehr|" \
    r"απεγγραφ|退订|取消订阅|hủy đăng ký|" \
    r"\bstop (?:to|au|al|an) \d{3,6}\b|\bstop إلى|ngo-stop\b|uyeke ukuthola"
OPT_OUT = _matcher(_OPT_OUT)

# A greeting that names no one: written to everyone on a list of addresses.
_NAMELESS_GREETING = (
    # (not a bare "Dear Sir," or "Dear Madam,": a business letter's greeting to the one
    # reader, as India, Nigeria and much of the world write it)
    rb"(?:^|\n)\s*(?:dear (?:sir/madam|sir or madam|madam/sir|madam or sir|sirs|friends?|"
    rb"customer|user|member|beneficiary|account (?:holder|owner)|valued \w+|recipient|webmaster|"
    rb"consignee|"
    rb"owner)|hi there|hello there|greetings)\b")
_IMPERSONAL_GREETING = _matcher(_NAMELESS_GREETING)
# The opening (subject and first lines) and the footer are each read once, by one set. Two
# patterns count only in the opening's first lines: the set finds them anywhere, without
# their word boundaries (a superset), and only then are the first lines searched.
# A company's receipt or renewal notice: it never comes from a free-mail address.
_RECEIPT = (r"\b(?:amount charged|(?:has been|was|been) (?:auto-?)?renewed|auto-?renew(?:al|ed)|"
            r"order confirmation|invoice (?:#|no|number)|payment (?:of|for) [$£€]\d)")
# A donation asked for by bank transfer to an account in the mail: the charity scam's shape
# (real charities take cards on their own site). Two words found apart: one pattern spanning
# the sentence between them ("[^\n]{0,120}") multiplied the set's DFA states.
_DONATION = "a donation by bank transfer"
_DONATION_ASK = (r"\b(?:donate|donating|donations?|(?:un|votre|chaque|vos|les|faire un) dons?|"
                 r"spenden?|donativos?|donaciones)\b")
# ("berweisung": RE2's ASCII "\\b" stands after "ü" in "überweisung", not before it)
# The tech-support scam: a computer said to be infected, and a number or a desk to call
# (a colleague's "call the helpdesk" from the reader's own organisation weighs nothing more).
_TECH_SUPPORT = "an infected computer and a support line to call"
_INFECTED = (r"\b(?:(?:virus(?:es)?|trojans?|malware|spyware|threats?|infections?) (?:\w+ ){0,2}"
             r"(?:were |was |have been |has been )?(?:detected|found) on your|your (?:computer|pc|"
             r"device|system|laptop|mac) (?:is|has been|may be|was) (?:infected|compromised|"
             r"hacked|at risk|blocked|locked)|do not (?:shut down|turn off|restart|close) (?:your "
             r"|this )?(?:computer|pc|browser|device|system))\b")
_SUPPORT_CALL = (r"\b(?:call|phone|ring|dial|contact) (?:our |the |us |a )?(?:\w+ ){0,2}(?:support|"
                 r"technicians?|helpline|help ?desk|hotline|experts?|engineers?)\b|\b(?:support|"
                 r"help) (?:line|number|hotline)\b")
_BANK_DETAILS = (r"\b(?:bank transfer|sort code|iban|account (?:number|no)|virement|berweisung|"
                 r"transferencia|personal (?:bank )?account)\b")
# A traveller's plea: things stolen, and money asked for (a contact's account taken over).
_STRANDED = "a stranded traveller asking for money"
# The power-cut scam: a service to be cut off tonight, and a number or an "officer" in the
# mail to call ("your connection will be disconnected at 9.30 pm tonight; contact our
# officer on this number"). A real supplier's notice names its own published line, not
# "this number" (read apart, as the stranded pair is).
_CUT_OFF_CALL = "a service cut off unless a number in the mail is called"
_CUT_OFF = (r"\b(?:will|shall) be (?:disconnected|cut off)\b|\bdisconnection (?:today|tonight)\b"
            r"|काट दिया जाएगा|कट जाएगा|काटा जाएगा|खंडित (?:केला|केले|करण्यात) (?:जाईल|येईल)"
            r"|कापला जाईल|துண்டிக்கப்படும்|\bkesilecek")
_CALL_NUMBER = (r"\b(?:call|contact|ring|whatsapp|phone)\b[^\n]{0,40}\b(?:this|the following|the "
                r"below|the given|our) (?:\w+ )?(?:number|officer|helpline)\b|इस (?:नंबर|नम्बर) पर"
                r"|(?:नंबर|नम्बर) पर (?:संपर्क|कॉल)|या (?:नंबरवर|क्रमांकावर)|இந்த எண்ணில்"
                r"|எண்ணில் தொடர்பு|numaray[ıi] aray[ıi]n")
_STOLEN = (r"\b(?:(?:lost|stolen|robbed)(?: of)? (?:my |our |all my |all our )?(?:wallet|passport|"
           r"bag|cards?|phone|purse|money)|(?:wallet|passport|bag|cards?|phone|purse)s? (?:(?:was|"
           r"were|got|has been|have been) )?(?:stolen|snatched|taken)"
           # Afrikaans: my phone, purse, bag or card stolen; robbed
           r"|(?:foon|selfoon|beursie|handsak|sak|kaart|paspoort)(?: is| was)? (?:gisteraand |"
           r"vandag |vanoggend )?(?:by \w+ \w+ )?(?:gesteel|gegryp|weggeneem)|beroof"
           # a phone out of use, the story for writing from another address ("my phone is
           # dead", "simu yangu imeharibika", my phone is broken, in Swahili)
           r"|my (?:phone|mobile|cell)(?: is|'s| has| was)? (?:dead|died|broken|smashed|not "
           r"working|out of (?:battery|charge)|switched off)"
           # "I dropped my phone and the screen is smashed"
           r"|(?:dropped|broke|smashed|cracked) my (?:phone|mobile|cell)|(?:phone'?s|the) screen "
           r"(?:is|got|was) (?:smashed|cracked|broken)"
           r"|simu yangu (?:imeharibika|imeibiwa|imepotea|imezima|haifanyi kazi))\b")
_LEND_ME = (r"\b(?:(?:lend|loan|send|wire|transfer) (?:me|us)|"
            # the money to be sent on to someone else's account ("send it straight to the
            # hospital's account below"); Swahili: send (the) money, send me
            r"(?:send|wire|transfer|pay) (?:it|the money|the rest|the balance) (?:straight |"
            r"directly )?(?:to|into) (?:the|this|his|her|their) (?:[\w']+ ){0,2}account|"
            # a sum to someone's account: "send £385 to the repair shop's account"
            r"(?:send|wire|transfer|pay) (?:[£$€] ?)?\d[\d,.]* (?:\w+ )?(?:to|into) "
            r"(?:the|this|his|her|their|my) (?:[\w']+ ){0,3}account|"
            r"tuma (?:pesa|kes|ksh|shilingi|\d)|nitumie|"
            # Afrikaans: send, lend or pay me (the verb last: "vir my R1 500 stuur")
            r"(?:stuur|leen|betaal) (?:vir )?(?:my|ons)|vir (?:my|ons) [^.\n]{0,40}"
            r"(?:stuur|leen|oorbetaal))\b")
# The reader told to check a change through a channel they already have ("call us on the
# number on your card", "verify with your supplier using a phone number you already hold,
# not one given in the e-mail"): a bank's fraud desk or a wary customer, the opposite of a
# lure's script, which sends the reader to its own link or number.
_CHECK_APART = alternatives(
    r"\b(?:(?:a |the )?(?:phone |telephone )?number you (?:already )?(?:have|hold|know)|"
    r"number (?:you )?already (?:have|hold|know|on file)|(?:known|trusted|usual) (?:phone |"
    r"telephone )?(?:number|contact)|not (?:one|the one|a number|the number) (?:given|provided|"
    r"quoted|listed|sent) in the (?:e-?mail|message)|number (?:on the back of|printed on) your "
    r"(?:\w+ )?(?:card|agreement|statement)|(?:do not|don'?t) use (?:the |any )?(?:contact|phone) "
    r"(?:details|numbers?) (?:in|contained in|from) (?:this|the|any) (?:e-?mail|message)|"
    r"am besten telefonisch|telefonisch (?:bestätigen|prüfen|rückbestätigen)|bekannten? "
    r"(?:telefon)?nummer|numéro (?:que vous connaissez|habituel|connu)|número (?:que ya tiene|"
    r"habitual|conocido)|"
    # the payee's own denial: "we did not change our bank"
    r"(?:we|i) (?:did not|didn'?t|have not|haven'?t|never) change[ds]? (?:our|my) (?:bank|account|"
    r"banking|bank details|account details)|(?:we|i) (?:have )?never changed (?:our |my )?banks?|"
    # the sender's mailbox named as hacked, a mail "from your address" doubted
    r"(?:e-?mail|account|mailbox|inbox) (?:was|has been|got|were) (?:hacked|compromised|"
    r"spoofed)|(?:received|got) an? e-?mail from your (?:address|account|e-?mail)|"
    # a wary customer asking whether the change is the reader's own
    r"(?:is|was) (?:this|that|it) (?:really|actually|genuinely) (?:from )?you|(?:really|actually) "
    r"from you|did you (?:really |actually )?(?:send|write) (?:this|that|it|us)|est-ce bien vous|"
    r"c'est bien vous|wirklich von (?:ihnen|dir)|de verdad (?:es|fue) (?:de )?(?:ti|usted)|"
    # the fraud named as what is happening to someone: "it's a scam", "he's being scammed"
    r"(?:it'?s|this is|that'?s|it is|that is) (?:a |an )?(?:scam|fraud|con)|(?:being|been|got|"
    r"was|were) scammed|scammers? (?:on the phone|called|told|said|has|have|are|is)|c'est une "
    r"arnaque|(?:das ist|ist ein|sind) betrug|betrüger (?:am telefon|haben|hat|sind)|es una "
    r"estafa|(?:son|es un) estafador)\b",
    r"알고 (?:계신|있는|계시는) [^.\n]{0,20}번호|직접 전화(?:해서|하여|로) 확인|"
    # "confirm it by phone", "whether it is real", "if it was not your request", in Korean
    r"전화로 (?:직접 )?확인|직접 전화해서 (?:\S+ )?확인|(?:진짜|사실)인지 확인|변경 사실 맞는지|"
    r"(?:요청하신|보내신) (?:게|것이|거) 아니면|(?:보낸|요청한|변경한) 적이 없|"
    r"보내신 (?:거|것|게) 맞|보이스 ?피싱|사기 ?(?:전화|꾼|야|예요|입니다|당하)")
# A fee for a register's entry nobody ordered, told without the words "publication in our
# register" (the shape above): a register named, and a fee or a renewal due, found apart.
_REGISTER = r"\b(?:directory|register|registry|catalogue)\b"
_REGISTER_FEE = (r"\b(?:(?:publication|listing|entry|directory) fee|due for (?:annual )?"
                 r"renewal|listing renewal)\b")
# The fake-cheque (or card) buyer: the payment will hold more than the price, and the reader
# is to pass the rest on to a third party ("the agent", "my driver") once it clears.
_OVERPAID = "money paid over the price, to pass on to a third party"
_PASS_ON = (r"\b(?:forward|transfer|pass|send|remit|wire|give) (?:it |that |this |(?:that|the) "
            r"(?:freight |shipping |delivery |transport )?(?:amount|balance|difference|rest|"
            r"remainder|extra|excess|fee|money|[$€£]?\d[\d,.]*)(?: \([^)\n]{1,20}\))? )?"
            r"(?:on |over "
            r")?to (?:him|her|them|my (?:agent|driver|shipper|mover|assistant|courier|"
            r"secretary)|(?:the|our) (?:agent|driver|shipper|mover|courier|carrier|transporter|"
            r"shipping agent))\b|\bpay (?:the|our|my|their) (?:freight )?(?:forwarder|shipper|"
            r"shipping agent|mover|courier|agent|driver) (?:directly|themselves|yourself)\b"
            # "you will need to pay them $4,200", "you will then pay the hall directly"
            r"|\b(?:you will|you'll) (?:then |need to |have to )*pay (?:them|him|her|the \w+) "
            r"(?:[$€£]?\d|directly\b)")
_OVER_PRICE = (r"\b(?:extra|excess|additional|on top of (?:the|your) (?:price|fee)|"
               r"includ(?:e|ing) (?:it|that|the (?:\w+ ){1,2}fee|his fee|their fee)|"
               r"(?:once|after|when) (?:the |it |"
               r"my )?(?:cheque|check|card|payment|funds?|money|transfer|it) (?:has )?"
               r"(?:clears?|cleared|shows?|arrives?|reflects?))\b")
# A password's or a digital certificate's expiry announced ("your password expires in 24
# hours", "비밀번호 만료 예정"; not a ship's safety certificate): from outside the reader's
# organisation, and not from the brand's own authenticated domain, the commonest phishing
# script there is (`_EXPIRY_SHAPE`)
_EXPIRY = (r"\b(?:password|passwort|mot de passe|contraseña|wachtwoord|(?:ssl|tls|digital|"
           r"security) certificate|certificado digital|betaalpas|bankpas|bankkaart|debit card|"
           r"bank card)\b"
           r"[^.\n]{0,30}\b(?:expires?|will expire|expiring|is about to expire|läuft ab|caduca|"
           r"vence|vervalt|verloopt)\b|(?:비밀번호|인증서)[^.\n]{0,12}만료")
_EXPIRY_SHAPE = "a password, bank card or certificate expiry from outside the reader's organisation"
# An ask to sign in ("please log in to the extranet", "connectez-vous", "로그인하여"), not the
# word as a noun ("login server down", "institutional login"). With a link in the mail and
# from anyone but the reader's organisation or a brand's own authenticated domain, it is a
# lure's shape: the page behind the link takes the password.
_SIGN_IN_ASK = (
    # English: an imperative at a line's or a sentence's start or after "please", "you must"
    # ("I can't log in to the VPN" reports trouble; a page's menu item "Sign In" asks nothing)
    r"(?:^|[\n.!:,>\[(*-] *)(?:log|sign) ?(?:in|on)(?: (?:to|into|with|at|here|now|via|using|"
    r"through|again|below)\b| ?:)"
    r"|(?:\b(?:please|kindly|simply|just|then|must) |\byou (?:can |need to |have to |should |"
    r"will need to |may )|\b(?:required|asked) to )(?:log|sign) ?(?:in|on)\b"
    r"|\bby (?:logging|signing) in\b|\b(?:log|sign)-?in (?:here|now|below)\b"
    r"|\b(?:melden sie sich|loggen sie sich|bitte (?:hier )?(?:anmelden|einloggen))|"
    r"\b(?:connectez-vous|identifiez-vous|vous connecter (?:à|a|sur|avec))|"
    r"\b(?:accedi (?:a|al|all|alla|alle|ai|con|subito|ora|qui|tramite)|effettu\w* l.accesso|"
    r"accedere (?:a|al|all|alla|con|tramite))\b|"
    r"\b(?:inici[ae] sesi[oó]n|acced[ae] a (?:su|tu|la)|ingres[ae] a (?:su|tu))|"
    r"\b(?:fa[çc]a (?:o )?login|acesse (?:a |o )?(?:sua|seu)|entre na sua conta)|"
    r"\b(?:log (?:in|aan) (?:op|bij|met)|inloggen (?:op|via|met|bij))\b|"
    r"\b(?:logg (?:deg )?inn|logga in|log ind|kirjaudu)\b|\blog på |"
    r"\b(?:přihlaste se|prihláste sa|zaloguj si)|"
    r"로그인(?:하여|해 ?주|하신 ?후|후|하시|해서|하세요|하십시오|해야| ?필요)|접속하여|접속해 ?주"
)
_SIGN_IN = "asks to sign in through a link"
# The opening is read by two sets. The first three shapes (a credential ask, a fee, money
# redirected) are spans of words with counted runs between them ("verify ... .{0,40} ...
# account"): in one set with the rest their runs multiplied the DFA states, which on mail
# not read before are most of a pass's cost. Two sets take a quarter fewer instructions over
# the corpus than one (bench/judgement_instructions.py; docs/results.md).
_ASKS_IN_OPENING = PatternSet({name: pattern for name, _, pattern in _SHAPES[:3]}, loose=True)
# The credential or payment ask alone, for the scorer: a robot's trouble ("payment failed")
# with such an ask is a lure's script, not an event (core/local_scorer.py).
ACCOUNT_ASK = _matcher("|".join(f"(?:{pattern})" for _, _, pattern in _SHAPES[:2]))
_IN_OPENING = PatternSet({**{name: pattern for name, _, pattern in _SHAPES[3:]},
                          "register": _REGISTER, "register fee": _REGISTER_FEE,
                          "pass on": _PASS_ON, "over price": _OVER_PRICE,
                          "receipt": _RECEIPT, "donation": _DONATION_ASK,
                          "stolen": _STOLEN, "check apart": _CHECK_APART,
                          "cut off": _CUT_OFF,
                          "infected": _INFECTED,
                          "bank details": _BANK_DETAILS, "expiry": _EXPIRY,
                          "disclaimer": _DISCLAIMER, "money bait": _MONEY_BAIT,
                          "opt-out": _OPT_OUT,
                          "auto-reply words?": _AUTO_REPLY_WORDS.replace(rb"\b", b""),
                          "nameless greeting?": _NAMELESS_GREETING.replace(rb"\b", b"")},
                         loose=True)
_IN_FOOTER = PatternSet({"disclaimer": _DISCLAIMER, "opt-out": _OPT_OUT})
# The second halves of two pairs, read apart and only where the first half is found (most
# mail tells no theft and no infected computer): in `_IN_OPENING` their counted runs cost
# every mail's first pass a fifth more (docs/results.md, the sixty-sixth pass).
LEND_ME = _matcher(_LEND_ME)
SUPPORT_CALL = _matcher(_SUPPORT_CALL)
CALL_NUMBER = _matcher(_CALL_NUMBER)
# The sign-in ask, read apart and only for a stranger's mail with a link (`read_evidence`):
# in `_IN_OPENING` its lines' starts cost every mail 7 % more of that pass, cold.
SIGN_IN_ASK = _matcher(_SIGN_IN_ASK)


_UPPER, _LOWER = bytes(range(65, 91)), bytes(range(97, 123))


def _cases(text: str) -> tuple[int, int]:
    """How many upper- and lower-case letters `text` holds. In ASCII those are A-Z and
    a-z, counted by deleting them from the bytes (in C) instead of a call per character."""
    if text.isascii():
        data = text.encode("ascii")
        return len(data) - len(data.translate(None, _UPPER)), \
            len(data) - len(data.translate(None, _LOWER))
    return sum(map(str.isupper, text)), sum(map(str.islower, text))


# A machine's alarm names itself in capitals at the head of its subject: "FIRE ALARM: Zone 5",
# "PUMP FAULT - borehole", "[DOWN] shop.example is not responding", "ALARMA: cámara 5". It is
# an incident as a person's "the pump failed" is; read in the subject as written (the
# capitals are the evidence: "Job alert" is a notice; "PRICE ALERT" is a seller's). One with
# account words is a security notice, and a phish that shouts the same is flagged by its
# evidence: the policy keeps flagged mail out of PUSH. (core/local_scorer.py reads it; its
# capitals are no shouted subject of a pitch, `_spam_shapes`.)
ALARM_SUBJECT = re.compile(
    r"\s*(?:\*+\s*)?(?:\[[^\]\n]{1,24}\]\s*)?(?!(?:PRICE|JOBS?|DEALS?|FARES?|NEWS|STOCKS?|SALES?|"
    r"SEARCH|RATES?|TRAVEL|FLIGHTS?|PROPERTY|MARKET|CREDIT|SAVINGS?|OFFERS?|GOOGLE|TRENDS?)\b)"
    r"(?:[A-Z0-9ÄÖÜÉÈ/&.-]+ ){0,3}(?:ALARM[EA]?|ALERT[AE]?|FAULT|"
    r"FAILURE|VORALARM|BRANDALARM|STÖRUNG|PANNE|DÉFAUT|AVERÍA|SUPERVISORY SIGNAL|ALLARME|"
    r"GUASTO|FALHA|ALARMĂ|INTRUSION|INTRUSIÓN|EINBRUCH|SHUTDOWN|[A-ZÄÖ]*HÄLYTYS|[A-ZÅÄÖ]+LARM)"
    r"\b"
    # a warning names its hazard ("HIGH WIND WARNING", "FROST WARNING"); "WARNING." alone
    # heads a mail server's delay notice, and "FINAL WARNING" a dunning letter's threat
    r"|\s*(?!(?:FINAL|LAST|SECOND|THIRD)\b)(?:[A-Z0-9ÄÖÜÉÈ/&.-]+ ){1,3}(?:WARNING|WARNUNG)\b"
    r"|\s*\[(?:DOWN|CRITICAL|ALARM|ALERT|ALLARME|ALARME|ALERTE|CRITICO|CRÍTICO)(?: [A-ZÄÖÜÉÈ]+)"
    r"{0,2}\]"
    # Prometheus Alertmanager's subject: "[FIRING:2] DiskWillFillIn4h ..."
    r"|\s*\[FIRING:\d+\]"
    r"|\s*(?:DOWN|CRITICAL|OFFLINE|ALLARME CRITICO|CRITICO|CRÍTICO)\s?:")


def _spam_shapes(message: Message, opening: bytes, footer: bytes | None, generated: bool,
                 seen: frozenset[str], public: bool, automated: bool,
                 government: bool) -> list[tuple[int, str]]:
    """`seen`: the names of the opening's patterns (`_ASKS_IN_OPENING`, `_IN_OPENING`) that
    match it; `public`: the sender's domain is a free-mail one; `automated`: its local part
    is a robot's; `government`: its registrable domain is a government's."""
    shapes: list[tuple[int, str]] = []
    subject = message.subject
    if _ADV.match(subject):
        shapes.append((2, "the subject declares an advertisement (ADV)"))
    token = _subject_token(subject)
    if token and token.group(0).strip().isdigit() and _REFERENCE_LABEL.search(
            subject, 0, token.start()):
        token = None  # a labelled reference number
    if (token and not _VOWEL.search(token.group(0).strip("[]() ").lower()[:4])) or (
            token and any(c.isdigit() for c in token.group(0))
            and any(c.isalpha() for c in token.group(0))):
        shapes.append((1, "a random tracking token in the subject"))
    upper, lower = _cases(subject)
    if upper + lower >= 10 and upper >= 0.7 * (upper + lower) and not (
            ALARM_SUBJECT.match(subject)):
        # (an alarm names itself in capitals, "ALARM UNACK 20 MIN: COMP-2 OIL TEMP HIGH": no
        # pitch's shouting)
        shapes.append((1, _SHOUTED))
    if "!!" in subject or "$$" in subject:
        shapes.append((1, _BANGS))
    if generated or (not message.from_name and public):
        shapes.append((1, "an anonymous or generated free-mail sender"))
    parsed = message.raw_size > 0  # read from RFC 822, not built from fields
    if parsed and not subject.strip():
        shapes.append((1, _NO_SUBJECT))
    if parsed and not message.to and not message.cc:
        shapes.append((1, "no recipient named"))
    elif (message.to and message.from_addr and set(message.to) <= {message.from_addr}) or any(
            a.startswith(("undisclosed", "recipient-list", "unlisted")) for a in message.to):
        shapes.append((1, "sent to its own address or to undisclosed recipients"))
    name = message.from_name
    # (eight letters: a brand's initials are capitals too, "HSBC UK", "AT&T")
    if not any(map(str.islower, name)) and sum(map(str.isupper, name)) >= 8:
        shapes.append((1, _SHOUTED_NAME))
    if (message.message_id and not message.in_reply_to and not message.references
            and _REPLY_PREFIX.match(subject)):
        shapes.append((1, _NO_THREAD))
    # A body that fits in the opening is its own footer: the opening's set has read it.
    in_footer: frozenset[str] = frozenset()
    if len(message.body_text) > OPENING_CHARS:
        if footer is None:
            footer = fold(message.body_text[-1500:]).encode("utf-8", "surrogatepass")
        in_footer = _IN_FOOTER.found(footer)
    if "disclaimer" in seen or "disclaimer" in in_footer:
        shapes.append((1, _DISCLAIMED))
    elif not (message.list_id or message.list_unsubscribe or message.bulk_headers
              or automated) and ("opt-out" in seen or "opt-out" in in_footer):
        # Mail sent to a list of addresses without the headers a list or a bulk sender
        # writes: an opt-out line with nothing behind it. A service's notices (alerts@,
        # no-reply@) carry one too and may come with no headers (mail built from fields).
        shapes.append((1, "an opt-out line with no list headers"))
    if "nameless greeting?" in seen and _IMPERSONAL_GREETING.search(opening[:400]) and not (
            # a court or a council writes "Dear Sir/Madam" too (from a domain only a
            # government holds; a forged one fails authentication, and is flagged for that)
            government):
        shapes.append((1, _NAMELESS))
    if "money bait" in seen:
        shapes.append((1, "money or offer bait"))
    return shapes


@dataclass(frozen=True, slots=True)
class _Sender:
    """What the From header alone says; the same for every mail from one sender."""

    own: str  # the registrable domain
    public: bool  # a free-mail domain (or none at all)
    brand: str | None  # a brand the display name claims
    lookalike: str | None  # a brand the domain imitates
    public_institution: bool  # a free-mail address with an institution's or role's name
    another_suffix: bool  # the domain wears another domain's ending (`wears_another_suffix`)
    dressed: bool  # the display name's word dressed with account words (`dressed_name_domain`)
    misspelt: str | None  # the display name's word the domain misspells ("wolseiey.co.uk")
    authority: bool  # a government body's name from a non-government domain
    government: bool  # the registrable domain is a government's (`_GOV_DOMAIN`)


# Words a brand's own sender name carries besides the brand ("PayPal Service", "Chase Fraud
# Prevention"); a name whose other words are none of these is a person's ("Chase Banerjee").
_SERVICE_WORDS = _ACCOUNT_WORDS | frozenset({
    "bank", "banking", "team", "mail", "card", "cards", "uk", "us", "usa", "inc", "ltd",
    "llc", "official", "fraud", "prevention", "protection", "dept", "department", "desk",
    "notification", "notifications", "noreply", "reply", "info", "admin", "administrator",
    "operations", "compliance", "business", "premium", "mortgage", "mortgages", "credit",
    "express", "rewards", "plus", "cloud", "store", "shop", "prime", "parcel", "parcels",
    "shipping", "logistics", "courier", "post", "mobile", "wireless", "group", "global",
    "international", "finance", "financial", "investments", "trust", "savings", "direct",
    "pay", "wallet", "app", "apps", "web", "net", "messages", "message", "office", "hr",
    "payroll", "partner", "partners", "marketing", "news", "sales", "security", "safety"})


# Brands that are people's first names too.
_GIVEN_NAME_BRANDS = frozenset({"chase"})


# A place named after the word: "Chase County Sheriff's Office", "Apple Valley Dental".
_PLACE_AFTER = re.compile(
    r"\s+(?:county|city|township|valley|village|parish|borough|shire|creek|lake|river|"
    r"heights|springs)\b")


def _a_place_name(name: str, found: re.Match[str]) -> bool:
    """The brand's word names a place: a county, a town or a valley follows it."""
    return bool(_PLACE_AFTER.match(name, found.end()))


def _a_persons_name(name: str, brand: str) -> bool:
    """A brand that is a first name, first in a name whose other words are a person's
    ("Chase Banerjee"; not "Chase Fraud Team", nor a product, "Microsoft Teams")."""
    words = _NAME_WORD.findall(name)
    rest = words[1:]
    return bool(brand in _GIVEN_NAME_BRANDS and words and words[0] == brand and rest
                and not any(w in _SERVICE_WORDS or w in BRANDS for w in rest))


def _misspelt_name(folded_name: str, own: str) -> str | None:
    """The display name's word that the sender's domain is one letter off ("Wolseley Trade"
    from wolseIey.co.uk), if any."""
    parts = _SPLIT_LABELS.split(own.rpartition(".")[0]) if own else []
    for word in _NAME_WORD.findall(folded_name):
        if any(one_letter_off(part, word) for part in parts):
            return word
    return None


@functools.lru_cache(maxsize=8192)  # pure; a mailbox repeats its senders
def _sender(from_name: str, domain: str) -> _Sender:
    own = registrable(domain) if domain else ""
    public = is_public_domain(domain)
    name = fold(from_name)
    government = bool(_GOV_DOMAIN.search(own))
    found = _BRAND_IN_NAME.search(name) if name else None
    brand = (found.group(1) or found.group(2)) if found else None
    if brand and found and (_a_persons_name(name, brand) or _a_place_name(name, found)):
        brand = None
    return _Sender(
        own=own, public=public,
        brand=brand,
        lookalike=_lookalike(domain, own) if domain and not own.endswith(_RESERVED) else None,
        public_institution=bool(domain and public and _INSTITUTION_NAME.search(name)),
        another_suffix=bool(domain and wears_another_suffix(domain)),
        dressed=dressed_name_domain(from_name, own),
        misspelt=_misspelt_name(name, own),
        authority=bool(own and not own.endswith(_RESERVED) and _AUTHORITY_NAME.search(name)
                       and not government),
        government=government)


def read_evidence(message: Message, opening: bytes | None = None,
                  footer: bytes | None = None) -> Evidence:
    """All evidence for one message. `opening` and `footer`: the folded subject + body
    opening and body footer as UTF-8 bytes, when the caller already has them (the signals
    read the same text)."""
    if opening is None:
        opening = fold(f"{message.subject}\n{message.body_text[:OPENING_CHARS]}").encode(
            "utf-8", "surrogatepass")
    spf, dkim, dmarc = _auth(message.auth_results) if message.auth_results else ("", "", "")
    domain = message.from_domain
    sender = _sender(message.from_name, domain)
    own = sender.own
    failed = dmarc == "fail" or (dmarc in ("", "none") and spf == "fail")
    recipients = {registrable(a.rpartition("@")[2]) for a in (*message.to, *message.cc)}
    # To and From are the sender's to write; only an authenticated match counts.
    same_org = bool(own and own in recipients and not sender.public
                    and (dmarc == "pass" or (dkim == "pass" and spf == "pass")))
    subject = message.subject
    seen = _ASKS_IN_OPENING.found(opening) | _IN_OPENING.found(opening)
    auto_reply = bool(
        message.auto_submitted.startswith("auto-replied") or message.autoreply_header
        or _AUTO_REPLY_SUBJECT.match(subject)
        or ("auto-reply words?" in seen and _out_of_office(opening[:600])))

    shapes: list[tuple[int, str]] = []
    brand = sender.brand
    look = sender.lookalike
    # Mail kept without its headers (an export, a forward): a brand sends from more domains
    # than its own name ("coupang-mail.co.kr"), and nothing recorded who sent this one. Its
    # name spelt right, joined to no account or prize word, is one shape there, not two; a
    # misspelt one ("paypa1-secure.com") or a dressed one ("apple-giveaway.net") is no
    # brand's, headers or not.
    unchecked = not message.auth_results and _brand_named(own, brand or look)
    if same_org:
        # The reader's own organisation, authenticated: "Studio UPS" is its power supply's
        # monitor, not the courier (a spoofed one fails the authentication same_org needs).
        brand = look = None
    if brand and own and not own.endswith(_RESERVED) \
            and own.partition(".")[0] not in BRANDS[brand]:
        if unchecked:
            shapes.append((1, f"display name claims {brand} from {own}, {_UNCHECKED}"))
            look = None
        else:
            shapes.append((2, f"display name claims {brand} but the mail is from {own}"))
    elif brand and failed:
        shapes.append((2, f"claims {brand} and fails DMARC/SPF"))
    elif failed:
        shapes.append((1, "fails DMARC/SPF"))
    if look and unchecked:
        shapes.append((1, f"a brand's name in {domain}, {_UNCHECKED}"))
    elif look:
        shapes.append((2, f"look-alike domain of {look}: {domain}"))
    elif sender.another_suffix:
        shapes.append((2, f"a domain wearing another domain's ending: {domain}"))
    cousin = imitates_own_org(own, recipients)
    twin = None if cousin else same_name_elsewhere(own, recipients)
    if cousin:
        shapes.append((2, f"look-alike of the reader's own organisation {cousin}: {own}"))

    elif sender.misspelt:
        shapes.append((2, f"the domain misspells the sender's name {sender.misspelt}: {own}"))
    elif sender.dressed:
        shapes.append((1, f"the sender's name dressed with account words: {own}"))
    if sender.authority:
        shapes.append((1, f"a government body's name from a non-government domain: {own}"))
    # the reader's organisation's name as a label on someone else's domain, in the From
    # address itself ("leiedalvlas-be.mailquota.net" writing to leiedalvlas.be)
    worn = dressed_link(domain, "", recipients) if domain and not same_org else None
    if worn:
        shapes.append((2, f"the sender's domain wears the reader's organisation's name {worn}: "
                          f"{domain}"))
    targets = [_target(href) for _, href in message.links] if message.links else []
    hosts = _hosts(opening, targets)
    foreign = [h for h in hosts if registrable(h) != own]
    # Told to check a change apart, with no link to follow: the redirection and the account
    # words are what the mail warns of.
    warned = "check apart" in seen and not hosts
    if _SHAPES[0][0] in seen and not warned:
        if foreign:
            shapes.append((2, f"credential request with a link to {registrable(foreign[0])}"))
        else:
            shapes.append((1, _CREDENTIALS_ONLY))
    # A colleague's mail: the From domain is a recipient's own, as claimed, not failing
    # authentication (a free-mail domain is no organisation: two gmail.com addresses are
    # strangers). One that talks of changed wire instructions is more often a warning than a
    # lure: its words weigh one each.
    colleague = bool(own and own in recipients and not failed and not sender.public)
    if hosts and not colleague and (_ARCHIVE_LINK.search(opening) or any(
            _ARCHIVE_LINK.search(href.lower().encode("utf-8", "replace"))
            for _, href in message.links)):
        shapes.append((1, _ARCHIVE))
    # (a council or a court from a government domain, not failing authentication, may
    # warn of enforcement: that is its job, not a lure)
    official = bool(own and not failed and sender.government)
    # A brand's own domain, authenticated, writing as the brand: "if this was not you, call
    # us" is its fraud desk, not a callback lure, and the "updated payment instructions" its
    # alert quotes are the attack it reports, not a redirection asked for.
    own_brand = bool(brand and dmarc == "pass" and own.partition(".")[0] in BRANDS[brand])
    if seen:
        shapes += [(1 if colleague else weight, name)
                   for name, weight, _ in _SHAPES[1:] if name in seen
                   and not (official and name == _LEGAL_THREAT)
                   and not (own_brand and name == _CALLBACK)
                   and not ((warned or own_brand) and name in _WARNED_OF)]
        if "donation" in seen and "bank details" in seen:
            shapes.append((1, _DONATION))
        if "stolen" in seen and LEND_ME.search(opening):
            shapes.append((1, _STRANDED))
        if "cut off" in seen and not (colleague or same_org) and CALL_NUMBER.search(opening):
            shapes.append((1, _CUT_OFF_CALL))
        if "infected" in seen and not (colleague or same_org) and SUPPORT_CALL.search(opening):
            shapes.append((2, _TECH_SUPPORT))
        if "pass on" in seen and "over price" in seen:
            shapes.append((2, _OVERPAID))
        if "expiry" in seen and not (colleague or same_org or own_brand):
            shapes.append((1, _EXPIRY_SHAPE))
        if ("register" in seen and "register fee" in seen
                and _REGISTRY_SHAPE not in {r for _, r in shapes}):
            shapes.append((2, _REGISTRY_SHAPE))
    # (read only where it can count: a link to follow, from a stranger; most mail has none)
    signs_in = bool(hosts and not (colleague or same_org or own_brand)
                    and SIGN_IN_ASK.search(opening))
    if signs_in and _SHAPES[0][0] not in seen:
        shapes.append((1, _SIGN_IN))
    if hosts and not (colleague or same_org or own_brand) and _UNDO_BEHIND_LINK.search(opening):
        shapes.append((1, _UNDO))
    quoted = _quoted_anchors(message)
    # Each anchor's host is looked up once (`targets` above, for the message's own); the
    # text is read only when the link points at a host.
    if quoted:
        targets += [_target(href) for _, href in quoted]
    for (text, _), target in zip((*message.links, *quoted), targets, strict=True):
        shown = _DOMAIN_IN_TEXT.search(fold(text)) if target else None
        if shown and target:
            a, b = registrable(shown.group(1)), registrable(target.decode())
            if a != b:
                shapes.append((2, f"link text names {a} but points at {b}"))
                break
    for host in foreign:
        borrowed = dressed_link(host, own, recipients)
        if borrowed:
            shapes.append((2, f"a link to {host}, dressed in the name {borrowed}"))
            break
    if not look:
        for host in foreign:
            imitated = _lookalike(host, registrable(host))
            if imitated:
                shapes.append((1, f"links to a look-alike of {imitated}: {registrable(host)}"))
                break
    tlds = {h.rpartition(".")[2] for h in [domain, *hosts] if h}
    abused = sorted(tlds & ABUSED_TLDS)
    if abused:
        shapes.append((1, f"abused top-level domain .{abused[0]}"))
    local = message.from_addr.partition("@")[0]
    # (an organisation numbers its own people: a student's "24uph052@students.college",
    # authenticated as the reader's own organisation, is no generated lure)
    generated = bool(local and not same_org and _looks_generated(local))
    if generated:
        shapes.append((1, f"generated-looking address {local}"))
    if sender.public_institution or (sender.public and _ROLE_LOCAL.search(local)):
        shapes.append((1, _POSING))
    if sender.public and "receipt" in seen:
        shapes.append((1, "a receipt or renewal from a free-mail address"))
    replies = {registrable(a.rpartition("@")[2]) for a in message.reply_to} \
        if message.reply_to else set()
    elsewhere = bool(own and replies and own not in replies)
    free_replies = elsewhere and any(is_public_domain(r) for r in replies)
    if free_replies:
        shapes.append((1, "replies go to a free-mail address"))
    if twin and shapes:
        # a sister domain alone is how groups write; with a lure's shape it is the lure's
        shapes.append((1, f"the reader's organisation's name under another ending: {own} "
                          f"writing to {twin}"))
    weight = sum(w for w, _ in shapes)
    # A lone request to confirm account details is a lure only where authentication could
    # have vouched for the sender and did not (no Authentication-Results: nothing to judge).
    lure = bool(weight and not (same_org or colleague) and not (
        (dmarc == "pass" or not message.auth_results) and not signs_in
        and all(r == _CREDENTIALS_ONLY for _, r in shapes)) and not (
        # a title alone is not a lure: "Mrs Ann Lee" at a free-mail address is a person
        [r for _, r in shapes] == [_POSING] and _TITLE.match(fold(message.from_name))))
    automated = robot_address(local)
    spam = _spam_shapes(message, opening, footer, generated, seen, sender.public, automated,
                        sender.government)
    if own_brand:
        # "You received this email because ..." closes a brand's own authenticated notices
        spam = [(w, r) for w, r in spam if r != _DISCLAIMED]
    if elsewhere and not free_replies and not message.list_id:
        # A list sets Reply-To to itself; a person's replies go to their own domain.
        spam.append((1, "replies go to another domain"))
    # Scam shapes are unsolicited too: a money story from an anonymous sender is spam even
    # below the phishing flag.
    spam += [(w, r) for w, r in shapes if r.startswith(("prize", "gift", "abused", "replies"))]
    # (positional, in the order of Evidence's fields)
    return _evidence(
        spf, dkim, dmarc, same_org,
        _server_spam(message),  # server_spam
        auto_reply,
        tuple(f"{w}:{r}" for w, r in shapes),  # phishing
        weight,
        tuple(f"{w}:{r}" for w, r in spam),  # unsolicited
        sum(w for w, r in spam if not (colleague and r in _CASUAL)),  # spam_weight
        bool(message.in_reply_to or message.references),  # threaded
        lure,
        # cold_bulk
        bool(spam) and not (colleague and all(r in _COLLEAGUE_WRITES for _, r in spam)) and not (
            all(r in _HURRIED for _, r in spam) and not hosts and not message.reply_to
            and not shapes
            and _named(message.from_name)),
        own_brand,  # brand_verified
    )


@functools.lru_cache(maxsize=4096, typed=True)
def _evidence(*fields: object) -> Evidence:
    """The Evidence of these values (positional, in field order): one frozen value for each
    distinct one, and most mail shares a few (no shapes, the same authentication results).
    Making a frozen dataclass of 13 fields (a call of `object.__setattr__` each) takes
    several times as long as a cache hit."""
    return Evidence(*fields)  # type: ignore[arg-type]
