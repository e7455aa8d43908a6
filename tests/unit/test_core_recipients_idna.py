"""Recipients are encoded with IDNA2008 / UTS #46 non-transitional (issue 17, item 4).

IDNA2003 (Python's "idna" codec) maps ß to ss and ς to σ and drops joiners, so a reply to
ana@faß.example went to ana@fass.example: another domain, with no flag.
"""

from __future__ import annotations

import pytest

from mailmoat.core.receipts import PayloadError, normalize_recipient, unicode_domain
from mailmoat.core.recipients import check_recipient, rewritten


@pytest.mark.parametrize(("written", "wire"), [
    ("ana@faß.example", "ana@xn--fa-hia.example"),
    ("ana@FAß.example", "ana@xn--fa-hia.example"),
    ("ana@ςοφία.example", "ana@xn--kxae4blv.example"),  # final sigma kept (σ: ...bpq)
    ("ana@bücher.example", "ana@xn--bcher-kva.example"),
    ("ana@xn--fa-hia.example", "ana@xn--fa-hia.example"),
    ("Ana@Example.COM", "ana@example.com"),
])
def test_deviation_characters_keep_their_domain(written: str, wire: str) -> None:
    assert normalize_recipient(written) == wire
    assert "fass" not in wire


def test_the_old_codec_would_have_sent_fass_elsewhere() -> None:
    assert "faß.example".encode("idna") == b"fass.example"  # IDNA2003: another domain
    assert normalize_recipient("ana@ςοφία.example") != normalize_recipient("ana@σοφία.example")
    assert unicode_domain("xn--fa-hia.example") == "faß.example"
    assert unicode_domain("xn--kxae4blv.example") == "ςοφία.example"


@pytest.mark.parametrize("written", [
    "ana@fa\u200dß.example",  # a zero-width joiner outside its allowed context
    "ana@exa\u200cmple.com",  # a zero-width non-joiner likewise
    "ana@xn--zz-zzz.example",  # punycode that is no IDNA2008 name
    "ana@-lead.example",
])
def test_what_cannot_be_encoded_is_refused(written: str) -> None:
    with pytest.raises(PayloadError):
        normalize_recipient(written)


@pytest.mark.parametrize(("said", "flagged"), [
    ("ana@faß.example", False),  # encoded, not changed
    ("ANA@Faß.Example", False),  # letter case only
    ("ana@ｅxample.com", True),  # a full-width letter mapped to ASCII
    ("ana@exam\u00adple.com", True),  # a soft hyphen dropped
])
def test_a_change_between_what_was_written_and_where_it_goes_is_flagged(
    said: str, flagged: bool
) -> None:
    goes_to = normalize_recipient(said)
    assert rewritten(said, goes_to) is flagged
    flags = check_recipient(goes_to, said=said)
    assert (flags.rewritten_from == said) is flagged
    assert flags.any or not flagged
