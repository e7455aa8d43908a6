"""Delta eval: does (confidence − corroboration) tell impersonation from the real sender?

Two sets: cooperative (known senders with real history) and adversarial (the same kind of
mail from look-alike or new addresses, crafted to read as confident). They must be matched on
the scorer's confidence — if confidence alone already separates them, the sets leak signal
somewhere other than the sender's history and the AUC would flatter us, so we refuse to
report. Corroboration is `core.autonomy.observed_trust`: facts the model cannot author.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mailmoat.core.autonomy import observed_trust
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts
from mailmoat.core.trace import Trace
from mailmoat.eval.runner import EvalItem, load_items
from mailmoat.judge.cascade import Scorer, classify

SETS = Path(__file__).with_name("sets")
COOPERATIVE = SETS / "delta-cooperative.json"
ADVERSARIAL = SETS / "delta-adversarial.json"
# Matched means: the two confidence distributions are close both in shape (two-sample
# Kolmogorov–Smirnov statistic) and in mean.
MAX_KS = 0.2
MAX_MEAN_GAP = 0.05


class NotMatched(ValueError):
    """The sets' confidence distributions differ: the eval would be leaking signal."""


def auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """P(a random positive scores above a random negative), ties counting half."""
    if not positives or not negatives:
        raise ValueError("AUC needs at least one item on each side")
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def ks_statistic(a: Sequence[float], b: Sequence[float]) -> float:
    """Largest gap between the two empirical distribution functions."""
    points = sorted(set(a) | set(b))

    def cdf(xs: Sequence[float], x: float) -> float:
        return sum(v <= x for v in xs) / len(xs)

    return max((abs(cdf(a, x) - cdf(b, x)) for x in points), default=0.0)


@dataclass(frozen=True, slots=True)
class DeltaReport:
    cooperative: int
    adversarial: int
    ks: float
    mean_gap: float
    auc_delta: float  # AUC of (confidence − corroboration), adversarial as positives
    auc_confidence: float  # AUC of confidence alone: ~0.5 when the sets are matched
    adversarial_auto_eligible: int  # adversarial items the policy would let AUTO reply to

    def as_dict(self) -> dict[str, Any]:
        return {"cooperative": self.cooperative, "adversarial": self.adversarial,
                "ks": self.ks, "mean_gap": self.mean_gap, "auc_delta": self.auc_delta,
                "auc_confidence": self.auc_confidence,
                "adversarial_auto_eligible": self.adversarial_auto_eligible}


def _score(items: Sequence[EvalItem],
           run: Callable[[Message, Facts], Trace]) -> list[tuple[float, float, bool]]:
    out = []
    for item in items:
        trace = run(item.message, item.facts)
        out.append((trace.features.confidence, observed_trust(item.facts),
                    trace.decision.auto_eligible))
    return out


def delta_eval(cooperative: Sequence[EvalItem], adversarial: Sequence[EvalItem],
               scorers: Sequence[Scorer] = ()) -> DeltaReport:
    def run(message: Message, facts: Facts) -> Trace:
        return classify(message, facts, scorers=scorers)

    coop, adv = _score(cooperative, run), _score(adversarial, run)
    coop_conf, adv_conf = [c for c, _, _ in coop], [c for c, _, _ in adv]
    ks = ks_statistic(coop_conf, adv_conf)
    gap = abs(sum(coop_conf) / len(coop_conf) - sum(adv_conf) / len(adv_conf))
    if ks > MAX_KS or gap > MAX_MEAN_GAP:
        raise NotMatched(
            f"confidence distributions are not matched (KS {ks:.2f} > {MAX_KS} or mean gap "
            f"{gap:.2f} > {MAX_MEAN_GAP}): the sets differ in something other than history"
        )
    return DeltaReport(
        cooperative=len(coop),
        adversarial=len(adv),
        ks=ks,
        mean_gap=gap,
        auc_delta=auc([c - k for c, k, _ in adv], [c - k for c, k, _ in coop]),
        auc_confidence=auc(adv_conf, coop_conf),
        adversarial_auto_eligible=sum(e for _, _, e in adv),
    )


def default_delta(scorers: Sequence[Scorer] = ()) -> DeltaReport:
    return delta_eval(load_items(COOPERATIVE), load_items(ADVERSARIAL), scorers)
