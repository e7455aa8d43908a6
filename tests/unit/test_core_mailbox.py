"""Pure sync and lane-action decisions: resume arithmetic, reversibility, corrections,
and the abuse guard's address rules."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.address_guard import AddressPolicy, parse_allow_list, refused_address
from mailmoat.core.lane_actions import (
    ActionKind,
    LaneAction,
    LaneActions,
    PlannedAction,
    correction_from_move,
    plan_lane_change,
)
from mailmoat.core.lanes import Lane
from mailmoat.core.mailbox_sync import (
    FolderStart,
    FolderState,
    backfill_order,
    backoff_delay,
    folder_start,
    new_uids,
    start_state,
    vanished_uids,
)


@dataclass
class ServerMessage:
    """A message's server-side state, for replaying a plan."""

    folder: str = "INBOX"
    keywords: set[str] = field(default_factory=set)
    seen: bool = False

    def apply(self, plan: list[PlannedAction]) -> None:
        for action in plan:
            if action.kind is ActionKind.ADD_KEYWORD:
                self.keywords.add(action.argument)
            elif action.kind is ActionKind.REMOVE_KEYWORD:
                self.keywords.discard(action.argument)
            elif action.kind is ActionKind.MOVE:
                self.folder = action.argument
            elif action.kind is ActionKind.MARK_READ:
                self.seen = True
            elif action.kind is ActionKind.MARK_UNREAD:
                self.seen = False


CONFIGS = st.sampled_from([
    LaneActions(),
    LaneActions.with_moves(),
    LaneActions({Lane.SILENT: LaneAction(keyword="$MoatSilent", folder="Moat/Silent",
                                         mark_read=True),
                 Lane.INFO: LaneAction(folder="Moat/Records", mark_read=True)}),
])
LANES = st.sampled_from(list(Lane))


@given(CONFIGS, LANES, LANES)
def test_a_lane_change_and_its_reversal_restore_the_server_state(
    config: LaneActions, first: Lane, second: Lane
) -> None:
    message = ServerMessage()
    message.apply(plan_lane_change(config, None, first))
    after_first = (message.folder, set(message.keywords), message.seen)
    marked = config.for_lane(first).mark_read
    message.apply(plan_lane_change(config, first, second, marked_read_by_us=marked))
    # The server now shows exactly the second lane's marks.
    expected = {config.for_lane(second).keyword} - {None}
    assert message.keywords == expected
    assert message.folder == (config.for_lane(second).folder or "INBOX")
    message.apply(plan_lane_change(config, second, first,
                                   marked_read_by_us=config.for_lane(second).mark_read))
    assert (message.folder, message.keywords, message.seen) == after_first


def test_default_is_labels_only() -> None:
    plan = plan_lane_change(LaneActions(), None, Lane.SILENT)
    assert plan == [PlannedAction(ActionKind.ADD_KEYWORD, "$MoatSilent")]


def test_reversal_follows_what_was_applied_not_the_current_configuration() -> None:
    now = LaneActions({Lane.SILENT: LaneAction(keyword="$Junk"),
                       Lane.QUEUE: LaneAction(keyword="$MoatQueue")})
    then = LaneAction(keyword="$MoatSilent", folder="Moat/Silent")
    plan = plan_lane_change(now, Lane.SILENT, Lane.QUEUE, applied=then)
    assert plan == [PlannedAction(ActionKind.REMOVE_KEYWORD, "$MoatSilent"),
                    PlannedAction(ActionKind.ADD_KEYWORD, "$MoatQueue"),
                    PlannedAction(ActionKind.MOVE, "INBOX")]


def test_a_read_mark_the_person_made_is_never_taken_back() -> None:
    config = LaneActions({Lane.INFO: LaneAction(keyword="$MoatInfo", mark_read=True)})
    plan = plan_lane_change(config, Lane.INFO, Lane.QUEUE, marked_read_by_us=False)
    assert PlannedAction(ActionKind.MARK_UNREAD) not in plan
    plan = plan_lane_change(config, Lane.INFO, Lane.QUEUE, marked_read_by_us=True)
    assert PlannedAction(ActionKind.MARK_UNREAD) in plan


def test_corrections_from_moves() -> None:
    moves = LaneActions.with_moves()
    assert correction_from_move(moves, Lane.SILENT, "INBOX") is Lane.QUEUE
    assert correction_from_move(moves, Lane.SILENT, "Moat/Silent") is None
    assert correction_from_move(moves, Lane.QUEUE, "Moat/Silent") is Lane.SILENT
    assert correction_from_move(moves, Lane.SILENT, "Moat/Records") is Lane.INFO
    assert correction_from_move(moves, Lane.QUEUE, "Archive") is None  # not a lane statement
    assert correction_from_move(LaneActions(), Lane.SILENT, "INBOX") is None


def test_folder_start_and_resume_arithmetic() -> None:
    assert folder_start(None, 7) is FolderStart.FRESH
    state = start_state(7, uidnext=101)
    assert state == FolderState(7, 100)
    assert folder_start(state, 7) is FolderStart.CONTINUE
    assert folder_start(state, 8) is FolderStart.RESYNC
    assert backfill_order([5, 9, 3, 120], stored=[9], high_uid=100) == [5, 3]
    assert new_uids([100], high_uid=100) == []  # `101:*` answers with the last message
    assert new_uids([99, 101, 105], high_uid=100) == [101, 105]


@given(st.sets(st.integers(1, 500)), st.sets(st.integers(1, 500)), st.integers(0, 500))
def test_backfill_plus_new_covers_everything_once(server: set[int], stored: set[int],
                                                  high: int) -> None:
    todo = backfill_order(server, stored, high)
    arrived = new_uids(server, high)
    assert set(todo).isdisjoint(stored) and set(todo).isdisjoint(arrived)
    assert server <= set(todo) | set(arrived) | stored  # no gap
    assert set(todo) | set(arrived) <= server  # nothing invented
    assert todo == sorted(todo, reverse=True)


@given(st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300)), max_size=8),
       st.sets(st.integers(1, 300)), st.booleans())
def test_vanished_uids_reads_every_range(ranges: list[tuple[int, int]], known: set[int],
                                         earlier: bool) -> None:
    text = ",".join(f"{a}:{b}" if a != b else str(a) for a, b in ranges)
    data = [(b"(EARLIER) " if earlier else b"") + text.encode()] if ranges else []
    named = {u for a, b in ranges for u in range(min(a, b), max(a, b) + 1)}
    assert vanished_uids(data, known) == known & named


def test_vanished_uids_refuses_garbage() -> None:
    with pytest.raises(ValueError):
        vanished_uids([b"(EARLIER) 3,x:9"], [3])


def test_lane_folders_follow_the_server_delimiter() -> None:
    moves = LaneActions.with_moves()
    dotted = moves.with_delimiter(".")
    assert dotted.for_lane(Lane.SILENT).folder == "Moat.Silent"
    assert dotted.for_lane(Lane.SILENT).keyword == moves.for_lane(Lane.SILENT).keyword
    assert dotted.for_lane(Lane.QUEUE).folder is None
    assert moves.with_delimiter("/") is moves and moves.with_delimiter(None) is moves


def test_backoff_doubles_and_caps() -> None:
    assert [backoff_delay(i, cap=10) for i in range(6)] == [1, 2, 4, 8, 10, 10]


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.1.2.3", "192.168.0.5", "172.16.9.9", "169.254.169.254", "::1",
    "fe80::1", "fc00::5", "0.0.0.0", "::ffff:127.0.0.1", "100.64.0.1",
])
def test_guard_refuses_internal_addresses_in_multi_user_mode(address: str) -> None:
    assert refused_address(AddressPolicy(multi_user=True), [address]) == address
    assert refused_address(AddressPolicy(multi_user=False), [address]) is None


def test_guard_allows_public_and_allow_listed() -> None:
    policy = AddressPolicy(multi_user=True, allow=parse_allow_list("10.0.0.0/8, 127.0.0.1"))
    assert refused_address(policy, ["93.184.216.34", "2606:4700::1111"]) is None
    assert refused_address(policy, ["10.9.9.9", "127.0.0.1"]) is None
    assert refused_address(policy, ["127.0.0.2"]) == "127.0.0.2"
    with pytest.raises(ValueError, match="allow-list"):
        parse_allow_list("not-an-address")
