"""Few-shot examples for the judge, read from the learn store (the account's corrections)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from sqlalchemy import Engine

from mailmoat.core.fewshot import Example, model_examples
from mailmoat.core.message import Message


def corrections_from(engine: Engine) -> Callable[[str, Message], list[Example]]:
    """(account, message) -> the account's past lane corrections most relevant to the
    message (same sender, same domain, similar content; core/fewshot.py), keeping only
    those a model may see."""
    from mailmoat.learn.service import Learning
    from mailmoat.store.messages import Store

    store = Store(engine)

    def examples(account: str, message: Message) -> list[Example]:
        # Every relevant correction, in tier order, so that dropping the ones a model may
        # not see still leaves the five best of the rest.
        found = Learning(store, account).examples(
            message.from_addr, f"{message.subject} {message.snippet}", limit=sys.maxsize)
        return model_examples(found)

    return examples
