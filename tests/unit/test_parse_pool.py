"""What the parse workers send back must arrive exactly as it left."""

from __future__ import annotations

import pickle
import pickletools

from mailmoat.mail.parse_pool import ParsePool, prepare_batch
from tests.conftest import SHARED

CORPUS = SHARED / "corpora" / "spamassassin"


def _sample() -> list[bytes]:
    raws = [p.read_bytes() for p in sorted(CORPUS.glob("*/*"))[::40] if p.is_file()]
    attachment = (b"From: a@example.org\r\nSubject: file\r\nContent-Type: multipart/mixed; "
                  b"boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b\r\n"
                  b"Content-Type: application/pdf; name=x.pdf\r\n\r\nJVBERi0=\r\n--b--\r\n")
    return [*raws, attachment, b"", b"\xff\xfe not mail"]


def test_prepared_messages_survive_the_trip_between_processes() -> None:
    items = [(raw, ("\\Seen",)) for raw in _sample()]
    prepared = prepare_batch(items)
    assert any(message.attachments for message, _ in prepared)
    assert pickle.loads(pickle.dumps(prepared, protocol=5)) == prepared
    with ParsePool(1) as pool:  # a real worker process, spawned
        assert pool.submit(items).result() == prepared


def test_prepared_messages_pickle_as_class_and_fields() -> None:
    # No BUILD step: each record is rebuilt by calling its class with its field values,
    # not by setting a state dict field by field (which cost ~30 us a message).
    prepared = prepare_batch([(raw, ()) for raw in _sample()[:5]])
    opcodes = {op.name for op, _, _ in pickletools.genops(pickle.dumps(prepared, protocol=5))}
    assert "REDUCE" in opcodes
    assert "BUILD" not in opcodes
