"""Mail for the learning tests: small RFC 822 messages with the headers a test needs."""

from __future__ import annotations

from email.message import EmailMessage
from itertools import count

_n = count()
ME = "me@home.example"
QUESTION = "Could you have a look at the draft when you get a chance?"


def eml(sender: str, subject: str, body: str = "Hello.", to: str = ME, **headers: str) -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = to
    m["Subject"] = subject
    m["Message-ID"] = f"<{next(_n)}.{subject.replace(' ', '')[:20]}@test>"
    for name, value in headers.items():
        m[name.replace("_", "-")] = value
    m.set_content(body)
    return m.as_bytes()
