"""Scorer output validation (S5): reject what is not a finite number, clamp the rest."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.features import FEATURE_NAMES, Features, InvalidFeatures

GOOD = {"confidence": 0.8, "sender_trust": 0.4, "reversibility": 0.9, "urgency": 0.1}


def _with(name: str, value: Any) -> dict[str, Any]:
    return {**GOOD, name: value}


@pytest.mark.parametrize("name", FEATURE_NAMES)
@pytest.mark.parametrize(
    "bad", [math.nan, math.inf, -math.inf, True, False, "0.5", None, [0.5], {"v": 1}]
)
def test_non_numbers_and_non_finite_values_are_rejected(name: str, bad: Any) -> None:
    with pytest.raises(InvalidFeatures):
        Features.from_raw(_with(name, bad))


@pytest.mark.parametrize("name", FEATURE_NAMES)
def test_a_missing_feature_is_rejected_and_named(name: str) -> None:
    raw = {k: v for k, v in GOOD.items() if k != name}
    with pytest.raises(InvalidFeatures, match=name):
        Features.from_raw(raw)


@pytest.mark.parametrize("raw", [None, [0.1, 0.2, 0.3, 0.4], "features", 3])
def test_a_non_mapping_is_rejected(raw: Any) -> None:
    with pytest.raises(InvalidFeatures):
        Features.from_raw(raw)


@pytest.mark.parametrize(("given_value", "clamped"), [(1.02, 1.0), (-0.3, 0.0), (7, 1.0),
                                                      (-(10**400), 0.0), (10**400, 1.0)])
def test_finite_out_of_range_values_are_clamped(given_value: Any, clamped: float) -> None:
    assert Features.from_raw(_with("urgency", given_value)).urgency == clamped


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_float_lands_in_the_unit_interval(value: float) -> None:
    f = Features.from_raw(_with("confidence", value))
    assert 0.0 <= f.confidence <= 1.0
    if 0.0 <= value <= 1.0:
        assert f.confidence == value  # in range: passed through unchanged


@given(st.dictionaries(st.sampled_from([*FEATURE_NAMES, "lane", "extra"]),
                       st.one_of(st.floats(), st.integers(), st.booleans(), st.text(),
                                 st.none())))
def test_from_raw_either_validates_or_raises_invalid_features(raw: dict[str, Any]) -> None:
    try:
        f = Features.from_raw(raw)
    except InvalidFeatures:
        return
    for name in FEATURE_NAMES:
        value = getattr(f, name)
        assert isinstance(value, float) and 0.0 <= value <= 1.0


def test_the_constructor_does_not_clamp() -> None:
    # Clamping is for untrusted scorer output only; code building Features directly with a
    # value out of range has a bug, and it must surface.
    with pytest.raises(InvalidFeatures):
        Features(confidence=1.5, sender_trust=0.5, reversibility=0.5, urgency=0.5)
    with pytest.raises(InvalidFeatures):
        Features(confidence=math.nan, sender_trust=0.5, reversibility=0.5, urgency=0.5)


def test_extra_keys_do_not_leak_into_features() -> None:
    f = Features.from_raw({**GOOD, "lane": "SILENT"})
    assert set(f.as_dict()) == set(FEATURE_NAMES)
