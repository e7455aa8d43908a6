"""Errors the authority layer raises to its callers (CLI, API). Each says what to do next."""

from __future__ import annotations

from mailmoat.core.receipts import ReceiptError


class ActError(Exception):
    """Base class for refusals a caller should show to a person."""


class NotFound(ActError):
    """No such action (or not in this account)."""


class InvalidState(ActError):
    """The action cannot make this transition (already rejected, already sent, ...)."""


class StaleApproval(ActError):
    """The approver saw other bytes than the ones stored now: look again, then approve."""


class NoReceipt(ReceiptError):
    """A floor action reached the executor without a receipt: refused, never run."""


class PolicyRefused(ActError):
    """An unattended action the AUTO gate does not allow."""
