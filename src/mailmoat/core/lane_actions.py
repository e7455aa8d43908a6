"""What mailmoat does on the mail server for a lane, and how a lane change reverses it.

Only reversible actions exist here: a keyword (or Gmail label), a move between folders,
marking read. Planning is pure; `mail/server_actions.py` executes and records the plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from mailmoat.core.lanes import Lane

HOME_FOLDER = "INBOX"


class ActionKind(StrEnum):
    ADD_KEYWORD = "add_keyword"
    REMOVE_KEYWORD = "remove_keyword"
    MOVE = "move"
    MARK_READ = "mark_read"
    MARK_UNREAD = "mark_unread"


@dataclass(frozen=True, slots=True)
class LaneAction:
    """What one lane does on the server. `folder` None: the message stays where it is."""

    keyword: str | None = None
    folder: str | None = None
    mark_read: bool = False


def default_keyword(lane: Lane) -> str:
    return f"$Moat{lane.value.capitalize()}"


def default_folder(lane: Lane) -> str | None:
    return {Lane.SILENT: "Moat/Silent", Lane.INFO: "Moat/Records"}.get(lane)


_NO_ACTION = LaneAction()


@dataclass(frozen=True, slots=True)
class LaneActions:
    """Per-account configuration. Default: a keyword per lane, no moves, nothing marked read."""

    lanes: dict[Lane, LaneAction] = field(
        default_factory=lambda: {lane: LaneAction(keyword=default_keyword(lane)) for lane in Lane}
    )

    @classmethod
    def with_moves(cls) -> LaneActions:
        """The opt-in layout: keywords, and SILENT/INFO filed into their own folders."""
        return cls({
            lane: LaneAction(keyword=default_keyword(lane), folder=default_folder(lane))
            for lane in Lane
        })

    def for_lane(self, lane: Lane) -> LaneAction:
        return self.lanes.get(lane, _NO_ACTION)

    def with_delimiter(self, delimiter: str | None) -> LaneActions:
        """Folder names as the server spells them: "/" in the configuration separates
        levels, and a server whose hierarchy delimiter is "." (Dovecot's and Courier's
        Maildir++) refuses a name containing "/", so it gets "Moat.Silent"."""
        if not delimiter or delimiter == "/":
            return self
        return LaneActions({
            lane: replace(a, folder=a.folder.replace("/", delimiter) if a.folder else None)
            for lane, a in self.lanes.items()
        })

    def lane_folders(self) -> dict[str, Lane]:
        return {a.folder: lane for lane, a in self.lanes.items() if a.folder}

    def as_dict(self) -> dict[str, dict[str, object]]:
        return {
            lane.value: {"keyword": a.keyword, "folder": a.folder, "mark_read": a.mark_read}
            for lane, a in self.lanes.items()
        }

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, object]]) -> LaneActions:
        lanes: dict[Lane, LaneAction] = {}
        for name, spec in data.items():
            keyword = spec.get("keyword")
            folder = spec.get("folder")
            lanes[Lane(name)] = LaneAction(
                keyword=str(keyword) if keyword else None,
                folder=str(folder) if folder else None,
                mark_read=bool(spec.get("mark_read", False)),
            )
        return cls(lanes)


@dataclass(frozen=True, slots=True)
class PlannedAction:
    kind: ActionKind
    argument: str = ""  # keyword or destination folder


def expected_folder(config: LaneActions, lane: Lane, home: str = HOME_FOLDER) -> str:
    return config.for_lane(lane).folder or home


def plan_lane_change(
    config: LaneActions,
    old: Lane | None,
    new: Lane,
    *,
    applied: LaneAction | None = None,
    marked_read_by_us: bool = False,
    home: str = HOME_FOLDER,
) -> list[PlannedAction]:
    """Actions that take a message from `old`'s server state to `new`'s.

    `applied` is what was actually done for `old` (the configuration may have changed
    since); without it, `old`'s current configuration is assumed.
    Order matters: keywords first (they travel with the message on MOVE), the move last.
    A read mark is only taken back when mailmoat set it, never when the person read the mail.
    """
    after = config.for_lane(new)
    if applied is not None:
        before = applied
    else:
        before = config.for_lane(old) if old is not None else LaneAction()
    plan: list[PlannedAction] = []
    if before.keyword and before.keyword != after.keyword:
        plan.append(PlannedAction(ActionKind.REMOVE_KEYWORD, before.keyword))
    if after.keyword:
        plan.append(PlannedAction(ActionKind.ADD_KEYWORD, after.keyword))
    if after.mark_read:
        plan.append(PlannedAction(ActionKind.MARK_READ))
    elif before.mark_read and marked_read_by_us:
        plan.append(PlannedAction(ActionKind.MARK_UNREAD))
    destination = after.folder or (home if before.folder else None)
    if destination is not None:
        plan.append(PlannedAction(ActionKind.MOVE, destination))
    return plan


def correction_from_move(
    config: LaneActions, current: Lane, found_in: str, home: str = HOME_FOLDER
) -> Lane | None:
    """A person moved a message in their own client: the lane that move says, or None.

    Into a lane's folder means that lane. Out of a hidden lane's folder back to the home
    folder means "show me this": QUEUE, the default visible lane.
    """
    if found_in == expected_folder(config, current, home):
        return None
    folder_lanes = config.lane_folders()
    if found_in in folder_lanes:
        lane = folder_lanes[found_in]
        return None if lane == current else lane
    if found_in == home and config.for_lane(current).folder:
        return Lane.QUEUE
    return None
