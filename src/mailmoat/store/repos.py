"""The repositories around people and their choices, reached through one small object: the web
app keeps one on app.state, notify/ and the CLI build one over the store they opened. The key
ring (`sealer`) seals the secrets and the settings' Apprise URLs; without it those two can be
neither read nor written."""

from __future__ import annotations

from mailmoat.store.decisions import Decisions
from mailmoat.store.login_failures import LoginFailures
from mailmoat.store.messages import Store
from mailmoat.store.notifications import Notifications, PushSubscriptions
from mailmoat.store.read_state import ReadState
from mailmoat.store.secrets import Sealer, Secrets
from mailmoat.store.senders import Senders
from mailmoat.store.settings import Settings
from mailmoat.store.summaries import Summaries
from mailmoat.store.user_sessions import UserSessions
from mailmoat.store.users import Users


class Repos:
    def __init__(self, store: Store, sealer: Sealer | None = None) -> None:
        self.store = store
        self.users = Users(store)
        self.user_sessions = UserSessions(store)
        self.login_failures = LoginFailures(store)
        self.secrets = Secrets(store, sealer)
        self.settings = Settings(store, sealer)
        self.senders = Senders(store)
        self.decisions = Decisions(store)
        self.notifications = Notifications(store)
        self.push = PushSubscriptions(store)
        self.summaries = Summaries(store)
        self.read_state = ReadState(store)
