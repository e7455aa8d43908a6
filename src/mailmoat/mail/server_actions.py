"""Carry out planned lane actions on the IMAP server, each one idempotent and recorded.

Adding a keyword that is there, removing one that is not, moving a message that already
sits in the destination: all succeed without change. A message whose location is not known
yet (it is on its way to another folder) keeps its action pending for the next pass.
"""

from __future__ import annotations

import logging

from imapclient import IMAPClient

from mailmoat.core.lane_actions import ActionKind
from mailmoat.mail.imap import ServerFeatures
from mailmoat.store.accounts_sync import SEEN, PendingAction, SyncBook

log = logging.getLogger(__name__)


def gmail_label(keyword: str) -> str:
    """$MoatSilent -> Moat/Silent: Gmail shows labels, not keywords."""
    return "Moat/" + keyword.removeprefix("$Moat").removeprefix("$")


class ActionRunner:
    def __init__(self, client: IMAPClient, book: SyncBook, features: ServerFeatures) -> None:
        self.client = client
        self.book = book
        self.features = features
        self._selected: str | None = None
        self._keywords_ok: dict[str, bool] = {}
        self._folders_made: set[str] = set()

    def run_pending(self) -> int:
        done = 0
        for action in self.book.pending():
            locations = self.book.locations_of(action.message_id)
            if not locations:
                continue  # moved and not seen at the new place yet: next pass
            try:
                status, detail = self._apply(action, locations[0].folder, locations[0].uid,
                                             locations[0].uidvalidity)
            except IMAPClient.Error as exc:
                status, detail = "failed", f"{type(exc).__name__}: {exc}"
            self.book.finish(action.id, status, detail)
            done += status == "done"
        return done

    def _select(self, folder: str) -> dict[bytes, object]:
        info = self.client.select_folder(folder)
        self._selected = folder
        flags = info.get(b"PERMANENTFLAGS", ())
        self._keywords_ok[folder] = b"\\*" in flags  # type: ignore[operator]
        return info  # type: ignore[no-any-return]

    def _apply(
        self, action: PendingAction, folder: str, uid: int, uidvalidity: int
    ) -> tuple[str, str]:
        info = self._select(folder)
        if int(info.get(b"UIDVALIDITY", 0)) != uidvalidity:  # type: ignore[call-overload]
            return "pending", "folder changed under us"
        kind = ActionKind(action.kind)
        if kind in (ActionKind.ADD_KEYWORD, ActionKind.REMOVE_KEYWORD):
            return self._keyword(kind, folder, uid, action.argument)
        if kind in (ActionKind.MARK_READ, ActionKind.MARK_UNREAD):
            before = self.client.get_flags([uid]).get(uid, ())
            if kind is ActionKind.MARK_READ:
                self.client.add_flags([uid], [SEEN.encode()], silent=True)
                self.book.set_marked_read(action.message_id, SEEN.encode() not in before)
            else:
                self.client.remove_flags([uid], [SEEN.encode()], silent=True)
                self.book.set_marked_read(action.message_id, False)
            return "done", ""
        return self._move(action, folder, uid, uidvalidity)

    def _keyword(self, kind: ActionKind, folder: str, uid: int, keyword: str) -> tuple[str, str]:
        if self.features.gmail:
            label = gmail_label(keyword)
            if kind is ActionKind.ADD_KEYWORD:
                self.client.add_gmail_labels([uid], [label], silent=True)
            else:
                self.client.remove_gmail_labels([uid], [label], silent=True)
            return "done", f"X-GM-LABELS {label}"
        if not self._keywords_ok.get(folder, False):
            return "skipped", "server keeps no custom keywords (PERMANENTFLAGS lacks \\*)"
        if kind is ActionKind.ADD_KEYWORD:
            self.client.add_flags([uid], [keyword.encode()], silent=True)
        else:
            self.client.remove_flags([uid], [keyword.encode()], silent=True)
        return "done", ""

    def _move(
        self, action: PendingAction, folder: str, uid: int, uidvalidity: int
    ) -> tuple[str, str]:
        destination = action.argument
        if folder == destination:
            return "done", "already there"
        if destination not in self._folders_made and not self.client.folder_exists(destination):
            self.client.create_folder(destination)
            self.client.subscribe_folder(destination)
        self._folders_made.add(destination)
        self._select(folder)
        if self.features.move:
            self.client.move([uid], destination)
        elif self.features.uidplus:
            self.client.copy([uid], destination)
            self.client.add_flags([uid], [b"\\Deleted"], silent=True)
            self.client.uid_expunge([uid])
        else:
            # A plain EXPUNGE would also remove messages the person marked deleted.
            return "skipped", "server has neither MOVE nor UIDPLUS: cannot move one message safely"
        # The old location is gone; the next pass finds the message in `destination`.
        self.book.forget(folder, uidvalidity, [uid])
        return "done", f"{folder} -> {destination}"
