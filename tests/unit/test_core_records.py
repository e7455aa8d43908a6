"""flat_dict is dataclasses.asdict for the flat records decisions are made of."""

from __future__ import annotations

from dataclasses import asdict, fields

from mailmoat.core.features import Features
from mailmoat.core.lanes import Lane
from mailmoat.core.policy import Facts
from mailmoat.core.records import flat_dict
from mailmoat.core.signals import Signals


def test_flat_dict_equals_asdict_for_every_decision_record() -> None:
    records = [
        Signals(), Signals(scheduling=True, bulk=True, action_requested=True),
        Features(0.1, 0.2, 0.3, 0.4),
        Facts(), Facts(pinned_lane=Lane.SILENT, messages_received=3, read_rate=0.5),
    ]
    for record in records:
        assert flat_dict(record) == asdict(record)
        assert record.as_dict() == asdict(record)
        # Flat: no field holds a container that asdict would have copied.
        assert all(not isinstance(getattr(record, f.name), (list, dict, set, tuple))
                   for f in fields(record))


def test_signal_names_are_the_true_fields_in_order() -> None:
    names = [f.name for f in fields(Signals)]
    for chosen in ([], ["scheduling"], ["bulk", "phishing", names[-1]], names):
        signals = Signals(**dict.fromkeys(chosen, True))
        assert signals.names() == tuple(n for n, v in asdict(signals).items() if v)
        assert list(signals.names()) == [n for n in names if n in chosen]
