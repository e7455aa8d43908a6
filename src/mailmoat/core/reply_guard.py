"""What AUTO may answer, and what an unattended draft may say. Pure: no I/O, no clock.

Two checks stand between a model's draft and an unattended send:

* `never_answer`: mail that must not be answered by a machine at all — automated mail (RFC
  3834 `Auto-Submitted`, `Precedence: bulk/list/junk`), list and newsletter mail (`List-Id`,
  `List-Unsubscribe` and the other bulk markers the parser records), a sender address that is
  an unparsed RFC 2047 encoded-word (`support@=?utf-8?q?...?=`) or carries bidirectional
  controls in the address or the display name, and mail flagged as phishing.
* `draft_problems`: an unattended draft may not claim that something was done ("I forwarded
  ...", "has been transferred", "see attached"), may not bring addresses or links the thread
  did not contain, and may not carry header-like lines (`Bcc: ...`). Its subject is cleaned
  (`clean_subject`) and may not look like a header either. A draft with problems is not sent:
  it becomes a proposal for a person.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

# Bidirectional embeddings, overrides, isolates and marks: they make an address or a name
# display as something else than what it is.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_BULK_PRECEDENCE = frozenset({"bulk", "list", "junk", "auto_reply"})
_LIST_MARKERS = frozenset({"list-id", "list-unsubscribe", "list-unsubscribe-post", "list-post",
                           "list-help", "list-subscribe", "list-owner", "list-archive"})
MAX_SUBJECT = 200


@dataclass(frozen=True, slots=True)
class Inbound:
    """What the message being answered says about itself (from the parser)."""

    from_addr: str = ""
    from_name: str = ""
    auto_submitted: str = ""
    precedence: str = ""
    list_id: str = ""
    list_unsubscribe: str = ""
    bulk_headers: tuple[str, ...] = ()
    # A phishing verdict on the decision, when the judge sets one (issue 22 adds the field;
    # until then callers pass what the decision trace carries, default False).
    phishing: bool = False


def never_answer(mail: Inbound) -> str | None:
    """Why AUTO must not answer this message at all, or None."""
    marked = mail.auto_submitted.strip().lower()
    if marked and marked != "no":
        return "automated mail is never answered unattended (RFC 3834 Auto-Submitted)"
    if mail.precedence.strip().lower() in _BULK_PRECEDENCE:
        return (f"bulk mail (Precedence: {mail.precedence.strip().lower()}) is never answered "
                "unattended (RFC 3834)")
    if mail.list_id.strip() or mail.list_unsubscribe.strip():
        return "list or newsletter mail (List-Id / List-Unsubscribe) is never answered"
    markers = {h.strip().lower() for h in mail.bulk_headers}
    if markers & _LIST_MARKERS:
        return "list mail is never answered unattended"
    if "=?" in mail.from_addr or "?=" in mail.from_addr:
        return "the sender address is an RFC 2047 encoded word, not an address"
    if BIDI_CONTROLS.intersection(mail.from_addr + mail.from_name):
        return "the sender's name or address carries bidirectional controls"
    if mail.phishing:
        return "mail flagged as phishing is never answered unattended"
    return None


_VERBS = (
    r"forwarded|sent|deleted|removed|erased|transferred|paid|wired|shared|moved|archived|"
    r"cancell?ed|approved|signed|uploaded|attached|updated|changed|reset|granted|added|"
    r"booked|scheduled|confirmed|processed|refunded|ordered|purchased|bought|submitted|"
    r"completed|exported|downloaded|disabled|enabled|unsubscribed|subscribed|invited|"
    r"released|authori[sz]ed|accepted|declined|handled|executed|done|taken care of"
)
_CLAIMS = (
    re.compile(rf"\b(i|we)\s*('ve|'d| have| had)?\s+(now\s+|just\s+|already\s+)*({_VERBS})\b",
               re.IGNORECASE),
    re.compile(rf"\b(has|have|was|were)\s+(now\s+|just\s+|already\s+)*been\s+({_VERBS})\b",
               re.IGNORECASE),
    re.compile(r"\b(it'?s|it is|all|that'?s|that is)\s+(now\s+|already\s+)*(done|sorted|"
               r"taken care of|handled)\b", re.IGNORECASE),
    re.compile(r"\bdone\s+as\s+(you\s+)?(asked|requested|instructed)\b", re.IGNORECASE),
    re.compile(r"\b(see|find|open)\s+(the\s+)?attach", re.IGNORECASE),
    re.compile(r"\battached\s+(is|are|please|you)\b|\bi'?ve\s+attached\b|\bin\s+the\s+attachment",
               re.IGNORECASE),
    re.compile(r"\bgone\s+ahead\b", re.IGNORECASE),
)
_HEADER_NAMES = (
    r"from|to|cc|bcc|subject|reply-to|sender|date|message-id|return-path|received|"
    r"mime-version|content-type|content-transfer-encoding|content-disposition|in-reply-to|"
    r"references|delivered-to|dkim-signature|authentication-results|x-[a-z0-9-]+"
)
_HEADER_LINE = re.compile(rf"^[ \t>]*({_HEADER_NAMES})[ \t]*:", re.IGNORECASE | re.MULTILINE)
_HEADER_IN_SUBJECT = re.compile(r"(^|[\s;,])(to|cc|bcc|from|reply-to|sender|subject|"
                                r"content-type|x-[a-z0-9-]+)\s*:", re.IGNORECASE)
_ADDRESS = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
_LINK = re.compile(r"\b(?:[a-z][a-z0-9+.-]*://|www\.|mailto:)[^\s<>\"')\]]+", re.IGNORECASE)
_BARE_HOST_PATH = re.compile(r"\b(?:[a-z0-9-]+\.)+[a-z]{2,}/[^\s<>\"')\]]*", re.IGNORECASE)
_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|mailto:)?(?:[^@/\s]*@)?([^/:?#\s]+)",
                   re.IGNORECASE)


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"}


def clean_subject(subject: str) -> str:
    """One plain line: NFC, no control, format (bidi, zero-width) or line-break characters,
    runs of white space made one space, at most 200 characters."""
    text = unicodedata.normalize("NFC", subject)
    text = "".join(" " if _invisible(ch) or ch.isspace() else ch for ch in text)
    return " ".join(text.split())[:MAX_SUBJECT]


def _host(link: str) -> str:
    if link.lower().startswith("www."):
        link = "http://" + link
    match = _HOST.match(link)
    return match.group(1).lower().rstrip(".") if match else link.lower()


def draft_problems(subject: str, body: str, thread: Sequence[str]) -> tuple[str, ...]:
    """What an unattended draft may not do, given the text of the thread it answers (the
    original with its headers, and earlier messages). Empty: the draft may go out."""
    problems: list[str] = []
    seen = "\n".join(thread).lower()
    text = f"{subject}\n{body}"
    for pattern in _CLAIMS:
        found = pattern.search(text)
        if found:
            problems.append(f"claims an action was taken: {found.group(0)!r}")
            break
    for address in sorted({a.lower() for a in _ADDRESS.findall(text)}):
        if address not in seen:
            problems.append(f"names an address the thread does not contain: {address}")
    links = set(_LINK.findall(text)) | set(_BARE_HOST_PATH.findall(text))
    for link in sorted(links):
        host = _host(link)
        if host not in seen:
            problems.append(f"links to a host the thread does not contain: {host}")
    if _HEADER_LINE.search(body):
        problems.append("the body has a header-like line")
    if _HEADER_IN_SUBJECT.search(clean_subject(subject)):
        problems.append("the subject looks like a header")
    if any(_invisible(ch) and ch not in "\n\t" for ch in body.replace("\r\n", "\n")):
        problems.append("the body carries control or invisible formatting characters")
    return tuple(problems)
