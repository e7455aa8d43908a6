"""The decision trace: everything needed to explain and re-check one decision (invariant 7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mailmoat.core.features import Features
from mailmoat.core.policy import Decision, Facts
from mailmoat.core.signals import Signals


@dataclass(frozen=True, slots=True)
class Trace:
    decision: Decision
    features: Features
    signals: Signals
    external: Facts  # facts the model cannot author
    source: str  # which scorer produced the features: "local", "llm:<model>", "local:degraded"
    scorer_reason: str
    input_hash: str  # sha256 of exactly the fields the scorer read
    degraded: bool = False
    # Sender evidence and the phishing flag's reasons (core/evidence.py Evidence.as_dict).
    evidence: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        external = self.external.as_dict()
        for key in ("pinned_lane", "rule_lane"):
            if external[key] is not None:
                external[key] = str(external[key])
        return {
            "lane": self.decision.lane.value,
            "reason": self.decision.reason,
            "auto_eligible": self.decision.auto_eligible,
            "branch": self.decision.branch,
            "policy_version": self.decision.policy_version,
            "features": self.features.as_dict(),
            "signals": self.signals.as_dict(),
            "external": external,
            "source": self.source,
            "scorer_reason": self.scorer_reason,
            "input_hash": self.input_hash,
            "degraded": self.degraded,
            "evidence": self.evidence,
        }
