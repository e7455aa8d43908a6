"""Mail domains shared by unrelated people: a domain here never stands for one sender.

Learning keys a sender by address, and also by domain when the domain belongs to one
organisation (two colleagues at acme.example teach the same thing). For the domains below a
domain key would lump strangers together, so learning uses the address only. The list is
ours, written by hand from the large consumer providers; a missing entry only means a rule
could cover a whole free-mail domain, so `is_public_domain` also treats subdomains of a
listed domain as public.
"""

from __future__ import annotations

PUBLIC_MAIL_DOMAINS: frozenset[str] = frozenset(
    {
        # global providers
        "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "hotmail.co.uk",
        "hotmail.fr", "hotmail.de", "live.com", "live.co.uk", "msn.com", "passport.com",
        "yahoo.com", "yahoo.co.uk", "yahoo.co.jp", "yahoo.fr", "yahoo.de", "yahoo.co.kr",
        "ymail.com", "rocketmail.com", "aol.com", "icloud.com", "me.com", "mac.com",
        "proton.me", "protonmail.com", "pm.me", "tutanota.com", "tuta.io", "fastmail.com",
        "fastmail.fm", "zoho.com", "zohomail.com", "gmx.com", "gmx.net", "gmx.de", "web.de",
        "mail.com", "yandex.com", "yandex.ru", "mail.ru", "inbox.ru", "list.ru", "bk.ru",
        "hey.com", "duck.com", "mailbox.org", "posteo.de", "hushmail.com",
        # regional providers
        "naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com",
        "qq.com", "163.com", "126.com", "sina.com", "sohu.com", "aliyun.com",
        "rediffmail.com", "libero.it", "virgilio.it", "orange.fr", "wanadoo.fr", "free.fr",
        "laposte.net", "sfr.fr", "t-online.de", "freenet.de", "seznam.cz", "wp.pl",
        "o2.pl", "interia.pl", "btinternet.com", "sky.com", "comcast.net", "verizon.net",
        "att.net", "sbcglobal.net", "bellsouth.net", "cox.net", "charter.net", "shaw.ca",
        "rogers.com", "bigpond.com", "optusnet.com.au", "uol.com.br", "bol.com.br",
        "terra.com.br",
    }
)


def is_public_domain(domain: str) -> bool:
    """True for a shared mail domain, or any subdomain of one (case-insensitive)."""
    name = domain.strip().lower().rstrip(".")
    if not name:
        return True  # no domain at all: never a key for many senders
    parts = name.split(".")
    return any(".".join(parts[i:]) in PUBLIC_MAIL_DOMAINS for i in range(len(parts) - 1))
