"""A normalized, immutable view of one email, built from RFC 822 bytes.

`parse_message` never raises on bad input. Whatever it could not read is listed in
`Message.defects`, and every decoded part is capped (`MAX_PART_BYTES`, `MAX_PARTS`,
`MAX_DEPTH`, `MAX_BODY_CHARS`) so a hostile message costs bounded work; the caps that
fired are listed in `Message.truncations`.
"""

from __future__ import annotations

import email
import email.message
import email.parser
import email.policy
import email.utils
import re
from dataclasses import dataclass, field
from email.header import decode_header
from email.message import Message as StdMessage
from email.utils import parsedate_to_datetime

from mailmoat.core.addresses import address_pairs, single_address
from mailmoat.core.text import html_to_text, normalize_space, snippet

MAX_HEADER_CHARS = 4_000  # per header value, decoded
MAX_RAW_HEADER_CHARS = 16_000  # per header value as the parser stores it, before decoding
# The MIME headers the stdlib reads parameters from (`_parseparam` is quadratic in the number
# of ";"): capped harder, and before the stdlib ever sees them.
MAX_MIME_HEADER_CHARS = 2_000
_MIME_HEADERS = frozenset({"content-type", "content-disposition", "content-transfer-encoding"})
MAX_PART_BYTES = 512 * 1024  # decoded bytes read from any one part
MAX_PARTS = 64  # MIME parts visited
MAX_DEPTH = 8  # nested multipart / message/rfc822 levels
MAX_BODY_CHARS = 64 * 1024  # plain-text body kept
MAX_HTML_CHARS = 1024 * 1024  # decoded HTML kept for the views, all parts together
SNIPPET_CHARS = 200
MAX_RAW_BYTES = 25 * 1024 * 1024  # bytes of the raw message looked at
# A big message is mostly attachment bytes nobody reads (only their size is kept), and the
# stdlib parser holds several copies of whatever it is given. So above ELIDE_ABOVE bytes,
# each stretch between MIME boundary lines keeps its first KEEP_REGION bytes (KEEP_SMALL once
# KEEP_TOTAL bytes are kept), and the rest is replaced by a marker line carrying its length,
# which the walk adds back into the attachment's size.
ELIDE_ABOVE = 2 * 1024 * 1024
KEEP_REGION = 768 * 1024  # > MAX_PART_BYTES once base64-encoded: text parts read as before
KEEP_TOTAL = 4 * 1024 * 1024
KEEP_SMALL = 16 * 1024



class _RawHeaderPolicy(email.policy.EmailPolicy):
    """The modern policy, except that fetching a header returns its raw unfolded text.

    The stock header registry parses every header into objects on every access, which
    costs about 10 ms per message on real mail (profiled on the SpamAssassin corpus) and
    would cap the local path far below its 1,000 messages/s goal. We decode what we read
    ourselves (`decode_header_value`, `getaddresses`), which is also more forgiving of the
    malformed headers spam is full of.
    """

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        """Every header of every part, as the parser reads it: capped here, so no later
        read (the stdlib's parameter parsing, our own) ever meets a megabyte of header.
        A value of exactly the cap's length is reported as capped (`_capped_headers`)."""
        name, value = super().header_source_parse(sourcelines)
        if len(value) > MAX_MIME_HEADER_CHARS:  # the lower cap: most values are under both
            value = value[:header_cap(name)]
        if "*" in value and name.strip().lower() in _MIME_HEADERS:
            value = _readable_params(value)
        return name, value

    def header_fetch_parse(self, name: str, value: str) -> str:
        if isinstance(value, str) and not value.isascii() and _has_surrogates(value):
            value = value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
        # A header set after parsing never went through header_source_parse.
        value = str(value)
        if len(value) > MAX_MIME_HEADER_CHARS:
            value = value[:header_cap(name)]
        return value.replace("\r", "").replace("\n", "")


def header_cap(name: str) -> int:
    """How much of a header's value the parser keeps."""
    return MAX_MIME_HEADER_CHARS if name.strip().lower() in _MIME_HEADERS else (
        MAX_RAW_HEADER_CHARS)


_STAR_PARAM = re.compile(r";\s*[^;=\s]+\*[^;]*")


def _readable_params(value: str) -> str:
    """The stdlib raises on some mixes of RFC 2231 parameters (`name*=` beside `name*0*=`),
    and where it raises is inside the parser, which then loses the whole MIME tree (and the
    body with it). Such a header keeps its plain parameters only."""
    try:
        pairs = []
        for piece in email.message._parseparam(value):  # type: ignore[attr-defined]
            key, sep, val = piece.partition("=")
            pairs.append((key.strip().lower(), val.strip()) if sep else (piece.strip(), ""))
        email.utils.decode_params(pairs)
    except Exception:
        return _STAR_PARAM.sub("", value)
    return value


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


_POLICY = _RawHeaderPolicy(max_line_length=None)


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    content_type: str
    size: int


@dataclass(frozen=True, slots=True)
class Message:
    from_name: str = ""
    from_addr: str = ""
    to: tuple[str, ...] = ()
    cc: tuple[str, ...] = ()
    reply_to: tuple[str, ...] = ()
    subject: str = ""
    date: str | None = None  # ISO 8601 with offset, when the Date header parsed
    message_id: str = ""
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    list_unsubscribe: str = ""
    list_id: str = ""
    precedence: str = ""
    auto_submitted: str = ""
    bulk_headers: tuple[str, ...] = ()  # names of bulk/feedback markers seen
    labels: tuple[str, ...] = ()  # provider labels/keywords, when known
    body_text: str = ""
    snippet: str = ""
    attachments: tuple[Attachment, ...] = ()
    calendar_parts: tuple[str, ...] = ()  # text/calendar payloads, capped
    html_present: bool = False
    # Evidence the receiving side wrote (issue 22): the topmost Authentication-Results
    # (ARC-Authentication-Results when there is none), the spam verdict headers present
    # (name, value), and an X-Autoreply/X-Autorespond marker. A sender can forge any of
    # them, so core/evidence.py reads them only as evidence *against* a mail.
    auth_results: str = ""
    spam_headers: tuple[tuple[str, str], ...] = ()
    autoreply_header: bool = False
    links: tuple[tuple[str, str], ...] = ()  # (visible text, href) of HTML anchors, capped
    html_parts: tuple[str, ...] = ()  # decoded text/html parts that are not blank, capped
    raw_size: int = 0
    defects: tuple[str, ...] = ()
    truncations: tuple[str, ...] = field(default=())

    @property
    def from_domain(self) -> str:
        return self.from_addr.rpartition("@")[2]

    @property
    def sender_display(self) -> str:
        if self.from_name and self.from_addr:
            return f"{self.from_name} <{self.from_addr}>"
        return self.from_addr or self.from_name


_BULK_HEADER_NAMES = (
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
    "List-Id",
    "Feedback-ID",
    "X-Campaign",
    "X-Mailchimp-Campaign",
    "X-CSA-Complaints",
    "X-Mailer-RecptId",
    "X-SES-Outgoing",
)


# Verdicts a receiving server's spam filter writes (SpamAssassin, rspamd, others).
_SPAM_HEADER_NAMES = ("X-Spam-Flag", "X-Spam-Status", "X-Spam", "X-Rspamd-Action")
MAX_LINKS = 40
_ANCHOR = re.compile(r"<a\b[^<>]{0,600}?\bhref\s*=\s*[\"']?([^\"'\s<>]{1,500})[^<>]{0,600}>"
                     r"([^<]{0,300})</a", re.IGNORECASE)


def html_links(markup: str, limit: int = MAX_LINKS) -> tuple[tuple[str, str], ...]:
    """(visible text, href) of the first `limit` anchors, read from at most 256 KiB."""
    out: list[tuple[str, str]] = []
    if "<a" not in markup and "<A" not in markup:
        return ()
    for match in _ANCHOR.finditer(markup[: 256 * 1024]):
        out.append((normalize_space(match.group(2))[:200], match.group(1)))
        if len(out) >= limit:
            break
    return tuple(out)


# Every top-level header anything here reads: the fields above, and the MIME headers the
# stdlib reads to walk the parts. `_raw_header` refuses any other name, so a new read
# fails loudly in the tests instead of finding nothing.
_READ_HEADERS = frozenset(name.lower() for name in (
    "From", "Sender", "To", "Cc", "Reply-To", "Subject", "Date", "Message-ID",
    "In-Reply-To", "References", "Precedence", "Auto-Submitted", *_BULK_HEADER_NAMES,
    "Authentication-Results", "ARC-Authentication-Results", *_SPAM_HEADER_NAMES,
    "X-Autoreply", "X-Autorespond",
    "Content-Type", "Content-Transfer-Encoding", "Content-Disposition",
))
# A header block the stdlib reads as plain headers and nothing else: every line a named
# field or a continuation of one, the first line a field (after an mbox "From " envelope
# line, if any), no line broken by a lone CR (the stdlib ends lines there too), ending at
# a blank line.
_PLAIN_HEAD = re.compile(rb"(?:[\x21-\x39\x3b-\x7e]+:[^\n]*\n(?:[ \t][^\n]*\n)*)+")
_UNREAD_FIELD = re.compile(
    rb"(?im)^(?!(?:" + b"|".join(re.escape(n.encode()) for n in sorted(_READ_HEADERS))
    + rb"):)[\x21-\x39\x3b-\x7e]+:[^\n]*\n(?:[ \t][^\n]*\n)*")


def _plain_split(raw: bytes) -> tuple[bytes, bytes, bytes] | None:
    """A plain header block without the fields nothing reads (Received chains, X- headers,
    signatures: spam carries dozens, which the stdlib parser would split, store and scan on
    every lookup), the blank line after it and the body. None when the header block is not
    plain: the parser then reads the message whole and meets exactly the defects it would
    have met. tests/unit/test_core_message.py holds parsing with and without this to the
    same Message."""
    blank = [i for i in (raw.find(b"\n\n"), raw.find(b"\n\r\n")) if i >= 0]
    if not blank:
        return None
    end = min(blank) + 1
    head = raw[:end]
    # An mbox envelope line first is the parser's "unix from" and stays line one.
    start = head.find(b"\n") + 1 if head.startswith(b"From ") else 0
    if b"\r" in head.replace(b"\r\n", b"") or not _PLAIN_HEAD.fullmatch(head, start):
        return None
    gap = 1 if raw[end:end + 1] == b"\n" else 2
    return (head[:start] + _UNREAD_FIELD.sub(b"", head[start:]), raw[end:end + gap],
            raw[end + gap:])


# A Content-Type that may name a multipart or message/* type: such mail is parsed whole at
# once. A miss (a type only the stdlib reads as one) is still caught after the headers.
_MAYBE_PARTS = re.compile(rb"(?im)^content-type:[ \t]*(?:\r?\n[ \t]+)?[\"']?(?:multipart|message)")


def _message_tree(raw: bytes) -> StdMessage:
    """The stdlib's message tree of `raw`. A single-part message with a plain header block
    has its headers parsed alone and its body set as the payload, exactly as the full
    parser would set it (the parser reads a single part's body line by line only to join
    the lines again); anything else is parsed whole."""
    split = _plain_split(raw)
    if split is None:
        return email.message_from_bytes(raw, policy=_POLICY)
    head, blank, body = split
    if _MAYBE_PARTS.search(head):  # read the headers once, not alone and then again
        return email.message_from_bytes(head + blank + body, policy=_POLICY)
    msg: StdMessage = email.parser.BytesHeaderParser(policy=_POLICY).parsebytes(head + blank)
    if msg.get_content_maintype() in ("multipart", "message"):
        return email.message_from_bytes(head + blank + body, policy=_POLICY)
    msg.set_payload(body.decode("ascii", "surrogateescape"))
    return msg


# The marker: "~~" + the elided byte count in the characters "!".."*" (digits 0-9) + "~~",
# none of which is in the base64 alphabet, so a base64 decoder skips the line.
_MARK = re.compile(rb"~~([!-*]{1,12})~~\r?\n?")


def _marker(count: int) -> bytes:
    return b"~~" + bytes(0x21 + int(d) for d in str(count)) + b"~~\n"


def _marked(payload: bytes) -> int:
    return sum(int("".join(chr(c - 0x21 + 0x30) for c in m.group(1)))
               for m in _MARK.finditer(payload))


def elide_large_parts(raw: bytes) -> tuple[bytes, int]:
    """`raw` with the tails of long stretches between boundary lines replaced by markers,
    and the number of bytes elided; `raw` itself when it is not above ELIDE_ABOVE."""
    if len(raw) <= ELIDE_ABOVE:
        return raw, 0
    out: list[bytes] = []
    at = start = kept = elided = 0
    while start < len(raw):
        boundary = raw.find(b"\n--", start)
        end = len(raw) if boundary < 0 else boundary + 1  # the boundary line is kept
        keep = KEEP_REGION if kept < KEEP_TOTAL else KEEP_SMALL
        # A part's header block is never cut (the stdlib caps each header as it reads it);
        # the budget is for what follows it.
        blank = [i + len(sep) for sep in (b"\n\n", b"\n\r\n")
                 if (i := raw.find(sep, start, end)) >= 0]
        keep += min(blank) - start if blank else 0
        if end - start > keep:
            cut = raw.rfind(b"\n", start, start + keep) + 1 or start + keep
            out += [raw[at:cut], _marker(end - cut)]
            kept += cut - start
            elided += end - cut
            at = end
        else:
            kept += end - start
        if boundary < 0:
            break
        line_end = raw.find(b"\n", boundary + 1)
        start = len(raw) if line_end < 0 else line_end + 1
    if not out:
        return raw, 0
    out.append(raw[at:])
    return b"".join(out), elided


class _Collector:
    """Mutable scratch space while walking the MIME tree; frozen into a Message at the end."""

    def __init__(self) -> None:
        self.plain: list[str] = []
        self.html: list[str] = []
        self.attachments: list[Attachment] = []
        self.calendar: list[str] = []
        self.defects: list[str] = []
        self.truncations: list[str] = []
        self.parts_seen = 0


def _raw_header(headers: dict[str, str], name: str) -> str:
    key = name.lower()
    if key not in _READ_HEADERS:
        raise ValueError(f"{name} is not in _READ_HEADERS: the parser may have dropped it")
    value = headers.get(key)
    return "" if value is None else _POLICY.header_fetch_parse(name, value)


def _header_index(msg: StdMessage) -> dict[str, str]:
    """First occurrence of each top-level header, as stored, keyed by lower-case name;
    `_raw_header` unfolds the few that are read (spam carries dozens of Received lines).

    Built once: `Message.get` scans every header on every call.
    """
    index: dict[str, str] = {}
    for name, value in msg.raw_items():
        index.setdefault(name.lower(), value)
    return index


def decode_header_value(raw: str, notes: list[str] | None = None) -> str:
    """RFC 2047 decoding that never raises: unknown charsets fall back to utf-8 (noted)."""
    if "=?" not in raw:
        return raw
    try:
        pieces = decode_header(raw)
    except Exception:
        if notes is not None:
            notes.append("undecodable encoded-word in header")
        return raw
    out: list[str] = []
    for chunk, charset in pieces:
        if isinstance(chunk, str):
            out.append(chunk)
            continue
        try:
            out.append(chunk.decode(charset or "ascii", errors="replace"))
        except (LookupError, UnicodeError):
            if notes is not None:
                notes.append(f"unknown header charset {str(charset)[:40]!r}, read as utf-8")
            out.append(chunk.decode("utf-8", errors="replace"))
    return "".join(out)


def _header(msg: dict[str, str], name: str, notes: list[str]) -> str:
    raw = _raw_header(msg, name)
    if not raw:
        return ""
    if len(raw) > MAX_HEADER_CHARS * 4:
        raw = raw[: MAX_HEADER_CHARS * 4]
    text = decode_header_value(raw, notes).replace("\r", " ").replace("\n", " ")
    if len(text) > MAX_HEADER_CHARS:
        notes.append(f"header {name} capped at {MAX_HEADER_CHARS} chars")
        text = text[:MAX_HEADER_CHARS]
    return _strip_surrogates(text).strip()


def _strip_surrogates(text: str) -> str:
    # Undecodable 8-bit bytes surface as lone surrogates; they cannot be stored or hashed.
    # ASCII text holds none (CPython knows a string is ASCII without reading it).
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


def _addresses(msg: dict[str, str], name: str, notes: list[str]) -> tuple[str, ...]:
    # Parse the raw text before decoding: a decoded display name may contain commas.
    raw = _raw_header(msg, name)[:MAX_HEADER_CHARS]
    if not raw:
        return ()
    try:
        pairs = address_pairs(raw)
    except Exception:
        notes.append(f"unparseable {name} header")
        return ()
    found = [normalize_address(spec) for _, spec in pairs if "@" in spec]
    return tuple(dict.fromkeys(a for a in found if a))[:100]


def normalize_address(addr: str) -> str:
    return addr.strip().strip("<>").strip().lower()


def _from(msg: dict[str, str], notes: list[str]) -> tuple[str, str]:
    raw = _raw_header(msg, "From")[:MAX_HEADER_CHARS]
    if not raw:
        return "", ""
    try:
        name, spec = single_address(raw)
    except Exception:
        notes.append("unparseable From header")
        name, spec = "", ""
    name = normalize_space(_strip_surrogates(decode_header_value(name, notes)))
    if "@" not in spec:
        return name or normalize_space(decode_header_value(raw)), ""
    return name, normalize_address(spec)


_MSGID = re.compile(r"<[^<>\s]{1,500}>")


def _ids(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_MSGID.findall(text)))


def _iso_date(text: str, notes: list[str]) -> str | None:
    if not text:
        return None
    try:
        parsed = parsedate_to_datetime(text)
    except Exception:
        notes.append("unparseable Date header")
        return None
    if parsed is None:
        return None
    return parsed.isoformat()


def _decoded_payload(part: StdMessage, acc: _Collector, cap: bool = True) -> bytes:
    try:
        payload = part.get_payload(decode=True)
    except Exception as exc:
        acc.defects.append(f"payload decode failed: {type(exc).__name__}")
        return b""
    if not isinstance(payload, bytes):
        return b""
    if b"~~" in payload and _MARK.search(payload):  # an elided tail (not in base64's output)
        payload = _MARK.sub(b"", payload)
    if cap and len(payload) > MAX_PART_BYTES:
        acc.truncations.append(f"part {part.get_content_type()} capped at {MAX_PART_BYTES} bytes")
        payload = payload[:MAX_PART_BYTES]
    return payload


def _decode_text(payload: bytes, part: StdMessage, acc: _Collector) -> str:
    charset = "utf-8"
    try:
        charset = part.get_content_charset() or "utf-8"
    except Exception:
        acc.defects.append("unreadable charset parameter")
    try:
        return payload.decode(charset, errors="replace")
    except (LookupError, UnicodeError):
        acc.defects.append(f"unknown charset {charset[:40]!r}, read as utf-8")
        return payload.decode("utf-8", errors="replace")


def _filename(part: StdMessage) -> str:
    # RFC 2231 (filename*=) is decoded by get_filename; RFC 2047 encoded-words, which many
    # clients put in filename="=?UTF-8?B?...?=", are not (our raw header policy).
    try:
        name = decode_header_value(part.get_filename() or "")
        return normalize_space(_strip_surrogates(name))[:255]
    except Exception:
        return ""


def _elided_size(part: StdMessage) -> int:
    """Decoded bytes a marker stands for in this part (base64: 3 bytes per 4, less the line
    breaks, which are about 1 in 77), 0 when nothing was elided."""
    try:
        encoded = part.get_payload(decode=False)
    except Exception:
        return 0
    if not isinstance(encoded, str) or "~~" not in encoded:
        return 0
    count = _marked(encoded.encode("ascii", "replace"))
    if (part.get("content-transfer-encoding") or "").strip().lower() == "base64":
        return count * 76 // 77 * 3 // 4
    return count


def _note_capped(part: StdMessage, acc: _Collector) -> None:
    for name, value in part.raw_items():
        if len(value) < MAX_MIME_HEADER_CHARS:  # under the lower cap: under both
            continue
        cap = header_cap(name)
        if len(value) >= cap:
            note = f"header {name[:40]} capped at {cap} chars"
            if note not in acc.truncations:
                acc.truncations.append(note)


def _walk(part: StdMessage, acc: _Collector, depth: int) -> None:
    if acc.parts_seen >= MAX_PARTS:
        if f"stopped after {MAX_PARTS} MIME parts" not in acc.truncations:
            acc.truncations.append(f"stopped after {MAX_PARTS} MIME parts")
        return
    if depth > MAX_DEPTH:
        acc.truncations.append(f"nesting deeper than {MAX_DEPTH} ignored")
        return
    acc.parts_seen += 1
    _note_capped(part, acc)
    try:
        ctype = part.get_content_type()
    except Exception:
        ctype = "text/plain"
    if part.is_multipart():
        try:
            children = part.get_payload()
        except Exception:
            children = []
        if ctype == "message/rfc822" or not isinstance(children, list):
            children = children if isinstance(children, list) else []
        for child in children:
            if isinstance(child, StdMessage):
                _walk(child, acc, depth + 1)
        return
    try:
        disposition = (part.get_content_disposition() or "").lower()
    except Exception:
        disposition = ""
    if ctype == "text/calendar":
        payload = _decoded_payload(part, acc)
        acc.calendar.append(_decode_text(payload, part, acc))
        filename = _filename(part)
        if disposition == "attachment" or filename:
            acc.attachments.append(Attachment(filename or "invite.ics", ctype, len(payload)))
        return
    is_text = ctype.startswith("text/")
    # Another text part's file name matters only when it is kept as an attachment.
    filename = _filename(part) if not is_text or disposition == "attachment" else ""
    if disposition == "attachment" or (filename and not is_text):
        # Only the size is kept, so nothing is capped: the size is the real decoded size.
        payload = _decoded_payload(part, acc, cap=False)
        acc.attachments.append(Attachment(filename or "(unnamed)", ctype,
                                          len(payload) + _elided_size(part)))
        return
    if ctype == "text/plain":
        acc.plain.append(_decode_text(_decoded_payload(part, acc), part, acc))
    elif ctype == "text/html":
        acc.html.append(_decode_text(_decoded_payload(part, acc), part, acc))
    elif is_text:
        acc.plain.append(_decode_text(_decoded_payload(part, acc), part, acc))
    else:
        payload = _decoded_payload(part, acc, cap=False)
        acc.attachments.append(Attachment(filename or "(inline)", ctype,
                                          len(payload) + _elided_size(part)))


def _bulk_headers(headers: dict[str, str]) -> tuple[str, ...]:
    return tuple(name for name in _BULK_HEADER_NAMES if name.lower() in headers)


def parse_message(raw: bytes, labels: tuple[str, ...] = ()) -> Message:
    """Parse RFC 822 bytes into a Message. Never raises on malformed input."""
    return _parse(raw, labels)[0]


def parse_message_with_html(raw: bytes,
                            labels: tuple[str, ...] = ()) -> tuple[Message, tuple[str, ...]]:
    """The Message and its decoded text/html parts (capped), from one parse: a view that
    shows both never parses the bytes twice."""
    message = _parse(raw, labels)[0]
    return message, message.html_parts


def _parse(raw: bytes, labels: tuple[str, ...]) -> tuple[Message, list[str]]:
    notes: list[str] = []
    truncations: list[str] = []
    raw_size = len(raw)
    raw, elided = elide_large_parts(raw)
    if elided:
        truncations.append(f"{elided} bytes of large parts not read (sizes estimated)")
    if len(raw) > MAX_RAW_BYTES:
        truncations.append(f"raw message capped at {MAX_RAW_BYTES} bytes")
        raw = raw[:MAX_RAW_BYTES]
    acc = _Collector()
    try:
        msg = _message_tree(raw)
    except Exception as exc:
        # Thousands of nested parts exhaust the stdlib parser's recursion; the headers are
        # still worth reading, so parse them alone and skip the body.
        acc.defects.append(f"MIME tree unparseable ({type(exc).__name__}): headers only")
        try:
            msg = email.parser.BytesHeaderParser(policy=_POLICY).parsebytes(raw)
        except Exception as exc2:  # pragma: no cover - header parsing does not recurse
            return Message(raw_size=raw_size,
                           defects=(f"unparseable: {type(exc2).__name__}",)), []
    else:
        try:
            _walk(msg, acc, 0)
        except Exception as exc:  # a broken tree still yields headers
            acc.defects.append(f"MIME walk stopped: {type(exc).__name__}")

    top_defects = list(getattr(msg, "defects", []))[:10]
    headers = _header_index(msg)
    from_name, from_addr = _from(headers, notes)
    if not from_addr:
        sender = _addresses(headers, "Sender", notes)
        from_addr = sender[0] if sender else ""

    body = "\n\n".join(t for t in acc.plain if t.strip())
    html_present = bool(acc.html)
    if not body.strip() and acc.html:
        body = "\n\n".join(html_to_text(h) for h in acc.html)
    body = _strip_surrogates(body).replace("\r\n", "\n").replace("\r", "\n")
    if len(body) > MAX_BODY_CHARS:
        truncations.append(f"body text capped at {MAX_BODY_CHARS} chars")
        body = body[:MAX_BODY_CHARS]
    body = body.strip()

    calendar = tuple(_strip_surrogates(c)[:MAX_BODY_CHARS] for c in acc.calendar[:4])
    html_parts: list[str] = []
    for part in (h for h in acc.html if h.strip()):
        if sum(map(len, html_parts)) + len(part) > MAX_HTML_CHARS:
            truncations.append(f"HTML parts capped at {MAX_HTML_CHARS} chars")
            break
        html_parts.append(part)
    message = Message(
        from_name=from_name,
        from_addr=from_addr,
        to=_addresses(headers, "To", notes),
        cc=_addresses(headers, "Cc", notes),
        reply_to=_addresses(headers, "Reply-To", notes),
        subject=normalize_space(_header(headers, "Subject", notes)),
        date=_iso_date(_header(headers, "Date", notes), notes),
        message_id=(_ids(_header(headers, "Message-ID", notes)) or ("",))[0],
        in_reply_to=(_ids(_header(headers, "In-Reply-To", notes)) or ("",))[0],
        references=_ids(_header(headers, "References", notes))[:50],
        list_unsubscribe=_header(headers, "List-Unsubscribe", notes),
        list_id=_header(headers, "List-Id", notes),
        precedence=_header(headers, "Precedence", notes).lower(),
        auto_submitted=_header(headers, "Auto-Submitted", notes).lower(),
        bulk_headers=_bulk_headers(headers),
        labels=tuple(labels),
        body_text=body,
        snippet=snippet(body, SNIPPET_CHARS),
        attachments=tuple(acc.attachments),
        calendar_parts=calendar,
        html_present=html_present,
        auth_results=(_header(headers, "Authentication-Results", notes)
                      or _header(headers, "ARC-Authentication-Results", notes)),
        spam_headers=tuple((name, _header(headers, name, notes)) for name in _SPAM_HEADER_NAMES
                           if name.lower() in headers),
        autoreply_header=bool("x-autoreply" in headers or "x-autorespond" in headers),
        links=tuple(link for h in acc.html[:4] for link in html_links(h))[:MAX_LINKS],
        html_parts=tuple(html_parts),
        raw_size=raw_size,
        defects=tuple(dict.fromkeys(notes + acc.defects + [type(d).__name__ for d in top_defects])),
        truncations=tuple(dict.fromkeys(truncations + acc.truncations)),
    )
    return message, acc.html


def message_from_fields(
    *,
    sender: str,
    subject: str,
    snippet: str = "",
    body: str = "",
    labels: tuple[str, ...] = (),
    list_unsubscribe: str = "",
) -> Message:
    """Build a Message from already-parsed fields (eval sets, API input). JSON can carry
    lone surrogates ("\\ud800"); they are replaced, as `parse_message` does, so the
    message can be hashed and stored."""
    sender, subject, snippet, body, list_unsubscribe = map(
        _strip_surrogates, (sender, subject, snippet, body, list_unsubscribe))
    name, addr = single_address(sender)
    text = body or snippet
    return Message(
        from_name=normalize_space(name),
        from_addr=normalize_address(addr) if "@" in addr else "",
        subject=normalize_space(subject),
        body_text=text,
        snippet=normalize_space(snippet or text)[:SNIPPET_CHARS],
        labels=tuple(map(_strip_surrogates, labels)),
        list_unsubscribe=list_unsubscribe,
        bulk_headers=("List-Unsubscribe",) if list_unsubscribe else (),
    )


__all__ = ["Attachment", "Message", "message_from_fields", "parse_message",
           "parse_message_with_html"]
