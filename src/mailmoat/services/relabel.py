"""The one human relabel: a person puts a message in a lane, from the web page, the JSON API
or `mailmoat correct`. learn/ records the correction (rules, facts and the learned scorer
read it) and applies core/relabel.py's rule, so every entry point gives the same decision
and says the same thing about it."""

from __future__ import annotations

from dataclasses import dataclass

from mailmoat.core.lanes import Lane
from mailmoat.learn.service import Learning, parse_lane
from mailmoat.store.messages import Store


@dataclass(frozen=True)
class Relabelled:
    message_id: int
    asked: Lane
    lane: Lane  # where it sits now: `asked`, or QUEUE when the policy's re-check refused it
    correction: int

    @property
    def explanation(self) -> str:
        return explain(self.asked, self.lane.value)


def explain(asked: Lane, got: str) -> str:
    """What a person is told. The policy refuses a person's lane in two ways only: a hidden
    lane for urgent mail, and PUSH for mail some evidence speaks against (core/policy.py)."""
    if got == asked.value:
        return f"moved to {got}"
    if asked is Lane.PUSH:
        return (f"moved to {got}: evidence speaks against this sender (see the decision "
                f"trace), so PUSH was not allowed")
    return f"moved to {got}: urgent mail stays visible, so {asked.value} was not allowed"


def relabel(store: Store, account: str, message_id: int, lane: str | Lane, actor: str,
            note: str = "") -> Relabelled:
    """Record the correction and re-file the message. Raises learn's NotFound for another
    account's or a missing message, LearningError when it already sits in that lane."""
    asked = lane if isinstance(lane, Lane) else parse_lane(lane)
    learning = Learning(store, account=account)
    correction = learning.correct(message_id, asked, actor, note)
    return Relabelled(message_id, asked, learning.lane(message_id), correction)
